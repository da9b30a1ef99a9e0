//! Native elementwise ops and loop-fusion kernels: a single elementwise op (`try_run`) or a fused kernel
//! (`run_kernel`) is compiled into an [`elementwise::Program`] and evaluated in chunks over threads.
//! Inputs defined by splat constants are read as one repeated element. A kernel with a reduction epilogue
//! folds its reduced value as it is computed ([`super::fused_reduce`]).

use super::elementwise::Program;
use super::{Attempt, KernelCtx};
use super::fused_reduce::RedView;
use crate::tensor::{Buf, NTensor};
use oxhlo_ir::{Block, Func, Op, OpKind, TensorType, Type, Value};
use oxhlo_plan::fusion::{ew_class, FusedKernel};

/// Runs the op natively when it is an elementwise op on native real element types.
pub fn try_run(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    ew_class(ctx.op.kind)?;
    let op = ctx.op;
    let shape = ctx.result_types.first()?.shape.clone();
    let mut inputs: Vec<Value> = Vec::new();
    let mut tensors: Vec<&NTensor> = Vec::new();
    for (&v, &t) in op.operands.iter().zip(args) {
        if !inputs.contains(&v) {
            inputs.push(v);
            tensors.push(t);
        }
    }
    let splat = vec![false; inputs.len()];
    let prog = Program::compile(ctx.func, &[op], &shape, &inputs, &tensors, &splat, &op.results)?;
    Some(prog.run(&tensors, ctx.threads))
}

/// True when `v` is the result of a splat `constant` op of `block`.
pub(crate) fn is_splat_constant(block: &Block, v: Value) -> bool {
    block.ops.iter().any(|op| {
        matches!(op.kind, OpKind::Constant | OpKind::ChloConstant)
            && op.results.first() == Some(&v)
            && op.attr("value").and_then(|a| a.as_dense()).is_some_and(|d| d.splat)
    })
}

/// Evaluates a fused kernel on its inputs (in `kernel.inputs` order), returning its outputs in
/// `kernel.outputs` order.
pub fn run_kernel(
    kernel: &FusedKernel,
    func: &Func,
    block: &Block,
    inputs: &[&NTensor],
    threads: usize,
) -> Result<Vec<NTensor>, String> {
    if kernel.rows.is_some() {
        return super::rows::run_rows(kernel, func, block, inputs, threads);
    }
    let red_ops: Vec<usize> = kernel.reduce.iter().map(|r| r.op).collect();
    let ops: Vec<&Op> = kernel.ops.iter().filter(|i| !red_ops.contains(i)).filter_map(|&i| block.ops.get(i)).collect();
    if ops.len() + red_ops.len() != kernel.ops.len() {
        return Err("fused kernel names ops outside its block".into());
    }
    let splat: Vec<bool> = kernel.inputs.iter().map(|&v| is_splat_constant(block, v)).collect();
    let unsupported = || format!("fused kernel of {} ops has an op or element type without a native form", ops.len());
    if kernel.reduce.is_empty() {
        let prog = Program::compile(func, &ops, &kernel.shape, &kernel.inputs, inputs, &splat, &kernel.outputs)
            .ok_or_else(unsupported)?;
        return prog.run(inputs, threads);
    }
    // Stored outputs with the first reduced value (folded, not stored); each further reduction (sibling
    // reductions merged by the plan) is one more pass computing only its operand.
    let stored_outs: Vec<Value> = kernel.outputs.iter().copied().filter(|&v| kernel.reduce.iter().all(|r| r.result != v)).collect();
    let mut stored: Vec<NTensor> = Vec::new();
    let mut results: Vec<Option<NTensor>> = Vec::new();
    for (j, red) in kernel.reduce.iter().enumerate() {
        let mut outs: Vec<Value> = if j == 0 { stored_outs.clone() } else { Vec::new() };
        outs.push(red.operand);
        let prog = Program::compile(func, &ops, &kernel.shape, &kernel.inputs, inputs, &splat, &outs).ok_or_else(unsupported)?;
        let init = kernel
            .inputs
            .iter()
            .position(|&v| v == red.init)
            .and_then(|k| inputs[k].f32s())
            .and_then(|v| v.first().copied())
            .ok_or("fused reduction: the init value is not one f32")?;
        let view = RedView { kind: red.kind, outer: red.outer, n: red.n, inner: red.inner };
        let (full, reduced) = prog.run_reduce(inputs, threads, view, init)?;
        if j == 0 {
            stored = full;
        }
        let rty = match func.try_ty(red.result) {
            Some(Type::Tensor(t)) => TensorType { encoding: None, ..t.clone() },
            _ => return Err("fused reduction: the result is not a tensor".into()),
        };
        results.push(Some(NTensor::new(rty, Buf::F32(reduced))));
    }
    let mut stored = stored.drain(..);
    kernel
        .outputs
        .iter()
        .map(|&v| match kernel.reduce.iter().position(|r| r.result == v) {
            Some(j) => results[j].take(),
            None => stored.next(),
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| "fused reduction: outputs do not match".to_string())
}
