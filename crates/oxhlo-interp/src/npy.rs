//! Reading and writing NumPy `.npy` files (format versions 1-3): bool, signed and unsigned integers of 8
//! to 64 bits, f16, f32, f64, complex64 and complex128, little- or big-endian, C or Fortran order.
//!
//! ml_dtypes types (bfloat16, the float8/6/4 formats, int4/int2, ...) are written by NumPy with a void
//! descriptor (`<V2`, `<V1`): such data is read with the element type the program's signature expects,
//! and written the same way (so `np.load(f).view(ml_dtypes.bfloat16)` recovers it). Sub-byte integers are
//! written as i1/u1 bytes, tf32 as f32.

use crate::tensor::{Data, Tensor};
use oxhlo_ir::{DenseElements, ElementType, FloatType, Signedness, TensorType};

/// A parsed `.npy` file: descriptor, shape and little-endian C-order element bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct NpyArray {
    /// The dtype descriptor as written (`<f4`, `|b1`, `<V2`, ...).
    pub descr: String,
    pub shape: Vec<i64>,
    /// Element bytes, little-endian, row-major.
    pub data: Vec<u8>,
}

fn header_value<'a>(h: &'a str, key: &str) -> Result<&'a str, String> {
    let pat = format!("'{key}'");
    let at = h.find(&pat).ok_or_else(|| format!("npy header has no '{key}' entry"))?;
    let rest = h[at + pat.len()..].trim_start();
    let rest = rest.strip_prefix(':').ok_or("malformed npy header")?.trim_start();
    Ok(rest)
}

/// Parses the bytes of a `.npy` file.
pub fn parse_npy(bytes: &[u8]) -> Result<NpyArray, String> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err("not a .npy file (bad magic)".into());
    }
    let major = bytes[6];
    let (hlen, hstart) = match major {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10usize),
        2 | 3 => {
            if bytes.len() < 12 {
                return Err("truncated .npy header".into());
            }
            (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12)
        }
        v => return Err(format!("unsupported .npy format version {v}")),
    };
    let hend = hstart.checked_add(hlen).filter(|&e| e <= bytes.len()).ok_or("truncated .npy header")?;
    let header = std::str::from_utf8(&bytes[hstart..hend]).map_err(|_| "npy header is not text")?;
    let descr_v = header_value(header, "descr")?;
    let q = descr_v.chars().next().ok_or("malformed descr")?;
    if q != '\'' && q != '"' {
        return Err("structured dtypes are not supported in .npy inputs".into());
    }
    let descr: String = descr_v[1..].chars().take_while(|&c| c != q).collect();
    let fortran = header_value(header, "fortran_order")?.starts_with("True");
    let shape_v = header_value(header, "shape")?;
    let inner = shape_v.strip_prefix('(').and_then(|s| s.split(')').next()).ok_or("malformed shape in npy header")?;
    let shape: Vec<i64> = inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_end_matches('L').parse::<i64>().map_err(|_| format!("bad dimension `{s}` in npy header")))
        .collect::<Result<_, _>>()?;
    let item = item_size(&descr)?;
    let n: usize = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d as usize)).ok_or("npy shape too large")?;
    let need = n.checked_mul(item).ok_or("npy data too large")?;
    let body = &bytes[hend..];
    if body.len() < need {
        return Err(format!("npy data has {} bytes, the header promises {need}", body.len()));
    }
    let mut data = body[..need].to_vec();
    if descr.starts_with('>') && item > 1 {
        let part = if descr[1..].starts_with('c') { item / 2 } else { item };
        for chunk in data.chunks_mut(part) {
            chunk.reverse();
        }
    }
    if fortran && shape.len() > 1 {
        data = fortran_to_c(&data, &shape, item);
    }
    Ok(NpyArray { descr, shape, data })
}

fn fortran_to_c(data: &[u8], shape: &[i64], item: usize) -> Vec<u8> {
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let n: usize = dims.iter().product();
    let mut out = vec![0u8; data.len()];
    let mut idx = vec![0usize; dims.len()];
    for c in 0..n {
        // Fortran offset: first index varies fastest.
        let mut f = 0;
        let mut mul = 1;
        for (d, &i) in idx.iter().enumerate() {
            f += i * mul;
            mul *= dims[d];
        }
        out[c * item..(c + 1) * item].copy_from_slice(&data[f * item..(f + 1) * item]);
        for d in (0..dims.len()).rev() {
            idx[d] += 1;
            if idx[d] < dims[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    out
}

fn item_size(descr: &str) -> Result<usize, String> {
    let body = descr.trim_start_matches(['<', '>', '|', '=']);
    let digits: String = body.chars().skip(1).collect();
    digits.parse::<usize>().map_err(|_| format!("unsupported npy dtype `{descr}`"))
}

/// The element type a descriptor stands for (None for void descriptors, which need the expected type).
pub fn descr_elem(descr: &str) -> Result<Option<ElementType>, String> {
    let body = descr.trim_start_matches(['<', '>', '|', '=']);
    let size = item_size(descr)?;
    let kind = body.chars().next().unwrap_or(' ');
    let int = |bits: u32, s: Signedness| ElementType::Int { bits, signedness: s };
    Ok(Some(match (kind, size) {
        ('b', 1) => ElementType::Bool,
        ('i', 1 | 2 | 4 | 8) => int(size as u32 * 8, Signedness::Signless),
        ('u', 1 | 2 | 4 | 8) => int(size as u32 * 8, Signedness::Unsigned),
        ('f', 2) => ElementType::Float(FloatType::F16),
        ('f', 4) => ElementType::Float(FloatType::F32),
        ('f', 8) => ElementType::Float(FloatType::F64),
        ('c', 8) => ElementType::Complex(FloatType::F32),
        ('c', 16) => ElementType::Complex(FloatType::F64),
        // ml_dtypes formats: `<V1`/`<V2`, or `<f1` for some float8 types: read with the expected type.
        ('V', _) | ('f', 1) => return Ok(None),
        _ => return Err(format!("unsupported npy dtype `{descr}`")),
    }))
}

/// Whether a file element type can stand for the expected one (same kind and width; signless and signed
/// integers are the same).
fn compatible(file: &ElementType, want: &ElementType) -> bool {
    let strip = |e: &ElementType| match e {
        ElementType::Quant(q) => q.storage.clone(),
        ElementType::Int { bits, signedness: Signedness::Signed } => ElementType::int(*bits),
        other => other.clone(),
    };
    strip(file) == strip(want)
}

/// Converts a parsed array into a tensor, checked against the expected type when one is given (the
/// parameter type of the input it feeds; dynamic dimensions accept any size).
pub fn npy_to_tensor(a: &NpyArray, expected: Option<&TensorType>) -> Result<Tensor, String> {
    let file_elem = descr_elem(&a.descr)?;
    let elem = match (file_elem, expected) {
        (Some(f), Some(want)) => {
            let tf32_from_f32 = want.elem == ElementType::Float(FloatType::TF32) && f == ElementType::F32;
            let small_int = matches!((&f, &want.elem), (ElementType::Int { bits: 8, .. }, ElementType::Int { bits, .. }) if *bits < 8);
            if !(compatible(&f, &want.elem) || tf32_from_f32 || small_int) {
                return Err(format!(
                    "dtype `{}` ({}) does not match the expected element type {}",
                    a.descr,
                    crate::testing::elem_string(&f),
                    crate::testing::elem_string(&want.elem)
                ));
            }
            if tf32_from_f32 || small_int {
                let t = npy_to_tensor(a, None)?;
                let data = crate::ops::convert::convert_data(&t.data, &t.ty.elem, &want.elem)?;
                return finish(Tensor { ty: TensorType::new(a.shape.clone(), want.elem.clone()), data }, want);
            }
            want.elem.clone()
        }
        (Some(f), None) => f,
        (None, Some(want)) => {
            let slot = want.elem.storage_bytes();
            if item_size(&a.descr)? != slot {
                return Err(format!(
                    "void dtype `{}` has {} bytes per element, {} needs {slot}",
                    a.descr,
                    item_size(&a.descr)?,
                    crate::testing::elem_string(&want.elem)
                ));
            }
            want.elem.clone()
        }
        (None, None) => return Err(format!("void dtype `{}` needs an expected element type", a.descr)),
    };
    let ty = TensorType::new(a.shape.clone(), elem);
    let dense = DenseElements::from_raw(ty, a.data.clone())?;
    let t = Tensor::from_dense(&dense)?;
    match expected {
        Some(want) => finish(t, want),
        None => Ok(t),
    }
}

fn finish(t: Tensor, want: &TensorType) -> Result<Tensor, String> {
    let ok = want.shape.len() == t.ty.shape.len() && want.shape.iter().zip(&t.ty.shape).all(|(&w, &g)| w < 0 || w == g);
    if !ok {
        return Err(format!(
            "shape {:?} does not match the expected type {}",
            t.ty.shape,
            crate::testing::type_string(want)
        ));
    }
    Ok(t)
}

/// Reads a `.npy` file into a tensor (see [`npy_to_tensor`]).
pub fn read_npy(path: &std::path::Path, expected: Option<&TensorType>) -> Result<Tensor, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let a = parse_npy(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    npy_to_tensor(&a, expected).map_err(|e| format!("{}: {e}", path.display()))
}

/// The descriptor and element bytes used to write a tensor.
fn npy_payload(t: &Tensor) -> (String, Vec<u8>) {
    let e = &t.ty.elem;
    let storage = match e {
        ElementType::Quant(q) => q.storage.clone(),
        other => other.clone(),
    };
    match &storage {
        ElementType::Bool => ("|b1".into(), t.to_dense().expanded().data),
        ElementType::Int { bits, .. } if *bits < 8 => {
            let kind = if storage.is_unsigned_integer() { "|u1" } else { "|i1" };
            let bytes = match &t.data {
                Data::Int(v) => v.iter().map(|&x| x as u8).collect(),
                Data::UInt(v) => v.iter().map(|&x| x as u8).collect(),
                _ => Vec::new(),
            };
            (kind.into(), bytes)
        }
        ElementType::Int { bits, .. } => {
            let k = if storage.is_unsigned_integer() { 'u' } else { 'i' };
            let p = if *bits == 8 { '|' } else { '<' };
            (format!("{p}{k}{}", bits / 8), t.to_dense().expanded().data)
        }
        ElementType::Float(FloatType::TF32) => {
            let bytes = match &t.data {
                Data::Float(v) => v.iter().flat_map(|&x| (x as f32).to_le_bytes()).collect(),
                _ => Vec::new(),
            };
            ("<f4".into(), bytes)
        }
        ElementType::Float(FloatType::F16) => ("<f2".into(), t.to_dense().expanded().data),
        ElementType::Float(FloatType::F32) => ("<f4".into(), t.to_dense().expanded().data),
        ElementType::Float(FloatType::F64) => ("<f8".into(), t.to_dense().expanded().data),
        ElementType::Complex(FloatType::F64) => ("<c16".into(), t.to_dense().expanded().data),
        ElementType::Complex(_) => ("<c8".into(), t.to_dense().expanded().data),
        other => (format!("<V{}", other.storage_bytes()), t.to_dense().expanded().data),
    }
}

/// Serializes a tensor as a version 1.0 `.npy` file.
pub fn write_npy_bytes(t: &Tensor) -> Vec<u8> {
    let (descr, data) = npy_payload(t);
    let shape = match t.ty.shape.len() {
        0 => "()".to_string(),
        1 => format!("({},)", t.ty.shape[0]),
        _ => format!("({})", t.ty.shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    let total = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - total % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + data.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&data);
    out
}

/// Writes a tensor to a `.npy` file.
pub fn write_npy(path: &std::path::Path, t: &Tensor) -> Result<(), String> {
    std::fs::write(path, write_npy_bytes(t)).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_every_plain_dtype() {
        let elems = [
            ElementType::Bool,
            ElementType::int(8),
            ElementType::int(16),
            ElementType::I32,
            ElementType::I64,
            ElementType::uint(8),
            ElementType::uint(64),
            ElementType::Float(FloatType::F16),
            ElementType::Float(FloatType::BF16),
            ElementType::F32,
            ElementType::F64,
            ElementType::Complex(FloatType::F32),
            ElementType::Complex(FloatType::F64),
            ElementType::Float(FloatType::F8E4M3FN),
            ElementType::int(4),
        ];
        for e in elems {
            let ty = TensorType::new(vec![2, 3], e.clone());
            let mut t = Tensor::zeros(ty.clone()).unwrap();
            match &mut t.data {
                Data::Bool(v) => v[1] = true,
                Data::Int(v) => v[1] = -3,
                Data::UInt(v) => v[1] = 7,
                Data::Float(v) => v[1] = -2.5,
                Data::Complex(v) => v[1] = (1.5, -0.25),
            }
            let bytes = write_npy_bytes(&t);
            let a = parse_npy(&bytes).unwrap();
            let back = npy_to_tensor(&a, Some(&ty)).unwrap();
            assert_eq!(back.data, t.data, "{e:?}");
        }
    }

    #[test]
    fn mismatches_are_clear_errors() {
        let t = Tensor::zeros(TensorType::new(vec![2], ElementType::F64)).unwrap();
        let a = parse_npy(&write_npy_bytes(&t)).unwrap();
        let e = npy_to_tensor(&a, Some(&TensorType::new(vec![2], ElementType::F32))).unwrap_err();
        assert!(e.contains("does not match"), "{e}");
        let e = npy_to_tensor(&a, Some(&TensorType::new(vec![3], ElementType::F64))).unwrap_err();
        assert!(e.contains("shape"), "{e}");
    }
}
