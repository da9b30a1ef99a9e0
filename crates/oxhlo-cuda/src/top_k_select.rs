//! `chlo.top_k` of few (`k` up to [`SELECT_MAX_K`]) by selection instead of sorting: each thread walks
//! its share of the row (positions `lane`, `lane + 32`, ... with a warp a row; a block a row for rows
//! longer than [`WARP_ROW_MAX`]) keeping its best `P` (k's next power of two) in registers, sorted, a
//! new element inserted by compare-and-swap steps; then the lists are merged in pairs by warp shuffles
//! (each pair's best `P`: the elementwise better of one list and the other reversed, a bitonic
//! sequence, sorted by a bitonic merge), and for a block the warps' lists once more through shared
//! memory. Few long rows ([`Form::Split`]) are cut into parts, a block a part, each keeping its part's
//! best `k` positions in a scratch buffer; a second launch selects a row's `k` from its parts'
//! candidates the same way. The order is the interpreter's: descending by the element type's total
//! order (the key `oxh_tok` gives floats: -0.0 below +0.0, NaNs by sign at the ends), ties by
//! ascending position (compared explicitly, so candidates may come in any order), so the `k` kept and
//! their order are exactly its own. One pass over the row, no sorting network.

use crate::render::{kind_of, load, storage_type, ENTRY};
use crate::rows::ROW_THREADS;
use oxhlo_cpu::Kind;
use oxhlo_ir::{Attr, Func, Op, OpKind};
use std::fmt::Write;

/// The largest `k` taken by selection (the lists live in registers).
pub const SELECT_MAX_K: i64 = 16;

/// Rows up to this length take a warp each, longer ones a block of `rows::ROW_THREADS`.
pub const WARP_ROW_MAX: i64 = 4096;

/// Rows longer than [`WARP_ROW_MAX`] take a block each when there are at least this many; fewer are
/// split into parts ([`Form::Split`]).
pub const FEW_ROWS: i64 = 128;

/// The fewest positions a part of a split row holds (four a thread of its block).
const MIN_PART: i64 = 1024;

/// How a top_k by selection spreads its rows over the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A warp a row, eight rows a block (one launch, the row-kernel signature).
    Warp,
    /// A block a row (one launch, the row-kernel signature).
    Block,
    /// Few long rows: each cut into `parts` parts of `len` positions (`reduce::split_count`), a block
    /// a part keeping its best `k` positions in scratch (`j == -2`), then a block a row selecting from
    /// them (`j == -3`); the long-sort signature `(rows, k, j, steps, in0, pos, out0, out1)`,
    /// [`launches`] and [`scratch_bytes`].
    Split { parts: i64, len: i64 },
}

/// Whether top_k `op` runs by selection, and then how its rows spread ([`Form`]).
pub fn selects(func: &Func, op: &Op) -> Option<Form> {
    if op.kind != OpKind::ChloTopK || crate::env_off("OXHLO_CUDA_TOP_K_SELECT") || crate::env_off("OXHLO_CUDA_SORT") || op.operands.len() != 1 || op.results.len() != 2 {
        return None;
    }
    let (kind, shape) = kind_of(func, op.operands[0])?;
    let n = *shape.last()?;
    let k = op.attr("k").and_then(Attr::as_int)?;
    let supported = !matches!(kind, Kind::Bool | Kind::C64 | Kind::C128);
    if !(supported && (1..=SELECT_MAX_K).contains(&k) && k <= n && n <= i32::MAX as i64 / 2) {
        return None;
    }
    if n <= WARP_ROW_MAX {
        return Some(Form::Warp);
    }
    // Few long rows, a block each, would leave most of the GPU idle (top_k 8 of [16, 65536] on the
    // H200: 0.081 ms of device time a block a row): their parts spread over the GPU instead.
    let rows = crate::render::checked_numel(&shape)? / n.max(1);
    if rows >= FEW_ROWS || crate::env_off("OXHLO_CUDA_TOP_K_SPLIT") {
        return Some(Form::Block);
    }
    let parts = crate::reduce::split_count(rows, n, MIN_PART);
    let len = (n + parts - 1) / parts;
    Some(Form::Split { parts: (n + len - 1) / len, len })
}

/// The launches of a split top_k ([`Form::Split`]) as `(k, j, steps, work items)` scalars of its kernel
/// (a block of 256 threads per 256 items): its parts, then its rows.
pub fn launches(func: &Func, op: &Op) -> Option<Vec<(i64, i64, i64, i64)>> {
    let Form::Split { parts, .. } = selects(func, op)? else { return None };
    let rows = crate::sort::rows_of(func, op)?.0;
    Some(vec![(0, -2, 0, rows * parts * 256), (0, -3, 0, rows * 256)])
}

/// Bytes of a split top_k's scratch buffer: each part's `k` best positions.
pub fn scratch_bytes(func: &Func, op: &Op) -> Option<i64> {
    let Form::Split { parts, .. } = selects(func, op)? else { return None };
    let k = op.attr("k").and_then(Attr::as_int)?;
    Some(crate::sort::rows_of(func, op)?.0 * parts * k * 4)
}

/// The selection kernel of top_k `op`: signature `(long long rows, const T* in0, T* out0, I* out1)`, or
/// for [`Form::Split`] `(long long rows, long long k, long long j, long long steps, const T* in0, int*
/// pos, T* out0, I* out1)`.
pub fn render(func: &Func, op: &Op) -> Option<String> {
    let form = selects(func, op)?;
    let (kind, shape) = kind_of(func, op.operands[0])?;
    let (ik, _) = kind_of(func, op.results[1])?;
    let (t, it) = (storage_type(kind)?, storage_type(ik)?);
    let mut params = vec![format!("const {t}* __restrict__ in0"), format!("{t}* __restrict__ out0"), format!("{it}* __restrict__ out1")];
    if let Form::Split { .. } = form {
        params.insert(1, "int* __restrict__ pos".to_string());
        params.splice(0..0, ["long long k".to_string(), "long long j".to_string(), "long long steps".to_string()]);
    }
    // The order's key of an element: floats by their total order's integer key.
    let key = |v: &str| if crate::render::is_float(kind) { format!("oxh_tok({v})") } else { v.to_string() };
    let n = *shape.last()?;
    let k = op.attr("k").and_then(Attr::as_int)?;
    let p = (k as u64).next_power_of_two() as usize;
    let warps = ROW_THREADS / 32;
    let mut src = String::from(crate::render::PRELUDE);
    let _ = writeln!(src, "typedef decltype({}) oxt_key;", key(&load(kind, "((const {}*)0)", "0").replace("{}", t)));
    // Empty slots (position 0x7fffffff) come after every element.
    let _ = writeln!(src, "__device__ __forceinline__ bool oxt_better(oxt_key ka, int ia, oxt_key kb, int ib) {{");
    let _ = writeln!(src, "  return ib == 0x7fffffff ? ia != 0x7fffffff : ia != 0x7fffffff && (ka > kb || (ka == kb && ia < ib));\n}}");
    let swap = "{ const oxt_key t = kv[a]; kv[a] = kv[b]; kv[b] = t; const int u = iv[a]; iv[a] = iv[b]; iv[b] = u; }";
    // Merges the lists of lanes `lane` and `lane + off` for off = 16 .. 1: lane 0 ends with the warp's best.
    let _ = writeln!(src, "__device__ __forceinline__ void oxt_merge(oxt_key* kv, int* iv) {{");
    let _ = writeln!(src, "  #pragma unroll\n  for (int off = 16; off > 0; off >>= 1) {{");
    let _ = writeln!(src, "    oxt_key ok[{p}]; int oi[{p}];");
    let _ = writeln!(src, "    #pragma unroll\n    for (int q = 0; q < {p}; q++) {{ ok[q] = __shfl_down_sync(0xffffffffu, kv[q], off); oi[q] = __shfl_down_sync(0xffffffffu, iv[q], off); }}");
    let _ = writeln!(src, "    #pragma unroll\n    for (int q = 0; q < {p}; q++) if (oxt_better(ok[{p} - 1 - q], oi[{p} - 1 - q], kv[q], iv[q])) {{ kv[q] = ok[{p} - 1 - q]; iv[q] = oi[{p} - 1 - q]; }}");
    let _ = writeln!(src, "    #pragma unroll\n    for (int j = {}; j > 0; j >>= 1) {{", p / 2);
    let _ = writeln!(src, "      #pragma unroll\n      for (int a = 0; a < {p}; a++) {{ const int b = a + j; if ((a & j) == 0 && oxt_better(kv[b], iv[b], kv[a], iv[a])) {swap} }}");
    let _ = writeln!(src, "    }}\n  }}\n}}");
    // Inserts element (x, i) into a thread's sorted list when it beats the list's last.
    let _ = writeln!(src, "__device__ __forceinline__ void oxt_insert(oxt_key* kv, int* iv, oxt_key x, int i) {{");
    let _ = writeln!(src, "  if (oxt_better(x, i, kv[{l}], iv[{l}])) {{\n    kv[{l}] = x; iv[{l}] = i;", l = p - 1);
    let _ = writeln!(src, "    #pragma unroll\n    for (int a = {}; a > 0; a--) {{ const int b = a - 1; if (oxt_better(kv[a], iv[a], kv[b], iv[b])) {swap} }}", p - 1);
    let _ = writeln!(src, "  }}\n}}");
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__({ROW_THREADS}) {ENTRY}(long long rows, {}) {{", params.join(", "));
    let _ = writeln!(src, "  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;");
    let init = format!("    oxt_key kv[{p}]; int iv[{p}];\n    #pragma unroll\n    for (int q = 0; q < {p}; q++) {{ kv[q] = 0; iv[q] = 0x7fffffff; }}\n");
    let element = |i: &str| key(&load(kind, "in0", &format!("base + {i}")));
    let write = format!("for (int q = 0; q < {k}; q++) {{ out0[row * {k}LL + q] = in0[base + iv[q]]; out1[row * {k}LL + q] = ({it})iv[q]; }}");
    // A block's lists merged: each warp's by shuffles, then the warps' through shared memory; `done`
    // runs on lane 0 of warp 0 with the block's best in kv / iv.
    let block_merge = |src: &mut String, done: &str| {
        let _ = writeln!(src, "    oxt_merge(kv, iv);");
        let _ = writeln!(src, "    if (lane == 0) {{\n      #pragma unroll\n      for (int q = 0; q < {p}; q++) {{ sk[wid][q] = kv[q]; si[wid][q] = iv[q]; }}\n    }}");
        let _ = writeln!(src, "    __syncthreads();");
        let _ = writeln!(src, "    if (wid == 0) {{");
        let _ = writeln!(src, "      #pragma unroll\n      for (int q = 0; q < {p}; q++) {{ kv[q] = lane < {warps} ? sk[lane][q] : (oxt_key)0; iv[q] = lane < {warps} ? si[lane][q] : 0x7fffffff; }}");
        let _ = writeln!(src, "      oxt_merge(kv, iv);");
        let _ = writeln!(src, "      if (lane == 0) {done}\n    }}");
        let _ = writeln!(src, "    __syncthreads();");
    };
    if form != Form::Warp {
        let _ = writeln!(src, "  __shared__ oxt_key sk[{warps}][{p}];\n  __shared__ int si[{warps}][{p}];");
    }
    match form {
        Form::Warp => {
            let _ = writeln!(src, "  for (long long row = (long long)blockIdx.x * 8 + wid; row < rows; row += (long long)gridDim.x * 8) {{");
            let _ = writeln!(src, "    const long long base = row * {n}LL;\n{init}    for (int i = lane; i < {n}; i += 32) oxt_insert(kv, iv, {}, i);", element("i"));
            let _ = writeln!(src, "    oxt_merge(kv, iv);\n    if (lane == 0) {write}");
        }
        Form::Block => {
            let _ = writeln!(src, "  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {{");
            let _ = writeln!(src, "    const long long base = row * {n}LL;\n{init}    for (int i = threadIdx.x; i < {n}; i += blockDim.x) oxt_insert(kv, iv, {}, i);", element("i"));
            block_merge(&mut src, &write);
        }
        Form::Split { parts, len } => {
            // The parts: a part's best k positions (empty slots too, for parts shorter than k) at pos[c * k].
            let _ = writeln!(src, "  if (j == -2) {{");
            let _ = writeln!(src, "  for (long long c = blockIdx.x; c < rows * {parts}LL; c += gridDim.x) {{");
            let _ = writeln!(src, "    const long long row = c / {parts}LL, base = row * {n}LL;\n    const int lo = (int)(c % {parts}LL) * {len}, hi = min(lo + {len}, {n});");
            let _ = writeln!(src, "{init}    for (int i = lo + (int)threadIdx.x; i < hi; i += blockDim.x) oxt_insert(kv, iv, {}, i);", element("i"));
            block_merge(&mut src, &format!("for (int q = 0; q < {k}; q++) pos[c * {k}LL + q] = iv[q];"));
            let _ = writeln!(src, "  }}\n  return;\n  }}");
            // The rows: their parts' candidates, in any order (ties compare positions).
            let _ = writeln!(src, "  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {{");
            let _ = writeln!(src, "    const long long base = row * {n}LL;\n{init}    for (int c = threadIdx.x; c < {}; c += blockDim.x) {{", parts * k);
            let _ = writeln!(src, "      const int i = pos[row * {}LL + c];\n      if (i != 0x7fffffff) oxt_insert(kv, iv, {}, i);\n    }}", parts * k, element("i"));
            block_merge(&mut src, &write);
        }
    }
    let _ = writeln!(src, "  }}\n}}");
    Some(src)
}
