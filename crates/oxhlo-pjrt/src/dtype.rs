//! Element types as PJRT numbers them (`PJRT_Buffer_Type`), their host sizes, and the mapping to and
//! from oxhlo IR element types. Host data is little-endian, dense, one storage slot per element, the
//! same bytes as [`oxhlo_ir::DenseElements`] (sub-byte types take one byte per element, as numpy's
//! `ml_dtypes` int4/float4 arrays do).

use oxhlo_ir::{ElementType, FloatType, Signedness};

/// A `PJRT_Buffer_Type` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferType(pub i32);

impl BufferType {
    pub const INVALID: BufferType = BufferType(0);
    pub const PRED: BufferType = BufferType(1);
    pub const S8: BufferType = BufferType(2);
    pub const S16: BufferType = BufferType(3);
    pub const S32: BufferType = BufferType(4);
    pub const S64: BufferType = BufferType(5);
    pub const U8: BufferType = BufferType(6);
    pub const U16: BufferType = BufferType(7);
    pub const U32: BufferType = BufferType(8);
    pub const U64: BufferType = BufferType(9);
    pub const F16: BufferType = BufferType(10);
    pub const F32: BufferType = BufferType(11);
    pub const F64: BufferType = BufferType(12);
    pub const BF16: BufferType = BufferType(13);
    pub const C64: BufferType = BufferType(14);
    pub const C128: BufferType = BufferType(15);
    pub const F8E5M2: BufferType = BufferType(16);
    pub const F8E4M3FN: BufferType = BufferType(17);
    pub const F8E4M3B11FNUZ: BufferType = BufferType(18);
    pub const F8E5M2FNUZ: BufferType = BufferType(19);
    pub const F8E4M3FNUZ: BufferType = BufferType(20);
    pub const S4: BufferType = BufferType(21);
    pub const U4: BufferType = BufferType(22);
    pub const TOKEN: BufferType = BufferType(23);
    pub const S2: BufferType = BufferType(24);
    pub const U2: BufferType = BufferType(25);
    pub const F8E4M3: BufferType = BufferType(26);
    pub const F8E3M4: BufferType = BufferType(27);
    pub const F8E8M0FNU: BufferType = BufferType(28);
    pub const F4E2M1FN: BufferType = BufferType(29);
    pub const S1: BufferType = BufferType(30);
    pub const U1: BufferType = BufferType(31);

    /// The XLA spelling (`f32`, `pred`, `c64`, ...).
    pub fn name(self) -> &'static str {
        const NAMES: [&str; 32] = [
            "invalid", "pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "f16", "f32", "f64", "bf16", "c64",
            "c128", "f8e5m2", "f8e4m3fn", "f8e4m3b11fnuz", "f8e5m2fnuz", "f8e4m3fnuz", "s4", "u4", "token", "s2", "u2",
            "f8e4m3", "f8e3m4", "f8e8m0fnu", "f4e2m1fn", "s1", "u1",
        ];
        usize::try_from(self.0).ok().and_then(|i| NAMES.get(i)).copied().unwrap_or("unknown")
    }

    /// Bytes per element on the host (None for INVALID, TOKEN and unknown codes).
    pub fn byte_size(self) -> Option<usize> {
        Some(match self.0 {
            1 | 2 | 6 | 16..=22 | 24..=31 => 1,
            3 | 7 | 10 | 13 => 2,
            4 | 8 | 11 => 4,
            5 | 9 | 12 | 14 => 8,
            15 => 16,
            _ => return None,
        })
    }

    /// The IR element type.
    pub fn to_ir(self) -> Option<ElementType> {
        let sint = |bits| ElementType::Int { bits, signedness: Signedness::Signless };
        let uint = |bits| ElementType::Int { bits, signedness: Signedness::Unsigned };
        let f = ElementType::Float;
        Some(match self.0 {
            1 => ElementType::Bool,
            2 => sint(8),
            3 => sint(16),
            4 => sint(32),
            5 => sint(64),
            6 => uint(8),
            7 => uint(16),
            8 => uint(32),
            9 => uint(64),
            10 => f(FloatType::F16),
            11 => f(FloatType::F32),
            12 => f(FloatType::F64),
            13 => f(FloatType::BF16),
            14 => ElementType::Complex(FloatType::F32),
            15 => ElementType::Complex(FloatType::F64),
            16 => f(FloatType::F8E5M2),
            17 => f(FloatType::F8E4M3FN),
            18 => f(FloatType::F8E4M3B11FNUZ),
            19 => f(FloatType::F8E5M2FNUZ),
            20 => f(FloatType::F8E4M3FNUZ),
            21 => sint(4),
            22 => uint(4),
            24 => sint(2),
            25 => uint(2),
            26 => f(FloatType::F8E4M3),
            27 => f(FloatType::F8E3M4),
            28 => f(FloatType::F8E8M0FNU),
            29 => f(FloatType::F4E2M1FN),
            _ => return None,
        })
    }

    /// The PJRT type of an IR element type (None for types PJRT has no number for, e.g. tf32, f6).
    pub fn from_ir(e: &ElementType) -> Option<BufferType> {
        Some(match e {
            ElementType::Bool => BufferType::PRED,
            ElementType::Int { bits, signedness } => {
                let unsigned = *signedness == Signedness::Unsigned;
                match (bits, unsigned) {
                    (2, false) => BufferType::S2,
                    (4, false) => BufferType::S4,
                    (8, false) => BufferType::S8,
                    (16, false) => BufferType::S16,
                    (32, false) => BufferType::S32,
                    (64, false) => BufferType::S64,
                    (2, true) => BufferType::U2,
                    (4, true) => BufferType::U4,
                    (8, true) => BufferType::U8,
                    (16, true) => BufferType::U16,
                    (32, true) => BufferType::U32,
                    (64, true) => BufferType::U64,
                    _ => return None,
                }
            }
            ElementType::Float(f) => match f {
                FloatType::F16 => BufferType::F16,
                FloatType::F32 => BufferType::F32,
                FloatType::F64 => BufferType::F64,
                FloatType::BF16 => BufferType::BF16,
                FloatType::F8E5M2 => BufferType::F8E5M2,
                FloatType::F8E4M3FN => BufferType::F8E4M3FN,
                FloatType::F8E4M3B11FNUZ => BufferType::F8E4M3B11FNUZ,
                FloatType::F8E5M2FNUZ => BufferType::F8E5M2FNUZ,
                FloatType::F8E4M3FNUZ => BufferType::F8E4M3FNUZ,
                FloatType::F8E4M3 => BufferType::F8E4M3,
                FloatType::F8E3M4 => BufferType::F8E3M4,
                FloatType::F8E8M0FNU => BufferType::F8E8M0FNU,
                FloatType::F4E2M1FN => BufferType::F4E2M1FN,
                _ => return None,
            },
            ElementType::Complex(FloatType::F32) => BufferType::C64,
            ElementType::Complex(FloatType::F64) => BufferType::C128,
            _ => return None,
        })
    }
}

/// Number of elements of a shape (None when a dimension is negative or the product overflows).
pub fn num_elements(dims: &[i64]) -> Option<usize> {
    dims.iter().try_fold(1usize, |n, &d| n.checked_mul(usize::try_from(d).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tensor_type_round_trips_through_the_ir() {
        for code in 1..=31 {
            let t = BufferType(code);
            if let Some(e) = t.to_ir() {
                assert_eq!(BufferType::from_ir(&e), Some(t), "{}", t.name());
                assert_eq!(e.storage_bytes(), t.byte_size().unwrap(), "{}", t.name());
            }
        }
        assert_eq!(BufferType::F32.name(), "f32");
        assert_eq!(BufferType::C128.byte_size(), Some(16));
        assert_eq!(BufferType::TOKEN.byte_size(), None);
        assert_eq!(num_elements(&[2, 0, 3]), Some(0));
        assert_eq!(num_elements(&[]), Some(1));
    }
}
