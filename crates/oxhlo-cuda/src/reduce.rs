//! Single-operand `reduce` with a recognized reducer (add, multiply, maximum, minimum, and, or: see
//! `oxhlo_plan::reducer`) on the GPU: the operand is permuted (only when needed) so the reduced dims come
//! last, giving `[rows, cols]`; one block per row accumulates in a wide register type (double for
//! floats, 64-bit integers), reduces with warp shuffles and shared memory, combines with the init value
//! and rounds once to the element type. Other reductions run on the host.

use crate::device::{DTensor, Gpu};
use crate::dot::permute;
use oxhlo_cpu::Kind;
use oxhlo_ir::{Func, Op, TensorType};
use oxhlo_plan::reducer::{reducer_kind, ReduceKind};

fn is_float(k: Kind) -> bool {
    matches!(k, Kind::F16 | Kind::BF16 | Kind::F32 | Kind::F64)
}

/// The CUDA C of a row reduction `(long long rows, long long cols, const T* in0, const T* init,
/// T* out0)`, launched with one block (a multiple of 32 threads) per row. None for unsupported kinds.
pub fn render_reduce(kind: Kind, rk: ReduceKind) -> Option<String> {
    let st = crate::render::storage_type(kind)?;
    let unsigned = matches!(kind, Kind::U8 | Kind::U16 | Kind::U32 | Kind::U64);
    let acc = if is_float(kind) { "double" } else if unsigned { "unsigned long long" } else { "long long" };
    let load = |p: &str, i: &str| match kind {
        Kind::F16 => format!("(double)oxh_f16_to_f({p}[{i}])"),
        Kind::BF16 => format!("(double)oxh_bf16_to_f({p}[{i}])"),
        Kind::Bool => format!("({acc})({p}[{i}] != 0)"),
        _ => format!("({acc})({p}[{i}])"),
    };
    let store = |x: &str| match kind {
        Kind::F16 => format!("oxh_f_to_f16((float)({x}))"),
        Kind::BF16 => format!("oxh_f_to_bf16((float)({x}))"),
        Kind::Bool => format!("(unsigned char)(({x}) != 0)"),
        _ => format!("({st})({x})"),
    };
    let float = is_float(kind);
    let (ident, combine) = match (rk, float) {
        (ReduceKind::Add, _) => ("0", "(a + b)"),
        (ReduceKind::Mul, _) if kind == Kind::Bool => return None,
        (ReduceKind::Mul, _) => ("1", "(a * b)"),
        (ReduceKind::Max, true) => ("-OXH_INF", "oxh_max(a, b)"),
        (ReduceKind::Min, true) => ("OXH_INF", "oxh_min(a, b)"),
        (ReduceKind::Max, false) => (if unsigned { "0ULL" } else { "(-9223372036854775807LL - 1)" }, "(a > b ? a : b)"),
        (ReduceKind::Min, false) => (if unsigned { "0xffffffffffffffffULL" } else { "9223372036854775807LL" }, "(a < b ? a : b)"),
        (ReduceKind::And, false) => ("~0ULL", "(a & b)"),
        (ReduceKind::Or, false) => ("0", "(a | b)"),
        _ => return None,
    };
    // Integer add/mul wrap (through unsigned); bool add is or, as the interpreter's i1 arithmetic.
    let combine = match (rk, kind) {
        (ReduceKind::Add, Kind::Bool) => "(a | b)".to_string(),
        (ReduceKind::Add, _) if !float => format!("({acc})((unsigned long long)a + (unsigned long long)b)"),
        (ReduceKind::Mul, _) if !float => format!("({acc})((unsigned long long)a * (unsigned long long)b)"),
        _ => combine.to_string(),
    };
    let comb_fn = format!("__device__ __forceinline__ {acc} oxr({acc} a, {acc} b) {{ return {combine}; }}");
    let ld_in = load("in0", "r * cols + c");
    let ld_init = load("init", "0");
    let out = store("oxr(init_v, acc)");
    Some(format!(
        "{prelude}
{comb_fn}
extern \"C\" __global__ void {entry}(long long rows, long long cols, const {st}* __restrict__ in0, const {st}* __restrict__ init, {st}* __restrict__ out0) {{
  __shared__ {acc} sh[32];
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {{
    {acc} acc = ({acc})({ident});
    for (long long c = threadIdx.x; c < cols; c += blockDim.x) acc = oxr(acc, {ld_in});
    for (int o = 16; o > 0; o >>= 1) acc = oxr(acc, __shfl_down_sync(0xffffffffu, acc, o));
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = acc;
    __syncthreads();
    if (threadIdx.x < 32) {{
      acc = (threadIdx.x < (blockDim.x >> 5)) ? sh[threadIdx.x] : ({acc})({ident});
      for (int o = 16; o > 0; o >>= 1) acc = oxr(acc, __shfl_down_sync(0xffffffffu, acc, o));
      if (threadIdx.x == 0) {{ {acc} init_v = {ld_init}; out0[r] = {out}; }}
    }}
    __syncthreads();
  }}
}}
",
        prelude = crate::render::PRELUDE,
        entry = crate::render::ENTRY,
    ))
}

/// Runs a single-operand reduce on the GPU when its reducer and type are supported.
pub fn try_reduce(gpu: &Gpu, func: &Func, op: &Op, x: &DTensor, init: &DTensor, rty: &TensorType) -> Option<Result<DTensor, String>> {
    if op.operands.len() != 2 || op.results.len() != 1 || init.kind != x.kind || init.len != 1 {
        return None;
    }
    let rk = reducer_kind(func, op.regions.first()?)?;
    let dims: Vec<usize> = op.attr("dimensions")?.as_i64_list()?.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<_>>()?;
    let rank = x.ty.shape.len();
    if dims.iter().any(|&d| d >= rank) {
        return None;
    }
    let src = render_reduce(x.kind, rk)?;
    let kept: Vec<usize> = (0..rank).filter(|d| !dims.contains(d)).collect();
    let mut red: Vec<usize> = dims.clone();
    red.sort_unstable();
    let perm: Vec<usize> = kept.iter().chain(&red).copied().collect();
    let rows: i64 = kept.iter().map(|&d| x.ty.shape[d]).product();
    let cols: i64 = red.iter().map(|&d| x.ty.shape[d]).product();
    if rty.num_elements() != Some(rows as usize) || Kind::of(&rty.elem) != Some(x.kind) {
        return None;
    }
    Some((|| {
        let xp = permute(gpu, x, &perm)?;
        let mut out = [gpu.alloc_raw(x.kind, rows as usize)?];
        gpu.launch_rows(&src, rows, cols, &[&*xp.buf, &*init.buf], &mut out)?;
        let [buf] = out;
        Ok(Gpu::wrap(rty.clone(), x.kind, rows as usize, buf))
    })())
}
