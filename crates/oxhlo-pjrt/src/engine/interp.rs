//! The reference-interpreter backend: program bytes are read into an `oxhlo_ir::Module` (MLIR bytecode,
//! e.g. JAX's VHLO portable artifact, or MLIR text) and run by `oxhlo-interp`. Host arrays convert to
//! interpreter tensors through the IR's dense storage, which has the same bytes as PJRT host buffers.

use super::{ArraySpec, Backend, CompileRequest, Donation, HostArray, Launch, Program};
use crate::dtype::BufferType;
use crate::error::{Error, Result};
use oxhlo_interp::Tensor;
use oxhlo_ir::{DenseElements, TensorType, Type};
use std::sync::Arc;

/// The MLIR bytecode magic.
pub const BYTECODE_MAGIC: &[u8] = b"ML\xefR";

/// Compiles with the reference interpreter.
pub struct InterpBackend;

impl Backend for InterpBackend {
    fn describe(&self) -> String {
        format!("oxhlo {} (reference interpreter)", env!("CARGO_PKG_VERSION"))
    }

    fn compile(&self, req: &CompileRequest) -> Result<Arc<dyn Program>> {
        if req.format != "mlir" {
            return Err(Error::invalid(format!(
                "oxhlo compiles programs in the \"mlir\" format (MLIR bytecode or text); got \"{}\"",
                req.format
            )));
        }
        let module = read_module(req.code)?;
        Ok(Arc::new(InterpProgram::new(module)?))
    }
}

/// Reads program bytes into a module.
pub fn read_module(code: &[u8]) -> Result<oxhlo_ir::Module> {
    if code.starts_with(BYTECODE_MAGIC) {
        Err(Error::unimplemented(
            "oxhlo: reading MLIR bytecode (StableHLO portable artifacts) is not wired into the plugin yet",
        ))
    } else if std::str::from_utf8(code).is_ok() {
        Err(Error::unimplemented("oxhlo: reading MLIR text is not wired into the plugin yet"))
    } else {
        Err(Error::invalid("the program is neither MLIR bytecode (no ML\\xefR magic) nor UTF-8 MLIR text"))
    }
}

/// A module ready to run.
pub struct InterpProgram {
    module: oxhlo_ir::Module,
    name: String,
    inputs: Vec<ArraySpec>,
    outputs: Vec<ArraySpec>,
    donations: Vec<Donation>,
}

fn spec_of(t: &Type, what: &str) -> Result<ArraySpec> {
    let tt = t.as_tensor().ok_or_else(|| Error::unimplemented(format!("oxhlo: {what} has type {t:?}, not a tensor")))?;
    if !tt.is_static() {
        return Err(Error::unimplemented(format!("oxhlo: {what} has a dynamic shape {:?}", tt.shape)));
    }
    let ty = BufferType::from_ir(&tt.elem)
        .ok_or_else(|| Error::unimplemented(format!("oxhlo: {what} has element type {:?}, which PJRT cannot hold", tt.elem)))?;
    Ok(ArraySpec { ty, dims: tt.shape.clone() })
}

impl InterpProgram {
    pub fn new(module: oxhlo_ir::Module) -> Result<InterpProgram> {
        let main = module.entry().ok_or_else(|| Error::invalid("the program has no entry function (@main)"))?;
        let inputs =
            main.ty.inputs.iter().enumerate().map(|(i, t)| spec_of(t, &format!("argument {i}"))).collect::<Result<Vec<_>>>()?;
        let outputs =
            main.ty.results.iter().enumerate().map(|(i, t)| spec_of(t, &format!("result {i}"))).collect::<Result<Vec<_>>>()?;
        let mut donations = Vec::new();
        for (i, attrs) in main.arg_attrs.iter().enumerate() {
            for (name, a) in attrs {
                match name.as_str() {
                    "tf.aliasing_output" => donations.push(Donation { input: i, output: a.as_int().map(|o| o as usize) }),
                    "jax.buffer_donor" => donations.push(Donation { input: i, output: None }),
                    _ => {}
                }
            }
        }
        let name = module.name.clone().unwrap_or_else(|| "main".into());
        Ok(InterpProgram { module, name, inputs, outputs, donations })
    }
}

impl Program for InterpProgram {
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
        &self.donations
    }
    fn text(&self) -> String {
        format!("{:#?}", self.module.without_locations())
    }
    fn execute(&self, _args: Vec<Vec<HostArray>>, _launch: &Launch) -> Result<Vec<Vec<HostArray>>> {
        Err(Error::unimplemented("oxhlo: the interpreter's evaluator is not wired into the plugin yet"))
    }
}

/// A host array as an interpreter tensor.
pub fn to_tensor(a: &HostArray) -> Result<Tensor> {
    let elem = a.spec.ty.to_ir().ok_or_else(|| Error::invalid(format!("no IR element type for {}", a.spec.ty.name())))?;
    let d = DenseElements::from_raw(TensorType::new(a.spec.dims.clone(), elem), a.bytes.to_vec()).map_err(Error::invalid)?;
    Tensor::from_dense(&d).map_err(Error::invalid)
}

/// An interpreter tensor as a host array.
pub fn from_tensor(t: &Tensor) -> Result<HostArray> {
    let ty = BufferType::from_ir(&t.ty.elem)
        .ok_or_else(|| Error::unimplemented(format!("a result of element type {:?} cannot be returned through PJRT", t.ty.elem)))?;
    let d = t.to_dense();
    let mut bytes = d.data;
    if d.splat {
        let n = t.len();
        bytes = bytes.repeat(n);
    }
    Ok(HostArray { spec: ArraySpec { ty, dims: t.ty.shape.clone() }, bytes: Arc::new(bytes) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_arrays_round_trip_through_tensors() {
        let cases: Vec<(BufferType, Vec<u8>)> = vec![
            (BufferType::F32, [1.5f32, -2.0, 0.0, 3.25].iter().flat_map(|v| v.to_le_bytes()).collect()),
            (BufferType::S8, vec![0x80, 0x7f, 0, 1]),
            (BufferType::U16, [1u16, 65535, 7, 9].iter().flat_map(|v| v.to_le_bytes()).collect()),
            (BufferType::PRED, vec![1, 0, 0, 1]),
            (BufferType::BF16, [0x3f80u16, 0xc000, 0, 0x7f80].iter().flat_map(|v| v.to_le_bytes()).collect()),
            (BufferType::F16, [0x3c00u16, 0xc000, 0x8000, 0x7c00].iter().flat_map(|v| v.to_le_bytes()).collect()),
            (BufferType::S64, [i64::MIN, -1, 0, i64::MAX].iter().flat_map(|v| v.to_le_bytes()).collect()),
            (BufferType::U64, [u64::MAX, 1, 0, 5].iter().flat_map(|v| v.to_le_bytes()).collect()),
            (BufferType::F64, [1e300f64, -0.0, 2.5, f64::INFINITY].iter().flat_map(|v| v.to_le_bytes()).collect()),
        ];
        for (ty, bytes) in cases {
            let a = HostArray { spec: ArraySpec::new(ty, &[2, 2]), bytes: Arc::new(bytes) };
            let t = to_tensor(&a).unwrap();
            assert_eq!(from_tensor(&t).unwrap(), a, "{}", ty.name());
        }
        let c = HostArray {
            spec: ArraySpec::new(BufferType::C64, &[2]),
            bytes: Arc::new([1.0f32, 2.0, -3.0, 4.5].iter().flat_map(|v| v.to_le_bytes()).collect()),
        };
        assert_eq!(from_tensor(&to_tensor(&c).unwrap()).unwrap(), c);
    }
}
