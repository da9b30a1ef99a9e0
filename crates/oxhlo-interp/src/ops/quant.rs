//! Uniform quantization: `uniform_quantize`, `uniform_dequantize`, and the spec's `quantize` /
//! `dequantize` helpers used by `dequantize_op_quantize` for ops on quantized tensors. Per-tensor and
//! per-axis parameters are both supported; scales are rounded to the expressed type.
//!
//! `dequantize(x) = convert(x - zero_point, expressed) * scale` (the subtraction is done exactly rather
//! than in the storage type, where the spec's formula could overflow).
//! `quantize(x) = round_nearest_even(clamp(min, x / scale + zero_point, max))`, each step rounded to the
//! expressed type.

use super::elementwise::{arg, rnd};
use crate::ops::OpCtx;
use crate::tensor::{Data, RtValue, Tensor};
use oxhlo_ir::{ElementType, FloatType, QuantType, TensorType, Type};

fn quant_of(elem: &ElementType) -> Result<&QuantType, String> {
    match elem {
        ElementType::Quant(q) => Ok(q),
        other => Err(format!("expected a quantized element type, got {}", crate::testing::elem_string(other))),
    }
}

fn expressed_ft(q: &QuantType) -> Result<FloatType, String> {
    match q.expressed {
        ElementType::Float(f) => Ok(f),
        _ => Err("the expressed type of a quantized type must be a float type".into()),
    }
}

/// For element `i` (row-major) of `shape`, which quantization parameter applies.
fn param_index(q: &QuantType, shape: &[i64]) -> Result<Box<dyn Fn(usize) -> usize>, String> {
    match q.quantized_dimension {
        None => {
            if q.scales.is_empty() || q.zero_points.is_empty() {
                return Err("quantized type without scale or zero point".into());
            }
            Ok(Box::new(|_| 0))
        }
        Some(d) => {
            let d = usize::try_from(d).ok().filter(|&d| d < shape.len()).ok_or_else(|| {
                format!("quantization dimension {d} out of range for rank {}", shape.len())
            })?;
            let dim = shape[d].max(0) as usize;
            if q.scales.len() != dim || q.zero_points.len() != dim {
                return Err(format!(
                    "per-axis quantization has {} scales and {} zero points for dimension size {dim}",
                    q.scales.len(),
                    q.zero_points.len()
                ));
            }
            let inner: usize = shape[d + 1..].iter().map(|&x| x.max(0) as usize).product();
            Ok(Box::new(move |i| (i / inner.max(1)) % dim.max(1)))
        }
    }
}

/// The storage integers of a quantized tensor as i64.
fn storage_values(t: &Tensor) -> Result<Vec<i64>, String> {
    match &t.data {
        Data::Int(v) => Ok(v.clone()),
        Data::UInt(v) => Ok(v.iter().map(|&x| x as i64).collect()),
        _ => Err("quantized tensor without integer storage".into()),
    }
}

/// Dequantizes a quantized tensor into its expressed float type.
pub fn dequantize(t: &Tensor) -> Result<Tensor, String> {
    let q = quant_of(&t.ty.elem)?;
    let ft = expressed_ft(q)?;
    let pick = param_index(q, &t.ty.shape)?;
    let vals = storage_values(t)?;
    let data = vals
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let k = pick(i);
            let scale = rnd(ft, q.scales[k]);
            let diff = rnd(ft, (s as i128 - q.zero_points[k] as i128) as f64);
            rnd(ft, diff * scale)
        })
        .collect();
    Ok(Tensor { ty: TensorType::new(t.ty.shape.clone(), q.expressed.clone()), data: Data::Float(data) })
}

/// Quantizes a float tensor into the quantized type `qty` (whose shape is taken from the operand).
pub fn quantize(t: &Tensor, qty: &TensorType) -> Result<Tensor, String> {
    let q = quant_of(&qty.elem)?;
    let ft = expressed_ft(q)?;
    let xs = match &t.data {
        Data::Float(v) => v,
        _ => return Err("quantize needs a float operand".into()),
    };
    let pick = param_index(q, &t.ty.shape)?;
    let (lo, hi) = q.storage_range();
    let (flo, fhi) = (rnd(ft, lo as f64), rnd(ft, hi as f64));
    let ints: Vec<i64> = xs
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let k = pick(i);
            let scale = rnd(ft, q.scales[k]);
            let zp = rnd(ft, q.zero_points[k] as f64);
            let v = rnd(ft, rnd(ft, x / scale) + zp);
            let v = if v.is_nan() { v } else { v.max(flo).min(fhi) };
            let r = v.round_ties_even();
            if r.is_nan() {
                0
            } else {
                (r as i64).clamp(lo, hi)
            }
        })
        .collect();
    let signed = !q.storage.is_unsigned_integer();
    let data = if signed { Data::Int(ints) } else { Data::UInt(ints.into_iter().map(|x| x as u64).collect()) };
    let mut ty = qty.clone();
    ty.shape = t.ty.shape.clone();
    ty.encoding = None;
    Ok(Tensor { ty, data })
}

/// `stablehlo.uniform_quantize`: float -> quantized, or quantized -> quantized (requantize).
pub fn eval_uniform_quantize(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let x = arg(args, 0)?;
    let rty = match ctx.result_types.first() {
        Some(Type::Tensor(t)) => t.clone(),
        _ => return Err("uniform_quantize needs a ranked tensor result".into()),
    };
    let f = if x.ty.elem.is_quantized() { dequantize(x)? } else { x.clone() };
    Ok(vec![RtValue::Tensor(quantize(&f, &rty)?)])
}

/// `stablehlo.uniform_dequantize`: quantized -> expressed float type.
pub fn eval_uniform_dequantize(_ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let x = arg(args, 0)?;
    Ok(vec![RtValue::Tensor(dequantize(x)?)])
}
