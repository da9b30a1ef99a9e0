//! Elementwise ops: the shared driver. Every unary op is a [`Un`] and every binary op a [`Bin`]; the driver
//! picks the typed kernel once per op from the operand storage (bool / signed / unsigned / float / complex)
//! and the kernels run tight loops over whole vectors. Quantized operands go through
//! dequantize -> op -> quantize, as the spec's `dequantize_op_quantize` says.
//!
//! Kernels live in `elementwise_int.rs` (bool and integers of every width), `elementwise_float.rs`,
//! `complex.rs` and `math_special.rs`.

use crate::ops::{elementwise_float as fl, elementwise_int as int, quant, OpCtx};
use crate::tensor::{Data, RtValue, Tensor};
use oxhlo_ir::{ElementType, FloatType, TensorType, Type};

/// Unary elementwise ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Un {
    Abs,
    Neg,
    Sign,
    Not,
    Popcnt,
    Clz,
    Sqrt,
    Rsqrt,
    Cbrt,
    Exp,
    Expm1,
    Log,
    Log1p,
    Logistic,
    Sin,
    Cos,
    Tan,
    Tanh,
    Floor,
    Ceil,
    RoundAfz,
    RoundEven,
    IsFinite,
    Real,
    Imag,
    Acos,
    Acosh,
    Asin,
    Asinh,
    Atan,
    Atanh,
    Cosh,
    Sinh,
    Conj,
    Square,
    Erf,
    Erfc,
    ErfInv,
    Lgamma,
    Digamma,
    BesselI1e,
    IsInf,
    IsNegInf,
    IsPosInf,
}

/// Binary elementwise ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
    Max,
    Min,
    And,
    Or,
    Xor,
    Shl,
    ShrA,
    ShrL,
    Atan2,
    Complex,
    NextAfter,
    Polygamma,
    Zeta,
}

impl Un {
    /// Ops whose result is a boolean whatever the operand.
    fn is_predicate(self) -> bool {
        matches!(self, Un::IsFinite | Un::IsInf | Un::IsNegInf | Un::IsPosInf)
    }
}

/// The `i`-th operand as a tensor.
pub(crate) fn arg(args: &[RtValue], i: usize) -> Result<&Tensor, String> {
    match args.get(i) {
        Some(RtValue::Tensor(t)) => Ok(t),
        Some(_) => Err(format!("operand #{i} must be a tensor")),
        None => Err(format!("missing operand #{i} (got {})", args.len())),
    }
}

/// The declared element type of result `i`.
pub(crate) fn result_elem(ctx: &OpCtx, i: usize) -> Result<ElementType, String> {
    match ctx.result_types.get(i) {
        Some(Type::Tensor(t)) => Ok(t.elem.clone()),
        Some(Type::UnrankedTensor(e)) => Ok(e.clone()),
        Some(other) => Err(format!("result #{i} must be a tensor, declared {other:?}")),
        None => Err(format!("missing result type #{i}")),
    }
}

/// A result tensor of the given shape and element type.
pub(crate) fn out(shape: &[i64], elem: ElementType, data: Data) -> RtValue {
    RtValue::Tensor(Tensor { ty: TensorType::new(shape.to_vec(), elem), data })
}

/// Element `i` of `t` as a rank-0 tensor.
pub(crate) fn scalar_at(t: &Tensor, i: usize) -> Tensor {
    let data = match &t.data {
        Data::Bool(v) => Data::Bool(vec![v[i]]),
        Data::Int(v) => Data::Int(vec![v[i]]),
        Data::UInt(v) => Data::UInt(vec![v[i]]),
        Data::Float(v) => Data::Float(vec![v[i]]),
        Data::Complex(v) => Data::Complex(vec![v[i]]),
    };
    Tensor { ty: TensorType::new(Vec::new(), t.ty.elem.clone()), data }
}

/// Sign-extends the low `bits` of `v`.
#[inline(always)]
pub(crate) fn sx(v: i64, bits: u32) -> i64 {
    if bits >= 64 {
        v
    } else if bits == 0 {
        0
    } else {
        let s = 64 - bits;
        (v << s) >> s
    }
}

/// Keeps the low `bits` of `v`.
#[inline(always)]
pub(crate) fn mask(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// Bit width of an integer-like element type's storage.
pub(crate) fn int_bits(elem: &ElementType) -> u32 {
    crate::tensor::int_layout(elem).0.clamp(1, 64)
}

/// The float type of a float or complex element type (an error for others).
pub(crate) fn float_of(elem: &ElementType) -> Result<FloatType, String> {
    elem.float_type().ok_or_else(|| format!("expected a float or complex element type, got {}", elem_name(elem)))
}

/// A short MLIR-like spelling of an element type, for messages.
pub(crate) fn elem_name(elem: &ElementType) -> String {
    crate::testing::elem_string(elem)
}

/// Checks that storage and the declared result element type agree.
fn checked(data: Data, elem: &ElementType, what: &str) -> Result<Data, String> {
    if crate::eval::data_fits(elem, &data) {
        Ok(data)
    } else {
        Err(format!("{what}: the declared result element type {} does not fit the op's result", elem_name(elem)))
    }
}

fn has_quant(args: &[RtValue], res: &ElementType) -> bool {
    res.is_quantized() || args.iter().any(|a| matches!(a, RtValue::Tensor(t) if t.ty.elem.is_quantized()))
}

/// An op evaluation function, as the dispatcher calls it.
pub(crate) type EvalFn<'f> = &'f dyn Fn(&mut OpCtx, &[RtValue]) -> Result<Vec<RtValue>, String>;

/// Runs `f` on dequantized operands with a float result type, then quantizes to the declared result type.
pub(crate) fn dequantize_op_quantize(
    ctx: &mut OpCtx,
    args: &[RtValue],
    f: EvalFn,
) -> Result<Vec<RtValue>, String> {
    let mut fargs = Vec::with_capacity(args.len());
    for a in args {
        fargs.push(match a {
            RtValue::Tensor(t) if t.ty.elem.is_quantized() => RtValue::Tensor(quant::dequantize(t)?),
            other => other.clone(),
        });
    }
    let res_elem = result_elem(ctx, 0)?;
    let res_ty = match ctx.result_types.first() {
        Some(Type::Tensor(t)) => t.clone(),
        _ => return Err("quantized ops need a ranked tensor result".into()),
    };
    let float_ty = match &res_elem {
        ElementType::Quant(q) => Type::Tensor(TensorType::new(res_ty.shape.clone(), q.expressed.clone())),
        _ => Type::Tensor(res_ty.clone()),
    };
    let results = {
        let mut sub = OpCtx { op: ctx.op, func: ctx.func, result_types: vec![&float_ty], regions: &mut *ctx.regions };
        f(&mut sub, &fargs)?
    };
    let r = match results.into_iter().next() {
        Some(RtValue::Tensor(t)) => t,
        _ => return Err("quantized op produced no tensor".into()),
    };
    if res_elem.is_quantized() {
        let mut qty = res_ty;
        qty.shape = r.ty.shape.clone();
        qty.encoding = None;
        Ok(vec![RtValue::Tensor(quant::quantize(&r, &qty)?)])
    } else {
        Ok(vec![RtValue::Tensor(r)])
    }
}

/// Evaluates a unary elementwise op.
pub fn eval_unary(ctx: &mut OpCtx, args: &[RtValue], op: Un) -> Result<Vec<RtValue>, String> {
    let res_elem = result_elem(ctx, 0)?;
    if has_quant(args, &res_elem) {
        return dequantize_op_quantize(ctx, args, &|c, a| eval_unary(c, a, op));
    }
    let x = arg(args, 0)?;
    let data = unary_data(op, &x.ty.elem, &x.data, &res_elem)?;
    let data = checked(data, &res_elem, &format!("{op:?}"))?;
    Ok(vec![out(&x.ty.shape, res_elem, data)])
}

/// The unary kernel for one operand storage.
pub(crate) fn unary_data(op: Un, elem: &ElementType, data: &Data, res: &ElementType) -> Result<Data, String> {
    let unsupported = || format!("{op:?} is not defined on {}", elem_name(elem));
    match data {
        Data::Float(v) => {
            let ft = float_of(elem)?;
            if op.is_predicate() {
                return fl::predicate(op, ft, v).ok_or_else(unsupported);
            }
            if matches!(op, Un::Real | Un::Conj) {
                return Ok(Data::Float(v.clone()));
            }
            if op == Un::Imag {
                return Ok(Data::Float(vec![0.0; v.len()]));
            }
            fl::unary(op, ft, v).map(Data::Float).ok_or_else(unsupported)
        }
        Data::Complex(v) => {
            let ft = float_of(elem)?;
            crate::ops::complex::unary(op, ft, v, res).ok_or_else(unsupported)
        }
        Data::Int(v) => int::unary_signed(op, int_bits(elem), v).ok_or_else(unsupported),
        Data::UInt(v) => int::unary_unsigned(op, int_bits(elem), v).ok_or_else(unsupported),
        Data::Bool(v) => int::unary_bool(op, v).ok_or_else(unsupported),
    }
}

/// Evaluates a binary elementwise op (operands of one shape).
pub fn eval_binary(ctx: &mut OpCtx, args: &[RtValue], op: Bin) -> Result<Vec<RtValue>, String> {
    let res_elem = result_elem(ctx, 0)?;
    if has_quant(args, &res_elem) {
        return dequantize_op_quantize(ctx, args, &|c, a| eval_binary(c, a, op));
    }
    let (a, b) = (arg(args, 0)?, arg(args, 1)?);
    if a.ty.shape != b.ty.shape {
        return Err(format!("operand shapes differ: {:?} vs {:?}", a.ty.shape, b.ty.shape));
    }
    let data = binary_data(op, &a.ty.elem, &a.data, &b.ty.elem, &b.data)?;
    let data = checked(data, &res_elem, &format!("{op:?}"))?;
    Ok(vec![out(&a.ty.shape, res_elem, data)])
}

/// The binary kernel for one pair of operand storages of the same length.
pub(crate) fn binary_data(op: Bin, ea: &ElementType, a: &Data, eb: &ElementType, b: &Data) -> Result<Data, String> {
    if a.len() != b.len() {
        return Err(format!("operands have {} and {} elements", a.len(), b.len()));
    }
    let unsupported = || format!("{op:?} is not defined on {}", elem_name(ea));
    // Shift amounts and exponents of mixed-sign pairs never occur in valid programs; the lhs type rules.
    match (a, b) {
        (Data::Float(x), Data::Float(y)) => {
            let ft = float_of(ea)?;
            if op == Bin::Complex {
                let r = x.iter().zip(y).map(|(&p, &q)| (p, q)).collect();
                return Ok(Data::Complex(r));
            }
            fl::binary(op, ft, x, y).map(Data::Float).ok_or_else(unsupported)
        }
        (Data::Complex(x), Data::Complex(y)) => {
            crate::ops::complex::binary(op, float_of(ea)?, x, y).map(Data::Complex).ok_or_else(unsupported)
        }
        (Data::Int(x), Data::Int(y)) => int::binary_signed(op, int_bits(ea), x, y).ok_or_else(unsupported),
        (Data::UInt(x), Data::UInt(y)) => int::binary_unsigned(op, int_bits(ea), x, y).ok_or_else(unsupported),
        (Data::Bool(x), Data::Bool(y)) => int::binary_bool(op, x, y).ok_or_else(unsupported),
        _ => Err(format!("{op:?}: operand element types differ ({} vs {})", elem_name(ea), elem_name(eb))),
    }
}

/// Maps a float vector through `f` and rounds every result to `ft` (typed loop per rounding kind).
#[inline]
pub(crate) fn map_f(v: &[f64], ft: FloatType, f: impl Fn(f64) -> f64) -> Vec<f64> {
    match ft {
        FloatType::F64 => v.iter().map(|&x| f(x)).collect(),
        FloatType::F32 => v.iter().map(|&x| f(x) as f32 as f64).collect(),
        _ => {
            let fmt = ft.format();
            v.iter().map(|&x| oxhlo_dtype::decode(fmt, oxhlo_dtype::encode(fmt, f(x)))).collect()
        }
    }
}

/// Zips two float vectors through `f` and rounds every result to `ft`.
#[inline]
pub(crate) fn zip_f(a: &[f64], b: &[f64], ft: FloatType, f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    match ft {
        FloatType::F64 => a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect(),
        FloatType::F32 => a.iter().zip(b).map(|(&x, &y)| f(x, y) as f32 as f64).collect(),
        _ => {
            let fmt = ft.format();
            a.iter().zip(b).map(|(&x, &y)| oxhlo_dtype::decode(fmt, oxhlo_dtype::encode(fmt, f(x, y)))).collect()
        }
    }
}

/// Rounds one value to `ft`.
#[inline(always)]
pub(crate) fn rnd(ft: FloatType, x: f64) -> f64 {
    match ft {
        FloatType::F64 => x,
        FloatType::F32 => x as f32 as f64,
        _ => crate::tensor::round_to(ft, x),
    }
}
