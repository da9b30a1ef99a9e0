//! `stablehlo.reduce` of several inputs at once (JAX's argmax and argmin: values and positions) on the
//! GPU, the reducer rendered as a device function (`region.rs`; `body(accumulators..., elements...)`).
//! Long groups (contiguous, or long and few) take a block a result ([`tree_kernel`]): each thread
//! folds a contiguous chunk from the init values and the chunks combine in index order, a schedule the
//! spec allows; for an associative reducer (JAX's) that is the interpreter's result bit for bit. Other
//! groups take a thread a result folding in the interpreter's order (the reduced dimensions in the
//! order `dimensions` lists them, the last fastest): any reducer that renders gives its bits.
//!
//! An input that is an `iota` of the reduce's shape (JAX's argmax and argmin reduce the values beside an
//! iota of their positions) is not read: the kernel computes each element's coordinate instead
//! ([`coordinate_inputs`]), and the iota's own step is dropped from the plan when nothing else uses it
//! ([`absorb_iotas`]): a [4096, 1024] argmax read, wrote and read 16 MB more before.
//!
//! Reductions of one input take the parallel passes of `reduce.rs`, but for complex numbers (`jnp.sum`
//! of complex64 / complex128, which those passes do not take): these take this kernel's thread a
//! result, in the interpreter's order (complex values do not travel by warp shuffles). A reducer that
//! does not render, or dynamic shapes, stay on the host. `OXHLO_CUDA_VARIADIC_REDUCE=0` keeps these on
//! the host too.

use crate::device::{DTensor, Gpu, Memo};
use crate::render::{is_complex, kind_of, load, reg_type, row_major_strides, value_type, COMPLEX_PRELUDE, ENTRY, PRELUDE};
use oxhlo_cpu::Kind;
use oxhlo_ir::{Attr, Func, Op, OpKind};
use std::fmt::Write;

/// Whether reduce `op` takes this module's kernels: two or more inputs, or complex numbers.
pub fn takes(func: &Func, op: &Op) -> bool {
    op.kind == OpKind::Reduce && (op.operands.len() > 2 || complex_operands(func, op))
}

fn complex_operands(func: &Func, op: &Op) -> bool {
    op.operands.iter().any(|&v| kind_of(func, v).is_some_and(|(k, _)| is_complex(k)))
}

/// The kernel of reduce `op` of two or more inputs (or of complex numbers) and its result count (None
/// when it stays on the host). Signature `(long long n, inputs..., inits..., outputs...)`, `n` the
/// result elements.
pub fn render(func: &Func, op: &Op) -> Option<(String, usize)> {
    if !takes(func, op) || crate::env_off("OXHLO_CUDA_VARIADIC_REDUCE") || op.operands.len() < 2 || !op.operands.len().is_multiple_of(2) {
        return None;
    }
    let complex = complex_operands(func, op);
    let m = op.operands.len() / 2;
    if op.results.len() != m {
        return None;
    }
    let ins: Vec<(Kind, Vec<i64>)> = op.operands.iter().map(|&v| kind_of(func, v)).collect::<Option<_>>()?;
    let shape = ins[0].1.clone();
    if ins[..m].iter().any(|(_, s)| *s != shape) || ins[m..].iter().any(|(_, s)| !s.is_empty()) || (0..m).any(|j| ins[j].0 != ins[m + j].0) {
        return None;
    }
    let rank = shape.len();
    let dims: Vec<usize> = op.attr("dimensions").and_then(Attr::as_i64_list)?.iter().map(|&d| usize::try_from(d).ok().filter(|&d| d < rank)).collect::<Option<_>>()?;
    let kept: Vec<usize> = (0..rank).filter(|d| !dims.contains(d)).collect();
    let strides = row_major_strides(&shape);
    let n_out: i64 = kept.iter().map(|&d| shape[d]).product();
    let red: i64 = dims.iter().map(|&d| shape[d]).product();
    let kinds: Vec<Kind> = ins[..m].iter().map(|(k, _)| *k).collect();
    for (j, &r) in op.results.iter().enumerate() {
        if kind_of(func, r)?.0 != kinds[j] {
            return None;
        }
    }
    let reducer = crate::region::reducer(func, op.regions.first()?.blocks.first()?, &kinds, "oxv")?;
    // Input j's element at offset `at`: loaded, or its coordinate along the iota's dimension.
    let coords = coordinate_inputs(func, op);
    let elem = |j: usize, at: &str| match coords.get(j).copied().flatten() {
        Some(d) => format!("(({})(({at} / {}LL) % {}LL))", reg_type(kinds[j]), strides[d], shape[d]),
        None => load(kinds[j], &format!("in{j}"), at),
    };
    let params = params_of(&kinds)?;
    // The offset of a coordinate list `idx` decomposed over `ds` (the last fastest).
    let offset = |var: &str, ds: &[usize]| -> String {
        let mut terms = vec!["0LL".to_string()];
        let mut div = 1i64;
        for &d in ds.iter().rev() {
            terms.push(format!("(({var} / {div}LL) % {}LL) * {}LL", shape[d], strides[d]));
            div *= shape[d];
        }
        terms.join(" + ")
    };
    let mut src = String::from(PRELUDE);
    if complex {
        src.push_str(COMPLEX_PRELUDE);
    }
    src.push_str(&reducer);
    let accs: Vec<String> = (0..m).map(|j| format!("acc{j}")).collect();
    let outs: Vec<String> = (0..m).map(|j| format!("&acc{j}")).collect();
    if let Some(parts) = split_parts(&dims, rank, red, n_out).filter(|_| !complex) {
        // Result q of the first pass: part q % parts of group q / parts, its elements contiguous.
        let seg = (red + parts - 1) / parts;
        let base = format!("(o / {parts}LL) * {red}LL + (o % {parts}LL) * {seg}LL");
        let len = format!("min({seg}LL, {red}LL - (o % {parts}LL) * {seg}LL)");
        let elems: Vec<String> = (0..m).map(|j| elem(j, "at")).collect();
        tree_kernel(&mut src, &params, &kinds, &elems, &len, tree_threads_for(seg), &base, "r");
        return Some((src, (n_out * parts) as usize));
    }
    if let Some(threads) = tree_threads(&dims, rank, red, n_out).filter(|_| !complex) {
        // A trailing group is contiguous: its elements at o * red + r.
        let (base, at) = if trailing(&dims, rank) { (format!("o * {red}LL"), "r".to_string()) } else { (offset("o", &kept), offset("r", &dims)) };
        let elems: Vec<String> = (0..m).map(|j| elem(j, "at")).collect();
        tree_kernel(&mut src, &params, &kinds, &elems, &format!("{red}LL"), threads, &base, &at);
        return Some((src, n_out.max(0) as usize));
    }
    let _ = writeln!(src, "extern \"C\" __global__ void {ENTRY}({}) {{", params.join(", "));
    let _ = writeln!(src, "  for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < n; o += (long long)gridDim.x * blockDim.x) {{");
    let _ = writeln!(src, "    const long long base = {};", offset("o", &kept));
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "    {} acc{j} = {};", reg_type(*k), load(*k, &format!("in{}", m + j), "0"));
    }
    let _ = writeln!(src, "    for (long long r = 0; r < {red}LL; ++r) {{");
    let _ = writeln!(src, "      const long long at = base + {};", offset("r", &dims));
    let elems: Vec<String> = (0..m).map(|j| elem(j, "at")).collect();
    let _ = writeln!(src, "      oxv({}, {}, {});", accs.join(", "), elems.join(", "), outs.join(", "));
    let _ = writeln!(src, "    }}");
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "    out{j}[o] = {};", crate::render::store(*k, &format!("acc{j}")));
    }
    let _ = writeln!(src, "  }}\n}}");
    Some((src, n_out.max(0) as usize))
}

/// For each operand of reduce `op` (inputs, then inits): the dimension along which it is an `iota` of
/// the reduce's input shape, for inputs the kernel computes as coordinates rather than reads; None for
/// the others (every one when all inputs are iotas: then one of them is read, so that the kernel has
/// a buffer to pass for the rest). Iotas of 32- and 64-bit integers and of f64, and of f32 up to 2^24
/// positions.
pub fn coordinate_inputs(func: &Func, op: &Op) -> Vec<Option<usize>> {
    let mut coords = vec![None; op.operands.len()];
    if !takes(func, op) || complex_operands(func, op) {
        return coords;
    }
    let m = op.operands.len() / 2;
    for (j, c) in coords.iter_mut().enumerate().take(m) {
        let Some((kind, shape)) = kind_of(func, op.operands[j]) else { continue };
        // Kinds whose registers hold every coordinate exactly, as the iota's elements do (a narrow
        // integer or half-precision iota wraps or rounds its larger positions).
        let exact = |d: usize| match kind {
            Kind::I32 | Kind::I64 | Kind::U32 | Kind::U64 | Kind::F64 => true,
            Kind::F32 => shape.get(d).is_some_and(|&n| n <= 1 << 24),
            _ => false,
        };
        *c = iota_dimension(func, op.operands[j]).filter(|&d| exact(d));
    }
    if coords[..m].iter().all(Option::is_some) {
        return vec![None; op.operands.len()];
    }
    coords
}

/// The dimension along which `v` counts 0, 1, 2 ...: an `iota`'s `iota_dimension`, or the dimension
/// a `broadcast_in_dim` of an iota maps it to (the optimizer's canonical form of a higher-rank iota),
/// the counted dimension kept at its length.
fn iota_dimension(func: &Func, v: oxhlo_ir::Value) -> Option<usize> {
    let def = defining(func, v)?;
    let rank = kind_of(func, v)?.1.len();
    let dim = match def.kind {
        OpKind::Iota => usize::try_from(def.attr("iota_dimension").and_then(Attr::as_int)?).ok()?,
        OpKind::BroadcastInDim => {
            let x = *def.operands.first()?;
            let inner = defining(func, x).filter(|o| o.kind == OpKind::Iota)?;
            let d = usize::try_from(inner.attr("iota_dimension").and_then(Attr::as_int)?).ok()?;
            let b = usize::try_from(*def.attr("broadcast_dimensions").and_then(Attr::as_i64_list)?.get(d)?).ok()?;
            (kind_of(func, x)?.1.get(d) == kind_of(func, v)?.1.get(b)).then_some(b)?
        }
        _ => return None,
    };
    (dim < rank).then_some(dim)
}

/// The op of `func` whose result `v` is.
fn defining(func: &Func, v: oxhlo_ir::Value) -> Option<&Op> {
    let mut def = None;
    oxhlo_ir::body::walk_ops(&func.body, &mut |o| {
        if def.is_none() && o.results.contains(&v) {
            def = Some(o);
        }
    });
    def
}

/// The operands reduce `op`'s kernel is passed: each input it computes as coordinates
/// ([`coordinate_inputs`]) replaced by an input it reads (the kernel never touches that parameter), so
/// that the iota itself need not exist.
pub fn passed_operands(func: &Func, op: &Op) -> Vec<oxhlo_ir::Value> {
    let coords = coordinate_inputs(func, op);
    let Some(read) = coords.iter().position(Option::is_none).map(|j| op.operands[j]) else { return op.operands.clone() };
    op.operands.iter().zip(&coords).map(|(&v, c)| if c.is_some() { read } else { v }).collect()
}

/// `steps` of `block` without those that only compute iotas (and broadcasts of them) every use of
/// which is a reduce here that runs on the device and computes them as coordinates
/// ([`coordinate_inputs`]): the iota is never materialized. `OXHLO_CUDA_ABSORB_IOTA=0` keeps them.
pub fn absorb_iotas(func: &Func, block: &oxhlo_ir::Block, steps: Vec<oxhlo_plan::fusion::Step>) -> Vec<oxhlo_plan::fusion::Step> {
    use oxhlo_plan::fusion::Step;
    if crate::env_off("OXHLO_CUDA_ABSORB_IOTA") || !block.ops.iter().any(|o| o.kind == OpKind::Iota) {
        return steps;
    }
    // Users come after their operands' definitions: decided from the last op back.
    let mut removable = vec![false; block.ops.len()];
    for i in (0..block.ops.len()).rev() {
        let op = &block.ops[i];
        let [v] = op.results.as_slice() else { continue };
        if !matches!(op.kind, OpKind::Iota | OpKind::BroadcastInDim) || uses_in_regions(block, *v) {
            continue;
        }
        let mut users = 0;
        let mut all = true;
        for (u, o) in block.ops.iter().enumerate() {
            for (j, w) in o.operands.iter().enumerate() {
                if w != v {
                    continue;
                }
                users += 1;
                let computed = o.kind == OpKind::Reduce && coordinate_inputs(func, o).get(j).copied().flatten().is_some() && render(func, o).is_some();
                all &= computed || (u > i && removable[u]);
            }
        }
        removable[i] = users > 0 && all;
    }
    steps
        .into_iter()
        .filter(|s| match s {
            Step::Op(i) => !removable[*i],
            Step::Kernel(k) => !(k.reduce.is_empty() && k.rows.is_none() && k.ops.iter().all(|&i| removable[i])),
        })
        .collect()
}

/// Whether `v` is used inside a region of one of `block`'s ops.
fn uses_in_regions(block: &oxhlo_ir::Block, v: oxhlo_ir::Value) -> bool {
    block.ops.iter().any(|o| {
        o.regions.iter().any(|r| {
            let mut used = false;
            oxhlo_ir::body::walk_ops(r, &mut |n| used |= n.operands.contains(&v));
            used
        })
    })
}

/// The kernels' parameters for inputs of `kinds`: `(long long n, inputs..., inits..., outputs...)`.
fn params_of(kinds: &[Kind]) -> Option<Vec<String>> {
    let m = kinds.len();
    let mut params = vec!["long long n".to_string()];
    for (j, k) in kinds.iter().enumerate() {
        params.push(format!("const {}* __restrict__ in{j}", value_type(*k)?));
    }
    for (j, k) in kinds.iter().enumerate() {
        params.push(format!("const {}* __restrict__ in{}", value_type(*k)?, m + j));
    }
    for (j, k) in kinds.iter().enumerate() {
        params.push(format!("{}* __restrict__ out{j}", value_type(*k)?));
    }
    Some(params)
}

/// Whether reduced dimensions `dims` (of `rank`) are the trailing ones in order: each result's group is
/// contiguous and its elements in memory order.
fn trailing(dims: &[usize], rank: usize) -> bool {
    dims.iter().enumerate().all(|(i, &d)| d + dims.len() == rank + i)
}

/// The threads a block of the tree kernel ([`tree_kernel`]) takes, or None for a thread a result: a
/// tree for groups of at least [`TREE_MIN`] that are contiguous ([`trailing`]), and for other groups of
/// at least [`TREE_MIN_STRIDED`] when there are too few results to fill the device a thread each
/// (fewer than [`TREE_MAX_RESULTS_STRIDED`]; with more, a thread a result reads its neighbours'
/// elements side by side).
fn tree_threads(dims: &[usize], rank: usize, red: i64, n_out: i64) -> Option<u32> {
    let tree = if trailing(dims, rank) { red >= TREE_MIN } else { red >= TREE_MIN_STRIDED && n_out < TREE_MAX_RESULTS_STRIDED };
    tree.then(|| tree_threads_for(red))
}

/// A tree block's threads for groups of `len`: about 8 elements a thread, 32 to 1024.
fn tree_threads_for(len: i64) -> u32 {
    ((len.max(1) as u64 / 8).next_power_of_two()).clamp(32, 1024) as u32
}

/// Into how many parts a first pass splits each group, when the groups are contiguous, long
/// ([`SPLIT_MIN`]) and too few to give the device `reduce::SPLIT_BLOCKS` blocks: a block a part, then a
/// finishing pass ([`render_finish`]) folds each group's parts in order from the init values. None:
/// a block a group. (A [16, 65536] argmax took 16 blocks of 1024 threads, each thread folding 64
/// elements one after another.)
pub fn split_parts(dims: &[usize], rank: usize, red: i64, n_out: i64) -> Option<i64> {
    if !trailing(dims, rank) || red < SPLIT_MIN || n_out < 1 || n_out * 2 > crate::reduce::SPLIT_BLOCKS || crate::env_off("OXHLO_CUDA_REDUCE_SPLIT") {
        return None;
    }
    Some(crate::reduce::split_count(n_out, red, SPLIT_PART_MIN).max(2))
}

/// The shortest contiguous group split into parts ([`split_parts`]).
pub const SPLIT_MIN: i64 = 8192;
/// The shortest part of a split group.
pub const SPLIT_PART_MIN: i64 = 2048;

/// The parts of reduce `op`'s groups ([`split_parts`]), or None when a block (or thread) takes a group.
pub fn parts(func: &Func, op: &Op) -> Option<i64> {
    if !takes(func, op) || complex_operands(func, op) {
        return None;
    }
    let g = groups(func, op)?;
    split_parts(&g.dims, g.rank, g.red, g.n_out)
}

/// How reduce `op` groups its input: the reduced dimensions, the input's rank, each group's length
/// and the number of groups (results).
struct Groups {
    dims: Vec<usize>,
    rank: usize,
    red: i64,
    n_out: i64,
}

fn groups(func: &Func, op: &Op) -> Option<Groups> {
    let shape = kind_of(func, *op.operands.first()?)?.1;
    let dims: Vec<usize> = op.attr("dimensions").and_then(Attr::as_i64_list)?.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<_>>()?;
    let red: i64 = dims.iter().map(|&d| shape.get(d).copied()).product::<Option<i64>>()?;
    let n_out: i64 = (0..shape.len()).filter(|d| !dims.contains(d)).map(|d| shape[d]).product();
    Some(Groups { dims, rank: shape.len(), red, n_out })
}

/// The finishing pass of a split reduce `op` ([`split_parts`]): a thread a result folds its group's
/// parts in order from the init values. Signature `(long long n, parts..., inits..., outputs...)`, the
/// parts `n * parts` values of each input kind (the first pass's outputs).
pub fn render_finish(func: &Func, op: &Op) -> Option<String> {
    let parts = parts(func, op)?;
    let m = op.operands.len() / 2;
    let kinds: Vec<Kind> = op.operands[..m].iter().map(|&v| kind_of(func, v).map(|(k, _)| k)).collect::<Option<_>>()?;
    let reducer = crate::region::reducer(func, op.regions.first()?.blocks.first()?, &kinds, "oxv")?;
    let params = params_of(&kinds)?;
    let mut src = String::from(PRELUDE);
    src.push_str(&reducer);
    let accs: Vec<String> = (0..m).map(|j| format!("acc{j}")).collect();
    let outs: Vec<String> = (0..m).map(|j| format!("&acc{j}")).collect();
    let _ = writeln!(src, "extern \"C\" __global__ void {ENTRY}({}) {{", params.join(", "));
    let _ = writeln!(src, "  for (long long o = (long long)blockIdx.x * blockDim.x + threadIdx.x; o < n; o += (long long)gridDim.x * blockDim.x) {{");
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "    {} acc{j} = {};", reg_type(*k), load(*k, &format!("in{}", m + j), "0"));
    }
    let _ = writeln!(src, "    for (long long p = 0; p < {parts}LL; ++p) {{");
    let elems: Vec<String> = kinds.iter().enumerate().map(|(j, k)| load(*k, &format!("in{j}"), &format!("o * {parts}LL + p"))).collect();
    let _ = writeln!(src, "      oxv({}, {}, {});", accs.join(", "), elems.join(", "), outs.join(", "));
    let _ = writeln!(src, "    }}");
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "    out{j}[o] = {};", crate::render::store(*k, &format!("acc{j}")));
    }
    let _ = writeln!(src, "  }}\n}}");
    Some(src)
}

/// The shortest contiguous group reduced by a block of threads rather than a thread.
pub const TREE_MIN: i64 = 32;
/// The shortest strided group (reduced dimensions not trailing) reduced by a block of threads.
pub const TREE_MIN_STRIDED: i64 = 256;
/// The most results of strided groups that still take a block each.
pub const TREE_MAX_RESULTS_STRIDED: i64 = 8192;

/// Appends the tree kernel: a block per result (grid-stride), thread `t` folding the `t`-th contiguous
/// chunk of the group from the init values, then the chunks' values combined pairwise by the reducer
/// in index order (neighbouring lanes by warp shuffles with growing offsets, then the warps' values by
/// warp 0 the same way), so that the fold's in-order leaves are the group's elements in index order
/// with an init value before each chunk: the schedule the spec allows (`reduce`: an
/// implementation-defined tree whose in-order traversal is the inputs in index order, init values
/// interspersed). Empty chunks (past the group's end) are never combined, so a reducer that keeps its
/// right operand ("the last") gives the interpreter's result too. `base` is the index of result `o`'s
/// first element, `at` the offset of its group's `r`-th element (in the interpreter's order) from it.
#[allow(clippy::too_many_arguments)]
fn tree_kernel(src: &mut String, params: &[String], kinds: &[Kind], elems: &[String], len: &str, threads: u32, base: &str, at: &str) {
    let m = kinds.len();
    let accs: Vec<String> = (0..m).map(|j| format!("acc{j}")).collect();
    let others: Vec<String> = (0..m).map(|j| format!("oth{j}")).collect();
    let outs: Vec<String> = (0..m).map(|j| format!("&acc{j}")).collect();
    let combine = format!("oxv({}, {}, {})", accs.join(", "), others.join(", "), outs.join(", "));
    // A shuffle of a register value (bools travel as ints).
    let shfl = |k: Kind, x: &str| match k {
        Kind::Bool => format!("(__shfl_down_sync(0xffffffffu, (int){x}, off) != 0)"),
        _ => format!("__shfl_down_sync(0xffffffffu, {x}, off)"),
    };
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__({threads}) {ENTRY}({}) {{", params.join(", "));
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "  __shared__ {} part{j}[32];", reg_type(*k));
    }
    let _ = writeln!(src, "  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;");
    let _ = writeln!(src, "  // Thread t folds elements [t * chunk, (t + 1) * chunk); those from `active` on have none.");
    let _ = writeln!(src, "  for (long long o = blockIdx.x; o < n; o += gridDim.x) {{");
    let _ = writeln!(src, "    const long long len = max({len}, 0LL), chunk = max((len + blockDim.x - 1) / blockDim.x, 1LL);");
    let _ = writeln!(src, "    const int active = (int)((len + chunk - 1) / chunk), warps = (active + 31) / 32;");
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "    {} acc{j} = {}, oth{j};", reg_type(*k), load(*k, &format!("in{}", m + j), "0"));
    }
    let _ = writeln!(src, "    const long long base = {base}, hi = min((tid + 1) * chunk, len);");
    let _ = writeln!(src, "    for (long long r = tid * chunk; r < hi; ++r) {{\n      const long long at = base + {at};");
    let _ = writeln!(src, "      oxv({}, {}, {});\n    }}", accs.join(", "), elems.join(", "), outs.join(", "));
    let tree = |src: &mut String, who: &str, count: &str| {
        let _ = writeln!(src, "    for (int off = 1; off < 32; off <<= 1) {{");
        for (j, k) in kinds.iter().enumerate() {
            let _ = writeln!(src, "      oth{j} = {};", shfl(*k, &format!("acc{j}")));
        }
        let _ = writeln!(src, "      if ((lane & (2 * off - 1)) == 0 && {who} + off < {count}) {combine};");
        let _ = writeln!(src, "    }}");
    };
    tree(src, "tid", "active");
    let _ = writeln!(src, "    if (lane == 0) {{ {} }}", (0..m).map(|j| format!("part{j}[warp] = acc{j};")).collect::<Vec<_>>().join(" "));
    let _ = writeln!(src, "    __syncthreads();");
    let _ = writeln!(src, "    if (warp == 0) {{");
    let _ = writeln!(src, "    if (lane < warps) {{ {} }}", (0..m).map(|j| format!("acc{j} = part{j}[lane];")).collect::<Vec<_>>().join(" "));
    tree(src, "lane", "warps");
    let stores: Vec<String> = kinds.iter().enumerate().map(|(j, k)| format!("out{j}[o] = {};", crate::render::store(*k, &format!("acc{j}")))).collect();
    let _ = writeln!(src, "    if (lane == 0) {{ {} }}", stores.join(" "));
    let _ = writeln!(src, "    }}\n    __syncthreads();\n  }}\n}}");
}

/// The threads a block of reduce `op`'s kernel takes: Some for the tree kernel (a block a result),
/// None for a thread a result.
pub fn block_threads(func: &Func, op: &Op) -> Option<u32> {
    if complex_operands(func, op) {
        return None;
    }
    let g = groups(func, op)?;
    if let Some(parts) = split_parts(&g.dims, g.rank, g.red, g.n_out) {
        return Some(tree_threads_for((g.red + parts - 1) / parts));
    }
    tree_threads(&g.dims, g.rank, g.red, g.n_out)
}

/// Whether reduce `op` of several inputs runs on the device (its kernel rendered once and kept in
/// `memo`).
pub fn runs_on_device(memo: &Memo, func: &Func, op: &Op) -> bool {
    memo.get_with_items(op, MEMO_TAG, || render(func, op)).is_some()
}

/// The kernel's role in the program's [`Memo`].
const MEMO_TAG: u32 = 62;
/// The finishing pass's role ([`render_finish`]).
const FINISH_TAG: u32 = 64;

/// Runs reduce `op` (two or more inputs) on device operands `ins` (inputs, then inits): its results,
/// or None when it does not run on the device.
pub fn try_reduce(gpu: &Gpu, memo: &Memo, func: &Func, op: &Op, ins: &[DTensor]) -> Option<Result<Vec<DTensor>, String>> {
    let src = memo.get_with_items(op, MEMO_TAG, || render(func, op))?;
    let n = src.items?;
    let results = crate::render::result_types(func, op)?;
    if let Some(parts) = parts(func, op) {
        let finish = memo.get(op, FINISH_TAG, || render_finish(func, op))?;
        return Some((|| {
            let m = ins.len() / 2;
            let mut partial = results.iter().map(|(_, k)| gpu.alloc_raw(*k, n)).collect::<Result<Vec<_>, _>>()?;
            let bufs: Vec<_> = ins.iter().map(|d| &**d.buf).collect();
            let threads = block_threads(func, op).ok_or("a split reduce of no block")?;
            gpu.launch_blocks(&src, n, threads, &bufs, &mut partial)?;
            let mut outs = gpu.alloc_results(&results)?;
            let finish_ins: Vec<_> = partial.iter().map(|p| &**p).chain(ins[m..].iter().map(|d| &**d.buf)).collect();
            gpu.launch_scalar(&finish, n / parts as usize, &finish_ins, &mut outs)?;
            Ok(Gpu::wrap_results(&results, outs))
        })());
    }
    Some((|| {
        let mut outs = gpu.alloc_results(&results)?;
        let bufs: Vec<_> = ins.iter().map(|d| &**d.buf).collect();
        match block_threads(func, op) {
            Some(threads) => gpu.launch_blocks(&src, n, threads, &bufs, &mut outs)?,
            None => gpu.launch_scalar(&src, n, &bufs, &mut outs)?,
        }
        Ok(Gpu::wrap_results(&results, outs))
    })())
}
