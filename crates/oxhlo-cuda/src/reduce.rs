//! Single-operand `reduce` with a recognized reducer (add, multiply, maximum, minimum, and, or: see
//! `oxhlo_plan::reducer`) on the GPU. The operand is viewed as `[outer, red, inner]` (reduced dims
//! contiguous; otherwise it is permuted first so that they come last) and reduced by one of two kernel
//! shapes:
//! - rows (`inner == 1`): a block per (row, part of the row), threads striding along the row, warp
//!   shuffles and shared memory to combine;
//! - columns (`inner > 1`): a block per (outer, 32 columns, part of `red`), eight row groups of a warp
//!   each walking their rows with reads coalesced across the warp, combined in shared memory; when
//!   `inner` is a multiple of 4 (`Shape::Cols4`), a block per (outer, up to [`cols4_tile`] columns, part) whose
//!   threads read 4 adjacent columns as one vector load.
//!
//! When there are too few rows or columns to fill the device, `red` is split into parts whose partial
//! results (in the accumulator type) a second pass combines. Accumulation is in a wide register type
//! (double for floats, 64-bit integers); the init value is combined last and the result rounded once to
//! the element type. Other reductions run on the host.
//!
//! Layout: this file holds the kinds of passes and launches ([`Shape`], [`Pass`], [`Launch`]) and
//! runs them ([`try_reduce`], [`reduce_view`], [`run_launches`]); `schedule.rs` decides from a
//! shape alone which launches reduce it (parts, clusters, folds, the knobs of those choices);
//! `source.rs` renders each pass as CUDA C.

use crate::device::{DTensor, Gpu, Memo};
use crate::dot::permute;
use crate::render::is_float;
use oxhlo_cpu::Kind;
use oxhlo_ir::{Func, Op, TensorType};
use oxhlo_plan::reducer::{reducer_kind, ReduceKind};

mod schedule;
mod source;
pub use schedule::*;
pub use source::*;

/// The kernel shapes of a reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `(long long outer, long long red, long long parts, const S* in0, const T* init, D* out0)`: a block
    /// per (row, part); `out0[row * parts + part]`. An unfused pass over elements reads rows of a multiple of 4
    /// elements 4 at a time.
    Rows,
    /// As `Rows`, a warp per (row, part): for parts of at most [`WARP_ROW_MAX`] elements
    /// ([`rows_shape`]). A kernel of its own, so that neither form's registers limit the other's
    /// occupancy.
    WarpRows,
    /// `(long long outer, long long red, long long inner, long long parts, const S* in0, const T* init,
    /// D* out0)`: a block per (part, row, 32 columns); `out0[(part * outer + row) * inner + column]`.
    Cols,
    /// As `Cols` for elements (not partials) when `inner` is a multiple of 4 ([`cols4_fits`]): a block
    /// per (part, row, group of up to [`cols4_tile`] columns) whose threads each read 4 adjacent columns
    /// as one vector load, `256 / (w / 4)` rows at a time for a group of `w` columns (threads past the
    /// last whole row or past `inner` idle). A batch-norm sum over 64 channels read 128 bytes per warp
    /// load as `Cols`, 1.3-1.7 TB/s on the H200.
    Cols4,
    /// As `Cols4` for column reductions of few column groups ([`narrow_cluster`]), its blocks in thread
    /// block clusters of [`narrow_cluster_parts`] consecutive parts of one (row, column group) (sm_90;
    /// below it a block takes the cluster's rows alone): the cluster's first block adds the blocks' column
    /// values from their shared memory and stores one partial (or the final values when `parts` is 1),
    /// so that `parts` counts partial rows, not blocks ([`Gpu::launch_reduce_cols4_clustered`]). Its
    /// loop loads [`narrow_unroll`] tiles behind one bounds check when it reduces elements alone.
    ClusterCols4,
}

/// What a rendered reduction pass reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pass {
    pub shape: Shape,
    /// Reads partial results in the accumulator type (a second pass) instead of elements.
    pub from_partials: bool,
    /// Writes partial results in the accumulator type instead of the final (init-combined, rounded)
    /// elements.
    pub to_partials: bool,
}

/// Runs a single-operand reduce on the GPU when its reducer and type are supported.
pub fn try_reduce(gpu: &Gpu, memo: &Memo, func: &Func, op: &Op, x: &DTensor, init: &DTensor, rty: &TensorType) -> Option<Result<DTensor, String>> {
    if op.operands.len() != 2 || op.results.len() != 1 || init.kind != x.kind || init.len != 1 {
        return None;
    }
    let rk = reducer_kind(func, op.regions.first()?)?;
    let dims: Vec<usize> = op.attr("dimensions")?.as_i64_list()?.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<_>>()?;
    let rank = x.ty.shape.len();
    if dims.iter().any(|&d| d >= rank) {
        return None;
    }
    // Every pass this reduction may need must render (kinds and reducers without one stay on the host).
    render_pass(x.kind, rk, Pass { shape: Shape::Rows, from_partials: false, to_partials: false })?;
    let (perm, (outer, red, inner)) = match contiguous_view(&x.ty.shape, &dims) {
        Some(v) => ((0..rank).collect::<Vec<_>>(), v),
        None => {
            let kept: Vec<usize> = (0..rank).filter(|d| !dims.contains(d)).collect();
            let mut r = dims.clone();
            r.sort_unstable();
            let p = |ix: &[usize]| ix.iter().map(|&d| x.ty.shape[d]).product::<i64>();
            (kept.iter().chain(&r).copied().collect(), (p(&kept), p(&r), 1))
        }
    };
    let n_out = outer * inner;
    if rty.num_elements() != Some(n_out as usize) || Kind::of(&rty.elem) != Some(x.kind) {
        return None;
    }
    Some((|| {
        let xp = permute(gpu, memo, op, 10, x, &perm)?;
        let out = reduce_view(gpu, memo, op, rk, &xp, init, outer, red, inner)?;
        Ok(Gpu::wrap(rty.clone(), x.kind, n_out as usize, out))
    })())
}

/// Reduces `x` viewed as `[outer, red, inner]` to `[outer, inner]` by the launches of [`launches`], or
/// the one of [`folded_launch`] (kernels and counters kept in `memo` as `op`'s).
#[allow(clippy::too_many_arguments)]
pub fn reduce_view(gpu: &Gpu, memo: &Memo, op: &Op, rk: ReduceKind, x: &DTensor, init: &DTensor, outer: i64, red: i64, inner: i64) -> Result<crate::device::DBuf, String> {
    let n_out = (outer * inner) as usize;
    let mut out = [gpu.alloc_raw(x.kind, n_out)?];
    if n_out == 0 {
        let [o] = out;
        return Ok(o);
    }
    if cluster_cols(outer, red, inner) && gpu.clusters() {
        if let Some(src) = memo.get(op, CLUSTER_TAG, || render_cluster_cols(x.kind, rk)) {
            gpu.launch_reduce_cols(&src, outer, red, inner, cluster_parts(), inner.min(cluster_tile()), 256, 1, &[&**x.buf, &**init.buf], &mut out)?;
            let [o] = out;
            return Ok(o);
        }
    }
    let folded = folded_launch(outer, red, inner).and_then(|l| memo.get(op, FOLD_TAG, || render_folded_launch(x.kind, rk, &l)).map(|src| (l, src)));
    if let Some((l, src)) = folded {
        let counts = if matches!(l.pass.shape, Shape::Cols4 | Shape::ClusterCols4) { outer * cols4_layout(inner).0 } else { outer };
        let count = memo.counter(gpu, op, FOLD_TAG, counts as usize)?;
        let [o] = out;
        let mut outs = [o, gpu.alloc_bytes((outer * inner * l.parts) as usize * 8)?];
        let ins = [&**x.buf, &**init.buf, &**count.buf];
        match l.pass.shape {
            Shape::Cols4 => gpu.launch_reduce_cols4(&src, l.outer, l.red, l.inner, l.parts, &ins, &mut outs)?,
            Shape::ClusterCols4 => launch(gpu, &src, &l, &ins, &mut outs)?,
            _ => gpu.launch_reduce_rows(&src, l.outer, l.red, l.parts, false, &ins, &mut outs)?,
        }
        let [o, _partials] = outs;
        return Ok(o);
    }
    run_launches(gpu, memo, op, x.kind, rk, &launches(outer, red, inner), &x.buf, init, &mut out)?;
    let [o] = out;
    Ok(o)
}

/// `op`'s memo tag of its folded pass ([`render_folded`]) and of that pass's counters.
const FOLD_TAG: u32 = 27;

/// `op`'s memo tag of its cluster pass ([`render_cluster_cols`]).
const CLUSTER_TAG: u32 = 28;

/// One launch of a reduction: its kernel variant and the `[outer, red, inner]` view and parts it runs
/// over (a pass over partial results reduces the parts of the pass before it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    pub pass: Pass,
    pub outer: i64,
    pub red: i64,
    pub inner: i64,
    pub parts: i64,
}

/// `op`'s memo tag for a pass variant (11..=26; the reduce operand's permute is 10).
fn pass_tag(p: Pass) -> u32 {
    let shape = match p.shape {
        Shape::Rows => 0,
        Shape::WarpRows => 1,
        Shape::Cols => 2,
        Shape::Cols4 => 3,
        // Tags 27 and 28 are taken (FOLD_TAG, CLUSTER_TAG).
        Shape::ClusterCols4 => return 40 + 2 * u32::from(p.from_partials) + u32::from(p.to_partials),
    };
    11 + 4 * shape + 2 * u32::from(p.from_partials) + u32::from(p.to_partials)
}

/// The one finishing launch that `m` merged reductions share ([`render_finish_multi`]), when their
/// `launches` are a first pass to partials and a single pass over them (the executor runs it, the kernel
/// listing lists it).
pub fn shared_finish(launches: &[Launch], m: usize) -> Option<Launch> {
    match launches {
        [first, fin] if m > 1 && first.pass.to_partials => Some(*fin),
        _ => None,
    }
}

/// Launches the pass over partials `l` ([`finish_cols_kernel`]) of `m` reductions at once (`m` > 1:
/// [`render_finish_multi`], `inputs` their partials then their init values, `outputs` their results).
pub fn launch_finish_multi(gpu: &Gpu, src: &crate::device::Kernel, l: &Launch, m: usize, inputs: &[&cudarc::driver::CudaSlice<u8>], outputs: &mut [crate::device::DBuf]) -> Result<(), String> {
    gpu.launch_reduce_cols(src, l.outer, l.red, l.inner, l.parts, FINISH_COLS, (FINISH_COLS * FINISH_LANES) as u32, m as u32, inputs, outputs)
}

/// Launches `src`, a kernel of `l`'s pass, as `l` says.
pub fn launch(gpu: &Gpu, src: &crate::device::Kernel, l: &Launch, inputs: &[&cudarc::driver::CudaSlice<u8>], outputs: &mut [crate::device::DBuf]) -> Result<(), String> {
    match l.pass.shape {
        Shape::Rows | Shape::WarpRows => gpu.launch_reduce_rows(src, l.outer, l.red, l.parts, l.pass.from_partials, inputs, outputs),
        Shape::Cols if l.pass.from_partials => launch_finish_multi(gpu, src, l, 1, inputs, outputs),
        Shape::Cols => gpu.launch_reduce_cols(src, l.outer, l.red, l.inner, l.parts, 32, (32 * COL_GROUPS) as u32, 1, inputs, outputs),
        Shape::Cols4 => gpu.launch_reduce_cols4(src, l.outer, l.red, l.inner, l.parts, inputs, outputs),
        Shape::ClusterCols4 => gpu.launch_reduce_cols4_clustered(src, l.outer, l.red, l.inner, l.parts, if gpu.clusters() { narrow_cluster_parts() } else { 1 }, inputs, outputs),
    }
}

/// Runs `launches` (of [`launches`]) with their kernels for elements of `kind`, the first reading
/// `input` (elements, or partial results when it is a pass over partials), the last writing `out`.
#[allow(clippy::too_many_arguments)]
pub fn run_launches(
    gpu: &Gpu,
    memo: &Memo,
    op: &Op,
    kind: Kind,
    rk: ReduceKind,
    launches: &[Launch],
    input: &cudarc::driver::CudaSlice<u8>,
    init: &DTensor,
    out: &mut [crate::device::DBuf; 1],
) -> Result<(), String> {
    let mut partials: Option<crate::device::DBuf> = None;
    for (j, l) in launches.iter().enumerate() {
        let src = memo.get(op, pass_tag(l.pass), || render_launch(kind, rk, l)).ok_or_else(|| format!("no reduction kernel for {kind:?}"))?;
        let from: &cudarc::driver::CudaSlice<u8> = partials.as_deref().unwrap_or(input);
        let mut next = if j + 1 == launches.len() { None } else { Some([gpu.alloc_bytes((l.outer * l.inner * l.parts) as usize * 8)?]) };
        let dst: &mut [crate::device::DBuf] = match &mut next {
            Some(n) => n,
            None => out,
        };
        launch(gpu, &src, l, &[from, &*init.buf], dst)?;
        if let Some([n]) = next {
            partials = Some(n);
        }
    }
    Ok(())
}
