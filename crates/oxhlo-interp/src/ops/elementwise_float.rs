//! Elementwise kernels on floats of every format. Values are computed in f64 and rounded once to the
//! element type (ties to even, with each format's overflow rule). For f32 and narrower formats this gives
//! correctly rounded `+ - * / sqrt` (f64 has more than twice their precision, so the double rounding is
//! innocuous); f64 itself uses the native operations. `maximum`/`minimum` follow IEEE-754 `maximum` /
//! `minimum`: a NaN operand gives NaN, and -0 < +0.

use super::elementwise::{map_f, zip_f, Bin, Un};
use super::math_special as sp;
use crate::tensor::Data;
use oxhlo_ir::FloatType;

/// The little of a native float type that IEEE `maximum`/`minimum` and the float comparisons need
/// ([`fmax`], [`fmin`], [`super::compare::weak_cmp`]): implemented for f64 (the interpreter's values) and
/// f32 (the CPU backend's f32 lane), so both run the same helpers.
pub trait IeeeFloat: Copy + PartialOrd {
    fn is_nan(self) -> bool;
    fn is_sign_negative(self) -> bool;
}

macro_rules! ieee_float {
    ($($t:ty),*) => {$(
        impl IeeeFloat for $t {
            #[inline(always)]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            #[inline(always)]
            fn is_sign_negative(self) -> bool {
                <$t>::is_sign_negative(self)
            }
        }
    )*};
}
ieee_float!(f32, f64);

/// IEEE-754 `maximum` (a NaN operand gives NaN, -0 < +0). Branch-free once inlined (selects), so loops
/// over it vectorize.
#[inline(always)]
pub fn fmax<F: IeeeFloat>(x: F, y: F) -> F {
    if x.is_nan() {
        x
    } else if y.is_nan() {
        y
    } else if x == y {
        if x.is_sign_negative() {
            y
        } else {
            x
        }
    } else if x > y {
        x
    } else {
        y
    }
}

/// IEEE-754 `minimum` (a NaN operand gives NaN, -0 < +0).
#[inline(always)]
pub fn fmin<F: IeeeFloat>(x: F, y: F) -> F {
    if x.is_nan() {
        x
    } else if y.is_nan() {
        y
    } else if x == y {
        if x.is_sign_negative() {
            x
        } else {
            y
        }
    } else if x < y {
        x
    } else {
        y
    }
}

/// `sign`: NaN stays NaN, zeros keep their sign, otherwise -1 or 1.
#[inline(always)]
pub fn fsign(x: f64) -> f64 {
    if x.is_nan() || x == 0.0 {
        x
    } else {
        x.signum()
    }
}

/// The logistic function 1 / (1 + e^-x), without overflow for large |x|.
pub fn logistic(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// Unary float ops (None for ops not defined on floats).
pub fn unary(op: Un, ft: FloatType, v: &[f64]) -> Option<Vec<f64>> {
    Some(match op {
        Un::Abs => map_f(v, ft, f64::abs),
        Un::Neg => map_f(v, ft, |x| -x),
        Un::Sign => map_f(v, ft, fsign),
        Un::Sqrt => map_f(v, ft, f64::sqrt),
        Un::Rsqrt => map_f(v, ft, |x| 1.0 / x.sqrt()),
        Un::Cbrt => map_f(v, ft, f64::cbrt),
        Un::Exp => map_f(v, ft, f64::exp),
        Un::Expm1 => map_f(v, ft, f64::exp_m1),
        Un::Log => map_f(v, ft, f64::ln),
        Un::Log1p => map_f(v, ft, f64::ln_1p),
        Un::Logistic => map_f(v, ft, logistic),
        Un::Sin => map_f(v, ft, f64::sin),
        Un::Cos => map_f(v, ft, f64::cos),
        Un::Tan => map_f(v, ft, f64::tan),
        Un::Tanh => map_f(v, ft, f64::tanh),
        Un::Floor => map_f(v, ft, f64::floor),
        Un::Ceil => map_f(v, ft, f64::ceil),
        Un::RoundAfz => map_f(v, ft, f64::round),
        Un::RoundEven => map_f(v, ft, f64::round_ties_even),
        Un::Acos => map_f(v, ft, f64::acos),
        Un::Acosh => map_f(v, ft, sp::acosh),
        Un::Asin => map_f(v, ft, f64::asin),
        Un::Asinh => map_f(v, ft, sp::asinh),
        Un::Atan => map_f(v, ft, f64::atan),
        Un::Atanh => map_f(v, ft, sp::atanh),
        Un::Cosh => map_f(v, ft, f64::cosh),
        Un::Sinh => map_f(v, ft, f64::sinh),
        Un::Square => map_f(v, ft, |x| x * x),
        Un::Erf => map_f(v, ft, sp::erf),
        Un::Erfc => map_f(v, ft, sp::erfc),
        Un::ErfInv => map_f(v, ft, sp::erf_inv),
        Un::Lgamma => map_f(v, ft, sp::lgamma),
        Un::Digamma => map_f(v, ft, sp::digamma),
        Un::BesselI1e => map_f(v, ft, sp::bessel_i1e),
        _ => return None,
    })
}

/// Float predicates (`is_finite`, `chlo.is_inf`, ...), giving booleans.
pub fn predicate(op: Un, _ft: FloatType, v: &[f64]) -> Option<Data> {
    let p = |f: fn(f64) -> bool| Data::Bool(v.iter().map(|&x| f(x)).collect());
    Some(match op {
        Un::IsFinite => p(f64::is_finite),
        Un::IsInf => p(f64::is_infinite),
        Un::IsNegInf => p(|x| x == f64::NEG_INFINITY),
        Un::IsPosInf => p(|x| x == f64::INFINITY),
        _ => return None,
    })
}

/// Binary float ops (None for ops not defined on floats).
pub fn binary(op: Bin, ft: FloatType, a: &[f64], b: &[f64]) -> Option<Vec<f64>> {
    Some(match op {
        Bin::Add => zip_f(a, b, ft, |x, y| x + y),
        Bin::Sub => zip_f(a, b, ft, |x, y| x - y),
        Bin::Mul => zip_f(a, b, ft, |x, y| x * y),
        Bin::Div => zip_f(a, b, ft, |x, y| x / y),
        Bin::Rem => zip_f(a, b, ft, |x, y| x % y),
        Bin::Pow => zip_f(a, b, ft, f64::powf),
        Bin::Max => zip_f(a, b, ft, fmax),
        Bin::Min => zip_f(a, b, ft, fmin),
        Bin::Atan2 => zip_f(a, b, ft, f64::atan2),
        Bin::Polygamma => zip_f(a, b, ft, sp::polygamma),
        Bin::Zeta => zip_f(a, b, ft, sp::zeta),
        Bin::NextAfter => {
            let fmt = ft.format();
            a.iter().zip(b).map(|(&x, &y)| next_after(fmt, x, y)).collect()
        }
        _ => return None,
    })
}

/// The next representable value of the format after `x` in the direction of `y`.
pub fn next_after(fmt: &oxhlo_dtype::FloatFormat, x: f64, y: f64) -> f64 {
    use oxhlo_dtype::{decode, encode};
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == y {
        return y;
    }
    let up = y > x;
    if x == 0.0 {
        let neg = !up;
        let bits = fmt.min_positive_bits() | if neg { fmt.sign_mask() } else { 0 };
        return decode(fmt, bits);
    }
    let bits = encode(fmt, x);
    let sign = bits & fmt.sign_mask();
    let mag = bits & fmt.magnitude_mask();
    let away = up == (x > 0.0);
    let mag = if away { mag + 1 } else { mag - 1 };
    if mag == 0 {
        return decode(fmt, fmt.zero_bits(sign != 0).unwrap_or(0));
    }
    decode(fmt, sign | (mag & fmt.magnitude_mask()))
}
