//! The test runner and the evaluator's behaviour at its edges: failing checks are reported with the check,
//! the expected and actual values and the first differing index; parse errors fail their case; unknown
//! custom calls are errors naming the target; deep recursion is an error, not a crash; loops of any trip
//! count run; host queues, input checking and .npy inputs work.

use oxhlo_interp::testing::CaseOutcome;
use oxhlo_interp::{run_main, run_test_source, Data, Interpreter, RtValue, Tensor};
use oxhlo_ir::{ElementType, TensorType};

fn parse(src: &str) -> oxhlo_ir::Module {
    oxhlo_text::parse_module(src, "test.mlir").expect("test program parses")
}

fn f32s(shape: &[i64], v: &[f64]) -> RtValue {
    RtValue::Tensor(Tensor { ty: TensorType::new(shape.to_vec(), ElementType::F32), data: Data::Float(v.to_vec()) })
}

#[test]
fn failing_checks_are_reported_with_index_and_values() {
    let src = r#"
func.func @main() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  check.expect_eq_const %a, dense<[[1, 2], [3, 5]]> : tensor<2x2xi32>
  %b = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_almost_eq_const %b, dense<[1.0, 2.1]> : tensor<2xf32>
  func.return
}
// -----
func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  check.expect_eq_const %a, dense<1> : tensor<i32>
  func.return
}
// -----
func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.add %a, %a : tensor<i32>
  check.expect_eq_const %b dense<2> : tensor<i32>
  func.return
}
"#;
    let report = run_test_source(src, "t.mlir");
    assert_eq!(report.cases.len(), 3);
    assert_eq!((report.passed(), report.failed()), (1, 2));
    let CaseOutcome::Failed(f) = &report.cases[0].outcome else { panic!("case 0 should fail") };
    assert_eq!(f.len(), 2, "both checks of the case are recorded");
    assert_eq!(f[0].check, "check.expect_eq_const");
    assert_eq!(f[0].index, Some(vec![1, 1]));
    assert_eq!(f[0].expected.as_deref(), Some("5"));
    assert_eq!(f[0].actual.as_deref(), Some("4"));
    assert_eq!(f[1].index, Some(vec![1]));
    assert!(matches!(&report.cases[2].outcome, CaseOutcome::Error(e) if e.contains("parse error")));
    let text = report.render();
    assert!(text.contains("t.mlir:4:3"), "{text}");
    assert!(text.ends_with("1 passed, 2 failed\n"), "{text}");
}

#[test]
fn jax_style_custom_call_checks() {
    let src = r#"
func.func @main() -> tensor<i1> {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.0, 2.00001]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_close(%a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  stablehlo.custom_call @check.expect_almost_eq(%a, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  %r = stablehlo.custom_call @check.eq(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  return %r : tensor<i1>
}
// -----
func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[1, 3]> : tensor<2xi32>
  stablehlo.custom_call @check.expect_eq(%a, %b) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
  return
}
"#;
    let report = run_test_source(src, "c.mlir");
    assert_eq!((report.passed(), report.failed()), (1, 1), "{}", report.render());
    assert_eq!(report.cases[0].checks, 3);
}

#[test]
fn unknown_custom_call_names_its_target() {
    let m = parse(
        r#"func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.custom_call @my_kernel(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}"#,
    );
    let err = run_main(&m, vec![f32s(&[2], &[1.0, 2.0])]).unwrap_err();
    assert!(err.to_string().contains("my_kernel"), "{err}");
    assert_eq!(err.op, "stablehlo.custom_call");
    assert!(err.to_string().starts_with("test.mlir:2:"), "{err}");
}

#[test]
fn registered_custom_call_runs() {
    let m = parse(
        r#"func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.custom_call @twice(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}"#,
    );
    let mut reg = oxhlo_interp::custom_call::CustomCallRegistry::with_builtins();
    reg.register(
        "twice",
        Box::new(|_ctx, args| match &args[0] {
            RtValue::Tensor(Tensor { ty, data: Data::Float(v) }) => Ok(vec![RtValue::Tensor(Tensor {
                ty: ty.clone(),
                data: Data::Float(v.iter().map(|x| 2.0 * x).collect()),
            })]),
            _ => Err("expected f32".into()),
        }),
    );
    let mut it = Interpreter::new(&m);
    it.registry = std::sync::Arc::new(reg);
    let r = it.run_func("main", vec![f32s(&[2], &[1.5, -2.0])]).unwrap();
    assert_eq!(r, vec![f32s(&[2], &[3.0, -4.0])]);
}

#[test]
fn while_runs_any_trip_count_and_recursion_is_bounded() {
    let m = parse(
        r#"func.func @main() -> tensor<i64> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %n = stablehlo.constant dense<200000> : tensor<i64>
  %r = stablehlo.while(%i = %c0) : tensor<i64>
   cond {
    %p = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i64>
    stablehlo.return %j : tensor<i64>
  }
  return %r : tensor<i64>
}
func.func private @forever(%x: tensor<i64>) -> tensor<i64> {
  %0 = func.call @forever(%x) : (tensor<i64>) -> tensor<i64>
  return %0 : tensor<i64>
}"#,
    );
    let r = run_main(&m, vec![]).unwrap();
    let RtValue::Tensor(t) = &r[0] else { panic!() };
    assert_eq!(t.data, Data::Int(vec![200000]));
    let err = oxhlo_interp::eval::on_big_stack(|| {
        let mut it = Interpreter::new(&m);
        it.run_func("forever", vec![RtValue::Tensor(Tensor { ty: TensorType::new(vec![], ElementType::I64), data: Data::Int(vec![1]) })])
    })
    .unwrap()
    .unwrap_err();
    assert!(err.to_string().contains("depth limit"), "{err}");
}

#[test]
fn inputs_are_checked_against_the_signature() {
    let m = parse(
        r#"func.func @main(%x: tensor<2xf32>, %y: tensor<?xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}"#,
    );
    let e = run_main(&m, vec![f32s(&[2], &[1.0, 2.0])]).unwrap_err();
    assert!(e.message.contains("takes 2 inputs, got 1"), "{e}");
    let e = run_main(&m, vec![f32s(&[3], &[1.0, 2.0, 3.0]), f32s(&[1], &[0.0])]).unwrap_err();
    assert!(e.message.contains("input #0") && e.message.contains("shape"), "{e}");
    let bad = RtValue::Tensor(Tensor { ty: TensorType::new(vec![2], ElementType::I32), data: Data::Int(vec![1, 2]) });
    let e = run_main(&m, vec![bad, f32s(&[1], &[0.0])]).unwrap_err();
    assert!(e.message.contains("element type i32"), "{e}");
    // A dynamic dimension accepts any size.
    assert!(run_main(&m, vec![f32s(&[2], &[1.0, 2.0]), f32s(&[5], &[0.0; 5])]).is_ok());
}

#[test]
fn host_queues_infeed_outfeed_send_recv() {
    let m = parse(
        r#"func.func @main() -> tensor<2xf32> {
  %t = stablehlo.create_token : !stablehlo.token
  %x, %t1 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  %t2 = "stablehlo.outfeed"(%x, %t1) {outfeed_config = ""} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  %t3 = "stablehlo.send"(%x, %t2) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  %y, %t4 = "stablehlo.recv"(%t3) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  %t5 = stablehlo.after_all %t4, %t3 : !stablehlo.token
  return %y : tensor<2xf32>
}"#,
    );
    let mut it = Interpreter::new(&m);
    it.host.infeed.push_back(vec![f32s(&[2], &[7.0, 8.0])]);
    let r = it.run_func("main", vec![]).unwrap();
    assert_eq!(r, vec![f32s(&[2], &[7.0, 8.0])]);
    assert_eq!(it.host.outfeed, vec![vec![f32s(&[2], &[7.0, 8.0])]]);
    let mut empty = Interpreter::new(&m);
    let e = empty.run_func("main", vec![]).unwrap_err();
    assert!(e.message.contains("infeed queue is empty") && e.op == "stablehlo.infeed", "{e}");
}

#[test]
fn errors_carry_the_innermost_op_and_location() {
    let m = parse(
        r#"func.func @main(%p: tensor<i1>) -> tensor<2xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<2xf32>
  %r = "stablehlo.if"(%p) ({
    %bad = stablehlo.custom_call @nope(%c) : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.return %bad : tensor<2xf32>
  }, {
    stablehlo.return %c : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}"#,
    );
    let p = RtValue::Tensor(Tensor { ty: TensorType::new(vec![], ElementType::Bool), data: Data::Bool(vec![true]) });
    let e = run_main(&m, vec![p]).unwrap_err();
    assert_eq!(e.op, "stablehlo.custom_call");
    assert!(e.to_string().starts_with("test.mlir:4:"), "{e}");
}

#[test]
fn npy_inputs_feed_run_main() {
    let m = parse(
        r#"func.func @main(%x: tensor<2x2xbf16>) -> tensor<2x2xbf16> {
  %0 = stablehlo.add %x, %x : tensor<2x2xbf16>
  return %0 : tensor<2x2xbf16>
}"#,
    );
    let ty = TensorType::new(vec![2, 2], ElementType::Float(oxhlo_ir::FloatType::BF16));
    let t = Tensor { ty: ty.clone(), data: Data::Float(vec![1.0, -2.5, 0.5, 3.0]) };
    let bytes = oxhlo_interp::npy::write_npy_bytes(&t);
    assert!(String::from_utf8_lossy(&bytes[..80]).contains("'<V2'"), "bf16 is written as ml_dtypes does");
    let a = oxhlo_interp::npy::parse_npy(&bytes).unwrap();
    let x = oxhlo_interp::npy::npy_to_tensor(&a, Some(&ty)).unwrap();
    let r = run_main(&m, vec![RtValue::Tensor(x)]).unwrap();
    assert_eq!(r, vec![RtValue::Tensor(Tensor { ty, data: Data::Float(vec![2.0, -5.0, 1.0, 6.0]) })]);
}

#[test]
fn sharding_annotations_pass_through() {
    let m = parse(
        r#"func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{replicated}"} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = stablehlo.add %0, %0 : tensor<2xf32>
  return %1 : tensor<2xf32>
}"#,
    );
    let r = run_main(&m, vec![f32s(&[2], &[1.0, 2.5])]).unwrap();
    assert_eq!(r, vec![f32s(&[2], &[2.0, 5.0])]);
}

#[test]
fn malformed_scans_and_futures_are_errors_not_panics() {
    let scan = |attrs: &str, input_ty: &str| {
        format!(
            r#"func.func @main() {{
  %x = stablehlo.constant dense<[1, 2, 3]> : {input_ty}
  %i = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = "chlo.scan"(%x, %i) <{{{attrs}}}> ({{
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    %1 = stablehlo.add %a, %c : tensor<i32>
    stablehlo.return %1, %1 : tensor<i32>, tensor<i32>
  }}) : ({input_ty}, tensor<i32>) -> (tensor<3xi32>, tensor<i32>)
  func.return
}}"#
        )
    };
    let cases = [
        (scan("dimension = 0 : i64, operandSegmentSizes = array<i32: 3, 1>", "tensor<3xi32>"), "operandSegmentSizes"),
        (scan("dimension = 1 : i64", "tensor<3xi32>"), "out of range"),
        (scan("operandSegmentSizes = array<i32: 1, 1>", "tensor<3xi32>"), "missing attribute `dimension`"),
        (
            r#"func.func @main() {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %r = "stablehlo.async_done"(%c) : (tensor<i32>) -> tensor<i32>
  func.return
}"#
            .to_string(),
            "must be a future",
        ),
        (
            r#"func.func @main() {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %f = "stablehlo.async_start"(%c) {called_computation = @nowhere} : (tensor<i32>) -> !stablehlo.future<tensor<i32>>
  func.return
}"#
            .to_string(),
            "nowhere",
        ),
    ];
    for (src, want) in cases {
        let r = oxhlo_interp::run_test_source(&src, "t.mlir");
        assert_eq!(r.failed(), 1, "{src}");
        assert!(r.render().contains(want), "{want}: {}", r.render());
    }
}
