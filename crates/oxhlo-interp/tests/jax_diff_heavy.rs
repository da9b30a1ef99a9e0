//! Differential test of the heavy ops against JAX on CPU: runs every case under tests/jax_diff/heavy/
//! (written by tests/jax_diff_heavy.py: a JAX-lowered module.mlir, in<i>.npy inputs, out<i>.npy JAX
//! outputs, meta.json tolerances) on the interpreter and compares: integers and bools exactly, floats
//! and complex parts within `atol + rtol * |expected|` (NaN matches NaN). `JAX_DIFF_FILTER=substring`
//! runs only matching cases.

use oxhlo_interp::{Data, RtValue, Tensor};
use std::path::Path;

fn meta(dir: &Path) -> (f64, f64) {
    let text = std::fs::read_to_string(dir.join("meta.json")).unwrap_or_default();
    let num = |key: &str| -> f64 {
        text.split(&format!("\"{key}\":"))
            .nth(1)
            .and_then(|rest| rest.split([',', '}']).next())
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0.0)
    };
    (num("rtol"), num("atol"))
}

fn close(a: f64, b: f64, rtol: f64, atol: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= atol + rtol * b.abs()
}

fn compare(got: &Tensor, want: &Tensor, rtol: f64, atol: f64) -> Result<(), String> {
    if got.shape() != want.shape() {
        return Err(format!("shape {:?}, expected {:?}", got.shape(), want.shape()));
    }
    let bad = match (&got.data, &want.data) {
        (Data::Bool(a), Data::Bool(b)) => a.iter().zip(b).position(|(x, y)| x != y),
        (Data::Int(a), Data::Int(b)) => a.iter().zip(b).position(|(x, y)| x != y),
        (Data::UInt(a), Data::UInt(b)) => a.iter().zip(b).position(|(x, y)| x != y),
        (Data::Float(a), Data::Float(b)) => a.iter().zip(b).position(|(&x, &y)| !close(x, y, rtol, atol)),
        (Data::Complex(a), Data::Complex(b)) => {
            a.iter().zip(b).position(|(x, y)| !close(x.0, y.0, rtol, atol) || !close(x.1, y.1, rtol, atol))
        }
        _ => return Err(format!("element type {:?}, expected {:?}", got.ty.elem, want.ty.elem)),
    };
    match bad {
        None => Ok(()),
        Some(i) => Err(format!("first difference at flat index {i}: got {:?}, expected {:?}", pick(&got.data, i), pick(&want.data, i))),
    }
}

fn pick(d: &Data, i: usize) -> String {
    match d {
        Data::Bool(v) => format!("{}", v[i]),
        Data::Int(v) => format!("{}", v[i]),
        Data::UInt(v) => format!("{}", v[i]),
        Data::Float(v) => format!("{}", v[i]),
        Data::Complex(v) => format!("{:?}", v[i]),
    }
}

fn run_case(dir: &Path) -> Result<(), String> {
    let src = std::fs::read_to_string(dir.join("module.mlir")).map_err(|e| e.to_string())?;
    let module = oxhlo_text::parse_module(&src, &dir.join("module.mlir").to_string_lossy()).map_err(|d| d.to_string())?;
    let main = module.entry().ok_or("no entry function")?;
    let mut inputs = Vec::new();
    for (i, ty) in main.ty.inputs.iter().enumerate() {
        let t = oxhlo_interp::npy::read_npy(&dir.join(format!("in{i}.npy")), ty.as_tensor())?;
        inputs.push(RtValue::Tensor(t));
    }
    let outs = oxhlo_interp::run_main(&module, inputs).map_err(|e| e.to_string())?;
    let (rtol, atol) = meta(dir);
    for (i, (o, ty)) in outs.iter().zip(&main.ty.results).enumerate() {
        let want = oxhlo_interp::npy::read_npy(&dir.join(format!("out{i}.npy")), ty.as_tensor())?;
        let RtValue::Tensor(got) = o else { return Err(format!("result {i} is not a tensor")) };
        compare(got, &want, rtol, atol).map_err(|e| format!("result {i}: {e}"))?;
    }
    Ok(())
}

#[test]
fn jax_diff_heavy() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jax_diff/heavy");
    let filter = std::env::var("JAX_DIFF_FILTER").unwrap_or_default();
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("tests/jax_diff/heavy exists (run tests/jax_diff_heavy.py)")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && p.to_string_lossy().contains(&filter))
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no differential cases found");
    let mut failures = Vec::new();
    for d in &dirs {
        if let Err(e) = run_case(d) {
            failures.push(format!("{}: {e}", d.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()));
        }
    }
    println!("jax_diff_heavy: {} passed, {} failed", dirs.len() - failures.len(), failures.len());
    assert!(failures.is_empty(), "{} of {} cases differ from JAX:\n{}", failures.len(), dirs.len(), failures.join("\n"));
}
