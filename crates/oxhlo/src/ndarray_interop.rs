//! `ndarray` interop (feature `ndarray`): [`Buffer::from_array`] copies any array (any layout, any
//! dimensionality) into a row-major buffer; [`Buffer::to_array`] copies a buffer out into an [`ArrayD`].

use crate::buffer::Buffer;
use crate::element::Element;
use crate::error::{Error, Result};
use ndarray::{ArrayBase, ArrayD, Data, Dimension, IxDyn};

impl Buffer {
    /// A buffer holding a copy of `array`'s elements in row-major order (views, slices and transposed arrays
    /// are fine).
    ///
    /// ```
    /// use ndarray::array;
    /// let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    /// let b = oxhlo::Buffer::from_array(&a.t()).unwrap();
    /// assert_eq!(b.shape(), &[2, 2]);
    /// assert_eq!(b.to_vec::<f32>().unwrap(), vec![1.0, 3.0, 2.0, 4.0]);
    /// ```
    pub fn from_array<T, S, D>(array: &ArrayBase<S, D>) -> Result<Buffer>
    where
        T: Element,
        S: Data<Elem = T>,
        D: Dimension,
    {
        let data: Vec<T> = array.iter().copied().collect();
        Buffer::from_slice(&data, array.shape())
    }

    /// The buffer's elements as a dynamic-dimensional array; fails when `T` is not the element type.
    ///
    /// ```
    /// let b = oxhlo::Buffer::from_slice(&[1i32, 2, 3, 4, 5, 6], &[2, 3]).unwrap();
    /// let a = b.to_array::<i32>().unwrap();
    /// assert_eq!(a[[1, 0]], 4);
    /// let m = a.into_dimensionality::<ndarray::Ix2>().unwrap();
    /// assert_eq!(m.row(0).to_vec(), vec![1, 2, 3]);
    /// ```
    pub fn to_array<T: Element>(&self) -> Result<ArrayD<T>> {
        let data = self.to_vec::<T>()?;
        ArrayD::from_shape_vec(IxDyn(self.shape()), data).map_err(|e| Error::invalid(format!("to_array: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{arr0, Array3};

    #[test]
    fn roundtrip_3d_and_scalar() {
        let a = Array3::from_shape_fn((2, 3, 4), |(i, j, k)| (i * 100 + j * 10 + k) as u16);
        let b = Buffer::from_array(&a).unwrap();
        assert_eq!(b.shape(), &[2, 3, 4]);
        let back = b.to_array::<u16>().unwrap();
        assert_eq!(back, a.into_dyn());
        let s = Buffer::from_array(&arr0(true)).unwrap();
        assert_eq!(s.rank(), 0);
        assert!(s.to_array::<bool>().unwrap()[[]]);
        assert!(b.to_array::<f32>().is_err());
    }
}
