//! Real JAX programs, lowered at test time by `jax_programs.py` (an MLP, a conv net, a while loop, scan,
//! sort, gather/scatter, the gradient of a transformer block, `jnp.linalg` calls, and more): each parses,
//! round-trips through the pretty and generic printers, keeps its Python source locations, and — checked by
//! MLIR itself through `mlir_equiv.py` — oxhlo's printed text means exactly what JAX's text means.
//! Skipped (with a message) when `python3` cannot import jax.

use oxhlo_ir::{Location, OpKind};
use oxhlo_text::{parse_module, print_module, PrintOptions};
use std::path::{Path, PathBuf};
use std::process::Command;

fn have_jax() -> bool {
    Command::new("python3").args(["-c", "import jax"]).output().map(|o| o.status.success()).unwrap_or(false)
}

fn file_of(l: &Location) -> Option<&str> {
    l.file_line_col().map(|(f, _, _)| f)
}

#[test]
fn jax_programs_parse_round_trip_and_match_mlir() {
    if !have_jax() {
        eprintln!("skipping jax_programs: python3 cannot import jax");
        return;
    }
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let dir = std::env::temp_dir().join(format!("oxhlo-text-jax-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new("python3").env("JAX_PLATFORMS", "cpu").arg(here.join("jax_programs.py")).arg(&dir).output().expect("run jax_programs.py");
    assert!(out.status.success(), "jax_programs.py failed:\n{}", String::from_utf8_lossy(&out.stderr));

    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 16, "expected the generated programs, got {files:?}");
    let mut ops = 0usize;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(path).unwrap();
        let m = parse_module(&src, &name).unwrap_or_else(|d| panic!("{d}"));
        let mut python_locs = 0usize;
        for f in &m.funcs {
            f.walk(&mut |op| {
                ops += 1;
                assert_ne!(op.kind, OpKind::Unregistered, "{name}: unregistered op {}", op.name());
                if file_of(&op.loc).is_some_and(|f| f.ends_with(".py")) {
                    python_locs += 1;
                }
            });
        }
        if name.ends_with(".debug.mlir") {
            assert!(python_locs > 0, "{name}: no op kept its Python source location");
        }
        for generic in [false, true] {
            let text = print_module(&m, &PrintOptions { generic, debug_info: false });
            let m2 = parse_module(&text, "printed.mlir").unwrap_or_else(|d| panic!("{name}: {d}"));
            assert!(m2.without_locations() == m.without_locations(), "{name}: round trip (generic: {generic}) changed the module");
            if !name.ends_with(".debug.mlir") {
                let kind = if generic { "generic" } else { "pretty" };
                let base = name.trim_end_matches(".mlir");
                std::fs::write(dir.join(format!("{base}.{kind}.mlir")), &text).unwrap();
            }
        }
        let text = print_module(&m, &PrintOptions { generic: false, debug_info: true });
        let m3 = parse_module(&text, "printed.mlir").unwrap_or_else(|d| panic!("{name}: {d}"));
        assert!(m3 == m, "{name}: debug-info round trip changed the module or its locations");
    }
    assert!(ops > 1000, "only {ops} ops in the JAX programs");
    let eq = Command::new("python3").env("JAX_PLATFORMS", "cpu").arg(here.join("mlir_equiv.py")).arg(&dir).output().expect("run mlir_equiv.py");
    let report = String::from_utf8_lossy(&eq.stdout);
    assert!(eq.status.success(), "MLIR disagrees with oxhlo's printed text:\n{report}\n{}", String::from_utf8_lossy(&eq.stderr));
    eprintln!("jax programs: {} files, {ops} ops; {}", files.len(), report.trim());
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}

/// The corpus files MLIR can load (the StableHLO and chlo ones): oxhlo's pretty and generic prints of
/// them mean exactly what the files mean, according to MLIR.
#[test]
fn corpus_prints_match_mlir() {
    if !have_jax() {
        eprintln!("skipping corpus_prints_match_mlir: python3 cannot import jax");
        return;
    }
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let dir = std::env::temp_dir().join(format!("oxhlo-text-corpus-mlir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let names = ["elementwise", "shape_ops", "regions", "collectives", "chlo", "dense"];
    for n in names.iter().flat_map(|n| [n.to_string(), format!("{n}_generic")]) {
        let src = std::fs::read_to_string(here.join("corpus").join(format!("{n}.mlir"))).unwrap();
        let m = parse_module(&src, &n).unwrap_or_else(|d| panic!("{d}"));
        std::fs::write(dir.join(format!("{n}.mlir")), &src).unwrap();
        for generic in [false, true] {
            let kind = if generic { "generic" } else { "pretty" };
            std::fs::write(dir.join(format!("{n}.{kind}.mlir")), print_module(&m, &PrintOptions { generic, debug_info: false })).unwrap();
        }
    }
    let eq = Command::new("python3").env("JAX_PLATFORMS", "cpu").arg(here.join("mlir_equiv.py")).arg(&dir).output().expect("run mlir_equiv.py");
    let report = String::from_utf8_lossy(&eq.stdout);
    assert!(eq.status.success(), "MLIR disagrees with oxhlo's printed text:\n{report}\n{}", String::from_utf8_lossy(&eq.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
