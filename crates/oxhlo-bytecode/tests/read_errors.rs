//! `read_module` errors: what it cannot read (newer StableHLO versions, unknown VHLO
//! ops, unsupported dialects, unknown ops) is reported by name with the byte offset.

use oxhlo_bytecode::read_module;

fn fixture(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Replaces the first occurrence of `from` by `to` (same length: the layout stays).
fn patch(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let at = bytes.windows(from.len()).position(|w| w == from).expect("pattern present");
    let mut v = bytes.to_vec();
    v[at..at + to.len()].copy_from_slice(to);
    v
}

#[test]
fn fixtures_read() {
    for f in ["mlp.plain.mlirbc", "mlp.vhlo_0.9.0.mlirbc", "mlp.vhlo_1.13.7.mlirbc", "control.vhlo_1.5.0.mlirbc"] {
        let m = read_module(&fixture(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(m.func("main").is_some(), "{f}");
    }
}

#[test]
fn newer_stablehlo_versions_are_rejected_at_the_producer() {
    let b = patch(&fixture("mlp.vhlo_1.13.7.mlirbc"), b"StableHLO_v1.13.7", b"StableHLO_v9.13.7");
    let e = read_module(&b).unwrap_err();
    assert!(e.message.contains("v9.13.7") && e.message.contains("newer"), "{e}");
    assert_eq!(e.offset, 5, "{e}");
    let b = patch(&fixture("mlp.vhlo_1.13.7.mlirbc"), b"StableHLO_v1.13.7", b"StableHLO_v1.21.7");
    assert!(read_module(&b).unwrap_err().message.contains("v1.21.7"));
}

#[test]
fn unknown_vhlo_ops_are_named() {
    let b = patch(&fixture("mlp.vhlo_1.13.7.mlirbc"), b"add_v1", b"add_v7");
    let e = read_module(&b).unwrap_err();
    assert!(e.message.contains("'vhlo.add_v7'"), "{e}");
    assert!(e.offset > 100, "{e}");
    assert!(e.to_string().starts_with(&format!("byte {}: error:", e.offset)));
}

#[test]
fn unsupported_dialects_and_unknown_ops_are_named() {
    let b = patch(&fixture("mlp.plain.mlirbc"), b"stablehlo\0", b"stablehlx\0");
    let e = read_module(&b).unwrap_err();
    assert!(e.message.contains("unsupported dialect 'stablehlx'"), "{e}");
    assert!(e.offset > 100, "{e}");
    let b = patch(&fixture("mlp.plain.mlirbc"), b"maximum", b"maximux");
    let e = read_module(&b).unwrap_err();
    assert!(e.message.contains("unknown operation 'stablehlo.maximux'"), "{e}");
    assert!(e.offset > 100, "{e}");
}

#[test]
fn other_test_dialects_are_rejected() {
    // The builtin zoo holds `test.*` ops of an unregistered dialect.
    let e = read_module(&fixture("zoo_v6.mlirbc")).unwrap_err();
    assert!(e.message.contains("dialect 'test'"), "{e}");
}
