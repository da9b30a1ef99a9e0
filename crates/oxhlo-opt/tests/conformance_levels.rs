//! The interpreter's conformance suite (`crates/oxhlo-interp/tests/conformance`) with every case optimized
//! at O1, O2 and O3 (verifying after every pass) before it runs on the interpreter: every case must still
//! pass. `check.*` ops have effects, so they survive every pass and still compare the optimized values.
//! `CONFORMANCE_FILTER=substring` runs only matching files.

use oxhlo_opt::{optimize, OptLevel, OptOptions};
use std::path::Path;

fn run_level(level: OptLevel) {
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
    let opts = OptOptions { level, verify_each: true, ..OptOptions::default() };
    let runner = |m: &oxhlo_ir::Module| {
        let mut m = m.clone();
        optimize(&mut m, &opts)?;
        oxhlo_interp::testing::run_case(&m)
    };
    let (mut passed, mut failed, mut checks) = (0, 0, 0);
    let mut failures = String::new();
    for f in &files {
        let src = std::fs::read_to_string(f).expect("readable test file");
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let report = oxhlo_interp::testing::run_test_source_with(&src, &format!("conformance/{name}"), &runner);
        passed += report.passed();
        failed += report.failed();
        checks += report.cases.iter().map(|c| c.checks).sum::<usize>();
        if report.failed() > 0 {
            failures.push_str(&report.render());
        }
    }
    println!("{level}: {passed} passed, {failed} failed, {checks} checks");
    assert_eq!(failed, 0, "{failed} case(s) failed at {level}:\n{failures}");
    if filter.is_empty() {
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
