//! Shared machinery of the dot and convolution kernels: the safe wrappers around the `gemm` crate's
//! strided matrix product ([`matmul`]; [`matmul_batch`] for batches of products cut into rayon tasks), strided views of tensor dimension groups ([`collapse`]), the
//! permuting copy that packs operands whose dimensions do not collapse ([`permute`]), and the float
//! conversions of operands into the compute type (f32 for f16/bf16/f32 results, f64 for f64).

use std::mem::MaybeUninit;
use crate::tensor::{Buf, Kind};
use half::{bf16, f16};
use std::borrow::Cow;

/// Element types the kernels compute in.
pub trait Scalar: Copy + Send + Sync + Default + 'static {
    const ZERO: Self;
    const ONE: Self;
    fn add(self, other: Self) -> Self;
}

macro_rules! scalar {
    ($t:ty) => {
        impl Scalar for $t {
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            fn add(self, other: $t) -> $t {
                self + other
            }
        }
    };
}
scalar!(f32);
scalar!(f64);

/// A strided row-major matrix view: element (i, j) at `off + i * rs + j * cs` of its slice.
#[derive(Clone, Copy, Debug)]
pub struct View {
    pub off: usize,
    pub rs: isize,
    pub cs: isize,
}

impl View {
    /// The largest element index this view reaches for an `r x c` matrix (all strides non-negative).
    fn max_index(&self, r: usize, c: usize) -> Option<usize> {
        if r == 0 || c == 0 {
            return Some(self.off);
        }
        let rs = usize::try_from(self.rs).ok()?;
        let cs = usize::try_from(self.cs).ok()?;
        self.off.checked_add((r - 1).checked_mul(rs)?)?.checked_add((c - 1).checked_mul(cs)?)
    }
}

/// `dst[m x n] (+)= lhs[m x k] * rhs[k x n]` with arbitrary non-negative strides; `accumulate` adds to
/// what `dst` holds instead of overwriting it. Every view is bounds-checked against its slice first
/// (an out-of-range view is an error, never undefined behaviour). `threads > 1` lets the gemm crate
/// split the product over the rayon pool.
#[allow(clippy::too_many_arguments)]
pub fn matmul<T: Scalar>(
    m: usize,
    n: usize,
    k: usize,
    dst: &mut [T],
    d: View,
    lhs: &[T],
    l: View,
    rhs: &[T],
    r: View,
    accumulate: bool,
    threads: usize,
) -> Result<(), String> {
    let par = if threads > 1 && (m * n).saturating_mul(k) >= 32 * 1024 {
        gemm::Parallelism::Rayon(threads)
    } else {
        gemm::Parallelism::None
    };
    let len = dst.len();
    // SAFETY: `dst` is borrowed mutably for the whole call, so no other access to it exists.
    unsafe { matmul_raw(m, n, k, dst.as_mut_ptr(), len, d, lhs, l, rhs, r, accumulate, par) }
}

/// [`matmul`] into `len` elements at `dst`.
///
/// # Safety
/// `dst..dst + len` must be valid for writes (reads too with `accumulate`) for the whole call, and no
/// other thread may access the elements this view writes while it runs (callers sharing one
/// destination between tasks give each task a disjoint block).
#[allow(clippy::too_many_arguments)]
unsafe fn matmul_raw<T: Scalar>(
    m: usize,
    n: usize,
    k: usize,
    dst: *mut T,
    len: usize,
    d: View,
    lhs: &[T],
    l: View,
    rhs: &[T],
    r: View,
    accumulate: bool,
    par: gemm::Parallelism,
) -> Result<(), String> {
    if m == 0 || n == 0 {
        return Ok(());
    }
    let fits = |v: &View, rows: usize, cols: usize, len: usize| v.max_index(rows, cols).is_some_and(|i| i < len);
    if !fits(&d, m, n, len) {
        return Err("gemm destination view out of range".into());
    }
    if k == 0 {
        if !accumulate {
            for i in 0..m {
                for j in 0..n {
                    // SAFETY: the index is at most the view's largest, checked against `len` above.
                    *dst.add(d.off + i * d.rs as usize + j * d.cs as usize) = T::ZERO;
                }
            }
        }
        return Ok(());
    }
    if !fits(&l, m, k, lhs.len()) || !fits(&r, k, n, rhs.len()) {
        return Err("gemm operand view out of range".into());
    }
    // The destination must not alias itself (two (i, j) at one address) for the gemm crate to write it:
    // with non-negative strides that only happens with a zero stride over more than one element.
    if (m > 1 && d.rs == 0) || (n > 1 && d.cs == 0) {
        return Err("gemm destination view aliases itself".into());
    }
    // SAFETY: every element the gemm crate reads or writes is (off + i*rs + j*cs) for i, j within the
    // matrix sizes; `fits` checked the largest such index of each view against its slice (all strides
    // are non-negative, so that is the maximum); the operands are live shared borrows and the caller
    // guarantees exclusive access to the destination's elements; the destination view maps distinct
    // (i, j) to distinct elements (checked above for the zero-stride case; callers pass row/column
    // strides of disjoint rows and columns).
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.add(d.off),
            d.cs,
            d.rs,
            accumulate,
            lhs.as_ptr().add(l.off),
            l.cs,
            l.rs,
            rhs.as_ptr().add(r.off),
            r.cs,
            r.rs,
            T::ONE,
            T::ONE,
            false,
            false,
            false,
            par,
        );
    }
    Ok(())
}

/// One operand of [`matmul_batch`]: product `p`'s matrix starts at `offsets[p]` of `data`, element
/// (i, j) at `offsets[p] + i * rs + j * cs`.
pub struct BatchOperand<'a, T> {
    pub data: &'a [T],
    pub offsets: &'a [usize],
    pub rs: usize,
    pub cs: usize,
}

/// Tasks that multiply-add at least this many times are worth a rayon task of their own.
const MIN_TASK_FMAS: usize = 1 << 21;

/// How [`matmul_batch`] cuts its products into tasks: `rb` x `cb` output blocks, `pr` x `pc` of them
/// per product; `inner` threads for the gemm crate inside each task (1 unless there are too few tasks
/// to keep the threads busy).
#[derive(Debug, PartialEq)]
struct Tiling {
    rb: usize,
    cb: usize,
    pr: usize,
    pc: usize,
    inner: usize,
}

/// The tiling of `count` products of `m x k` by `k x n` over `threads` threads: about 4 tasks per
/// thread (scheduled dynamically, so that a thread descheduled on a shared machine does not hold the
/// others up as it does the gemm crate's static split), never below [`MIN_TASK_FMAS`]. Blocks keep at
/// least 192 rows and columns where the product has them: each task packs its own rhs columns (an
/// `rb`-th of its work) and lhs rows (a `cb`-th), and the gemm crate reads thinner blocks in place
/// through long strides. Products are split into row blocks first, into column blocks when the rows
/// are few (skinny products such as a batch-64 MLP layer: each task packs its own part of the
/// weights instead of every thread packing all of them).
fn tiling(count: usize, m: usize, n: usize, k: usize, threads: usize) -> Tiling {
    let whole = Tiling { rb: m.max(1), cb: n.max(1), pr: 1, pc: 1, inner: 1 };
    let fmas = m.saturating_mul(n).saturating_mul(k);
    if threads <= 1 || fmas.saturating_mul(count) < 2 * MIN_TASK_FMAS {
        return whole;
    }
    const MIN_BLOCK: usize = 192;
    let want = (4 * threads).div_ceil(count.max(1));
    let pieces = want.min((fmas / MIN_TASK_FMAS).max(1));
    let pr_max = pieces.min(m / MIN_BLOCK).max(1);
    let pc_max = (pieces / pr_max).min(n / MIN_BLOCK).max(1);
    // Column blocks in multiples of the gemm crate's 48-row micro-tiles (of the transposed problem).
    let blocks = |pr: usize, pc: usize| {
        let rb = m.div_ceil(pr).next_multiple_of(8).min(m);
        let cb = n.div_ceil(pc).next_multiple_of(48).min(n);
        (rb, cb, m.div_ceil(rb), n.div_ceil(cb))
    };
    // Equal tasks keep every thread busy only when they come in whole rounds: 5 row blocks of a 1024^3
    // product on 2 threads ran 3 rounds for 2.5 rounds of work (gemm_f32_1024 7.5 -> 6.1-6.5 ms with 4).
    // Of the row splits up to the count above, the one with the fullest rounds, then the most tasks.
    // (Column splits of skinny products, bound by streaming the weights, keep their count: 4 instead
    // of 5 column blocks measured no faster there.)
    let mut best = blocks(pr_max, pc_max);
    let mut best_key = (0usize, 0usize);
    for pr in 1..=pr_max {
        let b = blocks(pr, pc_max);
        let tasks = count * b.2 * b.3;
        // Busy thread-rounds in permille.
        let fill = tasks * 1000 / (threads * tasks.div_ceil(threads));
        if (fill, tasks) > best_key {
            best_key = (fill, tasks);
            best = b;
        }
    }
    let (rb, cb, pr, pc) = best;
    let tasks = count * pr * pc;
    Tiling { rb, cb, pr, pc, inner: if tasks < threads { threads } else { 1 } }
}

/// `count` products `dst[p] = lhs[p] * rhs[p]` (`m x k` by `k x n`), the results row-major and stored
/// one after another in `dst` (`count * m * n` elements), split into tasks over the rayon pool when
/// `threads > 1` (see [`tiling`]).
#[allow(clippy::too_many_arguments)]
pub fn matmul_batch<T: Scalar>(
    count: usize,
    m: usize,
    n: usize,
    k: usize,
    dst: &mut [T],
    lhs: &BatchOperand<T>,
    rhs: &BatchOperand<T>,
    threads: usize,
) -> Result<(), String> {
    // SAFETY: `dst` is a live, exclusively borrowed slice of `dst.len()` elements.
    unsafe { matmul_batch_raw(count, m, n, k, dst.as_mut_ptr(), dst.len(), lhs, rhs, threads) }
}

/// [`matmul_batch`] into a buffer's spare capacity: every element is written (none is read), so the
/// result needs no zeroing first. On success the caller may set the length to `dst.len()`.
#[allow(clippy::too_many_arguments)]
pub fn matmul_batch_uninit<T: Scalar>(
    count: usize,
    m: usize,
    n: usize,
    k: usize,
    dst: &mut [std::mem::MaybeUninit<T>],
    lhs: &BatchOperand<T>,
    rhs: &BatchOperand<T>,
    threads: usize,
) -> Result<(), String> {
    if k == 0 {
        // No product to write: the result is zeros.
        dst.fill(std::mem::MaybeUninit::new(T::ZERO));
        return Ok(());
    }
    // SAFETY: `dst` is a live, exclusively borrowed window of `dst.len()` elements; the products only
    // write it (the destination is never read when k > 0).
    unsafe { matmul_batch_raw(count, m, n, k, dst.as_mut_ptr() as *mut T, dst.len(), lhs, rhs, threads) }
}

/// # Safety
/// `dst` must point at `len` writable elements that nothing else accesses during the call.
#[allow(clippy::too_many_arguments)]
unsafe fn matmul_batch_raw<T: Scalar>(
    count: usize,
    m: usize,
    n: usize,
    k: usize,
    dst: *mut T,
    len: usize,
    lhs: &BatchOperand<T>,
    rhs: &BatchOperand<T>,
    threads: usize,
) -> Result<(), String> {
    let per = m.checked_mul(n).ok_or("gemm result too large")?;
    if len != count.checked_mul(per).ok_or("gemm result too large")? || lhs.offsets.len() < count || rhs.offsets.len() < count {
        return Err("gemm batch sizes do not match".into());
    }
    if per == 0 {
        return Ok(());
    }
    // A fresh 25 MiB GEMM result otherwise takes 6K page faults, a sizeable part of the product's time
    // when k is small.
    crate::alloc::advise_huge_pages(dst as usize, len * std::mem::size_of::<T>());
    let t = tiling(count, m, n, k, threads);
    let tasks = count * t.pr * t.pc;
    let par = if t.inner > 1 { gemm::Parallelism::Rayon(t.inner) } else { gemm::Parallelism::None };
    let out = SharedDst(dst);
    let run = |task: usize| -> Result<(), String> {
        let (p, blk) = (task / (t.pr * t.pc), task % (t.pr * t.pc));
        let (r0, c0) = (blk / t.pc * t.rb, blk % t.pc * t.cb);
        let (mm, nn) = (t.rb.min(m - r0), t.cb.min(n - c0));
        let d = View { off: p * per + r0 * n + c0, rs: n as isize, cs: 1 };
        let r = View { off: rhs.offsets[p] + c0 * rhs.cs, rs: rhs.rs as isize, cs: rhs.cs as isize };
        let l = View { off: lhs.offsets[p] + r0 * lhs.rs, rs: lhs.rs as isize, cs: lhs.cs as isize };
        let _ = &out;
        // SAFETY: `out` points at `dst` (`len` elements), exclusively ours for this whole call (the
        // caller's guarantee); each task writes only its own block (product p, rows r0..r0+mm, columns c0..c0+nn) and the
        // blocks of different tasks are disjoint.
        unsafe { matmul_raw(mm, nn, k, out.0, len, d, lhs.data, l, rhs.data, r, false, par) }
    };
    if tasks > 1 && t.inner == 1 {
        use rayon::prelude::*;
        (0..tasks).into_par_iter().try_for_each(run)
    } else {
        (0..tasks).try_for_each(run)
    }
}

/// The destination of [`matmul_batch`], shared by tasks that write disjoint blocks of it.
struct SharedDst<T>(*mut T);
// SAFETY: tasks only write disjoint elements through the pointer (see `matmul_batch`).
unsafe impl<T: Send> Send for SharedDst<T> {}
unsafe impl<T: Send> Sync for SharedDst<T> {}

/// Row-major strides of `shape`.
pub fn strides(shape: &[usize]) -> Vec<usize> {
    let mut st = vec![1usize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        st[i] = st[i + 1].saturating_mul(shape[i + 1]);
    }
    st
}

/// The single stride that walks the dimensions `dims` (slowest first) of a tensor with `shape` and
/// `st`rides as one flattened index, or None when they do not collapse. Size-1 dimensions are ignored;
/// a group without any other collapses with stride 1 (only index 0 is ever used).
pub fn collapse(dims: &[usize], shape: &[usize], st: &[usize]) -> Option<usize> {
    let live: Vec<usize> = dims.iter().copied().filter(|&d| shape[d] != 1).collect();
    let Some(&last) = live.last() else { return Some(1) };
    for w in live.windows(2) {
        if st[w[0]] != st[w[1]].checked_mul(shape[w[1]])? {
            return None;
        }
    }
    Some(st[last])
}

/// Copies `src` (row-major, `shape`) into a new row-major buffer whose dimensions are `order` (a
/// permutation of all dimensions of `src`): out[i_0, i_1, ...] = src[dims order[0] = i_0, ...].
/// With `threads > 1` and a large tensor, slabs of the output's first dimension copy in parallel.
pub fn permute<T: Copy + Default + Send + Sync>(src: &[T], shape: &[usize], order: &[usize], threads: usize) -> Vec<T> {
    let st = strides(shape);
    let oshape: Vec<usize> = order.iter().map(|&d| shape[d]).collect();
    let ost: Vec<usize> = order.iter().map(|&d| st[d]).collect();
    let total: usize = oshape.iter().product();
    if total == 0 {
        return Vec::new();
    }
    if oshape.is_empty() {
        return vec![src[0]];
    }
    // Every element is written once below (row copies or tiles cover the whole output): the storage
    // needs no zeroing first.
    let mut out: Vec<T> = Vec::with_capacity(total);
    let src_inner = order.iter().position(|&d| d == shape.len() - 1).unwrap_or(0);
    let slab = total / oshape[0];
    if threads > 1 && total >= (1 << 16) && oshape[0] > 1 {
        // Slabs of several first-dimension indices (at least 16 when that dimension is the source's
        // innermost, so that each cache line read is used for several outputs).
        let min_rows = if src_inner == 0 { 16 } else { 1 };
        let rows = (oshape[0] / (4 * threads)).max(min_rows).min(oshape[0]);
        use rayon::prelude::*;
        out.spare_capacity_mut()[..total].par_chunks_mut(rows * slab).enumerate().for_each(|(i, chunk)| {
            let mut sub = oshape.clone();
            sub[0] = chunk.len() / slab;
            permute_into(chunk, src, i * rows * ost[0], &sub, &ost, src_inner);
        });
    } else {
        permute_into(&mut out.spare_capacity_mut()[..total], src, 0, &oshape, &ost, src_inner);
    }
    // SAFETY: permute_into wrote every one of the `total` elements (whole rows, or every tile).
    unsafe { out.set_len(total) };
    out
}

/// The permuting copy of [`permute`] into `out` (row-major `oshape`), reading `src` at `base` plus the
/// per-output-dimension strides `ost`; `src_inner` is the output position of the source's stride-1 dim.
fn permute_into<T: Copy>(out: &mut [MaybeUninit<T>], src: &[T], base: usize, oshape: &[usize], ost: &[usize], src_inner: usize) {
    let r = oshape.len();
    if ost[r - 1] == 1 {
        // The innermost dimension stays innermost: whole rows copy.
        let inner = oshape[r - 1];
        let mut idx = vec![0usize; r - 1];
        for chunk in out.chunks_exact_mut(inner) {
            let b = base + idx.iter().zip(ost).map(|(&i, &s)| i * s).sum::<usize>();
            for (o, &v) in chunk.iter_mut().zip(&src[b..b + inner]) {
                o.write(v);
            }
            next(&mut idx, &oshape[..r - 1]);
        }
        return;
    }
    // A transpose: tile the output's innermost dimension against the source's innermost one so that
    // both the strided reads and the strided writes of a tile stay in L1.
    const TILE: usize = 32;
    let (a, b) = (src_inner, r - 1);
    let ostr = strides(oshape);
    let rest: Vec<usize> = (0..r).filter(|&d| d != a && d != b).collect();
    let rest_shape: Vec<usize> = rest.iter().map(|&d| oshape[d]).collect();
    let n_rest: usize = rest_shape.iter().product();
    let mut idx = vec![0usize; rest.len()];
    let (sa, sb) = (ost[a], ost[b]);
    for _ in 0..n_rest {
        let sbase: usize = base + idx.iter().zip(&rest).map(|(&i, &d)| i * ost[d]).sum::<usize>();
        let obase: usize = idx.iter().zip(&rest).map(|(&i, &d)| i * ostr[d]).sum();
        for ia0 in (0..oshape[a]).step_by(TILE) {
            for ib0 in (0..oshape[b]).step_by(TILE) {
                for ia in ia0..(ia0 + TILE).min(oshape[a]) {
                    let o = obase + ia * ostr[a];
                    let sr = sbase + ia * sa;
                    for ib in ib0..(ib0 + TILE).min(oshape[b]) {
                        out[o + ib].write(src[sr + ib * sb]);
                    }
                }
            }
        }
        next(&mut idx, &rest_shape);
    }
}

fn next(idx: &mut [usize], shape: &[usize]) {
    for d in (0..idx.len()).rev() {
        idx[d] += 1;
        if idx[d] < shape[d] {
            return;
        }
        idx[d] = 0;
    }
}

/// Operand elements as f32 in the domain of a result of kind `res`: each value is first rounded to
/// the result type (the spec converts operands to the result's element type), then widened exactly.
pub fn as_f32(buf: &Buf, res: Kind) -> Option<Cow<'_, [f32]>> {
    let round = |x: f32| -> f32 {
        match res {
            Kind::F16 => f16::from_f32(x).to_f32(),
            Kind::BF16 => bf16::from_f32(x).to_f32(),
            _ => x,
        }
    };
    Some(match buf {
        Buf::F32(v) if matches!(res, Kind::F32) => Cow::Borrowed(v.as_slice()),
        Buf::F32(v) => Cow::Owned(v.iter().map(|&x| round(x)).collect()),
        Buf::F64(v) => Cow::Owned(
            v.iter()
                .map(|&x| match res {
                    Kind::F16 => f16::from_f64(x).to_f32(),
                    Kind::BF16 => bf16::from_f64(x).to_f32(),
                    _ => x as f32,
                })
                .collect(),
        ),
        Buf::F16(v) => Cow::Owned(v.iter().map(|x| round(x.to_f32())).collect()),
        Buf::BF16(v) => Cow::Owned(v.iter().map(|x| round(x.to_f32())).collect()),
        _ => return None,
    })
}

/// Operand elements as f64 (exact widening of any float kind).
pub fn as_f64(buf: &Buf) -> Option<Cow<'_, [f64]>> {
    Some(match buf {
        Buf::F64(v) => Cow::Borrowed(v.as_slice()),
        Buf::F32(v) => Cow::Owned(v.iter().map(|&x| x as f64).collect()),
        Buf::F16(v) => Cow::Owned(v.iter().map(|x| x.to_f64()).collect()),
        Buf::BF16(v) => Cow::Owned(v.iter().map(|x| x.to_f64()).collect()),
        _ => return None,
    })
}

/// Wraps f32 results into a buffer of kind `res` (f16/bf16 rounded once, to nearest even).
pub fn from_f32(v: Vec<f32>, res: Kind) -> Option<Buf> {
    Some(match res {
        Kind::F32 => Buf::F32(v),
        Kind::F16 => Buf::F16(v.iter().map(|&x| f16::from_f32(x)).collect()),
        Kind::BF16 => Buf::BF16(v.iter().map(|&x| bf16::from_f32(x)).collect()),
        _ => return None,
    })
}

/// True for the float kinds the kernels read.
pub fn is_float(k: Kind) -> bool {
    matches!(k, Kind::F16 | Kind::BF16 | Kind::F32 | Kind::F64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapse_and_permute() {
        let shape = [2, 3, 4];
        let st = strides(&shape);
        assert_eq!(st, vec![12, 4, 1]);
        assert_eq!(collapse(&[0, 1], &shape, &st), Some(4));
        assert_eq!(collapse(&[1, 0], &shape, &st), None);
        assert_eq!(collapse(&[], &shape, &st), Some(1));
        let src: Vec<i32> = (0..24).collect();
        let p = permute(&src, &shape, &[2, 0, 1], 1);
        assert_eq!(permute(&src, &shape, &[2, 0, 1], 2), p);
        let big: Vec<i32> = (0..40 * 50 * 37).collect();
        let q = permute(&big, &[40, 50, 37], &[2, 0, 1], 2);
        assert_eq!(q, permute(&big, &[40, 50, 37], &[2, 0, 1], 1));
        // q[k, i, j] = big[i, j, k]
        assert_eq!(q[(5 * 40 + 3) * 50 + 7], (3 * 50 + 7) * 37 + 5);
        let w = permute(&big, &[40, 50, 37], &[1, 0, 2], 2);
        assert_eq!(w[(7 * 40 + 3) * 37 + 5], (3 * 50 + 7) * 37 + 5);
        // p[k, i, j] = src[i, j, k]
        assert_eq!(p[0..6], [0, 4, 8, 12, 16, 20]);
        assert_eq!(p[6], 1);
    }

    #[test]
    fn matmul_checks_views() {
        let a = [1.0f32, 2.0, 3.0, 4.0];
        let mut out = [0.0f32; 4];
        let rm = View { off: 0, rs: 2, cs: 1 };
        matmul(2, 2, 2, &mut out, rm, &a, rm, &a, View { off: 0, rs: 1, cs: 2 }, false, 1).unwrap();
        // [[1,2],[3,4]] x [[1,2],[3,4]]^T = [[5,11],[11,25]] (NumPy).
        assert_eq!(out, [5.0, 11.0, 11.0, 25.0]);
        assert!(matmul(2, 2, 3, &mut out, rm, &a, rm, &a, rm, false, 1).is_err());
    }

    #[test]
    fn tiling_cuts_tasks() {
        // One thread, or too little work: whole products.
        assert_eq!(tiling(4, 512, 512, 512, 1), Tiling { rb: 512, cb: 512, pr: 1, pc: 1, inner: 1 });
        assert_eq!(tiling(1, 64, 64, 64, 2).pr * tiling(1, 64, 64, 64, 2).pc, 1);
        // A tall product: 16 row blocks, no column split.
        let t = tiling(1, 4096, 1536, 384, 2);
        assert_eq!((t.rb, t.pr, t.pc, t.inner), (512, 8, 1, 1));
        // A skinny one (batch-64 MLP): column blocks in multiples of 48.
        let t = tiling(1, 64, 4096, 1024, 2);
        assert_eq!((t.pr, t.cb % 48, t.inner), (1, 0, 1));
        assert!(t.pc >= 8);
        // Blocks keep 192 rows and columns: a 384-row weight gradient splits both ways.
        let t = tiling(1, 384, 1536, 4096, 2);
        assert_eq!((t.rb, t.pr, t.cb, t.pc), (192, 2, 384, 4));
        // 1024^3 on 2 threads: whole rounds of tasks (4 blocks of 256 rows, not 5 of 208).
        let t = tiling(1, 1024, 1024, 1024, 2);
        assert_eq!((t.pr * t.pc) % 2, 0, "{t:?}");
        // Many products: one task each.
        let t = tiling(96, 256, 256, 64, 2);
        assert_eq!((t.pr, t.pc, t.inner), (1, 1, 1));
        // One unsplittable product: the gemm crate's threads.
        assert_eq!(tiling(1, 20, 100, 3000, 2).inner, 2);
    }

    #[test]
    fn batch_matches_naive() {
        // Every tiling path against a naive triple loop (exact: small integers).
        for &(count, m, n, k, lt) in &[(3, 5, 7, 4, false), (1, 400, 160, 96, false), (2, 40, 500, 256, true), (1, 20, 100, 3000, true)] {
            let lhs: Vec<f64> = (0..count * m * k).map(|i| (i % 7) as f64 - 3.0).collect();
            let rhs: Vec<f64> = (0..count * k * n).map(|i| (i % 5) as f64 - 2.0).collect();
            // The lhs row-major, or stored transposed ([k, m] per product).
            let (rs, cs) = if lt { (1, m) } else { (k, 1) };
            let lo: Vec<usize> = (0..count).map(|p| p * m * k).collect();
            let ro: Vec<usize> = (0..count).map(|p| p * k * n).collect();
            let mut out = vec![0.0; count * m * n];
            let l = BatchOperand { data: &lhs, offsets: &lo, rs, cs };
            let r = BatchOperand { data: &rhs, offsets: &ro, rs: n, cs: 1 };
            matmul_batch(count, m, n, k, &mut out, &l, &r, 2).unwrap();
            for p in 0..count {
                for i in 0..m {
                    for j in 0..n {
                        let want: f64 = (0..k).map(|q| lhs[lo[p] + i * rs + q * cs] * rhs[ro[p] + q * n + j]).sum();
                        assert_eq!(out[(p * m + i) * n + j], want, "product {p} ({i}, {j}) of {count}x{m}x{n}x{k}");
                    }
                }
            }
        }
        // Mismatched sizes are an error, not a panic.
        let mut out = vec![0.0f32; 3];
        let l = BatchOperand { data: &[1.0f32; 4], offsets: &[0], rs: 2, cs: 1 };
        assert!(matmul_batch(1, 2, 2, 2, &mut out, &l, &l, 2).is_err());
    }
}
