//! Every kernel a program can launch, enumerated from the module alone (no device): the fused and
//! single-op kernels of every block's plan, and those the executor renders as it runs (reduction
//! passes, movement, gather/scatter, sorts and top_k, reductions of several inputs, windowed ops,
//! dynamic slices and updates, convolution steps,
//! permutes of dot, transpose and reduce operands).
//! `CudaProgram::compile` compiles them all at once on every host core; the tests compile them with
//! NVRTC on machines without a GPU.

use crate::render::{kind_of, render_fused, render_permute_units, render_single};
use oxhlo_cpu::Kind;
use oxhlo_ir::{Block, Func, Module, Op, OpKind, Type};
use oxhlo_plan::dims::DotDims;
use oxhlo_plan::fusion::{fuse_block, FusionOptions, Step};
use crate::view_copy::PlannedCopy;
use std::collections::HashMap;
use std::sync::Arc;


/// The permutation that brings `dims` (sorted) last, the others first in order.
fn reduce_perm(rank: usize, dims: &[usize]) -> Vec<usize> {
    let mut red = dims.to_vec();
    red.sort_unstable();
    (0..rank).filter(|d| !dims.contains(d)).chain(red).collect()
}

/// The steps the executor runs for `block`: loop fusion, then (when fusing) reductions folded into
/// the kernels computing their operands, then (with `fusion.rows`) row groups merged into row kernels
/// (those that do not render are split back into their steps), then (with `fusion.recompute`) values
/// such a kernel would store for one consumer recomputed there, then (with `fusion.sibling_reductions`)
/// independent column reductions over one view merged into one kernel (rendered as one `Cols4` pass)
/// and elementwise kernels of one shape that follow each other merged.
pub fn plan_steps(func: &Func, block: &Block, fusion: &FusionOptions) -> Vec<Step> {
    let steps = fuse_block(func, block, fusion);
    if !fusion.enabled {
        return steps;
    }
    // A kernel of several reductions renders only as a `Cols4` pass (`render_fused_pass` says None
    // otherwise); a merged elementwise kernel must render too.
    let fits = |k: &oxhlo_plan::fusion::FusedKernel| {
        let renders = if k.reduce.is_empty() { crate::render::render_fused(func, block, k).is_some() } else { crate::reduce::render_fused_pass(func, block, k).is_some() };
        (fusion.max_params == 0 || k.inputs.len() + k.outputs.len() <= fusion.max_params) && renders
    };
    let mut steps = oxhlo_plan::reduce_fusion::fuse_reductions(func, block, steps, fusion.sibling_reductions.max(1), fits);
    if fusion.rows {
        steps = oxhlo_plan::row_fusion::fuse_rows(func, block, steps)
            .into_iter()
            .flat_map(|s| match &s {
                Step::Kernel(k) if k.rows.is_some() && crate::rows::render_rows(func, block, k).is_none() => {
                    k.rows.as_ref().map(|r| r.steps.clone()).unwrap_or_default()
                }
                _ => vec![s],
            })
            .collect();
    }
    if fusion.recompute {
        steps = oxhlo_plan::recompute::recompute_in_consumers(func, block, steps, fusion.recompute_costly);
    }
    if fusion.sibling_reductions > 1 {
        steps = oxhlo_plan::reduce_fusion::merge_kernels(block, steps, fusion.sibling_reductions, fits);
    }
    let steps = crate::variadic_reduce::absorb_iotas(func, block, steps);
    crate::finish_epilogue::reorder(func, block, steps)
}

/// Whether chains of view ops run as one copy ([`oxhlo_plan::view_copy`]; `OXHLO_CUDA_VIEW_COPIES=0`
/// runs every op alone).
pub fn view_copies_enabled() -> bool {
    std::env::var("OXHLO_CUDA_VIEW_COPIES").map_or(true, |v| v != "0")
}

/// The view copies among `steps` (when fusing and [`view_copies_enabled`]), keyed by their head op,
/// each with its kernel, and the steps without the ops they absorbed.
pub fn plan_view_copies(func: &Func, block: &Block, steps: Vec<Step>, fusion: &FusionOptions) -> (Vec<Step>, HashMap<usize, Arc<PlannedCopy>>) {
    if !fusion.enabled || !view_copies_enabled() {
        return (steps, HashMap::new());
    }
    let original = steps.clone();
    let (steps, copies) = oxhlo_plan::view_copy::plan(func, block, steps, true);
    let rendered: Option<HashMap<usize, Arc<PlannedCopy>>> =
        copies.into_iter().map(|copy| crate::view_copy::render(&copy).map(|(src, items)| (copy.head, Arc::new(PlannedCopy { copy, src, items })))).collect();
    // Every copy must render (its absorbed ops no longer run): else the block runs op by op.
    match rendered {
        Some(copies) => (steps, copies),
        None => (original, HashMap::new()),
    }
}

fn walk(func: &Func, block: &Block, fusion: &FusionOptions, out: &mut Vec<String>) {
    let (steps, copies) = plan_view_copies(func, block, plan_steps(func, block, fusion), fusion);
    step_kernels(func, block, &steps, &copies, out);
    for op in &block.ops {
        for r in &op.regions {
            for b in &r.blocks {
                walk(func, b, fusion, out);
            }
        }
    }
}

/// The kernels the executor can launch running `steps` (the plan of `block`, nested blocks aside; the
/// ops in `copies` run as view copies).
pub fn step_kernels<'s>(func: &Func, block: &Block, steps: impl IntoIterator<Item = &'s Step>, copies: &HashMap<usize, Arc<PlannedCopy>>, out: &mut Vec<String>) {
    let steps: Vec<&Step> = steps.into_iter().collect();
    let mut skip_next = false;
    for (at, &step) in steps.iter().enumerate() {
        if std::mem::take(&mut skip_next) {
            continue;
        }
        match step {
            Step::Kernel(k) if k.rows.is_some() => out.extend(crate::rows::render_rows(func, block, k).map(|r| r.src)),
            Step::Kernel(k) if !k.reduce.is_empty() => {
                out.extend(crate::reduce::render_fused_pass(func, block, k));
                // A finishing pass with the next step as its epilogue (as `exec` runs it).
                let paired = steps.get(at + 1).and_then(|next| crate::finish_epilogue::epilogue(func, block, step, next)).and_then(|e| crate::finish_epilogue::render(func, block, k, &e));
                if let Some(src) = paired {
                    out.push(src);
                    skip_next = true;
                    continue;
                }
                let e0 = &k.reduce[0];
                let passes = crate::reduce::multi_launches(e0.outer as i64, e0.n as i64, e0.inner as i64, k.reduce.len(), crate::reduce::is_plain(k));
                if crate::reduce::shared_finish(&passes, k.reduce.len()).is_some() {
                    // One finishing launch for all the sums (as `exec` runs them).
                    out.extend(crate::reduce::render_finish_multi(e0.kind, k.reduce.len()));
                    continue;
                }
                for e in &k.reduce {
                    for l in &passes[1..] {
                        out.extend(crate::reduce::render_launch(Kind::F32, e.kind, l));
                    }
                }
            }
            Step::Kernel(k) => out.extend(render_fused(func, block, k)),
            Step::Op(i) if copies.contains_key(i) => out.push(copies[i].src.clone()),
            Step::Op(i) => {
                out.extend(render_single(func, block, *i).map(|(s, _)| s));
                single_op_kernels(func, &block.ops[*i], out);
            }
        }
    }
}

/// The kernels the executor renders as it runs `op` alone (not fused): movement, gather/scatter,
/// convolution steps, permutes of dot, transpose and reduce operands, and the reduction's passes.
fn single_op_kernels(func: &Func, op: &Op, out: &mut Vec<String>) {
    if matches!(op.kind, OpKind::Sort | OpKind::ChloTopK) {
        out.extend(crate::sort::render_sort(func, op));
        return;
    }
    if crate::variadic_reduce::takes(func, op) {
        out.extend(crate::variadic_reduce::render(func, op).map(|(s, _)| s));
        out.extend(crate::variadic_reduce::render_finish(func, op));
        return;
    }
    if let Some(p) = crate::linalg::plan(func, op) {
        out.extend(p.kernels);
        return;
    }
    if let Some(p) = crate::fft::plan(func, op) {
        out.extend(p.launches.into_iter().map(|l| l.src));
        return;
    }
    if let Some((src, _)) = crate::item_ops::render(func, op) {
        out.push(src);
        out.extend(crate::dynamic::render_in_place(func, op).map(|(s, _)| s));
        return;
    }
    let Some(Type::Tensor(rt)) = op.results.first().and_then(|v| func.try_ty(*v)) else { return };
    let Some(ins) = op.operands.iter().map(|&v| kind_of(func, v)).collect::<Option<Vec<(Kind, Vec<i64>)>>>() else { return };
    let Some(kind) = Kind::of(&rt.elem) else { return };
    let shapes: Vec<&[i64]> = ins.iter().map(|(_, s)| s.as_slice()).collect();
    out.extend(crate::movement::render_op(op, &shapes, &rt.shape, kind));
    let typed: Vec<(&[i64], Kind)> = ins.iter().map(|(k, s)| (s.as_slice(), *k)).collect();
    out.extend(crate::gather_scatter::render_op(func, op, &typed, &rt.shape));
    out.extend(crate::gather_scatter::render_last_writes(func, op, &typed, &rt.shape));
    match (op.kind, ins.as_slice()) {
        (OpKind::Convolution, [(lk, ls), (_, rs)]) => {
            let on_cudnn = if crate::cudnn::available().is_ok() { crate::cudnn_plan::helper_kernels(op, ls, rs, &rt.shape, lk.size()) } else { None };
            if let Some(k) = on_cudnn {
                out.extend(k);
            } else if let Some(plan) = crate::conv::ConvPlan::new(op, ls, rs, &rt.shape) {
                out.extend(plan.render_im2col(ls, lk.size()));
                let (bshape, bstrides, base, same) = plan.kernel_layout(rs);
                if !same {
                    out.extend(crate::movement::render_strided(&bshape, &bstrides, base, lk.size()));
                }
                let (ostrides, same) = plan.output_layout(&rt.shape);
                if !same {
                    out.extend(crate::movement::render_strided(&rt.shape, &ostrides, 0, kind.size()));
                }
            }
        }
        (OpKind::Dot | OpKind::DotGeneral, [(lk, ls), (rk, rs)]) => {
            if let Ok(d) = DotDims::from_op(op, ls, rs) {
                if let Some(lperm) = crate::dot::operand_perm(&d.lhs_batch, &d.lhs_free, &d.lhs_contracting) {
                    out.extend(render_permute_units(ls, &lperm, lk.size()));
                }
                if let Some(rperm) = crate::dot::operand_perm(&d.rhs_batch, &d.rhs_contracting, &d.rhs_free) {
                    out.extend(render_permute_units(rs, &rperm, rk.size()));
                }
            }
        }
        (OpKind::Transpose, [(k, s)]) => {
            if let Some(perm) = op.attr("permutation").and_then(|a| a.as_i64_list()) {
                let perm: Vec<usize> = perm.iter().map(|&p| p.max(0) as usize).collect();
                out.extend(render_permute_units(s, &perm, k.size()));
            }
        }
        (OpKind::Reduce, [(k, s), _]) => {
            let Some(rk) = op.regions.first().and_then(|r| oxhlo_plan::reducer::reducer_kind(func, r)) else { return };
            let Some(dims) = op.attr("dimensions").and_then(|a| a.as_i64_list()) else { return };
            let dims: Vec<usize> = dims.iter().map(|&d| d.max(0) as usize).collect();
            let (outer, red, inner) = match crate::reduce::contiguous_view(s, &dims) {
                Some(v) => v,
                None => {
                    out.extend(render_permute_units(s, &reduce_perm(s.len(), &dims), k.size()));
                    let p = |keep: bool| (0..s.len()).filter(|d| dims.contains(d) != keep).map(|d| s[d]).product::<i64>();
                    (p(true), p(false), 1)
                }
            };
            if crate::reduce::cluster_cols(outer, red, inner) {
                if let Some(src) = crate::reduce::render_cluster_cols(*k, rk) {
                    out.push(src);
                    return;
                }
            }
            if let Some(l) = crate::reduce::folded_launch(outer, red, inner) {
                if let Some(src) = crate::reduce::render_folded_launch(*k, rk, &l) {
                    out.push(src);
                    return;
                }
            }
            for l in crate::reduce::launches(outer, red, inner) {
                out.extend(crate::reduce::render_launch(*k, rk, &l));
            }
        }
        _ => {}
    }
}

/// Every kernel source `module` (optimized, as the executor will run it) can launch, deduplicated.
pub fn module_kernels(module: &Module, fusion: &FusionOptions) -> Vec<String> {
    let mut out = Vec::new();
    for func in &module.funcs {
        for block in &func.body.blocks {
            walk(func, block, fusion, &mut out);
        }
    }
    distinct(&out)
}

/// `sources` canonical ([`crate::render::canonical_source`]), sorted, without repeats.
pub fn distinct(sources: &[String]) -> Vec<String> {
    let mut out: Vec<String> = sources.iter().map(|s| crate::render::canonical_source(s)).collect();
    out.sort();
    out.dedup();
    out
}
