//! Which launches reduce `[outer, red, inner]`, decided from the shape alone so that a program's
//! kernels are known when it compiles ([`launches`], [`multi_launches`], [`fused_launches`],
//! [`folded_launch`], [`cluster_cols`]): how `red` is split into parts, when column passes run in
//! thread block clusters, when a first pass folds its partials itself, and the knobs of those choices.

use super::*;

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
/// (row, column group)s, about [`narrow_blocks`] blocks, each at least [`cols4_min_tiles`] tiles of rows
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
    let parts = (narrow_blocks() / (per * p)).max(1).min(red / (p * cols4_min_tiles() * tile_rows));
    (parts >= 1).then_some(parts)
}

/// The most (row, column group)s of a [`Shape::ClusterCols4`] pass.
pub const NARROW_GROUPS: i64 = 8;

/// Blocks a [`Shape::ClusterCols4`] pass aims at: 256 (two an SM on an H200; `sum_lab`'s 128 and 512
/// were slower) unless `OXHLO_CUDA_NARROW_BLOCKS` says otherwise (read once; a knob for measuring).
pub fn narrow_blocks() -> i64 {
    static B: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    knob(&B, "OXHLO_CUDA_NARROW_BLOCKS", |b| (8..=4096).contains(&b), 256)
}

/// Blocks of a [`Shape::ClusterCols4`] cluster: 8 unless `OXHLO_CUDA_NARROW_PARTS` says otherwise (1, 2,
/// 4 or 8; read once; a knob for measuring; 1 is no cluster).
pub fn narrow_cluster_parts() -> i64 {
    static P: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    knob(&P, "OXHLO_CUDA_NARROW_PARTS", |p: i64| matches!(p, 1 | 2 | 4 | 8), 8)
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

/// Threads of a `Rows` pass block when there are enough blocks to fill the device: 256 unless
/// `OXHLO_CUDA_ROWS_THREADS` says otherwise (a multiple of 32 from 64 to 1024; read once; a knob for
/// measuring).
pub fn rows_threads() -> i64 {
    static T: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    knob(&T, "OXHLO_CUDA_ROWS_THREADS", |t: i64| (64..=1024).contains(&t) && t % 32 == 0, 256)
}

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

/// Blocks of a `Cols4` pass with several reductions that must fit an SM at once (`__launch_bounds__`;
/// resnet18's batch-norm sums of 4 reductions took 96-128 registers unbounded, 2 blocks an SM): 3 unless
/// `OXHLO_CUDA_MULTI_BLOCKS` says otherwise (0: unbounded; read once; a knob for measuring).
pub(crate) fn multi_min_blocks() -> u32 {
    static B: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    knob(&B, "OXHLO_CUDA_MULTI_BLOCKS", |b| b <= 8, 3)
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

/// Whether a lone [`Shape::ClusterCols4`] sum folds its partial rows in its last cluster
/// ([`folded_launch`]) rather than in a second launch: yes unless `OXHLO_CUDA_NARROW_FOLD=0` (read once;
/// a knob for measuring). The folding kernel's dependents launch at its completion
/// ([`crate::nvrtc::NO_EARLY_DEPENDENTS`]): launched early, the next call's clusters took SM slots while
/// it ran ([262144, 64] on the H200: 63% of the copy bandwidth, against 72% in two launches).
fn narrow_fold() -> bool {
    static F: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    crate::on_unless_off(&F, "OXHLO_CUDA_NARROW_FOLD")
}

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

/// Column partials of at most this many parts are combined by one pass (each thread folding up to
/// `FINISH_PARTS / FINISH_LANES` of them), not split again: the batch-norm sums of a ResNet step
/// (512 parts of 64 columns) took two small launches after the main pass.
pub const FINISH_PARTS: i64 = 512;

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

/// The blocks a split of few long rows (or groups) into parts aims at, a block a part: two for each of
/// an H100's or H200's 132 multiprocessors (`variadic_reduce::split_parts`, `top_k_select::Form::Split`).
pub const SPLIT_BLOCKS: i64 = 264;

/// Parts each of `rows` rows of `len` elements splits into to give the device [`SPLIT_BLOCKS`] blocks,
/// no part shorter than `min_part` (at least one part).
pub fn split_count(rows: i64, len: i64, min_part: i64) -> i64 {
    let rows = rows.max(1);
    ((SPLIT_BLOCKS + rows - 1) / rows).min(len / min_part.max(1)).max(1)
}
