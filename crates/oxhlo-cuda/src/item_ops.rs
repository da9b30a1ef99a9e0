//! The ops that run as one kernel of their own, a thread a work item, into fresh buffers of their
//! result types: windowed ops ([`crate::windows`]), dynamic slices and updates ([`crate::dynamic`]) and
//! reduce_precision ([`crate::reduce_precision`]). Which module renders each op, whether it runs on the
//! device, and running it, for the executor and the kernel listing alike.

use crate::device::{DTensor, Gpu, Memo};
use oxhlo_ir::{Func, Op, OpKind};

/// The kernel of `op` and its work items, when `op` is one of these ops and renders.
pub fn render(func: &Func, op: &Op) -> Option<(String, usize)> {
    match op.kind {
        OpKind::ReduceWindow | OpKind::SelectAndScatter => crate::windows::render(func, op),
        OpKind::DynamicSlice | OpKind::DynamicUpdateSlice => crate::dynamic::render(func, op),
        OpKind::ReducePrecision => crate::reduce_precision::render(func, op),
        _ => None,
    }
}

/// Whether `op` runs on the device this way (its kernel rendered once and kept in `memo`).
pub fn runs_on_device(memo: &Memo, func: &Func, op: &Op) -> bool {
    memo.get_with_items(op, MEMO_TAG, || render(func, op)).is_some()
}

/// The kernel's role in the program's [`Memo`] (one op has one kind, so one tag serves them all).
const MEMO_TAG: u32 = 63;

/// Runs `op` on device operands `ins`: its results, or None when it does not run on the device.
pub fn try_run(gpu: &Gpu, memo: &Memo, func: &Func, op: &Op, ins: &[DTensor]) -> Option<Result<Vec<DTensor>, String>> {
    memo.run_per_item(gpu, func, op, MEMO_TAG, || render(func, op), ins)
}
