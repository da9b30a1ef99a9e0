//! Which small kernels the reductions' finishing passes take as epilogues (`oxhlo_cuda::finish_epilogue`),
//! planned without a device: the pairing, the steps it moves (a `[C]` kernel after an unrelated big one,
//! and the constant it reads), what it must leave alone, and the combined kernel's parameters.

use oxhlo_cpu::OptLevel;
use oxhlo_cuda::finish_epilogue::{epilogue, render};
use oxhlo_plan::fusion::Step;

fn plan(src: &str) -> (oxhlo_ir::Module, Vec<Step>) {
    let mut m = oxhlo_text::parse_module(src, "t.mlir").expect("parses");
    oxhlo_ir::verify_module(&m).expect("verifies");
    oxhlo_cuda::optimize(&mut m, &oxhlo_opt::OptOptions::at(OptLevel::O2)).expect("optimizes");
    let f = &m.funcs[0];
    let steps = oxhlo_cuda::kernels::plan_steps(f, f.body.entry().unwrap(), &oxhlo_cuda::options_at(OptLevel::O2).fusion);
    (m, steps)
}

/// (index of the reduction, the epilogue's op names) for every pair of the plan.
fn pairs(m: &oxhlo_ir::Module, steps: &[Step]) -> Vec<(usize, Vec<String>)> {
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    (1..steps.len())
        .filter_map(|i| epilogue(f, block, &steps[i - 1], &steps[i]).map(|k| (i - 1, k.ops.iter().map(|&o| block.ops[o].name().to_string()).collect())))
        .collect()
}

#[test]
fn a_per_channel_kernel_after_an_unrelated_pass_moves_behind_its_sums() {
    // The sums of x, then a full-shape kernel that does not need them, a constant, and the per-channel
    // kernel reading the sums and the constant: it moves right behind the sums (the constant ahead of them).
    let (m, steps) = plan(
        r#"
func.func @main(%x: tensor<4096x64xf32>, %y: tensor<4096x64xf32>, %p: tensor<64xf32>) -> (tensor<4096x64xf32>, tensor<64xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sq = stablehlo.multiply %x, %x : tensor<4096x64xf32>
  %s = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4096x64xf32>, tensor<f32>) -> tensor<64xf32>
  %t = stablehlo.tanh %y : tensor<4096x64xf32>
  %lr = stablehlo.constant dense<0.5> : tensor<64xf32>
  %u = stablehlo.multiply %s, %lr : tensor<64xf32>
  %p2 = stablehlo.subtract %p, %u : tensor<64xf32>
  return %t, %p2 : tensor<4096x64xf32>, tensor<64xf32>
}
"#,
    );
    let found = pairs(&m, &steps);
    assert_eq!(found.len(), 1, "{steps:?}");
    let (r, ops) = &found[0];
    assert_eq!(ops, &["stablehlo.multiply", "stablehlo.subtract"], "{steps:?}");
    assert!(matches!(&steps[*r], Step::Kernel(k) if k.reduce.len() == 1));
    // The tanh kernel comes after the pair, the constant before it.
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    // The step holding op `name` whose first result has `shape`.
    let at = |name: &str, shape: &[i64]| {
        let is = |o: usize| block.ops[o].name() == name && f.ty(block.ops[o].results[0]).as_tensor().is_some_and(|t| t.shape == shape);
        steps.iter().position(|s| match s {
            Step::Op(o) => is(*o),
            Step::Kernel(k) => k.ops.iter().any(|&o| is(o)),
        })
    };
    assert!(at("stablehlo.tanh", &[4096, 64]).expect("a tanh step") > r + 1, "{steps:?}");
    assert!(at("stablehlo.constant", &[64]).expect("the constant") < *r, "{steps:?}");
    // The combined kernel: the pass's partials and init value, the kernel's other inputs (p and the
    // constant), the counter, the sum, the kernel's output.
    let Step::Kernel(rk) = &steps[*r] else { unreachable!() };
    let Step::Kernel(_) = &steps[r + 1] else { panic!("the epilogue is a kernel: {steps:?}") };
    let k = epilogue(f, block, &steps[*r], &steps[r + 1]).unwrap();
    let src = render(f, block, rk, &k).expect("renders");
    assert!(src.contains("const double* f_p0, const float* f_i0, const float* e"), "{src}");
    assert!(src.contains("unsigned int* oxh_count, float* f_o0, float* k_o0)"), "{src}");
    assert!(src.contains("atomicAdd(oxh_count, 1u)") && src.contains("*oxh_count = 0u"), "{src}");
}

#[test]
fn a_plain_reduce_op_takes_its_divide() {
    // The mean of a convolution's output: a reduce of a kernel input becomes a reduction kernel of
    // its own when that gives the divide after it a finishing pass to run in (the count, 2^14, a
    // multiplication by its reciprocal after the optimizer: `oxhlo_opt::pow2_divide`).
    let (m, steps) = plan(
        r#"
func.func @main(%x: tensor<256x8x8x128xf32>) -> tensor<128xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<16384.0> : tensor<128xf32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<256x8x8x128xf32>, tensor<f32>) -> tensor<128xf32>
  %mean = stablehlo.divide %s, %n : tensor<128xf32>
  return %mean : tensor<128xf32>
}
"#,
    );
    let found = pairs(&m, &steps);
    assert_eq!(found.len(), 1, "{steps:?}");
    assert_eq!(found[0].1, ["stablehlo.multiply"]);
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    let Step::Kernel(rk) = &steps[found[0].0] else { panic!("{steps:?}") };
    // Its first pass is the plain pass over elements.
    let first = oxhlo_cuda::reduce::render_fused_pass(f, block, rk).expect("renders");
    assert!(first.contains("oxh_ld4(a0, in0 + i0)"), "{first}");
}

#[test]
fn what_stays_apart() {
    // A per-row value after a row sum (no shared finishing pass over partials), a [C] kernel reading a
    // value computed after the sums, and a reduce whose result nothing small reads.
    let (m, steps) = plan(
        r#"
func.func @main(%x: tensor<4096x64xf32>, %y: tensor<4096x64xf32>) -> (tensor<4096xf32>, tensor<64xf32>, tensor<64xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4096x64xf32>, tensor<f32>) -> tensor<4096xf32>
  %r2 = stablehlo.multiply %r, %r : tensor<4096xf32>
  %c = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4096x64xf32>, tensor<f32>) -> tensor<64xf32>
  %d = stablehlo.reduce(%y init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<4096x64xf32>, tensor<f32>) -> tensor<64xf32>
  %e = stablehlo.add %c, %d : tensor<64xf32>
  return %r2, %e, %c : tensor<4096xf32>, tensor<64xf32>, tensor<64xf32>
}
"#,
    );
    let found = pairs(&m, &steps);
    // Only the add may pair, and only with the maximum (the later of the two column reductions).
    assert!(found.len() <= 1, "{steps:?}");
    for (r, ops) in &found {
        assert_eq!(ops, &["stablehlo.add"], "{steps:?}");
        let f = &m.funcs[0];
        let block = f.body.entry().unwrap();
        let Step::Kernel(rk) = &steps[*r] else { panic!("{steps:?}") };
        assert!(rk.reduce.iter().any(|e| e.kind == oxhlo_plan::reducer::ReduceKind::Max) || rk.reduce.len() == 2, "{steps:?}");
        let _ = (f, block);
    }
}
