//! rng_bit_generator (THREE_FRY = threefry2x32 with 20 rounds, PHILOX = philox4x32 with 10 rounds, DEFAULT
//! = PHILOX as on XLA's CPU backend), bit-exact with XLA's expansion of the op, and rng (UNIFORM / NORMAL).
//!
//! rng_bit_generator layout (XLA's): state[0] is the key. THREE_FRY: counter = state[1]; 32-bit outputs
//! come in pairs (x0, x1) of one threefry block laid along the first even dimension (else the largest),
//! element 2h + w of that dimension taking word w of block h; 64-bit outputs take one block per element
//! (x0 | x1 << 32); the counter advances by the number of blocks. PHILOX: the 128-bit counter is
//! (state[1], state[0]) for a 2-element state and (state[1], state[2]) for a 3-element one; outputs take
//! the four words of consecutive blocks in order (two 64-bit words per block for 64-bit outputs).
//! Outputs narrower than 32 bits take the low bits of the 32-bit stream of the same shape; float outputs
//! are the bit patterns. A state of 32-bit integers is read as little-endian pairs.
//!
//! rng's values are implementation-defined: here a per-thread philox stream (seeded with 0, advanced by
//! every call), UNIFORM in [a, b) (integers: a + bits mod (b - a)), NORMAL by Box-Muller with mean a and
//! standard deviation b.

use crate::ops::support::*;
use crate::ops::OpCtx;
use crate::tensor::{round_to, wrap_int, Data, RtValue, Tensor};
use oxhlo_ir::attr::{RngAlgorithm, RngDistribution};
use oxhlo_ir::{Attr, ElementType, TensorType};
use std::cell::Cell;

/// threefry2x32, 20 rounds.
pub fn threefry2x32(key: [u32; 2], x: [u32; 2]) -> [u32; 2] {
    const ROT: [u32; 8] = [13, 15, 26, 6, 17, 29, 16, 24];
    let ks = [key[0], key[1], 0x1BD1_1BDA ^ key[0] ^ key[1]];
    let mut x0 = x[0].wrapping_add(ks[0]);
    let mut x1 = x[1].wrapping_add(ks[1]);
    for r in 0..5usize {
        let rots = if r % 2 == 0 { &ROT[..4] } else { &ROT[4..] };
        for &d in rots {
            x0 = x0.wrapping_add(x1);
            x1 = x1.rotate_left(d) ^ x0;
        }
        x0 = x0.wrapping_add(ks[(r + 1) % 3]);
        x1 = x1.wrapping_add(ks[(r + 2) % 3]).wrapping_add(r as u32 + 1);
    }
    [x0, x1]
}

/// philox4x32, 10 rounds.
pub fn philox4x32(ctr: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let mut x = ctr;
    let mut k = key;
    for _ in 0..10 {
        let p0 = x[0] as u64 * 0xD251_1F53;
        let p1 = x[2] as u64 * 0xCD9E_8D57;
        x = [(p1 >> 32) as u32 ^ x[1] ^ k[0], p1 as u32, (p0 >> 32) as u32 ^ x[3] ^ k[1], p0 as u32];
        k = [k[0].wrapping_add(0x9E37_79B9), k[1].wrapping_add(0xBB67_AE85)];
    }
    x
}

fn split(v: u64) -> [u32; 2] {
    [v as u32, (v >> 32) as u32]
}

/// 32-bit threefry stream in XLA's layout for `shape`; returns (words, blocks used).
fn threefry_u32(key: u64, ctr: u64, shape: &[usize]) -> (Vec<u64>, u64) {
    let n: usize = shape.iter().product();
    if shape.is_empty() {
        return (vec![threefry2x32(split(key), split(ctr))[0] as u64], 1);
    }
    let sd = shape.iter().position(|&d| d % 2 == 0).unwrap_or_else(|| {
        let mut best = 0;
        for (i, &d) in shape.iter().enumerate() {
            if d > shape[best] {
                best = i;
            }
        }
        best
    });
    let mut half = shape.to_vec();
    half[sd] = shape[sd].div_ceil(2);
    let nh: usize = half.iter().product();
    let blocks: Vec<[u32; 2]> = (0..nh as u64).map(|i| threefry2x32(split(key), split(ctr.wrapping_add(i)))).collect();
    let hst = strides_u(&half);
    let mut out = Vec::with_capacity(n);
    let mut idx = vec![0usize; shape.len()];
    for _ in 0..n {
        let mut h = 0usize;
        for d in 0..shape.len() {
            let c = if d == sd { idx[d] / 2 } else { idx[d] };
            h += c * hst[d];
        }
        out.push(blocks[h][idx[sd] % 2] as u64);
        next_index(&mut idx, shape);
    }
    (out, nh as u64)
}

fn threefry_u64(key: u64, ctr: u64, n: usize) -> (Vec<u64>, u64) {
    let out = (0..n as u64)
        .map(|i| {
            let b = threefry2x32(split(key), split(ctr.wrapping_add(i)));
            b[0] as u64 | (b[1] as u64) << 32
        })
        .collect();
    (out, n as u64)
}

/// `nvec` philox blocks from the 128-bit counter (lo, hi).
fn philox_blocks(key: u64, lo: u64, hi: u64, nvec: usize) -> Vec<[u32; 4]> {
    (0..nvec as u64)
        .map(|i| {
            let l = lo.wrapping_add(i);
            let h = if l < lo { hi.wrapping_add(1) } else { hi };
            let (a, b) = (split(l), split(h));
            philox4x32([a[0], a[1], b[0], b[1]], split(key))
        })
        .collect()
}

/// Reads the state as u64 words (32-bit states as little-endian pairs).
fn state_words(t: &Tensor) -> Result<Vec<u64>, String> {
    let raw: Vec<u64> = match &t.data {
        Data::Int(v) => v.iter().map(|&x| x as u64).collect(),
        Data::UInt(v) => v.clone(),
        _ => return Err("rng state must be an integer tensor".into()),
    };
    let bits = t.elem().bits();
    match bits {
        64 => Ok(raw),
        32 if raw.len().is_multiple_of(2) => Ok(raw.chunks(2).map(|p| (p[0] & 0xFFFF_FFFF) | (p[1] & 0xFFFF_FFFF) << 32).collect()),
        _ => Err(format!("unsupported rng state type {:?} with {} elements", t.elem(), raw.len())),
    }
}

fn state_tensor(ty: TensorType, words: &[u64]) -> Result<RtValue, String> {
    let raw: Vec<u64> = if ty.elem.bits() == 32 { words.iter().flat_map(|&w| [w & 0xFFFF_FFFF, w >> 32]).collect() } else { words.to_vec() };
    Ok(tv(ty.clone(), bits_to_data(&ty.elem, raw)?))
}

/// Interprets raw bit patterns as elements of `elem` (truncating to its width).
fn bits_to_data(elem: &ElementType, raw: Vec<u64>) -> Result<Data, String> {
    let bits = elem.bits();
    let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
    Ok(match elem {
        ElementType::Bool => Data::Bool(raw.into_iter().map(|b| b & 1 == 1).collect()),
        ElementType::Float(f) => Data::Float(raw.into_iter().map(|b| oxhlo_dtype::decode(f.format(), b & mask)).collect()),
        e if e.is_unsigned_integer() => Data::UInt(raw.into_iter().map(|b| b & mask).collect()),
        e if e.is_integer() => Data::Int(raw.into_iter().map(|b| wrap_int(e, b as i128)).collect()),
        e => return Err(format!("rng_bit_generator cannot produce {e:?}")),
    })
}

pub fn eval_rng_bit_generator(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let st = tensor_arg(args, 0)?;
    let algo = match ctx.op.attr("rng_algorithm") {
        Some(Attr::RngAlgorithm(a)) => *a,
        None => RngAlgorithm::Default,
        Some(_) => return Err("rng_algorithm must be #stablehlo<rng_algorithm ...>".into()),
    };
    let words = state_words(st)?;
    let sty = refine_result_type(ctx, 0, st.shape())?;
    let oty = static_result_type(ctx, 1)?;
    let shape = ushape(&oty.shape);
    let n = elem_count(&oty.shape)?;
    let wide = oty.elem.bits() > 32;
    let (raw, new_state) = match algo {
        RngAlgorithm::ThreeFry => {
            if words.len() != 2 {
                return Err(format!("THREE_FRY needs a 128-bit state (2 x u64), got {} words", words.len()));
            }
            let (key, ctr) = (words[0], words[1]);
            let (raw, used) = if wide { threefry_u64(key, ctr, n) } else { threefry_u32(key, ctr, &shape) };
            (raw, vec![key, ctr.wrapping_add(used)])
        }
        RngAlgorithm::Philox | RngAlgorithm::Default => {
            let (key, lo, hi) = match words.as_slice() {
                [k, c] => (*k, *c, *k),
                [k, lo, hi] => (*k, *lo, *hi),
                _ => return Err(format!("PHILOX needs a state of 2 or 3 u64 words, got {}", words.len())),
            };
            let per_block = if wide { 2 } else { 4 };
            let nvec = n.div_ceil(per_block);
            let blocks = philox_blocks(key, lo, hi, nvec);
            let mut raw = Vec::with_capacity(nvec * per_block);
            for b in &blocks {
                if wide {
                    raw.push(b[0] as u64 | (b[1] as u64) << 32);
                    raw.push(b[2] as u64 | (b[3] as u64) << 32);
                } else {
                    raw.extend(b.iter().map(|&w| w as u64));
                }
            }
            raw.truncate(n);
            let nlo = lo.wrapping_add(nvec as u64);
            let nhi = if nlo < lo { hi.wrapping_add(1) } else { hi };
            let ns = if words.len() == 2 { vec![key, nlo] } else { vec![key, nlo, nhi] };
            (raw, ns)
        }
    };
    let data = bits_to_data(&oty.elem, raw)?;
    Ok(vec![state_tensor(sty, &new_state)?, tv(oty, data)])
}

thread_local! {
    static RNG_COUNTER: Cell<u64> = const { Cell::new(0) };
}

/// The next `n` 64-bit words of this thread's rng stream.
fn next_words(n: usize) -> Vec<u64> {
    let start = RNG_COUNTER.with(|c| {
        let s = c.get();
        c.set(s.wrapping_add(n.div_ceil(2) as u64));
        s
    });
    let blocks = philox_blocks(0x5EED, start, 0, n.div_ceil(2));
    blocks.iter().flat_map(|b| [b[0] as u64 | (b[1] as u64) << 32, b[2] as u64 | (b[3] as u64) << 32]).take(n).collect()
}

/// A uniform double in [0, 1) from 53 random bits.
fn unit(w: u64) -> f64 {
    (w >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

pub fn eval_rng(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let a = tensor_arg(args, 0)?;
    let b = tensor_arg(args, 1)?;
    let shape = index_values(tensor_arg(args, 2)?)?;
    let ty = refine_result_type(ctx, 0, &shape)?;
    let dist = match ctx.op.attr("rng_distribution") {
        Some(Attr::RngDistribution(d)) => *d,
        _ => return Err("missing rng_distribution".into()),
    };
    if a.len() != 1 || b.len() != 1 {
        return Err("rng bounds must be 0-dimensional".into());
    }
    let n = elem_count(&shape)?;
    let w = next_words(n);
    let data = match (&a.data, &b.data, dist) {
        (Data::Float(x), Data::Float(y), RngDistribution::Uniform) => {
            let ft = ty.elem.float_type().ok_or("float result expected")?;
            let (lo, hi) = (x[0], y[0]);
            Data::Float(
                w.iter()
                    .map(|&r| {
                        let v = round_to(ft, lo + (hi - lo) * unit(r));
                        // Rounding can reach `hi`; keep the interval half-open.
                        if v >= hi && hi > lo {
                            lo
                        } else {
                            v
                        }
                    })
                    .collect(),
            )
        }
        (Data::Float(x), Data::Float(y), RngDistribution::Normal) => {
            let ft = ty.elem.float_type().ok_or("float result expected")?;
            let (mu, sigma) = (x[0], y[0]);
            let u2 = next_words(n);
            Data::Float(
                w.iter()
                    .zip(&u2)
                    .map(|(&r1, &r2)| {
                        let u1 = unit(r1).max(1e-300);
                        let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * unit(r2)).cos();
                        round_to(ft, mu + sigma * z)
                    })
                    .collect(),
            )
        }
        (Data::Int(x), Data::Int(y), RngDistribution::Uniform) => {
            let (lo, hi) = (x[0], y[0]);
            let span = (hi as i128 - lo as i128).max(1) as u128;
            Data::Int(w.iter().map(|&r| wrap_int(&ty.elem, lo as i128 + (r as u128 % span) as i128)).collect())
        }
        (Data::UInt(x), Data::UInt(y), RngDistribution::Uniform) => {
            let (lo, hi) = (x[0], y[0]);
            let span = hi.saturating_sub(lo).max(1);
            Data::UInt(w.iter().map(|&r| lo + r % span).collect())
        }
        (Data::Bool(x), Data::Bool(_), RngDistribution::Uniform) => Data::Bool(vec![x[0]; n]),
        _ => return Err(format!("rng {} is not defined for these operand types", dist.keyword())),
    };
    Ok(vec![tv(ty, data)])
}
