//! Dead code elimination: removes pure ops (regions included, see [`crate::util::is_removable`]) whose
//! results are all unused, anywhere in a function's nested regions. Ops with effects (checks, I/O,
//! collectives, rng, calls, while loops) and ops without results always stay; loops lose the carried
//! values nothing observes ([`crate::loop_state`]).

use crate::util::{all_uses, for_each_func, is_removable, use_counts};
use crate::Pass;
use oxhlo_ir::{Func, Module, Region};

pub struct Dce;

impl Pass for Dce {
    fn name(&self) -> &'static str {
        "dce"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(dce_func(f)))
    }
}

/// Removes the dead ops of one function; returns whether any was removed.
pub fn dce_func(f: &mut Func) -> bool {
    let mut counts = use_counts(f);
    let mut body = std::mem::take(&mut f.body);
    let changed = dce_region(&mut body, &mut counts);
    f.body = body;
    changed
}

fn dce_region(r: &mut Region, counts: &mut [u32]) -> bool {
    let mut changed = false;
    for b in &mut r.blocks {
        // Backwards, so removing an op frees its operands' producers earlier in the block.
        let mut keep = vec![true; b.ops.len()];
        for i in (0..b.ops.len()).rev() {
            let op = &mut b.ops[i];
            let dead = !op.results.is_empty()
                && op.results.iter().all(|v| counts.get(v.0 as usize).copied().unwrap_or(0) == 0)
                && is_removable(op);
            if dead {
                let mut uses = Vec::new();
                all_uses(op, &mut uses);
                for v in uses {
                    if let Some(c) = counts.get_mut(v.0 as usize) {
                        *c = c.saturating_sub(1);
                    }
                }
                keep[i] = false;
                changed = true;
            } else {
                changed |= crate::loop_state::prune_while_state(op, counts);
                for nested in &mut op.regions {
                    changed |= dce_region(nested, counts);
                }
            }
        }
        if keep.iter().any(|k| !k) {
            let mut it = keep.iter();
            b.ops.retain(|_| *it.next().unwrap_or(&true));
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count};
    use oxhlo_ir::OpKind;

    #[test]
    fn removes_dead_chains_and_keeps_effects() {
        let src = r#"
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %a : tensor<4xf32>
  %1 = stablehlo.add %0, %0 : tensor<4xf32>
  %2 = stablehlo.multiply %a, %a : tensor<4xf32>
  %3 = stablehlo.custom_call @check.something(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = stablehlo.sine %a : tensor<4xf32>
  return %2 : tensor<4xf32>
}"#;
        let m = oxhlo_text::parse_module(src, "t").unwrap();
        let mut m2 = m.clone();
        assert!(Dce.run(&mut m2).unwrap());
        // exponential and add feed the custom call, which has effects: they stay
        assert_eq!(count(&m2, OpKind::Exponential), 1);
        assert_eq!(count(&m2, OpKind::CustomCall), 1);
        assert_eq!(count(&m2, OpKind::Sine), 0);
    }

    #[test]
    fn removes_dead_ops_in_regions_and_dead_reduces() {
        let src = r#"
func.func @main(%a: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %c0, %x = %a) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %dead = stablehlo.sine %x : tensor<4xf32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    %x2 = stablehlo.add %x, %x : tensor<4xf32>
    stablehlo.return %i2, %x2 : tensor<i32>, tensor<4xf32>
  }
  return %w#1 : tensor<4xf32>
}"#;
        let (m, changed) = check_pass(&Dce, src);
        assert!(changed);
        assert_eq!(count(&m, OpKind::Reduce), 0);
        assert_eq!(count(&m, OpKind::Sine), 0);
        assert_eq!(count(&m, OpKind::While), 1);
        // nothing left to remove
        let (_, changed) = check_pass(&Dce, &crate::testkit::print(&m));
        assert!(!changed);
    }

    #[test]
    fn keeps_unused_while_and_checks() {
        let src = r#"
func.func @main() {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %w = stablehlo.while(%i = %c) : tensor<i32>
  cond {
    %f = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %f : tensor<i1>
  } do {
    stablehlo.return %i : tensor<i32>
  }
  check.expect_eq_const %c, dense<1> : tensor<i32>
  return
}"#;
        // the loop's unobserved counter leaves its state, but the loop and the check stay
        let (m, _) = check_pass(&Dce, src);
        assert_eq!(count(&m, OpKind::While), 1);
        assert_eq!(count(&m, OpKind::CheckExpectEqConst), 1);
        let reparsed = crate::testkit::parse(&crate::testkit::print(&m));
        assert_eq!(count(&reparsed, OpKind::While), 1);
    }
}
