//! `OXHLO_BACKEND=cuda` in the plugin: single-device programs run on the CUDA backend (`oxhlo-cuda`) when
//! a usable GPU is present; otherwise one log line says why and the CPU backend runs them. The CPU
//! runner owns the conversions between host arrays and native values and calls in here.

use crate::error::{Error, Result};
use oxhlo_cpu::{OptLevel, Val};
use oxhlo_cuda::CudaProgram;
use oxhlo_interp::custom_call::CustomCallRegistry;
use oxhlo_ir::Module;
use std::sync::{Arc, Once};

/// A program compiled for the GPU.
pub struct CudaRunner {
    program: CudaProgram,
}

/// Whether the environment asks for the CUDA backend.
pub fn cuda_requested() -> bool {
    std::env::var("OXHLO_BACKEND").is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "cuda" | "gpu"))
}

impl CudaRunner {
    /// Compiles `module` for the GPU when `OXHLO_BACKEND=cuda` and a GPU is usable; None otherwise.
    pub fn build(module: &Module, registry: Arc<CustomCallRegistry>, level: OptLevel) -> Result<Option<CudaRunner>> {
        if !cuda_requested() {
            return Ok(None);
        }
        if let Err(why) = oxhlo_cuda::available() {
            static ONCE: Once = Once::new();
            ONCE.call_once(|| eprintln!("oxhlo: OXHLO_BACKEND=cuda but no usable CUDA device ({why}); using the CPU backend"));
            return Ok(None);
        }
        let opt = oxhlo_cpu::pipeline::opt_options_from_env(level);
        let program = oxhlo_cuda::compile(module.clone(), &opt, &oxhlo_cuda::options_at(level), Some(registry))
            .map_err(|m| Error::internal(format!("oxhlo CUDA backend: {m}")))?;
        crate::log::info(|| "compiled for the CUDA backend".to_string());
        Ok(Some(CudaRunner { program }))
    }

    /// Runs the entry function on one device's arguments.
    pub fn run(&self, vals: Vec<Val>) -> Result<Vec<Val>> {
        let res = oxhlo_interp::eval::on_big_stack(|| self.program.run(vals));
        res.and_then(|r| r).map_err(|e| Error::invalid(format!("oxhlo: the program failed on the GPU: {e}")))
    }
}
