//! The native dot_general / convolution kernels against the reference interpreter (the oracle) on
//! random inputs, across dimension-number configurations: the forms JAX emits for matmuls, attention
//! and their gradients, and the exact convolution forms of JAX's gradients of NHWC/HWIO convolutions
//! (weight gradient with rhs dilation and negative padding, input gradient with lhs dilation), groups,
//! reversal, 1-D/3-D, f64 and bf16. Each case also asserts the native kernel handled the op (so the
//! interpreter is not compared with itself).

// Case tables: plain tuples and positional constructors read best here.
#![allow(clippy::too_many_arguments, clippy::type_complexity)]

use oxhlo_cpu::kernels::{self, KernelCtx};
use oxhlo_cpu::{CpuOptions, CpuProgram, NTensor, Val};
use oxhlo_interp::{Data, RtValue, Tensor};
use oxhlo_ir::{Type, TensorType};
use oxhlo_progen::conv_case::tensor_type;


/// Runs `@main` of `src` (one op, two operands) natively and on the interpreter and compares.
fn check(src: &str, seed: u64) {
    let module = oxhlo_text::parse_module(src, "test.mlir").unwrap_or_else(|e| panic!("parse: {e:?}\n{src}"));
    oxhlo_ir::verify_module(&module).unwrap_or_else(|e| panic!("verify: {e:?}\n{src}"));
    let func = module.entry().expect("entry");
    let mut rng = oxhlo_progen::Rng::new(seed);
    let mut inputs = Vec::new();
    for &a in &func.body.blocks[0].args {
        let Type::Tensor(ty) = func.ty(a).clone() else { panic!("tensor args only") };
        let n: i64 = ty.shape.iter().product();
        let data = Data::Float((0..n).map(|_| rng.signed_unit()).collect());
        // Round through the native type so that both sides see the same values.
        let t = NTensor::from_interp(&Tensor { ty, data }).expect("native").to_interp();
        inputs.push(t);
    }
    let expected = oxhlo_interp::run_main(&module, inputs.iter().cloned().map(RtValue::Tensor).collect())
        .unwrap_or_else(|e| panic!("interpreter: {e}\n{src}"));
    let RtValue::Tensor(expected) = &expected[0] else { panic!("tensor result") };
    // The kernel itself must handle the op.
    let op = &func.body.blocks[0].ops[0];
    let rty: TensorType = match func.ty(op.results[0]) {
        Type::Tensor(t) => t.clone(),
        _ => panic!("tensor result"),
    };
    let natives: Vec<NTensor> = inputs.iter().map(|t| NTensor::from_interp(t).unwrap()).collect();
    let refs: Vec<&NTensor> = natives.iter().collect();
    for threads in [1, 2] {
        let ctx = KernelCtx { op, func, result_types: vec![&rty], threads };
        let got = kernels::run_native(&ctx, &refs)
            .unwrap_or_else(|| panic!("no native kernel handled\n{src}"))
            .unwrap_or_else(|e| panic!("kernel error {e}\n{src}"));
        compare(&got[0].to_interp(), expected, src);
    }
    // And through the executor.
    let prog = CpuProgram::compile(module.clone(), &CpuOptions { threads: 2, ..CpuOptions::default() }).unwrap();
    let out = prog.run(natives.into_iter().map(Val::Native).collect()).unwrap();
    compare(&out[0].native().unwrap().to_interp(), expected, src);
}

fn compare(got: &Tensor, want: &Tensor, src: &str) {
    assert_eq!(got.ty, want.ty, "{src}");
    let (Data::Float(g), Data::Float(w)) = (&got.data, &want.data) else { panic!("float data") };
    assert_eq!(g.len(), w.len());
    use oxhlo_ir::{ElementType, FloatType};
    let tol = match want.ty.elem {
        ElementType::Float(FloatType::F64) => 1e-12,
        ElementType::Float(FloatType::BF16) => 1e-2,
        ElementType::Float(FloatType::F16) => 2e-3,
        _ => 2e-5,
    };
    let scale = w.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    for (i, (a, b)) in g.iter().zip(w).enumerate() {
        assert!((a - b).abs() <= tol * scale, "element {i}: got {a}, want {b} (tol {tol} x {scale})\n{src}");
    }
}


fn dot(l: &[i64], r: &[i64], lb: &[i64], rb: &[i64], lc: &[i64], rc: &[i64], e: &str, re: &str) -> String {
    let mut out: Vec<i64> = lb.iter().map(|&d| l[d as usize]).collect();
    out.extend((0..l.len() as i64).filter(|d| !lb.contains(d) && !lc.contains(d)).map(|d| l[d as usize]));
    out.extend((0..r.len() as i64).filter(|d| !rb.contains(d) && !rc.contains(d)).map(|d| r[d as usize]));
    let list = |v: &[i64]| v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
    let batch = if lb.is_empty() { String::new() } else { format!("batching_dims = [{}] x [{}], ", list(lb), list(rb)) };
    format!(
        "func.func @main(%a: {lt}, %b: {rt}) -> {ot} {{\n  %0 = stablehlo.dot_general %a, %b, {batch}contracting_dims = [{}] x [{}] : ({lt}, {rt}) -> {ot}\n  return %0 : {ot}\n}}",
        list(lc),
        list(rc),
        lt = tensor_type(l, e),
        rt = tensor_type(r, e),
        ot = tensor_type(&out, re),
    )
}

#[test]
fn dot_general_configs() {
    let cases: Vec<(Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>)> = vec![
        (vec![5, 7], vec![7, 3], vec![], vec![], vec![1], vec![0]),
        (vec![7, 5], vec![7, 3], vec![], vec![], vec![0], vec![0]),
        (vec![5, 7], vec![3, 7], vec![], vec![], vec![1], vec![1]),
        (vec![7, 5], vec![3, 7], vec![], vec![], vec![0], vec![1]),
        (vec![7], vec![7], vec![], vec![], vec![0], vec![0]),
        (vec![5, 7], vec![7], vec![], vec![], vec![1], vec![0]),
        (vec![4], vec![3], vec![], vec![], vec![], vec![]),
        (vec![3, 5, 7], vec![3, 7, 4], vec![0], vec![0], vec![2], vec![1]),
        // nanoGPT: [B,T,C] x [C,D], its weight gradient (contract B and T) and input gradient.
        (vec![2, 4, 8], vec![8, 16], vec![], vec![], vec![2], vec![0]),
        (vec![2, 4, 16], vec![2, 4, 8], vec![], vec![], vec![0, 1], vec![0, 1]),
        (vec![2, 4, 16], vec![8, 16], vec![], vec![], vec![2], vec![1]),
        // Attention: scores and their gradients.
        (vec![2, 4, 3, 8], vec![2, 5, 3, 8], vec![0, 2], vec![0, 2], vec![3], vec![3]),
        (vec![2, 3, 4, 5], vec![2, 5, 3, 8], vec![0, 1], vec![0, 2], vec![3], vec![1]),
        (vec![2, 3, 4, 5], vec![2, 4, 3, 8], vec![0, 1], vec![0, 2], vec![2], vec![1]),
        // Non-collapsing groups (packing path), batch dims out of order.
        (vec![3, 2, 4, 5], vec![5, 2, 3, 6], vec![1], vec![1], vec![3, 0], vec![0, 2]),
        (vec![4, 3, 2], vec![2, 3, 5], vec![1, 2], vec![1, 0], vec![], vec![]),
        (vec![2, 3, 6, 5], vec![3, 5, 2, 7], vec![0], vec![2], vec![1, 3], vec![0, 1]),
        // Sizes that exercise the gemm crate's blocking and threads, and many small batched products.
        (vec![67, 130], vec![130, 97], vec![], vec![], vec![1], vec![0]),
        (vec![64, 16, 16], vec![64, 16, 16], vec![0], vec![0], vec![2], vec![1]),
        (vec![0, 4], vec![4, 3], vec![], vec![], vec![1], vec![0]),
        // The task tiling with 2 threads: row blocks, column blocks (few rows, a partial last block),
        // both, the gemm crate's own threads (one task too narrow to split), and an lhs read transposed
        // against few columns (packed per task), alone and batched over tasks.
        (vec![400, 96], vec![96, 160], vec![], vec![], vec![1], vec![0]),
        (vec![40, 256], vec![256, 500], vec![], vec![], vec![1], vec![0]),
        (vec![100, 300], vec![300, 400], vec![], vec![], vec![1], vec![0]),
        (vec![20, 3000], vec![3000, 100], vec![], vec![], vec![1], vec![0]),
        (vec![300, 200], vec![300, 40], vec![], vec![], vec![0], vec![0]),
        (vec![16, 130, 70], vec![16, 130, 50], vec![0], vec![0], vec![1], vec![1]),
        (vec![3, 0], vec![0, 2], vec![], vec![], vec![1], vec![0]),
    ];
    for (i, (l, r, lb, rb, lc, rc)) in cases.iter().enumerate() {
        check(&dot(l, r, lb, rb, lc, rc, "f32", "f32"), i as u64);
        if i % 3 == 0 {
            check(&dot(l, r, lb, rb, lc, rc, "f64", "f64"), 100 + i as u64);
            check(&dot(l, r, lb, rb, lc, rc, "bf16", "bf16"), 200 + i as u64);
            check(&dot(l, r, lb, rb, lc, rc, "bf16", "f32"), 300 + i as u64);
            check(&dot(l, r, lb, rb, lc, rc, "f16", "f16"), 400 + i as u64);
        }
    }
}

#[test]
fn old_dot_and_mixed_operands() {
    check(
        "func.func @main(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>) -> tensor<4x3xf32> {\n  %0 = stablehlo.dot %a, %b : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>\n  return %0 : tensor<4x3xf32>\n}",
        1,
    );
    check(
        "func.func @main(%a: tensor<4x6xbf16>, %b: tensor<6x3xf32>) -> tensor<4x3xf32> {\n  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x6xbf16>, tensor<6x3xf32>) -> tensor<4x3xf32>\n  return %0 : tensor<4x3xf32>\n}",
        2,
    );
}

#[test]
fn convolution_configs() {
    let cases = oxhlo_progen::conv_case::cases();
    for (i, c) in cases.iter().enumerate() {
        check(&c.text("f32"), 1000 + i as u64);
        if i % 4 == 0 {
            check(&c.text("f64"), 2000 + i as u64);
            check(&c.text("bf16"), 3000 + i as u64);
        }
    }
}
