//! Buffers and element types in the C API: create a buffer from host memory (any element type, any shape),
//! query its type and shape, read its bytes back.

use crate::status::{arg, arg_mut, bytes_arg, guard, guard_value, OxhloStatus};
use api::{Buffer, DType, Error, ErrorKind};
use std::ffi::{c_char, c_void, CString};
use std::sync::OnceLock;

/// An element type: one of the `OXHLO_DTYPE_*` values. Each element takes `oxhlo_dtype_size` bytes,
/// little-endian: sub-byte integers one byte each holding the (sign-extended) value, sub-byte floats one
/// byte with the bit pattern in the low bits, `i1` one byte holding 0 or 1, `tf32` its 19-bit pattern in a
/// `uint32_t`, complex numbers the real part then the imaginary part.
pub type OxhloDtype = u32;

/// `i1` (bool)
pub const OXHLO_DTYPE_BOOL: OxhloDtype = 1;
/// `i2`
pub const OXHLO_DTYPE_I2: OxhloDtype = 2;
/// `i4`
pub const OXHLO_DTYPE_I4: OxhloDtype = 3;
/// `i8` (int8_t)
pub const OXHLO_DTYPE_I8: OxhloDtype = 4;
/// `i16` (int16_t)
pub const OXHLO_DTYPE_I16: OxhloDtype = 5;
/// `i32` (int32_t)
pub const OXHLO_DTYPE_I32: OxhloDtype = 6;
/// `i64` (int64_t)
pub const OXHLO_DTYPE_I64: OxhloDtype = 7;
/// `ui2`
pub const OXHLO_DTYPE_U2: OxhloDtype = 8;
/// `ui4`
pub const OXHLO_DTYPE_U4: OxhloDtype = 9;
/// `ui8` (uint8_t)
pub const OXHLO_DTYPE_U8: OxhloDtype = 10;
/// `ui16` (uint16_t)
pub const OXHLO_DTYPE_U16: OxhloDtype = 11;
/// `ui32` (uint32_t)
pub const OXHLO_DTYPE_U32: OxhloDtype = 12;
/// `ui64` (uint64_t)
pub const OXHLO_DTYPE_U64: OxhloDtype = 13;
/// `f4E2M1FN`
pub const OXHLO_DTYPE_F4E2M1FN: OxhloDtype = 14;
/// `f6E2M3FN`
pub const OXHLO_DTYPE_F6E2M3FN: OxhloDtype = 15;
/// `f6E3M2FN`
pub const OXHLO_DTYPE_F6E3M2FN: OxhloDtype = 16;
/// `f8E3M4`
pub const OXHLO_DTYPE_F8E3M4: OxhloDtype = 17;
/// `f8E4M3`
pub const OXHLO_DTYPE_F8E4M3: OxhloDtype = 18;
/// `f8E4M3FN`
pub const OXHLO_DTYPE_F8E4M3FN: OxhloDtype = 19;
/// `f8E4M3FNUZ`
pub const OXHLO_DTYPE_F8E4M3FNUZ: OxhloDtype = 20;
/// `f8E4M3B11FNUZ`
pub const OXHLO_DTYPE_F8E4M3B11FNUZ: OxhloDtype = 21;
/// `f8E5M2`
pub const OXHLO_DTYPE_F8E5M2: OxhloDtype = 22;
/// `f8E5M2FNUZ`
pub const OXHLO_DTYPE_F8E5M2FNUZ: OxhloDtype = 23;
/// `f8E8M0FNU`
pub const OXHLO_DTYPE_F8E8M0FNU: OxhloDtype = 24;
/// `bf16` (its bits in a uint16_t)
pub const OXHLO_DTYPE_BF16: OxhloDtype = 25;
/// `f16` (IEEE half; its bits in a uint16_t, or _Float16)
pub const OXHLO_DTYPE_F16: OxhloDtype = 26;
/// `tf32` (19-bit pattern in a uint32_t)
pub const OXHLO_DTYPE_TF32: OxhloDtype = 27;
/// `f32` (float)
pub const OXHLO_DTYPE_F32: OxhloDtype = 28;
/// `f64` (double)
pub const OXHLO_DTYPE_F64: OxhloDtype = 29;
/// `complex<f32>` (float _Complex)
pub const OXHLO_DTYPE_C64: OxhloDtype = 30;
/// `complex<f64>` (double _Complex)
pub const OXHLO_DTYPE_C128: OxhloDtype = 31;

/// A tensor in host memory: element type, shape, bytes. Immutable once created.
pub struct OxhloBuffer {
    pub(crate) buffer: Buffer,
    dims: Vec<i64>,
}

impl OxhloBuffer {
    pub(crate) fn new(buffer: Buffer) -> OxhloBuffer {
        let dims = buffer.shape().iter().map(|&d| d as i64).collect();
        OxhloBuffer { buffer, dims }
    }
}

fn dtype_from(code: OxhloDtype) -> Result<DType, Error> {
    DType::from_code(code)
        .ok_or_else(|| Error::new(ErrorKind::InvalidArgument, format!("{code} is not an OXHLO_DTYPE_* value")))
}

/// Creates a buffer of element type `dtype` and shape `dims[0..rank]` by copying `size` bytes from `data`
/// (row-major; `size` must be the element count times `oxhlo_dtype_size(dtype)`). `dims` and `data` may be
/// NULL when `rank` or `size` is 0.
///
/// # Safety
/// `dims` must be NULL or `rank` readable values; `data` NULL or `size` readable bytes; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_buffer_create(
    dtype: OxhloDtype,
    dims: *const i64,
    rank: usize,
    data: *const c_void,
    size: usize,
    out: *mut *mut OxhloBuffer,
) -> *mut OxhloStatus {
    guard(|| {
        let slot = arg_mut(out, "out")?;
        let dtype = dtype_from(dtype)?;
        let dims: &[i64] = if rank == 0 {
            &[]
        } else {
            std::slice::from_raw_parts(arg(dims, "dims")?, rank)
        };
        let shape = dims
            .iter()
            .enumerate()
            .map(|(i, &d)| {
                usize::try_from(d).map_err(|_| Error::new(ErrorKind::InvalidArgument, format!("dims[{i}] is {d}, not a size")))
            })
            .collect::<Result<Vec<usize>, Error>>()?;
        let bytes = bytes_arg(data.cast(), size, "data")?;
        let buffer = Buffer::from_bytes(dtype, &shape, bytes)?;
        *slot = Box::into_raw(Box::new(OxhloBuffer::new(buffer)));
        Ok(())
    })
}

/// Frees a buffer (NULL is allowed).
///
/// # Safety
/// `buffer` must be NULL or a buffer not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_buffer_destroy(buffer: *mut OxhloBuffer) {
    guard_value((), || {
        if !buffer.is_null() {
            drop(Box::from_raw(buffer));
        }
    })
}

/// The buffer's element type (0 for NULL).
///
/// # Safety
/// `buffer` must be NULL or a live buffer.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_buffer_dtype(buffer: *const OxhloBuffer) -> OxhloDtype {
    guard_value(0, || buffer.as_ref().map_or(0, |b| b.buffer.element_type() as OxhloDtype))
}

/// The number of dimensions (0 for a scalar, and for NULL).
///
/// # Safety
/// `buffer` must be NULL or a live buffer.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_buffer_rank(buffer: *const OxhloBuffer) -> usize {
    guard_value(0, || buffer.as_ref().map_or(0, |b| b.dims.len()))
}

/// The dimensions (`oxhlo_buffer_rank` values, owned by the buffer); NULL for NULL.
///
/// # Safety
/// `buffer` must be NULL or a live buffer.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_buffer_dims(buffer: *const OxhloBuffer) -> *const i64 {
    guard_value(std::ptr::null(), || buffer.as_ref().map_or(std::ptr::null(), |b| b.dims.as_ptr()))
}

/// The number of elements (1 for a scalar; 0 for NULL).
///
/// # Safety
/// `buffer` must be NULL or a live buffer.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_buffer_num_elements(buffer: *const OxhloBuffer) -> usize {
    guard_value(0, || buffer.as_ref().map_or(0, |b| b.buffer.num_elements()))
}

/// The size of the buffer's data in bytes (0 for NULL).
///
/// # Safety
/// `buffer` must be NULL or a live buffer.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_buffer_size(buffer: *const OxhloBuffer) -> usize {
    guard_value(0, || buffer.as_ref().map_or(0, |b| b.buffer.size_in_bytes()))
}

/// The buffer's data (`oxhlo_buffer_size` bytes, read-only, owned by the buffer, from malloc and so aligned
/// for every element type); NULL for NULL and for a buffer of 0 bytes.
///
/// # Safety
/// `buffer` must be NULL or a live buffer.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_buffer_data(buffer: *const OxhloBuffer) -> *const c_void {
    guard_value(std::ptr::null(), || match buffer.as_ref() {
        Some(b) if b.buffer.size_in_bytes() > 0 => b.buffer.as_bytes().as_ptr().cast(),
        _ => std::ptr::null(),
    })
}

/// Copies the buffer's data into `dst`, which has room for `dst_size` bytes (at least `oxhlo_buffer_size`).
///
/// # Safety
/// `buffer` must be NULL or a live buffer; `dst` NULL or `dst_size` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_buffer_copy_to_host(buffer: *const OxhloBuffer, dst: *mut c_void, dst_size: usize) -> *mut OxhloStatus {
    guard(|| {
        let b = arg(buffer, "buffer")?;
        let bytes = b.buffer.as_bytes();
        if dst_size < bytes.len() {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                format!("`dst` has {dst_size} bytes but the buffer holds {}", bytes.len()),
            ));
        }
        if !bytes.is_empty() {
            let dst = arg_mut(dst.cast::<u8>(), "dst")?;
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len());
        }
        Ok(())
    })
}

/// Bytes one element of `dtype` takes (0 for a value that is not an element type).
#[no_mangle]
pub extern "C" fn oxhlo_dtype_size(dtype: OxhloDtype) -> usize {
    DType::from_code(dtype).map_or(0, |d| d.size_in_bytes())
}

/// The MLIR name of `dtype` (`"f32"`, `"complex<f64>"`, ...; a static string), or NULL for a value that is
/// not an element type.
#[no_mangle]
pub extern "C" fn oxhlo_dtype_name(dtype: OxhloDtype) -> *const c_char {
    static NAMES: OnceLock<Vec<CString>> = OnceLock::new();
    guard_value(std::ptr::null(), || {
        let names = NAMES.get_or_init(|| DType::ALL.iter().map(|d| crate::status::c_string(d.name())).collect());
        DType::ALL.iter().position(|d| *d as OxhloDtype == dtype).map_or(std::ptr::null(), |i| names[i].as_ptr())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_dtypes() {
        let codes = [
            (OXHLO_DTYPE_BOOL, DType::Bool),
            (OXHLO_DTYPE_I2, DType::I2),
            (OXHLO_DTYPE_I4, DType::I4),
            (OXHLO_DTYPE_I8, DType::I8),
            (OXHLO_DTYPE_I16, DType::I16),
            (OXHLO_DTYPE_I32, DType::I32),
            (OXHLO_DTYPE_I64, DType::I64),
            (OXHLO_DTYPE_U2, DType::U2),
            (OXHLO_DTYPE_U4, DType::U4),
            (OXHLO_DTYPE_U8, DType::U8),
            (OXHLO_DTYPE_U16, DType::U16),
            (OXHLO_DTYPE_U32, DType::U32),
            (OXHLO_DTYPE_U64, DType::U64),
            (OXHLO_DTYPE_F4E2M1FN, DType::F4E2M1FN),
            (OXHLO_DTYPE_F6E2M3FN, DType::F6E2M3FN),
            (OXHLO_DTYPE_F6E3M2FN, DType::F6E3M2FN),
            (OXHLO_DTYPE_F8E3M4, DType::F8E3M4),
            (OXHLO_DTYPE_F8E4M3, DType::F8E4M3),
            (OXHLO_DTYPE_F8E4M3FN, DType::F8E4M3FN),
            (OXHLO_DTYPE_F8E4M3FNUZ, DType::F8E4M3FNUZ),
            (OXHLO_DTYPE_F8E4M3B11FNUZ, DType::F8E4M3B11FNUZ),
            (OXHLO_DTYPE_F8E5M2, DType::F8E5M2),
            (OXHLO_DTYPE_F8E5M2FNUZ, DType::F8E5M2FNUZ),
            (OXHLO_DTYPE_F8E8M0FNU, DType::F8E8M0FNU),
            (OXHLO_DTYPE_BF16, DType::BF16),
            (OXHLO_DTYPE_F16, DType::F16),
            (OXHLO_DTYPE_TF32, DType::TF32),
            (OXHLO_DTYPE_F32, DType::F32),
            (OXHLO_DTYPE_F64, DType::F64),
            (OXHLO_DTYPE_C64, DType::C64),
            (OXHLO_DTYPE_C128, DType::C128),
        ];
        assert_eq!(codes.len(), DType::ALL.len(), "every element type has a C constant");
        for (code, d) in codes {
            assert_eq!(DType::from_code(code), Some(d));
            assert_eq!(oxhlo_dtype_size(code), d.size_in_bytes());
            let name = unsafe { std::ffi::CStr::from_ptr(oxhlo_dtype_name(code)) };
            assert_eq!(name.to_str().unwrap(), d.name());
        }
        assert_eq!(oxhlo_dtype_size(0), 0);
        assert!(oxhlo_dtype_name(999).is_null());
    }
}
