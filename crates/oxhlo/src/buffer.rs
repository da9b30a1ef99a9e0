//! [`Buffer`]: a dense, row-major tensor in host memory (an element type, a shape, the bytes), the inputs and
//! outputs of [`Executable::execute`](crate::Executable::execute). Cheap to clone (shared, immutable).

use crate::dtype::DType;
use crate::element::Element;
use crate::error::{Error, Result};
use oxhlo_interp::Tensor;
use oxhlo_ir::{DenseElements, TensorType};
use std::fmt;
use std::sync::Arc;

/// A tensor in host memory: element type, shape (row-major), and its elements' bytes.
///
/// ```
/// use oxhlo::{Buffer, DType};
/// let b = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
/// assert_eq!(b.shape(), &[2, 3]);
/// assert_eq!(b.element_type(), DType::F32);
/// assert_eq!(b.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
/// assert!(b.to_vec::<i32>().is_err()); // wrong element type
/// ```
#[derive(Clone, PartialEq)]
pub struct Buffer {
    inner: Arc<Inner>,
}

#[derive(PartialEq)]
struct Inner {
    dtype: DType,
    shape: Vec<usize>,
    bytes: Vec<u8>,
}

/// The number of elements of a shape, or an error naming the shape when it overflows.
fn element_count(shape: &[usize]) -> Result<usize> {
    shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .ok_or_else(|| Error::invalid(format!("shape {shape:?} has more elements than fit in memory")))
}

impl Buffer {
    /// A buffer holding `data` with the given shape; `data.len()` must be the product of the dimensions.
    pub fn from_slice<T: Element>(data: &[T], shape: &[usize]) -> Result<Buffer> {
        let n = element_count(shape)?;
        if data.len() != n {
            return Err(Error::invalid(format!(
                "{} {} values given for shape {shape:?}, which holds {n}",
                data.len(),
                T::DTYPE
            )));
        }
        let size = T::DTYPE.size_in_bytes();
        let mut bytes = vec![0u8; n * size];
        for (chunk, &v) in bytes.chunks_exact_mut(size).zip(data) {
            v.write_le(chunk);
        }
        Ok(Buffer::new_unchecked(T::DTYPE, shape.to_vec(), bytes))
    }

    /// A rank-0 buffer holding one value.
    ///
    /// ```
    /// let b = oxhlo::Buffer::scalar(7i64);
    /// assert_eq!(b.shape(), &[] as &[usize]);
    /// assert_eq!(b.to_vec::<i64>().unwrap(), vec![7]);
    /// ```
    pub fn scalar<T: Element>(value: T) -> Buffer {
        let mut bytes = vec![0u8; T::DTYPE.size_in_bytes()];
        value.write_le(&mut bytes);
        Buffer::new_unchecked(T::DTYPE, Vec::new(), bytes)
    }

    /// A buffer from raw little-endian element storage (the layout [`DType`] describes), for every element
    /// type, including those without a Rust type (`i4`, `f8E4M3FN`, `bf16` without the `half` feature, ...).
    ///
    /// Fails when `bytes.len()` is not `size_in_bytes() * elements`, or when an element of a sub-byte type
    /// or `i1` has bits set that its type does not have.
    ///
    /// ```
    /// use oxhlo::{Buffer, DType};
    /// // Two bf16 values, 1.0 (0x3F80) and -2.0 (0xC000).
    /// let b = Buffer::from_bytes(DType::BF16, &[2], &[0x80, 0x3F, 0x00, 0xC0]).unwrap();
    /// assert_eq!(b.size_in_bytes(), 4);
    /// assert!(Buffer::from_bytes(DType::U4, &[1], &[0x10]).is_err()); // 16 is not a ui4
    /// ```
    pub fn from_bytes(dtype: DType, shape: &[usize], bytes: &[u8]) -> Result<Buffer> {
        let n = element_count(shape)?;
        let size = dtype.size_in_bytes();
        let expected = n.checked_mul(size).ok_or_else(|| Error::invalid(format!("shape {shape:?} is too large")))?;
        if bytes.len() != expected {
            return Err(Error::invalid(format!(
                "{} bytes given for a {dtype} buffer of shape {shape:?}, which takes {expected} ({n} elements of {size} bytes)",
                bytes.len()
            )));
        }
        for (i, chunk) in bytes.chunks_exact(size).enumerate() {
            dtype.check_element(chunk).map_err(|e| Error::invalid(format!("element {i} of the {dtype} buffer: {e}")))?;
        }
        Ok(Buffer::new_unchecked(dtype, shape.to_vec(), bytes.to_vec()))
    }

    /// A buffer of zeros (`false`, `0`, `+0.0`) of any element type.
    pub fn zeros(dtype: DType, shape: &[usize]) -> Result<Buffer> {
        let n = element_count(shape)?;
        let len = n.checked_mul(dtype.size_in_bytes()).ok_or_else(|| Error::invalid("buffer too large"))?;
        Ok(Buffer::new_unchecked(dtype, shape.to_vec(), vec![0u8; len]))
    }

    fn new_unchecked(dtype: DType, shape: Vec<usize>, bytes: Vec<u8>) -> Buffer {
        Buffer { inner: Arc::new(Inner { dtype, shape, bytes }) }
    }

    /// The elements as a `Vec<T>`, row-major; fails when `T` is not this buffer's element type.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        if T::DTYPE != self.inner.dtype {
            return Err(Error::invalid(format!(
                "cannot read a {} buffer as {} ({})",
                self.inner.dtype,
                std::any::type_name::<T>(),
                T::DTYPE
            )));
        }
        Ok(self.inner.bytes.chunks_exact(T::DTYPE.size_in_bytes()).map(T::read_le).collect())
    }

    /// The raw little-endian element storage (see [`DType`] for the layout).
    pub fn as_bytes(&self) -> &[u8] {
        &self.inner.bytes
    }

    /// The dimensions, outermost first (empty for a scalar).
    pub fn shape(&self) -> &[usize] {
        &self.inner.shape
    }

    /// The number of dimensions.
    pub fn rank(&self) -> usize {
        self.inner.shape.len()
    }

    /// The element type.
    pub fn element_type(&self) -> DType {
        self.inner.dtype
    }

    /// The number of elements (1 for a scalar).
    pub fn num_elements(&self) -> usize {
        self.inner.shape.iter().product()
    }

    /// Bytes of element storage.
    pub fn size_in_bytes(&self) -> usize {
        self.inner.bytes.len()
    }

    /// The interpreter's tensor for this buffer.
    pub(crate) fn to_tensor(&self) -> Result<Tensor> {
        let shape = self.inner.shape.iter().map(|&d| d as i64).collect();
        let ty = TensorType::new(shape, self.inner.dtype.to_ir());
        let dense = DenseElements::from_raw(ty, self.inner.bytes.clone()).map_err(Error::invalid)?;
        Tensor::from_dense(&dense).map_err(Error::invalid)
    }

    /// A buffer holding an interpreter's tensor.
    pub(crate) fn from_tensor(t: &Tensor) -> Result<Buffer> {
        let dtype = DType::from_ir(t.elem())?;
        let shape: Vec<usize> = t
            .shape()
            .iter()
            .map(|&d| usize::try_from(d).map_err(|_| Error::new(crate::ErrorKind::Runtime, "result has a dynamic shape")))
            .collect::<Result<_>>()?;
        let dense = t.to_dense().expanded();
        if dense.data.len() != element_count(&shape)? * dtype.size_in_bytes() {
            return Err(Error::new(crate::ErrorKind::Internal, "result tensor storage does not match its type"));
        }
        Ok(Buffer::new_unchecked(dtype, shape, dense.data))
    }
}

impl fmt::Debug for Buffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Buffer")
            .field("element_type", &self.inner.dtype)
            .field("shape", &self.inner.shape)
            .field("size_in_bytes", &self.inner.bytes.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_mismatch_is_invalid_argument() {
        let e = Buffer::from_slice(&[1i32, 2, 3], &[2, 2]).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::InvalidArgument);
        assert!(e.message().contains("3 i32 values"), "{e}");
        assert!(Buffer::from_bytes(DType::F32, &[2], &[0; 7]).is_err());
        assert!(Buffer::from_slice::<f32>(&[], &[usize::MAX, 2]).is_err());
    }

    #[test]
    fn empty_and_scalar() {
        let b = Buffer::from_slice::<f64>(&[], &[0, 3]).unwrap();
        assert_eq!(b.num_elements(), 0);
        assert_eq!(b.to_vec::<f64>().unwrap(), Vec::<f64>::new());
        let s = Buffer::scalar(true);
        assert_eq!(s.rank(), 0);
        assert_eq!(s.num_elements(), 1);
        assert_eq!(s.as_bytes(), &[1]);
    }

    #[test]
    fn tensor_roundtrip_every_dtype() {
        for &d in DType::ALL {
            let size = d.size_in_bytes();
            // Element k holds the value 1 in its lowest byte: valid in every type.
            let mut bytes = vec![0u8; 3 * size];
            for k in 0..3 {
                bytes[k * size] = 1;
            }
            let b = Buffer::from_bytes(d, &[3], &bytes).unwrap();
            let t = b.to_tensor().unwrap();
            let back = Buffer::from_tensor(&t).unwrap();
            assert_eq!(back, b, "{d}");
        }
    }

    #[test]
    fn zeros() {
        let z = Buffer::zeros(DType::C128, &[2, 2]).unwrap();
        assert_eq!(z.size_in_bytes(), 64);
        assert!(z.as_bytes().iter().all(|&b| b == 0));
    }
}
