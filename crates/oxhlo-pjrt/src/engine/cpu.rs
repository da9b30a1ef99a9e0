//! The plugin's fast path: single-device programs without host callbacks run on the CPU backend
//! (`oxhlo-cpu`, optimized at `OXHLO_OPT_LEVEL`, default 2). Host arrays cross as native tensors: a
//! buffer's typed storage is shared with the program and results become buffers, never copied.
//! `OXHLO_BACKEND=interpreter` keeps every program on the reference interpreter.

use super::{ArraySpec, HostArray};
use crate::dtype::BufferType;
use crate::error::{Error, Result};
use crate::host_bytes::HostBytes;
use oxhlo_cpu::{Buf, CpuProgram, Kind, NTensor, OptLevel, Val};
use oxhlo_interp::custom_call::CustomCallRegistry;
use oxhlo_interp::RtValue;
use oxhlo_ir::{Module, TensorType};
use std::sync::Arc;

/// A program compiled for the CPU backend.
pub struct CpuRunner {
    /// None when the program runs on the GPU (it is then not compiled for the CPU at all).
    program: Option<CpuProgram>,
    /// The GPU compilation when `OXHLO_BACKEND=cuda` and a GPU is usable.
    cuda: Option<super::cuda::CudaRunner>,
    /// Runs may recurse through control flow: they go to a big-stack worker instead of running on the
    /// caller's thread (`oxhlo_interp::eval::on_enough_stack`).
    deep: bool,
}

/// Whether the environment asks for the interpreter instead of the CPU backend.
pub(crate) fn interpreter_requested() -> bool {
    std::env::var("OXHLO_BACKEND").is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "interpreter" | "interp" | "reference"))
}

impl CpuRunner {
    /// Compiles `module` for the CPU backend, or None when the interpreter was asked for.
    pub fn build(module: &Module, registry: Arc<CustomCallRegistry>) -> Result<Option<CpuRunner>> {
        if interpreter_requested() {
            return Ok(None);
        }
        let level = match std::env::var("OXHLO_OPT_LEVEL") {
            Ok(v) if !v.trim().is_empty() => v.parse::<OptLevel>().map_err(|e| Error::invalid(format!("OXHLO_OPT_LEVEL: {e}")))?,
            _ => OptLevel::O2,
        };
        let cuda = super::cuda::CudaRunner::build(module, registry.clone(), level)?;
        if cuda.is_some() {
            return Ok(Some(CpuRunner { program: None, cuda, deep: true }));
        }
        let opt = oxhlo_cpu::pipeline::opt_options_from_env(level);
        let (program, report) = oxhlo_cpu::pipeline::compile(module.clone(), &opt, Some(registry))
            .map_err(|m| Error::internal(format!("oxhlo CPU backend: {m}")))?;
        crate::log::info(|| format!("optimized at {level} in {:.3?}", report.total()));
        let deep = oxhlo_interp::eval::needs_deep_stack(program.module());
        Ok(Some(CpuRunner { program: Some(program), cuda: None, deep }))
    }

    /// Runs the entry function on one device's arguments; on the GPU it may return while the device
    /// still computes the results ([`super::Program::execute_async`]).
    pub fn run_async(&self, args: &[HostArray], caller_waits: bool) -> Result<(Vec<HostArray>, Option<super::InFlight>)> {
        match &self.cuda {
            Some(cuda) => cuda.run_async(args, caller_waits),
            None => self.run(args).map(|o| (o, None)),
        }
    }

    /// Runs the entry function on one device's arguments.
    pub fn run(&self, args: &[HostArray]) -> Result<Vec<HostArray>> {
        if let Some(cuda) = &self.cuda {
            return cuda.run(args);
        }
        let Some(program) = &self.program else { return Err(Error::internal("oxhlo: a program compiled for neither the CPU nor the GPU")) };
        let vals = args.iter().map(to_val).collect::<Result<Vec<_>>>()?;
        let res = oxhlo_interp::eval::on_enough_stack(self.deep, || program.run(vals));
        let outs = res.and_then(|r| r).map_err(|e| Error::invalid(format!("oxhlo: the program failed: {e}")))?;
        outs.iter().enumerate().map(|(k, v)| from_val(k, v)).collect()
    }
}

pub(super) fn to_val(a: &HostArray) -> Result<Val> {
    let elem = a.spec.ty.to_ir().ok_or_else(|| Error::invalid(format!("no IR element type for {}", a.spec.ty.name())))?;
    match Kind::of(&elem) {
        Some(kind) => {
            let ty = TensorType::new(a.spec.dims.clone(), elem);
            // The buffer's typed storage is shared with the program as is; other storage is copied once.
            let buf = match a.bytes.as_native() {
                Some(b) if b.kind() == kind => b.clone(),
                _ => Arc::new(Buf::from_le_bytes(kind, &a.bytes).map_err(Error::invalid)?),
            };
            Ok(Val::Native(NTensor { ty, buf }))
        }
        None => Ok(Val::Other(RtValue::Tensor(super::interp::to_tensor(a)?))),
    }
}

pub(super) fn from_val(k: usize, v: &Val) -> Result<HostArray> {
    match v {
        Val::Native(n) => {
            let ty = BufferType::from_ir(&n.ty.elem).ok_or_else(|| {
                Error::unimplemented(format!("a result of element type {:?} cannot be returned through PJRT", n.ty.elem))
            })?;
            Ok(HostArray { spec: ArraySpec { ty, dims: n.ty.shape.clone() }, bytes: HostBytes::native(n.buf.clone()) })
        }
        Val::Other(RtValue::Tensor(t)) => super::interp::from_tensor(t),
        Val::Other(other) => Err(Error::unimplemented(format!("result {k} is {other:?}, not a tensor"))),
    }
}
