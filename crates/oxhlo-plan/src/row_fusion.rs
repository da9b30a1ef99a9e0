//! Row kernels: a post-pass over [`fuse_reductions`](crate::reduce_fusion::fuse_reductions)' steps for
//! backends that set `FusionOptions::rows` (the GPU). Softmax, layer norm and their gradients reduce a
//! value over its trailing dims, compute with the per-row results, maybe reduce again, and finally
//! compute full-shape values from them: several kernels, each reading the rows from memory. A row group
//! merges those steps into one [`FusedKernel`] (with [`FusedKernel::rows`] set) that a backend runs a row
//! at a time: the reductions of the row (those that do not depend on each other in one pass), the per-row
//! arithmetic between them, then the full-shape outputs. Each row is read from memory once (later passes
//! over it hit the cache) and the values between the steps never exist in memory.
//!
//! A group starts at a reduction over the trailing dims of an f32 value (add, maximum, minimum) and grows
//! along the following steps that read its values: further reductions over the same rows, kernels of
//! the full shape (reading per-row values only through `broadcast_in_dim` along the rows), kernels over
//! row-shaped values. Steps in between that read nothing of the group run before it.

use crate::fusion::{build_kernel_in, ew_class, native_shape, FusedKernel, Step, Users};
use crate::reduce_fusion::step_reads;
use crate::reducer::{reducer_kind, ReduceKind};
use oxhlo_ir::{Block, ElementType, FloatType, Func, Op, OpKind, Type, Value};
use std::collections::HashSet;
use std::sync::Arc;

/// How a row kernel's ops are laid out: the kernel's shape is `rows` x `cols` (its leading dims are
/// the rows, the trailing dims the reduced columns).
#[derive(Clone, Debug, PartialEq)]
pub struct RowView {
    pub rows: usize,
    pub cols: usize,
    /// How many leading dims of the kernel's shape index the rows.
    pub row_dims: usize,
    /// Ops computed once per row (elementwise over row-shaped values), ascending. The kernel's
    /// `stablehlo.reduce` ops are its reductions; every other op is elementwise over its shape.
    pub row_ops: Vec<usize>,
    /// The steps the kernel replaces, in order: what a backend that cannot render it runs instead.
    pub steps: Vec<Step>,
}

/// The full shape and the number of row dims of a reduction the pass merges: one f32 operand reduced
/// over its trailing dims (at least one dim kept) by add, maximum or minimum, from a rank-0 init.
fn reduce_view(func: &Func, op: &Op) -> Option<(Vec<i64>, usize)> {
    if op.kind != OpKind::Reduce || op.operands.len() != 2 || op.results.len() != 1 || op.regions.len() != 1 {
        return None;
    }
    if !matches!(reducer_kind(func, &op.regions[0])?, ReduceKind::Add | ReduceKind::Max | ReduceKind::Min) {
        return None;
    }
    let f32_shape = |v: Value| match func.try_ty(v) {
        Some(Type::Tensor(t)) if t.elem == ElementType::Float(FloatType::F32) && t.is_static() && t.encoding.is_none() => Some(t.shape.clone()),
        _ => None,
    };
    let shape = f32_shape(op.operands[0])?;
    if !f32_shape(op.operands[1])?.is_empty() {
        return None;
    }
    f32_shape(op.results[0])?;
    let mut dims: Vec<i64> = op.attr("dimensions")?.as_i64_list()?.to_vec();
    dims.sort_unstable();
    let k = shape.len().checked_sub(dims.len())?;
    if k == 0 || dims.iter().enumerate().any(|(j, &d)| d != (k + j) as i64) {
        return None;
    }
    Some((shape, k))
}

fn squeezed(s: &[i64]) -> Vec<i64> {
    s.iter().copied().filter(|&d| d != 1).collect()
}

/// The group being grown: its shape, row dims, member steps and what they define.
struct Group {
    shape: Vec<i64>,
    k: usize,
    members: Vec<usize>,
    /// Values defined by member steps.
    defined: HashSet<Value>,
    /// Of those, the row-shaped ones (reduction results and row ops' results).
    row_values: HashSet<Value>,
    row_ops: Vec<usize>,
    reduces: usize,
    /// A full-shape op reads a per-row value (a round trip through memory saved).
    row_broadcasts: usize,
}

impl Group {
    fn is_row_shape(&self, s: &[i64]) -> bool {
        squeezed(s) == squeezed(&self.shape[..self.k])
    }

    /// Whether broadcasting `src` (row-shaped) by `op` into `out` keeps the row order: the operand's
    /// dims of size > 1 map, in order, onto exactly the dims of size > 1 of `out`'s row dims.
    fn keeps_rows(&self, op: &Op, src: &[i64], out: &[i64], out_row_dims: usize) -> bool {
        let Some(dims) = op.attr("broadcast_dimensions").and_then(|a| a.as_i64_list()) else { return false };
        if dims.len() != src.len() {
            return false;
        }
        let mapped: Vec<usize> = (0..src.len()).filter(|&d| src[d] != 1).map(|d| dims[d] as usize).collect();
        let want: Vec<usize> = (0..out_row_dims.min(out.len())).filter(|&d| out[d] != 1).collect();
        mapped == want && (0..src.len()).all(|d| src[d] == 1 || out.get(dims[d] as usize) == Some(&src[d]))
    }

    /// Whether an op of the full shape reads the group's values correctly: full values elementwise,
    /// per-row values through a row-preserving broadcast. Counts the latter.
    fn full_op_ok(&mut self, func: &Func, op: &Op) -> bool {
        for &a in &op.operands {
            if !self.row_values.contains(&a) {
                continue;
            }
            let Some(src) = native_shape(func, a) else { return false };
            if op.kind != OpKind::BroadcastInDim || !self.keeps_rows(op, src, &self.shape, self.k) {
                return false;
            }
            self.row_broadcasts += 1;
        }
        true
    }

    /// Whether a row-shaped elementwise op reads the group's values correctly (row values only, kept
    /// in row order by broadcasts).
    fn row_op_ok(&self, func: &Func, op: &Op, out: &[i64]) -> bool {
        op.operands.iter().all(|a| {
            if !self.defined.contains(a) {
                return true;
            }
            if !self.row_values.contains(a) {
                return false;
            }
            let Some(src) = native_shape(func, *a) else { return false };
            op.kind != OpKind::BroadcastInDim || self.keeps_rows(op, src, out, out.len())
        })
    }

    /// Adds `step` when it belongs to the group; false (group unchanged) otherwise.
    fn try_add(&mut self, func: &Func, block: &Block, si: usize, step: &Step) -> bool {
        let ops: Vec<usize> = match step {
            Step::Op(i) => vec![*i],
            Step::Kernel(k) if k.rows.is_none() => k.ops.clone(),
            Step::Kernel(_) => return false,
        };
        let snapshot = (self.row_broadcasts, self.reduces);
        let mut new_rows: Vec<usize> = Vec::new();
        let mut new_row_values: Vec<Value> = Vec::new();
        let mut ok = true;
        for &i in &ops {
            let op = &block.ops[i];
            if op.kind == OpKind::Reduce {
                // A reduction over the group's rows of a full value (not of a per-row one).
                let same = reduce_view(func, op).is_some_and(|(s, k)| s == self.shape && k == self.k);
                if !same || self.row_values.contains(&op.operands[0]) || self.defined.contains(&op.operands[1]) {
                    ok = false;
                    break;
                }
                self.reduces += 1;
                new_row_values.push(op.results[0]);
                continue;
            }
            // Elementwise ops, and reshapes of per-row values (which list the rows in the same order).
            let is_reshape = op.kind == OpKind::Reshape;
            if ew_class(op.kind).is_none() && !is_reshape {
                ok = false;
                break;
            }
            let Some(out) = (op.results.len() == 1 && op.regions.is_empty()).then(|| native_shape(func, op.results[0])).flatten() else {
                ok = false;
                break;
            };
            let out = out.to_vec();
            let reads_rows = op.operands.iter().any(|a| self.row_values.contains(a) || new_row_values.contains(a));
            if out == self.shape && out.iter().product::<i64>() != self.shape[..self.k].iter().product::<i64>() {
                if is_reshape || !self.full_op_ok(func, op) {
                    ok = false;
                    break;
                }
            } else if self.is_row_shape(&out) && (reads_rows || ops.len() > 1) && (!is_reshape || reads_rows) {
                // Row ops of a kernel: values of the group are per-row ones (checked), others are read
                // at the row's index (or broadcast from scalars).
                if !self.row_op_ok(func, op, &out) {
                    ok = false;
                    break;
                }
                new_rows.push(i);
                new_row_values.push(op.results[0]);
            } else {
                ok = false;
                break;
            }
        }
        // A row-shaped step must read a per-row value of the group (otherwise it is not part of it).
        if ok && !new_rows.is_empty() && !new_rows.iter().any(|&i| block.ops[i].operands.iter().any(|a| self.row_values.contains(a) || new_row_values.contains(a))) {
            ok = false;
        }
        if !ok {
            (self.row_broadcasts, self.reduces) = snapshot;
            return false;
        }
        self.members.push(si);
        self.row_ops.extend(new_rows);
        self.row_values.extend(new_row_values);
        for &i in &ops {
            self.defined.extend(block.ops[i].results.iter().copied());
        }
        true
    }
}

/// The reduction a step starts a group with: its full shape and row dims.
fn starts_group(func: &Func, block: &Block, step: &Step) -> Option<(Vec<i64>, usize)> {
    match step {
        Step::Op(i) => reduce_view(func, &block.ops[*i]),
        Step::Kernel(k) if k.rows.is_none() => {
            let [e] = k.reduce.as_slice() else { return None };
            reduce_view(func, &block.ops[e.op]).filter(|(s, _)| *s == k.shape)
        }
        Step::Kernel(_) => None,
    }
}

/// `steps` with every row group merged into one kernel (steps between its members that read nothing
/// of it moved before it).
pub fn fuse_rows(func: &Func, block: &Block, steps: Vec<Step>) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::with_capacity(steps.len());
    let mut taken = vec![false; steps.len()];
    // The block's users, found once for every group's kernel (not once a group).
    let mut users: Option<Users> = None;
    let mut i = 0;
    while i < steps.len() {
        if taken[i] {
            i += 1;
            continue;
        }
        let Some((shape, k)) = starts_group(func, block, &steps[i]) else {
            out.push(steps[i].clone());
            i += 1;
            continue;
        };
        let mut g = Group {
            shape: shape.clone(),
            k,
            members: Vec::new(),
            defined: HashSet::new(),
            row_values: HashSet::new(),
            row_ops: Vec::new(),
            reduces: 0,
            row_broadcasts: 0,
        };
        if !g.try_add(func, block, i, &steps[i]) {
            out.push(steps[i].clone());
            i += 1;
            continue;
        }
        let mut hoisted: Vec<usize> = Vec::new();
        for j in i + 1..steps.len() {
            if taken[j] {
                continue;
            }
            let reads = step_reads(block, &steps[j]);
            if !reads.iter().any(|v| g.defined.contains(v)) {
                // A reduction of the same rows joins (its pass is shared with the group's first);
                // other independent steps run before the group.
                let sibling = starts_group(func, block, &steps[j]).is_some_and(|(s, k)| s == g.shape && k == g.k);
                if !(sibling && g.try_add(func, block, j, &steps[j])) {
                    hoisted.push(j);
                }
                continue;
            }
            if !g.try_add(func, block, j, &steps[j]) {
                break;
            }
        }
        let last = *g.members.last().unwrap_or(&i);
        let worth = g.members.len() >= 2 && (g.row_broadcasts > 0 || g.reduces >= 2);
        if !worth {
            out.push(steps[i].clone());
            i += 1;
            continue;
        }
        for &h in hoisted.iter().filter(|&&h| h < last) {
            out.push(steps[h].clone());
            taken[h] = true;
        }
        let mut ops: Vec<usize> = Vec::new();
        for &m in &g.members {
            match &steps[m] {
                Step::Op(o) => ops.push(*o),
                Step::Kernel(kk) => ops.extend(kk.ops.iter().copied()),
            }
            taken[m] = true;
        }
        ops.sort_unstable();
        ops.dedup();
        let mut kernel = build_kernel_in(func, block, &ops, users.get_or_insert_with(|| Users::of(block)));
        kernel.shape = shape.clone();
        let mut row_ops = g.row_ops.clone();
        row_ops.sort_unstable();
        let rows = shape[..k].iter().product::<i64>() as usize;
        let cols = shape[k..].iter().product::<i64>() as usize;
        let member_steps = g.members.iter().map(|&m| steps[m].clone()).collect();
        kernel.rows = Some(Arc::new(RowView { rows, cols, row_dims: k, row_ops, steps: member_steps }));
        out.push(Step::Kernel(Arc::new(kernel)));
        i += 1;
    }
    out
}

/// `OXHLO_ROWS=0` or `=1`: forms row kernels or not where the optimization level fuses, whatever the
/// backend's default (on for CUDA; off on the CPU, where recomputing each phase's ops costs more than
/// the memory traffic it saves); None when unset.
pub fn env_setting() -> Option<bool> {
    match std::env::var("OXHLO_ROWS").ok()?.trim() {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    }
}

/// Whether `k` is a row kernel whose op `i` is computed once per row.
pub fn is_row_op(k: &FusedKernel, i: usize) -> bool {
    k.rows.as_ref().is_some_and(|r| r.row_ops.binary_search(&i).is_ok())
}


/// The order in which a backend evaluates a row kernel over one row: per-row ops that read no reduction
/// result, then phases (the reductions whose operands need only per-row values known by then, computed
/// in one pass over the row, and the per-row ops their results make computable), then the full-shape
/// outputs. Levels: a reduction's is one more than the highest level of the per-row values the ops
/// computing its operand read; a per-row op's is the highest of its operands'.
#[derive(Clone, Debug, PartialEq)]
pub struct RowPhases {
    pub first_row_ops: Vec<usize>,
    /// Per phase: its reductions and the per-row ops computed after them (ascending).
    pub phases: Vec<(Vec<usize>, Vec<usize>)>,
}

/// The ops of row kernel `k` computing `targets` over the full shape (transitively, stopping at the
/// kernel's inputs and its per-row values), ascending.
pub fn full_cone(block: &Block, k: &FusedKernel, targets: &[Value]) -> Vec<usize> {
    cone_until(block, k, targets, &[])
}

/// [`full_cone`] that stops at the values `stops` (available from elsewhere, such as a row slab): the ops
/// computing them, and what only those need, stay out.
pub fn cone_until(block: &Block, k: &FusedKernel, targets: &[Value], stops: &[Value]) -> Vec<usize> {
    let is_row = |i: usize| is_row_op(k, i) || block.ops[i].kind == OpKind::Reduce;
    let mut seen: HashSet<usize> = HashSet::new();
    let mut todo: Vec<Value> = targets.iter().copied().filter(|v| !stops.contains(v)).collect();
    while let Some(v) = todo.pop() {
        if stops.contains(&v) {
            continue;
        }
        let Some(j) = k.ops.iter().copied().find(|&j| !is_row(j) && block.ops[j].results.contains(&v)) else { continue };
        if seen.insert(j) {
            todo.extend(block.ops[j].operands.iter().copied());
        }
    }
    let mut ops: Vec<usize> = seen.into_iter().collect();
    ops.sort_unstable();
    ops
}

/// The phases of row kernel `k` (None when it is not one or has no reduction).
pub fn row_phases(block: &Block, k: &FusedKernel) -> Option<RowPhases> {
    let view = k.rows.as_ref()?;
    let mut level: std::collections::HashMap<Value, usize> = std::collections::HashMap::new();
    let read_level = |ops: &[usize], extra: &[Value], level: &std::collections::HashMap<Value, usize>| {
        ops.iter().flat_map(|&j| block.ops[j].operands.iter()).chain(extra).filter_map(|v| level.get(v)).copied().max().unwrap_or(0)
    };
    let mut reduces: Vec<(usize, usize)> = Vec::new();
    let mut rows: Vec<(usize, usize)> = Vec::new();
    for &i in &k.ops {
        let op = &block.ops[i];
        if op.kind == OpKind::Reduce {
            let c = full_cone(block, k, &op.operands[..1]);
            let l = 1 + read_level(&c, &op.operands[..1], &level);
            level.insert(*op.results.first()?, l);
            reduces.push((i, l));
        } else if view.row_ops.binary_search(&i).is_ok() {
            let l = read_level(&[i], &[], &level);
            level.insert(*op.results.first()?, l);
            rows.push((i, l));
        }
    }
    let max = reduces.iter().map(|&(_, l)| l).max()?;
    let at = |xs: &[(usize, usize)], l: usize| xs.iter().filter(|&&(_, m)| m == l).map(|&(i, _)| i).collect::<Vec<_>>();
    Some(RowPhases { first_row_ops: at(&rows, 0), phases: (1..=max).map(|l| (at(&reduces, l), at(&rows, l))).collect() })
}
