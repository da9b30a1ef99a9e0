//! Elementwise ops over reshaped values run on the values before the reshape: `e(reshape(a), k)` with
//! `a` of shape `S` becomes `reshape(e(a, k'))`, where `k` is a constant or a broadcast scalar and `k'`
//! the same value at shape `S`; every operand that is not such a constant must be a reshape from `S`.
//! A `broadcast_in_dim` that only inserts unit dims counts as a reshape. Only ops of at most 65536
//! elements whose two shapes differ in unit dims alone are moved. Exact (an elementwise op
//! does not care how its elements are arranged); canonicalization then merges the reshapes that meet.
//!
//! Why: JAX's batch-norm gradients move per-channel values between `[C]` and `[1, 1, 1, C]` around
//! single elementwise ops (`reshape -> divide by N -> reshape back`); each shape change split the
//! per-channel arithmetic into kernels of one or two ops (a ResNet-18 step had 160 such launches). On
//! one shape it fuses into a few kernels, and equal values computed at both shapes meet in CSE.

use crate::util::{rewrite_blocks, const_value, for_each_func, set_i64s};
use crate::Pass;
use oxhlo_ir::{Attr, Block, DenseElements, Func, Module, Op, OpKind, TensorType, Type, Value};
use std::collections::HashMap;

pub struct ReshapeSink;

impl Pass for ReshapeSink {
    fn name(&self) -> &'static str {
        "reshape-sink"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(rewrite_func(f)))
    }
}

/// Rewrites one function; true when something changed.
pub fn rewrite_func(f: &mut Func) -> bool {
    rewrite_blocks(f, block)
}

/// The most elements a rewritten op may have.
const SMALL: usize = 1 << 16;

/// How an operand of the rewritten op is had at the smaller shape.
enum Source {
    /// The value before its reshape.
    Reshaped(Value),
    /// A constant (its literal, re-typed).
    Constant(DenseElements),
    /// A broadcast scalar.
    Scalar(Value),
}

fn tensor(f: &Func, v: Value) -> Option<&TensorType> {
    match f.try_ty(v)? {
        Type::Tensor(t) if t.is_static() && t.encoding.is_none() => Some(t),
        _ => None,
    }
}

fn block(f: &mut Func, b: &mut Block) -> bool {
    // Values defined in this block by reshapes (and unit-dim broadcasts), constants and scalar broadcasts.
    let mut reshaped: HashMap<Value, Value> = HashMap::new();
    let mut constants: HashMap<Value, DenseElements> = HashMap::new();
    let mut scalars: HashMap<Value, Value> = HashMap::new();
    let mut changed = false;
    let mut out = Vec::with_capacity(b.ops.len());
    for op in std::mem::take(&mut b.ops) {
        if let Some(new) = sink(f, &op, &reshaped, &constants, &scalars) {
            // The last new op is the reshape defining the old result.
            if let Some(last) = new.last() {
                reshaped.insert(last.results[0], last.operands[0]);
            }
            out.extend(new);
            changed = true;
            continue;
        }
        if op.results.len() == 1 && op.operands.len() == 1 {
            let (x, r) = (op.operands[0], op.results[0]);
            match op.kind {
                OpKind::Reshape => {
                    reshaped.insert(r, x);
                }
                OpKind::BroadcastInDim if is_unit_dims_broadcast(f, &op) => {
                    reshaped.insert(r, x);
                }
                OpKind::BroadcastInDim if tensor(f, x).is_some_and(|t| t.shape.is_empty()) => {
                    scalars.insert(r, x);
                }
                _ => {}
            }
        }
        if let Some(d) = const_value(&op) {
            constants.insert(op.results[0], d.clone());
        }
        out.push(op);
    }
    b.ops = out;
    changed
}

/// A `broadcast_in_dim` that adds only unit dims (same elements, same order).
fn is_unit_dims_broadcast(f: &Func, op: &Op) -> bool {
    let (Some(a), Some(r), Some(dims)) = (tensor(f, op.operands[0]), tensor(f, op.results[0]), op.i64s("broadcast_dimensions")) else {
        return false;
    };
    a.num_elements() == r.num_elements() && dims.windows(2).all(|w| w[0] < w[1]) && dims.iter().zip(&a.shape).all(|(&d, &n)| r.shape.get(d as usize) == Some(&n))
}

/// The ops replacing an elementwise `op` whose operands are reshapes from one shape (and constants).
fn sink(f: &mut Func, op: &Op, reshaped: &HashMap<Value, Value>, constants: &HashMap<Value, DenseElements>, scalars: &HashMap<Value, Value>) -> Option<Vec<Op>> {
    if matches!(oxhlo_plan::fusion::ew_class(op.kind)?, oxhlo_plan::fusion::EwClass::Broadcast) {
        return None;
    }
    if op.results.len() != 1 || op.operands.is_empty() || !op.regions.is_empty() {
        return None;
    }
    let rt = tensor(f, op.results[0])?.clone();
    // Every operand at the result's shape (no rank-0 predicate or bound of a select or clamp).
    if op.operands.iter().any(|&v| tensor(f, v).map(|t| &t.shape) != Some(&rt.shape)) {
        return None;
    }
    // The shape before the reshapes: every reshaped operand's source must have it.
    let mut small: Option<Vec<i64>> = None;
    let mut sources = Vec::with_capacity(op.operands.len());
    for &v in &op.operands {
        if let Some(&a) = reshaped.get(&v) {
            let s = tensor(f, a)?.shape.clone();
            if small.get_or_insert_with(|| s.clone()) != &s {
                return None;
            }
            sources.push(Source::Reshaped(a));
        } else if let Some(d) = constants.get(&v) {
            sources.push(Source::Constant(d.clone()));
        } else if let Some(&s) = scalars.get(&v) {
            sources.push(Source::Scalar(s));
        } else {
            return None;
        }
    }
    let small = small?;
    // Only small values whose shapes differ in unit dims (per-channel or per-row arithmetic): a big
    // elementwise op stays where the fusion of its readers (a reduction, say) expects it.
    let squeeze = |s: &[i64]| s.iter().copied().filter(|&n| n != 1).collect::<Vec<i64>>();
    if squeeze(&small) != squeeze(&rt.shape) || rt.num_elements()? > SMALL {
        return None;
    }
    let mut out = Vec::new();
    let mut operands = Vec::with_capacity(sources.len());
    for (src, &v) in sources.into_iter().zip(&op.operands) {
        let elem = tensor(f, v)?.elem.clone();
        let ty = TensorType { shape: small.clone(), elem, encoding: None };
        operands.push(match src {
            Source::Reshaped(a) => a,
            Source::Constant(d) => {
                let nv = f.new_value(Type::Tensor(ty.clone()));
                let mut c = Op::new(OpKind::Constant, Vec::new(), vec![nv]);
                c.attrs.push(("value".to_string(), Attr::Dense(DenseElements { ty, data: d.data, splat: d.splat })));
                c.loc = op.loc.clone();
                out.push(c);
                nv
            }
            Source::Scalar(s) => {
                let nv = f.new_value(Type::Tensor(ty));
                let mut c = Op::new(OpKind::BroadcastInDim, vec![s], vec![nv]);
                set_i64s(&mut c, "broadcast_dimensions", Vec::new());
                c.loc = op.loc.clone();
                out.push(c);
                nv
            }
        });
    }
    let e = f.new_value(Type::Tensor(TensorType { shape: small, elem: rt.elem.clone(), encoding: None }));
    let mut moved = op.clone();
    moved.operands = operands;
    moved.results = vec![e];
    out.push(moved);
    let mut back = Op::new(OpKind::Reshape, vec![e], vec![op.results[0]]);
    back.loc = op.loc.clone();
    out.push(back);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count, parse};

    #[test]
    fn per_channel_math_between_reshapes_runs_on_the_small_shape() {
        let src = "func.func @main(%s: tensor<3xf32>, %t: tensor<3xf32>) -> (tensor<3xf32>, tensor<1x1x3xf32>) {
  %n = stablehlo.constant dense<4.000000e+00> : tensor<1x1x3xf32>
  %r = stablehlo.reshape %s : (tensor<3xf32>) -> tensor<1x1x3xf32>
  %d = stablehlo.divide %r, %n : tensor<1x1x3xf32>
  %b = stablehlo.broadcast_in_dim %t, dims = [2] : (tensor<3xf32>) -> tensor<1x1x3xf32>
  %c = stablehlo.constant dense<2.000000e+00> : tensor<f32>
  %cb = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<1x1x3xf32>
  %m = stablehlo.multiply %d, %b : tensor<1x1x3xf32>
  %a = stablehlo.add %m, %cb : tensor<1x1x3xf32>
  %back = stablehlo.reshape %a : (tensor<1x1x3xf32>) -> tensor<3xf32>
  return %back, %a : tensor<3xf32>, tensor<1x1x3xf32>
}";
        let (m, changed) = check_pass(&ReshapeSink, src);
        assert!(changed);
        // Every elementwise op now works on [3].
        let f = m.entry().unwrap();
        f.walk(&mut |op| {
            if matches!(op.kind, OpKind::Divide | OpKind::Multiply | OpKind::Add) {
                assert!(matches!(f.try_ty(op.results[0]), Some(Type::Tensor(t)) if t.shape == vec![3]), "{op:?}");
            }
        });
        // With the rest of O2 the reshape pairs cancel: one reshape left, for the [1, 1, 3] result.
        let mut o = parse(src);
        crate::optimize(&mut o, &crate::OptOptions::at(crate::OptLevel::O2)).unwrap();
        assert_eq!(count(&o, OpKind::Reshape), 1);
    }

    #[test]
    fn reshapes_from_different_shapes_and_real_broadcasts_stay() {
        let src = "func.func @main(%s: tensor<6xf32>, %t: tensor<2x3xf32>, %u: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %r = stablehlo.reshape %s : (tensor<6xf32>) -> tensor<2x3xf32>
  %q = stablehlo.reshape %t : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %x = stablehlo.add %r, %t : tensor<2x3xf32>
  %b = stablehlo.broadcast_in_dim %u, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %y = stablehlo.add %r, %b : tensor<2x3xf32>
  return %x, %y : tensor<2x3xf32>, tensor<2x3xf32>
}";
        let (_, changed) = check_pass(&ReshapeSink, src);
        assert!(!changed);
    }
}
