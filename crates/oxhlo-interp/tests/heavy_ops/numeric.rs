//! Numeric families: dot/einsum, convolution, reductions, fft, linalg, rng.

use crate::harness::*;
use oxhlo_interp::ops::{conv, dot, fft, linalg, reduce, rng};
use oxhlo_ir::attr::{ConvDims, DotDims, FftType, RngAlgorithm, Transpose};
use oxhlo_ir::{Attr, ElementType, FloatType, OpKind};

const F32: ElementType = ElementType::F32;
const F64: ElementType = ElementType::F64;

#[test]
fn dot_general_spec_example() {
    // lhs [[[1,2],[3,4]],[[5,6],[7,8]]], rhs [[[1,0],[0,1]],[[1,0],[0,1]]], batch 0/0, contract 2/1.
    let dd = DotDims {
        lhs_batching_dimensions: vec![0],
        rhs_batching_dimensions: vec![0],
        lhs_contracting_dimensions: vec![2],
        rhs_contracting_dimensions: vec![1],
    };
    let r = run_op(
        dot::eval_dot_general,
        OpKind::DotGeneral,
        vec![("dot_dimension_numbers", Attr::DotDims(dd))],
        vec![i64s(&[2, 2, 2], &[1, 2, 3, 4, 5, 6, 7, 8]), i64s(&[2, 2, 2], &[1, 0, 0, 1, 1, 0, 0, 1])],
        vec![tt(&[2, 2, 2], ElementType::I64)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![1, 2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn dot_integer_wraps_and_einsum_matches() {
    let lhs = i32s(&[1, 2], &[0x4000_0000, 3]);
    let rhs = i32s(&[2, 1], &[4, 5]);
    let r = run_op(dot::eval_dot, OpKind::Dot, vec![], vec![lhs, rhs], vec![tt(&[1, 1], ElementType::I32)], vec![]).unwrap();
    assert_eq!(ints(&r[0]), vec![15]);
    let r = run_op(
        dot::eval_einsum,
        OpKind::Einsum,
        vec![("einsum_config", Attr::Str("ij,jk->ki".into()))],
        vec![f32s(&[2, 3], &[1., 2., 3., 4., 5., 6.]), f32s(&[3, 1], &[1., 1., 1.])],
        vec![tt(&[1, 2], F32)],
        vec![],
    )
    .unwrap();
    assert_eq!(floats(&r[0]), vec![6., 15.]);
    let r = run_op(
        dot::eval_unary_einsum,
        OpKind::UnaryEinsum,
        vec![("einsum_config", Attr::Str(",ij->j".into()))],
        vec![f32s(&[2, 3], &[1., 2., 3., 4., 5., 6.])],
        vec![tt(&[3], F32)],
        vec![],
    )
    .unwrap();
    assert_eq!(floats(&r[0]), vec![5., 7., 9.]);
}

#[test]
fn dot_256_is_fast_and_right() {
    let n = 256usize;
    let a: Vec<f64> = (0..n * n).map(|i| ((i * 7 % 13) as f64) - 6.0).collect();
    let b: Vec<f64> = (0..n * n).map(|i| ((i * 5 % 11) as f64) - 5.0).collect();
    let dd = DotDims { lhs_contracting_dimensions: vec![1], rhs_contracting_dimensions: vec![0], ..Default::default() };
    let t = std::time::Instant::now();
    let r = run_op(
        dot::eval_dot_general,
        OpKind::DotGeneral,
        vec![("dot_dimension_numbers", Attr::DotDims(dd))],
        vec![f32s(&[256, 256], &a), f32s(&[256, 256], &b)],
        vec![tt(&[256, 256], F32)],
        vec![],
    )
    .unwrap();
    let el = t.elapsed();
    let out = floats(&r[0]);
    for &(i, j) in &[(0usize, 0usize), (17, 200), (255, 255)] {
        let want: f64 = (0..n).map(|k| a[i * n + k] * b[k * n + j]).sum();
        assert_eq!(out[i * n + j], want);
    }
    println!("256x256 f32 dot_general: {el:?}");
    assert!(el.as_secs_f64() < 5.0, "256x256 dot took {el:?}");
}

fn conv_dims_nhwc() -> Attr {
    Attr::ConvDims(ConvDims {
        input_batch_dimension: 0,
        input_feature_dimension: 3,
        input_spatial_dimensions: vec![1, 2],
        kernel_input_feature_dimension: 2,
        kernel_output_feature_dimension: 3,
        kernel_spatial_dimensions: vec![0, 1],
        output_batch_dimension: 0,
        output_feature_dimension: 3,
        output_spatial_dimensions: vec![1, 2],
    })
}

#[test]
fn convolution_spec_example() {
    // lhs 1x4x4x1 [[1,2,5,6],[3,4,7,8],[10,11,14,15],[12,13,16,17]], rhs 3x3x1x1 of ones, strides [4,4],
    // padding 0, lhs_dilation [2,2], rhs_dilation [1,1] -> [[[[10],[26]],[[46],[62]]]]
    let lhs: Vec<f64> = [1., 2., 5., 6., 3., 4., 7., 8., 10., 11., 14., 15., 12., 13., 16., 17.].to_vec();
    let r = run_op(
        conv::eval_convolution,
        OpKind::Convolution,
        vec![
            ("dimension_numbers", conv_dims_nhwc()),
            ("window_strides", arr(&[4, 4])),
            ("lhs_dilation", arr(&[2, 2])),
            ("rhs_dilation", arr(&[1, 1])),
            ("feature_group_count", int(1)),
            ("batch_group_count", int(1)),
        ],
        vec![i64s(&[1, 4, 4, 1], &lhs.iter().map(|&x| x as i64).collect::<Vec<_>>()), i64s(&[3, 3, 1, 1], &[1; 9])],
        vec![tt(&[1, 2, 2, 1], ElementType::I64)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![10, 26, 46, 62]);
}

#[test]
fn reduce_and_reduce_window() {
    let x = i64s(&[2, 3], &[1, 2, 3, 4, 5, 6]);
    let r = run_op(
        reduce::eval_reduce,
        OpKind::Reduce,
        vec![("dimensions", arr(&[1]))],
        vec![x.clone(), i64s(&[], &[0])],
        vec![tt(&[2], ElementType::I64)],
        vec![add_body()],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![6, 15]);
    // Spec example: input [[1,2],[3,4],[5,6]], window [2,1], strides [4,1], base dilations [2,1],
    // window dilations [3,1], padding [[2,1],[0,0]] -> [[0,0],[3,4]].
    let r = run_op(
        reduce::eval_reduce_window,
        OpKind::ReduceWindow,
        vec![
            ("window_dimensions", arr(&[2, 1])),
            ("window_strides", arr(&[4, 1])),
            ("base_dilations", arr(&[2, 1])),
            ("window_dilations", arr(&[3, 1])),
            ("padding", arr(&[2, 1, 0, 0])),
        ],
        vec![i64s(&[3, 2], &[1, 2, 3, 4, 5, 6]), i64s(&[], &[0])],
        vec![tt(&[2, 2], ElementType::I64)],
        vec![add_body()],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![0, 0, 3, 4]);
}

#[test]
fn select_and_scatter_spec_example() {
    // operand [[1,5],[2,5],[3,6],[4,4]], source [[5,6],[7,8]], window [3,1], strides [2,1],
    // padding [[0,1],[0,0]], select GE, scatter add -> [[0,0],[0,0],[5,14],[7,0]].
    let ge: Body = Box::new(|a| {
        let (x, y) = (ints(&a[0])[0], ints(&a[1])[0]);
        Ok(vec![oxhlo_interp::RtValue::Tensor(oxhlo_interp::Tensor {
            ty: oxhlo_ir::TensorType::new(vec![], ElementType::Bool),
            data: oxhlo_interp::Data::Bool(vec![x >= y]),
        })])
    });
    let r = run_op(
        reduce::eval_select_and_scatter,
        OpKind::SelectAndScatter,
        vec![("window_dimensions", arr(&[3, 1])), ("window_strides", arr(&[2, 1])), ("padding", arr(&[0, 1, 0, 0]))],
        vec![i64s(&[4, 2], &[1, 5, 2, 5, 3, 6, 4, 4]), i64s(&[2, 2], &[5, 6, 7, 8]), i64s(&[], &[0])],
        vec![tt(&[4, 2], ElementType::I64)],
        vec![ge, add_body()],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![0, 0, 0, 0, 5, 14, 7, 0]);
}

#[test]
fn batch_norm_inference_matches_formula() {
    let r = run_op(
        reduce::eval_batch_norm_inference,
        OpKind::BatchNormInference,
        vec![("epsilon", Attr::Float(0.0, F32)), ("feature_index", int(1))],
        vec![
            f64s(&[2, 2], &[1., 2., 3., 4.]),
            f64s(&[2], &[1., 2.]),
            f64s(&[2], &[0., 1.]),
            f64s(&[2], &[2., 3.]),
            f64s(&[2], &[1., 4.]),
        ],
        vec![tt(&[2, 2], F64)],
        vec![],
    )
    .unwrap();
    assert_eq!(floats(&r[0]), vec![-1., 0., 1., 2.]);
}

fn naive_dft(x: &[(f64, f64)], inverse: bool) -> Vec<(f64, f64)> {
    let n = x.len();
    let s = if inverse { 1.0 } else { -1.0 };
    (0..n)
        .map(|k| {
            let mut acc = (0.0, 0.0);
            for (j, &(a, b)) in x.iter().enumerate() {
                let ang = s * 2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
                acc.0 += a * ang.cos() - b * ang.sin();
                acc.1 += a * ang.sin() + b * ang.cos();
            }
            if inverse {
                (acc.0 / n as f64, acc.1 / n as f64)
            } else {
                acc
            }
        })
        .collect()
}

#[test]
fn fft_matches_naive_dft_for_many_lengths() {
    let c128 = ElementType::Complex(FloatType::F64);
    for &n in &[1usize, 2, 3, 5, 8, 12, 16, 63, 64, 67, 100, 128, 257] {
        let x: Vec<(f64, f64)> = (0..n).map(|i| (((i * 37) % 17) as f64 - 8.0, ((i * 11) % 7) as f64 - 3.0)).collect();
        for (kind, inv) in [(FftType::Fft, false), (FftType::Ifft, true)] {
            let r = run_op(
                fft::eval_fft,
                OpKind::Fft,
                vec![("fft_type", Attr::FftType(kind)), ("fft_length", arr(&[n as i64]))],
                vec![c64s(&[n as i64], &x)],
                vec![tt(&[n as i64], c128.clone())],
                vec![],
            )
            .unwrap();
            let got = complexes(&r[0]);
            let want = naive_dft(&x, inv);
            let g: Vec<f64> = got.iter().flat_map(|c| [c.0, c.1]).collect();
            let w: Vec<f64> = want.iter().flat_map(|c| [c.0, c.1]).collect();
            assert_close(&g, &w, 1e-9 * n as f64);
        }
    }
}

#[test]
fn rfft_irfft_roundtrip() {
    let x: Vec<f64> = vec![1.0, 2.0, -1.0, 0.5, 3.0, -2.0];
    let c128 = ElementType::Complex(FloatType::F64);
    let r = run_op(
        fft::eval_fft,
        OpKind::Fft,
        vec![("fft_type", Attr::FftType(FftType::Rfft)), ("fft_length", arr(&[6]))],
        vec![f64s(&[6], &x)],
        vec![tt(&[4], c128)],
        vec![],
    )
    .unwrap();
    let spec = complexes(&r[0]);
    let full = naive_dft(&x.iter().map(|&v| (v, 0.0)).collect::<Vec<_>>(), false);
    let g: Vec<f64> = spec.iter().flat_map(|c| [c.0, c.1]).collect();
    let w: Vec<f64> = full[..4].iter().flat_map(|c| [c.0, c.1]).collect();
    assert_close(&g, &w, 1e-12);
    let back = run_op(
        fft::eval_fft,
        OpKind::Fft,
        vec![("fft_type", Attr::FftType(FftType::Irfft)), ("fft_length", arr(&[6]))],
        vec![r[0].clone()],
        vec![tt(&[6], F64)],
        vec![],
    )
    .unwrap();
    assert_close(&floats(&back[0]), &x, 1e-12);
}

#[test]
fn cholesky_and_triangular_solve() {
    let a = f64s(&[3, 3], &[4., 12., -16., 12., 37., -43., -16., -43., 98.]);
    let r = run_op(linalg::eval_cholesky, OpKind::Cholesky, vec![("lower", Attr::Bool(true))], vec![a.clone()], vec![tt(&[3, 3], F64)], vec![]).unwrap();
    assert_eq!(floats(&r[0]), vec![2., 0., 0., 6., 1., 0., -8., 5., 3.]);
    let u = run_op(linalg::eval_cholesky, OpKind::Cholesky, vec![("lower", Attr::Bool(false))], vec![a], vec![tt(&[3, 3], F64)], vec![]).unwrap();
    assert_eq!(floats(&u[0]), vec![2., 6., -8., 0., 1., 5., 0., 0., 3.]);
    // Solve L x = b and x L^T = b with L from above; check by multiplying back.
    let l = [2., 0., 0., 6., 1., 0., -8., 5., 3.];
    let b = [1., 2., 3., 4., 5., 6.];
    for (left, trans) in [(true, Transpose::NoTranspose), (true, Transpose::Transpose), (false, Transpose::NoTranspose), (false, Transpose::Adjoint)] {
        let (bs, rows, cols) = if left { ([3i64, 2], 3, 2) } else { ([2i64, 3], 2, 3) };
        let r = run_op(
            linalg::eval_triangular_solve,
            OpKind::TriangularSolve,
            vec![
                ("left_side", Attr::Bool(left)),
                ("lower", Attr::Bool(true)),
                ("unit_diagonal", Attr::Bool(false)),
                ("transpose_a", Attr::Transpose(trans)),
            ],
            vec![f64s(&[3, 3], &l), f64s(&bs, &b)],
            vec![tt(&bs, F64)],
            vec![],
        )
        .unwrap();
        let x = floats(&r[0]);
        let op = |i: usize, j: usize| if trans == Transpose::NoTranspose { l[i * 3 + j] } else { l[j * 3 + i] };
        let mut got = vec![0.0; 6];
        for i in 0..rows {
            for j in 0..cols {
                got[i * cols + j] = if left {
                    (0..3).map(|k| op(i, k) * x[k * cols + j]).sum()
                } else {
                    (0..3).map(|k| x[i * cols + k] * op(k, j)).sum()
                };
            }
        }
        assert_close(&got, &b, 1e-12);
    }
}

fn rbg(algo: RngAlgorithm, state: &[u64], shape: &[i64], elem: ElementType) -> (Vec<i64>, Vec<i64>) {
    let r = run_op(
        rng::eval_rng_bit_generator,
        OpKind::RngBitGenerator,
        vec![("rng_algorithm", Attr::RngAlgorithm(algo))],
        vec![u64s(&[state.len() as i64], state)],
        vec![tt(&[state.len() as i64], ElementType::uint(64)), tt(shape, elem)],
        vec![],
    )
    .unwrap();
    (ints(&r[0]), ints(&r[1]))
}

#[test]
fn rng_bit_generator_matches_xla() {
    // Values from jax.lax.rng_bit_generator on XLA:CPU (jax 0.10.2).
    let (s, v) = rbg(RngAlgorithm::ThreeFry, &[1, 2], &[5], ElementType::uint(32));
    assert_eq!(v, vec![43444564, 2150618427, 3979645651, 3745730563, 1672743891]);
    assert_eq!(s, vec![1, 5]);
    let (s, v) = rbg(RngAlgorithm::ThreeFry, &[1, 2], &[5], ElementType::uint(64));
    let want: Vec<i64> =
        [9236835810183407956u64, 16087790271692313299, 18212823393184779219, 2658481902456610144, 16424712389986402477]
            .iter()
            .map(|&x| x as i64)
            .collect();
    assert_eq!(v, want);
    assert_eq!(s, vec![1, 7]);
    let (_, v) = rbg(RngAlgorithm::ThreeFry, &[1, 2], &[5], ElementType::uint(8));
    assert_eq!(v, vec![84, 59, 211, 3, 211]);
    let k = [0x1234_5678_9abc_def0u64, 0xffff_ffff_ffff_fff0];
    let (s, v) = rbg(RngAlgorithm::Philox, &k, &[5], ElementType::uint(32));
    assert_eq!(v, vec![2513227076, 1889136581, 2355953150, 1247060664, 772870936]);
    assert_eq!(s, vec![k[0] as i64, 18446744073709551602u64 as i64]);
    let (_, d) = rbg(RngAlgorithm::Default, &k, &[5], ElementType::uint(32));
    assert_eq!(d, v);
}
