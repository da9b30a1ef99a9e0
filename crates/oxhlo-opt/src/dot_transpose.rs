//! O3: folds a `transpose` feeding a `dot_general` operand into the dimension numbers. Batch and
//! contracting dimensions are renamed through the permutation; this is done only when the operand's free
//! dimensions keep their relative order, so the result's dimension order (batch, lhs free, rhs free, each
//! in ascending operand order) — and thus its type — is unchanged. The transpose is left for DCE.

use crate::util::{for_each_func, visit_ops_mut};
use crate::Pass;
use oxhlo_ir::attr::DotDims;
use oxhlo_ir::{Attr, Func, Module, OpKind, Value};
use std::collections::HashMap;

pub struct DotTransposeFold;

impl Pass for DotTransposeFold {
    fn name(&self) -> &'static str {
        "dot-transpose-fold"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(fold_func(f)))
    }
}

/// Folds the transposes into the dot_generals of one function.
pub fn fold_func(f: &mut Func) -> bool {
    let mut transposes: HashMap<Value, (Value, Vec<i64>)> = HashMap::new();
    visit_ops_mut(&mut f.body, &mut |op| match op.kind {
        OpKind::Transpose if op.operands.len() == 1 && op.results.len() == 1 => {
            if let Some(p) = op.i64s("permutation") {
                transposes.insert(op.results[0], (op.operands[0], p));
            }
            false
        }
        OpKind::DotGeneral if op.operands.len() == 2 => {
            let Some(Attr::DotDims(dims)) = op.attr("dot_dimension_numbers").cloned() else { return false };
            let mut dims = dims;
            let mut any = false;
            for side in 0..2 {
                let Some((src, perm)) = transposes.get(&op.operands[side]) else { continue };
                let (batch, contract) = if side == 0 {
                    (&dims.lhs_batching_dimensions, &dims.lhs_contracting_dimensions)
                } else {
                    (&dims.rhs_batching_dimensions, &dims.rhs_contracting_dimensions)
                };
                if let Some((nb, nc)) = remap(perm, batch, contract) {
                    op.operands[side] = *src;
                    if side == 0 {
                        dims.lhs_batching_dimensions = nb;
                        dims.lhs_contracting_dimensions = nc;
                    } else {
                        dims.rhs_batching_dimensions = nb;
                        dims.rhs_contracting_dimensions = nc;
                    }
                    any = true;
                }
            }
            if any {
                op.set_attr("dot_dimension_numbers", Attr::DotDims(dims as DotDims));
            }
            any
        }
        _ => false,
    })
}

/// Batch and contracting dims of the transpose's input, if its free dims stay in ascending order.
fn remap(perm: &[i64], batch: &[i64], contract: &[i64]) -> Option<(Vec<i64>, Vec<i64>)> {
    let at = |d: i64| usize::try_from(d).ok().and_then(|d| perm.get(d).copied());
    let nb = batch.iter().map(|&d| at(d)).collect::<Option<Vec<_>>>()?;
    let nc = contract.iter().map(|&d| at(d)).collect::<Option<Vec<_>>>()?;
    let free: Vec<i64> =
        (0..perm.len() as i64).filter(|d| !batch.contains(d) && !contract.contains(d)).map(|d| perm[d as usize]).collect();
    free.windows(2).all(|w| w[0] < w[1]).then_some((nb, nc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, print};

    #[test]
    fn absorbs_transposes_that_keep_the_output_order() {
        let src = r#"
func.func @main(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>, %c: tensor<2x3x4xf32>, %d: tensor<2x4x5xf32>) -> (tensor<3x5xf32>, tensor<2x3x5xf32>, tensor<5x3xf32>) {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %1 = stablehlo.dot_general %0, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %2 = stablehlo.transpose %c, dims = [0, 2, 1] : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %3 = stablehlo.transpose %d, dims = [0, 2, 1] : (tensor<2x4x5xf32>) -> tensor<2x5x4xf32>
  %4 = stablehlo.dot_general %2, %3, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<2x4x3xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  %5 = stablehlo.transpose %b, dims = [1, 0] : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %6 = stablehlo.dot_general %5, %a, contracting_dims = [1] x [0] : (tensor<5x4xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %1, %4, %6 : tensor<3x5xf32>, tensor<2x3x5xf32>, tensor<5x3xf32>
}"#;
        let (m, changed) = check_pass(&DotTransposeFold, src);
        assert!(changed);
        let text = print(&m);
        assert!(text.contains("stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [0]"), "{text}");
        assert!(text.contains("stablehlo.dot_general %arg2, %arg3, batching_dims = [0] x [0], contracting_dims = [2] x [1]"), "{text}");
        assert!(text.contains("stablehlo.dot_general %arg1, %arg0, contracting_dims = [0] x [0]"), "{text}");
    }

    #[test]
    fn keeps_transposes_that_would_reorder_the_output() {
        let src = r#"
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x2x5xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = stablehlo.dot_general %0, %b, contracting_dims = [2] x [0] : (tensor<3x2x4xf32>, tensor<4x5xf32>) -> tensor<3x2x5xf32>
  return %1 : tensor<3x2x5xf32>
}"#;
        let (_, changed) = check_pass(&DotTransposeFold, src);
        assert!(!changed);
    }
}
