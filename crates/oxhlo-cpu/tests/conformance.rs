//! The interpreter's conformance suite (`crates/oxhlo-interp/tests/conformance/*.mlir`, expected values
//! from NumPy/JAX and the spec) run on the CPU backend, with fusion off and on. Every case must pass as it
//! does on the interpreter. `CONFORMANCE_FILTER=substring` runs only matching files.

use oxhlo_cpu::{CpuOptions, CpuProgram};
use oxhlo_plan::fusion::FusionOptions;
use std::path::Path;

fn run_suite(fusion: FusionOptions) {
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
    let opts = CpuOptions { fusion, threads: 2, interpreter_only: false };
    let (mut passed, mut failed) = (0, 0);
    let mut failures = String::new();
    for f in &files {
        let src = std::fs::read_to_string(f).expect("readable test file");
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let runner = |m: &oxhlo_ir::Module| CpuProgram::compile(m.clone(), &opts)?.run_case();
        let report = oxhlo_interp::testing::run_test_source_with(&src, &format!("tests/conformance/{name}"), &runner);
        passed += report.passed();
        failed += report.failed();
        if report.failed() > 0 {
            println!("{name}: {} passed, {} failed", report.passed(), report.failed());
            failures.push_str(&report.render());
        }
    }
    println!("CPU backend conformance: {passed} passed, {failed} failed");
    assert_eq!(failed, 0, "{failed} conformance case(s) failed on the CPU backend:\n{failures}");
}

fn on_big_stack(f: impl FnOnce() + Send) {
    std::thread::scope(|s| {
        std::thread::Builder::new().stack_size(256 << 20).spawn_scoped(s, f).unwrap().join().unwrap();
    });
}

#[test]
fn conformance_without_fusion() {
    on_big_stack(|| run_suite(FusionOptions { enabled: false, aggressive: false }));
}

#[test]
fn conformance_with_fusion() {
    on_big_stack(|| run_suite(FusionOptions { enabled: true, aggressive: true }));
}
