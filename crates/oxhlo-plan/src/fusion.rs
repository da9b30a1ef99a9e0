//! Fusion: which ops of one block run together as one kernel. `fuse_block` turns a block into steps, each
//! either one op run on its own or a [`FusedKernel`] that replaces several ops (their intermediate values
//! never exist in memory). Backends evaluate (CPU) or render (CUDA) the kernels.
//!
//! Loop fusion groups elementwise ops ([`ew_class`]: unary, binary, compare, select, clamp, convert) and
//! `broadcast_in_dim` of smaller operands whose results all have one shape, on element types with a native
//! layout (bool, 8/16/32/64-bit integers, f16, bf16, f32, f64). A group grows along producer -> consumer
//! edges; it is sealed (closed to new ops) as soon as an op outside it reads one of its values, so a
//! kernel placed at its last op never runs after a reader of its values. Ops with regions never fuse.
//! Constants are not fused: a kernel reads them as inputs (the CPU backend reads splat constants as
//! scalars).

use oxhlo_ir::{Block, ElementType, FloatType, Func, Op, OpKind, Region, Type, Value};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// One step of a block's execution.
#[derive(Clone, Debug, PartialEq)]
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
    /// The shape every value the kernel defines has (loop fusion: one iteration space), the reduction's
    /// result excepted.
    pub shape: Vec<i64>,
    /// Reductions of the kernel's values, folded in as the elements are computed (an operand is never
    /// stored unless it is also an output), all over one (outer, n, inner) view of `shape`; their results
    /// are the last outputs, in this order. Set only by [`crate::reduce_fusion::fuse_reductions`] (one)
    /// and [`crate::reduce_fusion::merge_kernels`] (several): a backend that calls neither
    /// never sees one.
    pub reduce: Vec<ReduceEpilogue>,
    /// A row group ([`crate::row_fusion`]): reductions over the trailing dims of `shape`, the per-row
    /// arithmetic between them and the full-shape ops reading their results, run a row at a time. Set
    /// only by [`crate::row_fusion::fuse_rows`] (backends that set `FusionOptions::rows`).
    pub rows: Option<Arc<crate::row_fusion::RowView>>,
}

/// A single-operand reduction at the end of a fused kernel: `result = reduce(operand, init)` over the
/// contiguous block of dimensions that views the kernel's shape as (outer, n, inner), n reduced.
#[derive(Clone, Debug, PartialEq)]
pub struct ReduceEpilogue {
    /// Index of the `stablehlo.reduce` op in `block.ops` (also listed in the kernel's `ops`).
    pub op: usize,
    /// The reduced value (defined by the kernel).
    pub operand: Value,
    /// The init value (a kernel input).
    pub init: Value,
    /// The reduction's result (a kernel output).
    pub result: Value,
    pub kind: crate::reducer::ReduceKind,
    pub outer: usize,
    pub n: usize,
    pub inner: usize,
}

/// Fusion settings (from the optimization level).
#[derive(Clone, Debug, Default)]
pub struct FusionOptions {
    /// Form kernels at all (O2 and above).
    pub enabled: bool,
    /// More aggressive grouping (O3).
    pub aggressive: bool,
    /// A value whose readers are all kernels of its shape is recomputed by them instead of stored when
    /// that moves fewer bytes ([`crate::recompute::recompute_in_consumers`]).
    pub recompute: bool,
    /// Recomputation may add work: transcendental ops (exp, tanh, ...) repeated, full-shape inputs read
    /// that the reader did not read before. On for the GPU (memory-bound); off on the CPU, where that
    /// costs more than the traffic saved (there only free recomputation happens, which still keeps
    /// values out of memory: nanogpt's CPU step peaked at 1.4 GB instead of 2.4 GB).
    pub recompute_costly: bool,
    /// Reductions over rows and the ops between them merge into row kernels
    /// ([`crate::row_fusion::fuse_rows`]): on for the GPU; the CPU runs them too but leaves them off by
    /// default (its phases recompute their ops, which costs more there than the traffic saved).
    pub rows: bool,
    /// Kernels with reductions over one view that do not depend on each other merge into one kernel of
    /// up to this many reductions ([`crate::reduce_fusion::merge_kernels`], which then also merges adjacent
    /// elementwise kernels of one shape); 0 or 1: none.
    pub sibling_reductions: usize,
    /// Kernels of more inputs + outputs than this are split into their independent parts
    /// ([`crate::kernel_split`]); 0: no limit.
    pub max_params: usize,
}

/// The kind of an elementwise op, as fusion and the backends' elementwise evaluators see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EwClass {
    Unary,
    Binary,
    Compare,
    /// `select(pred, on_true, on_false)`; `pred` may be rank 0.
    Select,
    /// `clamp(min, operand, max)`; the bounds may be rank 0.
    Clamp,
    Convert,
    /// `broadcast_in_dim` (its operand is always read through an index map).
    Broadcast,
}

/// The elementwise class of an op kind (None for every other op).
pub fn ew_class(kind: OpKind) -> Option<EwClass> {
    use OpKind as K;
    Some(match kind {
        K::Abs
        | K::Negate
        | K::Sign
        | K::Not
        | K::Popcnt
        | K::CountLeadingZeros
        | K::Sqrt
        | K::Rsqrt
        | K::Cbrt
        | K::Exponential
        | K::ExponentialMinusOne
        | K::Log
        | K::LogPlusOne
        | K::Logistic
        | K::Sine
        | K::Cosine
        | K::Tan
        | K::ChloTan
        | K::Tanh
        | K::Floor
        | K::Ceil
        | K::RoundNearestAfz
        | K::RoundNearestEven
        | K::IsFinite
        | K::ChloAcos
        | K::ChloAcosh
        | K::ChloAsin
        | K::ChloAsinh
        | K::ChloAtan
        | K::ChloAtanh
        | K::ChloCosh
        | K::ChloSinh
        | K::ChloSquare
        | K::Square
        | K::ChloErf
        | K::ChloErfc
        | K::ChloErfInv
        | K::ChloLgamma
        | K::ChloDigamma
        | K::ChloBesselI1e
        | K::ChloIsInf
        | K::ChloIsNegInf
        | K::ChloIsPosInf => EwClass::Unary,
        K::Add
        | K::Subtract
        | K::Multiply
        | K::Divide
        | K::Remainder
        | K::Power
        | K::Maximum
        | K::Minimum
        | K::And
        | K::Or
        | K::Xor
        | K::ShiftLeft
        | K::ShiftRightArithmetic
        | K::ShiftRightLogical
        | K::Atan2
        | K::ChloNextAfter
        | K::ChloPolygamma
        | K::ChloZeta => EwClass::Binary,
        K::Compare => EwClass::Compare,
        K::Select => EwClass::Select,
        K::Clamp => EwClass::Clamp,
        K::Convert => EwClass::Convert,
        K::BroadcastInDim => EwClass::Broadcast,
        _ => return None,
    })
}

/// Element types with a native layout in the fast backends (complex excluded from fusion).
pub fn native_real_elem(e: &ElementType) -> bool {
    match e {
        ElementType::Bool => true,
        ElementType::Int { bits, .. } => matches!(bits, 8 | 16 | 32 | 64),
        ElementType::Float(ft) => matches!(ft, FloatType::F16 | FloatType::BF16 | FloatType::F32 | FloatType::F64),
        _ => false,
    }
}

/// The static shape of `v` when it is a tensor of a native real element type.
pub(crate) fn native_shape(func: &Func, v: Value) -> Option<&[i64]> {
    match func.try_ty(v)? {
        Type::Tensor(t) if t.is_static() && t.encoding.is_none() && native_real_elem(&t.elem) => Some(&t.shape),
        _ => None,
    }
}

/// The result shape of `op` when it can join a loop-fusion group.
pub(crate) fn fusable_shape<'f>(func: &'f Func, op: &Op) -> Option<&'f [i64]> {
    let class = ew_class(op.kind)?;
    if !op.regions.is_empty() || op.results.len() != 1 {
        return None;
    }
    let shape = native_shape(func, op.results[0])?;
    for &a in &op.operands {
        native_shape(func, a)?;
    }
    if class == EwClass::Broadcast {
        let src = native_shape(func, *op.operands.first()?)?;
        let dims = op.attr("broadcast_dimensions")?.as_i64_list()?;
        if dims.len() != src.len() || dims.iter().any(|&d| d < 0 || d as usize >= shape.len()) {
            return None;
        }
        for (i, &d) in dims.iter().enumerate() {
            if src[i] != 1 && src[i] != shape[d as usize] {
                return None;
            }
        }
        // Same shape: only the identity map is a broadcast we fuse (others are transposes).
        if src == shape && dims.iter().enumerate().any(|(i, &d)| d as usize != i) {
            return None;
        }
    }
    Some(shape)
}

/// Every value read inside `r` (operands of nested ops, at any depth).
pub(crate) fn region_uses(r: &Region, out: &mut Vec<Value>) {
    for b in &r.blocks {
        for op in &b.ops {
            out.extend(op.operands.iter().copied());
            for rr in &op.regions {
                region_uses(rr, out);
            }
        }
    }
}

struct Group {
    ops: Vec<usize>,
    sealed: bool,
}

/// The steps of `block`: every op on its own unless fusion groups it with others. The kernels' ops keep
/// their relative order; a kernel's step sits where its last op was.
pub fn fuse_block(func: &Func, block: &Block, opts: &FusionOptions) -> Vec<Step> {
    if !opts.enabled {
        return (0..block.ops.len()).map(Step::Op).collect();
    }
    let mut groups: Vec<Group> = Vec::new();
    // The group of each value defined by a grouped op (by group id; merged groups are relabelled).
    let mut group_of: HashMap<Value, usize> = HashMap::new();
    let mut op_group: Vec<Option<usize>> = vec![None; block.ops.len()];
    for (j, op) in block.ops.iter().enumerate() {
        let mut uses: Vec<Value> = op.operands.clone();
        for r in &op.regions {
            region_uses(r, &mut uses);
        }
        let mut joined: Option<usize> = None;
        if let Some(shape) = fusable_shape(func, op) {
            let is_bcast = op.kind == OpKind::BroadcastInDim;
            let mut cands: Vec<usize> = Vec::new();
            if !is_bcast {
                for &a in &op.operands {
                    if let Some(&g) = group_of.get(&a) {
                        if !groups[g].sealed && native_shape(func, a) == Some(shape) && !cands.contains(&g) {
                            cands.push(g);
                        }
                    }
                }
            }
            let g = match cands.split_first() {
                None => {
                    groups.push(Group { ops: Vec::new(), sealed: false });
                    groups.len() - 1
                }
                Some((&g, rest)) => {
                    for &h in rest {
                        let moved = std::mem::take(&mut groups[h].ops);
                        for &i in &moved {
                            op_group[i] = Some(g);
                            for &r in &block.ops[i].results {
                                group_of.insert(r, g);
                            }
                        }
                        groups[g].ops.extend(moved);
                        groups[h].sealed = true;
                    }
                    g
                }
            };
            groups[g].ops.push(j);
            op_group[j] = Some(g);
            for &r in &op.results {
                group_of.insert(r, g);
            }
            joined = Some(g);
        }
        for v in uses {
            if let Some(&g) = group_of.get(&v) {
                if Some(g) != joined {
                    groups[g].sealed = true;
                }
            }
        }
    }
    // Kernels: groups of at least two ops with some computation besides broadcasts.
    let mut kernel_at: HashMap<usize, Arc<FusedKernel>> = HashMap::new();
    let mut in_kernel: HashSet<usize> = HashSet::new();
    let users = Users::of(block);
    for g in &mut groups {
        g.ops.sort_unstable();
        for part in crate::kernel_split::split_group(func, block, &g.ops, opts.max_params, &users).0 {
            if part.len() < 2 || part.iter().all(|&i| block.ops[i].kind == OpKind::BroadcastInDim) {
                continue;
            }
            let k = build_kernel_in(func, block, &part, &users);
            in_kernel.extend(part.iter().copied());
            if let Some(&last) = part.last() {
                kernel_at.insert(last, Arc::new(k));
            }
        }
    }
    let mut steps = Vec::with_capacity(block.ops.len());
    for i in 0..block.ops.len() {
        if let Some(k) = kernel_at.remove(&i) {
            steps.push(Step::Kernel(k));
        } else if !in_kernel.contains(&i) {
            steps.push(Step::Op(i));
        }
    }
    steps
}

/// The ops of a block reading each value (operands and uses inside their regions), in block order: what
/// [`build_kernel_in`] asks to decide a kernel's outputs without scanning the whole block per kernel.
pub(crate) struct Users(HashMap<Value, Vec<usize>>);

impl Users {
    pub(crate) fn of(block: &Block) -> Users {
        let mut m: HashMap<Value, Vec<usize>> = HashMap::new();
        for (i, op) in block.ops.iter().enumerate() {
            let mut uses = op.operands.clone();
            for r in &op.regions {
                region_uses(r, &mut uses);
            }
            for v in uses {
                let e = m.entry(v).or_default();
                if e.last() != Some(&i) {
                    e.push(i);
                }
            }
        }
        Users(m)
    }

    /// The ops reading `v`, ascending (empty when none does).
    pub(crate) fn readers(&self, v: Value) -> &[usize] {
        self.0.get(&v).map_or(&[], Vec::as_slice)
    }
}

/// The inputs and outputs of a group of ops (`users`: the block's [`Users`]).
pub(crate) fn build_kernel_in(func: &Func, block: &Block, ops: &[usize], users: &Users) -> FusedKernel {
    let set: HashSet<usize> = ops.iter().copied().collect();
    let mut defined: HashSet<Value> = HashSet::new();
    for &i in ops {
        defined.extend(block.ops[i].results.iter().copied());
    }
    let mut inputs = Vec::new();
    for &i in ops {
        for &a in &block.ops[i].operands {
            if !defined.contains(&a) && !inputs.contains(&a) {
                inputs.push(a);
            }
        }
    }
    let mut outputs = Vec::new();
    for &i in ops {
        for &r in &block.ops[i].results {
            if users.0.get(&r).is_some_and(|u| u.iter().any(|j| !set.contains(j))) {
                outputs.push(r);
            }
        }
    }
    let shape = ops
        .last()
        .and_then(|&i| block.ops[i].results.first())
        .and_then(|&v| native_shape(func, v))
        .map(<[i64]>::to_vec)
        .unwrap_or_default();
    FusedKernel { ops: ops.to_vec(), inputs, outputs, shape, reduce: Vec::new(), rows: None }
}
