//! Bitonic sorts with each thread's elements in registers: the same network as [`crate::sort`]'s (the
//! same compared pairs in the same order, so the same stable result), its steps run where the pairs
//! live instead of a `__syncthreads` a step.
//!
//! A thread holds `E` consecutive slots of the row (or chunk): a step of distance `j < E` compares
//! within the thread's registers, `E <= j < 32 E` with the thread `j / E` lanes away by
//! `__shfl_xor_sync` (both threads evaluate the same comparison on the same pair and keep their side),
//! and only `j >= 32 E` goes through shared memory (the registers stored, the steps taken as
//! [`crate::sort::network`] takes them, the registers loaded back): 6 of a 1024-slot row's 55 steps.
//!
//! - Rows up to [`crate::sort::SORT_MAX`] whose slots fit in shared memory ([`small`]): a block of
//!   `rows::ROW_THREADS` a row, as the shared-memory network, or a warp a row for rows of up to 128
//!   slots ([`warp_rows`]: every step in registers or across lanes, eight rows a block).
//! - Longer rows ([`large`]): the elements travel with their positions in a scratch buffer after the
//!   first launch (coalesced, no gathers by position): a block a chunk of `C` slots sorts it in
//!   registers, each later stage's steps of `j >= C` run up to three at a time in one launch (a thread
//!   a group of 2^r slots `j / 2^(r-1)` apart, [`large_launches`]), its steps within chunks in one
//!   launch a chunk, and a last launch copies the sorted elements to the results.
//! - top_k's networks for rows up to `SORT_MAX` ([`top_k`]): chunks sorted, then halved by rounds,
//!   every round's steps placed the same way.
//!
//! `OXHLO_CUDA_SORT_REGISTERS=0` keeps the shared-memory networks.

use crate::render::{storage_type, ENTRY};
use oxhlo_cpu::Kind;
use std::fmt::Write;

/// Threads a block (every launch of these kernels).
const THREADS: i64 = crate::rows::ROW_THREADS;

/// Register bytes a thread may hold a step's elements in (slots times position and elements).
const REG_BYTES: i64 = 256;

/// Whether the register forms are on (`OXHLO_CUDA_SORT_REGISTERS=0` turns them off).
pub fn enabled() -> bool {
    !crate::env_off("OXHLO_CUDA_SORT_REGISTERS")
}

/// Bytes a slot takes: its position and one element of each operand.
fn slot_bytes(kinds: &[Kind]) -> i64 {
    4 + kinds.iter().map(|k| k.size() as i64).sum::<i64>()
}

/// The slots a thread holds when a block sorts `p` slots (`p` a power of two).
fn per_thread(p: i64) -> i64 {
    (p / THREADS).max(p.min(4))
}

/// Whether a row of `n` elements of operands `kinds` sorts by [`small`]: its slots and elements fit
/// in a block's 48 KiB of shared memory and a thread's share in [`REG_BYTES`].
pub fn fits_small(kinds: &[Kind], n: i64) -> bool {
    let p = (n as u64).next_power_of_two() as i64;
    enabled() && kinds.iter().all(|k| storage_type(*k).is_some()) && p * slot_bytes(kinds) <= 48 * 1024 && per_thread(p) * slot_bytes(kinds) <= REG_BYTES
}

/// Whether [`small`] sorts rows of `n` a warp a row (eight to a block: rows of up to 128 slots, every
/// step in registers or across lanes) rather than a block a row.
pub fn warp_rows(n: i64) -> bool {
    (n as u64).next_power_of_two() <= 128
}

/// The chunk a block sorts in a long-row sort ([`large`]), or None when a chunk of at least 1024
/// slots does not fit in shared memory (the form does not apply).
pub fn large_chunk(kinds: &[Kind]) -> Option<i64> {
    if !enabled() || kinds.iter().any(|k| storage_type(*k).is_none()) {
        return None;
    }
    let fit = 48 * 1024 / slot_bytes(kinds);
    let c = 1i64 << (63 - (fit as u64).leading_zeros());
    (c >= 1024).then_some(c.min(4096))
}

/// Steps a long-row launch takes at once in global memory for operands `kinds` (their group of 2^r
/// slots within [`REG_BYTES`], at least one step, at most three: four cost a long sort's kernel a
/// quarter more NVRTC time, 0.78 s against 0.59 on the dev machine).
fn fused_steps(kinds: &[Kind]) -> i64 {
    (1..=3).rev().find(|r| (1i64 << r) * slot_bytes(kinds) <= REG_BYTES).unwrap_or(1)
}

/// The launches of a long-row sort of `rows` rows of `p` slots (`n` elements) in chunks of `c`, as
/// `(k, j, steps, work items)` (a block of 256 threads per 256 items): `(c, -1, 0)` sorts every chunk,
/// then for each later stage `k` its steps `j >= c` in groups of up to [`fused_steps`] `(k, j, r)` (a
/// thread 2^r slots) and `(k, -1, 0)` its steps within chunks; `(-1, 0, 0)` writes the results.
pub fn large_launches(kinds: &[Kind], rows: i64, n: i64, c: i64) -> Vec<(i64, i64, i64, i64)> {
    let p = (n as u64).next_power_of_two() as i64;
    let fused = fused_steps(kinds);
    let chunks = rows * (p / c) * THREADS;
    let mut out = vec![(c, -1, 0, chunks)];
    let mut k = 2 * c;
    while k <= p {
        let mut j = k / 2;
        while j >= c {
            // Steps j, j/2, ... down to c at most `fused` of them.
            let r = (1..=fused).rev().find(|&r| j >> (r - 1) >= c).unwrap_or(1);
            out.push((k, j, r, (rows * p) >> r));
            j >>= r;
        }
        out.push((k, -1, 0, chunks));
        k *= 2;
    }
    out.push((-1, 0, 0, rows * n));
    out
}

/// Bytes of the scratch buffer of a long-row sort: every row's `p` positions (ints), then every
/// operand's `p` elements a row.
pub fn scratch_bytes(kinds: &[Kind], rows: i64, n: i64) -> i64 {
    rows * ((n as u64).next_power_of_two() as i64) * slot_bytes(kinds)
}

/// `oxs_before_r(x0, y0, x1, y1, ..., a, b)`: whether the slot of position `a` holding elements `x...`
/// sorts before the one of position `b` holding `y...`, by `order` (statements reading `in<j>[ia]` and
/// `in<j>[ib]`, returning when they differ), then by position; positions past `n` last.
fn before_in_registers(kinds: &[Kind], n: i64, order: &str) -> String {
    let mut params = Vec::new();
    let mut arrays = String::new();
    for (j, k) in kinds.iter().enumerate() {
        let s = storage_type(*k).unwrap_or("int");
        params.push(format!("{s} x{j}, {s} y{j}"));
        let _ = writeln!(arrays, "  const {s} in{j}[2] = {{x{j}, y{j}}};");
    }
    let mut src = String::from("// The same, the two slots' elements in registers.\n");
    let _ = writeln!(src, "__device__ __forceinline__ bool oxs_before_r({}, int a, int b) {{", params.join(", "));
    let _ = writeln!(src, "  if (a >= {n} || b >= {n}) return (a >= {n}) == (b >= {n}) ? a < b : a < {n};");
    let _ = write!(src, "{arrays}  const int ia = 0, ib = 1;\n{order}  return a < b;\n}}\n");
    src
}

/// A register value of storage type `s` from the lane `m` away (1- and 2-byte elements through an int).
fn shuffled(k: Kind, x: &str) -> String {
    let s = storage_type(k).unwrap_or("int");
    if k.size() < 4 {
        format!("({s})__shfl_xor_sync(0xffffffffu, (int){x}, m)")
    } else {
        format!("__shfl_xor_sync(0xffffffffu, {x}, m)")
    }
}

/// A statement ordering slots `lo` < `hi` held in one thread's registers (elements `<v><j>[..]`,
/// positions `<p>[..]` unless `!pos`, packed slots holding theirs; `up`: the one first in order at
/// `lo`), swapping them unless they are in order.
fn ordered_pair(kinds: &[Kind], pos: bool, v: &str, p: &str, lo: &str, hi: &str) -> String {
    let mut args: Vec<String> = (0..kinds.len()).map(|j| format!("up ? {v}{j}[{hi}] : {v}{j}[{lo}], up ? {v}{j}[{lo}] : {v}{j}[{hi}]")).collect();
    let mut swaps = String::new();
    if pos {
        args.push(format!("up ? {p}[{hi}] : {p}[{lo}], up ? {p}[{lo}] : {p}[{hi}]"));
        let _ = write!(swaps, " const int x = {p}[{lo}]; {p}[{lo}] = {p}[{hi}]; {p}[{hi}] = x;");
    }
    for (j, k) in kinds.iter().enumerate() {
        let _ = write!(swaps, " {{ const {} x = {v}{j}[{lo}]; {v}{j}[{lo}] = {v}{j}[{hi}]; {v}{j}[{hi}] = x; }}", storage_type(*k).unwrap_or("int"));
    }
    format!("if (oxs_before_r({})) {{{swaps} }}", args.join(", "))
}

/// The steps of distance `jtop` down to `max(32 e, jbot)` through shared memory (`pos`, `sv<j>`):
/// the thread's slots stored, the shared-memory network's compare-and-swaps, the slots loaded back.
fn shared_steps(src: &mut String, kinds: &[Kind], pos: bool, slots: i64, e: i64, g0: &str) {
    let active = slots / e;
    let regs = |shared_to_regs: bool| {
        let mut s = format!("        if (me < {active}) {{\n          #pragma unroll\n          for (int e = 0; e < {e}; e++) {{");
        let slot = format!("me * {e} + e");
        let names = [("rp".to_string(), "pos".to_string())].into_iter().filter(|_| pos).chain((0..kinds.len()).map(|j| (format!("r{j}"), format!("sv{j}"))));
        for (r, sv) in names {
            let _ = if shared_to_regs { write!(s, " {r}[e] = {sv}[{slot}];") } else { write!(s, " {sv}[{slot}] = {r}[e];") };
        }
        let _ = write!(s, " }}\n        }}\n");
        s
    };
    let _ = writeln!(src, "      if (jtop >= {}) {{", 32 * e);
    src.push_str(&regs(false));
    let _ = writeln!(src, "        __syncthreads();");
    let _ = writeln!(src, "        for (int j = jtop; j >= {} && j >= jbot; j >>= 1) {{", 32 * e);
    let _ = writeln!(src, "          for (int h = threadIdx.x; h < {}; h += blockDim.x) {{", slots / 2);
    let _ = writeln!(src, "            const int t = ((h & ~(j - 1)) << 1) | (h & (j - 1)), u = t + j;");
    let swap = if pos { crate::sort::compare_swap(Some(kinds), kinds.len(), "pos") } else { PACKED_SWAP.to_string() };
    let _ = writeln!(src, "            const bool up = (({g0} + t) & kk) == 0;\n            {swap}");
    let _ = writeln!(src, "          }}\n          __syncthreads();\n        }}");
    src.push_str(&regs(true));
    let _ = writeln!(src, "      }}");
}

/// The network's steps of distance `jtop` down to `jbot` (ints the caller declares; `kk`, a `long
/// long`, the stage whose bit gives each pair's direction) over a block's (or a warp's) `slots` slots
/// held `e` a thread (`rp[e]` positions, `r<j>[e]` elements; the thread's share the `me`-th, an int
/// the caller declares), the first slot at row slot `g0`: in shared memory (`pos`, `sv<j>`), across
/// lanes or in registers by their distance (see the module doc). Only the forms of distances within
/// `[jmin, jmax]` (what `jbot` and `jtop` can be) are emitted.
#[allow(clippy::too_many_arguments)]
fn steps(src: &mut String, kinds: &[Kind], pos: bool, slots: i64, e: i64, g0: &str, jmin: i64, jmax: i64) {
    // Distances of 32 threads' slots or more: through shared memory (none in a warp's row).
    if jmax.min(slots / 2) >= 32 * e {
        shared_steps(src, kinds, pos, slots, e, g0);
    }
    // Across lanes: slot s of this thread against slot s of the thread m lanes away.
    if jmax < e || jmin > 16 * e {
        return registers_steps(src, kinds, pos, e, g0, jmin, jmax);
    }
    let _ = writeln!(src, "      for (int j = jtop < {} ? jtop : {}; j >= {e} && j >= jbot; j >>= 1) {{", 16 * e, 16 * e);
    let _ = writeln!(src, "        const int m = j / {e};\n        const bool low = (me & m) == 0;");
    let _ = writeln!(src, "        #pragma unroll\n        for (int e = 0; e < {e}; e++) {{");
    if pos {
        let _ = writeln!(src, "          const int ob = __shfl_xor_sync(0xffffffffu, rp[e], m);");
    }
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "          const {} o{j} = {};", storage_type(*k).unwrap_or("int"), shuffled(*k, &format!("r{j}[e]")));
    }
    // The pair's lower slot is this thread's when `low`; both threads ask the same question of it.
    let _ = writeln!(src, "          const bool up = (({g0} + me * {e} + e) & kk) == 0, f = up == low;");
    let mut args: Vec<String> = (0..kinds.len()).map(|j| format!("f ? o{j} : r{j}[e], f ? r{j}[e] : o{j}")).collect();
    if pos {
        args.push("f ? ob : rp[e], f ? rp[e] : ob".into());
    }
    let moves: String = (0..kinds.len()).map(|j| format!(" r{j}[e] = o{j};")).collect();
    let _ = writeln!(src, "          if (oxs_before_r({})) {{{}{moves} }}", args.join(", "), if pos { " rp[e] = ob;" } else { "" });
    let _ = writeln!(src, "        }}\n      }}");
    registers_steps(src, kinds, pos, e, g0, jmin, jmax);
}

/// [`steps`]' distances below `e`, within a thread: each distance a literal so that the registers'
/// indices are constants once unrolled (those within `[jmin, jmax]`).
fn registers_steps(src: &mut String, kinds: &[Kind], pos: bool, e: i64, g0: &str, jmin: i64, jmax: i64) {
    let mut jr = e / 2;
    while jr >= 1 {
        if jr < jmin || jr > jmax {
            jr /= 2;
            continue;
        }
        let _ = writeln!(src, "      if (jtop >= {jr} && jbot <= {jr}) {{\n        #pragma unroll\n        for (int e = 0; e < {e}; e++) {{");
        let _ = writeln!(src, "          if ((e & {jr}) != 0) continue;\n          const int f = e | {jr};");
        let _ = writeln!(src, "          const bool up = (({g0} + me * {e} + e) & kk) == 0;\n          {}", ordered_pair(kinds, pos, "r", "rp", "e", "f"));
        let _ = writeln!(src, "        }}\n      }}");
        jr /= 2;
    }
}

/// The statements of stages `kk` (a `long long` loop the caller opens with `k_loop`, closed here; up
/// to `kmax`), each stage's steps from `min(kk / 2, slots / 2)` down to 1 ([`steps`]).
#[allow(clippy::too_many_arguments)]
fn stages(src: &mut String, kinds: &[Kind], pos: bool, slots: i64, e: i64, g0: &str, k_loop: &str, kmax: i64) {
    let _ = writeln!(src, "    {k_loop} {{");
    let _ = writeln!(src, "      const int jtop = (int)(kk / 2 < {} ? kk / 2 : {}), jbot = 1;", slots / 2, slots / 2);
    steps(src, kinds, pos, slots, e, g0, 1, kmax / 2);
    let _ = writeln!(src, "    }}");
}

/// Declarations of a thread's slots and of the block's shared ones (without positions unless `pos`).
fn declarations(src: &mut String, kinds: &[Kind], pos: bool, slots: i64, e: i64) {
    if pos {
        let _ = writeln!(src, "  __shared__ int pos[{slots}];");
    }
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "  __shared__ {} sv{j}[{slots}];", storage_type(*k).unwrap_or("int"));
    }
    let mut regs: Vec<String> = kinds.iter().enumerate().map(|(j, k)| format!("{} r{j}[{e}];", storage_type(*k).unwrap_or("int"))).collect();
    if pos {
        regs.insert(0, format!("int rp[{e}];"));
    }
    let _ = writeln!(src, "  {}", regs.join(" "));
}

/// The kernel of a sort of rows of `n` elements `inner` apart ([`fits_small`]), signature `params`
/// (`rows`, the inputs, the outputs), `helpers` and `order` as [`crate::sort::network`] takes them:
/// a block a row, each thread's slots loaded from the inputs, sorted, stored to the outputs.
pub fn small(helpers: &str, params: &[String], kinds: &[Kind], n: i64, inner: i64, order: &str) -> String {
    row_kernel(helpers, params, kinds, n, inner, order, None, None)
}

/// A sort by one key per element ([`oxhlo_opt::sort_key`]) as [`small`] sorts, each slot one 64-bit
/// value: the key's order-preserving 32 bits (`key`, a C expression of an unsigned int reading the
/// element at `ix`) above the element's position, so that a comparison is one integer comparison and
/// ties go by position (the stable order, as the comparator's). The sorted positions then gather each
/// of the `operands` inputs to its output.
pub fn small_packed(helpers: &str, params: &[String], operands: usize, n: i64, inner: i64, key: &str) -> String {
    row_kernel(helpers, params, &[Kind::U64], n, inner, "", None, Some(Packed { key, operands }))
}

/// [`small_packed`]'s key expression and operand count.
struct Packed<'a> {
    key: &'a str,
    operands: usize,
}

/// The prelude, `helpers` and the orders of two slots (`oxs_before` of positions in global and shared
/// memory, `oxs_before_r` in registers) by `order` over the inputs `in_params` of `kinds`; `packed`:
/// [`PACKED_BEFORE`]'s instead (packed slots are distinct, each holding its position, and padding, all
/// ones, sorts after every element: one integer comparison orders them).
#[allow(clippy::too_many_arguments)]
fn prelude_and_orders(helpers: &str, in_params: &[String], kinds: &[Kind], n: i64, inner: i64, order: &str, packed: bool) -> String {
    if packed {
        return format!("{}{helpers}{PACKED_BEFORE}", crate::render::PRELUDE);
    }
    let mut src = crate::sort::prelude_and_order(helpers, in_params, "int", n, inner, order);
    src.push_str(&crate::sort::before_in_shared(in_params, n, order));
    src.push_str(&before_in_registers(kinds, n, order));
    src
}

/// [`small_packed`]'s orders of two slots, in shared memory and in registers.
const PACKED_BEFORE: &str = "__device__ __forceinline__ bool oxs_before_r(unsigned long long x, unsigned long long y) { return x < y; }
";

/// [`shared_steps`]' compare-and-swap of packed slots `t` < `u` in shared memory (`sv0`).
const PACKED_SWAP: &str = "{ const unsigned long long a = sv0[t], b = sv0[u]; if (up ? b < a : a < b) { sv0[t] = b; sv0[u] = a; } }";

/// The network form of a top_k of `keep` from rows of `n` elements of kind `kind` ([`fits_small`]),
/// signature `params` (`rows, in0, out0, out1`; `index` the C type of `out1`), `order` the order's
/// statements (first: the larger): [`crate::sort::network`]'s, the network run in registers. A top_k
/// of few (`keep` up to a quarter of the row) sorts chunks of `top` (`keep`'s next power of two) and
/// halves them by rounds ([`crate::top_k::top_rounds`]: a half-cleaner between each pair of chunks at
/// distance `stride`, then a chunk's merge steps, directions alternating by pair); the rest sorts the
/// whole row. The first `keep` slots are the results.
pub fn top_k(params: &[String], kind: Kind, n: i64, order: &str, keep: i64, index: &str) -> String {
    row_kernel("", params, &[kind], n, 1, order, Some((keep, index)), None)
}

/// [`small`], [`small_packed`] (`packed`), or [`top_k`] with `top_k` (`keep`, the index type).
#[allow(clippy::too_many_arguments)]
fn row_kernel(helpers: &str, params: &[String], kinds: &[Kind], n: i64, inner: i64, order: &str, top_k: Option<(i64, &str)>, packed: Option<Packed>) -> String {
    let p = (n as u64).next_power_of_two() as i64;
    let warp = warp_rows(n);
    let e = if warp { (p / 32).max(1) } else { per_thread(p) };
    let inputs = kinds.len();
    let mut src = prelude_and_orders(helpers, &params[1..=inputs], kinds, n, inner, order, packed.is_some());
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__({THREADS}) {ENTRY}({}) {{", params.join(", "));
    let pos = packed.is_none();
    declarations(&mut src, kinds, pos, p, e);
    if warp {
        // A warp a row, eight rows a block; no block-wide barrier (the rows' counts differ by warp).
        let _ = writeln!(src, "  const int me = threadIdx.x & 31;");
        let _ = writeln!(src, "  for (long long row = blockIdx.x * 8LL + (threadIdx.x >> 5); row < rows; row += gridDim.x * 8LL) {{");
    } else {
        let _ = writeln!(src, "  const int me = threadIdx.x;");
        let _ = writeln!(src, "  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {{");
    }
    let _ = writeln!(src, "    const long long base = (row / {inner}LL) * {}LL + row % {inner}LL;", n * inner);
    let _ = writeln!(src, "    #pragma unroll\n    for (int e = 0; e < {e}; e++) {{\n      const int i = me * {e} + e;{}", if pos { "\n      rp[e] = i;" } else { "" });
    if let Some(Packed { key, .. }) = &packed {
        let _ = writeln!(src, "      const long long ix = base + (long long)(i < {n} ? i : 0) * {inner}LL;");
        let _ = writeln!(src, "      r0[e] = i < {n} ? ((unsigned long long)({key}) << 32) | (unsigned)i : ~0ULL;");
    }
    for (j, k) in kinds.iter().enumerate().filter(|_| packed.is_none()) {
        let _ = writeln!(src, "      r{j}[e] = i < {n} ? in{j}[base + (long long)i * {inner}LL] : ({})0;", storage_type(*k).unwrap_or("int"));
    }
    let _ = writeln!(src, "    }}");
    match top_k {
        None if packed.is_some() => {
            stages(&mut src, kinds, pos, p, e, "0", &format!("for (long long kk = 2; kk <= {p}; kk <<= 1)"), p);
            let _ = writeln!(src, "    #pragma unroll\n    for (int e = 0; e < {e}; e++) {{\n      const int i = me * {e} + e;\n      if (i < {n}) {{");
            let _ = writeln!(src, "        const long long q = (long long)(unsigned)r0[e];");
            for j in 0..packed.as_ref().map_or(0, |pk| pk.operands) {
                let _ = writeln!(src, "        out{j}[base + (long long)i * {inner}LL] = in{j}[base + q * {inner}LL];");
            }
        }
        None => {
            stages(&mut src, kinds, pos, p, e, "0", &format!("for (long long kk = 2; kk <= {p}; kk <<= 1)"), p);
            let _ = writeln!(src, "    #pragma unroll\n    for (int e = 0; e < {e}; e++) {{\n      const int i = me * {e} + e;\n      if (i < {n}) {{");
            for j in 0..inputs {
                let _ = writeln!(src, "        out{j}[base + (long long)i * {inner}LL] = r{j}[e];");
            }
        }
        Some((keep, index)) => {
            let top = (keep.max(1) as u64).next_power_of_two() as i64;
            let partial = keep >= 1 && keep < n && 4 * top <= p;
            let sorted = if partial { top } else { p };
            stages(&mut src, kinds, pos, p, e, "0", &format!("for (long long kk = 2; kk <= {sorted}; kk <<= 1)"), sorted);
            if partial {
                // Rounds: the half-cleaner (every pair first-in-order first: a stage bit no slot has),
                // then the chunks' merges, directions alternating by pair (the stage of 2 stride).
                let _ = writeln!(src, "    for (long long stride = {top}; stride < {p}; stride <<= 1) {{");
                let _ = writeln!(src, "     {{\n      const long long kk = {};\n      const int jtop = (int)stride, jbot = (int)stride;", 2 * p);
                steps(&mut src, kinds, pos, p, e, "0", top, p / 2);
                let _ = writeln!(src, "     }}\n     {{\n      const long long kk = 2 * stride;\n      const int jtop = {}, jbot = 1;", top / 2);
                steps(&mut src, kinds, pos, p, e, "0", 1, top / 2);
                let _ = writeln!(src, "     }}\n    }}");
            }
            let _ = writeln!(src, "    #pragma unroll\n    for (int e = 0; e < {e}; e++) {{\n      const int i = me * {e} + e;\n      if (i < {keep}) {{");
            let _ = writeln!(src, "        out0[row * {keep}LL + i] = r0[e];\n        out1[row * {keep}LL + i] = ({index})rp[e];");
        }
    }
    let _ = writeln!(src, "      }}\n    }}{}\n  }}\n}}", if warp { "" } else { "\n    __syncthreads();" });
    src
}

/// The kernel of a sort of rows of `n` elements `inner` apart longer than a block sorts at once, in
/// chunks of `c` ([`large_chunk`]): signature `(rows, k, j, steps, inputs..., scratch, outputs...)`
/// (`params` as for [`small`]; the scratch [`scratch_bytes`] long), launched as [`large_launches`]
/// lists (see the module doc).
pub fn large(helpers: &str, params: &[String], kinds: &[Kind], n: i64, inner: i64, order: &str, c: i64) -> String {
    large_kernel(helpers, params, kinds, n, inner, order, c, None)
}

/// [`small_packed`]'s form of rows longer than a block sorts at once: [`large`] over one 64-bit slot an
/// element (its network kinds `[U64]`: [`large_launches`] and [`scratch_bytes`] of those).
pub fn large_packed(helpers: &str, params: &[String], operands: usize, n: i64, inner: i64, key: &str, c: i64) -> String {
    large_kernel(helpers, params, &[Kind::U64], n, inner, "", c, Some(Packed { key, operands }))
}

/// [`large`], or [`large_packed`] with `packed`.
#[allow(clippy::too_many_arguments)]
fn large_kernel(helpers: &str, params: &[String], kinds: &[Kind], n: i64, inner: i64, order: &str, c: i64, packed: Option<Packed>) -> String {
    let p = (n as u64).next_power_of_two() as i64;
    let e = c / THREADS;
    let inputs = kinds.len();
    let chunks = p / c;
    // The kernel's own inputs and outputs (a packed sort's operands; the network's slots otherwise).
    let operands = packed.as_ref().map_or(inputs, |pk| pk.operands);
    let mut kparams = vec!["long long rows".to_string(), "long long k".to_string(), "long long j".to_string(), "long long steps".to_string()];
    kparams.extend(params[1..=operands].iter().cloned());
    kparams.push("int* __restrict__ pos_all".to_string());
    kparams.extend(params[operands + 1..].iter().cloned());
    let mut src = prelude_and_orders(helpers, &params[1..=operands], kinds, n, inner, order, packed.is_some());
    let merge = packed.is_some() && crate::sort_merge::enabled();
    // Packed slots hold their positions: no position registers, shuffles or scratch.
    let pos = packed.is_none();
    if merge {
        src.push_str(crate::sort_merge::SPLIT);
    }
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__({THREADS}) {ENTRY}({}) {{", kparams.join(", "));
    // The scratch: positions (unless packed), then each operand's elements, `rows * p` of each.
    let mut offset = if pos { 4 } else { 0 };
    for (j, k) in kinds.iter().enumerate() {
        let s = storage_type(*k).unwrap_or("int");
        let _ = writeln!(src, "  {s}* __restrict__ kv{j} = ({s}*)((char*)pos_all + rows * {}LL);", p * offset);
        offset += k.size() as i64;
    }
    let _ = writeln!(src, "  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x, stride = (long long)gridDim.x * blockDim.x;");
    // The results.
    let _ = writeln!(src, "  if (k < 0) {{\n    for (long long q = tid; q < rows * {n}LL; q += stride) {{");
    let _ = writeln!(src, "      const long long row = q / {n}LL, t = q % {n}LL, base = (row / {inner}LL) * {}LL + row % {inner}LL;", n * inner);
    if packed.is_some() {
        // The sorted positions gather the operands.
        let _ = writeln!(src, "      const long long at = (long long)(unsigned)kv0[row * {p}LL + t];");
        for j in 0..operands {
            let _ = writeln!(src, "      out{j}[base + t * {inner}LL] = in{j}[base + at * {inner}LL];");
        }
    }
    for j in (0..inputs).filter(|_| packed.is_none()) {
        let _ = writeln!(src, "      out{j}[base + t * {inner}LL] = kv{j}[row * {p}LL + t];");
    }
    let _ = writeln!(src, "    }}\n    return;\n  }}");
    // Steps within chunks: a block a chunk.
    let _ = writeln!(src, "  if (j < 0) {{");
    declarations(&mut src, kinds, pos, c, e);
    if merge {
        // A merge pass, in the chunk sort's shared slots.
        let _ = writeln!(src, "    __shared__ int cuts[2];");
        let branch = crate::sort_merge::merge_branch(operands, n, inner, p, c, "sv0", "cuts");
        branch.lines().for_each(|line| {
            let _ = writeln!(src, "  {line}");
        });
    }
    let _ = writeln!(src, "    const int me = threadIdx.x;");
    let _ = writeln!(src, "    for (long long ch = blockIdx.x; ch < rows * {chunks}LL; ch += gridDim.x) {{");
    let _ = writeln!(src, "      const long long row = ch / {chunks}LL, c0 = (ch % {chunks}LL) * {c}LL;");
    let _ = writeln!(src, "      const long long base = (row / {inner}LL) * {}LL + row % {inner}LL, at = row * {p}LL + c0;", n * inner);
    let _ = writeln!(src, "      #pragma unroll\n      for (int e = 0; e < {e}; e++) {{\n        const int i = threadIdx.x * {e} + e;");
    let _ = writeln!(src, "        if (k == {c}) {{\n          const long long g = c0 + i;{}", if pos { "\n          rp[e] = (int)g;" } else { "" });
    if let Some(Packed { key, .. }) = &packed {
        let _ = writeln!(src, "          const long long ix = base + (g < {n} ? g : 0) * {inner}LL;");
        let _ = writeln!(src, "          r0[e] = g < {n} ? ((unsigned long long)({key}) << 32) | (unsigned)g : ~0ULL;");
    }
    for (j, k) in kinds.iter().enumerate().filter(|_| packed.is_none()) {
        let _ = writeln!(src, "          r{j}[e] = g < {n} ? in{j}[base + g * {inner}LL] : ({})0;", storage_type(*k).unwrap_or("int"));
    }
    let _ = write!(src, "        }} else {{\n         {}", if pos { " rp[e] = pos_all[at + i];" } else { "" });
    for j in 0..inputs {
        let _ = write!(src, " r{j}[e] = kv{j}[at + i];");
    }
    let _ = writeln!(src, "\n        }}\n      }}");
    let mut body = String::new();
    // Merged chunks all ascend; the network's alternate by the chunk's stage bit.
    stages(&mut body, kinds, pos, c, e, if merge { "0" } else { "c0" }, &format!("for (long long kk = k == {c} ? 2 : k; kk <= k; kk <<= 1)"), 2 * c);
    for line in body.lines() {
        let _ = writeln!(src, "  {line}");
    }
    // Packed slots hold their positions: only the comparator's later launches read `pos_all`.
    let positions = if pos { " pos_all[at + i] = rp[e];" } else { "" };
    let _ = write!(src, "      #pragma unroll\n      for (int e = 0; e < {e}; e++) {{\n        const int i = threadIdx.x * {e} + e;\n       {positions}");
    for j in 0..inputs {
        let _ = write!(src, " kv{j}[at + i] = r{j}[e];");
    }
    let _ = writeln!(src, "\n      }}\n      __syncthreads();\n    }}\n    return;\n  }}");
    // Steps across chunks: a thread a group of 2^steps slots `lo` apart (j, j/2, ... lo in registers).
    let g = 1i64 << fused_steps(kinds);
    let _ = writeln!(src, "  const long long lo = j >> (steps - 1), groups = {p}LL >> steps;");
    let mut regs: Vec<String> = kinds.iter().enumerate().map(|(j, k)| format!("{} g{j}[{g}];", storage_type(*k).unwrap_or("int"))).collect();
    if pos {
        regs.insert(0, format!("int gp[{g}];"));
    }
    let _ = write!(src, "  {}", regs.join(" "));
    let _ = writeln!(src, "\n  for (long long q = tid; q < rows * groups; q += stride) {{");
    let _ = writeln!(src, "    const long long row = q / groups, h = q % groups, first = (h / lo) * 2 * j + h % lo, at = row * {p}LL + first;");
    let _ = writeln!(src, "    const bool up = (first & k) == 0;");
    let _ = write!(src, "    #pragma unroll\n    for (int s = 0; s < {g}; s++) if (s < (1 << steps)) {{{}", if pos { " gp[s] = pos_all[at + s * lo];" } else { "" });
    for j in 0..inputs {
        let _ = write!(src, " g{j}[s] = kv{j}[at + s * lo];");
    }
    let _ = writeln!(src, " }}");
    // Each distance a literal so the registers' indices are constants once unrolled.
    let pair = ordered_pair(kinds, pos, "g", "gp", "s", "f");
    let mut d = g / 2;
    while d >= 1 {
        let _ = writeln!(src, "    if ({d} < (1 << steps)) {{\n      #pragma unroll\n      for (int s = 0; s < {g}; s++) {{");
        let _ = writeln!(src, "        if ((s & {d}) != 0 || s >= (1 << steps)) continue;\n        const int f = s | {d};");
        let _ = writeln!(src, "        {pair}");
        let _ = writeln!(src, "      }}\n    }}");
        d /= 2;
    }
    let _ = write!(src, "    #pragma unroll\n    for (int s = 0; s < {g}; s++) if (s < (1 << steps)) {{{}", if pos { " pos_all[at + s * lo] = gp[s];" } else { "" });
    for j in 0..inputs {
        let _ = write!(src, " kv{j}[at + s * lo] = g{j}[s];");
    }
    let _ = writeln!(src, " }}\n  }}\n}}");
    src
}
