//! GEMM epilogues (`oxhlo_cuda::gemm_epilogue`, `gemm_lt`): the two-layer MLP block JAX emits
//! (`x + gelu(x @ w1) @ w2`, `jax.nn.gelu`'s tanh form) plans as two dots whose GELU and residual add
//! are their epilogues, after the CUDA backend's optimizer; a GELU with another constant, or a dot
//! result read elsewhere too, is left alone. On a GPU the program runs as two cuBLASLt calls and no
//! kernel, matching the reference interpreter; without one that part says so and skips.

use oxhlo_cpu::{Buf, NTensor, OptLevel, Val};
use oxhlo_cuda::gemm_epilogue::{detect, Epilogue};
use oxhlo_cuda::{CudaOptions, CudaProgram};
use oxhlo_interp::custom_call::CustomCallRegistry;
mod common;

use common::as_f64;
use oxhlo_ir::{ElementType, FloatType, Module, TensorType};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

/// `x + gelu(x @ w1) @ w2` as JAX 0.11 lowers it (x: [64, 32], hidden 128), with the GELU's cube
/// coefficient `c` and, when `leak`, the first dot's result returned too.
fn mlp(c: &str, leak: bool) -> String {
    let (t, h) = ("tensor<64x32xf32>", "tensor<64x128xf32>");
    let splat = |name: &str, v: &str| format!("    %{name}s = stablehlo.constant dense<{v}> : tensor<f32>\n    %{name} = stablehlo.broadcast_in_dim %{name}s, dims = [] : (tensor<f32>) -> {h}\n");
    let results = if leak { format!("{t}, {h}") } else { t.to_string() };
    let ret = if leak { format!("%15, %0 : {t}, {h}") } else { format!("%15 : {t}") };
    format!(
        "func.func @main(%x: {t}, %w1: tensor<32x128xf32>, %w2: tensor<128x32xf32>) -> ({results}) {{
    %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : ({t}, tensor<32x128xf32>) -> {h}
    %1 = stablehlo.multiply %0, %0 : {h}
    %2 = stablehlo.multiply %1, %0 : {h}
{}    %4 = stablehlo.multiply %c3, %2 : {h}
    %5 = stablehlo.add %0, %4 : {h}
{}    %7 = stablehlo.multiply %c6, %5 : {h}
    %8 = stablehlo.tanh %7 : {h}
{}    %10 = stablehlo.add %c9, %8 : {h}
{}    %12 = stablehlo.multiply %c11, %10 : {h}
    %13 = stablehlo.multiply %0, %12 : {h}
    %14 = stablehlo.dot_general %13, %w2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : ({h}, tensor<128x32xf32>) -> {t}
    %15 = stablehlo.add %x, %14 : {t}
    return {ret}
}}",
        splat("c3", c),
        splat("c6", "0.797884583"),
        splat("c9", "1.000000e+00"),
        splat("c11", "5.000000e-01"),
    )
}

fn optimized(src: &str) -> Module {
    let mut m = oxhlo_text::parse_module(src, "mlp.mlir").expect("parses");
    oxhlo_ir::verify_module(&m).expect("verifies");
    oxhlo_cuda::optimize(&mut m, &oxhlo_opt::OptOptions::at(OptLevel::O2)).expect("optimizes");
    m
}

/// The epilogues the CUDA backend's plan of `m`'s entry finds, in order.
fn epilogues(m: &Module) -> Vec<Epilogue> {
    let f = m.entry().expect("entry");
    let block = f.body.entry().expect("body");
    let steps = oxhlo_cuda::kernels::plan_steps(f, block, &CudaOptions::default().fusion);
    let steps = oxhlo_cuda::gemm_epilogue::sink_dots(f, block, steps);
    steps.windows(2).filter_map(|w| detect(f, block, &w[0], &w[1])).map(|g| g.epilogue).collect()
}

#[test]
fn the_mlp_block_plans_as_two_dots_with_epilogues() {
    let got = epilogues(&optimized(&mlp("4.471500e-02", false)));
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0], Epilogue::GeluTanh);
    assert!(matches!(got[1], Epilogue::Residual(_)), "{got:?}");
    // Another cube coefficient is not the tanh GELU; a dot result returned as well must be stored.
    assert!(!epilogues(&optimized(&mlp("5.000000e-02", false))).contains(&Epilogue::GeluTanh));
    let leaked = epilogues(&optimized(&mlp("4.471500e-02", true)));
    assert!(!leaked.contains(&Epilogue::GeluTanh), "{leaked:?}");
}

#[test]
fn epilogues_run_on_cublaslt_and_match_the_interpreter() {
    let module = optimized(&mlp("4.471500e-02", false));
    if let Err(e) = oxhlo_cuda::device::gpu() {
        println!("skipped: no CUDA device ({e})");
        return;
    }
    let opts = CudaOptions { allow_tf32: false, ..Default::default() };
    let prog = CudaProgram::compile(module.clone(), &opts, Arc::new(CustomCallRegistry::with_builtins())).expect("compiles");
    let f32t = |s: &[i64]| TensorType::new(s.to_vec(), ElementType::Float(FloatType::F32));
    let vals = |n: usize, seed: usize, scale: f32| -> Vec<f32> { (0..n).map(|i| (((i * 7919 + seed * 104729) % 2003) as f32 / 1001.5 - 1.0) * scale).collect() };
    let inputs = vec![
        Val::Native(NTensor::new(f32t(&[64, 32]), Buf::F32(vals(64 * 32, 1, 2.0)))),
        Val::Native(NTensor::new(f32t(&[32, 128]), Buf::F32(vals(32 * 128, 2, 0.4)))),
        Val::Native(NTensor::new(f32t(&[128, 32]), Buf::F32(vals(128 * 32, 3, 0.2)))),
    ];
    let want = as_f64(&oxhlo_interp::eval::run_main(&module, inputs.iter().map(Val::to_rt).collect()).expect("interpreter")[0]);
    let kernels0 = prog.stats.device_kernels.load(Relaxed);
    let got = as_f64(&prog.run(inputs).expect("runs")[0].to_rt());
    let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    for (e, (g, w)) in got.iter().zip(&want).enumerate() {
        // f32 GEMMs (no TF32) against f64 sums, and cuBLASLt's GELU against the interpreter's: rounding only.
        assert!((g - w).abs() <= 2e-5 * scale, "element {e}: {g} vs the interpreter's {w}");
    }
    assert_eq!(prog.stats.device_gemms.load(Relaxed), 2, "two cuBLASLt calls");
    assert_eq!(prog.stats.device_kernels.load(Relaxed), kernels0, "no kernel for the GELU or the residual add");
}
