//! Elementwise programs: a list of elementwise ops (one op, or a loop-fusion kernel) compiled into a
//! small register program and evaluated over cache-sized chunks. Each instruction is a tight typed loop
//! over a chunk (see [`super::elementwise_ops`]), so there is no per-element dispatch; inputs are read
//! directly, as a repeated scalar, or through a broadcast index map. Parts of the iteration space are
//! spread over rayon's worker threads when the tensor is big enough.

use super::elementwise_direct::{exec_bin, fold_loads, Operand, Scratch};
use super::elementwise_ops::{self as eo, Lane, OutSlice, Reg, Sel};
use super::fused_reduce::{self, Partial, RedView};
use crate::tensor::{Buf, Kind, NTensor};
use oxhlo_interp::ops::elementwise::{Bin, Un};
use oxhlo_ir::attr::{ComparisonDirection as Dir, ComparisonType as CmpTy};
use oxhlo_ir::{Func, Op, OpKind, TensorType, Type, Value};
use oxhlo_plan::fusion::{ew_class, EwClass};
use std::collections::HashMap;

/// Elements per chunk.
const CHUNK: usize = 256;
/// Elements per chunk of a program without float values: each op of such a program is a few
/// instructions per vector, so the per-op dispatch of a chunk decides (the threefry rounds of
/// `jax.random.normal` over 16M values: 204-216 ms in chunks of 256, 142-147 ms in chunks of 1024;
/// f32 programs were fastest at 256).
const INT_CHUNK: usize = 1024;
/// Below this many elements (times the op count) a program runs on one thread.
const PAR_MIN_WORK: usize = 1 << 16;
/// Parts per worker thread of a parallel run (scheduled dynamically on rayon's pool).
const PARTS_PER_WORKER: usize = 4;
/// Smallest part of a parallel run (elements).
const PART_MIN: usize = 1 << 14;
/// Whether the processor has the AVX-512 subsets the 16-wide code path uses (checked once);
/// `OXHLO_AVX512=0` keeps the AVX2 path.
#[cfg(target_arch = "x86_64")]
pub(crate) fn avx512() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        !std::env::var("OXHLO_AVX512").is_ok_and(|v| v.trim() == "0")
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("fma")
    })
}



/// How far ahead of the chunk being computed the inputs are prefetched (elements: four chunks). The
/// hardware's own prefetchers left the first pass of each chunk waiting on memory: a 16M-element
/// `x * y + z` took 10.9-11.1 ms without, 9.6-9.8 ms with (BENCHMARKS.md, CPU session 17).
const PREFETCH_AHEAD: usize = 4 * CHUNK;

/// Asks the processor to bring `s` into its caches, one request per 64-byte line (nothing on other
/// architectures than x86-64).
#[inline(always)]
pub(crate) fn prefetch<T>(s: &[T]) {
    #[cfg(target_arch = "x86_64")]
    for line in (0..std::mem::size_of_val(s)).step_by(64) {
        // SAFETY: `line` is inside `s`; a prefetch reads nothing architecturally and cannot fault.
        unsafe { std::arch::x86_64::_mm_prefetch((s.as_ptr() as *const i8).add(line), std::arch::x86_64::_MM_HINT_T0) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = s;
}

/// Whether register programs and row reductions prefetch their inputs (`OXHLO_PREFETCH=0` turns it off).
pub(crate) fn prefetch_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| !std::env::var("OXHLO_PREFETCH").is_ok_and(|v| v.trim() == "0"))
}

/// Whether f32 arithmetic reads inputs in place (`elementwise_direct`): yes unless `OXHLO_DIRECT=0`.
fn direct_operands() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| !std::env::var("OXHLO_DIRECT").is_ok_and(|v| v.trim() == "0"))
}

/// The unary op of an op kind.
pub fn un_of(kind: OpKind) -> Option<Un> {
    use OpKind as K;
    Some(match kind {
        K::Abs => Un::Abs,
        K::Negate => Un::Neg,
        K::Sign => Un::Sign,
        K::Not => Un::Not,
        K::Popcnt => Un::Popcnt,
        K::CountLeadingZeros => Un::Clz,
        K::Sqrt => Un::Sqrt,
        K::Rsqrt => Un::Rsqrt,
        K::Cbrt => Un::Cbrt,
        K::Exponential => Un::Exp,
        K::ExponentialMinusOne => Un::Expm1,
        K::Log => Un::Log,
        K::LogPlusOne => Un::Log1p,
        K::Logistic => Un::Logistic,
        K::Sine => Un::Sin,
        K::Cosine => Un::Cos,
        K::Tan | K::ChloTan => Un::Tan,
        K::Tanh => Un::Tanh,
        K::Floor => Un::Floor,
        K::Ceil => Un::Ceil,
        K::RoundNearestAfz => Un::RoundAfz,
        K::RoundNearestEven => Un::RoundEven,
        K::IsFinite => Un::IsFinite,
        K::ChloAcos => Un::Acos,
        K::ChloAcosh => Un::Acosh,
        K::ChloAsin => Un::Asin,
        K::ChloAsinh => Un::Asinh,
        K::ChloAtan => Un::Atan,
        K::ChloAtanh => Un::Atanh,
        K::ChloCosh => Un::Cosh,
        K::ChloSinh => Un::Sinh,
        K::ChloSquare | K::Square => Un::Square,
        K::ChloErf => Un::Erf,
        K::ChloErfc => Un::Erfc,
        K::ChloErfInv => Un::ErfInv,
        K::ChloLgamma => Un::Lgamma,
        K::ChloDigamma => Un::Digamma,
        K::ChloBesselI1e => Un::BesselI1e,
        K::ChloIsInf => Un::IsInf,
        K::ChloIsNegInf => Un::IsNegInf,
        K::ChloIsPosInf => Un::IsPosInf,
        _ => return None,
    })
}

/// The binary op of an op kind.
pub fn bin_of(kind: OpKind) -> Option<Bin> {
    use OpKind as K;
    Some(match kind {
        K::Add => Bin::Add,
        K::Subtract => Bin::Sub,
        K::Multiply => Bin::Mul,
        K::Divide => Bin::Div,
        K::Remainder => Bin::Rem,
        K::Power => Bin::Pow,
        K::Maximum => Bin::Max,
        K::Minimum => Bin::Min,
        K::And => Bin::And,
        K::Or => Bin::Or,
        K::Xor => Bin::Xor,
        K::ShiftLeft => Bin::Shl,
        K::ShiftRightArithmetic => Bin::ShrA,
        K::ShiftRightLogical => Bin::ShrL,
        K::Atan2 => Bin::Atan2,
        K::ChloNextAfter => Bin::NextAfter,
        K::ChloPolygamma => Bin::Polygamma,
        K::ChloZeta => Bin::Zeta,
        _ => return None,
    })
}

/// How a load instruction selects input elements.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Src {
    Range,
    Scalar,
    /// Broadcast: output dims and, per output dim, the source stride (0 where broadcast).
    Map { dims: Vec<usize>, strides: Vec<usize> },
}

#[derive(Clone, Debug)]
pub(super) enum Inst {
    Load { dst: usize, input: usize, src: Src },
    Un { dst: usize, a: usize, op: Un },
    Bin { dst: usize, a: usize, b: usize, op: Bin },
    /// An f32 op whose operands may be inputs read in place (`elementwise_direct`).
    BinF32 { dst: usize, a: Operand, b: Operand, op: Bin },
    Cmp { dst: usize, a: usize, b: usize, dir: Dir, ty: Option<CmpTy> },
    Select { dst: usize, p: usize, t: usize, f: usize },
    Clamp { dst: usize, lo: usize, x: usize, hi: usize },
    Convert { dst: usize, a: usize, to: Lane },
}

impl Inst {
    fn dst(&self) -> usize {
        match *self {
            Inst::Load { dst, .. }
            | Inst::Un { dst, .. }
            | Inst::Bin { dst, .. }
            | Inst::BinF32 { dst, .. }
            | Inst::Cmp { dst, .. }
            | Inst::Select { dst, .. }
            | Inst::Clamp { dst, .. }
            | Inst::Convert { dst, .. } => dst,
        }
    }

    pub(super) fn reads(&self) -> Vec<usize> {
        match *self {
            Inst::Load { .. } => vec![],
            Inst::BinF32 { ref a, ref b, .. } => [a, b].into_iter().filter_map(|o| if let Operand::Reg(r) = o { Some(*r) } else { None }).collect(),
            Inst::Un { a, .. } | Inst::Convert { a, .. } => vec![a],
            Inst::Bin { a, b, .. } | Inst::Cmp { a, b, .. } => vec![a, b],
            Inst::Select { p, t, f, .. } => vec![p, t, f],
            Inst::Clamp { lo, x, hi, .. } => vec![lo, x, hi],
        }
    }

    fn rename(&mut self, m: &[usize]) {
        match self {
            Inst::Load { dst, .. } => *dst = m[*dst],
            Inst::BinF32 { dst, a, b, .. } => {
                *dst = m[*dst];
                for o in [a, b] {
                    if let Operand::Reg(r) = o {
                        *r = m[*r];
                    }
                }
            }
            Inst::Un { dst, a, .. } | Inst::Convert { dst, a, .. } => (*dst, *a) = (m[*dst], m[*a]),
            Inst::Bin { dst, a, b, .. } | Inst::Cmp { dst, a, b, .. } => (*dst, *a, *b) = (m[*dst], m[*a], m[*b]),
            Inst::Select { dst, p, t, f } => (*dst, *p, *t, *f) = (m[*dst], m[*p], m[*t], m[*f]),
            Inst::Clamp { dst, lo, x, hi } => (*dst, *lo, *x, *hi) = (m[*dst], m[*lo], m[*x], m[*hi]),
        }
    }
}

/// A compiled elementwise program over one iteration space of `len` elements.
#[derive(Debug)]
pub struct Program {
    insts: Vec<Inst>,
    /// Lane of each (physical) register.
    lanes: Vec<Lane>,
    /// Per instruction: the lane its operands are in.
    op_lanes: Vec<Lane>,
    /// Results: register, kind and tensor type.
    outputs: Vec<(usize, Kind, TensorType)>,
    len: usize,
}

fn static_tensor(func: &Func, v: Value) -> Option<&TensorType> {
    match func.try_ty(v)? {
        Type::Tensor(t) if t.is_static() && t.encoding.is_none() => Some(t),
        _ => None,
    }
}

fn lane_of(t: &TensorType) -> Option<(Lane, Kind)> {
    let k = Kind::of(&t.elem)?;
    Some((Lane::of(k)?, k))
}

/// Elements of an input as its type says: a template tensor standing for data that comes later (a
/// row kernel's slab values) may hold less, and compiling never reads the data.
fn elements(t: &NTensor) -> usize {
    t.ty.num_elements().unwrap_or_else(|| t.len())
}

/// Builder state: virtual registers (one per value / load).
struct Builder<'a> {
    func: &'a Func,
    shape: Vec<i64>,
    len: usize,
    inputs: &'a [Value],
    input_tensors: &'a [&'a NTensor],
    /// Inputs known to be splat constants (read as scalars).
    splat: &'a [bool],
    insts: Vec<Inst>,
    lanes: Vec<Lane>,
    op_lanes: Vec<Lane>,
    regs: HashMap<Value, usize>,
    loads: HashMap<(usize, bool), usize>,
}

impl Builder<'_> {
    fn push(&mut self, inst: Inst, lane: Lane, operand_lane: Lane) -> usize {
        self.insts.push(inst);
        self.op_lanes.push(operand_lane);
        self.lanes.push(lane);
        self.lanes.len() - 1
    }

    fn new_reg(&mut self, lane: Lane) -> usize {
        self.lanes.push(lane);
        self.lanes.len() - 1
    }

    /// The register holding `v` (an in-program value, or an input loaded directly / as a scalar).
    fn reg(&mut self, v: Value) -> Option<(usize, Lane)> {
        if let Some(&r) = self.regs.get(&v) {
            return Some((r, self.lanes[r]));
        }
        let i = self.inputs.iter().position(|&x| x == v)?;
        let t = self.input_tensors.get(i)?;
        let (lane, kind) = lane_of(&t.ty)?;
        if kind != t.kind() {
            return None;
        }
        let scalar = self.splat.get(i).copied().unwrap_or(false) || (elements(t) == 1 && self.len != 1);
        if !scalar && elements(t) != self.len {
            return None;
        }
        if let Some(&r) = self.loads.get(&(i, scalar)) {
            return Some((r, lane));
        }
        let dst = self.new_reg(lane);
        self.insts.push(Inst::Load { dst, input: i, src: if scalar { Src::Scalar } else { Src::Range } });
        self.op_lanes.push(lane);
        self.loads.insert((i, scalar), dst);
        Some((dst, lane))
    }

    fn add_op(&mut self, op: &Op) -> Option<()> {
        let class = ew_class(op.kind)?;
        let [res] = op.results.as_slice() else { return None };
        let rt = static_tensor(self.func, *res)?;
        if rt.num_elements()? != self.len {
            return None;
        }
        let (rlane, _) = lane_of(rt)?;
        let dst = match class {
            EwClass::Unary => {
                let (a, la) = self.reg(*op.operands.first()?)?;
                let un = un_of(op.kind)?;
                let pred = matches!(un, Un::IsFinite | Un::IsInf | Un::IsNegInf | Un::IsPosInf);
                if (rlane != la && !pred) || (pred && rlane != Lane::Bool) {
                    return None;
                }
                self.push(Inst::Un { dst: usize::MAX, a, op: un }, rlane, la)
            }
            EwClass::Binary => {
                let [x, y] = op.operands.as_slice() else { return None };
                let (a, la) = self.reg(*x)?;
                let (b, lb) = self.reg(*y)?;
                if la != lb || rlane != la {
                    return None;
                }
                self.push(Inst::Bin { dst: usize::MAX, a, b, op: bin_of(op.kind)? }, rlane, la)
            }
            EwClass::Compare => {
                let [x, y] = op.operands.as_slice() else { return None };
                let (a, la) = self.reg(*x)?;
                let (b, lb) = self.reg(*y)?;
                if la != lb || rlane != Lane::Bool {
                    return None;
                }
                let (dir, ty) = op.comparison().ok()?;
                self.push(Inst::Cmp { dst: usize::MAX, a, b, dir, ty }, Lane::Bool, la)
            }
            EwClass::Select => {
                let [p, t, f] = op.operands.as_slice() else { return None };
                let (p, lp) = self.reg(*p)?;
                let (t, lt) = self.reg(*t)?;
                let (f, lf) = self.reg(*f)?;
                if lp != Lane::Bool || lt != lf || rlane != lt {
                    return None;
                }
                self.push(Inst::Select { dst: usize::MAX, p, t, f }, rlane, lt)
            }
            EwClass::Clamp => {
                let [lo, x, hi] = op.operands.as_slice() else { return None };
                let (lo, l1) = self.reg(*lo)?;
                let (x, l2) = self.reg(*x)?;
                let (hi, l3) = self.reg(*hi)?;
                if l1 != l2 || l2 != l3 || rlane != l2 {
                    return None;
                }
                self.push(Inst::Clamp { dst: usize::MAX, lo, x, hi }, rlane, l2)
            }
            EwClass::Convert => {
                let (a, la) = self.reg(*op.operands.first()?)?;
                self.push(Inst::Convert { dst: usize::MAX, a, to: rlane }, rlane, la)
            }
            EwClass::Broadcast => return self.add_broadcast(op, rt, rlane),
        };
        let n = self.insts.len() - 1;
        set_dst(&mut self.insts[n], dst);
        self.regs.insert(*res, dst);
        Some(())
    }

    fn add_broadcast(&mut self, op: &Op, rt: &TensorType, rlane: Lane) -> Option<()> {
        let src = *op.operands.first()?;
        let res = op.results[0];
        if rt.shape != self.shape {
            return None;
        }
        if let Some(&r) = self.regs.get(&src) {
            // Identity broadcast of an in-program value (fusion admits only the identity map then).
            let st = static_tensor(self.func, src)?;
            if st.shape != rt.shape {
                return None;
            }
            self.regs.insert(res, r);
            return Some(());
        }
        let i = self.inputs.iter().position(|&x| x == src)?;
        let t = self.input_tensors.get(i)?;
        let (lane, kind) = lane_of(&t.ty)?;
        if lane != rlane || kind != t.kind() {
            return None;
        }
        let dims = op.attr("broadcast_dimensions")?.as_i64_list()?;
        let sdims = t.dims();
        if dims.len() != sdims.len() {
            return None;
        }
        let odims: Vec<usize> = rt.shape.iter().map(|&d| d.max(0) as usize).collect();
        let mut strides = vec![0usize; odims.len()];
        let mut s = 1usize;
        for k in (0..sdims.len()).rev() {
            let d = usize::try_from(dims[k]).ok().filter(|&d| d < odims.len())?;
            if sdims[k] != 1 {
                if sdims[k] != odims[d] {
                    return None;
                }
                strides[d] += s;
            }
            s *= sdims[k];
        }
        let src_sel = if elements(t) == 1 {
            Src::Scalar
        } else if strides.iter().enumerate().all(|(d, &st)| st == odims[d + 1..].iter().product::<usize>())
            && elements(t) == self.len
        {
            Src::Range
        } else {
            Src::Map { dims: odims, strides }
        };
        let dst = self.new_reg(lane);
        self.insts.push(Inst::Load { dst, input: i, src: src_sel });
        self.op_lanes.push(lane);
        self.regs.insert(res, dst);
        Some(())
    }
}

fn set_dst(inst: &mut Inst, d: usize) {
    match inst {
        Inst::Load { dst, .. }
        | Inst::Un { dst, .. }
        | Inst::Bin { dst, .. }
        | Inst::BinF32 { dst, .. }
        | Inst::Cmp { dst, .. }
        | Inst::Select { dst, .. }
        | Inst::Clamp { dst, .. }
        | Inst::Convert { dst, .. } => *dst = d,
    }
}

impl Program {
    /// Compiles `ops` (in order) over the iteration space `shape`, reading `inputs` (with their tensors;
    /// `splat[i]` marks inputs to read as a repeated element 0) and producing `outputs`. None when some op
    /// or element type is not handled natively.
    pub fn compile(
        func: &Func,
        ops: &[&Op],
        shape: &[i64],
        inputs: &[Value],
        input_tensors: &[&NTensor],
        splat: &[bool],
        outputs: &[Value],
    ) -> Option<Program> {
        let len = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(usize::try_from(d).ok()?))?;
        let mut b = Builder {
            func,
            shape: shape.to_vec(),
            len,
            inputs,
            input_tensors,
            splat,
            insts: Vec::new(),
            lanes: Vec::new(),
            op_lanes: Vec::new(),
            regs: HashMap::new(),
            loads: HashMap::new(),
        };
        for op in ops {
            b.add_op(op)?;
        }
        let mut outs = Vec::new();
        for &v in outputs {
            let (r, _) = b.reg(v)?;
            let t = static_tensor(func, v)?;
            if t.shape != shape {
                return None;
            }
            let (_, kind) = lane_of(t)?;
            let mut ty = t.clone();
            ty.encoding = None;
            outs.push((r, kind, ty));
        }
        let (mut insts, mut op_lanes) = (b.insts, b.op_lanes);
        if direct_operands() {
            let out_regs: Vec<usize> = outs.iter().map(|o| o.0).collect();
            fold_loads(&mut insts, &mut op_lanes, &out_regs, input_tensors);
        }
        Some(Program::allocate(insts, b.lanes, op_lanes, outs, len))
    }

    /// Maps virtual registers to physical ones, reusing a register of the same class once its value is
    /// dead (outputs stay live), so a chunk's working set stays small.
    fn allocate(
        mut insts: Vec<Inst>,
        vlanes: Vec<Lane>,
        op_lanes: Vec<Lane>,
        mut outs: Vec<(usize, Kind, TensorType)>,
        len: usize,
    ) -> Program {
        let nv = vlanes.len();
        let mut last = vec![usize::MAX; nv];
        for (i, inst) in insts.iter().enumerate() {
            for r in inst.reads() {
                last[r] = i;
            }
        }
        for (r, _, _) in &outs {
            last[*r] = usize::MAX - 1;
        }
        let mut map = vec![usize::MAX; nv];
        let mut lanes: Vec<Lane> = Vec::new();
        let mut free: Vec<usize> = Vec::new();
        for (i, inst) in insts.iter().enumerate() {
            let d = inst.dst();
            if map[d] == usize::MAX {
                let lane = vlanes[d];
                let pos = free.iter().position(|&p| lanes[p].class() == lane.class());
                map[d] = match pos {
                    Some(k) => {
                        let p = free.swap_remove(k);
                        lanes[p] = lane;
                        p
                    }
                    None => {
                        lanes.push(lane);
                        lanes.len() - 1
                    }
                };
            }
            // A value never read (and not an output) dies right away.
            let mut dead: Vec<usize> = inst.reads().into_iter().filter(|&r| last[r] == i).collect();
            if last[d] == usize::MAX {
                dead.push(d);
            }
            dead.sort_unstable();
            dead.dedup();
            for r in dead {
                free.push(map[r]);
            }
        }
        for inst in &mut insts {
            inst.rename(&map);
        }
        for o in &mut outs {
            o.0 = map[o.0];
        }
        Program { insts, lanes, op_lanes, outputs: outs, len }
    }

    /// Number of elements of the iteration space.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Runs the program on `inputs` (the tensors compile saw, same order) with up to `threads` workers.
    pub fn run(&self, inputs: &[&NTensor], threads: usize) -> Result<Vec<NTensor>, String> {
        let (bufs, _) = self.drive(inputs, threads, self.outputs.len(), None)?;
        Ok(bufs.into_iter().zip(&self.outputs).map(|(b, (_, _, ty))| NTensor::new(ty.clone(), b)).collect())
    }

    /// Runs the program with its last output reduced as `view` says instead of stored (an f32 value):
    /// the other outputs, and the reduction's `outer x inner` results with `init` combined in.
    pub fn run_reduce(
        &self,
        inputs: &[&NTensor],
        threads: usize,
        view: RedView,
        init: f32,
    ) -> Result<(Vec<NTensor>, Vec<f32>), String> {
        if view.outer.saturating_mul(view.n).saturating_mul(view.inner) != self.len || self.outputs.is_empty() {
            return Err("reduction view does not match the kernel's iteration space".into());
        }
        let stored = self.outputs.len() - 1;
        let (bufs, parts) = self.drive(inputs, threads, stored, Some(view))?;
        let outs = bufs.into_iter().zip(&self.outputs).map(|(b, (_, _, ty))| NTensor::new(ty.clone(), b)).collect();
        Ok((outs, fused_reduce::combine(&view, init, &parts)))
    }

    /// Evaluates the whole iteration space over worker threads, storing the first `stored` outputs and
    /// folding the last one into per-worker partials when `red` is given (worker ranges then end on
    /// multiples of the reduction's inner size).
    fn drive(
        &self,
        inputs: &[&NTensor],
        threads: usize,
        stored: usize,
        red: Option<RedView>,
    ) -> Result<(Vec<Buf>, Vec<Partial>), String> {
        let work = self.len.saturating_mul(self.insts.len().max(1));
        let workers = if work >= PAR_MIN_WORK { threads.clamp(1, 64) } else { 1 };
        // Outputs are left uninitialized: every element is stored by exactly one part below.
        let mut bufs: Vec<Buf> = self.outputs[..stored].iter().map(|(_, k, _)| Buf::with_capacity(*k, self.len)).collect();
        for b in &bufs {
            let (addr, bytes) = b.capacity_range();
            crate::alloc::advise_huge_pages(addr, bytes);
        }
        let mut partials = Vec::new();
        {
            let mut slices: Vec<OutSlice> =
                bufs.iter_mut().map(|b| OutSlice::of_spare(b, self.len)).collect::<Option<_>>().ok_or("complex output")?;
            // Several parts per worker, taken dynamically: a worker held up (a busy core) does not make
            // the others wait, as a static split would.
            let parts_wanted = if workers <= 1 { 1 } else { (workers * PARTS_PER_WORKER).min(self.len.div_ceil(PART_MIN)).max(1) };
            let chunk = self.chunk();
            let mut per = self.len.div_ceil(chunk).div_ceil(parts_wanted).max(1) * chunk;
            if let Some(v) = &red {
                per = per.div_ceil(v.inner.max(1)) * v.inner.max(1);
            }
            // Part ranges and their output windows.
            let mut parts: Vec<(usize, usize, Vec<OutSlice>)> = Vec::new();
            let mut lo = 0;
            loop {
                let hi = (lo + per).min(self.len);
                let mut mine = Vec::new();
                let mut rest = Vec::new();
                for s in slices {
                    let (a, b) = s.split_at(hi - lo);
                    mine.push(a);
                    rest.push(b);
                }
                parts.push((lo, hi, mine));
                slices = rest;
                lo = hi;
                if lo >= self.len {
                    break;
                }
            }
            let job = |(lo, hi, mut sl): (usize, usize, Vec<OutSlice>)| -> Result<Option<Partial>, String> {
                let mut partial = red.as_ref().map(|v| Partial::new(v, lo, hi));
                let sink = red.as_ref().zip(partial.as_mut());
                self.run_range(inputs, lo, hi - lo, &mut sl, sink)?;
                Ok(partial)
            };
            let results: Vec<Result<Option<Partial>, String>> = if parts.len() <= 1 {
                parts.into_iter().map(job).collect()
            } else {
                use rayon::prelude::*;
                parts.into_par_iter().map(job).collect()
            };
            for r in results {
                partials.extend(r?);
            }
        }
        for b in &mut bufs {
            // SAFETY: the parts cover 0..len and each stored every element of its window of every
            // output (an error in any part returned above, dropping the buffers unread).
            unsafe { b.set_len(self.len) };
        }
        Ok((bufs, partials))
    }

    /// Elements per chunk: [`INT_CHUNK`] when no register holds floats, else [`CHUNK`].
    fn chunk(&self) -> usize {
        if self.lanes.iter().any(|l| matches!(l, Lane::F32(_) | Lane::F64)) {
            CHUNK
        } else {
            INT_CHUNK
        }
    }

    /// Evaluates elements `lo .. lo + count` into `out` (windows starting at `lo`) and folds the last
    /// output into `sink` when given, with AVX-512 or AVX2 code when the processor has it.
    pub(crate) fn run_range(
        &self,
        inputs: &[&NTensor],
        lo: usize,
        count: usize,
        out: &mut [OutSlice],
        sink: Option<(&RedView, &mut Partial)>,
    ) -> Result<(), String> {
        self.run_range_shifted(inputs, &[], lo, count, out, sink)
    }

    /// [`Program::run_range`] where input `i` holds only the elements from `shifts[i]` on (a window
    /// of the iteration space, such as a row kernel's slab; inputs past the end of `shifts` hold all):
    /// element `e` of such an input is at `e - shifts[i]`. A shifted input must be read as a range.
    pub(crate) fn run_range_shifted(
        &self,
        inputs: &[&NTensor],
        shifts: &[usize],
        lo: usize,
        count: usize,
        out: &mut [OutSlice],
        sink: Option<(&RedView, &mut Partial)>,
    ) -> Result<(), String> {
        let inputs = Inputs { tensors: inputs, shifts };
        #[cfg(target_arch = "x86_64")]
        if avx512() {
            // SAFETY: the processor supports these AVX-512 subsets, AVX2 and FMA (checked by `avx512`),
            // the only requirement of calling a `target_feature` function. Same code as below, for
            // 16-wide vectors: results are identical.
            return unsafe { self.run_range_avx512(inputs, lo, count, out, sink) };
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: the processor supports AVX2 and FMA (checked just above), the only requirement of
            // calling a `target_feature` function. The code is the same as the portable path's (no
            // contraction into FMA happens), compiled for wider vectors, so results are identical.
            return unsafe { self.run_range_avx2(inputs, lo, count, out, sink) };
        }
        self.run_range_portable(inputs, lo, count, out, sink)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq,avx2,fma")]
    fn run_range_avx512(
        &self,
        inputs: Inputs,
        lo: usize,
        count: usize,
        out: &mut [OutSlice],
        sink: Option<(&RedView, &mut Partial)>,
    ) -> Result<(), String> {
        self.run_range_portable(inputs, lo, count, out, sink)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn run_range_avx2(
        &self,
        inputs: Inputs,
        lo: usize,
        count: usize,
        out: &mut [OutSlice],
        sink: Option<(&RedView, &mut Partial)>,
    ) -> Result<(), String> {
        self.run_range_portable(inputs, lo, count, out, sink)
    }

    #[inline(always)]
    fn run_range_portable(
        &self,
        inputs: Inputs,
        lo: usize,
        count: usize,
        out: &mut [OutSlice],
        mut sink: Option<(&RedView, &mut Partial)>,
    ) -> Result<(), String> {
        let chunk = self.chunk();
        let mut regs: Vec<Reg> = self.lanes.iter().map(|l| l.reg(chunk.min(count.max(1)))).collect();
        let mut idx: Vec<usize> = Vec::with_capacity(chunk);
        let mut scratch: [Scratch; 2] = Default::default();
        let sink_reg = self.outputs.last().map(|o| o.0);
        let mut off = 0;
        let prefetch = prefetch_on();
        while off < count {
            let n = chunk.min(count - off);
            let base = lo + off;
            if prefetch {
                inputs.prefetch(base + PREFETCH_AHEAD, n);
            }
            for (inst, &ol) in self.insts.iter().zip(&self.op_lanes) {
                let d = inst.dst();
                let mut dr = std::mem::take(&mut regs[d]);
                let r = match inst {
                    Inst::BinF32 { a, b, op, .. } => exec_bin(*op, a, b, &regs, &mut dr, inputs, base, n, &mut scratch),
                    _ => exec(inst, ol, &regs, &mut dr, inputs, base, n, &mut idx),
                };
                regs[d] = dr;
                r?;
            }
            for ((r, _, _), o) in self.outputs.iter().zip(out.iter_mut()) {
                eo::store(&regs[*r], o, off, n)?;
            }
            if let (Some((view, partial)), Some(r)) = (sink.as_mut(), sink_reg) {
                match &regs[r] {
                    Reg::F32(v) => partial.fold(view, base, &v[..n]),
                    _ => return Err("a fused reduction of a non-f32 value".into()),
                }
            }
            off += n;
        }
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn exec(
    inst: &Inst,
    lane: Lane,
    regs: &[Reg],
    d: &mut Reg,
    inputs: Inputs,
    base: usize,
    n: usize,
    idx: &mut Vec<usize>,
) -> Result<(), String> {
    match inst {
        Inst::Load { input, src, .. } => {
            let t = inputs.tensors.get(*input).ok_or("missing kernel input")?;
            eo::load(&t.buf, inputs.select(*input, src, base, n, idx)?, n, d)
        }
        Inst::Un { a, op, .. } => eo::unary(*op, lane, &regs[*a], d, n),
        Inst::Bin { a, b, op, .. } => eo::binary(*op, lane, &regs[*a], &regs[*b], d, n),
        Inst::BinF32 { .. } => Err("a direct-operand op outside its runner".into()),
        Inst::Cmp { a, b, dir, ty, .. } => eo::compare(*dir, *ty, lane, &regs[*a], &regs[*b], d, n),
        Inst::Select { p, t, f, .. } => eo::select(&regs[*p], &regs[*t], &regs[*f], d, n),
        Inst::Clamp { lo, x, hi, .. } => eo::clamp(&regs[*lo], &regs[*x], &regs[*hi], d, n),
        Inst::Convert { a, to, .. } => eo::convert(lane, *to, &regs[*a], d, n),
    }
}

/// A program's inputs as a run reads them: the tensors and, per input, the element its storage starts
/// at (see [`Program::run_range_shifted`]).
#[derive(Clone, Copy)]
pub(super) struct Inputs<'a> {
    pub(super) tensors: &'a [&'a NTensor],
    shifts: &'a [usize],
}

impl Inputs<'_> {
    /// Asks the processor to bring elements `at .. at + n` of every f32 input (where it holds them) into
    /// its caches: while a chunk's passes compute, the next chunks' inputs arrive.
    #[inline(always)]
    fn prefetch(&self, at: usize, n: usize) {
        for (i, t) in self.tensors.iter().enumerate() {
            let Buf::F32(v) = &*t.buf else { continue };
            let Some(at) = at.checked_sub(self.shifts.get(i).copied().unwrap_or(0)) else { continue };
            if let Some(part) = v.get(at..at + n) {
                prefetch(part);
            }
        }
    }

    /// Which elements of input `input` (read as `src` says) the chunk of `n` elements at `base` reads.
    #[inline(always)]
    pub(super) fn select<'i>(&self, input: usize, src: &Src, base: usize, n: usize, idx: &'i mut Vec<usize>) -> Result<Sel<'i>, String> {
        let shift = self.shifts.get(input).copied().unwrap_or(0);
        Ok(match src {
            Src::Range => Sel::Range(base.checked_sub(shift).ok_or("an element before a shifted input's window")?),
            Src::Scalar => Sel::Repeat(0),
            Src::Map { .. } if shift > 0 => return Err("a shifted input read through a broadcast".into()),
            Src::Map { dims, strides } => map_selection(dims, strides, base, n, idx),
        })
    }
}

/// How to read output elements `lo .. lo + n` under a broadcast map: when they lie in one run of the
/// innermost dimension, a contiguous range (source stride 1) or one repeated element (stride 0, e.g. a row
/// statistic broadcast along the row), otherwise the gathered offsets (written to `idx`).
fn map_selection<'a>(dims: &[usize], strides: &[usize], lo: usize, n: usize, idx: &'a mut Vec<usize>) -> Sel<'a> {
    if let (Some(&inner), Some(&s_in)) = (dims.last(), strides.last()) {
        if !dims.contains(&0) && s_in <= 1 && lo % inner + n <= inner {
            let mut rem = lo;
            let mut off = 0usize;
            for (&d, &s) in dims.iter().zip(strides).rev() {
                off += (rem % d) * s;
                rem /= d;
            }
            return if s_in == 1 { Sel::Range(off) } else { Sel::Repeat(off) };
        }
    }
    gather_indices(dims, strides, lo, n, idx);
    Sel::Gather(idx)
}

/// Source offsets of output elements `lo .. lo + n` under a broadcast map.
fn gather_indices(dims: &[usize], strides: &[usize], lo: usize, n: usize, idx: &mut Vec<usize>) {
    idx.clear();
    let r = dims.len();
    if r == 0 || dims.contains(&0) {
        idx.resize(n, 0);
        return;
    }
    let mut pos = vec![0usize; r];
    let mut rem = lo;
    let mut off = 0usize;
    for d in (0..r).rev() {
        pos[d] = rem % dims[d];
        rem /= dims[d];
        off += pos[d] * strides[d];
    }
    let (inner, s_in) = (dims[r - 1], strides[r - 1]);
    while idx.len() < n {
        let run = (inner - pos[r - 1]).min(n - idx.len());
        idx.extend((0..run).map(|k| off + k * s_in));
        off += run * s_in;
        pos[r - 1] += run;
        if pos[r - 1] == inner {
            off -= inner * s_in;
            pos[r - 1] = 0;
            for d in (0..r - 1).rev() {
                pos[d] += 1;
                off += strides[d];
                if pos[d] < dims[d] {
                    break;
                }
                off -= dims[d] * strides[d];
                pos[d] = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every chunk's selection reads the same offsets as the plain gather, for row, column and scalar
    /// broadcasts and chunks that straddle rows.
    #[test]
    fn map_selection_matches_gathered_offsets() {
        let cases: [(&[usize], &[usize]); 4] =
            [(&[8, 16], &[1, 0]), (&[8, 16], &[0, 1]), (&[4, 3, 16], &[3, 1, 0]), (&[6, 5], &[5, 1])];
        for (dims, strides) in cases {
            let len: usize = dims.iter().product();
            for lo in 0..len {
                for n in 1..=(len - lo).min(20) {
                    let mut want = Vec::new();
                    gather_indices(dims, strides, lo, n, &mut want);
                    let mut idx = Vec::new();
                    let got: Vec<usize> = match map_selection(dims, strides, lo, n, &mut idx) {
                        Sel::Range(o) => (o..o + n).collect(),
                        Sel::Repeat(o) => vec![o; n],
                        Sel::Gather(ix) => ix.to_vec(),
                    };
                    assert_eq!(got, want, "dims {dims:?} strides {strides:?} lo {lo} n {n}");
                }
            }
        }
    }
}
