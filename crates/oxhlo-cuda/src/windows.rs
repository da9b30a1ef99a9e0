//! Windowed ops on the GPU: `stablehlo.reduce_window` (max and average pooling, JAX's cumulative sums
//! on platforms without their own lowering, any reducer that renders, several inputs at once) and
//! `stablehlo.select_and_scatter` (the max-pool gradient), as the reference interpreter computes them.
//!
//! reduce_window: a thread per result element folds `acc = body(acc, x)` from the init values over the
//! window's taps in row-major order; a tap in padding or in a base-dilation hole contributes the init
//! values (the spec pads with them). Prefix windows (JAX's cumulative ops) take a thread a line that
//! folds once along it when the reducer keeps the init values as they are (`prefix_kernel`; rows move
//! through shared memory a warp's 32 at a time, `prefix_rows_kernel`).
//!
//! select_and_scatter: a thread per operand element `p` (gathering rather than scattering, so no
//! atomics and the interpreter's order): starting from the init value, for each window that covers `p`,
//! in the source's row-major order, it picks the window's element as the interpreter does (the first
//! tap not in padding, then each later tap `x` replaces the pick unless `select(pick, x)`), and when
//! that is `p`, folds `acc = scatter(acc, source[window])`.
//!
//! Dynamic shapes, complex elements and regions that do not render stay on the host.

use crate::render::{coord_names, coords, kind_of, load, reg_type, row_major_strides, storage_type, store, ENTRY, PRELUDE};
use oxhlo_cpu::Kind;
use oxhlo_ir::{Attr, Func, Op, OpKind};
use std::fmt::Write;

/// One dimension of a window: size, stride, base and window dilation, low padding (the high padding
/// only sets the result's extent, which the result type gives).
#[derive(Clone, Copy)]
struct Dim {
    size: i64,
    stride: i64,
    base_dil: i64,
    win_dil: i64,
    lo: i64,
}

/// The window of `op` over an operand of rank `rank` (None for invalid attributes).
fn window(op: &Op, rank: usize) -> Option<Vec<Dim>> {
    let list = |name: &str| -> Option<Vec<i64>> {
        match op.attr(name) {
            Some(a) => a.as_i64_list().filter(|v| v.len() == rank),
            None => Some(vec![1; rank]),
        }
    };
    let sizes = op.attr("window_dimensions").and_then(Attr::as_i64_list).filter(|v| v.len() == rank)?;
    let (strides, bd, wd) = (list("window_strides")?, list("base_dilations")?, list("window_dilations")?);
    let pad = match op.attr("padding") {
        Some(a) => a.as_i64_list().filter(|v| v.len() == 2 * rank)?,
        None => vec![0; 2 * rank],
    };
    let dims: Vec<Dim> = (0..rank).map(|d| Dim { size: sizes[d], stride: strides[d], base_dil: bd[d], win_dil: wd[d], lo: pad[2 * d] }).collect();
    dims.iter().all(|d| d.size >= 0 && d.stride >= 1 && d.base_dil >= 1 && d.win_dil >= 1 && d.lo.abs() < 1 << 40).then_some(dims)
}

/// C statements opening a loop per window dimension (`w<d>` the tap, `ok` whether every dimension's
/// tap so far lands on an element, `at` its index into an operand of `shape`), for the result
/// coordinates `o<d>`, in index type `ix` (`long long`, or `int` where every index fits); close with
/// [`close_taps`].
fn open_taps(src: &mut String, dims: &[Dim], shape: &[i64], indent: &str, ix: &str) {
    let strides = row_major_strides(shape);
    let _ = writeln!(src, "{indent}{ix} at0 = 0; bool ok0 = true;");
    for (d, w) in dims.iter().enumerate() {
        let i = format!("{indent}{}", "  ".repeat(d));
        let _ = writeln!(src, "{i}for ({ix} w{d} = 0; w{d} < ({ix}){}; ++w{d}) {{", w.size);
        // The tap's position in the padded, base-dilated operand, then in the operand.
        let _ = writeln!(src, "{i}  const {ix} q{d} = o{d} * ({ix}){} + w{d} * ({ix}){} - ({ix})({});", w.stride, w.win_dil, w.lo);
        let _ = writeln!(src, "{i}  const bool ok{} = ok{d} && q{d} >= 0 && q{d} % ({ix}){} == 0 && q{d} / ({ix}){} < ({ix}){};", d + 1, w.base_dil, w.base_dil, shape[d]);
        let _ = writeln!(src, "{i}  const {ix} at{} = at{d} + (q{d} / ({ix}){}) * ({ix}){};", d + 1, w.base_dil, strides[d]);
    }
}

/// The index type of a select_and_scatter over `shape` with source `src_shape` and window `dims`:
/// `int` when every index and window position fits in 31 bits (integer division and products are
/// several times cheaper on the GPU than in 64 bits), else `long long`.
fn index_type(shape: &[i64], src_shape: &[i64], dims: &[Dim]) -> &'static str {
    let limit = 1i64 << 30;
    let numel = |s: &[i64]| s.iter().try_fold(1i64, |a, &d| a.checked_mul(d.max(1)));
    let fits = |v: Option<i64>| v.is_some_and(|v| v < limit);
    let window_ok = dims.iter().zip(shape).all(|(w, &n)| fits(Some(w.lo.abs())) && fits(w.stride.checked_mul(n + 1)) && fits(w.size.checked_add(n)));
    if fits(numel(shape)) && fits(numel(src_shape)) && window_ok {
        "int"
    } else {
        "long long"
    }
}

/// Closes the loops [`open_taps`] opened.
fn close_taps(src: &mut String, dims: &[Dim], indent: &str) {
    for d in (0..dims.len()).rev() {
        let _ = writeln!(src, "{indent}{}}}", "  ".repeat(d));
    }
}

/// The kernel of reduce_window `op` (inputs, then inits; results one per input) and its result count:
/// signature `(long long n, inputs..., inits..., outputs...)`, a thread a result. None when it stays on
/// the host.
pub fn render_reduce_window(func: &Func, op: &Op) -> Option<(String, usize)> {
    if op.kind != OpKind::ReduceWindow || crate::env_off("OXHLO_CUDA_WINDOWS") || op.operands.len() < 2 || !op.operands.len().is_multiple_of(2) {
        return None;
    }
    let m = op.operands.len() / 2;
    let ins: Vec<(Kind, Vec<i64>)> = op.operands.iter().map(|&v| kind_of(func, v)).collect::<Option<_>>()?;
    let shape = ins[0].1.clone();
    let outs: Vec<(Kind, Vec<i64>)> = op.results.iter().map(|&v| kind_of(func, v)).collect::<Option<_>>()?;
    if op.results.len() != m || ins[..m].iter().any(|(_, s)| *s != shape) || ins[m..].iter().any(|(_, s)| !s.is_empty()) || (0..m).any(|j| ins[j].0 != ins[m + j].0 || outs[j].0 != ins[j].0 || outs[j].1 != outs[0].1) {
        return None;
    }
    let out_shape = outs[0].1.clone();
    let dims = window(op, shape.len())?;
    if out_shape.len() != shape.len() {
        return None;
    }
    let kinds: Vec<Kind> = ins[..m].iter().map(|(k, _)| *k).collect();
    let reducer = crate::region::reducer(func, op.regions.first()?.blocks.first()?, &kinds, "oxv")?;
    let mut params = vec!["long long n".to_string()];
    for (j, (k, _)) in ins.iter().enumerate() {
        params.push(format!("const {}* __restrict__ in{j}", storage_type(*k)?));
    }
    for (j, k) in kinds.iter().enumerate() {
        params.push(format!("{}* __restrict__ out{j}", storage_type(*k)?));
    }
    let n_out = crate::render::checked_numel(&out_shape)?;
    let mut src = String::from(PRELUDE);
    src.push_str(&reducer);
    let _ = writeln!(src, "extern \"C\" __global__ void {ENTRY}({}) {{", params.join(", "));
    if let Some(d) = prefix_dim(&dims, op, &shape, &out_shape) {
        // A thread a line: `n` counts the lines.
        if d + 1 == shape.len() && kinds.len() == 1 && kinds[0].size() <= 4 && !matches!(kinds[0], Kind::Bool) && !crate::env_off("OXHLO_CUDA_PREFIX_TILES") {
            prefix_rows_kernel(&mut src, kinds[0], shape[d]);
            // Eight work items a row: a block of 256 threads takes 32 rows.
            return Some((src, (n_out / shape[d]) as usize * 8));
        } else {
            prefix_kernel(&mut src, &kinds, &shape, d);
        }
        return Some((src, (n_out / shape[d]) as usize));
    }
    let _ = writeln!(src, "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {{");
    src.push_str(&coords("i", &coord_names("o", &out_shape)));
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "    {} acc{j} = {}, init{j} = acc{j};", reg_type(*k), load(*k, &format!("in{}", m + j), "0"));
    }
    open_taps(&mut src, &dims, &shape, "    ", "long long");
    let rank = dims.len();
    let ind = format!("    {}", "  ".repeat(rank));
    let accs: Vec<String> = (0..m).map(|j| format!("acc{j}")).collect();
    let ptrs: Vec<String> = (0..m).map(|j| format!("&acc{j}")).collect();
    let elems: Vec<String> = kinds.iter().enumerate().map(|(j, k)| format!("ok{rank} ? {} : init{j}", load(*k, &format!("in{j}"), &format!("at{rank}")))).collect();
    let _ = writeln!(src, "{ind}oxv({}, {}, {});", accs.join(", "), elems.join(", "), ptrs.join(", "));
    close_taps(&mut src, &dims, "    ");
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "    out{j}[i] = {};", store(*k, &format!("acc{j}")));
    }
    let _ = writeln!(src, "  }}\n}}");
    Some((src, n_out as usize))
}

/// The dimension along which reduce_window's windows are prefixes (JAX's `cumsum`, `cumprod`, `cummax`
/// on platforms without their own rule): window `n` (the whole dimension), stride 1, padding `(n - 1, 0)`,
/// no dilation; every other dimension untouched (window 1, stride 1, no padding). None otherwise.
fn prefix_dim(dims: &[Dim], op: &Op, shape: &[i64], out_shape: &[i64]) -> Option<usize> {
    let pad = op.attr("padding").and_then(Attr::as_i64_list).unwrap_or_else(|| vec![0; 2 * shape.len()]);
    if out_shape != shape || pad.len() != 2 * shape.len() {
        return None;
    }
    let plain = |d: usize| dims[d].stride == 1 && dims[d].base_dil == 1 && dims[d].win_dil == 1 && pad[2 * d + 1] == 0;
    let along: Vec<usize> = (0..shape.len()).filter(|&d| dims[d].size != 1 || pad[2 * d] != 0).collect();
    match along[..] {
        [d] if (0..shape.len()).all(plain) && dims[d].size == shape[d] && pad[2 * d] == shape[d] - 1 && shape[d] > 1 => Some(d),
        _ => None,
    }
}

/// An expression: whether register values `a` and `b` of kind `k` have the same bits (floats compared
/// as integers: -0.0 and 0.0 differ, a NaN equals itself).
fn same_bits(k: Kind, a: &str, b: &str) -> String {
    match reg_type(k) {
        "float" => format!("(__float_as_int({a}) == __float_as_int({b}))"),
        "double" => format!("(__double_as_longlong({a}) == __double_as_longlong({b}))"),
        _ => format!("({a} == {b})"),
    }
}

/// [`prefix_kernel`] for lines that are rows (the last dimension, one input of at most 4 bytes): the
/// same fold a thread a row, the rows through shared memory so that loads and stores are a row's
/// consecutive elements across a warp (a thread reading its own row would touch 32 rows' cache lines at
/// once). A block of 256 threads takes 32 rows (`n` counts 8 work items a row, so a [1024, 1024] cumsum
/// spreads over 32 blocks): its 8 warps load 256 columns of them at once, 32 each, warp 0 folds the
/// 32 rows a lane each (a full tile's 32 steps unrolled, its shared loads independent of the fold),
/// and the 8 warps store them.
fn prefix_rows_kernel(src: &mut String, k: Kind, n: i64) {
    let (st, rt) = (storage_type(k).unwrap_or("float"), reg_type(k));
    let _ = writeln!(src, "  __shared__ {st} tile[8][32][33];");
    let _ = writeln!(src, "  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;");
    let _ = writeln!(src, "  const {rt} init0 = {};
  {rt} g0 = init0;
  oxv(init0, init0, &g0);", load(k, "in1", "0"));
    let _ = writeln!(src, "  const bool once = {};", same_bits(k, "g0", "init0"));
    let _ = writeln!(src, "  const long long rows = n / 8;");
    let _ = writeln!(src, "  for (long long r0 = (long long)blockIdx.x * 32; r0 < rows; r0 += (long long)gridDim.x * 32) {{");
    let _ = writeln!(src, "    const long long mine = r0 + lane;");
    let _ = writeln!(src, "    {rt} acc0 = init0;");
    let _ = writeln!(src, "    for (long long c0 = 0; c0 < {n}LL; c0 += 256) {{");
    let _ = writeln!(src, "      const long long cw = c0 + w * 32;");
    let _ = writeln!(src, "      const int cols = (int)max(0LL, min(32LL, {n}LL - cw));");
    let _ = writeln!(src, "      for (int r = 0; r < 32; r++) if (r0 + r < rows && lane < cols) tile[w][r][lane] = in0[(r0 + r) * {n}LL + cw + lane];");
    let _ = writeln!(src, "      __syncthreads();");
    let _ = writeln!(src, "      if (w == 0 && mine < rows) {{");
    let _ = writeln!(src, "        for (int g = 0; g < 8 && c0 + g * 32 < {n}LL; g++) {{");
    let _ = writeln!(src, "          const int gcols = (int)min(32LL, {n}LL - (c0 + g * 32));");
    let _ = writeln!(src, "          if (once && gcols == 32) {{");
    let _ = writeln!(src, "            #pragma unroll
            for (int j = 0; j < 32; j++) {{ oxv(acc0, {}, &acc0); tile[g][lane][j] = {}; }}", load(k, "tile[g][lane]", "j"), store(k, "acc0"));
    let _ = writeln!(src, "          }} else if (once) {{");
    let _ = writeln!(src, "            for (int j = 0; j < gcols; j++) {{ oxv(acc0, {}, &acc0); tile[g][lane][j] = {}; }}", load(k, "tile[g][lane]", "j"), store(k, "acc0"));
    let _ = writeln!(src, "          }} else {{");
    // Each result folds its own taps from the init values: padding (n - 1 - i of them), then the row
    // up to it, as the general kernel does.
    let _ = writeln!(src, "            for (int j = 0; j < gcols; j++) {{");
    let _ = writeln!(src, "              const long long i = c0 + g * 32 + j;
              {rt} a = init0;");
    let _ = writeln!(src, "              for (long long t = i + 1; t < {n}LL; ++t) oxv(a, init0, &a);");
    let _ = writeln!(src, "              for (long long t = 0; t <= i; ++t) oxv(a, {}, &a);", load(k, "in0", &format!("mine * {n}LL + t")));
    let _ = writeln!(src, "              tile[g][lane][j] = {};
            }}", store(k, "a"));
    let _ = writeln!(src, "          }}
        }}
      }}");
    let _ = writeln!(src, "      __syncthreads();");
    let _ = writeln!(src, "      for (int r = 0; r < 32; r++) if (r0 + r < rows && lane < cols) out0[(r0 + r) * {n}LL + cw + lane] = tile[w][r][lane];");
    let _ = writeln!(src, "      __syncthreads();
    }}
  }}
}}");
}

/// The body of the prefix-window kernel (see [`prefix_dim`]): a thread a line along dimension `d`
/// (`lines` of them), appended to `src` after the reducer and the parameters. When the reducer leaves
/// the init values as they are (`body(init, init)` has their bits: add of 0, max of -inf, product of 1)
/// each result is the fold of the line's elements up to it from the init values, so the line folds
/// once, storing as it goes (a result's padding taps fold init into init); otherwise each result folds
/// its own taps, as the general kernel does.
fn prefix_kernel(src: &mut String, kinds: &[Kind], shape: &[i64], d: usize) {
    let m = kinds.len();
    let n = shape[d];
    let inner: i64 = shape[d + 1..].iter().product();
    let accs: Vec<String> = (0..m).map(|j| format!("acc{j}")).collect();
    let ptrs: Vec<String> = (0..m).map(|j| format!("&acc{j}")).collect();
    let inits: Vec<String> = (0..m).map(|j| format!("init{j}")).collect();
    let gs: Vec<String> = (0..m).map(|j| format!("&g{j}")).collect();
    let elems = |at: &str| -> Vec<String> { kinds.iter().enumerate().map(|(j, k)| load(*k, &format!("in{j}"), at)).collect() };
    let _ = writeln!(src, "  for (long long line = (long long)blockIdx.x * blockDim.x + threadIdx.x; line < n; line += (long long)gridDim.x * blockDim.x) {{");
    let _ = writeln!(src, "    const long long base = (line / {inner}LL) * {}LL + line % {inner}LL;", n * inner);
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "    const {} init{j} = {};\n    {} acc{j} = init{j}, g{j} = init{j};", reg_type(*k), load(*k, &format!("in{}", m + j), "0"), reg_type(*k));
    }
    let _ = writeln!(src, "    oxv({}, {}, {});", inits.join(", "), inits.join(", "), gs.join(", "));
    let same: Vec<String> = kinds.iter().enumerate().map(|(j, k)| same_bits(*k, &format!("g{j}"), &format!("init{j}"))).collect();
    let _ = writeln!(src, "    if ({}) {{", same.join(" && "));
    let _ = writeln!(src, "      for (long long i = 0; i < {n}LL; ++i) {{\n        const long long at = base + i * {inner}LL;");
    let _ = writeln!(src, "        oxv({}, {}, {});", accs.join(", "), elems("at").join(", "), ptrs.join(", "));
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "        out{j}[at] = {};", store(*k, &format!("acc{j}")));
    }
    let _ = writeln!(src, "      }}\n    }} else {{");
    let _ = writeln!(src, "      for (long long i = 0; i < {n}LL; ++i) {{");
    for j in 0..m {
        let _ = writeln!(src, "        acc{j} = init{j};");
    }
    let _ = writeln!(src, "        for (long long t = i + 1; t < {n}LL; ++t) oxv({}, {}, {});", accs.join(", "), inits.join(", "), ptrs.join(", "));
    let _ = writeln!(src, "        for (long long t = 0; t <= i; ++t) {{\n          const long long at = base + t * {inner}LL;");
    let _ = writeln!(src, "          oxv({}, {}, {});\n        }}", accs.join(", "), elems("at").join(", "), ptrs.join(", "));
    for (j, k) in kinds.iter().enumerate() {
        let _ = writeln!(src, "        out{j}[base + i * {inner}LL] = {};", store(*k, &format!("acc{j}")));
    }
    let _ = writeln!(src, "      }}\n    }}\n  }}\n}}");
}

/// The kernel of select_and_scatter `op` (operand, source, init) and its result count: signature
/// `(long long n, operand, source, init, out)`, a thread an operand element (see the module doc). None
/// when it stays on the host.
pub fn render_select_and_scatter(func: &Func, op: &Op) -> Option<(String, usize)> {
    if op.kind != OpKind::SelectAndScatter || crate::env_off("OXHLO_CUDA_WINDOWS") || op.operands.len() != 3 || op.results.len() != 1 || op.regions.len() != 2 {
        return None;
    }
    let (k, shape) = kind_of(func, op.operands[0])?;
    let (sk, src_shape) = kind_of(func, op.operands[1])?;
    let (ik, ishape) = kind_of(func, op.operands[2])?;
    let (rk, rshape) = kind_of(func, op.results[0])?;
    if rshape != shape || ik != rk || sk != rk || !ishape.is_empty() || src_shape.len() != shape.len() {
        return None;
    }
    let rank = shape.len();
    let dims = window(op, rank)?;
    if dims.iter().any(|d| d.base_dil != 1 || d.win_dil != 1) {
        return None;
    }
    let select = crate::region::predicate(func, op.regions[0].blocks.first()?, &[k, k], "oxsel")?;
    let scatter = crate::region::reducer(func, op.regions[1].blocks.first()?, &[rk], "oxv")?;
    let n = crate::render::checked_numel(&shape)?;
    let src_strides = row_major_strides(&src_shape);
    let mut src = String::from(PRELUDE);
    src.push_str(&select);
    src.push_str(&scatter);
    let ix = index_type(&shape, &src_shape, &dims);
    let _ = writeln!(src, "// Floor and ceiling division (the numerator may be negative; the divisor is positive).");
    let _ = writeln!(src, "__device__ __forceinline__ {ix} oxfdiv({ix} a, {ix} b) {{ return a >= 0 ? a / b : -((-a + b - 1) / b); }}");
    let _ = writeln!(src, "__device__ __forceinline__ {ix} oxcdiv({ix} a, {ix} b) {{ return -oxfdiv(-a, b); }}");
    let _ = writeln!(
        src,
        "extern \"C\" __global__ void {ENTRY}(long long n, const {}* __restrict__ in0, const {}* __restrict__ in1, const {}* __restrict__ in2, {}* __restrict__ out0) {{",
        storage_type(k)?,
        storage_type(sk)?,
        storage_type(ik)?,
        storage_type(rk)?
    );
    let _ = writeln!(src, "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {{");
    src.push_str(&coords("i", &coord_names("c", &shape)));
    let _ = writeln!(src, "    const {ix} self = ({ix})i;");
    let _ = writeln!(src, "    {} acc = {};", reg_type(rk), load(rk, "in2", "0"));
    // The windows covering element c, in the source's row-major order: per dimension the source
    // positions s with s * stride - lo <= c <= s * stride - lo + size - 1.
    let _ = writeln!(src, "    {ix} sat0 = 0;");
    for (d, w) in dims.iter().enumerate() {
        let i = format!("    {}", "  ".repeat(d));
        let _ = writeln!(src, "{i}const {ix} s{d}lo = max(({ix})0, oxcdiv(({ix})c{d} + ({ix})({}) - ({ix}){} + 1, ({ix}){}));", w.lo, w.size, w.stride);
        let _ = writeln!(src, "{i}const {ix} s{d}hi = min(({ix}){}, oxfdiv(({ix})c{d} + ({ix})({}), ({ix}){}));", src_shape[d] - 1, w.lo, w.stride);
        let _ = writeln!(src, "{i}for ({ix} o{d} = s{d}lo; o{d} <= s{d}hi; ++o{d}) {{");
        let _ = writeln!(src, "{i}  const {ix} sat{} = sat{d} + o{d} * ({ix}){};", d + 1, src_strides[d]);
    }
    let ind = format!("    {}", "  ".repeat(rank));
    // The window's pick: its first element, then each later one unless select(pick, x); its value kept.
    let _ = writeln!(src, "{ind}{ix} pick = -1; {} pv = {{}};", reg_type(k));
    open_taps(&mut src, &dims, &shape, &ind, ix);
    let tind = format!("{ind}{}", "  ".repeat(rank));
    let _ = writeln!(src, "{tind}if (ok{rank}) {{ const {} x = {}; if (pick < 0 || !oxsel(pv, x)) {{ pick = at{rank}; pv = x; }} }}", reg_type(k), load(k, "in0", &format!("at{rank}")));
    close_taps(&mut src, &dims, &ind);
    let _ = writeln!(src, "{ind}if (pick == self) oxv(acc, {}, &acc);", load(sk, "in1", &format!("sat{rank}")));
    close_taps(&mut src, &dims, "    ");
    let _ = writeln!(src, "    out0[i] = {};", store(rk, "acc"));
    let _ = writeln!(src, "  }}\n}}");
    Some((src, n as usize))
}

/// The kernel of windowed op `op` and its thread count, if it runs on the device.
pub fn render(func: &Func, op: &Op) -> Option<(String, usize)> {
    match op.kind {
        OpKind::ReduceWindow => render_reduce_window(func, op),
        OpKind::SelectAndScatter => render_select_and_scatter(func, op),
        _ => None,
    }
}
