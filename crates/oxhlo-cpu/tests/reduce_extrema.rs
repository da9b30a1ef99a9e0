//! f32 maxima and minima of `kernels::reduce` (the vectorized selects of `fastmath::max` / `min`, many
//! accumulators per row, rows split over threads) against a sequential fold of the interpreter's IEEE
//! `maximum` / `minimum`: rows and columns, with signed zeros, infinities, subnormals and NaNs of either
//! sign among random values, and the init value folded in.

use oxhlo_cpu::kernels::reduce::{reduce_buf, Shape};
use oxhlo_cpu::Buf;
use oxhlo_interp::ops::elementwise_float::{fmax, fmin};
use oxhlo_plan::reducer::ReduceKind;

fn values(n: usize, seed: u64, specials: bool) -> Vec<f32> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let pool = [0.0f32, -0.0, f32::INFINITY, f32::NEG_INFINITY, 1e-40, -1e-40, f32::MIN_POSITIVE, -f32::MAX];
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let r = (s >> 33) as u32;
            if specials && r.is_multiple_of(7) {
                pool[(r as usize / 7) % pool.len()]
            } else {
                (r as f32 / (1u64 << 31) as f32) * 200.0 - 100.0
            }
        })
        .collect()
}

/// Bits equal, or both NaN (IEEE leaves which NaN open).
fn same(a: f32, b: f32) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

#[test]
fn extrema_match_the_ieee_fold() {
    for (outer, n, inner) in [(37, 5000, 1), (3, 100, 70), (1, 70000, 1), (2, 3, 1), (4, 1, 5)] {
        for (seed, nan) in [(1, None), (2, None), (3, Some(f32::NAN)), (4, Some(-f32::NAN))] {
            let mut x = values(outer * n * inner, seed, true);
            if let Some(q) = nan {
                let at = x.len() / 3;
                x[at] = q;
            }
            for init in [f32::NEG_INFINITY, f32::INFINITY, -0.0, 0.0, 5.0] {
                for kind in [ReduceKind::Max, ReduceKind::Min] {
                    let s = Shape { outer, n, inner, threads: 2 };
                    let Some(Buf::F32(got)) = reduce_buf(kind, &Buf::F32(x.clone()), &Buf::F32(vec![init]), s) else { panic!("f32 reduces") };
                    for o in 0..outer {
                        for c in 0..inner {
                            let f = |a: f32, b: f32| if kind == ReduceKind::Max { fmax(a, b) } else { fmin(a, b) };
                            let want = (0..n).map(|r| x[(o * n + r) * inner + c]).fold(init, f);
                            let g = got[o * inner + c];
                            assert!(same(g, want), "{kind:?} of [{outer}, {n}, {inner}] at ({o}, {c}), init {init}: {g} vs {want}");
                        }
                    }
                }
            }
        }
    }
}
