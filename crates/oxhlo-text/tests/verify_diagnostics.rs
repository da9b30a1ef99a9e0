//! The verifier's `.mlir` corpus (`crates/oxhlo-ir/tests/verify/`), run in MLIR's `-verify-diagnostics`
//! convention: files split at `// -----`; each `// expected-error@+N {{text}}` expects a diagnostic on
//! the line N below whose message contains `text`, at the column where that line's op (or function)
//! starts; every diagnostic must be expected. Files named `valid*.mlir` must verify cleanly. A second
//! test proves that every verifier rule has at least one negative case.

use std::collections::{BTreeSet, HashSet};
use std::path::PathBuf;

use oxhlo_ir::verify::{all_rules, check_module};

/// Rules whose violations the text syntax cannot express (the parser rejects the input first); each is
/// covered by a unit test in `oxhlo-ir/src/verify/tests.rs`.
const NOT_EXPRESSIBLE_IN_TEXT: &[(&str, &str)] = &[
    ("value.unknown", "value ids are assigned by the parser"),
    ("value.redefined", "the parser rejects a redefined SSA name"),
    ("value.use_before_def", "the parser rejects a use of an undefined SSA name"),
    ("value.scope", "the parser scopes SSA names by region and rejects a use outside"),
    ("module.duplicate_symbol", "the parser rejects a redefined function name"),
    ("type.dimension", "a negative dimension size cannot be written"),
    ("type.quant_param_count", "the syntax pairs every scale with a zero point"),
    ("type.quant_per_tensor", "per-tensor syntax takes exactly one scale"),
    ("func.entry_args", "the pretty func syntax declares arguments once"),
];

struct Expect {
    line: usize,
    text: String,
    matched: bool,
}

/// Parses the expectations of one chunk whose first line is `first`.
fn expectations(chunk: &str, first: usize) -> Vec<Expect> {
    let mut out = Vec::new();
    for (i, line) in chunk.lines().enumerate() {
        let Some(at) = line.find("expected-error") else { continue };
        let rest = &line[at + "expected-error".len()..];
        let (offset, rest) = match rest.strip_prefix('@') {
            Some(r) => {
                let end = r.find(|c: char| c.is_whitespace()).unwrap_or(r.len());
                (r[..end].parse::<i64>().unwrap_or(0), &r[end..])
            }
            None => (0, rest),
        };
        let (Some(open), Some(close)) = (rest.find("{{"), rest.rfind("}}")) else { continue };
        let target = (first + i) as i64 + offset;
        out.push(Expect { line: target as usize, text: rest[open + 2..close].to_string(), matched: false });
    }
    out
}

/// The 1-based column where the op on line `line` starts, as MLIR locates ops: at the op name (after
/// `%results = `), or at the first non-blank character for lines without results (`func.func`, ...).
fn op_column(file_lines: &[&str], line: usize) -> u32 {
    let text = file_lines.get(line.wrapping_sub(1)).copied().unwrap_or("");
    let indent = text.len() - text.trim_start().len();
    let body = &text[indent..];
    let start = if body.starts_with('%') {
        match body.find('=') {
            Some(eq) => indent + eq + 1 + (body[eq + 1..].len() - body[eq + 1..].trim_start().len()),
            None => indent,
        }
    } else {
        indent
    };
    (start + 1) as u32
}

struct Outcome {
    failures: Vec<String>,
    covered: BTreeSet<&'static str>,
    cases: usize,
}

fn run_corpus() -> Outcome {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-ir/tests/verify");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    let mut out = Outcome { failures: Vec::new(), covered: BTreeSet::new(), cases: 0 };
    for path in files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let src = std::fs::read_to_string(&path).unwrap_or_default();
        let file_lines: Vec<&str> = src.lines().collect();
        let valid = name.starts_with("valid");
        for (first, chunk) in oxhlo_text::split_input(&src) {
            if chunk.trim().lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with("//")) {
                continue;
            }
            out.cases += 1;
            let m = match oxhlo_text::parse_module_at(chunk, &name, first) {
                Ok(m) => m,
                Err(e) => {
                    out.failures.push(format!("{name}:{first}: the case does not parse:\n{e}"));
                    continue;
                }
            };
            let mut expects = expectations(chunk, first);
            if valid && !expects.is_empty() {
                out.failures.push(format!("{name}:{first}: valid files must not expect errors"));
            }
            for f in check_module(&m) {
                let (line, col) = match f.diag.loc.file_line_col() {
                    Some((_, l, c)) => (l as usize, c),
                    None => (0, 0),
                };
                let hit = expects.iter_mut().find(|e| !e.matched && e.line == line && f.diag.message.contains(&e.text));
                match hit {
                    Some(e) => {
                        e.matched = true;
                        out.covered.insert(f.rule);
                        let want = op_column(&file_lines, line);
                        if col != want {
                            out.failures.push(format!("{name}:{line}: diagnostic at column {col}, expected {want}: {}", f.diag.message));
                        }
                    }
                    None => out.failures.push(format!("{name}:{line}:{col}: unexpected diagnostic [{}]: {}", f.rule, f.diag.message)),
                }
            }
            for e in expects.iter().filter(|e| !e.matched) {
                out.failures.push(format!("{name}:{}: expected error not produced: {{{{{}}}}}", e.line, e.text));
            }
        }
    }
    out
}

#[test]
fn verifier_corpus_produces_exactly_the_expected_diagnostics() {
    let out = run_corpus();
    assert!(out.cases > 100, "only {} cases found", out.cases);
    assert!(out.failures.is_empty(), "{} failures:\n{}", out.failures.len(), out.failures.join("\n"));
}

#[test]
fn every_verifier_rule_has_a_negative_case() {
    let out = run_corpus();
    let unit_only: HashSet<&str> = NOT_EXPRESSIBLE_IN_TEXT.iter().map(|(r, _)| *r).collect();
    let rules = all_rules();
    let ids: HashSet<&str> = rules.iter().map(|r| r.id).collect();
    let missing: Vec<&str> =
        rules.iter().map(|r| r.id).filter(|id| !out.covered.contains(id) && !unit_only.contains(id)).collect();
    assert!(missing.is_empty(), "rules without a negative case in the corpus: {missing:?}");
    for (id, _) in NOT_EXPRESSIBLE_IN_TEXT {
        assert!(ids.contains(id), "unknown rule {id} in NOT_EXPRESSIBLE_IN_TEXT");
        assert!(!out.covered.contains(id), "{id} is covered by the corpus; drop it from NOT_EXPRESSIBLE_IN_TEXT");
    }
}

/// Known disagreements between another corpus and the spec: (file name, rule id, why the verifier is right).
const KNOWN_SPEC_VIOLATIONS: &[(&str, &str, &str)] = &[
    (
        "conformance/bitcast_convert.mlir",
        "bitcast_convert.complex",
        "spec bitcast_convert (C2): conversion between complex and non-complex types is not permitted",
    ),
    ("corpus/bare_funcs.mlir", "attr.kind", "comparison_direction must be #stablehlo<comparison_direction ...>, not an integer"),
    (
        "corpus/quant.mlir",
        "uniform_quantize.types",
        "spec uniform_quantize: the result's expressed type is the operand's float type (f32 here, not bf16/f16)",
    ),
];

/// Programs written as valid by other layers (the interpreter's conformance corpus, the text crate's
/// round-trip corpus) must verify without a single diagnostic: a guard against over-strict rules.
#[test]
fn valid_programs_of_other_corpora_verify_cleanly() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs = vec![root.join("oxhlo-interp/tests/conformance"), root.join("oxhlo-text/tests/corpus")];
    if let Some(extra) = std::env::var_os("OXHLO_VERIFY_EXTRA_DIR") {
        dirs.push(PathBuf::from(extra));
    }
    let (failures, checked) = verify_dirs(&dirs);
    assert!(failures.is_empty(), "{} diagnostics on {checked} valid programs:\n{}", failures.len(), failures.join("\n"));
}

/// Verifies every chunk of every `.mlir` file in `dirs` that parses; returns the diagnostics (minus known
/// spec violations of other corpora) and the number of programs checked.
fn verify_dirs(dirs: &[PathBuf]) -> (Vec<String>, usize) {
    let mut failures = Vec::new();
    let mut checked = 0;
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for path in files.iter().filter(|p| p.extension().is_some_and(|x| x == "mlir")) {
            let name = path.display().to_string();
            let src = std::fs::read_to_string(path).unwrap_or_default();
            if src.contains("expected-error") {
                continue;
            }
            for (first, chunk) in oxhlo_text::split_input(&src) {
                let Ok(m) = oxhlo_text::parse_module_at(chunk, &name, first) else { continue };
                checked += 1;
                for f in check_module(&m) {
                    let known = KNOWN_SPEC_VIOLATIONS.iter().any(|(file, rule, _)| name.ends_with(file) && *rule == f.rule);
                    if !known {
                        failures.push(format!("[{}] {}", f.rule, f.diag));
                    }
                }
            }
        }
    }
    (failures, checked)
}

/// JAX programs exercising most ops (elementwise math in several dtypes, reductions, pooling gradients,
/// grouped/dilated/transposed convolutions and their gradients, gathers and scatters with batching
/// dimensions, control flow, sorting, randomness, linalg custom calls, FFTs, shard_map collectives,
/// symbolic shapes), lowered at test time by `oxhlo-ir/tests/verify_jax_programs.py`, must verify
/// cleanly. Skipped (with a note) when `python3` or `jax` is not installed.
#[test]
fn jax_programs_verify_cleanly() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-ir/tests/verify_jax_programs.py");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("verify_jax_programs");
    let _ = std::fs::remove_dir_all(&out);
    let status = std::process::Command::new("python3").arg(&script).arg(&out).stdout(std::process::Stdio::null()).status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => {
            eprintln!("skipping: {} exited with {s} (is jax installed?)", script.display());
            return;
        }
        Err(e) => {
            eprintln!("skipping: cannot run python3: {e}");
            return;
        }
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&out)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    let mut failures = Vec::new();
    let mut parse_failures = Vec::new();
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap_or_default();
        let name = path.display().to_string();
        match oxhlo_text::parse_module(&src, &name) {
            Ok(m) => failures.extend(check_module(&m).into_iter().map(|f| format!("[{}] {}", f.rule, f.diag))),
            Err(e) => parse_failures.push(format!("{name}: {}", e.0.first().map(|d| d.to_string()).unwrap_or_default())),
        }
    }
    assert!(files.len() >= 10, "only {} JAX programs were lowered", files.len());
    assert!(failures.is_empty(), "{} diagnostics on valid JAX programs:\n{}", failures.len(), failures.join("\n"));
    assert!(parse_failures.len() * 2 <= files.len(), "most JAX programs do not parse:\n{}", parse_failures.join("\n"));
    if !parse_failures.is_empty() {
        eprintln!("JAX programs the parser rejects (not verified):\n{}", parse_failures.join("\n"));
    }
}

/// Mutates the corpus text (digits, signs, dimension lists, attribute names) deterministically and runs
/// the verifier on every mutant that still parses: it must return, never panic, on odd-but-parseable IR.
#[test]
fn mutated_corpus_never_panics_the_verifier() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-ir/tests/verify");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    const SWAPS: &[(&str, &str)] = &[
        ("dimension", "dimensions"),
        ("array<i64: ", "array<i64: -"),
        ("x", "x0x"),
        ("[", "[7, "),
        ("f32", "i1"),
        ("tensor<", "tensor<1x"),
        ("= 0", "= 9"),
        ("i64: 1", "i64: 0"),
    ];
    let (mut parsed, mut total) = (0, 0);
    for path in files.iter().filter(|p| p.extension().is_some_and(|x| x == "mlir")) {
        let src = std::fs::read_to_string(path).unwrap_or_default();
        for (first, chunk) in oxhlo_text::split_input(&src) {
            for _ in 0..40 {
                let mut text = chunk.to_string();
                for _ in 0..1 + next() % 3 {
                    if next() % 2 == 0 {
                        let digits: Vec<usize> = text.char_indices().filter(|(_, c)| c.is_ascii_digit()).map(|(i, _)| i).collect();
                        if let Some(&i) = digits.get((next() as usize) % digits.len().max(1)) {
                            let d = (b'0' + (next() % 10) as u8) as char;
                            text.replace_range(i..i + 1, &d.to_string());
                        }
                    } else {
                        let (from, to) = SWAPS[(next() as usize) % SWAPS.len()];
                        let hits: Vec<usize> = text.match_indices(from).map(|(i, _)| i).collect();
                        if let Some(&i) = hits.get((next() as usize) % hits.len().max(1)) {
                            text.replace_range(i..i + from.len(), to);
                        }
                    }
                }
                total += 1;
                if let Ok(m) = oxhlo_text::parse_module_at(&text, "mutant.mlir", first) {
                    parsed += 1;
                    let _ = check_module(&m);
                }
            }
        }
    }
    assert!(parsed * 4 > total, "only {parsed} of {total} mutants parsed; the test exercises little");
}
