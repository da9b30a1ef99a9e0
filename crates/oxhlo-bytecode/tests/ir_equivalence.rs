//! Reading bytecode gives the same IR as parsing the program's text: for our programs,
//! oxhlo-text's corpus and JAX programs, jaxlib writes plain bytecode and portable
//! artifacts (targets 0.9.0, 1.0.0, 1.5.0, 1.13.7, current) at test time, and
//! `read_module` must equal `oxhlo_text::parse_module` of jaxlib's print of the same
//! program (and, for plain bytecode, of the source text), up to locations.

mod ir;

use ir::{cases, first_difference};
use oxhlo_bytecode::read_module;

#[test]
fn bytecode_reads_as_the_text_parses() {
    let Some(cases) = cases() else { return };
    let (mut compared, mut failures, mut unparsable) = (0, Vec::new(), Vec::new());
    let mut per_kind = std::collections::BTreeMap::<String, usize>::new();
    for c in cases {
        for (kind, bc, generic) in &c.artifacts {
            let label = format!("{}.{kind}", c.name);
            let ours = match read_module(bc) {
                Ok(m) => m.without_locations(),
                Err(e) => {
                    failures.push(format!("{label}: read_module failed: {e}"));
                    continue;
                }
            };
            let mut oracles = vec![("jaxlib print", generic.as_str())];
            if kind == "plain" {
                oracles.push(("source", c.src.as_str()));
            }
            for (what, text) in oracles {
                match oxhlo_text::parse_module(text, &format!("{label}.mlir")) {
                    Ok(t) => {
                        compared += 1;
                        *per_kind.entry(kind.clone()).or_default() += 1;
                        if let Some(d) = first_difference(&ours, &t.without_locations()) {
                            failures.push(format!("{label} vs {what}: {d}"));
                        }
                    }
                    Err(e) => unparsable.push(format!("{label} ({what}): {}", e.to_string().lines().next().unwrap_or(""))),
                }
            }
        }
    }
    eprintln!("compared {compared} bytecode/text pairs {per_kind:?}; {} texts oxhlo-text does not parse", unparsable.len());
    for u in &unparsable {
        eprintln!("  not parsed: {u}");
    }
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
    assert!(compared >= 40, "only {compared} comparisons");
}

#[test]
fn jax_locations_are_kept() {
    let Some(cases) = cases() else { return };
    let mut checked = 0;
    for c in cases.iter().filter(|c| c.name.starts_with("jax_")) {
        for (kind, bc, _) in &c.artifacts {
            let m = read_module(bc).unwrap_or_else(|e| panic!("{}.{kind}: {e}", c.name));
            let mut python_lines = 0;
            for f in &m.funcs {
                f.walk(&mut |op| {
                    if let Some((file, line, _)) = op.loc.file_line_col() {
                        if file.ends_with("gen_ir_cases.py") && line > 0 {
                            python_lines += 1;
                        }
                    }
                });
            }
            assert!(python_lines > 0, "{}.{kind}: no op location points at the Python source", c.name);
            checked += 1;
        }
    }
    assert!(checked >= 20, "checked only {checked} JAX artifacts");
}
