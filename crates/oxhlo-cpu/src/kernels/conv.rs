//! Native convolution for float results: every dimension-number permutation, strides, (negative)
//! padding, lhs and rhs dilation, window reversal, feature_group_count and batch_group_count.
//!
//! Method: the input is put in the canonical layout `[N, spatial..., C]` (no copy when it already is),
//! the kernel is packed once per group into a `[taps * Ci, Co/G]` matrix (reversal applied there), and
//! the canonical output `[N, spatial..., Co]` is computed in blocks of rows (output positions): each
//! block fills a bounded im2col buffer (a chunk of taps x input channels, zeros for padding and
//! dilation holes) and multiplies it into its rows with the GEMM of [`super::gemm_util`], accumulating
//! over tap chunks. Blocks run in parallel on the rayon pool; when there are few output rows and many
//! taps (JAX's weight gradients) the taps are split over threads instead (split-K, partial sums added).
//! A 1x1, stride-1, unpadded convolution multiplies the canonical input directly. lhs dilation (JAX's
//! input gradient of a strided convolution) runs per output phase over the live taps only, skipping the
//! dilation holes. The canonical output is finally permuted into the result's layout (no copy for
//! `[b, 0, 1, f]` outputs).
//!
//! Numerics as in [`super::dot`]: f64 in f64; f32/f16/bf16 accumulate in f32 (f16/bf16 rounded once).
//! Integer, complex and quantized convolutions and dynamic_conv return None (the interpreter runs them).

use super::gemm_util::{as_f32, as_f64, from_f32, is_float, matmul, permute, strides, Scalar, View};
use super::{Attempt, KernelCtx};
use crate::tensor::{Buf, Kind, NTensor};
use oxhlo_ir::OpKind;
use oxhlo_plan::dims::ConvDims;
use rayon::prelude::*;
use std::borrow::Cow;

const NONE: usize = usize::MAX;

/// Elements of one block's im2col buffer (512 KiB of f32: stays in L2 next to the packed kernel).
const BLOCK_ELEMS: usize = 128 * 1024;

/// Runs the op natively when this family handles it.
pub fn try_run(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    if ctx.op.kind != OpKind::Convolution || args.len() != 2 {
        return None;
    }
    let rty = ctx.result_types.first()?;
    let rk = Kind::of(&rty.elem)?;
    let (l, r) = (args[0], args[1]);
    if !is_float(rk) || !is_float(l.kind()) || !is_float(r.kind()) {
        return None;
    }
    let rank = l.ty.shape.len();
    if r.ty.shape.len() != rank || rty.shape.len() != rank {
        return None;
    }
    let cd = ConvDims::from_op(ctx.op, rank, None).ok()?;
    let (ls, rs) = (l.dims(), r.dims());
    if ls.iter().product::<usize>() != l.len() || rs.iter().product::<usize>() != r.len() {
        return None;
    }
    let geo = Geometry::new(&cd, &ls, &rs)?;
    if geo.result_shape(&cd) != rty.shape {
        return None;
    }
    let threads = ctx.threads.max(1);
    let buf = if rk == Kind::F64 {
        let (a, b) = (as_f64(&l.buf)?, as_f64(&r.buf)?);
        conv(&geo, &cd, &a, &ls, &b, &rs, threads).map(Buf::F64)
    } else {
        let (a, b) = (as_f32(&l.buf, rk)?, as_f32(&r.buf, rk)?);
        conv(&geo, &cd, &a, &ls, &b, &rs, threads).and_then(|v| from_f32(v, rk).ok_or_else(|| "unsupported result".to_string()))
    };
    Some(buf.map(|b| vec![NTensor::new((*rty).clone(), b)]))
}

/// Sizes and index tables of one convolution.
pub struct Geometry {
    n_in: usize,
    n_out: usize,
    c_in: usize,
    /// Kernel input features (per group).
    ci: usize,
    co: usize,
    fgc: usize,
    bgc: usize,
    in_sp: Vec<usize>,
    k_sp: Vec<usize>,
    out_sp: Vec<usize>,
    /// Per spatial dim: `map[d][y * k_sp[d] + k]` = input position or NONE.
    map: Vec<Vec<usize>>,
}

impl Geometry {
    /// Checks the operand sizes against the dimension numbers (None when inconsistent: the
    /// interpreter then reports the error).
    pub fn new(cd: &ConvDims, ls: &[usize], rs: &[usize]) -> Option<Geometry> {
        let (fgc, bgc) = (cd.feature_group_count, cd.batch_group_count);
        let n_in = ls[cd.input_batch];
        let c_in = ls[cd.input_feature];
        let ci = rs[cd.kernel_input_feature];
        let co = rs[cd.kernel_output_feature];
        if ci.checked_mul(fgc)? != c_in || !co.is_multiple_of(fgc) || !co.is_multiple_of(bgc) || !n_in.is_multiple_of(bgc) {
            return None;
        }
        let s = cd.spatial();
        let (mut in_sp, mut k_sp, mut out_sp, mut map) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for d in 0..s {
            let (n, k) = (ls[cd.input_spatial[d]], rs[cd.kernel_spatial[d]]);
            let out = usize::try_from(cd.output_size(d, n as i64, k as i64)).ok()?;
            // Index tables stay far below any size a real tensor could have.
            let mut m = Vec::with_capacity(out.checked_mul(k).filter(|&x| x <= 1 << 32)?);
            for y in 0..out {
                for kx in 0..k {
                    m.push(cd.input_pos(d, y as i64, kx as i64, n as i64).unwrap_or(NONE));
                }
            }
            in_sp.push(n);
            k_sp.push(k);
            out_sp.push(out);
            map.push(m);
        }
        Some(Geometry { n_in, n_out: n_in / bgc, c_in, ci, co, fgc, bgc, in_sp, k_sp, out_sp, map })
    }

    /// The result shape in the output's dimension order.
    pub fn result_shape(&self, cd: &ConvDims) -> Vec<i64> {
        let mut shape = vec![0i64; self.in_sp.len() + 2];
        shape[cd.output_batch] = self.n_out as i64;
        shape[cd.output_feature] = self.co as i64;
        for (d, &o) in cd.output_spatial.iter().zip(&self.out_sp) {
            shape[*d] = o as i64;
        }
        shape
    }

    fn groups(&self) -> usize {
        self.fgc * self.bgc
    }

    /// A 1x1 window that reads input position y at output position y (no stride, padding, dilation).
    fn is_pointwise(&self) -> bool {
        self.k_sp.iter().all(|&k| k == 1)
            && self.in_sp == self.out_sp
            && self.map.iter().all(|m| m.iter().enumerate().all(|(y, &p)| p == y))
    }
}

/// The convolution on row-major operands; returns the result in the output's layout.
fn conv<T: Scalar>(g: &Geometry, cd: &ConvDims, lhs: &[T], ls: &[usize], rhs: &[T], rs: &[usize], threads: usize) -> Result<Vec<T>, String> {
    let s = g.in_sp.len();
    let out_total: usize = g.out_sp.iter().product();
    let p_total = g.n_out.checked_mul(out_total).ok_or("convolution too large")?;
    let len = p_total.checked_mul(g.co).ok_or("convolution too large")?;
    let mut canon = vec![T::ZERO; len];
    let taps: usize = g.k_sp.iter().product();
    let k_total = taps * g.ci;
    if len > 0 && k_total > 0 {
        // Input in [N, spatial..., C] order.
        let mut lorder = vec![cd.input_batch];
        lorder.extend(&cd.input_spatial);
        lorder.push(cd.input_feature);
        let input: Cow<[T]> = if lorder.iter().enumerate().all(|(i, &d)| i == d) {
            Cow::Borrowed(lhs)
        } else {
            Cow::Owned(permute(lhs, ls, &lorder, threads))
        };
        let all: Vec<Vec<usize>> = g.k_sp.iter().map(|&k| (0..k).collect()).collect();
        if cd.lhs_dilation.iter().any(|&d| d > 1) {
            phased(g, cd, &input, rhs, rs, &mut canon, threads)?;
        } else if g.is_pointwise() && g.groups() == 1 {
            let w = pack_kernel(g, cd, rhs, rs, &all);
            let m = g.n_in * out_total;
            let v = |rs: usize| View { off: 0, rs: rs as isize, cs: 1 };
            matmul(m, g.co, g.ci, &mut canon, v(g.co), &input, v(g.c_in), &w, v(g.co), false, threads)?;
        } else {
            let w = pack_kernel(g, cd, rhs, rs, &all);
            blocked(g, &input, &w, &mut canon, threads)?;
        }
    }
    // Canonical [N, spatial..., Co] -> the result's dimension order.
    let mut cshape = vec![g.n_out];
    cshape.extend(&g.out_sp);
    cshape.push(g.co);
    let mut order = vec![0usize; s + 2];
    order[cd.output_batch] = 0;
    order[cd.output_feature] = s + 1;
    for (d, &od) in cd.output_spatial.iter().enumerate() {
        order[od] = d + 1;
    }
    if order.iter().enumerate().all(|(i, &d)| i == d) {
        Ok(canon)
    } else {
        Ok(permute(&canon, &cshape, &order, threads))
    }
}

/// The kernel as `G` matrices `[taps * Ci, Co/G]` (rows tap-major, channel-minor; taps in row-major
/// order of the kernel's spatial dims, reversed dims read backwards), concatenated. `sel` lists the
/// kernel positions used per spatial dim (all of them, or one lhs-dilation phase's).
fn pack_kernel<T: Scalar>(g: &Geometry, cd: &ConvDims, rhs: &[T], rs: &[usize], sel: &[Vec<usize>]) -> Vec<T> {
    let st = strides(rs);
    let sel_len: Vec<usize> = sel.iter().map(Vec::len).collect();
    let taps: usize = sel_len.iter().product();
    let groups = g.groups();
    let cog = g.co / groups;
    let mut w = Vec::with_capacity(groups * taps * g.ci * cog);
    let mut kx = vec![0usize; sel.len()];
    let tap_off: Vec<usize> = (0..taps)
        .map(|_| {
            let off = kx
                .iter()
                .enumerate()
                .map(|(d, &i)| {
                    let x = sel[d][i];
                    (if cd.window_reversal[d] { g.k_sp[d] - 1 - x } else { x }) * st[cd.kernel_spatial[d]]
                })
                .sum();
            next_index(&mut kx, &sel_len);
            off
        })
        .collect();
    let (so, sc) = (st[cd.kernel_output_feature], st[cd.kernel_input_feature]);
    for gi in 0..groups {
        for &toff in &tap_off {
            for c in 0..g.ci {
                let base = toff + c * sc + gi * cog * so;
                w.extend((0..cog).map(|o| rhs[base + o * so]));
            }
        }
    }
    w
}

/// A convolution with lhs dilation (JAX's input gradient of a strided convolution): most window taps
/// fall on dilation holes. Output positions split into phases (position mod dilation, per spatial dim);
/// within a phase the same kernel taps are live for every position, so each phase is an ordinary
/// blocked convolution over its live taps only, computed into a temporary and scattered into `canon`.
#[allow(clippy::too_many_arguments)]
fn phased<T: Scalar>(g: &Geometry, cd: &ConvDims, input: &[T], rhs: &[T], rs: &[usize], canon: &mut [T], threads: usize) -> Result<(), String> {
    let s = g.in_sp.len();
    let dil: Vec<usize> = cd.lhs_dilation.iter().map(|&d| d.max(1) as usize).collect();
    let phase_shape: Vec<usize> = (0..s).map(|d| dil[d].min(g.out_sp[d].max(1))).collect();
    let phases: usize = phase_shape.iter().product();
    let out_st = strides(&g.out_sp);
    let mut ph = vec![0usize; s];
    for _ in 0..phases {
        let mut sel = Vec::with_capacity(s);
        let mut ys = Vec::with_capacity(s);
        for d in 0..s {
            let (st, rd, lo, dl) = (cd.window_strides[d], cd.rhs_dilation[d], cd.padding[d].0, dil[d] as i64);
            let phase = ph[d] as i64;
            let live = |k: usize| {
                let p = (phase.wrapping_mul(st)).wrapping_add((k as i64).wrapping_mul(rd)).wrapping_sub(lo);
                p.rem_euclid(dl) == 0
            };
            sel.push((0..g.k_sp[d]).filter(|&k| live(k)).collect::<Vec<_>>());
            ys.push((ph[d]..g.out_sp[d]).step_by(dil[d]).collect::<Vec<_>>());
        }
        next_index(&mut ph, &phase_shape);
        if sel.iter().any(Vec::is_empty) || ys.iter().any(Vec::is_empty) {
            continue; // No live tap: these outputs stay zero.
        }
        let map: Vec<Vec<usize>> = (0..s)
            .map(|d| ys[d].iter().flat_map(|&y| sel[d].iter().map(move |&k| (y, k))).map(|(y, k)| g.map[d][y * g.k_sp[d] + k]).collect())
            .collect();
        let sub = Geometry {
            n_in: g.n_in,
            n_out: g.n_out,
            c_in: g.c_in,
            ci: g.ci,
            co: g.co,
            fgc: g.fgc,
            bgc: g.bgc,
            in_sp: g.in_sp.clone(),
            k_sp: sel.iter().map(Vec::len).collect(),
            out_sp: ys.iter().map(Vec::len).collect(),
            map,
        };
        let w = pack_kernel(g, cd, rhs, rs, &sel);
        let sub_total: usize = sub.out_sp.iter().product();
        let mut tmp = vec![T::ZERO; g.n_out * sub_total * g.co];
        blocked(&sub, input, &w, &mut tmp, threads)?;
        // Scatter the phase's rows into the full canonical output.
        let full_total: usize = g.out_sp.iter().product();
        let mut idx = vec![0usize; s];
        for (q, row) in tmp.chunks_exact(g.co).enumerate() {
            let (n, r) = (q / sub_total, q % sub_total);
            if r == 0 {
                idx.iter_mut().for_each(|v| *v = 0);
            }
            let y: usize = (0..s).map(|d| ys[d][idx[d]] * out_st[d]).sum();
            let at = (n * full_total + y) * g.co;
            canon[at..at + g.co].copy_from_slice(row);
            next_index(&mut idx, &sub.out_sp);
        }
    }
    Ok(())
}

fn next_index(idx: &mut [usize], shape: &[usize]) {
    for d in (0..idx.len()).rev() {
        idx[d] += 1;
        if idx[d] < shape[d] {
            return;
        }
        idx[d] = 0;
    }
}

/// What every block of [`blocked`] shares.
struct Plan<'a, T> {
    g: &'a Geometry,
    input: &'a [T],
    w: &'a [T],
    taps: usize,
    out_total: usize,
    in_total: usize,
    in_st: Vec<usize>,
    out_st: Vec<usize>,
    /// Tap coordinates, flattened: tap t's coordinate in dim d at tap_xy[t * s + d].
    tap_xy: Vec<usize>,
}

/// im2col in blocks: `canon[P, Co]` = sum over tap chunks of `cols[P, chunk] x W[chunk, Co/G]`, per
/// group. Many output rows: row blocks run in parallel. Few rows and many taps (the weight-gradient
/// form): the taps split over threads, each summing into its own partial output (split-K).
fn blocked<T: Scalar>(g: &Geometry, input: &[T], w: &[T], canon: &mut [T], threads: usize) -> Result<(), String> {
    let s = g.in_sp.len();
    let taps: usize = g.k_sp.iter().product();
    let mut tap_xy = Vec::with_capacity(taps * s);
    let mut kx = vec![0usize; s];
    for _ in 0..taps {
        tap_xy.extend_from_slice(&kx);
        next_index(&mut kx, &g.k_sp);
    }
    let out_total: usize = g.out_sp.iter().product();
    let plan = Plan {
        g,
        input,
        w,
        taps,
        out_total,
        in_total: g.in_sp.iter().product(),
        in_st: strides(&g.in_sp),
        out_st: strides(&g.out_sp),
        tap_xy,
    };
    let p_total = g.n_out * out_total;
    let per_chunk = (BLOCK_ELEMS / (64 * g.ci).max(1)).max(1).min(taps.max(1));
    let rows = (BLOCK_ELEMS / (per_chunk * g.ci)).max(16).min(p_total.max(1));
    let blocks = p_total.div_ceil(rows);
    if threads > 1 && blocks < 2 * threads && taps >= 2 * threads && (taps * g.ci) >= 4096 {
        // Split-K: all rows per block (bounded), tap ranges per thread, partial sums added at the end.
        let rows = p_total.min((BLOCK_ELEMS / 4 / g.ci.max(1)).max(16)).max(1);
        let per_chunk = (2 * BLOCK_ELEMS / (rows * g.ci).max(1)).max(1).min(taps);
        let splits = threads.min(taps);
        let partials: Vec<Result<Vec<T>, String>> = (0..splits)
            .into_par_iter()
            .map(|si| {
                let (t0, t1) = (taps * si / splits, taps * (si + 1) / splits);
                let mut part = vec![T::ZERO; canon.len()];
                for (bi, dst) in part.chunks_mut(rows * g.co).enumerate() {
                    plan.block(bi * rows, dst, t0..t1, per_chunk, 1)?;
                }
                Ok(part)
            })
            .collect();
        let mut first = true;
        for part in partials {
            let part = part?;
            if first {
                canon.copy_from_slice(&part);
                first = false;
            } else {
                canon.par_chunks_mut(1 << 14).zip(part.par_chunks(1 << 14)).for_each(|(c, p)| {
                    for (x, y) in c.iter_mut().zip(p) {
                        *x = x.add(*y);
                    }
                });
            }
        }
        return Ok(());
    }
    // Enough blocks: one thread each; few blocks: let the GEMM split each product instead.
    let inner_threads = if blocks >= 2 * threads { 1 } else { threads };
    let task = |(bi, dst): (usize, &mut [T])| plan.block(bi * rows, dst, 0..taps, per_chunk, inner_threads);
    if threads > 1 && blocks > 1 {
        canon.par_chunks_mut(rows * g.co).enumerate().try_for_each(task)
    } else {
        canon.chunks_mut(rows * g.co).enumerate().try_for_each(task)
    }
}

impl<T: Scalar> Plan<'_, T> {
    /// Output rows `r0..` (as many as `dst` holds) over the taps `tr`, `per_chunk` taps per GEMM.
    fn block(&self, r0: usize, dst: &mut [T], tr: std::ops::Range<usize>, per_chunk: usize, threads: usize) -> Result<(), String> {
        let g = self.g;
        let s = g.in_sp.len();
        let groups = g.groups();
        let cog = g.co / groups;
        let nr = dst.len() / g.co;
        let mut cols = vec![T::ZERO; nr * per_chunk * g.ci];
        // Per row: its batch index and the offset of each spatial coordinate into `map`.
        let mut row_n = Vec::with_capacity(nr);
        let mut row_y = Vec::with_capacity(nr * s);
        let ot = self.out_total.max(1);
        for p in r0..r0 + nr {
            row_n.push(p / ot);
            for d in 0..s {
                row_y.push((p % ot / self.out_st[d]) % g.out_sp[d] * g.k_sp[d]);
            }
        }
        for gi in 0..groups {
            let c0 = if g.fgc > 1 { gi * g.ci } else { 0 };
            let nb0 = if g.bgc > 1 { gi * g.n_out } else { 0 };
            let wg = &self.w[gi * self.taps * g.ci * cog..(gi + 1) * self.taps * g.ci * cog];
            let mut t0 = tr.start;
            while t0 < tr.end {
                let t1 = (t0 + per_chunk).min(tr.end);
                let kc = (t1 - t0) * g.ci;
                for i in 0..nr {
                    let nb = nb0 + row_n[i];
                    let dst_row = &mut cols[i * kc..(i + 1) * kc];
                    for (j, t) in (t0..t1).enumerate() {
                        let seg = &mut dst_row[j * g.ci..(j + 1) * g.ci];
                        let mut off = 0usize;
                        let mut ok = true;
                        for d in 0..s {
                            let pos = g.map[d][row_y[i * s + d] + self.tap_xy[t * s + d]];
                            if pos == NONE {
                                ok = false;
                                break;
                            }
                            off += pos * self.in_st[d];
                        }
                        if ok {
                            let at = (nb * self.in_total + off) * g.c_in + c0;
                            seg.copy_from_slice(&self.input[at..at + g.ci]);
                        } else {
                            seg.fill(T::ZERO);
                        }
                    }
                }
                matmul(
                    nr,
                    cog,
                    kc,
                    dst,
                    View { off: gi * cog, rs: g.co as isize, cs: 1 },
                    &cols,
                    View { off: 0, rs: kc as isize, cs: 1 },
                    wg,
                    View { off: t0 * g.ci * cog, rs: cog as isize, cs: 1 },
                    t0 > tr.start,
                    threads,
                )?;
                t0 = t1;
            }
        }
        Ok(())
    }
}
