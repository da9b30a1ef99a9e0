//! Native `stablehlo.reduce` for single-operand reductions whose body is a recognized binary op
//! ([`oxhlo_plan::reducer::reducer_kind`]: add, multiply, maximum, minimum, and, or) on native real
//! element types, over any one contiguous block of reduced dimensions: the shape is viewed as
//! (outer, reduced, inner). Row reductions (inner = 1) use 16 independent accumulators per 4096-element
//! block (vectorizable, and the blocks keep float sums accurate); column reductions (inner > 1) add
//! whole rows into an accumulator row. Work is split over threads by outer index, by inner range, or
//! (for a few long rows) by parts of each row combined at the end.
//!
//! Float add/multiply reassociate (as XLA does), so sums may differ from the interpreter's sequential
//! fold by rounding; f16/bf16 accumulate in f32 and round once. max/min follow IEEE `maximum`/`minimum`
//! (NaN propagates); integers wrap. The init value is combined once with each result. Reductions over
//! several separate blocks of dimensions, several operands or other bodies return None (interpreter).

use super::fastmath as fm;
use super::{Attempt, KernelCtx};
use crate::tensor::{Buf, NTensor};
use half::{bf16, f16};
use oxhlo_interp::ops::elementwise_float::{fmax, fmin};
use oxhlo_ir::OpKind;
use oxhlo_plan::reducer::{reducer_kind, ReduceKind as RK};

/// Elements of one accumulation block of a row.
const BLOCK: usize = 4096;
/// Accumulators per row block (64 f32: four AVX-512 registers, so that four independent add chains
/// hide the add latency; with one register a 4096^2 row sum took 3.5 ms instead of 1.4-1.6 here).
const LANES: usize = 64;
/// Below this many input elements a reduction runs on one thread.
const PAR_MIN: usize = 1 << 16;
/// How far ahead (bytes) a row's accumulation prefetches: the full 64 MiB sum 1.39-1.61 -> 1.28-1.34 ms
/// here (the hardware's prefetchers alone left the loads waiting).
const PREFETCH_BYTES: usize = 8192;

/// Runs `stablehlo.reduce` natively when it is a recognized single-operand reduction.
pub fn try_run(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    if ctx.op.kind != OpKind::Reduce || args.len() != 2 || ctx.result_types.len() != 1 {
        return None;
    }
    let kind = reducer_kind(ctx.func, ctx.op.regions.first()?)?;
    let (x, init) = (args[0], args[1]);
    if init.len() != 1 || init.kind() != x.kind() {
        return None;
    }
    let rt = ctx.result_types[0];
    if crate::tensor::Kind::of(&rt.elem)? != x.kind() {
        return None;
    }
    let dims = x.dims();
    let mut red = ctx.op.attr("dimensions")?.as_i64_list()?;
    red.sort_unstable();
    if red.windows(2).any(|w| w[0] == w[1]) || red.iter().any(|&d| d < 0 || d as usize >= dims.len()) {
        return None;
    }
    let (outer, n, inner) = match (red.first(), red.last()) {
        (Some(&a), Some(&b)) => {
            let (a, b) = (a as usize, b as usize);
            if b - a + 1 != red.len() {
                return None;
            }
            (dims[..a].iter().product(), dims[a..=b].iter().product(), dims[b + 1..].iter().product())
        }
        _ => (dims.iter().product::<usize>(), 1, 1),
    };
    let out_len = outer * inner;
    if rt.num_elements() != Some(out_len) {
        return None;
    }
    let shape = Shape { outer, n, inner, threads: ctx.threads.max(1) };
    let buf = reduce_buf(kind, &x.buf, &init.buf, shape)?;
    let mut ty = rt.clone();
    ty.encoding = None;
    Some(Ok(vec![NTensor::new(ty, buf)]))
}

/// The (outer, reduced, inner) view of a reduction and the threads it may use.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub outer: usize,
    pub n: usize,
    pub inner: usize,
    pub threads: usize,
}

/// Reduces `x` (viewed as `shape`) with `kind`, combining `init` once into every result.
pub fn reduce_buf(kind: RK, x: &Buf, init: &Buf, s: Shape) -> Option<Buf> {
    macro_rules! ints {
        ($v:expr, $i:expr, $c:ident, $t:ty) => {{
            let init = *$i.first()?;
            let r = match kind {
                RK::Add => run(s, $v, init, |x| x, |x| x, |a: $t, b| a.wrapping_add(b), 0),
                RK::Mul => run(s, $v, init, |x| x, |x| x, |a: $t, b| a.wrapping_mul(b), 1),
                RK::Max => run(s, $v, init, |x| x, |x| x, |a: $t, b| a.max(b), <$t>::MIN),
                RK::Min => run(s, $v, init, |x| x, |x| x, |a: $t, b| a.min(b), <$t>::MAX),
                RK::And => run(s, $v, init, |x| x, |x| x, |a: $t, b| a & b, !0),
                RK::Or => run(s, $v, init, |x| x, |x| x, |a: $t, b| a | b, 0),
            };
            Buf::$c(r)
        }};
    }
    macro_rules! floats {
        ($v:expr, $i:expr, $c:ident, $conv:expr, $back:expr, $mx:expr, $mn:expr) => {{
            let init = *$i.first()?;
            let r = match kind {
                RK::Add => run(s, $v, init, $conv, $back, |a, b| a + b, -0.0),
                RK::Mul => run(s, $v, init, $conv, $back, |a, b| a * b, 1.0),
                RK::Max => run(s, $v, init, $conv, $back, $mx, f32::NEG_INFINITY.into()),
                RK::Min => run(s, $v, init, $conv, $back, $mn, f32::INFINITY.into()),
                RK::And | RK::Or => return None,
            };
            Buf::$c(r)
        }};
    }
    Some(match (x, init) {
        (Buf::F32(v), Buf::F32(i)) => floats!(v, i, F32, |x: f32| x, |x: f32| x, fm::max, fm::min),
        (Buf::F64(v), Buf::F64(i)) => floats!(v, i, F64, |x: f64| x, |x: f64| x, fmax, fmin),
        (Buf::F16(v), Buf::F16(i)) => floats!(v, i, F16, |x: f16| x.to_f32(), f16::from_f32, fm::max, fm::min),
        (Buf::BF16(v), Buf::BF16(i)) => floats!(v, i, BF16, |x: bf16| x.to_f32(), bf16::from_f32, fm::max, fm::min),
        (Buf::I8(v), Buf::I8(i)) => ints!(v, i, I8, i8),
        (Buf::I16(v), Buf::I16(i)) => ints!(v, i, I16, i16),
        (Buf::I32(v), Buf::I32(i)) => ints!(v, i, I32, i32),
        (Buf::I64(v), Buf::I64(i)) => ints!(v, i, I64, i64),
        (Buf::U8(v), Buf::U8(i)) => ints!(v, i, U8, u8),
        (Buf::U16(v), Buf::U16(i)) => ints!(v, i, U16, u16),
        (Buf::U32(v), Buf::U32(i)) => ints!(v, i, U32, u32),
        (Buf::U64(v), Buf::U64(i)) => ints!(v, i, U64, u64),
        (Buf::Bool(v), Buf::Bool(i)) => {
            let init = *i.first()?;
            let r = match kind {
                RK::Add | RK::Or | RK::Max => run(s, v, init, |x| x, |x| x, |a: bool, b| a | b, false),
                RK::Mul | RK::And | RK::Min => run(s, v, init, |x| x, |x| x, |a: bool, b| a & b, true),
            };
            Buf::Bool(r)
        }
        _ => return None,
    })
}

/// Reduces and applies `init` (converted to the accumulator type), converting results back.
#[allow(clippy::too_many_arguments)]
fn run<T, A>(
    s: Shape,
    x: &[T],
    init: T,
    conv: impl Fn(T) -> A + Copy + Send + Sync,
    back: impl Fn(A) -> T,
    op: impl Fn(A, A) -> A + Copy + Send + Sync,
    ident: A,
) -> Vec<T>
where
    T: Copy + Send + Sync,
    A: Copy + Send + Sync,
{
    let acc = reduce_core(s, x, conv, op, ident);
    let i = conv(init);
    acc.into_iter().map(|a| back(op(i, a))).collect()
}

/// Accumulates one row (contiguous: the first `n` elements of `r`) in blocks of [`BLOCK`] with
/// [`LANES`] accumulators each, in AVX-512 code where the processor has it (a row maximum's selects cost
/// ~15 SSE instructions per four elements; `OXHLO_AVX512=0` keeps the portable code). The elements of `r`
/// after the row (the next rows) are only prefetched.
#[inline(always)]
fn row<T: Copy, A: Copy>(r: &[T], n: usize, conv: impl Fn(T) -> A + Copy, op: impl Fn(A, A) -> A + Copy, ident: A) -> A {
    #[cfg(target_arch = "x86_64")]
    if super::elementwise::avx512() {
        // SAFETY: the processor supports these AVX-512 subsets, AVX2 and FMA (checked by `avx512`), the
        // only requirement of calling a `target_feature` function; the code is the portable one.
        return unsafe { row_avx512(r, n, conv, op, ident) };
    }
    row_portable(r, n, conv, op, ident)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma")]
fn row_avx512<T: Copy, A: Copy>(r: &[T], n: usize, conv: impl Fn(T) -> A + Copy, op: impl Fn(A, A) -> A + Copy, ident: A) -> A {
    row_portable(r, n, conv, op, ident)
}

#[inline(always)]
fn row_portable<T: Copy, A: Copy>(r: &[T], n: usize, conv: impl Fn(T) -> A + Copy, op: impl Fn(A, A) -> A + Copy, ident: A) -> A {
    let (r, ahead_of) = (&r[..n.min(r.len())], r);
    let mut total = ident;
    // Elements ahead of the ones being summed that are prefetched (0: off).
    let ahead = if super::elementwise::prefetch_on() { PREFETCH_BYTES / std::mem::size_of::<T>().max(1) } else { 0 };
    for (bi, blk) in r.chunks(BLOCK).enumerate() {
        let mut acc = [ident; LANES];
        let mut it = blk.chunks_exact(LANES);
        let mut at = bi * BLOCK;
        for c in &mut it {
            if ahead > 0 {
                if let Some(next) = ahead_of.get(at + ahead..at + ahead + LANES) {
                    super::elementwise::prefetch(next);
                }
            }
            at += LANES;
            for j in 0..LANES {
                acc[j] = op(acc[j], conv(c[j]));
            }
        }
        let mut w = LANES;
        while w > 1 {
            w /= 2;
            for j in 0..w {
                acc[j] = op(acc[j], acc[j + w]);
            }
        }
        let mut s = acc[0];
        for &x in it.remainder() {
            s = op(s, conv(x));
        }
        total = op(total, s);
    }
    total
}

/// Column-reduction work: rows `0..n` of `inner` elements each from `x`, columns `cols` of them folded
/// into `acc`.
struct ColumnJob<'a, T, A> {
    x: &'a [T],
    n: usize,
    inner: usize,
    cols: std::ops::Range<usize>,
    acc: &'a mut [A],
}

/// Folds a [`ColumnJob`]'s rows into its accumulators (AVX-512 code where the processor has it, as
/// [`row`]).
#[inline(always)]
fn columns<T: Copy, A: Copy>(job: ColumnJob<'_, T, A>, conv: impl Fn(T) -> A + Copy, op: impl Fn(A, A) -> A + Copy) {
    #[cfg(target_arch = "x86_64")]
    if super::elementwise::avx512() {
        // SAFETY: as in `row`: the features were checked; the code is the portable one.
        return unsafe { columns_avx512(job, conv, op) };
    }
    columns_portable(job, conv, op)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma")]
fn columns_avx512<T: Copy, A: Copy>(job: ColumnJob<'_, T, A>, conv: impl Fn(T) -> A + Copy, op: impl Fn(A, A) -> A + Copy) {
    columns_portable(job, conv, op)
}

#[inline(always)]
fn columns_portable<T: Copy, A: Copy>(job: ColumnJob<'_, T, A>, conv: impl Fn(T) -> A + Copy, op: impl Fn(A, A) -> A + Copy) {
    let ColumnJob { x, n, inner, cols, acc } = job;
    for r in 0..n {
        let row = &x[r * inner + cols.start..r * inner + cols.end];
        for (a, &v) in acc.iter_mut().zip(row) {
            *a = op(*a, conv(v));
        }
    }
}

/// Runs `f` on `parts` index ranges of `0..total` on up to `threads` threads; results concatenated.
fn par<A: Send>(total: usize, threads: usize, f: impl Fn(std::ops::Range<usize>) -> Vec<A> + Sync) -> Vec<A> {
    let t = threads.clamp(1, total.max(1));
    if t == 1 {
        return f(0..total);
    }
    let per = total.div_ceil(t);
    let f = &f;
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..t)
            .map(|k| {
                let r = (k * per).min(total)..((k + 1) * per).min(total);
                s.spawn(move || f(r))
            })
            .collect();
        let mut out = Vec::with_capacity(total);
        for h in hs {
            // A worker only panics on an internal bug; its part is then recomputed here.
            match h.join() {
                Ok(v) => out.extend(v),
                Err(_) => return f(0..total),
            }
        }
        out
    })
}

/// The (outer x inner) accumulators of a reduction, without the init value.
fn reduce_core<T, A>(
    s: Shape,
    x: &[T],
    conv: impl Fn(T) -> A + Copy + Send + Sync,
    op: impl Fn(A, A) -> A + Copy + Send + Sync,
    ident: A,
) -> Vec<A>
where
    T: Copy + Send + Sync,
    A: Copy + Send + Sync,
{
    let Shape { outer, n, inner, .. } = s;
    let threads = if x.len() >= PAR_MIN { s.threads } else { 1 };
    if outer * inner == 0 {
        return Vec::new();
    }
    if inner == 1 {
        if outer >= threads {
            return par(outer, threads, |rs| rs.map(|o| row(&x[o * n..], n, conv, op, ident)).collect());
        }
        // Few long rows: split each row into parts, then combine the parts in order.
        let parts = threads.min(n.div_ceil(BLOCK)).max(1);
        let per = n.div_ceil(parts).div_ceil(BLOCK) * BLOCK;
        return (0..outer)
            .map(|o| {
                let r = &x[o * n..(o + 1) * n];
                let chunks = n.div_ceil(per.max(1));
                let partial = par(chunks, threads, |cs| {
                    cs.map(|c| row(&r[c * per..], per.min(n - c * per), conv, op, ident)).collect()
                });
                partial.into_iter().fold(ident, op)
            })
            .collect();
    }
    if outer >= threads {
        return par(outer, threads, |rs| {
            let mut out = Vec::with_capacity(rs.len() * inner);
            for o in rs {
                let mut acc = vec![ident; inner];
                columns(ColumnJob { x: &x[o * n * inner..(o + 1) * n * inner], n, inner, cols: 0..inner, acc: &mut acc }, conv, op);
                out.extend(acc);
            }
            out
        });
    }
    // Few outer slices: split the columns.
    let mut out = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        let slab = &x[o * n * inner..(o + 1) * n * inner];
        out.extend(par(inner, threads, |cs| {
            let mut acc = vec![ident; cs.len()];
            columns(ColumnJob { x: slab, n, inner, cols: cs, acc: &mut acc }, conv, op);
            acc
        }));
    }
    out
}
