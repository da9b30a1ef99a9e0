//! Dense literals parse to exactly what the IR's own constructors build from the same values
//! (`DenseElements::from_i64s` / `from_f64s` / `from_complex`), for every element kind, in list, splat
//! and hex spellings; float literals are rounded into narrow formats by the dtype crate.

use oxhlo_ir::{Attr, DenseElements, ElementType, FloatType, Signedness, TensorType};

fn constant(lit: &str, ty: &str) -> DenseElements {
    let src = format!("func.func @f() {{\n  %0 = stablehlo.constant {lit} : {ty}\n  return\n}}");
    let m = oxhlo_text::parse_module(&src, "d.mlir").unwrap_or_else(|d| panic!("{d}"));
    match m.funcs[0].body.blocks[0].ops[0].attr("value") {
        Some(Attr::Dense(d)) => d.expanded(),
        other => panic!("no dense value: {other:?}"),
    }
}

fn tt(shape: &[i64], e: ElementType) -> TensorType {
    TensorType::new(shape.to_vec(), e)
}

#[test]
fn integers_match_from_i64s() {
    for (bits, sign, vals) in [
        (4, Signedness::Signless, vec![-8i64, -1, 0, 7]),
        (2, Signedness::Signed, vec![-2, -1, 0, 1]),
        (8, Signedness::Unsigned, vec![0, 1, 128, 255]),
        (16, Signedness::Signless, vec![-32768, 5, 0, 32767]),
        (64, Signedness::Unsigned, vec![0, 1, i64::MAX, -1]),
    ] {
        let e = ElementType::Int { bits, signedness: sign };
        let text: Vec<String> = vals
            .iter()
            .map(|&v| if sign == Signedness::Unsigned { (v as u64).to_string() } else { v.to_string() })
            .collect();
        let ty = oxhlo_text::printer::types::type_to_string(&oxhlo_ir::Type::Tensor(tt(&[4], e.clone())));
        let got = constant(&format!("dense<[{}]>", text.join(", ")), &ty);
        let want = DenseElements::from_i64s(tt(&[4], e), &vals).unwrap();
        assert_eq!(got, want, "{ty}");
        assert_eq!(got.to_i64_vec(), want.to_i64_vec());
    }
    // MLIR's hex storage of i4 (low nibble) reads as the same values.
    assert_eq!(constant("dense<\"0x0F0801\">", "tensor<3xi4>"), DenseElements::from_i64s(tt(&[3], ElementType::int(4)), &[-1, -8, 1]).unwrap());
    assert_eq!(constant("dense<[true, false]>", "tensor<2xi1>"), DenseElements::from_i64s(tt(&[2], ElementType::Bool), &[1, 0]).unwrap());
}

#[test]
fn floats_match_from_f64s() {
    let vals = [0.1, -2.5, 1e-3, 448.0, 3.0e38];
    for f in FloatType::ALL {
        if f == FloatType::TF32 {
            continue;
        }
        let e = ElementType::Float(f);
        let lit = "dense<[0.1, -2.5, 1.0e-3, 448.0, 3.0e38]>";
        let ty = format!("tensor<5x{}>", f.name());
        let got = constant(lit, &ty);
        let want = DenseElements::from_f64s(tt(&[5], e), &vals).unwrap();
        assert_eq!(got.to_f64_vec().map(|v| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>()), want.to_f64_vec().map(|v| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>()), "{ty}: {lit}");
        assert_eq!(got, want, "{ty}");
    }
}

#[test]
fn complex_and_splats() {
    let e = ElementType::Complex(FloatType::F32);
    assert_eq!(
        constant("dense<[(1.0, -2.0), (0.5, 0.25)]>", "tensor<2xcomplex<f32>>"),
        DenseElements::from_complex(tt(&[2], e.clone()), &[(1.0, -2.0), (0.5, 0.25)]).unwrap()
    );
    assert_eq!(constant("dense<(1.0, 2.0)>", "tensor<3xcomplex<f32>>"), DenseElements::from_complex(tt(&[3], e), &[(1.0, 2.0); 3]).unwrap());
    assert_eq!(
        constant("dense<\"0x0000803F\">", "tensor<2x2xf32>"),
        DenseElements::from_f64s(tt(&[2, 2], ElementType::F32), &[1.0; 4]).unwrap()
    );
    // Hex bit patterns keep NaN payloads and infinities exactly.
    let d = constant("dense<[0x7FC00001, 0xFF800000]>", "tensor<2xf32>");
    assert_eq!((d.bits(0), d.bits(1)), (0x7FC0_0001, 0xFF80_0000));
}
