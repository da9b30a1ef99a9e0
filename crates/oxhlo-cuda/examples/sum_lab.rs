//! A measuring bench for 64 MiB sum kernel designs on the device (`cargo build --release -p oxhlo-cuda
//! --example sum_lab`, run on the GPU machine): the backend's own sums (`reduce::try_reduce`) beside
//! hand-written alternatives of the same result, each timed on the device (`profile::device_ms_per_call`)
//! and checked against f64 sums on the host. Prints one line per design: microseconds a sum and the percentage of
//! the 256 MiB device-to-device copy's bandwidth (bytes read against bytes read + written).
//! Designs:
//! - `cluster W P U`: a column sum whose `P` parts of the reduced dim are the `P` blocks of one thread
//!   block cluster (sm_90), each summing its rows of `W` columns (4 columns a thread, loop unrolled by
//!   `U`); the cluster's first block adds the others' column sums from their shared memory in a fixed
//!   order. One launch, no partials in global memory.
//! - `warp_rows U`: a row sum with a warp per row, eight rows a block, unrolled by `U`.
//! - `block_rows T U`: a row sum with a block of `T` threads per row, unrolled by `U`.
//! - `fold_all T U per`: a whole-tensor sum, blocks of `T` threads over `per` elements each, the last
//!   block to finish folding the blocks' partials.
//! - `cluster_all T U per`: as `fold_all`, the blocks in clusters of 8 whose first block adds the
//!   others' sums from their shared memory, so only one block in 8 stores, fences and counts.
//! - `strided_all T`: a whole-tensor sum by blocks taking chunks in turn, each block counting itself
//!   with one release-acquire atomic, the last folding.
//! - `passes A+B`: a whole-tensor sum in two launches (4096-element chunks to partials, then one block
//!   of 1024 threads over them), each pass the backend's rendered one or the lab's (`chunks_pass`,
//!   `FINISH_ALL`): which of the backend's two passes costs.
//!
//! Findings on the H200 (sessions 20-21, crates/oxhlo-cuda/NOTES.md v19-v20): loads through the
//! read-only cache or plain ones time the same; a loop with a bounds check before every unrolled load
//! keeps one load in flight a thread (the backend's row pass did: 82% of copy, now 89-92%); cluster
//! passes run best when the next kernel launches only at their completion; whole-tensor sums: two
//! passes 18.4 us, folding designs 19.6-23, clusters of 8 folding 23-28; the instructions a block runs
//! before its first load cost the backend's passes 0.6-1.2 us each.
use oxhlo_cuda::device::{self, Kernel};
use oxhlo_cpu::{Buf, NTensor};
use oxhlo_ir::{ElementType, FloatType, TensorType};

const CLUSTER_HELPERS: &str = r#"
__device__ __forceinline__ unsigned oxh_rank() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ __forceinline__ void oxh_cluster_sync() { asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory"); }
__device__ __forceinline__ double oxh_peer(const double* p, unsigned rank) {
  unsigned a = (unsigned)__cvta_generic_to_shared(p), r; double v;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
  asm volatile("ld.shared::cluster.f64 %0, [%1];" : "=d"(v) : "r"(r) : "memory");
  return v;
}
"#;

fn cluster_cols(w: usize, p: usize, u: usize) -> String {
    format!(
        "{CLUSTER_HELPERS}
extern \"C\" __global__ void __cluster_dims__({p}, 1, 1) oxk(long long outer, long long red, long long inner, long long parts, const float* __restrict__ in0, const float* __restrict__ init, float* __restrict__ out0) {{
  __shared__ double sh[256][4];
  __shared__ double shc[{w}];
  const int q = {w} / 4, t = threadIdx.x, cg = t % q, tr = 256 / q;
  const unsigned part = oxh_rank();
  const long long g = blockIdx.x / {p};
  const long long chunk = (red + {p} - 1) / {p}, lo = part * chunk, hi = min(red, lo + chunk);
  const long long col0 = g * {w} + 4 * cg;
  double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  if (col0 < inner) {{
    const float* src = in0 + (lo + t / q) * inner + col0;
    const long long di = tr * inner;
    #pragma unroll {u}
    for (long long r = lo + t / q; r < hi; r += tr, src += di) {{
      const float4 v = __ldg((const float4*)src);
      a0 += v.x; a1 += v.y; a2 += v.z; a3 += v.w;
    }}
  }}
  sh[t][0] = a0; sh[t][1] = a1; sh[t][2] = a2; sh[t][3] = a3;
  __syncthreads();
  if (t < {w}) {{
    double s = sh[t >> 2][t & 3];
    for (int k = 1; k < tr; ++k) s += sh[k * q + (t >> 2)][t & 3];
    shc[t] = s;
  }}
  oxh_cluster_sync();
  if (part == 0 && t < {w} && g * {w} + t < inner) {{
    double s = oxh_peer(shc + t, 0);
    for (unsigned r = 1; r < {p}; ++r) s += oxh_peer(shc + t, r);
    out0[g * {w} + t] = (float)((double)init[0] + s);
  }}
  oxh_cluster_sync();
}}
"
    )
}

fn warp_rows(u: usize) -> String {
    format!(
        "extern \"C\" __global__ void oxk(long long outer, long long red, long long inner, long long parts, const float* __restrict__ in0, const float* __restrict__ init, float* __restrict__ out0) {{
  const long long row = blockIdx.x * 8 + (threadIdx.x >> 5);
  const int lane = threadIdx.x & 31;
  double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const float4* src = (const float4*)(in0 + row * red);
  #pragma unroll {u}
  for (long long c = lane; c < red / 4; c += 32) {{
    const float4 v = __ldg(src + c);
    a0 += v.x; a1 += v.y; a2 += v.z; a3 += v.w;
  }}
  double s = (a0 + a1) + (a2 + a3);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) out0[row] = (float)((double)init[0] + s);
}}
"
    )
}

/// CUDA C that sums `count` float4s at `src` (thread t from float4 t, `threads` apart, unrolled by
/// `u`) across the block into `s`, then runs `then` in thread 0 (`sh`: 32 doubles of shared memory).
fn block_sum(threads: usize, u: usize, src: &str, count: &str, then: &str) -> String {
    let combine = block_combine(threads, then);
    format!(
        "  const float4* src = (const float4*)({src});
  double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  #pragma unroll {u}
  for (long long c = threadIdx.x; c < {count}; c += {threads}) {{
    const float4 v = __ldg(src + c);
    a0 += v.x; a1 += v.y; a2 += v.z; a3 += v.w;
  }}
  double s = (a0 + a1) + (a2 + a3);
{combine}"
    )
}

/// CUDA C that adds the thread values `s` of a block of `threads` (warp shuffles, then `sh`: 32 doubles
/// of shared memory) and runs `then` in thread 0 with the block's sum in `s`.
fn block_combine(threads: usize, then: &str) -> String {
    format!(
        "  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) {{
    s = threadIdx.x < {threads} / 32 ? sh[threadIdx.x] : 0.0;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (threadIdx.x == 0) {{ {then} }}
  }}
"
    )
}

fn block_rows(threads: usize, u: usize) -> String {
    let body = block_sum(threads, u, "in0 + blockIdx.x * red", "red / 4", "out0[blockIdx.x] = (float)((double)init[0] + s);");
    format!(
        "extern \"C\" __global__ void oxk(long long outer, long long red, long long inner, long long parts, const float* __restrict__ in0, const float* __restrict__ init, float* __restrict__ out0) {{
  __shared__ double sh[32];
{body}}}
"
    )
}

/// CUDA C run by every thread of a block of `threads`: when `arrived` says this block is the last of
/// `total` to store its partial in `part`, it folds the partials in a fixed order and stores the sum
/// (with `init[0]`) in `out0[0]`, resetting `count`.
fn last_block_fold(threads: usize, total: &str) -> String {
    format!(
        "  if (arrived + 1u == {total}) {{
    __threadfence();
    double f0 = 0, f1 = 0;
    long long p = threadIdx.x;
    for (; p + {threads} < {total}; p += 2 * {threads}) {{ f0 += __ldcg(part + p); f1 += __ldcg(part + p + {threads}); }}
    if (p < {total}) f0 += __ldcg(part + p);
    double f = f0 + f1;
    for (int o = 16; o > 0; o >>= 1) f += __shfl_down_sync(0xffffffffu, f, o);
    __syncthreads();
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = f;
    __syncthreads();
    if (threadIdx.x < 32) {{
      f = threadIdx.x < {threads} / 32 ? sh[threadIdx.x] : 0.0;
      for (int o = 16; o > 0; o >>= 1) f += __shfl_down_sync(0xffffffffu, f, o);
      if (threadIdx.x == 0) {{ out0[0] = (float)((double)init[0] + f); count[0] = 0u; }}
    }}
  }}
"
    )
}

/// A whole-tensor sum in clusters of 8 blocks: each block sums its `per` elements, the cluster's first
/// block adds the 8 block sums from their shared memory and alone stores a partial and counts itself
/// (8 times fewer fences and atomics than [`fold_all`]), and the last cluster to count folds.
fn cluster_all(threads: usize, u: usize) -> String {
    let body = block_sum(threads, u, "in0 + blockIdx.x * per", "per / 4", "blk = s;");
    let fold = last_block_fold(threads, "clusters");
    let mark = oxhlo_cuda::nvrtc::NO_EARLY_DEPENDENTS;
    format!(
        "{CLUSTER_HELPERS}{mark}
extern \"C\" __global__ void __cluster_dims__(8, 1, 1) oxk(long long outer, long long red, long long inner, long long parts, const float* __restrict__ in0, const float* __restrict__ init, unsigned int* __restrict__ count, float* __restrict__ out0, double* part) {{
  __shared__ double sh[32];
  __shared__ double blk;
  __shared__ unsigned int arrived;
  const long long per = red / outer;
  const unsigned clusters = gridDim.x / 8;
{body}  oxh_cluster_sync();
  const unsigned rank = oxh_rank();
  if (rank == 0 && threadIdx.x == 0) {{
    double c = oxh_peer(&blk, 0);
    for (unsigned r = 1; r < 8; ++r) c += oxh_peer(&blk, r);
    part[blockIdx.x / 8] = c; __threadfence(); arrived = atomicAdd(count, 1u);
  }}
  oxh_cluster_sync();
  if (rank != 0) return;
{fold}}}
"
    )
}

fn fold_all(threads: usize, u: usize) -> String {
    let body = block_sum(threads, u, "in0 + blockIdx.x * per", "per / 4", "part[blockIdx.x] = s; __threadfence(); arrived = atomicAdd(count, 1u);");
    let fold = last_block_fold(threads, "gridDim.x");
    format!(
        "extern \"C\" __global__ void oxk(long long outer, long long red, long long inner, long long parts, const float* __restrict__ in0, const float* __restrict__ init, unsigned int* __restrict__ count, float* __restrict__ out0, double* part) {{
  __shared__ double sh[32];
  __shared__ unsigned int arrived;
  const long long per = red / outer;
{body}  __syncthreads();
{fold}}}
"
    )
}

/// A whole-tensor sum by `gridDim.x` blocks of `threads` taking chunks of `threads * 16` elements in turn
/// (block b chunks b, b + gridDim.x, ...; each thread's four float4 loads of a chunk behind one bounds
/// check), so that the blocks running at once read neighbouring chunks, as a row sum's do; each block
/// counts itself with one release-acquire atomic and the last folds the blocks' partials.
fn strided_all(threads: usize, _u: usize) -> String {
    let fold = last_block_fold(threads, "gridDim.x");
    let combine = block_combine(threads, "part[blockIdx.x] = s; asm volatile(\"atom.add.acq_rel.gpu.u32 %0, [%1], 1;\" : \"=r\"(arrived) : \"l\"(count) : \"memory\");");
    format!(
        "extern \"C\" __global__ void oxk(long long outer, long long red, long long inner, long long parts, const float* __restrict__ in0, const float* __restrict__ init, unsigned int* __restrict__ count, float* __restrict__ out0, double* part) {{
  __shared__ double sh[32];
  __shared__ unsigned int arrived;
  const long long chunks = red / ({threads} * 16);
  double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (long long c = blockIdx.x; c < chunks; c += gridDim.x) {{
    const float4* src = (const float4*)(in0 + c * ({threads} * 16)) + threadIdx.x;
    const float4 v0 = __ldg(src), v1 = __ldg(src + {threads}), v2 = __ldg(src + 2 * {threads}), v3 = __ldg(src + 3 * {threads});
    a0 += v0.x + (double)v1.x + (double)v2.x + (double)v3.x;
    a1 += v0.y + (double)v1.y + (double)v2.y + (double)v3.y;
    a2 += v0.z + (double)v1.z + (double)v2.z + (double)v3.z;
    a3 += v0.w + (double)v1.w + (double)v2.w + (double)v3.w;
  }}
  double s = (a0 + a1) + (a2 + a3);
{combine}  __syncthreads();
{fold}}}
"
    )
}

/// The first of two launches of a whole-tensor sum: a block of `threads` a 4096-element chunk (four
/// float4s a thread behind one check) storing its double sum; [`finish_all`] adds them.
fn chunks_pass(threads: usize) -> String {
    let combine = block_combine(threads, "part[blockIdx.x] = s;");
    format!(
        "extern \"C\" __global__ void oxk(long long outer, long long red, long long inner, long long parts, const float* __restrict__ in0, double* __restrict__ part) {{
  __shared__ double sh[32];
  const float4* src = (const float4*)(in0 + blockIdx.x * (long long)({threads} * 16)) + threadIdx.x;
  const float4 v0 = __ldg(src), v1 = __ldg(src + {threads}), v2 = __ldg(src + 2 * {threads}), v3 = __ldg(src + 3 * {threads});
  double s = ((v0.x + (double)v1.x) + ((double)v2.x + v3.x)) + ((v0.y + (double)v1.y) + ((double)v2.y + v3.y)) + ((v0.z + (double)v1.z) + ((double)v2.z + v3.z)) + ((v0.w + (double)v1.w) + ((double)v2.w + v3.w));
{combine}}}
"
    )
}

/// The second launch after [`chunks_pass`]: one block of 1024 threads adds the `red` partials.
const FINISH_ALL: &str = "extern \"C\" __global__ void oxk(long long outer, long long red, long long inner, long long parts, const double* __restrict__ part, const float* __restrict__ init, float* __restrict__ out0) {
  __shared__ double sh[32];
  double f0 = 0, f1 = 0, f2 = 0, f3 = 0;
  long long p = threadIdx.x;
  for (; p + 3 * 1024 < red; p += 4 * 1024) { f0 += part[p]; f1 += part[p + 1024]; f2 += part[p + 2048]; f3 += part[p + 3072]; }
  for (; p < red; p += 1024) f0 += part[p];
  double s = (f0 + f1) + (f2 + f3);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = sh[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (threadIdx.x == 0) out0[0] = (float)((double)init[0] + s);
  }
}
";

/// A column sum of few columns (`inner == W`, one column group: ResNet-18's batch-norm shape) over
/// `parts` blocks of `P`-block clusters, each block summing its range of rows (4 columns a thread, loop
/// unrolled by `U`, `MB` blocks an SM in the launch bounds); the cluster's first block adds its blocks'
/// column sums from their shared memory and stores one partial row. With `fold`, the last cluster to
/// count (one release-acquire atomic) folds the `parts / P` partial rows in a fixed order; without it,
/// [`narrow_finish`] does in a second launch.
fn narrow_cols(w: usize, p: usize, u: usize, mb: usize, fold: bool) -> String {
    narrow_cols_with(w, p, u, mb, fold, false)
}

/// [`narrow_cols`], its blocks taking tiles of rows in turn with `interleave` (block b tiles b, b +
/// blocks, ...: the blocks running at once read neighbouring rows) instead of a range each.
fn narrow_cols_with(w: usize, p: usize, u: usize, mb: usize, fold: bool, interleave: bool) -> String {
    let q = w / 4;
    let tr = 256 / q;
    let finish = narrow_fold(w, "ncl", "part");
    // `u` float4 loads a thread behind one bounds check (their loads in flight together), then single ones.
    let batched = format!(
        "  for (; r + {last} * step < hi; r += {u} * step, src += {u} * step * {w}) {{
    float4 v[{u}];
    #pragma unroll
    for (int k = 0; k < {u}; ++k) v[k] = __ldg((const float4*)(src + k * step * {w}));
    #pragma unroll
    for (int k = 0; k < {u}; ++k) {{ a0 += v[k].x; a1 += v[k].y; a2 += v[k].z; a3 += v[k].w; }}
  }}
  for (; r < hi; r += step, src += step * {w}) {{
    const float4 v = __ldg((const float4*)src);
    a0 += v.x; a1 += v.y; a2 += v.z; a3 += v.w;
  }}
",
        last = u - 1
    );
    let lp = if interleave {
        format!(
            "  const long long step = (long long)gridDim.x * {tr};
  const float* src = in0 + ((long long)blockIdx.x * {tr} + t / {q}) * {w} + 4 * cg;
  long long r = (long long)blockIdx.x * {tr} + t / {q};
  const long long hi = red;
{batched}"
        )
    } else {
        format!(
            "  const long long chunk = ((red + parts - 1) / parts + {tr} - 1) / {tr} * {tr};
  const long long lo = min(red, (long long)blockIdx.x * chunk), hi = min(red, lo + chunk);
  const float* src = in0 + (lo + t / {q}) * {w} + 4 * cg;
  long long r = lo + t / {q};
  const long long step = {tr};
{batched}"
        )
    };
    let tail = if fold {
        format!(
            "    __syncthreads();
    if (t == 0) asm volatile(\"atom.add.acq_rel.gpu.u32 %0, [%1], 1;\" : \"=r\"(arrived) : \"l\"(count) : \"memory\");
    __syncthreads();
    if (arrived + 1u == (unsigned)ncl) {{
      asm volatile(\"fence.acq_rel.gpu;\" ::: \"memory\");
{finish}      if (t == 0) count[0] = 0u;
    }}
"
        )
    } else {
        String::new()
    };
    format!(
        "{CLUSTER_HELPERS}
extern \"C\" __global__ void __cluster_dims__({p}, 1, 1) __launch_bounds__(256, {mb}) oxk(long long outer, long long red, long long inner, long long parts, const float* __restrict__ in0, const float* __restrict__ init, unsigned int* __restrict__ count, float* __restrict__ out0, double* part) {{
  __shared__ double sh[256][4];
  __shared__ double shc[{w}];
  __shared__ unsigned int arrived;
  const int t = threadIdx.x, cg = t % {q};
  double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
{lp}  sh[t][0] = a0; sh[t][1] = a1; sh[t][2] = a2; sh[t][3] = a3;
  __syncthreads();
  if (t < {w}) {{
    double s = sh[t >> 2][t & 3];
    for (int k = 1; k < {tr}; ++k) s += sh[k * {q} + (t >> 2)][t & 3];
    shc[t] = s;
  }}
  oxh_cluster_sync();
  const long long ncl = parts / {p};
  if (oxh_rank() == 0) {{
    if (t < {w}) {{
      double s = oxh_peer(shc + t, 0);
      for (unsigned r = 1; r < {p}u; ++r) s += oxh_peer(shc + t, r);
      part[(blockIdx.x / {p}) * {w} + t] = s;
    }}
{tail}  }}
  oxh_cluster_sync();
}}
"
    )
}

/// C folding `n` partial rows of `w` columns at `src` (doubles) into `out0` (plus `init`) with 256
/// threads, `256 / w` a column each taking every `256 / w`-th row, then combined in a fixed order
/// through `sh` (at least 256 doubles).
fn narrow_fold(w: usize, n: &str, src: &str) -> String {
    let k = 256 / w;
    format!(
        "      {{
        const int c = t % {w}, j = t / {w};
        double f0 = 0, f1 = 0, f2 = 0, f3 = 0;
        long long i = j;
        for (; i + 3 * {k} < {n}; i += 4 * {k}) {{
          f0 += __ldcg({src} + i * {w} + c); f1 += __ldcg({src} + (i + {k}) * {w} + c);
          f2 += __ldcg({src} + (i + 2 * {k}) * {w} + c); f3 += __ldcg({src} + (i + 3 * {k}) * {w} + c);
        }}
        for (; i < {n}; i += {k}) f0 += __ldcg({src} + i * {w} + c);
        double* flat = &sh[0][0];
        __syncthreads();
        flat[t] = (f0 + f1) + (f2 + f3);
        __syncthreads();
        if (t < {w}) {{
          double s = flat[t];
          for (int jj = 1; jj < {k}; ++jj) s += flat[jj * {w} + t];
          out0[t] = (float)((double)init[0] + s);
        }}
      }}
"
    )
}

/// The second launch after [`narrow_cols`] without its fold: one block folds the `red` partial rows.
fn narrow_finish(w: usize) -> String {
    let fold = narrow_fold(w, "red", "part");
    format!(
        "extern \"C\" __global__ void oxk(long long outer, long long red, long long inner, long long parts, const double* __restrict__ part, const float* __restrict__ init, float* __restrict__ out0) {{
  __shared__ double sh[256][1];
  const int t = threadIdx.x;
{fold}}}
"
    )
}

/// A whole-tensor sum design: its name, its CUDA C for (threads, unroll), and the (threads, unroll,
/// elements a block) it is timed at.
type Design = (&'static str, fn(usize, usize) -> String, &'static [(usize, usize, usize)]);

fn rand_f32(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as f32 / (1u64 << 24) as f32) - 0.5
        })
        .collect()
}

fn time_us(gpu: &device::Gpu, mut f: impl FnMut()) -> f64 {
    // Device time (the calls held until all are enqueued), best of three rounds of 20.
    (0..3).map(|_| oxhlo_cuda::profile::device_ms_per_call(gpu, 20, &mut f).expect("device time") * 1e3).fold(f64::INFINITY, f64::min)
}

/// The first f32 of a device buffer, as f64.
fn first_f32(gpu: &device::Gpu, buf: &device::DBuf) -> f64 {
    let mut host = [0u8; 4];
    gpu.stream.memcpy_dtoh(&buf.slice(0..4), &mut host).unwrap();
    gpu.synchronize().unwrap();
    f32::from_le_bytes(host) as f64
}

fn check(got: &[f32], want: &[f64], what: &str) -> bool {
    let bad = got.iter().zip(want).position(|(&g, &w)| (g as f64 - w).abs() > 1e-4 * (1.0 + w.abs()));
    if let Some(i) = bad {
        println!("{what}: WRONG at {i}: {} vs {}", got[i], want[i]);
    }
    bad.is_none()
}

fn main() {
    if let Ok(dir) = std::env::var("SUM_LAB_DUMP") {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(format!("{dir}/cluster.cu"), cluster_cols(64, 8, 8)).unwrap();
        std::fs::write(format!("{dir}/warp_rows.cu"), warp_rows(8)).unwrap();
        std::fs::write(format!("{dir}/block_rows.cu"), block_rows(256, 8)).unwrap();
        std::fs::write(format!("{dir}/fold_all.cu"), fold_all(128, 8)).unwrap();
        std::fs::write(format!("{dir}/cluster_all.cu"), cluster_all(256, 4)).unwrap();
        std::fs::write(format!("{dir}/strided_all.cu"), strided_all(256, 0)).unwrap();
        std::fs::write(format!("{dir}/chunks_pass.cu"), chunks_pass(256)).unwrap();
        std::fs::write(format!("{dir}/finish_all.cu"), FINISH_ALL).unwrap();
        std::fs::write(format!("{dir}/narrow_fold.cu"), narrow_cols(64, 8, 8, 4, true)).unwrap();
        std::fs::write(format!("{dir}/narrow_plain.cu"), narrow_cols(128, 1, 16, 4, false)).unwrap();
        std::fs::write(format!("{dir}/narrow_il.cu"), narrow_cols_with(64, 8, 16, 4, true, true)).unwrap();
        std::fs::write(format!("{dir}/narrow_finish.cu"), narrow_finish(64)).unwrap();
        use oxhlo_cuda::reduce::{render_folded, render_pass, Pass, Shape};
        use oxhlo_plan::reducer::ReduceKind;
        let f32k = oxhlo_cpu::Kind::F32;
        std::fs::write(format!("{dir}/backend_rows.cu"), render_pass(f32k, ReduceKind::Add, Pass { shape: Shape::Rows, from_partials: false, to_partials: false }).unwrap()).unwrap();
        std::fs::write(format!("{dir}/backend_rows_to_partials.cu"), render_pass(f32k, ReduceKind::Add, Pass { shape: Shape::Rows, from_partials: false, to_partials: true }).unwrap()).unwrap();
        std::fs::write(format!("{dir}/backend_rows_from_partials.cu"), render_pass(f32k, ReduceKind::Add, Pass { shape: Shape::Rows, from_partials: true, to_partials: false }).unwrap()).unwrap();
        std::fs::write(format!("{dir}/backend_cols4.cu"), render_pass(f32k, ReduceKind::Add, Pass { shape: Shape::Cols4, from_partials: false, to_partials: true }).unwrap()).unwrap();
        std::fs::write(format!("{dir}/backend_fold_rows.cu"), render_folded(f32k, ReduceKind::Add, Shape::Rows).unwrap()).unwrap();
        for (name, to) in [("partials", true), ("final", false)] {
            std::fs::write(format!("{dir}/backend_narrow_{name}.cu"), render_pass(f32k, ReduceKind::Add, Pass { shape: Shape::ClusterCols4, from_partials: false, to_partials: to }).unwrap()).unwrap();
        }
        // The clustered passes of [262144, 64] as launched (the column count a constant unless OXHLO_CUDA_NARROW_CONST=0).
        let narrow = oxhlo_cuda::reduce::launches(1, 262144, 64);
        std::fs::write(format!("{dir}/backend_narrow_launch.cu"), oxhlo_cuda::reduce::render_launch(f32k, ReduceKind::Add, &narrow[0]).unwrap()).unwrap();
        std::fs::write(format!("{dir}/backend_narrow_folded_launch.cu"), oxhlo_cuda::reduce::render_folded_launch(f32k, ReduceKind::Add, &narrow[0]).unwrap()).unwrap();
        std::fs::write(format!("{dir}/backend_fold_cols4.cu"), render_folded(f32k, ReduceKind::Add, Shape::Cols4).unwrap()).unwrap();
        std::fs::write(format!("{dir}/backend_narrow_folded.cu"), render_folded(f32k, ReduceKind::Add, Shape::ClusterCols4).unwrap()).unwrap();
        std::fs::write(format!("{dir}/backend_narrow_i64max.cu"), render_pass(oxhlo_cpu::Kind::I64, ReduceKind::Max, Pass { shape: Shape::ClusterCols4, from_partials: false, to_partials: true }).unwrap()).unwrap();
        for (name, k, rk) in [("f32", f32k, ReduceKind::Add), ("i32", oxhlo_cpu::Kind::I32, ReduceKind::Add), ("bf16max", oxhlo_cpu::Kind::BF16, ReduceKind::Max), ("u8min", oxhlo_cpu::Kind::U8, ReduceKind::Min)] {
            std::fs::write(format!("{dir}/backend_cluster_{name}.cu"), oxhlo_cuda::reduce::render_cluster_cols(k, rk).unwrap()).unwrap();
        }
    }
    let gpu = match device::gpu() {
        Ok(g) => g,
        Err(e) => {
            println!("skipped: no CUDA device ({e})");
            return;
        }
    };
    let (rows, cols) = (4096usize, 4096usize);
    let n = rows * cols;
    let xh = rand_f32(n, 7);
    let f32t = |shape: &[i64], v: Vec<f32>| NTensor::new(TensorType::new(shape.to_vec(), ElementType::Float(FloatType::F32)), Buf::F32(v));
    let x = gpu.upload(&f32t(&[rows as i64, cols as i64], xh.clone())).unwrap();
    let init = gpu.upload(&f32t(&[], vec![0.0])).unwrap();
    let col_want: Vec<f64> = (0..cols).map(|c| (0..rows).map(|r| xh[r * cols + c] as f64).sum()).collect();
    let row_want: Vec<f64> = (0..rows).map(|r| xh[r * cols..(r + 1) * cols].iter().map(|&v| v as f64).sum()).collect();

    // The copy ceiling (256 MiB, bytes read + written), as bench_gpu measures it.
    let big = 64usize << 20;
    let src = gpu.upload(&f32t(&[big as i64], rand_f32(big, 1))).unwrap();
    let mut dst = gpu.alloc_raw(oxhlo_cpu::Kind::F32, big).unwrap();
    let copy_us = time_us(&gpu, || gpu.stream.memcpy_dtod(&**src.buf, &mut *dst).unwrap());
    let ceiling = 2.0 * (big * 4) as f64 / (copy_us * 1e-6) / 1e9;
    println!("copy 256MiB d2d {copy_us:8.2} us {ceiling:8.1} GB/s");
    let line = |name: &str, us: f64, ok: bool| {
        let gbs = (n * 4) as f64 / (us * 1e-6) / 1e9;
        println!("{name:<28} {us:8.2} us {gbs:8.1} GB/s ({:.1}% of copy){}", 100.0 * gbs / ceiling, if ok { "" } else { "  WRONG" });
    };

    // The backend's own sums.
    let total = [xh.iter().map(|&v| v as f64).sum::<f64>()];
    for (dims, want) in [("0", &col_want[..]), ("1", &row_want[..]), ("0, 1", &total[..])] {
        let rt = if dims == "0, 1" { "tensor<f32>" } else { "tensor<4096xf32>" };
        let m = oxhlo_text::parse_module(
            &format!(
                "func.func @main(%x: tensor<4096x4096xf32>) -> {rt} {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [{dims}] : (tensor<4096x4096xf32>, tensor<f32>) -> {rt}
  return %s : {rt}
}}"
            ),
            "sum_lab.mlir",
        )
        .unwrap();
        let f = &m.funcs[0];
        let op = &f.body.entry().unwrap().ops[1];
        let rty = TensorType::new(if dims == "0, 1" { vec![] } else { vec![4096] }, ElementType::Float(FloatType::F32));
        let memo = device::Memo::default();
        let mut last = None;
        let us = time_us(&gpu, || last = Some(oxhlo_cuda::reduce::try_reduce(&gpu, &memo, f, op, &x, &init, &rty).unwrap().unwrap()));
        let got = gpu.download(&last.unwrap()).unwrap();
        line(&format!("backend sum over [{dims}]"), us, check(got.f32s().unwrap(), want, dims));
    }

    let mut out = [gpu.alloc_raw(oxhlo_cpu::Kind::F32, 4096).unwrap()];
    let fetch = |out: &[device::DBuf; 1]| {
        let mut host = vec![0u8; 4096 * 4];
        gpu.stream.memcpy_dtoh(&*out[0], &mut host).unwrap();
        gpu.synchronize().unwrap();
        host.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect::<Vec<f32>>()
    };
    for (w, p, u) in [(128, 8, 8), (128, 8, 16), (64, 4, 8), (64, 4, 16), (64, 8, 8), (64, 8, 16)] {
        let k = Kernel::new(cluster_cols(w, p, u));
        let (c, r) = (cols as i64, rows as i64);
        // Blocks: (cols / w) groups x p parts, 256 threads.
        let mut go = || gpu.launch_reduce_cols(&k, 1, r, c, p as i64, w as i64, 256, 1, &[&*x.buf, &*init.buf], &mut out);
        if let Err(e) = go() {
            println!("cluster {w} {p} {u}: {e}");
            continue;
        }
        let us = time_us(&gpu, || go().unwrap());
        let ok = check(&fetch(&out), &col_want, "cluster");
        line(&format!("cluster W={w} P={p} U={u}"), us, ok);
    }
    for (t, u) in [(64usize, 8usize), (64, 16), (128, 8), (256, 4), (256, 8)] {
        let k = Kernel::new(block_rows(t, u));
        let mut go = || gpu.launch_reduce_cols(&k, rows as i64, cols as i64, 1, 1, 1, t as u32, 1, &[&*x.buf, &*init.buf], &mut out);
        go().unwrap();
        let us = time_us(&gpu, || go().unwrap());
        let ok = check(&fetch(&out), &row_want, "block rows");
        line(&format!("block_rows T={t} U={u}"), us, ok);
    }
    // Whole-tensor sums: blocks of `t` threads over `per` elements each, the last block folding.
    let total: f64 = xh.iter().map(|&v| v as f64).sum();
    let m = oxhlo_text::parse_module("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n  return %x : tensor<4xf32>\n}", "lab.mlir").unwrap();
    let some_op = m.funcs[0].body.entry().unwrap().ops[0].clone();
    let memo = device::Memo::default();
    let count = memo.counter(&gpu, &some_op, 1, 1).unwrap();
    let designs: [Design; 2] = [
        ("fold_all", fold_all, &[(256, 8, 8192), (256, 16, 16384)]),
        // `per` here is n / blocks: 1024, 1056 (8 an SM on 132 SMs), 2048 blocks.
        ("strided_all", strided_all, &[(256, 0, 16384), (256, 0, 15888), (256, 0, 8192), (128, 0, 8192), (128, 0, 7944)]),
    ];
    for (name, design, shapes) in designs {
        for &(t, u, per) in shapes {
            let k = Kernel::new(design(t, u));
            let blocks = n / per;
            let mut outs = [gpu.alloc_raw(oxhlo_cpu::Kind::F32, 4096).unwrap(), gpu.alloc_bytes(blocks * 8).unwrap()];
            let mut go = || gpu.launch_reduce_cols(&k, blocks as i64, n as i64, 1, 1, 1, t as u32, 1, &[&*x.buf, &*init.buf, &*count.buf], &mut outs);
            go().unwrap();
            let us = time_us(&gpu, || go().unwrap());
            let got = first_f32(&gpu, &outs[0]);
            let ok = (got - total).abs() <= 1e-4 * (1.0 + total.abs());
            if !ok {
                println!("{name}: {got} vs {total}");
            }
            line(&format!("{name} T={t} U={u} per={per}"), us, ok);
        }
    }
    // Column sums of few columns (the same 64 MiB as [262144, 64] and [65536, 128]): the backend's,
    // its passes alone, and the narrow designs.
    for w in [64usize, 128] {
        let r = n / w;
        let want: Vec<f64> = (0..w).map(|c| (0..r).map(|i| xh[i * w + c] as f64).sum()).collect();
        let st = format!("{r}x{w}");
        let m = oxhlo_text::parse_module(
            &format!(
                "func.func @main(%x: tensor<{st}xf32>) -> tensor<{w}xf32> {{
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<{st}xf32>, tensor<f32>) -> tensor<{w}xf32>
  return %s : tensor<{w}xf32>
}}"
            ),
            "sum_lab.mlir",
        )
        .unwrap();
        let f = &m.funcs[0];
        let op = &f.body.entry().unwrap().ops[1];
        let rty = TensorType::new(vec![w as i64], ElementType::Float(FloatType::F32));
        let xr = gpu.upload(&f32t(&[r as i64, w as i64], xh.clone())).unwrap();
        let memo = device::Memo::default();
        let mut last = None;
        let us = time_us(&gpu, || last = Some(oxhlo_cuda::reduce::try_reduce(&gpu, &memo, f, op, &xr, &init, &rty).unwrap().unwrap()));
        let got = gpu.download(&last.unwrap()).unwrap();
        line(&format!("backend {st} over [0]"), us, check(got.f32s().unwrap(), &want, &st));
        // The backend's passes one at a time.
        {
            use oxhlo_cuda::reduce::{launch, launches, render_pass};
            use oxhlo_plan::reducer::ReduceKind;
            let ls = launches(1, r as i64, w as i64);
            let mut bufs: Vec<device::DBuf> = Vec::new();
            for l in &ls {
                bufs.push(if l.pass.to_partials { gpu.alloc_bytes((l.outer * l.inner * l.parts) as usize * 8).unwrap() } else { gpu.alloc_raw(oxhlo_cpu::Kind::F32, w).unwrap() });
            }
            for (j, l) in ls.iter().enumerate() {
                let k = Kernel::new(render_pass(oxhlo_cpu::Kind::F32, ReduceKind::Add, l.pass).unwrap());
                let (before, rest) = bufs.split_at_mut(j);
                let from: &cudarc::driver::CudaSlice<u8> = if j == 0 { &xr.buf } else { &before[j - 1] };
                let us = time_us(&gpu, || launch(&gpu, &k, l, &[from, &*init.buf], &mut rest[..1]).unwrap());
                line(&format!("  pass {j} {:?}x{}", l.pass.shape, l.parts), us, true);
            }
        }
        let fetch_w = |o: &device::DBuf| {
            let mut host = vec![0u8; w * 4];
            gpu.stream.memcpy_dtoh(&o.slice(0..w * 4), &mut host).unwrap();
            gpu.synchronize().unwrap();
            host.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect::<Vec<f32>>()
        };
        // (cluster blocks, clusters, unroll, blocks an SM, fold in the last cluster)
        for (p, c, u, mb, fold, il) in [
            (8usize, 32usize, 16usize, 4usize, true, false),
            (8, 16, 16, 4, true, false),
            (8, 32, 8, 4, true, false),
            (8, 32, 16, 2, true, false),
            (4, 64, 16, 4, true, false),
            (8, 32, 16, 4, true, true),
            (8, 64, 8, 4, true, true),
            (8, 128, 4, 4, true, true),
            (1, 256, 16, 4, false, true),
            (1, 512, 8, 4, false, true),
            (8, 64, 8, 4, false, true),
        ] {
            let k = Kernel::new(narrow_cols_with(w, p, u, mb, fold, il));
            let fin = Kernel::new(narrow_finish(w));
            let parts = (p * c) as i64;
            let mut outs = [gpu.alloc_raw(oxhlo_cpu::Kind::F32, w).unwrap(), gpu.alloc_bytes(c * w * 8).unwrap()];
            let mut fo = [gpu.alloc_raw(oxhlo_cpu::Kind::F32, w).unwrap()];
            let mut go = || -> Result<(), String> {
                gpu.launch_reduce_cols(&k, 1, r as i64, w as i64, parts, w as i64, 256, 1, &[&*xr.buf, &*init.buf, &*count.buf], &mut outs)?;
                if !fold {
                    gpu.launch_reduce_cols(&fin, 1, c as i64, w as i64, 1, w as i64, 256, 1, &[&*outs[1], &*init.buf], &mut fo)?;
                }
                Ok(())
            };
            if let Err(e) = go() {
                println!("narrow {st} P={p} C={c}: {e}");
                continue;
            }
            let us = time_us(&gpu, || go().unwrap());
            let got = if fold { fetch_w(&outs[0]) } else { fetch_w(&fo[0]) };
            line(&format!("narrow {st} P={p} C={c} U={u} MB={mb}{}{}", if fold { " fold" } else { " +finish" }, if il { " il" } else { "" }), us, check(&got, &want, "narrow"));
        }
    }
    // The backend's two row passes against the lab's, each pairing: which of the two costs.
    {
        use oxhlo_cuda::reduce::{render_pass, Pass, Shape};
        use oxhlo_plan::reducer::ReduceKind;
        let f32k = oxhlo_cpu::Kind::F32;
        let b1 = Kernel::new(render_pass(f32k, ReduceKind::Add, Pass { shape: Shape::Rows, from_partials: false, to_partials: true }).unwrap());
        let b2 = Kernel::new(render_pass(f32k, ReduceKind::Add, Pass { shape: Shape::Rows, from_partials: true, to_partials: false }).unwrap());
        let (l1, l2) = (Kernel::new(chunks_pass(256)), Kernel::new(FINISH_ALL.to_string()));
        let blocks = n / 4096;
        for (name, first_backend, second_backend) in [("backend+backend", true, true), ("backend+lab", true, false), ("lab+backend", false, true), ("lab+lab", false, false)] {
            let mut parts = [gpu.alloc_bytes(blocks * 8).unwrap()];
            let mut outs = [gpu.alloc_raw(oxhlo_cpu::Kind::F32, 4).unwrap()];
            let mut go = || {
                if first_backend {
                    gpu.launch_reduce_rows(&b1, 1, n as i64, blocks as i64, false, &[&*x.buf, &*init.buf], &mut parts).unwrap();
                } else {
                    gpu.launch_reduce_cols(&l1, blocks as i64, n as i64, 1, 1, 1, 256, 1, &[&*x.buf], &mut parts).unwrap();
                }
                if second_backend {
                    gpu.launch_reduce_rows(&b2, 1, blocks as i64, 1, true, &[&*parts[0], &*init.buf], &mut outs).unwrap();
                } else {
                    gpu.launch_reduce_cols(&l2, 1, blocks as i64, 1, 1, 1, 1024, 1, &[&*parts[0], &*init.buf], &mut outs).unwrap();
                }
            };
            go();
            let us = time_us(&gpu, &mut go);
            let got = first_f32(&gpu, &outs[0]);
            line(&format!("passes {name}"), us, (got - total).abs() <= 1e-4 * (1.0 + total.abs()));
        }
    }
}
