//! The interpreter's conformance suite (`crates/oxhlo-interp/tests/conformance`) with every case optimized
//! at O1, O2 and O3 (verifying after every pass) before it runs on the interpreter: every case must still
//! pass. `check.*` ops have effects, so they survive every pass and still compare the optimized values.
//! `CONFORMANCE_FILTER=substring` runs only matching files.

use oxhlo_interp::testing::{run_case, run_conformance_dir};
use oxhlo_opt::{optimize, OptLevel, OptOptions};
use std::path::Path;

fn run_level(level: OptLevel) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-interp/tests/conformance");
    let opts = OptOptions { level, verify_each: true, ..OptOptions::default() };
    let runner = |m: &oxhlo_ir::Module| {
        let mut m = m.clone();
        optimize(&mut m, &opts)?;
        run_case(&m)
    };
    let summary = run_conformance_dir(&dir, &runner).unwrap_or_else(|e| panic!("{e}"));
    let (passed, failed) = (summary.passed(), summary.failed());
    println!("{level}: {passed} passed, {failed} failed, {} checks", summary.checks());
    assert_eq!(failed, 0, "{failed} case(s) failed at {level}:\n{}", summary.failures());
    if summary.filter.is_empty() {
        assert!(passed >= 2797, "expected the whole suite, ran {passed} cases");
    }
}

#[test]
fn conformance_at_o1() {
    run_level(OptLevel::O1);
}

#[test]
fn conformance_at_o2() {
    run_level(OptLevel::O2);
}

#[test]
fn conformance_at_o3() {
    run_level(OptLevel::O3);
}
