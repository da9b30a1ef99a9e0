//! Runs `.mlir` test files through the interpreter's test runner and prints the report:
//! `cargo run -p oxhlo-interp --example check_file -- FILE.mlir...` (exit status 1 if any case failed).

fn main() {
    let mut failed = 0;
    for path in std::env::args().skip(1) {
        let src = match std::fs::read_to_string(&path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        };
        let report = oxhlo_interp::run_test_source(&src, &path);
        print!("{path}: {}", report.render());
        failed += report.failed();
    }
    std::process::exit(if failed > 0 { 1 } else { 0 });
}
