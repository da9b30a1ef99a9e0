//! The plugin on a GPU: with `OXHLO_BACKEND=cuda`, or unset, single-device programs run on the CUDA backend
//! (`oxhlo-cuda`) when a usable GPU is present; otherwise the CPU backend runs them (asked for by name, one
//! log line says why). Arrays stay on
//! the device across executions: an input whose storage already has a device copy (a result of an
//! earlier GPU run, or host data uploaded by one) is passed as is, host data is uploaded once and the
//! copy kept with its storage, and device results become device-resident storage (copied to the host
//! only when the framework reads them).

use super::{ArraySpec, HostArray};
use crate::dtype::BufferType;
use crate::error::{Error, Result};
use crate::host_bytes::HostBytes;
use oxhlo_cpu::{Kind, OptLevel, Val};
use oxhlo_cuda::device::Gpu;
use oxhlo_cuda::{CudaProgram, DVal};
use oxhlo_interp::custom_call::CustomCallRegistry;
use oxhlo_ir::{Module, TensorType};
use std::sync::{Arc, Once};

/// A program compiled for the GPU.
pub struct CudaRunner {
    program: CudaProgram,
    gpu: Arc<Gpu>,
    /// Runs may recurse through control flow: they go to a big-stack worker instead of running on the
    /// caller's thread (`oxhlo_interp::eval::on_enough_stack`).
    deep: bool,
}

/// Whether the environment asks for the CUDA backend by name.
pub fn cuda_requested() -> bool {
    std::env::var("OXHLO_BACKEND").is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "cuda" | "gpu"))
}

/// Whether `OXHLO_BACKEND` is unset or empty: programs then run on the GPU when one is usable.
pub(crate) fn backend_unset() -> bool {
    std::env::var("OXHLO_BACKEND").map(|v| v.trim().is_empty()).unwrap_or(true)
}

impl CudaRunner {
    /// Compiles `module` for the GPU when `OXHLO_BACKEND=cuda` (or is unset) and a GPU is usable; None
    /// otherwise (CPU backend). Asked for by name, a missing GPU is said once on stderr; left unset, a
    /// program the GPU backend cannot compile also falls back to the CPU, with a log line.
    pub fn build(module: &Module, registry: Arc<CustomCallRegistry>, level: OptLevel) -> Result<Option<CudaRunner>> {
        let explicit = cuda_requested();
        if !explicit && !backend_unset() {
            return Ok(None);
        }
        let gpu = match oxhlo_cuda::available().and_then(|_| oxhlo_cuda::device::gpu()) {
            Ok(g) => g,
            Err(why) => {
                if explicit {
                    static ONCE: Once = Once::new();
                    ONCE.call_once(|| eprintln!("oxhlo: OXHLO_BACKEND=cuda but no usable CUDA device ({why}); using the CPU backend"));
                }
                return Ok(None);
            }
        };
        let opt = oxhlo_cpu::pipeline::opt_options_from_env(level);
        let opts = oxhlo_cuda::CudaOptions { allow_tf32: oxhlo_cuda::tf32_from_env(), ..oxhlo_cuda::options_at(level) };
        let program = match oxhlo_cuda::compile(module.clone(), &opt, &opts, Some(registry)) {
            Ok(p) => p,
            Err(m) if !explicit => {
                crate::log::info(|| format!("the CUDA backend cannot compile this program ({m}); using the CPU backend"));
                return Ok(None);
            }
            Err(m) => return Err(Error::internal(format!("oxhlo CUDA backend: {m}"))),
        };
        crate::log::info(|| "compiled for the CUDA backend".to_string());
        let deep = oxhlo_interp::eval::needs_deep_stack(program.module());
        Ok(Some(CudaRunner { program, gpu, deep }))
    }

    /// Runs the entry function on one device's arguments; results stay on the device.
    pub fn run(&self, args: &[HostArray]) -> Result<Vec<HostArray>> {
        let (outs, in_flight) = self.run_async(args, true)?;
        if let Some(wait) = in_flight {
            wait()?;
        }
        Ok(outs)
    }

    /// [`CudaRunner::run`] that returns once the device work is enqueued (the results are valid in
    /// stream order) with what says when it is done; runs that must be timed wait inside. A caller
    /// expected to wait at once (`caller_waits`) gets short work waited for here
    /// ([`oxhlo_cuda::CudaProgram::run_device_enqueued`]).
    pub fn run_async(&self, args: &[HostArray], caller_waits: bool) -> Result<(Vec<HostArray>, Option<super::InFlight>)> {
        let vals = args.iter().map(|a| self.input(a)).collect::<Result<Vec<_>>>()?;
        let res = oxhlo_interp::eval::on_enough_stack(self.deep, || self.program.run_device_enqueued(vals, caller_waits));
        let (outs, in_flight) = res.and_then(|r| r).map_err(|e| Error::invalid(format!("oxhlo: the program failed on the GPU: {e}")))?;
        let outs = outs.into_iter().enumerate().map(|(k, v)| output(k, v)).collect::<Result<Vec<_>>>()?;
        let in_flight = in_flight.map(|f| -> super::InFlight {
            Box::new(move || f.wait().map_err(|e| Error::internal(format!("oxhlo: the program failed on the GPU: {e}"))))
        });
        Ok((outs, in_flight))
    }

    /// An argument as a device tensor (its storage's device copy, made once) where its element type has
    /// a device layout; as a host value otherwise.
    fn input(&self, a: &HostArray) -> Result<DVal> {
        let elem = a.spec.ty.to_ir().ok_or_else(|| Error::invalid(format!("no IR element type for {}", a.spec.ty.name())))?;
        let Some(kind) = Kind::of(&elem) else {
            return super::cpu::to_val(a).map(DVal::Host);
        };
        let ty = TensorType::new(a.spec.dims.clone(), elem);
        let d = a.bytes.device_or_upload(|| match super::cpu::to_val(a)? {
            Val::Native(n) => self.gpu.upload(&n).map_err(|e| Error::internal(format!("oxhlo: copying an argument to the GPU: {e}"))),
            Val::Other(_) => Err(Error::internal(format!("oxhlo: {} has no native layout", a.spec))),
        })?;
        let n = ty.num_elements().unwrap_or(0);
        if d.kind != kind || d.len != n {
            return Err(Error::invalid(format!("an argument on the GPU holds {} {:?} elements, {} expects {n} {kind:?}", d.len, d.kind, a.spec)));
        }
        Ok(DVal::Device(d.retyped(ty)))
    }
}

/// A result as an array: device tensors stay on the device.
fn output(k: usize, v: DVal) -> Result<HostArray> {
    match v {
        DVal::Device(d) => {
            let ty = BufferType::from_ir(&d.ty.elem).ok_or_else(|| {
                Error::unimplemented(format!("a result of element type {:?} cannot be returned through PJRT", d.ty.elem))
            })?;
            let spec = ArraySpec { ty, dims: d.ty.shape.clone() };
            Ok(HostArray { spec, bytes: HostBytes::device(d) })
        }
        DVal::Host(h) => super::cpu::from_val(k, &h),
    }
}
