//! `stablehlo.cholesky` and `stablehlo.triangular_solve` on the GPU (what `jnp.linalg.cholesky`,
//! `cho_solve`, `solve_triangular` and JAX's LU-based `solve` / `inv` lower to on our platform), for
//! f32 and f64 batches of matrices, with the reference interpreter's arithmetic step for step: every
//! element held as a double (the interpreter computes real operands in real f64), products and
//! differences as the interpreter orders them, `__dmul_rn` / `__dsub_rn` so that nothing is contracted
//! into a fused multiply-add, one rounding to the result type at the end. So the results are the
//! interpreter's bit for bit (NaN payloads aside).
//!
//! Both are blocked, right-looking, over panels of [`PANEL`] columns (rows of the solve), which keeps
//! the interpreter's order: every element subtracts its products in the order their factors were
//! solved, and each solved panel is applied to everything after it as soon as it is known. cholesky, a
//! panel at a time: one launch factors the panel (every block factors the panel's diagonal tile in
//! shared memory and solves its own tile of 32 rows below it in the same steps, a column a step: the
//! pivot, the column scaled, each row's rest updated, four threads a row, two barriers a step), a
//! second subtracts the panel's products from the trailing lower triangle (a block a 32 x 32 tile, a
//! thread folding the panel's columns in order). triangular_solve, a block of rows at a time: one
//! launch solves them for every line (a block 32 rows x 8 lines, a warp a line and a lane a row, each
//! solved value handed on by a warp shuffle), a second subtracts them from the rows after (tiles of
//! 32 rows x 8 lines). Backward solves run the same kernels on the mirrored indices. The working
//! values are doubles in a scratch buffer (one a result element); a first launch fills it from the
//! operands, a last one rounds the result. Complex element types and dynamic shapes stay on the host.

use crate::device::{DTensor, Gpu, Memo};
use crate::render::{kind_of, ENTRY, PRELUDE};
use oxhlo_cpu::Kind;
use oxhlo_ir::attr::Transpose;
use oxhlo_ir::{Attr, Func, Op, OpKind};
use std::fmt::Write;

/// The kernels' roles in the program's [`Memo`]: fill, panel / solve, trailing / update, store.
const MEMO_TAG: u32 = 65;

/// A cholesky pivot from the diagonal element `d`, as the interpreter takes it: its square root,
/// zero for zero, NaN below.
const PIVOT: &str = "__device__ __forceinline__ double oxh_pivot(double d) { return d > 0.0 ? sqrt(d) : d == 0.0 ? 0.0 : __longlong_as_double(0x7ff8000000000000LL); }\n";

/// A panel's steps, two block barriers each: every live row divides its column-j element by the
/// pivot (the diagonal tile's rows publish theirs in `X[0]`), a barrier, each row's later elements
/// less its products with the column, the pivot stored, a barrier. Four threads a row (`q`).
const PANEL_STEPS_TWO_BARRIERS: &str = r#"    const int row = tid >> 2, q = tid & 3;
    const bool diag = row < 32;
    for (int j = 0; j < bw; j++) {
      const double p = oxh_pivot(D[j][j]);
      const bool live = diag ? (row > j && row < bw) : row - 32 < rows;
      double x = 0.0;
      if (live) {
        x = D[row][j] / p;
        if (diag && q == 0) X[0][row] = x;
      }
      __syncthreads();
      if (live) {
        if (q == 0) D[row][j] = x;
        const int last = diag ? row : bw - 1;
        for (int c = j + 1 + q; c <= last; c += 4) {
          D[row][c] = __dsub_rn(D[row][c], __dmul_rn(x, c == row ? x : X[0][c]));
        }
      }
      if (row == j && q == 0) D[j][j] = p;
      __syncthreads();
    }
"#;

/// The same steps with one block barrier each: a row's column-(j+1) element is divided in step j, by
/// the thread that subtracted its last product (`q == 0`), as soon as that product is off, and handed
/// to the row's other three threads by a shuffle at the next step; every thread computes the next
/// pivot itself from the diagonal element and the pivot row's column-j value (the same operations the
/// pivot row's thread would store), so nothing waits for a second barrier. Column values alternate
/// between `X[0]` and `X[1]` (read one, write the other in a step). Same operations on the same
/// values in the same order: the same bits.
const PANEL_STEPS_ONE_BARRIER: &str = r#"    const int row = tid >> 2, q = tid & 3, lead = (tid & 31) & ~3;
    const bool diag = row < 32;
    const bool mine = diag ? row < bw : row - 32 < rows;
    double p = oxh_pivot(D[0][0]);
    double x = 0.0;
    if (mine && q == 0 && (!diag || row > 0)) {
      x = D[row][0] / p;
      D[row][0] = x;
      if (diag) X[0][row] = x;
    }
    __syncthreads();
    for (int j = 0; j < bw; j++) {
      const double* Xc = X[j & 1];
      double* Xn = X[(j + 1) & 1];
      x = __shfl_sync(0xffffffffu, x, lead);
      double pn = 0.0;
      if (j + 1 < bw) {
        const double y = Xc[j + 1];
        pn = oxh_pivot(__dsub_rn(D[j + 1][j + 1], __dmul_rn(y, y)));
      }
      if (row == j && q == 0) D[j][j] = p;
      const bool live = diag ? (row > j && row < bw) : row - 32 < rows;
      if (live) {
        const int last = diag ? row : bw - 1;
        for (int c = j + 1 + q; c <= last; c += 4) {
          if (c != row) D[row][c] = __dsub_rn(D[row][c], __dmul_rn(x, Xc[c]));
          else if (c != j + 1) D[row][row] = __dsub_rn(D[row][row], __dmul_rn(x, x));
        }
        if (q == 0 && j + 1 < bw && (!diag || row > j + 1)) {
          x = D[row][j + 1] / pn;
          D[row][j + 1] = x;
          if (diag) Xn[row] = x;
        }
      }
      p = pn;
      __syncthreads();
    }
"#;

/// The steps a cholesky panel takes (`OXHLO_CUDA_PANEL_STEPS`, read at every plan, so that a bench can
/// compare them in one process: `examples/linalg_lab.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
///
/// Session 30 also tried the diagonal tile factored by one warp without block barriers (the rows
/// below solved after it, or alongside it): 1.6-1.8x slower at [1024, 1024] on an H100 (NOTES.md v29),
/// removed in session 31.
pub enum PanelSteps {
    /// [`PANEL_STEPS_ONE_BARRIER`] (`one`; on the H200 slower than two: 25.3 us a panel against 23.8
    /// at [1024, 1024], crates/oxhlo-cuda/NOTES.md v28).
    OneBarrier,
    /// [`PANEL_STEPS_TWO_BARRIERS`] (`two`, the default).
    TwoBarriers,
}

impl PanelSteps {
    /// Every form (for the tests and `examples/linalg_lab.rs`).
    pub const ALL: [PanelSteps; 2] = [PanelSteps::OneBarrier, PanelSteps::TwoBarriers];

    /// The form `OXHLO_CUDA_PANEL_STEPS` names (`one`, `two`), else the default.
    pub fn from_env() -> PanelSteps {
        match std::env::var("OXHLO_CUDA_PANEL_STEPS").as_deref().map(str::trim) {
            Ok("one") => PanelSteps::OneBarrier,
            _ => PanelSteps::TwoBarriers,
        }
    }

    fn source(self) -> String {
        match self {
            PanelSteps::OneBarrier => PANEL_STEPS_ONE_BARRIER.to_string(),
            PanelSteps::TwoBarriers => PANEL_STEPS_TWO_BARRIERS.to_string(),
        }
    }
}

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

/// Columns of a cholesky panel / rows of a triangular_solve block, and the tile edge of every launch.
pub const PANEL: i64 = 32;

/// Threads of every launch's block.
pub const THREADS: u32 = 256;

/// One launch: kernel `kernel` of the plan over `blocks` blocks of [`THREADS`] (grid-stride beyond the
/// grid), with scalars `(blocks, k0)` (k0: the panel's first column or the block's first row).
pub struct Launch {
    pub kernel: usize,
    pub blocks: usize,
    pub k0: i64,
}

/// How `op` runs: its kernels (signature `(long long blocks, long long k0, operands..., double* work,
/// result)`), the launches in order, and the doubles of the work buffer.
pub struct Plan {
    pub kernels: Vec<String>,
    pub launches: Vec<Launch>,
    pub work: usize,
}

/// The plan of cholesky or triangular_solve `op`, None when it stays on the host.
pub fn plan(func: &Func, op: &Op) -> Option<Plan> {
    if crate::env_off("OXHLO_CUDA_LINALG") || op.results.len() != 1 {
        return None;
    }
    match op.kind {
        OpKind::Cholesky => cholesky(func, op, PanelSteps::from_env()),
        OpKind::TriangularSolve => triangular_solve(func, op),
        _ => None,
    }
}

/// A kernel's source: the prelude, `defs`, then the entry with `params` (after
/// `blocks, k0`) whose body runs once per block index `blk` (grid-stride).
fn kernel(defs: &str, params: &str, body: &str) -> String {
    let mut src = String::from(PRELUDE);
    src.push_str(defs);
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__({THREADS}) {ENTRY}(long long blocks, long long k0, {params}) {{");
    let _ = writeln!(src, "  const int tid = threadIdx.x;");
    let _ = writeln!(src, "  for (long long blk = blockIdx.x; blk < blocks; blk += gridDim.x) {{");
    src.push_str(body);
    let _ = writeln!(src, "    __syncthreads();\n  }}\n}}");
    src
}

/// A kernel of a thread an element `e < total` (`params` as for [`kernel`]) running `body`.
fn per_element(params: &str, total: i64, body: &str) -> String {
    kernel("", params, &format!("    const long long e = blk * {THREADS}LL + tid;\n    if (e < {total}LL) {{\n{body}    }}\n"))
}

/// Blocks of [`THREADS`] threads, a thread an item, for `items` items.
fn per_thread(items: i64) -> usize {
    (items as u64).div_ceil(THREADS as u64) as usize
}

/// [`plan`] of cholesky `op` with its panels' steps `steps` (None for other ops).
pub fn plan_cholesky(func: &Func, op: &Op, steps: PanelSteps) -> Option<Plan> {
    (op.kind == OpKind::Cholesky && op.results.len() == 1).then(|| cholesky(func, op, steps)).flatten()
}

fn cholesky(func: &Func, op: &Op, steps: PanelSteps) -> Option<Plan> {
    let (k, shape) = kind_of(func, *op.operands.first()?)?;
    let (rk, rshape) = kind_of(func, op.results[0])?;
    let ty = c_type(k)?;
    let (batch, n) = square(&shape)?;
    if rk != k || rshape != shape || batch == 0 {
        return None;
    }
    let lower = flag(op, "lower");
    let nn = n.checked_mul(n)?;
    let total = batch.checked_mul(nn)?;
    let params = format!("const {ty}* __restrict__ in0, double* __restrict__ work, {ty}* __restrict__ out0");
    // Fill: the Hermitian input as lower-triangle elements (i >= j), read from the triangle asked for.
    let get = if lower { format!("(double)m[r * {n}LL + c]") } else { format!("(double)m[c * {n}LL + r]") };
    let fill = per_element(
        &params,
        total,
        &format!(
            "      const long long b = e / {nn}LL, r = (e % {nn}LL) / {n}LL, c = e % {n}LL;
      const {ty}* m = in0 + b * {nn}LL;
      if (c <= r) work[e] = {get};
"
        ),
    );
    // Panel at k0: block (matrix, tile) factors the diagonal tile and, tile t > 0, solves rows k0 + 32 t
    // .. + 32 of the panel's columns against it in the same steps (a column a step: the pivot from the
    // diagonal's real part, every live row's element of the column divided by it, then the row's later
    // elements less its products with the tile's column, the diagonal by |l|^2: the interpreter's
    // formulas, each element subtracting in column order); tile 0 stores the factored tile.
    let tiles = format!("(({n}LL - k0 + 31) / 32)");
    let steps = steps.source();
    let panel = kernel(
        PIVOT,
        &params,
        &format!(
            "    __shared__ double D[64][33];
    __shared__ double X[2][32];
    const long long b = blk / {tiles}, t = blk % {tiles}, r0 = k0 + 32 * t;
    const int bw = (int)min(32LL, {n}LL - k0), rows = t == 0 ? 0 : (int)min(32LL, {n}LL - r0);
    double* w = work + b * {nn}LL;
    for (int e = tid; e < 2048; e += blockDim.x) {{
      const int r = e >> 5, c = e & 31;
      if (r < 32 && r < bw && c <= r) D[r][c] = w[(k0 + r) * {n}LL + k0 + c];
      if (r >= 32 && r - 32 < rows && c < bw) D[r][c] = w[(r0 + r - 32) * {n}LL + k0 + c];
    }}
    __syncthreads();
{steps}    if (t == 0) {{
      // Not over the tile the other blocks read: below the diagonal mirrored into the unused upper
      // triangle, the pivots into the diagonal array after the matrices.
      for (int e = tid; e < 1024; e += blockDim.x) {{
        const int r = e >> 5, c = e & 31;
        if (r < bw && c < r) w[(k0 + c) * {n}LL + k0 + r] = D[r][c];
        if (r < bw && c == r) work[{total}LL + b * {n}LL + k0 + r] = D[r][r];
      }}
    }} else {{
      for (int e = tid; e < 1024; e += blockDim.x) {{ const int r = e >> 5, c = e & 31; if (r < rows && c < bw) w[(r0 + r) * {n}LL + k0 + c] = D[32 + r][c]; }}
    }}
",
        ),
    );
    // Trailing update after the panel at k0: block (matrix, lower tile pair (ti >= tj)) of the matrix
    // from s0 = k0 + 32 subtracts the panel's products, a thread an element folding them in order.
    let pairs = "(tt * (tt + 1) / 2)";
    let per = 1024 / THREADS;
    let trailing = kernel(
        "",
        &params,
        &format!(
            "    __shared__ double P[32][33];
    __shared__ double Q[32][33];
    const long long s0 = k0 + 32, tt = ({n}LL - s0 + 31) / 32;
    const long long b = blk / {pairs}, q = blk % {pairs};
    long long ti = (long long)((sqrt(8.0 * (double)q + 1.0) - 1.0) / 2.0);
    while ((ti + 1) * (ti + 2) / 2 <= q) ti++;
    while (ti * (ti + 1) / 2 > q) ti--;
    const long long tj = q - ti * (ti + 1) / 2, r0 = s0 + 32 * ti, c0 = s0 + 32 * tj;
    double* w = work + b * {nn}LL;
    for (int e = tid; e < 1024; e += blockDim.x) {{
      const int r = e >> 5, c = e & 31;
      if (r0 + r < {n}LL) P[r][c] = w[(r0 + r) * {n}LL + k0 + c];
      if (c0 + r < {n}LL) Q[r][c] = w[(c0 + r) * {n}LL + k0 + c];
    }}
    __syncthreads();
    // A thread's elements side by side (independent chains), each folding the products in order.
    double a[{per}];
    #pragma unroll
    for (int u = 0; u < {per}; u++) {{
      const int e = tid + u * {THREADS}, r = e >> 5, c = e & 31;
      const long long i = r0 + r, j = c0 + c;
      a[u] = i < {n}LL && j <= i ? w[i * {n}LL + j] : 0.0;
    }}
    for (int k = 0; k < 32; k++) {{
      #pragma unroll
      for (int u = 0; u < {per}; u++) {{
        const int e = tid + u * {THREADS};
        a[u] = __dsub_rn(a[u], __dmul_rn(P[e >> 5][k], Q[e & 31][k]));
      }}
    }}
    #pragma unroll
    for (int u = 0; u < {per}; u++) {{
      const int e = tid + u * {THREADS}, r = e >> 5, c = e & 31;
      const long long i = r0 + r, j = c0 + c;
      if (i < {n}LL && j <= i) w[i * {n}LL + j] = a[u];
    }}
",
        ),
    );
    // Lower: L's triangle; upper: its transpose (L's element mirrored); the
    // other triangle zeros. L(i, j) is where the panels left it: a pivot in the diagonal array, an
    // element of a diagonal tile mirrored, the rest in place.
    let (keep, ij) = if lower { ("c <= r", "r, j = c") } else { ("c >= r", "c, j = r") };
    let store = per_element(
        &params,
        total,
        &format!(
            "      const long long b = e / {nn}LL, r = (e % {nn}LL) / {n}LL, c = e % {n}LL, i = {ij};
      const long long at = i == j ? {total}LL + b * {n}LL + i : b * {nn}LL + (i / 32 == j / 32 ? j * {n}LL + i : i * {n}LL + j);
      out0[e] = {keep} ? ({ty})work[at] : ({ty})0.0;
"
        ),
    );
    let mut launches = vec![Launch { kernel: 0, blocks: per_thread(total), k0: 0 }];
    for k0 in (0..n).step_by(PANEL as usize) {
        let tiles = (n - k0 + 31) / 32;
        launches.push(Launch { kernel: 1, blocks: (batch * tiles) as usize, k0 });
        let tt = (n - k0 - PANEL + 31) / 32;
        if tt > 0 {
            launches.push(Launch { kernel: 2, blocks: (batch * (tt * (tt + 1) / 2)) as usize, k0 });
        }
    }
    launches.push(Launch { kernel: 3, blocks: per_thread(total), k0: 0 });
    // The matrices, then each matrix's diagonal.
    let work = total.checked_add(batch * n)? as usize;
    Some(Plan { kernels: vec![fill, panel, trailing, store], launches, work })
}

fn triangular_solve(func: &Func, op: &Op) -> Option<Plan> {
    let [a, b] = op.operands.as_slice() else { return None };
    let (ak, ashape) = kind_of(func, *a)?;
    let (bk, bshape) = kind_of(func, *b)?;
    let (rk, rshape) = kind_of(func, op.results[0])?;
    let ty = c_type(ak)?;
    let (batch, m) = square(&ashape)?;
    let r = bshape.len();
    if bk != ak || rk != ak || rshape != bshape || r != ashape.len() || bshape[..r - 2] != ashape[..r - 2] || batch == 0 {
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
    let per_matrix = rows.checked_mul(cols)?;
    let total = batch.checked_mul(per_matrix)?;
    let line_at = if left { format!("v * {cols}LL + c") } else { format!("c * {cols}LL + v") };
    // op(a)'s element (i, j), as the interpreter builds it: the unit diagonal, the triangle, zeros,
    // transposed when `flip` (ADJOINT is TRANSPOSE for real elements).
    let (vi, vj) = if flip { ("j", "i") } else { ("i", "j") };
    let in_tri = if lower { format!("{vj} <= {vi}") } else { format!("{vj} >= {vi}") };
    let unit_test = if unit { format!("{vi} == {vj} ? 1.0 : ") } else { String::new() };
    let t_elem = format!("({unit_test}{in_tri} ? (double)A[{vi} * {m}LL + {vj}] : 0.0)");
    // Solved in mirrored order when the effective triangle is upper: position p of the order is row
    // `oxh_v(p)`.
    let mirror = if eff_lower { "p".to_string() } else { format!("{m}LL - 1 - p") };
    let defs = format!(
        "__device__ __forceinline__ double oxh_t(const {ty}* A, long long i, long long j) {{ return {t_elem}; }}
__device__ __forceinline__ long long oxh_v(long long p) {{ return {mirror}; }}
__device__ __forceinline__ long long oxh_x(long long v, long long c) {{ return {line_at}; }}
"
    );
    let params = format!("const {ty}* __restrict__ in0, const {ty}* __restrict__ in1, double* __restrict__ work, {ty}* __restrict__ out0");
    let fill = per_element(&params, total, "      work[e] = (double)in1[e];\n");
    // A tile: 32 positions of the order (rows) x 8 lines; thread tid holds row tid / 8, line tid % 8.
    let groups = (lines + 7) / 8;
    let tile_of = format!(
        "    const long long b = blk / ({groups}LL * tiles), g = blk % {groups}LL, c0 = g * 8;
    const {ty}* A = in0 + b * {mm}LL; double* x = work + b * {per_matrix}LL;
    const int tr = tid >> 3, tl = tid & 7;
    const long long c = c0 + tl;
    const int bw = (int)min(32LL, {m}LL - k0);
",
        mm = m * m
    );
    // The block's rows solved for 8 lines: a warp a line, a lane a row holding its value; a step divides
    // row j's and hands it to the later rows by a shuffle (no block-wide barrier a step).
    let solve = kernel(
        &defs,
        &params,
        &format!(
            "    __shared__ double T[32][33];
    const long long b = blk / {groups}LL, c0 = (blk % {groups}LL) * 8;
    const {ty}* A = in0 + b * {mm}LL; double* x = work + b * {per_matrix}LL;
    const int tr = tid & 31, tl = tid >> 5;
    const long long c = c0 + tl;
    const int bw = (int)min(32LL, {m}LL - k0);
    for (int e = tid; e < 1024; e += blockDim.x) {{ const int r = e >> 5, k = e & 31; if (r < bw && k <= r) T[r][k] = oxh_t(A, oxh_v(k0 + r), oxh_v(k0 + k)); }}
    double v = 0.0;
    if (tr < bw && c < {lines}LL) v = x[oxh_x(oxh_v(k0 + tr), c)];
    __syncthreads();
    for (int j = 0; j < bw; j++) {{
      if (tr == j) v = v / T[j][j];
      const double vj = __shfl_sync(0xffffffffu, v, j);
      if (tr > j && tr < bw) v = __dsub_rn(v, __dmul_rn(T[tr][j], vj));
    }}
    if (tr < bw && c < {lines}LL) x[oxh_x(oxh_v(k0 + tr), c)] = v;
",
            mm = m * m
        ),
    );
    // The rows after the block at k0: block (matrix, row tile, line group) subtracts the block's
    // solved values, a thread an element folding them in order.
    let update = kernel(
        &defs,
        &params,
        &format!(
            "    __shared__ double T[32][33];
    __shared__ double X[32][9];
    const long long s0 = k0 + 32, tiles = ({m}LL - s0 + 31) / 32;
{tile_of}    const long long r0 = s0 + 32 * ((blk / {groups}LL) % tiles);
    for (int e = tid; e < 1024; e += blockDim.x) {{ const int r = e >> 5, k = e & 31; if (r0 + r < {m}LL) T[r][k] = oxh_t(A, oxh_v(r0 + r), oxh_v(k0 + k)); }}
    if (c < {lines}LL) X[tr][tl] = x[oxh_x(oxh_v(k0 + tr), c)];
    __syncthreads();
    if (r0 + tr < {m}LL && c < {lines}LL) {{
      const long long at = oxh_x(oxh_v(r0 + tr), c);
      double s = x[at];
      for (int k = 0; k < 32; k++) s = __dsub_rn(s, __dmul_rn(T[tr][k], X[k][tl]));
      x[at] = s;
    }}
"
        ),
    );
    let store = per_element(&params, total, &format!("      out0[e] = ({ty})work[e];\n"));
    let mut launches = vec![Launch { kernel: 0, blocks: per_thread(total), k0: 0 }];
    for k0 in (0..m).step_by(PANEL as usize) {
        launches.push(Launch { kernel: 1, blocks: (batch * groups) as usize, k0 });
        let tiles = (m - k0 - PANEL + 31) / 32;
        if tiles > 0 {
            launches.push(Launch { kernel: 2, blocks: (batch * tiles * groups) as usize, k0 });
        }
    }
    launches.push(Launch { kernel: 3, blocks: per_thread(total), k0: 0 });
    Some(Plan { kernels: vec![fill, solve, update, store], launches, work: total as usize })
}

/// Whether `op` runs on the device this way (its kernels rendered once and kept in `memo`).
pub fn runs_on_device(memo: &Memo, func: &Func, op: &Op) -> bool {
    memo.get(op, MEMO_TAG, || plan(func, op).map(|p| p.kernels[0].clone())).is_some()
}

/// Runs cholesky or triangular_solve `op` on device operands `ins`: its result, or None when it stays
/// on the host.
pub fn try_run(gpu: &Gpu, memo: &Memo, func: &Func, op: &Op, ins: &[DTensor]) -> Option<Result<Vec<DTensor>, String>> {
    let p = plan(func, op)?;
    let results = crate::render::result_types(func, op)?;
    let kernels: Vec<_> = p.kernels.iter().zip(MEMO_TAG..).map(|(src, tag)| memo.get(op, tag, || Some(src.clone()))).collect::<Option<_>>()?;
    Some((|| {
        let mut outs = vec![gpu.alloc_raw(Kind::F64, p.work)?];
        outs.extend(gpu.alloc_results(&results)?);
        let bufs: Vec<_> = ins.iter().map(|d| &**d.buf).collect();
        for l in &p.launches {
            gpu.launch_tiles(&kernels[l.kernel], l.blocks, THREADS, &[l.blocks as i64, l.k0], &bufs, &mut outs)?;
        }
        // The scratch goes back to the pool after the launches, in stream order.
        let outs = outs.split_off(1);
        Ok(Gpu::wrap_results(&results, outs))
    })())
}
