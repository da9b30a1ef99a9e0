//! Element types a [`Buffer`](crate::Buffer) can hold: every non-quantized StableHLO element type, with the
//! host byte layout of each, and the mapping to and from the IR's element types.

use crate::error::{Error, Result};
use oxhlo_ir::{ElementType, FloatType, Signedness};
use std::fmt;

macro_rules! dtypes {
    ($($(#[$doc:meta])* $v:ident = $code:literal, $name:literal, $bytes:literal;)*) => {
        /// The element type of a buffer.
        ///
        /// Every element takes [`size_in_bytes`](DType::size_in_bytes) bytes in host memory, little-endian:
        /// sub-byte integers and floats take one byte each (integers as their sign- or zero-extended 8-bit
        /// value, floats as their bit pattern in the low bits), `bool` is one byte holding 0 or 1, `tf32` is its
        /// 19-bit pattern (sign, 8 exponent bits, 10 mantissa bits) in the low bits of a `u32`, and complex
        /// numbers are the real part followed by the imaginary part.
        ///
        /// The numeric values are the C API's `OxhloDType` values.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum DType {
            $($(#[$doc])* $v = $code,)*
        }

        impl DType {
            /// Every element type, in the order of their numeric codes.
            pub const ALL: &'static [DType] = &[$(DType::$v,)*];

            /// The MLIR spelling (`f32`, `ui8`, `complex<f32>`, `f8E4M3FN`, ...).
            pub fn name(self) -> &'static str {
                match self { $(DType::$v => $name,)* }
            }

            /// Bytes one element takes in host memory.
            pub fn size_in_bytes(self) -> usize {
                match self { $(DType::$v => $bytes,)* }
            }

            /// The element type with the given numeric code (the C API's value).
            pub fn from_code(code: u32) -> Option<DType> {
                match code { $($code => Some(DType::$v),)* _ => None }
            }
        }
    };
}

dtypes! {
    /// `i1`
    Bool = 1, "i1", 1;
    /// `i2`, stored sign-extended in one byte.
    I2 = 2, "i2", 1;
    /// `i4`, stored sign-extended in one byte.
    I4 = 3, "i4", 1;
    /// `i8`
    I8 = 4, "i8", 1;
    /// `i16`
    I16 = 5, "i16", 2;
    /// `i32`
    I32 = 6, "i32", 4;
    /// `i64`
    I64 = 7, "i64", 8;
    /// `ui2`, stored in one byte.
    U2 = 8, "ui2", 1;
    /// `ui4`, stored in one byte.
    U4 = 9, "ui4", 1;
    /// `ui8`
    U8 = 10, "ui8", 1;
    /// `ui16`
    U16 = 11, "ui16", 2;
    /// `ui32`
    U32 = 12, "ui32", 4;
    /// `ui64`
    U64 = 13, "ui64", 8;
    /// `f4E2M1FN`, bit pattern in the low 4 bits of a byte.
    F4E2M1FN = 14, "f4E2M1FN", 1;
    /// `f6E2M3FN`, bit pattern in the low 6 bits of a byte.
    F6E2M3FN = 15, "f6E2M3FN", 1;
    /// `f6E3M2FN`, bit pattern in the low 6 bits of a byte.
    F6E3M2FN = 16, "f6E3M2FN", 1;
    /// `f8E3M4`
    F8E3M4 = 17, "f8E3M4", 1;
    /// `f8E4M3`
    F8E4M3 = 18, "f8E4M3", 1;
    /// `f8E4M3FN`
    F8E4M3FN = 19, "f8E4M3FN", 1;
    /// `f8E4M3FNUZ`
    F8E4M3FNUZ = 20, "f8E4M3FNUZ", 1;
    /// `f8E4M3B11FNUZ`
    F8E4M3B11FNUZ = 21, "f8E4M3B11FNUZ", 1;
    /// `f8E5M2`
    F8E5M2 = 22, "f8E5M2", 1;
    /// `f8E5M2FNUZ`
    F8E5M2FNUZ = 23, "f8E5M2FNUZ", 1;
    /// `f8E8M0FNU`
    F8E8M0FNU = 24, "f8E8M0FNU", 1;
    /// `bf16`
    BF16 = 25, "bf16", 2;
    /// `f16` (IEEE half)
    F16 = 26, "f16", 2;
    /// `tf32`, the 19-bit pattern in the low bits of a `u32`.
    TF32 = 27, "tf32", 4;
    /// `f32`
    F32 = 28, "f32", 4;
    /// `f64`
    F64 = 29, "f64", 8;
    /// `complex<f32>`: two `f32`s, real then imaginary.
    C64 = 30, "complex<f32>", 8;
    /// `complex<f64>`: two `f64`s, real then imaginary.
    C128 = 31, "complex<f64>", 16;
}

impl DType {
    /// Parses the MLIR spelling (`f32`, `i1`, `complex<f64>`); `si8` etc. are accepted as `i8`, `bool` as `i1`.
    pub fn from_name(name: &str) -> Option<DType> {
        let name = match name {
            "bool" | "pred" => "i1",
            "c64" => "complex<f32>",
            "c128" => "complex<f64>",
            other => other.strip_prefix("s").filter(|r| r.starts_with('i')).unwrap_or(other),
        };
        DType::ALL.iter().copied().find(|d| d.name() == name)
    }

    /// True for `i1`.
    pub fn is_bool(self) -> bool {
        self == DType::Bool
    }

    /// True for signed and unsigned integers (not `i1`).
    pub fn is_integer(self) -> bool {
        (DType::I2 as u32..=DType::U64 as u32).contains(&(self as u32))
    }

    /// True for every real floating-point type.
    pub fn is_float(self) -> bool {
        (DType::F4E2M1FN as u32..=DType::F64 as u32).contains(&(self as u32))
    }

    /// True for `complex<f32>` and `complex<f64>`.
    pub fn is_complex(self) -> bool {
        matches!(self, DType::C64 | DType::C128)
    }

    /// The IR element type (signless integers for `I*`).
    pub fn to_ir(self) -> ElementType {
        let float = |f| ElementType::Float(f);
        match self {
            DType::Bool => ElementType::Bool,
            DType::I2 => ElementType::int(2),
            DType::I4 => ElementType::int(4),
            DType::I8 => ElementType::int(8),
            DType::I16 => ElementType::int(16),
            DType::I32 => ElementType::int(32),
            DType::I64 => ElementType::int(64),
            DType::U2 => ElementType::uint(2),
            DType::U4 => ElementType::uint(4),
            DType::U8 => ElementType::uint(8),
            DType::U16 => ElementType::uint(16),
            DType::U32 => ElementType::uint(32),
            DType::U64 => ElementType::uint(64),
            DType::F4E2M1FN => float(FloatType::F4E2M1FN),
            DType::F6E2M3FN => float(FloatType::F6E2M3FN),
            DType::F6E3M2FN => float(FloatType::F6E3M2FN),
            DType::F8E3M4 => float(FloatType::F8E3M4),
            DType::F8E4M3 => float(FloatType::F8E4M3),
            DType::F8E4M3FN => float(FloatType::F8E4M3FN),
            DType::F8E4M3FNUZ => float(FloatType::F8E4M3FNUZ),
            DType::F8E4M3B11FNUZ => float(FloatType::F8E4M3B11FNUZ),
            DType::F8E5M2 => float(FloatType::F8E5M2),
            DType::F8E5M2FNUZ => float(FloatType::F8E5M2FNUZ),
            DType::F8E8M0FNU => float(FloatType::F8E8M0FNU),
            DType::BF16 => float(FloatType::BF16),
            DType::F16 => float(FloatType::F16),
            DType::TF32 => float(FloatType::TF32),
            DType::F32 => float(FloatType::F32),
            DType::F64 => float(FloatType::F64),
            DType::C64 => ElementType::Complex(FloatType::F32),
            DType::C128 => ElementType::Complex(FloatType::F64),
        }
    }

    /// The buffer element type of an IR element type (`si8` and `i8` both give `I8`); quantized types,
    /// `index` and odd integer widths are not buffer types.
    pub fn from_ir(elem: &ElementType) -> Result<DType> {
        let unsupported = || Error::unsupported(format!("element type {} cannot be held in a buffer", ir_name(elem)));
        Ok(match elem {
            ElementType::Bool => DType::Bool,
            ElementType::Int { bits, signedness } => {
                let unsigned = *signedness == Signedness::Unsigned;
                match (bits, unsigned) {
                    (2, false) => DType::I2,
                    (4, false) => DType::I4,
                    (8, false) => DType::I8,
                    (16, false) => DType::I16,
                    (32, false) => DType::I32,
                    (64, false) => DType::I64,
                    (2, true) => DType::U2,
                    (4, true) => DType::U4,
                    (8, true) => DType::U8,
                    (16, true) => DType::U16,
                    (32, true) => DType::U32,
                    (64, true) => DType::U64,
                    _ => return Err(unsupported()),
                }
            }
            ElementType::Float(f) => {
                let d = DType::from_name(f.name()).ok_or_else(unsupported)?;
                debug_assert!(d.is_float());
                d
            }
            ElementType::Complex(FloatType::F32) => DType::C64,
            ElementType::Complex(FloatType::F64) => DType::C128,
            _ => return Err(unsupported()),
        })
    }

    /// The bit width of the value held in each element's storage (`4` for `i4`, `19` for `tf32`).
    pub(crate) fn value_bits(self) -> u32 {
        self.to_ir().bits()
    }

    /// Checks that one element's storage holds a value of this type (sub-byte types and `i1` leave bits over),
    /// returning a description of the problem.
    pub(crate) fn check_element(self, bytes: &[u8]) -> std::result::Result<(), String> {
        let bits = self.value_bits();
        if self.is_complex() || bits >= 8 * self.size_in_bytes() as u32 {
            return Ok(());
        }
        let mut raw: u64 = 0;
        for (k, b) in bytes.iter().enumerate().take(8) {
            raw |= (*b as u64) << (8 * k);
        }
        let ok = if matches!(self, DType::I2 | DType::I4) {
            // Sign-extended in one byte.
            let v = raw as u8 as i8 as i64;
            let half = 1i64 << (bits - 1);
            (-half..half).contains(&v)
        } else {
            raw >> bits == 0
        };
        if ok {
            Ok(())
        } else {
            Err(format!("0x{raw:x} is not a valid {} value (it has {} significant bits)", self.name(), bits))
        }
    }
}

/// The MLIR-ish spelling of an IR element type, for messages.
pub(crate) fn ir_name(elem: &ElementType) -> String {
    match elem {
        ElementType::Bool => "i1".into(),
        ElementType::Int { bits, signedness: Signedness::Unsigned } => format!("ui{bits}"),
        ElementType::Int { bits, signedness: Signedness::Signed } => format!("si{bits}"),
        ElementType::Int { bits, .. } => format!("i{bits}"),
        ElementType::Float(f) => f.name().into(),
        ElementType::Complex(f) => format!("complex<{}>", f.name()),
        ElementType::Quant(q) => format!("!quant.uniform<{}:{}>", ir_name(&q.storage), ir_name(&q.expressed)),
        ElementType::Index => "index".into(),
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for DType {
    type Err = Error;
    fn from_str(s: &str) -> Result<DType> {
        DType::from_name(s).ok_or_else(|| Error::invalid(format!("`{s}` is not an element type")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ir_roundtrip_and_names() {
        for &d in DType::ALL {
            assert_eq!(DType::from_ir(&d.to_ir()).unwrap(), d, "{d}");
            assert_eq!(DType::from_name(d.name()), Some(d));
            assert_eq!(DType::from_code(d as u32), Some(d));
            assert_eq!(d.size_in_bytes(), d.to_ir().storage_bytes(), "{d}");
        }
        assert_eq!(DType::from_name("si32"), Some(DType::I32));
        assert_eq!(DType::from_name("bool"), Some(DType::Bool));
        assert_eq!(DType::from_code(0), None);
    }

    #[test]
    fn classes() {
        assert!(DType::Bool.is_bool() && !DType::Bool.is_integer());
        assert!(DType::U4.is_integer() && DType::I64.is_integer());
        assert!(DType::F4E2M1FN.is_float() && DType::F64.is_float() && !DType::C64.is_float());
        assert!(DType::C128.is_complex());
    }

    #[test]
    fn element_checks() {
        assert!(DType::Bool.check_element(&[1]).is_ok());
        assert!(DType::Bool.check_element(&[2]).is_err());
        assert!(DType::I4.check_element(&[0xF8]).is_ok()); // -8
        assert!(DType::I4.check_element(&[0x08]).is_err()); // 8 does not fit
        assert!(DType::U4.check_element(&[15]).is_ok());
        assert!(DType::U4.check_element(&[16]).is_err());
        assert!(DType::F4E2M1FN.check_element(&[0x1F]).is_err());
        assert!(DType::TF32.check_element(&[0, 0, 8, 0]).is_err());
        assert!(DType::TF32.check_element(&[0, 0, 7, 0]).is_ok());
        assert!(DType::F32.check_element(&[0xFF; 4]).is_ok());
    }

    #[test]
    fn rejects_quantized_and_index() {
        assert_eq!(DType::from_ir(&ElementType::Index).unwrap_err().kind(), crate::ErrorKind::Unsupported);
        assert!(DType::from_ir(&ElementType::int(3)).is_err());
    }
}
