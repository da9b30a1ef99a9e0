//! `OXHLO_PROFILE=1` for the CUDA backend: every step of a run is timed to completion (a device
//! synchronization after each, so GPU time and host overhead are both in it) and, after each run, the
//! steps are printed to stderr grouped by label (op name and operand shapes, `host` for steps that ran
//! on the host), largest total first. `OXHLO_PROFILE=launch` times the host side of each step only (no
//! synchronization: what planning, allocating and launching cost while the GPU runs behind).
//! `OXHLO_PROFILE=gpu` times each step's device work alone: a pair of CUDA events recorded around the
//! step on the stream (nothing synchronized until the run ends), so launch latency and host gaps are
//! left out. Profiling slows runs down (and turns CUDA graphs off); it says where their time goes.

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

/// Whether steps are timed by CUDA events on the stream (`OXHLO_PROFILE=gpu`): device time only.
pub fn gpu_events() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXHLO_PROFILE").is_ok_and(|v| v.trim().eq_ignore_ascii_case("gpu")))
}

/// A fused kernel's label: its ops (in order, repeats counted), its shape and, when it ends in a
/// reduction, the reduction's `[outer, n, inner]` view.
pub fn kernel_label(block: &oxhlo_ir::Block, k: &oxhlo_plan::fusion::FusedKernel, on_host: bool) -> String {
    let mut names: Vec<String> = Vec::new();
    for &i in &k.ops {
        let n = block.ops[i].name().trim_start_matches("stablehlo.").to_string();
        names.push(n);
    }
    let mut ops = names.join(",");
    if ops.len() > 90 {
        ops.truncate(90);
        ops.push_str("...");
    }
    let red = k.reduce.as_ref().map(|e| format!(" reduce[{}x{}x{}]", e.outer, e.n, e.inner)).unwrap_or_default();
    format!("{}fused[{}] {:?}{red}", if on_host { "host " } else { "" }, ops, k.shape)
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
#[derive(Default)]
pub struct Profile {
    steps: Mutex<HashMap<String, (usize, Duration)>>,
    /// `OXHLO_PROFILE=gpu`: (label, start, end) events of the run's steps, read when it ends.
    events: Mutex<Vec<(String, cudarc::driver::CudaEvent, cudarc::driver::CudaEvent)>>,
}

impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Profile")
    }
}

impl Profile {
    pub fn record(&self, label: String, d: Duration) {
        if let Ok(mut m) = self.steps.lock() {
            let e = m.entry(label).or_default();
            e.0 += 1;
            e.1 += d;
        }
    }

    /// Keeps a step's start and end events (`OXHLO_PROFILE=gpu`) until the run's end.
    pub fn record_events(&self, label: String, start: cudarc::driver::CudaEvent, end: cudarc::driver::CudaEvent) {
        if let Ok(mut e) = self.events.lock() {
            e.push((label, start, end));
        }
    }

    /// Prints the run's steps (top 25 by total time, and the totals) and starts over.
    pub fn report(&self) {
        let events: Vec<_> = self.events.lock().map(|mut e| e.drain(..).collect()).unwrap_or_default();
        for (label, a, b) in events {
            if let Ok(ms) = a.elapsed_ms(&b) {
                self.record(label, Duration::from_secs_f64(ms.max(0.0) as f64 / 1e3));
            }
        }
        let Ok(mut m) = self.steps.lock() else { return };
        let mut rows: Vec<(String, (usize, Duration))> = m.drain().collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.1 .1));
        let total: Duration = rows.iter().map(|r| r.1 .1).sum();
        let steps: usize = rows.iter().map(|r| r.1 .0).sum();
        let host: Duration = rows.iter().filter(|r| r.0.starts_with("host ")).map(|r| r.1 .1).sum();
        let what = if gpu_events() {
            "device time of each step, CUDA events"
        } else if host_side_only() {
            "host side only, not synchronized"
        } else {
            "each step synchronized"
        };
        eprintln!("oxhlo-cuda profile ({what}): {steps} steps, {:.3} ms (host steps {:.3} ms)", total.as_secs_f64() * 1e3, host.as_secs_f64() * 1e3);
        for (label, (n, d)) in rows.iter().take(top_rows()) {
            eprintln!("  {:9.3} ms {n:5}x  {label}", d.as_secs_f64() * 1e3);
        }
    }
}

/// How many rows a report prints (`OXHLO_PROFILE_TOP`, default 25).
fn top_rows() -> usize {
    std::env::var("OXHLO_PROFILE_TOP").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(25)
}
