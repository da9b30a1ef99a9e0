//! O2 (exact): folds a `reverse` of a convolution's kernel along its spatial dims into the
//! convolution's `window_reversal`. Per the spec, `window_reversal` reverses each lhs window along the
//! flagged spatial dims before the dot product with the kernel; pairing tap `r` with window position
//! `(taps - 1 - r) x dilation` is the same sum as pairing position `r x dilation` with the reversed
//! kernel's tap `r`, so `convolution(x, reverse(w, spatial dims))` equals `convolution(x, w)` with those
//! dims' flags toggled, bit for bit (the same products, summed in the same order by any backend that
//! sums taps in one order). JAX emits the reverse for every input gradient (the flipped forward
//! kernel): on the GPU each was a launch over the whole kernel (19 a ResNet-18 step) that the
//! convolution's own filter packing now absorbs. The reverse is left for DCE.

use crate::util::{for_each_func, visit_ops_mut};
use crate::Pass;
use oxhlo_ir::attr::DenseArray;
use oxhlo_ir::{Attr, Func, OpKind, Value};
use std::collections::HashMap;

pub struct ConvReverseFold;

impl Pass for ConvReverseFold {
    fn name(&self) -> &'static str {
        "conv-reverse-fold"
    }
    fn run(&self, m: &mut oxhlo_ir::Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(fold_func(f)))
    }
}

/// Folds kernel reverses into the convolutions of one function.
pub fn fold_func(f: &mut Func) -> bool {
    let mut reverses: HashMap<Value, (Value, Vec<i64>)> = HashMap::new();
    visit_ops_mut(&mut f.body, &mut |op| match op.kind {
        OpKind::Reverse if op.operands.len() == 1 && op.results.len() == 1 => {
            if let Some(d) = op.i64s("dimensions") {
                reverses.insert(op.results[0], (op.operands[0], d));
            }
            false
        }
        OpKind::Convolution if op.operands.len() == 2 => {
            let Some((src, dims)) = reverses.get(&op.operands[1]) else { return false };
            let Some(Attr::ConvDims(cd)) = op.attr("dimension_numbers") else { return false };
            let spatial = cd.kernel_spatial_dimensions.clone();
            let mut flags = match op.attr("window_reversal").map(Attr::as_bool_list) {
                None => vec![false; spatial.len()],
                Some(Some(v)) if v.len() == spatial.len() => v,
                Some(_) => return false,
            };
            // Every reversed dim must be a kernel spatial dim, each named once.
            let mut seen = vec![false; spatial.len()];
            for d in dims {
                match spatial.iter().position(|s| s == d) {
                    Some(i) if !seen[i] => seen[i] = true,
                    _ => return false,
                }
            }
            for (flag, s) in flags.iter_mut().zip(&seen) {
                *flag ^= *s;
            }
            op.operands[1] = *src;
            op.set_attr("window_reversal", Attr::DenseArray(DenseArray::Bool(flags)));
            true
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count, print};

    #[test]
    fn folds_spatial_reverses_of_the_kernel() {
        // The input gradient of a 3x3 convolution as JAX writes it (flipped kernel, swapped features), a
        // rank-1 spatial case with rhs dilation, and a kernel already flagged as reversed.
        let src = r#"
func.func @main(%dy: tensor<1x4x4x3xf32>, %w: tensor<3x3x2x3xf32>, %x: tensor<1x9x2xf32>, %k: tensor<3x2x4xf32>) -> (tensor<1x4x4x2xf32>, tensor<1x5x4xf32>, tensor<1x5x4xf32>) {
  %r = stablehlo.reverse %w, dims = [0, 1] : tensor<3x3x2x3xf32>
  %0 = stablehlo.convolution(%dy, %r) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x3xf32>, tensor<3x3x2x3xf32>) -> tensor<1x4x4x2xf32>
  %rk = stablehlo.reverse %k, dims = [0] : tensor<3x2x4xf32>
  %1 = stablehlo.convolution(%x, %rk) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [2], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x9x2xf32>, tensor<3x2x4xf32>) -> tensor<1x5x4xf32>
  %2 = stablehlo.convolution(%x, %rk) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [2], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x9x2xf32>, tensor<3x2x4xf32>) -> tensor<1x5x4xf32>
  return %0, %1, %2 : tensor<1x4x4x2xf32>, tensor<1x5x4xf32>, tensor<1x5x4xf32>
}"#;
        let (mut m, changed) = check_pass(&ConvReverseFold, src);
        assert!(changed);
        let text = print(&m);
        assert!(text.contains("stablehlo.convolution(%arg0, %arg1)"), "{text}");
        assert!(text.contains("reverse = [true, true]"), "{text}");
        assert!(text.contains("reverse = [false]"), "{text}");
        crate::dce::Dce.run(&mut m).unwrap();
        assert_eq!(count(&m, OpKind::Reverse), 0, "{}", print(&m));
    }

    #[test]
    fn keeps_reverses_of_feature_dims() {
        let src = r#"
func.func @main(%x: tensor<1x5x2xf32>, %k: tensor<3x2x4xf32>) -> tensor<1x3x4xf32> {
  %rk = stablehlo.reverse %k, dims = [0, 2] : tensor<3x2x4xf32>
  %1 = stablehlo.convolution(%x, %rk) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x2xf32>, tensor<3x2x4xf32>) -> tensor<1x3x4xf32>
  return %1 : tensor<1x3x4xf32>
}"#;
        let (_, changed) = check_pass(&ConvReverseFold, src);
        assert!(!changed);
    }
}
