//! Indexing: gather and dynamic_gather, scatter, dynamic_slice, dynamic_update_slice and the legacy
//! torch_index_select. Dimension-number rules and shapes come from [`crate::verify::shape::gather`].

use crate::attr::{Attr, GatherDims, ScatterDims};
use crate::body::Op;
use crate::ops::OpKind;
use crate::types::{TensorType, Type};
use crate::verify::cx::{class, elem_compatible, Cx};
use crate::verify::shape::{self, shapes_compatible, ScatterShapes};
use crate::verify::{fmt, movement, regions};

rules! {
    SAME_ELEM = "indexing.element_type": "the result has the operand's element type (gather C23, dynamic_slice C1, ...)";
    GATHER_RESULT = "gather.result": "shape(result) combines the batch and offset dimension sizes (C22)";
    SCATTER_ARITY = "scatter.arity": "scatter takes N inputs, the indices and N updates, and has N results (C5)";
    SCATTER_SHAPES = "scatter.same_shapes": "all inputs have one shape and all updates have one shape (C1, C3)";
    SCATTER_UPDATE_ELEM = "scatter.update_element_type": "element_type(updates[k]) = element_type(inputs[k]) (C6)";
    SCATTER_RESULT = "scatter.result": "results[k] has the type of inputs[k] (C24, C25)";
    SCATTER_BODY = "scatter.update_computation": "update_computation has type (tensor<E0>, ..., tensor<E0>, ...) -> (tensor<E0>, ...) (C23)";
    START_INDICES = "dynamic_slice.start_indices": "one 0-d integer start index per operand dimension, all of one type (C2, C3)";
    DSLICE_RESULT = "dynamic_slice.result": "shape(result) = slice_sizes (C5)";
    DUS_RESULT = "dynamic_update_slice.result": "operand and result have the same type (C1)";
    DUS_UPDATE = "dynamic_update_slice.update": "update has the operand's rank and dim(update, k) <= dim(operand, k) (C3, C6)";
    TIS_DIMS = "torch_index_select.dims": "batch_dims <= dim < rank(operand) and batch_dims <= rank(index)";
    TIS_RESULT = "torch_index_select.result": "result shape is operand[:dim] + index[batch_dims:] + operand[dim+1:]";
}


fn same_elem(cx: &mut Cx, op: &Op, x: &TensorType, r: &TensorType) {
    if !elem_compatible(&x.elem, &r.elem) {
        cx.fail(op, SAME_ELEM, format!("operand element type {} and result element type {} differ", fmt::elem(&x.elem), fmt::elem(&r.elem)));
    }
}

pub(crate) fn gather<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dynamic = op.kind == OpKind::DynamicGather;
    let dims: Option<&GatherDims> = cx.attr_as(op, "dimension_numbers", true, "#stablehlo.gather dimension numbers", |a| match a {
        Attr::GatherDims(d) => Some(d),
        _ => None,
    });
    let sizes = if dynamic { None } else { cx.attr_i64s(op, "slice_sizes", true) };
    cx.attr_bool(op, "indices_are_sorted", false);
    let (Some(x), Some(idx), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else { return };
    cx.elem(op, "start_indices", &idx.elem, class::INT);
    same_elem(cx, op, x, r);
    if dynamic {
        movement::shape_operand(cx, op, 2, "slice_sizes", Some(x.rank()));
    } else if sizes.is_none() {
        return;
    }
    let Some(dims) = dims else { return };
    match shape::infer_gather_shape(&x.shape, &idx.shape, dims, sizes.as_deref()) {
        Ok(want) => {
            if !shapes_compatible(&r.shape, &want) {
                cx.fail(op, GATHER_RESULT, format!("result shape [{}] does not match the expected shape [{}]", fmt::shape(&r.shape), fmt::shape(&want)));
            }
        }
        Err(e) => cx.fail_shape(op, e),
    }
}

pub(crate) fn scatter<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dims: Option<&ScatterDims> = cx.attr_as(op, "scatter_dimension_numbers", true, "#stablehlo.scatter dimension numbers", |a| match a {
        Attr::ScatterDims(d) => Some(d),
        _ => None,
    });
    cx.attr_bool(op, "indices_are_sorted", false);
    cx.attr_bool(op, "unique_indices", false);
    let total = op.operands.len();
    if total.is_multiple_of(2) || op.results.len() != total / 2 {
        cx.fail(op, SCATTER_ARITY, format!("expects 2N + 1 operands and N results, got {total} operands and {} results", op.results.len()));
        return;
    }
    let n = total / 2;
    let (Some(inputs), Some(idx), Some(updates), Some(results)) =
        (cx.tensor_opds(op, 0..n), cx.tensor_opd(op, n), cx.tensor_opds(op, n + 1..total), cx.tensor_results(op))
    else {
        return;
    };
    cx.elem(op, "scatter_indices", &idx.elem, class::INT);
    for (k, t) in inputs.iter().enumerate().skip(1) {
        if !shapes_compatible(&t.shape, &inputs[0].shape) {
            cx.fail(op, SCATTER_SHAPES, format!("input #{k} shape [{}] differs from input #0's [{}]", fmt::shape(&t.shape), fmt::shape(&inputs[0].shape)));
        }
    }
    for (k, t) in updates.iter().enumerate().skip(1) {
        if !shapes_compatible(&t.shape, &updates[0].shape) {
            cx.fail(op, SCATTER_SHAPES, format!("update #{k} shape [{}] differs from update #0's [{}]", fmt::shape(&t.shape), fmt::shape(&updates[0].shape)));
        }
    }
    for (k, (i, u)) in inputs.iter().zip(&updates).enumerate() {
        if !elem_compatible(&i.elem, &u.elem) {
            cx.fail(op, SCATTER_UPDATE_ELEM, format!("update #{k} element type {} differs from input #{k}'s {}", fmt::elem(&u.elem), fmt::elem(&i.elem)));
        }
    }
    for (k, (i, r)) in inputs.iter().zip(&results).enumerate() {
        if !elem_compatible(&i.elem, &r.elem) || !shapes_compatible(&i.shape, &r.shape) {
            cx.fail(op, SCATTER_RESULT, format!("result #{k} type {} differs from input #{k}'s type {}", fmt::tensor(r), fmt::tensor(i)));
        }
    }
    let scalars: Vec<Type> = inputs.iter().map(|t| Type::tensor(&[], t.elem.clone())).collect();
    regions::check_body(cx, op, 0, SCATTER_BODY, "update_computation", &[scalars.clone(), scalars.clone()].concat(), &scalars);
    let Some(dims) = dims else { return };
    let shapes = ScatterShapes { input: &inputs[0].shape, indices: &idx.shape, updates: &updates[0].shape };
    if let Err(e) = shape::check_scatter_shapes(shapes, dims) {
        cx.fail_shape(op, e);
    }
}

/// Checks the 0-d integer start index operands `first..`, expecting `rank` of them.
fn start_indices(cx: &mut Cx, op: &Op, first: usize, rank: usize) {
    let n = op.operands.len().saturating_sub(first);
    if n != rank {
        cx.fail(op, START_INDICES, format!("expects {rank} start indices (the operand's rank), got {n}"));
        return;
    }
    let mut first_ty: Option<&TensorType> = None;
    for i in first..op.operands.len() {
        let Some(t) = cx.tensor_opd(op, i) else { continue };
        if t.rank() != 0 || !t.elem.is_integer() {
            cx.fail(op, START_INDICES, format!("start index #{} must be a 0-d integer tensor, got {}", i - first, fmt::tensor(t)));
            return;
        }
        match first_ty {
            Some(f) if f != t => {
                cx.fail(op, START_INDICES, format!("start indices must have one type, got {} and {}", fmt::tensor(f), fmt::tensor(t)));
                return;
            }
            _ => first_ty = Some(t),
        }
    }
}

pub(crate) fn dynamic_slice<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let sizes = cx.attr_i64s(op, "slice_sizes", true);
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    same_elem(cx, op, x, r);
    start_indices(cx, op, 1, x.rank());
    let Some(sizes) = sizes else { return };
    match shape::infer_dynamic_slice_shape(&x.shape, &sizes) {
        Ok(want) => {
            if !shapes_compatible(&r.shape, &want) {
                cx.fail(op, DSLICE_RESULT, format!("result shape [{}] must equal slice_sizes {}", fmt::shape(&r.shape), fmt::list(&want)));
            }
        }
        Err(e) => cx.fail_shape(op, e),
    }
}

pub(crate) fn dynamic_update_slice<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(u), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else { return };
    if !elem_compatible(&x.elem, &r.elem) || !shapes_compatible(&x.shape, &r.shape) {
        cx.fail(op, DUS_RESULT, format!("operand type {} and result type {} differ", fmt::tensor(x), fmt::tensor(r)));
    }
    if !elem_compatible(&x.elem, &u.elem) {
        cx.fail(op, SAME_ELEM, format!("update element type {} and operand element type {} differ", fmt::elem(&u.elem), fmt::elem(&x.elem)));
    }
    let fits = u.rank() == x.rank()
        && u.shape.iter().zip(&x.shape).all(|(&a, &b)| a == crate::types::DYN || b == crate::types::DYN || (0..=b).contains(&a));
    if !fits {
        cx.fail(op, DUS_UPDATE, format!("update shape [{}] must have the operand's rank and fit in its shape [{}]", fmt::shape(&u.shape), fmt::shape(&x.shape)));
    }
    start_indices(cx, op, 2, x.rank());
}

pub(crate) fn torch_index_select<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dim = cx.attr_int(op, "dim", true);
    let bd = cx.attr_int(op, "batch_dims", true);
    let (Some(x), Some(idx), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else { return };
    cx.elem(op, "index", &idx.elem, class::INT);
    same_elem(cx, op, x, r);
    let (Some(dim), Some(bd)) = (dim, bd) else { return };
    if bd < 0 || dim < bd || dim as u64 >= x.rank() as u64 || bd as u64 > idx.rank() as u64 {
        cx.fail(
            op,
            TIS_DIMS,
            format!("need 0 <= batch_dims ({bd}) <= dim ({dim}) < operand rank ({}) and batch_dims <= index rank ({})", x.rank(), idx.rank()),
        );
        return;
    }
    let (d, b) = (dim as usize, bd as usize);
    let want = [&x.shape[..d], &idx.shape[b..], &x.shape[d + 1..]].concat();
    if !shapes_compatible(&r.shape, &want) {
        cx.fail(op, TIS_RESULT, format!("result shape [{}] does not match the expected shape [{}]", fmt::shape(&r.shape), fmt::shape(&want)));
    }
}
