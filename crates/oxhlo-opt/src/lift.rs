//! Test helper: [`lift_constants_to_args`] turns the entry function's top-level constants into extra
//! parameters, so a backend test at O1+ runs its kernels on them instead of having the constant folder
//! compute everything at compile time.

use oxhlo_interp::{RtValue, Tensor};
use oxhlo_ir::{Module, OpKind, Type};

/// Moves every top-level `stablehlo.constant` of the entry function into a new trailing parameter (the
/// constant's value id becomes the parameter) and returns the constants' values, in parameter order: call
/// the entry with the original arguments followed by these.
pub fn lift_constants_to_args(module: &mut Module) -> Vec<RtValue> {
    let Some(name) = module.entry().map(|f| f.name.clone()) else { return Vec::new() };
    let Some(f) = module.funcs.iter_mut().find(|f| f.name == name) else { return Vec::new() };
    let Some(block) = f.body.blocks.first_mut() else { return Vec::new() };
    let mut lifted = Vec::new();
    let mut kept = Vec::with_capacity(block.ops.len());
    for op in std::mem::take(&mut block.ops) {
        let value = match (op.kind, op.results.first(), op.attr("value").and_then(|a| a.as_dense())) {
            (OpKind::Constant, Some(&r), Some(d)) => match (f.values.get(r.0 as usize), Tensor::from_dense(d)) {
                (Some(Type::Tensor(t)), Ok(mut x)) if t.is_static() && t.shape == x.ty.shape => {
                    x.ty = t.clone();
                    x.ty.encoding = None;
                    Some((r, Type::Tensor(t.clone()), x))
                }
                _ => None,
            },
            _ => None,
        };
        match value {
            Some((r, ty, x)) => {
                block.args.push(r);
                f.ty.inputs.push(ty);
                f.arg_attrs.push(Vec::new());
                lifted.push(RtValue::Tensor(x));
            }
            None => kept.push(op),
        }
    }
    block.ops = kept;
    lifted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{count, inputs, parse, same};
    use oxhlo_interp::run_main;

    #[test]
    fn lifted_constants_become_parameters() {
        let src = r#"
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %c = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %0 = stablehlo.multiply %a, %c : tensor<2xf32>
  %1 = stablehlo.add %0, %c : tensor<2xf32>
  return %1 : tensor<2xf32>
}"#;
        let m = parse(src);
        let args = inputs(&m);
        let expected = run_main(&m, args.clone()).unwrap();
        let mut lifted = m.clone();
        let extra = lift_constants_to_args(&mut lifted);
        assert_eq!(extra.len(), 1);
        oxhlo_ir::verify_module(&lifted).unwrap();
        assert_eq!(count(&lifted, OpKind::Constant), 0);
        let mut all = args;
        all.extend(extra);
        // at O2 nothing folds any more: the multiply and add stay
        crate::optimize(&mut lifted, &crate::OptOptions::at(crate::OptLevel::O2)).unwrap();
        assert_eq!(count(&lifted, OpKind::Multiply), 1);
        assert!(same(&expected, &run_main(&lifted, all).unwrap()));
    }
}
