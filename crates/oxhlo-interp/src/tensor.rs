//! Runtime values of the interpreter: tensors of every element type in a typed, exact representation,
//! tokens and tuples, and conversion from/to the IR's dense literals.
//!
//! Representation invariants (every op must keep them):
//! - `Data::Bool` for `i1`.
//! - `Data::Int` for signless/signed integers of any width: values sign-extended and wrapped to the width.
//! - `Data::UInt` for unsigned integers: values masked to the width.
//! - `Data::Float` for every float type: each value exactly representable in the tensor's float type
//!   (f32 values are f64s holding f32 values, bf16 values hold bf16 values, ...); results are rounded to the
//!   type after every op with [`round_to`].
//! - `Data::Complex` for complex<f32>/complex<f64>: (re, im), each part representable in the part type.
//! - Quantized tensors hold their storage integers (`Int`/`UInt`), the scales live in the type.

use oxhlo_ir::dense::extend;
use oxhlo_ir::{DenseElements, ElementType, FloatType, TensorType};

/// Element storage.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    Bool(Vec<bool>),
    Int(Vec<i64>),
    UInt(Vec<u64>),
    Float(Vec<f64>),
    Complex(Vec<(f64, f64)>),
}

impl Data {
    pub fn len(&self) -> usize {
        match self {
            Data::Bool(v) => v.len(),
            Data::Int(v) => v.len(),
            Data::UInt(v) => v.len(),
            Data::Float(v) => v.len(),
            Data::Complex(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A tensor with a static shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    pub ty: TensorType,
    pub data: Data,
}

/// Any runtime value.
#[derive(Clone, Debug, PartialEq)]
pub enum RtValue {
    Tensor(Tensor),
    Token,
    Tuple(Vec<RtValue>),
}

/// Rounds an f64 to the nearest value of a float type (ties to even), returned as f64.
pub fn round_to(ft: FloatType, x: f64) -> f64 {
    match ft {
        FloatType::F64 => x,
        FloatType::F32 => x as f32 as f64,
        _ => {
            let fmt = ft.format();
            oxhlo_dtype::decode(fmt, oxhlo_dtype::encode(fmt, x))
        }
    }
}

/// Wraps an integer to the given element type's width (sign-extending for signed types).
pub fn wrap_int(elem: &ElementType, v: i128) -> i64 {
    match elem {
        ElementType::Int { bits, .. } => extend(v as u64, *bits, true),
        ElementType::Quant(q) => wrap_int(&q.storage, v),
        _ => v as i64,
    }
}

/// Masks an unsigned integer to the given element type's width.
pub fn wrap_uint(elem: &ElementType, v: u128) -> u64 {
    match elem {
        ElementType::Int { .. } | ElementType::Quant(_) if elem.bits() < 64 => {
            (v as u64) & ((1u64 << elem.bits()) - 1)
        }
        _ => v as u64,
    }
}

impl Tensor {
    /// Element count.
    pub fn len(&self) -> usize {
        self.data.len()
    }
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    pub fn shape(&self) -> &[i64] {
        &self.ty.shape
    }
    pub fn elem(&self) -> &ElementType {
        &self.ty.elem
    }

    /// A tensor of zeros (false, 0, +0.0) of the given static type.
    pub fn zeros(ty: TensorType) -> Result<Tensor, String> {
        let n = ty.num_elements().ok_or_else(|| format!("cannot allocate a tensor of dynamic shape {:?}", ty.shape))?;
        let data = empty_data(&ty.elem, n, 0);
        Ok(Tensor { ty, data })
    }

    /// Converts a dense literal (expanding splats).
    pub fn from_dense(d: &DenseElements) -> Result<Tensor, String> {
        let n = d.ty.num_elements().ok_or("dense literal with a dynamic shape")?;
        let elem = &d.ty.elem;
        let data = match elem {
            ElementType::Bool => Data::Bool((0..n).map(|i| d.bits(i) & 1 == 1).collect()),
            ElementType::Float(f) => {
                let fmt = f.format();
                Data::Float((0..n).map(|i| oxhlo_dtype::decode(fmt, d.bits(i))).collect())
            }
            ElementType::Complex(f) => {
                let fmt = f.format();
                Data::Complex(
                    (0..n)
                        .map(|i| (oxhlo_dtype::decode(fmt, d.part_bits(i, 0)), oxhlo_dtype::decode(fmt, d.part_bits(i, 1))))
                        .collect(),
                )
            }
            ElementType::Int { .. } | ElementType::Quant(_) | ElementType::Index => {
                let (bits, signed) = int_layout(elem);
                if signed {
                    Data::Int((0..n).map(|i| extend(d.bits(i), bits, true)).collect())
                } else {
                    Data::UInt((0..n).map(|i| extend(d.bits(i), bits, false) as u64).collect())
                }
            }
        };
        Ok(Tensor { ty: d.ty.clone(), data })
    }

    /// Converts to a dense literal (bit-exact storage).
    pub fn to_dense(&self) -> DenseElements {
        let slot = self.ty.elem.storage_bytes();
        let mut out = Vec::with_capacity(self.len() * slot);
        let mut push = |v: u64, size: usize| {
            for k in 0..size {
                out.push(if k < 8 { (v >> (8 * k)) as u8 } else { 0 });
            }
        };
        match (&self.data, &self.ty.elem) {
            (Data::Bool(v), _) => v.iter().for_each(|&b| push(b as u64, slot)),
            (Data::Int(v), _) => v.iter().for_each(|&x| push(x as u64, slot)),
            (Data::UInt(v), _) => v.iter().for_each(|&x| push(x, slot)),
            (Data::Float(v), e) => {
                let fmt = e.float_type().unwrap_or(FloatType::F64).format();
                v.iter().for_each(|&x| push(oxhlo_dtype::encode(fmt, x), slot))
            }
            (Data::Complex(v), e) => {
                let fmt = e.float_type().unwrap_or(FloatType::F64).format();
                v.iter().for_each(|&(re, im)| {
                    push(oxhlo_dtype::encode(fmt, re), slot / 2);
                    push(oxhlo_dtype::encode(fmt, im), slot / 2);
                })
            }
        }
        DenseElements { ty: self.ty.clone(), data: out, splat: false }
    }

    /// Row-major strides of the shape, in elements.
    pub fn strides(&self) -> Vec<usize> {
        strides(&self.ty.shape)
    }
}

/// Row-major strides of a static shape.
pub fn strides(shape: &[i64]) -> Vec<usize> {
    let mut s = vec![1usize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1].max(0) as usize;
    }
    s
}

/// (bit width, signed) of an integer-like element type's storage.
pub fn int_layout(elem: &ElementType) -> (u32, bool) {
    match elem {
        ElementType::Quant(q) => int_layout(&q.storage),
        ElementType::Index => (64, true),
        e => (e.bits(), !e.is_unsigned_integer()),
    }
}

/// Storage of `n` copies of a zero-like element.
fn empty_data(elem: &ElementType, n: usize, _fill: i64) -> Data {
    match elem {
        ElementType::Bool => Data::Bool(vec![false; n]),
        ElementType::Float(_) => Data::Float(vec![0.0; n]),
        ElementType::Complex(_) => Data::Complex(vec![(0.0, 0.0); n]),
        e if int_layout(e).1 => Data::Int(vec![0; n]),
        _ => Data::UInt(vec![0; n]),
    }
}
