//! Loop fusion and native reductions against the interpreter (the oracle): which ops `fuse_block`
//! groups (chains, broadcasts, several outputs, sealing when a value is read outside a group), fused
//! programs computing what the interpreter computes, and `reduce` over every reducer, element type and
//! dimension layout (row, column, middle, all, none).

mod common;
use common::*;
use oxhlo_cpu::Kind;
use oxhlo_plan::fusion::{fuse_block, FusionOptions, Step};

const CHAIN: &str = r#"
func.func @main(%x: tensor<64x300xf32>, %y: tensor<64x300xf32>, %b: tensor<300xf32>, %s: tensor<f32>) -> (tensor<64x300xf32>, tensor<64x300xf32>, tensor<64x300xi32>) {
  %c = stablehlo.constant dense<0.5> : tensor<64x300xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<300xf32>) -> tensor<64x300xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<64x300xf32>
  %0 = stablehlo.multiply %x, %y : tensor<64x300xf32>
  %1 = stablehlo.add %0, %bb : tensor<64x300xf32>
  %2 = stablehlo.tanh %1 : tensor<64x300xf32>
  %3 = stablehlo.logistic %y : tensor<64x300xf32>
  %4 = stablehlo.multiply %2, %3 : tensor<64x300xf32>
  %5 = stablehlo.multiply %x, %c : tensor<64x300xf32>
  %6 = stablehlo.exponential %5 : tensor<64x300xf32>
  %7 = stablehlo.subtract %4, %6 : tensor<64x300xf32>
  %8 = stablehlo.compare GT, %7, %sb : (tensor<64x300xf32>, tensor<64x300xf32>) -> tensor<64x300xi1>
  %9 = stablehlo.select %8, %7, %sb : tensor<64x300xi1>, tensor<64x300xf32>
  %10 = stablehlo.convert %9 : (tensor<64x300xf32>) -> tensor<64x300xi32>
  return %9, %1, %10 : tensor<64x300xf32>, tensor<64x300xf32>, tensor<64x300xi32>
}"#;

/// The fused kernels of a plan.
fn kernels_of(steps: &[Step]) -> Vec<std::sync::Arc<oxhlo_plan::fusion::FusedKernel>> {
    steps.iter().filter_map(|s| if let Step::Kernel(k) = s { Some(k.clone()) } else { None }).collect()
}

fn f32_input(shape: &[i64], seed: u64) -> oxhlo_cpu::NTensor {
    let n = shape.iter().product::<i64>() as usize;
    let mut r = Rng(seed | 1);
    let v: Vec<f32> = (0..n).map(|_| (r.unit() * 6.0 - 3.0) as f32).collect();
    tensor("f32", shape, oxhlo_cpu::Buf::F32(v))
}

#[test]
fn chain_fuses_into_one_kernel_with_its_used_values_as_outputs() {
    let m = oxhlo_text::parse_module(CHAIN, "chain.mlir").expect("parses");
    let f = &m.funcs[0];
    let block = f.body.entry().expect("body");
    let steps = fuse_block(f, block, &FusionOptions { enabled: true, aggressive: false, recompute: false, recompute_costly: false, rows: false, max_params: 0, sibling_reductions: 0 });
    let kernels = kernels_of(&steps);
    assert_eq!(kernels.len(), 1, "{steps:?}");
    let k = &kernels[0];
    // Everything but the constant (op 0) and the return fuses.
    assert_eq!(k.ops, (1..=13).collect::<Vec<_>>());
    let ret = &block.ops[14];
    let mut outs = k.outputs.clone();
    outs.sort();
    let mut want = ret.operands.clone();
    want.sort();
    assert_eq!(outs, want);
    assert_eq!(k.inputs.len(), 5, "x, y, b, s and the constant");
    let off = fuse_block(f, block, &FusionOptions::default());
    assert!(off.iter().all(|s| matches!(s, Step::Op(_))));
}

#[test]
fn a_group_read_outside_is_sealed() {
    let src = r#"
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.exponential %x : tensor<8xf32>
  %1 = stablehlo.add %0, %0 : tensor<8xf32>
  %2 = stablehlo.reverse %1, dims = [0] : tensor<8xf32>
  %3 = stablehlo.multiply %1, %2 : tensor<8xf32>
  %4 = stablehlo.negate %3 : tensor<8xf32>
  return %4 : tensor<8xf32>
}"#;
    let m = oxhlo_text::parse_module(src, "s.mlir").expect("parses");
    let f = &m.funcs[0];
    let block = f.body.entry().expect("body");
    let steps = fuse_block(f, block, &FusionOptions { enabled: true, aggressive: true, recompute: false, recompute_costly: false, rows: false, max_params: 0, sibling_reductions: 0 });
    let ks: Vec<Vec<usize>> = steps
        .iter()
        .filter_map(|s| if let Step::Kernel(k) = s { Some(k.ops.clone()) } else { None })
        .collect();
    assert_eq!(ks, vec![vec![0, 1], vec![3, 4]]);
    let x = f32_input(&[8], 5);
    let want = run_interp(src, std::slice::from_ref(&x)).expect("interp");
    let got = run_cpu(src, &[x], true, 2).expect("cpu");
    compare(&got[0], &want[0], 2, 0.0).expect("same results");
}

#[test]
fn fused_chain_matches_the_interpreter_and_the_unfused_run() {
    let inputs = [f32_input(&[64, 300], 1), f32_input(&[64, 300], 2), f32_input(&[300], 3), f32_input(&[], 4)];
    let want = run_interp(CHAIN, &inputs).expect("interp");
    for threads in [1, 2, 5] {
        let fused = run_cpu(CHAIN, &inputs, true, threads).expect("fused");
        let unfused = run_cpu(CHAIN, &inputs, false, threads).expect("unfused");
        for i in 0..3 {
            compare(&fused[i], &want[i], 4, 1e-5).unwrap_or_else(|e| panic!("output {i}: {e}"));
            compare(&fused[i], &unfused[i], 0, 0.0).unwrap_or_else(|e| panic!("fused vs unfused {i}: {e}"));
        }
    }
}

#[test]
fn fused_mixed_types_and_broadcasts_match_the_interpreter() {
    let src = r#"
func.func @main(%a: tensor<3x1x5xi32>, %b: tensor<4x5xi32>, %h: tensor<4x5xf16>) -> (tensor<3x4x5xbf16>, tensor<3x4x5xui8>) {
  %ab = stablehlo.broadcast_in_dim %a, dims = [0, 1, 2] : (tensor<3x1x5xi32>) -> tensor<3x4x5xi32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1, 2] : (tensor<4x5xi32>) -> tensor<3x4x5xi32>
  %hb = stablehlo.broadcast_in_dim %h, dims = [1, 2] : (tensor<4x5xf16>) -> tensor<3x4x5xf16>
  %0 = stablehlo.multiply %ab, %bb : tensor<3x4x5xi32>
  %1 = stablehlo.shift_right_arithmetic %0, %bb : tensor<3x4x5xi32>
  %2 = stablehlo.convert %1 : (tensor<3x4x5xi32>) -> tensor<3x4x5xf16>
  %3 = stablehlo.multiply %2, %hb : tensor<3x4x5xf16>
  %4 = stablehlo.sqrt %3 : tensor<3x4x5xf16>
  %5 = stablehlo.convert %4 : (tensor<3x4x5xf16>) -> tensor<3x4x5xbf16>
  %6 = stablehlo.convert %1 : (tensor<3x4x5xi32>) -> tensor<3x4x5xui8>
  return %5, %6 : tensor<3x4x5xbf16>, tensor<3x4x5xui8>
}"#;
    for seed in [0, 1, 2] {
        let a = tensor("i32", &[3, 1, 5], values(Kind::I32, 15, seed));
        let b = tensor("i32", &[4, 5], values(Kind::I32, 20, seed + 7));
        let h = tensor("f16", &[4, 5], values(Kind::F16, 20, seed));
        let inputs = [a, b, h];
        let want = run_interp(src, &inputs).expect("interp");
        let got = run_cpu(src, &inputs, true, 2).expect("cpu");
        for (g, w) in got.iter().zip(&want) {
            compare(g, w, 0, 0.0).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }
}

fn reduce_src(ty: &str, shape: &[i64], dims: &[usize], op: &str) -> String {
    let s = |v: &[i64]| v.iter().map(|d| format!("{d}x")).collect::<String>();
    let out: Vec<i64> = shape.iter().enumerate().filter(|(i, _)| !dims.contains(i)).map(|(_, &d)| d).collect();
    let dl = dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
    format!(
        "func.func @main(%x: tensor<{}{ty}>, %i: tensor<{ty}>) -> tensor<{}{ty}> {{\n  %0 = stablehlo.reduce(%x init: %i) applies stablehlo.{op} across dimensions = [{dl}] : (tensor<{}{ty}>, tensor<{ty}>) -> tensor<{}{ty}>\n  return %0 : tensor<{}{ty}>\n}}",
        s(shape),
        s(&out),
        s(shape),
        s(&out),
        s(&out)
    )
}

#[test]
fn reductions_match_the_interpreter() {
    let layouts: &[(&[i64], &[usize])] = &[
        (&[7, 300], &[1]),
        (&[300, 7], &[0]),
        (&[5, 9, 11], &[1]),
        (&[5, 9, 11], &[1, 2]),
        (&[5, 9, 11], &[0, 1, 2]),
        (&[5, 9, 11], &[]),
        (&[2, 70000], &[1]),
        (&[3, 40000], &[0]),
        (&[0, 4], &[0]),
    ];
    let mut ran = 0;
    for &(ty, kind) in TYPES {
        let ops: &[&str] = if is_float(kind) {
            &["add", "multiply", "maximum", "minimum"]
        } else {
            &["add", "multiply", "maximum", "minimum", "and", "or"]
        };
        for op in ops {
            for (shape, dims) in layouts {
                let n = shape.iter().product::<i64>() as usize;
                // Floats: values in [-2, 2) (products stay finite), plus NaN/inf edges for max/min.
                let x = if is_float(kind) && !matches!(*op, "maximum" | "minimum") {
                    let mut r = Rng(n as u64 + 3);
                    let fl: Vec<f64> = (0..n).map(|_| r.unit() * 4.0 - 2.0).collect();
                    let fl = if *op == "multiply" { fl.iter().map(|x| 1.0 + x * 1e-3).collect() } else { fl };
                    // f16/bf16: the interpreter rounds after every step, so use values whose running
                    // sums and products are exact in any order (1, -1, 0 repeating; products of +-1).
                    let fl: Vec<f64> = match (kind, *op) {
                        (Kind::F16 | Kind::BF16, "add") => (0..n).map(|i| [1.0, -1.0, 0.0][i % 3]).collect(),
                        (Kind::F16 | Kind::BF16, _) => (0..n).map(|i| [1.0, -1.0, 1.0][i % 3]).collect(),
                        _ => fl,
                    };
                    match kind {
                        Kind::F32 => oxhlo_cpu::Buf::F32(fl.iter().map(|&x| x as f32).collect()),
                        Kind::F64 => oxhlo_cpu::Buf::F64(fl),
                        Kind::F16 => oxhlo_cpu::Buf::F16(fl.iter().map(|&x| half::f16::from_f64(x)).collect()),
                        _ => oxhlo_cpu::Buf::BF16(fl.iter().map(|&x| half::bf16::from_f64(x)).collect()),
                    }
                } else {
                    values(kind, n, n as u64 % 2 + 2 * (n == 99 * 5) as u64)
                };
                let src = reduce_src(ty, shape, dims, op);
                let m = oxhlo_text::parse_module(&src, "r.mlir").expect("parses");
                if oxhlo_ir::verify_module(&m).is_err() {
                    continue;
                }
                let inputs = [tensor(ty, shape, x), tensor(ty, &[], values(kind, 1, 1))];
                let want = run_interp(&src, &inputs).expect("interp");
                let rel = match (kind, *op) {
                    (Kind::F32, "add" | "multiply") => 1e-4,
                    (Kind::F64, "add" | "multiply") => 1e-12,
                    _ => 0.0,
                };
                for threads in [1, 2] {
                    let got = run_cpu(&src, &inputs, true, threads).expect("cpu");
                    compare(&got[0], &want[0], 0, rel).unwrap_or_else(|e| panic!("{src}\n{e}"));
                }
                ran += 1;
            }
        }
    }
    assert!(ran > 400, "only {ran} reductions ran");
}

/// Layernorm's shape: the variance reduces a value that is also used afterwards; softmax-like row max and
/// sum; a column sum and a full sum of products; a max-reduce of -0/+0 and NaN rows. Each reduce must fold
/// into the kernel computing its operand and give the interpreter's results (sums within reassociation
/// error, max/min exactly).
const REDUCTIONS: &str = r#"
func.func @main(%x: tensor<37x3000xf32>, %y: tensor<37x3000xf32>) -> (tensor<37x3000xf32>, tensor<37xf32>, tensor<3000xf32>, tensor<f32>, tensor<37xf32>, tensor<37xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %cnt = stablehlo.constant dense<3000.0> : tensor<37xf32>
  %m = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<37x3000xf32>, tensor<f32>) -> tensor<37xf32>
  %mean = stablehlo.divide %m, %cnt : tensor<37xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<37xf32>) -> tensor<37x3000xf32>
  %d = stablehlo.subtract %x, %mb : tensor<37x3000xf32>
  %sq = stablehlo.multiply %d, %d : tensor<37x3000xf32>
  %var = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<37x3000xf32>, tensor<f32>) -> tensor<37xf32>
  %vb = stablehlo.broadcast_in_dim %var, dims = [0] : (tensor<37xf32>) -> tensor<37x3000xf32>
  %out = stablehlo.add %d, %vb : tensor<37x3000xf32>
  %p = stablehlo.multiply %x, %y : tensor<37x3000xf32>
  %cols = stablehlo.reduce(%p init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<37x3000xf32>, tensor<f32>) -> tensor<3000xf32>
  %e = stablehlo.exponential %y : tensor<37x3000xf32>
  %n = stablehlo.negate %e : tensor<37x3000xf32>
  %all = stablehlo.reduce(%n init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<37x3000xf32>, tensor<f32>) -> tensor<f32>
  %a = stablehlo.abs %y : tensor<37x3000xf32>
  %s = stablehlo.sqrt %x : tensor<37x3000xf32>
  %mx = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<37x3000xf32>, tensor<f32>) -> tensor<37xf32>
  %mn = stablehlo.reduce(%a init: %ninf) applies stablehlo.minimum across dimensions = [1] : (tensor<37x3000xf32>, tensor<f32>) -> tensor<37xf32>
  return %out, %var, %cols, %all, %mx, %mn : tensor<37x3000xf32>, tensor<37xf32>, tensor<3000xf32>, tensor<f32>, tensor<37xf32>, tensor<37xf32>
}"#;

#[test]
fn reductions_fold_into_the_kernels_computing_their_operands() {
    let m = oxhlo_text::parse_module(REDUCTIONS, "r.mlir").expect("parses");
    let f = &m.funcs[0];
    let block = f.body.entry().expect("body");
    let steps = fuse_block(f, block, &FusionOptions { enabled: true, aggressive: false, recompute: false, recompute_costly: false, rows: false, max_params: 0, sibling_reductions: 0 });
    let steps = oxhlo_plan::reduce_fusion::fuse_reductions(f, block, steps, 1, |_| true);
    let folded: Vec<_> = steps
        .iter()
        .flat_map(|s| if let Step::Kernel(k) = s { k.reduce.clone() } else { Vec::new() })
        .collect();
    // var (its operand's producer `d` stays an output), cols, all, mx and mn (single elementwise ops
    // become kernels of one); m reads a parameter and stays a plain reduce.
    assert_eq!(folded.len(), 5, "{steps:#?}");
    let views: Vec<(usize, usize, usize)> = folded.iter().map(|r| (r.outer, r.n, r.inner)).collect();
    assert!(views.contains(&(37, 3000, 1)) && views.contains(&(1, 37, 3000)) && views.contains(&(1, 111000, 1)));

    // 111000 elements: big enough to run in several parts over the worker threads.
    let x = f32_input(&[37, 3000], 11);
    // Exercise NaN (sqrt of negatives) and signed zeros in the max/min rows.
    let mut y = f32_input(&[37, 3000], 12);
    if let oxhlo_cpu::Buf::F32(v) = std::sync::Arc::make_mut(&mut y.buf) {
        v[0] = -0.0;
        v[1] = 0.0;
    }
    let inputs = [x, y];
    let want = run_interp(REDUCTIONS, &inputs).expect("interp");
    for threads in [1, 2, 3] {
        let got = run_cpu(REDUCTIONS, &inputs, true, threads).expect("cpu");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            // Sums differ from the interpreter's by reassociation (amplified by cancellation in `d`); a
            // misplaced or double-counted element would be off by O(1).
            let (ulps, rel) = if i >= 4 { (0, 0.0) } else { (64, 1e-4) };
            compare(g, w, ulps, rel).unwrap_or_else(|e| panic!("output {i} with {threads} threads: {e}"));
        }
    }
}

/// Big splat constants are kept as one element: a fused kernel reads it as a scalar, while a reduce,
/// a transpose, a while loop and the return get the full tensor.
const BIG_SPLATS: &str = r#"
func.func @main(%x: tensor<96x100xf32>) -> (tensor<96x100xf32>, tensor<100xf32>, tensor<100x96xf32>, tensor<96x100xf32>, tensor<96x100xf32>) {
  %c = stablehlo.constant dense<2.5> : tensor<96x100xf32>
  %h = stablehlo.constant dense<0.5> : tensor<96x100xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.multiply %x, %c : tensor<96x100xf32>
  %1 = stablehlo.add %0, %h : tensor<96x100xf32>
  %2 = stablehlo.reduce(%c init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<96x100xf32>, tensor<f32>) -> tensor<100xf32>
  %3 = stablehlo.transpose %h, dims = [1, 0] : (tensor<96x100xf32>) -> tensor<100x96xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%it = %i0, %acc = %x) : tensor<i32>, tensor<96x100xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %it, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %nx = stablehlo.add %it, %one : tensor<i32>
      %na = stablehlo.add %acc, %c : tensor<96x100xf32>
      stablehlo.return %nx, %na : tensor<i32>, tensor<96x100xf32>
    }
  return %1, %2, %3, %w#1, %c : tensor<96x100xf32>, tensor<100xf32>, tensor<100x96xf32>, tensor<96x100xf32>, tensor<96x100xf32>
}"#;

#[test]
fn big_splat_constants_serve_kernels_and_other_ops() {
    let x = f32_input(&[96, 100], 31);
    let want = run_interp(BIG_SPLATS, std::slice::from_ref(&x)).expect("interp");
    for fusion in [true, false] {
        let got = run_cpu(BIG_SPLATS, std::slice::from_ref(&x), fusion, 2).expect("cpu");
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            compare(g, w, 4, 1e-6).unwrap_or_else(|e| panic!("output {i} (fusion {fusion}): {e}"));
        }
    }
}

/// Softmax: `exp(x - max)` is stored by the kernel summing it only for the division to read back.
const SOFTMAX: &str = r#"
func.func @main(%x: tensor<64x300xf32>) -> tensor<64x300xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<64x300xf32>, tensor<f32>) -> tensor<64xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<64xf32>) -> tensor<64x300xf32>
  %d = stablehlo.subtract %x, %mb : tensor<64x300xf32>
  %e = stablehlo.exponential %d : tensor<64x300xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x300xf32>, tensor<f32>) -> tensor<64xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<64xf32>) -> tensor<64x300xf32>
  %y = stablehlo.divide %e, %sb : tensor<64x300xf32>
  return %y : tensor<64x300xf32>
}"#;

#[test]
fn a_value_stored_for_one_consumer_is_recomputed_there() {
    let m = oxhlo_text::parse_module(SOFTMAX, "softmax.mlir").expect("parses");
    let f = &m.funcs[0];
    let block = f.body.entry().expect("body");
    let opts = FusionOptions { enabled: true, aggressive: false, recompute: true, recompute_costly: true, rows: false, max_params: 0, sibling_reductions: 0 };
    let steps = fuse_block(f, block, &opts);
    let steps = oxhlo_plan::reduce_fusion::fuse_reductions(f, block, steps, 1, |_| true);
    let before = kernels_of(&steps);
    let steps = oxhlo_plan::recompute::recompute_in_consumers(f, block, steps, true);
    let kernels = kernels_of(&steps);
    assert_eq!(before.len(), kernels.len(), "{steps:#?}");
    let e = block.ops[5].results[0];
    let exp_op = 5;
    // Before: the summing kernel stores `e`, the division reads it.
    let summing = before.iter().find(|k| !k.reduce.is_empty()).expect("a reduce-fused kernel");
    assert!(summing.outputs.contains(&e), "{before:#?}");
    // After: only the sum is stored; the division computes `exp(x - max)` itself from `x` and the max.
    let summing = kernels.iter().find(|k| !k.reduce.is_empty()).expect("a reduce-fused kernel");
    assert!(!summing.outputs.contains(&e), "{kernels:#?}");
    let division = kernels.iter().find(|k| k.reduce.is_empty() && k.ops.contains(&8)).expect("the division kernel");
    assert!(division.ops.contains(&exp_op) && !division.inputs.contains(&e), "{division:#?}");
    assert!(division.inputs.contains(&block.args[0]), "{division:#?}");

    // The same results as without recomputing (bit for bit: the same ops in the same order per
    // element), and the interpreter's up to the sums' association.
    let x = f32_input(&[64, 300], 21);
    let inputs = [x];
    let want = run_interp(SOFTMAX, &inputs).expect("interp");
    // (Row kernels off in both: they would merge the three steps into one.)
    let plain = run_cpu_with(SOFTMAX, &inputs, FusionOptions { recompute: false, ..opts.clone() }, 2).expect("cpu");
    let recomputed = run_cpu_with(SOFTMAX, &inputs, opts, 2).expect("cpu recomputing");
    compare(&recomputed[0], &plain[0], 0, 0.0).expect("recomputing changed a result");
    compare(&recomputed[0], &want[0], 64, 1e-5).expect("against the interpreter");
}

/// A batch-norm-shaped forward kernel (centre, scale, ReLU) whose centred, scaled and zero values are
/// read by a backward-shaped kernel after a transpose sealed it.
const NORM_AND_GRAD: &str = r#"
func.func @main(%x: tensor<64x16xf32>, %dy: tensor<64x16xf32>, %g: tensor<16xf32>) -> (tensor<16x64xf32>, tensor<64x16xf32>) {
  %zs = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zs) applies stablehlo.add across dimensions = [0] : (tensor<64x16xf32>, tensor<f32>) -> tensor<16xf32>
  %n = stablehlo.constant dense<64.0> : tensor<16xf32>
  %m = stablehlo.divide %s, %n : tensor<16xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [1] : (tensor<16xf32>) -> tensor<64x16xf32>
  %c = stablehlo.subtract %x, %mb : tensor<64x16xf32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<16xf32>) -> tensor<64x16xf32>
  %y = stablehlo.multiply %c, %gb : tensor<64x16xf32>
  %zero = stablehlo.broadcast_in_dim %zs, dims = [] : (tensor<f32>) -> tensor<64x16xf32>
  %r = stablehlo.maximum %y, %zero : tensor<64x16xf32>
  %t = stablehlo.transpose %r, dims = [1, 0] : (tensor<64x16xf32>) -> tensor<16x64xf32>
  %mask = stablehlo.compare GT, %y, %zero : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xi1>
  %dr = stablehlo.select %mask, %dy, %zero : tensor<64x16xi1>, tensor<64x16xf32>
  %dc = stablehlo.multiply %dr, %gb : tensor<64x16xf32>
  %dx = stablehlo.multiply %dc, %c : tensor<64x16xf32>
  return %t, %dx : tensor<16x64xf32>, tensor<64x16xf32>
}"#;

#[test]
fn values_a_later_kernel_can_recompute_are_not_stored() {
    let m = oxhlo_text::parse_module(NORM_AND_GRAD, "norm.mlir").expect("parses");
    let f = &m.funcs[0];
    let block = f.body.entry().expect("body");
    let opts = FusionOptions { enabled: true, aggressive: false, recompute: true, recompute_costly: true, rows: false, max_params: 0, sibling_reductions: 0 };
    let steps = oxhlo_plan::reduce_fusion::fuse_reductions(f, block, fuse_block(f, block, &opts), 1, |_| true);
    let before = kernels_of(&steps);
    let (c, y, zero, r) = (block.ops[5].results[0], block.ops[7].results[0], block.ops[8].results[0], block.ops[9].results[0]);
    let forward = before.iter().find(|k| k.outputs.contains(&r)).expect("the forward kernel");
    for v in [c, y, zero] {
        assert!(forward.outputs.contains(&v), "before: {forward:#?}");
    }
    // Free recomputation only (the CPU's default): zero's broadcast is recomputed (its input is a scalar)
    // and so is the scaled value (from the centred one, which the backward kernel reads anyway); the
    // centred value itself (which needs x, not read there) stays stored.
    let free = kernels_of(&oxhlo_plan::recompute::recompute_in_consumers(f, block, steps.clone(), false));
    let forward = free.iter().find(|k| k.outputs.contains(&r)).expect("the forward kernel");
    assert!(forward.outputs.contains(&c) && !forward.outputs.contains(&y) && !forward.outputs.contains(&zero), "{forward:#?}");
    // Costly recomputation too (the GPU's):
    let after = kernels_of(&oxhlo_plan::recompute::recompute_in_consumers(f, block, steps, true));
    // The forward kernel stores only what the transpose reads; the backward kernel recomputes the rest
    // from x, the mean, the scale and the zero scalar.
    let forward = after.iter().find(|k| k.outputs.contains(&r)).expect("the forward kernel");
    assert_eq!(forward.outputs, vec![r], "{forward:#?}");
    let backward = after.iter().find(|k| k.ops.contains(&14)).expect("the backward kernel");
    assert!(backward.inputs.contains(&block.args[0]) && ![c, y, zero].iter().any(|v| backward.inputs.contains(v)), "{backward:#?}");

    let inputs = [f32_input(&[64, 16], 31), f32_input(&[64, 16], 32), f32_input(&[16], 33)];
    let plain = run_cpu(NORM_AND_GRAD, &inputs, true, 2).expect("cpu");
    let recomputed = run_cpu_with(NORM_AND_GRAD, &inputs, opts, 2).expect("cpu recomputing");
    for (a, b) in recomputed.iter().zip(&plain) {
        compare(a, b, 0, 0.0).expect("recomputing changed a result");
    }
    let want = run_interp(NORM_AND_GRAD, &inputs).expect("interp");
    for (a, b) in recomputed.iter().zip(&want) {
        compare(a, b, 64, 1e-5).expect("against the interpreter");
    }
}

/// The `.mlir` programs of `dir` (relative to this crate), sorted.
fn mlir_files(dir: &str) -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir:?}: {e}")).filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "mlir")).collect();
    files.sort();
    files
}

/// Inputs for every parameter of `f` (bool, i32 or f32): patterns of the parameter's position, f32
/// values drawn from `seed` plus that position.
fn inputs_for(f: &oxhlo_ir::Func, seed: u64) -> Vec<oxhlo_cpu::NTensor> {
    f.ty.inputs
        .iter()
        .enumerate()
        .map(|(j, t)| {
            let t = t.as_tensor().expect("tensor");
            let numel = t.num_elements().expect("static");
            match t.elem {
                oxhlo_ir::ElementType::Bool => tensor("i1", &t.shape, oxhlo_cpu::Buf::Bool((0..numel).map(|i| (i * 7 + j) % 5 != 0).collect())),
                oxhlo_ir::ElementType::Int { .. } => tensor("i32", &t.shape, oxhlo_cpu::Buf::I32((0..numel as i32).map(|k| k * 7 + j as i32).collect())),
                _ => f32_input(&t.shape, seed + j as u64),
            }
        })
        .collect()
}

/// The row programs of `oxhlo-plan/tests/rows/` (softmax, layer norm, attention scores): each becomes one
/// row kernel the CPU runs natively, and its results match the interpreter's (and the step-by-step
/// plan's, up to the sums' association).
#[test]
fn row_kernels_match_the_interpreter() {
    let files = mlir_files("../oxhlo-plan/tests/rows");
    assert!(files.len() >= 5);
    let rows_on = FusionOptions { enabled: true, aggressive: false, recompute: false, recompute_costly: false, rows: true, max_params: 0, sibling_reductions: 0 };
    for (n, path) in files.iter().enumerate() {
        let src = std::fs::read_to_string(path).expect("readable");
        let m = oxhlo_text::parse_module(&src, "rows.mlir").expect("parses");
        let f = &m.funcs[0];
        let block = f.body.entry().expect("body");
        let steps = oxhlo_plan::reduce_fusion::fuse_reductions(f, block, fuse_block(f, block, &rows_on), 1, |_| true);
        let steps = oxhlo_plan::row_fusion::fuse_rows(f, block, steps);
        let kernels: Vec<_> = steps.iter().filter_map(|s| if let Step::Kernel(k) = s { k.rows.is_some().then(|| k.clone()) } else { None }).collect();
        // One row kernel each (softmax_grad.mlir: its forward and its backward, a dot between them).
        assert_eq!(kernels.len(), if path.ends_with("softmax_grad.mlir") { 2 } else { 1 }, "{path:?}");
        assert!(kernels.iter().all(|k| oxhlo_cpu::kernels::rows::supported(k, f, block)), "{path:?}: runs natively on the CPU");
        let inputs = inputs_for(f, 50 + (n * 10) as u64);
        let want = run_interp(&src, &inputs).expect("interp");
        // Also with values recomputed in their readers (row sums broadcast by the reading row kernel).
        let recomputing = FusionOptions { recompute: true, recompute_costly: true, ..rows_on.clone() };
        for (threads, opts) in [(1, &rows_on), (2, &rows_on), (2, &recomputing)] {
            let got = run_cpu_with(&src, &inputs, opts.clone(), threads).expect("cpu with row kernels");
            for (k, (a, b)) in got.iter().zip(&want).enumerate() {
                compare(a, b, 64, 1e-5).unwrap_or_else(|e| panic!("{path:?} output {k} ({threads} threads): {e}"));
            }
        }
    }
}

/// Two layers of masked attention scores sharing their mask, scale and fill broadcasts (as CSE leaves
/// them in a transformer): the first layer's row kernel computes them and, before recomputation, stores
/// them at the scores' shape for the second's.
const MASKED_SCORES_AND_GRAD: &str = r#"
func.func @main(%s: tensor<2x3x8x8xf32>, %m: tensor<8x8xi1>, %v: tensor<2x3x8x8xf32>) -> (tensor<2x3x8x8xf32>, tensor<2x3x8x8xf32>) {
  %c8 = stablehlo.constant dense<8.0> : tensor<f32>
  %scale = stablehlo.broadcast_in_dim %c8, dims = [] : (tensor<f32>) -> tensor<2x3x8x8xf32>
  %q = stablehlo.divide %s, %scale : tensor<2x3x8x8xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [2, 3] : (tensor<8x8xi1>) -> tensor<2x3x8x8xi1>
  %fill = stablehlo.constant dense<-1.0e9> : tensor<f32>
  %fb = stablehlo.broadcast_in_dim %fill, dims = [] : (tensor<f32>) -> tensor<2x3x8x8xf32>
  %w = stablehlo.select %mb, %q, %fb : tensor<2x3x8x8xi1>, tensor<2x3x8x8xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %mx = stablehlo.reduce(%w init: %ninf) applies stablehlo.maximum across dimensions = [3] : (tensor<2x3x8x8xf32>, tensor<f32>) -> tensor<2x3x8xf32>
  %mxb = stablehlo.broadcast_in_dim %mx, dims = [0, 1, 2] : (tensor<2x3x8xf32>) -> tensor<2x3x8x8xf32>
  %d = stablehlo.subtract %w, %mxb : tensor<2x3x8x8xf32>
  %e = stablehlo.exponential %d : tensor<2x3x8x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [3] : (tensor<2x3x8x8xf32>, tensor<f32>) -> tensor<2x3x8xf32>
  %sb = stablehlo.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<2x3x8xf32>) -> tensor<2x3x8x8xf32>
  %p = stablehlo.divide %e, %sb : tensor<2x3x8x8xf32>
  %pv = stablehlo.dot_general %p, %v, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x3x8x8xf32>, tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %q2 = stablehlo.divide %pv, %scale : tensor<2x3x8x8xf32>
  %w2 = stablehlo.select %mb, %q2, %fb : tensor<2x3x8x8xi1>, tensor<2x3x8x8xf32>
  %mx2 = stablehlo.reduce(%w2 init: %ninf) applies stablehlo.maximum across dimensions = [3] : (tensor<2x3x8x8xf32>, tensor<f32>) -> tensor<2x3x8xf32>
  %mxb2 = stablehlo.broadcast_in_dim %mx2, dims = [0, 1, 2] : (tensor<2x3x8xf32>) -> tensor<2x3x8x8xf32>
  %d2 = stablehlo.subtract %w2, %mxb2 : tensor<2x3x8x8xf32>
  %e2 = stablehlo.exponential %d2 : tensor<2x3x8x8xf32>
  %sum2 = stablehlo.reduce(%e2 init: %z) applies stablehlo.add across dimensions = [3] : (tensor<2x3x8x8xf32>, tensor<f32>) -> tensor<2x3x8xf32>
  %sb2 = stablehlo.broadcast_in_dim %sum2, dims = [0, 1, 2] : (tensor<2x3x8xf32>) -> tensor<2x3x8x8xf32>
  %p2 = stablehlo.divide %e2, %sb2 : tensor<2x3x8x8xf32>
  return %p, %p2 : tensor<2x3x8x8xf32>, tensor<2x3x8x8xf32>
}"#;

#[test]
fn row_kernels_recompute_broadcasts_instead_of_reading_them() {
    let m = oxhlo_text::parse_module(MASKED_SCORES_AND_GRAD, "masked.mlir").expect("parses");
    let f = &m.funcs[0];
    let block = f.body.entry().expect("body");
    let opts = FusionOptions { enabled: true, aggressive: false, recompute: true, recompute_costly: true, rows: true, max_params: 0, sibling_reductions: 0 };
    let steps = oxhlo_plan::reduce_fusion::fuse_reductions(f, block, fuse_block(f, block, &opts), 1, |_| true);
    let steps = oxhlo_plan::row_fusion::fuse_rows(f, block, steps);
    let full = |v: oxhlo_ir::Value| f.try_ty(v).and_then(|t| t.as_tensor()).is_some_and(|t| t.shape == [2, 3, 8, 8]);
    let broadcast_inputs = |steps: &[Step]| -> usize {
        steps
            .iter()
            .filter_map(|s| if let Step::Kernel(k) = s { k.rows.is_some().then(|| k.clone()) } else { None })
            .flat_map(|k| k.inputs.clone())
            .filter(|&v| full(v) && block.ops.iter().any(|o| o.kind == oxhlo_ir::OpKind::BroadcastInDim && o.results[0] == v))
            .count()
    };
    // Before: the row kernel reads stored full-shape broadcasts (mask, scale, fill).
    assert!(broadcast_inputs(&steps) >= 2, "{steps:#?}");
    let steps = oxhlo_plan::recompute::recompute_in_consumers(f, block, steps, true);
    // After: it computes them from the mask and the scalars; nothing stores them.
    assert_eq!(broadcast_inputs(&steps), 0, "{steps:#?}");
    let rows = steps.iter().find_map(|s| if let Step::Kernel(k) = s { k.rows.is_some().then(|| k.clone()) } else { None }).expect("a row kernel");
    assert!(oxhlo_cpu::kernels::rows::supported(&rows, f, block), "{rows:#?}");

    let s = f32_input(&[2, 3, 8, 8], 71);
    let mask = tensor("i1", &[8, 8], oxhlo_cpu::Buf::Bool((0..64).map(|i| i % 8 <= i / 8).collect()));
    let v = f32_input(&[2, 3, 8, 8], 72);
    let inputs = [s, mask, v];
    let want = run_interp(MASKED_SCORES_AND_GRAD, &inputs).expect("interp");
    for threads in [1, 2] {
        let got = run_cpu_with(MASKED_SCORES_AND_GRAD, &inputs, opts.clone(), threads).expect("cpu");
        for (k, (a, b)) in got.iter().zip(&want).enumerate() {
            compare(a, b, 64, 1e-5).unwrap_or_else(|e| panic!("output {k} ({threads} threads): {e}"));
        }
    }
}

/// Four SGD-style updates sharing one broadcast learning rate (as an optimizer's updates do after CSE).
const UPDATES: &str = r#"
func.func @main(%lr: tensor<f32>, %p0: tensor<64x32xf32>, %g0: tensor<64x32xf32>, %p1: tensor<64x32xf32>, %g1: tensor<64x32xf32>, %p2: tensor<64x32xf32>, %g2: tensor<64x32xf32>, %p3: tensor<64x32xf32>, %g3: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>) {
  %b = stablehlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<64x32xf32>
  %s0 = stablehlo.multiply %b, %g0 : tensor<64x32xf32>
  %u0 = stablehlo.subtract %p0, %s0 : tensor<64x32xf32>
  %s1 = stablehlo.multiply %b, %g1 : tensor<64x32xf32>
  %u1 = stablehlo.subtract %p1, %s1 : tensor<64x32xf32>
  %s2 = stablehlo.multiply %b, %g2 : tensor<64x32xf32>
  %u2 = stablehlo.subtract %p2, %s2 : tensor<64x32xf32>
  %s3 = stablehlo.multiply %b, %g3 : tensor<64x32xf32>
  %u3 = stablehlo.subtract %p3, %s3 : tensor<64x32xf32>
  return %u0, %u1, %u2, %u3 : tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>
}"#;

#[test]
fn kernels_of_too_many_buffers_split_into_their_independent_parts() {
    let m = oxhlo_text::parse_module(UPDATES, "updates.mlir").expect("parses");
    let f = &m.funcs[0];
    let block = f.body.entry().expect("body");
    let plan = |max_params| {
        let steps = fuse_block(f, block, &FusionOptions { enabled: true, aggressive: false, recompute: false, recompute_costly: false, rows: false, max_params, sibling_reductions: 0 });
        let kernels = kernels_of(&steps);
        (steps.len() - kernels.len(), kernels)
    };
    // No limit: the shared broadcast joins all four updates into one kernel of 9 inputs and 4 outputs.
    let (ops, kernels) = plan(0);
    assert_eq!((ops, kernels.len()), (1, 1), "the return and one kernel: {kernels:?}");
    assert_eq!((kernels[0].inputs.len(), kernels[0].outputs.len()), (9, 4));
    // At most 8 buffers: each update (broadcast value, parameter, gradient, result) fits alone and two
    // together do not; the broadcast, read by every part, is a step of its own.
    let (ops, kernels) = plan(6);
    assert_eq!((ops, kernels.len()), (2, 4), "{kernels:?}");
    assert!(kernels.iter().all(|k| k.inputs.len() == 3 && k.outputs.len() == 1 && k.ops.len() == 2), "{kernels:?}");
    // Recomputation then takes the broadcast into each kernel: they read the scalar, nothing stores the
    // broadcast tensor.
    let steps = fuse_block(f, block, &FusionOptions { enabled: true, aggressive: false, recompute: true, recompute_costly: false, rows: false, max_params: 6, sibling_reductions: 0 });
    let steps = oxhlo_plan::recompute::recompute_in_consumers(f, block, steps, false);
    let kernels = kernels_of(&steps);
    assert_eq!((steps.len(), kernels.len()), (5, 4), "the broadcast step is gone: {steps:?}");
    let lr = f.args()[0];
    assert!(kernels.iter().all(|k| k.inputs.contains(&lr) && k.ops.len() == 3), "{kernels:?}");
    // Two updates to a kernel at 8.
    let (_, kernels) = plan(8);
    assert_eq!(kernels.len(), 2, "{kernels:?}");
    // Every split computes what the interpreter computes (CPU fusion with recomputation).
    let inputs: Vec<_> = std::iter::once(tensor("f32", &[], oxhlo_cpu::Buf::F32(vec![0.125]))).chain((0..8).map(|i| f32_input(&[64, 32], 40 + i))).collect();
    let want = run_interp(UPDATES, &inputs).expect("interp");
    for max_params in [0, 6, 8] {
        let got = run_cpu_with(UPDATES, &inputs, FusionOptions { enabled: true, aggressive: false, recompute: true, recompute_costly: true, rows: false, max_params, sibling_reductions: 0 }, 2).expect("cpu");
        for (g, w) in got.iter().zip(&want) {
            compare(g, w, 0, 0.0).unwrap_or_else(|e| panic!("max_params {max_params}: {e}"));
        }
    }
}

/// A batch norm's backward in miniature: four reductions over one view of independent values (one a
/// maximum), then one that needs a result of theirs.
const SIBLINGS: &str = r#"
func.func @main(%x: tensor<512x64xf32>, %dy: tensor<512x64xf32>, %mean: tensor<64xf32>, %g: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<512x64xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [1] : (tensor<64xf32>) -> tensor<512x64xf32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<64xf32>) -> tensor<512x64xf32>
  %c = stablehlo.subtract %x, %mb : tensor<512x64xf32>
  %d = stablehlo.multiply %dy, %gb : tensor<512x64xf32>
  %s1 = stablehlo.reduce(%d init: %z) applies stablehlo.add across dimensions = [0] : (tensor<512x64xf32>, tensor<f32>) -> tensor<64xf32>
  %e = stablehlo.multiply %d, %c : tensor<512x64xf32>
  %s2 = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [0] : (tensor<512x64xf32>, tensor<f32>) -> tensor<64xf32>
  %f = stablehlo.multiply %c, %c : tensor<512x64xf32>
  %s3 = stablehlo.reduce(%f init: %z) applies stablehlo.add across dimensions = [0] : (tensor<512x64xf32>, tensor<f32>) -> tensor<64xf32>
  %ne = stablehlo.negate %e : tensor<512x64xf32>
  %mx = stablehlo.reduce(%ne init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<512x64xf32>, tensor<f32>) -> tensor<64xf32>
  %s3b = stablehlo.broadcast_in_dim %s3, dims = [1] : (tensor<64xf32>) -> tensor<512x64xf32>
  %h = stablehlo.multiply %c, %s3b : tensor<512x64xf32>
  %s4 = stablehlo.reduce(%h init: %z) applies stablehlo.add across dimensions = [0] : (tensor<512x64xf32>, tensor<f32>) -> tensor<64xf32>
  return %s1, %s2, %s3, %mx, %s4, %d : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<512x64xf32>
}"#;

#[test]
fn sibling_reductions_merge_into_one_kernel_and_match_the_interpreter() {
    let m = oxhlo_text::parse_module(SIBLINGS, "siblings.mlir").expect("parses");
    let f = &m.funcs[0];
    let block = f.body.entry().expect("body");
    let opts = FusionOptions { enabled: true, aggressive: false, recompute: true, recompute_costly: true, rows: false, max_params: 0, sibling_reductions: 4 };
    let steps = oxhlo_plan::reduce_fusion::fuse_reductions(f, block, fuse_block(f, block, &opts), 1, |_| true);
    let steps = oxhlo_plan::recompute::recompute_in_consumers(f, block, steps, true);
    assert_eq!(kernels_of(&steps).iter().filter(|k| !k.reduce.is_empty()).count(), 5, "{steps:#?}");
    let merged = kernels_of(&oxhlo_plan::reduce_fusion::merge_kernels(block, steps.clone(), 4, |_| true));
    let ret = block.ops.last().expect("return");
    let (s1, s2, s3, mx, s4, d) = (ret.operands[0], ret.operands[1], ret.operands[2], ret.operands[3], ret.operands[4], ret.operands[5]);
    let with_red: Vec<_> = merged.iter().filter(|k| !k.reduce.is_empty()).collect();
    assert_eq!(with_red.len(), 2, "{merged:#?}");
    let first: Vec<_> = with_red[0].reduce.iter().map(|e| e.result).collect();
    assert_eq!(first, vec![s1, s2, s3, mx], "{merged:#?}");
    // Stored values first, then the results in the reductions' order; %d is computed once, inside.
    assert_eq!(with_red[0].outputs, vec![d, s1, s2, s3, mx]);
    assert!(!with_red[0].inputs.contains(&d));
    assert_eq!(with_red[1].reduce.iter().map(|e| e.result).collect::<Vec<_>>(), vec![s4]);
    // At most two a kernel: two kernels of two.
    let pairs = kernels_of(&oxhlo_plan::reduce_fusion::merge_kernels(block, steps, 2, |_| true));
    assert_eq!(pairs.iter().map(|k| k.reduce.len()).filter(|&n| n > 0).collect::<Vec<_>>(), vec![2, 2, 1]);

    let inputs = [f32_input(&[512, 64], 41), f32_input(&[512, 64], 42), f32_input(&[64], 43), f32_input(&[64], 44)];
    let got = run_cpu_with(SIBLINGS, &inputs, opts, 2).expect("cpu with merged reductions");
    let want = run_interp(SIBLINGS, &inputs).expect("interp");
    for (a, b) in got.iter().zip(&want) {
        compare(a, b, 64, 1e-4).expect("against the interpreter");
    }
}

/// Softmax and layer norm over rows of 4096 as row kernels, 40 rows: several slabs of 16 rows per part
/// (one or two threads), each keeping its `exp(x - max)` / `x - mean` in the part's slab buffer for the
/// normalizing program; results match the interpreter's (up to the sums' association).
#[test]
fn row_kernel_slab_values_match_the_interpreter_across_slabs() {
    const SRC: &str = r#"
func.func @main(%x: tensor<40x4096xf32>, %g: tensor<4096xf32>) -> (tensor<40x4096xf32>, tensor<40x4096xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<4096.0> : tensor<40xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<40xf32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<40x4096xf32>, tensor<f32>) -> tensor<40xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<40xf32>) -> tensor<40x4096xf32>
  %d = stablehlo.subtract %x, %mb : tensor<40x4096xf32>
  %e = stablehlo.exponential %d : tensor<40x4096xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<40x4096xf32>, tensor<f32>) -> tensor<40xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<40xf32>) -> tensor<40x4096xf32>
  %p = stablehlo.divide %e, %sb : tensor<40x4096xf32>
  %t = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<40x4096xf32>, tensor<f32>) -> tensor<40xf32>
  %mean = stablehlo.divide %t, %n : tensor<40xf32>
  %meanb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<40xf32>) -> tensor<40x4096xf32>
  %c = stablehlo.subtract %x, %meanb : tensor<40x4096xf32>
  %c2 = stablehlo.multiply %c, %c : tensor<40x4096xf32>
  %v = stablehlo.reduce(%c2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<40x4096xf32>, tensor<f32>) -> tensor<40xf32>
  %var = stablehlo.divide %v, %n : tensor<40xf32>
  %ve = stablehlo.add %var, %eps : tensor<40xf32>
  %r = stablehlo.rsqrt %ve : tensor<40xf32>
  %rb = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<40xf32>) -> tensor<40x4096xf32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<4096xf32>) -> tensor<40x4096xf32>
  %y0 = stablehlo.multiply %c, %rb : tensor<40x4096xf32>
  %y = stablehlo.multiply %y0, %gb : tensor<40x4096xf32>
  return %p, %y : tensor<40x4096xf32>, tensor<40x4096xf32>
}"#;
    let rows_on = FusionOptions { enabled: true, aggressive: false, recompute: false, recompute_costly: false, rows: true, max_params: 0, sibling_reductions: 0 };
    let inputs = [f32_input(&[40, 4096], 91), f32_input(&[4096], 92)];
    let want = run_interp(SRC, &inputs).expect("interp");
    for threads in [1, 2] {
        let got = run_cpu_with(SRC, &inputs, rows_on.clone(), threads).expect("cpu with row kernels");
        for (k, (a, b)) in got.iter().zip(&want).enumerate() {
            compare(a, b, 64, 1e-5).unwrap_or_else(|e| panic!("output {k} ({threads} threads): {e}"));
        }
    }
}

/// View copies (`oxhlo_plan::view_copy`, `oxhlo-plan/tests/view_copies`): attention heads sliced out of
/// a fused projection (one chain the CPU copies at once, the others left as ops) and their gradients
/// concatenated back (left as ops on the CPU) give the interpreter's values bit for bit.
#[test]
fn view_copies_match_the_interpreter() {
    let files = mlir_files("../oxhlo-plan/tests/view_copies");
    assert!(files.len() >= 3);
    let fusing = oxhlo_cpu::CpuOptions::default().fusion;
    for (n, path) in files.iter().enumerate() {
        let src = std::fs::read_to_string(path).expect("readable");
        let m = oxhlo_text::parse_module(&src, "copies.mlir").expect("parses");
        let f = &m.funcs[0];
        let block = f.body.entry().expect("body");
        let (_, copies) = oxhlo_plan::view_copy::plan(f, block, fuse_block(f, block, &fusing), false);
        // heads.mlir and scalar_end.mlir have a chain the CPU copies at once; concat.mlir only
        // concatenations (left as they are).
        assert_eq!(copies.len(), usize::from(!path.ends_with("concat.mlir")), "{path:?}");
        let inputs = inputs_for(f, 70 + (n * 10) as u64);
        let want = run_interp(&src, &inputs).expect("interp");
        let got = run_cpu_with(&src, &inputs, fusing.clone(), 2).expect("cpu with view copies");
        assert_eq!(got.len(), want.len());
        for (k, (a, b)) in got.iter().zip(&want).enumerate() {
            assert_eq!(a, b, "{path:?} output {k}");
        }
    }
}
