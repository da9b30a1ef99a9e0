//! Native data-movement kernels, generic over every native element kind (elements are moved by index
//! math only): transpose (tiled for 2-D transpositions), broadcast_in_dim / broadcast, slice (strided),
//! concatenate, pad (negative edges, interior), reverse, iota, dynamic_slice and dynamic_update_slice
//! (start indices clamped as the spec says), get_dimension_size, and the dynamic-shape forms
//! (dynamic_broadcast_in_dim, dynamic_iota, dynamic_reshape, real_dynamic_slice, dynamic_pad,
//! set_dimension_size) when their shape operands agree with the static result type. Any attribute the interpreter would
//! reject (or a result type that does not match) returns `None`, so the interpreter reports the error.

use super::elems::{
    attr_i64s, attr_int, count, elems, index_values, next_index, result_type, same_kind, strided_copy, strides,
    tensor_of, ushape, with_kind, NElem,
};
use super::{Attempt, KernelCtx};
use crate::tensor::NTensor;
use oxhlo_ir::{OpKind, TensorType};

/// Runs the op natively when this family handles it.
pub fn try_run(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    use OpKind as K;
    match ctx.op.kind {
        K::Transpose => transpose(ctx, args),
        K::BroadcastInDim => {
            let bdims = attr_i64s(ctx.op, "broadcast_dimensions")?;
            broadcast(ctx, args, &bdims)
        }
        K::Broadcast => {
            let sizes = attr_i64s(ctx.op, "broadcast_sizes")?;
            let rank = args.first()?.ty.shape.len();
            let bdims: Vec<i64> = (sizes.len()..sizes.len() + rank).map(|d| d as i64).collect();
            broadcast(ctx, args, &bdims)
        }
        K::Slice => slice(ctx, args),
        K::Concatenate => concatenate(ctx, args),
        K::Pad => pad(ctx, args),
        K::Reverse => reverse(ctx, args),
        K::Iota => iota(ctx),
        K::BitcastConvert => bitcast_convert(ctx, args),
        K::DynamicSlice => dynamic_slice(ctx, args),
        K::DynamicUpdateSlice => dynamic_update_slice(ctx, args),
        K::GetDimensionSize => get_dimension_size(ctx, args),
        K::DynamicBroadcastInDim => {
            shape_operand_matches(ctx, args.get(1)?)?;
            let bdims = attr_i64s(ctx.op, "broadcast_dimensions")?;
            broadcast(ctx, &args[..1], &bdims)
        }
        K::DynamicIota => {
            shape_operand_matches(ctx, args.first()?)?;
            iota(ctx)
        }
        K::DynamicReshape => {
            shape_operand_matches(ctx, args.get(1)?)?;
            let (x, ty) = unary(ctx, args)?;
            (ty.num_elements()? == x.len()).then(|| Ok(vec![x.retyped(ty)]))
        }
        K::RealDynamicSlice => {
            let (x, ty) = unary(ctx, args)?;
            let [start, limit, step] = [args.get(1)?, args.get(2)?, args.get(3)?].map(|t| index_values(t));
            strided_slice(x, ty, &start?, &limit?, &step?)
        }
        K::DynamicPad => {
            let [lo, hi, interior] = [args.get(2)?, args.get(3)?, args.get(4)?].map(|t| index_values(t));
            pad_with(ctx, args, lo?, hi?, interior?)
        }
        K::SetDimensionSize => {
            let (x, ty) = unary(ctx, args)?;
            let size = index_values(args.get(1)?).filter(|v| v.len() == 1)?[0];
            let dims: Vec<i64> = x.ty.shape.clone();
            let d = usize::try_from(attr_int(ctx.op, "dimension")?).ok().filter(|&d| d < dims.len())?;
            if size < 0 || size > dims[d] {
                return None;
            }
            let mut limit = dims.clone();
            limit[d] = size;
            strided_slice(x, ty, &vec![0; dims.len()], &limit, &vec![1; dims.len()])
        }
        _ => None,
    }
}

/// Some(()) when a shape operand holds exactly the (static) result shape.
fn shape_operand_matches(ctx: &KernelCtx, shape: &NTensor) -> Option<()> {
    let ty = result_type(ctx, 0)?;
    (index_values(shape)? == ty.shape).then_some(())
}

/// The single operand and the result type, when the result has the operand's kind.
fn unary<'a>(ctx: &KernelCtx, args: &[&'a NTensor]) -> Option<(&'a NTensor, TensorType)> {
    let x = *args.first()?;
    let ty = result_type(ctx, 0)?;
    same_kind(&ty, x.kind()).then_some((x, ty))
}

/// Result = a strided view of `x`, when `shape` is the result type's shape.
fn view(x: &NTensor, ty: TensorType, shape: &[usize], st: &[isize], base: isize) -> Attempt {
    if ushape(&ty.shape)? != shape {
        return None;
    }
    Some(with_kind!(x.kind(), T => {
        let src = elems::<T>(x)?;
        strided_copy(src, shape, st, base).map(|v| vec![tensor_of(ty, v)])
    }))
}

fn istrides(shape: &[usize]) -> Vec<isize> {
    strides(shape).into_iter().map(|s| s as isize).collect()
}

fn transpose(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let (x, ty) = unary(ctx, args)?;
    let perm = attr_i64s(ctx.op, "permutation")?;
    let dims = x.dims();
    let rank = dims.len();
    let mut seen = vec![false; rank];
    if perm.len() != rank {
        return None;
    }
    for &p in &perm {
        let p = usize::try_from(p).ok().filter(|&p| p < rank)?;
        if std::mem::replace(&mut seen[p], true) {
            return None;
        }
    }
    let ost = istrides(&dims);
    let shape: Vec<usize> = perm.iter().map(|&p| dims[p as usize]).collect();
    let st: Vec<isize> = perm.iter().map(|&p| ost[p as usize]).collect();
    view(x, ty, &shape, &st, 0)
}

fn broadcast(ctx: &KernelCtx, args: &[&NTensor], bdims: &[i64]) -> Attempt {
    let (x, ty) = unary(ctx, args)?;
    let out = ushape(&ty.shape)?;
    let dims = x.dims();
    if bdims.len() != dims.len() {
        return None;
    }
    let ost = istrides(&dims);
    let mut st = vec![0isize; out.len()];
    let mut used = vec![false; out.len()];
    for (i, &d) in bdims.iter().enumerate() {
        let d = usize::try_from(d).ok().filter(|&d| d < out.len())?;
        if std::mem::replace(&mut used[d], true) || (dims[i] != 1 && dims[i] != out[d]) {
            return None;
        }
        if dims[i] != 1 {
            st[d] = ost[i];
        }
    }
    view(x, ty, &out, &st, 0)
}

fn slice(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let (x, ty) = unary(ctx, args)?;
    let start = attr_i64s(ctx.op, "start_indices")?;
    let limit = attr_i64s(ctx.op, "limit_indices")?;
    let step = attr_i64s(ctx.op, "strides").unwrap_or_else(|| vec![1; start.len()]);
    strided_slice(x, ty, &start, &limit, &step)
}

/// The interpreter's checked strided slice.
fn strided_slice(x: &NTensor, ty: TensorType, start: &[i64], limit: &[i64], step: &[i64]) -> Attempt {
    let dims = x.dims();
    let rank = dims.len();
    if start.len() != rank || limit.len() != rank || step.len() != rank {
        return None;
    }
    let ost = istrides(&dims);
    let (mut shape, mut st, mut base) = (Vec::with_capacity(rank), Vec::with_capacity(rank), 0isize);
    for d in 0..rank {
        let (s, l, k, n) = (start[d], limit[d], step[d], dims[d] as i64);
        if s < 0 || l > n || s > l || k <= 0 {
            return None;
        }
        shape.push(((l - s) as u64).div_ceil(k as u64) as usize);
        st.push(ost[d].checked_mul(isize::try_from(k).ok()?)?);
        base += ost[d] * s as isize;
    }
    view(x, ty, &shape, &st, base)
}

fn concatenate(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let first = *args.first()?;
    let ty = result_type(ctx, 0)?;
    let kind = first.kind();
    if !same_kind(&ty, kind) {
        return None;
    }
    let fd = first.dims();
    let d = usize::try_from(attr_int(ctx.op, "dimension")?).ok().filter(|&d| d < fd.len())?;
    let mut shape = fd.clone();
    shape[d] = 0;
    for t in args {
        let td = t.dims();
        if t.kind() != kind || td.len() != fd.len() || td.iter().zip(&fd).enumerate().any(|(k, (a, b))| k != d && a != b) {
            return None;
        }
        shape[d] += td[d];
    }
    if ushape(&ty.shape)? != shape {
        return None;
    }
    let outer = count(&shape[..d])?;
    let inner = count(&shape[d + 1..])?;
    let n = count(&shape)?;
    Some(with_kind!(kind, T => {
        let parts: Vec<&[T]> = args.iter().map(|t| elems::<T>(t)).collect::<Option<_>>()?;
        let mut out: Vec<T> = Vec::with_capacity(n);
        for o in 0..outer {
            for (p, t) in parts.iter().zip(args) {
                let chunk = t.dims()[d] * inner;
                match p.get(o * chunk..(o + 1) * chunk) {
                    Some(s) => out.extend_from_slice(s),
                    None => return Some(Err("concatenate: operand smaller than its type".into())),
                }
            }
        }
        Ok(vec![tensor_of(ty, out)])
    }))
}

fn pad(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let lo = attr_i64s(ctx.op, "edge_padding_low")?;
    let hi = attr_i64s(ctx.op, "edge_padding_high")?;
    let interior = attr_i64s(ctx.op, "interior_padding").unwrap_or_else(|| vec![0; lo.len()]);
    pad_with(ctx, args, lo, hi, interior)
}

fn pad_with(ctx: &KernelCtx, args: &[&NTensor], lo: Vec<i64>, hi: Vec<i64>, interior: Vec<i64>) -> Attempt {
    let (x, ty) = unary(ctx, args)?;
    let pv = *args.get(1)?;
    if pv.kind() != x.kind() || pv.len() != 1 {
        return None;
    }
    let dims = x.dims();
    let rank = dims.len();
    if lo.len() != rank || hi.len() != rank || interior.len() != rank {
        return None;
    }
    let mut shape = Vec::with_capacity(rank);
    for d in 0..rank {
        let n = dims[d] as i64;
        if interior[d] < 0 {
            return None;
        }
        let size = lo[d].checked_add(hi[d])?.checked_add(n)?.checked_add((n - 1).max(0).checked_mul(interior[d])?)?;
        shape.push(usize::try_from(size).ok()?);
    }
    if ushape(&ty.shape)? != shape || x.len() != count(&dims)? {
        return None;
    }
    let n_out = count(&shape)?;
    Some(with_kind!(x.kind(), T => {
        let src = elems::<T>(x)?;
        let fill = *elems::<T>(pv)?.first()?;
        let mut out = vec![fill; n_out];
        pad_into(&mut out, src, &dims, &shape, &lo, &interior);
        Ok(vec![tensor_of(ty, out)])
    }))
}

/// Writes the operand rows into the padded output (rows whose outer position falls outside are skipped;
/// inside a row, positions outside are skipped, contiguous runs copied as slices).
fn pad_into<T: NElem>(out: &mut [T], src: &[T], dims: &[usize], shape: &[usize], lo: &[i64], interior: &[i64]) {
    let rank = dims.len();
    if src.is_empty() || out.is_empty() {
        return;
    }
    if rank == 0 {
        out[0] = src[0];
        return;
    }
    let ost = strides(shape);
    let last = rank - 1;
    // In i128: edge and interior padding may be anywhere in i64.
    let (n, size, l, step) = (dims[last] as i128, shape[last] as i128, lo[last] as i128, interior[last] as i128 + 1);
    let outer = &dims[..last];
    let mut idx = vec![0usize; last];
    let mut row = 0usize;
    loop {
        let mut pos = 0usize;
        let mut inside = true;
        for d in 0..last {
            let p = lo[d] as i128 + idx[d] as i128 * (interior[d] as i128 + 1);
            if p < 0 || p >= shape[d] as i128 {
                inside = false;
                break;
            }
            pos += p as usize * ost[d];
        }
        if inside {
            let s = &src[row * n as usize..(row + 1) * n as usize];
            if step == 1 {
                let j0 = (-l).clamp(0, n);
                let j1 = (size - l).clamp(j0, n);
                if j1 > j0 {
                    let o = pos + (l + j0) as usize;
                    out[o..o + (j1 - j0) as usize].copy_from_slice(&s[j0 as usize..j1 as usize]);
                }
            } else {
                for (j, &v) in s.iter().enumerate() {
                    let p = l + j as i128 * step;
                    if p >= 0 && p < size {
                        out[pos + p as usize] = v;
                    }
                }
            }
        }
        row += 1;
        if !next_index(&mut idx, outer) {
            return;
        }
    }
}

fn reverse(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let (x, ty) = unary(ctx, args)?;
    let rdims = attr_i64s(ctx.op, "dimensions")?;
    let dims = x.dims();
    let mut st = istrides(&dims);
    let mut base = 0isize;
    let mut seen = vec![false; dims.len()];
    for &d in &rdims {
        let d = usize::try_from(d).ok().filter(|&d| d < dims.len())?;
        // A repeated dimension is reversed once, as the interpreter does.
        if std::mem::replace(&mut seen[d], true) {
            continue;
        }
        if st[d] > 0 && dims[d] > 0 {
            base += (dims[d] as isize - 1) * st[d];
            st[d] = -st[d];
        }
    }
    view(x, ty, &dims, &st, base)
}

/// Iotas of at least this many elements are written by all threads.
const PAR_IOTA_MIN: usize = 1 << 20;

fn iota(ctx: &KernelCtx) -> Attempt {
    let ty = result_type(ctx, 0)?;
    let kind = crate::tensor::Kind::of(&ty.elem)?;
    let shape = ushape(&ty.shape)?;
    let d = usize::try_from(attr_int(ctx.op, "iota_dimension")?).ok().filter(|&d| d < shape.len())?;
    let n = count(&shape)?;
    let inner = count(&shape[d + 1..])?;
    let size = shape[d];
    Some(with_kind!(kind, T => {
        let mut out: Vec<T> = Vec::with_capacity(n);
        if n >= PAR_IOTA_MIN && size > 0 && ctx.threads > 1 {
            // Big iotas (`jax.random`'s counters: two [4096, 4096] u64) are written by every thread, each
            // element from its index.
            use rayon::prelude::*;
            let per = n.div_ceil(ctx.threads * 4).max(1);
            out.spare_capacity_mut()[..n].par_chunks_mut(per).enumerate().for_each(|(c, part)| {
                let first = c * per;
                let (mut v, mut within) = ((first / inner) % size, first % inner);
                for slot in part.iter_mut() {
                    slot.write(T::from_i64(v as i64));
                    within += 1;
                    if within == inner {
                        within = 0;
                        v = if v + 1 == size { 0 } else { v + 1 };
                    }
                }
            });
            // SAFETY: the parallel loop above wrote every one of the first `n` elements.
            unsafe { out.set_len(n) };
        } else if n > 0 && n == size {
            // A 1-D count: the values are the result.
            out.extend((0..size).map(|i| T::from_i64(i as i64)));
        } else if n > 0 {
            let vals: Vec<T> = (0..size).map(|i| T::from_i64(i as i64)).collect();
            let outer = n / (size * inner);
            if inner == 1 {
                for _ in 0..outer {
                    out.extend_from_slice(&vals);
                }
            } else {
                for _ in 0..outer {
                    for &v in &vals {
                        out.extend(std::iter::repeat_n(v, inner));
                    }
                }
            }
        }
        Ok(vec![tensor_of(ty, out)])
    }))
}

/// `bitcast_convert` between native element types: the operand's little-endian bytes read as the result
/// type (row-major, so a narrower result's trailing dimension walks each element's bytes from the lowest,
/// as the interpreter and XLA lay them out). Bool on either side is left to the interpreter.
fn bitcast_convert(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let (x, ty) = (*args.first()?, result_type(ctx, 0)?);
    let kind = crate::tensor::Kind::of(&ty.elem)?;
    if kind == crate::tensor::Kind::Bool || x.kind() == crate::tensor::Kind::Bool {
        return None;
    }
    if let Some(b) = same_width_bits(&x.buf, kind) {
        return (b.len() == ty.num_elements()?).then(|| Ok(vec![NTensor::new(ty, b)]));
    }
    let bytes = x.buf.as_le_bytes();
    if ty.num_elements()?.checked_mul(kind.size())? != bytes.len() {
        return None;
    }
    Some(crate::tensor::Buf::from_le_bytes(kind, bytes).map(|b| vec![NTensor::new(ty, b)]))
}

/// `x`'s bits as elements of `kind` when both are 32-bit or both 64-bit (one pass, no byte copies: the
/// 64 MiB `bitcast_convert` of every `jax.random` f32 draw of [4096, 4096] took 16 ms through bytes).
fn same_width_bits(x: &crate::tensor::Buf, kind: crate::tensor::Kind) -> Option<crate::tensor::Buf> {
    use crate::tensor::{Buf, Kind};
    macro_rules! each {
        ($v:expr, $to:ident, $f:expr) => {
            Buf::$to($v.iter().map($f).collect())
        };
    }
    Some(match (x, kind) {
        (Buf::U32(v), Kind::F32) => each!(v, F32, |&e| f32::from_bits(e)),
        (Buf::I32(v), Kind::F32) => each!(v, F32, |&e| f32::from_bits(e as u32)),
        (Buf::F32(v), Kind::U32) => each!(v, U32, |e| e.to_bits()),
        (Buf::F32(v), Kind::I32) => each!(v, I32, |e| e.to_bits() as i32),
        (Buf::U32(v), Kind::I32) => each!(v, I32, |&e| e as i32),
        (Buf::I32(v), Kind::U32) => each!(v, U32, |&e| e as u32),
        (Buf::U64(v), Kind::F64) => each!(v, F64, |&e| f64::from_bits(e)),
        (Buf::I64(v), Kind::F64) => each!(v, F64, |&e| f64::from_bits(e as u64)),
        (Buf::F64(v), Kind::U64) => each!(v, U64, |e| e.to_bits()),
        (Buf::F64(v), Kind::I64) => each!(v, I64, |e| e.to_bits() as i64),
        (Buf::U64(v), Kind::I64) => each!(v, I64, |&e| e as i64),
        (Buf::I64(v), Kind::U64) => each!(v, U64, |&e| e as u64),
        _ => return None,
    })
}

/// Start indices given as scalar operands from `first` on (or one 1-D tensor, as older programs write them).
fn start_operands(args: &[&NTensor], first: usize, rank: usize) -> Option<Vec<i64>> {
    if args.len() == first + 1 && rank != 0 {
        let t = args[first];
        if t.ty.shape.len() == 1 {
            let v = index_values(t)?;
            if v.len() == rank {
                return Some(v);
            }
        }
    }
    if args.len() != first + rank {
        return None;
    }
    args[first..]
        .iter()
        .map(|t| {
            let v = index_values(t)?;
            (t.ty.shape.is_empty() && v.len() == 1).then(|| v[0])
        })
        .collect()
}

fn dynamic_slice(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let (x, ty) = unary(ctx, args)?;
    let dims = x.dims();
    let rank = dims.len();
    let sizes = attr_i64s(ctx.op, "slice_sizes")?;
    if sizes.len() != rank {
        return None;
    }
    let starts = start_operands(args, 1, rank)?;
    let ost = istrides(&dims);
    let (mut shape, mut base) = (Vec::with_capacity(rank), 0isize);
    for d in 0..rank {
        let n = dims[d] as i64;
        if sizes[d] < 0 || sizes[d] > n {
            return None;
        }
        base += starts[d].clamp(0, n - sizes[d]) as isize * ost[d];
        shape.push(sizes[d] as usize);
    }
    view(x, ty, &shape, &ost, base)
}

fn dynamic_update_slice(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let (x, ty) = unary(ctx, args)?;
    let upd = *args.get(1)?;
    let dims = x.dims();
    let udims = upd.dims();
    let rank = dims.len();
    if upd.kind() != x.kind() || udims.len() != rank || ushape(&ty.shape)? != dims {
        return None;
    }
    let starts = start_operands(args, 2, rank)?;
    let mut start = Vec::with_capacity(rank);
    for d in 0..rank {
        if udims[d] > dims[d] {
            return None;
        }
        start.push(starts[d].clamp(0, (dims[d] - udims[d]) as i64) as usize);
    }
    let mut buf = (*x).clone().into_buf();
    Some(with_kind!(x.kind(), T => {
        let u = elems::<T>(upd)?;
        let dst = T::of_vec(&mut buf)?;
        if dst.len() != count(&dims)? || u.len() != count(&udims)? {
            return Some(Err("dynamic_update_slice: buffers do not match their types".into()));
        }
        update_rows(dst, &dims, u, &udims, &start);
        Ok(vec![NTensor::new(ty, buf)])
    }))
}

/// Copies `u` (shape `udims`) into `dst` (shape `dims`) at `start`, row by row. The caller guarantees
/// `start[d] + udims[d] <= dims[d]`.
fn update_rows<T: NElem>(dst: &mut [T], dims: &[usize], u: &[T], udims: &[usize], start: &[usize]) {
    if u.is_empty() {
        return;
    }
    let rank = dims.len();
    if rank == 0 {
        dst[0] = u[0];
        return;
    }
    let st = strides(dims);
    let last = rank - 1;
    let row = udims[last];
    let mut idx = vec![0usize; last];
    let mut r = 0usize;
    loop {
        let mut pos = start[last];
        for d in 0..last {
            pos += (start[d] + idx[d]) * st[d];
        }
        dst[pos..pos + row].copy_from_slice(&u[r * row..(r + 1) * row]);
        r += 1;
        if !next_index(&mut idx, &udims[..last]) {
            return;
        }
    }
}

fn get_dimension_size(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let x = *args.first()?;
    let ty = result_type(ctx, 0)?;
    let kind = crate::tensor::Kind::of(&ty.elem)?;
    let dims = x.dims();
    let d = usize::try_from(attr_int(ctx.op, "dimension")?).ok().filter(|&d| d < dims.len())?;
    if !ty.shape.is_empty() || !(ty.elem.is_integer()) {
        return None;
    }
    let v = dims[d] as i64;
    Some(with_kind!(kind, T => Ok(vec![tensor_of(ty, vec![T::from_i64(v)])])))
}
