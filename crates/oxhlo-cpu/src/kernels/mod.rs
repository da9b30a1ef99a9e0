//! Native kernels of the CPU backend, one file per op family. Each family exposes
//! `try_run(ctx, args) -> Option<Result<Vec<NTensor>, String>>`: `None` means "not handled here" (another
//! element type, an unusual attribute), and the executor then tries the next family and finally falls
//! back to the reference interpreter for that op, so every op runs and only speed depends on coverage.

use crate::tensor::NTensor;
use oxhlo_ir::{Func, Op, TensorType};

pub mod conv;
pub mod dot;
pub mod elementwise;
mod elementwise_direct;
pub mod elementwise_ops;
pub mod fastmath;
pub mod fft;
pub mod elems;
pub mod fused;
pub mod fused_reduce;
pub mod gather_scatter;
pub mod gemm_util;
pub mod movement;
pub mod region;
pub mod reduce;
pub mod rows;
pub mod sort;
pub mod view_copy;
pub mod window;

/// What a kernel sees of the op it runs.
pub struct KernelCtx<'a> {
    pub op: &'a Op,
    pub func: &'a Func,
    /// Result types (static shapes), one per op result.
    pub result_types: Vec<&'a TensorType>,
    /// Worker threads the kernel may use (1 = run on the calling thread).
    pub threads: usize,
}

/// The result of a family's attempt.
pub type Attempt = Option<Result<Vec<NTensor>, String>>;

/// Runs `ctx.op` natively when some family handles it with these operands.
pub fn run_native(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    dot::try_run(ctx, args)
        .or_else(|| conv::try_run(ctx, args))
        .or_else(|| reduce::try_run(ctx, args))
        .or_else(|| movement::try_run(ctx, args))
        .or_else(|| gather_scatter::try_run(ctx, args))
        .or_else(|| window::try_run(ctx, args))
        .or_else(|| sort::try_run(ctx, args))
        .or_else(|| fft::try_run(ctx, args))
        .or_else(|| fused::try_run(ctx, args))
}
