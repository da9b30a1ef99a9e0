//! reduce (variadic, any body), reduce_window (base/window dilations, padding, strides),
//! select_and_scatter, and batch_norm_training / inference / grad.
//!
//! Reduction order (implementation-defined in the spec) is the reference interpreter's: start from the
//! init values and fold the elements in row-major order, `acc = body(acc..., x...)`. Bodies that are a
//! single add/multiply/and/or (integer max/min) on their arguments are folded directly; every other body
//! runs through the evaluator. The batch_norm ops compute in f64 and round each result once (the spec's
//! decomposition rounds after every step, so results can differ from it by an ulp or so).

use crate::ops::support::*;
use crate::ops::OpCtx;
use crate::tensor::{round_to, Data, RtValue, Tensor};
use oxhlo_ir::{FloatType, Region};

/// Folds `n_out` groups: group `i` covers operand offsets `base[i] + win[w]` (or a missing element, NONE,
/// which contributes the init value). `inputs`/`inits` are the N operands and their init values.
fn fold_groups(
    ctx: &mut OpCtx,
    region: &Region,
    inputs: &[&Tensor],
    inits: &[&Tensor],
    groups: &dyn Fn(usize, &mut Vec<usize>),
    n_out: usize,
    out_shape: &[i64],
) -> Result<Vec<RtValue>, String> {
    let n = inputs.len();
    let mut results = Vec::with_capacity(n);
    for i in 0..n {
        let ty = refine_result_type(ctx, i, out_shape)?;
        results.push(Tensor::zeros(ty)?);
    }
    let mut members = Vec::new();
    let fast = if n == 1 && results[0].ty.elem == inputs[0].ty.elem {
        fast_binary_region(ctx.func, region, inputs[0].elem())
    } else {
        None
    };
    if let Some(kind) = fast {
        let elem = results[0].ty.elem.clone();
        let mut acc = take(&inits[0].data, &vec![0; n_out]);
        for i in 0..n_out {
            groups(i, &mut members);
            for &m in &members {
                if m == NONE {
                    fast_combine(kind, &elem, &mut acc, i, &inits[0].data, 0)?;
                } else {
                    fast_combine(kind, &elem, &mut acc, i, &inputs[0].data, m)?;
                }
            }
        }
        results[0].data = acc;
        return Ok(results.into_iter().map(RtValue::Tensor).collect());
    }
    let mut cargs: Vec<RtValue> = Vec::with_capacity(2 * n);
    for i in 0..n_out {
        groups(i, &mut members);
        let mut acc: Vec<RtValue> = inits.iter().map(|t| scalar_value(t, 0)).collect();
        for &m in &members {
            cargs.clear();
            cargs.append(&mut acc);
            for (k, t) in inputs.iter().enumerate() {
                cargs.push(if m == NONE { scalar_value(inits[k], 0) } else { scalar_value(t, m) });
            }
            acc = ctx.regions.call_region(region, &cargs)?;
            if acc.len() != n {
                return Err(format!("reduction body returned {} values, expected {n}", acc.len()));
            }
        }
        for (r, v) in results.iter_mut().zip(&acc) {
            let d = region_scalar(v, "reduction body")?;
            set_from(&mut r.data, i, &d)?;
        }
    }
    Ok(results.into_iter().map(RtValue::Tensor).collect())
}

/// Highest rank the windowed ops handle.
const MAX_RANK: usize = 16;

/// Marks a window position that falls into padding or a dilation hole.
pub const NONE: usize = usize::MAX;

fn split_inputs<'a>(args: &'a [RtValue], what: &str) -> Result<(Vec<&'a Tensor>, Vec<&'a Tensor>), String> {
    if args.len() < 2 || !args.len().is_multiple_of(2) {
        return Err(format!("{what} takes N inputs and N init values, got {} operands", args.len()));
    }
    let n = args.len() / 2;
    let inputs: Vec<&Tensor> = (0..n).map(|i| tensor_arg(args, i)).collect::<Result<_, _>>()?;
    let inits: Vec<&Tensor> = (n..2 * n).map(|i| tensor_arg(args, i)).collect::<Result<_, _>>()?;
    for (t, i) in inputs.iter().zip(&inits) {
        if t.shape() != inputs[0].shape() {
            return Err(format!("{what} inputs must have one shape"));
        }
        if i.len() != 1 {
            return Err(format!("{what} init values must be 0-dimensional"));
        }
    }
    Ok((inputs, inits))
}

pub fn eval_reduce(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let (inputs, inits) = split_inputs(args, "reduce")?;
    let shape = inputs[0].shape().to_vec();
    let rank = shape.len();
    let dims = dims_in(&req_i64s(ctx, "dimensions")?, rank, "reduce")?;
    let kept: Vec<usize> = (0..rank).filter(|d| !dims.contains(d)).collect();
    let st = istrides(&shape);
    let out_shape: Vec<i64> = kept.iter().map(|&d| shape[d]).collect();
    let kshape: Vec<usize> = kept.iter().map(|&d| shape[d] as usize).collect();
    let rshape: Vec<usize> = dims.iter().map(|&d| shape[d] as usize).collect();
    let base = strided_indices(&kshape, &kept.iter().map(|&d| st[d]).collect::<Vec<_>>(), 0);
    let win = strided_indices(&rshape, &dims.iter().map(|&d| st[d]).collect::<Vec<_>>(), 0);
    let n_out = elem_count(&out_shape)?;
    let region = ctx.op.regions.first().ok_or("reduce needs a body region")?;
    let groups = |i: usize, m: &mut Vec<usize>| {
        m.clear();
        m.extend(win.iter().map(|&w| base[i] + w));
    };
    fold_groups(ctx, region, &inputs, &inits, &groups, n_out, &out_shape)
}

/// Window geometry of one dimension: output size and, per (output, tap), the input position or NONE.
pub struct WinDim {
    pub out: usize,
    pub taps: usize,
    pub map: Vec<usize>,
}

/// Lays a window over one dimension of size `n` (base dilation, padding, window dilation, stride).
pub fn window_dim(n: i64, w: i64, stride: i64, bd: i64, wd: i64, lo: i64, hi: i64) -> Result<WinDim, String> {
    if w < 0 || stride < 1 || bd < 1 || wd < 1 {
        return Err(format!("invalid window (size {w}, stride {stride}, dilations {bd}/{wd})"));
    }
    let dilated = if n == 0 { 0 } else { (n - 1) * bd + 1 };
    let padded = dilated + lo + hi;
    let dw = if w == 0 { 0 } else { (w - 1) * wd + 1 };
    let out = if padded < dw { 0 } else { (padded - dw) / stride + 1 };
    let mut map = Vec::with_capacity((out * w).max(0) as usize);
    for y in 0..out {
        for k in 0..w {
            let p = y * stride + k * wd - lo;
            map.push(if p >= 0 && p % bd == 0 && p / bd < n { (p / bd) as usize } else { NONE });
        }
    }
    Ok(WinDim { out: out as usize, taps: w as usize, map })
}

fn window_attrs(ctx: &OpCtx, rank: usize, with_dilation: bool) -> Result<Vec<[i64; 6]>, String> {
    let get = |name: &str, default: i64| -> Result<Vec<i64>, String> {
        let v = opt_i64s(ctx, name)?.unwrap_or_else(|| vec![default; rank]);
        if v.len() != rank {
            return Err(format!("`{name}` must have {rank} entries"));
        }
        Ok(v)
    };
    let wdims = req_i64s(ctx, "window_dimensions")?;
    if wdims.len() != rank {
        return Err(format!("window_dimensions must have {rank} entries"));
    }
    let strides = get("window_strides", 1)?;
    let (bd, wd) = if with_dilation { (get("base_dilations", 1)?, get("window_dilations", 1)?) } else { (vec![1; rank], vec![1; rank]) };
    let pad = opt_i64s(ctx, "padding")?.unwrap_or_else(|| vec![0; 2 * rank]);
    if pad.len() != 2 * rank {
        return Err(format!("padding must have {rank} (low, high) pairs"));
    }
    Ok((0..rank).map(|d| [wdims[d], strides[d], bd[d], wd[d], pad[2 * d], pad[2 * d + 1]]).collect())
}

/// All windows of a tensor: per output position, the operand offsets of its taps (NONE for padding).
pub struct Windows {
    pub out_shape: Vec<i64>,
    dims: Vec<WinDim>,
    taps: Vec<usize>,
    st: Vec<usize>,
}

impl Windows {
    pub fn new(shape: &[i64], attrs: &[[i64; 6]]) -> Result<Windows, String> {
        if shape.len() > MAX_RANK {
            return Err(format!("windowed ops support rank up to {MAX_RANK}"));
        }
        let dims: Vec<WinDim> = shape
            .iter()
            .zip(attrs)
            .map(|(&n, a)| window_dim(n, a[0], a[1], a[2], a[3], a[4], a[5]))
            .collect::<Result<_, _>>()?;
        let out_shape: Vec<i64> = dims.iter().map(|d| d.out as i64).collect();
        let taps: Vec<usize> = dims.iter().map(|d| d.taps).collect();
        elem_count(&out_shape)?;
        elem_count(&taps.iter().map(|&t| t as i64).collect::<Vec<_>>())?;
        Ok(Windows { out_shape, dims, taps, st: crate::tensor::strides(shape) })
    }

    /// The taps of output position `out_lin` (row-major), into `m`.
    pub fn members(&self, out_lin: usize, m: &mut Vec<usize>) {
        m.clear();
        let rank = self.dims.len();
        let mut y = [0usize; MAX_RANK];
        let mut k = [0usize; MAX_RANK];
        let mut rem = out_lin;
        for d in (0..rank).rev() {
            let n = self.dims[d].out.max(1);
            y[d] = rem % n;
            rem /= n;
        }
        let total: usize = self.taps.iter().product();
        let k = &mut k[..rank];
        for _ in 0..total {
            let mut off = 0usize;
            let mut pad = false;
            for d in 0..rank {
                let p = self.dims[d].map[y[d] * self.dims[d].taps + k[d]];
                if p == NONE {
                    pad = true;
                    break;
                }
                off += p * self.st[d];
            }
            m.push(if pad { NONE } else { off });
            next_index(k, &self.taps);
        }
    }
}

pub fn eval_reduce_window(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let (inputs, inits) = split_inputs(args, "reduce_window")?;
    let shape = inputs[0].shape().to_vec();
    let attrs = window_attrs(ctx, shape.len(), true)?;
    let w = Windows::new(&shape, &attrs)?;
    let n_out = elem_count(&w.out_shape)?;
    let region = ctx.op.regions.first().ok_or("reduce_window needs a body region")?;
    let out_shape = w.out_shape.clone();
    let groups = |i: usize, m: &mut Vec<usize>| w.members(i, m);
    fold_groups(ctx, region, &inputs, &inits, &groups, n_out, &out_shape)
}

fn region_bool(v: &[RtValue]) -> Result<bool, String> {
    match v.first().map(|v| region_scalar(v, "select")) {
        Some(Ok(Data::Bool(b))) if v.len() == 1 => Ok(b[0]),
        _ => Err("select region must return one i1 value".into()),
    }
}

pub fn eval_select_and_scatter(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let source = tensor_arg(args, 1)?;
    let init = tensor_arg(args, 2)?;
    if init.len() != 1 {
        return Err("init_value must be 0-dimensional".into());
    }
    let shape = operand.shape().to_vec();
    let attrs = window_attrs(ctx, shape.len(), false)?;
    let w = Windows::new(&shape, &attrs)?;
    if source.shape() != w.out_shape.as_slice() {
        return Err(format!("source shape {:?} must equal the window output shape {:?}", source.shape(), w.out_shape));
    }
    let (select, scatter) = match ctx.op.regions.as_slice() {
        [a, b] => (a, b),
        _ => return Err("select_and_scatter needs select and scatter regions".into()),
    };
    let ty = refine_result_type(ctx, 0, &shape)?;
    let n = operand.len();
    let mut result = Tensor { ty: ty.clone(), data: take(&init.data, &vec![0; n]) };
    let fast = if result.ty.elem == source.ty.elem { fast_binary_region(ctx.func, scatter, source.elem()) } else { None };
    let mut m = Vec::new();
    for s in 0..source.len() {
        w.members(s, &mut m);
        let mut chosen = NONE;
        for &x in &m {
            if x == NONE {
                continue;
            }
            if chosen == NONE {
                chosen = x;
                continue;
            }
            let keep = region_bool(&ctx.regions.call_region(select, &[scalar_value(operand, chosen), scalar_value(operand, x)])?)?;
            if !keep {
                chosen = x;
            }
        }
        if chosen == NONE {
            continue;
        }
        match fast {
            Some(kind) => fast_combine(kind, &ty.elem, &mut result.data, chosen, &source.data, s)?,
            None => {
                let out = ctx.regions.call_region(scatter, &[scalar_value(&result, chosen), scalar_value(source, s)])?;
                let d = region_scalar(out.first().ok_or("scatter region returned nothing")?, "scatter region")?;
                set_from(&mut result.data, chosen, &d)?;
            }
        }
    }
    Ok(vec![RtValue::Tensor(result)])
}

/// Per-feature view of an operand for the batch_norm ops.
struct Features {
    ft: FloatType,
    count: usize,
    stride: usize,
    nf: usize,
}

impl Features {
    fn new(ctx: &OpCtx, operand: &Tensor) -> Result<Features, String> {
        let fi = req_int(ctx, "feature_index")?;
        let rank = operand.shape().len();
        let fi = dims_in(&[fi], rank, "feature_index")?[0];
        let ft = match operand.elem() {
            oxhlo_ir::ElementType::Float(f) => *f,
            e => return Err(format!("batch_norm needs a float operand, got {e:?}")),
        };
        let nf = operand.shape()[fi] as usize;
        Ok(Features { ft, count: operand.len() / nf.max(1), stride: operand.strides()[fi], nf })
    }
    #[inline]
    fn of(&self, i: usize) -> usize {
        (i / self.stride) % self.nf.max(1)
    }
}

fn floats(t: &Tensor) -> Result<&[f64], String> {
    match &t.data {
        Data::Float(v) => Ok(v),
        _ => Err("batch_norm operands must be float tensors".into()),
    }
}

fn feature_vec(t: &Tensor, nf: usize, what: &str) -> Result<Vec<f64>, String> {
    let v = floats(t)?;
    if v.len() != nf || t.shape().len() != 1 {
        return Err(format!("{what} must be a 1-D tensor of {nf} elements"));
    }
    Ok(v.to_vec())
}

fn epsilon(ctx: &OpCtx) -> Result<f64, String> {
    opt_float(ctx, "epsilon")?.ok_or_else(|| "missing attribute `epsilon`".into())
}

fn out(ctx: &OpCtx, i: usize, shape: &[i64], ft: FloatType, v: Vec<f64>) -> Result<RtValue, String> {
    let ty = refine_result_type(ctx, i, shape)?;
    Ok(tv(ty, Data::Float(v.into_iter().map(|x| round_to(ft, x)).collect())))
}

/// Per-feature mean and (biased) variance.
fn moments(f: &Features, x: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mut mean = vec![0.0; f.nf];
    for (i, &v) in x.iter().enumerate() {
        mean[f.of(i)] += v;
    }
    let c = f.count.max(1) as f64;
    mean.iter_mut().for_each(|m| *m /= c);
    let mut var = vec![0.0; f.nf];
    for (i, &v) in x.iter().enumerate() {
        let d = v - mean[f.of(i)];
        var[f.of(i)] += d * d;
    }
    var.iter_mut().for_each(|m| *m /= c);
    (mean, var)
}

pub fn eval_batch_norm_training(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let x = tensor_arg(args, 0)?;
    let f = Features::new(ctx, x)?;
    let scale = feature_vec(tensor_arg(args, 1)?, f.nf, "scale")?;
    let offset = feature_vec(tensor_arg(args, 2)?, f.nf, "offset")?;
    let eps = epsilon(ctx)?;
    let xv = floats(x)?;
    let (mean, var) = moments(&f, xv);
    let y: Vec<f64> = xv
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let k = f.of(i);
            scale[k] * (v - mean[k]) / (var[k] + eps).sqrt() + offset[k]
        })
        .collect();
    let nf = [f.nf as i64];
    Ok(vec![out(ctx, 0, x.shape(), f.ft, y)?, out(ctx, 1, &nf, f.ft, mean)?, out(ctx, 2, &nf, f.ft, var)?])
}

pub fn eval_batch_norm_inference(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let x = tensor_arg(args, 0)?;
    let f = Features::new(ctx, x)?;
    let scale = feature_vec(tensor_arg(args, 1)?, f.nf, "scale")?;
    let offset = feature_vec(tensor_arg(args, 2)?, f.nf, "offset")?;
    let mean = feature_vec(tensor_arg(args, 3)?, f.nf, "mean")?;
    let var = feature_vec(tensor_arg(args, 4)?, f.nf, "variance")?;
    let eps = epsilon(ctx)?;
    let y: Vec<f64> = floats(x)?
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let k = f.of(i);
            scale[k] * (v - mean[k]) / (var[k] + eps).sqrt() + offset[k]
        })
        .collect();
    Ok(vec![out(ctx, 0, x.shape(), f.ft, y)?])
}

pub fn eval_batch_norm_grad(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let x = tensor_arg(args, 0)?;
    let f = Features::new(ctx, x)?;
    let scale = feature_vec(tensor_arg(args, 1)?, f.nf, "scale")?;
    let mean = feature_vec(tensor_arg(args, 2)?, f.nf, "mean")?;
    let var = feature_vec(tensor_arg(args, 3)?, f.nf, "variance")?;
    let gy_t = tensor_arg(args, 4)?;
    if gy_t.shape() != x.shape() {
        return Err("grad_output must have the operand's shape".into());
    }
    let gy = floats(gy_t)?;
    let eps = epsilon(ctx)?;
    let xv = floats(x)?;
    let n = f.count.max(1) as f64;
    let mut sum_gy = vec![0.0; f.nf];
    let mut sum_gy_c = vec![0.0; f.nf];
    for (i, (&v, &g)) in xv.iter().zip(gy).enumerate() {
        let k = f.of(i);
        sum_gy[k] += g;
        sum_gy_c[k] += g * (v - mean[k]);
    }
    let gx: Vec<f64> = xv
        .iter()
        .zip(gy)
        .enumerate()
        .map(|(i, (&v, &g))| {
            let k = f.of(i);
            let ve = var[k] + eps;
            let c = v - mean[k];
            scale[k] / ve.sqrt() / n * (g * n - sum_gy[k] - c * sum_gy_c[k] / ve)
        })
        .collect();
    let gscale: Vec<f64> = (0..f.nf).map(|k| sum_gy_c[k] / (var[k] + eps).sqrt()).collect();
    let nf = [f.nf as i64];
    Ok(vec![out(ctx, 0, x.shape(), f.ft, gx)?, out(ctx, 1, &nf, f.ft, gscale)?, out(ctx, 2, &nf, f.ft, sum_gy)?])
}
