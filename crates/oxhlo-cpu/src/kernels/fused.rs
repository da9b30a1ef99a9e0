//! Native fused kernels (not written yet: every op of this family falls back to the interpreter).

use super::{Attempt, KernelCtx};
use crate::tensor::NTensor;

/// Runs the op natively when this family handles it.
pub fn try_run(_ctx: &KernelCtx, _args: &[&NTensor]) -> Attempt {
    None
}

/// Evaluates a fused kernel on its inputs (in `kernel.inputs` order), returning its outputs in
/// `kernel.outputs` order.
pub fn run_kernel(
    kernel: &oxhlo_plan::fusion::FusedKernel,
    func: &oxhlo_ir::Func,
    block: &oxhlo_ir::Block,
    inputs: &[&NTensor],
    threads: usize,
) -> Result<Vec<NTensor>, String> {
    let _ = (func, block, inputs, threads);
    Err(format!("fused kernels of {} ops are not implemented", kernel.ops.len()))
}
