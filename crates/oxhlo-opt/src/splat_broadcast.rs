//! Big splat constants become a broadcast of a scalar constant: `constant dense<c> : tensor<S>` is
//! `broadcast_in_dim(constant dense<c> : tensor<>, dims = [])` (the same elements, bit for bit). The
//! opposite of what `fold` does for the reference interpreter and the CPU backend (which keep a splat
//! as one element); for the GPU, whose fused kernels then read one scalar where they read a full-size
//! tensor, and whose compile then uploads one element where it built and uploaded the whole tensor:
//! `jax.random.normal((3, 3, 512, 512))` holds 23 such constants after folding (its threefry rounds'
//! rotation counts and erf_inv's coefficients), 217 MB built and copied at every compile (1.6 s on the
//! H200 host). Not part of [`crate::pipeline`]: a backend runs it after the optimizer
//! ([`rewrite_module`]), as `fold` would undo it.

use crate::util::{const_op, const_value, for_each_func, plain_tensor, replace_ops, set_i64s, splat_bits, splat_dense};
use oxhlo_ir::{Func, Module, Op, OpKind, TensorType, Type};

/// Splat constants of at least this many elements are rewritten. Smaller ones cost little to build and
/// read (L2-resident), and a broadcast that no kernel takes in runs as a launch of its own: the
/// training steps' splats (up to [3, 3, 64, 64]) stay as they are.
pub const MIN_ELEMENTS: usize = 65536;

/// Rewrites every splat constant of `m` with at least `min_elements` elements; true when something
/// changed.
pub fn rewrite_module(m: &mut Module, min_elements: usize) -> bool {
    for_each_func(m, |f| Ok(replace_ops(f, |f, op| rewrite(f, op, min_elements)))).unwrap_or(false)
}

/// The scalar constant and its broadcast replacing `op`, when it is a splat constant of a plain tensor
/// type with at least `min_elements` elements.
fn rewrite(f: &mut Func, op: &Op, min_elements: usize) -> Option<Vec<Op>> {
    let d = const_value(op)?;
    if op.results.len() != 1 || !d.splat {
        return None;
    }
    let rt = plain_tensor(f, op.results[0])?.clone();
    if rt.num_elements()? < min_elements.max(2) || d.ty.elem != rt.elem {
        return None;
    }
    let bits = splat_bits(d)?;
    let scalar_ty = TensorType::new(vec![], rt.elem.clone());
    let value = splat_dense(&scalar_ty, bits)?;
    let scalar = f.new_value(Type::Tensor(scalar_ty));
    let c = const_op(scalar, value, op.loc.clone());
    let mut bcast = Op::new(OpKind::BroadcastInDim, vec![scalar], vec![op.results[0]]);
    set_i64s(&mut bcast, "broadcast_dimensions", vec![]);
    bcast.loc = op.loc.clone();
    Some(vec![c, bcast])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count};
    use crate::Pass;

    struct Unfold;
    impl Pass for Unfold {
        fn name(&self) -> &'static str {
            "splat-as-broadcast"
        }
        fn run(&self, m: &mut Module) -> Result<bool, String> {
            Ok(rewrite_module(m, 4))
        }
    }

    #[test]
    fn big_splats_become_broadcasts_of_scalars_and_others_stay() {
        let src = "func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xui32>, tensor<2xi32>, tensor<3xf32>, tensor<4x8xbf16>) {
  %a = stablehlo.constant dense<1.500000e+00> : tensor<4x8xf32>
  %s = stablehlo.add %x, %a : tensor<4x8xf32>
  %b = stablehlo.constant dense<13> : tensor<4x8xui32>
  %c = stablehlo.constant dense<7> : tensor<2xi32>
  %d = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %e = stablehlo.constant dense<-2.500000e+00> : tensor<4x8xbf16>
  return %s, %b, %c, %d, %e : tensor<4x8xf32>, tensor<4x8xui32>, tensor<2xi32>, tensor<3xf32>, tensor<4x8xbf16>
}";
        let (m, changed) = check_pass(&Unfold, src);
        assert!(changed);
        // The three splats of 32 elements; not the 2-element one (below the threshold) nor the 3 distinct.
        assert_eq!(count(&m, OpKind::BroadcastInDim), 3);
        assert_eq!(count(&m, OpKind::Constant), 5);
        let (_, again) = check_pass(&Unfold, &crate::testkit::print(&m));
        assert!(!again, "scalars are not rewritten again");
    }
}
