//! Compiles every C program of examples/c with the system C compiler against oxhlo.h, links it with the
//! shared library and with the static library, runs it, and checks what it prints. The programs check their
//! own results against values worked out by hand and exit non-zero on any mismatch.

mod common;

use common::{build_c, run_ok, Link};

fn run_both(name: &str, expect_in_stdout: &str) {
    for link in [Link::Shared, Link::Static] {
        let exe = build_c(name, link);
        let out = run_ok(&exe, &[]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains(expect_in_stdout), "{name} ({link:?}) printed:\n{stdout}");
    }
}

#[test]
fn add() {
    run_both("add", "[[11, 22], [33, 44]]");
}

#[test]
fn errors() {
    run_both("errors", "0 failures");
}

#[test]
fn dtypes() {
    run_both("dtypes", "31 element types, 0 failures");
}

#[test]
fn timing() {
    run_both("timing", "kernels");
}

#[test]
fn threads() {
    run_both("threads", "4 threads x 50 runs, 0 wrong results");
}

#[test]
fn leak_cycles_without_valgrind() {
    let exe = build_c("leak_cycles", Link::Static);
    let out = run_ok(&exe, &["20"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("20 cycles done"));
}

#[test]
fn every_example_is_tested() {
    let tested = ["add", "errors", "dtypes", "timing", "threads", "leak_cycles"];
    for entry in std::fs::read_dir(common::examples_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "c") {
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            assert!(tested.contains(&stem.as_str()), "examples/c/{stem}.c has no test");
        }
    }
}
