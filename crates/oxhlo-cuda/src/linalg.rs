//! `stablehlo.cholesky` and `stablehlo.triangular_solve` on the GPU (what `jnp.linalg.cholesky`,
//! `cho_solve`, `solve_triangular` and JAX's LU-based `solve` / `inv` lower to on our platform), for
//! f32 and f64 batches of matrices, with the reference interpreter's arithmetic step for step: every
//! element held as a complex double (the imaginary zeros' signs and a zero pivot's NaNs included),
//! products and sums as the interpreter orders them, `__dmul_rn` / `__dadd_rn` / `__dsub_rn` so that
//! nothing is contracted into a fused multiply-add, one rounding to the result type at the end. So the
//! results are the interpreter's bit for bit (NaN payloads aside).
//!
//! cholesky: a block a matrix, column by column (thread 0 the pivot, the block the rows below it, each
//! a thread folding its row's earlier columns in order); the opposite triangle written as zeros, as the
//! interpreter writes it. triangular_solve: a thread a solved line (a column of `b` for left-side solves,
//! a row for right-side ones), forward or backward substitution over `op(a)` read in place. Both keep
//! their complex-double working values in a scratch buffer of the launch. Other element types and
//! dynamic shapes stay on the host.

use crate::device::{DTensor, Gpu, Memo};
use crate::render::{kind_of, ENTRY, PRELUDE};
use oxhlo_cpu::Kind;
use oxhlo_ir::attr::Transpose;
use oxhlo_ir::{Attr, Func, Op, OpKind};
use std::fmt::Write;

/// The kernels' role in the program's [`Memo`].
const MEMO_TAG: u32 = 65;

/// Complex doubles and the interpreter's complex arithmetic, uncontracted.
const COMPLEX: &str = r#"
struct oxc { double r, i; };
__device__ __forceinline__ oxc oxc_sub(oxc a, oxc b) { oxc z; z.r = __dsub_rn(a.r, b.r); z.i = __dsub_rn(a.i, b.i); return z; }
__device__ __forceinline__ oxc oxc_mul(oxc a, oxc b) {
  oxc z; z.r = __dsub_rn(__dmul_rn(a.r, b.r), __dmul_rn(a.i, b.i)); z.i = __dadd_rn(__dmul_rn(a.r, b.i), __dmul_rn(a.i, b.r)); return z;
}
__device__ __forceinline__ oxc oxc_div(oxc a, oxc b) {
  oxc z;
  if (b.i == 0.0) { z.r = a.r / b.r; z.i = a.i / b.r; return z; }
  double d = __dadd_rn(__dmul_rn(b.r, b.r), __dmul_rn(b.i, b.i));
  z.r = __dadd_rn(__dmul_rn(a.r, b.r), __dmul_rn(a.i, b.i)) / d;
  z.i = __dsub_rn(__dmul_rn(a.i, b.r), __dmul_rn(a.r, b.i)) / d;
  return z;
}
__device__ __forceinline__ oxc oxc_conj(oxc a) { a.i = -a.i; return a; }
__device__ __forceinline__ oxc oxc_make(double r, double i) { oxc z; z.r = r; z.i = i; return z; }
__device__ __forceinline__ oxc oxc_at(const double* w, long long e) { return oxc_make(w[2 * e], w[2 * e + 1]); }
__device__ __forceinline__ void oxc_put(double* w, long long e, oxc z) { w[2 * e] = z.r; w[2 * e + 1] = z.i; }
"#;

/// A boolean attribute (unit, bool or integer), false when absent.
fn flag(op: &Op, name: &str) -> bool {
    match op.attr(name) {
        None => false,
        Some(Attr::Unit) => true,
        Some(a) => a.as_int().is_some_and(|v| v != 0),
    }
}

/// The C type of a float kind the kernels take (f32, f64).
fn c_type(k: Kind) -> Option<&'static str> {
    match k {
        Kind::F32 => Some("float"),
        Kind::F64 => Some("double"),
        _ => None,
    }
}

/// (batch, n) of a static batch of n x n matrices of shape `s` (n > 0).
fn square(s: &[i64]) -> Option<(i64, i64)> {
    let r = s.len();
    if r < 2 || s[r - 1] != s[r - 2] || s[r - 1] <= 0 {
        return None;
    }
    let n = s[r - 1];
    Some((crate::render::checked_numel(&s[..r - 2])?, n))
}

/// How a kernel of `op` runs: its source and its work items (matrices for cholesky, solved lines for
/// triangular_solve); every launch also takes a scratch of one complex double a result element
/// (`work`, between the inputs and the result).
pub struct Plan {
    pub src: String,
    pub items: usize,
    /// Threads a block (cholesky takes a block a matrix; triangular_solve a thread a line).
    pub threads: u32,
}

/// The plan of cholesky or triangular_solve `op`, None when it stays on the host.
pub fn plan(func: &Func, op: &Op) -> Option<Plan> {
    if crate::env_off("OXHLO_CUDA_LINALG") || op.results.len() != 1 {
        return None;
    }
    match op.kind {
        OpKind::Cholesky => cholesky(func, op),
        OpKind::TriangularSolve => triangular_solve(func, op),
        _ => None,
    }
}

fn cholesky(func: &Func, op: &Op) -> Option<Plan> {
    let (k, shape) = kind_of(func, *op.operands.first()?)?;
    let (rk, rshape) = kind_of(func, op.results[0])?;
    let ty = c_type(k)?;
    let (batch, n) = square(&shape)?;
    if rk != k || rshape != shape || batch == 0 {
        return None;
    }
    let lower = flag(op, "lower");
    let nn = n.checked_mul(n)?;
    // The Hermitian input as a lower-triangle element (i >= j), read from the triangle asked for.
    let get = |i: &str, j: &str| if lower { format!("oxc_make((double)m[{i} * {n}LL + {j}], 0.0)") } else { format!("oxc_conj(oxc_make((double)m[{j} * {n}LL + {i}], 0.0))") };
    let threads = cholesky_threads(func, op);
    let mut src = String::from(PRELUDE);
    src.push_str(COMPLEX);
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__({threads}) {ENTRY}(long long n, const {ty}* __restrict__ in0, double* __restrict__ work, {ty}* __restrict__ out0) {{");
    let _ = writeln!(src, "  __shared__ double pivot;");
    let _ = writeln!(src, "  for (long long b = blockIdx.x; b < n; b += gridDim.x) {{");
    let _ = writeln!(src, "    const {ty}* m = in0 + b * {nn}LL; double* w = work + b * {}LL; {ty}* o = out0 + b * {nn}LL;", 2 * nn);
    let _ = writeln!(src, "    for (long long j = 0; j < {n}LL; j++) {{");
    let _ = writeln!(src, "      if (threadIdx.x == 0) {{");
    let _ = writeln!(src, "        double d = {}.r;", get("j", "j"));
    let _ = writeln!(src, "        for (long long k = 0; k < j; k++) {{ oxc x = oxc_at(w, j * {n}LL + k); d = __dsub_rn(d, __dadd_rn(__dmul_rn(x.r, x.r), __dmul_rn(x.i, x.i))); }}");
    let _ = writeln!(src, "        double p = d > 0.0 ? sqrt(d) : d == 0.0 ? 0.0 : __longlong_as_double(0x7ff8000000000000LL);");
    let _ = writeln!(src, "        oxc_put(w, j * {n}LL + j, oxc_make(p, 0.0));");
    let _ = writeln!(src, "        pivot = p;");
    let _ = writeln!(src, "      }}");
    let _ = writeln!(src, "      __syncthreads();");
    let _ = writeln!(src, "      const double p = pivot;");
    let _ = writeln!(src, "      for (long long i = j + 1 + threadIdx.x; i < {n}LL; i += blockDim.x) {{");
    let _ = writeln!(src, "        oxc s = {};", get("i", "j"));
    let _ = writeln!(src, "        for (long long k = 0; k < j; k++) s = oxc_sub(s, oxc_mul(oxc_at(w, i * {n}LL + k), oxc_conj(oxc_at(w, j * {n}LL + k))));");
    let _ = writeln!(src, "        oxc_put(w, i * {n}LL + j, oxc_div(s, oxc_make(p, 0.0)));");
    let _ = writeln!(src, "      }}");
    let _ = writeln!(src, "      __syncthreads();");
    let _ = writeln!(src, "    }}");
    // Lower: L's triangle; upper: L's conjugate transpose (the real part: L's element mirrored).
    let (keep, at) = if lower { ("c <= r", "e") } else { ("c >= r", "c * {n}LL + r") };
    let at = at.replace("{n}", &n.to_string());
    let _ = writeln!(src, "    for (long long e = threadIdx.x; e < {nn}LL; e += blockDim.x) {{");
    let _ = writeln!(src, "      const long long r = e / {n}LL, c = e % {n}LL;");
    let _ = writeln!(src, "      o[e] = {keep} ? ({ty})w[2 * ({at})] : ({ty})0.0;");
    let _ = writeln!(src, "    }}");
    let _ = writeln!(src, "    __syncthreads();");
    let _ = writeln!(src, "  }}\n}}");
    Some(Plan { src, items: batch as usize, threads })
}

fn triangular_solve(func: &Func, op: &Op) -> Option<Plan> {
    let [a, b] = op.operands.as_slice() else { return None };
    let (ak, ashape) = kind_of(func, *a)?;
    let (bk, bshape) = kind_of(func, *b)?;
    let (rk, rshape) = kind_of(func, op.results[0])?;
    let ty = c_type(ak)?;
    let (batch, m) = square(&ashape)?;
    let r = bshape.len();
    if bk != ak || rk != ak || rshape != bshape || r != ashape.len() || bshape[..r - 2] != ashape[..r - 2] {
        return None;
    }
    let (rows, cols) = (bshape[r - 2], bshape[r - 1]);
    let left = flag(op, "left_side");
    if (left && rows != m) || (!left && cols != m) || rows <= 0 || cols <= 0 {
        return None;
    }
    let (lower, unit) = (flag(op, "lower"), flag(op, "unit_diagonal"));
    let trans = match op.attr("transpose_a") {
        None => Transpose::NoTranspose,
        Some(Attr::Transpose(t)) if *t != Transpose::TransposeInvalid => *t,
        _ => return None,
    };
    let transposed = trans != Transpose::NoTranspose;
    let flip = transposed == left;
    let eff_lower = lower != flip;
    // The solved lines: columns of b (left side) or rows (right side); element v of line c.
    let lines = if left { cols } else { rows };
    let line_at = |v: &str| if left { format!("{v} * {cols}LL + c") } else { format!("c * {cols}LL + {v}") };
    let at = line_at("p");
    let items = batch.checked_mul(lines)?;
    // op(a)'s element (i, j), as the interpreter builds it: the unit diagonal, the triangle, zeros,
    // conjugated for ADJOINT, transposed when `flip`.
    let (vi, vj) = if flip { ("j", "i") } else { ("i", "j") };
    let in_tri = if lower { format!("{vj} <= {vi}") } else { format!("{vj} >= {vi}") };
    let unit_test = if unit { format!("{vi} == {vj} ? oxc_make(1.0, 0.0) : ") } else { String::new() };
    let conj = |e: String| if trans == Transpose::Adjoint { format!("oxc_conj({e})") } else { e };
    let t_elem = conj(format!("({unit_test}{in_tri} ? oxc_make((double)A[{vi} * {m}LL + {vj}], 0.0) : oxc_make(0.0, 0.0))"));
    let mut src = String::from(PRELUDE);
    src.push_str(COMPLEX);
    let _ = writeln!(src, "__device__ __forceinline__ oxc oxh_t(const {ty}* A, long long i, long long j) {{ return {t_elem}; }}");
    let _ = writeln!(src, "extern \"C\" __global__ void {ENTRY}(long long n, const {ty}* __restrict__ in0, const {ty}* __restrict__ in1, double* __restrict__ work, {ty}* __restrict__ out0) {{");
    let _ = writeln!(src, "  for (long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += (long long)gridDim.x * blockDim.x) {{");
    let _ = writeln!(src, "    const long long bi = g / {lines}LL, c = g % {lines}LL;");
    let _ = writeln!(src, "    const {ty}* A = in0 + bi * {}LL; const {ty}* B = in1 + bi * {}LL;", m * m, rows * cols);
    let _ = writeln!(src, "    double* x = work + 2 * bi * {}LL; {ty}* o = out0 + bi * {}LL;", rows * cols, rows * cols);
    let _ = writeln!(src, "    for (long long p = 0; p < {m}LL; p++) oxc_put(x, {at}, oxc_make((double)B[{at}], 0.0));");
    let (order, inner) = if eff_lower { (format!("for (long long i = 0; i < {m}LL; i++)"), "for (long long k = 0; k < i; k++)".to_string()) } else { (format!("for (long long i = {m}LL - 1; i >= 0; i--)"), format!("for (long long k = i + 1; k < {m}LL; k++)")) };
    let _ = writeln!(src, "    {order} {{");
    let _ = writeln!(src, "      oxc s = oxc_at(x, {});", line_at("i"));
    let _ = writeln!(src, "      {inner} s = oxc_sub(s, oxc_mul(oxh_t(A, i, k), oxc_at(x, {})));", line_at("k"));
    let _ = writeln!(src, "      oxc_put(x, {}, oxc_div(s, oxh_t(A, i, i)));", line_at("i"));
    let _ = writeln!(src, "    }}");
    let _ = writeln!(src, "    for (long long p = 0; p < {m}LL; p++) o[{at}] = ({ty})x[2 * ({at})];");
    let _ = writeln!(src, "  }}\n}}");
    Some(Plan { src, items: items as usize, threads: 256 })
}

/// The complex doubles of scratch a launch of `op` needs: one a result element.
fn scratch_of(func: &Func, op: &Op) -> Option<usize> {
    let (_, shape) = kind_of(func, *op.results.first()?)?;
    Some(crate::render::checked_numel(&shape)? as usize)
}

/// The threads of a cholesky block: the matrix's rows to the next power of two, 32 to 256.
fn cholesky_threads(func: &Func, op: &Op) -> u32 {
    let n = kind_of(func, op.operands[0]).and_then(|(_, s)| s.last().copied()).unwrap_or(1).max(1);
    (n as u64).next_power_of_two().clamp(32, 256) as u32
}

/// Whether `op` runs on the device this way (its kernel rendered once and kept in `memo`).
pub fn runs_on_device(memo: &Memo, func: &Func, op: &Op) -> bool {
    memo.get_with_items(op, MEMO_TAG, || plan(func, op).map(|p| (p.src, p.items))).is_some()
}

/// Runs cholesky or triangular_solve `op` on device operands `ins`: its result, or None when it stays
/// on the host.
pub fn try_run(gpu: &Gpu, memo: &Memo, func: &Func, op: &Op, ins: &[DTensor]) -> Option<Result<Vec<DTensor>, String>> {
    let src = memo.get_with_items(op, MEMO_TAG, || plan(func, op).map(|p| (p.src, p.items)))?;
    let (items, scratch, threads) = (src.items?, scratch_of(func, op)?, cholesky_threads(func, op));
    let results = crate::render::result_types(func, op)?;
    Some((|| {
        let mut outs = vec![gpu.alloc_raw(Kind::F64, 2 * scratch)?];
        outs.extend(gpu.alloc_results(&results)?);
        let bufs: Vec<_> = ins.iter().map(|d| &**d.buf).collect();
        if op.kind == OpKind::Cholesky {
            gpu.launch_blocks(&src, items, threads, &bufs, &mut outs)?;
        } else {
            gpu.launch_scalar(&src, items, &bufs, &mut outs)?;
        }
        // The scratch goes back to the pool after the launch, in stream order.
        let outs = outs.split_off(1);
        Ok(Gpu::wrap_results(&results, outs))
    })())
}
