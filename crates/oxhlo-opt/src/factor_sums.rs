//! Factors out of a sum what is constant over the summed dimensions: `reduce_add(c * y)` over dims `D`,
//! where `c` is a `broadcast_in_dim` whose operand maps to no dim of `D`, becomes `c' * reduce_add(y)`
//! (`c'` the same operand broadcast to the result's shape), and `reduce_add(-y)` becomes
//! `-reduce_add(y)`. The product tree under the sum is searched through `multiply` and `negate`; the
//! remaining factors are multiplied in a canonical order, so that sums which differed only in their
//! per-slice factors become the same op and CSE keeps one.
//!
//! Why: JAX's batch-norm backward takes four sums over the activations per layer; three are the same
//! sum of `dy'` or `(x - mean) * dy'` times per-channel factors, and a fifth, `sum(-k * (x - mean))`
//! with `k` computed from the others, needs a pass of its own until `k` moves out. After this pass a
//! layer's backward sums are two or three independent sums over one view, which the planner merges
//! into one kernel (`oxhlo_plan::reduce_fusion::merge_kernels`).
//!
//! Not exact: `c * sum(y)` rounds differently from `sum(c * y)` (and a non-finite `c` meeting zeros in
//! `y` can give inf where the per-element form gave NaN). So it is not part of any level's pipeline; a
//! backend whose sums already run in an order of its own choosing opts in through
//! [`crate::OptOptions::factor_sums`] (the CUDA backend does; `OXHLO_FACTOR_SUMS=0` turns it off).
//! Only sums of floats with a zero init and a plain `add` body are rewritten.

use crate::util::{rewrite_blocks, const_value, for_each_func, neg_zero_bits, plain_tensor, set_i64s, splat_bits};
use crate::Pass;
use oxhlo_ir::{Block, Func, Module, Op, OpKind, Region, TensorType, Type, Value};
use oxhlo_plan::reducer::{reducer_kind, ReduceKind};
use std::collections::HashMap;

pub struct FactorSums;

impl Pass for FactorSums {
    fn name(&self) -> &'static str {
        "factor-sums"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(rewrite_func(f)))
    }
}

/// Rewrites one function; true when something changed.
pub fn rewrite_func(f: &mut Func) -> bool {
    rewrite_blocks(f, block)
}

fn block(f: &mut Func, b: &mut Block) -> bool {
    let def: HashMap<Value, usize> = b.ops.iter().enumerate().flat_map(|(i, op)| op.results.iter().map(move |&v| (v, i))).collect();
    let replaced: Vec<Option<Vec<Op>>> = (0..b.ops.len()).map(|i| factor(f, &b.ops, &def, i)).collect();
    if replaced.iter().all(Option::is_none) {
        return false;
    }
    let ops = std::mem::take(&mut b.ops);
    for (op, new) in ops.into_iter().zip(replaced) {
        match new {
            Some(new) => b.ops.extend(new),
            None => b.ops.push(op),
        }
    }
    true
}

/// What a sum's operand is a product of.
#[derive(Default)]
struct Factors {
    negated: bool,
    /// `broadcast_in_dim` ops (indices) constant over the summed dims.
    constant: Vec<usize>,
    /// Everything else.
    rest: Vec<Value>,
}

/// The ops replacing the sum at `i`, when it has something to factor out.
fn factor(f: &mut Func, ops: &[Op], def: &HashMap<Value, usize>, i: usize) -> Option<Vec<Op>> {
    let op = &ops[i];
    if op.kind != OpKind::Reduce || op.operands.len() != 2 || op.results.len() != 1 || op.regions.len() != 1 {
        return None;
    }
    let (x, init, res) = (op.operands[0], op.operands[1], op.results[0]);
    let xt = plain_tensor(f, x)?.clone();
    let rt = plain_tensor(f, res)?.clone();
    if !xt.elem.is_float() || xt.elem.is_complex() || reducer_kind(f, &op.regions[0]) != Some(ReduceKind::Add) {
        return None;
    }
    let zero = def.get(&init).and_then(|&j| const_value(&ops[j])).and_then(splat_bits);
    if !zero.is_some_and(|z| z == 0 || Some(z) == neg_zero_bits(&xt.elem)) {
        return None;
    }
    let dims: Vec<usize> = op.i64s("dimensions")?.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<_>>()?;
    let mut fs = Factors::default();
    collect(ops, def, &dims, x, 0, &mut fs);
    if (fs.constant.is_empty() && !fs.negated) || fs.rest.is_empty() {
        return None;
    }
    fs.rest.sort_by_key(|v| v.0);
    let mut out = Vec::new();
    let loc = &op.loc;
    // The product of the remaining factors (repeats kept: `y * y` stays a square).
    let mut acc = fs.rest[0];
    for &r in &fs.rest[1..] {
        acc = emit(f, &mut out, loc, OpKind::Multiply, vec![acc, r], &xt, None);
    }
    let mut sum = op.clone();
    sum.operands = vec![acc, init];
    let s = f.new_value(Type::Tensor(rt.clone()));
    sum.results = vec![s];
    sum.regions = vec![fresh_copy(f, &op.regions[0])];
    out.push(sum);
    let mut cur = s;
    let last = fs.constant.len();
    for (k, &j) in fs.constant.iter().enumerate() {
        let b = &ops[j];
        let bdims = b.i64s("broadcast_dimensions")?;
        // A full-shape dim's place in the result: the summed dims before it drop out.
        let moved: Vec<i64> = bdims.iter().map(|&d| d - dims.iter().filter(|&&r| (r as i64) < d).count() as i64).collect();
        let c = emit(f, &mut out, loc, OpKind::BroadcastInDim, vec![b.operands[0]], &rt, None);
        if let Some(o) = out.last_mut() {
            set_i64s(o, "broadcast_dimensions", moved);
        }
        let done = k + 1 == last && !fs.negated;
        cur = emit(f, &mut out, loc, OpKind::Multiply, vec![cur, c], &rt, done.then_some(res));
    }
    if fs.negated {
        emit(f, &mut out, loc, OpKind::Negate, vec![cur], &rt, Some(res));
    }
    Some(out)
}

/// Appends `kind(operands)` defining `result` (a new value of type `ty` when None); returns it.
fn emit(f: &mut Func, out: &mut Vec<Op>, loc: &oxhlo_ir::Location, kind: OpKind, operands: Vec<Value>, ty: &TensorType, result: Option<Value>) -> Value {
    let v = result.unwrap_or_else(|| f.new_value(Type::Tensor(ty.clone())));
    let mut o = Op::new(kind, operands, vec![v]);
    o.loc = loc.clone();
    out.push(o);
    v
}

/// Walks the product tree of `v` (through `multiply` and `negate` ops of this block, 8 levels deep).
fn collect(ops: &[Op], def: &HashMap<Value, usize>, dims: &[usize], v: Value, depth: usize, fs: &mut Factors) {
    let Some(&j) = def.get(&v).filter(|_| depth < 8) else {
        fs.rest.push(v);
        return;
    };
    let op = &ops[j];
    match op.kind {
        OpKind::Negate if op.operands.len() == 1 => {
            fs.negated = !fs.negated;
            collect(ops, def, dims, op.operands[0], depth + 1, fs);
        }
        OpKind::Multiply if op.operands.len() == 2 => {
            collect(ops, def, dims, op.operands[0], depth + 1, fs);
            collect(ops, def, dims, op.operands[1], depth + 1, fs);
        }
        OpKind::BroadcastInDim if constant_over(op, dims) => fs.constant.push(j),
        _ => fs.rest.push(v),
    }
}

/// Whether a `broadcast_in_dim` maps none of its operand's dims onto a summed dim.
fn constant_over(op: &Op, dims: &[usize]) -> bool {
    op.operands.len() == 1 && op.i64s("broadcast_dimensions").is_some_and(|b| b.iter().all(|&d| usize::try_from(d).is_ok_and(|d| !dims.contains(&d))))
}

/// A copy of a reduction body with fresh values for everything it defines.
fn fresh_copy(f: &mut Func, r: &Region) -> Region {
    let mut map: HashMap<Value, Value> = HashMap::new();
    let fresh = |f: &mut Func, v: Value, map: &mut HashMap<Value, Value>| {
        let t = f.try_ty(v).cloned().unwrap_or(Type::Token);
        let n = f.new_value(t);
        map.insert(v, n);
        n
    };
    let mut out = r.clone();
    for b in &mut out.blocks {
        for a in &mut b.args {
            *a = fresh(f, *a, &mut map);
        }
        for op in &mut b.ops {
            for v in &mut op.results {
                *v = fresh(f, *v, &mut map);
            }
            for v in &mut op.operands {
                *v = map.get(v).copied().unwrap_or(*v);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count, parse};

    /// A batch norm's backward in miniature: `g * sum(d * dy)`, `-g * sum(dy)` and `sum(d * dy)` written
    /// as sums of products with the per-channel `g` inside (the test inputs are halves, so every form
    /// computes the same floats and `check_pass` can compare bitwise).
    const BN_SUMS: &str = "func.func @main(%x: tensor<4x3xf32>, %dy: tensor<4x3xf32>, %g: tensor<3xf32>, %m: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [1] : (tensor<3xf32>) -> tensor<4x3xf32>
  %d = stablehlo.subtract %x, %mb : tensor<4x3xf32>
  %p = stablehlo.multiply %d, %gb : tensor<4x3xf32>
  %q = stablehlo.multiply %p, %dy : tensor<4x3xf32>
  %s1 = stablehlo.reduce(%q init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  %n = stablehlo.negate %dy : tensor<4x3xf32>
  %r = stablehlo.multiply %gb, %n : tensor<4x3xf32>
  %s2 = stablehlo.reduce(%r init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  %t = stablehlo.multiply %dy, %d : tensor<4x3xf32>
  %s3 = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  return %s1, %s2, %s3 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}";

    #[test]
    fn per_channel_factors_leave_the_sums_and_equal_sums_merge() {
        let (m, changed) = check_pass(&FactorSums, BN_SUMS);
        assert!(changed);
        // s1 and s2 rewritten; s3 had nothing to factor.
        assert_eq!(count(&m, OpKind::Reduce), 3);
        assert_eq!(count(&m, OpKind::Negate), 2, "the negate moved out of s2's sum (the old one is dead)");
        // With the rest of O2 (CSE), s1's and s3's sums of `d * dy` become one.
        let mut o = parse(BN_SUMS);
        crate::optimize(&mut o, &crate::OptOptions { factor_sums: true, ..crate::OptOptions::at(crate::OptLevel::O2) }).unwrap();
        assert_eq!(count(&o, OpKind::Reduce), 2);
        let mut plain = parse(BN_SUMS);
        crate::optimize(&mut plain, &crate::OptOptions::at(crate::OptLevel::O2)).unwrap();
        assert_eq!(count(&plain, OpKind::Reduce), 3, "off unless asked");
    }

    #[test]
    fn factors_that_vary_over_the_summed_dims_integers_and_other_inits_stay() {
        let src = "func.func @main(%x: tensor<4x3xf32>, %h: tensor<4xf32>, %i: tensor<4x3xi32>, %c: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xi32>) {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
  %hb = stablehlo.broadcast_in_dim %h, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
  %p = stablehlo.multiply %x, %hb : tensor<4x3xf32>
  %s1 = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  %n = stablehlo.negate %x : tensor<4x3xf32>
  %s2 = stablehlo.reduce(%n init: %one) applies stablehlo.add across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %cb = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<3xi32>) -> tensor<4x3xi32>
  %q = stablehlo.multiply %i, %cb : tensor<4x3xi32>
  %s3 = stablehlo.reduce(%q init: %zi) applies stablehlo.add across dimensions = [0] : (tensor<4x3xi32>, tensor<i32>) -> tensor<3xi32>
  return %s1, %s2, %s3 : tensor<3xf32>, tensor<3xf32>, tensor<3xi32>
}";
        let (_, changed) = check_pass(&FactorSums, src);
        assert!(!changed);
    }

    #[test]
    fn factors_map_past_the_summed_dims() {
        // Sum over the middle dim of [2, 4, 3]: a factor over dims (0, 2) lands on the result's (0, 1).
        let src = "func.func @main(%x: tensor<2x4x3xf32>, %g: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [0, 2] : (tensor<2x3xf32>) -> tensor<2x4x3xf32>
  %p = stablehlo.multiply %gb, %x : tensor<2x4x3xf32>
  %s = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x4x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}";
        let (_, changed) = check_pass(&FactorSums, src);
        assert!(changed);
    }
}
