//! gather, dynamic_gather, scatter (multi-operand, with its update computation) and torch_index_select,
//! with every dimension number of the spec including operand/start-indices batching dims and an
//! index_vector_dim equal to the indices' rank. Gather clamps start indices so the slice fits (spec);
//! scatter applies updates in row-major update order and skips each update element whose target index is
//! out of bounds (the spec's per-element rule; XLA skips whole windows, which only differs for windows
//! that straddle the edge). indices_are_sorted / unique_indices are accepted and do not change results.

use crate::ops::support::*;
use crate::ops::OpCtx;
use crate::tensor::{RtValue, Tensor};
use oxhlo_ir::attr::{GatherDims, ScatterDims};
use oxhlo_ir::Attr;

/// Reads start-index vectors: for every batch position (start_indices' shape without index_vector_dim,
/// row-major), the `n` components along index_vector_dim.
struct IndexVectors {
    batch_shape: Vec<usize>,
    comps: Vec<i64>,
    n: usize,
}

fn index_vectors(indices: &Tensor, ivd: i64, n: usize) -> Result<IndexVectors, String> {
    let rank = indices.shape().len();
    if ivd < 0 || ivd as usize > rank {
        return Err(format!("index_vector_dim {ivd} out of range for indices of rank {rank}"));
    }
    let ivd = ivd as usize;
    let vals = index_values(indices)?;
    let shape = ushape(indices.shape());
    let vec_len = if ivd < rank { shape[ivd] } else { 1 };
    if vec_len != n {
        return Err(format!("index vectors have {vec_len} components, the dimension numbers need {n}"));
    }
    let st = strides_u(&shape);
    let mut batch_shape = shape.clone();
    let mut bstr = st.clone();
    if ivd < rank {
        batch_shape.remove(ivd);
        bstr.remove(ivd);
    }
    let vstride = if ivd < rank { st[ivd] } else { 0 };
    let nb: usize = batch_shape.iter().product();
    let mut comps = Vec::with_capacity(nb * n);
    let bases = strided_indices(&batch_shape, &bstr.iter().map(|&s| s as isize).collect::<Vec<_>>(), 0);
    for b in bases {
        for k in 0..n {
            comps.push(vals[b + k * vstride]);
        }
    }
    Ok(IndexVectors { batch_shape, comps, n })
}

/// Position of start-indices dimension `d` within the batch shape (index_vector_dim removed).
fn batch_pos(d: i64, ivd: i64) -> usize {
    if d < ivd {
        d as usize
    } else {
        (d - 1) as usize
    }
}

fn gather_dims(ctx: &OpCtx) -> Result<GatherDims, String> {
    match ctx.op.attr("dimension_numbers") {
        Some(Attr::GatherDims(g)) => Ok(g.clone()),
        _ => Err("missing gather dimension_numbers".into()),
    }
}

/// The core gather: `sizes` are the slice sizes.
fn gather_impl(ctx: &OpCtx, operand: &Tensor, indices: &Tensor, g: &GatherDims, sizes: &[i64]) -> Result<Vec<RtValue>, String> {
    let orank = operand.shape().len();
    if sizes.len() != orank {
        return Err(format!("slice_sizes has {} entries, operand rank is {orank}", sizes.len()));
    }
    let collapsed = dims_in(&g.collapsed_slice_dims, orank, "collapsed_slice_dims")?;
    let obatch = dims_in(&g.operand_batching_dims, orank, "operand_batching_dims")?;
    let smap = dims_in(&g.start_index_map, orank, "start_index_map")?;
    if g.start_indices_batching_dims.len() != obatch.len() {
        return Err("operand_batching_dims and start_indices_batching_dims differ in length".into());
    }
    for (d, (&z, &n)) in sizes.iter().zip(operand.shape()).enumerate() {
        if z < 0 || z > n {
            return Err(format!("slice size {z} out of range for operand dimension {d} of size {n}"));
        }
    }
    let iv = index_vectors(indices, g.index_vector_dim, smap.len())?;
    // Operand dims that appear in the result as offset dims, in order.
    let window_dims: Vec<usize> = (0..orank).filter(|d| !collapsed.contains(d) && !obatch.contains(d)).collect();
    if window_dims.len() != g.offset_dims.len() {
        return Err(format!("offset_dims has {} entries, the slice keeps {} dimensions", g.offset_dims.len(), window_dims.len()));
    }
    for &d in collapsed.iter().chain(&obatch) {
        if sizes[d] > 1 {
            return Err(format!("collapsed or batching operand dimension {d} must have slice size <= 1"));
        }
    }
    let rrank = iv.batch_shape.len() + window_dims.len();
    let offset_dims = dims_in(&g.offset_dims, rrank, "offset_dims")?;
    let mut rshape = vec![0i64; rrank];
    let mut batch_contrib = vec![0isize; rrank];
    let mut win_contrib = vec![0isize; rrank];
    let bst = strides_u(&iv.batch_shape);
    let wshape: Vec<usize> = window_dims.iter().map(|&d| sizes[d] as usize).collect();
    let wst = strides_u(&wshape);
    let (mut bi, mut wi) = (0, 0);
    for r in 0..rrank {
        if let Some(k) = offset_dims.iter().position(|&o| o == r) {
            if k != wi {
                return Err("offset_dims must be sorted".into());
            }
            rshape[r] = wshape[k] as i64;
            win_contrib[r] = wst[k] as isize;
            wi += 1;
        } else {
            rshape[r] = iv.batch_shape[bi] as i64;
            batch_contrib[r] = bst[bi] as isize;
            bi += 1;
        }
    }
    let ty = refine_result_type(ctx, 0, &rshape)?;
    let ost = operand.strides();
    // Operand offsets of every window position and every batch position.
    let wsrc: Vec<isize> = window_dims.iter().map(|&d| ost[d] as isize).collect();
    let win_off = strided_indices(&wshape, &wsrc, 0);
    let nb: usize = iv.batch_shape.iter().product();
    let mut base = Vec::with_capacity(nb);
    let mut bidx = vec![0usize; iv.batch_shape.len()];
    for b in 0..nb {
        let mut off = 0usize;
        for (k, &od) in smap.iter().enumerate() {
            let s = iv.comps[b * iv.n + k].clamp(0, operand.shape()[od] - sizes[od]);
            off += s as usize * ost[od];
        }
        for (&od, &sd) in obatch.iter().zip(&g.start_indices_batching_dims) {
            let p = batch_pos(sd, g.index_vector_dim);
            let v = *bidx.get(p).ok_or("start_indices_batching_dims out of range")?;
            if v as i64 >= operand.shape()[od] {
                return Err(format!("batch index {v} out of range for operand batching dimension {od}"));
            }
            off += v * ost[od];
        }
        base.push(off);
        next_index(&mut bidx, &iv.batch_shape);
    }
    let rsh = ushape(&rshape);
    let bsel = strided_indices(&rsh, &batch_contrib, 0);
    let wsel = strided_indices(&rsh, &win_contrib, 0);
    let idx: Vec<usize> = bsel.iter().zip(&wsel).map(|(&b, &w)| base[b] + win_off[w]).collect();
    Ok(vec![tv(ty, take(&operand.data, &idx))])
}

pub fn eval_gather(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let indices = tensor_arg(args, 1)?;
    let g = gather_dims(ctx)?;
    let sizes = req_i64s(ctx, "slice_sizes")?;
    gather_impl(ctx, operand, indices, &g, &sizes)
}

pub fn eval_dynamic_gather(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let indices = tensor_arg(args, 1)?;
    let sizes = index_values(tensor_arg(args, 2)?)?;
    let g = gather_dims(ctx)?;
    gather_impl(ctx, operand, indices, &g, &sizes)
}

/// torch_index_select(operand, index, dim, batch_dims): picks slices of `operand` along `dim`; the first
/// `batch_dims` dimensions are shared by operand and index. Indices are clamped into range (as the gather
/// it lowers to does).
pub fn eval_torch_index_select(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let index = tensor_arg(args, 1)?;
    let dim = req_int(ctx, "dim")?;
    let bd = opt_int(ctx, "batch_dims")?.unwrap_or(0);
    let orank = operand.shape().len();
    let irank = index.shape().len();
    if dim < 0 || dim as usize >= orank || bd < 0 || bd > dim || bd as usize > irank {
        return Err(format!("invalid dim {dim} / batch_dims {bd} for operand rank {orank}, index rank {irank}"));
    }
    let (dim, bd) = (dim as usize, bd as usize);
    if operand.shape()[..bd] != index.shape()[..bd] {
        return Err("operand and index differ in their batch dimensions".into());
    }
    let mut shape: Vec<i64> = operand.shape()[..dim].to_vec();
    shape.extend_from_slice(&index.shape()[bd..]);
    shape.extend_from_slice(&operand.shape()[dim + 1..]);
    let ty = refine_result_type(ctx, 0, &shape)?;
    let iv = index_values(index)?;
    let pre: usize = ushape(&operand.shape()[..dim]).iter().product();
    let batch: usize = ushape(&operand.shape()[..bd]).iter().product();
    let mid_pre = pre / batch.max(1);
    let nsel: usize = ushape(&index.shape()[bd..]).iter().product();
    let post: usize = ushape(&operand.shape()[dim + 1..]).iter().product();
    let n = operand.shape()[dim];
    let mut idx = Vec::with_capacity(elem_count(&shape)?);
    for p in 0..pre {
        let b = p.checked_div(mid_pre).unwrap_or(0);
        for s in 0..nsel {
            let j = iv[b * nsel + s].clamp(0, (n - 1).max(0)) as usize;
            let start = (p * n as usize + j) * post;
            idx.extend(start..start + post);
        }
    }
    Ok(vec![tv(ty, take(&operand.data, &idx))])
}

fn scatter_dims(ctx: &OpCtx) -> Result<ScatterDims, String> {
    match ctx.op.attr("scatter_dimension_numbers") {
        Some(Attr::ScatterDims(s)) => Ok(s.clone()),
        _ => Err("missing scatter_dimension_numbers".into()),
    }
}

pub fn eval_scatter(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    if args.len() < 3 || !(args.len() - 1).is_multiple_of(2) {
        return Err(format!("scatter takes N inputs, indices and N updates; got {} operands", args.len()));
    }
    let n = (args.len() - 1) / 2;
    let inputs: Vec<&Tensor> = (0..n).map(|i| tensor_arg(args, i)).collect::<Result<_, _>>()?;
    let indices = tensor_arg(args, n)?;
    let updates: Vec<&Tensor> = (n + 1..2 * n + 1).map(|i| tensor_arg(args, i)).collect::<Result<_, _>>()?;
    let s = scatter_dims(ctx)?;
    let ishape = inputs[0].shape().to_vec();
    let irank = ishape.len();
    for t in &inputs {
        if t.shape() != ishape.as_slice() {
            return Err("scatter inputs must have one shape".into());
        }
    }
    let ushape0 = updates[0].shape().to_vec();
    for (t, i) in updates.iter().zip(&inputs) {
        if t.shape() != ushape0.as_slice() {
            return Err("scatter updates must have one shape".into());
        }
        same_elem(t.elem(), i.elem(), "scatter input and update")?;
    }
    let inserted = dims_in(&s.inserted_window_dims, irank, "inserted_window_dims")?;
    let ibatch = dims_in(&s.input_batching_dims, irank, "input_batching_dims")?;
    let smap = dims_in(&s.scatter_dims_to_operand_dims, irank, "scatter_dims_to_operand_dims")?;
    if s.scatter_indices_batching_dims.len() != ibatch.len() {
        return Err("input_batching_dims and scatter_indices_batching_dims differ in length".into());
    }
    let iv = index_vectors(indices, s.index_vector_dim, smap.len())?;
    let urank = ushape0.len();
    let uwin = dims_in(&s.update_window_dims, urank, "update_window_dims")?;
    let window_dims: Vec<usize> = (0..irank).filter(|d| !inserted.contains(d) && !ibatch.contains(d)).collect();
    if window_dims.len() != uwin.len() {
        return Err(format!("update_window_dims has {} entries, expected {}", uwin.len(), window_dims.len()));
    }
    let uscatter: Vec<usize> = (0..urank).filter(|d| !uwin.contains(d)).collect();
    if uscatter.len() != iv.batch_shape.len()
        || uscatter.iter().zip(&iv.batch_shape).any(|(&d, &b)| ushape0[d] as usize != b)
    {
        return Err("update scatter dimensions do not match the indices' batch shape".into());
    }
    for (k, &ud) in uwin.iter().enumerate() {
        if ushape0[ud] > ishape[window_dims[k]] {
            return Err(format!("update window dimension {ud} is larger than input dimension {}", window_dims[k]));
        }
    }
    let mut results: Vec<Tensor> = Vec::with_capacity(n);
    for (i, input) in inputs.iter().enumerate() {
        let ty = refine_result_type(ctx, i, &ishape)?;
        results.push(Tensor { ty, data: input.data.clone() });
    }
    let region = ctx.op.regions.first().ok_or("scatter needs an update_computation region")?;
    let fast = if n == 1 { fast_binary_region(ctx.func, region, inputs[0].elem()) } else { None };
    let ist = strides(&ishape);
    let ush = ushape(&ushape0);
    let mut uidx = vec![0usize; urank];
    let total = updates[0].len();
    let mut bidx = vec![0usize; uscatter.len()];
    let bstr = strides_u(&iv.batch_shape);
    let mut target = vec![0i64; irank];
    for ulin in 0..total {
        for (k, &d) in uscatter.iter().enumerate() {
            bidx[k] = uidx[d];
        }
        let b: usize = bidx.iter().zip(&bstr).map(|(i, s)| i * s).sum();
        // Full target index: start + batching + window, each dimension checked against the input shape.
        target.iter_mut().for_each(|t| *t = 0);
        for (k, &od) in smap.iter().enumerate() {
            target[od] += iv.comps[b * iv.n + k];
        }
        for (&od, &sd) in ibatch.iter().zip(&s.scatter_indices_batching_dims) {
            let p = batch_pos(sd, s.index_vector_dim);
            target[od] += *bidx.get(p).ok_or("scatter_indices_batching_dims out of range")? as i64;
        }
        for (k, &ud) in uwin.iter().enumerate() {
            target[window_dims[k]] += uidx[ud] as i64;
        }
        let inside = target.iter().zip(&ishape).all(|(&t, &d)| t >= 0 && t < d);
        if inside {
            let pos: usize = target.iter().zip(&ist).map(|(&t, &s)| t as usize * s).sum();
            match fast {
                Some(kind) => {
                    let elem = results[0].ty.elem.clone();
                    fast_combine(kind, &elem, &mut results[0].data, pos, &updates[0].data, ulin)?;
                }
                None => {
                    let mut cargs = Vec::with_capacity(2 * n);
                    for r in &results {
                        cargs.push(scalar_value(r, pos));
                    }
                    for u in &updates {
                        cargs.push(scalar_value(u, ulin));
                    }
                    let outs = ctx.regions.call_region(region, &cargs)?;
                    if outs.len() != n {
                        return Err(format!("update_computation returned {} values, expected {n}", outs.len()));
                    }
                    for (r, o) in results.iter_mut().zip(&outs) {
                        let d = region_scalar(o, "update_computation")?;
                        set_from(&mut r.data, pos, &d)?;
                    }
                }
            }
        }
        next_index(&mut uidx, &ush);
    }
    Ok(results.into_iter().map(RtValue::Tensor).collect())
}

fn strides(shape: &[i64]) -> Vec<usize> {
    crate::tensor::strides(shape)
}
