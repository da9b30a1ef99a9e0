//! Decodes artifacts that jaxlib writes at test time (plain stablehlo bytecode, VHLO
//! portable artifacts for targets 0.9.0 to current, and a builtin "zoo" at bytecode
//! versions 0 to 6) and compares the raw tree with jaxlib's own generic print: the op
//! sequence, every region-less op's exact type signature, and property keys.

mod common;

use common::{artifacts, op_lines, property_keys, reference_decoder, reference_op_count};
use oxhlo_bytecode::{print_module, read, Attr, BuiltinAttr, Properties};

#[test]
fn every_artifact_matches_jaxlib_generic_print() {
    let Some(arts) = artifacts() else { return };
    for a in arts.iter().filter(|a| !a.name.starts_with("nest_")) {
        let m = read(&a.bytes).unwrap_or_else(|e| panic!("{}: {e}", a.name));
        let ours = print_module(&m);
        let theirs = op_lines(&a.generic);
        let mine = op_lines(&ours);
        assert_eq!(mine.len(), theirs.len(), "{}: op count\n{ours}", a.name);
        assert_eq!(m.num_ops(), theirs.len(), "{}: walk count", a.name);
        for (i, (x, y)) in mine.iter().zip(&theirs).enumerate() {
            assert_eq!(x.name, y.name, "{}: op #{i}", a.name);
            if let (Some(sx), Some(sy)) = (&x.signature, &y.signature) {
                assert_eq!(sx, sy, "{}: op #{i} {} signature", a.name, x.name);
            }
        }
        let signatures = mine.iter().filter(|l| l.signature.is_some()).count();
        assert!(signatures * 2 >= mine.len(), "{}: too few signatures compared", a.name);
        // Property key sets, in op order, for everything with properties (before
        // bytecode version 5 they are in the attribute dictionary instead).
        if m.version < 5 {
            continue;
        }
        let mut pk_ours = property_keys(&ours.replace("dict_v1<{", "dict_v1<("));
        let mut pk_theirs = property_keys(&a.generic.replace("dict_v1<{", "dict_v1<("));
        for v in pk_ours.iter_mut().chain(pk_theirs.iter_mut()) {
            v.sort();
        }
        assert_eq!(pk_ours, pk_theirs, "{}: property keys", a.name);
    }
}

#[test]
fn versions_and_producers() {
    let Some(arts) = artifacts() else { return };
    for a in arts.iter().filter(|a| !a.name.starts_with("nest_")) {
        let m = read(&a.bytes).unwrap();
        let n = a.name.as_str();
        let (version, producer_prefix) = if n.ends_with("vhlo_0.9.0") {
            (0, "StableHLO_v0.9.0")
        } else if n.contains(".vhlo_") {
            (6, "StableHLO_v1.")
        } else if let Some(v) = n.strip_prefix("zoo_v") {
            (v.parse().unwrap(), "MLIR")
        } else {
            (6, "MLIR")
        };
        assert_eq!(m.version, version, "{n}");
        assert!(m.producer.starts_with(producer_prefix), "{n}: {}", m.producer);
        let dialects: Vec<&str> = m.dialects.iter().map(|d| d.name.as_str()).collect();
        if n.contains(".vhlo_") {
            assert_eq!(dialects, ["builtin", "vhlo"], "{n}");
            // Every VHLO op is one the table knows, with named properties when v6.
            m.walk(&mut |op, _| {
                let name = m.op_name(op);
                if let Some(mn) = name.strip_prefix("vhlo.") {
                    assert!(oxhlo_bytecode::vhlo_op(mn).is_some(), "{n}: unknown {name}");
                    if let Some(p) = &op.properties {
                        assert!(matches!(p, Properties::Named(_)), "{n}: {name}");
                    }
                }
            });
        }
    }
}

#[test]
fn matches_reference_decoder_op_counts() {
    let Some(arts) = artifacts() else { return };
    let Some(script) = reference_decoder() else {
        eprintln!("reference decoder not found beside the checkout; skipped");
        return;
    };
    let mut compared = 0;
    for a in arts.iter().filter(|a| !a.name.starts_with("zoo") && !a.name.starts_with("nest_")) {
        let m = read(&a.bytes).unwrap();
        if let Some(n) = reference_op_count(&script, &a.bytes) {
            assert_eq!(m.num_ops(), n, "{}", a.name);
            compared += 1;
        }
    }
    assert!(compared > 10, "reference decoder compared only {compared} artifacts");
}

#[test]
fn jax_locations_are_kept() {
    let Some(arts) = artifacts() else { return };
    let a = arts.iter().find(|a| a.name == "mlp.vhlo_current").expect("mlp artifact");
    let m = read(&a.bytes).unwrap();
    let mut ranges = 0;
    for at in &m.attrs {
        if let Attr::Builtin(BuiltinAttr::FileLineColRange { file, start_line, .. }) = at {
            if file.ends_with("gen_artifacts.py") && *start_line > 0 {
                ranges += 1;
            }
        }
    }
    assert!(ranges > 0, "no FileLineColRange locations pointing at the generator");
    let ours = print_module(&m);
    assert!(ours.contains("loc(\"jit(mlp)/dot_general\"(callsite("), "{ours}");
}
