//! Composites the backends implement natively, by name: `stablehlo.composite "chlo.top_k"` (what
//! `jax.lax.top_k` reaches a plugin as: JAX legalizes CHLO for the portable artifact and keeps the op
//! as a composite whose decomposition is a stable descending sort of the row with an iota, then
//! slices of its first `k`) becomes `chlo.top_k` itself, whose meaning is that decomposition's: the
//! `k` largest by the element type's total order, ties by position. The backends then select the `k`
//! instead of sorting whole rows (the CUDA backend's `top_k_select`), and the decomposition, no longer
//! called, is dropped by the inliner. A composite whose attributes or types do not fit stays.

use crate::util::{for_each_func, plain_tensor, replace_ops};
use crate::Pass;
use oxhlo_ir::{Attr, ElementType, Func, Module, Op, OpKind};

pub struct NativeComposites;

impl Pass for NativeComposites {
    fn name(&self) -> &'static str {
        "native-composites"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(replace_ops(f, rewrite)))
    }
}

/// `chlo.top_k` for a `chlo.top_k` composite of one operand `[..., n]` and results `[..., k]` of its
/// element type and of an integer type, `k` in its attributes.
fn rewrite(f: &mut Func, op: &Op) -> Option<Vec<Op>> {
    if op.kind != OpKind::Composite || !matches!(op.attr("name"), Some(Attr::Str(n)) if n == "chlo.top_k") {
        return None;
    }
    let ([x], [values, indices]) = (op.operands.as_slice(), op.results.as_slice()) else { return None };
    let Some(Attr::Dict(attrs)) = op.attr("composite_attributes") else { return None };
    let k = attrs.iter().find(|(n, _)| n == "k").and_then(|(_, a)| a.as_int())?;
    let (xt, vt, it) = (plain_tensor(f, *x)?, plain_tensor(f, *values)?, plain_tensor(f, *indices)?);
    let rank = xt.shape.len();
    let fits = |s: &[i64]| s.len() == rank && s[..rank - 1] == xt.shape[..rank - 1] && s[rank - 1] == k;
    let n = *xt.shape.last()?;
    let ok = rank >= 1 && xt.is_static() && (0..=n).contains(&k) && fits(&vt.shape) && fits(&it.shape) && vt.elem == xt.elem && matches!(it.elem, ElementType::Int { .. });
    if !ok {
        return None;
    }
    let mut top = Op::new(OpKind::ChloTopK, vec![*x], vec![*values, *indices]);
    top.set_attr("k", Attr::Int(k, ElementType::I64));
    top.loc = op.loc.clone();
    Some(vec![top])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count};

    /// JAX's top_k as the plugin receives it (jax.export of `lax.top_k(x, 3)`, printed).
    const JAX_TOP_K: &str = r#"func.func @main(%arg0: tensor<4x10xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>) {
  %0:2 = stablehlo.composite "chlo.top_k" %arg0 {composite_attributes = {k = 3 : i64}, decomposition = @chlo.top_k.impl, version = 1 : i32} : (tensor<4x10xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
  return %0#0, %0#1 : tensor<4x3xf32>, tensor<4x3xi32>
}
func.func private @chlo.top_k.impl(%arg0: tensor<4x10xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>) {
  %0 = stablehlo.iota dim = 1 : tensor<4x10xi32>
  %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
    %2 = stablehlo.compare GT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  }) : (tensor<4x10xf32>, tensor<4x10xi32>) -> (tensor<4x10xf32>, tensor<4x10xi32>)
  %3 = stablehlo.slice %1#0 [0:4, 0:3] : (tensor<4x10xf32>) -> tensor<4x3xf32>
  %4 = stablehlo.slice %1#1 [0:4, 0:3] : (tensor<4x10xi32>) -> tensor<4x3xi32>
  return %3, %4 : tensor<4x3xf32>, tensor<4x3xi32>
}"#;

    #[test]
    fn jax_top_k_composites_become_top_k() {
        let (m, changed) = check_pass(&NativeComposites, JAX_TOP_K);
        assert!(changed);
        assert_eq!(count(&m, OpKind::ChloTopK), 1);
        assert_eq!(count(&m, OpKind::Composite), 0);
    }

    /// The rewrite keeps the composite's meaning: the interpreter gives the same bits before and after,
    /// on rows with ties, signed zeros, infinities and NaNs of both signs.
    #[test]
    fn the_rewritten_program_gives_the_decompositions_results() {
        use oxhlo_interp::{run_main, Data, RtValue, Tensor};
        let m = crate::testkit::parse(JAX_TOP_K);
        let mut r = m.clone();
        assert!(NativeComposites.run(&mut r).unwrap());
        let vals = [1.0f64, -0.0, 0.0, f64::NAN, 3.0, 3.0, f64::NEG_INFINITY, -f64::NAN, 2.5, 3.0];
        let data: Vec<f64> = (0..40).map(|i| vals[(i * 7 + i / 10) % 10]).collect();
        let ty = m.entry().unwrap().ty.inputs[0].as_tensor().unwrap().clone();
        let arg = RtValue::Tensor(Tensor { ty, data: Data::Float(data) });
        let a = run_main(&m, vec![arg.clone()]).unwrap();
        let b = run_main(&r, vec![arg]).unwrap();
        // Bit for bit (any NaN equals any NaN; the indices result says which NaN went where).
        assert!(crate::testkit::same(&a, &b), "{a:?}\n{b:?}");
    }

    #[test]
    fn other_composites_and_mismatched_types_stay() {
        let other = JAX_TOP_K.replace("\"chlo.top_k\" %arg0", "\"my.top_k\" %arg0");
        assert!(!check_pass(&NativeComposites, &other).1);
        let no_k = JAX_TOP_K.replace("composite_attributes = {k = 3 : i64}, ", "");
        assert!(!check_pass(&NativeComposites, &no_k).1);
    }
}
