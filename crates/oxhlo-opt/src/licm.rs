//! Loop-invariant code motion for `stablehlo.while`. First, loop-carried values the body passes through
//! unchanged (it returns its own argument, or the loop's initial value, at that position) are replaced by
//! the initial value inside cond and body and after the loop, and dropped from the loop state — JAX
//! threads every captured value through the loop state, so this is what exposes invariants. Then pure region-free ops of the cond and body
//! blocks whose operands are all defined outside the loop are hoisted right before the `while` (inner
//! loops first, so invariants climb out of nested loops).

use crate::util::{for_each_func, is_simple_pure, resolve, substitute_region};
use crate::Pass;
use oxhlo_ir::{Func, Module, Op, OpKind, Region, Value};
use std::collections::{HashMap, HashSet};

pub struct Licm;

impl Pass for Licm {
    fn name(&self) -> &'static str {
        "licm"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(licm_func(f)))
    }
}

struct LicmState<'f> {
    func: &'f Func,
    subst: HashMap<Value, Value>,
    changed: bool,
}

/// Hoists the loop invariants of one function.
pub fn licm_func(f: &mut Func) -> bool {
    let mut body = std::mem::take(&mut f.body);
    let mut s = LicmState { func: f, subst: HashMap::new(), changed: false };
    s.region(&mut body);
    let changed = s.changed;
    f.body = body;
    changed
}

impl LicmState<'_> {
    fn region(&mut self, r: &mut Region) {
        for b in &mut r.blocks {
            let mut out = Vec::with_capacity(b.ops.len());
            for mut op in std::mem::take(&mut b.ops) {
                for v in &mut op.operands {
                    let nv = resolve(&self.subst, *v);
                    self.changed |= nv != *v;
                    *v = nv;
                }
                for nested in &mut op.regions {
                    self.region(nested);
                }
                if op.kind == OpKind::While {
                    self.forward_invariant_args(&mut op);
                    let hoisted = hoist(&mut op);
                    if !hoisted.is_empty() {
                        self.changed = true;
                        out.extend(hoisted);
                    }
                }
                out.push(op);
            }
            b.ops = out;
        }
    }

    fn forward_invariant_args(&mut self, op: &mut Op) {
        let n = op.operands.len();
        let (inits, results) = (op.operands.clone(), op.results.clone());
        let [cond, body] = op.regions.as_mut_slice() else { return };
        let (Some(cb), Some(bb)) = (cond.blocks.first(), body.blocks.first()) else { return };
        let Some(term) = bb.ops.last().filter(|t| t.kind == OpKind::Return) else { return };
        if cb.args.len() != n || bb.args.len() != n || term.operands.len() != n || results.len() != n {
            return;
        }
        let mut inner: HashMap<Value, Value> = HashMap::new();
        let mut drop = vec![false; n];
        for i in 0..n {
            let (init, ba, ca, res) = (inits[i], bb.args[i], cb.args[i], results[i]);
            let t = term.operands[i];
            if t != ba && t != init {
                continue;
            }
            let ty = self.func.try_ty(init);
            if ty.is_none() || [ba, ca, res].iter().any(|v| self.func.try_ty(*v) != ty) {
                continue;
            }
            drop[i] = true;
            inner.insert(ba, init);
            inner.insert(ca, init);
            self.subst.insert(res, init);
        }
        if inner.is_empty() {
            return;
        }
        substitute_region(cond, &inner);
        substitute_region(body, &inner);
        // the forwarded positions are no loop state any more: drop them from the loop
        let keep = |v: &mut Vec<Value>| {
            let mut i = 0;
            v.retain(|_| {
                i += 1;
                !drop.get(i - 1).copied().unwrap_or(false)
            });
        };
        for r in [&mut *cond, &mut *body] {
            if let Some(b) = r.blocks.first_mut() {
                keep(&mut b.args);
            }
        }
        if let Some(t) = body.blocks.first_mut().and_then(|b| b.ops.last_mut()) {
            keep(&mut t.operands);
        }
        keep(&mut op.operands);
        keep(&mut op.results);
        self.changed = true;
    }
}

/// Moves the invariant ops of a while's cond and body out; returns them in order.
fn hoist(op: &mut Op) -> Vec<Op> {
    let mut hoisted = Vec::new();
    for region in &mut op.regions {
        for b in &mut region.blocks {
            let mut inside: HashSet<Value> = b.args.iter().copied().collect();
            let mut kept = Vec::with_capacity(b.ops.len());
            for o in std::mem::take(&mut b.ops) {
                if is_simple_pure(&o) && o.operands.iter().all(|v| !inside.contains(v)) {
                    hoisted.push(o);
                } else {
                    inside.extend(o.results.iter().copied());
                    kept.push(o);
                }
            }
            b.ops = kept;
        }
    }
    hoisted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count, print};

    const JAX_LOOP: &str = r#"
func.func @main(%arg0: tensor<4x4xf32>, %n: tensor<i32>, %e: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<4x4xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %w:4 = stablehlo.while(%iterArg = %n, %iterArg_3 = %arg0, %iterArg_4 = %c, %iterArg_5 = %e) : tensor<i32>, tensor<4x4xf32>, tensor<i32>, tensor<3x4xf32>
  cond {
    %17 = stablehlo.compare LT, %iterArg_4, %iterArg, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %17 : tensor<i1>
  } do {
    %c_6 = stablehlo.constant dense<1> : tensor<i32>
    %17 = stablehlo.add %iterArg_4, %c_6 : tensor<i32>
    %18 = stablehlo.slice %iterArg_3 [0:1, 0:1] : (tensor<4x4xf32>) -> tensor<1x1xf32>
    %19 = stablehlo.reshape %18 : (tensor<1x1xf32>) -> tensor<f32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %21 = stablehlo.multiply %iterArg_5, %20 : tensor<3x4xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %23 = stablehlo.add %21, %22 : tensor<3x4xf32>
    stablehlo.return %iterArg, %iterArg_3, %17, %23 : tensor<i32>, tensor<4x4xf32>, tensor<i32>, tensor<3x4xf32>
  }
  return %w#3, %w#1 : tensor<3x4xf32>, tensor<4x4xf32>
}"#;

    #[test]
    fn hoists_invariants_of_jax_loops() {
        let (m, changed) = check_pass(&Licm, JAX_LOOP);
        assert!(changed);
        let text = print(&m);
        let body = text.split("do {").nth(1).unwrap_or("");
        // slice, reshape, both broadcasts and both constants leave the body; add, multiply, add stay
        assert!(!body.contains("stablehlo.slice") && !body.contains("broadcast_in_dim"), "{text}");
        assert!(body.contains("stablehlo.multiply"), "{text}");
        // the two pass-through values (n, arg0) left the loop state
        let mut state = 0;
        m.funcs[0].walk(&mut |o| if o.kind == OpKind::While { state = o.operands.len() });
        assert_eq!(state, 2, "{text}");
        // second run: nothing left to do
        let (_, again) = check_pass(&Licm, &text);
        assert!(!again, "{text}");
    }

    #[test]
    fn nested_loops_hoist_through_both_levels() {
        let src = r#"
func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %c0, %x = %a) : tensor<i32>, tensor<3xf32>
  cond {
    %n = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %v:2 = stablehlo.while(%j = %c0, %y = %x) : tensor<i32>, tensor<3xf32>
    cond {
      %m = stablehlo.constant dense<3> : tensor<i32>
      %q = stablehlo.compare LT, %j, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %q : tensor<i1>
    } do {
      %k = stablehlo.exponential %a : tensor<3xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j2 = stablehlo.add %j, %one : tensor<i32>
      %y2 = stablehlo.add %y, %k : tensor<3xf32>
      stablehlo.return %j2, %y2 : tensor<i32>, tensor<3xf32>
    }
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %v#1 : tensor<i32>, tensor<3xf32>
  }
  return %w#1 : tensor<3xf32>
}"#;
        let (m, changed) = check_pass(&Licm, src);
        assert!(changed);
        let text = print(&m);
        let before_loop = text.split("stablehlo.while").next().unwrap_or("");
        assert!(before_loop.contains("stablehlo.exponential"), "{text}");
        assert_eq!(count(&m, OpKind::Exponential), 1);
    }
}
