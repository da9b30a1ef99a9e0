//! Data movement: broadcast_in_dim (and the legacy broadcast), reshape, transpose, slice, concatenate,
//! pad, reverse, iota, get/set_dimension_size, and the dynamic-shape variants whose shapes are operands
//! (dynamic_broadcast_in_dim, dynamic_iota, dynamic_pad, dynamic_reshape, real_dynamic_slice).

use crate::body::Op;
use crate::types::TensorType;
use crate::verify::cx::{class, elem_compatible, Cx};
use crate::verify::fmt;
use crate::verify::shape::{self, out_of_range, shapes_compatible};

rules! {
    SAME_ELEM = "movement.element_type": "operand and result have the same element type";
    BROADCAST_RESULT = "broadcast.result": "broadcast's result shape is broadcast_sizes followed by the operand's shape";
    RESHAPE_COUNT = "reshape.element_count": "reshape's operand and result have the same number of elements (C2)";
    TRANSPOSE_RESULT = "transpose.result": "dim(result, j) = dim(operand, permutation[j]) (C3)";
    SLICE_RESULT = "slice.result": "dim(result, d) = ceil((limit - start) / stride) (C5)";
    CONCAT_RESULT = "concatenate.result": "concatenate's result shape sums the inputs along dimension (C6)";
    PAD_VALUE = "pad.padding_value": "pad's padding_value is a 0-dimensional tensor";
    PAD_RESULT = "pad.result": "pad's result shape is the padded operand shape (C4)";
    REVERSE_TYPE = "reverse.type": "reverse's operand and result have the same type (C1)";
    REVERSE_UNIQUE = "reverse.dims_unique": "reverse's dimensions are unique (C2)";
    REVERSE_RANGE = "reverse.dims_range": "0 <= dimensions[k] < rank(result) (C3)";
    IOTA_DIM = "iota.dimension": "0 <= iota_dimension < rank(output) (C1)";
    DIM_RANGE = "dimension_size.dimension": "get/set_dimension_size's dimension is in [0, rank(operand)) (C1)";
    DIM_SIZE_SCALAR = "dimension_size.scalar": "the dimension size (result of get_dimension_size, operand of set_dimension_size) is a 0-d i32 tensor";
    SET_DIM_RESULT = "set_dimension_size.result": "set_dimension_size's result has the operand's rank and sizes outside dimension";
    SHAPE_OPERAND = "dynamic.shape_operand": "a shape operand is a 1-D integer tensor with one entry per dimension it describes";
    DBID_KNOWN = "dynamic_broadcast_in_dim.known_dims": "known_expanding/known_nonexpanding dimensions are disjoint operand dimensions";
    DYNAMIC_RESULT_RANK = "dynamic.result_rank": "a dynamic op's result has the operand's rank";
}


/// Reports differing element types of operand and result.
fn same_elem(cx: &mut Cx, op: &Op, x: &TensorType, r: &TensorType) {
    if !elem_compatible(&x.elem, &r.elem) {
        cx.fail(op, SAME_ELEM, format!("operand element type {} and result element type {} differ", fmt::elem(&x.elem), fmt::elem(&r.elem)));
    }
}

/// Reports a result shape that differs from the inferred one.
fn expect_shape(cx: &mut Cx, op: &Op, rule: crate::verify::Rule, r: &TensorType, want: &[i64]) {
    if !shapes_compatible(&r.shape, want) {
        cx.fail(op, rule, format!("result shape [{}] does not match the expected shape [{}]", fmt::shape(&r.shape), fmt::shape(want)));
    }
}

pub(crate) fn broadcast_in_dim<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dims = cx.attr_i64s(op, "broadcast_dimensions", true);
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    same_elem(cx, op, x, r);
    if let Some(dims) = dims {
        if let Err(e) = shape::check_broadcast_in_dim(&x.shape, &dims, &r.shape) {
            cx.fail_shape(op, e);
        }
    }
}

pub(crate) fn broadcast<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let sizes = cx.attr_i64s(op, "broadcast_sizes", true);
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    same_elem(cx, op, x, r);
    if let Some(sizes) = sizes {
        expect_shape(cx, op, BROADCAST_RESULT, r, &[sizes, x.shape.clone()].concat());
    }
}

pub(crate) fn reshape<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    same_elem(cx, op, x, r);
    if let (Some(a), Some(b)) = (shape::num_elements(&x.shape), shape::num_elements(&r.shape)) {
        if a != b {
            cx.fail(op, RESHAPE_COUNT, format!("operand has {a} elements but result has {b} ({} -> {})", fmt::tensor(x), fmt::tensor(r)));
        }
    }
}

pub(crate) fn transpose<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let perm = cx.attr_i64s(op, "permutation", true);
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    same_elem(cx, op, x, r);
    let Some(perm) = perm else { return };
    match shape::infer_transpose_shape(&x.shape, &perm) {
        Ok(want) => expect_shape(cx, op, TRANSPOSE_RESULT, r, &want),
        Err(e) => cx.fail_shape(op, e),
    }
}

pub(crate) fn slice<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let start = cx.attr_i64s(op, "start_indices", true);
    let limit = cx.attr_i64s(op, "limit_indices", true);
    let strides = cx.attr_i64s(op, "strides", false);
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    same_elem(cx, op, x, r);
    let (Some(start), Some(limit)) = (start, limit) else { return };
    let strides = strides.unwrap_or_else(|| vec![1; x.rank()]);
    match shape::infer_slice_shape(&x.shape, &start, &limit, &strides) {
        Ok(want) => expect_shape(cx, op, SLICE_RESULT, r, &want),
        Err(e) => cx.fail_shape(op, e),
    }
}

pub(crate) fn concatenate<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dim = cx.attr_int(op, "dimension", true);
    let (Some(xs), Some(r)) = (cx.tensor_opds(op, 0..op.operands.len()), cx.tensor_res(op, 0)) else { return };
    for (k, x) in xs.iter().enumerate() {
        if !elem_compatible(&x.elem, &r.elem) {
            cx.fail(op, SAME_ELEM, format!("input #{k} element type {} and result element type {} differ", fmt::elem(&x.elem), fmt::elem(&r.elem)));
            return;
        }
    }
    let Some(dim) = dim else { return };
    let shapes: Vec<&[i64]> = xs.iter().map(|x| x.shape.as_slice()).collect();
    match shape::infer_concatenate_shape(&shapes, dim) {
        Ok(want) => expect_shape(cx, op, CONCAT_RESULT, r, &want),
        Err(e) => cx.fail_shape(op, e),
    }
}

pub(crate) fn pad<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let lo = cx.attr_i64s(op, "edge_padding_low", true);
    let hi = cx.attr_i64s(op, "edge_padding_high", true);
    let interior = cx.attr_i64s(op, "interior_padding", false);
    let (Some(x), Some(v), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else { return };
    same_elem(cx, op, x, r);
    if !elem_compatible(&v.elem, &x.elem) {
        cx.fail(op, SAME_ELEM, format!("padding_value element type {} and operand element type {} differ", fmt::elem(&v.elem), fmt::elem(&x.elem)));
    }
    cx.scalar_tensor(op, PAD_VALUE, "padding_value", v);
    let (Some(lo), Some(hi)) = (lo, hi) else { return };
    let interior = interior.unwrap_or_else(|| vec![0; x.rank()]);
    match shape::infer_pad_shape(&x.shape, &lo, &hi, &interior) {
        Ok(want) => expect_shape(cx, op, PAD_RESULT, r, &want),
        Err(e) => cx.fail_shape(op, e),
    }
}

pub(crate) fn reverse<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dims = cx.attr_i64s(op, "dimensions", true);
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    if !elem_compatible(&x.elem, &r.elem) || !shapes_compatible(&x.shape, &r.shape) {
        cx.fail(op, REVERSE_TYPE, format!("operand type {} and result type {} differ", fmt::tensor(x), fmt::tensor(r)));
    }
    let Some(dims) = dims else { return };
    if !shape::is_unique(&dims) {
        cx.fail(op, REVERSE_UNIQUE, format!("dimensions {} are not unique", fmt::list(&dims)));
    }
    if let Some(d) = out_of_range(&dims, r.rank()) {
        cx.fail(op, REVERSE_RANGE, format!("dimension {d} is out of range [0, {})", r.rank()));
    }
}

fn iota_dim(cx: &mut Cx, op: &Op, d: Option<i64>, r: &TensorType) {
    if let Some(d) = d {
        if d < 0 || d as u64 >= r.rank() as u64 {
            cx.fail(op, IOTA_DIM, format!("iota_dimension {d} is out of range [0, {})", r.rank()));
        }
    }
}

pub(crate) fn iota<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let d = cx.attr_int(op, "iota_dimension", true);
    let Some(r) = cx.tensor_res(op, 0) else { return };
    cx.elem(op, "result", &r.elem, class::INT | class::FLOAT | class::COMPLEX | class::QUANT);
    iota_dim(cx, op, d, r);
}

fn dimension_in(cx: &mut Cx, op: &Op, d: Option<i64>, x: &TensorType) {
    if let Some(d) = d {
        if d < 0 || d as u64 >= x.rank() as u64 {
            cx.fail(op, DIM_RANGE, format!("dimension {d} is out of range [0, {})", x.rank()));
        }
    }
}

fn i32_scalar(cx: &mut Cx, op: &Op, what: &str, t: &TensorType) {
    let ok = t.rank() == 0 && matches!(t.elem, crate::types::ElementType::Int { bits: 32, .. }) && !t.elem.is_unsigned_integer();
    if !ok {
        cx.fail(op, DIM_SIZE_SCALAR, format!("{what} must be tensor<i32>, got {}", fmt::tensor(t)));
    }
}

pub(crate) fn get_dimension_size<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let d = cx.attr_int(op, "dimension", true);
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    dimension_in(cx, op, d, x);
    i32_scalar(cx, op, "result", r);
}

pub(crate) fn set_dimension_size<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let d = cx.attr_int(op, "dimension", true);
    let (Some(x), Some(size), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else {
        return;
    };
    dimension_in(cx, op, d, x);
    i32_scalar(cx, op, "size", size);
    same_elem(cx, op, x, r);
    let Some(d) = d else { return };
    let ok = r.rank() == x.rank()
        && x.shape.iter().zip(&r.shape).enumerate().all(|(i, (&a, &b))| i as i64 == d || shape::dim_compatible(a, b));
    if !ok {
        cx.fail(op, SET_DIM_RESULT, format!("result shape [{}] must match operand shape [{}] outside dimension {d}", fmt::shape(&r.shape), fmt::shape(&x.shape)));
    }
}

/// Checks that operand `i` is a 1-D integer tensor with `len` entries (when known); returns it.
pub(crate) fn shape_operand<'a>(cx: &mut Cx<'a>, op: &'a Op, i: usize, what: &str, len: Option<usize>) -> Option<&'a TensorType> {
    let t = cx.tensor_opd(op, i)?;
    let ok = t.rank() == 1 && t.elem.is_integer() && len.is_none_or(|n| shape::dim_compatible(t.shape[0], n as i64));
    if !ok {
        let want = len.map(|n| format!("tensor<{n}x...> of integers")).unwrap_or_else(|| "a 1-D integer tensor".into());
        cx.fail(op, SHAPE_OPERAND, format!("{what} must be {want}, got {}", fmt::tensor(t)));
    }
    Some(t)
}

pub(crate) fn dynamic_broadcast_in_dim<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dims = cx.attr_i64s(op, "broadcast_dimensions", true);
    let expanding = cx.attr_i64s(op, "known_expanding_dimensions", false).unwrap_or_default();
    let nonexpanding = cx.attr_i64s(op, "known_nonexpanding_dimensions", false).unwrap_or_default();
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    shape_operand(cx, op, 1, "output_dimensions", Some(r.rank()));
    same_elem(cx, op, x, r);
    if let Some(dims) = dims {
        if let Err(e) = shape::check_broadcast_in_dim(&x.shape, &dims, &r.shape) {
            cx.fail_shape(op, e);
        }
    }
    let all = [expanding.as_slice(), &nonexpanding].concat();
    if let Some(d) = out_of_range(&all, x.rank()) {
        cx.fail(op, DBID_KNOWN, format!("known dimension {d} is out of range [0, {})", x.rank()));
    } else if !shape::is_unique(&all) {
        cx.fail(op, DBID_KNOWN, format!("known_expanding_dimensions {} and known_nonexpanding_dimensions {} overlap", fmt::list(&expanding), fmt::list(&nonexpanding)));
    }
}

pub(crate) fn dynamic_iota<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let d = cx.attr_int(op, "iota_dimension", true);
    let Some(r) = cx.tensor_res(op, 0) else { return };
    shape_operand(cx, op, 0, "output_shape", Some(r.rank()));
    cx.elem(op, "result", &r.elem, class::INT | class::FLOAT | class::COMPLEX | class::QUANT);
    iota_dim(cx, op, d, r);
}

fn result_rank(cx: &mut Cx, op: &Op, x: &TensorType, r: &TensorType) {
    if x.rank() != r.rank() {
        cx.fail(op, DYNAMIC_RESULT_RANK, format!("result rank {} differs from operand rank {}", r.rank(), x.rank()));
    }
}

pub(crate) fn dynamic_pad<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(v), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else { return };
    cx.scalar_tensor(op, PAD_VALUE, "padding_value", v);
    if !elem_compatible(&v.elem, &x.elem) {
        cx.fail(op, SAME_ELEM, format!("padding_value element type {} and operand element type {} differ", fmt::elem(&v.elem), fmt::elem(&x.elem)));
    }
    for (i, name) in [(2, "edge_padding_low"), (3, "edge_padding_high"), (4, "interior_padding")] {
        shape_operand(cx, op, i, name, Some(x.rank()));
    }
    same_elem(cx, op, x, r);
    result_rank(cx, op, x, r);
}

pub(crate) fn dynamic_reshape<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    shape_operand(cx, op, 1, "output_shape", Some(r.rank()));
    same_elem(cx, op, x, r);
    if let (Some(a), Some(b)) = (shape::num_elements(&x.shape), shape::num_elements(&r.shape)) {
        if a != b {
            cx.fail(op, RESHAPE_COUNT, format!("operand has {a} elements but result has {b} ({} -> {})", fmt::tensor(x), fmt::tensor(r)));
        }
    }
}

pub(crate) fn real_dynamic_slice<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    let mut types = Vec::new();
    for (i, name) in [(1, "start_indices"), (2, "limit_indices"), (3, "strides")] {
        types.push(shape_operand(cx, op, i, name, Some(x.rank())));
    }
    if let [Some(a), Some(b), Some(c)] = types.as_slice() {
        if a != b || a != c {
            cx.fail(op, SHAPE_OPERAND, format!("start_indices, limit_indices and strides must have the same type, got {}, {} and {}", fmt::tensor(a), fmt::tensor(b), fmt::tensor(c)));
        }
    }
    same_elem(cx, op, x, r);
    result_rank(cx, op, x, r);
}
