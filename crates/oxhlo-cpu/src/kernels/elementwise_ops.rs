//! The typed inner loops of elementwise evaluation: chunk registers ([`Reg`]) in one of five lanes
//! ([`Lane`]: f32 (also carrying f16/bf16 values, rounded to their type after every op), f64, signed and
//! unsigned integers widened to 64 bits (wrapped to their width after every op), bool), and every
//! op on them as a tight loop over a chunk. u32 values (the threefry rounds of every `jax.random`
//! call) have registers of their own ([`Reg::W`]): 16 to a 512-bit vector and no wrapping after an op.
//!
//! Exactness: `+ - * / %`, sqrt, rounding ops, max/min (IEEE `maximum`/`minimum`), compare, select,
//! clamp and convert are computed natively and are bit-exact with the reference interpreter (f16/bf16
//! computed in f32 are exact because f32 carries more than 2p+2 bits). f32 exp/log/tanh/logistic use
//! [`super::fastmath`] (a few ulp). Every other op calls the interpreter's own public kernels
//! (`oxhlo_interp::ops::elementwise_float` / `elementwise_int`) on the chunk, so it is exact by
//! construction.

use std::mem::MaybeUninit;
use super::fastmath;
use crate::tensor::{Buf, Kind};
use half::{bf16, f16};
use oxhlo_interp::ops::compare::{holds, weak_cmp};
use oxhlo_interp::ops::elementwise::{Bin, Un};
use oxhlo_interp::ops::elementwise_float as fl;
use oxhlo_interp::ops::elementwise_int as int;
use oxhlo_interp::Data;
use oxhlo_ir::attr::{ComparisonDirection as Dir, ComparisonType as CmpTy};
use oxhlo_ir::FloatType;

/// Rounding applied to f32-lane results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Round {
    No,
    F16,
    BF16,
}

/// The computation lane of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lane {
    F32(Round),
    F64,
    /// Signed integer of this many bits, stored sign-extended.
    I(u32),
    /// Unsigned integer of this many bits.
    U(u32),
    Bool,
}

impl Lane {
    /// The lane of a native kind (None for complex).
    pub fn of(kind: Kind) -> Option<Lane> {
        Some(match kind {
            Kind::F32 => Lane::F32(Round::No),
            Kind::F16 => Lane::F32(Round::F16),
            Kind::BF16 => Lane::F32(Round::BF16),
            Kind::F64 => Lane::F64,
            Kind::I8 => Lane::I(8),
            Kind::I16 => Lane::I(16),
            Kind::I32 => Lane::I(32),
            Kind::I64 => Lane::I(64),
            Kind::U8 => Lane::U(8),
            Kind::U16 => Lane::U(16),
            Kind::U32 => Lane::U(32),
            Kind::U64 => Lane::U(64),
            Kind::Bool => Lane::Bool,
            Kind::C64 | Kind::C128 => return None,
        })
    }

    fn float_type(self) -> FloatType {
        match self {
            Lane::F32(Round::F16) => FloatType::F16,
            Lane::F32(Round::BF16) => FloatType::BF16,
            Lane::F64 => FloatType::F64,
            _ => FloatType::F32,
        }
    }

    /// A register of this lane with `n` elements.
    pub fn reg(self, n: usize) -> Reg {
        match self {
            Lane::F32(_) => Reg::F32(vec![0.0; n]),
            Lane::F64 => Reg::F64(vec![0.0; n]),
            Lane::I(_) => Reg::I(vec![0; n]),
            Lane::U(32) => Reg::W(vec![0; n]),
            Lane::U(_) => Reg::U(vec![0; n]),
            Lane::Bool => Reg::B(vec![false; n]),
        }
    }

    /// Registers of lanes with one class can share storage.
    pub fn class(self) -> u8 {
        match self {
            Lane::F32(_) => 0,
            Lane::F64 => 1,
            Lane::I(_) => 2,
            Lane::U(32) => 5,
            Lane::U(_) => 3,
            Lane::Bool => 4,
        }
    }
}

/// One chunk of values of one lane.
#[derive(Clone, Debug, Default)]
pub enum Reg {
    #[default]
    Empty,
    F32(Vec<f32>),
    F64(Vec<f64>),
    I(Vec<i64>),
    U(Vec<u64>),
    /// Unsigned 32-bit values (lane `U(32)`).
    W(Vec<u32>),
    B(Vec<bool>),
}

/// Sign-extends the low `bits` of `v`.
#[inline(always)]
pub fn sx(v: i64, bits: u32) -> i64 {
    let s = 64 - bits.clamp(1, 64);
    (v << s) >> s
}

/// Keeps the low `bits` of `v`.
#[inline(always)]
pub fn mask(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// Rounds f32-lane values to their storage type.
#[inline]
pub fn round_f32(r: Round, d: &mut [f32]) {
    match r {
        Round::No => {}
        Round::F16 => d.iter_mut().for_each(|x| *x = f16::from_f32(*x).to_f32()),
        Round::BF16 => d.iter_mut().for_each(|x| *x = bf16::from_f32(*x).to_f32()),
    }
}

/// An f64 rounded once to f32-lane storage of `r`.
#[inline(always)]
fn from_f64(r: Round, x: f64) -> f32 {
    match r {
        Round::No => x as f32,
        Round::F16 => f16::from_f64(x).to_f32(),
        Round::BF16 => bf16::from_f64(x).to_f32(),
    }
}

/// A u64 magnitude as an f64 rounded to odd at 53 bits, so that a second rounding to any format of at
/// most 51 significant bits is the correct single rounding of the integer.
#[inline(always)]
fn odd_f64(a: u64) -> f64 {
    let lz = a.leading_zeros();
    if lz >= 11 {
        return a as f64;
    }
    let sh = 11 - lz;
    let t = (a >> sh) << sh;
    let t = if t != a { t | (1u64 << sh) } else { t };
    t as f64
}

#[inline(always)]
fn int_to_lane_f32(r: Round, v: i64) -> f32 {
    match r {
        Round::No => v as f32,
        _ => {
            let m = odd_f64(v.unsigned_abs());
            from_f64(r, if v < 0 { -m } else { m })
        }
    }
}

#[inline(always)]
fn uint_to_lane_f32(r: Round, v: u64) -> f32 {
    match r {
        Round::No => v as f32,
        _ => from_f64(r, odd_f64(v)),
    }
}

#[inline(always)]
fn float_to_int(x: f64, bits: u32) -> i64 {
    let lo = sx(1i64 << (bits - 1).min(63), bits);
    let hi = if bits >= 64 { i64::MAX } else { (1i64 << (bits - 1)) - 1 };
    (x as i64).clamp(lo, hi)
}

#[inline(always)]
fn float_to_uint(x: f64, bits: u32) -> u64 {
    (x as u64).min(mask(u64::MAX, bits))
}

fn bad(what: &str, lane: Lane) -> String {
    format!("{what} is not defined on lane {lane:?}")
}

#[inline(always)]
fn map<A: Copy, D>(d: &mut [D], a: &[A], f: impl Fn(A) -> D) {
    for (d, &x) in d.iter_mut().zip(a) {
        *d = f(x);
    }
}

#[inline(always)]
fn zip<A: Copy, D>(d: &mut [D], a: &[A], b: &[A], f: impl Fn(A, A) -> D) {
    for (d, (&x, &y)) in d.iter_mut().zip(a.iter().zip(b)) {
        *d = f(x, y);
    }
}

fn from_data_f32(d: &mut [f32], v: Vec<f64>) {
    map(d, &v, |x| x as f32);
}

/// `d = op(a)` on the first `n` elements; `lane` is the operand's lane.
#[inline(always)]
pub fn unary(op: Un, lane: Lane, a: &Reg, d: &mut Reg, n: usize) -> Result<(), String> {
    let pred = |x: f64| -> Option<bool> {
        Some(match op {
            Un::IsFinite => x.is_finite(),
            Un::IsInf => x.is_infinite(),
            Un::IsNegInf => x == f64::NEG_INFINITY,
            Un::IsPosInf => x == f64::INFINITY,
            _ => return None,
        })
    };
    match (lane, a, d) {
        (Lane::F32(_), Reg::F32(a), Reg::B(d)) => {
            for (d, &x) in d[..n].iter_mut().zip(&a[..n]) {
                *d = pred(x as f64).ok_or_else(|| bad(&format!("{op:?}"), lane))?;
            }
        }
        (Lane::F64, Reg::F64(a), Reg::B(d)) => {
            for (d, &x) in d[..n].iter_mut().zip(&a[..n]) {
                *d = pred(x).ok_or_else(|| bad(&format!("{op:?}"), lane))?;
            }
        }
        (Lane::F32(r), Reg::F32(a), Reg::F32(d)) => {
            let (a, d) = (&a[..n], &mut d[..n]);
            let fast32 = r == Round::No;
            match op {
                Un::Abs => map(d, a, f32::abs),
                Un::Neg => map(d, a, |x| -x),
                Un::Sign => map(d, a, |x| if x.is_nan() || x == 0.0 { x } else { x.signum() }),
                Un::Floor => map(d, a, f32::floor),
                Un::Ceil => map(d, a, f32::ceil),
                Un::RoundAfz => map(d, a, f32::round),
                Un::RoundEven => map(d, a, f32::round_ties_even),
                Un::Sqrt => {
                    map(d, a, f32::sqrt);
                    round_f32(r, d);
                }
                Un::Square => {
                    map(d, a, |x| x * x);
                    round_f32(r, d);
                }
                Un::Exp if fast32 => fastmath::map(d, a, fastmath::exp),
                Un::Log if fast32 => fastmath::map(d, a, fastmath::log),
                Un::Log1p if fast32 => fastmath::map(d, a, fastmath::log1p),
                Un::Tanh if fast32 => fastmath::map(d, a, fastmath::tanh),
                Un::Logistic if fast32 => fastmath::map(d, a, fastmath::logistic),
                Un::ErfInv if fast32 => fastmath::erf_inv_precise_slice(d, a),
                _ => {
                    let v: Vec<f64> = a.iter().map(|&x| x as f64).collect();
                    let out = fl::unary(op, lane.float_type(), &v).ok_or_else(|| bad(&format!("{op:?}"), lane))?;
                    from_data_f32(d, out);
                }
            }
        }
        (Lane::F64, Reg::F64(a), Reg::F64(d)) => {
            let (a, d) = (&a[..n], &mut d[..n]);
            match op {
                Un::Abs => map(d, a, f64::abs),
                Un::Neg => map(d, a, |x| -x),
                Un::Sqrt => map(d, a, f64::sqrt),
                Un::Square => map(d, a, |x| x * x),
                Un::Floor => map(d, a, f64::floor),
                Un::Ceil => map(d, a, f64::ceil),
                _ => {
                    let out = fl::unary(op, FloatType::F64, a).ok_or_else(|| bad(&format!("{op:?}"), lane))?;
                    d.copy_from_slice(&out);
                }
            }
        }
        (Lane::I(bits), Reg::I(a), Reg::I(d)) => {
            let (a, d) = (&a[..n], &mut d[..n]);
            match op {
                Un::Neg => map(d, a, |x| sx(x.wrapping_neg(), bits)),
                Un::Not => map(d, a, |x| !x),
                Un::Abs => map(d, a, |x| sx(x.wrapping_abs(), bits)),
                _ => match int::unary_signed(op, bits, a) {
                    Some(Data::Int(v)) => d.copy_from_slice(&v),
                    _ => return Err(bad(&format!("{op:?}"), lane)),
                },
            }
        }
        (Lane::U(32), Reg::W(a), Reg::W(d)) => {
            let (a, d) = (&a[..n], &mut d[..n]);
            match op {
                Un::Not => map(d, a, |x| !x),
                Un::Popcnt => map(d, a, u32::count_ones),
                Un::Clz => map(d, a, u32::leading_zeros),
                _ => {
                    let wide: Vec<u64> = a.iter().map(|&x| x as u64).collect();
                    match int::unary_unsigned(op, 32, &wide) {
                        Some(Data::UInt(v)) => map(d, &v, |x| x as u32),
                        _ => return Err(bad(&format!("{op:?}"), lane)),
                    }
                }
            }
        }
        (Lane::U(bits), Reg::U(a), Reg::U(d)) => match int::unary_unsigned(op, bits, &a[..n]) {
            Some(Data::UInt(v)) => d[..n].copy_from_slice(&v),
            _ => return Err(bad(&format!("{op:?}"), lane)),
        },
        (Lane::Bool, Reg::B(a), Reg::B(d)) => match op {
            Un::Not => map(&mut d[..n], &a[..n], |x: bool| !x),
            _ => return Err(bad(&format!("{op:?}"), lane)),
        },
        _ => return Err(bad(&format!("{op:?} (register mismatch)"), lane)),
    }
    Ok(())
}

/// `d = op(a, b)` on the first `n` elements; `lane` is the operands' lane.
#[inline(always)]
pub fn binary(op: Bin, lane: Lane, a: &Reg, b: &Reg, d: &mut Reg, n: usize) -> Result<(), String> {
    match (lane, a, b, d) {
        (Lane::F32(r), Reg::F32(a), Reg::F32(b), Reg::F32(d)) => {
            let (a, b, d) = (&a[..n], &b[..n], &mut d[..n]);
            match op {
                Bin::Add => zip(d, a, b, |x, y| x + y),
                Bin::Sub => zip(d, a, b, |x, y| x - y),
                Bin::Mul => zip(d, a, b, |x, y| x * y),
                Bin::Div => zip(d, a, b, |x, y| x / y),
                Bin::Rem => zip(d, a, b, |x, y| x % y),
                Bin::Max => {
                    zip(d, a, b, fastmath::max);
                    return Ok(());
                }
                Bin::Min => {
                    zip(d, a, b, fastmath::min);
                    return Ok(());
                }
                _ => {
                    let va: Vec<f64> = a.iter().map(|&x| x as f64).collect();
                    let vb: Vec<f64> = b.iter().map(|&x| x as f64).collect();
                    let out = fl::binary(op, lane.float_type(), &va, &vb).ok_or_else(|| bad(&format!("{op:?}"), lane))?;
                    from_data_f32(d, out);
                    return Ok(());
                }
            }
            round_f32(r, d);
        }
        (Lane::F64, Reg::F64(a), Reg::F64(b), Reg::F64(d)) => {
            let (a, b, d) = (&a[..n], &b[..n], &mut d[..n]);
            match op {
                Bin::Add => zip(d, a, b, |x, y| x + y),
                Bin::Sub => zip(d, a, b, |x, y| x - y),
                Bin::Mul => zip(d, a, b, |x, y| x * y),
                Bin::Div => zip(d, a, b, |x, y| x / y),
                _ => {
                    let out = fl::binary(op, FloatType::F64, a, b).ok_or_else(|| bad(&format!("{op:?}"), lane))?;
                    d.copy_from_slice(&out);
                }
            }
        }
        (Lane::I(bits), Reg::I(a), Reg::I(b), Reg::I(d)) => {
            let (a, b, d) = (&a[..n], &b[..n], &mut d[..n]);
            match op {
                Bin::Add => zip(d, a, b, |x, y| sx(x.wrapping_add(y), bits)),
                Bin::Sub => zip(d, a, b, |x, y| sx(x.wrapping_sub(y), bits)),
                Bin::Mul => zip(d, a, b, |x, y| sx(x.wrapping_mul(y), bits)),
                Bin::And => zip(d, a, b, |x, y| x & y),
                Bin::Or => zip(d, a, b, |x, y| x | y),
                Bin::Xor => zip(d, a, b, |x, y| x ^ y),
                Bin::Max => zip(d, a, b, |x: i64, y| x.max(y)),
                Bin::Min => zip(d, a, b, |x: i64, y| x.min(y)),
                Bin::Shl => zip(d, a, b, |x, y| sx(int::shl_signed(x, y, bits), bits)),
                Bin::ShrA => zip(d, a, b, |x, y| sx(int::shr_arith_signed(x, y, bits), bits)),
                Bin::ShrL => zip(d, a, b, |x, y| sx(int::shr_logical_signed(x, y, bits), bits)),
                _ => match int::binary_signed(op, bits, a, b) {
                    Some(Data::Int(v)) => d.copy_from_slice(&v),
                    _ => return Err(bad(&format!("{op:?}"), lane)),
                },
            }
        }
        (Lane::U(bits), Reg::U(a), Reg::U(b), Reg::U(d)) => {
            let (a, b, d) = (&a[..n], &b[..n], &mut d[..n]);
            match op {
                Bin::Add => zip(d, a, b, |x, y| mask(x.wrapping_add(y), bits)),
                Bin::Sub => zip(d, a, b, |x, y| mask(x.wrapping_sub(y), bits)),
                Bin::Mul => zip(d, a, b, |x, y| mask(x.wrapping_mul(y), bits)),
                Bin::And => zip(d, a, b, |x, y| x & y),
                Bin::Or => zip(d, a, b, |x, y| x | y),
                Bin::Xor => zip(d, a, b, |x, y| x ^ y),
                Bin::Max => zip(d, a, b, |x: u64, y| x.max(y)),
                Bin::Min => zip(d, a, b, |x: u64, y| x.min(y)),
                Bin::Shl => zip(d, a, b, |x, y| mask(int::shl_unsigned(x, y, bits), bits)),
                Bin::ShrA => zip(d, a, b, |x, y| mask(int::shr_arith_unsigned(x, y, bits), bits)),
                Bin::ShrL => zip(d, a, b, |x, y| mask(int::shr_logical_unsigned(x, y, bits), bits)),
                _ => match int::binary_unsigned(op, bits, a, b) {
                    Some(Data::UInt(v)) => d.copy_from_slice(&v),
                    _ => return Err(bad(&format!("{op:?}"), lane)),
                },
            }
        }
        (Lane::U(32), Reg::W(a), Reg::W(b), Reg::W(d)) => {
            let (a, b, d) = (&a[..n], &b[..n], &mut d[..n]);
            match op {
                Bin::Add => zip(d, a, b, u32::wrapping_add),
                Bin::Sub => zip(d, a, b, u32::wrapping_sub),
                Bin::Mul => zip(d, a, b, u32::wrapping_mul),
                Bin::And => zip(d, a, b, |x, y| x & y),
                Bin::Or => zip(d, a, b, |x, y| x | y),
                Bin::Xor => zip(d, a, b, |x, y| x ^ y),
                Bin::Max => zip(d, a, b, u32::max),
                Bin::Min => zip(d, a, b, u32::min),
                Bin::Shl => zip(d, a, b, |x, y| if y < 32 { x << y } else { 0 }),
                Bin::ShrL => zip(d, a, b, |x, y| if y < 32 { x >> y } else { 0 }),
                Bin::ShrA => zip(d, a, b, |x, y| ((x as i32) >> y.min(31)) as u32),
                _ => {
                    let (wa, wb): (Vec<u64>, Vec<u64>) = (a.iter().map(|&x| x as u64).collect(), b.iter().map(|&x| x as u64).collect());
                    match int::binary_unsigned(op, 32, &wa, &wb) {
                        Some(Data::UInt(v)) => map(d, &v, |x| x as u32),
                        _ => return Err(bad(&format!("{op:?}"), lane)),
                    }
                }
            }
        }
        (Lane::Bool, Reg::B(a), Reg::B(b), Reg::B(d)) => {
            let (a, b, d) = (&a[..n], &b[..n], &mut d[..n]);
            match op {
                Bin::And | Bin::Mul | Bin::Min => zip(d, a, b, |x, y| x & y),
                Bin::Or | Bin::Add | Bin::Max => zip(d, a, b, |x, y| x | y),
                Bin::Xor => zip(d, a, b, |x, y| x ^ y),
                _ => return Err(bad(&format!("{op:?}"), lane)),
            }
        }
        _ => return Err(bad(&format!("{op:?} (register mismatch)"), lane)),
    }
    Ok(())
}

#[inline(always)]
fn cmp_partial<T: PartialOrd + Copy>(d: &mut [bool], a: &[T], b: &[T], dir: Dir) {
    match dir {
        Dir::Eq => zip(d, a, b, |x, y| x == y),
        Dir::Ne => zip(d, a, b, |x, y| x != y),
        Dir::Lt => zip(d, a, b, |x, y| x < y),
        Dir::Le => zip(d, a, b, |x, y| x <= y),
        Dir::Gt => zip(d, a, b, |x, y| x > y),
        Dir::Ge => zip(d, a, b, |x, y| x >= y),
    }
}

/// `d = compare(a, b)` with the interpreter's comparison types (TOTALORDER, WEAKORDER, SIGNED, UNSIGNED).
#[inline(always)]
pub fn compare(dir: Dir, ty: Option<CmpTy>, lane: Lane, a: &Reg, b: &Reg, d: &mut Reg, n: usize) -> Result<(), String> {
    let Reg::B(d) = d else { return Err(bad("compare result", lane)) };
    let d = &mut d[..n];
    let floats = |d: &mut [bool], x: &[f64], y: &[f64]| match ty {
        Some(CmpTy::TotalOrder) => zip(d, x, y, |p, q| holds(dir, Some(p.total_cmp(&q)))),
        Some(CmpTy::WeakOrder) => zip(d, x, y, |p, q| holds(dir, Some(weak_cmp(p, q)))),
        _ => cmp_partial(d, x, y, dir),
    };
    match (lane, a, b) {
        (Lane::F32(_), Reg::F32(a), Reg::F32(b)) => match ty {
            Some(CmpTy::TotalOrder | CmpTy::WeakOrder) => {
                let x: Vec<f64> = a[..n].iter().map(|&v| v as f64).collect();
                let y: Vec<f64> = b[..n].iter().map(|&v| v as f64).collect();
                floats(d, &x, &y);
            }
            _ => cmp_partial(d, &a[..n], &b[..n], dir),
        },
        (Lane::F64, Reg::F64(a), Reg::F64(b)) => floats(d, &a[..n], &b[..n]),
        (Lane::I(bits), Reg::I(a), Reg::I(b)) => {
            if ty == Some(CmpTy::Unsigned) {
                zip(d, &a[..n], &b[..n], |p, q| holds(dir, Some(mask(p as u64, bits).cmp(&mask(q as u64, bits)))))
            } else {
                cmp_partial(d, &a[..n], &b[..n], dir)
            }
        }
        (Lane::U(bits), Reg::U(a), Reg::U(b)) => {
            if ty == Some(CmpTy::Signed) {
                zip(d, &a[..n], &b[..n], |p, q| holds(dir, Some(sx(p as i64, bits).cmp(&sx(q as i64, bits)))))
            } else {
                cmp_partial(d, &a[..n], &b[..n], dir)
            }
        }
        (Lane::U(32), Reg::W(a), Reg::W(b)) => {
            if ty == Some(CmpTy::Signed) {
                zip(d, &a[..n], &b[..n], |p, q| holds(dir, Some((p as i32).cmp(&(q as i32)))))
            } else {
                cmp_partial(d, &a[..n], &b[..n], dir)
            }
        }
        (Lane::Bool, Reg::B(a), Reg::B(b)) => cmp_partial(d, &a[..n], &b[..n], dir),
        _ => return Err(bad("compare (register mismatch)", lane)),
    }
    Ok(())
}

/// `d = p ? t : f`.
#[inline(always)]
pub fn select(p: &Reg, t: &Reg, f: &Reg, d: &mut Reg, n: usize) -> Result<(), String> {
    let Reg::B(p) = p else { return Err("select: the predicate register is not boolean".into()) };
    fn go<T: Copy>(p: &[bool], t: &[T], f: &[T], d: &mut [T]) {
        for (i, d) in d.iter_mut().enumerate() {
            *d = if p[i] { t[i] } else { f[i] };
        }
    }
    let p = &p[..n];
    match (t, f, d) {
        (Reg::F32(t), Reg::F32(f), Reg::F32(d)) => go(p, &t[..n], &f[..n], &mut d[..n]),
        (Reg::F64(t), Reg::F64(f), Reg::F64(d)) => go(p, &t[..n], &f[..n], &mut d[..n]),
        (Reg::I(t), Reg::I(f), Reg::I(d)) => go(p, &t[..n], &f[..n], &mut d[..n]),
        (Reg::U(t), Reg::U(f), Reg::U(d)) => go(p, &t[..n], &f[..n], &mut d[..n]),
        (Reg::W(t), Reg::W(f), Reg::W(d)) => go(p, &t[..n], &f[..n], &mut d[..n]),
        (Reg::B(t), Reg::B(f), Reg::B(d)) => go(p, &t[..n], &f[..n], &mut d[..n]),
        _ => return Err("select: branch registers differ".into()),
    }
    Ok(())
}

/// `d = minimum(maximum(x, lo), hi)` with the lane's max/min.
#[inline(always)]
pub fn clamp(lo: &Reg, x: &Reg, hi: &Reg, d: &mut Reg, n: usize) -> Result<(), String> {
    fn go<T: Copy>(lo: &[T], x: &[T], hi: &[T], d: &mut [T], mx: impl Fn(T, T) -> T, mn: impl Fn(T, T) -> T) {
        for (i, d) in d.iter_mut().enumerate() {
            *d = mn(mx(x[i], lo[i]), hi[i]);
        }
    }
    match (lo, x, hi, d) {
        (Reg::F32(l), Reg::F32(x), Reg::F32(h), Reg::F32(d)) => go(&l[..n], &x[..n], &h[..n], &mut d[..n], fl::fmax, fl::fmin),
        (Reg::F64(l), Reg::F64(x), Reg::F64(h), Reg::F64(d)) => {
            go(&l[..n], &x[..n], &h[..n], &mut d[..n], fl::fmax, fl::fmin)
        }
        (Reg::I(l), Reg::I(x), Reg::I(h), Reg::I(d)) => go(&l[..n], &x[..n], &h[..n], &mut d[..n], i64::max, i64::min),
        (Reg::U(l), Reg::U(x), Reg::U(h), Reg::U(d)) => go(&l[..n], &x[..n], &h[..n], &mut d[..n], u64::max, u64::min),
        (Reg::W(l), Reg::W(x), Reg::W(h), Reg::W(d)) => go(&l[..n], &x[..n], &h[..n], &mut d[..n], u32::max, u32::min),
        (Reg::B(l), Reg::B(x), Reg::B(h), Reg::B(d)) => {
            go(&l[..n], &x[..n], &h[..n], &mut d[..n], |a, b| a | b, |a, b| a & b)
        }
        _ => return Err("clamp: operand registers differ".into()),
    }
    Ok(())
}

/// `d = convert(a)` from lane `la` to lane `lb`, as the interpreter's `convert`.
#[inline(always)]
pub fn convert(la: Lane, lb: Lane, a: &Reg, d: &mut Reg, n: usize) -> Result<(), String> {
    match (a, lb, d) {
        (Reg::F32(a), Lane::F32(r), Reg::F32(d)) => map(&mut d[..n], &a[..n], |x| from_f64(r, x as f64)),
        (Reg::F64(a), Lane::F32(r), Reg::F32(d)) => map(&mut d[..n], &a[..n], |x| from_f64(r, x)),
        (Reg::F32(a), Lane::F64, Reg::F64(d)) => map(&mut d[..n], &a[..n], |x| x as f64),
        (Reg::F64(a), Lane::F64, Reg::F64(d)) => d[..n].copy_from_slice(&a[..n]),
        (Reg::F32(a), Lane::I(b), Reg::I(d)) => map(&mut d[..n], &a[..n], |x| float_to_int(x as f64, b)),
        (Reg::F64(a), Lane::I(b), Reg::I(d)) => map(&mut d[..n], &a[..n], |x| float_to_int(x, b)),
        (Reg::F32(a), Lane::U(b), Reg::U(d)) => map(&mut d[..n], &a[..n], |x| float_to_uint(x as f64, b)),
        (Reg::F64(a), Lane::U(b), Reg::U(d)) => map(&mut d[..n], &a[..n], |x| float_to_uint(x, b)),
        (Reg::F32(a), Lane::Bool, Reg::B(d)) => map(&mut d[..n], &a[..n], |x| x != 0.0),
        (Reg::F64(a), Lane::Bool, Reg::B(d)) => map(&mut d[..n], &a[..n], |x| x != 0.0),
        (Reg::I(a), Lane::F32(r), Reg::F32(d)) => map(&mut d[..n], &a[..n], |x| int_to_lane_f32(r, x)),
        (Reg::I(a), Lane::F64, Reg::F64(d)) => map(&mut d[..n], &a[..n], |x| x as f64),
        (Reg::U(a), Lane::F32(r), Reg::F32(d)) => map(&mut d[..n], &a[..n], |x| uint_to_lane_f32(r, x)),
        (Reg::U(a), Lane::F64, Reg::F64(d)) => map(&mut d[..n], &a[..n], |x| x as f64),
        (Reg::I(a), Lane::I(b), Reg::I(d)) => map(&mut d[..n], &a[..n], |x| sx(x, b)),
        (Reg::U(a), Lane::I(b), Reg::I(d)) => map(&mut d[..n], &a[..n], |x| sx(x as i64, b)),
        (Reg::I(a), Lane::U(b), Reg::U(d)) => map(&mut d[..n], &a[..n], |x| mask(x as u64, b)),
        (Reg::U(a), Lane::U(b), Reg::U(d)) => map(&mut d[..n], &a[..n], |x| mask(x, b)),
        (Reg::I(a), Lane::Bool, Reg::B(d)) => map(&mut d[..n], &a[..n], |x| x != 0),
        (Reg::U(a), Lane::Bool, Reg::B(d)) => map(&mut d[..n], &a[..n], |x| x != 0),
        (Reg::B(a), Lane::F32(_), Reg::F32(d)) => map(&mut d[..n], &a[..n], |x| x as u8 as f32),
        (Reg::B(a), Lane::F64, Reg::F64(d)) => map(&mut d[..n], &a[..n], |x| x as u8 as f64),
        (Reg::B(a), Lane::I(_), Reg::I(d)) => map(&mut d[..n], &a[..n], |x| x as i64),
        (Reg::B(a), Lane::U(_), Reg::U(d)) => map(&mut d[..n], &a[..n], |x| x as u64),
        (Reg::B(a), Lane::Bool, Reg::B(d)) => d[..n].copy_from_slice(&a[..n]),
        // u32 registers: as their values widened to u64 would convert.
        (Reg::W(a), Lane::F32(r), Reg::F32(d)) => map(&mut d[..n], &a[..n], |x| uint_to_lane_f32(r, x as u64)),
        (Reg::W(a), Lane::F64, Reg::F64(d)) => map(&mut d[..n], &a[..n], |x| x as f64),
        (Reg::W(a), Lane::I(b), Reg::I(d)) => map(&mut d[..n], &a[..n], |x| sx(x as i64, b)),
        (Reg::W(a), Lane::U(b), Reg::U(d)) => map(&mut d[..n], &a[..n], |x| mask(x as u64, b)),
        (Reg::W(a), Lane::U(_), Reg::W(d)) => d[..n].copy_from_slice(&a[..n]),
        (Reg::W(a), Lane::Bool, Reg::B(d)) => map(&mut d[..n], &a[..n], |x| x != 0),
        (Reg::F32(a), Lane::U(_), Reg::W(d)) => map(&mut d[..n], &a[..n], |x| float_to_uint(x as f64, 32) as u32),
        (Reg::F64(a), Lane::U(_), Reg::W(d)) => map(&mut d[..n], &a[..n], |x| float_to_uint(x, 32) as u32),
        (Reg::I(a), Lane::U(_), Reg::W(d)) => map(&mut d[..n], &a[..n], |x| x as u32),
        (Reg::U(a), Lane::U(_), Reg::W(d)) => map(&mut d[..n], &a[..n], |x| x as u32),
        (Reg::B(a), Lane::U(_), Reg::W(d)) => map(&mut d[..n], &a[..n], |x| x as u32),
        _ => return Err(format!("convert from {la:?} to {lb:?}: register mismatch")),
    }
    Ok(())
}

/// Which elements of an input a load reads.
#[derive(Clone, Copy, Debug)]
pub enum Sel<'a> {
    /// Elements `lo..lo + n`.
    Range(usize),
    /// The element at this offset, repeated.
    Repeat(usize),
    /// The listed element offsets.
    Gather(&'a [usize]),
}

/// Loads `n` elements of `buf` (selected by `sel`) into register `d` (of the buffer kind's lane).
#[inline(always)]
pub fn load(buf: &Buf, sel: Sel, n: usize, d: &mut Reg) -> Result<(), String> {
    macro_rules! ld {
        ($v:expr, $d:expr, $f:expr) => {{
            let (v, d, f) = ($v, &mut $d[..n], $f);
            match sel {
                Sel::Range(lo) => map(d, v.get(lo..lo + n).ok_or("load out of range")?, f),
                Sel::Repeat(at) => d.fill(f(*v.get(at).ok_or("load out of range")?)),
                Sel::Gather(ix) => {
                    for (d, &i) in d.iter_mut().zip(ix) {
                        *d = f(*v.get(i).ok_or("gather out of range")?);
                    }
                }
            }
        }};
    }
    match (buf, d) {
        (Buf::F32(v), Reg::F32(d)) => ld!(v, d, |x: f32| x),
        (Buf::F16(v), Reg::F32(d)) => ld!(v, d, |x: f16| x.to_f32()),
        (Buf::BF16(v), Reg::F32(d)) => ld!(v, d, |x: bf16| x.to_f32()),
        (Buf::F64(v), Reg::F64(d)) => ld!(v, d, |x: f64| x),
        (Buf::I8(v), Reg::I(d)) => ld!(v, d, |x: i8| x as i64),
        (Buf::I16(v), Reg::I(d)) => ld!(v, d, |x: i16| x as i64),
        (Buf::I32(v), Reg::I(d)) => ld!(v, d, |x: i32| x as i64),
        (Buf::I64(v), Reg::I(d)) => ld!(v, d, |x: i64| x),
        (Buf::U8(v), Reg::U(d)) => ld!(v, d, |x: u8| x as u64),
        (Buf::U16(v), Reg::U(d)) => ld!(v, d, |x: u16| x as u64),
        (Buf::U32(v), Reg::U(d)) => ld!(v, d, |x: u32| x as u64),
        (Buf::U32(v), Reg::W(d)) => ld!(v, d, |x: u32| x),
        (Buf::U64(v), Reg::U(d)) => ld!(v, d, |x: u64| x),
        (Buf::Bool(v), Reg::B(d)) => ld!(v, d, |x: bool| x),
        _ => return Err("load: buffer and register kinds differ".into()),
    }
    Ok(())
}

/// A window of an output buffer's storage, written (never read) by the kernel: uninitialized until
/// the kernel stores it, so that outputs need no zeroing pass first.
pub enum OutSlice<'a> {
    Bool(&'a mut [MaybeUninit<bool>]),
    I8(&'a mut [MaybeUninit<i8>]),
    I16(&'a mut [MaybeUninit<i16>]),
    I32(&'a mut [MaybeUninit<i32>]),
    I64(&'a mut [MaybeUninit<i64>]),
    U8(&'a mut [MaybeUninit<u8>]),
    U16(&'a mut [MaybeUninit<u16>]),
    U32(&'a mut [MaybeUninit<u32>]),
    U64(&'a mut [MaybeUninit<u64>]),
    F16(&'a mut [MaybeUninit<f16>]),
    BF16(&'a mut [MaybeUninit<bf16>]),
    F32(&'a mut [MaybeUninit<f32>]),
    F64(&'a mut [MaybeUninit<f64>]),
}

macro_rules! each_out {
    ($s:expr, $v:ident => $e:expr) => {
        match $s {
            OutSlice::Bool($v) => $e,
            OutSlice::I8($v) => $e,
            OutSlice::I16($v) => $e,
            OutSlice::I32($v) => $e,
            OutSlice::I64($v) => $e,
            OutSlice::U8($v) => $e,
            OutSlice::U16($v) => $e,
            OutSlice::U32($v) => $e,
            OutSlice::U64($v) => $e,
            OutSlice::F16($v) => $e,
            OutSlice::BF16($v) => $e,
            OutSlice::F32($v) => $e,
            OutSlice::F64($v) => $e,
        }
    };
}

impl<'a> OutSlice<'a> {
    /// The first `n` elements of a buffer's spare capacity (None for complex or when it has less).
    /// The caller sets the buffer's length once every element was stored.
    pub fn of_spare(buf: &'a mut Buf, n: usize) -> Option<OutSlice<'a>> {
        macro_rules! sp {
            ($c:ident, $v:expr) => {
                OutSlice::$c($v.spare_capacity_mut().get_mut(..n)?)
            };
        }
        Some(match buf {
            Buf::Bool(v) => sp!(Bool, v),
            Buf::I8(v) => sp!(I8, v),
            Buf::I16(v) => sp!(I16, v),
            Buf::I32(v) => sp!(I32, v),
            Buf::I64(v) => sp!(I64, v),
            Buf::U8(v) => sp!(U8, v),
            Buf::U16(v) => sp!(U16, v),
            Buf::U32(v) => sp!(U32, v),
            Buf::U64(v) => sp!(U64, v),
            Buf::F16(v) => sp!(F16, v),
            Buf::BF16(v) => sp!(BF16, v),
            Buf::F32(v) => sp!(F32, v),
            Buf::F64(v) => sp!(F64, v),
            Buf::C64(_) | Buf::C128(_) => return None,
        })
    }

    /// Splits into `[..mid]` and `[mid..]`.
    pub fn split_at(self, mid: usize) -> (OutSlice<'a>, OutSlice<'a>) {
        macro_rules! sp {
            ($c:ident, $v:expr) => {{
                let (a, b) = $v.split_at_mut(mid.min($v.len()));
                (OutSlice::$c(a), OutSlice::$c(b))
            }};
        }
        match self {
            OutSlice::Bool(v) => sp!(Bool, v),
            OutSlice::I8(v) => sp!(I8, v),
            OutSlice::I16(v) => sp!(I16, v),
            OutSlice::I32(v) => sp!(I32, v),
            OutSlice::I64(v) => sp!(I64, v),
            OutSlice::U8(v) => sp!(U8, v),
            OutSlice::U16(v) => sp!(U16, v),
            OutSlice::U32(v) => sp!(U32, v),
            OutSlice::U64(v) => sp!(U64, v),
            OutSlice::F16(v) => sp!(F16, v),
            OutSlice::BF16(v) => sp!(BF16, v),
            OutSlice::F32(v) => sp!(F32, v),
            OutSlice::F64(v) => sp!(F64, v),
        }
    }

    pub fn len(&self) -> usize {
        each_out!(self, v => v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Stores the first `n` register elements at `out[off..off + n]`.
#[inline(always)]
pub fn store(r: &Reg, out: &mut OutSlice, off: usize, n: usize) -> Result<(), String> {
    macro_rules! st {
        ($o:expr, $a:expr, $f:expr) => {{
            let d = $o.get_mut(off..off + n).ok_or("store out of range")?;
            for (d, &x) in d.iter_mut().zip(&$a[..n]) {
                d.write($f(x));
            }
        }};
    }
    match (r, out) {
        (Reg::F32(a), OutSlice::F32(o)) => st!(o, a, |x: f32| x),
        (Reg::F32(a), OutSlice::F16(o)) => st!(o, a, f16::from_f32),
        (Reg::F32(a), OutSlice::BF16(o)) => st!(o, a, bf16::from_f32),
        (Reg::F64(a), OutSlice::F64(o)) => st!(o, a, |x: f64| x),
        (Reg::I(a), OutSlice::I8(o)) => st!(o, a, |x: i64| x as i8),
        (Reg::I(a), OutSlice::I16(o)) => st!(o, a, |x: i64| x as i16),
        (Reg::I(a), OutSlice::I32(o)) => st!(o, a, |x: i64| x as i32),
        (Reg::I(a), OutSlice::I64(o)) => st!(o, a, |x: i64| x),
        (Reg::U(a), OutSlice::U8(o)) => st!(o, a, |x: u64| x as u8),
        (Reg::U(a), OutSlice::U16(o)) => st!(o, a, |x: u64| x as u16),
        (Reg::U(a), OutSlice::U32(o)) => st!(o, a, |x: u64| x as u32),
        (Reg::U(a), OutSlice::U64(o)) => st!(o, a, |x: u64| x),
        (Reg::W(a), OutSlice::U32(o)) => st!(o, a, |x: u32| x),
        (Reg::B(a), OutSlice::Bool(o)) => st!(o, a, |x: bool| x),
        _ => return Err("store: register and output kinds differ".into()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// u32 registers give, op by op, the reference interpreter's u32 results (its unsigned kernels at
    /// width 32), shifts by 32 and more and signed comparisons included.
    #[test]
    fn u32_registers_match_the_interpreters_u32_ops() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let n = 64;
        let a: Vec<u32> = (0..n).map(|_| next() as u32).collect();
        // Small values (shift counts below and above 32) and large ones.
        let b: Vec<u32> = (0..n).map(|i| if i % 2 == 0 { (next() % 40) as u32 } else { next() as u32 }).collect();
        let wide = |v: &[u32]| v.iter().map(|&x| x as u64).collect::<Vec<u64>>();
        let lane = Lane::U(32);
        let ops = [Bin::Add, Bin::Sub, Bin::Mul, Bin::And, Bin::Or, Bin::Xor, Bin::Max, Bin::Min, Bin::Shl, Bin::ShrL, Bin::ShrA, Bin::Div, Bin::Rem];
        for op in ops {
            let mut d = lane.reg(n);
            binary(op, lane, &Reg::W(a.clone()), &Reg::W(b.clone()), &mut d, n).expect("u32 op");
            let Some(Data::UInt(want)) = int::binary_unsigned(op, 32, &wide(&a), &wide(&b)) else { panic!("{op:?} has no reference") };
            let Reg::W(got) = d else { panic!("a u32 register") };
            assert_eq!(wide(&got), want, "{op:?}");
        }
        for op in [Un::Not, Un::Popcnt, Un::Clz] {
            let mut d = lane.reg(n);
            unary(op, lane, &Reg::W(a.clone()), &mut d, n).expect("u32 op");
            let Some(Data::UInt(want)) = int::unary_unsigned(op, 32, &wide(&a)) else { panic!("{op:?} has no reference") };
            let Reg::W(got) = d else { panic!("a u32 register") };
            assert_eq!(wide(&got), want, "{op:?}");
        }
        for ty in [None, Some(CmpTy::Signed), Some(CmpTy::Unsigned)] {
            let mut d = Lane::Bool.reg(n);
            compare(Dir::Lt, ty, lane, &Reg::W(a.clone()), &Reg::W(b.clone()), &mut d, n).expect("compare");
            let Reg::B(got) = d else { panic!("a bool register") };
            let want: Vec<bool> = a.iter().zip(&b).map(|(&x, &y)| if ty == Some(CmpTy::Signed) { (x as i32) < (y as i32) } else { x < y }).collect();
            assert_eq!(got, want, "{ty:?}");
        }
        // Conversions out of and into u32 registers agree with the widened register's.
        let mut f = Lane::F32(Round::No).reg(n);
        convert(lane, Lane::F32(Round::No), &Reg::W(a.clone()), &mut f, n).expect("to f32");
        let mut f_wide = Lane::F32(Round::No).reg(n);
        convert(Lane::U(64), Lane::F32(Round::No), &Reg::U(wide(&a)), &mut f_wide, n).expect("to f32");
        assert_eq!(format!("{f:?}"), format!("{f_wide:?}"));
        let mut back = lane.reg(n);
        convert(Lane::U(64), lane, &Reg::U(wide(&a).iter().map(|x| x | (7 << 40)).collect()), &mut back, n).expect("to u32");
        let Reg::W(back) = back else { panic!("a u32 register") };
        assert_eq!(back, a, "u64 -> u32 keeps the low 32 bits");
    }
}
