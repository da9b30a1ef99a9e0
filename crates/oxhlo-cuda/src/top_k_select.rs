//! `chlo.top_k` of few (`k` up to [`SELECT_MAX_K`]) by selection instead of sorting: each thread walks
//! its share of the row (positions `lane`, `lane + 32`, ... with a warp a row; a block a row for rows
//! longer than [`WARP_ROW_MAX`]) keeping its best `P` (k's next power of two) in registers, sorted, a
//! new element inserted by compare-and-swap steps; then the lists are merged in pairs by warp shuffles
//! (each pair's best `P`: the elementwise better of one list and the other reversed, a bitonic
//! sequence, sorted by a bitonic merge), and for a block the warps' lists once more through shared
//! memory. The order is the interpreter's: descending by the element type's total order (the key
//! `oxh_tok` gives floats: -0.0 below +0.0, NaNs by sign at the ends), ties by ascending position, so
//! the `k` kept and their order are exactly its own. One pass over the row, no sorting network.

use crate::render::{kind_of, load, storage_type, ENTRY};
use crate::rows::ROW_THREADS;
use oxhlo_cpu::Kind;
use oxhlo_ir::{Attr, Func, Op, OpKind};
use std::fmt::Write;

/// The largest `k` taken by selection (the lists live in registers).
pub const SELECT_MAX_K: i64 = 16;

/// Rows up to this length take a warp each, longer ones a block of `rows::ROW_THREADS`.
pub const WARP_ROW_MAX: i64 = 4096;

/// Rows longer than [`WARP_ROW_MAX`] take selection only when there are at least this many.
pub const FEW_ROWS: i64 = 128;

/// Whether top_k `op` runs by selection, and then whether a warp takes a row (else a block).
pub fn selects(func: &Func, op: &Op) -> Option<bool> {
    if op.kind != OpKind::ChloTopK || crate::env_off("OXHLO_CUDA_TOP_K_SELECT") || crate::env_off("OXHLO_CUDA_SORT") || op.operands.len() != 1 || op.results.len() != 2 {
        return None;
    }
    let (kind, shape) = kind_of(func, op.operands[0])?;
    let n = *shape.last()?;
    let k = op.attr("k").and_then(Attr::as_int)?;
    let supported = !matches!(kind, Kind::Bool | Kind::C64 | Kind::C128);
    // Few long rows (a block each) leave most of the GPU idle: the network form spreads a row's chunks
    // over blocks (top_k 8 of [16, 65536] on the H200: 0.081 ms of device time by selection, ~0.06 so).
    let rows = crate::render::checked_numel(&shape)? / n.max(1);
    let few_long = n > WARP_ROW_MAX && rows < FEW_ROWS;
    (supported && !few_long && (1..=SELECT_MAX_K).contains(&k) && k <= n && n <= i32::MAX as i64 / 2).then_some(n <= WARP_ROW_MAX)
}

/// The selection kernel of top_k `op`: signature `(long long rows, const T* in0, T* out0, I* out1)`.
pub fn render(func: &Func, op: &Op) -> Option<String> {
    let warp = selects(func, op)?;
    let (kind, shape) = kind_of(func, op.operands[0])?;
    let (ik, _) = kind_of(func, op.results[1])?;
    let params = [format!("const {}* __restrict__ in0", storage_type(kind)?), format!("{}* __restrict__ out0", storage_type(kind)?), format!("{}* __restrict__ out1", storage_type(ik)?)];
    // The order's key of an element: floats by their total order's integer key.
    let key = |v: &str| if crate::render::is_float(kind) { format!("oxh_tok({v})") } else { v.to_string() };
    let n = *shape.last()?;
    let k = op.attr("k").and_then(Attr::as_int)?;
    let p = (k as u64).next_power_of_two() as usize;
    let warps = ROW_THREADS / 32;
    let mut src = String::from(crate::render::PRELUDE);
    let _ = writeln!(src, "typedef decltype({}) oxt_key;", key(&load(kind, "((const {}*)0)", "0").replace("{}", storage_type(kind)?)));
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
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__({ROW_THREADS}) {ENTRY}(long long rows, {}) {{", params.join(", "));
    let _ = writeln!(src, "  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;");
    let (first, step, start, stride) = if warp { ("(long long)blockIdx.x * 8 + wid", "(long long)gridDim.x * 8", "lane", "32") } else { ("(long long)blockIdx.x", "(long long)gridDim.x", "(int)threadIdx.x", "(int)blockDim.x") };
    if !warp {
        let _ = writeln!(src, "  __shared__ oxt_key sk[{warps}][{p}];\n  __shared__ int si[{warps}][{p}];");
    }
    let _ = writeln!(src, "  for (long long row = {first}; row < rows; row += {step}) {{");
    let _ = writeln!(src, "    const long long base = row * {n}LL;");
    let _ = writeln!(src, "    oxt_key kv[{p}]; int iv[{p}];");
    let _ = writeln!(src, "    #pragma unroll\n    for (int q = 0; q < {p}; q++) {{ kv[q] = 0; iv[q] = 0x7fffffff; }}");
    let _ = writeln!(src, "    for (int i = {start}; i < {n}; i += {stride}) {{");
    let _ = writeln!(src, "      const oxt_key x = {};", key(&load(kind, "in0", "base + i")));
    let _ = writeln!(src, "      if (oxt_better(x, i, kv[{l}], iv[{l}])) {{\n        kv[{l}] = x; iv[{l}] = i;", l = p - 1);
    let _ = writeln!(src, "        #pragma unroll\n        for (int a = {}; a > 0; a--) {{ const int b = a - 1; if (oxt_better(kv[a], iv[a], kv[b], iv[b])) {swap} }}", p - 1);
    let _ = writeln!(src, "      }}\n    }}");
    let _ = writeln!(src, "    oxt_merge(kv, iv);");
    let write = format!("for (int q = 0; q < {k}; q++) {{ out0[row * {k}LL + q] = in0[base + iv[q]]; out1[row * {k}LL + q] = ({})iv[q]; }}", storage_type(ik)?);
    if warp {
        let _ = writeln!(src, "    if (lane == 0) {write}");
    } else {
        let _ = writeln!(src, "    if (lane == 0) {{\n      #pragma unroll\n      for (int q = 0; q < {p}; q++) {{ sk[wid][q] = kv[q]; si[wid][q] = iv[q]; }}\n    }}");
        let _ = writeln!(src, "    __syncthreads();");
        let _ = writeln!(src, "    if (wid == 0) {{");
        let _ = writeln!(src, "      #pragma unroll\n      for (int q = 0; q < {p}; q++) {{ kv[q] = lane < {warps} ? sk[lane][q] : (oxt_key)0; iv[q] = lane < {warps} ? si[lane][q] : 0x7fffffff; }}");
        let _ = writeln!(src, "      oxt_merge(kv, iv);");
        let _ = writeln!(src, "      if (lane == 0) {write}\n    }}");
        let _ = writeln!(src, "    __syncthreads();");
    }
    let _ = writeln!(src, "  }}\n}}");
    Some(src)
}
