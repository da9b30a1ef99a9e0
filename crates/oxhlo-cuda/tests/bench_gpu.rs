//! A small GPU timing run (prints a table; asserts only correctness): the copy ceiling (device-to-device
//! copy), a 16M-element fused elementwise chain (GB/s against that ceiling), and the 4096^3 f32 GEMM on
//! cuBLAS with TF32 (DEFAULT precision) and true fp32 (HIGHEST), checked against f64 dot products of
//! sampled elements. The copies, the chain kernel and the sums are timed on the device (CUDA events
//! around 20 calls held back until all are enqueued, best of three: `profile::device_ms_per_call`),
//! the GEMMs by the wall clock around 20 calls and a synchronize; the end-to-end row includes the host<->device copies of `CudaProgram::run`, the resident row is
//! `CudaProgram::run_device` on inputs already on the device (per-run overhead included); sums over rows,
//! columns and all of a tensor (`reduce::try_reduce`, with their launch schedule). Skips without a device.

use oxhlo_cpu::{Buf, NTensor, Val};
use oxhlo_cuda::{device, dot, render};
use oxhlo_ir::{ElementType, FloatType, TensorType};
use std::time::Instant;

fn module(src: &str) -> oxhlo_ir::Module {
    let m = oxhlo_text::parse_module(src, "bench.mlir").expect("parses");
    oxhlo_ir::verify_module(&m).expect("verifies");
    m
}

fn rand_f32(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

fn f32t(shape: &[i64], v: Vec<f32>) -> NTensor {
    NTensor::new(TensorType::new(shape.to_vec(), ElementType::Float(FloatType::F32)), Buf::F32(v))
}

fn time_ms(reps: usize, gpu: &device::Gpu, mut f: impl FnMut()) -> f64 {
    f();
    gpu.synchronize().unwrap();
    let t = Instant::now();
    for _ in 0..reps {
        f();
    }
    gpu.synchronize().unwrap();
    t.elapsed().as_secs_f64() * 1e3 / reps as f64
}

/// Device time of one call of `f` in ms (`profile::device_ms_per_call`: the calls held until all are
/// enqueued, so the host's launching cost is not in it), the best of three rounds of 20 calls.
fn device_ms(gpu: &device::Gpu, mut f: impl FnMut()) -> f64 {
    (0..3).map(|_| oxhlo_cuda::profile::device_ms_per_call(gpu, 20, &mut f).expect("device time")).fold(f64::INFINITY, f64::min)
}

#[test]
fn gpu_timings() {
    let gpu = match device::gpu() {
        Ok(g) => g,
        Err(e) => {
            println!("skipped: no CUDA device ({e})");
            return;
        }
    };
    println!("device: {:?}", gpu.info);
    let mut table = Vec::new();

    // Copy ceiling: 256 MiB device-to-device, bytes read + written.
    let n = 64usize << 20;
    let src = gpu.upload(&f32t(&[n as i64], rand_f32(n, 1))).unwrap();
    let mut dst = gpu.alloc_raw(oxhlo_cpu::Kind::F32, n).unwrap();
    let ms = device_ms(&gpu, || gpu.stream.memcpy_dtod(&**src.buf, &mut *dst).unwrap());
    let ceiling = 2.0 * (n * 4) as f64 / (ms * 1e-3) / 1e9;
    table.push(format!("copy 256MiB d2d            {ms:8.3} ms  {ceiling:8.1} GB/s"));
    // The same copy at the 64 MiB of the [4096, 4096] sums below (launch and ramp costs weigh more).
    let ms_q = {
        let quarter = src.buf.slice(0..(n * 4) / 4);
        let mut dst_q = dst.slice_mut(0..(n * 4) / 4);
        device_ms(&gpu, || gpu.stream.memcpy_dtod(&quarter, &mut dst_q).unwrap())
    };
    let gbs_q = 2.0 * (n as f64) / (ms_q * 1e-3) / 1e9;
    table.push(format!("copy 64MiB d2d             {ms_q:8.3} ms  {gbs_q:8.1} GB/s  ({:.0}% of the 256MiB copy)", 100.0 * gbs_q / ceiling));

    // Fused elementwise chain over 16M f32: max(exp(a + b) * a, b).
    let n = 16usize << 20;
    let m = module(&format!(
        "func.func @main(%a: tensor<{n}xf32>, %b: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %0 = stablehlo.add %a, %b : tensor<{n}xf32>
  %1 = stablehlo.exponential %0 : tensor<{n}xf32>
  %2 = stablehlo.multiply %1, %a : tensor<{n}xf32>
  %3 = stablehlo.maximum %2, %b : tensor<{n}xf32>
  return %3 : tensor<{n}xf32>
}}"
    ));
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    let (a_h, b_h) = (rand_f32(n, 2), rand_f32(n, 3));
    let a = gpu.upload(&f32t(&[n as i64], a_h.clone())).unwrap();
    let b = gpu.upload(&f32t(&[n as i64], b_h.clone())).unwrap();
    let src_k = render::render(f, block, &[0, 1, 2, 3], &[block.args[0], block.args[1]], &[block.ops[3].results[0]], &[n as i64]).unwrap();
    let src_k = oxhlo_cuda::device::Kernel::new(src_k);
    let mut out = [gpu.alloc_raw(oxhlo_cpu::Kind::F32, n).unwrap()];
    let ms = device_ms(&gpu, || gpu.launch(&src_k, n, &[&*a.buf, &*b.buf], &mut out).unwrap());
    let gbs = 3.0 * (n * 4) as f64 / (ms * 1e-3) / 1e9;
    table.push(format!("fused chain 16M f32        {ms:8.3} ms  {gbs:8.1} GB/s  ({:.0}% of copy)", 100.0 * gbs / ceiling));
    let [ob] = out;
    let got = gpu.download(&device::Gpu::wrap(TensorType::new(vec![n as i64], ElementType::Float(FloatType::F32)), oxhlo_cpu::Kind::F32, n, ob)).unwrap();
    let got = got.f32s().unwrap();
    for i in (0..n).step_by(9973) {
        let (x, y) = (a_h[i] as f64, b_h[i] as f64);
        let want = ((((x + y) as f32 as f64).exp() as f32 as f64 * x) as f32 as f64).max(y);
        assert!((got[i] as f64 - want).abs() <= 1e-6 * want.abs().max(1.0), "elementwise {i}: {} vs {want}", got[i]);
    }

    // End to end through CudaProgram::run (host copies included).
    let prog = oxhlo_cuda::CudaProgram::compile(m.clone(), &oxhlo_cuda::CudaOptions::default(), std::sync::Arc::new(oxhlo_interp::custom_call::CustomCallRegistry::with_builtins())).unwrap();
    let args = || vec![Val::Native(f32t(&[n as i64], a_h.clone())), Val::Native(f32t(&[n as i64], b_h.clone()))];
    prog.run(args()).unwrap();
    let t = Instant::now();
    prog.run(args()).unwrap();
    table.push(format!("chain end-to-end (h2d+d2h) {:8.3} ms", t.elapsed().as_secs_f64() * 1e3));
    // The same program on device-resident inputs (run_device: no copies; returns after the GPU finishes).
    let dargs = vec![oxhlo_cuda::DVal::Device(a.clone()), oxhlo_cuda::DVal::Device(b.clone())];
    prog.run_device(dargs.clone()).unwrap();
    let reps = 50;
    let t = Instant::now();
    for _ in 0..reps {
        prog.run_device(dargs.clone()).unwrap();
    }
    let ms = t.elapsed().as_secs_f64() * 1e3 / reps as f64;
    table.push(format!("chain run_device resident  {ms:8.3} ms  {:8.1} GB/s", 3.0 * (n * 4) as f64 / (ms * 1e-3) / 1e9));

    // Reductions (sums, f32 in, f64 accumulation): the kernels' device time and bandwidth against the copy
    // ceiling; the launch schedule (`reduce::launches`) printed beside; columns checked against f64 sums.
    // The [4096, 4096] sums are the anchor benchmarks' (64 MiB); the 256 MiB ones show the passes'
    // own bandwidth with launch and ramp costs a quarter as heavy.
    for (shape, dims) in [
        (&[4096i64, 4096][..], "1"),
        (&[4096, 4096][..], "0"),
        (&[262144, 64][..], "0"),
        (&[65536, 128][..], "0"),
        (&[4096, 4096][..], "0, 1"),
        (&[16384, 4096][..], "1"),
        (&[16384, 4096][..], "0"),
        (&[1048576, 64][..], "0"),
        (&[16384, 4096][..], "0, 1"),
    ] {
        let st = shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x");
        let dv: Vec<usize> = dims.split(", ").map(|d| d.parse().unwrap()).collect();
        let kept: Vec<i64> = (0..shape.len()).filter(|d| !dv.contains(d)).map(|d| shape[d]).collect();
        let rt = if kept.is_empty() { "tensor<f32>".to_string() } else { format!("tensor<{}xf32>", kept.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x")) };
        let m = module(&format!(
            "func.func @main(%x: tensor<{st}xf32>) -> {rt} {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [{dims}] : (tensor<{st}xf32>, tensor<f32>) -> {rt}
  return %s : {rt}
}}"
        ));
        let f = &m.funcs[0];
        let op = &f.body.entry().unwrap().ops[1];
        let n: usize = shape.iter().product::<i64>() as usize;
        let xh = rand_f32(n, 7);
        let x = gpu.upload(&f32t(shape, xh.clone())).unwrap();
        let init = gpu.upload(&f32t(&[], vec![0.0])).unwrap();
        let rty = TensorType::new(kept.clone(), ElementType::Float(FloatType::F32));
        let memo = oxhlo_cuda::device::Memo::default();
        let mut last = None;
        let ms = device_ms(&gpu, || last = Some(oxhlo_cuda::reduce::try_reduce(&gpu, &memo, f, op, &x, &init, &rty).expect("on the device").unwrap()));
        let gbs = (n * 4) as f64 / (ms * 1e-3) / 1e9;
        let (inner, red) = if dims == "0" { (shape[1], shape[0]) } else if dims == "1" { (1, shape[1]) } else { (1, n as i64) };
        let outer = if dims == "1" { shape[0] } else { 1 };
        let sched: Vec<String> = match oxhlo_cuda::reduce::folded_launch(outer, red, inner) {
            _ if gpu.clusters() && oxhlo_cuda::reduce::cluster_cols(outer, red, inner) => vec![format!("clusters of {}", oxhlo_cuda::reduce::cluster_parts())],
            Some(l) => vec![format!("{:?}x{} folding", l.pass.shape, l.parts)],
            None => oxhlo_cuda::reduce::launches(outer, red, inner).iter().map(|l| format!("{:?}x{}", l.pass.shape, l.parts)).collect(),
        };
        table.push(format!("sum {st} over [{dims}]{:>w$} {ms:8.3} ms  {gbs:8.1} GB/s  ({:.0}% of copy)  {}", "", 100.0 * gbs / ceiling, sched.join(" + "), w = 14usize.saturating_sub(st.len() + dims.len())));
        let got = gpu.download(&last.unwrap()).unwrap();
        let got = got.f32s().unwrap();
        let (m_out, inner_u) = (got.len(), inner as usize);
        for k in (0..m_out).step_by((m_out / 7).max(1)) {
            let want: f64 = if dims == "1" { xh[k * shape[1] as usize..(k + 1) * shape[1] as usize].iter().map(|&v| v as f64).sum() } else if inner_u > 1 { (0..red as usize).map(|r| xh[r * inner_u + k] as f64).sum() } else { xh.iter().map(|&v| v as f64).sum() };
            assert!((got[k] as f64 - want).abs() <= 1e-4 * (1.0 + want.abs()), "sum {st} over [{dims}] element {k}: {} vs {want}", got[k]);
        }
    }

    // GEMM 4096^3 f32.
    let s = 4096usize;
    for (name, prec, tf32) in [("DEFAULT (tf32)", "DEFAULT", true), ("HIGHEST (fp32)", "HIGHEST", true)] {
        let m = module(&format!(
            "func.func @main(%a: tensor<{s}x{s}xf32>, %b: tensor<{s}x{s}xf32>) -> tensor<{s}x{s}xf32> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [{prec}, {prec}] : (tensor<{s}x{s}xf32>, tensor<{s}x{s}xf32>) -> tensor<{s}x{s}xf32>
  return %0 : tensor<{s}x{s}xf32>
}}"
        ));
        let op = &m.funcs[0].body.entry().unwrap().ops[0];
        let (ah, bh) = (rand_f32(s * s, 4), rand_f32(s * s, 5));
        let a = gpu.upload(&f32t(&[s as i64, s as i64], ah.clone())).unwrap();
        let b = gpu.upload(&f32t(&[s as i64, s as i64], bh.clone())).unwrap();
        let rty = TensorType::new(vec![s as i64, s as i64], ElementType::Float(FloatType::F32));
        let mut last = None;
        let ms = time_ms(20, &gpu, || last = Some(dot::try_dot(&gpu, &oxhlo_cuda::device::Memo::default(), op, &a, &b, &rty, tf32).unwrap().unwrap()));
        let tflops = 2.0 * (s * s * s) as f64 / (ms * 1e-3) / 1e12;
        let c = gpu.download(&last.unwrap()).unwrap();
        let c = c.f32s().unwrap();
        let (mut num, mut den) = (0.0f64, 0.0f64);
        for t in 0..64 {
            let (i, j) = ((t * 977) % s, (t * 3571) % s);
            let want: f64 = (0..s).map(|k| ah[i * s + k] as f64 * bh[k * s + j] as f64).sum();
            num += (c[i * s + j] as f64 - want).powi(2);
            den += want * want;
        }
        let rel = (num / den).sqrt();
        table.push(format!("gemm 4096^3 f32 {name}  {ms:8.3} ms  {tflops:8.1} TFLOP/s  rel.err {rel:.1e}"));
        assert!(rel < if prec == "DEFAULT" { 5e-3 } else { 1e-5 }, "{name}: relative error {rel}");
    }
    println!("\n== oxhlo-cuda timings ==");
    for l in &table {
        println!("{l}");
    }
}
