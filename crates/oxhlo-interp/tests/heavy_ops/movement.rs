//! Data movement: the spec's worked examples for shape ops, gather/scatter, sort, tuple.

use crate::harness::*;
use oxhlo_interp::ops::{gather_scatter as gs, shape, sort, tuple};
use oxhlo_interp::RtValue;
use oxhlo_ir::attr::{GatherDims, ScatterDims};
use oxhlo_ir::{Attr, ElementType, OpKind};

const I32: ElementType = ElementType::I32;

#[test]
fn broadcast_in_dim_spec_example() {
    let r = run_op(
        shape::eval_broadcast_in_dim,
        OpKind::BroadcastInDim,
        vec![("broadcast_dimensions", arr(&[2, 1]))],
        vec![i32s(&[1, 3], &[1, 2, 3])],
        vec![tt(&[2, 3, 2], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3]);
}

#[test]
fn broadcast_rejects_bad_size() {
    let r = run_op(
        shape::eval_broadcast_in_dim,
        OpKind::BroadcastInDim,
        vec![("broadcast_dimensions", arr(&[1]))],
        vec![i32s(&[3], &[1, 2, 3])],
        vec![tt(&[2, 4], I32)],
        vec![],
    );
    assert!(r.is_err());
}

#[test]
fn transpose_spec_example() {
    // operand [[[1,2],[3,4],[5,6]], [[7,8],[9,10],[11,12]]], permutation [2, 1, 0]
    let r = run_op(
        shape::eval_transpose,
        OpKind::Transpose,
        vec![("permutation", arr(&[2, 1, 0]))],
        vec![i32s(&[2, 3, 2], &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])],
        vec![tt(&[2, 3, 2], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![1, 7, 3, 9, 5, 11, 2, 8, 4, 10, 6, 12]);
}

#[test]
fn slice_spec_example() {
    // operand [[0,0,0,0],[0,0,1,1],[0,0,1,1]], start [1,2], limit [3,4], strides [1,1]
    let r = run_op(
        shape::eval_slice,
        OpKind::Slice,
        vec![("start_indices", arr(&[1, 2])), ("limit_indices", arr(&[3, 4])), ("strides", arr(&[1, 1]))],
        vec![i32s(&[3, 4], &[0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1])],
        vec![tt(&[2, 2], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![1, 1, 1, 1]);
}

#[test]
fn dynamic_slice_clamps_start_indices() {
    let op = i32s(&[4, 4], &[0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    let r = run_op(
        shape::eval_dynamic_slice,
        OpKind::DynamicSlice,
        vec![("slice_sizes", arr(&[2, 2]))],
        vec![op, i64s(&[], &[-1]), i64s(&[], &[3])],
        vec![tt(&[2, 2], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![1, 1, 1, 1]);
}

#[test]
fn dynamic_update_slice_spec_example() {
    let op = i32s(&[4, 4], &[1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]);
    let r = run_op(
        shape::eval_dynamic_update_slice,
        OpKind::DynamicUpdateSlice,
        vec![],
        vec![op, i32s(&[2, 2], &[1, 1, 1, 1]), i64s(&[], &[-1]), i64s(&[], &[3])],
        vec![tt(&[4, 4], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![1; 16]);
}

#[test]
fn concatenate_spec_example() {
    let r = run_op(
        shape::eval_concatenate,
        OpKind::Concatenate,
        vec![("dimension", int(0))],
        vec![i32s(&[3, 2], &[1, 2, 3, 4, 5, 6]), i32s(&[1, 2], &[7, 8])],
        vec![tt(&[4, 2], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![1, 2, 3, 4, 5, 6, 7, 8]);
    let r = run_op(
        shape::eval_concatenate,
        OpKind::Concatenate,
        vec![("dimension", int(1))],
        vec![i32s(&[2, 1], &[1, 2]), i32s(&[2, 2], &[3, 4, 5, 6])],
        vec![tt(&[2, 3], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![1, 3, 4, 2, 5, 6]);
}

#[test]
fn pad_spec_example_and_negative_padding() {
    let r = run_op(
        shape::eval_pad,
        OpKind::Pad,
        vec![
            ("edge_padding_low", arr(&[0, 1])),
            ("edge_padding_high", arr(&[2, 1])),
            ("interior_padding", arr(&[1, 2])),
        ],
        vec![i32s(&[2, 3], &[1, 2, 3, 4, 5, 6]), i32s(&[], &[0])],
        vec![tt(&[5, 9], I32)],
        vec![],
    )
    .unwrap();
    #[rustfmt::skip]
    let want = vec![
        0, 1, 0, 0, 2, 0, 0, 3, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 4, 0, 0, 5, 0, 0, 6, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    assert_eq!(ints(&r[0]), want);
    let r = run_op(
        shape::eval_pad,
        OpKind::Pad,
        vec![("edge_padding_low", arr(&[-1])), ("edge_padding_high", arr(&[-2])), ("interior_padding", arr(&[1]))],
        vec![i32s(&[4], &[1, 2, 3, 4]), i32s(&[], &[9])],
        vec![tt(&[4], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![9, 2, 9, 3]);
}

#[test]
fn reverse_iota_reshape() {
    let r = run_op(
        shape::eval_reverse,
        OpKind::Reverse,
        vec![("dimensions", arr(&[1, 0]))],
        vec![i32s(&[3, 2], &[1, 2, 3, 4, 5, 6])],
        vec![tt(&[3, 2], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![6, 5, 4, 3, 2, 1]);
    let r = run_op(shape::eval_iota, OpKind::Iota, vec![("iota_dimension", int(1))], vec![], vec![tt(&[2, 3], I32)], vec![]).unwrap();
    assert_eq!(ints(&r[0]), vec![0, 1, 2, 0, 1, 2]);
    let r = run_op(
        shape::eval_reshape,
        OpKind::Reshape,
        vec![],
        vec![i32s(&[3, 2], &[1, 2, 3, 4, 5, 6])],
        vec![tt(&[2, 3], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![1, 2, 3, 4, 5, 6]);
    assert!(run_op(shape::eval_reshape, OpKind::Reshape, vec![], vec![i32s(&[2], &[1, 2])], vec![tt(&[3], I32)], vec![]).is_err());
}

#[test]
fn empty_and_rank0_tensors() {
    let r = run_op(
        shape::eval_transpose,
        OpKind::Transpose,
        vec![("permutation", arr(&[1, 0]))],
        vec![i32s(&[0, 3], &[])],
        vec![tt(&[3, 0], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), Vec::<i64>::new());
    let r = run_op(
        shape::eval_broadcast_in_dim,
        OpKind::BroadcastInDim,
        vec![("broadcast_dimensions", arr(&[]))],
        vec![i32s(&[], &[7])],
        vec![tt(&[2, 1, 1, 1, 1, 2], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![7; 4]);
}

fn gather_dims(offset: &[i64], collapsed: &[i64], ob: &[i64], sb: &[i64], map: &[i64], ivd: i64) -> Attr {
    Attr::GatherDims(GatherDims {
        offset_dims: offset.to_vec(),
        collapsed_slice_dims: collapsed.to_vec(),
        operand_batching_dims: ob.to_vec(),
        start_indices_batching_dims: sb.to_vec(),
        start_index_map: map.to_vec(),
        index_vector_dim: ivd,
    })
}

#[test]
fn gather_rows_with_clamping() {
    // Rows of a 3x2 matrix at [2, 0, 7]: 7 clamps to the last row.
    let r = run_op(
        gs::eval_gather,
        OpKind::Gather,
        vec![("dimension_numbers", gather_dims(&[1], &[0], &[], &[], &[0], 1)), ("slice_sizes", arr(&[1, 2]))],
        vec![i32s(&[3, 2], &[1, 2, 3, 4, 5, 6]), i64s(&[3], &[2, 0, 7])],
        vec![tt(&[3, 2], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![5, 6, 1, 2, 5, 6]);
}

#[test]
fn gather_with_batching_dims() {
    // operand [2, 3]: batch b picks column idx[b].
    let r = run_op(
        gs::eval_gather,
        OpKind::Gather,
        vec![("dimension_numbers", gather_dims(&[], &[1], &[0], &[0], &[1], 1)), ("slice_sizes", arr(&[1, 1]))],
        vec![i32s(&[2, 3], &[1, 2, 3, 4, 5, 6]), i64s(&[2], &[2, 1])],
        vec![tt(&[2], I32)],
        vec![],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![3, 5]);
}

fn scatter_dims(win: &[i64], ins: &[i64], ib: &[i64], sb: &[i64], map: &[i64], ivd: i64) -> Attr {
    Attr::ScatterDims(ScatterDims {
        update_window_dims: win.to_vec(),
        inserted_window_dims: ins.to_vec(),
        input_batching_dims: ib.to_vec(),
        scatter_indices_batching_dims: sb.to_vec(),
        scatter_dims_to_operand_dims: map.to_vec(),
        index_vector_dim: ivd,
    })
}

#[test]
fn scatter_add_skips_out_of_bounds() {
    let r = run_op(
        gs::eval_scatter,
        OpKind::Scatter,
        vec![("scatter_dimension_numbers", scatter_dims(&[], &[0], &[], &[], &[0], 1))],
        vec![i32s(&[4], &[0, 0, 0, 0]), i64s(&[4, 1], &[1, 3, 1, 9]), i32s(&[4], &[10, 20, 30, 40])],
        vec![tt(&[4], I32)],
        vec![add_body()],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![0, 40, 0, 20]);
}

#[test]
fn sort_two_operands_stable() {
    let keys = i32s(&[2, 3], &[3, 1, 2, 2, 2, 1]);
    let vals = i32s(&[2, 3], &[0, 1, 2, 3, 4, 5]);
    let r = run_op(
        sort::eval_sort,
        OpKind::Sort,
        vec![("dimension", int(1))],
        vec![keys, vals],
        vec![tt(&[2, 3], I32), tt(&[2, 3], I32)],
        vec![less_body()],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![1, 2, 3, 1, 2, 2]);
    assert_eq!(ints(&r[1]), vec![1, 2, 0, 5, 3, 4]);
}

#[test]
fn top_k_orders_nan_first() {
    let x = f32s(&[5], &[1.0, f64::NAN, 3.0, 3.0, -1.0]);
    let r = run_op(
        sort::eval_top_k,
        OpKind::ChloTopK,
        vec![("k", int(3))],
        vec![x],
        vec![tt(&[3], ElementType::F32), tt(&[3], I32)],
        vec![],
    )
    .unwrap();
    let v = floats(&r[0]);
    assert!(v[0].is_nan() && v[1] == 3.0 && v[2] == 3.0);
    assert_eq!(ints(&r[1]), vec![1, 2, 3]);
}

#[test]
fn tuple_roundtrip() {
    let r = run_op(tuple::eval_tuple, OpKind::Tuple, vec![], vec![i32s(&[], &[1]), RtValue::Token], vec![], vec![]).unwrap();
    let g = run_op(tuple::eval_get_tuple_element, OpKind::GetTupleElement, vec![("index", Attr::Int(1, I32))], r.clone(), vec![], vec![]).unwrap();
    assert_eq!(g[0], RtValue::Token);
    assert!(run_op(tuple::eval_get_tuple_element, OpKind::GetTupleElement, vec![("index", Attr::Int(2, I32))], r, vec![], vec![]).is_err());
}
