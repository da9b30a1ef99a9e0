//! Unit tests of the type mapping on hand-built raw modules: quantized types (which
//! jaxlib's Python bindings cannot build, so no artifact test covers them) from VHLO
//! and from the quant dialect's encoding, compared with the text parser's result.

use oxhlo_ir::{ElementType, Type};

use super::Cx;
use crate::model::{DialectEntry, Field, FloatKind, Type as RawType, TypeId, VhloType};
use crate::raw::RawModule;

fn module(types: Vec<RawType>) -> RawModule {
    RawModule {
        version: 6,
        producer: "test".into(),
        dialects: Vec::new(),
        op_names: Vec::new(),
        attrs: Vec::new(),
        types,
        attr_offsets: Vec::new(),
        type_offsets: Vec::new(),
        resources: Vec::new(),
        ops: Vec::new(),
        num_values: 0,
    }
}

/// The type of the first argument of `func.func @f(%a: TY)` parsed by oxhlo-text.
fn text_type(ty: &str) -> Type {
    let src = format!("func.func @f(%a: {ty}) -> {ty} {{\n  return %a : {ty}\n}}\n");
    let m = oxhlo_text::parse_module(&src, "t.mlir").unwrap_or_else(|e| panic!("{ty}: {e}"));
    m.funcs[0].ty.inputs[0].clone()
}

#[test]
fn vhlo_quantized_types_match_the_text_parser() {
    let m = module(vec![
        RawType::Vhlo(VhloType::Integer { width: 8, unsigned: false }),
        RawType::Vhlo(VhloType::Float(FloatKind::F32)),
        RawType::Vhlo(VhloType::UniformQuantized { flags: 1, storage: TypeId(0), expressed: TypeId(1), scale: 0.5, zero_point: 3, storage_min: -128, storage_max: 127 }),
        RawType::Vhlo(VhloType::RankedTensor { shape: vec![4], elem: TypeId(2), encoding: None }),
        RawType::Vhlo(VhloType::UniformQuantizedPerAxis {
            flags: 0,
            storage: TypeId(0),
            expressed: TypeId(1),
            quantized_dimension: 0,
            storage_min: 1,
            storage_max: 200,
            scales: vec![0.5, 0.25],
            zero_points: vec![1, 2],
        }),
        RawType::Vhlo(VhloType::RankedTensor { shape: vec![2, 4], elem: TypeId(4), encoding: None }),
    ]);
    let mut cx = Cx::new(&m).unwrap();
    assert_eq!(cx.ty(TypeId(3)).unwrap(), text_type("tensor<4x!quant.uniform<i8:f32, 5.000000e-01:3>>"));
    assert_eq!(cx.ty(TypeId(5)).unwrap(), text_type("tensor<2x4x!quant.uniform<u8<1:200>:f32:0, {5.000000e-01:1,2.500000e-01:2}>>"));
}

#[test]
fn quant_dialect_types_match_the_text_parser() {
    let q = |code, fields| RawType::Dialect(DialectEntry { dialect: "quant".into(), code, fields });
    let m = module(vec![
        RawType::Builtin(crate::BuiltinType::Integer { width: 8, signedness: crate::Signedness::Signless }),
        RawType::Builtin(crate::BuiltinType::Float(FloatKind::BF16)),
        q(4, vec![Field::U(1), Field::Type(TypeId(0)), Field::Type(TypeId(1)), Field::F64(2.0), Field::S(-5), Field::S(-127), Field::S(127)]),
        q(
            5,
            vec![
                Field::U(1),
                Field::Type(TypeId(0)),
                Field::Type(TypeId(1)),
                Field::U(1),
                Field::S(-128),
                Field::S(127),
                Field::F64s(vec![1.0, 3.0]),
                Field::Ints(vec![0, 7]),
            ],
        ),
        RawType::Dialect(DialectEntry { dialect: "stablehlo".into(), code: 0, fields: vec![] }),
    ]);
    let mut cx = Cx::new(&m).unwrap();
    let scalar = |t: Type| match t {
        Type::Tensor(tt) => Type::Scalar(tt.elem),
        other => other,
    };
    assert_eq!(cx.ty(TypeId(2)).unwrap(), scalar(text_type("tensor<!quant.uniform<i8<-127:127>:bf16, 2.000000e+00:-5>>")));
    assert_eq!(cx.ty(TypeId(3)).unwrap(), scalar(text_type("tensor<!quant.uniform<i8:bf16:1, {1.000000e+00,3.000000e+00:7}>>")));
    assert_eq!(cx.ty(TypeId(4)).unwrap(), Type::Token);
    assert!(matches!(cx.ty(TypeId(2)).unwrap(), Type::Scalar(ElementType::Quant(_))));
}
