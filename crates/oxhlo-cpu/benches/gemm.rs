//! Benchmarks of the native dot_general and convolution kernels (`cargo bench -p oxhlo-cpu --bench
//! gemm`): f32 GEMM 256/512/1024 (throughput in FLOP/s), the dot_general shapes of the training
//! anchors (GPT 6l384d b16 s256: projections, their weight and input gradients, batched attention and
//! its gradients; the MLP b64 d1024 h4096 and attention b4 h8 s1024 d64 products), the conv3x3 NCHW
//! b32 c64 56x56 shape, and the NHWC/HWIO ResNet-style 3x3 conv with the weight- and input-gradient
//! forms JAX emits for it. `cargo bench -p oxhlo-cpu --bench gemm -- dot_` runs only the dot shapes.

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

fn dot_src(lt: &str, rt: &str, ot: &str, dims: &str) -> String {
    format!(
        "func.func @main(%a: tensor<{lt}xf32>, %b: tensor<{rt}xf32>) -> tensor<{ot}xf32> {{\n  %0 = stablehlo.dot_general %a, %b, {dims} : (tensor<{lt}xf32>, tensor<{rt}xf32>) -> tensor<{ot}xf32>\n  return %0 : tensor<{ot}xf32>\n}}"
    )
}

/// The dot_general forms of the training anchors (f32): (name, lhs, rhs, result, dims, m*n*k*batch).
const DOTS: &[(&str, &str, &str, &str, &str, u64)] = &[
    // GPT: x[16,256,384] @ W[384,1536] and the other projection widths.
    ("dot_gpt_fwd_4096x384x1536", "16x256x384", "384x1536", "16x256x1536", "contracting_dims = [2] x [0]", 4096 * 384 * 1536),
    ("dot_gpt_fwd_4096x1536x384", "16x256x1536", "1536x384", "16x256x384", "contracting_dims = [2] x [0]", 4096 * 384 * 1536),
    ("dot_gpt_fwd_4096x384x1152", "16x256x384", "384x1152", "16x256x1152", "contracting_dims = [2] x [0]", 4096 * 384 * 1152),
    ("dot_gpt_fwd_4096x384x384", "16x256x384", "384x384", "16x256x384", "contracting_dims = [2] x [0]", 4096 * 384 * 384),
    // Weight gradient: contracting over (batch, seq), the lhs read transposed.
    ("dot_gpt_wgrad_1536x4096x384", "16x256x1536", "16x256x384", "1536x384", "contracting_dims = [0, 1] x [0, 1]", 4096 * 384 * 1536),
    ("dot_gpt_wgrad_384x4096x1536", "16x256x384", "16x256x1536", "384x1536", "contracting_dims = [0, 1] x [0, 1]", 4096 * 384 * 1536),
    // Input gradient: dy[16,256,1536] x W[384,1536]^T.
    ("dot_gpt_igrad_4096x1536x384", "16x256x1536", "384x1536", "16x256x384", "contracting_dims = [2] x [1]", 4096 * 384 * 1536),
    ("dot_gpt_igrad_4096x384x1536", "16x256x384", "1536x384", "16x256x1536", "contracting_dims = [2] x [1]", 4096 * 384 * 1536),
    // Attention: q k^T, p v and the gradients (batch 16x6, s 256, d 64).
    ("dot_gpt_attn_qk_96x256x64x256", "16x6x256x64", "16x6x64x256", "16x6x256x256", "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]", 96 * 256 * 256 * 64),
    ("dot_gpt_attn_pv_96x256x256x64", "16x6x256x256", "16x6x256x64", "16x6x256x64", "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]", 96 * 256 * 256 * 64),
    ("dot_gpt_attn_dp_96x256x64x256", "16x6x256x64", "16x6x256x64", "16x6x256x256", "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3]", 96 * 256 * 256 * 64),
    ("dot_gpt_attn_dq_96x256x256x64", "16x6x256x256", "16x6x64x256", "16x6x256x64", "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3]", 96 * 256 * 256 * 64),
    ("dot_gpt_attn_dv_96x256x256x64", "16x6x256x256", "16x6x256x64", "16x6x256x64", "batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2]", 96 * 256 * 256 * 64),
    ("dot_gpt_attn_dk_96x64x256x256", "16x6x256x64", "16x6x256x256", "16x6x64x256", "batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2]", 96 * 256 * 256 * 64),
    // MLP b64 d1024 h4096.
    ("dot_mlp_64x1024x4096", "64x1024", "1024x4096", "64x4096", "contracting_dims = [1] x [0]", 64 * 1024 * 4096),
    ("dot_mlp_64x4096x1024", "64x4096", "4096x1024", "64x1024", "contracting_dims = [1] x [0]", 64 * 1024 * 4096),
    // Attention b4 h8 s1024 d64: scores and p v.
    ("dot_attn_qk_32x1024x64x1024", "4x8x1024x64", "4x8x1024x64", "4x8x1024x1024", "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3]", 32 * 1024 * 1024 * 64),
    ("dot_attn_pv_32x1024x1024x64", "4x8x1024x1024", "4x8x1024x64", "4x8x1024x64", "batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]", 32 * 1024 * 1024 * 64),
];

fn dots(c: &mut Criterion) {
    for &(name, l, r, o, dims, mnk) in DOTS {
        bench_op(c, &format!("{name} (elements = FLOP)"), &dot_src(l, r, o, dims), 2 * mnk);
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

criterion_group!(benches, gemm, dots, conv);
criterion_main!(benches);
