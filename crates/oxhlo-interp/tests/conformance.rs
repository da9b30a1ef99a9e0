//! The conformance suite: runs every `tests/conformance/*.mlir` file through the test runner (cases split on
//! `// -----`, each case's `@main` run with its `check.*` ops) and asserts that no case fails. Prints the
//! per-file counts. `CONFORMANCE_FILTER=substring` runs only matching files.

use oxhlo_interp::testing::{run_case, run_conformance_dir};
use std::path::Path;

#[test]
fn conformance_suite() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let summary = run_conformance_dir(&dir, &run_case).unwrap_or_else(|e| panic!("{e}"));
    let (passed, failed) = (summary.passed(), summary.failed());
    println!("conformance total: {passed} passed, {failed} failed");
    assert_eq!(failed, 0, "{failed} conformance case(s) failed:\n{}", summary.failures());
}
