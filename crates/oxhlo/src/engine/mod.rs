//! The seam between the public API and the backends: a backend turns a verified module into a [`Program`],
//! which executes checked inputs and may record per-kernel times into a [`Profile`]. Adding a backend means
//! one module here and one arm in [`compile`].

mod cpu;
mod cuda;
mod interp;
mod worker;

use crate::backend::{Backend, OptLevel};
use crate::buffer::Buffer;
use crate::error::Result;
use crate::timing::KernelTiming;
use oxhlo_ir::Module;
use std::collections::HashMap;
use std::time::Duration;

/// A program compiled for one backend. Implementations must allow concurrent `execute` calls.
pub(crate) trait Program: Send + Sync {
    /// Runs on inputs already checked against the entry function's signature.
    fn execute(&self, inputs: &[&Buffer], profile: Option<&mut Profile>) -> Result<Vec<Buffer>>;
}

/// Compiles a verified module for a resolved backend.
pub(crate) fn compile(backend: Backend, module: Module, opt_level: OptLevel) -> Result<Box<dyn Program>> {
    match backend {
        // The interpreter runs the program as written at every level.
        Backend::Interpreter => Ok(Box::new(interp::InterpProgram::new(module)?)),
        // Multi-process programs (replicas x partitions) run on the interpreter's process grid.
        Backend::Cpu if module.num_replicas().saturating_mul(module.num_partitions()) != 1 => {
            Ok(Box::new(interp::InterpProgram::new(module)?))
        }
        Backend::Cpu => Ok(Box::new(cpu::CpuBackendProgram::new(module, opt_level)?)),
        Backend::Cuda if module.num_replicas().saturating_mul(module.num_partitions()) != 1 => {
            Ok(Box::new(interp::InterpProgram::new(module)?))
        }
        Backend::Cuda => Ok(Box::new(cuda::CudaBackendProgram::new(module, opt_level)?)),
    }
}

/// Per-kernel times of one execution, summed per kernel identity.
#[derive(Default)]
pub(crate) struct Profile {
    kernels: Vec<KernelTiming>,
    index: HashMap<usize, usize>,
}

impl Profile {
    /// Adds one run of kernel `key` (a backend-chosen identity, e.g. an op's address); `describe` gives its
    /// name and location the first time it is seen.
    pub(crate) fn record(&mut self, key: usize, time: Duration, describe: impl FnOnce() -> (String, String)) {
        let slot = match self.index.get(&key) {
            Some(&i) => i,
            None => {
                let (name, location) = describe();
                self.kernels.push(KernelTiming { name, location, calls: 0, time: Duration::ZERO });
                self.index.insert(key, self.kernels.len() - 1);
                self.kernels.len() - 1
            }
        };
        let k = &mut self.kernels[slot];
        k.calls += 1;
        k.time += time;
    }

    /// The kernels, in the order each first ran.
    pub(crate) fn into_kernels(self) -> Vec<KernelTiming> {
        self.kernels
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_sums_per_key() {
        let mut p = Profile::default();
        p.record(7, Duration::from_micros(2), || ("a".into(), "f:1:1".into()));
        p.record(9, Duration::from_micros(1), || ("b".into(), "f:2:1".into()));
        p.record(7, Duration::from_micros(3), || unreachable!());
        let k = p.into_kernels();
        assert_eq!(k.len(), 2);
        assert_eq!((k[0].name.as_str(), k[0].calls, k[0].time), ("a", 2, Duration::from_micros(5)));
    }
}
