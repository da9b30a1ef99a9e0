//! Helpers of the IR-equivalence tests: generating bytecode/text pairs with jaxlib at
//! test time (once per test binary) and explaining where two modules differ.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use oxhlo_ir::{Block, Module, Op, Region};

/// One program: its source text and the artifacts jaxlib wrote for it.
pub struct Case {
    pub name: String,
    /// The program text (`NAME.src.mlir`).
    pub src: String,
    /// `(kind, bytecode, jaxlib's generic print of what the bytecode holds)`, kind being
    /// `plain` or `vhlo_T`.
    pub artifacts: Vec<(String, Vec<u8>, String)>,
}

pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// True when jax may be missing (`OXHLO_SKIP_JAX=1`).
pub fn jax_optional() -> bool {
    std::env::var("OXHLO_SKIP_JAX").is_ok_and(|v| v == "1")
}

/// Runs tests/gen_ir_cases.py on our programs and oxhlo-text's corpus, once.
pub fn cases() -> Option<&'static [Case]> {
    static CELL: OnceLock<Option<Vec<Case>>> = OnceLock::new();
    CELL.get_or_init(generate).as_deref()
}

fn generate() -> Option<Vec<Case>> {
    let dir = std::env::temp_dir().join(format!("oxhlo-ir-cases-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).ok()?;
    let root = crate_dir();
    let out = Command::new("python3")
        .arg(root.join("tests/gen_ir_cases.py"))
        .arg(&dir)
        .arg(root.join("tests/programs"))
        .arg(root.join("../oxhlo-text/tests/corpus"))
        .env("JAX_PLATFORMS", "cpu")
        .output();
    if !matches!(&out, Ok(o) if o.status.success()) {
        let msg = match &out {
            Ok(o) => String::from_utf8_lossy(&o.stderr).into_owned(),
            Err(e) => e.to_string(),
        };
        if jax_optional() {
            eprintln!("skipping jaxlib cases (OXHLO_SKIP_JAX=1): {msg}");
            return None;
        }
        panic!("gen_ir_cases.py failed (install jax[cpu]==0.10.2 or set OXHLO_SKIP_JAX=1):\n{msg}");
    }
    let cases = load(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    Some(cases)
}

fn load(dir: &Path) -> Vec<Case> {
    let mut srcs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    srcs.retain(|p| p.to_string_lossy().ends_with(".src.mlir"));
    srcs.sort();
    let mut out = Vec::new();
    for p in srcs {
        let file = p.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let name = file.trim_end_matches(".src.mlir").to_string();
        let src = std::fs::read_to_string(&p).unwrap_or_default();
        let mut artifacts = Vec::new();
        let mut kinds = vec!["plain".to_string()];
        kinds.extend(["0.9.0", "1.0.0", "1.5.0", "1.13.7", "current"].iter().map(|t| format!("vhlo_{t}")));
        for k in kinds {
            let bc = dir.join(format!("{name}.{k}.mlirbc"));
            let gen = dir.join(format!("{name}.{k}.generic.mlir"));
            if let (Ok(b), Ok(g)) = (std::fs::read(&bc), std::fs::read_to_string(&gen)) {
                artifacts.push((k, b, g));
            }
        }
        out.push(Case { name, src, artifacts });
    }
    out
}

/// Where two modules first differ (None when equal).
pub fn first_difference(a: &Module, b: &Module) -> Option<String> {
    if a.name != b.name {
        return Some(format!("module name {:?} vs {:?}", a.name, b.name));
    }
    if a.attrs != b.attrs {
        return Some(format!("module attrs\n  {:?}\n  {:?}", a.attrs, b.attrs));
    }
    if a.funcs.len() != b.funcs.len() {
        return Some(format!("{} vs {} functions", a.funcs.len(), b.funcs.len()));
    }
    for (f, g) in a.funcs.iter().zip(&b.funcs) {
        let w = format!("@{}", f.name);
        if f.name != g.name || f.visibility != g.visibility || f.ty != g.ty {
            return Some(format!("{w}: signature {:?} {:?} vs {:?} {:?} {:?}", f.visibility, f.ty, g.name, g.visibility, g.ty));
        }
        if f.arg_attrs != g.arg_attrs || f.res_attrs != g.res_attrs || f.attrs != g.attrs {
            return Some(format!("{w}: attrs\n  {:?} {:?} {:?}\n  {:?} {:?} {:?}", f.arg_attrs, f.res_attrs, f.attrs, g.arg_attrs, g.res_attrs, g.attrs));
        }
        if let Some(d) = region_diff(&f.body, &g.body, &w) {
            return Some(d);
        }
        if f.values != g.values {
            let i = f.values.iter().zip(&g.values).position(|(x, y)| x != y).unwrap_or(f.values.len().min(g.values.len()));
            return Some(format!("{w}: value arena differs at %{i} ({} vs {} values): {:?} vs {:?}", f.values.len(), g.values.len(), f.values.get(i), g.values.get(i)));
        }
    }
    if a.other_ops.len() != b.other_ops.len() {
        return Some(format!("{} vs {} module-level ops", a.other_ops.len(), b.other_ops.len()));
    }
    for (x, y) in a.other_ops.iter().zip(&b.other_ops) {
        if let Some(d) = op_diff(x, y, "module") {
            return Some(d);
        }
    }
    (a != b).then(|| "modules differ (location or other field)".to_string())
}

fn region_diff(a: &Region, b: &Region, w: &str) -> Option<String> {
    if a.blocks.len() != b.blocks.len() {
        return Some(format!("{w}: {} vs {} blocks", a.blocks.len(), b.blocks.len()));
    }
    for (i, (x, y)) in a.blocks.iter().zip(&b.blocks).enumerate() {
        if let Some(d) = block_diff(x, y, &format!("{w}/block{i}")) {
            return Some(d);
        }
    }
    None
}

fn block_diff(a: &Block, b: &Block, w: &str) -> Option<String> {
    if a.args != b.args {
        return Some(format!("{w}: block args {:?} vs {:?}", a.args, b.args));
    }
    for (i, (x, y)) in a.ops.iter().zip(&b.ops).enumerate() {
        if let Some(d) = op_diff(x, y, &format!("{w}/op{i}")) {
            return Some(d);
        }
    }
    (a.ops.len() != b.ops.len()).then(|| format!("{w}: {} vs {} ops", a.ops.len(), b.ops.len()))
}

fn op_diff(a: &Op, b: &Op, w: &str) -> Option<String> {
    let w = format!("{w}({})", a.name());
    if a.name() != b.name() || a.operands != b.operands || a.results != b.results {
        return Some(format!("{w}: {} {:?}->{:?} vs {} {:?}->{:?}", a.name(), a.operands, a.results, b.name(), b.operands, b.results));
    }
    if a.attrs != b.attrs {
        let names = |o: &Op| o.attrs.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        if names(a) != names(b) {
            return Some(format!("{w}: attribute names {:?} vs {:?}", names(a), names(b)));
        }
        for ((n, x), (_, y)) in a.attrs.iter().zip(&b.attrs) {
            if x != y {
                return Some(format!("{w}: attribute {n}\n  {}\n  {}", short(x), short(y)));
            }
        }
    }
    if a.regions.len() != b.regions.len() {
        return Some(format!("{w}: {} vs {} regions", a.regions.len(), b.regions.len()));
    }
    for (i, (x, y)) in a.regions.iter().zip(&b.regions).enumerate() {
        if let Some(d) = region_diff(x, y, &format!("{w}/region{i}")) {
            return Some(d);
        }
    }
    None
}

fn short(x: &impl std::fmt::Debug) -> String {
    let s = format!("{x:?}");
    if s.chars().count() > 600 {
        format!("{}...", s.chars().take(600).collect::<String>())
    } else {
        s
    }
}
