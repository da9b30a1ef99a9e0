//! Native tensors of the CPU backend: one typed, row-major `Vec` per tensor (f32 as `f32`, bf16 as
//! `half::bf16`, ...), shared by `Arc` so reshapes and pass-through values cost nothing, and converted to and
//! from the interpreter's exact representation for ops that fall back to it. Element types without a
//! native layout here (sub-byte integers, f8/f6/f4, quantized, index) stay interpreter tensors.

use half::{bf16, f16};
use oxhlo_interp::{Data, RtValue, Tensor};
use oxhlo_ir::{ElementType, FloatType, Signedness, TensorType};
use std::sync::Arc;

/// Element storage with one native Rust type per supported element type.
#[derive(Clone, Debug, PartialEq)]
pub enum Buf {
    Bool(Vec<bool>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F16(Vec<f16>),
    BF16(Vec<bf16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    /// complex<f32> as (re, im).
    C64(Vec<[f32; 2]>),
    /// complex<f64> as (re, im).
    C128(Vec<[f64; 2]>),
}

/// The native kind of an element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F16,
    BF16,
    F32,
    F64,
    C64,
    C128,
}

impl Kind {
    /// The native kind of `elem`, or None when the element type has no native layout here.
    pub fn of(elem: &ElementType) -> Option<Kind> {
        Some(match elem {
            ElementType::Bool => Kind::Bool,
            ElementType::Int { bits, signedness } => match (bits, signedness) {
                (8, Signedness::Unsigned) => Kind::U8,
                (16, Signedness::Unsigned) => Kind::U16,
                (32, Signedness::Unsigned) => Kind::U32,
                (64, Signedness::Unsigned) => Kind::U64,
                (8, _) => Kind::I8,
                (16, _) => Kind::I16,
                (32, _) => Kind::I32,
                (64, _) => Kind::I64,
                _ => return None,
            },
            ElementType::Float(FloatType::F16) => Kind::F16,
            ElementType::Float(FloatType::BF16) => Kind::BF16,
            ElementType::Float(FloatType::F32) => Kind::F32,
            ElementType::Float(FloatType::F64) => Kind::F64,
            ElementType::Complex(FloatType::F32) => Kind::C64,
            ElementType::Complex(FloatType::F64) => Kind::C128,
            _ => return None,
        })
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Kind::Bool | Kind::I8 | Kind::U8 => 1,
            Kind::I16 | Kind::U16 | Kind::F16 | Kind::BF16 => 2,
            Kind::I32 | Kind::U32 | Kind::F32 => 4,
            Kind::I64 | Kind::U64 | Kind::F64 | Kind::C64 => 8,
            Kind::C128 => 16,
        }
    }
}

impl Buf {
    /// `n` zero elements of `kind`.
    pub fn zeros(kind: Kind, n: usize) -> Buf {
        match kind {
            Kind::Bool => Buf::Bool(vec![false; n]),
            Kind::I8 => Buf::I8(vec![0; n]),
            Kind::I16 => Buf::I16(vec![0; n]),
            Kind::I32 => Buf::I32(vec![0; n]),
            Kind::I64 => Buf::I64(vec![0; n]),
            Kind::U8 => Buf::U8(vec![0; n]),
            Kind::U16 => Buf::U16(vec![0; n]),
            Kind::U32 => Buf::U32(vec![0; n]),
            Kind::U64 => Buf::U64(vec![0; n]),
            Kind::F16 => Buf::F16(vec![f16::ZERO; n]),
            Kind::BF16 => Buf::BF16(vec![bf16::ZERO; n]),
            Kind::F32 => Buf::F32(vec![0.0; n]),
            Kind::F64 => Buf::F64(vec![0.0; n]),
            Kind::C64 => Buf::C64(vec![[0.0; 2]; n]),
            Kind::C128 => Buf::C128(vec![[0.0; 2]; n]),
        }
    }

    /// An empty buffer of `kind` with room for `n` elements (see [`Buf::set_len`]).
    pub fn with_capacity(kind: Kind, n: usize) -> Buf {
        match kind {
            Kind::Bool => Buf::Bool(Vec::with_capacity(n)),
            Kind::I8 => Buf::I8(Vec::with_capacity(n)),
            Kind::I16 => Buf::I16(Vec::with_capacity(n)),
            Kind::I32 => Buf::I32(Vec::with_capacity(n)),
            Kind::I64 => Buf::I64(Vec::with_capacity(n)),
            Kind::U8 => Buf::U8(Vec::with_capacity(n)),
            Kind::U16 => Buf::U16(Vec::with_capacity(n)),
            Kind::U32 => Buf::U32(Vec::with_capacity(n)),
            Kind::U64 => Buf::U64(Vec::with_capacity(n)),
            Kind::F16 => Buf::F16(Vec::with_capacity(n)),
            Kind::BF16 => Buf::BF16(Vec::with_capacity(n)),
            Kind::F32 => Buf::F32(Vec::with_capacity(n)),
            Kind::F64 => Buf::F64(Vec::with_capacity(n)),
            Kind::C64 => Buf::C64(Vec::with_capacity(n)),
            Kind::C128 => Buf::C128(Vec::with_capacity(n)),
        }
    }

    /// The start address of the storage and its capacity in bytes.
    pub fn capacity_range(&self) -> (usize, usize) {
        fn range<T>(v: &[T], capacity: usize) -> (usize, usize) {
            (v.as_ptr() as usize, capacity * std::mem::size_of::<T>())
        }
        macro_rules! r {
            ($v:expr) => {
                range($v.as_slice(), $v.capacity())
            };
        }
        match self {
            Buf::Bool(v) => r!(v),
            Buf::I8(v) => r!(v),
            Buf::I16(v) => r!(v),
            Buf::I32(v) => r!(v),
            Buf::I64(v) => r!(v),
            Buf::U8(v) => r!(v),
            Buf::U16(v) => r!(v),
            Buf::U32(v) => r!(v),
            Buf::U64(v) => r!(v),
            Buf::F16(v) => r!(v),
            Buf::BF16(v) => r!(v),
            Buf::F32(v) => r!(v),
            Buf::F64(v) => r!(v),
            Buf::C64(v) => r!(v),
            Buf::C128(v) => r!(v),
        }
    }

    /// Sets the element count.
    ///
    /// # Safety
    /// The first `n` elements of the storage must have been written, and `n` must not exceed the
    /// capacity.
    pub unsafe fn set_len(&mut self, n: usize) {
        macro_rules! s {
            ($v:expr) => {
                // SAFETY: as the caller guarantees.
                unsafe { $v.set_len(n) }
            };
        }
        match self {
            Buf::Bool(v) => s!(v),
            Buf::I8(v) => s!(v),
            Buf::I16(v) => s!(v),
            Buf::I32(v) => s!(v),
            Buf::I64(v) => s!(v),
            Buf::U8(v) => s!(v),
            Buf::U16(v) => s!(v),
            Buf::U32(v) => s!(v),
            Buf::U64(v) => s!(v),
            Buf::F16(v) => s!(v),
            Buf::BF16(v) => s!(v),
            Buf::F32(v) => s!(v),
            Buf::F64(v) => s!(v),
            Buf::C64(v) => s!(v),
            Buf::C128(v) => s!(v),
        }
    }

    /// `n` copies of element 0 (None when the buffer is empty).
    pub fn repeat_first(&self, n: usize) -> Option<Buf> {
        Some(match self {
            Buf::Bool(v) => Buf::Bool(vec![*v.first()?; n]),
            Buf::I8(v) => Buf::I8(vec![*v.first()?; n]),
            Buf::I16(v) => Buf::I16(vec![*v.first()?; n]),
            Buf::I32(v) => Buf::I32(vec![*v.first()?; n]),
            Buf::I64(v) => Buf::I64(vec![*v.first()?; n]),
            Buf::U8(v) => Buf::U8(vec![*v.first()?; n]),
            Buf::U16(v) => Buf::U16(vec![*v.first()?; n]),
            Buf::U32(v) => Buf::U32(vec![*v.first()?; n]),
            Buf::U64(v) => Buf::U64(vec![*v.first()?; n]),
            Buf::F16(v) => Buf::F16(vec![*v.first()?; n]),
            Buf::BF16(v) => Buf::BF16(vec![*v.first()?; n]),
            Buf::F32(v) => Buf::F32(vec![*v.first()?; n]),
            Buf::F64(v) => Buf::F64(vec![*v.first()?; n]),
            Buf::C64(v) => Buf::C64(vec![*v.first()?; n]),
            Buf::C128(v) => Buf::C128(vec![*v.first()?; n]),
        })
    }

    pub fn kind(&self) -> Kind {
        match self {
            Buf::Bool(_) => Kind::Bool,
            Buf::I8(_) => Kind::I8,
            Buf::I16(_) => Kind::I16,
            Buf::I32(_) => Kind::I32,
            Buf::I64(_) => Kind::I64,
            Buf::U8(_) => Kind::U8,
            Buf::U16(_) => Kind::U16,
            Buf::U32(_) => Kind::U32,
            Buf::U64(_) => Kind::U64,
            Buf::F16(_) => Kind::F16,
            Buf::BF16(_) => Kind::BF16,
            Buf::F32(_) => Kind::F32,
            Buf::F64(_) => Kind::F64,
            Buf::C64(_) => Kind::C64,
            Buf::C128(_) => Kind::C128,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Buf::Bool(v) => v.len(),
            Buf::I8(v) => v.len(),
            Buf::I16(v) => v.len(),
            Buf::I32(v) => v.len(),
            Buf::I64(v) => v.len(),
            Buf::U8(v) => v.len(),
            Buf::U16(v) => v.len(),
            Buf::U32(v) => v.len(),
            Buf::U64(v) => v.len(),
            Buf::F16(v) => v.len(),
            Buf::BF16(v) => v.len(),
            Buf::F32(v) => v.len(),
            Buf::F64(v) => v.len(),
            Buf::C64(v) => v.len(),
            Buf::C128(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements' little-endian bytes (the layout PJRT and `oxhlo::Buffer` use; bool as one byte).
    /// A plain memory copy on little-endian hosts.
    pub fn to_le_bytes(&self) -> Vec<u8> {
        self.as_le_bytes().to_vec()
    }

    /// The elements' little-endian bytes, borrowed (bool as one byte, 0 or 1): the storage itself on a
    /// little-endian host, so PJRT and the C API can hand it out without a copy.
    pub fn as_le_bytes(&self) -> &[u8] {
        use bytemuck::cast_slice as bytes;
        const { assert!(cfg!(target_endian = "little"), "oxhlo-cpu assumes a little-endian host") };
        match self {
            Buf::Bool(v) => bytes(v),
            Buf::I8(v) => bytes(v),
            Buf::U8(v) => v,
            Buf::I16(v) => bytes(v),
            Buf::U16(v) => bytes(v),
            Buf::I32(v) => bytes(v),
            Buf::U32(v) => bytes(v),
            Buf::I64(v) => bytes(v),
            Buf::U64(v) => bytes(v),
            Buf::F16(v) => bytes(v),
            Buf::BF16(v) => bytes(v),
            Buf::F32(v) => bytes(v),
            Buf::F64(v) => bytes(v),
            Buf::C64(v) => bytes(v),
            Buf::C128(v) => bytes(v),
        }
    }

    /// The storage as writable little-endian bytes, for filling a fresh buffer from outside (None for
    /// bool, where not every byte is a valid element).
    pub fn as_le_bytes_mut(&mut self) -> Option<&mut [u8]> {
        use bytemuck::cast_slice_mut as bytes;
        Some(match self {
            Buf::Bool(_) => return None,
            Buf::I8(v) => bytes(v),
            Buf::U8(v) => v,
            Buf::I16(v) => bytes(v),
            Buf::U16(v) => bytes(v),
            Buf::I32(v) => bytes(v),
            Buf::U32(v) => bytes(v),
            Buf::I64(v) => bytes(v),
            Buf::U64(v) => bytes(v),
            Buf::F16(v) => bytes(v),
            Buf::BF16(v) => bytes(v),
            Buf::F32(v) => bytes(v),
            Buf::F64(v) => bytes(v),
            Buf::C64(v) => bytes(v),
            Buf::C128(v) => bytes(v),
        })
    }

    /// Reads `kind` elements from little-endian bytes (bool: any nonzero byte is true). The byte count
    /// must be a multiple of the element size. A plain memory copy on little-endian hosts.
    pub fn from_le_bytes(kind: Kind, b: &[u8]) -> Result<Buf, String> {
        let size = kind.size();
        if !b.len().is_multiple_of(size) {
            return Err(format!("{} bytes is not a whole number of {size}-byte elements", b.len()));
        }
        let n = b.len() / size;
        fn fill<T: bytemuck::Pod + Default + Clone>(n: usize, b: &[u8]) -> Vec<T> {
            let mut v = vec![T::default(); n];
            bytemuck::cast_slice_mut::<T, u8>(&mut v).copy_from_slice(b);
            v
        }
        Ok(match kind {
            Kind::Bool => Buf::Bool(b.iter().map(|&x| x != 0).collect()),
            Kind::I8 => Buf::I8(fill(n, b)),
            Kind::U8 => Buf::U8(b.to_vec()),
            Kind::I16 => Buf::I16(fill(n, b)),
            Kind::U16 => Buf::U16(fill(n, b)),
            Kind::I32 => Buf::I32(fill(n, b)),
            Kind::U32 => Buf::U32(fill(n, b)),
            Kind::I64 => Buf::I64(fill(n, b)),
            Kind::U64 => Buf::U64(fill(n, b)),
            Kind::F16 => Buf::F16(fill(n, b)),
            Kind::BF16 => Buf::BF16(fill(n, b)),
            Kind::F32 => Buf::F32(fill(n, b)),
            Kind::F64 => Buf::F64(fill(n, b)),
            Kind::C64 => Buf::C64(fill(n, b)),
            Kind::C128 => Buf::C128(fill(n, b)),
        })
    }
}

/// A native tensor: its type (static shape) and shared storage. Clone is cheap; a kernel that wants to
/// write in place uses [`NTensor::into_buf`], which copies only when the storage is shared.
#[derive(Clone, Debug, PartialEq)]
pub struct NTensor {
    pub ty: TensorType,
    pub buf: Arc<Buf>,
}

impl NTensor {
    pub fn new(ty: TensorType, buf: Buf) -> NTensor {
        NTensor { ty, buf: Arc::new(buf) }
    }

    /// Dimensions as usize (static shapes only reach the CPU backend).
    pub fn dims(&self) -> Vec<usize> {
        self.ty.shape.iter().map(|&d| d.max(0) as usize).collect()
    }

    pub fn len(&self) -> usize {
        self.buf.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    pub fn kind(&self) -> Kind {
        self.buf.kind()
    }

    /// The storage, owned: moved out when this is the only reference, copied otherwise.
    /// A compact splat: the type of a big tensor whose every element equals the one stored (the CPU
    /// executor keeps big splat constants this way; fused kernels read them as scalars).
    pub fn splat(ty: TensorType, one: Buf) -> NTensor {
        NTensor { ty, buf: Arc::new(one) }
    }

    /// Whether this is a compact splat (fewer stored elements than its type has).
    pub fn is_compact_splat(&self) -> bool {
        self.buf.len() == 1 && self.ty.num_elements().is_some_and(|n| n > 1)
    }

    /// The tensor with every element stored (a copy for a compact splat, itself otherwise).
    pub fn expanded(self) -> NTensor {
        if !self.is_compact_splat() {
            return self;
        }
        let n = self.ty.num_elements().unwrap_or(1);
        match self.buf.repeat_first(n) {
            Some(b) => NTensor { ty: self.ty, buf: Arc::new(b) },
            None => self,
        }
    }

    pub fn into_buf(self) -> Buf {
        Arc::try_unwrap(self.buf).unwrap_or_else(|shared| (*shared).clone())
    }

    /// The same elements under another type of the same element count (reshape, or a type refinement).
    pub fn retyped(&self, ty: TensorType) -> NTensor {
        NTensor { ty, buf: self.buf.clone() }
    }

    /// The f32 elements, if this is an f32 tensor.
    pub fn f32s(&self) -> Option<&[f32]> {
        match &*self.buf {
            Buf::F32(v) => Some(v),
            _ => None,
        }
    }

    /// Converts an interpreter tensor, or None when its element type has no native layout.
    pub fn from_interp(t: &Tensor) -> Option<NTensor> {
        let kind = Kind::of(&t.ty.elem)?;
        let buf = match (&t.data, kind) {
            (Data::Bool(v), Kind::Bool) => Buf::Bool(v.clone()),
            (Data::Int(v), Kind::I8) => Buf::I8(v.iter().map(|&x| x as i8).collect()),
            (Data::Int(v), Kind::I16) => Buf::I16(v.iter().map(|&x| x as i16).collect()),
            (Data::Int(v), Kind::I32) => Buf::I32(v.iter().map(|&x| x as i32).collect()),
            (Data::Int(v), Kind::I64) => Buf::I64(v.clone()),
            (Data::UInt(v), Kind::U8) => Buf::U8(v.iter().map(|&x| x as u8).collect()),
            (Data::UInt(v), Kind::U16) => Buf::U16(v.iter().map(|&x| x as u16).collect()),
            (Data::UInt(v), Kind::U32) => Buf::U32(v.iter().map(|&x| x as u32).collect()),
            (Data::UInt(v), Kind::U64) => Buf::U64(v.clone()),
            (Data::Float(v), Kind::F16) => Buf::F16(v.iter().map(|&x| f16::from_f64(x)).collect()),
            (Data::Float(v), Kind::BF16) => Buf::BF16(v.iter().map(|&x| bf16::from_f64(x)).collect()),
            (Data::Float(v), Kind::F32) => Buf::F32(v.iter().map(|&x| x as f32).collect()),
            (Data::Float(v), Kind::F64) => Buf::F64(v.clone()),
            (Data::Complex(v), Kind::C64) => Buf::C64(v.iter().map(|&(r, i)| [r as f32, i as f32]).collect()),
            (Data::Complex(v), Kind::C128) => Buf::C128(v.iter().map(|&(r, i)| [r, i]).collect()),
            _ => return None,
        };
        Some(NTensor::new(t.ty.clone(), buf))
    }

    /// The interpreter's exact representation of this tensor.
    pub fn to_interp(&self) -> Tensor {
        let data = match &*self.buf {
            Buf::Bool(v) => Data::Bool(v.clone()),
            Buf::I8(v) => Data::Int(v.iter().map(|&x| x as i64).collect()),
            Buf::I16(v) => Data::Int(v.iter().map(|&x| x as i64).collect()),
            Buf::I32(v) => Data::Int(v.iter().map(|&x| x as i64).collect()),
            Buf::I64(v) => Data::Int(v.clone()),
            Buf::U8(v) => Data::UInt(v.iter().map(|&x| x as u64).collect()),
            Buf::U16(v) => Data::UInt(v.iter().map(|&x| x as u64).collect()),
            Buf::U32(v) => Data::UInt(v.iter().map(|&x| x as u64).collect()),
            Buf::U64(v) => Data::UInt(v.clone()),
            Buf::F16(v) => Data::Float(v.iter().map(|x| x.to_f64()).collect()),
            Buf::BF16(v) => Data::Float(v.iter().map(|x| x.to_f64()).collect()),
            Buf::F32(v) => Data::Float(v.iter().map(|&x| x as f64).collect()),
            Buf::F64(v) => Data::Float(v.clone()),
            Buf::C64(v) => Data::Complex(v.iter().map(|&[r, i]| (r as f64, i as f64)).collect()),
            Buf::C128(v) => Data::Complex(v.iter().map(|&[r, i]| (r, i)).collect()),
        };
        Tensor { ty: self.ty.clone(), data }
    }
}

/// A runtime value of the CPU backend: a native tensor, or anything else in the interpreter's form
/// (tensors of exotic element types, tokens, tuples).
#[derive(Clone, Debug)]
pub enum Val {
    Native(NTensor),
    Other(RtValue),
}

impl Val {
    /// From an interpreter value: native when the element type allows.
    pub fn from_rt(v: RtValue) -> Val {
        match v {
            RtValue::Tensor(t) => match NTensor::from_interp(&t) {
                Some(n) => Val::Native(n),
                None => Val::Other(RtValue::Tensor(t)),
            },
            other => Val::Other(other),
        }
    }

    /// To an interpreter value (copies native storage into the exact representation).
    pub fn to_rt(&self) -> RtValue {
        match self {
            Val::Native(n) => RtValue::Tensor(n.to_interp()),
            Val::Other(v) => v.clone(),
        }
    }

    pub fn native(&self) -> Option<&NTensor> {
        match self {
            Val::Native(n) => Some(n),
            Val::Other(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interp_round_trip_keeps_values() {
        let t = Tensor {
            ty: TensorType::new(vec![3], ElementType::Float(FloatType::BF16)),
            data: Data::Float(vec![1.5, -0.0, f64::INFINITY]),
        };
        let n = NTensor::from_interp(&t).unwrap();
        assert_eq!(n.kind(), Kind::BF16);
        assert_eq!(n.to_interp(), t);
        let u = Tensor { ty: TensorType::new(vec![2], ElementType::uint(16)), data: Data::UInt(vec![0, 65535]) };
        assert_eq!(NTensor::from_interp(&u).unwrap().to_interp(), u);
        let s4 = Tensor { ty: TensorType::new(vec![1], ElementType::int(4)), data: Data::Int(vec![-8]) };
        assert!(NTensor::from_interp(&s4).is_none());
    }

    #[test]
    fn le_bytes_round_trip() {
        let b = Buf::C64(vec![[1.0, -2.0], [f32::NAN, 0.5]]);
        let bytes = b.to_le_bytes();
        assert_eq!(bytes.len(), 16);
        let back = Buf::from_le_bytes(Kind::C64, &bytes).unwrap();
        assert_eq!(back.to_le_bytes(), bytes);
        assert!(Buf::from_le_bytes(Kind::F32, &[0, 0, 0]).is_err());
    }
}
