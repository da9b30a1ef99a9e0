//! Data-movement ops: broadcast_in_dim, broadcast, reshape, transpose, slice, dynamic_slice,
//! dynamic_update_slice, concatenate, pad, reverse, iota, get/set_dimension_size and the dynamic-shape
//! forms (dynamic_broadcast_in_dim, dynamic_iota, dynamic_reshape, dynamic_pad, real_dynamic_slice,
//! dynamic_gather, dynamic_conv). Every op computes a list of source indices and moves elements once.

use crate::ops::support::*;
use crate::ops::OpCtx;
use crate::tensor::{wrap_int, Data, RtValue, Tensor};
use oxhlo_ir::{ElementType, TensorType};

fn one(ty: TensorType, data: Data) -> Result<Vec<RtValue>, String> {
    Ok(vec![tv(ty, data)])
}

/// Broadcasts `operand` into `out_shape` with operand dim i mapped to output dim `bdims[i]`.
fn broadcast_to(operand: &Tensor, out_shape: &[i64], bdims: &[i64]) -> Result<Data, String> {
    let rank = operand.shape().len();
    if bdims.len() != rank {
        return Err(format!("broadcast_dimensions has {} entries, operand rank is {rank}", bdims.len()));
    }
    let bd = dims_in(bdims, out_shape.len(), "broadcast")?;
    let ost = istrides(operand.shape());
    let mut src = vec![0isize; out_shape.len()];
    for (i, &d) in bd.iter().enumerate() {
        let od = operand.shape()[i];
        if od != 1 && od != out_shape[d] {
            return Err(format!("operand dimension {i} of size {od} cannot broadcast to size {}", out_shape[d]));
        }
        if od != 1 {
            src[d] = ost[i];
        }
    }
    elem_count(out_shape)?;
    Ok(take(&operand.data, &strided_indices(&ushape(out_shape), &src, 0)))
}

pub fn eval_broadcast_in_dim(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let ty = static_result_type(ctx, 0)?;
    let bdims = req_i64s(ctx, "broadcast_dimensions")?;
    let data = broadcast_to(operand, &ty.shape, &bdims)?;
    one(ty, data)
}

/// The old `broadcast`: prepends `broadcast_sizes` dimensions.
pub fn eval_broadcast(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let sizes = req_i64s(ctx, "broadcast_sizes")?;
    let mut shape = sizes.clone();
    shape.extend_from_slice(operand.shape());
    let bdims: Vec<i64> = (sizes.len()..shape.len()).map(|d| d as i64).collect();
    let ty = refine_result_type(ctx, 0, &shape)?;
    let data = broadcast_to(operand, &shape, &bdims)?;
    one(ty, data)
}

pub fn eval_dynamic_broadcast_in_dim(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let shape = index_values(tensor_arg(args, 1)?)?;
    let ty = refine_result_type(ctx, 0, &shape)?;
    let bdims = req_i64s(ctx, "broadcast_dimensions")?;
    let data = broadcast_to(operand, &shape, &bdims)?;
    one(ty, data)
}

fn reshape_to(ctx: &OpCtx, operand: &Tensor, shape: &[i64]) -> Result<Vec<RtValue>, String> {
    let ty = refine_result_type(ctx, 0, shape)?;
    if elem_count(shape)? != operand.len() {
        return Err(format!("cannot reshape {:?} ({} elements) to {:?}", operand.shape(), operand.len(), shape));
    }
    one(ty, operand.data.clone())
}

pub fn eval_reshape(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let ty = static_result_type(ctx, 0)?;
    reshape_to(ctx, operand, &ty.shape)
}

pub fn eval_dynamic_reshape(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let shape = index_values(tensor_arg(args, 1)?)?;
    reshape_to(ctx, operand, &shape)
}

pub fn eval_transpose(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let perm = req_i64s(ctx, "permutation")?;
    let rank = operand.shape().len();
    let p = dims_in(&perm, rank, "permutation")?;
    let mut seen = vec![false; rank];
    if p.len() != rank || p.iter().any(|&d| std::mem::replace(&mut seen[d], true)) {
        return Err(format!("permutation {perm:?} is not a permutation of 0..{rank}"));
    }
    let ost = istrides(operand.shape());
    let shape: Vec<i64> = p.iter().map(|&d| operand.shape()[d]).collect();
    let src: Vec<isize> = p.iter().map(|&d| ost[d]).collect();
    let ty = refine_result_type(ctx, 0, &shape)?;
    let data = take(&operand.data, &strided_indices(&ushape(&shape), &src, 0));
    one(ty, data)
}

/// A strided slice with checked bounds.
fn slice_impl(ctx: &OpCtx, operand: &Tensor, start: &[i64], limit: &[i64], step: &[i64]) -> Result<Vec<RtValue>, String> {
    let rank = operand.shape().len();
    if start.len() != rank || limit.len() != rank || step.len() != rank {
        return Err(format!("slice start/limit/strides must have {rank} entries each"));
    }
    let ost = istrides(operand.shape());
    let mut shape = Vec::with_capacity(rank);
    let mut src = Vec::with_capacity(rank);
    let mut base = 0isize;
    for d in 0..rank {
        let (s, l, k, n) = (start[d], limit[d], step[d], operand.shape()[d]);
        if s < 0 || l > n || s > l || k <= 0 {
            return Err(format!("invalid slice of dimension {d} (size {n}): start {s}, limit {l}, stride {k}"));
        }
        shape.push((l - s + k - 1) / k);
        src.push(ost[d] * k as isize);
        base += ost[d] * s as isize;
    }
    let ty = refine_result_type(ctx, 0, &shape)?;
    let data = take(&operand.data, &strided_indices(&ushape(&shape), &src, base));
    one(ty, data)
}

pub fn eval_slice(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let start = req_i64s(ctx, "start_indices")?;
    let limit = req_i64s(ctx, "limit_indices")?;
    let step = opt_i64s(ctx, "strides")?.unwrap_or_else(|| vec![1; start.len()]);
    slice_impl(ctx, operand, &start, &limit, &step)
}

pub fn eval_real_dynamic_slice(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let start = index_values(tensor_arg(args, 1)?)?;
    let limit = index_values(tensor_arg(args, 2)?)?;
    let step = index_values(tensor_arg(args, 3)?)?;
    slice_impl(ctx, operand, &start, &limit, &step)
}

/// Start indices given as scalar operands from `first` on (or one 1-D tensor, as older programs write them).
fn start_operands(args: &[RtValue], first: usize, rank: usize) -> Result<Vec<i64>, String> {
    if args.len() == first + 1 && rank != 0 {
        let t = tensor_arg(args, first)?;
        if t.shape().len() == 1 {
            let v = index_values(t)?;
            if v.len() == rank {
                return Ok(v);
            }
        }
    }
    if args.len() != first + rank {
        return Err(format!("expected {rank} start indices, got {}", args.len().saturating_sub(first)));
    }
    (first..first + rank).map(|i| scalar_index(tensor_arg(args, i)?)).collect()
}

pub fn eval_dynamic_slice(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let rank = operand.shape().len();
    let sizes = req_i64s(ctx, "slice_sizes")?;
    if sizes.len() != rank {
        return Err(format!("slice_sizes has {} entries, operand rank is {rank}", sizes.len()));
    }
    let starts = start_operands(args, 1, rank)?;
    let mut start = Vec::with_capacity(rank);
    for d in 0..rank {
        let n = operand.shape()[d];
        if sizes[d] < 0 || sizes[d] > n {
            return Err(format!("slice size {} out of range for dimension {d} of size {n}", sizes[d]));
        }
        start.push(starts[d].clamp(0, n - sizes[d]));
    }
    let limit: Vec<i64> = start.iter().zip(&sizes).map(|(s, z)| s + z).collect();
    slice_impl(ctx, operand, &start, &limit, &vec![1; rank])
}

pub fn eval_dynamic_update_slice(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let update = tensor_arg(args, 1)?;
    same_elem(operand.elem(), update.elem(), "dynamic_update_slice")?;
    let rank = operand.shape().len();
    if update.shape().len() != rank {
        return Err("update must have the operand's rank".into());
    }
    let starts = start_operands(args, 2, rank)?;
    let ost = istrides(operand.shape());
    let mut base = 0isize;
    for d in 0..rank {
        let (n, u) = (operand.shape()[d], update.shape()[d]);
        if u > n {
            return Err(format!("update dimension {d} of size {u} exceeds operand size {n}"));
        }
        base += starts[d].clamp(0, n - u) as isize * ost[d];
    }
    let ty = refine_result_type(ctx, 0, operand.shape())?;
    let dst = strided_indices(&ushape(update.shape()), &ost, base);
    let mut data = operand.data.clone();
    put(&mut data, &dst, &update.data)?;
    one(ty, data)
}

pub fn eval_concatenate(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let first = tensor_arg(args, 0)?;
    let rank = first.shape().len();
    let dim = req_int(ctx, "dimension")?;
    let d = dims_in(&[dim], rank, "concatenate")?[0];
    let inputs: Vec<&Tensor> = (0..args.len()).map(|i| tensor_arg(args, i)).collect::<Result<_, _>>()?;
    let mut shape = first.shape().to_vec();
    shape[d] = 0;
    for t in &inputs {
        same_elem(first.elem(), t.elem(), "concatenate")?;
        if t.shape().len() != rank
            || t.shape().iter().zip(first.shape()).enumerate().any(|(k, (a, b))| k != d && a != b)
        {
            return Err(format!("operand shapes {:?} and {:?} differ outside dimension {d}", first.shape(), t.shape()));
        }
        shape[d] += t.shape()[d];
    }
    let ty = refine_result_type(ctx, 0, &shape)?;
    let outer: usize = ushape(&shape[..d]).iter().product();
    let inner: usize = ushape(&shape[d + 1..]).iter().product();
    // Source index list over the stacked inputs (offsets into the concatenation of all inputs' data).
    let mut offsets = Vec::with_capacity(inputs.len());
    let mut acc = 0usize;
    for t in &inputs {
        offsets.push(acc);
        acc += t.len();
    }
    let mut idx = Vec::with_capacity(elem_count(&shape)?);
    for o in 0..outer {
        for (t, &off) in inputs.iter().zip(&offsets) {
            let chunk = t.shape()[d] as usize * inner;
            idx.extend(off + o * chunk..off + (o + 1) * chunk);
        }
    }
    let all = concat_data(&inputs.iter().map(|t| &t.data).collect::<Vec<_>>())?;
    one(ty, take(&all, &idx))
}

fn pad_impl(ctx: &OpCtx, operand: &Tensor, pv: &Tensor, lo: &[i64], hi: &[i64], interior: &[i64]) -> Result<Vec<RtValue>, String> {
    same_elem(operand.elem(), pv.elem(), "pad")?;
    if pv.len() != 1 {
        return Err("padding value must be a 0-dimensional tensor".into());
    }
    let rank = operand.shape().len();
    if lo.len() != rank || hi.len() != rank || interior.len() != rank {
        return Err(format!("padding attributes must have {rank} entries each"));
    }
    let mut shape = Vec::with_capacity(rank);
    for d in 0..rank {
        let n = operand.shape()[d];
        if interior[d] < 0 {
            return Err(format!("negative interior padding {} in dimension {d}", interior[d]));
        }
        let size = lo[d] + hi[d] + n + (n - 1).max(0) * interior[d];
        if size < 0 {
            return Err(format!("padding makes dimension {d} negative ({size})"));
        }
        shape.push(size);
    }
    let ty = refine_result_type(ctx, 0, &shape)?;
    let n_out = elem_count(&shape)?;
    let mut idx = vec![FILL; n_out];
    let ost = strides(&shape);
    let oshape = ushape(operand.shape());
    if !operand.is_empty() {
        let mut oi = vec![0usize; rank];
        let mut lin = 0usize;
        loop {
            let mut pos = 0usize;
            let mut inside = true;
            for d in 0..rank {
                let p = lo[d] + oi[d] as i64 * (interior[d] + 1);
                if p < 0 || p >= shape[d] {
                    inside = false;
                    break;
                }
                pos += p as usize * ost[d];
            }
            if inside {
                idx[pos] = lin;
            }
            lin += 1;
            if !next_index(&mut oi, &oshape) {
                break;
            }
        }
    }
    one(ty, take_or_fill(&operand.data, &idx, &pv.data)?)
}

fn strides(shape: &[i64]) -> Vec<usize> {
    crate::tensor::strides(shape)
}

pub fn eval_pad(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let pv = tensor_arg(args, 1)?;
    let lo = req_i64s(ctx, "edge_padding_low")?;
    let hi = req_i64s(ctx, "edge_padding_high")?;
    let interior = opt_i64s(ctx, "interior_padding")?.unwrap_or_else(|| vec![0; lo.len()]);
    pad_impl(ctx, operand, pv, &lo, &hi, &interior)
}

pub fn eval_dynamic_pad(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let pv = tensor_arg(args, 1)?;
    let lo = index_values(tensor_arg(args, 2)?)?;
    let hi = index_values(tensor_arg(args, 3)?)?;
    let interior = index_values(tensor_arg(args, 4)?)?;
    pad_impl(ctx, operand, pv, &lo, &hi, &interior)
}

pub fn eval_reverse(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let dims = req_i64s(ctx, "dimensions")?;
    let rank = operand.shape().len();
    let mut src = istrides(operand.shape());
    let mut base = 0isize;
    for d in dims_in(&dims, rank, "reverse")? {
        let n = operand.shape()[d] as isize;
        if src[d] > 0 && n > 0 {
            base += (n - 1) * src[d];
            src[d] = -src[d];
        }
    }
    let ty = refine_result_type(ctx, 0, operand.shape())?;
    let data = take(&operand.data, &strided_indices(&ushape(operand.shape()), &src, base));
    one(ty, data)
}

/// Values `0, 1, ...` along `dim` of `shape`, in the element type.
fn iota_data(shape: &[i64], dim: usize, elem: &ElementType) -> Result<Data, String> {
    let n = elem_count(shape)?;
    let st = strides(shape);
    let size = shape[dim].max(1) as usize;
    let vals = (0..n).map(|i| ((i / st[dim]) % size) as i64);
    Ok(match domain(elem)? {
        Domain::Bool => Data::Bool(vals.map(|v| v & 1 == 1).collect()),
        Domain::Int => Data::Int(vals.map(|v| wrap_int(elem, v as i128)).collect()),
        Domain::UInt => {
            let bits = elem.bits();
            let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
            Data::UInt(vals.map(|v| v as u64 & mask).collect())
        }
        Domain::Float => {
            let ft = elem.float_type().ok_or("float type expected")?;
            Data::Float(vals.map(|v| crate::tensor::round_to(ft, v as f64)).collect())
        }
        Domain::Complex => {
            let ft = elem.float_type().ok_or("complex type expected")?;
            Data::Complex(vals.map(|v| (crate::tensor::round_to(ft, v as f64), 0.0)).collect())
        }
    })
}

fn iota_impl(ctx: &OpCtx, shape: &[i64]) -> Result<Vec<RtValue>, String> {
    let ty = refine_result_type(ctx, 0, shape)?;
    let dim = req_int(ctx, "iota_dimension")?;
    let d = dims_in(&[dim], shape.len(), "iota")?[0];
    let data = iota_data(shape, d, &ty.elem)?;
    one(ty, data)
}

pub fn eval_iota(ctx: &mut OpCtx, _args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let ty = static_result_type(ctx, 0)?;
    iota_impl(ctx, &ty.shape)
}

pub fn eval_dynamic_iota(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let shape = index_values(tensor_arg(args, 0)?)?;
    iota_impl(ctx, &shape)
}

pub fn eval_get_dimension_size(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let dim = req_int(ctx, "dimension")?;
    let d = dims_in(&[dim], operand.shape().len(), "get_dimension_size")?[0];
    let ty = refine_result_type(ctx, 0, &[])?;
    let v = operand.shape()[d];
    let data = match domain(&ty.elem)? {
        Domain::UInt => Data::UInt(vec![v as u64]),
        _ => Data::Int(vec![wrap_int(&ty.elem, v as i128)]),
    };
    one(ty, data)
}

/// Sets the runtime size of a (bounded) dimension: the result holds the first `size` elements along it.
pub fn eval_set_dimension_size(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let operand = tensor_arg(args, 0)?;
    let size = scalar_index(tensor_arg(args, 1)?)?;
    let dim = req_int(ctx, "dimension")?;
    let rank = operand.shape().len();
    let d = dims_in(&[dim], rank, "set_dimension_size")?[0];
    let n = operand.shape()[d];
    if size < 0 || size > n {
        return Err(format!("size {size} is out of range for dimension {d} of size {n}"));
    }
    let mut limit = operand.shape().to_vec();
    limit[d] = size;
    slice_impl(ctx, operand, &vec![0; rank], &limit, &vec![1; rank])
}

pub fn eval_dynamic_gather(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    crate::ops::gather_scatter::eval_dynamic_gather(ctx, args)
}

pub fn eval_dynamic_conv(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    crate::ops::conv::eval_dynamic_conv(ctx, args)
}
