//! `stablehlo.sort` and `chlo.top_k` on the GPU: rows of up to [`SORT_MAX`] elements along the sort
//! dimension (top_k: the last) in shared memory, longer rows in global memory with their steps inside
//! chunks in shared memory ([`large_stages`]), any number of operands, any comparator the elementwise
//! renderer can express (JAX's float comparators with their -0.0 / NaN canonicalization and
//! `TOTALORDER` compare among them); `chlo.top_k` runs on these networks ([`crate::top_k`]).
//!
//! A block per row (`rows` = elements / row length, grid-stride beyond 2^20 rows) sorts the row's
//! positions `0..n` in shared memory with a bitonic network over the next power of two (positions
//! past `n` sort last), a thread a compared pair of each step, then writes every operand's elements to
//! the results. Two positions are ordered by the comparator (`comp(x[a], x[b])`: a first;
//! `comp(x[b], x[a])`: b first) and, when neither holds, by position: every sort is stable, as the
//! reference interpreter's is (the spec leaves the order of equivalent elements open when `is_stable`
//! is false). Where the row's elements fit beside its positions in a block's 48 KiB (`keys_fit`) they
//! are copied there and move with their positions; otherwise the comparator reads them from global
//! memory by position.
//!
//! These shared-memory networks take a `__syncthreads` a step; sorts by default run the same networks
//! with each thread's slots in registers ([`crate::sort_registers`], chosen by [`registers_form`]),
//! sorts by one key (JAX's) with key and position packed in one integer a slot
//! ([`crate::sort_packed`]), and top_k and what does not fit those here.
//!
//! Anything else (dynamic shapes, a comparator that does not render) returns `None` and
//! runs on the host; `OXHLO_CUDA_SORT=0` runs every sort there.

use crate::device::{DTensor, Gpu, Memo};
use crate::render::{kind_of, load, storage_type, ENTRY, PRELUDE};
use oxhlo_cpu::Kind;
use oxhlo_ir::{Attr, Func, Op, OpKind};
use std::fmt::Write;

/// The longest row sorted in shared memory (its positions fill 32 KiB of it).
pub const SORT_MAX: i64 = 8192;

/// The longest row sorted on the device at all (in global memory, [`large_stages`]).
pub const LARGE_SORT_MAX: i64 = 1 << 30;

/// A sort as the device runs it: its kernel source, rows and row length; `large`: the row is longer
/// than [`SORT_MAX`] and sorts in global memory (see [`large_stages`]), `chunk` the positions a block
/// sorts in shared memory there ([`large_chunk`]).
pub struct SortPlan {
    pub src: String,
    pub rows: i64,
    pub n: i64,
    pub large: bool,
    pub chunk: i64,
}

/// The launches of a sort of rows longer than [`SORT_MAX`], in order, as `(k, j)` scalars of its kernel
/// (a `rows * p` buffer of positions, `p` the row length's next power of two; `b` the chunk a block
/// sorts in shared memory, [`large_chunk`]): `(b, -1)` sorts every aligned chunk of `b` positions in
/// shared memory (the network's stages 2..=b, the positions set to 0..p first), then for each later
/// stage `k` its steps `(k, j)` with `j >= b`, a launch each over all rows (a thread a compared pair,
/// in global memory), and `(k, -1)` its steps with `j < b`, which stay within chunks, in shared memory;
/// `(-1, 0)` gathers every operand's elements by the sorted positions.
pub fn large_stages(p: i64, b: i64) -> Vec<(i64, i64)> {
    let mut out = vec![(b, -1)];
    let mut k = 2 * b;
    while k <= p {
        let mut j = k / 2;
        while j >= b {
            out.push((k, j));
            j /= 2;
        }
        out.push((k, -1));
        k *= 2;
    }
    out.push((-1, 0));
    out
}

/// The chunk of positions a block of a long-row sort sorts in shared memory, and whether the elements
/// of operands `kinds` go there too (when a chunk of at least 1024 fits beside its positions in 48 KiB).
pub fn large_chunk(kinds: &[Kind]) -> (i64, bool) {
    let per = 4 + kinds.iter().map(|k| k.size()).sum::<usize>();
    // The largest power of two that fits, at most 4096.
    let fit = (1i64 << (63 - ((48 * 1024 / per) as u64).leading_zeros())).min(4096);
    if fit >= 1024 {
        (fit, true)
    } else {
        (4096, false)
    }
}

/// A sort's or top_k's rows from its operand types alone: (rows, row length, elements between a row's
/// neighbours), or None for shapes the device does not sort.
pub(crate) fn rows_of(func: &Func, op: &Op) -> Option<(i64, i64, i64)> {
    let shape = kind_of(func, *op.operands.first()?)?.1;
    let rank = shape.len() as i64;
    let dim = match op.kind {
        OpKind::Sort => op.attr("dimension").and_then(Attr::as_int)?,
        _ => rank - 1,
    };
    let dim = usize::try_from(if dim < 0 { dim + rank } else { dim }).ok().filter(|&d| d < shape.len())?;
    let n = shape[dim];
    let numel: i64 = shape.iter().product();
    if !(1..=LARGE_SORT_MAX).contains(&n) || numel < 1 {
        return None;
    }
    Some((numel / n, n, shape[dim + 1..].iter().product()))
}

/// Whether a sort of rows of `n` elements of operands `kinds` takes [`crate::sort_registers`]'
/// networks: `Some(0)` a block a row ([`crate::sort_registers::small`]), `Some(c)` chunks of `c` in a
/// scratch buffer ([`crate::sort_registers::large`]); None: the shared-memory networks here.
pub(crate) fn registers_form(kinds: &[Kind], n: i64) -> Option<i64> {
    if n <= SORT_MAX && crate::sort_registers::fits_small(kinds, n) {
        return Some(0);
    }
    let p = (n as u64).next_power_of_two() as i64;
    crate::sort_registers::large_chunk(kinds).filter(|&c| p > c)
}

/// The plan of sort `op` (None when it does not run on the device; see the module doc).
pub fn plan(func: &Func, op: &Op) -> Option<SortPlan> {
    if op.kind != OpKind::Sort || crate::env_off("OXHLO_CUDA_SORT") || op.operands.is_empty() || op.results.len() != op.operands.len() {
        return None;
    }
    let kinds: Vec<(Kind, Vec<i64>)> = op.operands.iter().map(|&v| kind_of(func, v)).collect::<Option<_>>()?;
    if kinds.iter().any(|(_, s)| *s != kinds[0].1) || kinds[0].1.is_empty() {
        return None;
    }
    let (rows, n, inner) = rows_of(func, op)?;
    // Arguments (lhs, rhs) per operand.
    let arg_kinds: Vec<Kind> = kinds.iter().flat_map(|(k, _)| [*k, *k]).collect();
    let comparator = crate::region::predicate(func, op.regions.first()?.blocks.first()?, &arg_kinds, "oxc")?;
    let mut params = vec!["long long rows".to_string()];
    for (j, (k, _)) in kinds.iter().enumerate() {
        params.push(format!("const {}* __restrict__ in{j}", storage_type(*k)?));
    }
    for (j, (k, _)) in kinds.iter().enumerate() {
        params.push(format!("{}* __restrict__ out{j}", storage_type(*k)?));
    }
    // The comparator called on the elements at indices `x` (its lhs) and `y` (its rhs).
    let call = |x: &str, y: &str| -> String {
        let args: Vec<String> = kinds.iter().enumerate().flat_map(|(j, (k, _))| [load(*k, &format!("in{j}"), x), load(*k, &format!("in{j}"), y)]).collect();
        format!("oxc({})", args.join(", "))
    };
    let order = format!("  if ({}) return true;\n  if ({}) return false;\n", call("ia", "ib"), call("ib", "ia"));
    let ks: Vec<Kind> = kinds.iter().map(|(k, _)| *k).collect();
    if let Some(plan) = crate::sort_packed::plan(func, op, &ks, &params, rows, n, inner) {
        return Some(plan);
    }
    match registers_form(&ks, n) {
        Some(0) => return Some(SortPlan { src: crate::sort_registers::small(&comparator, &params, &ks, n, inner, &order), rows, n, large: false, chunk: 0 }),
        Some(c) => return Some(SortPlan { src: crate::sort_registers::large(&comparator, &params, &ks, n, inner, &order, c), rows, n, large: true, chunk: c }),
        None => {}
    }
    if n > SORT_MAX {
        let copies: String = (0..kinds.len()).map(|j| format!("      out{j}[base + t * {inner}LL] = in{j}[base + at * {inner}LL];\n")).collect();
        let (chunk, keys) = large_chunk(&ks);
        let src = large_network(&comparator, &params, kinds.len(), n, inner, &order, n, &copies, chunk, keys.then_some(&ks[..]));
        return Some(SortPlan { src, rows, n, large: true, chunk });
    }
    let shared = keys_fit(&ks, n);
    let copies: String = (0..kinds.len())
        .map(|j| if shared { format!("      out{j}[base + (long long)t * {inner}LL] = sv{j}[t];\n") } else { format!("      out{j}[base + (long long)t * {inner}LL] = in{j}[base + (long long)pos[t] * {inner}LL];\n") })
        .collect();
    let src = network(&comparator, &params, kinds.len(), n, inner, &order, n, &copies, shared.then_some(&ks[..]));
    Some(SortPlan { src, rows, n, large: false, chunk: 0 })
}

/// The kernel of a sort (or top_k) of rows longer than [`SORT_MAX`] (see [`large_stages`]): parameters
/// `(rows, k, j, inputs..., pos, outputs...)`, the positions a `rows * p` buffer of ints; each launch
/// loops (grid-stride) over its work: a thread a compared pair for a global step, a block a chunk of
/// `chunk` positions for the steps in shared memory (`keys`: the operands' kinds when their elements
/// go there too, [`large_chunk`]); the gather runs `copies` for sorted positions `t < keep` of each row
/// (`row`, `base`, `at`: the element position at `t`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn large_network(helpers: &str, params: &[String], inputs: usize, n: i64, inner: i64, order: &str, keep: i64, copies: &str, chunk: i64, keys: Option<&[Kind]>) -> String {
    let p = (n as u64).next_power_of_two() as i64;
    let ins: Vec<String> = (0..inputs).map(|j| format!("in{j}")).collect();
    let ins = ins.join(", ");
    let mut kparams = vec!["long long rows".to_string(), "long long k".to_string(), "long long j".to_string(), "long long steps".to_string()];
    kparams.extend(params[1..=inputs].iter().cloned());
    kparams.push("int* __restrict__ pos".to_string());
    kparams.extend(params[inputs + 1..].iter().cloned());
    let mut src = prelude_and_order(helpers, &params[1..=inputs], "long long", n, inner, order);
    if keys.is_some() {
        src.push_str(&before_in_shared(&params[1..=inputs], n, order));
    }
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__(256) {ENTRY}({}) {{", kparams.join(", "));
    let _ = writeln!(src, "  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x, stride = (long long)gridDim.x * blockDim.x;");
    let _ = writeln!(src, "  if (k < 0) {{\n    for (long long q = tid; q < rows * {keep}LL; q += stride) {{");
    let _ = writeln!(src, "      const long long row = q / {keep}LL, t = q % {keep}LL, base = (row / {inner}LL) * {}LL + row % {inner}LL;", n * inner);
    let _ = writeln!(src, "      const long long at = pos[row * {p}LL + t];");
    src.push_str(copies);
    let _ = writeln!(src, "    }}\n    return;\n  }}");
    // The steps within chunks, in shared memory.
    let _ = writeln!(src, "  if (j < 0) {{\n    __shared__ int sp[{chunk}];");
    for (q, k) in keys.unwrap_or_default().iter().enumerate() {
        let _ = writeln!(src, "    __shared__ {} sv{q}[{chunk}];", storage_type(*k).unwrap_or("int"));
    }
    let _ = writeln!(src, "    for (long long c = blockIdx.x; c < rows * {}LL; c += gridDim.x) {{", p / chunk);
    let _ = writeln!(src, "      const long long row = c / {}LL, c0 = (c % {}LL) * {chunk}LL;", p / chunk, p / chunk);
    let _ = writeln!(src, "      const long long base = (row / {inner}LL) * {}LL + row % {inner}LL;", n * inner);
    let _ = writeln!(src, "      int* r = pos + row * {p}LL + c0;");
    let _ = writeln!(src, "      for (int t = threadIdx.x; t < {chunk}; t += blockDim.x) {{");
    let _ = writeln!(src, "        const int a = k == {chunk} ? (int)(c0 + t) : r[t];\n        sp[t] = a;");
    for q in 0..keys.map_or(0, <[Kind]>::len) {
        let _ = writeln!(src, "        if (a < {n}) sv{q}[t] = in{q}[base + (long long)a * {inner}LL];");
    }
    let _ = writeln!(src, "      }}\n      __syncthreads();");
    let _ = writeln!(src, "      for (long long kk = k == {chunk} ? 2 : k; kk <= k; kk <<= 1) {{");
    let _ = writeln!(src, "        for (int jj = (int)(kk / 2 < {chunk} ? kk / 2 : {}); jj > 0; jj >>= 1) {{", chunk / 2);
    let _ = writeln!(src, "          for (int h = threadIdx.x; h < {}; h += blockDim.x) {{", chunk / 2);
    let _ = writeln!(src, "            const int t = ((h & ~(jj - 1)) << 1) | (h & (jj - 1)), u = t + jj;");
    let _ = writeln!(src, "            const int a = sp[t], b = sp[u];");
    let _ = writeln!(src, "            const bool up = ((c0 + t) & kk) == 0;");
    match keys {
        Some(ks) => {
            let svs: Vec<String> = (0..ks.len()).map(|q| format!("sv{q}")).collect();
            let svs = svs.join(", ");
            let _ = write!(src, "            if (up ? oxs_before({svs}, b, a, u, t) : oxs_before({svs}, a, b, t, u)) {{ sp[t] = b; sp[u] = a;");
            for (q, k) in ks.iter().enumerate() {
                let _ = write!(src, " {{ const {} x = sv{q}[t]; sv{q}[t] = sv{q}[u]; sv{q}[u] = x; }}", storage_type(*k).unwrap_or("int"));
            }
            let _ = writeln!(src, " }}");
        }
        None => {
            let _ = writeln!(src, "            if (up ? oxs_before({ins}, base, b, a) : oxs_before({ins}, base, a, b)) {{ sp[t] = b; sp[u] = a; }}");
        }
    }
    let _ = writeln!(src, "          }}\n          __syncthreads();\n        }}\n      }}");
    let _ = writeln!(src, "      for (int t = threadIdx.x; t < {chunk}; t += blockDim.x) r[t] = sp[t];\n      __syncthreads();\n    }}\n    return;\n  }}");
    // A step across chunks, in global memory.
    let _ = writeln!(src, "  for (long long q = tid; q < rows * {}LL; q += stride) {{", p / 2);
    let _ = writeln!(src, "    const long long row = q / {}LL, h = q % {}LL, t = (h / j) * 2 * j + h % j, u = t + j;", p / 2, p / 2);
    let _ = writeln!(src, "    const long long base = (row / {inner}LL) * {}LL + row % {inner}LL;", n * inner);
    let _ = writeln!(src, "    int* r = pos + row * {p}LL;");
    let _ = writeln!(src, "    const int a = r[t], b = r[u];");
    let _ = writeln!(src, "    if ((t & k) == 0 ? oxs_before({ins}, base, b, a) : oxs_before({ins}, base, a, b)) {{ r[t] = b; r[u] = a; }}");
    let _ = writeln!(src, "  }}\n}}");
    src
}

/// The launches of a sort or top_k of rows longer than a block sorts at once as `(k, j, steps, work
/// items)` scalars of its kernel (a block of 256 threads per 256 items): a sort in
/// [`crate::sort_registers`]' chunks its [`crate::sort_registers::large_launches`]; a top_k of few its
/// two ([`large_top_k`]); else [`large_stages`] with the gather a thread an element, the steps in shared
/// memory a block a chunk, the global steps a thread a pair. None for rows the device does not sort.
pub fn large_launches(func: &Func, op: &Op) -> Option<Vec<(i64, i64, i64, i64)>> {
    let (rows, n, _) = rows_of(func, op)?;
    let p = (n as u64).next_power_of_two() as i64;
    let kinds = network_kinds(func, op, n)?;
    if op.kind == OpKind::Sort {
        if let Some(c) = registers_form(&kinds, n).filter(|&c| c > 0) {
            if merges(func, op, n) {
                return Some(crate::sort_merge::launches(rows, n, crate::sort_merge::chunk(c)));
            }
            return Some(crate::sort_registers::large_launches(&kinds, rows, n, c));
        }
    }
    let (chunk, keys) = large_chunk(&kinds);
    if op.kind == OpKind::ChloTopK && keys {
        let k = op.attr("k").and_then(Attr::as_int)?;
        if crate::top_k::few_of_long(k, p, chunk).is_some() {
            return Some(vec![(chunk, -2, 0, rows * (p / chunk) * 256), (-3, 0, 0, rows * 256)]);
        }
    }
    Some(large_stages(p, chunk).into_iter().map(|(k, j)| (k, j, 0, if k < 0 { rows * n } else if j < 0 { rows * (p / chunk) * 256 } else { rows * p / 2 })).collect())
}

/// The element kinds of `op`'s operands.
fn operand_kinds(func: &Func, op: &Op) -> Option<Vec<Kind>> {
    op.operands.iter().map(|&v| kind_of(func, v).map(|(k, _)| k)).collect()
}

/// Whether sort `op` of rows of `n` elements packs its key ([`crate::sort_packed`]).
fn packs(func: &Func, op: &Op, n: i64) -> bool {
    op.kind == OpKind::Sort && operand_kinds(func, op).is_some_and(|ks| crate::sort_packed::applies(func, op, &ks, n))
}

/// Whether sort `op` packs its key and, its rows longer than a block sorts, merges its chunks
/// ([`crate::sort_merge`]).
fn merges(func: &Func, op: &Op, n: i64) -> bool {
    crate::sort_merge::enabled() && packs(func, op, n)
}

/// The kinds sort `op`'s network sorts: one 64-bit slot an element where it packs its key
/// ([`crate::sort_packed`]), else its operands'.
fn network_kinds(func: &Func, op: &Op, n: i64) -> Option<Vec<Kind>> {
    let kinds = operand_kinds(func, op)?;
    Some(if packs(func, op, n) { vec![Kind::U64] } else { kinds })
}

/// Whether sort or top_k `op` sorts a warp a row ([`crate::sort_registers::warp_rows`]), not a block a
/// row (top_k by selection aside).
pub fn warp_rows(func: &Func, op: &Op) -> bool {
    let Some((_, n, _)) = rows_of(func, op) else { return false };
    let registers = match op.kind {
        OpKind::Sort => network_kinds(func, op, n).is_some_and(|ks| registers_form(&ks, n) == Some(0)),
        OpKind::ChloTopK => operand_kinds(func, op).is_some_and(|ks| ks.len() == 1 && crate::top_k::registers(ks[0], n)),
        _ => false,
    };
    registers && crate::sort_registers::warp_rows(n)
}

/// Whether sort or top_k `op` launches as a long-row sort ([`large_launches`], a scratch buffer
/// [`large_scratch_bytes`] long) or a split top_k ([`crate::top_k_select::launches`]), not a block or
/// warp a row.
pub fn plan_is_large(func: &Func, op: &Op) -> bool {
    let Some((_, n, _)) = rows_of(func, op) else { return false };
    if let Some(form) = crate::top_k_select::selects(func, op) {
        return matches!(form, crate::top_k_select::Form::Split { .. });
    }
    if op.kind == OpKind::Sort {
        if let Some(c) = network_kinds(func, op, n).and_then(|ks| registers_form(&ks, n)) {
            return c > 0;
        }
    }
    n > SORT_MAX
}

/// Bytes of the scratch buffer a long-row sort or top_k launches with (between its inputs and its
/// outputs): positions, and for [`crate::sort_registers`]' form every operand's elements too.
pub fn large_scratch_bytes(func: &Func, op: &Op) -> Option<i64> {
    let (rows, n, _) = rows_of(func, op)?;
    let kinds = network_kinds(func, op, n)?;
    if op.kind == OpKind::Sort && registers_form(&kinds, n).is_some_and(|c| c > 0) {
        if merges(func, op, n) {
            return Some(crate::sort_merge::scratch_bytes(rows, n));
        }
        if packs(func, op, n) {
            // One 64-bit slot an element, holding its position.
            return Some(rows * ((n as u64).next_power_of_two() as i64) * 8);
        }
        return Some(crate::sort_registers::scratch_bytes(&kinds, rows, n));
    }
    Some(rows * ((n as u64).next_power_of_two() as i64) * 4)
}

/// Whether a row of `n` elements of operands `kinds` fits in shared memory beside its positions (the
/// 48 KiB a block may declare statically), so that [`network`] sorts the elements themselves there.
pub(crate) fn keys_fit(kinds: &[Kind], n: i64) -> bool {
    let p = (n as u64).next_power_of_two() as usize;
    p * (4 + kinds.iter().map(|k| k.size()).sum::<usize>()) <= 48 * 1024
}

/// A kernel sorting each row's positions with a bitonic network in shared memory (see the module doc):
/// `params` its parameters (`rows`, then `inputs` inputs, then the outputs), rows of `n` elements
/// `inner` apart (row `r` starts at `(r / inner) * n * inner + r % inner`), `order` the statements of
/// `oxs_before` deciding by the elements at indices `ia` and `ib` of `in0...` (returning when they
/// differ; ties go by position), `helpers` code before it, and `copies` the statements storing sorted
/// position `t`'s results (`pos[t]`, `base`; with `keys`, the sorted elements `sv0[t]...` too), run for
/// `t < keep`. With `keys` (the operands' kinds, [`keys_fit`]) the row's elements are copied into shared
/// memory (`sv0...`) and move with their positions, the comparator reading them there; without, it
/// reads them from global memory by position. A thread a compared pair of each step.
#[allow(clippy::too_many_arguments)]
pub(crate) fn network(helpers: &str, params: &[String], inputs: usize, n: i64, inner: i64, order: &str, keep: i64, copies: &str, keys: Option<&[Kind]>) -> String {
    let p = (n as u64).next_power_of_two() as i64;
    let mut src = match keys {
        // Only the shared-memory comparison is called (the global one is left for NVRTC to drop).
        Some(_) => prelude_and_order(helpers, &params[1..=inputs], "int", n, inner, order) + &before_in_shared(&params[1..=inputs], n, order),
        None => prelude_and_order(helpers, &params[1..=inputs], "int", n, inner, order),
    };
    let cas = compare_swap(keys, inputs, "pos");
    // A top_k of few (`keep` up to a quarter of the row) sorts chunks of `top` only, then halves the
    // candidates by rounds (see `top_rounds`).
    let top = (keep as u64).next_power_of_two() as i64;
    let partial = keep >= 1 && keep < n && 4 * top <= p;
    let sorted = if partial { top } else { p };
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__(256) {ENTRY}({}) {{", params.join(", "));
    let _ = writeln!(src, "  __shared__ int pos[{p}];");
    for (j, k) in keys.unwrap_or_default().iter().enumerate() {
        let _ = writeln!(src, "  __shared__ {} sv{j}[{p}];", storage_type(*k).unwrap_or("int"));
    }
    let _ = writeln!(src, "  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {{");
    let _ = writeln!(src, "    const long long base = (row / {inner}LL) * {}LL + row % {inner}LL;", n * inner);
    let _ = writeln!(src, "    for (int t = threadIdx.x; t < {p}; t += blockDim.x) {{\n      pos[t] = t;");
    for j in 0..keys.map_or(0, <[Kind]>::len) {
        let _ = writeln!(src, "      if (t < {n}) sv{j}[t] = in{j}[base + (long long)t * {inner}LL];");
    }
    let _ = writeln!(src, "    }}\n    __syncthreads();");
    let _ = writeln!(src, "    for (int k = 2; k <= {sorted}; k <<= 1) {{\n      for (int j = k >> 1; j > 0; j >>= 1) {{");
    let _ = writeln!(src, "        for (int h = threadIdx.x; h < {}; h += blockDim.x) {{", p / 2);
    let _ = writeln!(src, "          const int t = ((h & ~(j - 1)) << 1) | (h & (j - 1)), u = t + j;");
    let _ = writeln!(src, "          const bool up = (t & k) == 0;\n          {cas}");
    let _ = writeln!(src, "        }}\n        __syncthreads();\n      }}\n    }}");
    if partial {
        crate::top_k::top_rounds(&mut src, p, top, &cas);
    }
    let _ = writeln!(src, "    for (int t = threadIdx.x; t < {keep}; t += blockDim.x) {{");
    src.push_str(copies);
    let _ = writeln!(src, "    }}\n    __syncthreads();\n  }}\n}}");
    src
}

/// A statement comparing slots `t` and `u` (t < u) of shared positions `pos` and swapping them (with
/// their elements in `sv0...` when `keys`) unless they are in the order `up` asks for (true: the one
/// first in the sort's order at t). Without keys the comparator reads the `inputs` operands from global
/// memory at `base`.
pub(crate) fn compare_swap(keys: Option<&[Kind]>, inputs: usize, pos: &str) -> String {
    match keys {
        Some(ks) => {
            let svs: Vec<String> = (0..ks.len()).map(|j| format!("sv{j}")).collect();
            let svs = svs.join(", ");
            let mut c = format!("{{ const int a = {pos}[t], b = {pos}[u]; if (up ? oxs_before({svs}, b, a, u, t) : oxs_before({svs}, a, b, t, u)) {{ {pos}[t] = b; {pos}[u] = a;");
            for (j, k) in ks.iter().enumerate() {
                let _ = write!(c, " {{ const {} x = sv{j}[t]; sv{j}[t] = sv{j}[u]; sv{j}[u] = x; }}", storage_type(*k).unwrap_or("int"));
            }
            c + " } }"
        }
        None => {
            let ins: Vec<String> = (0..inputs).map(|j| format!("in{j}")).collect();
            let ins = ins.join(", ");
            format!("{{ const int a = {pos}[t], b = {pos}[u]; if (up ? oxs_before({ins}, base, b, a) : oxs_before({ins}, base, a, b)) {{ {pos}[t] = b; {pos}[u] = a; }} }}")
        }
    }
}

/// The prelude, `helpers`, and `oxs_before(inputs..., base, a, b)` (positions of type `pos`): whether
/// position a of the row at `base` (of `n` elements `inner` apart) sorts before position b, by
/// `order` (statements reading the elements at `ia` and `ib`, returning when they differ), then by
/// position; positions past `n` last.
pub(crate) fn prelude_and_order(helpers: &str, in_params: &[String], pos: &str, n: i64, inner: i64, order: &str) -> String {
    let mut src = String::from(PRELUDE);
    src.push_str(helpers);
    let _ = writeln!(src, "// Whether position a sorts before position b: by the order, then by position.");
    let _ = writeln!(src, "__device__ __forceinline__ bool oxs_before({}, long long base, {pos} a, {pos} b) {{", in_params.join(", "));
    let _ = writeln!(src, "  if (a >= {n} || b >= {n}) return (a >= {n}) == (b >= {n}) ? a < b : a < {n};");
    let _ = writeln!(src, "  const long long ia = base + (long long)a * {inner}LL, ib = base + (long long)b * {inner}LL;");
    let _ = write!(src, "{order}  return a < b;\n}}\n");
    src
}

/// `oxs_before(keys..., a, b, ia, ib)`: as [`prelude_and_order`]'s, the elements of positions a and b
/// at indices `ia` and `ib` of rows in shared memory.
pub(crate) fn before_in_shared(in_params: &[String], n: i64, order: &str) -> String {
    let mut src = String::new();
    let _ = writeln!(src, "// The same, the elements of a and b at ia and ib of the rows in shared memory.");
    let _ = writeln!(src, "__device__ __forceinline__ bool oxs_before({}, int a, int b, int ia, int ib) {{", in_params.join(", ").replace(" __restrict__", ""));
    let _ = writeln!(src, "  if (a >= {n} || b >= {n}) return (a >= {n}) == (b >= {n}) ? a < b : a < {n};");
    let _ = write!(src, "{order}  return a < b;\n}}\n");
    src
}

/// The plan of a sort or `chlo.top_k` op (None for other ops and for those that stay on the host).
pub fn plan_op(func: &Func, op: &Op) -> Option<SortPlan> {
    match op.kind {
        OpKind::Sort => plan(func, op),
        OpKind::ChloTopK => crate::top_k::plan_top_k(func, op),
        _ => None,
    }
}

/// The kernel source of sort or top_k `op` (for the program's precompile), if it runs on the device.
pub fn render_sort(func: &Func, op: &Op) -> Option<String> {
    plan_op(func, op).map(|p| p.src)
}

/// Whether sort or top_k `op` runs on the device (its kernel rendered once and kept in `memo`).
pub fn runs_on_device(memo: &Memo, func: &Func, op: &Op) -> bool {
    memo.get(op, MEMO_TAG, || render_sort(func, op)).is_some()
}

/// The kernel's role in the program's [`Memo`].
const MEMO_TAG: u32 = 61;

/// How sort or top_k `op` launches, worked out once per op ([`Memo::plan`]): whether its rows pack
/// their key is an analysis of the comparator that renders its region (tens of microseconds, several
/// times over, when every run asked again).
enum Launches {
    /// One launch, a warp a row (true) or a block: rows that fit a block, and top_k by selection
    /// ([`crate::top_k_select`]) of many rows.
    Rows(bool),
    /// A long-row sort or a split top_k: its scratch buffer's bytes and its launches
    /// ([`large_launches`], [`crate::top_k_select::launches`]).
    Long { scratch: usize, launches: Vec<(i64, i64, i64, i64)> },
}

fn launches_of(func: &Func, op: &Op) -> Result<Launches, String> {
    use crate::top_k_select::{self as select, Form};
    match select::selects(func, op) {
        Some(Form::Warp) => return Ok(Launches::Rows(true)),
        Some(Form::Block) => return Ok(Launches::Rows(false)),
        Some(Form::Split { .. }) => {
            let scratch = select::scratch_bytes(func, op).ok_or("a split top_k of no scratch")? as usize;
            return Ok(Launches::Long { scratch, launches: select::launches(func, op).ok_or("a split top_k of no launches")? });
        }
        None => {}
    }
    if plan_is_large(func, op) {
        let scratch = large_scratch_bytes(func, op).ok_or("a long sort of no scratch")? as usize;
        return Ok(Launches::Long { scratch, launches: large_launches(func, op).ok_or("a long sort of no launches")? });
    }
    Ok(Launches::Rows(warp_rows(func, op)))
}

/// The launch plan's role in the program's [`Memo`].
const PLAN_TAG: u32 = 62;

/// Runs sort or top_k `op` on device operands `ins`: its results, or None when it does not run on the
/// device.
pub fn try_sort(gpu: &Gpu, memo: &Memo, func: &Func, op: &Op, ins: &[DTensor]) -> Option<Result<Vec<DTensor>, String>> {
    let src = memo.get(op, MEMO_TAG, || render_sort(func, op))?;
    let (rows, _, _) = rows_of(func, op)?;
    let results = crate::render::result_types(func, op)?;
    let plan = memo.plan(op, PLAN_TAG, || launches_of(func, op));
    Some((|| {
        let mut outs = gpu.alloc_results(&results)?;
        let bufs: Vec<_> = ins.iter().map(|d| &**d.buf).collect();
        match &*plan {
            Err(e) => return Err(e.clone()),
            Ok(Launches::Long { scratch, launches }) => {
                let mut with_pos = Vec::with_capacity(outs.len() + 1);
                with_pos.push(gpu.alloc_raw(Kind::U8, *scratch)?);
                with_pos.extend(outs);
                for &(k, j, steps, items) in launches {
                    gpu.launch_sort_stage(&src, rows, [k, j, steps], items, &bufs, &mut with_pos)?;
                }
                outs = with_pos.split_off(1);
            }
            Ok(Launches::Rows(warp)) => gpu.launch_rows(&src, rows, crate::rows::RowLaunch::plain(*warp), &bufs, &mut outs)?,
        }
        Ok(Gpu::wrap_results(&results, outs))
    })())
}
