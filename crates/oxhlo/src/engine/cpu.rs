//! The CPU backend behind the facade: the verified module is optimized and planned by
//! `oxhlo_cpu::pipeline` at the compile options' level and run on the caller's thread (on a big-stack
//! worker when it has control flow or the thread too little stack); buffers cross as
//! native tensors (bytes copied once, no conversion through the interpreter's representation), and
//! element types without a native layout go through the interpreter's tensors.

use super::{Profile, Program};
use crate::backend::OptLevel;
use crate::buffer::Buffer;
use crate::dtype::DType;
use crate::error::{Diagnostic, Error, ErrorKind, Result};
use oxhlo_cpu::{Buf, CpuProgram, Kind, NTensor, Val};
use oxhlo_interp::{InterpError, RtValue};
use oxhlo_ir::{Module, TensorType};
use std::sync::Arc;
use std::time::Instant;

/// A module compiled for the CPU backend.
pub(crate) struct CpuBackendProgram {
    program: Arc<CpuProgram>,
    entry: String,
    entry_loc: String,
    /// Runs may recurse through control flow: a big-stack worker's (others run on the caller's thread).
    deep: bool,
}

/// The optimizer's level for a facade level.
fn opt_level(level: OptLevel) -> oxhlo_cpu::OptLevel {
    match level {
        OptLevel::O0 => oxhlo_cpu::OptLevel::O0,
        OptLevel::O1 => oxhlo_cpu::OptLevel::O1,
        OptLevel::O2 => oxhlo_cpu::OptLevel::O2,
        OptLevel::O3 => oxhlo_cpu::OptLevel::O3,
    }
}

impl CpuBackendProgram {
    pub(crate) fn new(module: Module, level: OptLevel) -> Result<CpuBackendProgram> {
        let f = module.entry().ok_or_else(|| Error::invalid("the module has no entry function"))?;
        let (entry, entry_loc) = (f.name.clone(), f.loc.to_string());
        let opt = oxhlo_cpu::pipeline::opt_options_from_env(opt_level(level));
        let (program, _) = oxhlo_cpu::pipeline::compile(module, &opt, None)
            .map_err(|m| Error::new(ErrorKind::Internal, format!("CPU backend: {m}")))?;
        let deep = oxhlo_interp::eval::needs_deep_stack(program.module());
        Ok(CpuBackendProgram { program: Arc::new(program), entry, entry_loc, deep })
    }
}

fn runtime(e: InterpError) -> Error {
    let what = if e.op.is_empty() { e.message.clone() } else { format!("{}: {}", e.op, e.message) };
    Error::with_diagnostics(ErrorKind::Runtime, what.clone(), vec![Diagnostic::from_ir(&e.loc, what)])
}

/// A buffer as a CPU-backend value: native when its element type has a native layout.
fn to_val(b: &Buffer) -> Result<Val> {
    let elem = b.element_type().to_ir();
    let ty = TensorType::new(b.shape().iter().map(|&d| d as i64).collect(), elem.clone());
    match Kind::of(&elem) {
        Some(kind) => {
            let buf = Buf::from_le_bytes(kind, b.as_bytes()).map_err(Error::invalid)?;
            Ok(Val::Native(NTensor::new(ty, buf)))
        }
        None => Ok(Val::Other(RtValue::Tensor(b.to_tensor()?))),
    }
}

fn from_val(v: &Val, i: usize, entry: &str) -> Result<Buffer> {
    match v {
        Val::Native(n) => {
            let dtype = DType::from_ir(&n.ty.elem)?;
            let shape: Vec<usize> = n.dims();
            Buffer::from_bytes(dtype, &shape, &n.buf.to_le_bytes())
        }
        Val::Other(RtValue::Tensor(t)) => Buffer::from_tensor(t),
        Val::Other(_) => Err(Error::unsupported(format!("result {i} of @{entry} is not a tensor"))),
    }
}

impl Program for CpuBackendProgram {
    fn execute(&self, inputs: &[&Buffer], profile: Option<&mut Profile>) -> Result<Vec<Buffer>> {
        let args = inputs.iter().map(|b| to_val(b)).collect::<Result<Vec<_>>>()?;
        let program = &self.program;
        let start = Instant::now();
        let results = super::worker::run_compiled(self.deep, move || program.run(args).map_err(runtime))?;
        if let Some(p) = profile {
            p.record(0, start.elapsed(), || (format!("@{} (cpu)", self.entry), self.entry_loc.clone()));
        }
        results.iter().enumerate().map(|(i, v)| from_val(v, i, &self.entry)).collect()
    }
}
