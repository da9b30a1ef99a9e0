//! Reductions over dimensions of size 1 become elementwise: every result element reduces one input
//! element, so `reduce(x, init) dims` with `x`'s reduced dims all of extent 1 is `reducer(init, x)` with
//! `x` reshaped to the result's shape (the one application of the reducer the interpreter performs, so
//! results are bitwise the same, -0.0 + 0.0 included). The elementwise form fuses into the kernels around
//! it; as a reduction it was a launch of its own (JAX's batch-norm and layer-norm gradients sum
//! `[1, 1, C]` tensors to `[C]`: 77 launches per ResNet-18 step). Only single-input reductions whose body
//! the backends recognize (`oxhlo_plan::reducer`: one add, multiply, maximum, minimum, and or or of its
//! two arguments) are rewritten.

use crate::util::{for_each_func, plain_tensor, replace_ops, set_i64s};
use crate::Pass;
use oxhlo_ir::{Func, Module, Op, OpKind, Type};
use oxhlo_plan::reducer::{reducer_kind, ReduceKind};

pub struct UnitReduce;

impl Pass for UnitReduce {
    fn name(&self) -> &'static str {
        "reduce-unit-dims"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(rewrite_func(f)))
    }
}

/// Rewrites one function; true when something changed.
pub fn rewrite_func(f: &mut Func) -> bool {
    replace_ops(f, rewrite)
}

/// The elementwise op applying a recognized reduction body (`oxhlo_plan::reducer`, shared with the
/// backends): every one of them is commutative, so `op(init, x)` is the body's one application.
fn body_op(kind: ReduceKind) -> OpKind {
    match kind {
        ReduceKind::Add => OpKind::Add,
        ReduceKind::Mul => OpKind::Multiply,
        ReduceKind::Max => OpKind::Maximum,
        ReduceKind::Min => OpKind::Minimum,
        ReduceKind::And => OpKind::And,
        ReduceKind::Or => OpKind::Or,
    }
}

/// The elementwise ops replacing `op`, when it is a reduction over extent-1 dimensions.
fn rewrite(f: &mut Func, op: &Op) -> Option<Vec<Op>> {
    if op.kind != OpKind::Reduce || op.operands.len() != 2 || op.results.len() != 1 || op.regions.len() != 1 {
        return None;
    }
    let (x, init, res) = (op.operands[0], op.operands[1], op.results[0]);
    let xt = plain_tensor(f, x)?.clone();
    let it = plain_tensor(f, init)?;
    let rt = plain_tensor(f, res)?.clone();
    if !it.shape.is_empty() || it.elem != xt.elem || rt.elem != xt.elem || xt.elem.is_quantized() {
        return None;
    }
    let dims = op.i64s("dimensions")?;
    let unit = dims.iter().all(|&d| usize::try_from(d).ok().and_then(|d| xt.shape.get(d)).is_some_and(|&n| n == 1));
    if !unit || rt.num_elements()? != xt.num_elements()? {
        return None;
    }
    let kind = body_op(reducer_kind(f, &op.regions[0])?);
    let flat = f.new_value(Type::Tensor(rt.clone()));
    let mut reshape = Op::new(OpKind::Reshape, vec![x], vec![flat]);
    reshape.loc = op.loc.clone();
    let splat = f.new_value(Type::Tensor(rt.clone()));
    let mut bcast = Op::new(OpKind::BroadcastInDim, vec![init], vec![splat]);
    set_i64s(&mut bcast, "broadcast_dimensions", Vec::new());
    bcast.loc = op.loc.clone();
    let mut apply = Op::new(kind, vec![splat, flat], vec![res]);
    apply.loc = op.loc.clone();
    Some(vec![reshape, bcast, apply])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count};

    #[test]
    fn sums_over_unit_dims_become_adds() {
        let src = "func.func @main(%x: tensor<1x1x4xf32>, %y: tensor<3x1xi32>) -> (tensor<4xf32>, tensor<3xi32>, tensor<1x4xf32>) {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<4xf32>
  %m = stablehlo.constant dense<2> : tensor<i32>
  %t = stablehlo.reduce(%y init: %m) applies stablehlo.maximum across dimensions = [1] : (tensor<3x1xi32>, tensor<i32>) -> tensor<3xi32>
  %u = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<1x1x4xf32>, tensor<f32>) -> tensor<1x4xf32>
  return %s, %t, %u : tensor<4xf32>, tensor<3xi32>, tensor<1x4xf32>
}";
        let (m, changed) = check_pass(&UnitReduce, src);
        assert!(changed);
        assert_eq!(count(&m, OpKind::Reduce), 0);
        assert_eq!(count(&m, OpKind::Add), 2);
        assert_eq!(count(&m, OpKind::Maximum), 1);
    }

    #[test]
    fn real_reductions_and_other_bodies_stay() {
        let src = "func.func @main(%x: tensor<2x1x4xf32>) -> (tensor<4xf32>, tensor<2x4xf32>) {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x1x4xf32>, tensor<f32>) -> tensor<4xf32>
  %t = stablehlo.reduce(%x init: %z) applies stablehlo.subtract across dimensions = [1] : (tensor<2x1x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  return %s, %t : tensor<4xf32>, tensor<2x4xf32>
}";
        let (m, changed) = check_pass(&UnitReduce, src);
        assert!(!changed);
        assert_eq!(count(&m, OpKind::Reduce), 2);
    }
}
