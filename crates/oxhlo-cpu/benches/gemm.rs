//! Benchmarks of the native dot_general and convolution kernels (`cargo bench -p oxhlo-cpu --bench
//! gemm`): f32 GEMM 256/512/1024 (throughput in FLOP/s), the conv3x3 NCHW b32 c64 56x56 shape, and the
//! NHWC/HWIO ResNet-style 3x3 conv with the weight- and input-gradient forms JAX emits for it.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oxhlo_cpu::kernels::{self, KernelCtx};
use oxhlo_cpu::{Buf, NTensor};
use oxhlo_ir::{Module, TensorType, Type};
use std::hint::black_box;

fn threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// The single op of `src`'s `@main` with f32 operands filled with a fixed pattern.
fn setup(src: &str) -> (Module, Vec<NTensor>, TensorType) {
    let module = oxhlo_text::parse_module(src, "bench.mlir").expect("parses");
    let func = module.entry().expect("entry");
    let args = func.body.blocks[0]
        .args
        .iter()
        .map(|&a| {
            let Type::Tensor(ty) = func.ty(a).clone() else { panic!("tensor") };
            let n: i64 = ty.shape.iter().product();
            let v: Vec<f32> = (0..n).map(|i| ((i * 7919 % 1000) as f32) / 1000.0 - 0.5).collect();
            NTensor::new(ty, Buf::F32(v))
        })
        .collect();
    let op = &func.body.blocks[0].ops[0];
    let Type::Tensor(rty) = func.ty(op.results[0]).clone() else { panic!("tensor") };
    (module.clone(), args, rty)
}

fn bench_op(c: &mut Criterion, name: &str, src: &str, flops: u64) {
    let (module, args, rty) = setup(src);
    let func = module.entry().expect("entry");
    let op = &func.body.blocks[0].ops[0];
    let refs: Vec<&NTensor> = args.iter().collect();
    let ctx = KernelCtx { op, func, result_types: vec![&rty], threads: threads() };
    assert!(kernels::run_native(&ctx, &refs).expect("native").is_ok());
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(flops));
    g.sample_size(10);
    g.bench_function("native", |b| b.iter(|| black_box(kernels::run_native(&ctx, black_box(&refs)))));
    g.finish();
}

fn gemm(c: &mut Criterion) {
    for n in [256u64, 512, 1024] {
        let src = format!(
            "func.func @main(%a: tensor<{n}x{n}xf32>, %b: tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32> {{\n  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<{n}x{n}xf32>, tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>\n  return %0 : tensor<{n}x{n}xf32>\n}}"
        );
        bench_op(c, &format!("gemm_f32_{n} (elements = FLOP)"), &src, 2 * n * n * n);
    }
}

fn conv_src(lt: &str, rt: &str, ot: &str, dn: &str, window: &str) -> String {
    format!(
        "func.func @main(%a: tensor<{lt}>, %b: tensor<{rt}>) -> tensor<{ot}> {{\n  %0 = stablehlo.convolution(%a, %b) dim_numbers = {dn}, window = {{{window}}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<{lt}>, tensor<{rt}>) -> tensor<{ot}>\n  return %0 : tensor<{ot}>\n}}"
    )
}

fn conv(c: &mut Criterion) {
    let flops = 2 * 32 * 56 * 56 * 64 * 64 * 9;
    let same = "stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]";
    let nchw = conv_src("32x64x56x56xf32", "64x64x3x3xf32", "32x64x56x56xf32", "[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]", same);
    bench_op(c, "conv3x3_nchw_b32_c64_56 (elements = FLOP)", &nchw, flops);
    let nhwc = conv_src("32x56x56x64xf32", "3x3x64x64xf32", "32x56x56x64xf32", "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", same);
    bench_op(c, "conv3x3_nhwc_b32_c64_56 (elements = FLOP)", &nhwc, flops);
    // JAX's weight gradient of the NHWC conv: x as [f,0,1,b], dy as the kernel [i,0,1,o] -> HWIO.
    let wgrad = conv_src("32x56x56x64xf32", "32x56x56x64xf32", "3x3x64x64xf32", "[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]", same);
    bench_op(c, "conv3x3_nhwc_wgrad_b32_c64_56 (elements = FLOP)", &wgrad, flops);
    // Stride-2 forward (ResNet downsampling) 56 -> 28, c64 -> c128.
    let s2 = "stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]";
    let down = conv_src("32x56x56x64xf32", "3x3x64x128xf32", "32x28x28x128xf32", "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]", s2);
    bench_op(c, "conv3x3s2_nhwc_b32_c64to128_56 (elements = FLOP)", &down, 2 * 32 * 28 * 28 * 128 * 64 * 9);
    // JAX's input gradient of that strided conv: dy lhs-dilated by 2, the kernel as [0, 1, o, i].
    let igrad_w = "stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]";
    let igrad = conv_src("32x28x28x128xf32", "3x3x64x128xf32", "32x56x56x64xf32", "[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]", igrad_w);
    bench_op(c, "conv3x3s2_nhwc_igrad_b32_c128to64_28 (elements = FLOP)", &igrad, 2 * 32 * 28 * 28 * 128 * 64 * 9);
}

criterion_group!(benches, gemm, conv);
criterion_main!(benches);
