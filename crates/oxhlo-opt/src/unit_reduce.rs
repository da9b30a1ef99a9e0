//! Reductions over dimensions of size 1 become elementwise: every result element reduces one input
//! element, so `reduce(x, init) dims` with `x`'s reduced dims all of extent 1 is `reducer(init, x)` with
//! `x` reshaped to the result's shape (the one application of the reducer the interpreter performs, so
//! results are bitwise the same, -0.0 + 0.0 included). The elementwise form fuses into the kernels around
//! it; as a reduction it was a launch of its own (JAX's batch-norm and layer-norm gradients sum
//! `[1, 1, C]` tensors to `[C]`: 77 launches per ResNet-18 step). Only single-input reductions whose body
//! is one commutative op (add, multiply, maximum, minimum, and, or) of its two arguments are rewritten.

use crate::util::{for_each_func, set_i64s};
use crate::Pass;
use oxhlo_ir::{Func, Module, Op, OpKind, Region, TensorType, Type};

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
    let mut body = std::mem::take(&mut f.body);
    let changed = region(f, &mut body);
    f.body = body;
    changed
}

fn region(f: &mut Func, r: &mut Region) -> bool {
    let mut changed = false;
    for b in &mut r.blocks {
        let mut out = Vec::with_capacity(b.ops.len());
        for mut op in std::mem::take(&mut b.ops) {
            for nested in &mut op.regions {
                changed |= region(f, nested);
            }
            match rewrite(f, &op) {
                Some(ops) => {
                    out.extend(ops);
                    changed = true;
                }
                None => out.push(op),
            }
        }
        b.ops = out;
    }
    changed
}

fn static_tensor(f: &Func, v: oxhlo_ir::Value) -> Option<TensorType> {
    match f.try_ty(v)? {
        Type::Tensor(t) if t.is_static() && t.encoding.is_none() => Some(t.clone()),
        _ => None,
    }
}

/// The elementwise op of a reducer body `(a, b) -> op(a, b)` (either operand order), and whether the
/// accumulator (the first argument) comes first.
fn commutative_body(f: &Func, r: &Region, elem: &oxhlo_ir::ElementType) -> Option<(OpKind, bool)> {
    let [block] = r.blocks.as_slice() else { return None };
    let [a, b] = block.args.as_slice() else { return None };
    let [op, ret] = block.ops.as_slice() else { return None };
    if !matches!(ret.kind, OpKind::Return | OpKind::FuncReturn) || ret.operands != op.results || op.results.len() != 1 || !op.regions.is_empty() {
        return None;
    }
    for v in [*a, *b, op.results[0]] {
        let t = static_tensor(f, v)?;
        if !t.shape.is_empty() || &t.elem != elem {
            return None;
        }
    }
    if !matches!(op.kind, OpKind::Add | OpKind::Multiply | OpKind::Maximum | OpKind::Minimum | OpKind::And | OpKind::Or) {
        return None;
    }
    if op.operands == [*a, *b] {
        Some((op.kind, true))
    } else if op.operands == [*b, *a] {
        Some((op.kind, false))
    } else {
        None
    }
}

/// The elementwise ops replacing `op`, when it is a reduction over extent-1 dimensions.
fn rewrite(f: &mut Func, op: &Op) -> Option<Vec<Op>> {
    if op.kind != OpKind::Reduce || op.operands.len() != 2 || op.results.len() != 1 || op.regions.len() != 1 {
        return None;
    }
    let (x, init, res) = (op.operands[0], op.operands[1], op.results[0]);
    let xt = static_tensor(f, x)?;
    let it = static_tensor(f, init)?;
    let rt = static_tensor(f, res)?;
    if !it.shape.is_empty() || it.elem != xt.elem || rt.elem != xt.elem || xt.elem.is_quantized() {
        return None;
    }
    let dims = op.i64s("dimensions")?;
    let unit = dims.iter().all(|&d| usize::try_from(d).ok().and_then(|d| xt.shape.get(d)).is_some_and(|&n| n == 1));
    if !unit || rt.num_elements()? != xt.num_elements()? {
        return None;
    }
    let (kind, acc_first) = commutative_body(f, &op.regions[0], &xt.elem)?;
    let flat = f.new_value(Type::Tensor(rt.clone()));
    let mut reshape = Op::new(OpKind::Reshape, vec![x], vec![flat]);
    reshape.loc = op.loc.clone();
    let splat = f.new_value(Type::Tensor(rt.clone()));
    let mut bcast = Op::new(OpKind::BroadcastInDim, vec![init], vec![splat]);
    set_i64s(&mut bcast, "broadcast_dimensions", Vec::new());
    bcast.loc = op.loc.clone();
    let operands = if acc_first { vec![splat, flat] } else { vec![flat, splat] };
    let mut apply = Op::new(kind, operands, vec![res]);
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
