//! Divisions by a power-of-two constant as multiplications by its reciprocal: `x / c` with `c` a splat
//! `constant` (or a `broadcast_in_dim` of one) equal to `±2^k` becomes `x * (±2^-k)`. Both are the
//! correctly rounded value of the same real number (the reciprocal is exact), so the results are
//! bitwise the same for every `x`, NaN, infinities, signed zeros and subnormal results included; only
//! f16, bf16, f32 and f64, and only where `c` and its reciprocal are normal numbers of the type (a
//! device that flushes subnormal operands would otherwise read them as zero). A multiplication costs a
//! GPU one instruction where an IEEE division takes a sequence of about ten: JAX's attention scales
//! (`scores / sqrt(64)`) divide every score by 8, forward and backward. XLA's algebraic simplifier
//! makes the same rewrite.

use crate::util::{const_op, for_each_func, plain_tensor, replace_ops, splat_dense, splat_of};
use crate::Pass;
use oxhlo_ir::{ElementType, FloatType, Func, Module, Op, OpKind, Region, Type, Value};
use std::collections::HashMap;

pub struct Pow2Divide;

impl Pass for Pow2Divide {
    fn name(&self) -> &'static str {
        "divide-by-power-of-two"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(rewrite_func(f)))
    }
}

/// Rewrites one function; true when something changed.
pub fn rewrite_func(f: &mut Func) -> bool {
    let mut splats = HashMap::new();
    record_splats(f, &f.body, &mut splats);
    if splats.is_empty() {
        return false;
    }
    replace_ops(f, |f, op| rewrite(f, op, &splats))
}

/// The splat bits of every value defined by a splat constant or a `broadcast_in_dim` of one
/// ([`splat_of`]), in `r` and the regions inside it.
fn record_splats(f: &Func, r: &Region, out: &mut HashMap<Value, u64>) {
    for b in &r.blocks {
        for op in &b.ops {
            for nested in &op.regions {
                record_splats(f, nested, out);
            }
            if let (Some(bits), Some(&res)) = (splat_of(f, op, out), op.results.first()) {
                out.insert(res, bits);
            }
        }
    }
}

/// The smallest normal magnitude of the float types this pass rewrites.
fn min_normal(t: FloatType) -> Option<f64> {
    match t {
        FloatType::F16 => Some(2f64.powi(-14)),
        FloatType::BF16 | FloatType::F32 => Some(2f64.powi(-126)),
        FloatType::F64 => Some(f64::MIN_POSITIVE),
        _ => None,
    }
}

/// The bits of `1 / c` for the bits of `c`, a float of type `t`, when `c` is `±2^k` and both it and its
/// reciprocal are normal numbers of `t`.
pub fn reciprocal_bits(t: FloatType, bits: u64) -> Option<u64> {
    let tiny = min_normal(t)?;
    let fmt = t.format();
    let c = oxhlo_dtype::decode(fmt, bits);
    let normal = |x: f64| x.is_finite() && x.abs() >= tiny;
    let power_of_two = c != 0.0 && c.is_finite() && (c.abs().to_bits() & ((1u64 << 52) - 1)) == 0;
    if !(power_of_two && normal(c)) {
        return None;
    }
    let r = 1.0 / c;
    let rb = oxhlo_dtype::encode(fmt, r);
    (normal(r) && oxhlo_dtype::decode(fmt, rb) == r).then_some(rb)
}

/// `x * (1 / c)` in place of `op` when it is `x / c` with `c` a power-of-two splat ([`reciprocal_bits`]).
fn rewrite(f: &mut Func, op: &Op, splats: &HashMap<Value, u64>) -> Option<Vec<Op>> {
    if op.kind != OpKind::Divide || op.operands.len() != 2 || op.results.len() != 1 {
        return None;
    }
    let ct = plain_tensor(f, op.operands[1])?.clone();
    let ElementType::Float(t) = ct.elem else { return None };
    if plain_tensor(f, op.results[0])?.elem != ct.elem {
        return None;
    }
    let recip = reciprocal_bits(t, *splats.get(&op.operands[1])?)?;
    let c = f.new_value(Type::Tensor(ct.clone()));
    let constant = const_op(c, splat_dense(&ct, recip)?, op.loc.clone());
    let mut mul = Op::new(OpKind::Multiply, vec![op.operands[0], c], op.results.clone());
    mul.loc = op.loc.clone();
    Some(vec![constant, mul])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count, inputs, parse, same};

    #[test]
    fn divisions_by_powers_of_two_become_multiplications() {
        let src = "func.func @main(%x: tensor<4xf32>, %y: tensor<2x3xbf16>, %z: tensor<3xf64>, %h: tensor<5xf16>) -> (tensor<4xf32>, tensor<2x3xbf16>, tensor<3xf64>, tensor<5xf16>, tensor<4xf32>) {
  %c8 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
  %b8 = stablehlo.broadcast_in_dim %c8, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %a = stablehlo.divide %x, %b8 : tensor<4xf32>
  %q = stablehlo.constant dense<-2.500000e-01> : tensor<2x3xbf16>
  %b = stablehlo.divide %y, %q : tensor<2x3xbf16>
  %e = stablehlo.constant dense<1.024000e+03> : tensor<3xf64>
  %c = stablehlo.divide %z, %e : tensor<3xf64>
  %k = stablehlo.constant dense<5.000000e-01> : tensor<5xf16>
  %d = stablehlo.divide %h, %k : tensor<5xf16>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
  %g = stablehlo.divide %x, %one : tensor<4xf32>
  return %a, %b, %c, %d, %g : tensor<4xf32>, tensor<2x3xbf16>, tensor<3xf64>, tensor<5xf16>, tensor<4xf32>
}";
        let (m, changed) = check_pass(&Pow2Divide, src);
        assert!(changed);
        assert_eq!(count(&m, OpKind::Divide), 0);
        assert_eq!(count(&m, OpKind::Multiply), 5);
    }

    #[test]
    fn other_divisors_stay() {
        // Not powers of two, not splats, an argument, a subnormal f16 divisor (2^-15; its reciprocal
        // is a normal f16), a subnormal f32 divisor (its reciprocal overflows), zero, infinity, and
        // integers.
        let src = "func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>, %h: tensor<2xf16>, %i: tensor<3xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xi32>) {
  %c3 = stablehlo.constant dense<3.000000e+00> : tensor<4xf32>
  %a = stablehlo.divide %x, %c3 : tensor<4xf32>
  %v = stablehlo.constant dense<[2.000000e+00, 4.000000e+00, 2.000000e+00, 2.000000e+00]> : tensor<4xf32>
  %b = stablehlo.divide %x, %v : tensor<4xf32>
  %c = stablehlo.divide %x, %y : tensor<4xf32>
  %t = stablehlo.constant dense<3.0517578125E-5> : tensor<2xf16>
  %d = stablehlo.divide %h, %t : tensor<2xf16>
  %s = stablehlo.constant dense<0x00000001> : tensor<4xf32>
  %e = stablehlo.divide %x, %s : tensor<4xf32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
  %f = stablehlo.divide %x, %z : tensor<4xf32>
  %n = stablehlo.constant dense<0x7F800000> : tensor<4xf32>
  %g = stablehlo.divide %x, %n : tensor<4xf32>
  %four = stablehlo.constant dense<4> : tensor<3xi32>
  %j = stablehlo.divide %i, %four : tensor<3xi32>
  return %a, %b, %c, %d, %e, %f, %g, %j : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xi32>
}";
        let (m, changed) = check_pass(&Pow2Divide, src);
        assert!(!changed);
        assert_eq!(count(&m, OpKind::Divide), 8);
    }

    /// Every f32 bit pattern class through a division by 8 and its rewrite: NaNs, infinities, signed
    /// zeros, subnormal results and rounding at the bottom of the normal range, bit for bit.
    #[test]
    fn edge_values_divide_the_same() {
        let src = "func.func @main(%x: tensor<12xf32>) -> tensor<12xf32> {
  %c = stablehlo.constant dense<8.000000e+00> : tensor<12xf32>
  %r = stablehlo.divide %x, %c : tensor<12xf32>
  return %r : tensor<12xf32>
}";
        let before = parse(src);
        let mut after = before.clone();
        assert!(Pow2Divide.run(&mut after).unwrap());
        let mut args = inputs(&before);
        let edge = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1e-38, -1.17549435e-38, 3e-45, 1.4e-45 * 7.0, f32::MAX as f64, 1.5, -0.1];
        if let oxhlo_interp::RtValue::Tensor(t) = &mut args[0] {
            t.data = oxhlo_interp::Data::Float(edge.iter().map(|&v| v as f32 as f64).collect());
        }
        let want = oxhlo_interp::run_main(&before, args.clone()).unwrap();
        let got = oxhlo_interp::run_main(&after, args).unwrap();
        assert!(same(&want, &got), "{want:?} vs {got:?}");
    }

    #[test]
    fn reciprocal_bits_of_the_types() {
        let f32_bits = |v: f32| v.to_bits() as u64;
        assert_eq!(reciprocal_bits(FloatType::F32, f32_bits(8.0)), Some(f32_bits(0.125)));
        assert_eq!(reciprocal_bits(FloatType::F32, f32_bits(-0.5)), Some(f32_bits(-2.0)));
        assert_eq!(reciprocal_bits(FloatType::F32, f32_bits(2f32.powi(126))), Some(f32_bits(2f32.powi(-126))));
        assert_eq!(reciprocal_bits(FloatType::F32, f32_bits(2f32.powi(127))), None, "2^-127 is subnormal");
        assert_eq!(reciprocal_bits(FloatType::F32, f32_bits(6.0)), None);
        assert_eq!(reciprocal_bits(FloatType::F64, 1024f64.to_bits()), Some((1.0f64 / 1024.0).to_bits()));
        assert_eq!(reciprocal_bits(FloatType::F8E4M3FN, 0x48), None, "only f16, bf16, f32, f64");
    }
}
