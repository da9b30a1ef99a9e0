//! The CUDA C of every reduction pass: row passes (a block or a warp per row part), column passes
//! over elements (`Cols4`, clustered, the cluster column pass), passes over partial results, folds in
//! the last block or cluster, and fused passes that compute their operands ([`render_fused_pass`]).

use super::*;

/// Tiles a [`Shape::ClusterCols4`] pass over elements alone loads behind one bounds check: 8 unless
/// `OXHLO_CUDA_NARROW_UNROLL` says otherwise (1 to 16; read once; a knob for measuring). Fused passes
/// (elementwise work and stores per element) keep [`cols4_unroll`]'s.
pub(crate) fn narrow_unroll() -> u32 {
    static U: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    knob(&U, "OXHLO_CUDA_NARROW_UNROLL", |u| (1..=16).contains(&u), 8)
}

/// Blocks of a [`Shape::ClusterCols4`] pass that must fit an SM at once (`__launch_bounds__`): 3 unless
/// `OXHLO_CUDA_NARROW_MIN_BLOCKS` says otherwise (1 to 8; read once; a knob for measuring). Fewer
/// registers keep fewer of the batched loads in flight (ptxas, the row stride a constant: all 8 at 80
/// registers, 3 blocks an SM); more let more clusters (8 blocks on the SMs of one GPC) run at once (2:
/// 60% of the copy). [262144, 64] f32 sums on the H200 (session 23, two visits): 3 blocks 78-79% of
/// the copy, 4 blocks 77-78%; [65536, 128] the same (81-84%).
fn narrow_min_blocks() -> u32 {
    static B: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    knob(&B, "OXHLO_CUDA_NARROW_MIN_BLOCKS", |b| (1..=8).contains(&b), 3)
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
/// constant unless `OXHLO_CUDA_NARROW_CONST=0` ([`narrow_const`]).
pub fn render_launch(kind: Kind, rk: ReduceKind, l: &Launch) -> Option<String> {
    render_launch_with(kind, rk, l, narrow_const(), false)
}

/// [`render_folded`] for launch `l` (as [`render_launch`]).
pub fn render_folded_launch(kind: Kind, rk: ReduceKind, l: &Launch) -> Option<String> {
    render_launch_with(kind, rk, l, narrow_const(), true)
}

/// [`render_launch`] (or with `folded`, [`render_folded_launch`]) with the column count written in as a
/// constant when `constant` (and `l` is a [`Shape::ClusterCols4`] pass over elements), whatever
/// [`narrow_const`] says: for tests.
pub fn render_launch_with(kind: Kind, rk: ReduceKind, l: &Launch, constant: bool, folded: bool) -> Option<String> {
    let inner = (constant && l.pass.shape == Shape::ClusterCols4 && !l.pass.from_partials).then_some(l.inner);
    if folded {
        folded_with(kind, rk, l.pass.shape, inner)
    } else {
        render_pass_with(kind, rk, l.pass, Finish::Launch, inner)
    }
}

/// Whether [`Shape::ClusterCols4`] kernels are rendered for their launch's column count, a constant in
/// the source (one kernel per shape): on unless `OXHLO_CUDA_NARROW_CONST=0` (read once). With the row
/// stride a constant the loads take immediate offsets: 64 MiB sums of [262144, 64] 74% -> 78% of the
/// copy, [65536, 128] 75% -> 81% (H200, session 23; with the stride a launch scalar ptxas kept 4 of 8
/// tiles' loads in flight).
pub fn narrow_const() -> bool {
    static C: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    knob(&C, "OXHLO_CUDA_NARROW_CONST", |v| v <= 1, 1) == 1
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
    folded_with(kind, rk, shape, None)
}

/// [`render_folded`], a [`Shape::ClusterCols4`] pass over `inner_const` columns when given.
fn folded_with(kind: Kind, rk: ReduceKind, shape: Shape, inner_const: Option<i64>) -> Option<String> {
    if !matches!(shape, Shape::Rows | Shape::Cols4 | Shape::ClusterCols4) {
        return None;
    }
    render_pass_with(kind, rk, Pass { shape, from_partials: false, to_partials: true }, Finish::Fold, inner_const)
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

/// Vectors a `Rows` pass thread loads behind one bounds check: 4 unless `OXHLO_CUDA_ROWS_BATCH` says
/// otherwise (1 to 8; read once; a knob for measuring).
fn rows_batch() -> usize {
    static B: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    knob(&B, "OXHLO_CUDA_ROWS_BATCH", |b| (1..=8).contains(&b), 4)
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
pub(crate) fn finish_cols_kernel(params: &str, acc: &str, ident: &str, step: &str, result: &dyn Fn(&str, &str) -> String) -> String {
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

/// Whether a folded `Rows` pass's blocks count themselves with one release-acquire atomic (thread 0
/// stored the block's partial; the folding block's threads acquire with `fence.acq_rel.gpu`) rather
/// than a sequentially consistent `__threadfence()` before a relaxed `atomicAdd` (each block's slot
/// held while its fence drains): on unless `OXHLO_CUDA_FOLD_RELEASE=0` (read once; a knob for
/// measuring). Below sm_70 (no release-acquire atomics) the fence stays.
fn fold_release() -> bool {
    static R: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    crate::on_unless_off(&R, "OXHLO_CUDA_FOLD_RELEASE")
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
