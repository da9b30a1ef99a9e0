//! Constant folding: an op whose operands are all constants is evaluated once with the reference
//! interpreter ([`oxhlo_interp::Interpreter::eval_op`]) and replaced by constants — so folded values are
//! exactly what the program would have computed. Never folded: ops with effects or nondeterminism (see
//! [`crate::util::has_effects`]), ops without operands (iota stays an iota), results over
//! [`MAX_FOLD_ELEMENTS`] elements, broadcasts that would materialize more than [`MAX_BROADCAST_ELEMENTS`]
//! distinct elements (broadcasts of a splat become splat constants without evaluation), quantized and
//! dynamically shaped values. Results whose elements are all equal are stored as splats.

use crate::util::{compress, const_op, const_value, for_each_func, has_effects, plain_tensor, splat_bits, splat_dense};
use crate::Pass;
use oxhlo_interp::{Interpreter, RtValue, Tensor};
use oxhlo_ir::{DenseElements, Func, FunctionType, Module, Op, OpKind, Region, Value};
use std::collections::HashMap;

pub struct ConstantFold;

/// Largest folded result (elements per result).
pub const MAX_FOLD_ELEMENTS: usize = 65536;
/// Largest total operand size evaluated while folding (elements).
pub const MAX_FOLD_INPUT_ELEMENTS: usize = 1 << 20;
/// Ops whose cost grows with inputs x outputs (contractions, windows, solvers) are folded only while
/// input elements x output elements stay under this bound.
pub const MAX_FOLD_WORK: u64 = 1 << 26;
/// Broadcasts of non-splat values are folded only up to this many elements.
pub const MAX_BROADCAST_ELEMENTS: usize = 1024;

impl Pass for ConstantFold {
    fn name(&self) -> &'static str {
        "constant-fold"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(fold_func(f)))
    }
}

struct Folder<'m> {
    it: Interpreter<'m>,
    scratch: &'m Func,
    /// constant values seen so far (splats stay one slot; converted to tensors only to fold)
    consts: HashMap<Value, DenseElements>,
    changed: bool,
}

/// Folds the constant computations of one function.
pub fn fold_func(f: &mut Func) -> bool {
    let empty = Module::default();
    // The interpreter evaluates ops against a copy of the value arena (folding creates no values).
    let mut scratch = Func::new(f.name.clone(), FunctionType { inputs: Vec::new(), results: Vec::new() });
    scratch.values = f.values.clone();
    let mut folder = Folder { it: Interpreter::new(&empty), scratch: &scratch, consts: HashMap::new(), changed: false };
    let mut body = std::mem::take(&mut f.body);
    folder.region(&mut body);
    f.body = body;
    folder.changed
}

fn foldable_kind(op: &Op) -> bool {
    !has_effects(op.kind)
        && !op.operands.is_empty()
        && !op.results.is_empty()
        && !matches!(op.kind, OpKind::Constant | OpKind::ChloConstant | OpKind::GetDimensionSize)
}

impl Folder<'_> {
    fn region(&mut self, r: &mut Region) {
        for b in &mut r.blocks {
            let mut out = Vec::with_capacity(b.ops.len());
            for mut op in std::mem::take(&mut b.ops) {
                if let (Some(d), Some(&r)) = (const_value(&op), op.results.first()) {
                    if d.len() <= MAX_FOLD_ELEMENTS && plain_tensor(self.scratch, r).is_some() {
                        self.consts.insert(r, d.clone());
                    }
                    out.push(op);
                    continue;
                }
                if let Some(folded) = self.try_fold(&op) {
                    self.changed = true;
                    out.extend(folded);
                    continue;
                }
                for nested in &mut op.regions {
                    self.region(nested);
                }
                out.push(op);
            }
            b.ops = out;
        }
    }

    fn try_fold(&mut self, op: &Op) -> Option<Vec<Op>> {
        if !foldable_kind(op) {
            return None;
        }
        let mut input_elems = 0usize;
        for v in &op.operands {
            input_elems += self.consts.get(v)?.len();
        }
        if input_elems > MAX_FOLD_INPUT_ELEMENTS {
            return None;
        }
        let mut out_elems = 0usize;
        for &r in &op.results {
            let t = plain_tensor(self.scratch, r)?;
            let n = t.num_elements()?;
            if n > MAX_FOLD_ELEMENTS {
                return None;
            }
            out_elems += n;
        }
        let heavy = matches!(
            op.kind,
            OpKind::DotGeneral
                | OpKind::Dot
                | OpKind::Convolution
                | OpKind::ReduceWindow
                | OpKind::SelectAndScatter
                | OpKind::Einsum
                | OpKind::UnaryEinsum
                | OpKind::Fft
                | OpKind::Cholesky
                | OpKind::TriangularSolve
                | OpKind::DynamicConv
        );
        if heavy && (input_elems as u64).saturating_mul(out_elems as u64) > MAX_FOLD_WORK {
            return None;
        }
        if matches!(op.kind, OpKind::BroadcastInDim | OpKind::Broadcast) {
            // a broadcast of one repeated value is a splat: no evaluation, one slot
            let src = self.consts.get(&op.operands[0])?;
            let r = op.results[0];
            let decl = plain_tensor(self.scratch, r)?;
            if let (Some(bits), true) = (splat_bits(src), decl.elem == src.ty.elem) {
                let d = splat_dense(decl, bits)?;
                self.consts.insert(r, d.clone());
                return Some(vec![const_op(r, d, op.loc.clone())]);
            }
            if out_elems > MAX_BROADCAST_ELEMENTS {
                return None;
            }
        }
        let mut args = Vec::with_capacity(op.operands.len());
        for v in &op.operands {
            args.push(RtValue::Tensor(Tensor::from_dense(self.consts.get(v)?).ok()?));
        }
        // A region reading outer values cannot be evaluated alone; eval_op reports that as an error.
        // The oracle runs on malformed input too (optimize does not require a verified module): a panic
        // in it means "do not fold", never a crash of the optimizer.
        let it = &mut self.it;
        let scratch = self.scratch;
        let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| it.eval_op(scratch, op, args, Vec::new())))
            .ok()?
            .ok()?;
        if results.len() != op.results.len() {
            return None;
        }
        let mut ops = Vec::with_capacity(results.len());
        let mut dense = Vec::with_capacity(results.len());
        for (&v, r) in op.results.iter().zip(results) {
            let RtValue::Tensor(t) = r else { return None };
            let decl = plain_tensor(self.scratch, v)?;
            if t.ty.shape != decl.shape || t.ty.elem != decl.elem {
                return None;
            }
            let mut d = t.to_dense();
            d.ty = decl.clone();
            let d = compress(d);
            ops.push(const_op(v, d.clone(), op.loc.clone()));
            dense.push((v, d));
        }
        self.consts.extend(dense);
        Some(ops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count, print};

    #[test]
    fn folds_chains_and_keeps_non_constant_ops() {
        let src = r#"
func.func @main(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %c = stablehlo.constant dense<[1.5, -2.0, 3.25, 0.1]> : tensor<4xf32>
  %d = stablehlo.constant dense<2.0> : tensor<4xf32>
  %0 = stablehlo.multiply %c, %d : tensor<4xf32>
  %1 = stablehlo.exponential %0 : tensor<4xf32>
  %2 = stablehlo.add %1, %a : tensor<4xf32>
  %3 = stablehlo.convert %0 : (tensor<4xf32>) -> tensor<4xi32>
  return %2, %3 : tensor<4xf32>, tensor<4xi32>
}"#;
        let (m, changed) = check_pass(&ConstantFold, src);
        assert!(changed);
        assert_eq!(count(&m, OpKind::Multiply), 0);
        assert_eq!(count(&m, OpKind::Exponential), 0);
        assert_eq!(count(&m, OpKind::Convert), 0);
        assert_eq!(count(&m, OpKind::Add), 1, "{}", print(&m));
    }

    #[test]
    fn folds_reduce_and_keeps_rng_iota_and_big_broadcasts() {
        let src = r#"
func.func @main() -> (tensor<f32>, tensor<4xi32>, tensor<300x300xf32>, tensor<2xui32>) {
  %c = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%c init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
  %i = stablehlo.iota dim = 0 : tensor<4xi32>
  %v = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<2xf32>) -> tensor<150x2xf32>
  %b2 = stablehlo.reshape %b : (tensor<150x2xf32>) -> tensor<300xf32>
  %b3 = stablehlo.broadcast_in_dim %b2, dims = [0] : (tensor<300xf32>) -> tensor<300x300xf32>
  %s = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %st, %bits = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2xui32>)
  return %r, %i, %b3, %bits : tensor<f32>, tensor<4xi32>, tensor<300x300xf32>, tensor<2xui32>
}"#;
        let (m, _) = check_pass(&ConstantFold, src);
        assert_eq!(count(&m, OpKind::Reduce), 0);
        assert_eq!(count(&m, OpKind::Iota), 1);
        assert_eq!(count(&m, OpKind::RngBitGenerator), 1);
        // 90000 elements: over the cap, the last broadcast stays
        assert_eq!(count(&m, OpKind::BroadcastInDim), 1, "{}", print(&m));
    }

    #[test]
    fn regions_reading_outer_values_and_big_contractions_stay() {
        let src = r#"
func.func @main(%a: tensor<3xf32>) -> (tensor<f32>, tensor<200x200xf32>) {
  %c = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %k = stablehlo.constant dense<2.0> : tensor<f32>
  %r = stablehlo.reduce(%c init: %z) across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
    reducer(%x: tensor<f32>, %y: tensor<f32>) {
      %s = stablehlo.add %x, %y : tensor<f32>
      %t = stablehlo.multiply %s, %k : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }
  %m = stablehlo.constant dense<0.5> : tensor<200x200xf32>
  %d = stablehlo.dot_general %m, %m, contracting_dims = [1] x [0] : (tensor<200x200xf32>, tensor<200x200xf32>) -> tensor<200x200xf32>
  return %r, %d : tensor<f32>, tensor<200x200xf32>
}"#;
        let (m, _) = check_pass(&ConstantFold, src);
        assert_eq!(count(&m, OpKind::Reduce), 1);
        assert_eq!(count(&m, OpKind::DotGeneral), 1);
    }

    #[test]
    fn splat_broadcasts_fold_to_splats() {
        let src = r#"
func.func @main(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %z = stablehlo.constant dense<-0.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
  %0 = stablehlo.add %a, %b : tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}"#;
        let (m, changed) = check_pass(&ConstantFold, src);
        assert!(changed);
        let text = print(&m);
        assert!(text.contains("dense<-0.000000e+00> : tensor<64x64xf32>"), "{text}");
    }
}
