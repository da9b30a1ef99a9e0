//! Iotas of rank 2 or more become a 1-D iota broadcast along their dimension: `iota dim = d :
//! tensor<S>` is `broadcast_in_dim(iota : tensor<S[d]>, dims = [d])` (the spec's iota: every element is
//! its index along `d`, so both give the same values bit for bit, floats included). The broadcast fuses
//! into the kernels that read it, where the iota itself was a full-size tensor written and read back:
//! `jax.random`'s threefry counters are two `[4096, 4096]` u64 iotas (256 MiB) for one
//! `jax.random.normal((4096, 4096))`.

use crate::util::{for_each_func, plain_tensor, replace_ops, set_i64s};
use crate::Pass;
use oxhlo_ir::{Attr, ElementType, Func, Module, Op, OpKind, TensorType, Type};

pub struct IotaBroadcast;

impl Pass for IotaBroadcast {
    fn name(&self) -> &'static str {
        "iota-as-broadcast"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(rewrite_func(f)))
    }
}

/// Rewrites one function; true when something changed.
pub fn rewrite_func(f: &mut Func) -> bool {
    replace_ops(f, rewrite)
}

/// The 1-D iota and its broadcast replacing `op`, when it is an iota with another dimension of extent
/// above 1.
fn rewrite(f: &mut Func, op: &Op) -> Option<Vec<Op>> {
    if op.kind != OpKind::Iota || !op.operands.is_empty() || op.results.len() != 1 {
        return None;
    }
    let rt = plain_tensor(f, op.results[0])?.clone();
    let d = usize::try_from(op.attr("iota_dimension")?.as_int()?).ok()?;
    let extent = *rt.shape.get(d)?;
    if !rt.is_static() || rt.elem.is_quantized() || rt.shape.iter().enumerate().all(|(i, &n)| i == d || n == 1) {
        return None;
    }
    let line = f.new_value(Type::Tensor(TensorType::new(vec![extent], rt.elem.clone())));
    let mut iota = Op::new(OpKind::Iota, vec![], vec![line]);
    iota.set_attr("iota_dimension", Attr::Int(0, ElementType::I64));
    iota.loc = op.loc.clone();
    let mut bcast = Op::new(OpKind::BroadcastInDim, vec![line], vec![op.results[0]]);
    set_i64s(&mut bcast, "broadcast_dimensions", vec![d as i64]);
    bcast.loc = op.loc.clone();
    Some(vec![iota, bcast])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, count};

    #[test]
    fn iotas_along_any_dimension_become_broadcasts() {
        let src = "func.func @main() -> (tensor<3x4xui64>, tensor<3x4xui64>, tensor<2x3x4xf32>, tensor<5x2xi32>) {
  %a = stablehlo.iota dim = 0 : tensor<3x4xui64>
  %b = stablehlo.iota dim = 1 : tensor<3x4xui64>
  %c = stablehlo.iota dim = 1 : tensor<2x3x4xf32>
  %d = stablehlo.iota dim = 0 : tensor<5x2xi32>
  return %a, %b, %c, %d : tensor<3x4xui64>, tensor<3x4xui64>, tensor<2x3x4xf32>, tensor<5x2xi32>
}";
        let (m, changed) = check_pass(&IotaBroadcast, src);
        assert!(changed);
        assert_eq!(count(&m, OpKind::BroadcastInDim), 4);
        assert_eq!(count(&m, OpKind::Iota), 4);
    }

    #[test]
    fn iotas_that_are_lines_already_stay() {
        let src = "func.func @main() -> (tensor<8xi32>, tensor<1x8xf32>, tensor<8x1x1xui32>) {
  %a = stablehlo.iota dim = 0 : tensor<8xi32>
  %b = stablehlo.iota dim = 1 : tensor<1x8xf32>
  %c = stablehlo.iota dim = 0 : tensor<8x1x1xui32>
  return %a, %b, %c : tensor<8xi32>, tensor<1x8xf32>, tensor<8x1x1xui32>
}";
        let (m, changed) = check_pass(&IotaBroadcast, src);
        assert!(!changed);
        assert_eq!(count(&m, OpKind::BroadcastInDim), 0);
    }
}
