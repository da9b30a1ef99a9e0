//! Ops that run other code: `stablehlo.async_start` / `async_done` and `chlo.scan`.
//!
//! **async.** `async_start` calls the function named by `called_computation` (or, in the newer
//! region form, its first region) on its operands and yields a `!stablehlo.future<...>` holding the
//! results. The interpreter runs the computation eagerly at `async_start` (one process runs ops in
//! program order, and collectives inside still meet the other processes at their rendezvous), so a
//! future is simply a [`RtValue::Tuple`] of the computed values; `async_done` unwraps its futures, in
//! operand order, into its results.
//!
//! **chlo.scan** `(inputs..., inits...) -> (outputs..., carries...)` with `dimension` and optional
//! `is_reverse`: for each position `t` along `dimension` of the inputs (from the end when reversed), the
//! body is called on the inputs' slices at `t` (the scan dimension removed) followed by the current
//! carries, and returns per-position outputs followed by the new carries. The outputs are stacked along
//! `dimension` (at the same position `t`); the carries after the last step are the final results.
//! `operandSegmentSizes = array<i32: n_inputs, n_inits>` splits the operands; without it, the trailing
//! operands whose type equals the matching body argument's type are the inits.

use crate::ops::support::{put, static_result_type, take, tensor_arg, value_kind};
use crate::ops::OpCtx;
use crate::tensor::{Data, RtValue, Tensor};
use oxhlo_ir::{Attr, TensorType, Type};

/// `stablehlo.async_start`: runs the called computation now; the future is the tuple of its results.
pub fn eval_async_start(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let results = match ctx.op.attr("called_computation") {
        Some(Attr::SymbolRef(name)) | Some(Attr::Str(name)) => ctx.regions.call_func(name, args)?,
        Some(_) => return Err("`called_computation` must be a symbol reference".into()),
        None => match ctx.op.regions.first() {
            Some(r) => ctx.regions.call_region(r, args)?,
            None => return Err("async_start needs a `called_computation` attribute or a region".into()),
        },
    };
    let n = ctx.op.results.len();
    if n <= 1 {
        return Ok(vec![RtValue::Tuple(results)]);
    }
    // One future per result (the newer form with variadic futures).
    if results.len() != n {
        return Err(format!("the computation returned {} values for {n} futures", results.len()));
    }
    Ok(results.into_iter().map(|v| RtValue::Tuple(vec![v])).collect())
}

/// `stablehlo.async_done`: the values held by its futures, in order.
pub fn eval_async_done(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        match a {
            RtValue::Tuple(items) => out.extend(items.iter().cloned()),
            other => return Err(format!("operand #{i} must be a future, got {}", value_kind(other))),
        }
    }
    if out.len() != ctx.op.results.len() {
        return Err(format!("the futures hold {} values, the op declares {} results", out.len(), ctx.op.results.len()));
    }
    Ok(out)
}

/// How many of the scan's operands are inputs (the rest are inits).
fn scan_input_count(ctx: &OpCtx) -> Result<usize, String> {
    let n = ctx.op.operands.len();
    if let Some(a) = ctx.op.attr("operandSegmentSizes") {
        let seg = a.as_i64_list().ok_or("`operandSegmentSizes` must be an integer array")?;
        return match seg.as_slice() {
            [i, k] if *i >= 0 && *k >= 0 && (*i + *k) as usize == n => Ok(*i as usize),
            _ => Err(format!("`operandSegmentSizes` {seg:?} does not split {n} operands into inputs and inits")),
        };
    }
    let block = ctx.op.regions.first().and_then(|r| r.entry()).ok_or("chlo.scan needs a body region")?;
    if block.args.len() != n {
        return Err(format!("the scan body takes {} arguments for {n} operands", block.args.len()));
    }
    let same = |i: usize| ctx.func.try_ty(ctx.op.operands[i]) == ctx.func.try_ty(block.args[i]);
    let mut inputs = n;
    while inputs > 0 && same(inputs - 1) {
        inputs -= 1;
    }
    Ok(inputs)
}

/// Offsets of slice `t` along `dim` of `shape` (row-major), in slice order.
fn slice_indices(shape: &[usize], dim: usize, t: usize) -> Vec<usize> {
    let outer: usize = shape[..dim].iter().product();
    let inner: usize = shape[dim + 1..].iter().product();
    let n = shape[dim];
    let mut idx = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        let base = (o * n + t) * inner;
        idx.extend(base..base + inner);
    }
    idx
}

/// An empty storage of the same kind as `d` with `n` default elements.
fn zeros_like(d: &Data, n: usize) -> Data {
    match d {
        Data::Bool(_) => Data::Bool(vec![false; n]),
        Data::Int(_) => Data::Int(vec![0; n]),
        Data::UInt(_) => Data::UInt(vec![0; n]),
        Data::Float(_) => Data::Float(vec![0.0; n]),
        Data::Complex(_) => Data::Complex(vec![(0.0, 0.0); n]),
    }
}

/// `chlo.scan` (see the module docs).
pub fn eval_scan(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let region = ctx.op.regions.first().ok_or("chlo.scan needs a body region")?;
    let n_in = scan_input_count(ctx)?;
    let n_init = args.len() - n_in;
    let n_res = ctx.op.results.len();
    let n_out = n_res.checked_sub(n_init).ok_or_else(|| format!("{n_res} results cannot hold {n_init} carries"))?;
    let dim = match ctx.op.attr("dimension").and_then(Attr::as_int) {
        Some(d) if d >= 0 => d as usize,
        Some(d) => return Err(format!("scan dimension {d} is negative")),
        None => return Err("missing attribute `dimension`".into()),
    };
    let reverse = ctx.op.attr("is_reverse").and_then(Attr::as_int).unwrap_or(0) != 0;
    let inputs: Vec<&Tensor> = (0..n_in).map(|i| tensor_arg(args, i)).collect::<Result<_, _>>()?;
    // The scan length: from the inputs, else from the first output's declared type.
    let len = match inputs.first() {
        Some(t) => *t.shape().get(dim).ok_or_else(|| format!("scan dimension {dim} is out of range for input #0"))?,
        None => match ctx.result_types.first() {
            Some(Type::Tensor(t)) if n_out > 0 => {
                *t.shape.get(dim).filter(|&&d| d >= 0).ok_or("cannot tell the scan length of an output-only scan")?
            }
            _ => return Err("a scan without inputs or outputs has no length".into()),
        },
    } as usize;
    for (i, t) in inputs.iter().enumerate() {
        if t.shape().get(dim).map(|&d| d as usize) != Some(len) {
            return Err(format!("input #{i} has shape {:?}, expected size {len} along dimension {dim}", t.shape()));
        }
    }
    let in_shapes: Vec<Vec<usize>> = inputs.iter().map(|t| t.shape().iter().map(|&d| d as usize).collect()).collect();
    let mut carries: Vec<RtValue> = args[n_in..].to_vec();
    // Per output: its element type, per-step shape and stacked storage (allocated at the first step).
    let mut outs: Vec<Option<(TensorType, Data)>> = vec![None; n_out];
    for step in 0..len {
        let t = if reverse { len - 1 - step } else { step };
        let mut call_args = Vec::with_capacity(args.len());
        for (x, shape) in inputs.iter().zip(&in_shapes) {
            let mut ty = x.ty.clone();
            ty.shape.remove(dim);
            ty.encoding = None;
            call_args.push(RtValue::Tensor(Tensor { ty, data: take(&x.data, &slice_indices(shape, dim, t)) }));
        }
        call_args.extend(carries.iter().cloned());
        let mut res = ctx.regions.call_region(region, &call_args)?;
        if res.len() != n_res {
            return Err(format!("the scan body returned {} values, expected {n_res}", res.len()));
        }
        carries = res.split_off(n_out);
        for (k, v) in res.into_iter().enumerate() {
            let RtValue::Tensor(piece) = v else {
                return Err(format!("scan output #{k} must be a tensor, got {}", value_kind(&v)));
            };
            if dim > piece.shape().len() {
                return Err(format!("scan dimension {dim} is out of range for output #{k}"));
            }
            let slot = outs[k].get_or_insert_with(|| {
                let mut ty = piece.ty.clone();
                ty.shape.insert(dim, len as i64);
                let total = piece.len() * len;
                (ty, zeros_like(&piece.data, total))
            });
            let mut full: Vec<usize> = piece.shape().iter().map(|&d| d as usize).collect();
            full.insert(dim, len);
            if slot.0.shape.iter().map(|&d| d as usize).ne(full.iter().copied()) || slot.0.elem != piece.ty.elem {
                return Err(format!("scan output #{k} changes type between steps"));
            }
            put(&mut slot.1, &slice_indices(&full, dim, t), &piece.data)?;
        }
    }
    let mut results = Vec::with_capacity(n_res);
    for (k, o) in outs.into_iter().enumerate() {
        results.push(RtValue::Tensor(match o {
            Some((ty, data)) => Tensor { ty, data },
            None => Tensor::zeros(static_result_type(ctx, k)?)?,
        }));
    }
    results.extend(carries);
    Ok(results)
}
