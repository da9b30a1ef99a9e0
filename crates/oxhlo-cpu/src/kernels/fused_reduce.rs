//! The reduction epilogue of a fused kernel ([`oxhlo_plan::fusion::ReduceEpilogue`]): folds each computed
//! chunk of the reduced value into per-worker accumulators, then combines the workers' partial results with
//! the init value. The kernel's iteration space is viewed as (outer, n, inner) with n reduced; a worker
//! owns a contiguous range of it whose ends are multiples of `inner`, and keeps accumulators only for the
//! outer rows its range touches. Row sums (inner = 1) add each in-row segment with 16 independent lanes
//! before adding it to the row, as the standalone reduce kernel does; f32 only; max/min follow IEEE
//! `maximum`/`minimum` (NaN propagates, -0 < +0).

use super::fastmath;
use oxhlo_plan::reducer::ReduceKind;

/// The reduction's view of the iteration space and its combining op.
#[derive(Clone, Copy, Debug)]
pub struct RedView {
    pub kind: ReduceKind,
    pub outer: usize,
    pub n: usize,
    pub inner: usize,
}

impl RedView {
    fn identity(&self) -> f32 {
        match self.kind {
            ReduceKind::Max => f32::NEG_INFINITY,
            ReduceKind::Min => f32::INFINITY,
            _ => 0.0,
        }
    }

    #[inline(always)]
    fn combine(&self, a: f32, b: f32) -> f32 {
        match self.kind {
            ReduceKind::Max => fastmath::max(a, b),
            ReduceKind::Min => fastmath::min(a, b),
            _ => a + b,
        }
    }

    /// Elements of one outer row of the iteration space.
    fn row(&self) -> usize {
        self.n * self.inner
    }
}

/// One worker's accumulators for the outer rows `first..first + acc.len() / inner`.
pub struct Partial {
    pub first: usize,
    pub acc: Vec<f32>,
}

impl Partial {
    /// Accumulators for a worker covering flat elements `lo..hi`.
    pub fn new(v: &RedView, lo: usize, hi: usize) -> Partial {
        let row = v.row().max(1);
        let first = lo / row;
        let last = if hi > lo { (hi - 1) / row } else { first };
        Partial { first, acc: vec![v.identity(); (last - first + 1) * v.inner] }
    }

    /// Folds the values of flat elements `base..base + vals.len()` in.
    #[inline(always)]
    pub fn fold(&mut self, v: &RedView, base: usize, vals: &[f32]) {
        let row = v.row().max(1);
        let mut k = 0;
        while k < vals.len() {
            let f = base + k;
            let o = f / row;
            let in_row = f % row;
            let seg = (row - in_row).min(vals.len() - k);
            let acc_row = &mut self.acc[(o - self.first) * v.inner..(o - self.first + 1) * v.inner];
            let vs = &vals[k..k + seg];
            if v.inner == 1 {
                acc_row[0] = v.combine(acc_row[0], lanes(v, vs));
            } else {
                // Consecutive elements walk the inner index, wrapping every `inner`.
                let mut j = in_row % v.inner;
                let mut p = 0;
                while p < vs.len() {
                    let run = (v.inner - j).min(vs.len() - p);
                    let (accs, xs) = (&mut acc_row[j..j + run], &vs[p..p + run]);
                    // The reducer chosen outside the loop, so that it vectorizes.
                    match v.kind {
                        ReduceKind::Max => accs.iter_mut().zip(xs).for_each(|(a, &x)| *a = fastmath::max(*a, x)),
                        ReduceKind::Min => accs.iter_mut().zip(xs).for_each(|(a, &x)| *a = fastmath::min(*a, x)),
                        _ => accs.iter_mut().zip(xs).for_each(|(a, &x)| *a += x),
                    }
                    p += run;
                    j = 0;
                }
            }
            k += seg;
        }
    }
}

impl Partial {
    /// For a row view (`inner == 1`): the results of this worker's rows, `init` combined first as
    /// [`combine`] does.
    pub fn results(&self, v: &RedView, init: f32) -> Vec<f32> {
        self.acc.iter().map(|&a| v.combine(init, a)).collect()
    }
}

/// The fold of a slice with 16 independent accumulators (vectorizable: the reducer is chosen once,
/// outside the loop).
#[inline(always)]
fn lanes(v: &RedView, xs: &[f32]) -> f32 {
    match v.kind {
        ReduceKind::Max => lanes_with(xs, f32::NEG_INFINITY, fastmath::max),
        ReduceKind::Min => lanes_with(xs, f32::INFINITY, fastmath::min),
        _ => lanes_with(xs, 0.0, |a, b| a + b),
    }
}

#[inline(always)]
fn lanes_with(xs: &[f32], ident: f32, op: impl Fn(f32, f32) -> f32) -> f32 {
    const L: usize = 16;
    let mut acc = [ident; L];
    let mut chunks = xs.chunks_exact(L);
    for c in &mut chunks {
        for (a, &x) in acc.iter_mut().zip(c) {
            *a = op(*a, x);
        }
    }
    let mut r = ident;
    for &x in chunks.remainder() {
        r = op(r, x);
    }
    for a in acc {
        r = op(r, a);
    }
    r
}

/// The result (outer x inner values): `init` combined with every worker's partial, in worker order.
pub fn combine(v: &RedView, init: f32, parts: &[Partial]) -> Vec<f32> {
    let mut out = vec![init; v.outer * v.inner];
    for p in parts {
        let base = p.first * v.inner;
        for (o, &a) in out[base..].iter_mut().zip(&p.acc) {
            *o = v.combine(*o, a);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Partials over arbitrary worker splits and chunkings give the plain per-(outer, inner) fold.
    #[test]
    fn partials_fold_every_element_once() {
        for &(outer, n, inner) in &[(3, 5, 1), (2, 4, 3), (1, 37, 1), (1, 6, 4), (5, 1, 2)] {
            let len = outer * n * inner;
            let x: Vec<f32> = (0..len).map(|i| (i * 7 % 11) as f32 - 5.0).collect();
            let v = RedView { kind: ReduceKind::Add, outer, n, inner };
            let mut want = vec![1.0f32; outer * inner];
            for o in 0..outer {
                for r in 0..n {
                    for j in 0..inner {
                        want[o * inner + j] += x[(o * n + r) * inner + j];
                    }
                }
            }
            for workers in 1..4 {
                let per = len.div_ceil(workers).div_ceil(inner) * inner;
                let mut parts = Vec::new();
                let mut lo = 0;
                while lo < len {
                    let hi = (lo + per).min(len);
                    let mut p = Partial::new(&v, lo, hi);
                    let mut b = lo;
                    while b < hi {
                        let e = (b + 3).min(hi);
                        p.fold(&v, b, &x[b..e]);
                        b = e;
                    }
                    parts.push(p);
                    lo = hi;
                }
                assert_eq!(combine(&v, 1.0, &parts), want, "{outer}x{n}x{inner} over {workers} workers");
            }
        }
    }

    #[test]
    fn max_propagates_nan_and_orders_zeros() {
        let v = RedView { kind: ReduceKind::Max, outer: 1, n: 3, inner: 1 };
        let mut p = Partial::new(&v, 0, 3);
        p.fold(&v, 0, &[-0.0, 0.0, -1.0]);
        assert_eq!(combine(&v, f32::NEG_INFINITY, &[p])[0].to_bits(), 0.0f32.to_bits());
        let mut p = Partial::new(&v, 0, 3);
        p.fold(&v, 0, &[1.0, f32::NAN, 2.0]);
        assert!(combine(&v, f32::NEG_INFINITY, &[p])[0].is_nan());
    }
}
