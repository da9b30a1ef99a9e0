//! StableHLO `reduce_precision`: round a value to a narrower (exponent,
//! mantissa) layout and return it in its own format.
//!
//! The spec (docs/spec.md, "reduce_precision") in three steps, done on the
//! bit pattern as XLA does:
//! 1. round the mantissa to `mantissa_bits` bits, ties to even (a carry may
//!    move into the exponent);
//! 2. when `mantissa_bits` is below the source's, clear the dropped bits;
//! 3. when `exponent_bits` is below the source's, a result whose exponent is
//!    above the narrow format's maximum (`2^(exponent_bits-1) - 1`) becomes
//!    infinity of the same sign, and one at or below its minimum (minus that
//!    bound: the narrow format has no subnormals) becomes zero of the same
//!    sign.
//!
//! NaN inputs are returned unchanged (payload and sign), as XLA on CPU does
//! even for `mantissa_bits = 0`; infinities stay infinities. Because the
//! rounding happens on the source's own bit grid, source subnormals round
//! on their fixed grid (and survive when `exponent_bits` is not narrower).
//!
//! Formats without infinity (FN, FNUZ, F4/F6, E8M0FNU) use the same steps;
//! where a result would be infinite the format's overflow rule applies
//! (NaN, or saturation for F4/F6), and "zero" is +0 for FNUZ and the
//! smallest value `0x00` for E8M0FNU, as in [`crate::encode`].
//!
//! `exponent_bits < 1` is treated as 1 and `mantissa_bits < 0` as 0 (the
//! spec requires `>= 1` and `>= 0`).

use crate::float::{overflow_bits, shr_round_even, underflow_bits};
use crate::format::{FloatClass, FloatFormat, F32, F64};

/// Applies `reduce_precision` to the pattern `bits` of `fmt` and returns
/// the resulting pattern of the same format (see the module docs).
pub fn reduce_precision(fmt: &FloatFormat, bits: u64, exponent_bits: i32, mantissa_bits: i32) -> u64 {
    let bits = bits & fmt.mask();
    if matches!(fmt.classify(bits), FloatClass::Nan | FloatClass::Infinite) {
        return bits;
    }
    let exponent_bits = exponent_bits.max(1) as u32;
    let mantissa_bits = mantissa_bits.max(0) as u32;
    let src_m = fmt.mantissa_bits();
    let negative = fmt.sign_bit(bits);
    let sign = bits & fmt.sign_mask();
    let mut mag = bits & fmt.magnitude_mask();

    if mantissa_bits < src_m {
        let s = src_m - mantissa_bits;
        // mag < 2^63 and rounding adds at most 2^s, so this stays in u64.
        mag = (shr_round_even(u128::from(mag), s) << s) as u64;
        if mag > fmt.max_finite_magnitude() {
            return overflow_bits(fmt, negative);
        }
    }

    if exponent_bits < fmt.exponent_bits() {
        // exponent_bits <= 10 here, so the narrow bias fits easily.
        let narrow_bias = (1i64 << (exponent_bits - 1)) - 1;
        let biased = (mag >> src_m) as i64;
        let exponent = biased - i64::from(fmt.bias());
        if exponent > narrow_bias {
            return overflow_bits(fmt, negative);
        }
        if (fmt.has_zero() && biased == 0) || exponent <= -narrow_bias {
            return underflow_bits(fmt, negative);
        }
    }
    sign | mag
}

/// [`reduce_precision`] on an `f32` value.
pub fn reduce_precision_f32(x: f32, exponent_bits: i32, mantissa_bits: i32) -> f32 {
    f32::from_bits(reduce_precision(&F32, u64::from(x.to_bits()), exponent_bits, mantissa_bits) as u32)
}

/// [`reduce_precision`] on an `f64` value.
pub fn reduce_precision_f64(x: f64, exponent_bits: i32, mantissa_bits: i32) -> f64 {
    f64::from_bits(reduce_precision(&F64, x.to_bits(), exponent_bits, mantissa_bits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::*;

    #[test]
    fn spec_example() {
        // docs/spec.md reduce_precision example, exponent_bits=5, mantissa_bits=2.
        let input = [0xFF80_0000u32, 0x7F80_0000, 0x7FFF_FFFF, 0, 1000f32.to_bits(), 1e6f32.to_bits()];
        let want = [0xFF80_0000u32, 0x7F80_0000, 0x7FFF_FFFF, 0, 1024f32.to_bits(), 0x7F80_0000];
        for (i, w) in input.iter().zip(want) {
            assert_eq!(reduce_precision(&F32, u64::from(*i), 5, 2), u64::from(w), "{i:#x}");
        }
    }

    #[test]
    fn f32_cases() {
        // To bf16 precision: 1 + 2^-8 is a tie, to even 1.0; 1 + 3*2^-8 -> 1 + 2^-6.
        assert_eq!(reduce_precision_f32(1.0 + 2f32.powi(-8), 8, 7), 1.0);
        assert_eq!(reduce_precision_f32(1.0 + 3.0 * 2f32.powi(-8), 8, 7), 1.0 + 2f32.powi(-6));
        // To f16: 65519 rounds to 65504, 65520 rounds to 65536 = overflow.
        assert_eq!(reduce_precision_f32(65519.0, 5, 10), 65504.0);
        assert_eq!(reduce_precision_f32(-65520.0, 5, 10), f32::NEG_INFINITY);
        // Below f16's min normal 2^-14 is flushed (no subnormals), sign kept.
        assert_eq!(reduce_precision_f32(2f32.powi(-15), 5, 10), 0.0);
        assert_eq!(reduce_precision_f32(-2f32.powi(-15), 5, 10).to_bits(), 0x8000_0000);
        assert_eq!(reduce_precision_f32(2f32.powi(-14), 5, 10), 2f32.powi(-14));
        // Rounding up to the min normal happens before the underflow test.
        let just_below = 2f32.powi(-14) * (1.0 - 2f32.powi(-12));
        assert_eq!(reduce_precision_f32(just_below, 5, 10), 2f32.powi(-14));
        // mantissa_bits = 0: powers of two only; 1.5 is a tie -> 2, 1.25 -> 1.
        assert_eq!(reduce_precision_f32(1.5, 8, 0), 2.0);
        assert_eq!(reduce_precision_f32(1.25, 8, 0), 1.0);
        // Same layout: identity, subnormals included.
        assert_eq!(reduce_precision_f32(f32::from_bits(3), 8, 23).to_bits(), 3);
        // Subnormal source rounded on its own grid: 3 ulps -> 4 ulps with 21 bits kept.
        assert_eq!(reduce_precision_f32(f32::from_bits(3), 8, 21).to_bits(), 4);
        assert_eq!(reduce_precision_f32(f32::from_bits(2), 8, 21).to_bits(), 0);
        // NaN untouched, even with no mantissa.
        assert_eq!(reduce_precision_f32(f32::from_bits(0xFF80_0001), 5, 0).to_bits(), 0xFF80_0001);
        // Exponent/mantissa wider than the source: identity.
        assert_eq!(reduce_precision_f32(1e-40, 30, 60), 1e-40);
        // exponent_bits = 1: the narrow bias is 0, so exponents <= 0 underflow
        // and exponents > 0 overflow: only zero and infinity remain.
        assert_eq!(reduce_precision_f32(1.0, 1, 3), 0.0);
        assert_eq!(reduce_precision_f32(-2.0, 1, 3), f32::NEG_INFINITY);
        assert_eq!(reduce_precision_f32(0.5, 0, -4), 0.0);
    }

    #[test]
    fn f64_cases() {
        assert_eq!(reduce_precision_f64(1.0 + 2f64.powi(-24), 8, 23), 1.0);
        assert_eq!(reduce_precision_f64(1.0 + 3.0 * 2f64.powi(-24), 8, 23), 1.0 + 2f64.powi(-22));
        assert_eq!(reduce_precision_f64(1e39, 8, 23), f64::INFINITY);
        assert_eq!(reduce_precision_f64(1e-39, 8, 23), 0.0);
        assert_eq!(reduce_precision_f64(f64::MAX, 11, 51), f64::INFINITY);
        assert_eq!(reduce_precision_f64(f64::MIN_POSITIVE / 4.0, 11, 52), f64::MIN_POSITIVE / 4.0);
    }

    #[test]
    fn other_formats() {
        // F8E4M3FN 448 (0x7E) to 1 mantissa bit: 1.75 * 2^8 is a tie between
        // 1.5 and 2.0 (odd) -> 2.0 * 2^8 = 512, beyond the format: NaN.
        assert_eq!(reduce_precision(&F8E4M3FN, 0x7E, 4, 1), 0x7F);
        assert_eq!(reduce_precision(&F8E4M3FN, 0xFE, 4, 1), 0xFF);
        // F4E2M1FN: 6 (0x7) to 0 mantissa bits: 1.5 * 2^2 ties up to 8: saturate.
        assert_eq!(reduce_precision(&F4E2M1FN, 0x7, 2, 0), 0x7);
        // FNUZ: underflow of a negative value gives +0 (there is no -0).
        assert_eq!(reduce_precision(&F8E4M3FNUZ, 0x89, 2, 3), 0x00);
        assert_eq!(reduce_precision(&F8E4M3FNUZ, 0x80, 2, 0), 0x80);
        // E8M0FNU: 2^-127 (0x00) with 5 exponent bits underflows to the smallest value.
        assert_eq!(reduce_precision(&F8E8M0FNU, 0x00, 5, 0), 0x00);
        assert_eq!(reduce_precision(&F8E8M0FNU, 0xF0, 5, 0), 0xFF);
        assert_eq!(reduce_precision(&F8E8M0FNU, 0x80, 5, 0), 0x80);
        // F16 to e5m2: 1 + 2^-3 is a tie between 1 and 1.25 -> 1.0.
        assert_eq!(reduce_precision(&F16, 0x3C80, 5, 2), 0x3C00);
        assert_eq!(reduce_precision(&F16, 0x3C81, 5, 2), 0x3D00);
    }
}
