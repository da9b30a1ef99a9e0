//! `stablehlo.dynamic_slice` and `stablehlo.dynamic_update_slice` on the GPU (what `lax.scan` and
//! `fori_loop` bodies read and write their stacked values with): index kernels whose start indices are
//! read on the device from their 0-d operands (no copy to the host, so a loop body stays capturable),
//! clamped as the spec says (`clamp(0, start, operand_dim - size)`). A slice is a thread a result
//! element; an update writes every result element (the operand's or the update's), or, when nothing
//! else holds the operand (a scan's stacked output, step after step), only the update's elements, in
//! the operand's own buffer ([`render_in_place`]).
//!
//! Elements move as raw bits of their size. Dynamic shapes and complex elements stay on the host.

use crate::render::{bits_type, coord_names, coords, is_int, kind_of, load, row_major_strides, storage_type, ENTRY, PRELUDE};
use oxhlo_cpu::Kind;
use oxhlo_ir::{Func, Op, OpKind};
use std::fmt::Write;

/// C statements defining `st<d>`, the clamped start of each dimension: index operand `d` read from
/// pointer `idx<d>` (of `kinds[d]`), clamped to `[0, limits[d]]`.
fn starts(kinds: &[Kind], limits: &[i64]) -> String {
    let mut s = String::new();
    for (d, (&k, &lim)) in kinds.iter().zip(limits).enumerate() {
        let v = load(k, &format!("idx{d}"), "0");
        if crate::render::is_unsigned(k) {
            let _ = writeln!(s, "    const long long st{d} = {v} > {lim}ULL ? {lim}LL : (long long){v};");
        } else {
            let _ = writeln!(s, "    const long long st{d} = {v} < 0 ? 0LL : {v} > {lim}LL ? {lim}LL : {v};");
        }
    }
    s
}

/// The in-place update kernel's role in the program's `Memo` (the out-of-place one is `item_ops`').
pub const IN_PLACE_TAG: u32 = 64;

/// What the kernels of a dynamic slice or update need from its types.
struct Form {
    /// The elements' kind (operand, update and result alike).
    kind: Kind,
    update: bool,
    /// The operand's shape (an update's result has it too).
    shape: Vec<i64>,
    /// The slice's or the update's shape: the box the start indices move.
    window: Vec<i64>,
    index_kinds: Vec<Kind>,
    /// The largest start of each dimension (`shape - window`).
    limits: Vec<i64>,
}

fn form(func: &Func, op: &Op) -> Option<Form> {
    let update = match op.kind {
        OpKind::DynamicSlice => false,
        OpKind::DynamicUpdateSlice => true,
        _ => return None,
    };
    if crate::env_off("OXHLO_CUDA_DYNAMIC_SLICES") || op.results.len() != 1 {
        return None;
    }
    let (k, shape) = kind_of(func, *op.operands.first()?)?;
    let (rk, rshape) = kind_of(func, op.results[0])?;
    let rank = shape.len();
    let first_index = if update { 2 } else { 1 };
    if rk != k || op.operands.len() != first_index + rank || rank == 0 {
        return None;
    }
    let mut index_kinds = Vec::with_capacity(rank);
    for &v in &op.operands[first_index..] {
        let (ik, ishape) = kind_of(func, v)?;
        if !ishape.is_empty() || !is_int(ik) {
            return None;
        }
        index_kinds.push(ik);
    }
    let window = if update {
        let (uk, ushape) = kind_of(func, op.operands[1])?;
        if uk != k || rshape != shape {
            return None;
        }
        ushape
    } else {
        rshape
    };
    if window.len() != rank || window.iter().zip(&shape).any(|(w, s)| w > s || *w < 0) {
        return None;
    }
    bits_type(k.size())?;
    let limits = shape.iter().zip(&window).map(|(s, w)| s - w).collect();
    Some(Form { kind: k, update, shape, window, index_kinds, limits })
}

impl Form {
    /// The kernel's opening: the prelude, the signature `(long long n, in0?, upd?, idx..., out0)`, and a
    /// grid-stride loop over `i < n` with `c<d>` the coordinates of `i` in `over` and the starts `st<d>`.
    fn open(&self, operand: bool, over: &[i64]) -> Option<String> {
        let ty = bits_type(self.kind.size())?;
        let mut params = vec!["long long n".to_string()];
        if operand {
            params.push(format!("const {ty}* __restrict__ in0"));
        }
        if self.update {
            params.push(format!("const {ty}* __restrict__ upd"));
        }
        for (d, ik) in self.index_kinds.iter().enumerate() {
            params.push(format!("const {}* __restrict__ idx{d}", storage_type(*ik)?));
        }
        params.push(format!("{ty}* __restrict__ out0"));
        let mut src = String::from(PRELUDE);
        let _ = writeln!(src, "extern \"C\" __global__ void {ENTRY}({}) {{", params.join(", "));
        let _ = writeln!(src, "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {{");
        src.push_str(&coords("i", &coord_names("c", over)));
        src.push_str(&starts(&self.index_kinds, &self.limits));
        Some(src)
    }

    /// `(c<d> + st<d>) * stride` summed: the offset in the operand of the box's element `c`.
    fn box_offset(&self) -> String {
        let strides = row_major_strides(&self.shape);
        (0..self.shape.len()).map(|d| format!("(c{d} + st{d}) * {}LL", strides[d])).collect::<Vec<_>>().join(" + ")
    }
}

/// The kernel of dynamic_slice or dynamic_update_slice `op` and its thread count (the result's
/// elements): signature `(long long n, operand, [update,] index scalars..., out)`. None when it stays on
/// the host.
pub fn render(func: &Func, op: &Op) -> Option<(String, usize)> {
    let f = form(func, op)?;
    let rshape = if f.update { &f.shape } else { &f.window };
    let n = crate::render::checked_numel(rshape)?;
    let mut src = f.open(true, rshape)?;
    if f.update {
        // Inside the update's box: its element; elsewhere the operand's.
        let inside: Vec<String> = (0..f.shape.len()).map(|d| format!("c{d} >= st{d} && c{d} < st{d} + {}LL", f.window[d])).collect();
        let ustrides = row_major_strides(&f.window);
        let at: Vec<String> = (0..f.shape.len()).map(|d| format!("(c{d} - st{d}) * {}LL", ustrides[d])).collect();
        let _ = writeln!(src, "    out0[i] = ({}) ? upd[{}] : in0[i];", inside.join(" && "), at.join(" + "));
    } else {
        let _ = writeln!(src, "    out0[i] = in0[{}];", f.box_offset());
    }
    let _ = writeln!(src, "  }}\n}}");
    Some((src, n as usize))
}

/// The in-place form of dynamic_update_slice `op` (for an operand nothing else holds: the executor
/// passes its buffer as `out0`, which already holds the operand's elements): a thread an update element
/// writing it at its place, signature `(long long n, update, index scalars..., out)`, and the update's
/// element count.
pub fn render_in_place(func: &Func, op: &Op) -> Option<(String, usize)> {
    let f = form(func, op).filter(|f| f.update)?;
    let n = crate::render::checked_numel(&f.window)?;
    let mut src = f.open(false, &f.window)?;
    let _ = writeln!(src, "    out0[{}] = upd[i];", f.box_offset());
    let _ = writeln!(src, "  }}\n}}");
    Some((src, n as usize))
}
