//! Round trip of the `.mlir` corpus: every file (split at `// -----`) parses, and printing it in pretty
//! form, in generic form, and with debug info reads back to the same module; every op of the op table
//! appears in the corpus in the generic form and, where it has one, in its pretty form.

use oxhlo_ir::{Module, OpKind, Syntax, OP_TABLE};
use oxhlo_text::{parse_module, parse_module_at, print_module, split_input, PrintOptions};
use std::path::PathBuf;

fn corpus() -> Vec<(PathBuf, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "corpus has {} files", files.len());
    files.into_iter().map(|p| {
        let s = std::fs::read_to_string(&p).expect("read corpus file");
        (p, s)
    }).collect()
}

fn modules() -> Vec<(String, Module)> {
    let mut out = Vec::new();
    for (path, src) in corpus() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for (line, chunk) in split_input(&src) {
            let m = parse_module_at(chunk, &name, line).unwrap_or_else(|d| panic!("{d}"));
            out.push((format!("{name}:{line}"), m));
        }
    }
    out
}

fn check_round_trip(opts: PrintOptions, exact_locations: bool) {
    for (name, m) in modules() {
        let text = print_module(&m, &opts);
        let m2 = parse_module(&text, "printed.mlir").unwrap_or_else(|d| panic!("{name}: printed text fails to parse: {d}\n{text}"));
        if exact_locations {
            assert!(m2 == m, "{name}: round trip with {opts:?} changed the module");
        } else {
            assert!(m2.without_locations() == m.without_locations(), "{name}: round trip with {opts:?} changed the module\n{text}");
        }
        // Printing is deterministic and idempotent.
        assert_eq!(print_module(&m2, &opts), text, "{name}: second print differs");
    }
}

#[test]
fn pretty_round_trip() {
    check_round_trip(PrintOptions { generic: false, debug_info: false }, false);
}

#[test]
fn generic_round_trip() {
    check_round_trip(PrintOptions { generic: true, debug_info: false }, false);
}

#[test]
fn debug_info_round_trip_keeps_locations() {
    check_round_trip(PrintOptions { generic: false, debug_info: true }, true);
    check_round_trip(PrintOptions { generic: true, debug_info: true }, true);
}

/// Whether `text` contains `name` used as a pretty op (not quoted, followed by a space or `(`).
fn has_pretty(text: &str, name: &str) -> bool {
    let short = name.strip_prefix("func.");
    text.lines().any(|l| {
        let l = l.split("//").next().unwrap_or("");
        let rest = match l.split_once(" = ") {
            Some((lhs, r)) if lhs.trim_start().starts_with('%') => r,
            _ => l,
        };
        let rest = rest.trim_start();
        let matches = |n: &str| rest.strip_prefix(n).is_some_and(|r| r.starts_with(' ') || r.starts_with('(') || r.is_empty());
        matches(name) || short.is_some_and(matches)
    })
}

#[test]
fn every_op_is_covered_in_both_forms() {
    let all: String = corpus().into_iter().map(|(_, s)| s).collect::<Vec<_>>().join("\n");
    let mut missing = Vec::new();
    for d in OP_TABLE {
        if !all.contains(&format!("\"{}\"(", d.name)) {
            missing.push(format!("{} (generic)", d.name));
        }
        if d.syntax != Syntax::Generic && !has_pretty(&all, d.name) {
            missing.push(format!("{} (pretty)", d.name));
        }
    }
    assert!(missing.is_empty(), "ops missing from the corpus: {missing:?}");
}

#[test]
fn every_parsed_op_kind_is_known() {
    // Only the corpus's deliberately foreign ops are unregistered.
    for (name, m) in modules() {
        for f in &m.funcs {
            f.walk(&mut |op| {
                if op.kind == OpKind::Unregistered {
                    let n = op.name();
                    assert!(n.starts_with("mydialect."), "{name}: unexpected unregistered op {n}");
                }
            });
        }
    }
}
