//! Descriptions of binary floating-point formats ([`FloatFormat`]) and one
//! constant per StableHLO floating-point element type, with the facts about
//! each bit pattern (NaN? infinity? largest finite?) that follow from them.
//!
//! Format facts come from LLVM's `fltSemantics` table (APFloat.cpp), the OCP
//! Microscaling (MX) spec for the 4/6-bit and E8M0 formats, and the
//! `ml_dtypes` documentation. Every constant below states its range.

/// How a format spends bit patterns on NaN (and whether it has infinities).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NanEncoding {
    /// IEEE 754: an all-ones exponent with a non-zero mantissa is NaN, with a
    /// zero mantissa it is an infinity. The only encoding with infinities.
    Ieee,
    /// "FN" (finite, special NaN): only the patterns whose exponent and
    /// mantissa are all ones are NaN (`0x7F`/`0xFF` for F8E4M3FN); there are
    /// no infinities. Also the unsigned E8M0FNU, whose NaN is `0xFF`.
    AllOnes,
    /// "FNUZ" (finite, NaN, unsigned zero): the negative-zero pattern (sign
    /// bit set, all else zero, `0x80`) is the only NaN; no infinities, no -0.
    NegativeZero,
    /// No NaN and no infinity: every pattern is a finite number (the OCP MX
    /// F4/F6 formats).
    None,
}

/// What rounding a finite value (or converting an infinity) produces when the
/// result lies beyond the largest finite value of the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OverflowRule {
    /// IEEE formats: the infinity of the value's sign.
    Infinity,
    /// Formats with NaN but no infinity (FN, FNUZ, E8M0FNU): NaN.
    Nan,
    /// Formats with neither (F4E2M1FN, F6E2M3FN, F6E3M2FN): the largest
    /// finite value of the value's sign (saturation).
    Saturate,
}

/// The category of one bit pattern in a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatClass {
    /// Not a number.
    Nan,
    /// Positive or negative infinity.
    Infinite,
    /// Positive or negative zero.
    Zero,
    /// A non-zero value with the minimum exponent and no implicit bit.
    Subnormal,
    /// A value with an implicit leading one.
    Normal,
}

/// A binary floating-point format: `[sign] exponent mantissa`, most
/// significant bit first, stored in the low [`total_bits`](Self::total_bits)
/// of a `u64`.
///
/// The value of a pattern with biased exponent `b` and mantissa field `t`
/// is `(2^m + t) * 2^(b - bias - m)` (normal), or `t * 2^(1 - bias - m)`
/// when `b == 0` and the format has a zero (subnormal). Formats without a
/// zero (E8M0FNU) treat `b == 0` as a normal exponent.
///
/// Fields are private so that every `FloatFormat` satisfies the invariants
/// checked by [`FloatFormat::new`]; every function of this crate relies on
/// them to be total (no panics) and exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatFormat {
    name: &'static str,
    exponent_bits: u32,
    mantissa_bits: u32,
    bias: i32,
    nan: NanEncoding,
    signed: bool,
    has_zero: bool,
}

impl FloatFormat {
    /// Builds a format, or `None` when the description is not one this crate
    /// can handle exactly. Requirements:
    /// - `2 <= exponent_bits <= 11`, `mantissa_bits <= 52`, total width <= 64;
    /// - every value fits an `f64` exactly (largest exponent <= 1023,
    ///   smallest non-zero value >= 2^-1074);
    /// - [`NanEncoding::Ieee`] needs `mantissa_bits >= 1` (to tell NaN from
    ///   infinity); [`NanEncoding::NegativeZero`] needs a sign and a zero;
    /// - a format without zero must be unsigned with `mantissa_bits == 0`
    ///   (exponent-only scale formats such as E8M0FNU).
    pub const fn new(
        name: &'static str,
        exponent_bits: u32,
        mantissa_bits: u32,
        bias: i32,
        nan: NanEncoding,
        signed: bool,
        has_zero: bool,
    ) -> Option<FloatFormat> {
        if exponent_bits < 2 || exponent_bits > 11 || mantissa_bits > 52 {
            return None;
        }
        if exponent_bits + mantissa_bits + signed as u32 > 64 {
            return None;
        }
        if matches!(nan, NanEncoding::Ieee) && mantissa_bits == 0 {
            return None;
        }
        if matches!(nan, NanEncoding::NegativeZero) && !(signed && has_zero) {
            return None;
        }
        if !has_zero && (signed || mantissa_bits != 0) {
            return None;
        }
        let f = FloatFormat { name, exponent_bits, mantissa_bits, bias, nan, signed, has_zero };
        // Range checks in i64 so that no bias can overflow.
        let max_exp = f.max_biased_finite() as i64 - bias as i64;
        let min_exp = if has_zero {
            1 - bias as i64 - mantissa_bits as i64
        } else {
            -(bias as i64)
        };
        if max_exp > 1023 || min_exp < -1074 {
            return None;
        }
        Some(f)
    }

    /// The MLIR spelling of the element type (`f8E4M3FN`, `bf16`, ...).
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// Storage width in bits (sign + exponent + mantissa).
    pub const fn total_bits(&self) -> u32 {
        self.exponent_bits + self.mantissa_bits + self.signed as u32
    }

    /// Width of the exponent field.
    pub const fn exponent_bits(&self) -> u32 {
        self.exponent_bits
    }

    /// Width of the stored mantissa (fraction) field, without the implicit bit.
    pub const fn mantissa_bits(&self) -> u32 {
        self.mantissa_bits
    }

    /// Exponent bias: a normal value is `1.t * 2^(biased - bias)`.
    pub const fn bias(&self) -> i32 {
        self.bias
    }

    /// How NaN is encoded (and so whether infinities exist).
    pub const fn nan_encoding(&self) -> NanEncoding {
        self.nan
    }

    /// Whether the format has infinities (only IEEE-like formats do).
    pub const fn has_inf(&self) -> bool {
        matches!(self.nan, NanEncoding::Ieee)
    }

    /// Whether the format has at least one NaN pattern.
    pub const fn has_nan(&self) -> bool {
        !matches!(self.nan, NanEncoding::None)
    }

    /// Whether the format has a sign bit.
    pub const fn is_signed(&self) -> bool {
        self.signed
    }

    /// Whether the format can represent zero (all but E8M0FNU).
    pub const fn has_zero(&self) -> bool {
        self.has_zero
    }

    /// Whether the format has subnormal values.
    pub const fn has_subnormals(&self) -> bool {
        self.has_zero && self.mantissa_bits > 0
    }

    /// What happens to values beyond the largest finite one.
    pub const fn overflow_rule(&self) -> OverflowRule {
        match self.nan {
            NanEncoding::Ieee => OverflowRule::Infinity,
            NanEncoding::AllOnes | NanEncoding::NegativeZero => OverflowRule::Nan,
            NanEncoding::None => OverflowRule::Saturate,
        }
    }

    /// Mask of the `total_bits` low bits.
    pub const fn mask(&self) -> u64 {
        low_mask(self.total_bits())
    }

    /// The sign bit (0 for unsigned formats).
    pub const fn sign_mask(&self) -> u64 {
        if self.signed {
            1u64 << (self.exponent_bits + self.mantissa_bits)
        } else {
            0
        }
    }

    /// Mask of the exponent and mantissa fields (everything but the sign).
    pub const fn magnitude_mask(&self) -> u64 {
        low_mask(self.exponent_bits + self.mantissa_bits)
    }

    /// Mask of the mantissa field.
    pub const fn mantissa_mask(&self) -> u64 {
        low_mask(self.mantissa_bits)
    }

    /// Largest value of the exponent field (all ones).
    pub const fn exponent_field_max(&self) -> u64 {
        low_mask(self.exponent_bits)
    }

    /// Largest biased exponent that a finite value can have.
    const fn max_biased_finite(&self) -> u64 {
        match self.nan {
            NanEncoding::Ieee => self.exponent_field_max() - 1,
            // AllOnes keeps the all-ones exponent for finite values unless the
            // mantissa is empty (E8M0FNU), where that exponent is only NaN.
            NanEncoding::AllOnes if self.mantissa_bits == 0 => self.exponent_field_max() - 1,
            _ => self.exponent_field_max(),
        }
    }

    /// Exponent of the largest finite value: `max finite = (2 - 2^-m) * 2^e`
    /// for most formats (one ulp less for FN formats).
    pub const fn max_exponent(&self) -> i32 {
        self.max_biased_finite() as i32 - self.bias
    }

    /// Exponent of the smallest positive normal value (`1 - bias`, or
    /// `-bias` for formats without zero, whose biased exponent 0 is normal).
    pub const fn min_normal_exponent(&self) -> i32 {
        if self.has_zero {
            1 - self.bias
        } else {
            -self.bias
        }
    }

    /// Magnitude bits (no sign) of the largest finite value.
    pub const fn max_finite_magnitude(&self) -> u64 {
        match self.nan {
            NanEncoding::Ieee => (self.max_biased_finite() << self.mantissa_bits) | self.mantissa_mask(),
            NanEncoding::AllOnes => self.magnitude_mask() - 1,
            NanEncoding::NegativeZero | NanEncoding::None => self.magnitude_mask(),
        }
    }

    /// Bits of the largest finite value.
    pub const fn max_bits(&self) -> u64 {
        self.max_finite_magnitude()
    }

    /// Bits of the most negative finite value (for unsigned formats, the
    /// smallest value: zero, or `2^-127` for E8M0FNU).
    pub const fn lowest_bits(&self) -> u64 {
        if self.signed {
            self.sign_mask() | self.max_finite_magnitude()
        } else {
            0
        }
    }

    /// Bits of the smallest positive normal value.
    pub const fn min_normal_bits(&self) -> u64 {
        if self.has_zero {
            1u64 << self.mantissa_bits
        } else {
            0
        }
    }

    /// Bits of the smallest positive value (subnormal where there are some).
    pub const fn min_positive_bits(&self) -> u64 {
        if self.has_subnormals() {
            1
        } else {
            self.min_normal_bits()
        }
    }

    /// The canonical quiet NaN of the given sign, or `None` if the format has
    /// no NaN. IEEE: all-ones exponent with only the top mantissa bit set.
    /// FN: all ones (the sign is kept where there is a sign bit). FNUZ: `0x80`
    /// whatever the sign.
    pub const fn nan_bits(&self, negative: bool) -> Option<u64> {
        let sign = if negative { self.sign_mask() } else { 0 };
        match self.nan {
            NanEncoding::Ieee => Some(
                sign | (self.exponent_field_max() << self.mantissa_bits)
                    | (1u64 << (self.mantissa_bits - 1)),
            ),
            NanEncoding::AllOnes => Some(sign | self.magnitude_mask()),
            NanEncoding::NegativeZero => Some(self.sign_mask()),
            NanEncoding::None => None,
        }
    }

    /// The infinity of the given sign, or `None` without infinities.
    pub const fn inf_bits(&self, negative: bool) -> Option<u64> {
        if !self.has_inf() {
            return None;
        }
        let sign = if negative { self.sign_mask() } else { 0 };
        Some(sign | (self.exponent_field_max() << self.mantissa_bits))
    }

    /// The zero of the given sign (FNUZ and unsigned formats have only +0),
    /// or `None` for formats without zero.
    pub const fn zero_bits(&self, negative: bool) -> Option<u64> {
        if !self.has_zero {
            return None;
        }
        if negative && !matches!(self.nan, NanEncoding::NegativeZero) {
            Some(self.sign_mask())
        } else {
            Some(0)
        }
    }

    /// Whether the sign bit of `bits` is set (always false when unsigned).
    pub const fn sign_bit(&self, bits: u64) -> bool {
        bits & self.sign_mask() != 0
    }

    /// Classifies a pattern (bits above `total_bits` are ignored).
    pub const fn classify(&self, bits: u64) -> FloatClass {
        let bits = bits & self.mask();
        let mag = bits & self.magnitude_mask();
        let exp = mag >> self.mantissa_bits;
        let mant = mag & self.mantissa_mask();
        match self.nan {
            NanEncoding::Ieee if exp == self.exponent_field_max() => {
                return if mant == 0 { FloatClass::Infinite } else { FloatClass::Nan };
            }
            NanEncoding::AllOnes if mag == self.magnitude_mask() => return FloatClass::Nan,
            NanEncoding::NegativeZero if bits == self.sign_mask() => return FloatClass::Nan,
            _ => {}
        }
        if !self.has_zero || exp != 0 {
            FloatClass::Normal
        } else if mant == 0 {
            FloatClass::Zero
        } else {
            FloatClass::Subnormal
        }
    }

    /// Whether `bits` is a NaN of this format.
    pub const fn is_nan(&self, bits: u64) -> bool {
        matches!(self.classify(bits), FloatClass::Nan)
    }

    /// Whether `bits` is an infinity of this format.
    pub const fn is_inf(&self, bits: u64) -> bool {
        matches!(self.classify(bits), FloatClass::Infinite)
    }

    /// Whether `bits` is neither NaN nor infinite.
    pub const fn is_finite(&self, bits: u64) -> bool {
        !matches!(self.classify(bits), FloatClass::Nan | FloatClass::Infinite)
    }

    /// Looks a format up by its MLIR name (`f8E4M3FN`, `bf16`, `tf32`, ...).
    pub fn by_name(name: &str) -> Option<FloatFormat> {
        ALL_FORMATS.iter().copied().find(|f| f.name == name)
    }
}

/// The `n` low bits set (`n` may be 0..=64).
pub(crate) const fn low_mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

const fn builtin(
    name: &'static str,
    exponent_bits: u32,
    mantissa_bits: u32,
    bias: i32,
    nan: NanEncoding,
    signed: bool,
    has_zero: bool,
) -> FloatFormat {
    match FloatFormat::new(name, exponent_bits, mantissa_bits, bias, nan, signed, has_zero) {
        Some(f) => f,
        // Evaluated at compile time only: a bad table entry fails the build.
        None => panic!("invalid built-in float format"),
    }
}

use NanEncoding::{AllOnes, Ieee, NegativeZero};

/// OCP MX FP4 E2M1: bias 1, no inf, no NaN; max 6, min subnormal 0.5.
pub const F4E2M1FN: FloatFormat = builtin("f4E2M1FN", 2, 1, 1, NanEncoding::None, true, true);
/// OCP MX FP6 E2M3: bias 1, no inf, no NaN; max 7.5, min subnormal 0.125.
pub const F6E2M3FN: FloatFormat = builtin("f6E2M3FN", 2, 3, 1, NanEncoding::None, true, true);
/// OCP MX FP6 E3M2: bias 3, no inf, no NaN; max 28, min subnormal 0.0625.
pub const F6E3M2FN: FloatFormat = builtin("f6E3M2FN", 3, 2, 3, NanEncoding::None, true, true);
/// IEEE-like E3M4: bias 3, inf `0x70`, NaN `0x71..=0x7F`; max 15.5.
pub const F8E3M4: FloatFormat = builtin("f8E3M4", 3, 4, 3, Ieee, true, true);
/// IEEE-like E4M3: bias 7, inf `0x78`; max 240, min subnormal 2^-9.
pub const F8E4M3: FloatFormat = builtin("f8E4M3", 4, 3, 7, Ieee, true, true);
/// E4M3FN (OCP FP8 E4M3): bias 7, no inf, NaN `0x7F`/`0xFF`; max 448.
pub const F8E4M3FN: FloatFormat = builtin("f8E4M3FN", 4, 3, 7, AllOnes, true, true);
/// E4M3FNUZ: bias 8, no inf, no -0, NaN `0x80`; max 240, min subnormal 2^-10.
pub const F8E4M3FNUZ: FloatFormat = builtin("f8E4M3FNUZ", 4, 3, 8, NegativeZero, true, true);
/// E4M3B11FNUZ: bias 11, no inf, no -0, NaN `0x80`; max 30, min subnormal 2^-13.
pub const F8E4M3B11FNUZ: FloatFormat = builtin("f8E4M3B11FNUZ", 4, 3, 11, NegativeZero, true, true);
/// IEEE-like E5M2 (OCP FP8 E5M2): bias 15, inf `0x7C`; max 57344.
pub const F8E5M2: FloatFormat = builtin("f8E5M2", 5, 2, 15, Ieee, true, true);
/// E5M2FNUZ: bias 16, no inf, no -0, NaN `0x80`; max 57344, min subnormal 2^-17.
pub const F8E5M2FNUZ: FloatFormat = builtin("f8E5M2FNUZ", 5, 2, 16, NegativeZero, true, true);
/// OCP MX E8M0 scale: unsigned, exponent only, bias 127, no zero, no inf,
/// NaN `0xFF`; values `2^-127 ..= 2^127`.
pub const F8E8M0FNU: FloatFormat = builtin("f8E8M0FNU", 8, 0, 127, AllOnes, false, false);
/// bfloat16: the top half of an f32.
pub const BF16: FloatFormat = builtin("bf16", 8, 7, 127, Ieee, true, true);
/// IEEE binary16.
pub const F16: FloatFormat = builtin("f16", 5, 10, 15, Ieee, true, true);
/// NVIDIA TensorFloat-32: 19 bits, f32's exponent with a 10-bit mantissa.
pub const TF32: FloatFormat = builtin("tf32", 8, 10, 127, Ieee, true, true);
/// IEEE binary32.
pub const F32: FloatFormat = builtin("f32", 8, 23, 127, Ieee, true, true);
/// IEEE binary64.
pub const F64: FloatFormat = builtin("f64", 11, 52, 1023, Ieee, true, true);

/// Every built-in format, narrowest first.
pub const ALL_FORMATS: [FloatFormat; 16] = [
    F4E2M1FN,
    F6E2M3FN,
    F6E3M2FN,
    F8E3M4,
    F8E4M3,
    F8E4M3FN,
    F8E4M3FNUZ,
    F8E4M3B11FNUZ,
    F8E5M2,
    F8E5M2FNUZ,
    F8E8M0FNU,
    BF16,
    F16,
    TF32,
    F32,
    F64,
];
