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

use crate::device::{DTensor, Gpu, Memo};
use crate::dot::permute;
use crate::render::is_float;
use oxhlo_cpu::Kind;
use oxhlo_ir::{Func, Op, TensorType};
use oxhlo_plan::reducer::{reducer_kind, ReduceKind};


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

/// Columns of a `Cols4` block's group, at most (256 threads x 4; [`cols4_tile`] is the default).
pub const COLS4_TILE: i64 = 1024;

/// The widest column group of a `Cols4` block: 128 unless `OXHLO_CUDA_COLS4_TILE` says otherwise (a
/// power of two from 4 to [`COLS4_TILE`]; read once; a knob for measuring). With parts, a pass writes
/// about `blocks x tile` partials (8 bytes each) whatever `inner` is, so narrower groups write fewer of
/// them: a sum over the 4096 columns of a [4096, 4096] tensor wrote 4 MB of partials beside its 64 MB
/// of input in groups of 1024 (65% of the copy bandwidth on the H200; 71% in groups of 128), and 384
/// columns (nanoGPT's width) kept a quarter of a 1024-group block's threads idle. resnet18's kernels
/// 8.15 -> 8.08 ms a step (crates/oxhlo-cuda/NOTES.md, v13).
pub fn cols4_tile() -> i64 {
    static T: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    knob(&T, "OXHLO_CUDA_COLS4_TILE", |t: i64| (4..=COLS4_TILE).contains(&t) && t.count_ones() == 1, 128)
}

/// Whether a column reduction over `inner` columns has the vectorized shape `Cols4`.
pub fn cols4_fits(inner: i64) -> bool {
    inner >= 4 && inner % 4 == 0
}

/// The parts (partial rows) of a [`Shape::ClusterCols4`] first pass over `[outer, red, inner]`, or None
/// when the reduction keeps the `Cols4` shape: `inner` a multiple of 4 in at most [`NARROW_GROUPS`]
/// (row, column group)s, about [`NARROW_BLOCKS`] blocks, each at least [`cols4_min_tiles`] tiles of rows
/// long. On unless `OXHLO_CUDA_NARROW_CLUSTER=0` (read once). On the H200 a [262144, 64] f32 column sum
/// (ResNet-18's batch-norm shape, 64 MiB) took 25.3 us in 512 `Cols4` blocks and a pass over their 512
/// partials (63% of the copy bandwidth; the first pass alone 22.5 us: two tiles a thread in flight);
/// `examples/sum_lab`'s 32 clusters of 8 blocks, 8 or 16 tiles in flight, 20.1 us (80%).
pub fn narrow_cluster(outer: i64, red: i64, inner: i64) -> Option<i64> {
    static ON: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    if knob(&ON, "OXHLO_CUDA_NARROW_CLUSTER", |v| v <= 1, 1) == 0 || !cols4_fits(inner) {
        return None;
    }
    let (groups, tile_rows) = cols4_layout(inner);
    let per = outer.max(1).saturating_mul(groups);
    if per > NARROW_GROUPS {
        return None;
    }
    let p = narrow_cluster_parts();
    let parts = (NARROW_BLOCKS / (per * p)).max(1).min(red / (p * cols4_min_tiles() * tile_rows));
    (parts >= 1).then_some(parts)
}

/// The most (row, column group)s of a [`Shape::ClusterCols4`] pass.
pub const NARROW_GROUPS: i64 = 8;

/// Blocks a [`Shape::ClusterCols4`] pass aims at: 256 (two an SM on an H200; `sum_lab`'s 128 and 512
/// were slower).
pub const NARROW_BLOCKS: i64 = 256;

/// Blocks of a [`Shape::ClusterCols4`] cluster: 8 unless `OXHLO_CUDA_NARROW_PARTS` says otherwise (1, 2,
/// 4 or 8; read once; a knob for measuring; 1 is no cluster).
pub fn narrow_cluster_parts() -> i64 {
    static P: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    knob(&P, "OXHLO_CUDA_NARROW_PARTS", |p: i64| matches!(p, 1 | 2 | 4 | 8), 8)
}

/// Tiles a [`Shape::ClusterCols4`] pass over elements alone loads behind one bounds check: 8 unless
/// `OXHLO_CUDA_NARROW_UNROLL` says otherwise (1 to 16; read once; a knob for measuring). Fused passes
/// (elementwise work and stores per element) keep [`cols4_unroll`]'s.
fn narrow_unroll() -> u32 {
    static U: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    knob(&U, "OXHLO_CUDA_NARROW_UNROLL", |u| (1..=16).contains(&u), 8)
}

/// Blocks of a [`Shape::ClusterCols4`] pass that must fit an SM at once (`__launch_bounds__`): 4 unless
/// `OXHLO_CUDA_NARROW_MIN_BLOCKS` says otherwise (1 to 8; read once; a knob for measuring). Fewer
/// registers keep fewer of the batched loads in flight (ptxas: 4 of 8 at 64 registers, 6 at 79, all 8
/// at 128); more let more clusters (8 blocks on the SMs of one GPC) run at once.
fn narrow_min_blocks() -> u32 {
    static B: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    knob(&B, "OXHLO_CUDA_NARROW_MIN_BLOCKS", |b| (1..=8).contains(&b), 4)
}

/// Blocks a `Cols4` pass aims at (rows x column groups x parts): 512 unless `OXHLO_CUDA_COLS4_BLOCKS`
/// says otherwise (read once; a knob for measuring).
fn cols4_target_blocks() -> i64 {
    static B: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    knob(&B, "OXHLO_CUDA_COLS4_BLOCKS", |b| b > 0, 512)
}

/// Blocks a `Rows` pass launches at most (each then takes several (row, part)s in turn): 2^20 unless
/// `OXHLO_CUDA_ROWS_BLOCKS` says otherwise (read once; a knob for measuring).
pub fn rows_max_blocks() -> i64 {
    static B: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    knob(&B, "OXHLO_CUDA_ROWS_BLOCKS", |b| b > 0, 1 << 20)
}

/// A kernel-shape setting read once from the environment variable `name` (a number `valid` accepts),
/// else `default`.
pub(crate) fn knob<T: std::str::FromStr + Copy + Send + Sync>(cell: &'static std::sync::OnceLock<T>, name: &str, valid: impl Fn(T) -> bool, default: T) -> T {
    *cell.get_or_init(|| std::env::var(name).ok().and_then(|v| v.trim().parse().ok()).filter(|&v| valid(v)).unwrap_or(default))
}

/// `(column groups, rows per tile)` of a `Cols4` pass over `inner` columns.
pub fn cols4_layout(inner: i64) -> (i64, i64) {
    let w = inner.min(cols4_tile());
    ((inner + w - 1) / w, 256 / (w / 4))
}

/// Parts of a `Cols4` pass: about `target` blocks, each part at least [`cols4_min_tiles`] tiles long.
fn cols4_parts(outer: i64, red: i64, inner: i64, target: i64) -> i64 {
    let (groups, tile_rows) = cols4_layout(inner);
    let per_part = outer.max(1).saturating_mul(groups);
    ((target + per_part - 1) / per_part).min(red / (cols4_min_tiles() * tile_rows)).max(1)
}

/// The fewest tiles a `Cols4` part folds: 4 unless `OXHLO_CUDA_COLS4_MIN_TILES` says otherwise (read
/// once; a knob for measuring). ResNet-18's smallest batch-norm sums ([256, 4, 4, 512]: 8 rows a part,
/// partials a quarter of the input) ran at 0.5-1 TB/s; longer parts mean fewer, smaller partials.
fn cols4_min_tiles() -> i64 {
    static T: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    knob(&T, "OXHLO_CUDA_COLS4_MIN_TILES", |t| (1..=256).contains(&t), 4)
}

/// The launches of a fused pass of `m` reductions over `[outer, red, inner]` (`plain`: one reduction of
/// a kernel input alone, [`is_plain`]) on a device of `sm_count` SMs: those of [`multi_launches`],
/// except that a `Cols4` pass of several reductions (bounded to
/// [`multi_min_blocks`] blocks an SM) gets as many blocks as fit the device at once when that keeps the
/// same passes (512 blocks were 1.3 waves of 396 on the H200: the second wave ran with most SMs idle).
pub fn fused_launches(outer: i64, red: i64, inner: i64, m: usize, plain: bool, sm_count: i64) -> Vec<Launch> {
    let listed = multi_launches(outer, red, inner, m, plain);
    let wave = sm_count * i64::from(multi_min_blocks());
    if m < 2 || wave <= 0 || listed[0].pass.shape != Shape::Cols4 || !multi_full_waves() {
        return listed;
    }
    let sized = launches_with(outer, red, inner, wave.min(FINISH_PARTS), false);
    let passes = |ls: &[Launch]| ls.iter().map(|l| l.pass).collect::<Vec<_>>();
    if passes(&sized) == passes(&listed) {
        sized
    } else {
        listed
    }
}

/// Whether passes of several reductions are sized to whole waves ([`fused_launches`]; resnet18 on the
/// H200, same job: 10.03 / 9.95 ms against 10.28 / 11.02 with 512 blocks): yes unless
/// `OXHLO_CUDA_MULTI_WAVES=0` (read once; a knob for measuring).
fn multi_full_waves() -> bool {
    static W: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    knob(&W, "OXHLO_CUDA_MULTI_WAVES", |w| w <= 1, 1) == 1
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

/// The accumulator's C type for elements of `kind`.
pub fn acc_type(kind: Kind) -> &'static str {
    let unsigned = matches!(kind, Kind::U8 | Kind::U16 | Kind::U32 | Kind::U64);
    if is_float(kind) {
        "double"
    } else if unsigned {
        "unsigned long long"
    } else {
        "long long"
    }
}

/// The CUDA C of one reduction pass over elements of `kind` with reducer `rk` (entry
/// [`crate::render::ENTRY`], parameters as [`Shape`] says). None for unsupported kinds and reducers.
pub fn render_pass(kind: Kind, rk: ReduceKind, pass: Pass) -> Option<String> {
    render_pass_with(kind, rk, pass, Finish::Launch, None)
}

/// [`render_pass`] for launch `l`: a [`Shape::ClusterCols4`] pass with its column count written in as a
/// constant when `OXHLO_CUDA_NARROW_CONST=1` ([`narrow_const`]).
pub fn render_launch(kind: Kind, rk: ReduceKind, l: &Launch) -> Option<String> {
    render_pass_with(kind, rk, l.pass, Finish::Launch, const_inner(l))
}

/// [`render_folded`] for launch `l` (as [`render_launch`]).
pub fn render_folded_launch(kind: Kind, rk: ReduceKind, l: &Launch) -> Option<String> {
    if !matches!(l.pass.shape, Shape::Rows | Shape::Cols4 | Shape::ClusterCols4) {
        return None;
    }
    render_pass_with(kind, rk, Pass { shape: l.pass.shape, from_partials: false, to_partials: true }, Finish::Fold, const_inner(l))
}

/// Whether [`Shape::ClusterCols4`] kernels are rendered for their launch's column count, a constant in
/// the source (one kernel per shape): off unless `OXHLO_CUDA_NARROW_CONST=1` (read once; an experiment
/// for the device, not yet measured). The lab's clustered sum, whose row stride is a constant, keeps
/// its 8 tiles' loads in flight at 63 registers through immediate offsets; the backend's, with the
/// stride a launch scalar, 4 of them at 64 (ptxas, session 22): 80% of the copy against 74-75%.
pub fn narrow_const() -> bool {
    static C: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    knob(&C, "OXHLO_CUDA_NARROW_CONST", |v| v <= 1, 0) == 1
}

/// The column count `l`'s kernel is rendered for ([`narrow_const`]), if any.
fn const_inner(l: &Launch) -> Option<i64> {
    (l.pass.shape == Shape::ClusterCols4 && !l.pass.from_partials && narrow_const()).then_some(l.inner)
}

/// How a first pass over elements ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Finish {
    /// As its `Pass` says (partials for a later launch, or final values).
    Launch,
    /// The last block to finish folds every block's partials ([`render_folded`]).
    Fold,
    /// The blocks of a thread block cluster combine their columns in shared memory
    /// ([`render_cluster_cols`]).
    Cluster,
}

/// The first pass of `shape` (`Rows` or `Cols4`) over elements of `kind` that also finishes the
/// reduction ([`folded_launch`]): each block writes its partial result, and the last block of a row (or
/// of a column group) to do so folds that row's (group's) partials in a fixed order into the final
/// values. Parameters: those of `shape`, then `(const S* in0, const S* init, unsigned int* count, S* out0,
/// A* oxh_part)`: `count` holds one zero per row (rows x column groups for `Cols4`), each set back to
/// zero by the block that folds; `oxh_part` takes the partials. One launch instead of two.
pub fn render_folded(kind: Kind, rk: ReduceKind, shape: Shape) -> Option<String> {
    if !matches!(shape, Shape::Rows | Shape::Cols4 | Shape::ClusterCols4) {
        return None;
    }
    render_pass_with(kind, rk, Pass { shape, from_partials: false, to_partials: true }, Finish::Fold, None)
}

/// The one pass of a column reduction over elements of `kind` whose parts are the [`cluster_parts`]
/// blocks of a thread block cluster (sm_90 and later; an empty kernel below that): each block folds its
/// part of the rows of up to [`cluster_tile`] columns in registers and shared memory, then the
/// cluster's first block combines the parts' column values from the others' shared memory in a fixed
/// order and stores the results. No partials in global memory, one launch ([`cluster_cols`] says
/// when). Parameters: those of `Cols`, then `(const S* in0, const S* init, S* out0)`; launched with
/// `outer x groups x cluster_parts()` blocks of 256 threads ([`Gpu::launch_reduce_cols`] with
/// `parts = cluster_parts()`, `cols_per_block = cluster_tile()`).
pub fn render_cluster_cols(kind: Kind, rk: ReduceKind) -> Option<String> {
    render_pass_with(kind, rk, Pass { shape: Shape::Cols4, from_partials: false, to_partials: false }, Finish::Cluster, None)
}

/// Blocks (parts of the reduced dim) of a [`render_cluster_cols`] cluster: 8 (the portable cluster
/// size) unless `OXHLO_CUDA_CLUSTER_PARTS` says otherwise (2, 4 or 8; read once; a knob for measuring:
/// sum_lab's 4-part pass unrolled by 16 timed 19.8 us against the backend's 20.2 in session 21).
pub fn cluster_parts() -> i64 {
    static P: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    knob(&P, "OXHLO_CUDA_CLUSTER_PARTS", |p: i64| matches!(p, 2 | 4 | 8), 8)
}

/// Columns a [`render_cluster_cols`] block reads (16 threads of 4 columns a row, 16 rows at a time):
/// 64 unless `OXHLO_CUDA_CLUSTER_TILE` says otherwise (32, 64 or 128; read once; a knob for
/// measuring). On the H200 the lab's cluster pass summed the columns of a [4096, 4096] f32 tensor in
/// 18.2 us in groups of 64 (88% of the copy bandwidth), 20.0 in groups of 128, 22.5-24.3 in groups of
/// 32 (`examples/sum_lab`, session 20; 19.8-21.8 for all of them in session 21's jobs); this one takes
/// 19.7-20.2 us (79-82%).
pub fn cluster_tile() -> i64 {
    static T: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    knob(&T, "OXHLO_CUDA_CLUSTER_TILE", |t: i64| matches!(t, 32 | 64 | 128), 64)
}

/// Whether [`cluster_cols`] may choose cluster passes at all: yes unless `OXHLO_CUDA_CLUSTER_COLS=0`
/// (read once).
pub fn cluster_cols_on() -> bool {
    static ON: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    knob(&ON, "OXHLO_CUDA_CLUSTER_COLS", |v| v <= 1, 1) == 1
}

/// Vectors a `Rows` pass thread loads behind one bounds check: 4 unless `OXHLO_CUDA_ROWS_BATCH` says
/// otherwise (1 to 8; read once; a knob for measuring).
fn rows_batch() -> usize {
    static B: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    knob(&B, "OXHLO_CUDA_ROWS_BATCH", |b| (1..=8).contains(&b), 4)
}

/// Threads of a `Rows` pass block when there are enough blocks to fill the device: 256 unless
/// `OXHLO_CUDA_ROWS_THREADS` says otherwise (a multiple of 32 from 64 to 1024; read once; a knob for
/// measuring).
pub fn rows_threads() -> i64 {
    static T: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    knob(&T, "OXHLO_CUDA_ROWS_THREADS", |t: i64| (64..=1024).contains(&t) && t % 32 == 0, 256)
}

/// Tiles a [`render_cluster_cols`] thread's loop is unrolled by: 16 unless `OXHLO_CUDA_CLUSTER_UNROLL`
/// says otherwise (read once; a knob for measuring). [4096, 4096] column sums on the H200 (`bench_gpu`,
/// session 22, two runs each): 81% of the copy bandwidth unrolled by 8, 85% by 16 (40 registers under
/// the launch bounds either way; by 8 ptxas spilled 8 bytes).
fn cluster_unroll() -> u32 {
    static U: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    knob(&U, "OXHLO_CUDA_CLUSTER_UNROLL", |u| (1..=16).contains(&u), 16)
}

/// Blocks of a [`render_cluster_cols`] pass that must fit an SM at once (`__launch_bounds__`, 40
/// registers a thread): a cluster's blocks are placed on the SMs of one GPC, and at four blocks an SM
/// (64 registers, unbounded) the 64 clusters of a [4096, 4096] sum did not all fit at once.
const CLUSTER_MIN_BLOCKS: u32 = 6;

/// Whether a column reduction over `[outer, red, inner]` runs as one [`render_cluster_cols`] pass:
/// `inner` a multiple of 4, a first pass that would otherwise write partials, each cluster part at
/// least two tiles of rows long, and at least 256 blocks (two an SM on an H200: fewer leave the
/// device underused, as nanoGPT's [4096, 384] bias-gradient sums would be). On unless
/// `OXHLO_CUDA_CLUSTER_COLS=0` (read once); the executor also requires an sm_90 device.
pub fn cluster_cols(outer: i64, red: i64, inner: i64) -> bool {
    if !cluster_cols_on() || !cols4_fits(inner) {
        return false;
    }
    let w = inner.min(cluster_tile());
    let (groups, tile_rows) = ((inner + w - 1) / w, 256 / (w / 4));
    let first = launches(outer, red, inner)[0];
    first.pass.shape == Shape::Cols4 && first.parts > 1 && red >= cluster_parts() * 2 * tile_rows && outer.saturating_mul(groups).saturating_mul(cluster_parts()) >= 256
}

/// The CUDA C of `pass` ending as `finish`; a [`Shape::ClusterCols4`] pass over `inner_const` columns
/// when given (a constant in the source).
fn render_pass_with(kind: Kind, rk: ReduceKind, pass: Pass, finish: Finish, inner_const: Option<i64>) -> Option<String> {
    let fold = finish == Finish::Fold;
    let st = crate::render::storage_type(kind)?;
    let unsigned = matches!(kind, Kind::U8 | Kind::U16 | Kind::U32 | Kind::U64);
    let acc = acc_type(kind);
    let load_elem = |p: &str, i: &str| match kind {
        Kind::F16 => format!("(double)oxh_f16_to_f({p}[{i}])"),
        Kind::BF16 => format!("(double)oxh_bf16_to_f({p}[{i}])"),
        Kind::Bool => format!("({acc})({p}[{i}] != 0)"),
        _ => format!("({acc})({p}[{i}])"),
    };
    let load_in = |i: &str| if pass.from_partials { format!("in0[{i}]") } else { load_elem("in0", i) };
    let store = |x: &str| match kind {
        Kind::F16 => format!("oxh_f_to_f16((float)({x}))"),
        Kind::BF16 => format!("oxh_f_to_bf16((float)({x}))"),
        Kind::Bool => format!("(unsigned char)(({x}) != 0)"),
        _ => format!("({st})({x})"),
    };
    let float = is_float(kind);
    let (ident, combine) = match (rk, float) {
        (ReduceKind::Add, _) => ("0", "(a + b)"),
        (ReduceKind::Mul, _) if kind == Kind::Bool => return None,
        (ReduceKind::Mul, _) => ("1", "(a * b)"),
        (ReduceKind::Max, true) => ("-OXH_INF", "oxh_max(a, b)"),
        (ReduceKind::Min, true) => ("OXH_INF", "oxh_min(a, b)"),
        (ReduceKind::Max, false) => (if unsigned { "0ULL" } else { "(-9223372036854775807LL - 1)" }, "(a > b ? a : b)"),
        (ReduceKind::Min, false) => (if unsigned { "0xffffffffffffffffULL" } else { "9223372036854775807LL" }, "(a < b ? a : b)"),
        (ReduceKind::And, false) => ("~0ULL", "(a & b)"),
        (ReduceKind::Or, false) => ("0", "(a | b)"),
        _ => return None,
    };
    // Integer add/mul wrap (through unsigned); bool add is or, as the interpreter's i1 arithmetic.
    let combine = match (rk, kind) {
        (ReduceKind::Add, Kind::Bool) => "(a | b)".to_string(),
        (ReduceKind::Add, _) if !float => format!("({acc})((unsigned long long)a + (unsigned long long)b)"),
        (ReduceKind::Mul, _) if !float => format!("({acc})((unsigned long long)a * (unsigned long long)b)"),
        _ => combine.to_string(),
    };
    let src_t = if pass.from_partials { acc } else { st };
    let dst_t = if pass.to_partials && !fold { acc } else { st };
    let final_store = |x: &str, at: &str| format!("{{ {acc} init_v = {}; out0[{at}] = {}; }}", load_elem("init", "0"), store(&format!("oxr(init_v, {x})")));
    let result = |x: &str, at: &str| {
        if fold {
            format!("oxh_part[{at}] = {x};")
        } else if pass.to_partials {
            format!("out0[{at}] = {x};")
        } else {
            final_store(x, at)
        }
    };
    let params = if fold {
        format!("const {st}* __restrict__ in0, const {st}* __restrict__ init, unsigned int* __restrict__ count, {st}* __restrict__ out0, {acc}* oxh_part")
    } else {
        format!("const {src_t}* __restrict__ in0, const {st}* __restrict__ init, {dst_t}* __restrict__ out0")
    };
    // The last block's fold of the partials it and the others wrote (`render_folded`). A column group's
    // blocks count themselves; the last to count runs `fold` and sets the count back to zero.
    let group_fold = |fold: String| {
        format!(
            "    __shared__ unsigned int oxh_arrived;
    __threadfence();
    __syncthreads();
    if (t == 0) oxh_arrived = atomicAdd(count + row * groups + g, 1u);
    __syncthreads();
    if (oxh_arrived + 1u == (unsigned int)parts) {{
      __threadfence();
{fold}      if (t == 0) count[row * groups + g] = 0u;
    }}
"
        )
    };
    let tail = if !fold {
        String::new()
    } else if pass.shape == Shape::ClusterCols4 {
        // The cluster's first block, once its partial row is stored: the last cluster of a (row, group)
        // to count folds the group's partial rows, `256 / w` threads a column each taking every
        // `256 / w`-th row into four accumulators, combined in a fixed order through `sh` (a column's
        // thread alone would chain `parts` dependent loads).
        group_fold(format!(
            "      const int kq = 256 / w, c = t % w, j = t / w;
      {acc} f0 = ({acc})({ident}), f1 = f0, f2 = f0, f3 = f0;
      if (j < kq && g * w + c < inner) {{
        const {acc}* const q = oxh_part + row * inner + g * w + c;
        const long long dq = outer * inner;
        long long p = j;
        for (; p + 3 * kq < parts; p += 4 * kq) {{
          f0 = oxr(f0, __ldcg(q + p * dq)); f1 = oxr(f1, __ldcg(q + (p + kq) * dq));
          f2 = oxr(f2, __ldcg(q + (p + 2 * kq) * dq)); f3 = oxr(f3, __ldcg(q + (p + 3 * kq) * dq));
        }}
        for (; p < parts; p += kq) f0 = oxr(f0, __ldcg(q + p * dq));
      }}
      {acc}* const flat = &sh[0][0][0];
      flat[t] = oxr(oxr(f0, f1), oxr(f2, f3));
      __syncthreads();
      if (t < w && g * w + t < inner) {{
        {acc} f = flat[t];
        for (int jj = 1; jj < kq; ++jj) f = oxr(f, flat[jj * w + t]);
        {}
      }}
",
            final_store("f", "row * inner + g * w + t")
        ))
    } else if pass.shape == Shape::Cols4 {
        group_fold(format!(
            "      for (int c = t; c < w && g * w + c < inner; c += 256) {{
        {acc} f = ({acc})({ident});
        #pragma unroll 4
        for (long long p = 0; p < parts; ++p) f = oxr(f, __ldcg(oxh_part + (p * outer + row) * inner + g * w + c));
        {}
      }}
",
            final_store("f", "row * inner + g * w + c")
        ))
    } else {
        format!(
            "    __shared__ unsigned int oxh_arrived;
    if (threadIdx.x == 0) {{ {arrive} }}
    __syncthreads();
    if (oxh_arrived + 1u == (unsigned int)parts) {{
      {acquire}
      {acc} f = ({acc})({ident});
      // Four partials a thread behind one bounds check (their loads in flight together).
      {{
        const {acc}* const q = oxh_part + row * parts;
        const long long n = blockDim.x;
        long long p = threadIdx.x;
        for (; p + 3 * n < parts; p += 4 * n) {{
          const {acc} v0 = __ldcg(q + p), v1 = __ldcg(q + p + n), v2 = __ldcg(q + p + 2 * n), v3 = __ldcg(q + p + 3 * n);
          f = oxr(f, oxr(oxr(v0, v1), oxr(v2, v3)));
        }}
        for (; p < parts; p += n) f = oxr(f, __ldcg(q + p));
      }}
      for (int o = 16; o > 0; o >>= 1) f = oxr(f, __shfl_down_sync(0xffffffffu, f, o));
      if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = f;
      __syncthreads();
      if (threadIdx.x < 32) {{
        f = (threadIdx.x < (blockDim.x >> 5)) ? sh[threadIdx.x] : ({acc})({ident});
        for (int o = 16; o > 0; o >>= 1) f = oxr(f, __shfl_down_sync(0xffffffffu, f, o));
        if (threadIdx.x == 0) {{ {} count[row] = 0u; }}
      }}
    }}
    __syncthreads();
",
            final_store("f", "row"),
            arrive = if fold_release() {
                "\n#if __CUDA_ARCH__ >= 700\n      asm volatile(\"atom.add.acq_rel.gpu.u32 %0, [%1], 1;\" : \"=r\"(oxh_arrived) : \"l\"(count + row) : \"memory\");\n#else\n      __threadfence(); oxh_arrived = atomicAdd(count + row, 1u);\n#endif\n    "
            } else {
                "__threadfence(); oxh_arrived = atomicAdd(count + row, 1u);"
            },
            acquire = if fold_release() { "\n#if __CUDA_ARCH__ >= 700\n      asm volatile(\"fence.acq_rel.gpu;\" ::: \"memory\");\n#else\n      __threadfence();\n#endif\n" } else { "__threadfence();" },
        )
    };
    let body = if finish == Finish::Cluster {
        let load = format!("{acc} x = {}; acc_[e] = oxr(acc_[e], x);", load_elem("v", "e"));
        cluster_cols_kernel(st, acc, ident, &load, &|x, at| final_store(x, at))
    } else if matches!(pass.shape, Shape::Cols4 | Shape::ClusterCols4) {
        if pass.from_partials {
            return None;
        }
        let loads = format!("    __align__(16) {st} a0[4]; oxh_ld4(a0, in0 + i0);\n");
        let step = format!("acc = oxr(acc, {});", load_elem("a0", "e"));
        let form = if pass.shape == Shape::ClusterCols4 { Cols4Form { inner: inner_const, ..Cols4Form::clustered(narrow_unroll(), true) } } else { Cols4Form::plain() };
        cols4_kernel(&params, acc, ident, 1, &loads, &step, "", &tail, form, &|x, at, _| result(x, at))
    } else if pass.shape == Shape::Rows && !pass.from_partials {
        // Rows of a multiple of 4 elements: 4 at a time as one vector load into 4 accumulators, four
        // vectors a thread behind one bounds check so that their loads are in flight together. The
        // loop this replaced (a pointer walk, `#pragma unroll 4`, a bounds check before every load)
        // compiled to one load in flight a thread: [4096, 4096] row sums 19.2-19.8 -> 17.4-18.0 us on
        // the H200 (sum_lab's constant-stride loop: 16.8-17.0).
        let lanes = |a: &str| (0..4).map(|e| format!("acc{e} = oxr(acc{e}, {});", load_elem(a, &e.to_string()))).collect::<Vec<_>>().join(" ");
        let nb = rows_batch();
        let decl: String = (0..nb).map(|k| format!("a{k}[4]")).collect::<Vec<_>>().join(", ");
        let loads: String = (0..nb).map(|k| format!("oxh_ld4(a{k}, base + c + {k} * step); ")).collect();
        let steps: String = (0..nb).map(|k| lanes(&format!("a{k}"))).collect::<Vec<_>>().join("\n        ");
        let fold = format!(
            "    if ((red & 3) == 0) {{
      {acc} acc0 = acc, acc1 = acc, acc2 = acc, acc3 = acc;
      const {st}* const base = in0 + row * red;
      const long long step = 4 * (long long)blockDim.x;
      long long c = lo + 4 * (long long)threadIdx.x;
      for (; c + {last} * step < hi; c += {nb} * step) {{
        __align__(16) {st} {decl};
        {loads}
        {steps}
      }}
      for (; c < hi; c += step) {{
        __align__(16) {st} a0[4]; oxh_ld4(a0, base + c);
        {}
      }}
      acc = oxr(oxr(acc0, acc1), oxr(acc2, acc3));
    }} else {{
      for (long long c = lo + threadIdx.x; c < hi; c += blockDim.x) {{
        const long long i = row * red + c;
        acc = oxr(acc, {});
      }}
    }}
",
            lanes("a0"),
            load_in("i"),
            last = nb - 1,
        );
        rows_kernel(&params, acc, ident, &fold, &tail, &result)
    } else if fold {
        return None;
    } else if pass.shape == Shape::Cols && pass.from_partials {
        finish_cols_kernel(&params, acc, ident, &format!("acc = oxr(acc, {});", load_in("i")), &result)
    } else {
        let step = format!("acc = oxr(acc, {});", load_in("i"));
        reduction_kernel(pass.shape, &params, acc, ident, &step, &result)
    };
    // A folding clustered pass's dependents (the next call's clusters) wait for its completion.
    let mark = if fold && pass.shape == Shape::ClusterCols4 { crate::nvrtc::NO_EARLY_DEPENDENTS } else { "" };
    Some(format!(
        "{mark}{prelude}\n__device__ __forceinline__ {acc} oxr({acc} a, {acc} b) {{ return {combine}; }}\n{body}",
        prelude = crate::render::PRELUDE
    ))
}

/// The loop structure every reduction pass shares (entry [`crate::render::ENTRY`]): `(outer, red, parts)`
/// (rows: a block per row part, warp shuffles and shared memory to combine) or `(outer, red, inner,
/// parts)` (columns: a thread per column part), then `params`. `step` is C run for each element index
/// `i` of the part (it folds the element into `acc`, combined by `oxr`); `result(acc, at)` stores the
/// part's value at output index `at`.
fn reduction_kernel(shape: Shape, params: &str, acc: &str, ident: &str, step: &str, result: &dyn Fn(&str, &str) -> String) -> String {
    let entry = crate::render::ENTRY;
    match shape {
        // Elements loaded one by one (callers with vector loads use `cols4_kernel` themselves).
        Shape::Cols4 => cols4_kernel(params, acc, ident, 1, "", step, "", "", Cols4Form::plain(), &|x, at, _| result(x, at)),
        Shape::ClusterCols4 => cols4_kernel(params, acc, ident, 1, "", step, "", "", Cols4Form::clustered(cols4_unroll(), false), &|x, at, _| result(x, at)),
        // Four elements a thread behind one bounds check, their loads in flight together
        // ([`unrolled_loop`] declares its own `acc`, handed out of its scope).
        Shape::Rows => {
            let lp = unrolled_loop(acc, ident, "lo + threadIdx.x", "hi", "(long long)blockDim.x", &|c| format!("row * red + {c}"), step, "      ");
            rows_kernel(params, acc, ident, &format!("    {acc} part_;\n    {{\n{lp}\n      part_ = acc;\n    }}\n    acc = part_;\n"), "", result)
        }
        Shape::WarpRows => format!(
            "extern \"C\" __global__ void {entry}(long long outer, long long red, long long parts, {params}) {{
  const long long chunk = (red + parts - 1) / parts;
  // Short parts: a warp per (row, part), lanes striding along it, combined by shuffles alone.
  const int lane = threadIdx.x & 31;
  const long long wpb = blockDim.x >> 5;
  for (long long b = (long long)blockIdx.x * wpb + (threadIdx.x >> 5); b < outer * parts; b += (long long)gridDim.x * wpb) {{
    const long long row = b / parts, part = b - row * parts;
    const long long lo = part * chunk, hi = min(red, lo + chunk);
{warp_loop}
    for (int o = 16; o > 0; o >>= 1) acc = oxr(acc, __shfl_down_sync(0xffffffffu, acc, o));
    if (lane == 0) {res}
  }}
}}
",
            res = result("acc", "b"),
            warp_loop = unrolled_loop(acc, ident, "lo + lane", "hi", "32", &|c| format!("row * red + {c}"), step, "    "),
        ),
        Shape::Cols => format!(
            "extern \"C\" __global__ void {entry}(long long outer, long long red, long long inner, long long parts, {params}) {{
  // A block of ng row groups (a warp each, up to 32) x 32 columns per (row, 32-column group, part): thread
  // (ty, tx) folds rows lo + ty, lo + ty + ng, ... of its column, then the groups are combined in shared
  // memory.
  __shared__ {acc} sh[32][33];
  const int ng = blockDim.x >> 5;
  const long long chunk = (red + parts - 1) / parts;
  const long long groups = (inner + 31) / 32;
  const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
  for (long long b = blockIdx.x; b < outer * groups * parts; b += gridDim.x) {{
    const long long g = b % groups, rest = b / groups;
    const long long row = rest % outer, part = rest / outer;
    const long long col = g * 32 + tx;
    const long long lo = part * chunk, hi = min(red, lo + chunk);
    if (col < inner) {{
{col_loop}
      sh[ty][tx] = acc;
    }}
    __syncthreads();
    if (ty == 0 && col < inner) {{
      {acc} acc = sh[0][tx];
      for (int k = 1; k < ng; ++k) acc = oxr(acc, sh[k][tx]);
      const long long t = (part * outer + row) * inner + col;
      {res}
    }}
    __syncthreads();
  }}
}}
",
            res = result("acc", "t"),
            col_loop = unrolled_loop(acc, ident, "lo + ty", "hi", "(long long)ng", &|r| format!("(row * red + {r}) * inner + col"), step, "      "),
        ),
    }
}

/// A column pass over partial results (entry [`crate::render::ENTRY`], `(outer, red, inner, parts)`,
/// then `params`): a block of [`FINISH_LANES`] x [`FINISH_COLS`] threads per (row, group of
/// `FINISH_COLS` columns, part); thread (lane, column) folds rows `lo + lane`, `lo + lane + FINISH_LANES`,
/// ... with eight accumulators (so that eight loads are in flight), then the lanes are combined in
/// shared memory, eight and then four at a time, in a fixed order. The few hundred parts of a batch-norm
/// sum were a handful of 512-thread blocks of 32 columns whose chains of dependent loads took 8-9 us on
/// the H200 (longer than the pass that wrote them); narrow groups give the pass as many blocks as the
/// columns allow and each thread a few loads.
fn finish_cols_kernel(params: &str, acc: &str, ident: &str, step: &str, result: &dyn Fn(&str, &str) -> String) -> String {
    let entry = crate::render::ENTRY;
    let (cols, lanes) = (FINISH_COLS, FINISH_LANES);
    format!(
        "extern \"C\" __global__ void {entry}(long long outer, long long red, long long inner, long long parts, {params}) {{
  __shared__ {acc} sh[{lanes}][{cols}];
  __shared__ {acc} sh2[{quarter}][{cols}];
  const int tx = threadIdx.x % {cols}, ty = threadIdx.x / {cols};
  const long long chunk = (red + parts - 1) / parts;
  const long long groups = (inner + {cols} - 1) / {cols};
  for (long long b = blockIdx.x; b < outer * groups * parts; b += gridDim.x) {{
    const long long g = b % groups, rest = b / groups;
    const long long row = rest % outer, part = rest / outer;
    const long long col = g * {cols} + tx;
    const long long lo = part * chunk, hi = min(red, lo + chunk);
    {acc} folded = ({acc})({ident});
    if (col < inner) {{
{col_loop}
      folded = acc;
    }}
    sh[ty][tx] = folded;
    __syncthreads();
    if (ty < {quarter}) {{
      {acc} acc = sh[ty * 8][tx];
      #pragma unroll
      for (int k = 1; k < 8; ++k) acc = oxr(acc, sh[ty * 8 + k][tx]);
      sh2[ty][tx] = acc;
    }}
    __syncthreads();
    if (ty == 0 && col < inner) {{
      {acc} acc = sh2[0][tx];
      #pragma unroll
      for (int k = 1; k < {quarter}; ++k) acc = oxr(acc, sh2[k][tx]);
      const long long t = (part * outer + row) * inner + col;
      {res}
    }}
    __syncthreads();
  }}
}}
",
        quarter = lanes / 8,
        res = result("acc", "t"),
        col_loop = unrolled_loop_n(8, acc, ident, "lo + ty", "hi", &format!("{lanes}LL"), &|r| format!("(row * red + {r}) * inner + col"), step, "      "),
    )
}

/// The `Rows` pass (entry [`crate::render::ENTRY`], `(outer, red, parts, chunk)` ([`rows_chunk`]), then
/// `params`): a block per
/// (row, part) runs `fold` (C folding the part's elements `lo..hi` of row `row` into `acc`, declared
/// before it), then combines its threads' values by warp shuffles and shared memory; `result(acc, at)`
/// stores it, and `tail` runs after (every thread, once per part). Parts are `chunk` elements long, a
/// multiple of 4 (so that a part of a row of a multiple of 4 elements starts on a vector boundary).
fn rows_kernel(params: &str, acc: &str, ident: &str, fold: &str, tail: &str, result: &dyn Fn(&str, &str) -> String) -> String {
    let entry = crate::render::ENTRY;
    format!(
        "extern \"C\" __global__ void {entry}(long long outer, long long red, long long parts, long long chunk, {params}) {{
  __shared__ {acc} sh[32];
  for (long long b = blockIdx.x; b < outer * parts; b += gridDim.x) {{
    // No division where a row is one part or there is one row: the instructions a block runs before
    // its first load delay every block (a whole-tensor sum's 4096 blocks: 1.2 us on the H200).
    const long long row = parts == 1 ? b : (outer == 1 ? 0 : b / parts), part = b - row * parts;
    const long long lo = min(red, part * chunk), hi = min(red, lo + chunk);
    {acc} acc = ({acc})({ident});
{fold}    for (int o = 16; o > 0; o >>= 1) acc = oxr(acc, __shfl_down_sync(0xffffffffu, acc, o));
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {{
      acc = (threadIdx.x < (blockDim.x >> 5)) ? sh[threadIdx.x] : ({acc})({ident});
      for (int o = 16; o > 0; o >>= 1) acc = oxr(acc, __shfl_down_sync(0xffffffffu, acc, o));
      if (threadIdx.x == 0) {res}
    }}
    __syncthreads();
{tail}  }}
}}
",
        res = result("acc", "b"),
    )
}

/// The [`render_cluster_cols`] kernel over elements of C type `st`: `fold` folds lane `e` of the
/// thread's 4 loaded elements `v` into its accumulator `acc_[e]`; `store(x, at)` stores column value `x`
/// at output index `at`. The next kernel launches when this one completes (the source carries
/// [`crate::nvrtc::NO_EARLY_DEPENDENTS`], so its entry prologue only waits): launched early, or once
/// every block had issued its loads, it made the [4096, 4096] sum 18.2 -> 22.0 and 23.7 us on the
/// H200 (`examples/sum_lab`).
fn cluster_cols_kernel(st: &str, acc: &str, ident: &str, fold: &str, store: &dyn Fn(&str, &str) -> String) -> String {
    let entry = crate::render::ENTRY;
    let (parts, tile) = (cluster_parts(), cluster_tile());
    let stored = store("s", "row * inner + g * w + c");
    // The loop stays as `#pragma unroll` over bounds-checked tiles: its loads batched behind one check
    // (as the row and `Cols4` passes' are) made [4096, 4096] column sums 19.7-20.1 -> 23.1-24.5 us on
    // the H200 (40 registers under the launch bounds; ptxas then reuses the load registers).
    let unroll = cluster_unroll();
    let mark = crate::nvrtc::NO_EARLY_DEPENDENTS;
    format!(
        "{mark}
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
{CLUSTER_HELPERS}#define OXH_CLUSTER_DIMS __cluster_dims__({parts}, 1, 1)
#else
#define OXH_CLUSTER_DIMS
#endif
extern \"C\" __global__ void OXH_CLUSTER_DIMS __launch_bounds__(256, {CLUSTER_MIN_BLOCKS}) {entry}(long long outer, long long red, long long inner, long long parts, const {st}* __restrict__ in0, const {st}* __restrict__ init, {st}* __restrict__ out0) {{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ {acc} sh[256][4];
  __shared__ {acc} shc[{tile}];
  unsigned part; asm volatile(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(part));
  const int w = (int)min(inner, {tile}LL), q = w >> 2, t = threadIdx.x, cg = t % q, tile_rows = 256 / q;
  const long long groups = (inner + w - 1) / w;
  const long long chunk = (red + {parts} - 1) / {parts}, lo = min(red, part * chunk), hi = min(red, lo + chunk);
  for (long long b = blockIdx.x / {parts}; b < outer * groups; b += gridDim.x / {parts}) {{
    const long long row = b % outer, g = b / outer, col0 = g * w + 4 * cg;
    {acc} acc_[4];
    #pragma unroll
    for (int e = 0; e < 4; ++e) acc_[e] = ({acc})({ident});
    if (t / q < tile_rows && col0 < inner) {{
      const {st}* src = in0 + (row * red + lo + t / q) * inner + col0;
      const long long di = tile_rows * inner;
      #pragma unroll {unroll}
      for (long long r = lo + t / q; r < hi; r += tile_rows, src += di) {{
        __align__(16) {st} v[4]; oxh_ld4(v, src);
        #pragma unroll
        for (int e = 0; e < 4; ++e) {{ {fold} }}
      }}
    }}
    #pragma unroll
    for (int e = 0; e < 4; ++e) sh[t][e] = acc_[e];
    __syncthreads();
    for (int c = t; c < w; c += 256) {{
      {acc} s = sh[c >> 2][c & 3];
      for (int k = 1; k < tile_rows; ++k) s = oxr(s, sh[k * q + (c >> 2)][c & 3]);
      shc[c] = s;
    }}
    oxh_cluster_sync();
    if (part == 0) {{
      for (int c = t; c < w && g * w + c < inner; c += 256) {{
        {acc} s = oxh_peer(shc + c, 0u);
        for (unsigned p = 1; p < {parts}u; ++p) s = oxr(s, oxh_peer(shc + c, p));
        {stored}
      }}
    }}
    oxh_cluster_sync();
  }}
#endif
}}
"
    )
}

/// How a [`cols4_kernel`] is laid out: its blocks alone (`Shape::Cols4`) or in clusters
/// (`Shape::ClusterCols4`), and the tiles its loop loads behind one bounds check.
#[derive(Clone, Copy)]
struct Cols4Form {
    /// Blocks of a cluster (0: none).
    cluster: i64,
    unroll: u32,
    /// The batched tiles' loads all issued before their steps: `loads` declares one array `a0`, which
    /// each tile's copy names `a0_<k>`. The steps interleaved with the loads compiled to four of eight
    /// loads in flight (64 registers; a load's address computed from the runtime row stride each).
    hoist: bool,
    /// The column count, written into the kernel as a constant (its `inner` parameter is then only
    /// checked against it by the launch's shape: [`render_launch`]).
    inner: Option<i64>,
}

impl Cols4Form {
    fn plain() -> Self {
        Cols4Form { cluster: 0, unroll: cols4_unroll(), hoist: false, inner: None }
    }
    fn clustered(unroll: u32, hoist: bool) -> Self {
        Cols4Form { cluster: narrow_cluster_parts(), unroll, hoist, inner: None }
    }
}

/// Device functions of cluster kernels (sm_90): `oxh_peer(p, rank)`, the 8-byte value at shared address
/// `p` of the cluster's block `rank`; `oxh_cluster_sync()`, a barrier of the cluster's threads.
const CLUSTER_HELPERS: &str = "template <typename A> __device__ __forceinline__ A oxh_peer(const A* p, unsigned rank) {
  static_assert(sizeof(A) == 8, \"8-byte accumulators\");
  unsigned a = (unsigned)__cvta_generic_to_shared(p), r; unsigned long long v;
  asm volatile(\"mapa.shared::cluster.u32 %0, %1, %2;\" : \"=r\"(r) : \"r\"(a), \"r\"(rank));
  asm volatile(\"ld.shared::cluster.b64 %0, [%1];\" : \"=l\"(v) : \"r\"(r) : \"memory\");
  A out; memcpy(&out, &v, 8); return out;
}
__device__ __forceinline__ void oxh_cluster_sync() { asm volatile(\"barrier.cluster.arrive.aligned;\\n\\tbarrier.cluster.wait.aligned;\" ::: \"memory\"); }
";

/// The `Cols4` pass (entry [`crate::render::ENTRY`], the parameters of `Cols`, then `params`): a block
/// takes a group of `w = min(inner, cols4_tile())` columns of one row of a part; thread t reads columns `4 * (t %
/// q) ..` (q = w / 4 threads to a row) of the group, rows `t / q`, `t / q + 256 / q`, ... of its part.
/// Per tile, `loads` runs with `i0` (the first of the thread's 4 elements), then `step` for each lane
/// `e` (with `i = i0 + e`, `acc` its lane's accumulator; with `m > 1` reductions at once, `acc0` ..
/// `acc{m-1}`), then `stores`. The lanes of threads sharing a column are combined in shared memory
/// (thread t combining columns t, t + 256, ... of the group); `result(acc, at, j)` stores reduction j's
/// column; then `tail` runs (every thread, once per block's tile group). Clustered (`form.cluster`
/// blocks `OXH_CP` on sm_90, else 1), each of the `parts` parts is `OXH_CP` blocks' rows (block `b`:
/// cluster rank `b % OXH_CP`), and the cluster's first block combines their column values in rank order.
#[allow(clippy::too_many_arguments)]
fn cols4_kernel(params: &str, acc: &str, ident: &str, m: usize, loads: &str, step: &str, stores: &str, tail: &str, form: Cols4Form, result: &dyn Fn(&str, &str, usize) -> String) -> String {
    let entry = crate::render::ENTRY;
    let bind: String = if m == 1 { format!("{acc}& acc = acc_[0][e];") } else { (0..m).map(|j| format!(" {acc}& acc{j} = acc_[{j}][e];")).collect() };
    let fold_tile = |j: usize| format!("{acc} acc = sh[{j}][c >> 2][c & 3];\n        for (int k = 1; k < tile_rows; ++k) acc = oxr(acc, sh[{j}][k * q + (c >> 2)][c & 3]);");
    let combine: String = (0..m).map(|j| format!("      {{\n        {}\n        {}\n      }}\n", fold_tile(j), result("acc", "at", j))).collect();
    // Clustered: each block's column values into its shared memory, the first block's sum of the
    // cluster's in rank order.
    let to_cluster: String = (0..m).map(|j| format!("      {{\n        {}\n        shc[{j}][c] = acc;\n      }}\n", fold_tile(j))).collect();
    let from_cluster: String = (0..m)
        .map(|j| format!("        {{\n          {acc} acc = oxh_peer(&shc[{j}][c], 0u);\n          for (unsigned p = 1; p < OXH_CP; ++p) acc = oxr(acc, oxh_peer(&shc[{j}][c], p));\n          {}\n        }}\n", result("acc", "at", j)))
        .collect();
    // Several reductions hold 4 accumulators each: bound the registers so that 3 blocks fit an SM; a
    // clustered pass over elements alone so that 4 do (sum_lab: 2 an SM was 66% of copy against 80%).
    let bounds = match multi_min_blocks() {
        b if m > 1 && b > 0 => format!("__launch_bounds__(256, {b}) "),
        _ if form.cluster > 1 => format!("__launch_bounds__(256, {}) ", narrow_min_blocks()),
        _ => String::new(),
    };
    // One tile's loads, lane steps and stores at element `i0`; the main loop runs `form.unroll` tiles
    // behind one bounds check so that their loads are in flight together (a `#pragma unroll` over the
    // bounds-checked loop kept one tile's loads in flight: the check before each tile is a branch).
    let tile_body = format!(
        "{loads}        #pragma unroll
        for (int e = 0; e < 4; ++e) {{
          const long long i = i0 + e; {bind}
          {{
{step}
          }}
        }}
{stores}"
    );
    let u = form.unroll.max(1) as i64;
    let batched = if u > 1 && form.hoist && loads.contains("oxh_ld4(a0, in0 + i0);") {
        let named = |text: &str, k: i64| text.replace("a0", &format!("a0_{k}"));
        let decls: String = (0..u).map(|k| named(&loads.replace("oxh_ld4(a0, in0 + i0);", &format!("oxh_ld4(a0, in0 + (i0b + {k} * di));")), k)).collect();
        let steps: String = (0..u).map(|k| named(&format!("      {{ const long long i0 = i0b + {k} * di;\n        #pragma unroll\n        for (int e = 0; e < 4; ++e) {{\n          const long long i = i0 + e; {bind}\n          {{\n{step}\n          }}\n        }}\n{stores}      }}\n"), k)).collect();
        format!("      for (; r + {} * tile_rows < hi; r += {u} * tile_rows, i0 += {u} * di) {{\n      const long long i0b = i0;\n{decls}{steps}      }}\n", u - 1)
    } else if u > 1 {
        let tiles: String = (0..u).map(|k| format!("      {{ const long long i0 = i0b + {k} * di;\n{tile_body}      }}\n")).collect();
        format!("      for (; r + {} * tile_rows < hi; r += {u} * tile_rows, i0 += {u} * di) {{\n      const long long i0b = i0;\n{tiles}      }}\n", u - 1)
    } else {
        String::new()
    };
    let tile = cols4_tile();
    let (prelude, dims, shared, finish) = if form.cluster > 1 {
        (
            format!(
                "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n{CLUSTER_HELPERS}#define OXH_CP {p}\n#define OXH_CLUSTER_DIMS __cluster_dims__({p}, 1, 1)\n#else\n#define OXH_CP 1\n#define OXH_CLUSTER_DIMS\n#endif\n",
                p = form.cluster
            ),
            "OXH_CLUSTER_DIMS ",
            format!("\n#if OXH_CP > 1\n  __shared__ {acc} shc[{m}][{tile}];\n#endif"),
            format!(
                "#if OXH_CP > 1
    for (int c = t; c < w; c += 256) {{
{to_cluster}    }}
    oxh_cluster_sync();
    if (rank == 0) {{
      for (int c = t; c < w && g * w + c < inner; c += 256) {{
        const long long at = (part * outer + row) * inner + g * w + c;
{from_cluster}      }}
{tail}    }}
    oxh_cluster_sync();
#else
    for (int c = t; c < w && g * w + c < inner; c += 256) {{
      const long long at = (part * outer + row) * inner + g * w + c;
{combine}    }}
{tail}#endif
"
            ),
        )
    } else {
        (
            "#define OXH_CP 1\n".to_string(),
            "",
            String::new(),
            format!(
                "    for (int c = t; c < w && g * w + c < inner; c += 256) {{
      const long long at = (part * outer + row) * inner + g * w + c;
{combine}    }}
"
            ),
        )
    };
    format!(
        "{prelude}extern \"C\" __global__ void {dims}{bounds}{entry}(long long outer, long long red, long long inner, long long parts, {params}) {{
  __shared__ {acc} sh[{m}][256][4];{shared}{fixed}
  // Each part is OXH_CP blocks' rows (block b: cluster rank b % OXH_CP).
  const long long bparts = parts * OXH_CP;
  const long long chunk = (red + bparts - 1) / bparts;
  const int w = (int)min(inner, {tile}LL), q = w >> 2, t = threadIdx.x, cg = t % q, tile_rows = 256 / q;
  const long long groups = (inner + w - 1) / w;
  for (long long b = blockIdx.x; b < outer * groups * bparts; b += gridDim.x) {{
    const unsigned rank = (unsigned)(b % OXH_CP);
    const long long rb = b / OXH_CP;
    // No 64-bit division for one row or one group (a narrow sum's blocks start loading sooner).
    const long long row = outer == 1 ? 0 : rb % outer, rest = outer == 1 ? rb : rb / outer;
    const long long g = groups == 1 ? 0 : rest % groups, part = groups == 1 ? rest : rest / groups;
    const long long col0 = g * w + 4 * cg;
    const long long lo = min(red, (part * OXH_CP + rank) * chunk), hi = min(red, lo + chunk);
    {acc} acc_[{m}][4];
    #pragma unroll
    for (int e = 0; e < 4; ++e) {{
      #pragma unroll
      for (int j = 0; j < {m}; ++j) acc_[j][e] = ({acc})({ident});
    }}
    if (t / q < tile_rows && col0 < inner) {{
      long long i0 = (row * red + lo + t / q) * inner + col0;
      const long long di = tile_rows * inner;
      long long r = lo + t / q;
{batched}      for (; r < hi; r += tile_rows, i0 += di) {{
{tile_body}      }}
    }}
    #pragma unroll
    for (int e = 0; e < 4; ++e) {{
      #pragma unroll
      for (int j = 0; j < {m}; ++j) sh[j][t][e] = acc_[j][e];
    }}
    __syncthreads();
{finish}{after}    __syncthreads();
  }}
}}
",
        after = if form.cluster > 1 { "" } else { tail },
        // A constant column count: the row stride and the tile layout fold into immediate offsets.
        fixed = form.inner.map(|n| format!("\n  inner = {n}LL;")).unwrap_or_default(),
    )
}

/// A `Cols4` lane body with its operands' index terms `i % inner` (the column: an operand broadcast
/// along the reduced dims, as a batch norm's per-channel mean and scale) written as `col0 + e`, the
/// thread's own column: the same on every row, so those loads leave the loop (a column's index is `(row *
/// red + r) * inner + col`, and `col < inner`).
fn column_invariant(lane: &str, inner: i64, numel: i64) -> String {
    lane.replace(&crate::render::index_modulo(inner, numel), "(col0 + e)")
}

/// Blocks of a `Cols4` pass with several reductions that must fit an SM at once (`__launch_bounds__`;
/// resnet18's batch-norm sums of 4 reductions took 96-128 registers unbounded, 2 blocks an SM): 3 unless
/// `OXHLO_CUDA_MULTI_BLOCKS` says otherwise (0: unbounded; read once; a knob for measuring).
fn multi_min_blocks() -> u32 {
    static B: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    knob(&B, "OXHLO_CUDA_MULTI_BLOCKS", |b| b <= 8, 3)
}

/// Tiles a `Cols4` thread's loop is unrolled by (loads in flight against registers: resnet18's batch-norm
/// kernels took 66-78 registers unrolled by 4, 40-56 by 1; its profiled step 12.18 ms by 4, 11.68 by 2,
/// 11.64 by 1): 2 unless `OXHLO_CUDA_COLS4_UNROLL` says otherwise (read once; a knob for measuring).
fn cols4_unroll() -> u32 {
    static U: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    knob(&U, "OXHLO_CUDA_COLS4_UNROLL", |u| (1..=16).contains(&u), 2)
}

/// C for folding the elements `start, start + stride, ...` (below `end`) into a fresh `acc` of type
/// `acc_t`: four accumulators fed from four independent element positions per iteration (so that four
/// loads per thread are in flight; each position's `step` runs in a scope of its own where `acc` names
/// its accumulator and `i` its element index, `index(position)`), a tail of single steps, and `acc`
/// declared last as the four combined.
#[allow(clippy::too_many_arguments)]
fn unrolled_loop(acc_t: &str, ident: &str, start: &str, end: &str, stride: &str, index: &dyn Fn(&str) -> String, step: &str, pad: &str) -> String {
    unrolled_loop_n(4, acc_t, ident, start, end, stride, index, step, pad)
}

/// [`unrolled_loop`] with `n` accumulators (a power of two), combined pairwise.
#[allow(clippy::too_many_arguments)]
fn unrolled_loop_n(n: usize, acc_t: &str, ident: &str, start: &str, end: &str, stride: &str, index: &dyn Fn(&str) -> String, step: &str, pad: &str) -> String {
    let others: String = (1..n).map(|k| format!(", acc{k} = acc0")).collect();
    let mut s = format!("{pad}{acc_t} acc0 = ({acc_t})({ident}){others};\n");
    s += &format!("{pad}long long c_ = {start};\n");
    s += &format!("{pad}for (; c_ + {} * {stride} < {end}; c_ += {n} * {stride}) {{\n", n - 1);
    for k in 0..n {
        let pos = if k == 0 { "c_".to_string() } else { format!("(c_ + {k} * {stride})") };
        s += &format!("{pad}  {{ const long long i = {}; {acc_t}& acc = acc{k};\n{pad}    {step}\n{pad}  }}\n", index(&pos));
    }
    s += &format!("{pad}}}\n");
    s += &format!("{pad}for (; c_ < {end}; c_ += {stride}) {{ const long long i = {}; {acc_t}& acc = acc0;\n{pad}  {step}\n{pad}}}\n", index("c_"));
    let mut level: Vec<String> = (0..n).map(|k| format!("acc{k}")).collect();
    while level.len() > 1 {
        level = level.chunks(2).map(|p| format!("oxr({}, {})", p[0], p[1])).collect();
    }
    s += &format!("{pad}{acc_t} acc = {};", level[0]);
    s
}

/// `[outer, red, inner]` of reducing `dims` of `shape` when the reduced dims are contiguous (an empty
/// `dims` reduces nothing: `red == 1`).
pub fn contiguous_view(shape: &[i64], dims: &[usize]) -> Option<(i64, i64, i64)> {
    let mut d: Vec<usize> = dims.to_vec();
    d.sort_unstable();
    d.dedup();
    if d.windows(2).any(|w| w[1] != w[0] + 1) {
        return None;
    }
    let (a, b) = match (d.first(), d.last()) {
        (Some(&a), Some(&b)) => (a, b + 1),
        _ => (shape.len(), shape.len()),
    };
    let p = |s: &[i64]| s.iter().product::<i64>();
    Some((p(&shape[..a]), p(&shape[a..b]), p(&shape[b..])))
}

/// The length of each part of a `Rows` pass over rows of `red` elements in `parts` parts (a multiple of
/// 4, so that a part of a row of a multiple of 4 elements starts on a vector boundary): the kernel's
/// fourth scalar, computed by the launch.
pub fn rows_chunk(red: i64, parts: i64) -> i64 {
    ((red + parts.max(1) - 1) / parts.max(1) + 3) & !3
}

/// Parts of a row reduction at most this long are reduced by one warp each (no shared memory, no
/// block barrier); longer ones by a block. [`crate::device::Gpu::launch_reduce_rows`] launches by the
/// same rule.
pub const WARP_ROW_MAX: i64 = 1024;

/// The kernel shape of a row pass whose parts are `ceil(red / parts)` elements long.
pub fn rows_shape(red: i64, parts: i64) -> Shape {
    if (red + parts.max(1) - 1) / parts.max(1) <= WARP_ROW_MAX {
        Shape::WarpRows
    } else {
        Shape::Rows
    }
}

/// Row groups of a column-reduction block over elements (with 32 columns: 256 threads).
pub const COL_GROUPS: i64 = 8;
/// Columns of a column-pass block over partial results ([`finish_cols_kernel`]).
pub const FINISH_COLS: i64 = 8;
/// Row lanes of a column-pass block over partial results (with [`FINISH_COLS`] columns: 256 threads).
pub const FINISH_LANES: i64 = 32;
/// Blocks of 256 threads that keep the device busy.
const FILL_BLOCKS: i64 = 1024;

/// Blocks a row reduction of fewer than [`FILL_BLOCKS`] rows is split into (parts of at least 4096
/// elements): four waves of 256-thread blocks on an H200, so that the blocks running at once read
/// neighbouring parts, as a row sum's do. The sum of all of a [4096, 4096] f32 tensor in 4096 parts
/// then one pass over them: 19.9 us on the H200 (80-81% of the copy bandwidth; sum_lab's hand-written
/// pair of passes 18.4) against 20.1-20.7 for 1024 parts folded in the last block.
const ROW_FILL_BLOCKS: i64 = 4 * FILL_BLOCKS;

/// How many parts `red` is split into: enough (row or 32-column group) x part blocks to fill the
/// device ([`ROW_FILL_BLOCKS`] for fewer rows than [`FILL_BLOCKS`], else [`FILL_BLOCKS`]), each part
/// long enough to amortize its partial result (4096 elements of a row; 16 rows per thread of a column
/// block).
pub fn parts_for(outer: i64, red: i64, inner: i64) -> i64 {
    let blocks = if inner == 1 { outer.max(1) } else { outer.max(1).saturating_mul((inner + 31) / 32) };
    let min_len = if inner == 1 { 4096 } else { COL_GROUPS * 16 };
    let fill = if inner == 1 && blocks < FILL_BLOCKS { ROW_FILL_BLOCKS } else { FILL_BLOCKS };
    ((fill + blocks - 1) / blocks).min(red / min_len).max(1)
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

/// Whether a folded `Rows` pass's blocks count themselves with one release-acquire atomic (thread 0
/// stored the block's partial; the folding block's threads acquire with `fence.acq_rel.gpu`) rather
/// than a sequentially consistent `__threadfence()` before a relaxed `atomicAdd` (each block's slot
/// held while its fence drains): on unless `OXHLO_CUDA_FOLD_RELEASE=0` (read once; a knob for
/// measuring). Below sm_70 (no release-acquire atomics) the fence stays.
fn fold_release() -> bool {
    static R: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *R.get_or_init(|| !crate::env_off("OXHLO_CUDA_FOLD_RELEASE"))
}

/// Whether a lone [`Shape::ClusterCols4`] sum folds its partial rows in its last cluster
/// ([`folded_launch`]) rather than in a second launch: yes unless `OXHLO_CUDA_NARROW_FOLD=0` (read once;
/// a knob for measuring). The folding kernel's dependents launch at its completion
/// ([`crate::nvrtc::NO_EARLY_DEPENDENTS`]): launched early, the next call's clusters took SM slots while
/// it ran ([262144, 64] on the H200: 63% of the copy bandwidth, against 72% in two launches).
fn narrow_fold() -> bool {
    static F: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *F.get_or_init(|| !crate::env_off("OXHLO_CUDA_NARROW_FOLD"))
}

/// `op`'s memo tag of its folded pass ([`render_folded`]) and of that pass's counters.
const FOLD_TAG: u32 = 27;

/// `op`'s memo tag of its cluster pass ([`render_cluster_cols`]).
const CLUSTER_TAG: u32 = 28;

/// The most partials a `Cols4` group's last block folds (each of its threads then folds at most 16).
const FOLD_COLS_MAX: i64 = 4096;

/// The one launch that reduces `[outer, red, inner]` when [`launches`] would be a `Rows` pass to at
/// most [`FILL_BLOCKS`] partials (one wave of blocks) and one pass over them: its pass
/// ([`render_folded`]) finishes the reduction itself, saving a launch where the data is small. Larger
/// row reductions take two launches: the fold's tail (the last block's wait for the others' partials,
/// then its fold) cost the sum of all of a [4096, 4096] f32 tensor 2 us on the H200 against a second
/// launch (20.1-20.3 us against 18.2, `examples/sum_lab`; when the row pass kept one load in flight
/// a thread, folding had won, 69% -> 77% of copy). `OXHLO_CUDA_FOLD=2` folds `Cols4` passes too when a
/// group has at most [`FOLD_COLS_MAX`] partials (slower there: [4096, 4096] over its rows 72% -> 61%,
/// the group's last block folding its columns alone), `0` folds nothing (read once).
pub fn folded_launch(outer: i64, red: i64, inner: i64) -> Option<Launch> {
    static F: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let level = knob(&F, "OXHLO_CUDA_FOLD", |f| f <= 2, 1);
    if level == 0 {
        return None;
    }
    let ls = launches(outer, red, inner);
    let [first, second] = ls.as_slice() else { return None };
    if !first.pass.to_partials || second.pass.to_partials || first.pass.from_partials {
        return None;
    }
    let cheap = match first.pass.shape {
        Shape::Rows => first.outer.saturating_mul(first.parts) <= FILL_BLOCKS,
        Shape::Cols4 => level >= 2 && first.parts.saturating_mul(inner.min(cols4_tile())) <= FOLD_COLS_MAX,
        // A group's few partial rows (32 at most), folded by all the last cluster's first block's threads.
        Shape::ClusterCols4 => narrow_fold() && first.parts.saturating_mul(inner.min(cols4_tile())) <= FOLD_COLS_MAX,
        _ => false,
    };
    cheap.then_some(*first)
}

/// The finishing pass of `m` f32 reductions at once (a fused kernel's merged sums): the single
/// reduction's column pass over partials ([`render_pass`]) as a device function, called by the block
/// row `blockIdx.y` for its reduction. Parameters: `(outer, red, inner, parts)`, the partials of each
/// reduction, their init values, their results; launched by [`crate::device::Gpu::launch_reduce_cols`]
/// with `m` block rows. One launch instead of `m`.
pub fn render_finish_multi(rk: ReduceKind, m: usize) -> Option<String> {
    let one = render_pass(Kind::F32, rk, Pass { shape: Shape::Cols, from_partials: true, to_partials: false })?;
    let entry = crate::render::ENTRY;
    let head = format!("extern \"C\" __global__ void {entry}(");
    if m < 2 || !one.contains(&head) {
        return None;
    }
    let one = one.replacen(&head, "__device__ __forceinline__ void oxh_finish(", 1);
    let list = |f: &dyn Fn(usize) -> String| (0..m).map(f).collect::<Vec<_>>().join(", ");
    let params = format!(
        "{}, {}, {}",
        list(&|j| format!("const double* __restrict__ p{j}")),
        list(&|j| format!("const float* __restrict__ i{j}")),
        list(&|j| format!("float* __restrict__ o{j}"))
    );
    // The block row picks its reduction's pointers and the pass is inlined once (one copy per
    // reduction took NVRTC ~45 ms more each).
    let cases: String = (1..m).map(|j| format!("    case {j}: p = p{j}; ii = i{j}; o = o{j}; break;\n")).collect();
    Some(format!(
        "{one}\nextern \"C\" __global__ void {entry}(long long outer, long long red, long long inner, long long parts, {params}) {{\n  const double* p = p0; const float* ii = i0; float* o = o0;\n  switch (blockIdx.y) {{\n{cases}  }}\n  if (blockIdx.y < {m}u) oxh_finish(outer, red, inner, parts, p, ii, o);\n}}\n"
    ))
}

/// Column partials of at most this many parts are combined by one pass (each thread folding up to
/// `FINISH_PARTS / FINISH_LANES` of them), not split again: the batch-norm sums of a ResNet step
/// (512 parts of 64 columns) took two small launches after the main pass.
pub const FINISH_PARTS: i64 = 512;

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

/// The launches of a fused pass of `m` reductions over `[outer, red, inner]` before [`fused_launches`]
/// sizes them to the device: those of [`launches`], except that a pass that also computes its operands
/// (not `plain`, [`is_plain`]) keeps the `Cols4` shape where a plain one takes [`Shape::ClusterCols4`],
/// unless `OXHLO_CUDA_NARROW_FUSED=1` (read once; a knob for measuring). On the H200 (session 22) a
/// ResNet-18 step took 8.70 / 8.63 ms so and 9.02 / 8.83 with fused passes clustered too (their
/// [262144, 64] pairs of batch-norm sums 29 -> 36 us: two tiles in flight in 256 blocks), 9.00 / 8.76
/// with no clustered passes. Every renderer and launcher of a fused pass decides by it.
pub fn multi_launches(outer: i64, red: i64, inner: i64, m: usize, plain: bool) -> Vec<Launch> {
    static ON: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let narrow = (plain && m == 1) || knob(&ON, "OXHLO_CUDA_NARROW_FUSED", |v| v <= 1, 0) == 1;
    launches_with(outer, red, inner, cols4_target_blocks(), narrow)
}

/// Whether fused kernel `k` is one reduction of a kernel input alone (`finish_epilogue` makes such
/// kernels of `reduce` ops): its first pass is the plain one over elements ([`render_pass`]).
pub fn is_plain(k: &oxhlo_plan::fusion::FusedKernel) -> bool {
    match k.reduce.as_slice() {
        [e0] => k.ops == [e0.op] && k.inputs == [e0.operand, e0.init] && k.outputs == [e0.result],
        _ => false,
    }
}

/// The launches that reduce `[outer, red, inner]`, in order, decided from the shape alone (so that a
/// program's kernels are known when it is compiled): the first reads the elements, writing partial
/// results when `red` is split ([`parts_for`]); then rows take one pass over the parts, columns one
/// pass over up to [`FINISH_PARTS`] parts (more are split again first).
pub fn launches(outer: i64, red: i64, inner: i64) -> Vec<Launch> {
    launches_with(outer, red, inner, cols4_target_blocks(), true)
}

/// [`launches`] with a `Cols4` first pass aiming at `cols4_target` blocks, and [`Shape::ClusterCols4`]
/// passes only when `narrow`.
fn launches_with(outer: i64, red: i64, inner: i64, cols4_target: i64, narrow: bool) -> Vec<Launch> {
    let (first_shape, parts) = if inner == 1 {
        let parts = parts_for(outer, red, inner);
        (rows_shape(red, parts), parts)
    } else if let Some(parts) = narrow_cluster(outer, red, inner).filter(|_| narrow) {
        (Shape::ClusterCols4, parts)
    } else if cols4_fits(inner) {
        (Shape::Cols4, cols4_parts(outer, red, inner, cols4_target))
    } else {
        (Shape::Cols, parts_for(outer, red, inner))
    };
    let mut out = vec![Launch { pass: Pass { shape: first_shape, from_partials: false, to_partials: parts > 1 }, outer, red, inner, parts }];
    if parts == 1 {
        return out;
    }
    if inner == 1 {
        out.push(Launch { pass: Pass { shape: rows_shape(parts, 1), from_partials: true, to_partials: false }, outer, red: parts, inner: 1, parts: 1 });
        return out;
    }
    let m = outer * inner;
    let mut parts = parts;
    loop {
        let again = parts_for(1, parts, m);
        if again == 1 || parts <= FINISH_PARTS {
            out.push(Launch { pass: Pass { shape: Shape::Cols, from_partials: true, to_partials: false }, outer: 1, red: parts, inner: m, parts: 1 });
            return out;
        }
        out.push(Launch { pass: Pass { shape: Shape::Cols, from_partials: true, to_partials: true }, outer: 1, red: parts, inner: m, parts: again });
        parts = again;
    }
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

/// The first (or only) pass of a fused kernel with reduction epilogues (`oxhlo_plan::reduce_fusion`):
/// the kernel's elementwise ops are computed per element inside the reduction loop (their full-shape
/// outputs stored as they are computed), and each reduced value is accumulated without being stored.
/// Parameters: `(outer, red, parts)` (rows) or `(outer, red, inner, parts)` (columns), then the kernel's
/// inputs, its full-shape outputs, and each reduction's result `red<j>` (final, with its init value, or
/// partials in double when `to_partials`). f32 only, as the plan folds; several reductions (merged
/// siblings) only in the `Cols4` shape.
pub fn render_fused_pass(func: &Func, block: &oxhlo_ir::Block, k: &oxhlo_plan::fusion::FusedKernel) -> Option<String> {
    let e0 = k.reduce.first()?;
    let m = k.reduce.len();
    let first = multi_launches(e0.outer as i64, e0.n as i64, e0.inner as i64, k.reduce.len(), is_plain(k))[0];
    let to_partials = first.pass.to_partials;
    let shape = first.pass.shape;
    if k.outputs.len() < m || k.outputs[k.outputs.len() - m..].iter().zip(&k.reduce).any(|(&v, e)| v != e.result) || (m > 1 && !matches!(shape, Shape::Cols4 | Shape::ClusterCols4)) {
        return None;
    }
    let (ident, combine) = match e0.kind {
        ReduceKind::Add => ("0.0", "(a + b)"),
        ReduceKind::Max => ("-OXH_INF", "oxh_max(a, b)"),
        ReduceKind::Min => ("OXH_INF", "oxh_min(a, b)"),
        _ => return None,
    };
    if k.reduce.iter().any(|e| e.kind != e0.kind) {
        return None;
    }
    // A reduction of a kernel input alone (`finish_epilogue` makes such kernels of `reduce` ops): the
    // plain pass over elements, whose parameters are the same (operand, init value, result).
    if is_plain(k) {
        return (crate::render::kind_of(func, e0.operand)?.0 == Kind::F32).then(|| render_launch(Kind::F32, e0.kind, &first)).flatten();
    }
    let red_ops: Vec<usize> = k.reduce.iter().map(|e| e.op).collect();
    let ops: Vec<usize> = k.ops.iter().copied().filter(|i| !red_ops.contains(i)).collect();
    let full_outputs = &k.outputs[..k.outputs.len() - m];
    let b = crate::render::render_body(func, block, &ops, &k.inputs, full_outputs, &k.shape)?;
    // Each reduction's operand register and init input.
    let mut operands = Vec::new();
    let mut inits = Vec::new();
    for e in &k.reduce {
        let (operand, ok) = b.regs.get(&e.operand)?.clone();
        if ok != Kind::F32 {
            return None;
        }
        operands.push(operand);
        inits.push(k.inputs.iter().position(|&v| v == e.init)?);
    }
    let mut params: Vec<String> = b.params[1..].to_vec();
    for j in 0..m {
        params.push(if to_partials { format!("double* __restrict__ red{j}") } else { format!("float* __restrict__ red{j}") });
    }
    let body: String = b.body.lines().map(|l| format!("    {l}\n")).collect();
    let result = |x: &str, at: &str, j: usize| {
        if to_partials {
            format!("red{j}[{at}] = {x};")
        } else {
            format!("red{j}[{at}] = (float)oxr((double)in{}[0], {x});", inits[j])
        }
    };
    // The first of the reduction's launches: to partial results when it is split.
    let src = if matches!(shape, Shape::Cols4 | Shape::ClusterCols4) {
        let lanes = b.lanes(full_outputs.len());
        let folds: String = if m == 1 {
            format!("      acc = oxr(acc, (double){});", operands[0])
        } else {
            operands.iter().enumerate().map(|(j, o)| format!("      acc{j} = oxr(acc{j}, (double){o});\n")).collect()
        };
        let step = format!("{}{folds}", column_invariant(&lanes.lane, e0.inner as i64, k.shape.iter().product()));
        let form = if shape == Shape::ClusterCols4 { Cols4Form::clustered(cols4_unroll(), false) } else { Cols4Form::plain() };
        cols4_kernel(&params.join(", "), "double", ident, m, &lanes.loads, &step, &lanes.stores, "", form, &result)
    } else {
        let step = format!("{{\n{body}      acc = oxr(acc, (double){});\n      }}", operands[0]);
        reduction_kernel(shape, &params.join(", "), "double", ident, &step, &|x, at| result(x, at, 0))
    };
    Some(format!("{}\n__device__ __forceinline__ double oxr(double a, double b) {{ return {combine}; }}\n{src}", crate::render::PRELUDE))
}
