//! End-to-end tests of the `oxhlo` binary: exit codes, diagnostics and printed results.

use std::io::Write;
use std::process::{Command, Stdio};

fn oxhlo(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_oxhlo"));
    cmd.args(args).current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn oxhlo");
    if let Some(s) = stdin {
        child.stdin.take().expect("stdin").write_all(s.as_bytes()).expect("write stdin");
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().expect("wait");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn run_prints_the_mlp_result_numpy_computed() {
    // Expected from NumPy: np.maximum(x @ w1 + b1, 0) @ w2 with the constants of examples/mlp.mlir.
    let (code, out, err) = oxhlo(&["run", "examples/mlp.mlir"], None);
    assert_eq!(code, 0, "stderr: {err}");
    assert!(out.contains("[[5.0, 0.0], [9.0, 1.0]]"), "got: {out}");
}

#[test]
fn parse_reports_file_line_col_and_exits_1() {
    let src = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %a, %b : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n";
    let (code, _out, err) = oxhlo(&["parse", "-"], Some(src));
    assert_eq!(code, 1);
    assert!(err.starts_with("<stdin>:2:"), "got: {err}");
    assert!(err.contains("error:"), "got: {err}");
}

#[test]
fn parse_split_input_file_keeps_line_numbers() {
    let src = "func.func @main() -> () {\n  return\n}\n// -----\nfunc.func @main() -> () {\n  %0 = stablehlo.bogus_op\n}\n";
    let (code, out, err) = oxhlo(&["parse", "--split-input-file", "-"], Some(src));
    assert_eq!(code, 1);
    assert!(out.contains("func.func @main()"), "first case printed: {out}");
    assert!(err.contains("<stdin>:6:"), "diagnostic points at line 6: {err}");
}

#[test]
fn run_checks_input_count() {
    let (code, _out, err) = oxhlo(&["run", "examples/mlp.mlir", "--input", "x.npy"], None);
    assert_eq!(code, 2);
    assert!(err.contains("takes 0 input(s)"), "got: {err}");
}

#[test]
fn unknown_command_is_an_error() {
    let (code, _out, err) = oxhlo(&["frobnicate"], None);
    assert_eq!(code, 2);
    assert!(err.contains("unknown command"), "got: {err}");
}

#[test]
fn convert_prints_a_vhlo_artifact_as_text() {
    // The fixture is jaxlib's portable artifact (VHLO 1.13.7) of a small MLP; its source names @relu and dot_general.
    let (code, out, err) = oxhlo(&["convert", "crates/oxhlo-bytecode/tests/fixtures/mlp.vhlo_1.13.7.mlirbc"], None);
    assert_eq!(code, 0, "stderr: {err}");
    assert!(out.contains("func.func @main("), "got: {out}");
    assert!(out.contains("stablehlo.dot_general"), "got: {out}");
}

#[test]
fn convert_reports_the_byte_offset_of_truncated_bytecode() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../oxhlo-bytecode/tests/fixtures/mlp.vhlo_1.13.7.mlirbc"))
        .expect("fixture");
    let dir = std::env::temp_dir().join(format!("oxhlo-cli-trunc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let path = dir.join("trunc.mlirbc");
    std::fs::write(&path, &bytes[..100]).expect("write");
    let (code, _out, err) = oxhlo(&["convert", path.to_str().expect("utf8 path")], None);
    assert_eq!(code, 1);
    assert!(err.contains(": byte ") && err.contains("error:"), "got: {err}");
}

#[test]
fn bench_prints_a_timing_table() {
    let (code, out, err) = oxhlo(&["bench", "examples/mlp.mlir", "--runs", "3", "--warmup", "0"], None);
    assert_eq!(code, 0, "stderr: {err}");
    for row in ["load (parse+verify)", "runs", "median", "mean"] {
        assert!(out.contains(row), "missing {row}: {out}");
    }
    assert!(out.lines().any(|l| l.starts_with("runs") && l.trim_end().ends_with('3')), "got: {out}");
}

#[test]
fn run_reads_and_writes_npz_as_numpy_does() {
    // NumPy writes the inputs (np.savez) and reads the results back (np.load); the expected sum is NumPy's.
    let dir = std::env::temp_dir().join(format!("oxhlo-cli-npz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let d = dir.to_str().expect("utf8 path");
    let make = format!(
        "import numpy as np; np.savez('{d}/in.npz', np.arange(6, dtype=np.float32).reshape(2, 3), np.full((2, 3), 0.5, np.float32))"
    );
    match Command::new("python3").args(["-c", &make]).status() {
        Ok(s) if s.success() => {}
        _ => {
            eprintln!("SKIPPED: python3 with numpy is not available to write the .npz input");
            return;
        }
    }
    let prog = dir.join("add.mlir");
    std::fs::write(
        &prog,
        "func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {\n  %0 = stablehlo.add %a, %b : tensor<2x3xf32>\n  return %0 : tensor<2x3xf32>\n}\n",
    )
    .expect("write program");
    let out = format!("{d}/out.npz");
    let (code, _o, err) = oxhlo(&["run", prog.to_str().expect("utf8"), "--input", &format!("{d}/in.npz"), "--output", &out], None);
    assert_eq!(code, 0, "stderr: {err}");
    let check = format!(
        "import numpy as np; r = np.load('{out}')['result0']; e = np.arange(6, dtype=np.float32).reshape(2, 3) + np.float32(0.5); \
         assert r.dtype == np.float32 and r.shape == (2, 3) and (r == e).all(), r"
    );
    let status = Command::new("python3").args(["-c", &check]).status().expect("python3 ran before");
    assert!(status.success(), "numpy could not read the result or it differs");
}

#[test]
fn run_gives_the_numpy_result_on_every_backend_and_level() {
    // Expected from NumPy, as in run_prints_the_mlp_result_numpy_computed.
    for args in [
        &["run", "examples/mlp.mlir", "--backend", "interp"][..],
        &["run", "examples/mlp.mlir", "--backend", "cpu", "-O0"],
        &["run", "examples/mlp.mlir", "-O1"],
        &["run", "examples/mlp.mlir", "--opt-level", "3"],
    ] {
        let (code, out, err) = oxhlo(args, None);
        assert_eq!(code, 0, "{args:?} stderr: {err}");
        assert!(out.contains("[[5.0, 0.0], [9.0, 1.0]]"), "{args:?} got: {out}");
    }
    let (code, _, err) = oxhlo(&["run", "examples/mlp.mlir", "--backend", "tpu"], None);
    assert_eq!(code, 2);
    assert!(err.contains("unknown backend `tpu`"), "{err}");
    let (code, _, err) = oxhlo(&["run", "examples/mlp.mlir", "-O7"], None);
    assert_eq!(code, 2);
    assert!(err.contains("optimization level"), "{err}");
}

#[test]
fn test_command_counts_failures_on_the_cpu_backend() {
    // 1 + 2 is 3 (the second case's expectation is wrong on purpose).
    let src = "func.func @main() {\n  %a = stablehlo.constant dense<1> : tensor<i32>\n  %b = stablehlo.constant dense<2> : tensor<i32>\n  %c = stablehlo.add %a, %b : tensor<i32>\n  check.expect_eq_const %c, dense<3> : tensor<i32>\n  func.return\n}\n// -----\nfunc.func @main() {\n  %a = stablehlo.constant dense<1> : tensor<i32>\n  %b = stablehlo.constant dense<2> : tensor<i32>\n  %c = stablehlo.add %a, %b : tensor<i32>\n  check.expect_eq_const %c, dense<4> : tensor<i32>\n  func.return\n}\n";
    let dir = std::env::temp_dir().join(format!("oxhlo-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("add.mlir");
    std::fs::write(&f, src).unwrap();
    for extra in [&["--backend", "interp"][..], &["-O0"], &["-O3", "--print-after-all"]] {
        let mut args = vec!["test", f.to_str().unwrap()];
        args.extend_from_slice(extra);
        let (code, out, err) = oxhlo(&args, None);
        assert_eq!(code, 1, "{extra:?}: {out} {err}");
        assert!(out.contains("1 passed, 1 failed"), "{extra:?}: {out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
