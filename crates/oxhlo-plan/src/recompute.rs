//! Values recomputed by the kernels that read them instead of being stored (`FusionOptions::recompute`,
//! for memory-bound backends: the GPU). Loop fusion stores every value a kernel defines that a later step
//! reads: `x - mean`, broadcasts of per-channel vectors, ReLU's zero tensor... A training step's backward
//! kernels read many such values of its forward kernels, each written and read back in full. When every
//! later reader of such a value is a kernel over the same shape, each reader takes the chain of ops
//! computing it instead (their inputs are the producer's inputs, all computed before it), provided the
//! full-shape inputs that adds to the readers cost fewer bytes than the store and the reads they replace.
//! Each element is computed by the same ops in the same order, so results are unchanged. A producer left
//! with nothing to store (and no reduction) is dropped.

use crate::fusion::{FusedKernel, Step};
use crate::reduce_fusion::step_reads;
use oxhlo_ir::{Block, ElementType, FloatType, Func, OpKind, Type, Value};
use std::collections::HashSet;
use std::sync::Arc;

/// `OXHLO_RECOMPUTE=0` or `=1`: recompute in consumers or not where the optimization level fuses,
/// whatever the backend's default (on for both); None when unset.
pub fn env_setting() -> Option<bool> {
    match std::env::var("OXHLO_RECOMPUTE").ok()?.trim() {
        "0" => Some(false),
        "1" => Some(true),
        _ => None,
    }
}

/// Whether values of row kernels are recomputed from their per-row values by later kernels (on unless
/// `OXHLO_RECOMPUTE_ROWS=0`: a switch for measuring; read once).
fn row_values_recomputed() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXHLO_RECOMPUTE_ROWS").map_or(true, |v| v.trim() != "0"))
}

/// Largest chain of ops a reader recomputes instead of reading a stored value.
const MAX_RECOMPUTED_OPS: usize = 8;

/// Bytes per element of a tensor value (None for other types and sub-byte or unusual elements).
fn elem_bytes(func: &Func, v: Value) -> Option<usize> {
    match func.try_ty(v)? {
        Type::Tensor(t) => Some(match &t.elem {
            ElementType::Bool => 1,
            ElementType::Int { bits, .. } => (*bits as usize).div_ceil(8),
            ElementType::Float(FloatType::F16 | FloatType::BF16) => 2,
            ElementType::Float(FloatType::F32) => 4,
            ElementType::Float(FloatType::F64) => 8,
            _ => return None,
        }),
        _ => None,
    }
}

fn numel(func: &Func, v: Value) -> Option<i64> {
    match func.try_ty(v)? {
        Type::Tensor(t) if t.is_static() => Some(t.shape.iter().product()),
        _ => None,
    }
}

/// The ops of kernel `k` (its reduction excepted) that computing `v` takes, ascending, stopping at the
/// values `k` stores (`stored`: read back instead); None when one is not a single-result op without
/// regions (a row kernel's reductions).
fn chain_of(block: &Block, k: &FusedKernel, v: Value, stored: &[Value]) -> Option<Vec<usize>> {
    let skip: Vec<usize> = k.reduce.iter().map(|e| e.op).collect();
    let mut chain: Vec<usize> = Vec::new();
    let mut todo = vec![v];
    while let Some(x) = todo.pop() {
        if x != v && stored.contains(&x) {
            continue;
        }
        let Some(j) = k.ops.iter().copied().find(|&j| !skip.contains(&j) && block.ops[j].results.contains(&x)) else { continue };
        if chain.contains(&j) {
            continue;
        }
        let op = &block.ops[j];
        if op.results.len() != 1 || !op.regions.is_empty() {
            return None;
        }
        chain.push(j);
        todo.extend(op.operands.iter().copied());
    }
    chain.sort_unstable();
    Some(chain)
}

/// `steps` with stored values recomputed by their readers where that moves fewer bytes (see the module
/// doc). A post-pass over the kernels of `fuse_block`, `fuse_reductions` and `fuse_rows` (row kernels
/// give values to their readers through chains that stop at what they store and at their per-row
/// values, which they then store: a layer norm's backward recomputes `(x - mean) * rstd` from `x` and
/// the two per-row values, a softmax's backward the exponentials from the scores and the row maxima;
/// row kernels take broadcasts of smaller values, and with `costly` elementwise chains: their per-row
/// ops are laid out by `fuse_rows` and stay as they are).
/// `costly` (`FusionOptions::recompute_costly`): whether a recomputed chain may hold transcendental ops
/// (exp, tanh, ...) or make a reader read a full-shape input it did not read before; without it only
/// free recomputation happens (broadcasts of small values, ops on values the reader already reads).
pub fn recompute_in_consumers(func: &Func, block: &Block, mut steps: Vec<Step>, costly: bool) -> Vec<Step> {
    let mut ki = 0;
    while ki < steps.len() {
        if let Step::Op(i) = steps[ki] {
            if broadcast_into_readers(func, block, &mut steps, ki, i) {
                steps.remove(ki);
            } else {
                ki += 1;
            }
            continue;
        }
        let Step::Kernel(k) = &steps[ki] else {
            ki += 1;
            continue;
        };
        let original_outputs = k.outputs.len();
        let mut producer = (**k).clone();
        let full = producer.shape.iter().product::<i64>();
        for v in producer.outputs.clone() {
            if producer.reduce.iter().any(|e| e.result == v) {
                continue;
            }
            let readers: Vec<usize> = (ki + 1..steps.len()).filter(|&j| step_reads(block, &steps[j]).contains(&v)).collect();
            let same_shape = |j: &usize| matches!(&steps[*j], Step::Kernel(c) if c.shape == producer.shape);
            if readers.is_empty() || !readers.iter().all(same_shape) {
                continue;
            }
            let into_rows = readers.iter().any(|&j| matches!(&steps[j], Step::Kernel(c) if c.rows.is_some()));
            // A row kernel's chains stop at its per-row values (reductions' results, per-row ops): the
            // reader reads those (stored by the producer) and broadcasts them itself (a softmax's row
            // sums, which the backward row kernel divides by, were stored at the scores' full shape).
            let per_row = if row_values_recomputed() { per_row_values(block, &producer) } else { Vec::new() };
            let stored: Vec<Value> = producer.outputs.iter().copied().filter(|&x| x != v).chain(per_row.iter().copied()).collect();
            let Some(chain) = chain_of(block, &producer, v, &stored) else { continue };
            if !costly && chain.iter().any(|&j| is_transcendental(block.ops[j].kind)) {
                continue;
            }
            // Every op of the chain is elementwise over the readers' shape (not a row kernel's per-row op).
            if chain.is_empty() || chain.len() > MAX_RECOMPUTED_OPS || chain.iter().any(|&j| numel(func, block.ops[j].results[0]) != Some(full)) {
                continue;
            }
            let defined: HashSet<Value> = chain.iter().flat_map(|&j| block.ops[j].results.iter().copied()).collect();
            let mut chain_inputs: Vec<Value> = Vec::new();
            for &j in &chain {
                for &x in &block.ops[j].operands {
                    if !defined.contains(&x) && !chain_inputs.contains(&x) {
                        chain_inputs.push(x);
                    }
                }
            }
            // A row kernel takes broadcasts of smaller values (its phases read them by index arithmetic;
            // its per-row ops are untouched): an attention mask, a scale or a fill value that a forward
            // kernel stored at the scores' full shape for the forward and backward row kernels; and, where
            // recomputation may cost work, elementwise chains over its shape (a softmax backward
            // recomputing the forward's exponentials from the scores and the row maxima).
            let broadcasts_only = chain.iter().all(|&j| block.ops[j].kind == OpKind::BroadcastInDim) && chain_inputs.iter().all(|&x| numel(func, x).is_some_and(|n| n < full));
            if into_rows && !broadcasts_only && !(costly && row_values_recomputed() && chain.iter().all(|&j| crate::fusion::ew_class(block.ops[j].kind).is_some())) {
                continue;
            }
            // Bytes per element: the store and the reads of `v` saved, against the full-shape inputs the
            // readers would read in addition.
            let Some(v_bytes) = elem_bytes(func, v) else { continue };
            let saved = v_bytes * (1 + readers.len());
            let mut extra = 0usize;
            for &j in &readers {
                let Step::Kernel(c) = &steps[j] else { continue };
                for &x in &chain_inputs {
                    if numel(func, x) == Some(full) && !c.inputs.contains(&x) {
                        extra += elem_bytes(func, x).unwrap_or(8);
                    }
                }
            }
            if extra >= saved || (!costly && extra > 0) {
                continue;
            }
            for &j in &readers {
                take_chain(&mut steps[j], v, &chain, &chain_inputs);
            }
            producer.outputs.retain(|&x| x != v);
            for &x in &chain_inputs {
                if per_row.contains(&x) && !producer.outputs.contains(&x) {
                    producer.outputs.push(x);
                }
            }
        }
        if producer.outputs.is_empty() && producer.reduce.is_empty() {
            steps.remove(ki);
            continue;
        }
        if producer.outputs.len() < original_outputs && producer.rows.is_none() {
            prune(block, &mut producer);
        }
        steps[ki] = Step::Kernel(Arc::new(producer));
        ki += 1;
    }
    steps
}

/// The per-row values a row kernel defines (its reductions' results and per-row ops' results); none
/// for other kernels.
fn per_row_values(block: &Block, k: &FusedKernel) -> Vec<Value> {
    let Some(view) = &k.rows else { return Vec::new() };
    k.ops.iter().filter(|&&i| block.ops[i].kind == OpKind::Reduce || view.row_ops.binary_search(&i).is_ok()).flat_map(|&i| block.ops[i].results.iter().copied()).collect()
}

/// A broadcast of a smaller value that is a step of its own (`kernel_split` leaves one read by several
/// kernels out of them: Adam's learning-rate and moment factors after CSE), taken into every reader
/// when all of them are kernels of its shape: each computes it from the small value instead of reading
/// the stored tensor. True when it was (the step is then to be dropped).
fn broadcast_into_readers(func: &Func, block: &Block, steps: &mut [Step], at: usize, i: usize) -> bool {
    let op = &block.ops[i];
    if op.kind != OpKind::BroadcastInDim || op.results.len() != 1 || op.operands.len() != 1 {
        return false;
    }
    let (v, x) = (op.results[0], op.operands[0]);
    let Some(full) = numel(func, v) else { return false };
    if numel(func, x).is_none_or(|n| n >= full) {
        return false;
    }
    let readers: Vec<usize> = (at + 1..steps.len()).filter(|&j| step_reads(block, &steps[j]).contains(&v)).collect();
    let shape = match func.try_ty(v) {
        Some(Type::Tensor(t)) => t.shape.clone(),
        _ => return false,
    };
    if readers.is_empty() || !readers.iter().all(|&j| matches!(&steps[j], Step::Kernel(c) if c.shape == shape)) {
        return false;
    }
    for j in readers {
        take_chain(&mut steps[j], v, &[i], &[x]);
    }
    true
}

/// Makes the reader kernel `step` compute `v` with the ops `chain` from `chain_inputs` instead of
/// reading it.
fn take_chain(step: &mut Step, v: Value, chain: &[usize], chain_inputs: &[Value]) {
    let Step::Kernel(c) = step else { return };
    let mut consumer = (**c).clone();
    consumer.inputs.retain(|&x| x != v);
    for &x in chain_inputs {
        if !consumer.inputs.contains(&x) {
            consumer.inputs.push(x);
        }
    }
    for &j in chain {
        if !consumer.ops.contains(&j) {
            consumer.ops.push(j);
        }
    }
    consumer.ops.sort_unstable();
    *step = Step::Kernel(Arc::new(consumer));
}

/// Drops the ops of `k` that no longer contribute to its outputs or its reduction, and the inputs only
/// they read (unchanged when a chain cannot be followed).
fn prune(block: &Block, k: &mut FusedKernel) {
    let mut live: Vec<usize> = Vec::new();
    let mut targets: Vec<Value> = k.outputs.iter().copied().filter(|&v| k.reduce.iter().all(|e| e.result != v)).collect();
    for e in &k.reduce {
        targets.push(e.operand);
        live.push(e.op);
    }
    for v in targets {
        let Some(chain) = chain_of(block, k, v, &[]) else { return };
        live.extend(chain);
    }
    live.sort_unstable();
    live.dedup();
    let read: HashSet<Value> = live.iter().flat_map(|&j| block.ops[j].operands.iter().copied()).collect();
    k.ops = live;
    k.inputs.retain(|v| read.contains(v));
}

/// Ops that cost many instructions per element (recomputing them costs more than the memory traffic it
/// saves on the CPU).
pub fn is_transcendental(kind: oxhlo_ir::OpKind) -> bool {
    use oxhlo_ir::OpKind as K;
    matches!(
        kind,
        K::Exponential | K::ExponentialMinusOne | K::Log | K::LogPlusOne | K::Logistic | K::Tanh | K::Sine | K::Cosine | K::Tan | K::Power | K::Atan2 | K::Cbrt
            | K::ChloErf | K::ChloErfc | K::ChloTan | K::ChloSinh | K::ChloCosh | K::ChloLgamma | K::ChloDigamma
    )
}
