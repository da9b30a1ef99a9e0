//! Elementwise, fusion and reduction speed of the CPU backend (`cargo bench -p oxhlo-cpu --bench
//! elementwise`): the fused chain `tanh(x*y+z)*sigmoid(z) - exp(-x*x)` on 16M f32, softmax and layernorm
//! rows of 4096x4096 f32, row / column / full sum reductions of 4096x4096 f32, and a plain 16M f32 copy
//! as the memory-bandwidth baseline (printed as GB/s next to the chain's effective bandwidth).

use criterion::{criterion_group, criterion_main, Criterion};
use oxhlo_cpu::{Buf, CpuOptions, CpuProgram, NTensor, Val};
use oxhlo_ir::{ElementType, TensorType};
use std::time::{Duration, Instant};

const N: usize = 1 << 24;

const CHAIN: &str = r#"
func.func @main(%x: tensor<16777216xf32>, %y: tensor<16777216xf32>, %z: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %0 = stablehlo.multiply %x, %y : tensor<16777216xf32>
  %1 = stablehlo.add %0, %z : tensor<16777216xf32>
  %2 = stablehlo.tanh %1 : tensor<16777216xf32>
  %3 = stablehlo.logistic %z : tensor<16777216xf32>
  %4 = stablehlo.multiply %2, %3 : tensor<16777216xf32>
  %5 = stablehlo.multiply %x, %x : tensor<16777216xf32>
  %6 = stablehlo.negate %5 : tensor<16777216xf32>
  %7 = stablehlo.exponential %6 : tensor<16777216xf32>
  %8 = stablehlo.subtract %4, %7 : tensor<16777216xf32>
  return %8 : tensor<16777216xf32>
}"#;

fn reduce_src(dims: &str, out: &str) -> String {
    format!(
        r#"
func.func @main(%x: tensor<4096x4096xf32>) -> {out} {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [{dims}] : (tensor<4096x4096xf32>, tensor<f32>) -> {out}
  return %0 : {out}
}}"#
    )
}

const SOFTMAX: &str = r#"
func.func @main(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4096x4096xf32>, tensor<f32>) -> tensor<4096xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<4096xf32>) -> tensor<4096x4096xf32>
  %d = stablehlo.subtract %x, %mb : tensor<4096x4096xf32>
  %e = stablehlo.exponential %d : tensor<4096x4096xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4096x4096xf32>, tensor<f32>) -> tensor<4096xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<4096xf32>) -> tensor<4096x4096xf32>
  %r = stablehlo.divide %e, %sb : tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}"#;

const LAYERNORM: &str = r#"
func.func @main(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<2.44140625E-4> : tensor<4096xf32>
  %eps = stablehlo.constant dense<1.0E-5> : tensor<4096xf32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4096x4096xf32>, tensor<f32>) -> tensor<4096xf32>
  %mean = stablehlo.multiply %s, %n : tensor<4096xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<4096xf32>) -> tensor<4096x4096xf32>
  %d = stablehlo.subtract %x, %mb : tensor<4096x4096xf32>
  %sq = stablehlo.multiply %d, %d : tensor<4096x4096xf32>
  %v = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4096x4096xf32>, tensor<f32>) -> tensor<4096xf32>
  %var = stablehlo.multiply %v, %n : tensor<4096xf32>
  %ve = stablehlo.add %var, %eps : tensor<4096xf32>
  %rs = stablehlo.rsqrt %ve : tensor<4096xf32>
  %rb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<4096xf32>) -> tensor<4096x4096xf32>
  %r = stablehlo.multiply %d, %rb : tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}"#;

fn program(src: &str) -> CpuProgram {
    let m = oxhlo_text::parse_module(src, "bench.mlir").expect("parses");
    CpuProgram::compile(m, &CpuOptions::default()).expect("compiles")
}

fn input(shape: &[i64], f: impl Fn(usize) -> f32) -> Val {
    let n: i64 = shape.iter().product();
    let v: Vec<f32> = (0..n as usize).map(f).collect();
    Val::Native(NTensor::new(TensorType::new(shape.to_vec(), ElementType::F32), Buf::F32(v)))
}

/// Mean seconds per call of `f` over about half a second (for the GB/s summary lines).
fn secs(mut f: impl FnMut()) -> f64 {
    f();
    let t = Instant::now();
    let mut k = 0;
    while t.elapsed() < Duration::from_millis(500) {
        f();
        k += 1;
    }
    t.elapsed().as_secs_f64() / k as f64
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("cpu");
    g.sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(500));
    let chain = program(CHAIN);
    let (x, y, z) = (
        input(&[N as i64], |i| ((i % 1000) as f32 - 500.0) * 4e-3),
        input(&[N as i64], |i| 1.0 + (i % 7) as f32 * 0.25),
        input(&[N as i64], |i| ((i % 13) as f32 - 6.0) * 0.5),
    );
    let run_chain = || chain.run(vec![x.clone(), y.clone(), z.clone()]).expect("runs");
    g.bench_function("eltwise_chain_16M", |b| b.iter(run_chain));
    let src: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let copy = || {
        let mut d = vec![0.0f32; N];
        d.copy_from_slice(std::hint::black_box(&src));
        std::hint::black_box(d)
    };
    g.bench_function("copy_16M_f32", |b| b.iter(copy));
    let m2 = input(&[4096, 4096], |i| ((i % 4099) as f32 - 2000.0) * 1e-3);
    for (name, dims, out) in [
        ("reduce_rows_4096x4096", "1", "tensor<4096xf32>"),
        ("reduce_cols_4096x4096", "0", "tensor<4096xf32>"),
        ("reduce_all_4096x4096", "0, 1", "tensor<f32>"),
    ] {
        let p = program(&reduce_src(dims, out));
        g.bench_function(name, |b| b.iter(|| p.run(vec![m2.clone()]).expect("runs")));
    }
    for (name, src) in [("softmax_4096x4096", SOFTMAX), ("layernorm_4096x4096", LAYERNORM)] {
        let p = program(src);
        g.bench_function(name, |b| b.iter(|| p.run(vec![m2.clone()]).expect("runs")));
    }
    g.finish();
    // Bandwidth summary: the copy moves 2 x 64 MiB, the chain 4 x 64 MiB (3 inputs, 1 output).
    let tc = secs(|| drop(copy()));
    let te = secs(|| drop(run_chain()));
    let gb = (N * 4) as f64 / 1e9;
    println!("copy 16M f32: {:.2} ms, {:.1} GB/s", tc * 1e3, 2.0 * gb / tc);
    println!("eltwise chain 16M f32: {:.2} ms, {:.1} GB/s effective ({:.0}% of copy)", te * 1e3, 4.0 * gb / te, 100.0 * (4.0 * gb / te) / (2.0 * gb / tc));
}

criterion_group!(benches, bench);
criterion_main!(benches);
