//! Element-wise ops: unary and binary arithmetic, logic and shifts (same type in and out, element type
//! classes per op), abs/real/imag/is_finite (a changed element type), compare, complex, select, clamp,
//! convert, bitcast_convert and reduce_precision.

use crate::attr::{Attr, ComparisonType};
use crate::body::Op;
use crate::types::{ElementType, FloatType, TensorType};
use crate::verify::cx::{class, elem_compatible, elem_in, Cx};
use crate::verify::fmt;
use crate::verify::shape::{dim_compatible, shapes_compatible};

rules! {
    SAME_TYPE = "elementwise.same_type": "operands and result of an element-wise op have the same type (C1)";
    ABS_RESULT = "abs.result": "abs's result has the operand's shape and element type (the part type for complex) (C1, C2)";
    REAL_IMAG_RESULT = "real_imag.result": "real/imag's result has the operand's shape and its real element type (C1, C2)";
    IS_FINITE_SHAPE = "is_finite.shape": "is_finite's operand and result have the same shape (C1)";
    COMPARE_ELEM = "compare.element_types": "compare's lhs and rhs have the same element type (C1)";
    COMPARE_SHAPES = "compare.shapes": "compare's lhs, rhs and result have the same shape (C2)";
    COMPARE_TYPE = "compare.compare_type": "compare_type suits the element type: SIGNED, UNSIGNED, FLOAT/TOTALORDER/WEAKORDER (C3)";
    COMPLEX_OPERANDS = "complex.operands": "complex's lhs and rhs have the same type (C1)";
    COMPLEX_RESULT = "complex.result": "complex's result has lhs's shape and the complex type of its element type (C2, C3)";
    SELECT_PRED = "select.pred_shape": "select's pred is 0-dimensional or has on_true's shape (C1)";
    SELECT_TYPES = "select.types": "select's on_true, on_false and result have the same type (C2)";
    CLAMP_BOUND_SHAPE = "clamp.bound_shape": "clamp's min and max are 0-dimensional or have the operand's shape (C1, C2)";
    CLAMP_ELEM = "clamp.element_types": "clamp's min, operand and max have the same element type (C3)";
    CLAMP_RESULT = "clamp.result": "clamp's operand and result have the same type (C4)";
    CONVERT_SHAPE = "convert.shape": "convert's operand and result have the same shape (C1)";
    BITCAST_SHAPE = "bitcast_convert.shape": "bitcast_convert's shapes relate by the element bit widths (C1)";
    BITCAST_COMPLEX = "bitcast_convert.complex": "bitcast_convert does not convert between complex and non-complex (C2)";
    EXPONENT_BITS = "reduce_precision.exponent_bits": "exponent_bits >= 1 (C2)";
    MANTISSA_BITS = "reduce_precision.mantissa_bits": "mantissa_bits >= 0 (C3)";
}


fn same(a: &TensorType, b: &TensorType) -> bool {
    elem_compatible(&a.elem, &b.elem) && shapes_compatible(&a.shape, &b.shape)
}

/// A unary op whose result has the operand's type.
pub(crate) fn unary<'a>(cx: &mut Cx<'a>, op: &'a Op, mask: u8) {
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    cx.elem(op, "operand", &x.elem, mask);
    if !same(x, r) {
        cx.fail(op, SAME_TYPE, format!("operand and result must have the same type, got {} and {}", fmt::tensor(x), fmt::tensor(r)));
    }
}

/// A binary op whose operands and result share one type.
pub(crate) fn binary<'a>(cx: &mut Cx<'a>, op: &'a Op, mask: u8) {
    let (Some(l), Some(rhs), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else {
        return;
    };
    cx.elem(op, "operand", &l.elem, mask);
    if !same(l, rhs) || !same(l, r) {
        cx.fail(
            op,
            SAME_TYPE,
            format!("operands and result must have the same type, got {}, {} and {}", fmt::tensor(l), fmt::tensor(rhs), fmt::tensor(r)),
        );
    }
}

/// The real type of a float or complex element type.
fn real_part(e: &ElementType) -> ElementType {
    match e {
        ElementType::Complex(f) => ElementType::Float(*f),
        other => other.clone(),
    }
}

pub(crate) fn abs<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    cx.elem(op, "operand", &x.elem, class::SINT | class::FLOAT | class::COMPLEX | class::QUANT);
    let want = real_part(&x.elem);
    if !shapes_compatible(&x.shape, &r.shape) || !elem_compatible(&want, &r.elem) {
        cx.fail(op, ABS_RESULT, format!("result type {} must have shape [{}] and element type {}", fmt::tensor(r), fmt::shape(&x.shape), fmt::elem(&want)));
    }
}

pub(crate) fn real_imag<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    if !cx.elem(op, "operand", &x.elem, class::FLOAT | class::COMPLEX) {
        return;
    }
    let want = real_part(&x.elem);
    if !shapes_compatible(&x.shape, &r.shape) || want != r.elem {
        cx.fail(op, REAL_IMAG_RESULT, format!("result type {} must have shape [{}] and element type {}", fmt::tensor(r), fmt::shape(&x.shape), fmt::elem(&want)));
    }
}

pub(crate) fn is_finite<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    cx.elem(op, "operand", &x.elem, class::FLOAT | class::QUANT);
    cx.elem(op, "result", &r.elem, class::BOOL);
    if !shapes_compatible(&x.shape, &r.shape) {
        cx.fail(op, IS_FINITE_SHAPE, format!("operand shape [{}] and result shape [{}] differ", fmt::shape(&x.shape), fmt::shape(&r.shape)));
    }
}

pub(crate) fn compare<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    cx.attr_as(op, "comparison_direction", true, "a comparison direction", |a| match a {
        Attr::ComparisonDirection(d) => Some(*d),
        _ => None,
    });
    let ct = cx.attr_as(op, "compare_type", false, "a comparison type", |a| match a {
        Attr::ComparisonType(t) => Some(*t),
        _ => None,
    });
    let (Some(l), Some(rhs), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else {
        return;
    };
    cx.elem(op, "result", &r.elem, class::BOOL);
    if !elem_compatible(&l.elem, &rhs.elem) {
        cx.fail(op, COMPARE_ELEM, format!("lhs element type {} and rhs element type {} differ", fmt::elem(&l.elem), fmt::elem(&rhs.elem)));
    }
    if !shapes_compatible(&l.shape, &rhs.shape) || !shapes_compatible(&l.shape, &r.shape) {
        cx.fail(
            op,
            COMPARE_SHAPES,
            format!("lhs, rhs and result shapes [{}], [{}] and [{}] differ", fmt::shape(&l.shape), fmt::shape(&rhs.shape), fmt::shape(&r.shape)),
        );
    }
    let Some(ct) = ct else { return };
    use ComparisonType as C;
    let ok = match &l.elem {
        _ if ct == C::NotType => true,
        e if elem_in(e, class::SINT) => ct == C::Signed,
        e if elem_in(e, class::UINT | class::BOOL) => ct == C::Unsigned,
        e if e.is_float() => matches!(ct, C::Float | C::TotalOrder | C::WeakOrder),
        e if e.is_complex() => ct == C::Float,
        _ => true,
    };
    if !ok {
        cx.fail(op, COMPARE_TYPE, format!("compare_type {} is not valid for element type {}", ct.keyword(), fmt::elem(&l.elem)));
    }
}

pub(crate) fn complex<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(l), Some(rhs), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else {
        return;
    };
    if !cx.elem(op, "operand", &l.elem, class::FLOAT) {
        return;
    }
    if !same(l, rhs) {
        cx.fail(op, COMPLEX_OPERANDS, format!("lhs type {} and rhs type {} differ", fmt::tensor(l), fmt::tensor(rhs)));
        return;
    }
    let want = match &l.elem {
        ElementType::Float(f @ (FloatType::F32 | FloatType::F64)) => ElementType::Complex(*f),
        other => {
            cx.fail(op, crate::verify::cx::ELEM_CLASS, format!("operand element type must be f32 or f64, got {}", fmt::elem(other)));
            return;
        }
    };
    if !shapes_compatible(&l.shape, &r.shape) || r.elem != want {
        cx.fail(op, COMPLEX_RESULT, format!("result type {} must have shape [{}] and element type {}", fmt::tensor(r), fmt::shape(&l.shape), fmt::elem(&want)));
    }
}

pub(crate) fn select<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(p), Some(t), Some(f), Some(r)) =
        (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_opd(op, 2), cx.tensor_res(op, 0))
    else {
        return;
    };
    cx.elem(op, "pred", &p.elem, class::BOOL);
    if p.rank() != 0 && !shapes_compatible(&p.shape, &t.shape) {
        cx.fail(op, SELECT_PRED, format!("pred shape [{}] must be [] or on_true's shape [{}]", fmt::shape(&p.shape), fmt::shape(&t.shape)));
    }
    if !same(t, f) || !same(t, r) {
        cx.fail(op, SELECT_TYPES, format!("on_true, on_false and result must have the same type, got {}, {} and {}", fmt::tensor(t), fmt::tensor(f), fmt::tensor(r)));
    }
}

pub(crate) fn clamp<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(lo), Some(x), Some(hi), Some(r)) =
        (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_opd(op, 2), cx.tensor_res(op, 0))
    else {
        return;
    };
    for (name, b) in [("min", lo), ("max", hi)] {
        if b.rank() != 0 && !shapes_compatible(&b.shape, &x.shape) {
            cx.fail(op, CLAMP_BOUND_SHAPE, format!("{name} shape [{}] must be [] or the operand's shape [{}]", fmt::shape(&b.shape), fmt::shape(&x.shape)));
        }
    }
    if !elem_compatible(&lo.elem, &x.elem) || !elem_compatible(&hi.elem, &x.elem) {
        cx.fail(
            op,
            CLAMP_ELEM,
            format!("min, operand and max element types {}, {} and {} differ", fmt::elem(&lo.elem), fmt::elem(&x.elem), fmt::elem(&hi.elem)),
        );
    }
    if !same(x, r) {
        cx.fail(op, CLAMP_RESULT, format!("operand type {} and result type {} differ", fmt::tensor(x), fmt::tensor(r)));
    }
}

pub(crate) fn convert<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    if !shapes_compatible(&x.shape, &r.shape) {
        cx.fail(op, CONVERT_SHAPE, format!("operand shape [{}] and result shape [{}] differ", fmt::shape(&x.shape), fmt::shape(&r.shape)));
    }
}

pub(crate) fn bitcast_convert<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    if x.elem.is_complex() != r.elem.is_complex() {
        cx.fail(op, BITCAST_COMPLEX, format!("cannot bitcast between {} and {}", fmt::elem(&x.elem), fmt::elem(&r.elem)));
        return;
    }
    let (eb, rb) = (x.elem.bits() as i64, r.elem.bits() as i64);
    let (xs, rs) = (&x.shape, &r.shape);
    let ok = if eb == rb {
        shapes_compatible(xs, rs)
    } else if rb < eb {
        rs.len() == xs.len() + 1
            && shapes_compatible(xs, &rs[..xs.len()])
            && (eb % rb == 0 && dim_compatible(rs[xs.len()], eb / rb))
    } else {
        xs.len() == rs.len() + 1
            && shapes_compatible(&xs[..rs.len()], rs)
            && (rb % eb == 0 && dim_compatible(xs[rs.len()], rb / eb))
    };
    if !ok {
        let rule = match eb.cmp(&rb) {
            std::cmp::Ordering::Equal => "the same shape".to_string(),
            std::cmp::Ordering::Greater => format!("the operand's shape plus a last dimension of {}", eb / rb.max(1)),
            std::cmp::Ordering::Less => format!("the operand's shape without its last dimension, which must be {}", rb / eb.max(1)),
        };
        cx.fail(
            op,
            BITCAST_SHAPE,
            format!("converting {}-bit to {}-bit elements needs {rule}, got {} -> {}", eb, rb, fmt::tensor(x), fmt::tensor(r)),
        );
    }
}

pub(crate) fn reduce_precision<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    unary(cx, op, class::FLOAT | class::QUANT);
    if let Some(e) = cx.attr_int(op, "exponent_bits", true) {
        if e < 1 {
            cx.fail(op, EXPONENT_BITS, format!("exponent_bits {e} must be at least 1"));
        }
    }
    if let Some(m) = cx.attr_int(op, "mantissa_bits", true) {
        if m < 0 {
            cx.fail(op, MANTISSA_BITS, format!("mantissa_bits {m} must be non-negative"));
        }
    }
}
