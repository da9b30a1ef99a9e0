//! Canonicalization of shape and conversion ops: reshape∘reshape → one reshape; transpose∘transpose → one
//! transpose (identity permutations vanish); broadcast_in_dim∘broadcast_in_dim → one broadcast_in_dim;
//! identity reshape / transpose / broadcast_in_dim / slice / convert vanish; convert∘convert back to the
//! original type vanishes when the first conversion is exact (a widening) for every value; reshape,
//! transpose, slice or reverse of a broadcast scalar becomes a broadcast of the scalar; pads of nothing and
//! one-operand concatenates vanish.

use crate::util::{for_each_func, resolve, set_i64s};
use crate::Pass;
use oxhlo_ir::{ElementType, FloatType, Func, Module, Op, OpKind, Region, Signedness, Type, Value};
use std::collections::HashMap;

pub struct Canonicalize;

impl Pass for Canonicalize {
    fn name(&self) -> &'static str {
        "canonicalize"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(canon_func(f)))
    }
}

#[derive(Clone)]
struct Def {
    kind: OpKind,
    operand: Value,
    dims: Vec<i64>,
}

struct Canon<'f> {
    func: &'f Func,
    subst: HashMap<Value, Value>,
    defs: HashMap<Value, Def>,
    changed: bool,
}

/// Canonicalizes one function.
pub fn canon_func(f: &mut Func) -> bool {
    let mut body = std::mem::take(&mut f.body);
    let mut c = Canon { func: f, subst: HashMap::new(), defs: HashMap::new(), changed: false };
    c.region(&mut body);
    let changed = c.changed;
    f.body = body;
    changed
}

fn dims_attr(op: &Op) -> Option<(&'static str, Vec<i64>)> {
    let name = match op.kind {
        OpKind::Transpose => "permutation",
        OpKind::BroadcastInDim => "broadcast_dimensions",
        OpKind::Reshape | OpKind::Convert => return Some(("", Vec::new())),
        _ => return None,
    };
    Some((name, op.i64s(name)?))
}

fn is_identity(d: &[i64]) -> bool {
    d.iter().enumerate().all(|(i, &x)| x == i as i64)
}

impl Canon<'_> {
    fn region(&mut self, r: &mut Region) {
        for b in &mut r.blocks {
            let mut out = Vec::with_capacity(b.ops.len());
            for mut op in std::mem::take(&mut b.ops) {
                for v in &mut op.operands {
                    *v = resolve(&self.subst, *v);
                }
                for nested in &mut op.regions {
                    self.region(nested);
                }
                if let Some(x) = self.rewrite(&mut op) {
                    self.subst.insert(op.results[0], x);
                    self.changed = true;
                    continue;
                }
                if op.results.len() == 1 && op.operands.len() == 1 {
                    if let Some((_, dims)) = dims_attr(&op) {
                        self.defs.insert(op.results[0], Def { kind: op.kind, operand: op.operands[0], dims });
                    }
                }
                out.push(op);
            }
            b.ops = out;
        }
    }

    fn same_type(&self, a: Value, b: Value) -> bool {
        match (self.func.try_ty(a), self.func.try_ty(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    }

    fn shape(&self, v: Value) -> Option<&[i64]> {
        match self.func.try_ty(v)? {
            Type::Tensor(t) if t.is_static() => Some(&t.shape),
            _ => None,
        }
    }

    /// Rewrites `op` in place (merging it with its producer); returns a value to forward its result to
    /// when it became an identity.
    fn rewrite(&mut self, op: &mut Op) -> Option<Value> {
        if op.results.len() != 1 || op.operands.is_empty() {
            return None;
        }
        if op.kind == OpKind::Pad && op.operands.len() == 2 {
            // interior padding is optional (absent means none)
            let zero = |n: &str| op.i64s(n).map_or(n == "interior_padding", |v| v.iter().all(|&x| x == 0));
            let nothing = zero("edge_padding_low") && zero("edge_padding_high") && zero("interior_padding");
            return (nothing && self.same_type(op.operands[0], op.results[0])).then_some(op.operands[0]);
        }
        if op.operands.len() != 1 {
            return None;
        }
        if op.kind == OpKind::Concatenate {
            return self.same_type(op.operands[0], op.results[0]).then_some(op.operands[0]);
        }
        let (x, r) = (op.operands[0], op.results[0]);
        let inner = self.defs.get(&x).cloned();
        // moving data of a broadcast scalar is a broadcast of that scalar
        if let Some(d) = inner.as_ref().filter(|d| d.kind == OpKind::BroadcastInDim) {
            let scalar = self.shape(d.operand).is_some_and(|s| s.is_empty());
            let movement = matches!(op.kind, OpKind::Reshape | OpKind::Transpose | OpKind::Slice | OpKind::Reverse);
            if scalar && movement && self.shape(r).is_some() {
                op.kind = OpKind::BroadcastInDim;
                op.operands[0] = d.operand;
                op.attrs.clear();
                set_i64s(op, "broadcast_dimensions", Vec::new());
                self.changed = true;
                return None;
            }
        }
        match op.kind {
            OpKind::Reshape => {
                if let Some(d) = inner.filter(|d| d.kind == OpKind::Reshape && self.shape(d.operand).is_some()) {
                    op.operands[0] = d.operand;
                    self.changed = true;
                }
                self.same_type(op.operands[0], r).then_some(op.operands[0])
            }
            OpKind::Transpose => {
                let p2 = op.i64s("permutation")?;
                if let Some(d) = inner.filter(|d| d.kind == OpKind::Transpose && d.dims.len() == p2.len()) {
                    let composed: Option<Vec<i64>> =
                        p2.iter().map(|&i| usize::try_from(i).ok().and_then(|i| d.dims.get(i).copied())).collect();
                    if let Some(c) = composed {
                        op.operands[0] = d.operand;
                        set_i64s(op, "permutation", c);
                        self.changed = true;
                    }
                }
                let p = op.i64s("permutation")?;
                (is_identity(&p) && self.same_type(op.operands[0], r)).then_some(op.operands[0])
            }
            OpKind::BroadcastInDim => {
                let d2 = op.i64s("broadcast_dimensions")?;
                if let Some(d) = inner.filter(|d| d.kind == OpKind::BroadcastInDim) {
                    let composed: Option<Vec<i64>> =
                        d.dims.iter().map(|&i| usize::try_from(i).ok().and_then(|i| d2.get(i).copied())).collect();
                    if let (Some(c), Some(_)) = (composed, self.shape(d.operand)) {
                        op.operands[0] = d.operand;
                        set_i64s(op, "broadcast_dimensions", c);
                        self.changed = true;
                    }
                }
                let dims = op.i64s("broadcast_dimensions")?;
                (is_identity(&dims) && self.same_type(op.operands[0], r)).then_some(op.operands[0])
            }
            OpKind::Slice => {
                let shape = self.shape(x)?;
                let start = op.i64s("start_indices")?;
                let limit = op.i64s("limit_indices")?;
                let strides = op.i64s("strides")?;
                let full = start.iter().all(|&s| s == 0) && strides.iter().all(|&s| s == 1) && limit == shape;
                (full && self.same_type(x, r)).then_some(x)
            }
            OpKind::Convert => {
                if self.same_type(x, r) {
                    return Some(x);
                }
                let d = inner.filter(|d| d.kind == OpKind::Convert)?;
                let (a, b) = (self.func.try_ty(d.operand)?.elem()?, self.func.try_ty(x)?.elem()?);
                (self.same_type(d.operand, r) && exact_conversion(a, b)).then_some(d.operand)
            }
            _ => None,
        }
    }
}

fn mantissa_digits(f: FloatType) -> Option<u32> {
    match f {
        FloatType::F16 => Some(11),
        FloatType::BF16 => Some(8),
        FloatType::F32 => Some(24),
        FloatType::F64 => Some(53),
        _ => None,
    }
}

/// Whether converting from `a` to `b` keeps every value of `a` exactly (so converting back restores it).
pub fn exact_conversion(a: &ElementType, b: &ElementType) -> bool {
    use ElementType as E;
    match (a, b) {
        (E::Bool, E::Int { .. }) => true,
        (E::Bool, E::Float(f)) => mantissa_digits(*f).is_some(),
        (E::Int { bits: x, signedness: sa }, E::Int { bits: y, signedness: sb }) => {
            let ua = *sa == Signedness::Unsigned;
            let ub = *sb == Signedness::Unsigned;
            match (ua, ub) {
                (false, false) | (true, true) => y >= x,
                (true, false) => y > x,
                (false, true) => false,
            }
        }
        (E::Int { bits, signedness }, E::Float(f)) => {
            let value_bits = if *signedness == Signedness::Unsigned { *bits } else { bits.saturating_sub(1) };
            mantissa_digits(*f).is_some_and(|m| value_bits <= m)
        }
        (E::Float(x), E::Float(y)) => matches!(
            (x, y),
            (FloatType::F16 | FloatType::BF16, FloatType::F32 | FloatType::F64) | (FloatType::F32, FloatType::F64)
        ),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count, print};

    #[test]
    fn merges_reshapes_transposes_and_broadcasts() {
        let src = r#"
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<3xf32>) -> (tensor<4x6xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<5x2x3xf32>) {
  %0 = stablehlo.reshape %a : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = stablehlo.reshape %0 : (tensor<6x4xf32>) -> tensor<24xf32>
  %2 = stablehlo.reshape %1 : (tensor<24xf32>) -> tensor<4x6xf32>
  %3 = stablehlo.transpose %a, dims = [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %4 = stablehlo.transpose %3, dims = [2, 1, 0] : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %5 = stablehlo.transpose %4, dims = [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  %6 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %7 = stablehlo.broadcast_in_dim %6, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<5x2x3xf32>
  %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<5x2x3xf32>) -> tensor<5x2x3xf32>
  return %2, %4, %5, %8 : tensor<4x6xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<5x2x3xf32>
}"#;
        let (m, changed) = check_pass(&Canonicalize, src);
        assert!(changed);
        let text = print(&m);
        assert!(text.contains("stablehlo.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<4x6xf32>"), "{text}");
        assert!(text.contains("stablehlo.transpose %arg0, dims = [2, 0, 1]"), "{text}");
        assert!(text.contains("stablehlo.broadcast_in_dim %arg1, dims = [2]"), "{text}");
        // %5 is the identity of %a
        assert!(text.contains("return %2, %4, %arg0, %7") || text.contains(", %arg0, "), "{text}");
        let _ = count(&m, OpKind::Reshape);
    }

    #[test]
    fn identity_slices_and_exact_convert_round_trips() {
        let src = r#"
func.func @main(%a: tensor<2x3xf32>, %i: tensor<3xi8>, %j: tensor<3xi32>) -> (tensor<2x3xf32>, tensor<3xi8>, tensor<3xi32>, tensor<2x3xf32>, tensor<1x3xf32>) {
  %0 = stablehlo.slice %a [0:2, 0:3] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.convert %i : (tensor<3xi8>) -> tensor<3xf32>
  %2 = stablehlo.convert %1 : (tensor<3xf32>) -> tensor<3xi8>
  %3 = stablehlo.convert %j : (tensor<3xi32>) -> tensor<3xf32>
  %4 = stablehlo.convert %3 : (tensor<3xf32>) -> tensor<3xi32>
  %5 = stablehlo.convert %a : (tensor<2x3xf32>) -> tensor<2x3xf64>
  %6 = stablehlo.convert %5 : (tensor<2x3xf64>) -> tensor<2x3xf32>
  %7 = stablehlo.slice %a [1:2, 0:3] : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return %0, %2, %4, %6, %7 : tensor<2x3xf32>, tensor<3xi8>, tensor<3xi32>, tensor<2x3xf32>, tensor<1x3xf32>
}"#;
        let (m, changed) = check_pass(&Canonicalize, src);
        assert!(changed);
        let text = print(&m);
        // i32 -> f32 is not exact: that round trip stays
        assert!(text.contains("return %arg0, %arg1, %2, %arg0, %4"), "{text}");
    }

    #[test]
    fn movement_of_broadcast_scalars_becomes_a_broadcast() {
        let src = r#"
func.func @main(%s: tensor<f32>) -> (tensor<6x2xf32>, tensor<3x4xf32>, tensor<2x2xf32>, tensor<4x3xf32>) {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
  %0 = stablehlo.reshape %b : (tensor<4x3xf32>) -> tensor<6x2xf32>
  %1 = stablehlo.transpose %b, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %2 = stablehlo.slice %b [1:3, 0:2] : (tensor<4x3xf32>) -> tensor<2x2xf32>
  %3 = stablehlo.reverse %b, dims = [0] : tensor<4x3xf32>
  return %0, %1, %2, %3 : tensor<6x2xf32>, tensor<3x4xf32>, tensor<2x2xf32>, tensor<4x3xf32>
}"#;
        let (m, changed) = check_pass(&Canonicalize, src);
        assert!(changed);
        let text = print(&m);
        assert_eq!(count(&m, OpKind::BroadcastInDim), 5, "{text}");
        for k in [OpKind::Reshape, OpKind::Transpose, OpKind::Slice, OpKind::Reverse] {
            assert_eq!(count(&m, k), 0, "{text}");
        }
    }

    #[test]
    fn empty_pads_and_single_concatenates_vanish() {
        let src = r#"
func.func @main(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x3xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.pad %a, %z, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = stablehlo.concatenate %0, dim = 0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = stablehlo.pad %1, %z, low = [1, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<3x3xf32>
}"#;
        let (m, changed) = check_pass(&Canonicalize, src);
        assert!(changed);
        assert_eq!(count(&m, OpKind::Pad), 1);
        assert_eq!(count(&m, OpKind::Concatenate), 0);
    }

    #[test]
    fn exactness_table() {
        use ElementType as E;
        assert!(exact_conversion(&E::I32, &E::F64));
        assert!(!exact_conversion(&E::I32, &E::F32));
        assert!(exact_conversion(&E::uint(8), &E::int(16)));
        assert!(!exact_conversion(&E::uint(8), &E::int(8)));
        assert!(!exact_conversion(&E::I32, &E::uint(64)));
        assert!(exact_conversion(&E::Float(FloatType::BF16), &E::F32));
        assert!(!exact_conversion(&E::Float(FloatType::F16), &E::Float(FloatType::BF16)));
        assert!(!exact_conversion(&E::F64, &E::F32));
    }
}
