//! The `oxhlo` public API (`oxhlo::Client` / `Executable` / `Buffer`) as a backend, selected with
//! `OXHLO_ENGINE=api`: it picks up whatever backend `oxhlo` resolves (`OXHLO_BACKEND`). It runs
//! single-device programs only, without the plugin's JAX-specific custom calls, host callbacks or
//! donation, which need the module-level hooks the interpreter backend has; the interpreter backend
//! stays the default until the API offers them.

use super::{ArraySpec, Backend, CompileRequest, Donation, HostArray, Launch, Program};
use crate::dtype::BufferType;
use crate::error::{Error, Result};
use std::sync::Arc;

/// Compiles through an `oxhlo::Client`.
pub struct ApiBackend {
    client: oxhlo::Client,
}

impl ApiBackend {
    pub fn new() -> Result<ApiBackend> {
        let client = oxhlo::Client::new().map_err(|e| Error::invalid(format!("oxhlo: cannot create a client: {e}")))?;
        Ok(ApiBackend { client })
    }
}

fn convert(e: oxhlo::Error) -> Error {
    let mut msg = e.to_string();
    for d in e.diagnostics() {
        msg.push_str(&format!("\n{d}"));
    }
    Error::invalid(format!("oxhlo: {msg}"))
}

fn spec(t: &oxhlo::TensorSpec, what: &str) -> Result<ArraySpec> {
    let ty = BufferType::from_ir(&t.dtype.to_ir())
        .ok_or_else(|| Error::unimplemented(format!("{what} has element type {}, which PJRT cannot hold", t.dtype.name())))?;
    let dims = t
        .shape
        .iter()
        .map(|d| d.map(|d| d as i64).ok_or_else(|| Error::unimplemented(format!("{what} has a dynamic shape"))))
        .collect::<Result<Vec<_>>>()?;
    Ok(ArraySpec { ty, dims })
}

impl Backend for ApiBackend {
    fn describe(&self) -> String {
        format!("oxhlo {} (oxhlo API, {} backend)", oxhlo::VERSION, self.client.backend())
    }

    fn compile(&self, req: &CompileRequest) -> Result<Arc<dyn Program>> {
        if req.format != "mlir" {
            return Err(Error::invalid(format!("oxhlo compiles \"mlir\" programs; got \"{}\"", req.format)));
        }
        if req.options.num_replicas * req.options.num_partitions != 1 {
            return Err(Error::unimplemented("OXHLO_ENGINE=api runs single-device programs only"));
        }
        let exe = self.client.compile(req.code).map_err(convert)?;
        let inputs = exe.inputs().iter().enumerate().map(|(i, t)| spec(t, &format!("argument {i}"))).collect::<Result<_>>()?;
        let outputs = exe.outputs().iter().enumerate().map(|(i, t)| spec(t, &format!("result {i}"))).collect::<Result<_>>()?;
        Ok(Arc::new(ApiProgram { name: exe.entry_name().to_string(), exe, inputs, outputs }))
    }
}

struct ApiProgram {
    name: String,
    exe: oxhlo::Executable,
    inputs: Vec<ArraySpec>,
    outputs: Vec<ArraySpec>,
}

fn dtype(t: BufferType) -> Result<oxhlo::DType> {
    let e = t.to_ir().ok_or_else(|| Error::invalid(format!("no element type for {}", t.name())))?;
    oxhlo::DType::from_ir(&e).map_err(convert)
}

impl Program for ApiProgram {
    fn name(&self) -> &str {
        &self.name
    }
    fn inputs(&self) -> &[ArraySpec] {
        &self.inputs
    }
    fn outputs(&self) -> &[ArraySpec] {
        &self.outputs
    }
    fn donations(&self) -> &[Donation] {
        &[]
    }
    fn text(&self) -> String {
        format!("{} (compiled by the oxhlo API)", self.name)
    }
    fn execute(&self, args: Vec<Vec<HostArray>>, launch: &Launch) -> Result<Vec<Vec<HostArray>>> {
        if launch.logical_ids.len() != 1 || args.len() != 1 {
            return Err(Error::unimplemented("OXHLO_ENGINE=api runs single-device programs only"));
        }
        let bufs = args[0]
            .iter()
            .map(|a| {
                let shape: Vec<usize> = a.spec.dims.iter().map(|&d| d as usize).collect();
                oxhlo::Buffer::from_bytes(dtype(a.spec.ty)?, &shape, &a.bytes).map_err(convert)
            })
            .collect::<Result<Vec<_>>>()?;
        let refs: Vec<&oxhlo::Buffer> = bufs.iter().collect();
        let outs = self.exe.execute(&refs).map_err(convert)?;
        let host = outs
            .iter()
            .zip(&self.outputs)
            .map(|(b, s)| HostArray { spec: s.clone(), bytes: crate::host_bytes::HostBytes::from(b.as_bytes().to_vec()) })
            .collect();
        Ok(vec![host])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::CompileOptions;

    #[test]
    fn programs_run_through_the_public_api() {
        let src = "func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {\n  %0 = stablehlo.multiply %a, %a : tensor<2xi32>\n  return %0 : tensor<2xi32>\n}\n";
        let b = ApiBackend::new().unwrap();
        let opts = CompileOptions::default();
        let p = b.compile(&CompileRequest { format: "mlir", code: src.as_bytes(), options: &opts }).unwrap();
        assert_eq!(p.inputs(), &[ArraySpec::new(BufferType::S32, &[2])]);
        let x = HostArray { spec: ArraySpec::new(BufferType::S32, &[2]), bytes: crate::host_bytes::HostBytes::from([3i32, -4].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()) };
        let launch = Launch { logical_ids: vec![(0, 0)], num_replicas: 1, num_partitions: 1, host: vec![], caller_waits: true };
        let out = p.execute(vec![vec![x]], &launch).unwrap();
        assert_eq!(*out[0][0].bytes, [9i32, 16].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>());
        let e = b.compile(&CompileRequest { format: "mlir", code: b"func.func @main(", options: &opts }).err().unwrap();
        assert!(e.message.starts_with("oxhlo:"), "{}", e.message);
    }
}
