//! Rust types that map onto buffer element types ([`Element`]): `bool`, the fixed-width integers, `f32`,
//! `f64`, [`Complex<f32>`]/[`Complex<f64>`], and `half::f16`/`half::bf16` with the `half` feature.

use crate::dtype::DType;

mod private {
    pub trait Sealed {}
}

/// A Rust type whose values can fill a [`Buffer`](crate::Buffer) (`Buffer::from_slice`, `to_vec`).
///
/// Sealed: implemented for `bool`, `i8`..`i64`, `u8`..`u64`, `f32`, `f64`, [`Complex<f32>`],
/// [`Complex<f64>`], and (feature `half`) `half::f16`, `half::bf16`. Element types without a Rust type
/// (`i4`, the f8 formats, ...) go through [`Buffer::from_bytes`](crate::Buffer::from_bytes).
pub trait Element: Copy + Send + Sync + 'static + private::Sealed {
    /// The element type a buffer of this Rust type has.
    const DTYPE: DType;
    /// Writes the value's little-endian storage into `out` (`DTYPE.size_in_bytes()` bytes).
    #[doc(hidden)]
    fn write_le(self, out: &mut [u8]);
    /// Reads a value from its little-endian storage.
    #[doc(hidden)]
    fn read_le(bytes: &[u8]) -> Self;
}

macro_rules! numeric {
    ($($t:ty => $d:ident),*) => {$(
        impl private::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            fn write_le(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
            fn read_le(bytes: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(bytes);
                <$t>::from_le_bytes(a)
            }
        }
    )*};
}

numeric!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32, u64 => U64,
         f32 => F32, f64 => F64);

impl private::Sealed for bool {}
impl Element for bool {
    const DTYPE: DType = DType::Bool;
    fn write_le(self, out: &mut [u8]) {
        out[0] = self as u8;
    }
    fn read_le(bytes: &[u8]) -> Self {
        bytes[0] != 0
    }
}

/// A complex number, laid out as its real part followed by its imaginary part (as C's `float _Complex`).
///
/// ```
/// use oxhlo::{Buffer, Complex};
/// let b = Buffer::from_slice(&[Complex::new(1.0f32, 2.0), Complex::new(-3.0, 0.5)], &[2]).unwrap();
/// assert_eq!(b.element_type(), oxhlo::DType::C64);
/// assert_eq!(b.to_vec::<Complex<f32>>().unwrap()[1].im, 0.5);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Complex<T> {
    /// Real part.
    pub re: T,
    /// Imaginary part.
    pub im: T,
}

impl<T> Complex<T> {
    /// `re + im·i`
    pub const fn new(re: T, im: T) -> Complex<T> {
        Complex { re, im }
    }
}

impl<T> From<(T, T)> for Complex<T> {
    fn from((re, im): (T, T)) -> Complex<T> {
        Complex { re, im }
    }
}

macro_rules! complex {
    ($($t:ty => $d:ident),*) => {$(
        impl private::Sealed for Complex<$t> {}
        impl Element for Complex<$t> {
            const DTYPE: DType = DType::$d;
            fn write_le(self, out: &mut [u8]) {
                let n = std::mem::size_of::<$t>();
                self.re.write_le(&mut out[..n]);
                self.im.write_le(&mut out[n..]);
            }
            fn read_le(bytes: &[u8]) -> Self {
                let n = std::mem::size_of::<$t>();
                Complex { re: <$t>::read_le(&bytes[..n]), im: <$t>::read_le(&bytes[n..]) }
            }
        }
    )*};
}

complex!(f32 => C64, f64 => C128);

#[cfg(feature = "half")]
macro_rules! half_float {
    ($($t:ty => $d:ident),*) => {$(
        impl private::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            fn write_le(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_bits().to_le_bytes());
            }
            fn read_le(bytes: &[u8]) -> Self {
                <$t>::from_bits(u16::from_le_bytes([bytes[0], bytes[1]]))
            }
        }
    )*};
}

#[cfg(feature = "half")]
half_float!(half::f16 => F16, half::bf16 => BF16);

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip<T: Element + PartialEq + std::fmt::Debug>(v: T) {
        let mut buf = vec![0u8; T::DTYPE.size_in_bytes()];
        v.write_le(&mut buf);
        assert_eq!(T::read_le(&buf), v);
    }

    #[test]
    fn sizes_match_dtypes() {
        assert_eq!(std::mem::size_of::<Complex<f64>>(), DType::C128.size_in_bytes());
        roundtrip(true);
        roundtrip(-5i8);
        roundtrip(-70000i32);
        roundtrip(u64::MAX);
        roundtrip(1.5f32);
        roundtrip(Complex::new(1.0f64, -2.0));
    }

    #[test]
    fn complex_layout_is_re_then_im() {
        let mut buf = [0u8; 8];
        Complex::new(1.0f32, 2.0).write_le(&mut buf);
        assert_eq!(&buf[..4], &1.0f32.to_le_bytes());
        assert_eq!(&buf[4..], &2.0f32.to_le_bytes());
    }

    #[cfg(feature = "half")]
    #[test]
    fn half_types() {
        roundtrip(half::f16::from_f32(0.5));
        roundtrip(half::bf16::from_f32(-3.0));
        assert_eq!(<half::bf16 as Element>::DTYPE, DType::BF16);
    }
}
