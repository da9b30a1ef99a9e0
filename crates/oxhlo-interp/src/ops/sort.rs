//! sort (multi-operand, comparator region, along any dimension) and chlo.top_k.
//!
//! Sorting is a stable merge sort written here (it never panics on a comparator that is not a strict
//! weak order, unlike the standard library's, and stops at the first comparator error); `is_stable` is
//! accepted and the result is always the stable one. top_k orders by the total order of the element type
//! (floats: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN), largest first, ties by lower index.

use crate::ops::support::*;
use crate::ops::OpCtx;
use crate::tensor::{Data, RtValue, Tensor};

/// Stable bottom-up merge sort of `idx` by `less` (is the element at the first index less than the one at
/// the second?), which may fail: the first error stops the sort. It never panics, whatever `less` answers
/// (a comparator that is not a strict weak order still gives a permutation). The CPU backend's native
/// sort calls it too (with a comparator that cannot fail), so both order ties and odd comparators alike.
pub fn merge_sort<E>(idx: &mut Vec<usize>, mut less: impl FnMut(usize, usize) -> Result<bool, E>) -> Result<(), E> {
    let n = idx.len();
    let mut buf = vec![0usize; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                if less(idx[j], idx[i])? {
                    buf[k] = idx[j];
                    j += 1;
                } else {
                    buf[k] = idx[i];
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + mid - i].copy_from_slice(&idx[i..mid]);
            k += mid - i;
            buf[k..k + end - j].copy_from_slice(&idx[j..end]);
            start = end;
        }
        std::mem::swap(idx, &mut buf);
        width *= 2;
    }
    Ok(())
}

/// Offsets of every 1-D slice along `dim`: (start offsets, slice length, stride).
fn slices(shape: &[i64], dim: usize) -> (Vec<usize>, usize, usize) {
    let st = crate::tensor::strides(shape);
    let mut outer = ushape(shape);
    outer[dim] = 1;
    let src: Vec<isize> = st.iter().map(|&s| s as isize).collect();
    (strided_indices(&outer, &src, 0), shape[dim].max(0) as usize, st[dim])
}

pub fn eval_sort(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    if args.is_empty() {
        return Err("sort needs at least one input".into());
    }
    let inputs: Vec<&Tensor> = (0..args.len()).map(|i| tensor_arg(args, i)).collect::<Result<_, _>>()?;
    let shape = inputs[0].shape().to_vec();
    if inputs.iter().any(|t| t.shape() != shape.as_slice()) {
        return Err("sort inputs must have one shape".into());
    }
    let rank = shape.len() as i64;
    let mut dim = opt_int(ctx, "dimension")?.unwrap_or(-1);
    if dim < 0 {
        dim += rank;
    }
    if rank == 0 {
        return Ok(inputs.iter().map(|t| RtValue::Tensor((*t).clone())).collect());
    }
    let dim = dims_in(&[dim], shape.len(), "sort")?[0];
    let region = ctx.op.regions.first().ok_or("sort needs a comparator region")?;
    let (starts, len, stride) = slices(&shape, dim);
    let mut perm = Vec::with_capacity(inputs[0].len());
    let mut cargs: Vec<RtValue> = Vec::with_capacity(2 * inputs.len());
    for &s in &starts {
        let mut idx: Vec<usize> = (0..len).map(|i| s + i * stride).collect();
        let regions = &mut *ctx.regions;
        let mut less = |a: usize, b: usize| -> Result<bool, String> {
            cargs.clear();
            for t in &inputs {
                cargs.push(scalar_value(t, a));
                cargs.push(scalar_value(t, b));
            }
            let out = regions.call_region(region, &cargs)?;
            match out.first().map(|v| region_scalar(v, "comparator")) {
                Some(Ok(Data::Bool(b))) if out.len() == 1 => Ok(b[0]),
                _ => Err("sort comparator must return one i1 value".into()),
            }
        };
        merge_sort(&mut idx, &mut less)?;
        perm.push(idx);
    }
    // Scatter each sorted slice back to its positions.
    let mut src = vec![0usize; inputs[0].len()];
    for (&s, p) in starts.iter().zip(&perm) {
        for (i, &from) in p.iter().enumerate() {
            src[s + i * stride] = from;
        }
    }
    let mut out = Vec::with_capacity(inputs.len());
    for (i, t) in inputs.iter().enumerate() {
        let ty = refine_result_type(ctx, i, &shape)?;
        out.push(tv(ty, take(&t.data, &src)));
    }
    Ok(out)
}

/// An integer whose order is the total order of floats (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN):
/// the bits, with negative values' magnitude bits flipped.
#[inline]
pub fn float_total_key(x: f64) -> i64 {
    let b = x.to_bits() as i64;
    if b < 0 {
        b ^ i64::MAX
    } else {
        b
    }
}

/// A key ordered like the element type's total order.
fn total_key(d: &Data, i: usize) -> Result<(i128, u64), String> {
    Ok(match d {
        Data::Bool(v) => (v[i] as i128, 0),
        Data::Int(v) => (v[i] as i128, 0),
        Data::UInt(v) => (v[i] as i128, 0),
        Data::Float(v) => (float_total_key(v[i]) as i128, 0),
        Data::Complex(_) => return Err("top_k does not order complex values".into()),
    })
}

pub fn eval_top_k(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let x = tensor_arg(args, 0)?;
    let k = req_int(ctx, "k")?;
    let shape = x.shape().to_vec();
    let rank = shape.len();
    if rank == 0 {
        return Err("top_k needs an operand of rank >= 1".into());
    }
    let n = shape[rank - 1];
    if k < 0 || k > n {
        return Err(format!("k = {k} out of range for a last dimension of size {n}"));
    }
    let mut oshape = shape.clone();
    oshape[rank - 1] = k;
    let vty = refine_result_type(ctx, 0, &oshape)?;
    let ity = refine_result_type(ctx, 1, &oshape)?;
    let (n, k) = (n as usize, k as usize);
    let rows = match x.len().checked_div(n) {
        Some(r) => r,
        None => elem_count(&shape[..rank - 1])?,
    };
    let mut src = Vec::with_capacity(rows * k);
    let mut pos: Vec<i64> = Vec::with_capacity(rows * k);
    let mut keys = Vec::with_capacity(n);
    for r in 0..rows {
        keys.clear();
        for j in 0..n {
            keys.push((total_key(&x.data, r * n + j)?, j));
        }
        // Descending by key, ascending by index on ties (stable).
        keys.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for &(_, j) in keys.iter().take(k) {
            src.push(r * n + j);
            pos.push(j as i64);
        }
    }
    let idata = match domain(&ity.elem)? {
        Domain::Int => Data::Int(pos.iter().map(|&p| crate::tensor::wrap_int(&ity.elem, p as i128)).collect()),
        Domain::UInt => Data::UInt(pos.iter().map(|&p| p as u64).collect()),
        _ => return Err("top_k indices must have an integer type".into()),
    };
    Ok(vec![tv(vty, take(&x.data, &src)), tv(ity, idata)])
}
