//! Well-formedness of the type of every value: value types only (no function types), non-negative
//! dimension sizes, and the spec's constraints on quantized element types and quantized tensors
//! (storage narrower than expressed, storage range, positive finite scales, zero points in range,
//! per-axis parameters matching the quantized dimension).

use crate::attr::Attr;
use crate::body::Value;
use crate::location::Location;
use crate::types::{ElementType, QuantType, TensorType, Type, DYN};
use crate::verify::cx::Cx;
use crate::verify::fmt;

rules! {
    VALUE_TYPE = "type.value": "values have value types (tensor, token, tuple), not function types";
    DIM_SIZE = "type.dimension": "tensor dimension sizes are non-negative or dynamic";
    QUANT_KINDS = "type.quant_kinds": "a quantized type stores an integer type and expresses a float type";
    QUANT_BITS = "type.quant_bits": "num_bits(storage_type) <= num_bits(expressed_type) (C1, relaxed to admit the common i32:f32 accumulators)";
    QUANT_RANGE = "type.quant_storage_range": "min_value(storage_type) <= storage_min < storage_max <= max_value(storage_type) (C4)";
    QUANT_SCALE = "type.quant_scale": "scales are positive and finite (C6, C7)";
    QUANT_ZERO_POINT = "type.quant_zero_point": "storage_min <= zero_points[i] <= storage_max (C8)";
    QUANT_PARAM_COUNT = "type.quant_param_count": "size(scales) = size(zero_points) (C10)";
    QUANT_PER_TENSOR = "type.quant_per_tensor": "a per-tensor quantized type has exactly one scale (C11)";
    QUANT_AXIS = "type.quant_axis": "0 <= quantization_dimension < rank (C12)";
    QUANT_AXIS_SIZE = "type.quant_axis_size": "size(scales) = dim(tensor, quantization_dimension) (C13)";
    BOUNDS = "type.bounds": "#stablehlo.bounds has one entry per dimension: ? for static ones, a non-negative bound (or ?) for dynamic ones";
}

/// Checks the type `t` of value `v`, reporting at `loc` as `what`.
pub(crate) fn check_value_type(cx: &mut Cx, loc: &Location, what: &str, v: Value, t: &Type) {
    match t {
        Type::Function(_) => {
            cx.fail_at(loc, what, VALUE_TYPE, format!("value %{} has function type {}, which is not a value type", v.0, fmt::ty(t)))
        }
        Type::Tuple(items) => items.iter().for_each(|i| check_value_type(cx, loc, what, v, i)),
        Type::Tensor(tt) => tensor(cx, loc, what, v, tt),
        Type::UnrankedTensor(ElementType::Quant(q)) => quant(cx, loc, what, q, None),
        _ => {}
    }
}

fn tensor(cx: &mut Cx, loc: &Location, what: &str, v: Value, t: &TensorType) {
    if let Some(&d) = t.shape.iter().find(|&&d| d < 0 && d != DYN) {
        cx.fail_at(loc, what, DIM_SIZE, format!("value %{} has negative dimension size {d}", v.0));
    }
    if let ElementType::Quant(q) = &t.elem {
        quant(cx, loc, what, q, Some(&t.shape));
    }
    if let Some(Attr::Bounds(b)) = t.encoding.as_deref() {
        let msg = if b.len() != t.rank() {
            Some(format!("has {} bounds but rank {}", b.len(), t.rank()))
        } else if let Some((i, &bd)) = b.iter().enumerate().find(|(i, &bd)| t.shape[*i] != DYN && bd != DYN) {
            Some(format!("bounds static dimension {i} (size {}) by {bd}; static dimensions take ?", t.shape[i]))
        } else {
            b.iter().find(|&&bd| bd != DYN && bd < 0).map(|bd| format!("has negative bound {bd}"))
        };
        if let Some(msg) = msg {
            cx.fail_at(loc, what, BOUNDS, format!("value %{} of type {} {msg}", v.0, fmt::ty(&Type::Tensor(t.clone()))));
        }
    }
}

fn quant(cx: &mut Cx, loc: &Location, what: &str, q: &QuantType, shape: Option<&[i64]>) {
    let fail = |cx: &mut Cx, rule: crate::verify::Rule, msg: String| {
        let name = fmt::elem(&ElementType::Quant(Box::new(q.clone())));
        cx.fail_at(loc, what, rule, format!("{name}: {msg}"))
    };
    if !q.storage.is_integer() || !(2..=64).contains(&q.storage.bits()) || !q.expressed.is_float() {
        fail(
            cx,
            QUANT_KINDS,
            format!("storage type {} must be an integer and expressed type {} a float", fmt::elem(&q.storage), fmt::elem(&q.expressed)),
        );
        return;
    }
    if q.storage.bits() > q.expressed.bits() {
        fail(
            cx,
            QUANT_BITS,
            format!("storage type {} must not be wider than expressed type {}", fmt::elem(&q.storage), fmt::elem(&q.expressed)),
        );
    }
    let (lo, hi) = q.storage.int_range().unwrap_or((i64::MIN, i64::MAX));
    let (smin, smax) = q.storage_range();
    if smin < lo || smax > hi || smin >= smax {
        fail(cx, QUANT_RANGE, format!("storage range [{smin}, {smax}] must be a non-empty part of [{lo}, {hi}]"));
    }
    if let Some(s) = q.scales.iter().find(|s| !(s.is_finite() && **s > 0.0)) {
        fail(cx, QUANT_SCALE, format!("scale {s} must be positive and finite"));
    }
    if let Some(z) = q.zero_points.iter().find(|z| **z < smin || **z > smax) {
        fail(cx, QUANT_ZERO_POINT, format!("zero point {z} is outside the storage range [{smin}, {smax}]"));
    }
    if q.scales.len() != q.zero_points.len() {
        fail(cx, QUANT_PARAM_COUNT, format!("{} scales but {} zero points", q.scales.len(), q.zero_points.len()));
    }
    match q.quantized_dimension {
        None if q.scales.len() != 1 => {
            fail(cx, QUANT_PER_TENSOR, format!("per-tensor quantization needs one scale, got {}", q.scales.len()))
        }
        None => {}
        Some(axis) => {
            let Some(shape) = shape else { return };
            if axis < 0 || axis as u64 >= shape.len() as u64 {
                fail(cx, QUANT_AXIS, format!("quantization dimension {axis} is out of range [0, {})", shape.len()));
            } else {
                let d = shape[axis as usize];
                if d != DYN && d != q.scales.len() as i64 {
                    fail(
                        cx,
                        QUANT_AXIS_SIZE,
                        format!("{} scales but quantization dimension {axis} has size {d}", q.scales.len()),
                    );
                }
            }
        }
    }
}
