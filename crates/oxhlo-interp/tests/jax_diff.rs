//! Differential test against JAX on CPU: `tests/jax_diff.py` lowers a few hundred jax.lax elementwise
//! functions to StableHLO text and saves inputs and JAX's outputs as .npy; this test runs every program on
//! the interpreter and compares — exactly for integer, bit and exactly rounded float ops, within a ULP
//! bound (or a bound relative to |expected| + 1, for complex and special functions, whose XLA versions are
//! approximations) otherwise. XLA on CPU flushes subnormal
//! results to zero; such a zero is accepted where the interpreter (following the spec) keeps the subnormal.
//! Skipped, with a message, when python3 with jax is not installed.

use oxhlo_interp::testing::ulp_difference;
use oxhlo_interp::{run_main, Data, RtValue, Tensor};
use oxhlo_ir::{Module, Type};
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Clone, Copy, Debug)]
enum Mode {
    Exact,
    Ulps(u64),
    Rel(f64),
}

fn parse_mode(s: &str) -> Mode {
    if let Some(n) = s.strip_prefix("ulps:") {
        Mode::Ulps(n.trim().parse().unwrap_or(1))
    } else if let Some(t) = s.strip_prefix("rel:") {
        Mode::Rel(t.trim().parse().unwrap_or(1e-6))
    } else {
        Mode::Exact
    }
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100000001b3))
}

/// Generates the case directories (once per version of the script).
fn cases_dir() -> Option<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jax_diff.py");
    let ok = Command::new("python3").args(["-c", "import jax, ml_dtypes, numpy"]).output();
    if !matches!(&ok, Ok(o) if o.status.success()) {
        println!("skipping the JAX differential test: python3 with jax, ml_dtypes and numpy is not available");
        return None;
    }
    let stamp = format!("{:016x}", fnv(&std::fs::read(&script).ok()?));
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("jax_diff");
    let dir = root.join(&stamp);
    if dir.join("DONE").exists() {
        return Some(dir);
    }
    let _ = std::fs::remove_dir_all(&root);
    let out = Command::new("python3").arg(&script).arg(&dir).env("JAX_PLATFORMS", "cpu").output().expect("python3 runs");
    assert!(out.status.success(), "jax_diff.py failed:\n{}", String::from_utf8_lossy(&out.stderr));
    println!("{}", String::from_utf8_lossy(&out.stdout).trim());
    std::fs::write(dir.join("DONE"), b"").expect("stamp written");
    Some(dir)
}

fn read_tensor(path: &Path, ty: &Type) -> Result<Tensor, String> {
    let want = ty.as_tensor().ok_or("non-tensor parameter")?;
    oxhlo_interp::npy::read_npy(path, Some(want))
}

/// Compares one element pair of a float format; Ok(true) when accepted only through flush-to-zero.
fn float_ok(fmt: &oxhlo_dtype::FloatFormat, got: f64, want: f64, mode: Mode) -> Result<bool, ()> {
    if (got.is_nan() && want.is_nan()) || (got == want && got.is_sign_negative() == want.is_sign_negative()) {
        return Ok(false);
    }
    let min_normal = oxhlo_dtype::decode(fmt, fmt.min_normal_bits());
    if want == 0.0 && got.abs() < min_normal {
        return Ok(true);
    }
    match mode {
        Mode::Exact => Err(()),
        Mode::Ulps(n) if ulp_difference(fmt, got, want) <= n => Ok(false),
        Mode::Rel(t) if got.is_finite() && want.is_finite() && (got - want).abs() <= t * (want.abs() + 1.0) => {
            Ok(false)
        }
        _ => Err(()),
    }
}

/// Compares two tensors; returns (first mismatch message, count of flush-to-zero acceptances).
fn compare(got: &Tensor, want: &Tensor, mode: Mode) -> (Option<String>, usize) {
    if got.ty.shape != want.ty.shape {
        return (Some(format!("shape {:?} vs expected {:?}", got.ty.shape, want.ty.shape)), 0);
    }
    let mut ftz = 0;
    let fmt = got.ty.elem.float_type().map(|f| f.format());
    let bad = |i: usize| {
        Some(format!(
            "index {i}: got {}, expected {}",
            oxhlo_interp::testing::fmt_elem(&got.data, i, &got.ty.elem),
            oxhlo_interp::testing::fmt_elem(&want.data, i, &want.ty.elem)
        ))
    };
    match (&got.data, &want.data) {
        (Data::Float(a), Data::Float(b)) => {
            let fmt = fmt.expect("float type");
            for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
                match float_ok(fmt, x, y, mode) {
                    Ok(true) => ftz += 1,
                    Ok(false) => {}
                    Err(()) => return (bad(i), ftz),
                }
            }
        }
        (Data::Complex(a), Data::Complex(b)) => {
            let fmt = fmt.expect("complex type");
            for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
                let ok = match mode {
                    Mode::Rel(t) => {
                        let d = (x.0 - y.0).hypot(x.1 - y.1);
                        let m = y.0.hypot(y.1);
                        (x.0.is_nan() || x.1.is_nan()) == (y.0.is_nan() || y.1.is_nan())
                            && (d <= t * (m + 1.0) || (x == y))
                    }
                    _ => float_ok(fmt, x.0, y.0, mode).is_ok() && float_ok(fmt, x.1, y.1, mode).is_ok(),
                };
                if !ok {
                    return (bad(i), ftz);
                }
            }
        }
        (a, b) if a == b => {}
        (a, b) if std::mem::discriminant(a) == std::mem::discriminant(b) => {
            let n = a.len().min(b.len());
            let i = (0..n).find(|&i| {
                oxhlo_interp::testing::fmt_elem(a, i, &got.ty.elem) != oxhlo_interp::testing::fmt_elem(b, i, &want.ty.elem)
            });
            return (bad(i.unwrap_or(0)), ftz);
        }
        _ => return (Some("storage kinds differ".into()), ftz),
    }
    (None, ftz)
}

fn run_case(dir: &Path) -> Result<usize, String> {
    let meta = std::fs::read_to_string(dir.join("meta.txt")).map_err(|e| e.to_string())?;
    let mode = meta
        .lines()
        .find_map(|l| l.strip_prefix("compare = "))
        .map(parse_mode)
        .unwrap_or(Mode::Exact);
    let src = std::fs::read_to_string(dir.join("program.mlir")).map_err(|e| e.to_string())?;
    let module: Module = oxhlo_text::parse_module(&src, "program.mlir").map_err(|d| format!("parse: {d}"))?;
    let func = module.entry().ok_or("no entry function")?;
    let mut inputs = Vec::new();
    for (i, ty) in func.ty.inputs.iter().enumerate() {
        inputs.push(RtValue::Tensor(read_tensor(&dir.join(format!("in{i}.npy")), ty)?));
    }
    let results = run_main(&module, inputs).map_err(|e| format!("run: {e}"))?;
    let mut ftz = 0;
    for (i, (r, ty)) in results.iter().zip(&func.ty.results).enumerate() {
        let want = read_tensor(&dir.join(format!("out{i}.npy")), ty)?;
        let RtValue::Tensor(got) = r else { return Err("non-tensor result".into()) };
        let (msg, n) = compare(got, &want, mode);
        ftz += n;
        if let Some(m) = msg {
            return Err(format!("result {i} ({mode:?}): {m}"));
        }
    }
    Ok(ftz)
}

#[test]
fn jax_differential() {
    let Some(dir) = cases_dir() else { return };
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("case directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    let (mut passed, mut failures, mut ftz) = (0, Vec::new(), 0);
    for c in &cases {
        match run_case(c) {
            Ok(n) => {
                passed += 1;
                ftz += n;
            }
            Err(e) => failures.push(format!("{}: {e}", c.file_name().unwrap_or_default().to_string_lossy())),
        }
    }
    println!("jax differential: {passed} passed, {} failed ({ftz} elements accepted as XLA flush-to-zero)", failures.len());
    for f in failures.iter().take(40) {
        println!("  FAIL {f}");
    }
    assert!(!cases.is_empty(), "no cases generated");
    assert!(failures.is_empty(), "{} of {} JAX programs disagree", failures.len(), cases.len());
}
