//! Dense element data: MLIR's raw storage (what builtin `DenseIntOrFPElementsAttr`,
//! VHLO tensors and builtin resource blobs hold: little-endian, one element width per
//! value rounded up to bytes, i1 bit-packed, splats as one element) into oxhlo's
//! [`DenseElements`] slots, bit-exactly (sub-byte integers sign-extended into their slot,
//! as `DenseElements::from_i64s` stores them), with all-equal data stored as a splat.

use oxhlo_ir::{DenseElements, ElementType, Type};

use super::Cx;
use crate::error::{BytecodeError, Result};
use crate::model::TypeId;

/// Sign-extends the low `bits` of `v`.
pub(crate) fn sign_extend(v: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        return v as i64;
    }
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}

/// Bytes MLIR's raw storage uses per element (for complex: both parts).
fn raw_width(e: &ElementType) -> usize {
    match e {
        ElementType::Bool => 1,
        ElementType::Complex(f) => 2 * (f.bits() as usize).div_ceil(8),
        ElementType::Quant(q) => raw_width(&q.storage),
        other => (other.bits() as usize).div_ceil(8),
    }
}

/// Stores all-equal data of more than one element as a splat (MLIR's canonical form).
fn canonical_splat(d: DenseElements) -> DenseElements {
    if d.splat || d.len() <= 1 {
        return d;
    }
    let slot = d.slot();
    match d.data.get(..slot) {
        Some(first) if slot > 0 && d.data.chunks_exact(slot).all(|c| c == first) => {
            let data = first.to_vec();
            DenseElements { ty: d.ty, data, splat: true }
        }
        _ => d,
    }
}

impl Cx<'_> {
    /// Dense elements of tensor type `ty` from MLIR raw data; `at` locates errors.
    pub(crate) fn dense(&mut self, ty: TypeId, raw: &[u8], at: usize) -> Result<DenseElements> {
        let tt = match self.ty(ty)? {
            Type::Tensor(t) => t,
            other => return Err(BytecodeError::new(at, format!("dense elements need a ranked tensor type, found {other:?}"))),
        };
        let n = tt.num_elements().ok_or_else(|| BytecodeError::new(at, "dense elements need a static shape"))?;
        let elem = tt.elem.clone();
        let slot = elem.storage_bytes();
        if elem.is_bool() {
            let bits = bools(raw, n).ok_or_else(|| BytecodeError::new(at, format!("i1 dense data has {} bytes for {n} elements", raw.len())))?;
            let splat = bits.len() == 1 && n != 1;
            return Ok(canonical_splat(DenseElements { ty: tt, data: bits, splat }));
        }
        let w = raw_width(&elem);
        let count = if raw.len() == w && n != 1 && n != 0 {
            1
        } else if n.checked_mul(w) == Some(raw.len()) {
            n
        } else {
            return Err(BytecodeError::new(at, format!("dense data has {} bytes, expected {} ({n} elements of {w} bytes) or {w}", raw.len(), n.saturating_mul(w))));
        };
        let (parts, part_bits) = match &elem {
            ElementType::Complex(f) => (2, f.bits()),
            ElementType::Float(f) => (1, f.bits()),
            ElementType::Quant(q) => (1, q.storage.bits()),
            other => (1, other.bits()),
        };
        let (pw, ps) = (w / parts, slot / parts);
        let data = if pw == ps && part_bits as usize == 8 * pw {
            // Whole-byte types: MLIR's layout is oxhlo's.
            raw.to_vec()
        } else {
            let mut data = Vec::with_capacity(count * slot);
            let mask = if part_bits >= 64 { u64::MAX } else { (1u64 << part_bits) - 1 };
            // Integers are stored as the value the type reads (sign-extended for signed and
            // signless types), as `DenseElements::from_i64s` and the text parser store them.
            let signed = match &elem {
                ElementType::Int { .. } => elem.is_signed_integer(),
                ElementType::Quant(q) => q.storage.is_signed_integer(),
                _ => false,
            };
            for chunk in raw.chunks_exact(pw.max(1)).take(count * parts) {
                let mut v = chunk.iter().take(8).rev().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)) & mask;
                if signed {
                    v = sign_extend(v, part_bits) as u64;
                }
                for k in 0..ps {
                    data.push(if k < 8 { (v >> (8 * k)) as u8 } else { 0 });
                }
            }
            data
        };
        let splat = count == 1 && n != 1;
        Ok(canonical_splat(DenseElements { ty: tt, data, splat }))
    }
}

/// i1 data: bit-packed (LSB first), a splat byte (0x00 / 0xFF), or one byte per
/// element (older writers); one byte (0 or 1) per element or a single splat byte out.
fn bools(raw: &[u8], n: usize) -> Option<Vec<u8>> {
    if n == 0 {
        return raw.is_empty().then(Vec::new);
    }
    if raw.len() == 1 && n > 1 && (raw[0] == 0 || raw[0] == 0xFF) {
        return Some(vec![u8::from(raw[0] != 0)]);
    }
    if raw.len() == n.div_ceil(8) {
        return Some((0..n).map(|i| (raw[i / 8] >> (i % 8)) & 1).collect());
    }
    if raw.len() == n {
        return Some(raw.iter().map(|&b| u8::from(b != 0)).collect());
    }
    if raw.len() == 1 {
        return Some(vec![u8::from(raw[0] != 0)]);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bool_layouts() {
        assert_eq!(bools(&[0x0D], 5), Some(vec![1, 0, 1, 1, 0]));
        assert_eq!(bools(&[0xFF], 5), Some(vec![1]));
        assert_eq!(bools(&[0x00], 5), Some(vec![0]));
        assert_eq!(bools(&[1, 0, 1], 3), Some(vec![1, 0, 1])); // one byte per element (older writers)
        assert_eq!(bools(&[1], 1), Some(vec![1]));
        assert_eq!(bools(&[], 0), Some(vec![]));
        assert_eq!(bools(&[1, 2], 30), None);
    }

    #[test]
    fn extension() {
        assert_eq!(sign_extend(0xFF, 8), -1);
        assert_eq!(sign_extend(0x7F, 8), 127);
        assert_eq!(sign_extend(u64::MAX, 64), -1);
    }
}
