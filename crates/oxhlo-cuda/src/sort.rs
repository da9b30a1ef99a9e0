//! `stablehlo.sort` and `chlo.top_k` on the GPU: rows of up to [`SORT_MAX`] elements along the sort
//! dimension (top_k: the last) in shared memory, longer sort rows in global memory (one launch a step
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
use crate::render::{kind_of, load, reg_type, render_body_with, storage_type, ENTRY, PRELUDE};
use oxhlo_cpu::Kind;
use oxhlo_ir::{Attr, Func, Op, OpKind, Value};
use std::collections::HashMap;
use std::fmt::Write;

/// The longest row sorted on the device (its positions fill 32 KiB of shared memory).
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

/// The plan of sort `op` (None when it does not run on the device; see the module doc).
pub fn plan(func: &Func, op: &Op) -> Option<SortPlan> {
    if op.kind != OpKind::Sort || crate::env_off("OXHLO_CUDA_SORT") || op.operands.is_empty() || op.results.len() != op.operands.len() {
        return None;
    }
    let kinds: Vec<(Kind, Vec<i64>)> = op.operands.iter().map(|&v| kind_of(func, v)).collect::<Option<_>>()?;
    let shape = kinds[0].1.clone();
    if kinds.iter().any(|(_, s)| *s != shape) || shape.is_empty() {
        return None;
    }
    let rank = shape.len() as i64;
    let dim = op.attr("dimension").and_then(Attr::as_int)?;
    let dim = usize::try_from(if dim < 0 { dim + rank } else { dim }).ok().filter(|&d| d < shape.len())?;
    let n = shape[dim];
    let numel: i64 = shape.iter().product();
    if !(1..=LARGE_SORT_MAX).contains(&n) || numel < 1 {
        return None;
    }
    let inner: i64 = shape[dim + 1..].iter().product();
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
        return Some(SortPlan { src, rows: numel / n, n, large: true });
    }
    let copies: String = (0..kinds.len()).map(|j| format!("      out{j}[base + (long long)t * {inner}LL] = in{j}[base + (long long)pos[t] * {inner}LL];\n")).collect();
    let src = network(&comparator, &params, kinds.len(), n, inner, &order, n, &copies);
    Some(SortPlan { src, rows: numel / n, n, large: false })
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
    let (kind, shape) = kind_of(func, op.operands[0])?;
    let (ik, ishape) = kind_of(func, op.results[1])?;
    let n = *shape.last()?;
    let k = op.attr("k").and_then(Attr::as_int)?;
    let numel: i64 = shape.iter().product();
    if !(1..=LARGE_SORT_MAX).contains(&n) || !(0..=n).contains(&k) || numel < 1 || *ishape.last()? != k || !crate::render::is_int(ik) {
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
        return Some(SortPlan { src, rows: numel / n, n, large: true });
    }
    let src = network("", &params, 1, n, 1, &order, k, &copies);
    Some(SortPlan { src, rows: numel / n, n, large: false })
}

/// The comparator region of `op` as `__device__ bool oxc(lhs0, rhs0, lhs1, rhs1, ...)` on register
/// values of the operands' kinds (None when an op of it does not render).
fn render_comparator(func: &Func, op: &Op, kinds: &[Kind]) -> Option<String> {
    let block = op.regions.first()?.blocks.first()?;
    if block.args.len() != 2 * kinds.len() {
        return None;
    }
    let mut seeded: HashMap<Value, (String, Kind)> = HashMap::new();
    let mut params = Vec::new();
    for (i, &a) in block.args.iter().enumerate() {
        let k = kinds[i / 2];
        if kind_of(func, a)?.0 != k {
            return None;
        }
        let name = format!("p{i}");
        params.push(format!("{} {name}", reg_type(k)));
        seeded.insert(a, (name, k));
    }
    let last = block.ops.last()?;
    if last.kind != OpKind::Return || last.operands.len() != 1 {
        return None;
    }
    let ops = region_constants(func, block, &mut seeded)?;
    let body = render_body_with(func, block, &ops, &[], &[], &[], &seeded, false)?;
    let (ret, rk) = body.regs.get(&last.operands[0])?;
    if *rk != Kind::Bool {
        return None;
    }
    Some(format!("__device__ __forceinline__ bool oxc({}) {{\n{}    return {ret};\n}}\n", params.join(", "), body.body))
}

/// The ops of region block `block` (its terminator aside) to render, with its constants put in `seeded`
/// as literals: its own, and those it reads from outside the region (MLIR's canonicalizer hoists them
/// there: JAX's exported comparators read 0.0 and NaN so). None when a value from outside is not a
/// splat constant.
pub(crate) fn region_constants(func: &Func, block: &oxhlo_ir::Block, seeded: &mut HashMap<Value, (String, Kind)>) -> Option<Vec<usize>> {
    let (_, body_ops) = block.ops.split_last()?;
    let constant = |o: &Op| -> Option<(String, Kind)> {
        let d = oxhlo_opt::util::const_value(o)?;
        let (k, _) = kind_of(func, o.results[0])?;
        Some((literal(k, oxhlo_opt::util::splat_bits(d)?)?, k))
    };
    let mut ops = Vec::new();
    for (i, o) in body_ops.iter().enumerate() {
        if o.kind == OpKind::Constant {
            seeded.insert(o.results[0], constant(o)?);
        } else {
            ops.push(i);
        }
    }
    let inner: std::collections::HashSet<Value> = block.ops.iter().flat_map(|o| o.results.iter().copied()).chain(block.args.iter().copied()).collect();
    let outer: Vec<Value> = block.ops.iter().flat_map(|o| o.operands.iter().copied()).filter(|v| !inner.contains(v)).collect();
    if !outer.is_empty() {
        let defs = constants_of(func);
        for v in outer {
            seeded.insert(v, constant(defs.get(&v)?)?);
        }
    }
    Some(ops)
}

/// The constant ops of `func` (in any block, nested ones too), by the value they define.
fn constants_of(func: &Func) -> HashMap<Value, &Op> {
    fn walk<'f>(region: &'f oxhlo_ir::Region, out: &mut HashMap<Value, &'f Op>) {
        for b in &region.blocks {
            for o in &b.ops {
                if o.kind == OpKind::Constant {
                    if let Some(&r) = o.results.first() {
                        out.insert(r, o);
                    }
                }
                for r in &o.regions {
                    walk(r, out);
                }
            }
        }
    }
    let mut out = HashMap::new();
    walk(&func.body, &mut out);
    out
}

/// A C expression of register kind `k` for an element whose raw bits are `bits`.
fn literal(k: Kind, bits: u64) -> Option<String> {
    let w = 8 * k.size() as u32;
    let sext = |b: u64| if w >= 64 { b as i64 } else { ((b << (64 - w)) as i64) >> (64 - w) };
    Some(match k {
        Kind::Bool => (if bits & 1 == 1 { "true" } else { "false" }).to_string(),
        Kind::F32 => format!("__int_as_float((int)0x{:08x}U)", bits as u32),
        Kind::F64 => format!("__longlong_as_double((long long)0x{bits:016x}ULL)"),
        Kind::F16 => format!("((double)oxh_f16_to_f((unsigned short)0x{:04x}U))", bits as u16),
        Kind::BF16 => format!("((double)oxh_bf16_to_f((unsigned short)0x{:04x}U))", bits as u16),
        Kind::I8 | Kind::I16 | Kind::I32 | Kind::I64 => format!("((long long)0x{:016x}ULL)", sext(bits) as u64),
        Kind::U8 | Kind::U16 | Kind::U32 | Kind::U64 => format!("0x{bits:x}ULL"),
        _ => return None,
    })
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

/// Runs sort or top_k `op` on device operands `ins`: its results, or None when it does not run on the
/// device.
pub fn try_sort(gpu: &Gpu, memo: &Memo, func: &Func, op: &Op, ins: &[DTensor]) -> Option<Result<Vec<DTensor>, String>> {
    let p = plan_op(func, op)?;
    let src = memo.get(op, 61, || Some(p.src.clone()))?;
    let results = result_types(func, op)?;
    Some((|| {
        let mut outs = Vec::with_capacity(results.len());
        let mut lens = Vec::with_capacity(results.len());
        for (t, k) in &results {
            let len = t.num_elements().ok_or("a sort result of dynamic shape")?;
            outs.push(gpu.alloc_raw(*k, len)?);
            lens.push(len);
        }
        let bufs: Vec<_> = ins.iter().map(|d| &**d.buf).collect();
        if p.large {
            let pn = (p.n as u64).next_power_of_two() as i64;
            let mut with_pos = Vec::with_capacity(outs.len() + 1);
            with_pos.push(gpu.alloc_raw(Kind::I32, (p.rows * pn) as usize)?);
            with_pos.extend(outs);
            for (k, j) in large_stages(pn) {
                gpu.launch_sort_stage(&src, p.rows, k, j, if k < 0 { p.rows * p.n } else { p.rows * pn / 2 }, &bufs, &mut with_pos)?;
            }
            outs = with_pos.split_off(1);
        } else {
            gpu.launch_rows(&src, p.rows, false, &bufs, &mut outs)?;
        }
        Ok(results.iter().zip(lens).zip(outs).map(|(((t, k), len), b)| Gpu::wrap(t.clone(), *k, len, b)).collect())
    })())
}

/// The (static) types and kinds of `op`'s results (None when one has no device form).
pub(crate) fn result_types(func: &Func, op: &Op) -> Option<Vec<(oxhlo_ir::TensorType, Kind)>> {
    op.results
        .iter()
        .map(|&r| match (func.try_ty(r), kind_of(func, r)) {
            (Some(oxhlo_ir::Type::Tensor(t)), Some((k, _))) => Some((t.clone(), k)),
            _ => None,
        })
        .collect()
}
