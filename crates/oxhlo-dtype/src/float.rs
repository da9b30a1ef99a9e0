//! Exact conversions between `f64` and any [`FloatFormat`]'s bit patterns:
//! [`encode`] (round to nearest, ties to even, straight from the `f64`
//! bits), [`decode`] (exact), and [`convert_bits`] between two formats.
//!
//! # Special values and out-of-range results
//!
//! | format | NaN in | ±inf in | finite overflow (after rounding) | ±0 in |
//! |---|---|---|---|---|
//! | IEEE (F64, F32, TF32, F16, BF16, F8E5M2, F8E4M3, F8E3M4) | NaN, sign and top payload bits kept, quiet bit set | ±inf | ±inf | ±0 |
//! | FN (F8E4M3FN) | `0x7F`/`0xFF` by sign | NaN by sign | NaN by sign | ±0 |
//! | FNUZ (F8E4M3FNUZ, F8E4M3B11FNUZ, F8E5M2FNUZ) | `0x80` | `0x80` | `0x80` | `+0` (no -0) |
//! | FiniteOnly (F4E2M1FN, F6E2M3FN, F6E3M2FN) | the `-0` pattern | ±max | ±max (saturate) | ±0 |
//! | E8M0FNU (unsigned, no zero) | `0xFF` | `0xFF` | `0xFF` | `0xFF` |
//!
//! Where these come from: LLVM APFloat turns overflow into infinity for IEEE
//! formats, into NaN for its `NanOnly` formats (FN, FNUZ, E8M0FNU) and into
//! the largest finite value for its `FiniteOnly` formats (F4/F6); ml_dtypes
//! and XLA agree. LLVM defines no result for NaN or infinity converted to
//! F4/F6: we follow ml_dtypes/XLA (infinity saturates; NaN becomes the
//! `-0` pattern, which is what XLA's CPU convert produces for NaN of either
//! sign). E8M0FNU: negative values, NaN, infinities and zero are the NaN
//! `0xFF` (ml_dtypes and XLA); ties between two powers of two round up (the
//! significand is always odd, so "to even" moves to the next exponent); a
//! positive value below `2^-127` becomes `2^-127` (`0x00`), as LLVM does and
//! as ml_dtypes does for every nonzero `f32` (XLA's f64 path gives NaN
//! there instead).
//!
//! F64 → F64 is the identity (NaN payloads, signalling or not, untouched).

use crate::format::{low_mask, FloatFormat, NanEncoding, OverflowRule, F32, F64};

const F64_MANT_BITS: u32 = 52;
const F64_MANT_MASK: u64 = (1u64 << F64_MANT_BITS) - 1;

/// Whether `fmt` is binary64 (for the identity fast paths).
fn is_f64(fmt: &FloatFormat) -> bool {
    *fmt == F64
}

/// Shifts `v` right by `s` bits, rounding to nearest with ties to even.
/// Any `s` is accepted (`s >= 129` gives 0).
pub(crate) fn shr_round_even(v: u128, s: u32) -> u128 {
    match s {
        0 => v,
        1..=127 => {
            let q = v >> s;
            let rem = v & ((1u128 << s) - 1);
            let half = 1u128 << (s - 1);
            if rem > half || (rem == half && q & 1 == 1) {
                q + 1
            } else {
                q
            }
        }
        // v < 2^128, so v / 2^128 < 1; exactly one half rounds to even (0).
        128 => u128::from(v > 1u128 << 127),
        _ => 0,
    }
}

/// Bits of a result that overflowed the largest finite value.
pub(crate) fn overflow_bits(fmt: &FloatFormat, negative: bool) -> u64 {
    let sign = if negative { fmt.sign_mask() } else { 0 };
    match fmt.overflow_rule() {
        OverflowRule::Infinity => fmt.inf_bits(negative).unwrap_or(sign | fmt.max_bits()),
        OverflowRule::Nan => fmt.nan_bits(negative).unwrap_or(sign | fmt.max_bits()),
        OverflowRule::Saturate => sign | fmt.max_bits(),
    }
}

/// Bits of a non-zero value that rounded to zero: the signed zero (only +0
/// for FNUZ), or the smallest value `0x00` for formats without zero.
pub(crate) fn underflow_bits(fmt: &FloatFormat, negative: bool) -> u64 {
    fmt.zero_bits(negative).unwrap_or(0)
}

/// Bits for an exact zero input: the signed zero, or NaN (E8M0FNU) where
/// the format has no zero.
fn zero_input_bits(fmt: &FloatFormat, negative: bool) -> u64 {
    match fmt.zero_bits(negative) {
        Some(z) => z,
        None => fmt.nan_bits(false).unwrap_or(0),
    }
}

/// Bits for a negative non-zero input in an unsigned format: NaN, or the
/// smallest value if the format had no NaN.
fn unsigned_negative_bits(fmt: &FloatFormat) -> u64 {
    fmt.nan_bits(false).unwrap_or(fmt.lowest_bits())
}

/// Rounds the exact non-zero magnitude `mag * 2^exp` to `fmt` (ties to even)
/// and applies the sign, the subnormal range and the overflow rule.
/// Callers handle unsigned formats' negative inputs before calling.
pub(crate) fn round_magnitude(fmt: &FloatFormat, negative: bool, mag: u128, exp: i32) -> u64 {
    if mag == 0 {
        return zero_input_bits(fmt, negative);
    }
    let m = fmt.mantissa_bits() as i32;
    let top = 127 - mag.leading_zeros() as i32;
    // floor(log2(value)); both terms are small (|exp| <= 1100, top <= 127).
    let e = exp + top;
    // Exponent of one unit in the last place of the result.
    let q = e.max(fmt.min_normal_exponent()) - m;
    let n = if q <= exp {
        // Exact: q >= e - m means the shift is at most m - top <= 52 and the
        // result is below 2^(m + 1).
        mag << (exp - q) as u32
    } else {
        shr_round_even(mag, (q - exp) as u32)
    };
    if n == 0 {
        return underflow_bits(fmt, negative);
    }
    let one = 1u128 << m;
    let (biased, mant) = if n >= one {
        let b = i64::from(q) + i64::from(m) + i64::from(fmt.bias());
        if n >= one << 1 {
            // Rounding carried into the next binade: n == 2^(m+1) exactly.
            (b + 1, 0)
        } else {
            (b, n - one)
        }
    } else if fmt.has_zero() {
        (0, n)
    } else {
        // Not reachable for valid formats (no zero implies m == 0, so n >= 1
        // is normal); kept total: the smallest value.
        return 0;
    };
    // biased >= 0 here: normal results have e' >= min_normal_exponent.
    let mag_bits = ((biased.max(0) as u128) << m) | mant;
    if mag_bits > u128::from(fmt.max_finite_magnitude()) {
        return overflow_bits(fmt, negative);
    }
    let sign = if negative { fmt.sign_mask() } else { 0 };
    sign | mag_bits as u64
}

/// Bits of a NaN input converted to `fmt` (see the module table).
fn nan_input_bits(fmt: &FloatFormat, f64_bits: u64) -> u64 {
    let negative = f64_bits >> 63 != 0;
    match fmt.nan_encoding() {
        NanEncoding::Ieee => {
            let m = fmt.mantissa_bits();
            let sign = if negative { fmt.sign_mask() } else { 0 };
            let payload = (f64_bits & F64_MANT_MASK) >> (F64_MANT_BITS - m);
            let quiet = 1u64 << (m - 1);
            sign | (fmt.exponent_field_max() << m) | payload | quiet
        }
        NanEncoding::AllOnes | NanEncoding::NegativeZero => fmt.nan_bits(negative).unwrap_or(0),
        // XLA maps NaN of either sign to the negative-zero pattern.
        NanEncoding::None => fmt.sign_mask(),
    }
}

/// Rounds `x` to the nearest value of `fmt` (ties to even) and returns its
/// bit pattern in the low `fmt.total_bits()` bits. Rounds once, directly
/// from the `f64` bits (no double rounding through `f32`). Special values
/// and out-of-range results follow the table in the module docs. Encoding
/// to F64 is the identity on the bits.
pub fn encode(fmt: &FloatFormat, x: f64) -> u64 {
    let bits = x.to_bits();
    if is_f64(fmt) {
        return bits;
    }
    let negative = bits >> 63 != 0;
    if x.is_nan() {
        return nan_input_bits(fmt, bits);
    }
    if x == 0.0 {
        return zero_input_bits(fmt, negative);
    }
    if negative && !fmt.is_signed() {
        return unsigned_negative_bits(fmt);
    }
    if x.is_infinite() {
        return overflow_bits(fmt, negative);
    }
    let field = ((bits >> F64_MANT_BITS) & 0x7ff) as i32;
    let frac = bits & F64_MANT_MASK;
    let (mag, exp) = if field == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << F64_MANT_BITS), field - 1075)
    };
    round_magnitude(fmt, negative, u128::from(mag), exp)
}

/// `2^k` as an `f64`, for `-1074 <= k <= 1023` (clamped outside, which a
/// valid format never needs).
fn pow2(k: i32) -> f64 {
    let k = k.clamp(-1074, 1023);
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << F64_MANT_BITS)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    }
}

/// The exact value of the pattern `bits` of `fmt` (bits above
/// `total_bits` are ignored). Every value of every valid format is an `f64`.
/// NaNs: IEEE formats keep the sign and payload (shifted to the top of the
/// `f64` mantissa, not quieted); FN formats give a quiet NaN of the pattern's
/// sign; FNUZ give a negative quiet NaN (the pattern has its sign bit set);
/// E8M0FNU gives a positive quiet NaN.
pub fn decode(fmt: &FloatFormat, bits: u64) -> f64 {
    if is_f64(fmt) {
        return f64::from_bits(bits);
    }
    let bits = bits & fmt.mask();
    let m = fmt.mantissa_bits();
    let negative = fmt.sign_bit(bits);
    let mag = bits & fmt.magnitude_mask();
    let biased = mag >> m;
    let mant = mag & fmt.mantissa_mask();
    let quiet_nan = |neg: bool| f64::from_bits(((neg as u64) << 63) | 0x7ff8_0000_0000_0000);
    match fmt.nan_encoding() {
        NanEncoding::Ieee if biased == fmt.exponent_field_max() => {
            let sign = (negative as u64) << 63;
            if mant == 0 {
                return f64::from_bits(sign | 0x7ff0_0000_0000_0000);
            }
            return f64::from_bits(sign | 0x7ff0_0000_0000_0000 | (mant << (F64_MANT_BITS - m)));
        }
        NanEncoding::AllOnes if mag == fmt.magnitude_mask() => return quiet_nan(negative),
        NanEncoding::NegativeZero if bits == fmt.sign_mask() => return quiet_nan(true),
        _ => {}
    }
    let (int, k) = if fmt.has_zero() && biased == 0 {
        (mant, fmt.min_normal_exponent() - m as i32)
    } else {
        ((1u64 << m) | mant, biased as i32 - fmt.bias() - m as i32)
    };
    // int < 2^53 and the product is representable, so this is exact.
    let v = int as f64 * pow2(k);
    if negative {
        -v
    } else {
        v
    }
}

/// [`encode`] for an `f32` input (widened exactly; NaN payloads kept).
/// Encoding to F32 returns `x`'s bits unchanged.
pub fn encode_f32(fmt: &FloatFormat, x: f32) -> u64 {
    convert_bits(&F32, fmt, u64::from(x.to_bits()))
}

/// [`decode`] narrowed to `f32`: exact for every format except F64, which
/// rounds to nearest-even (overflow to ±inf, NaN quieted).
pub fn decode_f32(fmt: &FloatFormat, bits: u64) -> f32 {
    f32::from_bits(convert_bits(fmt, &F32, bits) as u32)
}

/// Converts a pattern of `from` to the nearest pattern of `to` (ties to
/// even), through the exact `f64` value. The same format returns the bits
/// unchanged (masked to the width), so signalling NaNs survive.
pub fn convert_bits(from: &FloatFormat, to: &FloatFormat, bits: u64) -> u64 {
    if from == to {
        return bits & low_mask(from.total_bits());
    }
    encode(to, decode(from, bits))
}

#[cfg(test)]
#[path = "float_tests.rs"]
mod tests;
