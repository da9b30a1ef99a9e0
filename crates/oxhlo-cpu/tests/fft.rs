//! The native fft (`kernels::fft`, on rustfft) against the interpreter (the oracle, f64 for every
//! type): FFT, IFFT, RFFT and IRFFT over 1, 2 and 3 dims, complex64/f32 and complex128/f64, lengths
//! that are powers of two, products of small primes and primes, lines split over worker threads. The
//! kernel itself must take every case (no fallback), and the whole program on 1 and 3 threads must
//! agree with the interpreter within the transform's rounding: |got - want| <= tol * max|want|.

mod common;
use common::*;
use oxhlo_cpu::kernels::{fft, KernelCtx};
use oxhlo_cpu::{Buf, NTensor};
use oxhlo_interp::tensor::{Data, Tensor};

struct Case {
    fft_type: &'static str,
    in_ty: &'static str,
    in_shape: &'static [i64],
    lens: &'static [i64],
    out_ty: &'static str,
    out_shape: &'static [i64],
}

const CASES: &[Case] = &[
    Case { fft_type: "FFT", in_ty: "complex<f32>", in_shape: &[8, 1000], lens: &[1000], out_ty: "complex<f32>", out_shape: &[8, 1000] },
    Case { fft_type: "FFT", in_ty: "complex<f32>", in_shape: &[64, 1024], lens: &[1024], out_ty: "complex<f32>", out_shape: &[64, 1024] },
    Case { fft_type: "IFFT", in_ty: "complex<f32>", in_shape: &[4, 48, 36], lens: &[48, 36], out_ty: "complex<f32>", out_shape: &[4, 48, 36] },
    Case { fft_type: "FFT", in_ty: "complex<f32>", in_shape: &[256, 131], lens: &[256, 131], out_ty: "complex<f32>", out_shape: &[256, 131] },
    Case { fft_type: "RFFT", in_ty: "f32", in_shape: &[16, 24, 130], lens: &[24, 130], out_ty: "complex<f32>", out_shape: &[16, 24, 66] },
    Case { fft_type: "IRFFT", in_ty: "complex<f32>", in_shape: &[16, 24, 66], lens: &[24, 130], out_ty: "f32", out_shape: &[16, 24, 130] },
    Case { fft_type: "IRFFT", in_ty: "complex<f32>", in_shape: &[32, 9], lens: &[17], out_ty: "f32", out_shape: &[32, 17] },
    Case { fft_type: "FFT", in_ty: "complex<f64>", in_shape: &[6, 10, 12, 17], lens: &[10, 12, 17], out_ty: "complex<f64>", out_shape: &[6, 10, 12, 17] },
    Case { fft_type: "RFFT", in_ty: "f64", in_shape: &[128, 512], lens: &[512], out_ty: "complex<f64>", out_shape: &[128, 257] },
    Case { fft_type: "IFFT", in_ty: "complex<f64>", in_shape: &[3, 7], lens: &[7], out_ty: "complex<f64>", out_shape: &[3, 7] },
];

fn dims(shape: &[i64]) -> String {
    shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x")
}

fn src(c: &Case) -> String {
    let (it, ot) = (format!("tensor<{}x{}>", dims(c.in_shape), c.in_ty), format!("tensor<{}x{}>", dims(c.out_shape), c.out_ty));
    let lens = c.lens.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
    format!(
        "func.func @main(%a: {it}) -> {ot} {{\n  %0 = stablehlo.fft %a, type = {}, length = [{lens}] : ({it}) -> {ot}\n  return %0 : {ot}\n}}",
        c.fft_type
    )
}

fn input(c: &Case, seed: u64) -> NTensor {
    let n = c.in_shape.iter().product::<i64>() as usize;
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut x = || rng.unit() * 2.0 - 1.0;
    let buf = match c.in_ty {
        "f32" => Buf::F32((0..n).map(|_| x() as f32).collect()),
        "f64" => Buf::F64((0..n).map(|_| x()).collect()),
        "complex<f32>" => Buf::C64((0..n).map(|_| [x() as f32, x() as f32]).collect()),
        _ => Buf::C128((0..n).map(|_| [x(), x()]).collect()),
    };
    tensor(c.in_ty, c.in_shape, buf)
}

/// Real and imaginary parts of a result, in order.
fn parts(t: &Tensor) -> Vec<f64> {
    match &t.data {
        Data::Float(v) => v.clone(),
        Data::Complex(v) => v.iter().flat_map(|&(a, b)| [a, b]).collect(),
        other => panic!("unexpected result data {other:?}"),
    }
}

fn close(got: &Tensor, want: &Tensor, tol: f64, what: &str) {
    assert_eq!(got.ty.shape, want.ty.shape, "{what}: shape");
    let (g, w) = (parts(got), parts(want));
    let scale = w.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        assert!((a - b).abs() <= tol * scale, "{what}: part {i}: got {a:e}, want {b:e} (scale {scale:e})");
    }
}

#[test]
fn native_fft_matches_the_interpreter() {
    for (k, c) in CASES.iter().enumerate() {
        let src = src(c);
        let x = input(c, 40 + k as u64);
        let want = run_interp(&src, std::slice::from_ref(&x)).unwrap_or_else(|e| panic!("{src}\ninterpreter: {e}"));
        let tol = if c.in_ty.contains("64") { 1e-12 } else { 2e-6 };
        // The kernel itself takes the case.
        let m = oxhlo_text::parse_module(&src, "fft.mlir").expect("parses");
        oxhlo_ir::verify_module(&m).expect("verifies");
        let f = &m.funcs[0];
        let op = &f.body.entry().expect("a body").ops[0];
        let rty = f.try_ty(op.results[0]).and_then(|t| t.as_tensor()).expect("a tensor result").clone();
        for threads in [1, 3] {
            let ctx = KernelCtx { op, func: f, result_types: vec![&rty], threads };
            let out = fft::try_run(&ctx, &[&x]).unwrap_or_else(|| panic!("{src}\nthe native fft declined")).expect("runs");
            close(&out[0].to_interp(), &want[0], tol, &format!("{src}\nkernel on {threads} threads"));
            let got = run_cpu(&src, std::slice::from_ref(&x), true, threads).unwrap_or_else(|e| panic!("{src}\nCPU: {e}"));
            close(&got[0], &want[0], tol, &format!("{src}\nprogram on {threads} threads"));
        }
    }
}
