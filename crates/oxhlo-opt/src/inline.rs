//! Inlining: replaces every `func.call` of a non-recursive function whose body is one block by a copy of
//! that body (the callee's values renumbered into the caller's arena), then drops private functions that
//! nothing references any more (references are symbol or string attributes anywhere in the module, so
//! `composite` decompositions and `interpreter.run_parallel` programs stay).

use crate::util::{resolve, substitute_region};
use crate::Pass;
use oxhlo_ir::{Attr, Func, Module, Op, OpKind, Region, Type, Value, Visibility};
use std::collections::{HashMap, HashSet, VecDeque};

pub struct Inline;

/// Stop inlining into a function once this many ops were copied into it (guards exponential growth).
const MAX_INLINED_OPS: usize = 2_000_000;

impl Pass for Inline {
    fn name(&self) -> &'static str {
        "inline"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        let recursive = recursive_funcs(m);
        let callees: HashMap<String, (Region, Vec<Type>)> = m
            .funcs
            .iter()
            .filter(|f| !recursive.contains(&f.name) && f.body.blocks.len() == 1)
            .map(|f| (f.name.clone(), (f.body.clone(), f.values.clone())))
            .collect();
        let mut changed = false;
        for f in &mut m.funcs {
            changed |= inline_into(f, &callees);
        }
        changed |= drop_unreferenced(m);
        Ok(changed)
    }
}

fn callee_name(op: &Op) -> Option<&str> {
    match op.attr("callee")? {
        Attr::SymbolRef(s) | Attr::Str(s) => Some(s.trim_start_matches('@')),
        _ => None,
    }
}

/// Functions that can reach themselves through calls.
fn recursive_funcs(m: &Module) -> HashSet<String> {
    let mut edges: HashMap<&str, Vec<String>> = HashMap::new();
    for f in &m.funcs {
        let mut out = Vec::new();
        f.walk(&mut |op| {
            if op.kind == OpKind::Call {
                if let Some(c) = callee_name(op) {
                    out.push(c.to_string());
                }
            }
        });
        edges.insert(f.name.as_str(), out);
    }
    let mut rec = HashSet::new();
    for f in &m.funcs {
        // DFS from f's callees; f is recursive if it comes back to f
        let mut seen: HashSet<&str> = HashSet::new();
        let mut stack: Vec<&str> = edges.get(f.name.as_str()).map(|v| v.iter().map(String::as_str).collect()).unwrap_or_default();
        while let Some(n) = stack.pop() {
            if n == f.name {
                rec.insert(f.name.clone());
                break;
            }
            if seen.insert(n) {
                if let Some(next) = edges.get(n) {
                    stack.extend(next.iter().map(String::as_str));
                }
            }
        }
    }
    rec
}

struct Inliner<'a> {
    callees: &'a HashMap<String, (Region, Vec<Type>)>,
    values: Vec<Type>,
    /// call results -> the callee's returned values (renumbered)
    subst: HashMap<Value, Value>,
    copied: usize,
    changed: bool,
}

fn inline_into(f: &mut Func, callees: &HashMap<String, (Region, Vec<Type>)>) -> bool {
    let mut body = std::mem::take(&mut f.body);
    let mut inl = Inliner { callees, values: std::mem::take(&mut f.values), subst: HashMap::new(), copied: 0, changed: false };
    inl.region(&mut body, &f.name);
    substitute_region(&mut body, &inl.subst);
    f.body = body;
    f.values = inl.values;
    inl.changed
}

impl Inliner<'_> {
    fn region(&mut self, r: &mut Region, caller: &str) {
        for b in &mut r.blocks {
            let mut work: VecDeque<Op> = std::mem::take(&mut b.ops).into();
            let mut out = Vec::with_capacity(work.len());
            while let Some(mut op) = work.pop_front() {
                if op.kind == OpKind::Call && self.copied < MAX_INLINED_OPS {
                    if let Some(ops) = self.expand(&op, caller) {
                        self.changed = true;
                        for o in ops.into_iter().rev() {
                            work.push_front(o);
                        }
                        continue;
                    }
                }
                for nested in &mut op.regions {
                    self.region(nested, caller);
                }
                out.push(op);
            }
            b.ops = out;
        }
    }

    /// The ops replacing one call (its returned values recorded in `subst`), or None if not inlinable.
    fn expand(&mut self, call: &Op, caller: &str) -> Option<Vec<Op>> {
        let name = callee_name(call)?;
        if name == caller {
            return None;
        }
        let (body, values) = self.callees.get(name)?;
        let block = body.blocks.first()?;
        let term = block.ops.last()?;
        if !matches!(term.kind, OpKind::FuncReturn | OpKind::Return)
            || block.args.len() != call.operands.len()
            || term.operands.len() != call.results.len()
        {
            return None;
        }
        let offset = u32::try_from(self.values.len()).ok()?;
        u32::try_from(self.values.len() + values.len()).ok()?;
        self.values.extend(values.iter().cloned());
        let mut local: HashMap<Value, Value> = HashMap::new();
        for (a, &x) in block.args.iter().zip(&call.operands) {
            local.insert(Value(a.0.saturating_add(offset)), resolve(&self.subst, x));
        }
        let mut ops: Vec<Op> = Vec::with_capacity(block.ops.len());
        for op in &block.ops[..block.ops.len() - 1] {
            let mut o = op.clone();
            renumber(&mut o, offset);
            ops.push(o);
        }
        let mut r = Region::single(oxhlo_ir::Block { args: Vec::new(), ops });
        substitute_region(&mut r, &local);
        for (&res, &ret) in call.results.iter().zip(&term.operands) {
            let v = Value(ret.0.saturating_add(offset));
            let v = local.get(&v).copied().unwrap_or(v);
            self.subst.insert(res, v);
        }
        let ops = r.blocks.pop().map(|b| b.ops).unwrap_or_default();
        self.copied += ops.len();
        Some(ops)
    }
}

fn renumber(op: &mut Op, offset: u32) {
    for v in op.operands.iter_mut().chain(op.results.iter_mut()) {
        v.0 = v.0.saturating_add(offset);
    }
    for r in &mut op.regions {
        for b in &mut r.blocks {
            for a in &mut b.args {
                a.0 = a.0.saturating_add(offset);
            }
            for o in &mut b.ops {
                renumber(o, offset);
            }
        }
    }
}

fn attr_refs(a: &Attr, out: &mut HashSet<String>) {
    match a {
        Attr::SymbolRef(s) | Attr::Str(s) => {
            out.insert(s.trim_start_matches('@').to_string());
            if let Some((head, _)) = s.split_once("::") {
                out.insert(head.trim_start_matches('@').to_string());
            }
        }
        Attr::Array(items) => items.iter().for_each(|x| attr_refs(x, out)),
        Attr::Dict(items) => items.iter().for_each(|(_, x)| attr_refs(x, out)),
        _ => {}
    }
}

fn op_refs(op: &Op, out: &mut HashSet<String>) {
    for (_, a) in &op.attrs {
        attr_refs(a, out);
    }
}

/// Removes private functions not reachable (through references) from the other functions and the module.
fn drop_unreferenced(m: &mut Module) -> bool {
    let entry = m.entry().map(|f| f.name.clone());
    let mut live: HashSet<String> = HashSet::new();
    let mut roots: HashSet<String> = HashSet::new();
    for op in &m.other_ops {
        op_refs(op, &mut roots);
    }
    for (_, a) in &m.attrs {
        attr_refs(a, &mut roots);
    }
    for f in &m.funcs {
        if f.visibility != Visibility::Private || Some(&f.name) == entry.as_ref() {
            roots.insert(f.name.clone());
        }
        for (_, a) in &f.attrs {
            attr_refs(a, &mut roots);
        }
    }
    let mut stack: Vec<String> = roots.into_iter().collect();
    let by_name: HashMap<&str, &Func> = m.funcs.iter().map(|f| (f.name.as_str(), f)).collect();
    while let Some(n) = stack.pop() {
        if !live.insert(n.clone()) {
            continue;
        }
        if let Some(f) = by_name.get(n.as_str()) {
            let mut refs = HashSet::new();
            f.walk(&mut |op| op_refs(op, &mut refs));
            stack.extend(refs.into_iter().filter(|r| !live.contains(r)));
        }
    }
    let before = m.funcs.len();
    m.funcs.retain(|f| f.visibility != Visibility::Private || live.contains(&f.name));
    m.funcs.len() != before
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count};

    #[test]
    fn inlines_nested_calls_and_drops_private_funcs() {
        let src = r#"
func.func @main(%a: tensor<3xf32>, %p: tensor<3xi1>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = call @twice(%a) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = call @where(%p, %0, %a) : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = call @twice(%1) : (tensor<3xf32>) -> tensor<3xf32>
  return %1, %2 : tensor<3xf32>, tensor<3xf32>
}
func.func private @twice(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = call @double(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = stablehlo.negate %0 : tensor<3xf32>
  return %1 : tensor<3xf32>
}
func.func private @double(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.add %x, %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func private @where(%p: tensor<3xi1>, %x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.select %p, %x, %y : tensor<3xi1>, tensor<3xf32>
  return %0 : tensor<3xf32>
}"#;
        let (m, changed) = check_pass(&Inline, src);
        assert!(changed);
        assert_eq!(m.funcs.len(), 1);
        assert_eq!(count(&m, OpKind::Call), 0);
        assert_eq!(count(&m, OpKind::Add), 2);
        assert_eq!(count(&m, OpKind::Select), 1);
    }

    #[test]
    fn inlines_into_loop_bodies_and_passes_arguments_through() {
        let src = r#"
func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %c0, %x = %a) : tensor<i32>, tensor<2xi32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    %x2, %x3 = func.call @step(%x, %a) : (tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>)
    stablehlo.return %i2, %x3 : tensor<i32>, tensor<2xi32>
  }
  return %w#1 : tensor<2xi32>
}
func.func private @step(%x: tensor<2xi32>, %y: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %0 = stablehlo.multiply %x, %y : tensor<2xi32>
  return %y, %0 : tensor<2xi32>, tensor<2xi32>
}"#;
        let (m, changed) = check_pass(&Inline, src);
        assert!(changed);
        assert_eq!(m.funcs.len(), 1);
        assert_eq!(count(&m, OpKind::Multiply), 1);
    }

    #[test]
    fn leaves_recursive_and_public_functions() {
        let src = r#"
func.func @main(%a: tensor<i32>) -> tensor<i32> {
  %0 = call @helper(%a) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}
func.func public @helper(%x: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.abs %x : tensor<i32>
  return %0 : tensor<i32>
}
func.func private @rec(%x: tensor<i32>) -> tensor<i32> {
  %0 = call @rec(%x) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}"#;
        let (m, changed) = check_pass(&Inline, src);
        assert!(changed);
        // the public helper stays (inlined into main), the unreferenced private recursive one goes
        assert!(m.func("helper").is_some());
        assert!(m.func("rec").is_none());
        assert_eq!(count(&m, OpKind::Call), 0);
    }
}
