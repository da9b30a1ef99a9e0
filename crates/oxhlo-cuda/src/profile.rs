//! `OXHLO_PROFILE=1` for the CUDA backend: every step of a run is timed to completion (a device
//! synchronization after each, so GPU time and host overhead are both in it) and, after each run, the
//! steps are printed to stderr grouped by label (op name and operand shapes, `host` for steps that ran
//! on the host), largest total first. `OXHLO_PROFILE=launch` times the host side of each step only (no
//! synchronization: what planning, allocating and launching cost while the GPU runs behind). Profiling
//! slows runs down; it says where their time goes.

use oxhlo_ir::{Func, Op, Type};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// Whether `OXHLO_PROFILE` asks for per-step times.
pub fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXHLO_PROFILE").is_ok_and(|v| !matches!(v.trim(), "" | "0")))
}

/// Whether steps are timed on the host side only (`OXHLO_PROFILE=launch`), without synchronizing.
pub fn host_side_only() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXHLO_PROFILE").is_ok_and(|v| v.trim().eq_ignore_ascii_case("launch")))
}

/// `name(shape, shape) -> shape`, prefixed with `host ` when it ran on the host.
pub fn op_label(func: &Func, op: &Op, on_host: bool) -> String {
    let ty = |v: &oxhlo_ir::Value| match func.try_ty(*v) {
        Some(Type::Tensor(t)) => format!("{:?}", t.shape),
        _ => "?".into(),
    };
    let ins: Vec<String> = op.operands.iter().take(3).map(ty).collect();
    let outs: Vec<String> = op.results.iter().take(1).map(ty).collect();
    format!("{}{}({}) -> {}", if on_host { "host " } else { "" }, op.name(), ins.join(", "), outs.join(", "))
}

/// Accumulated step times of one program.
#[derive(Debug, Default)]
pub struct Profile {
    steps: Mutex<HashMap<String, (usize, Duration)>>,
}

impl Profile {
    pub fn record(&self, label: String, d: Duration) {
        if let Ok(mut m) = self.steps.lock() {
            let e = m.entry(label).or_default();
            e.0 += 1;
            e.1 += d;
        }
    }

    /// Prints the run's steps (top 25 by total time, and the totals) and starts over.
    pub fn report(&self) {
        let Ok(mut m) = self.steps.lock() else { return };
        let mut rows: Vec<(String, (usize, Duration))> = m.drain().collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.1 .1));
        let total: Duration = rows.iter().map(|r| r.1 .1).sum();
        let steps: usize = rows.iter().map(|r| r.1 .0).sum();
        let host: Duration = rows.iter().filter(|r| r.0.starts_with("host ")).map(|r| r.1 .1).sum();
        let what = if host_side_only() { "host side only, not synchronized" } else { "each step synchronized" };
        eprintln!("oxhlo-cuda profile ({what}): {steps} steps, {:.3} ms (host steps {:.3} ms)", total.as_secs_f64() * 1e3, host.as_secs_f64() * 1e3);
        for (label, (n, d)) in rows.iter().take(25) {
            eprintln!("  {:9.3} ms {n:5}x  {label}", d.as_secs_f64() * 1e3);
        }
    }
}
