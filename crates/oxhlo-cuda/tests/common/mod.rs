//! Helpers shared by the CUDA backend's test binaries.

use oxhlo_cpu::Buf;
use oxhlo_interp::{Data, RtValue};
use oxhlo_ir::{ElementType, FloatType, TensorType};

/// A tensor value's elements as f64 (floats as they are, integers and bools converted, complex numbers
/// as their two parts).
#[allow(dead_code)]
pub fn as_f64(v: &RtValue) -> Vec<f64> {
    match v {
        RtValue::Tensor(t) => match &t.data {
            Data::Float(x) => x.clone(),
            Data::Int(x) => x.iter().map(|&i| i as f64).collect(),
            Data::UInt(x) => x.iter().map(|&i| i as f64).collect(),
            Data::Bool(x) => x.iter().map(|&b| b as u8 as f64).collect(),
            Data::Complex(x) => x.iter().flat_map(|&(re, im)| [re, im]).collect(),
        },
        other => panic!("unexpected value {other:?}"),
    }
}

/// Inputs for sorts and argmax: ties, signed zeros, infinities and (with `nans`, for comparators that
/// order them) NaNs of both signs; f32, bf16, i32 and u32.
#[allow(dead_code)]
pub fn sort_input(t: &TensorType, seed: u64, nans: bool) -> Buf {
    let r: Vec<f32> = xorshift(seed, t.num_elements().expect("static")).into_iter().map(|s| ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0).collect();
    match &t.elem {
        ElementType::Float(FloatType::F32) => Buf::F32(
            r.iter()
                .enumerate()
                .map(|(i, &v)| match i % 11 {
                    0 if nans => f32::NAN,
                    1 if nans => -f32::NAN,
                    2 => -0.0,
                    3 => 0.0,
                    4 => f32::INFINITY,
                    5 => f32::NEG_INFINITY,
                    _ => (v * 4.0).round() / 2.0,
                })
                .collect(),
        ),
        ElementType::Float(FloatType::F64) => Buf::F64(
            r.iter()
                .enumerate()
                .map(|(i, &v)| match i % 11 {
                    0 if nans => f64::NAN,
                    2 => -0.0,
                    3 => 0.0,
                    4 => f64::INFINITY,
                    5 => f64::NEG_INFINITY,
                    6 => f64::from_bits(1),
                    7 => -f64::MAX,
                    _ => ((v * 4.0).round() / 2.0) as f64,
                })
                .collect(),
        ),
        ElementType::Float(FloatType::F16) => Buf::F16(r.iter().enumerate().map(|(i, &v)| half::f16::from_f32(match i % 9 { 0 => -0.0, 1 => f32::INFINITY, 2 => 65504.0, 3 => 6e-8, _ => (v * 20.0).round() / 4.0 })).collect()),
        ElementType::Float(FloatType::BF16) => Buf::BF16(r.iter().enumerate().map(|(i, &v)| half::bf16::from_f32(if i % 7 == 0 { -0.0 } else { (v * 20.0).round() / 4.0 })).collect()),
        ElementType::Int { bits: 32, signedness: oxhlo_ir::Signedness::Unsigned } => Buf::U32(r.iter().map(|&v| (v.abs() * 3e9) as u32 % 1000).collect()),
        ElementType::Int { bits: 32, .. } => Buf::I32(r.iter().map(|&v| (v * 4.0).round() as i32).collect()),
        ElementType::Int { bits: 16, signedness: oxhlo_ir::Signedness::Signless | oxhlo_ir::Signedness::Signed } => Buf::I16(r.iter().map(|&v| (v * 30000.0) as i16).collect()),
        ElementType::Int { bits: 64, signedness: oxhlo_ir::Signedness::Unsigned } => Buf::U64(r.iter().map(|&v| (v.abs() as f64 * 1.8e19) as u64).collect()),
        ElementType::Int { bits: 8, signedness: oxhlo_ir::Signedness::Unsigned } => Buf::U8(r.iter().map(|&v| (v.abs() * 255.0) as u8).collect()),
        ElementType::Int { bits: 8, .. } => Buf::I8(r.iter().map(|&v| (v * 127.0) as i8).collect()),
        ElementType::Bool => Buf::Bool(r.iter().map(|&v| v > 0.0).collect()),
        ElementType::Int { bits: 64, .. } => Buf::I64(r.iter().map(|&v| (v * 1e6).round() as i64 * 3_000_000_007).collect()),
        other => panic!("no inputs for {other:?}"),
    }
}

/// [`bits`], but every NaN the same (where values were computed, the device's NaNs need not carry the
/// host's sign and payload: a GPU's inf - inf is a positive NaN, an x86 CPU's a negative one).
#[allow(dead_code)]
pub fn bits_any_nan(v: &RtValue) -> String {
    match v {
        RtValue::Tensor(t) => match &t.data {
            Data::Float(x) => format!("{:?} {:?}", t.ty, x.iter().map(|f| if f.is_nan() { u64::MAX } else { f.to_bits() }).collect::<Vec<_>>()),
            other => format!("{:?} {other:?}", t.ty),
        },
        other => format!("{other:?}"),
    }
}

/// A value's type and elements with floats as their bits (so -NaN, NaN and NaN payloads differ, as do
/// -0.0 and 0.0), for comparisons bit for bit.
#[allow(dead_code)]
pub fn bits(v: &RtValue) -> String {
    match v {
        RtValue::Tensor(t) => match &t.data {
            Data::Float(x) => format!("{:?} {:?}", t.ty, x.iter().map(|f| f.to_bits()).collect::<Vec<_>>()),
            other => format!("{:?} {other:?}", t.ty),
        },
        other => format!("{other:?}"),
    }
}

/// Finite values uniform in [-1, 1) for f32 and f64 tensors (`sort_input` without its NaNs,
/// infinities and extremes: linear algebra's inputs); other element types as `sort_input` makes them.
#[allow(dead_code)]
pub fn uniform_input(t: &TensorType, seed: u64) -> Buf {
    let r: Vec<f64> = xorshift(seed, t.num_elements().expect("static")).into_iter().map(|s| ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0).collect();
    match &t.elem {
        ElementType::Float(FloatType::F32) => Buf::F32(r.iter().map(|&v| v as f32).collect()),
        ElementType::Float(FloatType::F64) => Buf::F64(r),
        _ => sort_input(t, seed, false),
    }
}

/// `n` states of a xorshift64 generator seeded from `seed`.
#[allow(dead_code)]
pub fn xorshift(seed: u64, n: usize) -> Vec<u64> {
    let mut s = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        })
        .collect()
}
