//! `convert` between all element types, `bitcast_convert` across widths and `reduce_precision`.
//!
//! convert: bool -> 0/1; x -> bool is `x != 0` (NaN is true; complex: either part non-zero); integer ->
//! integer wraps to the destination width; integer -> float rounds once to nearest-even (exactly, for any
//! width); float -> float rounds to nearest-even with the destination's
//! overflow rule; float -> integer truncates toward zero and, where the spec leaves it TBD, follows XLA:
//! out-of-range values saturate to the destination's min/max and NaN gives 0; complex -> real takes the
//! real part; real -> complex has a zero imaginary part.

use super::elementwise::{arg, int_bits, mask, out, result_elem, rnd, sx};
use crate::ops::OpCtx;
use crate::tensor::{Data, RtValue};
use oxhlo_ir::{ElementType, FloatType, Type};

/// A signed integer rounded once to `ft` (exactly rounded for every width, no double rounding).
pub(crate) fn int_to_float(v: i64, ft: FloatType) -> f64 {
    match ft {
        FloatType::F64 => v as f64,
        FloatType::F32 => v as f32 as f64,
        _ => oxhlo_dtype::decode(ft.format(), oxhlo_dtype::encode_i128(ft.format(), v as i128)),
    }
}

/// An unsigned integer rounded once to `ft`.
pub(crate) fn uint_to_float(v: u64, ft: FloatType) -> f64 {
    match ft {
        FloatType::F64 => v as f64,
        FloatType::F32 => v as f32 as f64,
        _ => oxhlo_dtype::decode(ft.format(), oxhlo_dtype::encode_i128(ft.format(), v as i128)),
    }
}

/// Float to a signed integer of `bits`: truncation, saturation, NaN -> 0.
#[inline(always)]
fn float_to_int(x: f64, bits: u32) -> i64 {
    let lo = sx(1i64 << (bits - 1).min(63), bits);
    let hi = if bits >= 64 { i64::MAX } else { (1i64 << (bits - 1)) - 1 };
    (x as i64).clamp(lo, hi)
}

/// Float to an unsigned integer of `bits`: truncation, saturation, NaN -> 0.
#[inline(always)]
fn float_to_uint(x: f64, bits: u32) -> u64 {
    (x as u64).min(mask(u64::MAX, bits))
}

/// The storage a quantized type uses, else the type itself.
fn storage_of(e: &ElementType) -> &ElementType {
    match e {
        ElementType::Quant(q) => &q.storage,
        other => other,
    }
}

/// Converts storage of element type `from` into element type `to`.
pub(crate) fn convert_data(data: &Data, from: &ElementType, to: &ElementType) -> Result<Data, String> {
    let to = storage_of(to);
    let from = storage_of(from);
    Ok(match to {
        ElementType::Bool => Data::Bool(match data {
            Data::Bool(v) => v.clone(),
            Data::Int(v) => v.iter().map(|&x| x != 0).collect(),
            Data::UInt(v) => v.iter().map(|&x| x != 0).collect(),
            Data::Float(v) => v.iter().map(|&x| x != 0.0).collect(),
            // complex -> non-complex drops the imaginary part first (as for complex -> int/float),
            // so (0, 1) converts to false (see NOTES.md)
            Data::Complex(v) => v.iter().map(|&(a, _)| a != 0.0).collect(),
        }),
        ElementType::Int { .. } | ElementType::Index if !to.is_unsigned_integer() => {
            let bits = int_bits(to);
            Data::Int(match data {
                Data::Bool(v) => v.iter().map(|&x| x as i64).collect(),
                Data::Int(v) => v.iter().map(|&x| sx(x, bits)).collect(),
                Data::UInt(v) => v.iter().map(|&x| sx(x as i64, bits)).collect(),
                Data::Float(v) => v.iter().map(|&x| float_to_int(x, bits)).collect(),
                Data::Complex(v) => v.iter().map(|&(a, _)| float_to_int(a, bits)).collect(),
            })
        }
        ElementType::Int { .. } => {
            let bits = int_bits(to);
            Data::UInt(match data {
                Data::Bool(v) => v.iter().map(|&x| x as u64).collect(),
                Data::Int(v) => v.iter().map(|&x| mask(x as u64, bits)).collect(),
                Data::UInt(v) => v.iter().map(|&x| mask(x, bits)).collect(),
                Data::Float(v) => v.iter().map(|&x| float_to_uint(x, bits)).collect(),
                Data::Complex(v) => v.iter().map(|&(a, _)| float_to_uint(a, bits)).collect(),
            })
        }
        ElementType::Float(ft) => Data::Float(to_float(data, *ft)),
        ElementType::Complex(ft) => match data {
            Data::Complex(v) => Data::Complex(v.iter().map(|&(a, b)| (rnd(*ft, a), rnd(*ft, b))).collect()),
            other => Data::Complex(to_float(other, *ft).into_iter().map(|x| (x, 0.0)).collect()),
        },
        other => {
            return Err(format!(
                "cannot convert {} to {}",
                crate::testing::elem_string(from),
                crate::testing::elem_string(other)
            ))
        }
    })
}

fn to_float(data: &Data, ft: FloatType) -> Vec<f64> {
    match data {
        Data::Bool(v) => v.iter().map(|&x| rnd(ft, x as u8 as f64)).collect(),
        Data::Int(v) => v.iter().map(|&x| int_to_float(x, ft)).collect(),
        Data::UInt(v) => v.iter().map(|&x| uint_to_float(x, ft)).collect(),
        Data::Float(v) => v.iter().map(|&x| rnd(ft, x)).collect(),
        Data::Complex(v) => v.iter().map(|&(a, _)| rnd(ft, a)).collect(),
    }
}

/// `stablehlo.convert`.
pub fn eval_convert(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let x = arg(args, 0)?;
    let to = result_elem(ctx, 0)?;
    let data = convert_data(&x.data, &x.ty.elem, &to)?;
    Ok(vec![out(&x.ty.shape, to, data)])
}

/// Bit width of one element as bitcast_convert sees it.
fn elem_bits(e: &ElementType) -> u32 {
    match e {
        ElementType::Quant(q) => q.storage.bits(),
        other => other.bits(),
    }
}

/// The bit pattern of every element (complex: real part in the low half).
fn to_bits(data: &Data, elem: &ElementType) -> Result<Vec<u128>, String> {
    let bits = elem_bits(elem);
    Ok(match data {
        Data::Bool(v) => v.iter().map(|&b| b as u128).collect(),
        Data::Int(v) => v.iter().map(|&x| mask(x as u64, bits) as u128).collect(),
        Data::UInt(v) => v.iter().map(|&x| mask(x, bits) as u128).collect(),
        Data::Float(v) => {
            let fmt = elem.float_type().ok_or("float storage without a float type")?.format();
            v.iter().map(|&x| oxhlo_dtype::encode(fmt, x) as u128).collect()
        }
        Data::Complex(v) => {
            let fmt = elem.float_type().ok_or("complex storage without a complex type")?.format();
            let half = bits / 2;
            v.iter()
                .map(|&(a, b)| (oxhlo_dtype::encode(fmt, a) as u128) | ((oxhlo_dtype::encode(fmt, b) as u128) << half))
                .collect()
        }
    })
}

/// Elements of `elem` from bit patterns.
fn from_bits(bits: &[u128], elem: &ElementType) -> Result<Data, String> {
    let w = elem_bits(elem);
    let lowmask = |x: u128, n: u32| if n >= 128 { x } else { x & ((1u128 << n) - 1) };
    let st = storage_of(elem);
    Ok(match st {
        ElementType::Bool => Data::Bool(bits.iter().map(|&b| b & 1 == 1).collect()),
        ElementType::Int { .. } | ElementType::Index => {
            if st.is_unsigned_integer() {
                Data::UInt(bits.iter().map(|&b| lowmask(b, w) as u64).collect())
            } else {
                Data::Int(bits.iter().map(|&b| sx(lowmask(b, w) as u64 as i64, w)).collect())
            }
        }
        ElementType::Float(ft) => {
            let fmt = ft.format();
            Data::Float(bits.iter().map(|&b| oxhlo_dtype::decode(fmt, lowmask(b, w) as u64)).collect())
        }
        ElementType::Complex(ft) => {
            let fmt = ft.format();
            let half = w / 2;
            Data::Complex(
                bits.iter()
                    .map(|&b| {
                        let re = lowmask(b, half) as u64;
                        let im = lowmask(b >> half, half) as u64;
                        (oxhlo_dtype::decode(fmt, re), oxhlo_dtype::decode(fmt, im))
                    })
                    .collect(),
            )
        }
        ElementType::Quant(_) => return Err("nested quantized storage".into()),
    })
}

/// `stablehlo.bitcast_convert`: same width elementwise; a wider operand splits into a new last dimension
/// of narrower elements (least significant bits first); a narrower operand's last dimension is merged.
pub fn eval_bitcast_convert(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let x = arg(args, 0)?;
    let to = result_elem(ctx, 0)?;
    let (wi, wo) = (elem_bits(&x.ty.elem), elem_bits(&to));
    let src = to_bits(&x.data, &x.ty.elem)?;
    let mut shape = x.ty.shape.clone();
    let bits: Vec<u128> = if wi == wo {
        src
    } else if wi > wo {
        if wi % wo != 0 {
            return Err(format!("cannot split {wi}-bit elements into {wo}-bit ones"));
        }
        let k = wi / wo;
        shape.push(k as i64);
        let m = if wo >= 128 { u128::MAX } else { (1u128 << wo) - 1 };
        src.iter().flat_map(|&b| (0..k).map(move |j| (b >> (j * wo)) & m)).collect()
    } else {
        if wo % wi != 0 {
            return Err(format!("cannot merge {wi}-bit elements into {wo}-bit ones"));
        }
        let k = (wo / wi) as usize;
        if shape.last().copied() != Some(k as i64) {
            return Err(format!("merging {wi}-bit into {wo}-bit elements needs a last dimension of {k}, got {shape:?}"));
        }
        shape.pop();
        src.chunks(k)
            .map(|c| c.iter().enumerate().fold(0u128, |acc, (j, &b)| acc | (b << (j as u32 * wi))))
            .collect()
    };
    let data = from_bits(&bits, &to)?;
    Ok(vec![out(&shape, to, data)])
}

/// `stablehlo.reduce_precision`.
pub fn eval_reduce_precision(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let x = arg(args, 0)?;
    let eb = ctx.op.attr("exponent_bits").and_then(|a| a.as_int()).ok_or("missing exponent_bits")?;
    let mb = ctx.op.attr("mantissa_bits").and_then(|a| a.as_int()).ok_or("missing mantissa_bits")?;
    if !(1..=64).contains(&eb) || !(0..=64).contains(&mb) {
        return Err(format!("exponent_bits {eb} / mantissa_bits {mb} out of range"));
    }
    let Data::Float(v) = &x.data else { return Err("reduce_precision needs a float operand".into()) };
    let ft = x.ty.elem.float_type().ok_or("reduce_precision needs a float operand")?;
    let fmt = ft.format();
    let (eb, mb) = (eb as i32, mb as i32);
    let data = v
        .iter()
        .map(|&y| {
            // With no mantissa bit left a NaN cannot stay a NaN: like XLA (and the StableHLO interpreter)
            // it becomes the infinity of its sign, where the type has one (see NOTES.md).
            if y.is_nan() && mb == 0 && fmt.has_inf() {
                return f64::INFINITY.copysign(y);
            }
            oxhlo_dtype::decode(fmt, oxhlo_dtype::reduce_precision(fmt, oxhlo_dtype::encode(fmt, y), eb, mb))
        })
        .collect();
    let res = match ctx.result_types.first() {
        Some(Type::Tensor(t)) => t.elem.clone(),
        _ => x.ty.elem.clone(),
    };
    Ok(vec![out(&x.ty.shape, res, Data::Float(data))])
}
