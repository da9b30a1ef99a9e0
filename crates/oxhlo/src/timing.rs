//! Execution timings returned by [`Executable::execute_with_timing`](crate::Executable::execute_with_timing):
//! the total wall time of one execution and the time of each kernel (on the interpreter, each op).

use std::fmt;
use std::time::Duration;

/// The time spent in one kernel of an execution, summed over all the times it ran (ops inside loop bodies
/// run many times).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelTiming {
    /// What ran: the op name on the interpreter (`stablehlo.dot_general`), the kernel name on compiled
    /// backends.
    pub name: String,
    /// Where it comes from in the program (`file:line:col`), or `<unknown>`.
    pub location: String,
    /// How many times it ran.
    pub calls: u64,
    /// Total time over all calls.
    pub time: Duration,
}

/// Timings of one execution.
///
/// `Display` prints a table, slowest kernel first:
///
/// ```text
///   time (us)   share  calls  kernel                   location
///       12.3   61.5%      1  stablehlo.dot_general    model.mlir:3:10
/// ...
/// total 20.0 us over 3 kernels
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ExecutionTiming {
    /// Wall time of the whole execution, from the inputs being checked to the outputs being ready.
    pub total: Duration,
    /// One entry per kernel, in the order each first ran.
    pub kernels: Vec<KernelTiming>,
}

impl ExecutionTiming {
    /// The sum of the kernels' times (less than or equal to [`total`](ExecutionTiming::total), which also
    /// counts the work between kernels).
    pub fn kernel_time(&self) -> Duration {
        self.kernels.iter().map(|k| k.time).sum()
    }

    /// The kernels, slowest first.
    pub fn slowest(&self) -> Vec<&KernelTiming> {
        let mut v: Vec<&KernelTiming> = self.kernels.iter().collect();
        v.sort_by_key(|k| std::cmp::Reverse(k.time));
        v
    }
}

impl fmt::Display for ExecutionTiming {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name_w = self.kernels.iter().map(|k| k.name.len()).max().unwrap_or(6).max(6);
        writeln!(f, "{:>12}  {:>6}  {:>6}  {:<name_w$}  location", "time (us)", "share", "calls", "kernel")?;
        let total_us = self.total.as_secs_f64() * 1e6;
        for k in self.slowest() {
            let us = k.time.as_secs_f64() * 1e6;
            let share = if total_us > 0.0 { 100.0 * us / total_us } else { 0.0 };
            writeln!(f, "{us:>12.1}  {share:>5.1}%  {:>6}  {:<name_w$}  {}", k.calls, k.name, k.location)?;
        }
        write!(f, "total {total_us:.1} us over {} kernels", self.kernels.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sorts_slowest_first() {
        let t = ExecutionTiming {
            total: Duration::from_micros(30),
            kernels: vec![
                KernelTiming { name: "a".into(), location: "x:1:1".into(), calls: 1, time: Duration::from_micros(5) },
                KernelTiming { name: "b".into(), location: "x:2:1".into(), calls: 2, time: Duration::from_micros(20) },
            ],
        };
        assert_eq!(t.kernel_time(), Duration::from_micros(25));
        let s = t.to_string();
        let (ia, ib) = (s.find("x:1:1").unwrap(), s.find("x:2:1").unwrap());
        assert!(ib < ia, "{s}");
        assert!(s.ends_with("total 30.0 us over 2 kernels"), "{s}");
    }
}
