//! Shared helpers of the integration tests: generating artifacts with jaxlib at test
//! time (once per test binary), reading fixtures, and extracting comparable facts from
//! generic-form MLIR text (jaxlib's print and ours).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub struct Artifact {
    pub name: String,
    pub bytes: Vec<u8>,
    /// jaxlib's generic print of the same bytecode.
    pub generic: String,
}

pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The checked-in fixtures: (file name, bytes).
pub fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = crate_dir().join("tests/fixtures");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("fixtures dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlirbc"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// True when jax artifacts may be skipped (no Python with jax on this machine).
pub fn jax_optional() -> bool {
    std::env::var("OXHLO_SKIP_JAX").is_ok_and(|v| v == "1")
}

/// Runs tests/gen_artifacts.py once into a fresh temp dir and loads what it wrote.
/// Returns None only when OXHLO_SKIP_JAX=1 and jax is unavailable.
pub fn artifacts() -> Option<&'static [Artifact]> {
    static CELL: OnceLock<Option<Vec<Artifact>>> = OnceLock::new();
    CELL.get_or_init(generate).as_deref()
}

fn generate() -> Option<Vec<Artifact>> {
    let dir = std::env::temp_dir().join(format!("oxhlo-bytecode-artifacts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = crate_dir().join("tests/gen_artifacts.py");
    let out = Command::new("python3").arg(&script).arg(&dir).env("JAX_PLATFORMS", "cpu").output();
    let ok = matches!(&out, Ok(o) if o.status.success());
    if !ok {
        let msg = match &out {
            Ok(o) => String::from_utf8_lossy(&o.stderr).into_owned(),
            Err(e) => e.to_string(),
        };
        if jax_optional() {
            eprintln!("skipping jax artifacts (OXHLO_SKIP_JAX=1): {msg}");
            return None;
        }
        panic!("gen_artifacts.py failed (install jax[cpu]==0.10.2, or set OXHLO_SKIP_JAX=1):\n{msg}");
    }
    let mut arts = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlirbc"))
        .collect();
    names.sort();
    for p in names {
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let generic = std::fs::read_to_string(p.with_extension("generic.mlir")).unwrap();
        arts.push(Artifact { name, bytes: std::fs::read(&p).unwrap(), generic });
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(arts.len() >= 30, "expected the generator to write at least 30 artifacts, got {}", arts.len());
    Some(arts)
}

/// One op line of a generic-form print: the op name and, for ops without regions,
/// the trailing `(operand types) -> results` signature.
#[derive(Debug, PartialEq)]
pub struct OpLine {
    pub name: String,
    pub signature: Option<String>,
}

/// Extracts every op (in print order) from generic-form text.
pub fn op_lines(text: &str) -> Vec<OpLine> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("//") || t.starts_with('#') {
            continue;
        }
        // `%a, %b = "name"(` or `%0:2 = "name"(` or `"name"(`
        let rest = match t.find(" = \"") {
            Some(i) if t.starts_with('%') => &t[i + 3..],
            _ => t,
        };
        if !rest.starts_with('"') {
            continue;
        }
        let Some(end) = rest[1..].find('"') else { continue };
        let name = rest[1..1 + end].to_string();
        if !rest[1 + end..].starts_with("\"(") {
            continue;
        }
        let has_regions = t.trim_end().ends_with("({");
        let signature = if has_regions { None } else { signature_of(t) };
        out.push(OpLine { name, signature });
    }
    out
}

/// The text between the last " : (" and the trailing " loc(" of an op line.
fn signature_of(line: &str) -> Option<String> {
    let end = line.rfind(" loc(").unwrap_or(line.len());
    let head = &line[..end];
    let start = head.rfind(" : (")?;
    Some(head[start + 3..].trim().to_string())
}

/// Property/attribute key sets of each `<{...}>` group in order of appearance.
pub fn property_keys(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(off) = text[i..].find("<{") {
        let start = i + off + 2;
        let mut depth = 0i32;
        let mut j = start;
        let mut keys = Vec::new();
        let mut tok_start = start;
        let mut in_str = false;
        while j < b.len() {
            let c = b[j];
            if in_str {
                if c == b'\\' {
                    j += 2;
                    continue;
                }
                if c == b'"' {
                    in_str = false;
                }
                j += 1;
                continue;
            }
            match c {
                b'"' => in_str = true,
                b'-' if b.get(j + 1) == Some(&b'>') => j += 1,
                b'(' | b'[' | b'{' | b'<' => depth += 1,
                b')' | b']' | b'}' | b'>' => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                }
                b'=' if depth == 0 => {
                    keys.push(text[tok_start..j].trim().trim_start_matches(',').trim().to_string());
                }
                b',' if depth == 0 => tok_start = j + 1,
                _ => {}
            }
            j += 1;
        }
        out.push(keys);
        i = j.max(start);
    }
    out
}

/// Path of the reference decoder in shared/notes, if this checkout has one beside it.
pub fn reference_decoder() -> Option<PathBuf> {
    let p = crate_dir().join("../../../shared/notes/mlirbc_reference.py");
    p.exists().then_some(p)
}

/// Runs the reference decoder on `bytes` and returns its op count ("// OK: N ops").
pub fn reference_op_count(script: &Path, bytes: &[u8]) -> Option<usize> {
    let f = std::env::temp_dir().join(format!("oxhlo-ref-{}-{}.mlirbc", std::process::id(), bytes.len()));
    std::fs::write(&f, bytes).ok()?;
    let out = Command::new("python3").arg(script).arg(&f).arg("--quiet").output().ok()?;
    let _ = std::fs::remove_file(&f);
    let s = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = s.lines().find(|l| l.starts_with("// OK: "))?;
    line.trim_start_matches("// OK: ").split_whitespace().next()?.parse().ok()
}
