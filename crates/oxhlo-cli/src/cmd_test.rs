//! `oxhlo test FILE.mlir|DIR...`: run StableHLO-style test files (cases split on `// -----`, `check.*` ops)
//! on the reference interpreter; prints one line per failing case and `N passed, M failed`.

use crate::args::Args;
use std::path::{Path, PathBuf};

pub fn run(argv: &[String]) -> Result<bool, String> {
    let args = Args::parse(argv, &["quiet"], &[])?;
    if args.positional.is_empty() {
        return Err("test: give one or more .mlir files or directories".into());
    }
    let mut files = Vec::new();
    for p in &args.positional {
        collect(Path::new(p), &mut files)?;
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    for f in &files {
        let src = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let report = oxhlo_interp::run_test_source(&src, &f.display().to_string());
        passed += report.passed();
        failed += report.failed();
        if report.failed() > 0 {
            print!("{}", report.render());
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

/// Adds a file, or every `.mlir` file under a directory (sorted), to `out`.
fn collect(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| format!("{}: {e}", p.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || e.extension().is_some_and(|x| x == "mlir") {
                collect(&e, out)?;
            }
        }
        Ok(())
    } else if p.exists() {
        out.push(p.to_path_buf());
        Ok(())
    } else {
        Err(format!("{}: no such file or directory", p.display()))
    }
}
