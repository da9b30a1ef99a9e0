//! Facts about the checked-in builtin "zoo" fixtures (written by jaxlib at bytecode
//! versions 0, 3 and 6 from the ZOO module in gen_artifacts.py): every builtin
//! attribute kind, integer/float values, dense data, resources and locations; plus
//! hand-made malformed inputs that must fail fast with a byte offset; plus the deep
//! nesting artifacts.

mod common;

use std::time::Instant;

use oxhlo_bytecode::{read, Attr, AttrId, BuiltinAttr, Printer, RawModule, ResourceValue, Type};

fn zoo(version: u32) -> RawModule {
    let (_, bytes) = common::fixtures().into_iter().find(|(n, _)| n == &format!("zoo_v{version}.mlirbc")).expect("zoo fixture");
    read(&bytes).unwrap_or_else(|e| panic!("zoo_v{version}: {e}"))
}

fn module_attr(m: &RawModule, key: &str) -> AttrId {
    let top = m.ops.first().expect("module op");
    m.op_attributes(top).into_iter().find(|(k, _)| k == key).unwrap_or_else(|| panic!("no {key}")).1
}

fn builtin(m: &RawModule, id: AttrId) -> &BuiltinAttr {
    match m.attr(id) {
        Some(Attr::Builtin(b)) => b,
        other => panic!("not builtin: {other:?}"),
    }
}

#[test]
fn zoo_values_at_every_version() {
    for v in [0, 3, 6] {
        let m = zoo(v);
        assert_eq!(m.version, u64::from(v));
        let p = Printer { m: &m };
        let int = |k: &str| match builtin(&m, module_attr(&m, k)) {
            BuiltinAttr::Integer { value, .. } => value.clone(),
            other => panic!("{k}: {other:?}"),
        };
        assert_eq!(int("test.i8").as_i64(), Some(-3));
        assert_eq!(int("test.ui16").low_u64(), 65535);
        assert_eq!(int("test.si32").as_i64(), Some(-7));
        assert_eq!(int("test.i64").as_i64(), Some(1_234_567_890_123));
        assert_eq!(int("test.idx").as_i64(), Some(42));
        assert_eq!(int("test.i1").low_u64(), 1);
        let i128 = int("test.i128");
        assert_eq!((i128.width, i128.words.as_slice()), (128, &[u64::MAX, i64::MAX as u64][..]));
        let float = |k: &str| match builtin(&m, module_attr(&m, k)) {
            BuiltinAttr::Float { bits, .. } => bits.clone(),
            other => panic!("{k}: {other:?}"),
        };
        assert_eq!(float("test.f32").low_u64(), u64::from(0.1f32.to_bits()));
        assert_eq!(float("test.f64").low_u64(), 3.0e300f64.to_bits());
        assert_eq!(float("test.f16").low_u64(), 0x3E00);
        assert_eq!(float("test.bf16").low_u64(), 0xC000);
        assert_eq!(float("test.f80").width, 80);
        assert_eq!(float("test.f128").words, vec![0, 0x4000_0000_0000_0000]);
        assert_eq!(p.attr(module_attr(&m, "test.str")), "\"hello\"");
        assert_eq!(p.attr(module_attr(&m, "test.typed_str")), "\"abc\" : i32");
        assert_eq!(p.attr(module_attr(&m, "test.sym")), "@foo");
        assert_eq!(p.attr(module_attr(&m, "test.nested")), "@foo::@bar::@baz");
        assert_eq!(p.attr(module_attr(&m, "test.ty")), "tensor<?x3xf32>");
        assert_eq!(p.attr(module_attr(&m, "test.arr")), "[1 : i64, \"two\", [3e-1 : f32]]".replace("3e-1", "3e0"));
        assert_eq!(p.attr(module_attr(&m, "test.dict")), "{a = 1 : i32, b}");
        match builtin(&m, module_attr(&m, "test.darr_i64")) {
            BuiltinAttr::DenseArray { count, data, .. } => {
                assert_eq!(*count, 3);
                let vals: Vec<i64> = data.chunks(8).map(|c| i64::from_le_bytes(c.try_into().unwrap())).collect();
                assert_eq!(vals, [1, -2, 3]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(p.attr(module_attr(&m, "test.darr_i1")), "array<i1: 3 x 0x010001>");
        assert_eq!(p.attr(module_attr(&m, "test.darr_empty")), "array<i32: 0 x 0x>");
        assert_eq!(p.attr(module_attr(&m, "test.dense_f32")), "dense<\"0x0000803F000000400000404000008040\"> : tensor<2x2xf32>");
        assert_eq!(p.attr(module_attr(&m, "test.dense_splat")), "dense<\"0x07000000\"> : tensor<4x4xi32>");
        assert_eq!(p.attr(module_attr(&m, "test.dense_str")), "dense<[\"a\", \"bc\", \"\"]> : tensor<3x!test.s>");
        match builtin(&m, module_attr(&m, "test.dense_str_splat")) {
            BuiltinAttr::DenseStringElements { splat, values, .. } => assert!(*splat && values == &[b"zz".to_vec()]),
            other => panic!("{other:?}"),
        }
        assert!(matches!(builtin(&m, module_attr(&m, "test.sparse")), BuiltinAttr::SparseElements { .. }));
        assert_eq!(p.attr(module_attr(&m, "test.vec")), "dense<\"0x0000803F\"> : vector<4xf32>");
        match builtin(&m, module_attr(&m, "test.res")) {
            BuiltinAttr::DenseResourceElements { key: Some(key), .. } => {
                let r = m.resources.iter().find(|r| &r.key == key).expect("resource");
                assert_eq!(r.owner, "builtin");
                match &r.value {
                    ResourceValue::Blob { alignment, data } => {
                        assert_eq!(*alignment, 4);
                        assert_eq!(data, &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]);
                    }
                    other => panic!("{other:?}"),
                }
            }
            other => panic!("{other:?}"),
        }
        // Every type prints as MLIR prints it (checked exactly against jaxlib in
        // jax_artifacts.rs); a few spot checks on the raw forms here.
        assert!(m.types.iter().any(|t| matches!(t, Type::Builtin(oxhlo_bytecode::BuiltinType::Vector { scalable, .. }) if scalable == &[true, false])));
        let text = oxhlo_bytecode::print_module(&m);
        for loc in [
            "loc(\"named\"(\"x.py\":4:5))",
            "loc(callsite(\"callee.py\":1:1 at \"caller.py\":2:2))",
            "loc(fused[\"a.py\":1:1, \"b.py\":2:2])",
            "loc(fused<\"meta\">[\"a.py\":1:1])",
            "loc(\"r.py\":3:4 to :9)",
            "loc(\"r.py\":3:4 to 5:6)",
            "loc(\"justname\")",
            ": i32 loc(\"arg.py\":1:2)",
            "\"test.br\"()[^bb1]",
        ] {
            assert!(text.contains(loc), "zoo_v{v}: missing {loc} in\n{text}");
        }
    }
}

fn header(version: u8) -> Vec<u8> {
    let mut v = b"ML\xEFR".to_vec();
    v.push((version << 1) | 1);
    v.extend_from_slice(b"test\0");
    v
}

#[test]
fn huge_counts_fail_fast_with_offsets() {
    // A string section claiming 2^60 strings.
    let mut b = header(6);
    b.push(0); // section id 0
    b.push((9 << 1) | 1); // length 9
    b.push(0);
    b.extend_from_slice(&(1u64 << 60).to_le_bytes());
    let t = Instant::now();
    let e = read(&b).unwrap_err();
    assert!(t.elapsed().as_millis() < 100);
    assert_eq!(e.offset, 12, "{e}");
    assert!(e.to_string().starts_with("byte 12: error: string count claims 1152921504606846976 items"), "{e}");
    // A section whose length runs past the end.
    let mut b = header(6);
    b.push(0);
    b.push(0);
    b.extend_from_slice(&u64::MAX.to_le_bytes());
    let e = read(&b).unwrap_err();
    assert!(e.message.contains("section 0 claims"), "{e}");
}

#[test]
fn header_errors() {
    assert_eq!(read(b"").unwrap_err().offset, 0);
    assert!(read(b"MLIR").unwrap_err().message.contains("magic"));
    let e = read(&header(7)).unwrap_err();
    assert_eq!((e.offset, e.message.contains("version 7")), (4, true), "{e}");
    let e = read(&header(6)).unwrap_err();
    assert!(e.message.contains("missing required string section"), "{e}");
    assert!(oxhlo_bytecode::is_bytecode(&header(1)));
}

#[test]
fn deep_nesting_is_bounded() {
    let Some(arts) = common::artifacts() else { return };
    let get = |n: &str| &arts.iter().find(|a| a.name == n).unwrap_or_else(|| panic!("{n}")).bytes;
    assert_eq!(read(get("nest_regions_90")).map(|m| m.num_ops()).ok(), Some(92));
    assert!(read(get("nest_regions_140")).unwrap_err().message.contains("regions nested deeper"));
    assert!(read(get("nest_attrs_100")).is_ok());
    assert!(read(get("nest_attrs_200")).unwrap_err().message.contains("nested deeper"));
}
