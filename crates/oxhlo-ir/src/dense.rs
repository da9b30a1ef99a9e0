//! Dense element storage: the payload of `dense<...>` attributes (and the interpreter's literals), one
//! little-endian storage slot per element (sub-byte types take a byte, tf32 takes 4, complex two parts).

use crate::types::{ElementType, TensorType};

/// The elements of a statically shaped tensor constant.
#[derive(Clone, Debug, PartialEq)]
pub struct DenseElements {
    pub ty: TensorType,
    /// `storage_bytes` per element, little-endian; only one element when `splat`.
    pub data: Vec<u8>,
    /// True when `data` holds one element that stands for all of them.
    pub splat: bool,
}

impl DenseElements {
    /// Number of logical elements (0 for dynamic shapes, which dense literals cannot have).
    pub fn len(&self) -> usize {
        self.ty.num_elements().unwrap_or(0)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes per element slot.
    pub fn slot(&self) -> usize {
        self.ty.elem.storage_bytes()
    }

    /// Builds from raw little-endian slots; `data.len()` must be one slot (splat) or `len()` slots.
    pub fn from_raw(ty: TensorType, data: Vec<u8>) -> Result<DenseElements, String> {
        let slot = ty.elem.storage_bytes();
        let n = ty.num_elements().ok_or_else(|| "dense literal needs a static shape".to_string())?;
        if data.len() == slot && n != 1 {
            return Ok(DenseElements { ty, data, splat: true });
        }
        if n.checked_mul(slot) != Some(data.len()) {
            return Err(format!("dense literal has {} bytes, expected {} ({} elements)", data.len(), n * slot, n));
        }
        Ok(DenseElements { ty, data, splat: false })
    }

    /// The raw bits of element `i` (the real part's slot for complex; reads the splat for every `i`).
    pub fn bits(&self, i: usize) -> u64 {
        self.part_bits(i, 0)
    }

    /// Raw bits of part `p` (0 = real, 1 = imaginary) of element `i`.
    pub fn part_bits(&self, i: usize, p: usize) -> u64 {
        let slot = self.slot();
        let (part_size, off) = if self.ty.elem.is_complex() { (slot / 2, p * slot / 2) } else { (slot, 0) };
        let base = if self.splat { 0 } else { i * slot } + off;
        let mut v: u64 = 0;
        for k in 0..part_size.min(8) {
            v |= (*self.data.get(base + k).unwrap_or(&0) as u64) << (8 * k);
        }
        v
    }

    /// Integer (or bool) elements as i64, sign-extended for signed types.
    pub fn to_i64_vec(&self) -> Option<Vec<i64>> {
        let (bits, signed) = match &self.ty.elem {
            ElementType::Bool => (1, false),
            ElementType::Int { bits, .. } => (*bits, self.ty.elem.is_signed_integer()),
            ElementType::Index => (64, true),
            ElementType::Quant(q) => (q.storage.bits(), q.storage.is_signed_integer()),
            _ => return None,
        };
        Some((0..self.len()).map(|i| extend(self.bits(i), bits, signed)).collect())
    }

    /// Float elements decoded exactly to f64 (real parts for complex).
    pub fn to_f64_vec(&self) -> Option<Vec<f64>> {
        let f = self.ty.elem.float_type()?;
        Some((0..self.len()).map(|i| oxhlo_dtype::decode(f.format(), self.bits(i))).collect())
    }

    /// Complex elements as (re, im) f64 pairs.
    pub fn to_complex_vec(&self) -> Option<Vec<(f64, f64)>> {
        let ElementType::Complex(f) = self.ty.elem else { return None };
        let fmt = f.format();
        Some(
            (0..self.len())
                .map(|i| (oxhlo_dtype::decode(fmt, self.part_bits(i, 0)), oxhlo_dtype::decode(fmt, self.part_bits(i, 1))))
                .collect(),
        )
    }

    /// Builds an integer/bool constant, wrapping each value to the type's width.
    pub fn from_i64s(ty: TensorType, values: &[i64]) -> Result<DenseElements, String> {
        let slot = ty.elem.storage_bytes();
        let mut data = Vec::with_capacity(values.len() * slot);
        for &v in values {
            push_le(&mut data, v as u64, slot);
        }
        DenseElements::from_raw(ty, data)
    }

    /// Builds a float constant, rounding each value to nearest-even in the element format.
    pub fn from_f64s(ty: TensorType, values: &[f64]) -> Result<DenseElements, String> {
        let f = match &ty.elem {
            ElementType::Float(f) => *f,
            other => return Err(format!("float values given for element type {other:?}")),
        };
        let slot = ty.elem.storage_bytes();
        let mut data = Vec::with_capacity(values.len() * slot);
        for &v in values {
            push_le(&mut data, oxhlo_dtype::encode(f.format(), v), slot);
        }
        DenseElements::from_raw(ty, data)
    }

    /// Builds a complex constant from (re, im) pairs.
    pub fn from_complex(ty: TensorType, values: &[(f64, f64)]) -> Result<DenseElements, String> {
        let ElementType::Complex(f) = ty.elem else { return Err("complex values for a non-complex type".into()) };
        let part = ty.elem.storage_bytes() / 2;
        let mut data = Vec::with_capacity(values.len() * part * 2);
        for &(re, im) in values {
            push_le(&mut data, oxhlo_dtype::encode(f.format(), re), part);
            push_le(&mut data, oxhlo_dtype::encode(f.format(), im), part);
        }
        DenseElements::from_raw(ty, data)
    }

    /// Expands a splat into one slot per element.
    pub fn expanded(&self) -> DenseElements {
        if !self.splat {
            return self.clone();
        }
        let n = self.len();
        DenseElements { ty: self.ty.clone(), data: self.data.repeat(n), splat: false }
    }
}

/// Sign- or zero-extends the low `bits` of `v`.
pub fn extend(v: u64, bits: u32, signed: bool) -> i64 {
    if bits >= 64 {
        return v as i64;
    }
    let masked = v & ((1u64 << bits) - 1);
    if signed && bits > 0 && (masked >> (bits - 1)) & 1 == 1 {
        (masked | !((1u64 << bits) - 1)) as i64
    } else {
        masked as i64
    }
}

fn push_le(out: &mut Vec<u8>, v: u64, slot: usize) {
    for k in 0..slot {
        out.push(if k < 8 { (v >> (8 * k)) as u8 } else { 0 });
    }
}
