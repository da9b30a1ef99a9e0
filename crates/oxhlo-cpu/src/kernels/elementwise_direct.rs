//! Direct operands of f32 arithmetic in a register program (`elementwise::Program`): an `add`, `subtract`,
//! `multiply`, `divide`, `maximum` or `minimum` of f32 values may read an input tensor where it lies (a
//! range of it, one repeated element such as a row statistic broadcast along the row, or gathered through
//! a broadcast map) instead of a register that a load instruction filled first. Every op of a program is
//! a pass over its chunk's registers, so a layer norm's normalizing kernel (`x`, the row's mean and
//! scale, the gain and the bias: five loads) loses five of its ten passes. [`fold_loads`] rewrites a
//! compiled program's instructions; [`exec_bin`] runs the rewritten instruction. Results are the same
//! IEEE operations on the same values.

use super::elementwise::{Inputs, Inst, Src};
use super::elementwise_ops::{Lane, Reg, Round, Sel};
use super::fastmath;
use crate::tensor::{Buf, NTensor};
use oxhlo_interp::ops::elementwise::Bin;

/// Where an operand of [`Inst::BinF32`] comes from.
#[derive(Clone, Debug)]
pub(super) enum Operand {
    Reg(usize),
    /// An f32 input read as a load instruction with this selection would have.
    Input { input: usize, src: Src },
}

/// Whether `op` on f32 values has a direct form here.
fn direct_op(op: Bin) -> bool {
    matches!(op, Bin::Add | Bin::Sub | Bin::Mul | Bin::Div | Bin::Max | Bin::Min)
}

/// Rewrites `insts`: a load of an f32 input whose register only f32 [`direct_op`]s read (and which is not
/// among `outputs`) is dropped, and its readers read the input directly ([`Inst::BinF32`]).
pub(super) fn fold_loads(insts: &mut Vec<Inst>, op_lanes: &mut Vec<Lane>, outputs: &[usize], inputs: &[&NTensor]) {
    let plain = Lane::F32(Round::No);
    let mut drop = vec![false; insts.len()];
    for l in 0..insts.len() {
        let Inst::Load { dst, input, ref src } = insts[l] else { continue };
        if op_lanes[l] != plain || outputs.contains(&dst) || !matches!(inputs.get(input).map(|t| &*t.buf), Some(Buf::F32(_))) {
            continue;
        }
        let readers: Vec<usize> = (l + 1..insts.len()).filter(|&i| insts[i].reads().contains(&dst)).collect();
        // The register is written once (virtual registers), so every later reader reads this load.
        let direct = |i: usize| match &insts[i] {
            Inst::Bin { op, .. } | Inst::BinF32 { op, .. } => op_lanes[i] == plain && direct_op(*op),
            _ => false,
        };
        if readers.is_empty() || !readers.iter().all(|&i| direct(i)) {
            continue;
        }
        let src = src.clone();
        for i in readers {
            let (dst_i, a, b, op) = match &insts[i] {
                Inst::Bin { dst, a, b, op } => (*dst, Operand::Reg(*a), Operand::Reg(*b), *op),
                Inst::BinF32 { dst, a, b, op } => (*dst, a.clone(), b.clone(), *op),
                _ => unreachable!("checked by `direct`"),
            };
            let swap = |o: Operand| match o {
                Operand::Reg(r) if r == dst => Operand::Input { input, src: src.clone() },
                o => o,
            };
            insts[i] = Inst::BinF32 { dst: dst_i, a: swap(a), b: swap(b), op };
        }
        drop[l] = true;
    }
    let mut k = 0;
    insts.retain(|_| {
        k += 1;
        !drop[k - 1]
    });
    let mut k = 0;
    op_lanes.retain(|_| {
        k += 1;
        !drop[k - 1]
    });
}

/// An operand's elements for one chunk.
enum View<'a> {
    Slice(&'a [f32]),
    Splat(f32),
}

/// Per-operand scratch of a chunk (gathered offsets and values).
#[derive(Default)]
pub(super) struct Scratch {
    idx: Vec<usize>,
    vals: Vec<f32>,
}

#[inline(always)]
fn view<'a>(o: &Operand, regs: &'a [Reg], inputs: Inputs<'a>, base: usize, n: usize, s: &'a mut Scratch) -> Result<View<'a>, String> {
    match o {
        Operand::Reg(r) => match &regs[*r] {
            Reg::F32(v) => Ok(View::Slice(&v[..n])),
            _ => Err("a direct f32 operand in a register of another lane".into()),
        },
        Operand::Input { input, src } => {
            let Some(Buf::F32(v)) = inputs.tensors.get(*input).map(|t| &*t.buf) else { return Err("a direct operand's input is not f32".into()) };
            let sel = inputs.select(*input, src, base, n, &mut s.idx)?;
            Ok(match sel {
                Sel::Range(lo) => View::Slice(v.get(lo..lo + n).ok_or("load out of range")?),
                Sel::Repeat(at) => View::Splat(*v.get(at).ok_or("load out of range")?),
                Sel::Gather(ix) => {
                    s.vals.clear();
                    for &i in ix {
                        s.vals.push(*v.get(i).ok_or("gather out of range")?);
                    }
                    View::Slice(&s.vals)
                }
            })
        }
    }
}

#[inline(always)]
fn apply(d: &mut [f32], a: View, b: View, f: impl Fn(f32, f32) -> f32) {
    match (a, b) {
        (View::Slice(a), View::Slice(b)) => {
            for (d, (&x, &y)) in d.iter_mut().zip(a.iter().zip(b)) {
                *d = f(x, y);
            }
        }
        (View::Slice(a), View::Splat(y)) => {
            for (d, &x) in d.iter_mut().zip(a) {
                *d = f(x, y);
            }
        }
        (View::Splat(x), View::Slice(b)) => {
            for (d, &y) in d.iter_mut().zip(b) {
                *d = f(x, y);
            }
        }
        (View::Splat(x), View::Splat(y)) => d.fill(f(x, y)),
    }
}

/// Runs an [`Inst::BinF32`] over the chunk of `n` elements at `base` into `d`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn exec_bin(
    op: Bin,
    a: &Operand,
    b: &Operand,
    regs: &[Reg],
    d: &mut Reg,
    inputs: Inputs,
    base: usize,
    n: usize,
    scratch: &mut [Scratch; 2],
) -> Result<(), String> {
    let Reg::F32(d) = d else { return Err("a direct f32 op into a register of another lane".into()) };
    let d = &mut d[..n];
    let [sa, sb] = scratch;
    let (a, b) = (view(a, regs, inputs, base, n, sa)?, view(b, regs, inputs, base, n, sb)?);
    match op {
        Bin::Add => apply(d, a, b, |x, y| x + y),
        Bin::Sub => apply(d, a, b, |x, y| x - y),
        Bin::Mul => apply(d, a, b, |x, y| x * y),
        Bin::Div => apply(d, a, b, |x, y| x / y),
        Bin::Max => apply(d, a, b, fastmath::max),
        Bin::Min => apply(d, a, b, fastmath::min),
        _ => return Err(format!("{op:?} has no direct form")),
    }
    Ok(())
}
