//! Reductions with fused prologues: a post-pass over [`fuse_block`](crate::fusion::fuse_block)'s steps that
//! folds a `stablehlo.reduce` into the loop-fusion kernel (or the single elementwise op) computing its operand, so the operand is reduced
//! as it is computed instead of being written to memory and read back (layernorm's variance, softmax's
//! denominator, bias gradients). Only f32 sums, maxima and minima over one contiguous block of dimensions
//! are folded; the backend that calls this pass must evaluate [`ReduceEpilogue`]s (the CPU backend does).
//!
//! [`merge_kernels`] then merges such kernels that reduce over one view of one shape and do
//! not depend on each other into one kernel of several epilogues: a batch norm's backward takes four sums
//! over the same activations (of dy, dy * x, ...), each a pass reading them again. It also merges
//! elementwise kernels of one shape that follow each other.

use crate::fusion::{build_kernel_in, fusable_shape, region_uses, FusedKernel, ReduceEpilogue, Step};
use crate::reducer::{reducer_kind, ReduceKind};
use oxhlo_ir::{Block, ElementType, FloatType, Func, Op, OpKind, Type, Value};
use std::collections::HashSet;
use std::sync::Arc;

/// `steps` with every foldable reduction merged into the kernel that defines its operand. A kernel that
/// already reduces takes another reduction over the same view and of the same kind, up to
/// `max_per_kernel` reductions, when `accept` takes the result (the backend renders it); 1 keeps one
/// reduction a kernel.
pub fn fuse_reductions(func: &Func, block: &Block, mut steps: Vec<Step>, max_per_kernel: usize, accept: impl Fn(&FusedKernel) -> bool) -> Vec<Step> {
    let mut i = 0;
    let users = crate::fusion::Users::of(block);
    while i < steps.len() {
        if let Step::Op(r) = steps[i] {
            if let Some((ki, at_reduce, merged)) = fold_into_kernel(func, block, &steps, i, r, max_per_kernel, &accept, &users) {
                let merged = Step::Kernel(Arc::new(merged));
                if at_reduce {
                    steps[i] = merged;
                    steps.remove(ki);
                } else {
                    steps[ki] = merged;
                    steps.remove(i);
                }
                continue;
            }
        }
        i += 1;
    }
    steps
}

/// The (outer, n, inner) view of a reduction of `shape` over `dims`, when they form one contiguous block.
fn view(shape: &[i64], dims: &[i64]) -> Option<(usize, usize, usize)> {
    let mut d: Vec<i64> = dims.to_vec();
    d.sort_unstable();
    let (&a, &b) = (d.first()?, d.last()?);
    if a < 0 || b as usize >= shape.len() || (b - a + 1) as usize != d.len() || d.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    let prod = |s: &[i64]| s.iter().map(|&x| x as usize).product::<usize>();
    let (a, b) = (a as usize, b as usize);
    Some((prod(&shape[..a]), prod(&shape[a..=b]), prod(&shape[b + 1..])))
}

fn is_f32(func: &Func, v: Value) -> bool {
    matches!(func.try_ty(v), Some(Type::Tensor(t)) if t.elem == ElementType::Float(FloatType::F32) && t.is_static() && t.encoding.is_none())
}

/// Every value `op` reads, its regions' included.
pub(crate) fn reads(op: &Op) -> Vec<Value> {
    let mut uses = op.operands.clone();
    for r in &op.regions {
        region_uses(r, &mut uses);
    }
    uses
}

/// Every value a step reads (an op's operands and its regions' uses, a kernel's inputs).
pub fn step_reads(block: &Block, step: &Step) -> Vec<Value> {
    match step {
        Step::Op(j) => reads(&block.ops[*j]),
        Step::Kernel(k) => k.inputs.clone(),
    }
}

/// When the reduce at step `si` (op `r`) folds into the kernel step `ki` that defines its operand: `ki`,
/// whether the merged kernel takes the reduce's place (else the kernel's), and the merged kernel.
#[allow(clippy::too_many_arguments)]
fn fold_into_kernel(
    func: &Func,
    block: &Block,
    steps: &[Step],
    si: usize,
    r: usize,
    max_per_kernel: usize,
    accept: &impl Fn(&FusedKernel) -> bool,
    users: &crate::fusion::Users,
) -> Option<(usize, bool, FusedKernel)> {
    let op = &block.ops[r];
    if op.kind != OpKind::Reduce || op.operands.len() != 2 || op.results.len() != 1 || op.regions.len() != 1 {
        return None;
    }
    let kind = reducer_kind(func, &op.regions[0])?;
    if !matches!(kind, ReduceKind::Add | ReduceKind::Max | ReduceKind::Min) {
        return None;
    }
    let (operand, init, result) = (op.operands[0], op.operands[1], op.results[0]);
    if !is_f32(func, operand) || !is_f32(func, init) || !is_f32(func, result) {
        return None;
    }
    let dims = op.attr("dimensions")?.as_i64_list()?;
    // The step defining the operand, before this step: a kernel, or one elementwise op (a kernel of one).
    let ki = (0..si).rev().find(|&k| match &steps[k] {
        Step::Kernel(k) => k.outputs.contains(&operand),
        Step::Op(j) => block.ops[*j].results.contains(&operand),
    })?;
    let k = match &steps[ki] {
        Step::Kernel(k) => Arc::clone(k),
        Step::Op(j) => {
            let def = &block.ops[*j];
            if def.kind == OpKind::BroadcastInDim || fusable_shape(func, def).is_none() {
                return None;
            }
            Arc::new(build_kernel_in(func, block, &[*j], users))
        }
    };
    let shape = match func.try_ty(operand)? {
        Type::Tensor(t) => t.shape.clone(),
        _ => return None,
    };
    if shape != k.shape || k.rows.is_some() {
        return None;
    }
    let (outer, n, inner) = view(&shape, &dims)?;
    let joins = k.reduce.iter().all(|e| (e.outer, e.n, e.inner) == (outer, n, inner) && e.kind == kind);
    if !k.reduce.is_empty() && (k.reduce.len() >= max_per_kernel || !joins) {
        return None;
    }
    // Does the operand live on after the reduce (read by any other op of the block)?
    let kernel_ops: HashSet<usize> = k.ops.iter().copied().collect();
    let operand_used_elsewhere =
        block.ops.iter().enumerate().any(|(j, o)| j != r && !kernel_ops.contains(&j) && reads(o).contains(&operand));
    // Where the merged step can sit: at the reduce's place when no step in between reads the kernel's
    // outputs, otherwise at the kernel's place when the init is ready by then.
    let between_reads_kernel = steps[ki + 1..si].iter().any(|s| step_reads(block, s).iter().any(|v| k.outputs.contains(v)));
    let at_reduce = if !between_reads_kernel {
        true
    } else if defined_before(block, steps, ki, init) {
        false
    } else {
        return None;
    };
    let mut merged = (*k).clone();
    merged.ops.push(r);
    merged.ops.sort_unstable();
    if !merged.inputs.contains(&init) {
        merged.inputs.push(init);
    }
    if !operand_used_elsewhere {
        merged.outputs.retain(|&v| v != operand);
    }
    merged.outputs.push(result);
    merged.reduce.push(ReduceEpilogue { op: r, operand, init, result, kind, outer, n, inner });
    if merged.reduce.len() > 1 && !accept(&merged) {
        return None;
    }
    Some((ki, at_reduce, merged))
}

/// Whether `v` is a block argument, defined outside the block, or defined by a step before step `ki`.
fn defined_before(block: &Block, steps: &[Step], ki: usize, v: Value) -> bool {
    let def = block.ops.iter().position(|o| o.results.contains(&v));
    match def {
        None => true,
        Some(j) => steps[..ki].iter().any(|s| match s {
            Step::Op(i) => *i == j,
            Step::Kernel(k) => k.ops.contains(&j),
        }),
    }
}

/// `steps` (after [`fuse_reductions`] and any pass that edits kernels) with kernels whose reductions
/// share one shape and (outer, n, inner) view merged, at most `max_reductions` a kernel: a kernel
/// joins the last such kernel before it when it reads none of that kernel's reduction results (its
/// full-shape values it takes from the merged body instead of memory) and no step between them reads
/// anything of it (the merged kernel runs in the later one's place), and `accept` takes the merged kernel (the
/// backend renders it: its reduction shape, its parameter count). Ops the kernels share (values both
/// recompute) are computed once. Plain elementwise kernels of one shape that follow each other merge
/// too (what the later one read of the earlier one it computes inside): a batch norm's per-channel
/// arithmetic between its sums was three launches of 64 elements each.
pub fn merge_kernels(block: &Block, steps: Vec<Step>, max_reductions: usize, accept: impl Fn(&FusedKernel) -> bool) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::with_capacity(steps.len());
    // The step of `out` that the next reduction kernel may join.
    let mut open: Option<usize> = None;
    // Kernels made here (their outputs are checked for readers at the end).
    let mut made: Vec<Arc<FusedKernel>> = Vec::new();
    let plain = |k: &FusedKernel| k.reduce.is_empty() && k.rows.is_none();
    for step in steps {
        // An elementwise kernel right after one of the same shape.
        if let (Some(Step::Kernel(ka)), Step::Kernel(kb)) = (out.last(), &step) {
            if plain(ka) && plain(kb) && ka.shape == kb.shape {
                if let Some(merged) = Some(merge_two(block, ka, kb)).filter(&accept) {
                    out.pop();
                    let merged = Arc::new(merged);
                    made.push(Arc::clone(&merged));
                    out.push(Step::Kernel(merged));
                    continue;
                }
            }
        }
        if let Some(a) = open {
            let Step::Kernel(ka) = &out[a] else { unreachable!("open steps are kernels") };
            let merged = match &step {
                Step::Kernel(kb) if siblings(ka, kb, max_reductions) => Some(merge_two(block, ka, kb)).filter(&accept),
                _ => None,
            };
            if let Some(merged) = merged {
                out.remove(a);
                let merged = Arc::new(merged);
                made.push(Arc::clone(&merged));
                out.push(Step::Kernel(merged));
                open = Some(out.len() - 1);
                continue;
            }
            if step_reads(block, &step).iter().any(|v| ka.outputs.contains(v)) {
                open = None;
            }
        }
        if matches!(&step, Step::Kernel(k) if !k.reduce.is_empty() && k.rows.is_none()) {
            open = Some(out.len());
        }
        out.push(step);
    }
    // A value one merged kernel passed to the other is stored only when a later step reads it.
    for i in 0..out.len() {
        let Step::Kernel(k) = &out[i] else { continue };
        if !made.iter().any(|m| Arc::ptr_eq(m, k)) {
            continue;
        }
        let read_later = |v: &Value| out[i + 1..].iter().any(|s| step_reads(block, s).contains(v));
        let kept: Vec<Value> = k.outputs.iter().copied().filter(|v| k.reduce.iter().any(|e| e.result == *v) || read_later(v)).collect();
        if kept.len() < k.outputs.len() && !kept.is_empty() {
            let mut k2 = (**k).clone();
            k2.outputs = kept;
            out[i] = Step::Kernel(Arc::new(k2));
        }
    }
    out
}

/// Whether `b` (a later step) can merge with `a`: both plain kernels with reductions over one view of one
/// shape, `b` reading none of `a`'s reduction results, together within `max` reductions.
fn siblings(a: &FusedKernel, b: &FusedKernel, max: usize) -> bool {
    let view = |k: &FusedKernel| k.reduce.first().map(|e| (e.outer, e.n, e.inner));
    a.rows.is_none()
        && b.rows.is_none()
        && !b.reduce.is_empty()
        && a.shape == b.shape
        && view(a) == view(b)
        && a.reduce.iter().chain(&b.reduce).all(|e| Some((e.outer, e.n, e.inner)) == view(a))
        && a.reduce.len() + b.reduce.len() <= max
        && !b.inputs.iter().any(|v| a.reduce.iter().any(|e| e.result == *v))
}

/// One kernel computing what `a` and `b` compute: their ops and inputs united, full-shape outputs first
/// (`a`'s, then `b`'s), then the reductions' results in order; what `b` read of `a`'s values is
/// computed inside.
fn merge_two(block: &Block, a: &FusedKernel, b: &FusedKernel) -> FusedKernel {
    let mut ops = a.ops.clone();
    ops.extend(b.ops.iter().copied().filter(|j| !a.ops.contains(j)));
    ops.sort_unstable();
    let mut inputs = a.inputs.clone();
    let a_defines = |v: &Value| a.ops.iter().any(|&j| block.ops[j].results.contains(v));
    inputs.extend(b.inputs.iter().copied().filter(|v| !a.inputs.contains(v) && !a_defines(v)));
    let reduce: Vec<ReduceEpilogue> = a.reduce.iter().chain(&b.reduce).cloned().collect();
    let is_result = |v: &Value| reduce.iter().any(|e| e.result == *v);
    let mut outputs: Vec<Value> = Vec::new();
    for &v in a.outputs.iter().chain(&b.outputs) {
        if !is_result(&v) && !outputs.contains(&v) {
            outputs.push(v);
        }
    }
    outputs.extend(reduce.iter().map(|e| e.result));
    FusedKernel { ops, inputs, outputs, shape: a.shape.clone(), reduce, rows: None }
}
