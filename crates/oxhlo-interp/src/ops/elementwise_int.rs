//! Elementwise kernels on booleans and integers of every width (2..=64 bits, signed and unsigned).
//!
//! Signed values are stored sign-extended in `i64`, unsigned values masked in `u64`; every result is wrapped
//! back to the width (two's complement wraparound). Integer division overflow is implementation-defined in
//! the spec; we follow XLA: `x / 0 = -1` (all ones, so `max` for unsigned), `x % 0 = x`,
//! `min / -1 = min`, `min % -1 = 0`. Shift amounts are read as unsigned: an amount `>= width` gives 0 for
//! `shift_left` and `shift_right_logical` and the sign fill for `shift_right_arithmetic`. `power` with a
//! negative exponent gives 0 unless the base is 1 or -1 (as XLA and the reference interpreter do).

use super::elementwise::{mask, sx, Bin, Un};
use crate::tensor::Data;

#[inline(always)]
fn map_i(v: &[i64], bits: u32, f: impl Fn(i64) -> i64) -> Data {
    Data::Int(v.iter().map(|&x| sx(f(x), bits)).collect())
}

#[inline(always)]
fn map_u(v: &[u64], bits: u32, f: impl Fn(u64) -> u64) -> Data {
    Data::UInt(v.iter().map(|&x| mask(f(x), bits)).collect())
}

#[inline(always)]
fn zip_i(a: &[i64], b: &[i64], bits: u32, f: impl Fn(i64, i64) -> i64) -> Data {
    Data::Int(a.iter().zip(b).map(|(&x, &y)| sx(f(x, y), bits)).collect())
}

#[inline(always)]
fn zip_u(a: &[u64], b: &[u64], bits: u32, f: impl Fn(u64, u64) -> u64) -> Data {
    Data::UInt(a.iter().zip(b).map(|(&x, &y)| mask(f(x, y), bits)).collect())
}

/// Count of leading zeros of the low `bits` of `x`.
#[inline(always)]
fn clz(x: u64, bits: u32) -> u64 {
    let m = mask(x, bits);
    (m.leading_zeros() - (64 - bits)) as u64
}

/// Unary ops on signed integers of width `bits`.
pub fn unary_signed(op: Un, bits: u32, v: &[i64]) -> Option<Data> {
    Some(match op {
        Un::Abs => map_i(v, bits, |x| x.wrapping_abs()),
        Un::Neg => map_i(v, bits, |x| x.wrapping_neg()),
        Un::Sign => map_i(v, bits, |x| x.signum()),
        Un::Not => map_i(v, bits, |x| !x),
        Un::Popcnt => map_i(v, bits, |x| mask(x as u64, bits).count_ones() as i64),
        Un::Clz => map_i(v, bits, |x| clz(x as u64, bits) as i64),
        Un::Square => map_i(v, bits, |x| x.wrapping_mul(x)),
        _ => return None,
    })
}

/// Unary ops on unsigned integers of width `bits`.
pub fn unary_unsigned(op: Un, bits: u32, v: &[u64]) -> Option<Data> {
    Some(match op {
        Un::Abs => map_u(v, bits, |x| x),
        Un::Neg => map_u(v, bits, |x| x.wrapping_neg()),
        Un::Sign => map_u(v, bits, |x| (x != 0) as u64),
        Un::Not => map_u(v, bits, |x| !x),
        Un::Popcnt => map_u(v, bits, |x| mask(x, bits).count_ones() as u64),
        Un::Clz => map_u(v, bits, |x| clz(x, bits)),
        Un::Square => map_u(v, bits, |x| x.wrapping_mul(x)),
        _ => return None,
    })
}

/// Unary ops on booleans (only `not` is defined).
pub fn unary_bool(op: Un, v: &[bool]) -> Option<Data> {
    match op {
        Un::Not => Some(Data::Bool(v.iter().map(|&x| !x).collect())),
        _ => None,
    }
}

/// `base ** exp` with wraparound (square and multiply), for signed integers.
fn ipow_signed(base: i64, exp: i64) -> i64 {
    if exp < 0 {
        return match base {
            1 => 1,
            -1 => {
                if exp % 2 == 0 {
                    1
                } else {
                    -1
                }
            }
            _ => 0,
        };
    }
    upow(base as u64, exp as u64) as i64
}

/// `base ** exp` modulo 2^64.
fn upow(mut base: u64, mut exp: u64) -> u64 {
    let mut r: u64 = 1;
    while exp != 0 {
        if exp & 1 == 1 {
            r = r.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        exp >>= 1;
    }
    r
}

/// Shift amount as an unsigned value of the operand width.
#[inline(always)]
fn amount(s: i64, bits: u32) -> u64 {
    mask(s as u64, bits)
}

/// `shift_left` of a signed `bits`-wide value (before sign extension of the result): amounts at or above
/// the width (read as unsigned) give 0. The fast backends call these scalar forms too.
#[inline(always)]
pub fn shl_signed(x: i64, s: i64, bits: u32) -> i64 {
    let s = amount(s, bits);
    if s >= bits as u64 {
        0
    } else {
        ((x as u64) << s) as i64
    }
}

/// `shift_right_arithmetic` of a signed value: amounts at or above the width fill with the sign.
#[inline(always)]
pub fn shr_arith_signed(x: i64, s: i64, bits: u32) -> i64 {
    let s = amount(s, bits);
    if s >= bits as u64 {
        if x < 0 {
            -1
        } else {
            0
        }
    } else {
        x >> s
    }
}

/// `shift_right_logical` of a signed value (its `bits`-wide pattern shifted as unsigned).
#[inline(always)]
pub fn shr_logical_signed(x: i64, s: i64, bits: u32) -> i64 {
    let s = amount(s, bits);
    if s >= bits as u64 {
        0
    } else {
        (mask(x as u64, bits) >> s) as i64
    }
}

/// `shift_left` of an unsigned value (before masking the result to the width).
#[inline(always)]
pub fn shl_unsigned(x: u64, s: u64, bits: u32) -> u64 {
    if s >= bits as u64 {
        0
    } else {
        x << s
    }
}

/// `shift_right_arithmetic` of an unsigned value: the top bit of the width is the sign.
#[inline(always)]
pub fn shr_arith_unsigned(x: u64, s: u64, bits: u32) -> u64 {
    let xs = sx(x as i64, bits);
    if s >= bits as u64 {
        if xs < 0 {
            u64::MAX
        } else {
            0
        }
    } else {
        (xs >> s) as u64
    }
}

/// `shift_right_logical` of an unsigned value.
#[inline(always)]
pub fn shr_logical_unsigned(x: u64, s: u64, bits: u32) -> u64 {
    if s >= bits as u64 {
        0
    } else {
        x >> s
    }
}

/// Binary ops on signed integers of width `bits`.
pub fn binary_signed(op: Bin, bits: u32, a: &[i64], b: &[i64]) -> Option<Data> {
    let min = sx(1i64 << (bits - 1).min(63), bits);
    Some(match op {
        Bin::Add => zip_i(a, b, bits, |x, y| x.wrapping_add(y)),
        Bin::Sub => zip_i(a, b, bits, |x, y| x.wrapping_sub(y)),
        Bin::Mul => zip_i(a, b, bits, |x, y| x.wrapping_mul(y)),
        Bin::Div => zip_i(a, b, bits, |x, y| {
            if y == 0 {
                -1
            } else if x == min && y == -1 {
                min
            } else {
                x.wrapping_div(y)
            }
        }),
        Bin::Rem => zip_i(a, b, bits, |x, y| {
            if y == 0 {
                x
            } else if y == -1 {
                0
            } else {
                x.wrapping_rem(y)
            }
        }),
        Bin::Pow => zip_i(a, b, bits, ipow_signed),
        Bin::Max => zip_i(a, b, bits, |x, y| x.max(y)),
        Bin::Min => zip_i(a, b, bits, |x, y| x.min(y)),
        Bin::And => zip_i(a, b, bits, |x, y| x & y),
        Bin::Or => zip_i(a, b, bits, |x, y| x | y),
        Bin::Xor => zip_i(a, b, bits, |x, y| x ^ y),
        Bin::Shl => zip_i(a, b, bits, |x, s| shl_signed(x, s, bits)),
        Bin::ShrA => zip_i(a, b, bits, |x, s| shr_arith_signed(x, s, bits)),
        Bin::ShrL => zip_i(a, b, bits, |x, s| shr_logical_signed(x, s, bits)),
        _ => return None,
    })
}

/// Binary ops on unsigned integers of width `bits`.
pub fn binary_unsigned(op: Bin, bits: u32, a: &[u64], b: &[u64]) -> Option<Data> {
    Some(match op {
        Bin::Add => zip_u(a, b, bits, |x, y| x.wrapping_add(y)),
        Bin::Sub => zip_u(a, b, bits, |x, y| x.wrapping_sub(y)),
        Bin::Mul => zip_u(a, b, bits, |x, y| x.wrapping_mul(y)),
        Bin::Div => zip_u(a, b, bits, |x, y| x.checked_div(y).unwrap_or(u64::MAX)),
        Bin::Rem => zip_u(a, b, bits, |x, y| x.checked_rem(y).unwrap_or(x)),
        Bin::Pow => zip_u(a, b, bits, upow),
        Bin::Max => zip_u(a, b, bits, |x, y| x.max(y)),
        Bin::Min => zip_u(a, b, bits, |x, y| x.min(y)),
        Bin::And => zip_u(a, b, bits, |x, y| x & y),
        Bin::Or => zip_u(a, b, bits, |x, y| x | y),
        Bin::Xor => zip_u(a, b, bits, |x, y| x ^ y),
        Bin::Shl => zip_u(a, b, bits, |x, s| shl_unsigned(x, s, bits)),
        Bin::ShrA => zip_u(a, b, bits, |x, s| shr_arith_unsigned(x, s, bits)),
        Bin::ShrL => zip_u(a, b, bits, |x, s| shr_logical_unsigned(x, s, bits)),
        _ => return None,
    })
}

/// Binary ops on booleans: the spec's logical forms (`add`/`maximum` are OR, `multiply`/`minimum` AND).
pub fn binary_bool(op: Bin, a: &[bool], b: &[bool]) -> Option<Data> {
    let z = |f: fn(bool, bool) -> bool| Data::Bool(a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect());
    Some(match op {
        Bin::And | Bin::Mul | Bin::Min => z(|x, y| x & y),
        Bin::Or | Bin::Add | Bin::Max => z(|x, y| x | y),
        Bin::Xor => z(|x, y| x ^ y),
        _ => return None,
    })
}
