//! `oxhlo-dtype`: exact, bit-level numerics for every StableHLO element
//! type, shared by the IR (dense literals) and the interpreter.
//!
//! - [`format`](mod@format): [`FloatFormat`] and one constant per floating-point type
//!   (F4E2M1FN ... F64), with the facts about each bit pattern.
//! - [`float`](mod@float): [`encode`] / [`decode`] between `f64` and a format's bits
//!   (one round-to-nearest-even step, exact decoding), [`convert_bits`].
//! - [`int`]: integer wrapping for widths 1..=64 and the float <-> integer
//!   rules of `convert`, including the exactly rounded [`encode_i128`].
//! - [`reduce`]: the `reduce_precision` op.
//!
//! Every function is total: no input makes it panic.

pub mod float;
pub mod format;
pub mod int;
pub mod reduce;

pub use float::{convert_bits, decode, decode_f32, encode, encode_f32};
pub use format::{
    FloatClass, FloatFormat, NanEncoding, OverflowRule, ALL_FORMATS, BF16, F16, F32, F4E2M1FN, F64,
    F6E2M3FN, F6E3M2FN, F8E3M4, F8E4M3, F8E4M3B11FNUZ, F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ,
    F8E8M0FNU, TF32,
};
pub use int::{
    encode_i128, float_bits_to_signed, float_bits_to_unsigned, float_to_bool, float_to_signed,
    float_to_unsigned, int_to_bool, signed_max, signed_min, unsigned_max, wrap_signed, wrap_unsigned,
};
pub use reduce::{reduce_precision, reduce_precision_f32, reduce_precision_f64};
