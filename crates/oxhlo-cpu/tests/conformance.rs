//! The interpreter's conformance suite (`crates/oxhlo-interp/tests/conformance/*.mlir`, expected values
//! from NumPy/JAX and the spec) run on the CPU backend at every optimization level (O0: per-op kernels;
//! O1-O3: the optimizer's passes, fusion from O2). Every case must pass as it does on the interpreter. From
//! O1 on, each case's constants are first lifted into parameters so that constant folding cannot hide the
//! kernels under test. `CONFORMANCE_FILTER=substring` runs only matching files.

use oxhlo_cpu::{OptLevel, OptOptions, Val};
use oxhlo_interp::testing::{run_conformance_dir, CaseRun};
use std::path::Path;

/// Runs one case at `level` on the CPU backend: (checks evaluated, failures).
fn run_case(m: &oxhlo_ir::Module, level: OptLevel) -> CaseRun {
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
    let runner = |m: &oxhlo_ir::Module| run_case(m, level);
    let summary = run_conformance_dir(&dir, &runner).unwrap_or_else(|e| panic!("{e}"));
    let (passed, failed) = (summary.passed(), summary.failed());
    println!("CPU backend conformance at {level}: {passed} passed, {failed} failed");
    assert_eq!(failed, 0, "{failed} conformance case(s) failed on the CPU backend at {level}:\n{}", summary.failures());
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
