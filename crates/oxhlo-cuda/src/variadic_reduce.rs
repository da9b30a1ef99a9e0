//! `stablehlo.reduce` of several inputs at once (JAX's argmax and argmin: values and positions) on the
//! GPU, the reducer rendered as a device function (`region.rs`; `body(accumulators..., elements...)`).
//! Long groups (contiguous, or long and few) take a block a result ([`tree_kernel`]): each thread
//! folds a contiguous chunk from the init values and the chunks combine in index order, a schedule the
//! spec allows; for an associative reducer (JAX's) that is the interpreter's result bit for bit. Other
//! groups take a thread a result folding in the interpreter's order (the reduced dimensions in the
//! order `dimensions` lists them, the last fastest): any reducer that renders gives its bits.
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
    if let Some(threads) = tree_threads(&dims, rank, red, n_out).filter(|_| !complex) {
        // A trailing group is contiguous: its elements at o * red + r.
        let (base, at) = if trailing(&dims, rank) { (format!("o * {red}LL"), "r".to_string()) } else { (offset("o", &kept), offset("r", &dims)) };
        tree_kernel(&mut src, &params, &kinds, red, threads, &base, &at);
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
    let elems: Vec<String> = kinds.iter().enumerate().map(|(j, k)| load(*k, &format!("in{j}"), "at")).collect();
    let _ = writeln!(src, "      oxv({}, {}, {});", accs.join(", "), elems.join(", "), outs.join(", "));
    let _ = writeln!(src, "    }}");
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "    out{j}[o] = {};", crate::render::store(*k, &format!("acc{j}")));
    }
    let _ = writeln!(src, "  }}\n}}");
    Some((src, n_out.max(0) as usize))
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
    tree.then(|| ((red as u64 / 8).next_power_of_two()).clamp(32, 1024) as u32)
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
fn tree_kernel(src: &mut String, params: &[String], kinds: &[Kind], red: i64, threads: u32, base: &str, at: &str) {
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
    let _ = writeln!(src, "  const long long chunk = ({red}LL + blockDim.x - 1) / blockDim.x;");
    let _ = writeln!(src, "  const int active = (int)(({red}LL + chunk - 1) / chunk), warps = (active + 31) / 32;");
    let _ = writeln!(src, "  for (long long o = blockIdx.x; o < n; o += gridDim.x) {{");
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "    {} acc{j} = {}, oth{j};", reg_type(*k), load(*k, &format!("in{}", m + j), "0"));
    }
    let _ = writeln!(src, "    const long long base = {base}, hi = min((tid + 1) * chunk, {red}LL);");
    let elems: Vec<String> = kinds.iter().enumerate().map(|(j, k)| load(*k, &format!("in{j}"), "at")).collect();
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
    let shape = kind_of(func, *op.operands.first()?)?.1;
    let dims: Vec<usize> = op.attr("dimensions").and_then(Attr::as_i64_list)?.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<_>>()?;
    let red: i64 = dims.iter().map(|&d| shape.get(d).copied()).product::<Option<i64>>()?;
    let n_out: i64 = (0..shape.len()).filter(|d| !dims.contains(d)).map(|d| shape[d]).product();
    tree_threads(&dims, shape.len(), red, n_out)
}

/// Whether reduce `op` of several inputs runs on the device (its kernel rendered once and kept in
/// `memo`).
pub fn runs_on_device(memo: &Memo, func: &Func, op: &Op) -> bool {
    memo.get_with_items(op, MEMO_TAG, || render(func, op)).is_some()
}

/// The kernel's role in the program's [`Memo`].
const MEMO_TAG: u32 = 62;

/// Runs reduce `op` (two or more inputs) on device operands `ins` (inputs, then inits): its results,
/// or None when it does not run on the device.
pub fn try_reduce(gpu: &Gpu, memo: &Memo, func: &Func, op: &Op, ins: &[DTensor]) -> Option<Result<Vec<DTensor>, String>> {
    let src = memo.get_with_items(op, MEMO_TAG, || render(func, op))?;
    let n = src.items?;
    let results = crate::render::result_types(func, op)?;
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
