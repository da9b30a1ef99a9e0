//! gather and scatter on the GPU with the spec's full dimension numbers (offset/collapsed/batching
//! dims, start_index_map, any index_vector_dim, any integer index type), as index kernels whose
//! shapes and dimension maps are rendered as constants:
//! - gather: one thread per result element finds its batch position and window offset, reads the start
//!   index vector, clamps it so the slice fits (as the spec says) and copies the operand element;
//! - scatter of one operand: the input is copied to the result (or, when nothing else holds it, is the
//!   result), then one thread per update element finds its target and applies the update computation
//!   there: an addition (either argument order) as an atomic add (f32, f64, 32- and 64-bit
//!   integers); a computation returning the update (`x.at[i].set(v)`) as a store of its bits (any
//!   element type; where updates may collide, the last in order wins, as in the interpreter, by a
//!   first launch marking each target's last update); any other computation that renders (max, min, multiply, adds of other types, ...)
//!   in a compare-and-swap loop on the element's bits (2-, 4- and 8-byte types; a byte through its
//!   aligned 4-byte word), `update(current,
//!   update)` as the spec applies it. Update elements whose target is out of bounds are skipped, as the
//!   interpreter does. Other colliding updates apply in an unspecified order, which the spec allows
//!   (float sums and products may differ in rounding).
//!
//! Anything else returns `None` and runs on the host.

use crate::device::{DTensor, Gpu, Kernel, Memo};
use std::sync::Arc;
use crate::render::{bits_type, coord_names, coords, row_major_strides, storage_type, ENTRY, PRELUDE};
use oxhlo_cpu::Kind;
use oxhlo_ir::attr::{GatherDims, ScatterDims};
use oxhlo_ir::{Attr, Func, Op, OpKind, TensorType};
use oxhlo_plan::reducer::{reducer_kind, ReduceKind};
use std::fmt::Write;

fn dims_below(dims: &[i64], rank: usize) -> Option<Vec<usize>> {
    dims.iter().map(|&d| usize::try_from(d).ok().filter(|&d| d < rank)).collect()
}

/// How start index vectors are read: the indices' shape, index_vector_dim, and the offset expression of
/// component `k` for a batch position whose coordinates are given per indices dim (ivd excluded).
struct Indices {
    shape: Vec<i64>,
    ivd: usize,
    strides: Vec<i64>,
}

impl Indices {
    fn new(shape: &[i64], ivd: i64, n: usize) -> Option<Indices> {
        let ivd = usize::try_from(ivd).ok().filter(|&d| d <= shape.len())?;
        let len = if ivd < shape.len() { shape[ivd] } else { 1 };
        if len != n as i64 {
            return None;
        }
        Some(Indices { shape: shape.to_vec(), ivd, strides: row_major_strides(shape) })
    }
    /// The batch rank (indices rank without index_vector_dim).
    fn batch_rank(&self) -> usize {
        self.shape.len() - usize::from(self.ivd < self.shape.len())
    }
    /// The batch shape.
    fn batch_shape(&self) -> Vec<i64> {
        (0..self.shape.len()).filter(|&d| d != self.ivd).map(|d| self.shape[d]).collect()
    }
    /// `long long ib = ...;` the offset of batch position `batch[j]` (C expressions, batch order).
    fn base(&self, batch: &[String]) -> String {
        let dims: Vec<usize> = (0..self.shape.len()).filter(|&d| d != self.ivd).collect();
        let mut terms = vec!["0LL".to_string()];
        for (j, &d) in dims.iter().enumerate() {
            terms.push(format!("{} * {}LL", batch[j], self.strides[d]));
        }
        format!("    const long long ib = {};\n", terms.join(" + "))
    }
    fn component(&self, k: usize) -> String {
        let st = if self.ivd < self.shape.len() { self.strides[self.ivd] } else { 0 };
        format!("(long long)ind[ib + {}LL]", k as i64 * st)
    }
}

/// The gather kernel `(long long n, const T* in0 /*operand*/, const I* ind, T* out0)`.
pub fn render_gather(g: &GatherDims, operand: &[i64], indices: &[i64], index_kind: Kind, sizes: &[i64], out: &[i64], elem_bytes: usize) -> Option<String> {
    let ty = bits_type(elem_bytes)?;
    let ity = storage_type(index_kind).filter(|_| crate::render::is_int(index_kind))?;
    let orank = operand.len();
    if sizes.len() != orank || sizes.iter().zip(operand).any(|(&s, &n)| s < 0 || s > n) {
        return None;
    }
    let collapsed = dims_below(&g.collapsed_slice_dims, orank)?;
    let obatch = dims_below(&g.operand_batching_dims, orank)?;
    let smap = dims_below(&g.start_index_map, orank)?;
    if g.start_indices_batching_dims.len() != obatch.len() || collapsed.iter().chain(&obatch).any(|&d| sizes[d] > 1) {
        return None;
    }
    let ix = Indices::new(indices, g.index_vector_dim, smap.len())?;
    let window: Vec<usize> = (0..orank).filter(|d| !collapsed.contains(d) && !obatch.contains(d)).collect();
    let rrank = ix.batch_rank() + window.len();
    let offset_dims = dims_below(&g.offset_dims, rrank)?;
    if out.len() != rrank || offset_dims.len() != window.len() || offset_dims.windows(2).any(|w| w[0] >= w[1]) {
        return None;
    }
    // Result dims: offset dims take the window sizes, the others the batch shape (in order).
    let batch_dims: Vec<usize> = (0..rrank).filter(|d| !offset_dims.contains(d)).collect();
    let bshape = ix.batch_shape();
    if batch_dims.iter().zip(&bshape).any(|(&d, &b)| out[d] != b) || offset_dims.iter().zip(&window).any(|(&r, &w)| out[r] != sizes[w]) {
        return None;
    }
    let batch: Vec<String> = batch_dims.iter().map(|d| format!("c{d}")).collect();
    let ost = row_major_strides(operand);
    let mut body = coords("i", &coord_names("c", out));
    body.push_str(&ix.base(&batch));
    let mut start = vec!["0LL".to_string(); orank];
    for (k, &od) in smap.iter().enumerate() {
        let _ = writeln!(body, "    long long s{k} = {}; s{k} = s{k} < 0 ? 0 : (s{k} > {m}LL ? {m}LL : s{k});", ix.component(k), m = operand[od] - sizes[od]);
        start[od] = format!("s{k}");
    }
    for (&od, &sd) in obatch.iter().zip(&g.start_indices_batching_dims) {
        // The batching dim's coordinate is the batch position along that indices dim.
        let sd = usize::try_from(sd).ok()?;
        let p = if sd < ix.ivd { sd } else { sd.checked_sub(1)? };
        start[od] = batch.get(p)?.clone();
    }
    let mut terms = Vec::new();
    for d in 0..orank {
        let w = window.iter().position(|&x| x == d).map(|p| format!(" + c{}", offset_dims[p])).unwrap_or_default();
        terms.push(format!("({}{w}) * {}LL", start[d], ost[d]));
    }
    let _ = writeln!(body, "    out0[i] = in0[{}];", if terms.is_empty() { "0".into() } else { terms.join(" + ") });
    Some(format!(
        "{PRELUDE}extern \"C\" __global__ void {ENTRY}(long long n, const {ty}* __restrict__ in0, const {ity}* __restrict__ ind, {ty}* __restrict__ out0) {{\n  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {{\n{body}  }}\n}}\n"
    ))
}

/// How a scatter applies an update element to its target `out0[t]`.
pub enum Update {
    /// An atomic add (the computation is an addition of a kind with a native atomic add).
    AtomicAdd,
    /// A store of the update's bits (the computation returns the update), when `unique_indices` says no
    /// two updates share a target.
    Store,
    /// The same computation where updates may collide: the interpreter's result, the last update in
    /// order winning, in two launches over a zeroed buffer `win` of a 64-bit integer a result element:
    /// [`Update::Mark`] raises each target's entry to its updates' greatest index plus one, then
    /// [`Update::WriteLast`] stores the update whose index that is.
    Mark,
    WriteLast,
    /// The computation as device function `oxr(current, update, &result)` in a compare-and-swap loop.
    Cas(String),
}

impl Update {
    /// How scatter `op` (its region, elements of `kind`) updates, None when it stays on the host.
    pub fn of(func: &Func, op: &Op, kind: Kind) -> Option<Update> {
        let region = op.regions.first()?;
        let block = region.entry()?;
        if reducer_kind(func, region) == Some(ReduceKind::Add) && matches!(kind, Kind::F32 | Kind::F64 | Kind::I32 | Kind::U32 | Kind::I64 | Kind::U64) {
            return Some(Update::AtomicAdd);
        }
        if let ([ret], [_, upd]) = (block.ops.as_slice(), block.args.as_slice()) {
            if ret.kind == OpKind::Return && ret.operands.as_slice() == [*upd] {
                let unique = matches!(op.attr("unique_indices"), Some(Attr::Bool(true)) | Some(Attr::Unit));
                return Some(if unique { Update::Store } else { Update::Mark });
            }
        }
        if !matches!(kind.size(), 1 | 2 | 4 | 8) || matches!(kind, Kind::C64 | Kind::C128) {
            return None;
        }
        crate::region::reducer(func, block, &[kind], "oxr").map(Update::Cas)
    }

    /// The C types of `upd` and `out0`, and the statement applying `upd[i]` at `out0[t]`.
    fn code(&self, kind: Kind) -> Option<(&'static str, String)> {
        Some(match self {
            Update::AtomicAdd => match kind {
                Kind::I64 => ("long long", "atomicAdd((unsigned long long*)&out0[t], (unsigned long long)upd[i]);".to_string()),
                _ => (storage_type(kind)?, "atomicAdd(&out0[t], upd[i]);".to_string()),
            },
            Update::Store => (bits_type(kind.size())?, "out0[t] = upd[i];".to_string()),
            Update::Mark => (bits_type(kind.size())?, "atomicMax(&win[t], i + 1);".to_string()),
            Update::WriteLast => (bits_type(kind.size())?, "if (win[t] == i + 1) out0[t] = upd[i];".to_string()),
            Update::Cas(_) => {
                let (st, rt) = (storage_type(kind)?, crate::render::reg_type(kind));
                let cur = crate::render::load(kind, "(&cur)", "0");
                let up = crate::render::load(kind, "upd", "i");
                let next = crate::render::store(kind, "r");
                // One try: the element `seen` holds as `cur`, `update(cur, upd[i])` stored as `nx`.
                let step = |seen: &str, size: &str| format!("{st} cur; memcpy(&cur, &{seen}, {size}); {rt} r; oxr({cur}, {up}, &r); const {st} nx = {next};");
                let code = if kind.size() == 1 {
                    // A byte: compare-and-swap of the aligned 4-byte word holding it, the other bytes
                    // kept (device buffers start 256-byte aligned, and the word's other bytes are only
                    // ever written back as they were read).
                    format!(
                        "{{ unsigned int* p = (unsigned int*)((unsigned long long)&out0[t] & ~3ULL); const unsigned int sh = (unsigned int)((unsigned long long)&out0[t] & 3ULL) * 8u;\n      unsigned int old = *(volatile unsigned int*)p, seen;\n      do {{ seen = old; const unsigned char cb = (unsigned char)(seen >> sh); {} unsigned char nb; memcpy(&nb, &nx, 1); old = atomicCAS(p, seen, (seen & ~(0xffu << sh)) | ((unsigned int)nb << sh)); }} while (old != seen); }}",
                        step("cb", "1")
                    )
                } else {
                    let bt = bits_type(kind.size())?;
                    format!(
                        "{{ {bt}* p = ({bt}*)&out0[t]; {bt} old = *(volatile {bt}*)p, seen;\n      do {{ seen = old; {} {bt} nb; memcpy(&nb, &nx, sizeof(nb)); old = atomicCAS(p, seen, nb); }} while (old != seen); }}",
                        step("seen", "sizeof(cur)")
                    )
                };
                (st, code)
            }
        })
    }
}

/// The scatter kernel `(long long n /*update elements*/, const T* upd, const I* ind, T* out0)` (out0
/// already holds the input), applying each update as `update` says.
pub fn render_scatter(s: &ScatterDims, input: &[i64], indices: &[i64], index_kind: Kind, updates: &[i64], kind: Kind, update: &Update) -> Option<String> {
    let (ty, apply) = update.code(kind)?;
    let device_fn = match update {
        Update::Cas(f) => f.as_str(),
        _ => "",
    };
    let ity = storage_type(index_kind).filter(|_| crate::render::is_int(index_kind))?;
    let (irank, urank) = (input.len(), updates.len());
    let inserted = dims_below(&s.inserted_window_dims, irank)?;
    let ibatch = dims_below(&s.input_batching_dims, irank)?;
    let smap = dims_below(&s.scatter_dims_to_operand_dims, irank)?;
    if s.scatter_indices_batching_dims.len() != ibatch.len() {
        return None;
    }
    let ix = Indices::new(indices, s.index_vector_dim, smap.len())?;
    let uwin = dims_below(&s.update_window_dims, urank)?;
    let window: Vec<usize> = (0..irank).filter(|d| !inserted.contains(d) && !ibatch.contains(d)).collect();
    if window.len() != uwin.len() {
        return None;
    }
    let uscatter: Vec<usize> = (0..urank).filter(|d| !uwin.contains(d)).collect();
    let bshape = ix.batch_shape();
    if uscatter.len() != bshape.len() || uscatter.iter().zip(&bshape).any(|(&d, &b)| updates[d] != b) {
        return None;
    }
    let batch: Vec<String> = uscatter.iter().map(|d| format!("u{d}")).collect();
    let ist = row_major_strides(input);
    let mut body = coords("i", &coord_names("u", updates));
    body.push_str(&ix.base(&batch));
    let mut start = vec!["0LL".to_string(); irank];
    for (k, &od) in smap.iter().enumerate() {
        let _ = writeln!(body, "    const long long s{k} = {};", ix.component(k));
        start[od] = format!("s{k}");
    }
    for (&od, &sd) in ibatch.iter().zip(&s.scatter_indices_batching_dims) {
        let sd = usize::try_from(sd).ok()?;
        let p = if sd < ix.ivd { sd } else { sd.checked_sub(1)? };
        start[od] = batch.get(p)?.clone();
    }
    let _ = writeln!(body, "    long long t = 0;");
    for d in 0..irank {
        let w = window.iter().position(|&x| x == d).map(|p| format!(" + u{}", uwin[p])).unwrap_or_default();
        let _ = writeln!(body, "    {{ const long long x = {}{w}; if (x < 0 || x >= {}LL) continue; t += x * {}LL; }}", start[d], input[d], ist[d]);
    }
    let _ = writeln!(body, "    {apply}");
    let win = if matches!(update, Update::Mark | Update::WriteLast) { ", long long* __restrict__ win" } else { "" };
    Some(format!(
        "{PRELUDE}{device_fn}extern \"C\" __global__ void {ENTRY}(long long n, const {ty}* __restrict__ upd, const {ity}* __restrict__ ind, {ty}* out0{win}) {{\n  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {{\n{body}  }}\n}}\n"
    ))
}

/// The second launch of a scatter whose updates may collide on a `set` ([`Update::WriteLast`]; None
/// for every other gather and scatter, which take one launch).
pub fn render_last_writes(func: &Func, op: &Op, ins: &[(&[i64], Kind)], out: &[i64]) -> Option<String> {
    let (OpKind::Scatter, [(input, k), (indices, ik), (updates, uk)]) = (op.kind, ins) else { return None };
    let Some(Attr::ScatterDims(s)) = op.attr("scatter_dimension_numbers") else { return None };
    if uk != k || *input != out || !matches!(Update::of(func, op, *k)?, Update::Mark) {
        return None;
    }
    render_scatter(s, input, indices, *ik, updates, *k, &Update::WriteLast)
}

/// The kernel source for a gather or scatter `op` on operands of these shapes and kinds, when handled
/// (for a colliding `set`, its first launch: [`render_last_writes`] is the second).
pub fn render_op(func: &Func, op: &Op, ins: &[(&[i64], Kind)], out: &[i64]) -> Option<String> {
    match (op.kind, ins) {
        (OpKind::Gather, [(operand, k), (indices, ik)]) => {
            let Some(Attr::GatherDims(g)) = op.attr("dimension_numbers") else { return None };
            let sizes = op.attr("slice_sizes")?.as_i64_list()?;
            render_gather(g, operand, indices, *ik, &sizes, out, k.size())
        }
        (OpKind::Scatter, [(input, k), (indices, ik), (updates, uk)]) => {
            let Some(Attr::ScatterDims(s)) = op.attr("scatter_dimension_numbers") else { return None };
            if uk != k || *input != out {
                return None;
            }
            render_scatter(s, input, indices, *ik, updates, *k, &Update::of(func, op, *k)?)
        }
        _ => None,
    }
}

/// The kernels of gather or scatter `op` on device operands `ins` with result type `rty` (the second
/// only for a colliding `set`), None when it runs on the host.
pub fn kernel(memo: &Memo, func: &Func, op: &Op, ins: &[DTensor], rty: &TensorType) -> Option<(Arc<Kernel>, Option<Arc<Kernel>>)> {
    let kind = Kind::of(&rty.elem)?;
    if !rty.is_static() || ins.first()?.kind != kind || (op.kind == OpKind::Scatter && ins.len() != 3) {
        return None;
    }
    let shapes: Vec<(&[i64], Kind)> = ins.iter().map(|d| (d.ty.shape.as_slice(), d.kind)).collect();
    let first = memo.get(op, 30, || render_op(func, op, &shapes, &rty.shape))?;
    let second = memo.get(op, 31, || render_last_writes(func, op, &shapes, &rty.shape));
    Some((first, second))
}

/// Runs gather or scatter `op`'s kernels `(src, last)` ([`kernel`]) on `ins`. A scatter updates its
/// operand's buffer in place when `ins` holds the only reference to it (a copy otherwise).
pub fn run(gpu: &Gpu, (src, last): (&Kernel, Option<&Kernel>), op: &Op, ins: Vec<DTensor>, rty: &TensorType) -> Result<DTensor, String> {
    let kind = ins[0].kind;
    let n = rty.num_elements().ok_or("a result of dynamic shape")?;
    if op.kind == OpKind::Gather {
        let mut out = [gpu.alloc_raw(kind, n)?];
        gpu.launch_scalar(src, n, &[&*ins[0].buf, &*ins[1].buf], &mut out)?;
        let [buf] = out;
        return Ok(Gpu::wrap(rty.clone(), kind, n, buf));
    }
    let mut ins = ins.into_iter();
    let (Some(operand), Some(indices), Some(updates)) = (ins.next(), ins.next(), ins.next()) else { return Err("a scatter takes three operands here".into()) };
    let buf = match Arc::try_unwrap(operand.buf) {
        Ok(own) => own,
        Err(shared) => gpu.copy_of(&DTensor { buf: shared, ..operand })?,
    };
    let Some(last) = last else {
        let mut out = [buf];
        gpu.launch_scalar(src, updates.len, &[&*updates.buf, &*indices.buf], &mut out)?;
        let [buf] = out;
        return Ok(Gpu::wrap(rty.clone(), kind, n, buf));
    };
    // Colliding `set`s: the greatest index of each target's updates, then those updates' stores.
    let mut win = gpu.alloc_raw(Kind::I64, n)?;
    gpu.zero(&mut win)?;
    let mut out = [buf, win];
    gpu.launch_scalar(src, updates.len, &[&*updates.buf, &*indices.buf], &mut out)?;
    gpu.launch_scalar(last, updates.len, &[&*updates.buf, &*indices.buf], &mut out)?;
    let [buf, _win] = out;
    Ok(Gpu::wrap(rty.clone(), kind, n, buf))
}
