//! Row kernels (`oxhlo_plan::row_fusion`: softmax, layer norm and their gradients as one kernel) on the
//! CPU. The rows are split into parts run on worker threads; a part walks its rows a few at a time
//! (a slab of about [`SLAB_ELEMENTS`] elements, which stays in cache) through every phase
//! (`oxhlo_plan::row_fusion::row_phases`): each reduction of a phase folds the slab's elements computed
//! by its own register program (`elementwise::Program`, the ops computing its operand from the kernel's
//! inputs and the per-row values known so far), the per-row ops then run on the slab's rows, and last a
//! program computes the full-shape outputs of the slab into their windows. So the rows are read from
//! memory once and the values between the steps never exist in memory. Per-row values live in each
//! part's own row-length tensors (only the part's rows are written and read). Per-row values must be f32
//! (reductions are f32 only); other kernels are split back into their steps by the plan ([`supported`]).
//!
//! A full-shape value a reduction's program computes and a later program needs again (softmax's
//! `exp(x - max)`, which the normalizing program divides; layer norm's `x - mean`) is kept: the
//! reduction's program stores the slab's elements of it into a slab-sized buffer of the part, which the
//! later programs read (shifted to the slab's start) instead of computing it again.

use crate::kernels::elementwise::Program;
use crate::kernels::elementwise_ops::OutSlice;
use crate::kernels::fused::is_splat_constant;
use crate::kernels::fused_reduce::{Partial, RedView};
use crate::tensor::{Buf, Kind, NTensor};
use oxhlo_ir::{Block, ElementType, FloatType, Func, Op, OpKind, TensorType, Type, Value};
use oxhlo_plan::fusion::FusedKernel;
use oxhlo_plan::reducer::reducer_kind;
use oxhlo_plan::row_fusion::{cone_until, full_cone, row_phases, RowPhases};
use std::sync::Arc;

/// Elements of the rows a part takes through all phases at a time (per-slab work, the programs' range
/// set-up and the per-row values, is paid once per slab: 16K-element slabs ran layer norm 4096^2 in
/// 30-32 ms and softmax in 29-31 ms, 64K-element slabs in 21-23 and 24-25 ms, 256K no better).
const SLAB_ELEMENTS: usize = 64 * 1024;

fn f32_tensor_type(func: &Func, v: Value) -> Option<TensorType> {
    match func.try_ty(v)? {
        Type::Tensor(t) if t.elem == ElementType::Float(FloatType::F32) && t.is_static() => Some(TensorType { encoding: None, ..t.clone() }),
        _ => None,
    }
}

/// One reduction of a phase: its program (last output = the reduced operand), view, init and result.
struct Reduction {
    prog: Program,
    view: RedView,
    init: f32,
    /// Index of its result among the per-row values.
    slot: usize,
    /// The slab values it stores (indices into [`Compiled::slab_values`]): its program's first outputs.
    keeps: Vec<usize>,
}

/// A per-row op: a one-op program over its own (row-shaped) iteration space, or a reshape (a copy).
enum RowStep {
    Prog { prog: Program, slot: usize },
    Copy { from: usize, slot: usize },
}

/// A compiled row kernel.
struct Compiled {
    /// The per-row values (reduction results and per-row ops' results) with their types.
    row_values: Vec<(Value, TensorType)>,
    /// Full-shape values kept in each part's slab buffers for later programs.
    slab_values: Vec<(Value, TensorType)>,
    first: Vec<RowStep>,
    phases: Vec<(Vec<Reduction>, Vec<RowStep>)>,
    /// The full-shape outputs' program and their indices in the kernel's outputs.
    outputs: Option<(Program, Vec<usize>)>,
}

fn slot_of(row_values: &[(Value, TensorType)], v: Value) -> Option<usize> {
    row_values.iter().position(|(x, _)| *x == v)
}

fn compile(k: &FusedKernel, func: &Func, block: &Block, inputs: &[&NTensor]) -> Option<Compiled> {
    (keep_slab_values().then(|| compile_with(k, func, block, inputs, true)).flatten()).or_else(|| compile_with(k, func, block, inputs, false))
}

/// [`compile`], keeping slab values when `keep`.
fn compile_with(k: &FusedKernel, func: &Func, block: &Block, inputs: &[&NTensor], keep: bool) -> Option<Compiled> {
    let view = k.rows.as_ref()?;
    let RowPhases { first_row_ops, phases } = row_phases(block, k)?;
    let mut row_values: Vec<(Value, TensorType)> = Vec::new();
    for &i in &k.ops {
        if block.ops[i].kind == OpKind::Reduce || view.row_ops.binary_search(&i).is_ok() {
            let v = *block.ops[i].results.first()?;
            row_values.push((v, f32_tensor_type(func, v)?));
        }
    }
    let full: Vec<usize> = (0..k.outputs.len()).filter(|&j| slot_of(&row_values, k.outputs[j]).is_none()).collect();
    let targets: Vec<Value> = full.iter().map(|&j| k.outputs[j]).collect();
    let slab_values = if keep { slab_values(func, block, k, &phases, &targets) } else { Vec::new() };
    // Programs read the kernel's inputs, then the per-row values, then the slab values (template
    // tensors of their types; the slab ones hold no data: compiling goes by the type).
    let templates: Vec<NTensor> = row_values.iter().map(|(_, t)| NTensor::new(t.clone(), Buf::zeros(Kind::F32, view.rows))).collect();
    let slab_templates: Vec<NTensor> = slab_values.iter().map(|(_, t)| NTensor::new(t.clone(), Buf::F32(Vec::new()))).collect();
    let mut values: Vec<Value> = k.inputs.clone();
    values.extend(row_values.iter().map(|(v, _)| *v));
    values.extend(slab_values.iter().map(|(v, _)| *v));
    let mut tensors: Vec<&NTensor> = inputs.to_vec();
    tensors.extend(templates.iter());
    tensors.extend(slab_templates.iter());
    let mut splat: Vec<bool> = k.inputs.iter().map(|&v| is_splat_constant(block, v)).collect();
    splat.extend(row_values.iter().map(|_| false));
    splat.extend(slab_values.iter().map(|_| false));
    let ops_of = |idx: &[usize]| idx.iter().map(|&i| &block.ops[i]).collect::<Vec<&Op>>();
    let row_step = |i: usize| -> Option<RowStep> {
        let op = &block.ops[i];
        let slot = slot_of(&row_values, op.results[0])?;
        if op.kind == OpKind::Reshape {
            return Some(RowStep::Copy { from: slot_of(&row_values, op.operands[0])?, slot });
        }
        let shape = &f32_tensor_type(func, op.results[0])?.shape;
        let prog = Program::compile(func, &ops_of(&[i]), shape, &values, &tensors, &splat, &op.results)?;
        Some(RowStep::Prog { prog, slot })
    };
    let first = first_row_ops.iter().map(|&i| row_step(i)).collect::<Option<Vec<_>>>()?;
    let mut compiled_phases = Vec::new();
    // Slab values computed by the phases so far: later programs read them.
    let mut kept: Vec<Value> = Vec::new();
    for (reduces, rows) in &phases {
        let mut reds = Vec::new();
        let mut kept_here = Vec::new();
        for &r in reduces {
            let op = &block.ops[r];
            let kind = reducer_kind(func, op.regions.first()?)?;
            let operand = op.operands[0];
            let cone = cone_until(block, k, &[operand], &kept);
            // The slab values this reduction's cone computes first (none computed by an earlier one).
            let keeps: Vec<usize> = (0..slab_values.len())
                .filter(|&s| !kept.contains(&slab_values[s].0) && !kept_here.contains(&slab_values[s].0))
                .filter(|&s| cone.iter().any(|&j| block.ops[j].results.contains(&slab_values[s].0)))
                .collect();
            kept_here.extend(keeps.iter().map(|&s| slab_values[s].0));
            let mut outs: Vec<Value> = keeps.iter().map(|&s| slab_values[s].0).collect();
            outs.push(operand);
            let prog = Program::compile(func, &ops_of(&cone), &k.shape, &values, &tensors, &splat, &outs)?;
            let init = inputs.get(k.inputs.iter().position(|&v| v == op.operands[1])?)?.f32s()?.first().copied()?;
            let view = RedView { kind, outer: view.rows, n: view.cols, inner: 1 };
            reds.push(Reduction { prog, view, init, slot: slot_of(&row_values, op.results[0])?, keeps });
        }
        kept.extend(kept_here);
        let steps = rows.iter().map(|&i| row_step(i)).collect::<Option<Vec<_>>>()?;
        compiled_phases.push((reds, steps));
    }
    if kept.len() != slab_values.len() {
        return None;
    }
    let outputs = if full.is_empty() {
        None
    } else {
        let cone = cone_until(block, k, &targets, &kept);
        Some((Program::compile(func, &ops_of(&cone), &k.shape, &values, &tensors, &splat, &targets)?, full))
    };
    Some(Compiled { row_values, slab_values, first, phases: compiled_phases, outputs })
}

/// Whether row kernels keep values in slab buffers (see the module doc): yes unless `OXHLO_ROW_SLAB=0`.
fn keep_slab_values() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| !std::env::var("OXHLO_ROW_SLAB").is_ok_and(|v| v.trim() == "0"))
}

/// The full-shape f32 values a reduction's cone computes that a later program (a later phase's
/// reduction or the outputs) reads from outside that cone: computed once, kept in the slab. Broadcasts,
/// reshapes and constants are left to be recomputed (they cost no arithmetic).
fn slab_values(func: &Func, block: &Block, k: &FusedKernel, phases: &[(Vec<usize>, Vec<usize>)], targets: &[Value]) -> Vec<(Value, TensorType)> {
    let cone_of = |r: usize| full_cone(block, k, &block.ops[r].operands[..1]);
    let cones: Vec<Vec<Vec<usize>>> = phases.iter().map(|(reduces, _)| reduces.iter().map(|&r| cone_of(r)).collect()).collect();
    let out_cone = if targets.is_empty() { Vec::new() } else { full_cone(block, k, targets) };
    let mut keep: Vec<(Value, TensorType)> = Vec::new();
    for p in 0..cones.len() {
        let later: std::collections::HashSet<usize> = cones[p + 1..].iter().flatten().flatten().chain(&out_cone).copied().collect();
        for cone in &cones[p] {
            for &j in cone {
                let op = &block.ops[j];
                if matches!(op.kind, OpKind::BroadcastInDim | OpKind::Reshape | OpKind::Constant) || !later.contains(&j) {
                    continue;
                }
                let Some(&v) = op.results.first() else { continue };
                let read_later = later.iter().any(|&i| !cone.contains(&i) && block.ops[i].operands.contains(&v));
                if !read_later || keep.iter().any(|(x, _)| *x == v) {
                    continue;
                }
                if let Some(t) = f32_tensor_type(func, v).filter(|t| t.shape == k.shape) {
                    keep.push((v, t));
                }
            }
        }
    }
    keep
}

/// Whether the row kernel `k` runs natively here (its programs compile for inputs of its types); the
/// CPU plan splits the others back into their steps.
pub fn supported(k: &FusedKernel, func: &Func, block: &Block) -> bool {
    let dummies: Option<Vec<NTensor>> = k
        .inputs
        .iter()
        .map(|&v| match func.try_ty(v)? {
            Type::Tensor(t) if t.is_static() => {
                let kind = Kind::of(&t.elem)?;
                Some(NTensor::new(TensorType { encoding: None, ..t.clone() }, Buf::zeros(kind, t.num_elements()?)))
            }
            _ => None,
        })
        .collect();
    let Some(dummies) = dummies else { return false };
    let refs: Vec<&NTensor> = dummies.iter().collect();
    compile(k, func, block, &refs).is_some()
}

/// The f32 data of a part's own per-row tensor.
fn rows_mut(t: &mut NTensor) -> Result<&mut [f32], String> {
    match Arc::get_mut(&mut t.buf) {
        Some(Buf::F32(v)) => Ok(v),
        _ => Err("internal error: a per-row value is shared or not f32".into()),
    }
}

/// A part's slab buffer, moved out of its tensor (left empty) for a program to store into.
fn take_buf(t: &mut NTensor) -> Result<Buf, String> {
    Arc::get_mut(&mut t.buf).map(|b| std::mem::replace(b, Buf::F32(Vec::new()))).ok_or_else(|| "internal error: a slab value is shared".to_string())
}

/// Runs a per-row step on rows `r0..r1` of a part's per-row tensors.
fn run_row_step(s: &RowStep, inputs: &[&NTensor], own: &mut [NTensor], r0: usize, r1: usize) -> Result<(), String> {
    match s {
        RowStep::Copy { from, slot } => {
            let src: Vec<f32> = own[*from].f32s().ok_or("internal error: a per-row value is not f32")?[r0..r1].to_vec();
            rows_mut(&mut own[*slot])?[r0..r1].copy_from_slice(&src);
        }
        RowStep::Prog { prog, slot } => {
            let mut buf = Buf::with_capacity(Kind::F32, r1 - r0);
            {
                let mut all: Vec<&NTensor> = inputs.to_vec();
                all.extend(own.iter());
                let mut out = [OutSlice::of_spare(&mut buf, r1 - r0).ok_or("internal error: no output window")?];
                prog.run_range(&all, r0, r1 - r0, &mut out, None)?;
            }
            // SAFETY: the program stored every element of its window (it returned Ok).
            unsafe { buf.set_len(r1 - r0) };
            let Buf::F32(v) = buf else { return Err("internal error: a per-row op is not f32".into()) };
            rows_mut(&mut own[*slot])?[r0..r1].copy_from_slice(&v);
        }
    }
    Ok(())
}

/// Evaluates the row kernel `k` on its inputs (in `k.inputs` order), returning its outputs in
/// `k.outputs` order.
pub fn run_rows(k: &FusedKernel, func: &Func, block: &Block, inputs: &[&NTensor], threads: usize) -> Result<Vec<NTensor>, String> {
    let view = k.rows.as_ref().ok_or("internal error: not a row kernel")?;
    let (rows, cols) = (view.rows, view.cols);
    let c = compile(k, func, block, inputs).ok_or("row kernel: an op or type has no native form")?;
    let n = rows * cols;
    // Full-shape outputs: windows of uninitialized storage, split by parts and slabs below.
    let mut full_bufs: Vec<Buf> = match &c.outputs {
        Some((_, idx)) => idx
            .iter()
            .map(|&j| {
                let kind = func.try_ty(k.outputs[j]).and_then(|t| t.as_tensor()).and_then(|t| Kind::of(&t.elem)).ok_or("row kernel: an output of no native kind")?;
                Ok(Buf::with_capacity(kind, n))
            })
            .collect::<Result<_, String>>()?,
        None => Vec::new(),
    };
    let slab_rows = (SLAB_ELEMENTS / cols.max(1)).max(1);
    let parts = if threads <= 1 { 1 } else { (threads * 4).min(rows.div_ceil(slab_rows)).max(1) };
    let per = rows.div_ceil(parts).max(1);
    let mut windows: Vec<Vec<OutSlice>> = (0..parts).map(|_| Vec::new()).collect();
    {
        let mut rest: Vec<OutSlice> = full_bufs.iter_mut().map(|b| OutSlice::of_spare(b, n)).collect::<Option<_>>().ok_or("complex output")?;
        for w in windows.iter_mut() {
            let mut next = Vec::new();
            for s in rest {
                let take = (per * cols).min(s.len());
                let (a, b) = s.split_at(take);
                w.push(a);
                next.push(b);
            }
            rest = next;
        }
    }
    let job = |(p, mut win): (usize, Vec<OutSlice>)| -> Result<Vec<NTensor>, String> {
        let (a, b) = ((p * per).min(rows), ((p + 1) * per).min(rows));
        let mut own: Vec<NTensor> = c.row_values.iter().map(|(_, t)| NTensor::new(t.clone(), Buf::zeros(Kind::F32, rows))).collect();
        let mut slab: Vec<NTensor> = c.slab_values.iter().map(|(_, t)| NTensor::new(t.clone(), Buf::F32(Vec::with_capacity(slab_rows * cols)))).collect();
        let mut r0 = a;
        while r0 < b {
            let r1 = (r0 + slab_rows).min(b);
            // Slab values hold the slab's elements only: element e of one is at e - r0 * cols.
            let mut shifts = vec![0usize; inputs.len() + own.len()];
            shifts.extend(std::iter::repeat_n(r0 * cols, slab.len()));
            let count = (r1 - r0) * cols;
            for s in &c.first {
                run_row_step(s, inputs, &mut own, r0, r1)?;
            }
            for (reds, steps) in &c.phases {
                for red in reds {
                    let mut partial = Partial::new(&red.view, r0 * cols, r1 * cols);
                    // The slab values this program stores, taken out of their tensors while it runs.
                    let mut stores: Vec<Buf> = red.keeps.iter().map(|&s| take_buf(&mut slab[s])).collect::<Result<_, _>>()?;
                    {
                        let mut outs: Vec<OutSlice> = stores
                            .iter_mut()
                            .map(|b| {
                                if let Buf::F32(v) = b {
                                    v.clear();
                                }
                                OutSlice::of_spare(b, count).ok_or("internal error: a slab buffer too small")
                            })
                            .collect::<Result<_, _>>()?;
                        let mut all: Vec<&NTensor> = inputs.to_vec();
                        all.extend(own.iter());
                        all.extend(slab.iter());
                        red.prog.run_range_shifted(&all, &shifts, r0 * cols, count, &mut outs, Some((&red.view, &mut partial)))?;
                    }
                    for (&s, mut b) in red.keeps.iter().zip(stores) {
                        // SAFETY: the program stored every element of its window (it returned Ok).
                        unsafe { b.set_len(count) };
                        *Arc::get_mut(&mut slab[s].buf).ok_or("internal error: a slab value is shared")? = b;
                    }
                    let results = partial.results(&red.view, red.init);
                    rows_mut(&mut own[red.slot])?[r0..r1].copy_from_slice(&results[..r1 - r0]);
                }
                for s in steps {
                    run_row_step(s, inputs, &mut own, r0, r1)?;
                }
            }
            if let Some((prog, _)) = &c.outputs {
                let mut slab_out = Vec::new();
                let mut keep = Vec::new();
                for s in win {
                    let (x, y) = s.split_at((r1 - r0) * cols);
                    slab_out.push(x);
                    keep.push(y);
                }
                win = keep;
                let mut all: Vec<&NTensor> = inputs.to_vec();
                all.extend(own.iter());
                all.extend(slab.iter());
                prog.run_range_shifted(&all, &shifts, r0 * cols, count, &mut slab_out, None)?;
            }
            r0 = r1;
        }
        Ok(own)
    };
    let owns: Vec<Result<Vec<NTensor>, String>> = if parts <= 1 {
        windows.into_iter().enumerate().map(job).collect()
    } else {
        use rayon::prelude::*;
        windows.into_iter().enumerate().collect::<Vec<_>>().into_par_iter().map(job).collect()
    };
    let owns: Vec<Vec<NTensor>> = owns.into_iter().collect::<Result<_, _>>()?;
    for b in &mut full_bufs {
        // SAFETY: the parts cover rows 0..rows and each stored every element of its windows (an error in
        // any part returned above, dropping the buffers unread).
        unsafe { b.set_len(n) };
    }
    // Per-row outputs: each part's rows of its own tensors.
    let mut full_bufs = full_bufs.into_iter();
    k.outputs
        .iter()
        .map(|&v| match slot_of(&c.row_values, v) {
            Some(slot) => {
                let mut data = vec![0.0f32; rows];
                for (p, own) in owns.iter().enumerate() {
                    let (a, b) = ((p * per).min(rows), ((p + 1) * per).min(rows));
                    data[a..b].copy_from_slice(&own[slot].f32s().ok_or("internal error: a per-row value is not f32")?[a..b]);
                }
                Ok(NTensor::new(c.row_values[slot].1.clone(), Buf::F32(data)))
            }
            None => {
                let ty = func.try_ty(v).and_then(|t| t.as_tensor()).map(|t| TensorType { encoding: None, ..t.clone() }).ok_or("row kernel: an output is not a tensor")?;
                Ok(NTensor::new(ty, full_bufs.next().ok_or("internal error: outputs do not match")?))
            }
        })
        .collect()
}
