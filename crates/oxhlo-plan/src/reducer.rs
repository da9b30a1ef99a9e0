//! Recognizes reduction bodies the fast backends run natively: a region of two scalar arguments whose
//! only op combines them with add / multiply / maximum / minimum / and / or (either argument order) and
//! returns the result. Shared by the CPU and CUDA backends.

use oxhlo_ir::{Func, OpKind, Region, Type};

/// The combining operation of a recognized reduction body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceKind {
    Add,
    Mul,
    Max,
    Min,
    And,
    Or,
}

/// The binary op a single-operand reduction body applies, or None for any other body (several ops,
/// several operands, non-scalar arguments, an op that is not commutative and associative).
pub fn reducer_kind(func: &Func, region: &Region) -> Option<ReduceKind> {
    if region.blocks.len() != 1 {
        return None;
    }
    let block = region.entry()?;
    let [a, b] = block.args.as_slice() else { return None };
    let elem = |v| match func.try_ty(v) {
        Some(Type::Tensor(t)) if t.shape.is_empty() => Some(t.elem.clone()),
        _ => None,
    };
    let ea = elem(*a)?;
    if elem(*b)? != ea || ea.is_quantized() {
        return None;
    }
    let [op, ret] = block.ops.as_slice() else { return None };
    if !matches!(ret.kind, OpKind::Return | OpKind::FuncReturn) || ret.operands.len() != 1 {
        return None;
    }
    if op.results.len() != 1 || ret.operands[0] != op.results[0] || !op.regions.is_empty() {
        return None;
    }
    let args_ok = op.operands == [*a, *b] || op.operands == [*b, *a];
    if !args_ok || elem(op.results[0])? != ea {
        return None;
    }
    let int_like = ea.is_integer() || ea.is_bool();
    Some(match op.kind {
        OpKind::Add => ReduceKind::Add,
        OpKind::Multiply => ReduceKind::Mul,
        OpKind::Maximum => ReduceKind::Max,
        OpKind::Minimum => ReduceKind::Min,
        OpKind::And if int_like => ReduceKind::And,
        OpKind::Or if int_like => ReduceKind::Or,
        _ => return None,
    })
}
