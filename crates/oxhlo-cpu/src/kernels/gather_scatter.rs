//! Native gather (and dynamic_gather) and scatter with the full dimension numbers of the spec (offset/collapsed/batching
//! dims, start_index_map, index_vector_dim equal to the indices' rank), for every native kind and any
//! integer index type. Gather clamps start indices so the slice fits; row gathers (embedding lookups)
//! copy whole contiguous slices. Scatter (one operand) runs when its update computation is recognized
//! ([`super::region::binary_body`]): updates are applied in row-major update order and each update
//! element whose target is out of bounds is skipped, exactly as the interpreter does. Anything else
//! (several operands, an unknown body, invalid attributes) returns `None` for the interpreter.

use super::elems::{count, elems, index_values, next_index, result_type, same_kind, strides, ushape, with_kind, NElem};
use super::region::{binary_body, Arith, Comb};
use super::{Attempt, KernelCtx};
use crate::tensor::NTensor;
use oxhlo_ir::attr::{GatherDims, ScatterDims};
use oxhlo_ir::{Attr, OpKind};

/// Runs the op natively when this family handles it.
pub fn try_run(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    match ctx.op.kind {
        OpKind::Gather => gather(ctx, args, ctx.op.attr("slice_sizes")?.as_i64_list()?),
        OpKind::DynamicGather => gather(ctx, args.get(..2)?, index_values(args.get(2)?)?),
        OpKind::Scatter => scatter(ctx, args),
        _ => None,
    }
}

/// Start-index vectors: per batch position (indices' shape without index_vector_dim, row-major), the
/// `n` components along index_vector_dim.
struct IndexVectors {
    batch_shape: Vec<usize>,
    comps: Vec<i64>,
    n: usize,
}

fn index_vectors(indices: &NTensor, ivd: i64, n: usize) -> Option<IndexVectors> {
    let shape = indices.dims();
    let rank = shape.len();
    let ivd = usize::try_from(ivd).ok().filter(|&d| d <= rank)?;
    let vals = index_values(indices)?;
    let vec_len = if ivd < rank { shape[ivd] } else { 1 };
    if vec_len != n || vals.len() != count(&shape)? {
        return None;
    }
    let st = strides(&shape);
    let mut batch_shape = shape.clone();
    let mut bst = st.clone();
    if ivd < rank {
        batch_shape.remove(ivd);
        bst.remove(ivd);
    }
    let vstride = if ivd < rank { st[ivd] } else { 0 };
    let nb = count(&batch_shape)?;
    let mut comps = Vec::with_capacity(nb.checked_mul(n)?);
    if nb > 0 {
        let mut idx = vec![0usize; batch_shape.len()];
        loop {
            let b: usize = idx.iter().zip(&bst).map(|(i, s)| i * s).sum();
            comps.extend((0..n).map(|k| vals[b + k * vstride]));
            if !next_index(&mut idx, &batch_shape) {
                break;
            }
        }
    }
    Some(IndexVectors { batch_shape, comps, n })
}

/// Position of indices dimension `d` within the batch shape (index_vector_dim removed).
fn batch_pos(d: i64, ivd: i64) -> Option<usize> {
    usize::try_from(if d < ivd { d } else { d - 1 }).ok()
}

fn dims_below(dims: &[i64], rank: usize) -> Option<Vec<usize>> {
    dims.iter().map(|&d| usize::try_from(d).ok().filter(|&d| d < rank)).collect()
}

fn gather(ctx: &KernelCtx, args: &[&NTensor], sizes: Vec<i64>) -> Attempt {
    let [operand, indices] = args else { return None };
    let g: &GatherDims = match ctx.op.attr("dimension_numbers") {
        Some(Attr::GatherDims(g)) => g,
        _ => return None,
    };
    let ty = result_type(ctx, 0)?;
    if !same_kind(&ty, operand.kind()) {
        return None;
    }
    let odims = operand.dims();
    let orank = odims.len();
    if sizes.len() != orank {
        return None;
    }
    let collapsed = dims_below(&g.collapsed_slice_dims, orank)?;
    let obatch = dims_below(&g.operand_batching_dims, orank)?;
    let smap = dims_below(&g.start_index_map, orank)?;
    if g.start_indices_batching_dims.len() != obatch.len() {
        return None;
    }
    let sizes: Vec<usize> = sizes.iter().zip(&odims).map(|(&z, &n)| usize::try_from(z).ok().filter(|&z| z <= n)).collect::<Option<_>>()?;
    let iv = index_vectors(indices, g.index_vector_dim, smap.len())?;
    let window_dims: Vec<usize> = (0..orank).filter(|d| !collapsed.contains(d) && !obatch.contains(d)).collect();
    if window_dims.len() != g.offset_dims.len() || collapsed.iter().chain(&obatch).any(|&d| sizes[d] > 1) {
        return None;
    }
    let brank = iv.batch_shape.len();
    let rrank = brank + window_dims.len();
    let offset_dims = dims_below(&g.offset_dims, rrank)?;
    if offset_dims.windows(2).any(|w| w[0] >= w[1]) {
        return None;
    }
    let wshape: Vec<usize> = window_dims.iter().map(|&d| sizes[d]).collect();
    // Result shape: offset dims take the window sizes in order, the others the batch shape in order.
    let mut rshape = Vec::with_capacity(rrank);
    let (mut bi, mut wi) = (0, 0);
    let mut is_win = vec![false; rrank];
    for (r, w) in is_win.iter_mut().enumerate() {
        if offset_dims.get(wi) == Some(&r) {
            rshape.push(wshape[wi]);
            *w = true;
            wi += 1;
        } else {
            rshape.push(*iv.batch_shape.get(bi)?);
            bi += 1;
        }
    }
    if ushape(&ty.shape)? != rshape {
        return None;
    }
    let ost = strides(&odims);
    let nb = count(&iv.batch_shape)?;
    let wcount = count(&wshape)?;
    if nb.checked_mul(wcount)? > 0 && operand.is_empty() {
        return None;
    }
    // Operand offset of every batch position's slice origin.
    let mut base = Vec::with_capacity(nb);
    let mut bidx = vec![0usize; brank];
    for b in 0..nb {
        let mut off = 0usize;
        for (k, &od) in smap.iter().enumerate() {
            let s = iv.comps[b * iv.n + k].clamp(0, (odims[od] - sizes[od]) as i64);
            off += s as usize * ost[od];
        }
        for (&od, &sd) in obatch.iter().zip(&g.start_indices_batching_dims) {
            let v = *bidx.get(batch_pos(sd, g.index_vector_dim)?)?;
            if v >= odims[od] {
                return None;
            }
            off += v * ost[od];
        }
        base.push(off);
        next_index(&mut bidx, &iv.batch_shape);
    }
    // Window offsets relative to the origin, row-major over the window.
    let wst: Vec<usize> = window_dims.iter().map(|&d| ost[d]).collect();
    let mut win_off = Vec::with_capacity(wcount);
    if wcount > 0 {
        let mut w = vec![0usize; wshape.len()];
        loop {
            win_off.push(w.iter().zip(&wst).map(|(i, s)| i * s).sum::<usize>());
            if !next_index(&mut w, &wshape) {
                break;
            }
        }
    }
    let wmax = win_off.iter().copied().max().unwrap_or(0);
    if wcount > 0 && base.iter().any(|&b| b + wmax >= operand.len()) {
        return Some(Err("gather: slice outside the operand".into()));
    }
    // A window that is one contiguous run of the operand (the embedding-row case).
    let contiguous = win_off.iter().enumerate().all(|(i, &o)| o == i);
    let trailing = offset_dims.iter().enumerate().all(|(k, &o)| o == brank + k);
    let n = count(&rshape)?;
    Some(with_kind!(operand.kind(), T => {
        let src = elems::<T>(operand)?;
        let mut out: Vec<T> = Vec::with_capacity(n);
        if n > 0 {
            if trailing && contiguous {
                for &b in &base {
                    out.extend_from_slice(&src[b..b + wcount]);
                }
            } else if trailing {
                for &b in &base {
                    out.extend(win_off.iter().map(|&w| src[b + w]));
                }
            } else {
                general_gather(&mut out, src, &rshape, &is_win, &iv.batch_shape, &wshape, &base, &win_off);
            }
        }
        Ok(vec![super::elems::tensor_of(ty, out)])
    }))
}

/// Gather with offset dims interleaved among the batch dims: walks the result row-major, tracking the
/// batch and window linear positions.
#[allow(clippy::too_many_arguments)]
fn general_gather<T: NElem>(
    out: &mut Vec<T>,
    src: &[T],
    rshape: &[usize],
    is_win: &[bool],
    bshape: &[usize],
    wshape: &[usize],
    base: &[usize],
    win_off: &[usize],
) {
    let bst = strides(bshape);
    let wst = strides(wshape);
    let (mut bi, mut wi) = (0, 0);
    let step: Vec<(bool, usize)> = is_win
        .iter()
        .map(|&w| {
            if w {
                wi += 1;
                (true, wst[wi - 1])
            } else {
                bi += 1;
                (false, bst[bi - 1])
            }
        })
        .collect();
    let mut idx = vec![0usize; rshape.len()];
    loop {
        let (mut b, mut w) = (0usize, 0usize);
        for (&i, &(win, s)) in idx.iter().zip(&step) {
            if win {
                w += i * s;
            } else {
                b += i * s;
            }
        }
        out.push(src[base[b] + win_off[w]]);
        if !next_index(&mut idx, rshape) {
            return;
        }
    }
}

/// Validated scatter geometry.
struct ScatterPlan {
    idims: Vec<usize>,
    udims: Vec<usize>,
    /// Per input dim: the raw start component for each batch position comes from `smap`.
    smap: Vec<usize>,
    ibatch: Vec<(usize, usize)>,
    window_dims: Vec<usize>,
    uwin: Vec<usize>,
    uscatter: Vec<usize>,
    iv: IndexVectors,
}

fn scatter_plan(s: &ScatterDims, input: &NTensor, indices: &NTensor, updates: &NTensor) -> Option<ScatterPlan> {
    let idims = input.dims();
    let udims = updates.dims();
    let (irank, urank) = (idims.len(), udims.len());
    let inserted = dims_below(&s.inserted_window_dims, irank)?;
    let ibatch_d = dims_below(&s.input_batching_dims, irank)?;
    let smap = dims_below(&s.scatter_dims_to_operand_dims, irank)?;
    if s.scatter_indices_batching_dims.len() != ibatch_d.len() {
        return None;
    }
    let iv = index_vectors(indices, s.index_vector_dim, smap.len())?;
    let uwin = dims_below(&s.update_window_dims, urank)?;
    let window_dims: Vec<usize> = (0..irank).filter(|d| !inserted.contains(d) && !ibatch_d.contains(d)).collect();
    if window_dims.len() != uwin.len() {
        return None;
    }
    let uscatter: Vec<usize> = (0..urank).filter(|d| !uwin.contains(d)).collect();
    if uscatter.len() != iv.batch_shape.len() || uscatter.iter().zip(&iv.batch_shape).any(|(&d, &b)| udims[d] != b) {
        return None;
    }
    if uwin.iter().zip(&window_dims).any(|(&ud, &wd)| udims[ud] > idims[wd]) {
        return None;
    }
    let mut ibatch = Vec::with_capacity(ibatch_d.len());
    for (&od, &sd) in ibatch_d.iter().zip(&s.scatter_indices_batching_dims) {
        let p = batch_pos(sd, s.index_vector_dim)?;
        if p >= uscatter.len() {
            return None;
        }
        ibatch.push((od, p));
    }
    Some(ScatterPlan { idims, udims, smap, ibatch, window_dims, uwin, uscatter, iv })
}

fn scatter(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let [input, indices, updates] = args else { return None };
    let s: &ScatterDims = match ctx.op.attr("scatter_dimension_numbers") {
        Some(Attr::ScatterDims(s)) => s,
        _ => return None,
    };
    let ty = result_type(ctx, 0)?;
    let kind = input.kind();
    if updates.kind() != kind || !same_kind(&ty, kind) || ty.shape != input.ty.shape {
        return None;
    }
    let comb = binary_body(ctx.func, ctx.op.regions.first()?, &input.ty.elem)?;
    let plan = scatter_plan(s, input, indices, updates)?;
    let mut buf = (*input).clone().into_buf();
    Some(with_kind!(kind, T => {
        let u = elems::<T>(updates)?;
        if !comb.supported::<T>() {
            return None;
        }
        let dst = T::of_vec(&mut buf)?;
        if dst.len() != count(&plan.idims)? || u.len() != count(&plan.udims)? {
            return Some(Err("scatter: buffers do not match their types".into()));
        }
        run_scatter(&plan, comb, dst, u);
        Ok(vec![NTensor::new(ty, buf)])
    }))
}

/// Applies every update in row-major update order.
fn run_scatter<T: Arith>(p: &ScatterPlan, comb: Comb, dst: &mut [T], u: &[T]) {
    if u.is_empty() {
        return;
    }
    let ist = strides(&p.idims);
    let irank = p.idims.len();
    let nsc = p.uscatter.len();
    let leading = p.uscatter.iter().enumerate().all(|(k, &d)| d == k) && p.uwin.iter().enumerate().all(|(k, &d)| d == nsc + k);
    let wshape: Vec<usize> = p.uwin.iter().map(|&d| p.udims[d]).collect();
    let mut origin = vec![0i64; irank];
    let set_origin = |origin: &mut [i64], b: usize, bidx: &[usize]| {
        origin.iter_mut().for_each(|o| *o = 0);
        for (k, &od) in p.smap.iter().enumerate() {
            origin[od] = origin[od].saturating_add(p.iv.comps[b * p.iv.n + k]);
        }
        for &(od, pos) in &p.ibatch {
            origin[od] = origin[od].saturating_add(bidx[pos] as i64);
        }
    };
    let bst = strides(&p.iv.batch_shape);
    if leading {
        // Updates are [batch..., window...]: one window per batch position, rows along the last
        // window dimension combined as slices when the input is contiguous there.
        let wlen: usize = wshape.iter().product();
        let nb: usize = p.iv.batch_shape.iter().product();
        let mut bidx = vec![0usize; p.iv.batch_shape.len()];
        for b in 0..nb {
            set_origin(&mut origin, b, &bidx);
            scatter_window(p, comb, dst, &u[b * wlen..(b + 1) * wlen], &origin, &wshape, &ist);
            next_index(&mut bidx, &p.iv.batch_shape);
        }
        return;
    }
    let mut uidx = vec![0usize; p.udims.len()];
    let mut bidx = vec![0usize; p.uscatter.len()];
    let mut target = vec![0i64; irank];
    for &x in u {
        for (k, &d) in p.uscatter.iter().enumerate() {
            bidx[k] = uidx[d];
        }
        let b: usize = bidx.iter().zip(&bst).map(|(i, s)| i * s).sum();
        set_origin(&mut target, b, &bidx);
        for (k, &ud) in p.uwin.iter().enumerate() {
            let t = &mut target[p.window_dims[k]];
            *t = t.saturating_add(uidx[ud] as i64);
        }
        if target.iter().zip(&p.idims).all(|(&t, &d)| t >= 0 && (t as u64) < d as u64) {
            let pos: usize = target.iter().zip(&ist).map(|(&t, &s)| t as usize * s).sum();
            dst[pos] = comb.apply(dst[pos], x);
        }
        next_index(&mut uidx, &p.udims);
    }
}

/// Scatters one window `w` (row-major over `wshape`) at `origin`.
fn scatter_window<T: Arith>(p: &ScatterPlan, comb: Comb, dst: &mut [T], w: &[T], origin: &[i64], wshape: &[usize], ist: &[usize]) {
    let inside = |d: usize, t: i64| t >= 0 && (t as u64) < p.idims[d] as u64;
    let Some(&last_dim) = p.window_dims.last() else {
        // Scalar windows.
        if origin.iter().enumerate().all(|(d, &t)| inside(d, t)) {
            let pos: usize = origin.iter().zip(ist).map(|(&t, &s)| t as usize * s).sum();
            dst[pos] = comb.apply(dst[pos], w[0]);
        }
        return;
    };
    let wr = wshape.len() - 1;
    let row = wshape[wr];
    if row == 0 {
        return;
    }
    let mut widx = vec![0usize; wr];
    let mut target = origin.to_vec();
    let mut r = 0usize;
    loop {
        target.copy_from_slice(origin);
        for (k, &i) in widx.iter().enumerate() {
            let t = &mut target[p.window_dims[k]];
            *t = t.saturating_add(i as i64);
        }
        let others_in = (0..target.len()).all(|d| d == last_dim || inside(d, target[d]));
        if others_in {
            let mut pos = 0usize;
            for (d, (&t, &s)) in target.iter().zip(ist).enumerate() {
                if d != last_dim {
                    pos += t as usize * s;
                }
            }
            let t0 = target[last_dim];
            let n = p.idims[last_dim] as i64;
            let j0 = t0.saturating_neg().clamp(0, row as i64) as usize;
            let j1 = n.saturating_sub(t0).clamp(j0 as i64, row as i64) as usize;
            let src = &w[r * row..(r + 1) * row];
            let sl = ist[last_dim];
            if j1 > j0 {
                let p0 = pos + (t0 + j0 as i64) as usize * sl;
                if sl == 1 {
                    comb.apply_slice(&mut dst[p0..p0 + (j1 - j0)], &src[j0..j1]);
                } else {
                    for (k, &x) in src[j0..j1].iter().enumerate() {
                        let q = p0 + k * sl;
                        dst[q] = comb.apply(dst[q], x);
                    }
                }
            }
        }
        r += 1;
        if !next_index(&mut widx, &wshape[..wr]) {
            return;
        }
    }
}
