//! The CUDA backend behind the facade: the verified module is optimized at the compile options' level
//! and compiled by `oxhlo_cuda` (fused kernels on the GPU, cuBLAS products, host fallback per op); buffers
//! cross as native tensors (host arrays; results are copied back after each execution).

use super::{Profile, Program};
use crate::backend::OptLevel;
use crate::buffer::Buffer;
use crate::dtype::DType;
use crate::error::{Diagnostic, Error, ErrorKind, Result};
use oxhlo_cpu::{Buf, Kind, NTensor, Val};
use oxhlo_cuda::CudaProgram;
use oxhlo_interp::{InterpError, RtValue};
use oxhlo_ir::{Module, TensorType};
use std::sync::Arc;
use std::time::Instant;

/// A module compiled for the CUDA backend.
pub(crate) struct CudaBackendProgram {
    program: Arc<CudaProgram>,
    entry: String,
    entry_loc: String,
}

fn opt_level(level: OptLevel) -> oxhlo_cpu::OptLevel {
    match level {
        OptLevel::O0 => oxhlo_cpu::OptLevel::O0,
        OptLevel::O1 => oxhlo_cpu::OptLevel::O1,
        OptLevel::O2 => oxhlo_cpu::OptLevel::O2,
        OptLevel::O3 => oxhlo_cpu::OptLevel::O3,
    }
}

impl CudaBackendProgram {
    pub(crate) fn new(module: Module, level: OptLevel) -> Result<CudaBackendProgram> {
        let f = module.entry().ok_or_else(|| Error::invalid("the module has no entry function"))?;
        let (entry, entry_loc) = (f.name.clone(), f.loc.to_string());
        let lvl = opt_level(level);
        let opt = oxhlo_cpu::pipeline::opt_options_from_env(lvl);
        let opts = oxhlo_cuda::CudaOptions { allow_tf32: oxhlo_cuda::tf32_from_env(), ..oxhlo_cuda::options_at(lvl) };
        let program = oxhlo_cuda::compile(module, &opt, &opts, None)
            .map_err(|m| Error::new(ErrorKind::Internal, format!("CUDA backend: {m}")))?;
        Ok(CudaBackendProgram { program: Arc::new(program), entry, entry_loc })
    }
}

fn runtime(e: InterpError) -> Error {
    let what = if e.op.is_empty() { e.message.clone() } else { format!("{}: {}", e.op, e.message) };
    Error::with_diagnostics(ErrorKind::Runtime, what.clone(), vec![Diagnostic::from_ir(&e.loc, what)])
}

fn to_val(b: &Buffer) -> Result<Val> {
    let elem = b.element_type().to_ir();
    let ty = TensorType::new(b.shape().iter().map(|&d| d as i64).collect(), elem.clone());
    match Kind::of(&elem) {
        Some(kind) => Ok(Val::Native(NTensor::new(ty, Buf::from_le_bytes(kind, b.as_bytes()).map_err(Error::invalid)?))),
        None => Ok(Val::Other(RtValue::Tensor(b.to_tensor()?))),
    }
}

fn from_val(v: &Val, i: usize, entry: &str) -> Result<Buffer> {
    match v {
        Val::Native(n) => Buffer::from_bytes(DType::from_ir(&n.ty.elem)?, &n.dims(), &n.buf.to_le_bytes()),
        Val::Other(RtValue::Tensor(t)) => Buffer::from_tensor(t),
        Val::Other(_) => Err(Error::unsupported(format!("result {i} of @{entry} is not a tensor"))),
    }
}

impl Program for CudaBackendProgram {
    fn execute(&self, inputs: &[&Buffer], profile: Option<&mut Profile>) -> Result<Vec<Buffer>> {
        let args = inputs.iter().map(|b| to_val(b)).collect::<Result<Vec<_>>>()?;
        let program = Arc::clone(&self.program);
        let start = Instant::now();
        let results = super::worker::run(move || program.run(args).map_err(runtime))?;
        if let Some(p) = profile {
            p.record(0, start.elapsed(), || (format!("@{} (cuda)", self.entry), self.entry_loc.clone()));
        }
        results.iter().enumerate().map(|(i, v)| from_val(v, i, &self.entry)).collect()
    }
}
