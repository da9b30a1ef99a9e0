//! Data movement on the GPU: slice, reverse, concatenate, pad and iota as index kernels (one thread per
//! output element computes its source from constant shapes rendered into the source; small strided
//! copies take their shape as launch scalars instead, [`SHAPE_SCALARS_MAX`]), so programs
//! that split, join or flip tensors (attention heads, convolution gradients) keep their values on the
//! device. Elements are copied as raw bits of their size (slices and concatenations whose innermost
//! extents allow it move 16-, 8- or 4-byte units instead); iota converts its coordinate to the element
//! type. Anything these kernels do not cover (dynamic sizes, complex iota, invalid attributes) returns
//! `None` and runs on the host.

use crate::device::{DTensor, Gpu, Memo};
use crate::render::{bits_type, checked_numel, coord_names, coords, row_major_strides, storage_type, ENTRY, PRELUDE};
use oxhlo_cpu::Kind;
use oxhlo_ir::{Op, OpKind, TensorType};
use std::fmt::Write;

fn kernel(params: &str, body: &str) -> String {
    format!(
        "{PRELUDE}extern \"C\" __global__ void {ENTRY}(long long n, {params}) {{\n  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {{\n{body}  }}\n}}\n"
    )
}

/// Strided copies of at most this many elements take their shape, strides and base as launch scalars
/// (one kernel per rank and unit size: a program's filter copies around cuDNN, 32 of ResNet-18's 88
/// kernels, compile once); larger ones keep them as literals (division by a literal is cheaper than by
/// a parameter, and there the index arithmetic competes with the copy's bandwidth).
pub const SHAPE_SCALARS_MAX: i64 = 1 << 22;

/// `out[i] = in[base + sum_d c_d * strides[d]]` over the row-major output `shape` (slices, reverses).
pub fn render_strided(shape: &[i64], strides: &[i64], base: i64, elem_bytes: usize) -> Option<String> {
    let ty = bits_type(elem_bytes)?;
    if strides.len() != shape.len() {
        return None;
    }
    if !shape.is_empty() && checked_numel(shape).is_some_and(|n| n <= SHAPE_SCALARS_MAX) {
        return Some(render_strided_scalars(shape, strides, base, ty));
    }
    let mut body = coords("i", &coord_names("c", shape));
    let mut terms = vec![format!("{base}LL")];
    for (d, &s) in strides.iter().enumerate() {
        if s != 0 {
            terms.push(format!("c{d} * {s}LL"));
        }
    }
    let _ = writeln!(body, "    out0[i] = in0[{}];", terms.join(" + "));
    Some(kernel(&format!("const {ty}* __restrict__ in0, {ty}* __restrict__ out0"), &body))
}

/// [`render_strided`] with the shape, strides and base as launch scalars after `n` (`oxs0` the base,
/// `oxs1..` the extents of dims 1.., then the strides of every dim; values on the source's last line,
/// `render::SCALARS_MARK`), for copies of fewer than 2^32 elements.
fn render_strided_scalars(shape: &[i64], strides: &[i64], base: i64, ty: &str) -> String {
    let rank = shape.len();
    let params: Vec<String> = (0..2 * rank).map(|j| format!("long long oxs{j}")).collect();
    let mut body = String::from("    unsigned int r = (unsigned int)i;\n    long long src = oxs0;\n");
    for d in (1..rank).rev() {
        let _ = writeln!(body, "    {{ const unsigned int e = (unsigned int)oxs{d}; src += (long long)(r % e) * oxs{}; r /= e; }}", rank + d);
    }
    let _ = writeln!(body, "    src += (long long)r * oxs{rank};");
    let _ = writeln!(body, "    out0[i] = in0[src];");
    let mut src = kernel(&format!("{}, const {ty}* __restrict__ in0, {ty}* __restrict__ out0", params.join(", ")), &body);
    let values: Vec<i64> = std::iter::once(base).chain(shape[1..].iter().copied()).chain(strides.iter().copied()).collect();
    crate::render::append_scalars(&mut src, &values);
    src
}

/// [`render_strided`] moving whole 16-, 8- or 4-byte units when the innermost dim is contiguous
/// (stride 1) and its extent, the base and every other stride fill them (a convolution's result slice
/// out of a taller copy read 2 TB/s an element at a time); also returns the work items to launch.
pub fn render_strided_units(shape: &[i64], strides: &[i64], base: i64, elem_bytes: usize) -> Option<(String, i64)> {
    let l = shape.len().checked_sub(1);
    let unit = l.filter(|&l| strides.len() == shape.len() && strides[l] == 1).and_then(|l| {
        let mut extents: Vec<i64> = strides[..l].to_vec();
        extents.push(shape[l]);
        extents.push(base);
        innermost_unit(elem_bytes, &extents)
    });
    match unit {
        Some(u) => {
            let per = (u / elem_bytes) as i64;
            let su: Vec<i64> = strides.iter().enumerate().map(|(d, &x)| if Some(d) == l { 1 } else { x / per }).collect();
            let os = in_units(shape, elem_bytes, u);
            Some((render_strided(&os, &su, base / per, u)?, checked_numel(&os)?))
        }
        None => Some((render_strided(shape, strides, base, elem_bytes)?, checked_numel(shape)?)),
    }
}

/// A batched transpose through shared-memory tiles: `out[b][j][i] = in[b][i][j]` for an input of
/// `[batch, rows, cols]` (scalars `(batch, rows, cols)`), elements of `elem_bytes` bytes. A 32x32 tile a
/// block of 32x8 threads, read and written along rows: both sides coalesced, where the index kernels
/// gather with a stride (NCHW <-> NHWC around a convolution: 1.2 TB/s as a gather). Launched by
/// [`Gpu::launch_transpose_tiles`].
pub fn render_transpose_tiles(elem_bytes: usize) -> Option<String> {
    let ty = bits_type(elem_bytes)?;
    Some(format!(
        "{PRELUDE}extern \"C\" __global__ void {ENTRY}(long long batch, long long rows, long long cols, const {ty}* __restrict__ in0, {ty}* __restrict__ out0) {{
  __shared__ {ty} tile[32][33];
  const long long b = blockIdx.z, r0 = (long long)blockIdx.y * 32, c0 = (long long)blockIdx.x * 32;
  const {ty}* in = in0 + b * rows * cols;
  {ty}* out = out0 + b * rows * cols;
  for (int k = threadIdx.y; k < 32; k += 8) {{
    const long long r = r0 + k, c = c0 + threadIdx.x;
    if (r < rows && c < cols) tile[k][threadIdx.x] = in[r * cols + c];
  }}
  __syncthreads();
  for (int k = threadIdx.y; k < 32; k += 8) {{
    const long long c = c0 + k, r = r0 + threadIdx.x;
    if (r < rows && c < cols) out[c * rows + r] = tile[threadIdx.x][k];
  }}
}}
"
    ))
}

/// Concatenation along `dim` of inputs whose sizes along it are `sizes` (the other dims are `shape`'s).
pub fn render_concat(shape: &[i64], dim: usize, sizes: &[i64], elem_bytes: usize) -> Option<String> {
    let ty = bits_type(elem_bytes)?;
    if dim >= shape.len() || sizes.is_empty() || sizes.iter().sum::<i64>() != shape[dim] {
        return None;
    }
    let mut body = coords("i", &coord_names("c", shape));
    let _ = writeln!(body, "    long long cd = c{dim};");
    let mut params = Vec::new();
    for (k, &size) in sizes.iter().enumerate() {
        params.push(format!("const {ty}* __restrict__ in{k}"));
        let mut ishape = shape.to_vec();
        ishape[dim] = size;
        let st = row_major_strides(&ishape);
        let idx: Vec<String> = (0..shape.len()).map(|d| format!("{} * {}LL", if d == dim { "cd".to_string() } else { format!("c{d}") }, st[d])).collect();
        let last = k + 1 == sizes.len();
        let _ = writeln!(body, "    {}{{ out0[i] = in{k}[{}]; continue; }}", if last { String::new() } else { format!("if (cd < {size}LL) ") }, idx.join(" + "));
        if !last {
            let _ = writeln!(body, "    cd -= {size}LL;");
        }
    }
    params.push(format!("{ty}* __restrict__ out0"));
    Some(kernel(&params.join(", "), &body))
}

/// Pad of an operand of `in_shape` (in0) with the scalar in1 to `out_shape`: edge padding `low` (may
/// be negative) and `interior` padding per dim.
pub fn render_pad(in_shape: &[i64], out_shape: &[i64], low: &[i64], interior: &[i64], elem_bytes: usize) -> Option<String> {
    let ty = bits_type(elem_bytes)?;
    let body = pad_body(in_shape, out_shape, low, interior, "in1[0]")?;
    Some(kernel(&format!("const {ty}* __restrict__ in0, const {ty}* __restrict__ in1, {ty}* __restrict__ out0"), &body))
}

/// Zero edge padding (`low` may be negative) of an operand of `in_shape` to `out_shape`: the explicit
/// padding before a cuDNN convolution whose padding cuDNN cannot express. When the innermost dim is not
/// padded and fills 16-, 8- or 4-byte units, whole units move (a stride-2 ResNet convolution's padded
/// NHWC copy read 1.5-1.7 TB/s an element at a time); also returns the work items to launch (units or
/// elements of `out_shape`).
pub fn render_zero_pad(in_shape: &[i64], out_shape: &[i64], low: &[i64], elem_bytes: usize) -> Option<(String, i64)> {
    let l = in_shape.len().checked_sub(1)?;
    let unit = (out_shape.len() == in_shape.len() && low.len() == in_shape.len() && low[l] == 0 && in_shape[l] == out_shape[l])
        .then(|| innermost_unit(elem_bytes, &[in_shape[l]]))
        .flatten();
    let (ins, outs, size) = match unit {
        Some(u) => (in_units(in_shape, elem_bytes, u), in_units(out_shape, elem_bytes, u), u),
        None => (in_shape.to_vec(), out_shape.to_vec(), elem_bytes),
    };
    let ty = bits_type(size)?;
    let zero = if size == 16 { "make_ulonglong2(0ULL, 0ULL)".to_string() } else { format!("({ty})0") };
    let body = pad_body(&ins, &outs, low, &vec![0; ins.len()], &zero)?;
    Some((kernel(&format!("const {ty}* __restrict__ in0, {ty}* __restrict__ out0"), &body), checked_numel(&outs)?))
}

/// The loop body of a pad kernel: each output element's source, or `fill` outside the operand.
fn pad_body(in_shape: &[i64], out_shape: &[i64], low: &[i64], interior: &[i64], fill: &str) -> Option<String> {
    let rank = in_shape.len();
    if out_shape.len() != rank || low.len() != rank || interior.len() != rank || interior.iter().any(|&x| x < 0) {
        return None;
    }
    let st = row_major_strides(in_shape);
    let mut body = coords("i", &coord_names("c", out_shape));
    let _ = writeln!(body, "    long long src = 0; bool inside = true;");
    for d in 0..rank {
        let step = interior[d] + 1;
        let _ = writeln!(body, "    {{ const long long t = c{d} - ({}LL);", low[d]);
        if step == 1 {
            let _ = writeln!(body, "      if (t < 0 || t >= {}LL) inside = false; else src += t * {}LL; }}", in_shape[d], st[d]);
        } else {
            let _ = writeln!(
                body,
                "      if (t < 0 || t % {step}LL != 0 || t / {step}LL >= {}LL) inside = false; else src += (t / {step}LL) * {}LL; }}",
                in_shape[d], st[d]
            );
        }
    }
    let _ = writeln!(body, "    out0[i] = inside ? in0[src] : {fill};");
    Some(body)
}

/// Iota along `dim` of `shape` for elements of `kind` (integers and real floats).
pub fn render_iota(shape: &[i64], dim: usize, kind: Kind) -> Option<String> {
    if dim >= shape.len() {
        return None;
    }
    let st = storage_type(kind)?;
    let value = match kind {
        Kind::Bool | Kind::C64 | Kind::C128 => return None,
        Kind::F16 => "oxh_f_to_f16((float)c)".to_string(),
        Kind::BF16 => "oxh_f_to_bf16((float)c)".to_string(),
        Kind::F32 => "(float)c".to_string(),
        Kind::F64 => "(double)c".to_string(),
        _ => format!("({st})c"),
    };
    // The coordinate along `dim` alone: (i / inner) % size.
    let inner: i64 = shape[dim + 1..].iter().product();
    let n: i64 = shape.iter().product();
    let (t, suf) = if n <= u32::MAX as i64 { ("unsigned int", "u") } else { ("unsigned long long", "ULL") };
    let mut c = format!("(({t})i / {inner}{suf})");
    if dim > 0 {
        c = format!("({c} % {}{suf})", shape[dim]);
    }
    let body = format!("    const long long c = (long long){c};\n    out0[i] = {value};\n");
    Some(kernel(&format!("{st}* __restrict__ out0"), &body))
}

fn i64s(op: &Op, name: &str) -> Option<Vec<i64>> {
    op.attr(name)?.as_i64_list()
}

/// The widest unit (16, 8 or 4 bytes, wider than an element of `bytes`) that every innermost extent in
/// `extents` (element counts: sizes and offsets along the innermost dim) fills exactly, or None.
fn innermost_unit(bytes: usize, extents: &[i64]) -> Option<usize> {
    [16usize, 8, 4].into_iter().find(|&u| u > bytes && extents.iter().all(|&e| e.checked_mul(bytes as i64).is_some_and(|b| b >= 0 && b % u as i64 == 0)))
}

/// `shape` with its innermost dim counted in units of `unit` bytes instead of elements of `bytes`.
fn in_units(shape: &[i64], bytes: usize, unit: usize) -> Vec<i64> {
    let mut s = shape.to_vec();
    if let Some(l) = s.last_mut() {
        *l = *l * bytes as i64 / unit as i64;
    }
    s
}

/// The source of the kernel computing `op` from operands of shapes `ins` (all of element kind `kind`)
/// into a result of shape `out`, when this module handles the op.
pub fn render_op(op: &Op, ins: &[&[i64]], out: &[i64], kind: Kind) -> Option<String> {
    render_op_units(op, ins, out, kind).map(|(src, _)| src)
}

/// [`render_op`] and the number of threads' work items its launch covers: slices and concatenations
/// whose innermost extents fill 16-, 8- or 4-byte units move whole units (one item each), the rest
/// one element per item.
pub fn render_op_units(op: &Op, ins: &[&[i64]], out: &[i64], kind: Kind) -> Option<(String, i64)> {
    let bytes = kind.size();
    let numel = checked_numel(out)?;
    let last = out.len().checked_sub(1);
    match op.kind {
        OpKind::Slice => {
            let [x] = ins else { return None };
            let start = i64s(op, "start_indices")?;
            let step = i64s(op, "strides").unwrap_or_else(|| vec![1; x.len()]);
            if start.len() != x.len() || step.len() != x.len() || step.iter().any(|&s| s <= 0) {
                return None;
            }
            // A strided view of the operand (in units where the innermost extents allow).
            let st = row_major_strides(x);
            let base = start.iter().zip(&st).map(|(a, s)| a * s).sum();
            let strides: Vec<i64> = st.iter().zip(&step).map(|(s, k)| s * k).collect();
            render_strided_units(out, &strides, base, bytes)
        }
        OpKind::Reverse => {
            let [x] = ins else { return None };
            if *x != out {
                return None;
            }
            let dims = i64s(op, "dimensions")?;
            let st = row_major_strides(x);
            let mut strides = st.clone();
            let mut base = 0i64;
            let mut seen = vec![false; x.len()];
            for d in dims {
                let d = usize::try_from(d).ok().filter(|&d| d < x.len())?;
                if std::mem::replace(&mut seen[d], true) {
                    continue;
                }
                strides[d] = -st[d];
                base += (x[d] - 1).max(0) * st[d];
            }
            Some((render_strided(out, &strides, base, bytes)?, numel))
        }
        OpKind::Concatenate => {
            let dim = usize::try_from(op.attr("dimension")?.as_int()?).ok()?;
            let sizes: Vec<i64> = ins.iter().map(|s| s.get(dim).copied()).collect::<Option<_>>()?;
            if let Some(l) = last {
                let extents: Vec<i64> = if dim == l { sizes.clone() } else { vec![out[l]] };
                if let Some(u) = innermost_unit(bytes, &extents) {
                    let ou = in_units(out, bytes, u);
                    let su: Vec<i64> = if dim == l { sizes.iter().map(|&z| z * bytes as i64 / u as i64).collect() } else { sizes.clone() };
                    return Some((render_concat(&ou, dim, &su, u)?, checked_numel(&ou)?));
                }
            }
            Some((render_concat(out, dim, &sizes, bytes)?, numel))
        }
        OpKind::Pad => {
            let [x, _] = ins else { return None };
            Some((render_pad(x, out, &i64s(op, "edge_padding_low")?, &i64s(op, "interior_padding").unwrap_or_else(|| vec![0; x.len()]), bytes)?, numel))
        }
        OpKind::Iota => Some((render_iota(out, usize::try_from(op.attr("iota_dimension")?.as_int()?).ok()?, kind)?, numel)),
        _ => None,
    }
}

/// Runs `op` on device operands when this module handles it.
pub fn try_movement(gpu: &Gpu, memo: &Memo, op: &Op, ins: &[DTensor], rty: &TensorType) -> Option<Result<DTensor, String>> {
    let kind = Kind::of(&rty.elem)?;
    if !rty.is_static() || ins.iter().any(|d| d.kind != kind) {
        return None;
    }
    let shapes: Vec<&[i64]> = ins.iter().map(|d| d.ty.shape.as_slice()).collect();
    let src = memo.get_with_items(op, 20, || render_op_units(op, &shapes, &rty.shape, kind).map(|(s, n)| (s, n.max(0) as usize)))?;
    let n = rty.num_elements()?;
    Some((|| {
        let mut out = [gpu.alloc_raw(kind, n)?];
        let bufs: Vec<_> = ins.iter().map(|d| &**d.buf).collect();
        gpu.launch_scalar(&src, src.items.unwrap_or(n), &bufs, &mut out)?;
        let [buf] = out;
        Ok(Gpu::wrap(rty.clone(), kind, n, buf))
    })())
}
