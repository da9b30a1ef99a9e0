//! `compare` (every direction and comparison type, TOTALORDER and WEAKORDER included), `select` and `clamp` (with
//! rank-0 bounds broadcast), on every element type; quantized operands are dequantized as the spec's
//! `dequantize_compare` / `dequantize_select_quantize` say.

use super::elementwise::{arg, binary_data, dequantize_op_quantize, elem_name, int_bits, mask, out, result_elem, sx, Bin};
use super::elementwise_float::IeeeFloat;
use super::quant;
use crate::ops::OpCtx;
use crate::tensor::{Data, RtValue, Tensor};
use oxhlo_ir::attr::{ComparisonDirection as Dir, ComparisonType as CmpTy};
use oxhlo_ir::ElementType;
use std::cmp::Ordering;

/// Reads the comparison direction and type attributes.
pub(crate) fn compare_attrs(ctx: &OpCtx) -> Result<(Dir, Option<CmpTy>), String> {
    ctx.op.comparison()
}

/// Whether an ordering (None: unordered) satisfies the comparison direction (unordered: only `NE`).
#[inline(always)]
pub fn holds(dir: Dir, o: Option<Ordering>) -> bool {
    match o {
        None => dir == Dir::Ne,
        Some(o) => match dir {
            Dir::Eq => o == Ordering::Equal,
            Dir::Ne => o != Ordering::Equal,
            Dir::Lt => o == Ordering::Less,
            Dir::Le => o != Ordering::Greater,
            Dir::Gt => o == Ordering::Greater,
            Dir::Ge => o != Ordering::Less,
        },
    }
}

fn cmp_vec<T: Copy>(a: &[T], b: &[T], dir: Dir, f: impl Fn(T, T) -> Option<Ordering>) -> Data {
    Data::Bool(a.iter().zip(b).map(|(&x, &y)| holds(dir, f(x, y))).collect())
}

/// WEAKORDER on floats: a weak order where every NaN (of either sign or payload) is equal to every
/// other NaN and greater than every number, and `-0.0 == +0.0`.
#[inline(always)]
pub fn weak_cmp<F: IeeeFloat>(p: F, q: F) -> Ordering {
    match (p.is_nan(), q.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (false, false) => p.partial_cmp(&q).unwrap_or(Ordering::Equal),
    }
}

/// Compares two storages elementwise.
pub(crate) fn compare_data(dir: Dir, ty: Option<CmpTy>, elem: &ElementType, a: &Data, b: &Data) -> Result<Data, String> {
    if a.len() != b.len() {
        return Err(format!("operands have {} and {} elements", a.len(), b.len()));
    }
    let bits = int_bits(elem);
    Ok(match (a, b) {
        (Data::Int(x), Data::Int(y)) => {
            if ty == Some(CmpTy::Unsigned) {
                cmp_vec(x, y, dir, |p, q| Some(mask(p as u64, bits).cmp(&mask(q as u64, bits))))
            } else {
                cmp_vec(x, y, dir, |p, q| Some(p.cmp(&q)))
            }
        }
        (Data::UInt(x), Data::UInt(y)) => {
            if ty == Some(CmpTy::Signed) {
                cmp_vec(x, y, dir, |p, q| Some(sx(p as i64, bits).cmp(&sx(q as i64, bits))))
            } else {
                cmp_vec(x, y, dir, |p, q| Some(p.cmp(&q)))
            }
        }
        (Data::Bool(x), Data::Bool(y)) => cmp_vec(x, y, dir, |p, q| Some(p.cmp(&q))),
        (Data::Float(x), Data::Float(y)) => {
            if ty == Some(CmpTy::TotalOrder) {
                cmp_vec(x, y, dir, |p: f64, q: f64| Some(p.total_cmp(&q)))
            } else if ty == Some(CmpTy::WeakOrder) {
                cmp_vec(x, y, dir, |p: f64, q: f64| Some(weak_cmp(p, q)))
            } else {
                cmp_vec(x, y, dir, |p: f64, q: f64| p.partial_cmp(&q))
            }
        }
        (Data::Complex(x), Data::Complex(y)) => {
            let total = ty == Some(CmpTy::TotalOrder);
            cmp_vec(x, y, dir, |p: (f64, f64), q: (f64, f64)| {
                if total {
                    Some(p.0.total_cmp(&q.0).then(p.1.total_cmp(&q.1)))
                } else {
                    match p.0.partial_cmp(&q.0)? {
                        Ordering::Equal => p.1.partial_cmp(&q.1),
                        o => {
                            // An ordered real part decides unless the imaginary parts are unordered.
                            p.1.partial_cmp(&q.1)?;
                            Some(o)
                        }
                    }
                }
            })
        }
        _ => return Err(format!("compare: operand element types differ ({})", elem_name(elem))),
    })
}

/// `stablehlo.compare`.
pub fn eval_compare(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let (dir, ty) = compare_attrs(ctx)?;
    let (a, b) = (arg(args, 0)?, arg(args, 1)?);
    if a.ty.shape != b.ty.shape {
        return Err(format!("operand shapes differ: {:?} vs {:?}", a.ty.shape, b.ty.shape));
    }
    let (a, b, ty) = if a.ty.elem.is_quantized() || b.ty.elem.is_quantized() {
        let fa = if a.ty.elem.is_quantized() { quant::dequantize(a)? } else { a.clone() };
        let fb = if b.ty.elem.is_quantized() { quant::dequantize(b)? } else { b.clone() };
        (std::borrow::Cow::Owned(fa), std::borrow::Cow::Owned(fb), Some(CmpTy::Float))
    } else {
        (std::borrow::Cow::Borrowed(a), std::borrow::Cow::Borrowed(b), ty)
    };
    let data = compare_data(dir, ty, &a.ty.elem, &a.data, &b.data)?;
    Ok(vec![out(&a.ty.shape, ElementType::Bool, data)])
}

/// Picks `t[i]` where `pred[i]` (or the scalar pred) holds, else `f[i]`.
pub(crate) fn select_data(pred: &[bool], t: &Data, f: &Data) -> Result<Data, String> {
    fn go<T: Copy>(p: &[bool], t: &[T], f: &[T]) -> Vec<T> {
        if p.len() == 1 && t.len() != 1 {
            return if p[0] { t.to_vec() } else { f.to_vec() };
        }
        p.iter().zip(t.iter().zip(f)).map(|(&c, (&x, &y))| if c { x } else { y }).collect()
    }
    if t.len() != f.len() || (pred.len() != 1 && pred.len() != t.len()) {
        return Err(format!("select: predicate has {} elements, branches {} and {}", pred.len(), t.len(), f.len()));
    }
    Ok(match (t, f) {
        (Data::Bool(x), Data::Bool(y)) => Data::Bool(go(pred, x, y)),
        (Data::Int(x), Data::Int(y)) => Data::Int(go(pred, x, y)),
        (Data::UInt(x), Data::UInt(y)) => Data::UInt(go(pred, x, y)),
        (Data::Float(x), Data::Float(y)) => Data::Float(go(pred, x, y)),
        (Data::Complex(x), Data::Complex(y)) => Data::Complex(go(pred, x, y)),
        _ => return Err("select: on_true and on_false element types differ".into()),
    })
}

/// `stablehlo.select`.
pub fn eval_select(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let pred = arg(args, 0)?;
    let (t, f) = (arg(args, 1)?, arg(args, 2)?);
    let res_elem = result_elem(ctx, 0)?;
    let quantized = t.ty.elem.is_quantized() || f.ty.elem.is_quantized() || res_elem.is_quantized();
    if quantized && !(t.ty.elem == res_elem && f.ty.elem == res_elem) {
        let p = pred.clone();
        return dequantize_op_quantize(ctx, args, &move |c, a| {
            let mut a2 = a.to_vec();
            a2[0] = RtValue::Tensor(p.clone());
            eval_select(c, &a2)
        });
    }
    let Data::Bool(p) = &pred.data else { return Err("select predicate must be i1".into()) };
    if !pred.ty.shape.is_empty() && pred.ty.shape != t.ty.shape {
        return Err(format!("predicate shape {:?} differs from the operands' {:?}", pred.ty.shape, t.ty.shape));
    }
    if t.ty.shape != f.ty.shape {
        return Err(format!("on_true shape {:?} differs from on_false {:?}", t.ty.shape, f.ty.shape));
    }
    let data = select_data(p, &t.data, &f.data)?;
    Ok(vec![out(&t.ty.shape, res_elem, data)])
}

/// Repeats a one-element storage `n` times (for rank-0 clamp bounds).
pub(crate) fn splat(d: &Data, n: usize) -> Data {
    match d {
        Data::Bool(v) => Data::Bool(vec![v[0]; n]),
        Data::Int(v) => Data::Int(vec![v[0]; n]),
        Data::UInt(v) => Data::UInt(vec![v[0]; n]),
        Data::Float(v) => Data::Float(vec![v[0]; n]),
        Data::Complex(v) => Data::Complex(vec![v[0]; n]),
    }
}

fn expand<'a>(t: &'a Tensor, x: &Tensor, what: &str) -> Result<std::borrow::Cow<'a, Data>, String> {
    if t.ty.shape == x.ty.shape {
        Ok(std::borrow::Cow::Borrowed(&t.data))
    } else if t.ty.shape.is_empty() && t.len() == 1 {
        Ok(std::borrow::Cow::Owned(splat(&t.data, x.len())))
    } else {
        Err(format!("clamp {what} has shape {:?}, operand {:?}", t.ty.shape, x.ty.shape))
    }
}

/// `stablehlo.clamp`: `minimum(maximum(operand, min), max)`.
pub fn eval_clamp(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let res_elem = result_elem(ctx, 0)?;
    if res_elem.is_quantized() || args.iter().any(|a| matches!(a, RtValue::Tensor(t) if t.ty.elem.is_quantized())) {
        return dequantize_op_quantize(ctx, args, &|c, a| eval_clamp(c, a));
    }
    let (lo, x, hi) = (arg(args, 0)?, arg(args, 1)?, arg(args, 2)?);
    if x.is_empty() {
        return Ok(vec![out(&x.ty.shape, res_elem, x.data.clone())]);
    }
    let lo_d = expand(lo, x, "min")?;
    let hi_d = expand(hi, x, "max")?;
    let e = &x.ty.elem;
    let m = binary_data(Bin::Max, e, &x.data, e, &lo_d)?;
    let r = binary_data(Bin::Min, e, &m, e, &hi_d)?;
    Ok(vec![out(&x.ty.shape, res_elem, r)])
}
