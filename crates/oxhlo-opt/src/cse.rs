//! Common subexpression elimination: a pure op that repeats an earlier op (same kind, attributes, operands,
//! result types, and structurally equal regions for reduce/sort/map/if...; never `while`) visible from it —
//! in the same block before it, or in an enclosing block — is replaced by the earlier op's results. Scopes follow regions: an op inside a loop
//! body may reuse one defined before the loop, never the other way round. Attributes are compared with
//! `PartialEq` after a hash (float attributes holding NaN never match: conservative).

use crate::util::{for_each_func, is_removable, is_simple_pure, resolve};
use crate::Pass;
use oxhlo_ir::attr::DenseArray;
use oxhlo_ir::{Attr, Func, Module, Op, OpKind, Region, Type, Value};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

pub struct Cse;

impl Pass for Cse {
    fn name(&self) -> &'static str {
        "cse"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(cse_func(f)))
    }
}

struct Entry {
    kind: OpKind,
    name: Option<String>,
    operands: Vec<Value>,
    attrs: Vec<(String, Attr)>,
    types: Vec<Type>,
    results: Vec<Value>,
    regions: Vec<Region>,
}

struct CseState<'f> {
    func: &'f Func,
    table: HashMap<u64, Vec<Entry>>,
    /// keys inserted per open scope, removed when the scope closes
    scopes: Vec<Vec<u64>>,
    subst: HashMap<Value, Value>,
    changed: bool,
}

/// Eliminates the common subexpressions of one function.
pub fn cse_func(f: &mut Func) -> bool {
    let mut body = std::mem::take(&mut f.body);
    let mut s = CseState { func: f, table: HashMap::new(), scopes: Vec::new(), subst: HashMap::new(), changed: false };
    s.region(&mut body);
    let changed = s.changed;
    f.body = body;
    changed
}

fn hash_attr(a: &Attr, h: &mut DefaultHasher) {
    match a {
        Attr::Dense(d) => {
            "dense".hash(h);
            format!("{:?}", d.ty).hash(h);
            d.splat.hash(h);
            d.data.hash(h);
        }
        Attr::Array(items) => {
            "array".hash(h);
            items.len().hash(h);
            for x in items {
                hash_attr(x, h);
            }
        }
        Attr::DenseArray(a) => {
            "dense_array".hash(h);
            match a {
                DenseArray::Bool(v) => v.hash(h),
                DenseArray::I8(v) | DenseArray::I16(v) | DenseArray::I32(v) | DenseArray::I64(v) => v.hash(h),
                DenseArray::F32(v) | DenseArray::F64(v) => v.len().hash(h),
            }
        }
        Attr::Int(v, _) => v.hash(h),
        Attr::Bool(v) => v.hash(h),
        Attr::Str(v) | Attr::SymbolRef(v) | Attr::Opaque(v) => v.hash(h),
        Attr::Bounds(v) => v.hash(h),
        // Others by kind alone: the bucket's entries are compared in full.
        other => std::mem::discriminant(other).hash(h),
    }
}

/// Hashes result types by their shapes and element kinds (a bucket key: equal types hash alike; the
/// entries of a bucket are compared in full).
fn hash_types(types: &[Type], h: &mut DefaultHasher) {
    types.len().hash(h);
    for t in types {
        std::mem::discriminant(t).hash(h);
        if let Type::Tensor(t) = t {
            t.shape.hash(h);
            std::mem::discriminant(&t.elem).hash(h);
        }
    }
}

/// Hashes the shape of regions (op kinds and counts), which equal regions share.
fn hash_regions(rs: &[Region], h: &mut DefaultHasher) {
    rs.len().hash(h);
    for r in rs {
        for b in &r.blocks {
            b.args.len().hash(h);
            for o in &b.ops {
                o.kind.hash(h);
                o.operands.len().hash(h);
                hash_regions(&o.regions, h);
            }
        }
    }
}

/// Structural equality of regions: the same ops with the same attributes and types, operands equal or
/// corresponding local values (`map`: values of `a`'s regions to those of `b`'s).
fn regions_equal(a: &[Region], b: &[Region], f: &Func, map: &mut HashMap<Value, Value>) -> bool {
    let ty_eq = |x: Value, y: Value| f.try_ty(x).is_some() && f.try_ty(x) == f.try_ty(y);
    if a.len() != b.len() {
        return false;
    }
    for (ra, rb) in a.iter().zip(b) {
        if ra.blocks.len() != rb.blocks.len() {
            return false;
        }
        for (ba, bb) in ra.blocks.iter().zip(&rb.blocks) {
            if ba.args.len() != bb.args.len() || ba.ops.len() != bb.ops.len() {
                return false;
            }
            for (&x, &y) in ba.args.iter().zip(&bb.args) {
                if !ty_eq(x, y) {
                    return false;
                }
                map.insert(x, y);
            }
            for (oa, ob) in ba.ops.iter().zip(&bb.ops) {
                let same = oa.kind == ob.kind
                    && oa.unregistered_name == ob.unregistered_name
                    && oa.attrs == ob.attrs
                    && oa.operands.len() == ob.operands.len()
                    && oa.results.len() == ob.results.len()
                    && oa.operands.iter().zip(&ob.operands).all(|(x, y)| map.get(x).copied().unwrap_or(*x) == *y);
                if !same {
                    return false;
                }
                for (&x, &y) in oa.results.iter().zip(&ob.results) {
                    if !ty_eq(x, y) {
                        return false;
                    }
                    map.insert(x, y);
                }
                if !regions_equal(&oa.regions, &ob.regions, f, map) {
                    return false;
                }
            }
        }
    }
    true
}

impl CseState<'_> {
    fn key(&self, op: &Op, types: &[Type]) -> u64 {
        let mut h = DefaultHasher::new();
        op.kind.hash(&mut h);
        op.unregistered_name.hash(&mut h);
        op.operands.hash(&mut h);
        for (n, a) in &op.attrs {
            n.hash(&mut h);
            hash_attr(a, &mut h);
        }
        hash_types(types, &mut h);
        hash_regions(&op.regions, &mut h);
        h.finish()
    }

    fn region(&mut self, r: &mut Region) {
        self.scopes.push(Vec::new());
        for b in &mut r.blocks {
            let mut out = Vec::with_capacity(b.ops.len());
            for mut op in std::mem::take(&mut b.ops) {
                for v in &mut op.operands {
                    *v = resolve(&self.subst, *v);
                }
                for nested in &mut op.regions {
                    self.region(nested);
                }
                let cse_able = is_simple_pure(&op)
                    || (!op.regions.is_empty() && !op.results.is_empty() && op.kind != OpKind::While && is_removable(&op));
                if !cse_able {
                    out.push(op);
                    continue;
                }
                let Some(types) = op.results.iter().map(|v| self.func.try_ty(*v).cloned()).collect::<Option<Vec<_>>>()
                else {
                    out.push(op);
                    continue;
                };
                let key = self.key(&op, &types);
                let found = self.table.get(&key).and_then(|es| {
                    es.iter().find(|e| {
                        e.kind == op.kind
                            && e.name == op.unregistered_name
                            && e.operands == op.operands
                            && e.types == types
                            && e.attrs == op.attrs
                            && regions_equal(&e.regions, &op.regions, self.func, &mut HashMap::new())
                    })
                });
                if let Some(e) = found {
                    for (&r, &prev) in op.results.iter().zip(&e.results) {
                        self.subst.insert(r, prev);
                    }
                    self.changed = true;
                    continue;
                }
                self.table.entry(key).or_default().push(Entry {
                    kind: op.kind,
                    name: op.unregistered_name.clone(),
                    operands: op.operands.clone(),
                    attrs: op.attrs.clone(),
                    types,
                    results: op.results.clone(),
                    regions: op.regions.clone(),
                });
                if let Some(s) = self.scopes.last_mut() {
                    s.push(key);
                }
                out.push(op);
            }
            b.ops = out;
        }
        // close the scope: entries of this region are not visible outside it
        for key in self.scopes.pop().unwrap_or_default().into_iter().rev() {
            if let Some(es) = self.table.get_mut(&key) {
                es.pop();
                if es.is_empty() {
                    self.table.remove(&key);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count, print};

    #[test]
    fn merges_repeats_and_respects_scopes() {
        let src = r#"
func.func @main(%a: tensor<4xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c1 = stablehlo.constant dense<1.0> : tensor<4xf32>
  %c2 = stablehlo.constant dense<1.0> : tensor<4xf32>
  %0 = stablehlo.add %a, %c1 : tensor<4xf32>
  %1 = stablehlo.add %a, %c2 : tensor<4xf32>
  %2 = stablehlo.multiply %0, %1 : tensor<4xf32>
  %3 = stablehlo.add %1, %a : tensor<4xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %c0, %x = %a) : tensor<i32>, tensor<4xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    %e = stablehlo.add %a, %c1 : tensor<4xf32>
    %s = stablehlo.sine %x : tensor<4xf32>
    %x2 = stablehlo.add %e, %s : tensor<4xf32>
    stablehlo.return %i2, %x2 : tensor<i32>, tensor<4xf32>
  }
  %s2 = stablehlo.sine %a : tensor<4xf32>
  %one2 = stablehlo.constant dense<1> : tensor<i32>
  %k = stablehlo.add %n, %one2 : tensor<i32>
  %kf = stablehlo.convert %k : (tensor<i32>) -> tensor<f32>
  %kb = stablehlo.broadcast_in_dim %kf, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %r = stablehlo.add %w#1, %kb : tensor<4xf32>
  return %2, %3, %r : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}"#;
        let (m, changed) = check_pass(&Cse, src);
        assert!(changed);
        let text = print(&m);
        // %c2, %1 and the loop's %e merge into outer ops; the loop's i32 constant 1 does not leak out
        assert_eq!(count(&m, OpKind::Constant), 4, "{text}");
        assert_eq!(count(&m, OpKind::Add), 6, "{text}");
    }

    #[test]
    fn merges_ops_with_equal_regions_only() {
        let src = r#"
func.func @main(%a: tensor<4x3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  %2 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  %3 = stablehlo.reduce(%a init: %z) across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
    reducer(%x: tensor<f32>, %y: tensor<f32>) {
      %s = stablehlo.add %y, %x : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %0, %1, %2, %3 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}"#;
        let (m, changed) = check_pass(&Cse, src);
        assert!(changed);
        // %1 merges into %0; max and the swapped-operand add stay distinct
        assert_eq!(count(&m, OpKind::Reduce), 3, "{}", print(&m));
    }

    #[test]
    fn different_attributes_do_not_merge() {
        let src = r#"
func.func @main(%a: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x3xi1>, tensor<2x3xi1>) {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = stablehlo.compare LT, %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = stablehlo.compare LE, %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  return %0, %1, %2, %3 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x3xi1>, tensor<2x3xi1>
}"#;
        let (m, changed) = check_pass(&Cse, src);
        assert!(changed);
        assert_eq!(count(&m, OpKind::Transpose), 1);
        assert_eq!(count(&m, OpKind::Compare), 2);
    }
}
