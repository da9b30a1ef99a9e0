//! Differential test: a few hundred random programs from `oxhlo-progen`, optimized at O1, O2 and O3
//! (verifying after every pass), must compute bitwise what the unoptimized program computes on the
//! interpreter (any NaN matches any NaN: the spec leaves payloads open). A failure names the seed and
//! level and prints the program. `PROGEN_SEEDS=N` changes the number of programs.

use oxhlo_interp::{run_main, Data, RtValue};
use oxhlo_opt::{optimize, OptLevel, OptOptions};
use oxhlo_progen::{try_generate, GenOptions};

fn same(a: &[RtValue], b: &[RtValue]) -> bool {
    let fe = |x: f64, y: f64| (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits();
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (RtValue::Tensor(x), RtValue::Tensor(y)) => {
                x.ty.shape == y.ty.shape
                    && x.ty.elem == y.ty.elem
                    && match (&x.data, &y.data) {
                        (Data::Float(p), Data::Float(q)) => p.len() == q.len() && p.iter().zip(q).all(|(u, v)| fe(*u, *v)),
                        (p, q) => p == q,
                    }
            }
            (x, y) => x == y,
        })
}

fn print(m: &oxhlo_ir::Module) -> String {
    oxhlo_text::print_module(m, &oxhlo_text::PrintOptions::default())
}

#[test]
fn optimized_random_programs_match_o0() {
    let n: u64 = std::env::var("PROGEN_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(300);
    let opts = GenOptions::default();
    let mut changed_by = [0usize; 3];
    let mut ops_before = 0usize;
    let mut ops_after = [0usize; 3];
    let count = |m: &oxhlo_ir::Module| {
        let mut c = 0;
        for f in &m.funcs {
            f.walk(&mut |_| c += 1);
        }
        c
    };
    for seed in 0..n {
        let (m, inputs) = try_generate(seed, &opts).unwrap_or_else(|e| panic!("generator: {e}"));
        let expected = match run_main(&m, inputs.clone()) {
            Ok(r) => r,
            Err(e) => panic!("seed {seed}: the unoptimized program fails: {e}\n{}", print(&m)),
        };
        ops_before += count(&m);
        for (k, level) in [OptLevel::O1, OptLevel::O2, OptLevel::O3].into_iter().enumerate() {
            let mut o = m.clone();
            let report = optimize(&mut o, &OptOptions { level, verify_each: true, ..OptOptions::default() })
                .unwrap_or_else(|e| panic!("seed {seed} {level}: {e}\n{}", print(&m)));
            changed_by[k] += report.runs.iter().any(|r| r.changed) as usize;
            ops_after[k] += count(&o);
            let got = run_main(&o, inputs.clone())
                .unwrap_or_else(|e| panic!("seed {seed} {level}: optimized program fails: {e}\n{}\n{}", print(&m), print(&o)));
            assert!(
                same(&expected, &got),
                "seed {seed} {level}: results differ\nexpected {expected:?}\ngot {got:?}\n--- input ---\n{}\n--- optimized ---\n{}",
                print(&m),
                print(&o)
            );
        }
    }
    println!("{n} programs, {ops_before} ops; after O1/O2/O3: {ops_after:?}; changed: {changed_by:?}");
    // the generator plants identities, repeats and invariants: the optimizer must find some in most programs
    assert!(changed_by.iter().all(|&c| c as u64 * 2 > n), "optimizer changed too few programs: {changed_by:?}");
    assert!(ops_after[1] < ops_before && ops_after[2] <= ops_after[1] + n as usize);
}

/// Malformed modules (an op removed, so its results are used undefined; an operand swapped for a value of
/// another type) must never crash the optimizer: it returns Ok or Err.
#[test]
fn malformed_programs_never_panic() {
    let opts = GenOptions::default();
    for seed in 0..150u64 {
        let (m, _) = try_generate(seed, &opts).unwrap_or_else(|e| panic!("generator: {e}"));
        for k in 0..3u64 {
            let mut bad = m.clone();
            let Some(f) = bad.funcs.first_mut() else { continue };
            let nvals = f.values.len() as u32;
            let Some(b) = f.body.blocks.first_mut() else { continue };
            let n = b.ops.len();
            if n < 2 {
                continue;
            }
            let i = ((seed * 7 + k * 13) as usize) % (n - 1);
            if k % 2 == 0 {
                b.ops.remove(i);
            } else if let Some(v) = b.ops[i].operands.first_mut() {
                *v = oxhlo_ir::Value(((seed + k) as u32 * 31) % (nvals + 3));
            }
            for level in [OptLevel::O1, OptLevel::O3] {
                let mut o = bad.clone();
                let _ = optimize(&mut o, &OptOptions { level, verify_each: false, ..OptOptions::default() });
            }
        }
    }
}
