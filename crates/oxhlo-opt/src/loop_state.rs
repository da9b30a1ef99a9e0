//! Dead loop state (part of DCE): a `while` carries values nothing observes — no use of the loop's
//! result, no use in the condition, and no use (transitively) by the update of an observed value or by an
//! op with effects in the body. Those positions are dropped from the loop's operands, results, region
//! arguments and the body's return; DCE then removes their update computations.

use crate::util::{all_uses, is_removable};
use oxhlo_ir::{Op, OpKind, Value};
use std::collections::{HashMap, HashSet};

/// Drops the unobserved loop-carried values of a `while` (`counts`: uses of every value of the
/// function, kept up to date); returns whether it changed the op.
pub fn prune_while_state(op: &mut Op, counts: &mut [u32]) -> bool {
    if op.kind != OpKind::While {
        return false;
    }
    let n = op.operands.len();
    let results = op.results.clone();
    let [cond, body] = op.regions.as_mut_slice() else { return false };
    let (Some(cb), Some(bb)) = (cond.blocks.first(), body.blocks.first()) else { return false };
    let Some(term) = bb.ops.last().filter(|t| t.kind == OpKind::Return) else { return false };
    if cb.args.len() != n || bb.args.len() != n || term.operands.len() != n || results.len() != n {
        return false;
    }
    let used = |v: Value| counts.get(v.0 as usize).copied().unwrap_or(1) > 0;
    let mut live: Vec<bool> = results.iter().map(|&r| used(r)).collect();
    let mut cond_uses = Vec::new();
    for o in &cb.ops {
        all_uses(o, &mut cond_uses);
    }
    let cond_uses: HashSet<Value> = cond_uses.into_iter().collect();
    for (i, a) in cb.args.iter().enumerate() {
        live[i] |= cond_uses.contains(a);
    }
    let arg_pos: HashMap<Value, usize> = bb.args.iter().enumerate().map(|(i, &a)| (a, i)).collect();
    let body_ops = &bb.ops[..bb.ops.len() - 1];
    let mut def: HashMap<Value, usize> = HashMap::new();
    for (j, o) in body_ops.iter().enumerate() {
        for &r in &o.results {
            def.insert(r, j);
        }
    }
    let mut visited = vec![false; body_ops.len()];
    let mut work: Vec<Value> = Vec::new();
    for (j, o) in body_ops.iter().enumerate() {
        if !is_removable(o) || o.results.is_empty() {
            visited[j] = true;
            all_uses(o, &mut work);
        }
    }
    let mut queued = vec![false; n];
    for i in 0..n {
        if live[i] {
            queued[i] = true;
            work.push(term.operands[i]);
        }
    }
    while let Some(v) = work.pop() {
        if let Some(&k) = arg_pos.get(&v) {
            live[k] = true;
            if !queued[k] {
                queued[k] = true;
                work.push(term.operands[k]);
            }
        } else if let Some(&j) = def.get(&v) {
            if !visited[j] {
                visited[j] = true;
                all_uses(&body_ops[j], &mut work);
            }
        }
    }
    if live.iter().all(|&l| l) {
        return false;
    }
    let dec = |counts: &mut [u32], v: Value| {
        if let Some(c) = counts.get_mut(v.0 as usize) {
            *c = c.saturating_sub(1);
        }
    };
    for i in (0..n).filter(|&i| !live[i]) {
        dec(counts, op_operand(&op.operands, i));
        dec(counts, term.operands[i]);
    }
    let keep = |v: &mut Vec<Value>| {
        let mut i = 0;
        v.retain(|_| {
            i += 1;
            live.get(i - 1).copied().unwrap_or(true)
        });
    };
    if let Some(b) = cond.blocks.first_mut() {
        keep(&mut b.args);
    }
    if let Some(b) = body.blocks.first_mut() {
        keep(&mut b.args);
        if let Some(t) = b.ops.last_mut() {
            keep(&mut t.operands);
        }
    }
    keep(&mut op.operands);
    keep(&mut op.results);
    true
}

fn op_operand(v: &[Value], i: usize) -> Value {
    v.get(i).copied().unwrap_or(Value(u32::MAX))
}

#[cfg(test)]
mod tests {
    use crate::dce::Dce;
    use crate::testkit::{check_pass, count, print};
    use oxhlo_ir::OpKind;

    #[test]
    fn drops_unobserved_carried_values_and_their_updates() {
        let src = r#"
func.func @main(%a: tensor<3xf32>, %b: tensor<3xi32>) -> tensor<3xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %w:4 = stablehlo.while(%i = %c0, %x = %a, %d = %b, %e = %a) : tensor<i32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    %ef = stablehlo.exponential %e : tensor<3xf32>
    %x2 = stablehlo.add %x, %ef : tensor<3xf32>
    %d2 = stablehlo.multiply %d, %b : tensor<3xi32>
    %e2 = stablehlo.sine %e : tensor<3xf32>
    stablehlo.return %i2, %x2, %d2, %e2 : tensor<i32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf32>
  }
  return %w#1 : tensor<3xf32>
}"#;
        let (m, changed) = check_pass(&Dce, src);
        assert!(changed);
        let text = print(&m);
        // %d is unobserved (dropped with its multiply); %e feeds %x (kept); the counter feeds cond (kept)
        assert_eq!(count(&m, OpKind::Multiply), 0, "{text}");
        assert_eq!(count(&m, OpKind::Sine), 1, "{text}");
        let mut state = 0;
        m.funcs[0].walk(&mut |o| if o.kind == OpKind::While { state = o.operands.len() });
        assert_eq!(state, 3, "{text}");
    }

    #[test]
    fn keeps_state_read_by_effects_in_the_body() {
        let src = r#"
func.func @main(%a: tensor<3xf32>) -> tensor<i32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %c0, %x = %a) : tensor<i32>, tensor<3xf32>
  cond {
    %n = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    %x2 = stablehlo.add %x, %x : tensor<3xf32>
    %probe = interpreter.probe %x2, probe_id = "x" : tensor<3xf32>
    stablehlo.return %i2, %probe : tensor<i32>, tensor<3xf32>
  }
  return %w#0 : tensor<i32>
}"#;
        let (m, changed) = check_pass(&Dce, src);
        assert!(!changed, "{}", print(&m));
    }
}
