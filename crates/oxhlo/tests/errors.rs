//! Errors say what went wrong and where: parse and verify diagnostics with file, line and column; input
//! checks naming the input and the expected type; runtime failures naming the op; unsupported requests.

use oxhlo::{Backend, Buffer, Client, CompileOptions, DType, ErrorKind};

fn client() -> Client {
    Client::builder().backend(Backend::Interpreter).build().unwrap()
}

const NEGATE: &str = "func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.negate %a : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}";

#[test]
fn parse_error_names_file_line_column() {
    let src = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %a, : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}";
    let opts = CompileOptions::new().source_name("bad.mlir");
    let err = client().compile_with_options(src, &opts).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Parse, "{err}");
    let d = &err.diagnostics()[0];
    assert_eq!(d.file.as_deref(), Some("bad.mlir"));
    assert_eq!(d.line, 2, "{err}");
    assert!(d.column > 0);
    let text = err.to_string();
    assert!(text.starts_with("parse error: could not parse `bad.mlir`"), "{text}");
    assert!(text.contains("bad.mlir:2:"), "{text}");
}

#[test]
fn parse_errors_are_not_cached() {
    let c = client();
    assert!(c.compile("func.func @main(").is_err());
    assert!(c.compile("func.func @main(").is_err());
    assert_eq!(c.cache_stats().entries, 0);
}

#[test]
fn verify_error_names_the_op_line() {
    // The result type of add must equal its operands' (2xf32 vs 3xf32).
    let src = "func.func @main(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}";
    let err = client().compile_with_options(src, &CompileOptions::new().source_name("v.mlir")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Verify, "{err}");
    assert!(!err.diagnostics().is_empty());
    let d = &err.diagnostics()[0];
    assert_eq!((d.file.as_deref(), d.line), (Some("v.mlir"), 2), "{err}");
    assert!(err.message().contains("StableHLO spec"), "{err}");
}

#[test]
fn invalid_utf8_is_a_parse_error_with_a_location() {
    let err = client().compile(b"func.func @main() {\n  \xff\n}".as_slice()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Parse);
    let d = &err.diagnostics()[0];
    assert_eq!((d.line, d.column), (2, 3));
    assert!(d.message.contains("UTF-8"));
}

#[test]
fn bytecode_is_recognized() {
    let mut bytes = oxhlo::BYTECODE_MAGIC.to_vec();
    bytes.extend_from_slice(&[6, 0, 0]);
    let opts = CompileOptions::new().source_name("cut.mlirbc");
    let err = client().compile_with_options(&bytes, &opts).unwrap_err();
    // A truncated file is a parse error at a byte offset, not mistaken for text.
    assert_eq!(err.kind(), ErrorKind::Parse, "{err}");
    assert!(err.message().contains("bytecode `cut.mlirbc`"), "{err}");
    let d = &err.diagnostics()[0];
    assert!(d.byte_offset.is_some(), "{err}");
    assert!(d.to_string().starts_with("cut.mlirbc: byte "), "{err}");
}

#[test]
fn wrong_input_count() {
    let exe = client().compile(NEGATE).unwrap();
    let err = exe.execute(&[]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert_eq!(err.message(), "@main takes 1 input(s) (tensor<2x3xf32>) but 0 were given");
}

#[test]
fn wrong_element_type() {
    let exe = client().compile(NEGATE).unwrap();
    let b = Buffer::zeros(DType::F64, &[2, 3]).unwrap();
    let err = exe.execute(&[&b]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert_eq!(err.message(), "input 0 of @main: a tensor<2x3xf64> buffer has element type f64 where f32 is expected");
}

#[test]
fn wrong_shape_and_rank() {
    let exe = client().compile(NEGATE).unwrap();
    let err = exe.execute(&[&Buffer::zeros(DType::F32, &[3, 2]).unwrap()]).unwrap_err();
    assert_eq!(err.message(), "input 0 of @main: a tensor<3x2xf32> buffer has shape [3, 2] where tensor<2x3xf32> is expected");
    let err = exe.execute(&[&Buffer::zeros(DType::F32, &[6]).unwrap()]).unwrap_err();
    assert!(err.message().contains("rank 1 where rank 2 is expected"), "{err}");
}

#[test]
fn runtime_error_names_the_op() {
    // No such custom call target: verifies, fails when run.
    let src = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.custom_call @no_such_target(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}";
    let exe = client().compile_with_options(src, &CompileOptions::new().source_name("rt.mlir")).unwrap();
    let err = exe.execute(&[&Buffer::zeros(DType::F32, &[2]).unwrap()]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime, "{err}");
    assert!(err.message().contains("custom_call"), "{err}");
    let d = &err.diagnostics()[0];
    assert_eq!((d.file.as_deref(), d.line), (Some("rt.mlir"), 2), "{err}");
}

#[test]
fn no_entry_point() {
    let src = "func.func private @f(%a: tensor<f32>) -> tensor<f32> { return %a : tensor<f32> }
func.func private @g(%a: tensor<f32>) -> tensor<f32> { return %a : tensor<f32> }";
    let err = client().compile(src).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument, "{err}");
    assert!(err.message().contains("no entry point"), "{err}");
}

#[test]
fn unsupported_signature_types() {
    let src = "func.func @main(%t: !stablehlo.token) -> !stablehlo.token { return %t : !stablehlo.token }";
    let err = client().compile(src).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported, "{err}");
    assert!(err.message().contains("argument 0 of @main"), "{err}");
}

#[test]
fn cuda_without_a_device_is_unsupported() {
    if Backend::Cuda.is_available() {
        println!("skipped: a CUDA device is present");
        return;
    }
    let err = Client::builder().backend(Backend::Cuda).build().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(err.message().contains("no usable CUDA device"), "{err}");
    let opts = CompileOptions::new().backend(Backend::Cuda);
    let err = client().compile_with_options(NEGATE, &opts).unwrap_err();
    assert!(err.message().contains("no usable CUDA device"), "{err}");
}

#[test]
fn to_vec_checks_the_type() {
    let b = Buffer::from_slice(&[1u32, 2], &[2]).unwrap();
    let err = b.to_vec::<i32>().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert!(err.message().contains("cannot read a ui32 buffer as i32"), "{err}");
}
