//! The conformance suite: runs every `tests/conformance/*.mlir` file through the test runner (cases split on
//! `// -----`, each case's `@main` run with its `check.*` ops) and asserts that no case fails. Prints the
//! per-file counts. `CONFORMANCE_FILTER=substring` runs only matching files.

use std::path::Path;

#[test]
fn conformance_suite() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let filter = std::env::var("CONFORMANCE_FILTER").unwrap_or_default();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/conformance exists")
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
        let report = oxhlo_interp::run_test_source(&src, &format!("tests/conformance/{name}"));
        println!("{name}: {} passed, {} failed", report.passed(), report.failed());
        passed += report.passed();
        failed += report.failed();
        if report.failed() > 0 {
            failures.push_str(&report.render());
        }
    }
    println!("conformance total: {passed} passed, {failed} failed");
    if failed > 0 {
        println!("{failures}");
    }
    assert_eq!(failed, 0, "{failed} conformance case(s) failed:\n{failures}");
}
