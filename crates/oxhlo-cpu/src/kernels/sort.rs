//! Native sort and chlo.top_k. Sort runs when the comparator is one `compare` of the first operand's two
//! block arguments (any direction and comparison type on real kinds); it uses the interpreter's own
//! bottom-up merge sort with the same comparisons, so results (stability, NaN and -0 placement, even for
//! comparators that are not strict weak orders) are identical, and permutes the other operands along.
//! When the comparator is a strict weak order (LT/GT on integers, or TOTALORDER/WEAKORDER floats) the
//! standard library's stable sort is used instead: stable sorts agree on such orders.
//! top_k orders by the element type's total order, largest first, ties by lower index. Complex keys and
//! other comparators return `None` for the interpreter.

use super::elems::{attr_int, count, elems, result_type, same_kind, strides, tensor_of, with_kind, NElem};
use super::region::{comparator_body, Comparator, Compare};
use super::{Attempt, KernelCtx};
use crate::tensor::{Buf, Kind, NTensor};
use oxhlo_interp::ops::sort::{float_total_key, merge_sort};
use oxhlo_ir::OpKind;
use std::convert::Infallible;

/// Runs the op natively when this family handles it.
pub fn try_run(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    match ctx.op.kind {
        OpKind::Sort => sort(ctx, args),
        OpKind::ChloTopK => top_k(ctx, args),
        _ => None,
    }
}

/// Elements below which a sort stays on the calling thread.
const PARALLEL_MIN: usize = 1 << 14;

/// Source offset of every output element: slices along `dim` sorted by the first operand's keys. Rows
/// of a last-dimension sort are split over up to `threads` workers.
fn sort_sources<T: Compare>(keys: &[T], dims: &[usize], dim: usize, cmp: Comparator, threads: usize) -> Vec<usize> {
    let st = strides(dims);
    let (len, stride) = (dims[dim], st[dim]);
    let mut src = vec![0usize; keys.len()];
    if keys.is_empty() {
        return src;
    }
    let outer = keys.len() / (len * stride);
    if stride == 1 && threads > 1 && outer > 1 && keys.len() >= PARALLEL_MIN {
        let per = outer.div_ceil(threads.min(outer)) * len;
        std::thread::scope(|sc| {
            for (k, chunk) in src.chunks_mut(per).enumerate() {
                sc.spawn(move || sort_slices(keys, chunk, k * per, len, 1, cmp));
            }
        });
    } else {
        sort_slices(keys, &mut src, 0, len, stride, cmp);
    }
    src
}

/// Sorts every slice (length `len`, element stride `stride`) of the region `first..first + out.len()`
/// of `keys` (a whole number of `len * stride` blocks), writing each output position's source offset.
fn sort_slices<T: Compare>(keys: &[T], out: &mut [usize], first: usize, len: usize, stride: usize, cmp: Comparator) {
    let fast = cmp.strict_weak::<T>();
    let mut slice: Vec<T> = Vec::with_capacity(len);
    let mut idx: Vec<usize> = Vec::with_capacity(len);
    let block = len * stride;
    for o in 0..out.len() / block.max(1) {
        for i in 0..stride {
            let s = o * block + i;
            slice.clear();
            slice.extend((0..len).map(|j| keys[first + s + j * stride]));
            idx.clear();
            idx.extend(0..len);
            if fast {
                idx.sort_by(|&a, &b| cmp.ordering(slice[a], slice[b]));
            } else {
                let sorted = merge_sort(&mut idx, |a, b| Ok::<bool, Infallible>(cmp.less(slice[a], slice[b])));
                let Ok(()) = sorted;
            }
            for (j, &from) in idx.iter().enumerate() {
                out[s + j * stride] = first + s + from * stride;
            }
        }
    }
}

fn permute(t: &NTensor, src: &[usize]) -> Option<Buf> {
    Some(with_kind!(t.kind(), T => {
        let v = elems::<T>(t)?;
        T::wrap(src.iter().map(|&i| v[i]).collect())
    }))
}

fn sort(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let first = *args.first()?;
    let dims = first.dims();
    let rank = dims.len() as i64;
    if args.iter().any(|t| t.ty.shape != first.ty.shape) || ctx.result_types.len() != args.len() {
        return None;
    }
    let mut tys = Vec::with_capacity(args.len());
    for (i, t) in args.iter().enumerate() {
        let ty = result_type(ctx, i)?;
        if !same_kind(&ty, t.kind()) || ty.shape != t.ty.shape {
            return None;
        }
        tys.push(ty);
    }
    if rank == 0 {
        return Some(Ok(args.iter().map(|t| (*t).clone()).collect()));
    }
    let mut dim = attr_int(ctx.op, "dimension").unwrap_or(-1);
    if dim < 0 {
        dim += rank;
    }
    let dim = usize::try_from(dim).ok().filter(|&d| d < dims.len())?;
    let cmp = comparator_body(ctx.func, ctx.op.regions.first()?, 2 * args.len(), &first.ty.elem)?;
    if args.iter().any(|t| t.len() != count(&t.dims()).unwrap_or(usize::MAX)) {
        return None;
    }
    let src = with_kind!(first.kind(), T => {
        if !<T as Compare>::NATIVE {
            return None;
        }
        sort_sources(elems::<T>(first)?, &dims, dim, cmp, ctx.threads)
    });
    let mut out = Vec::with_capacity(args.len());
    for (t, ty) in args.iter().zip(tys) {
        out.push(NTensor::new(ty, permute(t, &src)?));
    }
    Some(Ok(out))
}

/// A key ordered like the element type's total order (floats: -NaN < -inf < ... < -0 < +0 < ... < +NaN).
trait TotalKey: NElem {
    fn key(self) -> i128;
}

macro_rules! int_key {
    ($($t:ty),*) => {$(
        impl TotalKey for $t {
            fn key(self) -> i128 { self as i128 }
        }
    )*};
}
int_key!(i8, i16, i32, i64, u8, u16, u32, u64);

impl TotalKey for bool {
    fn key(self) -> i128 {
        self as i128
    }
}

fn float_key(x: f64) -> i128 {
    float_total_key(x) as i128
}

impl TotalKey for f32 {
    fn key(self) -> i128 {
        float_key(self as f64)
    }
}
impl TotalKey for f64 {
    fn key(self) -> i128 {
        float_key(self)
    }
}
impl TotalKey for half::f16 {
    fn key(self) -> i128 {
        float_key(self.to_f64())
    }
}
impl TotalKey for half::bf16 {
    fn key(self) -> i128 {
        float_key(self.to_f64())
    }
}

/// Per row of `n`: the (value, position) of the `k` largest, largest first, ties by lower position.
fn top_rows<T: TotalKey>(x: &[T], n: usize, k: usize) -> (Vec<T>, Vec<i64>) {
    let rows = x.len().checked_div(n).unwrap_or(0);
    let mut vals = Vec::with_capacity(rows * k);
    let mut pos = Vec::with_capacity(rows * k);
    let mut keys: Vec<(i128, usize)> = Vec::with_capacity(n);
    let order = |a: &(i128, usize), b: &(i128, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
    for r in 0..rows {
        let row = &x[r * n..(r + 1) * n];
        keys.clear();
        keys.extend(row.iter().enumerate().map(|(j, v)| (v.key(), j)));
        if k < n && k > 0 {
            keys.select_nth_unstable_by(k - 1, order);
        }
        let top = &mut keys[..k];
        top.sort_unstable_by(order);
        for &(_, j) in top.iter() {
            vals.push(row[j]);
            pos.push(j as i64);
        }
    }
    (vals, pos)
}

fn top_k(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    let [x] = args else { return None };
    let k = usize::try_from(attr_int(ctx.op, "k")?).ok()?;
    let dims = x.dims();
    let n = *dims.last()?;
    if k > n || x.len() != count(&dims)? {
        return None;
    }
    let (vty, ity) = (result_type(ctx, 0)?, result_type(ctx, 1)?);
    let mut oshape = x.ty.shape.clone();
    if let Some(l) = oshape.last_mut() {
        *l = k as i64;
    }
    if !same_kind(&vty, x.kind()) || vty.shape != oshape || ity.shape != oshape || !ity.elem.is_integer() {
        return None;
    }
    let ikind = Kind::of(&ity.elem)?;
    macro_rules! go {
        ($T:ty) => {{
            let (v, p) = top_rows::<$T>(elems::<$T>(x)?, n, k);
            let idx = with_kind!(ikind, I => I::wrap(p.iter().map(|&q| I::from_i64(q)).collect()));
            Some(Ok(vec![tensor_of(vty, v), NTensor::new(ity, idx)]))
        }};
    }
    match x.kind() {
        Kind::Bool => go!(bool),
        Kind::I8 => go!(i8),
        Kind::I16 => go!(i16),
        Kind::I32 => go!(i32),
        Kind::I64 => go!(i64),
        Kind::U8 => go!(u8),
        Kind::U16 => go!(u16),
        Kind::U32 => go!(u32),
        Kind::U64 => go!(u64),
        Kind::F16 => go!(half::f16),
        Kind::BF16 => go!(half::bf16),
        Kind::F32 => go!(f32),
        Kind::F64 => go!(f64),
        Kind::C64 | Kind::C128 => None,
    }
}
