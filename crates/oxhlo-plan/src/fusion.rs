//! Fusion: which ops of one block run together as one kernel. `fuse_block` turns a block into steps, each
//! either one op run on its own or a [`FusedKernel`] that replaces several ops (their intermediate values
//! never exist in memory). Backends evaluate (CPU) or render (CUDA) the kernels.

use oxhlo_ir::{Block, Func, Value};
use std::sync::Arc;

/// One step of a block's execution.
#[derive(Clone, Debug)]
pub enum Step {
    /// Run `block.ops[i]` alone.
    Op(usize),
    /// Run a fused kernel in place of several ops.
    Kernel(Arc<FusedKernel>),
}

/// Several ops of a block evaluated as one kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct FusedKernel {
    /// Indices (in `block.ops`) of the ops this kernel replaces, ascending.
    pub ops: Vec<usize>,
    /// Values the kernel reads (defined outside it), in the order the backend passes them.
    pub inputs: Vec<Value>,
    /// Values the kernel defines that are used after it, in the order it returns them.
    pub outputs: Vec<Value>,
}

/// Fusion settings (from the optimization level).
#[derive(Clone, Debug, Default)]
pub struct FusionOptions {
    /// Form kernels at all (O2 and above).
    pub enabled: bool,
    /// More aggressive grouping (O3).
    pub aggressive: bool,
}

/// The steps of `block`: every op on its own unless fusion groups it with others. The kernels' ops keep
/// their relative order; a kernel's step sits where its last op was.
pub fn fuse_block(func: &Func, block: &Block, opts: &FusionOptions) -> Vec<Step> {
    let _ = (func, opts);
    (0..block.ops.len()).map(Step::Op).collect()
}
