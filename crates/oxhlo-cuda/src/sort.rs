//! `stablehlo.sort` and `chlo.top_k` on the GPU: rows of up to [`SORT_MAX`] elements along the sort
//! dimension (top_k: the last) in shared memory, longer rows in global memory (one launch a step
//! of the network, [`large_stages`]), any number of operands, any comparator the elementwise renderer can
//! express (JAX's float comparators with their -0.0 / NaN canonicalization and `TOTALORDER` compare
//! among them); top_k in the interpreter's order (the element type's total order, descending).
//!
//! A block per row (`rows` = elements / row length, grid-stride beyond 2^20 rows) sorts the row's
//! positions `0..n` in shared memory with a bitonic network over the next power of two (positions
//! past `n` sort last), then gathers every operand's elements into the results. Two positions are
//! ordered by the comparator (`comp(x[a], x[b])`: a first; `comp(x[b], x[a])`: b first) and, when
//! neither holds, by position: every sort is stable, as the reference interpreter's is (the spec
//! leaves the order of equivalent elements open when `is_stable` is false). The comparator reads the
//! operands from global memory (L1-cached) as it goes.
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
/// than [`SORT_MAX`] and sorts in global memory (see [`large_stages`]).
pub struct SortPlan {
    pub src: String,
    pub rows: i64,
    pub n: i64,
    pub large: bool,
}

/// The launches of a sort of rows longer than [`SORT_MAX`], in order, as `(k, j)` scalars of its kernel
/// (a `rows * p` buffer of positions, `p` the row length's next power of two): `(0, 0)` sets every
/// row's positions to 0..p, each `(k, j)` (k > 0) is one step of the bitonic network over all rows (a
/// thread a compared pair), and `(-1, 0)` gathers every operand's elements by the sorted positions.
pub fn large_stages(p: i64) -> Vec<(i64, i64)> {
    let mut out = vec![(0, 0)];
    let mut k = 2;
    while k <= p {
        let mut j = k / 2;
        while j > 0 {
            out.push((k, j));
            j /= 2;
        }
        k *= 2;
    }
    out.push((-1, 0));
    out
}

/// A sort's or top_k's rows from its operand types alone: (rows, row length, elements between a row's
/// neighbours), or None for shapes the device does not sort.
fn rows_of(func: &Func, op: &Op) -> Option<(i64, i64, i64)> {
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
    let comparator = render_comparator(func, op, &kinds.iter().map(|(k, _)| *k).collect::<Vec<_>>())?;
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
    if n > SORT_MAX {
        let copies: String = (0..kinds.len()).map(|j| format!("      out{j}[base + t * {inner}LL] = in{j}[base + at * {inner}LL];\n")).collect();
        let src = large_network(&comparator, &params, kinds.len(), n, inner, &order, n, &copies);
        return Some(SortPlan { src, rows, n, large: true });
    }
    let copies: String = (0..kinds.len()).map(|j| format!("      out{j}[base + (long long)t * {inner}LL] = in{j}[base + (long long)pos[t] * {inner}LL];\n")).collect();
    let src = network(&comparator, &params, kinds.len(), n, inner, &order, n, &copies);
    Some(SortPlan { src, rows, n, large: false })
}

/// The kernel of a sort (or top_k) of rows longer than [`SORT_MAX`] (see [`large_stages`]): parameters
/// `(rows, k, j, inputs..., pos, outputs...)`, the positions a `rows * p` buffer of ints; each launch a
/// grid-stride loop over its work; the gather runs `copies` for sorted positions `t < keep` of each
/// row (`row`, `base`, `at`: the element position at `t`).
#[allow(clippy::too_many_arguments)]
fn large_network(helpers: &str, params: &[String], inputs: usize, n: i64, inner: i64, order: &str, keep: i64, copies: &str) -> String {
    let p = (n as u64).next_power_of_two() as i64;
    let ins: Vec<String> = (0..inputs).map(|j| format!("in{j}")).collect();
    let ins = ins.join(", ");
    let mut kparams = vec!["long long rows".to_string(), "long long k".to_string(), "long long j".to_string()];
    kparams.extend(params[1..=inputs].iter().cloned());
    kparams.push("int* __restrict__ pos".to_string());
    kparams.extend(params[inputs + 1..].iter().cloned());
    let mut src = prelude_and_order(helpers, &params[1..=inputs], "long long", n, inner, order);
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__(256) {ENTRY}({}) {{", kparams.join(", "));
    let _ = writeln!(src, "  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x, stride = (long long)gridDim.x * blockDim.x;");
    let _ = writeln!(src, "  if (k == 0) {{\n    for (long long q = tid; q < rows * {p}LL; q += stride) pos[q] = (int)(q % {p}LL);\n    return;\n  }}");
    let _ = writeln!(src, "  if (k < 0) {{\n    for (long long q = tid; q < rows * {keep}LL; q += stride) {{");
    let _ = writeln!(src, "      const long long row = q / {keep}LL, t = q % {keep}LL, base = (row / {inner}LL) * {}LL + row % {inner}LL;", n * inner);
    let _ = writeln!(src, "      const long long at = pos[row * {p}LL + t];");
    src.push_str(copies);
    let _ = writeln!(src, "    }}\n    return;\n  }}");
    let _ = writeln!(src, "  for (long long q = tid; q < rows * {}LL; q += stride) {{", p / 2);
    let _ = writeln!(src, "    const long long row = q / {}LL, h = q % {}LL, t = (h / j) * 2 * j + h % j, u = t + j;", p / 2, p / 2);
    let _ = writeln!(src, "    const long long base = (row / {inner}LL) * {}LL + row % {inner}LL;", n * inner);
    let _ = writeln!(src, "    int* r = pos + row * {p}LL;");
    let _ = writeln!(src, "    const int a = r[t], b = r[u];");
    let _ = writeln!(src, "    if ((t & k) == 0 ? oxs_before({ins}, base, b, a) : oxs_before({ins}, base, a, b)) {{ r[t] = b; r[u] = a; }}");
    let _ = writeln!(src, "  }}\n}}");
    src
}

/// A kernel sorting each row's positions with a bitonic network in shared memory (see the module doc):
/// `params` its parameters (`rows`, then `inputs` inputs, then the outputs), rows of `n` elements
/// `inner` apart (row `r` starts at `(r / inner) * n * inner + r % inner`), `order` the statements of
/// `oxs_before` deciding by the elements at indices `ia` and `ib` (returning when they differ; ties go
/// by position), `helpers` code before it, and `copies` the statements storing sorted position `t`'s
/// results (`pos[t]`, `base`), run for `t < keep`.
#[allow(clippy::too_many_arguments)]
fn network(helpers: &str, params: &[String], inputs: usize, n: i64, inner: i64, order: &str, keep: i64, copies: &str) -> String {
    let p = (n as u64).next_power_of_two();
    let ins: Vec<String> = (0..inputs).map(|j| format!("in{j}")).collect();
    let ins = ins.join(", ");
    let mut src = prelude_and_order(helpers, &params[1..=inputs], "int", n, inner, order);
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__(256) {ENTRY}({}) {{", params.join(", "));
    let _ = writeln!(src, "  __shared__ int pos[{p}];");
    let _ = writeln!(src, "  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {{");
    let _ = writeln!(src, "    const long long base = (row / {inner}LL) * {}LL + row % {inner}LL;", n * inner);
    let _ = writeln!(src, "    for (int t = threadIdx.x; t < {p}; t += blockDim.x) pos[t] = t;\n    __syncthreads();");
    let _ = writeln!(src, "    for (int k = 2; k <= {p}; k <<= 1) {{\n      for (int j = k >> 1; j > 0; j >>= 1) {{");
    let _ = writeln!(src, "        for (int t = threadIdx.x; t < {p}; t += blockDim.x) {{\n          const int u = t ^ j;\n          if (u > t) {{");
    let _ = writeln!(src, "            const int a = pos[t], b = pos[u];");
    let _ = writeln!(src, "            if ((t & k) == 0 ? oxs_before({ins}, base, b, a) : oxs_before({ins}, base, a, b)) {{ pos[t] = b; pos[u] = a; }}");
    let _ = writeln!(src, "          }}\n        }}\n        __syncthreads();\n      }}\n    }}");
    let _ = writeln!(src, "    for (int t = threadIdx.x; t < {keep}; t += blockDim.x) {{");
    src.push_str(copies);
    let _ = writeln!(src, "    }}\n    __syncthreads();\n  }}\n}}");
    src
}

/// The prelude, `helpers`, and `oxs_before(inputs..., base, a, b)` (positions of type `pos`): whether
/// position a of the row at `base` (of `n` elements `inner` apart) sorts before position b, by
/// `order` (statements reading the elements at `ia` and `ib`, returning when they differ), then by
/// position; positions past `n` last.
fn prelude_and_order(helpers: &str, in_params: &[String], pos: &str, n: i64, inner: i64, order: &str) -> String {
    let mut src = String::from(PRELUDE);
    src.push_str(helpers);
    let _ = writeln!(src, "// Whether position a of the row at `base` sorts before position b: by the order, then by position.");
    let _ = writeln!(src, "__device__ __forceinline__ bool oxs_before({}, long long base, {pos} a, {pos} b) {{", in_params.join(", "));
    let _ = writeln!(src, "  if (a >= {n} || b >= {n}) return (a >= {n}) == (b >= {n}) ? a < b : a < {n};");
    let _ = writeln!(src, "  const long long ia = base + (long long)a * {inner}LL, ib = base + (long long)b * {inner}LL;");
    let _ = write!(src, "{order}  return a < b;\n}}\n");
    src
}

/// The plan of `chlo.top_k` `op`: the `k` largest of each last-dimension row (longer than [`SORT_MAX`]:
/// in global memory) and their positions, as the interpreter orders them (descending by the element type's
/// total order, -0.0 below +0.0 and NaNs by sign at the ends; ties by ascending position). `rows` and
/// `n` as for a sort; None when it does not run on the device.
pub fn plan_top_k(func: &Func, op: &Op) -> Option<SortPlan> {
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
    let copies = format!("      const long long o = (base / {n}LL) * {k}LL + t;\n      out0[o] = in0[base + pos[t]];\n      out1[o] = ({})pos[t];\n", storage_type(ik)?);
    if n > SORT_MAX {
        let copies = format!("      out0[row * {k}LL + t] = in0[base + at];\n      out1[row * {k}LL + t] = ({})at;\n", storage_type(ik)?);
        let src = large_network("", &params, 1, n, 1, &order, k, &copies);
        return Some(SortPlan { src, rows, n, large: true });
    }
    let src = network("", &params, 1, n, 1, &order, k, &copies);
    Some(SortPlan { src, rows, n, large: false })
}

/// The comparator region of `op` as `__device__ bool oxc(lhs0, rhs0, lhs1, rhs1, ...)` on register
/// values of the operands' kinds (None when an op of it does not render).
fn render_comparator(func: &Func, op: &Op, kinds: &[Kind]) -> Option<String> {
    let block = op.regions.first()?.blocks.first()?;
    let last = block.ops.last()?;
    if last.kind != OpKind::Return || last.operands.len() != 1 {
        return None;
    }
    // Arguments (lhs, rhs) per operand.
    let arg_kinds: Vec<Kind> = kinds.iter().flat_map(|&k| [k, k]).collect();
    let (params, body) = crate::region::region_body(func, block, &arg_kinds)?;
    let (ret, rk) = body.regs.get(&last.operands[0])?;
    if *rk != Kind::Bool {
        return None;
    }
    Some(format!("__device__ __forceinline__ bool oxc({}) {{\n{}    return {ret};\n}}\n", params.join(", "), body.body))
}

/// The plan of a sort or `chlo.top_k` op (None for other ops and for those that stay on the host).
pub fn plan_op(func: &Func, op: &Op) -> Option<SortPlan> {
    match op.kind {
        OpKind::Sort => plan(func, op),
        OpKind::ChloTopK => plan_top_k(func, op),
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

/// Runs sort or top_k `op` on device operands `ins`: its results, or None when it does not run on the
/// device.
pub fn try_sort(gpu: &Gpu, memo: &Memo, func: &Func, op: &Op, ins: &[DTensor]) -> Option<Result<Vec<DTensor>, String>> {
    let src = memo.get(op, MEMO_TAG, || render_sort(func, op))?;
    let (rows, n, _) = rows_of(func, op)?;
    let results = crate::render::result_types(func, op)?;
    Some((|| {
        let mut outs = Vec::with_capacity(results.len());
        let mut lens = Vec::with_capacity(results.len());
        for (t, k) in &results {
            let len = t.num_elements().ok_or("a sort result of dynamic shape")?;
            outs.push(gpu.alloc_raw(*k, len)?);
            lens.push(len);
        }
        let bufs: Vec<_> = ins.iter().map(|d| &**d.buf).collect();
        if n > SORT_MAX {
            let pn = (n as u64).next_power_of_two() as i64;
            let mut with_pos = Vec::with_capacity(outs.len() + 1);
            with_pos.push(gpu.alloc_raw(Kind::I32, (rows * pn) as usize)?);
            with_pos.extend(outs);
            for (k, j) in large_stages(pn) {
                gpu.launch_sort_stage(&src, rows, k, j, if k < 0 { rows * n } else { rows * pn / 2 }, &bufs, &mut with_pos)?;
            }
            outs = with_pos.split_off(1);
        } else {
            gpu.launch_rows(&src, rows, false, &bufs, &mut outs)?;
        }
        Ok(results.iter().zip(lens).zip(outs).map(|(((t, k), len), b)| Gpu::wrap(t.clone(), *k, len, b)).collect())
    })())
}
