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

/// Runs one case at O2 on the CPU executor with the fusion options `adjust` sets (the GPU's plan).
fn run_case_at_o2_with(m: &oxhlo_ir::Module, adjust: fn(&mut oxhlo_plan::fusion::FusionOptions)) -> CaseRun {
    let mut m = m.clone();
    let inputs = oxhlo_opt::lift_constants_to_args(&mut m);
    // The GPU's optimizer options too: sums with per-slice factors factored out.
    oxhlo_opt::optimize(&mut m, &OptOptions { verify_each: true, factor_sums: true, ..OptOptions::at(OptLevel::O2) })?;
    let mut opts = oxhlo_cpu::pipeline::options_at(OptLevel::O2);
    adjust(&mut opts.fusion);
    let program = oxhlo_cpu::CpuProgram::compile(m, &opts)?;
    let (res, outcome) = program.run_with_checks(inputs.into_iter().map(Val::from_rt).collect());
    res.map_err(|e| e.to_string())?;
    Ok((outcome.checks_run, outcome.check_failures))
}

/// `FusionOptions::recompute` on, transcendental chains and new reads included (the GPU's rule; the
/// CPU's own recomputes only what adds no work).
fn recompute_costly(f: &mut oxhlo_plan::fusion::FusionOptions) {
    f.recompute = true;
    f.recompute_costly = true;
}

/// Row kernels and sibling reductions on too (run by the CPU's executors, off by default there), so the
/// plan's row groups and merged reductions are checked on every case.
fn rows_and_recompute_costly(f: &mut oxhlo_plan::fusion::FusionOptions) {
    recompute_costly(f);
    f.rows = true;
    f.sibling_reductions = 4;
}

fn run_suite(level: OptLevel) {
    run_suite_with(&level.to_string(), &|m: &oxhlo_ir::Module| run_case(m, level));
}

fn run_suite_with(level: &str, runner: &(dyn Fn(&oxhlo_ir::Module) -> CaseRun + Sync)) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-interp/tests/conformance");
    let summary = run_conformance_dir(&dir, runner).unwrap_or_else(|e| panic!("{e}"));
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
fn conformance_at_o2_recomputing_in_consumers() {
    on_big_stack(|| run_suite_with("O2 with recompute", &|m: &oxhlo_ir::Module| run_case_at_o2_with(m, recompute_costly)));
}

#[test]
fn conformance_at_o2_with_row_kernels() {
    on_big_stack(|| run_suite_with("O2 with row kernels and recompute (the GPU's plan)", &|m: &oxhlo_ir::Module| run_case_at_o2_with(m, rows_and_recompute_costly)));
}

#[test]
fn conformance_at_o3() {
    on_big_stack(|| run_suite(OptLevel::O3));
}
