//! `OXHLO_PROFILE=1`: per-step times of each CPU-backend run, summed by op name (fused kernels by their
//! ops, fallbacks to the interpreter counted separately), printed to stderr after the run, longest first.
//! `OXHLO_PROFILE=2` keys single ops by their operand and result types too (which GEMM shapes cost what).
//! The tool for finding where a program's time goes.

use std::collections::HashMap;
use std::time::Duration;

/// The profiling level asked for (read once per compile): 0 off, 1 by op name, 2 by op name and types.
pub fn level_from_env() -> u8 {
    match std::env::var("OXHLO_PROFILE") {
        Ok(v) if v.trim() == "2" => 2,
        Ok(v) if !v.trim().is_empty() && v.trim() != "0" => 1,
        _ => 0,
    }
}

/// Times of one run, by step name.
#[derive(Default)]
pub struct RunProfile {
    entries: HashMap<String, (u64, Duration)>,
}

impl RunProfile {
    pub fn record(&mut self, name: impl FnOnce() -> String, time: Duration) {
        let e = self.entries.entry(name()).or_default();
        e.0 += 1;
        e.1 += time;
    }

    /// The table: one line per step name (calls, total ms, share), longest first, then the total.
    pub fn render(&self) -> String {
        let mut rows: Vec<_> = self.entries.iter().collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.1 .1));
        let total: Duration = rows.iter().filter(|(k, _)| !k.starts_with("  ")).map(|(_, v)| v.1).sum();
        let mut s = format!("oxhlo CPU profile: {:.3} ms in steps\n", total.as_secs_f64() * 1e3);
        for (name, (calls, t)) in rows.iter().take(40) {
            let share = if total.is_zero() { 0.0 } else { t.as_secs_f64() / total.as_secs_f64() * 100.0 };
            s.push_str(&format!("{:>10.3} ms {:>5.1}% {:>7} x  {name}\n", t.as_secs_f64() * 1e3, share, calls));
        }
        s
    }
}
