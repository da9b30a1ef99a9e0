//! Native sort kernels (not written yet: every op of this family falls back to the interpreter).

use super::{Attempt, KernelCtx};
use crate::tensor::NTensor;

/// Runs the op natively when this family handles it.
pub fn try_run(_ctx: &KernelCtx, _args: &[&NTensor]) -> Attempt {
    None
}
