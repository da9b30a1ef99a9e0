//! Differential test of the CPU backend: random programs from `oxhlo-progen` run on the CPU backend at O0,
//! O1, O2 and O3 and must agree with the reference interpreter on the unoptimized program: integers and
//! booleans exactly, floats within a relative tolerance (native dot_general and reductions reassociate sums;
//! fast exp/log/tanh are within a few ulp). A failure names the seed and level and prints the program.
//! `PROGEN_SEEDS=N` changes the number of programs.

use oxhlo_cpu::{OptLevel, OptOptions, Val};
use oxhlo_interp::{run_main, Data, RtValue};
use oxhlo_progen::{generate, GenOptions};

fn close(a: &[RtValue], b: &[RtValue]) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{} results vs {}", a.len(), b.len()));
    }
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        let (RtValue::Tensor(x), RtValue::Tensor(y)) = (x, y) else { continue };
        if x.ty.shape != y.ty.shape || x.ty.elem != y.ty.elem {
            return Err(format!("result {k}: type {:?} vs {:?}", x.ty, y.ty));
        }
        match (&x.data, &y.data) {
            (Data::Float(p), Data::Float(q)) => {
                let scale = p.iter().filter(|v| v.is_finite()).fold(1.0f64, |m, v| m.max(v.abs()));
                for (i, (u, v)) in p.iter().zip(q).enumerate() {
                    let ok = (u.is_nan() && v.is_nan()) || u == v || (u - v).abs() <= 1e-4 * scale.max(u.abs());
                    if !ok {
                        return Err(format!("result {k} element {i}: interpreter {u}, CPU backend {v}"));
                    }
                }
            }
            (p, q) if p != q => return Err(format!("result {k}: values differ")),
            _ => {}
        }
    }
    Ok(())
}

#[test]
fn random_programs_match_the_interpreter_at_every_level() {
    let n: u64 = std::env::var("PROGEN_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(150);
    let opts = GenOptions::default();
    let mut failures = Vec::new();
    for seed in 0..n {
        let (module, inputs) = generate(seed, &opts);
        let Ok(expected) = run_main(&module, inputs.clone()) else { continue };
        for level in [OptLevel::O0, OptLevel::O1, OptLevel::O2, OptLevel::O3] {
            let opt = OptOptions { verify_each: true, ..OptOptions::at(level) };
            let got = oxhlo_cpu::pipeline::compile(module.clone(), &opt, None).and_then(|(p, _)| {
                let vals = inputs.iter().cloned().map(Val::from_rt).collect();
                oxhlo_interp::eval::on_big_stack(|| p.run(vals))
                    .and_then(|r| r)
                    .map(|out| out.iter().map(Val::to_rt).collect::<Vec<_>>())
                    .map_err(|e| e.to_string())
            });
            let verdict = got.and_then(|g| close(&expected, &g));
            if let Err(e) = verdict {
                failures.push(format!(
                    "seed {seed} at {level}: {e}\n{}",
                    oxhlo_text::print_module(&module, &oxhlo_text::PrintOptions::default())
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} failure(s); first:\n{}", failures.len(), failures[0]);
}
