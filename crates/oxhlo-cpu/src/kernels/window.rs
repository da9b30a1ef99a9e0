//! Native windowed ops: reduce_window (one input) with a recognized body (add, multiply, maximum,
//! minimum, or returning an argument) including strides, padding, base and window dilations; and
//! select_and_scatter (the max-pool gradient) with a single-`compare` select and a recognized scatter
//! body. Both follow the interpreter exactly: each output folds `acc = body(acc, x)` from the init value
//! over its taps in row-major order, padding taps contributing the init value; select keeps the first
//! tap unless `select(kept, x)` is false. Anything else returns `None` for the interpreter.

use super::elems::{attr_i64s, count, elems, next_index, result_type, same_kind, strides, ushape, with_kind};
use super::region::{binary_body, comparator_body, Arith, Comb, Comparator, Compare};
use super::{Attempt, KernelCtx};
use crate::tensor::NTensor;
use oxhlo_ir::{Op, OpKind};

/// Runs the op natively when this family handles it.
pub fn try_run(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    match ctx.op.kind {
        OpKind::ReduceWindow => reduce_window(ctx, args),
        OpKind::SelectAndScatter => select_and_scatter(ctx, args),
        _ => None,
    }
}

/// Marks a tap that falls into padding or a base-dilation hole.
const NONE: usize = usize::MAX;

/// Window geometry of one dimension: output size, taps, and per (output, tap) the input position.
#[derive(Clone)]
struct WinDim {
    out: usize,
    taps: usize,
    map: Vec<usize>,
}

/// Whether the window leaves a dimension of size `n` untouched (size 1, stride 1, no padding).
fn identity_dim(w: &WinDim, n: usize) -> bool {
    w.out == n && w.taps == 1 && w.map.iter().enumerate().all(|(i, &p)| p == i)
}

/// Lays a window over a dimension of size `n` (as the interpreter's `window_dim`).
fn window_dim(n: i64, w: i64, stride: i64, bd: i64, wd: i64, lo: i64, hi: i64) -> Option<WinDim> {
    if w < 0 || stride < 1 || bd < 1 || wd < 1 {
        return None;
    }
    let dilated = if n == 0 { 0 } else { (n - 1).checked_mul(bd)? + 1 };
    let padded = dilated.checked_add(lo)?.checked_add(hi)?;
    let dw = if w == 0 { 0 } else { (w - 1).checked_mul(wd)? + 1 };
    let out = if padded < dw { 0 } else { (padded - dw) / stride + 1 };
    let mut map = Vec::with_capacity(usize::try_from(out.checked_mul(w)?).ok()?);
    for y in 0..out {
        for k in 0..w {
            // In i128: padding may be anywhere in i64.
            let p = y as i128 * stride as i128 + k as i128 * wd as i128 - lo as i128;
            let bd = bd as i128;
            map.push(if p >= 0 && p % bd == 0 && p / bd < n as i128 { (p / bd) as usize } else { NONE });
        }
    }
    Some(WinDim { out: out as usize, taps: w as usize, map })
}

/// Per-dimension window geometry from the op's attributes (dilations only when `dilations`).
fn windows(op: &Op, dims: &[usize], dilations: bool) -> Option<Vec<WinDim>> {
    let rank = dims.len();
    let get = |name: &str| -> Option<Vec<i64>> {
        match op.attr(name) {
            None => Some(vec![1; rank]),
            Some(a) => a.as_i64_list().filter(|v| v.len() == rank),
        }
    };
    let wdims = attr_i64s(op, "window_dimensions").filter(|v| v.len() == rank)?;
    let strides = get("window_strides")?;
    let (bd, wd) = if dilations { (get("base_dilations")?, get("window_dilations")?) } else { (vec![1; rank], vec![1; rank]) };
    let pad = match op.attr("padding") {
        None => vec![0; 2 * rank],
        Some(a) => a.as_i64_list().filter(|v| v.len() == 2 * rank)?,
    };
    (0..rank).map(|d| window_dim(dims[d] as i64, wdims[d], strides[d], bd[d], wd[d], pad[2 * d], pad[2 * d + 1])).collect()
}

/// The input offsets of every tap of output position `y` (NONE for padding), row-major over the taps.
fn taps_of(wins: &[WinDim], st: &[usize], y: &[usize], tshape: &[usize], out: &mut Vec<usize>) {
    out.clear();
    if tshape.contains(&0) {
        return;
    }
    let mut kbuf = [0usize; 8];
    let mut kvec = Vec::new();
    let k: &mut [usize] = if wins.len() <= 8 {
        &mut kbuf[..wins.len()]
    } else {
        kvec.resize(wins.len(), 0);
        &mut kvec
    };
    loop {
        let mut off = 0usize;
        let mut pad = false;
        for (d, w) in wins.iter().enumerate() {
            let p = w.map[y[d] * w.taps + k[d]];
            if p == NONE {
                pad = true;
                break;
            }
            off += p * st[d];
        }
        out.push(if pad { NONE } else { off });
        if !next_index(k, tshape) {
            return;
        }
    }
}

fn reduce_window(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let [x, init] = args else { return None };
    let ty = result_type(ctx, 0)?;
    let kind = x.kind();
    if init.kind() != kind || init.len() != 1 || !same_kind(&ty, kind) || ty.elem != x.ty.elem {
        return None;
    }
    let comb = binary_body(ctx.func, ctx.op.regions.first()?, &x.ty.elem)?;
    let dims = x.dims();
    let wins = windows(ctx.op, &dims, true)?;
    let oshape: Vec<usize> = wins.iter().map(|w| w.out).collect();
    if ushape(&ty.shape)? != oshape {
        return None;
    }
    let tshape: Vec<usize> = wins.iter().map(|w| w.taps).collect();
    count(&tshape)?;
    let n_out = count(&oshape)?;
    Some(with_kind!(kind, T => {
        if !comb.supported::<T>() {
            return None;
        }
        let src = elems::<T>(x)?;
        let iv = *elems::<T>(init)?.first()?;
        let g = Geometry { dims: &dims, wins: &wins, oshape: &oshape, tshape: &tshape };
        let out = fold_windows(src, &g, n_out, iv, comb, ctx.threads);
        Ok(vec![super::elems::tensor_of(ty, out)])
    }))
}

/// Window geometry shared by the fold workers.
struct Geometry<'a> {
    dims: &'a [usize],
    wins: &'a [WinDim],
    oshape: &'a [usize],
    tshape: &'a [usize],
}

/// Outputs below which the fold stays on the calling thread.
const PARALLEL_MIN: usize = 1 << 15;

/// Folds every window, the outputs split over up to `threads` workers. When the last dimension is
/// untouched by the window (size 1, stride 1, no padding or dilation: the channel dimension of NHWC
/// pooling), whole rows are combined as slices.
fn fold_windows<T: Arith>(src: &[T], g: &Geometry, n_out: usize, init: T, comb: Comb, threads: usize) -> Vec<T> {
    let mut out = vec![init; n_out];
    if n_out == 0 {
        return out;
    }
    let rank = g.dims.len();
    let row_path = rank >= 2 && identity_dim(&g.wins[rank - 1], g.dims[rank - 1]);
    // Work unit: an output row on the row path, an output element otherwise.
    let unit = if row_path { g.dims[rank - 1].max(1) } else { 1 };
    let units = n_out / unit;
    let workers = if n_out >= PARALLEL_MIN { threads.clamp(1, units.max(1)) } else { 1 };
    let per = units.div_ceil(workers) * unit;
    if workers == 1 {
        fold_range(src, g, &mut out, 0, init, comb, row_path);
        return out;
    }
    std::thread::scope(|sc| {
        for (k, chunk) in out.chunks_mut(per).enumerate() {
            sc.spawn(move || fold_range(src, g, chunk, k * per, init, comb, row_path));
        }
    });
    out
}

/// The row-major multi-index of linear position `lin` in `shape`.
fn unravel(mut lin: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0usize; shape.len()];
    for d in (0..shape.len()).rev() {
        let n = shape[d].max(1);
        idx[d] = lin % n;
        lin /= n;
    }
    idx
}

/// Folds the outputs `first..first + out.len()` into `out`.
fn fold_range<T: Arith>(src: &[T], g: &Geometry, out: &mut [T], first: usize, init: T, comb: Comb, row_path: bool) {
    let rank = g.dims.len();
    let st = strides(g.dims);
    let mut taps = Vec::new();
    if row_path {
        let c = g.dims[rank - 1].max(1);
        let (owins, ost) = (&g.wins[..rank - 1], &st[..rank - 1]);
        let (oouter, touter) = (&g.oshape[..rank - 1], &g.tshape[..rank - 1]);
        let mut y = unravel(first / c, oouter);
        let fill = vec![init; c];
        for acc in out.chunks_mut(c) {
            taps_of(owins, ost, &y, touter, &mut taps);
            for &t in &taps {
                if t == NONE {
                    comb.apply_slice(acc, &fill);
                } else if let Some(row) = src.get(t..t + c) {
                    comb.apply_slice(acc, row);
                }
            }
            next_index(&mut y, oouter);
        }
        return;
    }
    let mut y = unravel(first, g.oshape);
    for acc in out.iter_mut() {
        taps_of(g.wins, &st, &y, g.tshape, &mut taps);
        for &t in &taps {
            let v = if t == NONE { init } else { src.get(t).copied().unwrap_or(init) };
            *acc = comb.apply(*acc, v);
        }
        next_index(&mut y, g.oshape);
    }
}

fn select_and_scatter(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let [x, source, init] = args else { return None };
    let ty = result_type(ctx, 0)?;
    let kind = x.kind();
    if source.kind() != kind || init.kind() != kind || init.len() != 1 || !same_kind(&ty, kind) {
        return None;
    }
    if ty.elem != source.ty.elem || ty.shape != x.ty.shape {
        return None;
    }
    let [select, scatter] = ctx.op.regions.as_slice() else { return None };
    let cmp = comparator_body(ctx.func, select, 2, &x.ty.elem)?;
    let comb = binary_body(ctx.func, scatter, &source.ty.elem)?;
    let dims = x.dims();
    let wins = windows(ctx.op, &dims, false)?;
    let oshape: Vec<usize> = wins.iter().map(|w| w.out).collect();
    if source.dims() != oshape {
        return None;
    }
    let tshape: Vec<usize> = wins.iter().map(|w| w.taps).collect();
    count(&tshape)?;
    Some(with_kind!(kind, T => {
        if !comb.supported::<T>() || !<T as Compare>::NATIVE {
            return None;
        }
        let (xs, ss) = (elems::<T>(x)?, elems::<T>(source)?);
        let iv = *elems::<T>(init)?.first()?;
        if xs.len() != count(&dims)? || ss.len() != count(&oshape)? {
            return Some(Err("select_and_scatter: buffers do not match their types".into()));
        }
        let mut out = vec![iv; xs.len()];
        let g = Geometry { dims: &dims, wins: &wins, oshape: &oshape, tshape: &tshape };
        select_scatter_split(&mut out, xs, ss, &g, cmp, comb, ctx.threads);
        Ok(vec![super::elems::tensor_of(ty, out)])
    }))
}

/// select_and_scatter into `out` (filled with the init value), split over up to `threads` workers
/// along dimension 0 when the window leaves it untouched (the batch dimension of pooling), so the
/// workers' windows and writes never overlap.
fn select_scatter_split<T: Arith + Compare>(
    out: &mut [T],
    xs: &[T],
    ss: &[T],
    g: &Geometry,
    cmp: Comparator,
    comb: Comb,
    threads: usize,
) {
    let d0 = g.dims.first().copied().unwrap_or(0);
    let split = threads > 1 && d0 > 1 && g.dims.len() >= 2 && xs.len() >= PARALLEL_MIN && identity_dim(&g.wins[0], d0);
    if !split {
        select_scatter(out, xs, ss, g, cmp, comb);
        return;
    }
    let (xrow, srow) = (xs.len() / d0, ss.len() / d0);
    let per = d0.div_ceil(threads.min(d0));
    std::thread::scope(|sc| {
        for (k, chunk) in out.chunks_mut(per * xrow).enumerate() {
            let (i0, n0) = (k * per, chunk.len() / xrow.max(1));
            let (xc, sc_) = (&xs[i0 * xrow..(i0 + n0) * xrow], &ss[i0 * srow..(i0 + n0) * srow]);
            sc.spawn(move || {
                let mut dims = g.dims.to_vec();
                let mut oshape = g.oshape.to_vec();
                dims[0] = n0;
                oshape[0] = n0;
                let mut wins = g.wins.to_vec();
                wins[0] = WinDim { out: n0, taps: 1, map: (0..n0).collect() };
                let sub = Geometry { dims: &dims, wins: &wins, oshape: &oshape, tshape: g.tshape };
                select_scatter(chunk, xc, sc_, &sub, cmp, comb);
            });
        }
    });
}

/// select_and_scatter of one (sub)tensor into `out`.
fn select_scatter<T: Arith + Compare>(out: &mut [T], xs: &[T], ss: &[T], g: &Geometry, cmp: Comparator, comb: Comb) {
    let (dims, wins, oshape, tshape) = (g.dims, g.wins, g.oshape, g.tshape);
    if ss.is_empty() {
        return;
    }
    let st = strides(dims);
    let mut taps = Vec::new();
    let rank = dims.len();
    // Row path: the last dimension is untouched by the window; taps are computed once per row.
    let row_path = rank >= 2 && identity_dim(&wins[rank - 1], dims[rank - 1]);
    if row_path {
        let c = dims[rank - 1].max(1);
        let (owins, ost) = (&wins[..rank - 1], &st[..rank - 1]);
        let (oouter, touter) = (&oshape[..rank - 1], &tshape[..rank - 1]);
        let mut y = vec![0usize; rank - 1];
        for srow in ss.chunks_exact(c) {
            taps_of(owins, ost, &y, touter, &mut taps);
            for (j, &s) in srow.iter().enumerate() {
                let mut chosen = NONE;
                for &t in &taps {
                    if t == NONE {
                        continue;
                    }
                    if chosen == NONE || !cmp.less(xs[chosen], xs[t + j]) {
                        chosen = t + j;
                    }
                }
                if chosen != NONE {
                    out[chosen] = comb.apply(out[chosen], s);
                }
            }
            next_index(&mut y, oouter);
        }
        return;
    }
    let mut y = vec![0usize; rank];
    for &s in ss {
        taps_of(wins, &st, &y, tshape, &mut taps);
        let mut chosen = NONE;
        for &t in &taps {
            if t == NONE {
                continue;
            }
            if chosen == NONE || !cmp.less(xs[chosen], xs[t]) {
                chosen = t;
            }
        }
        if chosen != NONE {
            out[chosen] = comb.apply(out[chosen], s);
        }
        next_index(&mut y, oshape);
    }
}
