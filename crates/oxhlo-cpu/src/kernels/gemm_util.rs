//! Shared machinery of the dot and convolution kernels: the one safe wrapper around the `gemm` crate's
//! strided matrix product ([`matmul`]), strided views of tensor dimension groups ([`collapse`]), the
//! permuting copy that packs operands whose dimensions do not collapse ([`permute`]), and the float
//! conversions of operands into the compute type (f32 for f16/bf16/f32 results, f64 for f64).

use crate::tensor::{Buf, Kind};
use half::{bf16, f16};
use std::borrow::Cow;

/// Element types the kernels compute in.
pub trait Scalar: Copy + Send + Sync + Default + 'static {
    const ZERO: Self;
    const ONE: Self;
    fn add(self, other: Self) -> Self;
}
impl Scalar for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    fn add(self, other: f32) -> f32 {
        self + other
    }
}
impl Scalar for f64 {
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    fn add(self, other: f64) -> f64 {
        self + other
    }
}

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
    if m == 0 || n == 0 {
        return Ok(());
    }
    let fits = |v: &View, rows: usize, cols: usize, len: usize| v.max_index(rows, cols).is_some_and(|i| i < len);
    if !fits(&d, m, n, dst.len()) {
        return Err("gemm destination view out of range".into());
    }
    if k == 0 {
        if !accumulate {
            for i in 0..m {
                for j in 0..n {
                    dst[d.off + i * d.rs as usize + j * d.cs as usize] = T::ZERO;
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
    let par = if threads > 1 && (m * n).saturating_mul(k) >= 32 * 1024 {
        gemm::Parallelism::Rayon(threads)
    } else {
        gemm::Parallelism::None
    };
    // SAFETY: every element the gemm crate reads or writes is (off + i*rs + j*cs) for i, j within the
    // matrix sizes; `fits` checked the largest such index of each view against its slice (all strides
    // are non-negative, so that is the maximum), and the pointers come from live slices borrowed for the
    // whole call: `dst` mutably (no aliasing with the shared `lhs`/`rhs` borrows), and the destination
    // view maps distinct (i, j) to distinct elements (checked above for the zero-stride case; callers
    // pass row/column strides of disjoint rows and columns).
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr().add(d.off),
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
    let mut out = vec![T::default(); total];
    if total == 0 {
        return out;
    }
    if oshape.is_empty() {
        out[0] = src[0];
        return out;
    }
    let src_inner = order.iter().position(|&d| d == shape.len() - 1).unwrap_or(0);
    let slab = total / oshape[0];
    if threads > 1 && total >= (1 << 16) && oshape[0] > 1 {
        // Slabs of several first-dimension indices (at least 16 when that dimension is the source's
        // innermost, so that each cache line read is used for several outputs).
        let min_rows = if src_inner == 0 { 16 } else { 1 };
        let rows = (oshape[0] / (4 * threads)).max(min_rows).min(oshape[0]);
        use rayon::prelude::*;
        out.par_chunks_mut(rows * slab).enumerate().for_each(|(i, chunk)| {
            let mut sub = oshape.clone();
            sub[0] = chunk.len() / slab;
            permute_into(chunk, src, i * rows * ost[0], &sub, &ost, src_inner);
        });
    } else {
        permute_into(&mut out, src, 0, &oshape, &ost, src_inner);
    }
    out
}

/// The permuting copy of [`permute`] into `out` (row-major `oshape`), reading `src` at `base` plus the
/// per-output-dimension strides `ost`; `src_inner` is the output position of the source's stride-1 dim.
fn permute_into<T: Copy>(out: &mut [T], src: &[T], base: usize, oshape: &[usize], ost: &[usize], src_inner: usize) {
    let r = oshape.len();
    if ost[r - 1] == 1 {
        // The innermost dimension stays innermost: whole rows copy.
        let inner = oshape[r - 1];
        let mut idx = vec![0usize; r - 1];
        for chunk in out.chunks_exact_mut(inner) {
            let b = base + idx.iter().zip(ost).map(|(&i, &s)| i * s).sum::<usize>();
            chunk.copy_from_slice(&src[b..b + inner]);
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
                        out[o + ib] = src[sr + ib * sb];
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
}
