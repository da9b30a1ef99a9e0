//! Long rows of packed one-key sorts ([`crate::sort_packed`]) by merging instead of the bitonic
//! network's stages across chunks: every chunk of `c` slots is sorted in registers as before
//! ([`crate::sort_registers::large_packed`]'s chunk launch), then each pass merges pairs of sorted runs
//! of `w` slots into runs of `2 w` (`w = c, 2 c, ...` until one run is the row): log2(p / c) launches
//! that each read and write the slots once, where the network took a launch or two per stage plus
//! every stage's steps within chunks again.
//!
//! A merge pass is a block a tile of [`tile`] output slots (up to 2048, a thread 8): warps 0 and 1 find where the
//! tile's first and last outputs cut the two runs (a merge-path search: the count `i` of outputs taken
//! from the first run, a warp probing 32 candidates a round), the block loads those two stretches
//! (a tile's slots in all) into shared memory, each thread finds its own cut there and merges its
//! outputs, and the block stores the tile coalesced. Packed slots are distinct (each holds its
//! position) and padding (all ones) sorts after every element, so there are no ties to keep stable
//! and the merge is the sorted order. The last pass gathers the operands by the sorted positions
//! straight into the results.
//!
//! `OXHLO_CUDA_SORT_MERGE=0` keeps the network's stages.

use std::fmt::Write;

/// Output slots a block of a merge pass takes at most (256 threads, 8 each; [`tile`]).
pub const TILE: i64 = 2048;

/// The chunk a block sorts before the merges, given the largest the register networks take
/// (`network`): `OXHLO_CUDA_SORT_MERGE_CHUNK` (a power of two from 1024 to `network`) or [`CHUNK`].
pub fn chunk(network: i64) -> i64 {
    let asked = std::env::var("OXHLO_CUDA_SORT_MERGE_CHUNK").ok().and_then(|v| v.parse::<i64>().ok());
    let c = asked.filter(|c| c.count_ones() == 1).unwrap_or(CHUNK);
    c.clamp(1024, network)
}

/// The default chunk of [`chunk`]: on an H100 (session 31) a [16, 65536] sort took 112 us of kernels
/// with chunks of 1024 (the chunk sort 39, six passes 11-17 each), 143 with 4096 (the chunk sort 78 at
/// 256 blocks, four passes 13-22), XLA's 177.
const CHUNK: i64 = 1024;

/// The output slots a block of a merge pass takes after chunks of `c` (its slots fit in the chunk
/// sort's shared arrays).
pub fn tile(c: i64) -> i64 {
    c.min(TILE)
}

/// Whether long packed rows merge (`OXHLO_CUDA_SORT_MERGE=0` keeps the network's stages).
pub fn enabled() -> bool {
    !crate::env_off("OXHLO_CUDA_SORT_MERGE")
}

/// The launches of a merge sort of `rows` rows of `n` elements (`p` slots, the next power of two) in
/// chunks of `c`, as `(k, j, steps, work items)` of [`crate::sort_registers::large_packed`]'s kernel
/// (a block of 256 threads per 256 items): `(c, -1, 0)` sorts every chunk into the scratch's first
/// slot buffer, then `(w, -2, s)` for each run length `w`, `s & 1` the buffer it reads, `s & 2` set on
/// the last pass (which writes the results).
pub fn launches(rows: i64, n: i64, c: i64) -> Vec<(i64, i64, i64, i64)> {
    let p = (n as u64).next_power_of_two() as i64;
    let tile = tile(c);
    let mut out = vec![(c, -1, 0, rows * (p / c) * 256)];
    let mut w = c;
    let mut from = 0;
    while w < p {
        let last = if 2 * w >= p { 2 } else { 0 };
        out.push((w, -2, from | last, rows * (p / tile) * 256));
        from ^= 1;
        w *= 2;
    }
    out
}

/// Bytes of a merge sort's scratch: two buffers of `rows * p` 64-bit slots the passes alternate
/// between (the chunk launch writes the first).
pub fn scratch_bytes(rows: i64, n: i64) -> i64 {
    rows * ((n as u64).next_power_of_two() as i64) * 16
}

/// `oxs_split(a, b, w, d)`, called by a whole warp: how many of the first `d` slots of the merge of
/// sorted runs `a` and `b` (`w` slots each) come from `a`.
pub const SPLIT: &str = "// How many of the first d slots of the merge of sorted runs a and b (w slots each) come from a
// (a whole warp calls it: 32 candidates a round, the first whose slot in a sorts after b's partner).
__device__ __forceinline__ long long oxs_split(const unsigned long long* a, const unsigned long long* b, long long w, long long d) {
  long long lo = d > w ? d - w : 0, hi = d < w ? d : w;
  const int lane = threadIdx.x & 31;
  while (lo < hi) {
    const long long step = (hi - lo + 31) / 32, i = lo + lane * step;
    const bool before = i < hi && a[i] <= b[d - 1 - i];
    const int c = __popc(__ballot_sync(0xffffffffu, before));
    if (c == 0) {
      hi = lo;
    } else {
      if (lo + c * step < hi) hi = lo + c * step;
      lo += (c - 1) * step + 1;
    }
  }
  return lo;
}
";

/// The kernel's merge-pass branch (`j == -2`, see the module doc) for rows of `n` elements `inner`
/// apart, `p` slots a row, the scratch's slot buffers `kv0` and `kv0 + rows * p`; the last pass gathers
/// each of the `operands` inputs to its output. It works in the chunk launch's shared arrays (a block
/// declares at most 48 KiB): `ms` of at least [`tile`] 64-bit slots, `cut` of at least two ints.
pub fn merge_branch(operands: usize, n: i64, inner: i64, p: i64, c: i64, ms: &str, cut: &str) -> String {
    let tile = tile(c);
    let per = tile / 256;
    let mut src = String::new();
    let _ = writeln!(src, "  if (j == -2) {{");
    let _ = writeln!(src, "    unsigned long long* ms = {ms};\n    int* cut = {cut};");
    let _ = writeln!(src, "    const unsigned long long* from = (steps & 1) ? kv0 + rows * {p}LL : kv0;");
    let _ = writeln!(src, "    unsigned long long* to = (steps & 1) ? kv0 : kv0 + rows * {p}LL;");
    let _ = writeln!(src, "    for (long long tile = blockIdx.x; tile < rows * {}LL; tile += gridDim.x) {{", p / tile);
    let _ = writeln!(src, "      const long long row = tile / {}LL, t0 = (tile % {}LL) * {tile}LL;", p / tile, p / tile);
    // The pair of runs this tile's outputs come from, and its first output's place in their merge.
    let _ = writeln!(src, "      const long long s0 = (t0 / (2 * k)) * 2 * k, d0 = t0 - s0;");
    let _ = writeln!(src, "      const unsigned long long* a = from + row * {p}LL + s0;\n      const unsigned long long* b = a + k;");
    let _ = writeln!(src, "      if (threadIdx.x < 64) {{\n        const long long i = oxs_split(a, b, k, d0 + (threadIdx.x >> 5) * {tile}LL);");
    let _ = writeln!(src, "        if ((threadIdx.x & 31) == 0) cut[threadIdx.x >> 5] = (int)i;\n      }}\n      __syncthreads();");
    // The stretches of a (first) and b (after it) the tile takes.
    let _ = writeln!(src, "      const long long i0 = cut[0];\n      const int la = (int)(cut[1] - i0);\n      const long long j0 = d0 - i0;");
    let _ = writeln!(src, "      for (int t = threadIdx.x; t < {tile}; t += blockDim.x) ms[t] = t < la ? a[i0 + t] : b[j0 + t - la];");
    let _ = writeln!(src, "      __syncthreads();");
    // This thread's `per` outputs: its cut of the two stretches, then a sequential merge.
    let _ = writeln!(src, "      const int d = threadIdx.x * {per};");
    let _ = writeln!(src, "      int lo = d > {tile} - la ? d - ({tile} - la) : 0, hi = d < la ? d : la;");
    let _ = writeln!(src, "      while (lo < hi) {{\n        const int mid = (lo + hi) >> 1;\n        if (ms[mid] <= ms[la + d - 1 - mid]) lo = mid + 1; else hi = mid;\n      }}");
    let _ = writeln!(src, "      int ia = lo, ib = la + d - lo;\n      unsigned long long v[{per}];");
    let _ = writeln!(src, "      #pragma unroll\n      for (int e = 0; e < {per}; e++) {{");
    let _ = writeln!(src, "        const unsigned long long x = ia < la ? ms[ia] : ~0ULL, y = ib < {tile} ? ms[ib] : ~0ULL;");
    let _ = writeln!(src, "        const bool first = x <= y;\n        v[e] = first ? x : y;\n        ia += first;\n        ib += !first;\n      }}");
    let _ = writeln!(src, "      __syncthreads();");
    let _ = writeln!(src, "      #pragma unroll\n      for (int e = 0; e < {per}; e++) ms[d + e] = v[e];\n      __syncthreads();");
    let _ = writeln!(src, "      if (steps & 2) {{");
    let _ = writeln!(src, "        const long long base = (row / {inner}LL) * {}LL + row % {inner}LL;", n * inner);
    let _ = writeln!(src, "        for (int t = threadIdx.x; t < {tile} && t0 + t < {n}LL; t += blockDim.x) {{");
    let _ = writeln!(src, "          const long long at = (long long)(unsigned)ms[t];");
    for j in 0..operands {
        let _ = writeln!(src, "          out{j}[base + (t0 + t) * {inner}LL] = in{j}[base + at * {inner}LL];");
    }
    let _ = writeln!(src, "        }}\n      }} else {{");
    let _ = writeln!(src, "        for (int t = threadIdx.x; t < {tile}; t += blockDim.x) to[row * {p}LL + t0 + t] = ms[t];\n      }}");
    let _ = writeln!(src, "      __syncthreads();\n    }}\n    return;\n  }}");
    src
}
