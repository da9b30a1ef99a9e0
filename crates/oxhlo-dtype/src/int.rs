//! Integer numerics for any width 1..=64, signed or unsigned: wrapping,
//! ranges, and the float <-> integer conversions of StableHLO `convert`.
//!
//! Rules (the spec leaves out-of-range float -> int implementation-defined;
//! these are XLA's, checked against XLA on CPU):
//! - float -> int: NaN becomes 0; the value is truncated toward zero; values
//!   beyond the range (including ±inf) saturate to the type's min/max.
//!   Unsigned targets send every negative value to 0.
//! - int -> float: one correct rounding (ties to even) from the exact
//!   integer, never through an intermediate `f64`/`f32` ([`encode_i128`]).
//! - int -> int: two's-complement wrap to the target width
//!   ([`wrap_signed`], [`wrap_unsigned`]).
//! - anything -> `i1` (boolean): zero is false, everything else (NaN too)
//!   is true ([`float_to_bool`], [`int_to_bool`]); boolean -> anything is
//!   0 or 1.
//!
//! Widths outside 1..=64 are clamped into that range.

use crate::float::{encode, round_magnitude};
use crate::format::FloatFormat;

/// Clamps a width into 1..=64.
fn width(bits: u32) -> u32 {
    bits.clamp(1, 64)
}

/// The smallest value of a signed integer of `bits` bits (`-2^(bits-1)`).
pub fn signed_min(bits: u32) -> i64 {
    (-(1i128 << (width(bits) - 1))) as i64
}

/// The largest value of a signed integer of `bits` bits (`2^(bits-1) - 1`).
pub fn signed_max(bits: u32) -> i64 {
    ((1i128 << (width(bits) - 1)) - 1) as i64
}

/// The largest value of an unsigned integer of `bits` bits (`2^bits - 1`).
pub fn unsigned_max(bits: u32) -> u64 {
    ((1u128 << width(bits)) - 1) as u64
}

/// Wraps `v` to a signed `bits`-bit integer (two's complement: keep the low
/// `bits` bits, then sign-extend).
pub fn wrap_signed(v: i128, bits: u32) -> i64 {
    let shift = 128 - width(bits);
    ((v << shift) >> shift) as i64
}

/// Wraps `v` to an unsigned `bits`-bit integer (keep the low `bits` bits of
/// its two's-complement form).
pub fn wrap_unsigned(v: i128, bits: u32) -> u64 {
    (v as u128 & ((1u128 << width(bits)) - 1)) as u64
}

/// Converts a float to a signed `bits`-bit integer as XLA does: NaN -> 0,
/// truncation toward zero, saturation at the type's bounds (±inf included).
pub fn float_to_signed(x: f64, bits: u32) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let (lo, hi) = (signed_min(bits), signed_max(bits));
    let t = x.trunc();
    // lo = -2^(n-1) is exact in f64; hi + 1 = 2^(n-1) is exact too.
    if t <= lo as f64 {
        lo
    } else if t >= (hi as i128 + 1) as f64 {
        hi
    } else {
        // |t| < 2^63 and integral, so the cast is exact.
        t as i64
    }
}

/// Converts a float to an unsigned `bits`-bit integer as XLA does: NaN and
/// every negative value -> 0, truncation toward zero, saturation at the
/// maximum (+inf included).
pub fn float_to_unsigned(x: f64, bits: u32) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let hi = unsigned_max(bits);
    let t = x.trunc();
    if t <= 0.0 {
        0
    } else if t >= (hi as u128 + 1) as f64 {
        hi
    } else {
        // 0 < t < 2^64 and integral, so the cast is exact.
        t as u64
    }
}

/// Float -> boolean (`i1`): `x != 0`, so NaN is true and ±0 is false.
pub fn float_to_bool(x: f64) -> bool {
    x != 0.0
}

/// Integer -> boolean (`i1`): `v != 0`.
pub fn int_to_bool(v: i128) -> bool {
    v != 0
}

/// Rounds the exact integer `v` to `fmt` once (ties to even) and returns
/// the bit pattern. Out-of-range magnitudes follow the format's overflow
/// rule (see [`crate::float`]); 0 is +0 (NaN for E8M0FNU, which has no
/// zero); negative values in an unsigned format are NaN. Covers every
/// `i64` and `u64` input exactly, e.g. `i64 -> f32` rounds correctly where
/// `v as f64 as f32` could round twice.
pub fn encode_i128(fmt: &FloatFormat, v: i128) -> u64 {
    if v == 0 {
        return encode(fmt, 0.0);
    }
    if v < 0 && !fmt.is_signed() {
        return encode(fmt, -1.0);
    }
    round_magnitude(fmt, v < 0, v.unsigned_abs(), 0)
}

/// Converts the pattern `bits` of `fmt` to a signed `width`-bit integer
/// ([`float_to_signed`] on the exact value).
pub fn float_bits_to_signed(fmt: &FloatFormat, bits: u64, width: u32) -> i64 {
    float_to_signed(crate::float::decode(fmt, bits), width)
}

/// Converts the pattern `bits` of `fmt` to an unsigned `width`-bit integer
/// ([`float_to_unsigned`] on the exact value).
pub fn float_bits_to_unsigned(fmt: &FloatFormat, bits: u64, width: u32) -> u64 {
    float_to_unsigned(crate::float::decode(fmt, bits), width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::*;

    #[test]
    fn ranges() {
        assert_eq!((signed_min(1), signed_max(1)), (-1, 0));
        assert_eq!((signed_min(4), signed_max(4)), (-8, 7));
        assert_eq!((signed_min(64), signed_max(64)), (i64::MIN, i64::MAX));
        assert_eq!(unsigned_max(1), 1);
        assert_eq!(unsigned_max(2), 3);
        assert_eq!(unsigned_max(64), u64::MAX);
        // Clamped widths.
        assert_eq!(signed_max(0), 0);
        assert_eq!(unsigned_max(100), u64::MAX);
    }

    #[test]
    fn wrapping() {
        assert_eq!(wrap_signed(128, 8), -128);
        assert_eq!(wrap_signed(255, 8), -1);
        assert_eq!(wrap_signed(-129, 8), 127);
        assert_eq!(wrap_signed(8, 4), -8);
        assert_eq!(wrap_signed(7, 4), 7);
        assert_eq!(wrap_signed(1, 1), -1);
        assert_eq!(wrap_signed(2, 1), 0);
        assert_eq!(wrap_signed(1i128 << 63, 64), i64::MIN);
        assert_eq!(wrap_signed(i128::MAX, 64), -1);
        assert_eq!(wrap_signed(i128::MIN, 64), 0);
        assert_eq!(wrap_unsigned(-1, 8), 255);
        assert_eq!(wrap_unsigned(-1, 64), u64::MAX);
        assert_eq!(wrap_unsigned(256 + 5, 8), 5);
        assert_eq!(wrap_unsigned(-1, 1), 1);
        assert_eq!(wrap_unsigned(i128::MIN, 64), 0);
        assert_eq!(wrap_unsigned(17, 4), 1);
    }

    #[test]
    fn float_to_int_xla_rules() {
        // Expected values: XLA CPU convert (jax.lax.convert_element_type).
        assert_eq!(float_to_signed(f64::NAN, 32), 0);
        assert_eq!(float_to_signed(-f64::NAN, 8), 0);
        assert_eq!(float_to_signed(f64::INFINITY, 32), i32::MAX as i64);
        assert_eq!(float_to_signed(f64::NEG_INFINITY, 32), i32::MIN as i64);
        assert_eq!(float_to_signed(3e9, 32), i32::MAX as i64);
        assert_eq!(float_to_signed(-3e9, 32), i32::MIN as i64);
        assert_eq!(float_to_signed(-2.7, 32), -2);
        assert_eq!(float_to_signed(2.7, 8), 2);
        assert_eq!(float_to_signed(-0.5, 8), 0);
        assert_eq!(float_to_signed(255.9, 8), 127);
        assert_eq!(float_to_signed(-128.5, 8), -128);
        assert_eq!(float_to_signed(-129.0, 8), -128);
        assert_eq!(float_to_signed(-129.0, 32), -129);
        assert_eq!(float_to_signed(7.9, 4), 7);
        assert_eq!(float_to_signed(-8.9, 4), -8);
        assert_eq!(float_to_signed(9.3e18, 64), i64::MAX);
        assert_eq!(float_to_signed(-9.3e18, 64), i64::MIN);
        assert_eq!(float_to_signed(2f64.powi(63) - 1024.0, 64), 9_223_372_036_854_774_784);
        assert_eq!(float_to_unsigned(f64::NAN, 32), 0);
        assert_eq!(float_to_unsigned(f64::INFINITY, 32), u32::MAX as u64);
        assert_eq!(float_to_unsigned(f64::NEG_INFINITY, 32), 0);
        assert_eq!(float_to_unsigned(3e9, 32), 3_000_000_000);
        assert_eq!(float_to_unsigned(-2.7, 32), 0);
        assert_eq!(float_to_unsigned(255.9, 8), 255);
        assert_eq!(float_to_unsigned(256.0, 8), 255);
        assert_eq!(float_to_unsigned(1e20, 64), u64::MAX);
        assert_eq!(float_to_unsigned(2f64.powi(64) - 2048.0, 64), 18_446_744_073_709_549_568);
        assert_eq!(float_to_unsigned(15.5, 4), 15);
        assert!(float_to_bool(f64::NAN));
        assert!(float_to_bool(-0.5));
        assert!(!float_to_bool(-0.0));
        assert!(int_to_bool(-1) && !int_to_bool(0));
        assert_eq!(float_bits_to_signed(&F8E4M3FN, 0xFF, 32), 0); // NaN
        assert_eq!(float_bits_to_signed(&F8E4M3FN, 0xFE, 8), -128); // -448
        assert_eq!(float_bits_to_unsigned(&F16, 0x7C00, 16), 65535); // +inf
    }

    #[test]
    fn int_to_float_rounds_once() {
        // 2^62 + 2^38 + 1: just above the f32 tie at 2^62 * (1 + 2^-24), so it
        // rounds up to 2^62 * (1 + 2^-23) = 0x5E800001 (XLA/hardware agree).
        assert_eq!(encode_i128(&F32, (1 << 62) + (1 << 38) + 1), 0x5E80_0001);
        assert_eq!(encode_i128(&F32, -((1 << 62) + (1 << 38) + 1)), 0xDE80_0001);
        // 2^24 + 1: an exact tie, to even 2^24.
        assert_eq!(encode_i128(&F32, (1 << 24) + 1), 0x4B80_0000);
        assert_eq!(encode_i128(&F32, i64::MAX as i128), 0x5F00_0000);
        assert_eq!(encode_i128(&F32, u64::MAX as i128), 0x5F80_0000);
        // 2^63 + 2^39 + 1 (u64): above the tie, rounds up.
        assert_eq!(encode_i128(&F32, (1i128 << 63) + (1 << 39) + 1), 0x5F00_0001);
        // Double rounding trap for f64: 2^60 + 2^52 + 1 as f64 is 2^60 + 2^52
        // (the +1 is lost), then a tie for bf16 (ulp 2^53 at 2^60) would go
        // to even 2^60. The exact integer is above the tie: 2^60 + 2^53,
        // i.e. exponent 60 + 127 = 187 = 0xBB, mantissa 1: 0x5D81.
        let v = (1i128 << 60) + (1 << 52) + 1;
        assert_eq!(encode_i128(&BF16, v), 0x5D81);
        assert_eq!(encode(&BF16, v as f64), 0x5D80);
        // i64 -> f32 through f64 would double round: 2^54 + 2^30 + 1.
        // f64 keeps 53 bits (ulp 4 at 2^54): 2^54 + 2^30 exactly, a tie for
        // f32 (ulp 2^31) that goes to even 2^54. The integer is above it.
        let v = (1i128 << 54) + (1 << 30) + 1;
        assert_eq!(encode_i128(&F32, v), 0x5A80_0001);
        assert_eq!(encode(&F32, v as f64), 0x5A80_0000);
        // f16 (XLA agrees): 2049 -> 2048 (tie to even), 2051 -> 2052,
        // 65519 -> 65504 (below the 65520 overflow tie), 65520 -> inf.
        assert_eq!(encode_i128(&F16, 2049), 0x6800);
        assert_eq!(encode_i128(&F16, 2051), 0x6802);
        assert_eq!(encode_i128(&F16, 65519), 0x7BFF);
        assert_eq!(encode_i128(&F16, 65520), 0x7C00);
        assert_eq!(encode_i128(&F16, -100000), 0xFC00);
        assert_eq!(encode_i128(&F8E4M3FN, 500), 0x7F);
        assert_eq!(encode_i128(&F8E4M3FN, -464), 0xFE); // tie -> even -448
        assert_eq!(encode_i128(&F8E4M3FN, -465), 0xFF); // beyond -> NaN
        assert_eq!(encode_i128(&F4E2M1FN, 100), 0x7);
        assert_eq!(encode_i128(&F4E2M1FN, -5), 0xE); // tie 4|6 -> even -4
        assert_eq!(encode_i128(&F8E8M0FNU, 0), 0xFF);
        assert_eq!(encode_i128(&F8E8M0FNU, -4), 0xFF);
        assert_eq!(encode_i128(&F8E8M0FNU, 3), 0x81); // tie 2|4 -> 4
        assert_eq!(encode_i128(&F8E8M0FNU, i128::MAX), 0xFE); // rounds to 2^127
        assert_eq!(encode_i128(&F8E5M2FNUZ, 0), 0);
        assert_eq!(encode_i128(&F64, i128::MIN), 0xC7E0_0000_0000_0000);
        assert_eq!(encode_i128(&F64, (1i128 << 53) + 1), 0x4340_0000_0000_0000);
        assert_eq!(encode_i128(&F64, (1i128 << 53) + 3), 0x4340_0000_0000_0002);
    }
}
