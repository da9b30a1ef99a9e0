//! Bad programs get errors, never panics: every heavy op is called with missing, mistyped and
//! ill-shaped operands and attributes; rng's implementation-defined values stay in range.

use crate::harness::*;
use oxhlo_interp::ops::{collective_ops as co, conv, dot, fft, gather_scatter as gs, linalg, reduce, rng, shape, sort, tuple};
use oxhlo_interp::RtValue;
use oxhlo_ir::attr::{ConvDims, FftType, GatherDims, RngDistribution, ScatterDims};
use oxhlo_ir::{Attr, ElementType, OpKind};

const ALL: &[(EvalFn, OpKind)] = &[
    (shape::eval_broadcast_in_dim, OpKind::BroadcastInDim),
    (shape::eval_broadcast, OpKind::Broadcast),
    (shape::eval_dynamic_broadcast_in_dim, OpKind::DynamicBroadcastInDim),
    (shape::eval_reshape, OpKind::Reshape),
    (shape::eval_dynamic_reshape, OpKind::DynamicReshape),
    (shape::eval_transpose, OpKind::Transpose),
    (shape::eval_slice, OpKind::Slice),
    (shape::eval_real_dynamic_slice, OpKind::RealDynamicSlice),
    (shape::eval_dynamic_slice, OpKind::DynamicSlice),
    (shape::eval_dynamic_update_slice, OpKind::DynamicUpdateSlice),
    (shape::eval_concatenate, OpKind::Concatenate),
    (shape::eval_pad, OpKind::Pad),
    (shape::eval_dynamic_pad, OpKind::DynamicPad),
    (shape::eval_reverse, OpKind::Reverse),
    (shape::eval_iota, OpKind::Iota),
    (shape::eval_dynamic_iota, OpKind::DynamicIota),
    (shape::eval_get_dimension_size, OpKind::GetDimensionSize),
    (shape::eval_set_dimension_size, OpKind::SetDimensionSize),
    (shape::eval_dynamic_gather, OpKind::DynamicGather),
    (shape::eval_dynamic_conv, OpKind::DynamicConv),
    (gs::eval_gather, OpKind::Gather),
    (gs::eval_scatter, OpKind::Scatter),
    (gs::eval_torch_index_select, OpKind::TorchIndexSelect),
    (dot::eval_dot_general, OpKind::DotGeneral),
    (dot::eval_dot, OpKind::Dot),
    (dot::eval_einsum, OpKind::Einsum),
    (dot::eval_unary_einsum, OpKind::UnaryEinsum),
    (conv::eval_convolution, OpKind::Convolution),
    (reduce::eval_reduce, OpKind::Reduce),
    (reduce::eval_reduce_window, OpKind::ReduceWindow),
    (reduce::eval_select_and_scatter, OpKind::SelectAndScatter),
    (reduce::eval_batch_norm_training, OpKind::BatchNormTraining),
    (reduce::eval_batch_norm_inference, OpKind::BatchNormInference),
    (reduce::eval_batch_norm_grad, OpKind::BatchNormGrad),
    (sort::eval_sort, OpKind::Sort),
    (sort::eval_top_k, OpKind::ChloTopK),
    (fft::eval_fft, OpKind::Fft),
    (linalg::eval_cholesky, OpKind::Cholesky),
    (linalg::eval_triangular_solve, OpKind::TriangularSolve),
    (rng::eval_rng_bit_generator, OpKind::RngBitGenerator),
    (rng::eval_rng, OpKind::Rng),
    (tuple::eval_get_tuple_element, OpKind::GetTupleElement),
    (co::eval_all_reduce, OpKind::AllReduce),
    (co::eval_all_gather, OpKind::AllGather),
    (co::eval_reduce_scatter, OpKind::ReduceScatter),
    (co::eval_all_to_all, OpKind::AllToAll),
    (co::eval_collective_permute, OpKind::CollectivePermute),
    (co::eval_collective_broadcast, OpKind::CollectiveBroadcast),
];

fn attr_sets() -> Vec<Vec<(&'static str, Attr)>> {
    let big = arr(&[i64::MAX, -1, 7]);
    vec![
        vec![],
        vec![
            ("broadcast_dimensions", big.clone()),
            ("permutation", big.clone()),
            ("start_indices", big.clone()),
            ("limit_indices", arr(&[i64::MIN, 3, 3])),
            ("strides", arr(&[0, 0, 0])),
            ("slice_sizes", big.clone()),
            ("dimension", int(99)),
            ("dimensions", big.clone()),
            ("edge_padding_low", arr(&[-100, 0, 0])),
            ("edge_padding_high", arr(&[0, 0, 0])),
            ("interior_padding", arr(&[-1, 0, 0])),
            ("iota_dimension", int(-1)),
            ("window_dimensions", big.clone()),
            ("window_strides", arr(&[0, 0, 0])),
            ("feature_index", int(5)),
            ("k", int(100)),
            ("fft_length", arr(&[-4])),
            ("fft_type", Attr::FftType(FftType::Irfft)),
            ("index", int(-3)),
            ("all_gather_dim", int(9)),
            ("scatter_dimension", int(-2)),
            ("split_dimension", int(7)),
            ("concat_dimension", int(0)),
            ("split_count", int(0)),
            ("einsum_config", Attr::Str("ab,bc->xz".into())),
            ("rng_distribution", Attr::RngDistribution(RngDistribution::Normal)),
            ("dimension_numbers", Attr::GatherDims(GatherDims { offset_dims: vec![5], index_vector_dim: 9, ..Default::default() })),
            ("scatter_dimension_numbers", Attr::ScatterDims(ScatterDims { index_vector_dim: -1, ..Default::default() })),
        ],
        vec![
            ("dimension_numbers", Attr::ConvDims(ConvDims { input_spatial_dimensions: vec![7], ..Default::default() })),
            ("epsilon", Attr::Str("x".into())),
            ("replica_groups", arr(&[5, 6])),
            ("source_target_pairs", arr(&[0, 9])),
            ("feature_group_count", int(0)),
        ],
    ]
}

fn arg_sets() -> Vec<Vec<RtValue>> {
    vec![
        vec![],
        vec![RtValue::Token],
        vec![RtValue::Tuple(vec![])],
        vec![i32s(&[], &[1])],
        vec![f32s(&[2, 3], &[1.; 6]), i64s(&[], &[-5])],
        vec![f32s(&[2, 3], &[1.; 6]), i64s(&[2], &[9, -9]), i64s(&[2], &[1, 1]), i64s(&[2], &[0, 0])],
        vec![i32s(&[0, 3], &[]), i32s(&[3, 0], &[]), i32s(&[], &[0])],
        vec![c64s(&[1, 1], &[(1., 1.)]), c64s(&[1, 1], &[(0., 0.)]), c64s(&[1], &[(1., 0.)])],
        vec![u64s(&[3], &[1, 2, 3])],
    ]
}

#[test]
fn no_op_panics_on_bad_programs() {
    let results = [tt(&[2, 3], ElementType::F32), tt(&[], ElementType::I32), tt(&[-9223372036854775808, 2], ElementType::F32)];
    for (f, kind) in ALL {
        for attrs in attr_sets() {
            for args in arg_sets() {
                for rt in [vec![], vec![results[0].clone()], results.to_vec()] {
                    let attrs = attrs.clone();
                    let args = args.clone();
                    let r = std::panic::catch_unwind(move || run_op(*f, *kind, attrs, args, rt, vec![add_body(), add_body()]));
                    assert!(r.is_ok(), "{kind:?} panicked");
                }
            }
        }
    }
}

#[test]
fn rng_uniform_and_normal_are_in_range() {
    let r = run_op(
        rng::eval_rng,
        OpKind::Rng,
        vec![("rng_distribution", Attr::RngDistribution(RngDistribution::Uniform))],
        vec![f32s(&[], &[-2.0]), f32s(&[], &[3.0]), i64s(&[1], &[1000])],
        vec![tt(&[1000], ElementType::F32)],
        vec![],
    )
    .unwrap();
    let v = floats(&r[0]);
    assert!(v.iter().all(|&x| (-2.0..3.0).contains(&x)));
    let mean = v.iter().sum::<f64>() / 1000.0;
    assert!((mean - 0.5).abs() < 0.3, "mean {mean}");
    let r = run_op(
        rng::eval_rng,
        OpKind::Rng,
        vec![("rng_distribution", Attr::RngDistribution(RngDistribution::Uniform))],
        vec![i32s(&[], &[5]), i32s(&[], &[8]), i64s(&[2], &[10, 10])],
        vec![tt(&[10, 10], ElementType::I32)],
        vec![],
    )
    .unwrap();
    assert!(ints(&r[0]).iter().all(|&x| (5..8).contains(&x)));
    let r = run_op(
        rng::eval_rng,
        OpKind::Rng,
        vec![("rng_distribution", Attr::RngDistribution(RngDistribution::Normal))],
        vec![f64s(&[], &[10.0]), f64s(&[], &[2.0]), i64s(&[1], &[4000])],
        vec![tt(&[4000], ElementType::F64)],
        vec![],
    )
    .unwrap();
    let v = floats(&r[0]);
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / v.len() as f64;
    assert!((mean - 10.0).abs() < 0.2 && (var.sqrt() - 2.0).abs() < 0.2, "mean {mean} sd {}", var.sqrt());
}
