//! `chlo.top_k` on the GPU, on [`crate::sort`]'s networks: the `k` largest of each last-dimension row
//! and their positions, in the interpreter's order (descending by the element type's total order, -0.0
//! below +0.0 and NaNs by sign at the ends; ties by ascending position). Few of a row (`k` up to a
//! quarter of its slots) take a partial network ([`top_rounds`]) unless they are few enough for
//! [`crate::top_k_select`] (k up to 16: one pass keeping each thread's best); few of a row past
//! [`SORT_MAX`] two launches ([`large_top_k`]); the rest a whole sort of the row.

use crate::render::{kind_of, load, storage_type, ENTRY};
use crate::sort::{before_in_shared, compare_swap, large_chunk, large_network, network, prelude_and_order, rows_of, keys_fit, SortPlan, SORT_MAX};
use oxhlo_cpu::Kind;
use oxhlo_ir::{Attr, Func, Op, OpKind};
use std::fmt::Write;

/// The plan of `chlo.top_k` `op`: the `k` largest of each last-dimension row (longer than [`SORT_MAX`]:
/// in global memory) and their positions, as the interpreter orders them (descending by the element type's
/// total order, -0.0 below +0.0 and NaNs by sign at the ends; ties by ascending position). `rows` and
/// `n` as for a sort; None when it does not run on the device.
pub fn plan_top_k(func: &Func, op: &Op) -> Option<SortPlan> {
    if let Some(form) = crate::top_k_select::selects(func, op) {
        let (rows, n, _) = rows_of(func, op)?;
        let large = matches!(form, crate::top_k_select::Form::Split { .. });
        return Some(SortPlan { src: crate::top_k_select::render(func, op)?, rows, n, large, chunk: 0 });
    }
    plan_top_k_network(func, op)
}

/// [`plan_top_k`] on sorting networks only (what top_k of more than
/// [`crate::top_k_select::SELECT_MAX_K`] takes; the tests run every top_k this way too).
pub fn plan_top_k_network(func: &Func, op: &Op) -> Option<SortPlan> {
    if op.kind != OpKind::ChloTopK || crate::env_off("OXHLO_CUDA_SORT") || op.operands.len() != 1 || op.results.len() != 2 {
        return None;
    }
    let (kind, _) = kind_of(func, op.operands[0])?;
    let (ik, ishape) = kind_of(func, op.results[1])?;
    let (rows, n, _) = rows_of(func, op)?;
    let k = op.attr("k").and_then(Attr::as_int)?;
    if !(0..=n).contains(&k) || *ishape.last()? != k || !crate::render::is_int(ik) {
        return None;
    }
    let params = vec!["long long rows".to_string(), format!("const {}* __restrict__ in0", storage_type(kind)?), format!("{}* __restrict__ out0", storage_type(kind)?), format!("{}* __restrict__ out1", storage_type(ik)?)];
    let key = |i: &str| {
        let v = load(kind, "in0", i);
        if crate::render::is_float(kind) {
            format!("oxh_tok({v})")
        } else {
            v
        }
    };
    let order = format!("  const auto ka = {}, kb = {};\n  if (ka != kb) return ka > kb;\n", key("ia"), key("ib"));
    let shared = keys_fit(&[kind], n);
    let at = if shared { "sv0[t]" } else { "in0[base + pos[t]]" };
    let copies = format!("      const long long o = (base / {n}LL) * {k}LL + t;\n      out0[o] = {at};\n      out1[o] = ({})pos[t];\n", storage_type(ik)?);
    if n > SORT_MAX {
        let (chunk, keys) = large_chunk(&[kind]);
        let p = (n as u64).next_power_of_two() as i64;
        if let Some(top) = few_of_long(k, p, chunk).filter(|_| keys) {
            let copies = format!("      out0[row * {k}LL + t] = sv0[t];\n      out1[row * {k}LL + t] = ({})sp[t];\n", storage_type(ik)?);
            let src = large_top_k(&params, kind, n, &order, k, chunk, top, &copies);
            return Some(SortPlan { src, rows, n, large: true, chunk });
        }
        let copies = format!("      out0[row * {k}LL + t] = in0[base + at];\n      out1[row * {k}LL + t] = ({})at;\n", storage_type(ik)?);
        let src = large_network("", &params, 1, n, 1, &order, k, &copies, chunk, keys.then_some(&[kind][..]));
        return Some(SortPlan { src, rows, n, large: true, chunk });
    }
    let src = if registers(kind, n) {
        crate::sort_registers::top_k(&params, kind, n, &order, k, storage_type(ik)?)
    } else {
        network("", &params, 1, n, 1, &order, k, &copies, shared.then_some(&[kind][..]))
    };
    Some(SortPlan { src, rows, n, large: false, chunk: 0 })
}

/// Whether a top_k network of rows of `n` of `kind` runs in registers ([`crate::sort_registers::top_k`]):
/// rows a warp sorts ([`crate::sort_registers::warp_rows`]) where a sort of them would take the register
/// form. Rows a block sorts keep the shared-memory network, whose rounds halve the slots they touch
/// (on the H200, top_k 32 of [4096, 1024]: 0.157 ms against 0.225 in registers).
pub(crate) fn registers(kind: Kind, n: i64) -> bool {
    crate::sort_registers::warp_rows(n) && crate::sort::registers_form(&[kind], n) == Some(0)
}

/// The chunk-sized power of two a long-row top_k of `k` keeps a chunk's candidates in, when the
/// two-launch form applies ([`large_top_k`]): `top` = k's next power of two with 4 top <= chunk and the
/// row's candidates, (p / chunk) * top, within a chunk.
pub(crate) fn few_of_long(k: i64, p: i64, chunk: i64) -> Option<i64> {
    let top = (k.max(1) as u64).next_power_of_two() as i64;
    (k >= 1 && 4 * top <= chunk && (p / chunk) * top <= chunk).then_some(top)
}

/// The kernel of a top_k of few (`keep`, see [`few_of_long`]) from rows of `n` f32/ints longer than
/// [`SORT_MAX`], in two launches of the long-row signature `(rows, k, j, steps, in0, pos, out0, out1)`:
/// `(chunk, -2)` a block a chunk of `chunk` positions sorts its chunks of `top` and halves them by
/// rounds in shared memory (as [`network`]'s partial form), leaving the chunk's first `top` positions at
/// `pos[row * p + chunk index * top ...]`; `(-3, 0)` a block a row sorts those candidates in shared
/// memory and writes the first `keep` (`copies`, with `t`, `row`, `base`, `sp`, `sv0`).
#[allow(clippy::too_many_arguments)]
fn large_top_k(params: &[String], kind: Kind, n: i64, order: &str, keep: i64, chunk: i64, top: i64, copies: &str) -> String {
    let p = (n as u64).next_power_of_two() as i64;
    let chunks = p / chunk;
    let m = chunks * top;
    let mut kparams = vec!["long long rows".to_string(), "long long k".to_string(), "long long j".to_string(), "long long steps".to_string(), params[1].clone(), "int* __restrict__ pos".to_string()];
    kparams.extend(params[2..].iter().cloned());
    let mut src = prelude_and_order("", &params[1..=1], "long long", n, 1, order) + &before_in_shared(&params[1..=1], n, order);
    let cas = compare_swap(Some(&[kind]), 1, "sp");
    let sorter = |src: &mut String, slots: i64, upto: i64| {
        let _ = writeln!(src, "      for (int k = 2; k <= {upto}; k <<= 1) {{\n        for (int j = k >> 1; j > 0; j >>= 1) {{");
        let _ = writeln!(src, "          for (int h = threadIdx.x; h < {}; h += blockDim.x) {{", slots / 2);
        let _ = writeln!(src, "            const int t = ((h & ~(j - 1)) << 1) | (h & (j - 1)), u = t + j;");
        let _ = writeln!(src, "            const bool up = (t & k) == 0;\n            {cas}");
        let _ = writeln!(src, "          }}\n          __syncthreads();\n        }}\n      }}");
    };
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__(256) {ENTRY}({}) {{", kparams.join(", "));
    let _ = writeln!(src, "  __shared__ int sp[{chunk}];\n  __shared__ {} sv0[{chunk}];", storage_type(kind).unwrap_or("int"));
    let _ = writeln!(src, "  if (j == -2) {{");
    let _ = writeln!(src, "    for (long long c = blockIdx.x; c < rows * {chunks}LL; c += gridDim.x) {{");
    let _ = writeln!(src, "      const long long row = c / {chunks}LL, ci = c % {chunks}LL, base = row * {n}LL;");
    let _ = writeln!(src, "      for (int t = threadIdx.x; t < {chunk}; t += blockDim.x) {{\n        const int a = (int)(ci * {chunk}LL + t);\n        sp[t] = a;\n        if (a < {n}) sv0[t] = in0[base + a];\n      }}\n      __syncthreads();");
    sorter(&mut src, chunk, top);
    let mut rounds = String::new();
    top_rounds(&mut rounds, chunk, top, &cas);
    // top_rounds writes at the row loop's depth: one level deeper here.
    for line in rounds.lines() {
        let _ = writeln!(src, "  {line}");
    }
    let _ = writeln!(src, "      for (int t = threadIdx.x; t < {top}; t += blockDim.x) pos[row * {p}LL + ci * {top}LL + t] = sp[t];\n      __syncthreads();\n    }}\n    return;\n  }}");
    let _ = writeln!(src, "  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {{");
    let _ = writeln!(src, "    const long long base = row * {n}LL;");
    let _ = writeln!(src, "    for (int t = threadIdx.x; t < {m}; t += blockDim.x) {{\n      const int a = pos[row * {p}LL + t];\n      sp[t] = a;\n      if (a < {n}) sv0[t] = in0[base + a];\n    }}\n    __syncthreads();");
    let mut full = String::new();
    sorter(&mut full, m, m);
    for line in full.lines() {
        let _ = writeln!(src, "{}", line.strip_prefix("  ").unwrap_or(line));
    }
    let _ = writeln!(src, "    for (int t = threadIdx.x; t < {keep}; t += blockDim.x) {{");
    src.push_str(copies);
    let _ = writeln!(src, "    }}\n    __syncthreads();\n  }}\n}}");
    src
}

/// The rounds of a partial top_k network after the chunks of `top` slots are sorted (first in order,
/// last in order, alternately: each pair of neighbouring chunks a bitonic sequence). A round compares
/// each pair's chunks slot by slot and keeps the one first in order in the first chunk (a half-cleaner:
/// that chunk now holds the pair's `top` first elements, as a bitonic sequence), then sorts those
/// chunks with the merge steps of a bitonic network, alternately first-in-order first and last first, for
/// the next round. Chunks stay where they are: after round r the live ones are `top << r` apart. The
/// last round leaves the row's `top` first elements in order at slots `0..top`.
pub(crate) fn top_rounds(src: &mut String, p: i64, top: i64, cas: &str) {
    let _ = writeln!(src, "    // The candidates: chunks of {top} slots, `stride` apart, halved each round.");
    let _ = writeln!(src, "    for (int stride = {top}, live = {}; live > 1; stride <<= 1, live >>= 1) {{", p / top);
    let _ = writeln!(src, "      for (int h = threadIdx.x; h < (live / 2) * {top}; h += blockDim.x) {{");
    let _ = writeln!(src, "        const int g = h / {top}, i = h % {top}, t = 2 * g * stride + i, u = t + stride;");
    let _ = writeln!(src, "        const bool up = true;\n        {cas}");
    let _ = writeln!(src, "      }}\n      __syncthreads();");
    let _ = writeln!(src, "      for (int j = {}; j > 0; j >>= 1) {{", top / 2);
    let _ = writeln!(src, "        for (int h = threadIdx.x; h < (live / 2) * {}; h += blockDim.x) {{", top / 2);
    let _ = writeln!(src, "          const int g = h / {}, q = h % {}, i = ((q & ~(j - 1)) << 1) | (q & (j - 1));", top / 2, top / 2);
    let _ = writeln!(src, "          const int t = 2 * g * stride + i, u = t + j;");
    let _ = writeln!(src, "          const bool up = (g & 1) == 0;\n          {cas}");
    let _ = writeln!(src, "        }}\n        __syncthreads();\n      }}\n    }}");
}

