//! Short MLIR-like spellings of types, shapes and dimension lists for diagnostics (`tensor<2x?xf32>`,
//! `[1, 2]`). The verifier cannot use the text crate's printer (it sits above this crate), and a message
//! only needs a faithful, compact rendering.

use crate::types::{ElementType, Signedness, Type, DYN};

/// An element type as MLIR spells it (`f32`, `si8`, `complex<f64>`, `!quant.uniform<i8:f32, 0.5:3>`).
pub(crate) fn elem(e: &ElementType) -> String {
    match e {
        ElementType::Bool => "i1".into(),
        ElementType::Int { bits, signedness } => match signedness {
            Signedness::Signless => format!("i{bits}"),
            Signedness::Signed => format!("si{bits}"),
            Signedness::Unsigned => format!("ui{bits}"),
        },
        ElementType::Float(f) => f.name().into(),
        ElementType::Complex(f) => format!("complex<{}>", f.name()),
        ElementType::Index => "index".into(),
        ElementType::Quant(q) => {
            let storage = match &q.storage {
                ElementType::Int { bits, signedness: Signedness::Unsigned } => format!("u{bits}"),
                ElementType::Int { bits, .. } => format!("i{bits}"),
                other => elem(other),
            };
            let axis = q.quantized_dimension.map(|a| format!(":{a}")).unwrap_or_default();
            let params: Vec<String> = q
                .scales
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{s}:{}", q.zero_points.get(i).copied().unwrap_or(0)))
                .collect();
            let params =
                if q.quantized_dimension.is_some() { format!("{{{}}}", params.join(",")) } else { params.join(",") };
            format!("!quant.uniform<{storage}:{}{axis}, {params}>", elem(&q.expressed))
        }
    }
}

/// One dimension size (`?` for dynamic).
pub(crate) fn dim(d: i64) -> String {
    if d == DYN {
        "?".into()
    } else {
        d.to_string()
    }
}

/// A shape as `2x?x3` (empty for rank 0).
pub(crate) fn shape(s: &[i64]) -> String {
    s.iter().map(|&d| dim(d)).collect::<Vec<_>>().join("x")
}

/// A list of integers as `[1, 2, 3]` (dimension sizes print `?` for dynamic).
pub(crate) fn list(v: &[i64]) -> String {
    format!("[{}]", v.iter().map(|&d| dim(d)).collect::<Vec<_>>().join(", "))
}

/// A type as MLIR spells it.
pub(crate) fn ty(t: &Type) -> String {
    match t {
        Type::Tensor(tt) => {
            if tt.shape.is_empty() {
                format!("tensor<{}>", elem(&tt.elem))
            } else {
                format!("tensor<{}x{}>", shape(&tt.shape), elem(&tt.elem))
            }
        }
        Type::UnrankedTensor(e) => format!("tensor<*x{}>", elem(e)),
        Type::Token => "!stablehlo.token".into(),
        Type::Tuple(items) => format!("tuple<{}>", items.iter().map(ty).collect::<Vec<_>>().join(", ")),
        Type::Function(f) => format!("({}) -> ({})", tys(f.inputs.iter()), tys(f.results.iter())),
        Type::Scalar(e) => elem(e),
        Type::Opaque(s) => s.clone(),
    }
}

/// A comma-separated list of types.
pub(crate) fn tys<'a>(ts: impl Iterator<Item = &'a Type>) -> String {
    ts.map(ty).collect::<Vec<_>>().join(", ")
}

/// A comma-separated list of optional types (`<invalid>` where a value id is bad).
pub(crate) fn opt_tys<'a>(ts: impl Iterator<Item = Option<&'a Type>>) -> String {
    ts.map(|t| t.map(ty).unwrap_or_else(|| "<invalid>".into())).collect::<Vec<_>>().join(", ")
}

/// A ranked tensor type.
pub(crate) fn tensor(t: &crate::types::TensorType) -> String {
    ty(&Type::Tensor(t.clone()))
}

/// A comma-separated list of ranked tensor types.
pub(crate) fn tensors(ts: &[&crate::types::TensorType]) -> String {
    ts.iter().map(|t| tensor(t)).collect::<Vec<_>>().join(", ")
}
