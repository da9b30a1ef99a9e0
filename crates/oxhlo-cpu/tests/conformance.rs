//! The interpreter's conformance suite (`crates/oxhlo-interp/tests/conformance/*.mlir`, expected values
//! from NumPy/JAX and the spec) run on the CPU backend at every optimization level (O0: per-op kernels;
//! O1-O3: the optimizer's passes, fusion from O2). Every case must pass as it does on the interpreter. From
//! O1 on, each case's constants are first lifted into parameters so that constant folding cannot hide the
//! kernels under test. `CONFORMANCE_FILTER=substring` runs only matching files.

use oxhlo_cpu::{OptLevel, OptOptions, Val};
use std::path::Path;

/// Runs one case at `level` on the CPU backend: (checks evaluated, failures).
fn run_case(m: &oxhlo_ir::Module, level: OptLevel) -> Result<(usize, Vec<oxhlo_interp::testing::CheckFailure>), String> {
    let mut m = m.clone();
    let inputs = if level > OptLevel::O0 { oxhlo_opt::lift_constants_to_args(&mut m) } else { Vec::new() };
    let opt = OptOptions { verify_each: true, ..OptOptions::at(level) };
    let (program, _) = oxhlo_cpu::pipeline::compile(m, &opt, None)?;
    let (res, outcome) = program.run_with_checks(inputs.into_iter().map(Val::from_rt).collect());
    res.map_err(|e| e.to_string())?;
    Ok((outcome.checks_run, outcome.check_failures))
}

fn run_suite(level: OptLevel) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-interp/tests/conformance");
    let filter = std::env::var("CONFORMANCE_FILTER").unwrap_or_default();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the interpreter's conformance directory exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .filter(|p| p.to_string_lossy().contains(&filter))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no conformance files found");
    let (mut passed, mut failed) = (0, 0);
    let mut failures = String::new();
    for f in &files {
        let src = std::fs::read_to_string(f).expect("readable test file");
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let runner = |m: &oxhlo_ir::Module| run_case(m, level);
        let report = oxhlo_interp::testing::run_test_source_with(&src, &format!("tests/conformance/{name}"), &runner);
        passed += report.passed();
        failed += report.failed();
        if report.failed() > 0 {
            println!("{name}: {} passed, {} failed", report.passed(), report.failed());
            failures.push_str(&report.render());
        }
    }
    println!("CPU backend conformance at {level}: {passed} passed, {failed} failed");
    assert_eq!(failed, 0, "{failed} conformance case(s) failed on the CPU backend at {level}:\n{failures}");
}

fn on_big_stack(f: impl FnOnce() + Send) {
    std::thread::scope(|s| {
        std::thread::Builder::new().stack_size(256 << 20).spawn_scoped(s, f).unwrap().join().unwrap();
    });
}

#[test]
fn conformance_at_o0() {
    on_big_stack(|| run_suite(OptLevel::O0));
}

#[test]
fn conformance_at_o1() {
    on_big_stack(|| run_suite(OptLevel::O1));
}

#[test]
fn conformance_at_o2() {
    on_big_stack(|| run_suite(OptLevel::O2));
}

#[test]
fn conformance_at_o3() {
    on_big_stack(|| run_suite(OptLevel::O3));
}
