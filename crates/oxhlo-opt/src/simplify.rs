//! Algebraic simplification with exact identities only (bitwise, for every input including -0.0, NaN and
//! integer wrap-around): integer `x+0`, `x-0`, `x*1`, `x*0`, `x/1`, `x-x`; float `x+(-0.0)`, `x-(+0.0)`,
//! `x*1.0`, `x/1.0` (never `x+(+0.0)`: it maps -0.0 to +0.0; never `x*0.0`); bitwise and/or/xor with 0 or
//! all-ones; `max(x,x)`, `min(x,x)`, `max(x,-inf)`, `min(x,+inf)` (integers: the type's minimum and maximum), `and(x,x)`, `or(x,x)`, integer `xor(x,x)`; select with a constant
//! predicate or equal branches; convert to the same type; double negate / not; Shardy's
//! `sdy.sharding_constraint` and `sdy.reshard` (identities on one device). Constants are recognized
//! as splat `constant`s and `broadcast_in_dim`s of them.

use crate::util::{
    all_ones_bits, const_op, extreme_bits, for_each_func, mask_bits, neg_zero_bits, one_bits, plain_tensor, resolve, splat_dense,
    splat_of,
};
use crate::Pass;
use oxhlo_ir::{ElementType, Func, Module, Op, OpKind, Region, Value};
use std::collections::HashMap;

pub struct AlgebraicSimplify;

impl Pass for AlgebraicSimplify {
    fn name(&self) -> &'static str {
        "algebraic-simplify"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(simplify_func(f)))
    }
}

enum Action {
    /// The result is this existing value.
    Forward(Value),
    /// The result is a splat constant with these bits.
    Splat(u64),
}

struct Simplifier<'f> {
    func: &'f Func,
    subst: HashMap<Value, Value>,
    /// splat values (bits masked to the element width)
    splats: HashMap<Value, u64>,
    /// unary producers: value -> (kind, operand)
    unary: HashMap<Value, (OpKind, Value)>,
    changed: bool,
}

/// Simplifies one function.
pub fn simplify_func(f: &mut Func) -> bool {
    let mut body = std::mem::take(&mut f.body);
    let mut s = Simplifier { func: f, subst: HashMap::new(), splats: HashMap::new(), unary: HashMap::new(), changed: false };
    s.region(&mut body);
    let changed = s.changed;
    f.body = body;
    changed
}

impl Simplifier<'_> {
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
                match self.action(&op) {
                    Some(Action::Forward(x)) => {
                        self.subst.insert(op.results[0], x);
                        self.changed = true;
                        continue;
                    }
                    Some(Action::Splat(bits)) => {
                        if let Some(d) = plain_tensor(self.func, op.results[0]).and_then(|t| splat_dense(t, bits)) {
                            self.splats.insert(op.results[0], bits);
                            out.push(const_op(op.results[0], d, op.loc.clone()));
                            self.changed = true;
                            continue;
                        }
                    }
                    None => {}
                }
                self.record(&op);
                out.push(op);
            }
            b.ops = out;
        }
    }

    fn record(&mut self, op: &Op) {
        let Some(&r) = op.results.first() else { return };
        if let Some(b) = splat_of(self.func, op, &self.splats) {
            self.splats.insert(r, b);
        } else if matches!(op.kind, OpKind::Negate | OpKind::Not) && op.operands.len() == 1 {
            self.unary.insert(r, (op.kind, op.operands[0]));
        }
    }

    fn elem(&self, v: Value) -> Option<&ElementType> {
        plain_tensor(self.func, v).map(|t| &t.elem)
    }

    /// `x` may replace the result of `op` only when the types are identical.
    fn forward(&self, op: &Op, x: Value) -> Option<Action> {
        (self.func.try_ty(x)? == self.func.try_ty(op.results[0])?).then_some(Action::Forward(x))
    }

    fn is(&self, v: Value, bits: Option<u64>) -> bool {
        matches!((self.splats.get(&v), bits), (Some(a), Some(b)) if *a == b)
    }

    fn action(&self, op: &Op) -> Option<Action> {
        if op.results.len() != 1 || !op.regions.is_empty() {
            return None;
        }
        let r = op.results[0];
        // Shardy's annotations are identities on one device (JAX puts one on an argument it committed
        // to a device: every eager `jax.random` draw from a split key carried one).
        if op.kind == OpKind::Unregistered && matches!(op.name(), "sdy.sharding_constraint" | "sdy.reshard") && op.operands.len() == 1 {
            return self.forward(op, op.operands[0]);
        }
        let e = self.elem(r)?.clone();
        let int = e.is_integer();
        let boolean = e.is_bool();
        let float = e.is_float();
        let zero = Some(0u64);
        let one = one_bits(&e).map(|b| mask_bits(&e, b));
        let ones = all_ones_bits(&e);
        let ops = &op.operands;
        let arity = match op.kind {
            OpKind::Convert | OpKind::Negate | OpKind::Not => 1,
            OpKind::Select => 3,
            _ => 2,
        };
        if ops.len() != arity {
            return None;
        }
        // commutative binary ops: try the constant on either side
        let either = |pred: &dyn Fn(Value) -> bool| -> Option<Value> {
            if ops.len() != 2 {
                return None;
            }
            if pred(ops[1]) {
                Some(ops[0])
            } else if pred(ops[0]) {
                Some(ops[1])
            } else {
                None
            }
        };
        let same_operands = ops.len() == 2 && ops[0] == ops[1];
        match op.kind {
            OpKind::Add => {
                let neutral = if int || boolean { zero } else if float { neg_zero_bits(&e) } else { None };
                let x = either(&|v| self.is(v, neutral))?;
                self.forward(op, x)
            }
            OpKind::Subtract => {
                if (int || float) && self.is(ops[1], zero) {
                    return self.forward(op, ops[0]);
                }
                if int && same_operands {
                    return Some(Action::Splat(0));
                }
                None
            }
            OpKind::Multiply => {
                if int || boolean || float {
                    if let Some(x) = either(&|v| self.is(v, one)) {
                        return self.forward(op, x);
                    }
                }
                if (int || boolean) && either(&|v| self.is(v, zero)).is_some() {
                    return Some(Action::Splat(0));
                }
                None
            }
            OpKind::Divide if (int || float) && self.is(ops[1], one) => self.forward(op, ops[0]),
            OpKind::And | OpKind::Or | OpKind::Xor if int || boolean => {
                let (neutral, absorbing) = match op.kind {
                    OpKind::And => (ones, zero),
                    OpKind::Or => (zero, ones),
                    _ => (zero, None),
                };
                if let Some(x) = either(&|v| self.is(v, neutral)) {
                    return self.forward(op, x);
                }
                if let (Some(a), Some(_)) = (absorbing, either(&|v| self.is(v, absorbing))) {
                    return Some(Action::Splat(a));
                }
                if same_operands {
                    return if op.kind == OpKind::Xor { Some(Action::Splat(0)) } else { self.forward(op, ops[0]) };
                }
                None
            }
            OpKind::Maximum | OpKind::Minimum if same_operands => self.forward(op, ops[0]),
            // max(x, -inf) and min(x, +inf) (integers: the type's minimum and maximum) are x, NaN and
            // signed zeros included.
            OpKind::Maximum | OpKind::Minimum => {
                let identity = extreme_bits(&e, op.kind == OpKind::Minimum);
                let x = either(&|v| identity.is_some() && self.is(v, identity))?;
                self.forward(op, x)
            }
            OpKind::Select if ops.len() == 3 => {
                if ops[1] == ops[2] {
                    return self.forward(op, ops[1]);
                }
                match self.splats.get(&ops[0]) {
                    Some(1) => self.forward(op, ops[1]),
                    Some(0) => self.forward(op, ops[2]),
                    _ => None,
                }
            }
            OpKind::Convert => self.forward(op, ops[0]),
            OpKind::Negate | OpKind::Not => match self.unary.get(&ops[0]) {
                Some(&(k, x)) if k == op.kind => self.forward(op, x),
                _ => None,
            },
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count, inputs, parse, print, same};

    #[test]
    fn sharding_annotations_are_identities() {
        let src = r#"
func.func @main(%k: tensor<2xui32>, %x: tensor<4xf32>) -> (tensor<2xui32>, tensor<4xf32>) {
  %0 = "sdy.sharding_constraint"(%k) : (tensor<2xui32>) -> tensor<2xui32>
  %1 = "sdy.reshard"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = stablehlo.add %1, %1 : tensor<4xf32>
  return %0, %2 : tensor<2xui32>, tensor<4xf32>
}"#;
        let (m, changed) = check_pass(&AlgebraicSimplify, src);
        assert!(changed);
        let text = print(&m);
        assert!(!text.contains("sdy."), "{text}");
        assert!(text.contains("stablehlo.add %arg1, %arg1") && text.contains("return %arg0,"), "{text}");
    }

    #[test]
    fn integer_identities() {
        let src = r#"
func.func @main(%a: tensor<4xi32>, %u: tensor<4xui8>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xui8>, tensor<4xi32>) {
  %z = stablehlo.constant dense<0> : tensor<4xi32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %ones = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<i32>) -> tensor<4xi32>
  %m1 = stablehlo.constant dense<255> : tensor<4xui8>
  %0 = stablehlo.add %z, %a : tensor<4xi32>
  %1 = stablehlo.multiply %0, %ones : tensor<4xi32>
  %2 = stablehlo.multiply %1, %z : tensor<4xi32>
  %3 = stablehlo.subtract %1, %1 : tensor<4xi32>
  %4 = stablehlo.and %u, %m1 : tensor<4xui8>
  %5 = stablehlo.divide %1, %ones : tensor<4xi32>
  %6 = stablehlo.negate %5 : tensor<4xi32>
  %7 = stablehlo.negate %6 : tensor<4xi32>
  return %1, %2, %3, %7, %4, %5 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xui8>, tensor<4xi32>
}"#;
        let (m, changed) = check_pass(&AlgebraicSimplify, src);
        assert!(changed);
        let text = print(&m);
        for k in [OpKind::Add, OpKind::Multiply, OpKind::Subtract, OpKind::And, OpKind::Divide] {
            assert_eq!(count(&m, k), 0, "{k:?} left:\n{text}");
        }
        assert!(text.contains("return %arg0, %4, %5, %arg0, %arg1, %arg0"), "{text}");
    }

    #[test]
    fn float_identities_are_exact_about_signed_zeros() {
        let src = r#"
func.func @main(%a: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %pz = stablehlo.constant dense<0.0> : tensor<3xf32>
  %nz = stablehlo.constant dense<-0.0> : tensor<3xf32>
  %one = stablehlo.constant dense<1.0> : tensor<3xf32>
  %n = stablehlo.constant dense<[-0.0, 1.0, -2.0]> : tensor<3xf32>
  %x = stablehlo.multiply %a, %n : tensor<3xf32>
  %0 = stablehlo.add %x, %pz : tensor<3xf32>
  %1 = stablehlo.add %x, %nz : tensor<3xf32>
  %2 = stablehlo.subtract %x, %pz : tensor<3xf32>
  %3 = stablehlo.multiply %x, %pz : tensor<3xf32>
  %4 = stablehlo.multiply %one, %x : tensor<3xf32>
  return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}"#;
        let (m, changed) = check_pass(&AlgebraicSimplify, src);
        assert!(changed);
        // x + (+0.0) and x * 0.0 stay; the other three go
        assert_eq!(count(&m, OpKind::Add), 1);
        assert_eq!(count(&m, OpKind::Subtract), 0);
        assert_eq!(count(&m, OpKind::Multiply), 2);
    }

    #[test]
    fn select_convert_and_bool_rules() {
        let src = r#"
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>, %p: tensor<2xi1>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi1>, tensor<2xi1>) {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<2xi1>
  %0 = stablehlo.select %t, %a, %b : tensor<i1>, tensor<2xf32>
  %1 = stablehlo.select %f, %a, %b : tensor<2xi1>, tensor<2xf32>
  %2 = stablehlo.select %p, %a, %a : tensor<2xi1>, tensor<2xf32>
  %3 = stablehlo.convert %2 : tensor<2xf32>
  %4 = stablehlo.or %p, %f : tensor<2xi1>
  %5 = stablehlo.not %4 : tensor<2xi1>
  %6 = stablehlo.not %5 : tensor<2xi1>
  %7 = stablehlo.and %6, %f : tensor<2xi1>
  %8 = stablehlo.add %3, %1 : tensor<2xf32>
  return %0, %8, %3, %6, %7 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi1>, tensor<2xi1>
}"#;
        let (m, changed) = check_pass(&AlgebraicSimplify, src);
        assert!(changed);
        assert_eq!(count(&m, OpKind::Select), 0);
        assert_eq!(count(&m, OpKind::Convert), 0);
        assert_eq!(count(&m, OpKind::Or), 0);
        assert_eq!(count(&m, OpKind::And), 0);
        assert_eq!(count(&m, OpKind::Add), 1);
    }

    #[test]
    fn max_and_min_with_their_identity_go() {
        let src = r#"
func.func @main(%a: tensor<3xf32>, %i: tensor<3xi8>, %u: tensor<3xui16>, %h: tensor<3xbf16>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi8>, tensor<3xui16>, tensor<3xbf16>, tensor<3xi8>, tensor<3xi8>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %nb = stablehlo.broadcast_in_dim %ninf, dims = [] : (tensor<f32>) -> tensor<3xf32>
  %pinf = stablehlo.constant dense<0x7F800000> : tensor<3xf32>
  %big = stablehlo.constant dense<3.0e38> : tensor<3xf32>
  %0 = stablehlo.maximum %nb, %a : tensor<3xf32>
  %1 = stablehlo.minimum %a, %pinf : tensor<3xf32>
  %2 = stablehlo.minimum %a, %big : tensor<3xf32>
  %imin = stablehlo.constant dense<-128> : tensor<3xi8>
  %3 = stablehlo.maximum %i, %imin : tensor<3xi8>
  %umax = stablehlo.constant dense<65535> : tensor<3xui16>
  %4 = stablehlo.minimum %u, %umax : tensor<3xui16>
  %hinf = stablehlo.constant dense<0xFF80> : tensor<3xbf16>
  %5 = stablehlo.maximum %h, %hinf : tensor<3xbf16>
  %6 = stablehlo.minimum %i, %imin : tensor<3xi8>
  %izero = stablehlo.constant dense<0> : tensor<3xi8>
  %7 = stablehlo.maximum %i, %izero : tensor<3xi8>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi8>, tensor<3xui16>, tensor<3xbf16>, tensor<3xi8>, tensor<3xi8>
}"#;
        let (m, changed) = check_pass(&AlgebraicSimplify, src);
        assert!(changed);
        // min(a, 3e38), min(i, -128) and max(i, 0) (signless is signed: a relu) stay; the other five go.
        assert_eq!(count(&m, OpKind::Maximum), 1, "{}", print(&m));
        assert_eq!(count(&m, OpKind::Minimum), 2, "{}", print(&m));
        assert!(print(&m).contains("return %arg0, %arg0, %"), "{}", print(&m));
    }

    /// max(x, -inf) and min(x, +inf) through the interpreter give x bit for bit: NaN, infinities,
    /// signed zeros, subnormals.
    #[test]
    fn max_and_min_identities_keep_edge_values() {
        let src = "func.func @main(%x: tensor<9xf32>) -> (tensor<9xf32>, tensor<9xf32>) {
  %n = stablehlo.constant dense<0xFF800000> : tensor<9xf32>
  %p = stablehlo.constant dense<0x7F800000> : tensor<9xf32>
  %a = stablehlo.maximum %x, %n : tensor<9xf32>
  %b = stablehlo.minimum %p, %x : tensor<9xf32>
  return %a, %b : tensor<9xf32>, tensor<9xf32>
}";
        let before = parse(src);
        let mut after = before.clone();
        assert!(AlgebraicSimplify.run(&mut after).unwrap());
        assert_eq!(count(&after, OpKind::Maximum) + count(&after, OpKind::Minimum), 0);
        let mut args = inputs(&before);
        let edge = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1e-45, -1e-45, -3.5, 7.25];
        if let oxhlo_interp::RtValue::Tensor(t) = &mut args[0] {
            t.data = oxhlo_interp::Data::Float(edge.iter().map(|&v| v as f32 as f64).collect());
        }
        let want = oxhlo_interp::run_main(&before, args.clone()).unwrap();
        let got = oxhlo_interp::run_main(&after, args).unwrap();
        assert!(same(&want, &got), "{want:?} vs {got:?}");
    }
}
