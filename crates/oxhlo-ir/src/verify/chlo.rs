//! The `chlo` ops JAX can leave in a program: element-wise math (same type in and out), the
//! `is_inf` predicates, the implicitly broadcasting binary ops (numpy-style shapes), top_k and
//! constant_like.

use crate::body::Op;
use crate::ops::OpKind;
use crate::types::ElementType;
use crate::verify::cx::{class, elem_compatible, Cx};
use crate::verify::elementwise;
use crate::verify::fmt;
use crate::verify::shape::{self, dim_compatible, shapes_compatible};

rules! {
    BCAST_ELEM = "chlo.broadcast_element_types": "a broadcasting op's operands share an element type, and the result has the op's element type";
    BCAST_RESULT = "chlo.broadcast_result": "a broadcasting op's result shape is the broadcast of its operand shapes";
    TOP_K = "chlo.top_k": "top_k's operand has rank >= 1 and 0 <= k <= its last dimension";
    TOP_K_RESULTS = "chlo.top_k_results": "top_k returns values of the operand's element type and i32 indices, shaped [..., k]";
    CONSTANT_LIKE = "chlo.constant_like": "constant_like's result has the operand's shape";
}

/// Dispatches the chlo ops (and ignores any op it does not know).
pub(crate) fn check<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    use class::*;
    use OpKind as K;
    match op.kind {
        K::ChloAcos | K::ChloAcosh | K::ChloAsin | K::ChloAsinh | K::ChloAtan | K::ChloAtanh | K::ChloCosh | K::ChloSinh
        | K::ChloTan | K::ChloConj => elementwise::unary(cx, op, FLOAT | COMPLEX),
        K::ChloDigamma | K::ChloErf | K::ChloErfInv | K::ChloErfc | K::ChloLgamma | K::ChloBesselI1e => {
            elementwise::unary(cx, op, FLOAT)
        }
        K::ChloSquare => elementwise::unary(cx, op, INT | FLOAT | COMPLEX),
        K::ChloIsInf | K::ChloIsNegInf | K::ChloIsPosInf => elementwise::is_finite(cx, op),
        K::ChloNextAfter | K::ChloPolygamma | K::ChloZeta => elementwise::binary(cx, op, FLOAT),
        K::ChloTopK => top_k(cx, op),
        K::ChloMulhi => elementwise::binary(cx, op, INT),
        K::ChloConstantLike => constant_like(cx, op),
        K::ChloBroadcastAdd
        | K::ChloBroadcastAnd
        | K::ChloBroadcastAtan2
        | K::ChloBroadcastCompare
        | K::ChloBroadcastComplex
        | K::ChloBroadcastDivide
        | K::ChloBroadcastMaximum
        | K::ChloBroadcastMinimum
        | K::ChloBroadcastMultiply
        | K::ChloBroadcastNextAfter
        | K::ChloBroadcastOr
        | K::ChloBroadcastPolygamma
        | K::ChloBroadcastPower
        | K::ChloBroadcastRemainder
        | K::ChloBroadcastShiftLeft
        | K::ChloBroadcastShiftRightArithmetic
        | K::ChloBroadcastShiftRightLogical
        | K::ChloBroadcastSubtract
        | K::ChloBroadcastXor
        | K::ChloBroadcastZeta => broadcasting(cx, op),
        _ => {}
    }
}

fn broadcasting<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let explicit = op.attr("broadcast_dimensions").is_some();
    let (Some(l), Some(rhs), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else { return };
    let want_elem = match op.kind {
        OpKind::ChloBroadcastCompare => Some(ElementType::Bool),
        OpKind::ChloBroadcastComplex => l.elem.float_type().map(ElementType::Complex),
        _ => Some(l.elem.clone()),
    };
    let elem_ok = elem_compatible(&l.elem, &rhs.elem) && want_elem.as_ref().is_some_and(|w| elem_compatible(w, &r.elem));
    if !elem_ok {
        cx.fail(
            op,
            BCAST_ELEM,
            format!("operand element types {} and {} and result element type {} do not fit", fmt::elem(&l.elem), fmt::elem(&rhs.elem), fmt::elem(&r.elem)),
        );
    }
    if explicit {
        return;
    }
    match shape::broadcast_shapes(&l.shape, &rhs.shape) {
        Ok(want) => {
            if !shapes_compatible(&r.shape, &want) {
                cx.fail(op, BCAST_RESULT, format!("result shape [{}] is not the broadcast shape [{}]", fmt::shape(&r.shape), fmt::shape(&want)));
            }
        }
        Err(e) => cx.fail_shape(op, e),
    }
}

fn top_k<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let k = cx.attr_int(op, "k", true);
    let (Some(x), Some(v), Some(i)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0), cx.tensor_res(op, 1)) else { return };
    let Some(k) = k else { return };
    let Some(&last) = x.shape.last() else {
        cx.fail(op, TOP_K, "operand must have rank >= 1");
        return;
    };
    if k < 0 || !(last == crate::types::DYN || k <= last) {
        cx.fail(op, TOP_K, format!("k = {k} must be in [0, {}]", fmt::dim(last)));
        return;
    }
    let mut want = x.shape.clone();
    if let Some(l) = want.last_mut() {
        *l = k;
    }
    let ok = shapes_compatible(&v.shape, &want)
        && shapes_compatible(&i.shape, &want)
        && elem_compatible(&v.elem, &x.elem)
        && matches!(i.elem, ElementType::Int { bits: 32, .. });
    if !ok {
        cx.fail(
            op,
            TOP_K_RESULTS,
            format!("results must be tensor<{0}x{1}> and tensor<{0}xi32>, got {2} and {3}", fmt::shape(&want), fmt::elem(&x.elem), fmt::tensor(v), fmt::tensor(i)),
        );
    }
}

fn constant_like<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    if x.rank() != r.rank() || !x.shape.iter().zip(&r.shape).all(|(&a, &b)| dim_compatible(a, b)) {
        cx.fail(op, CONSTANT_LIKE, format!("result shape [{}] differs from the operand shape [{}]", fmt::shape(&r.shape), fmt::shape(&x.shape)));
    }
}
