//! Times `optimize` on a program: `cargo run --release -p oxhlo-opt --example opt_time -- PROG.mlir [--check]`.
//! Prints each level's pass report and op counts; `--check` also runs the program (deterministic inputs)
//! unoptimized and at every level on the interpreter and compares the results bitwise.

use oxhlo_interp::{run_main, Data, RtValue, Tensor};
use oxhlo_ir::Type;
use oxhlo_opt::{optimize, OptLevel, OptOptions};
use std::time::Instant;

fn ops(m: &oxhlo_ir::Module) -> usize {
    let mut n = 0;
    for f in &m.funcs {
        f.walk(&mut |_| n += 1);
    }
    n
}

fn inputs(m: &oxhlo_ir::Module) -> Result<Vec<RtValue>, String> {
    let f = m.entry().ok_or("no entry function")?;
    f.ty.inputs
        .iter()
        .map(|t| {
            let Type::Tensor(t) = t else { return Err("non-tensor input".to_string()) };
            let n = t.num_elements().ok_or("dynamic input")?;
            let data = if t.elem.is_float() {
                Data::Float((0..n).map(|i| ((i * 37 % 101) as f32 / 101.0 - 0.5) as f64).collect())
            } else if t.elem.is_bool() {
                Data::Bool((0..n).map(|i| i % 2 == 0).collect())
            } else if t.elem.is_unsigned_integer() {
                Data::UInt((0..n).map(|i| (i % 7) as u64).collect())
            } else {
                Data::Int((0..n).map(|i| (i % 7) as i64).collect())
            };
            Ok(RtValue::Tensor(Tensor { ty: t.clone(), data }))
        })
        .collect()
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.iter().find(|a| !a.starts_with("--")).ok_or("usage: opt_time PROG.mlir [--check]")?;
    let check = args.iter().any(|a| a == "--check");
    let src = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let t = Instant::now();
    let m = oxhlo_text::parse_module(&src, path).map_err(|d| d.to_string())?;
    oxhlo_ir::verify_module(&m).map_err(|d| d.to_string())?;
    println!("{path}: {} ops, parsed and verified in {:.3?}", ops(&m), t.elapsed());
    let expected = if check {
        let t = Instant::now();
        let r = run_main(&m, inputs(&m)?).map_err(|e| e.to_string())?;
        println!("O0 run: {:.3?}", t.elapsed());
        Some(r)
    } else {
        None
    };
    for level in [OptLevel::O1, OptLevel::O2, OptLevel::O3] {
        let mut o = m.clone();
        let t = Instant::now();
        let report = optimize(&mut o, &OptOptions { level, verify_each: false, ..OptOptions::default() })?;
        let took = t.elapsed();
        oxhlo_ir::verify_module(&o).map_err(|d| format!("{level}: {d}"))?;
        println!("{level}: optimize {took:.3?}, {} -> {} ops", ops(&m), ops(&o));
        print!("{}", report.render());
        if let Some(exp) = &expected {
            let t = Instant::now();
            let got = run_main(&o, inputs(&o)?).map_err(|e| e.to_string())?;
            let same = exp.len() == got.len()
                && exp.iter().zip(&got).all(|(a, b)| match (a, b) {
                    (RtValue::Tensor(x), RtValue::Tensor(y)) => match (&x.data, &y.data) {
                        (Data::Float(p), Data::Float(q)) => {
                            p.iter().zip(q).all(|(u, v)| (u.is_nan() && v.is_nan()) || u.to_bits() == v.to_bits())
                        }
                        (p, q) => p == q,
                    },
                    (a, b) => a == b,
                });
            println!("{level} run: {:.3?}, results {}", t.elapsed(), if same { "bitwise equal" } else { "DIFFER" });
            if !same {
                return Err(format!("{level}: results differ"));
            }
        }
    }
    Ok(())
}
