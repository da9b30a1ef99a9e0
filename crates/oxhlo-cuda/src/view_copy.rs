//! View copies on the GPU ([`oxhlo_plan::view_copy`]): one kernel launch writes a chain of slice /
//! reshape / transpose ops, or a concatenation of such chains, reading every piece's source through its
//! composed strided view and writing it through its view of the result. Pieces whose innermost runs,
//! strides and offsets fill 16-, 8- or 4-byte units move whole units. Extents and strides are literals
//! of the source; the pieces' offsets are launch scalars (the q, k and v copies of a fused projection
//! share one kernel).

use crate::device::{DTensor, Gpu, Kernel};
use crate::render::{append_scalars, bits_type, coord_names, coords, PRELUDE, ENTRY};
use oxhlo_ir::TensorType;
use oxhlo_plan::view_copy::{Piece, View, ViewCopy};
use std::fmt::Write;

/// A view copy as the CUDA plan keeps it: the copy and its kernel, rendered once when it was planned
/// (`kernels::plan_view_copies`). Reads as the [`ViewCopy`] it holds.
pub struct PlannedCopy {
    pub copy: ViewCopy,
    /// The kernel's source ([`render`]) and its work items.
    pub src: String,
    pub items: i64,
}

impl std::ops::Deref for PlannedCopy {
    type Target = ViewCopy;
    fn deref(&self) -> &ViewCopy {
        &self.copy
    }
}

/// The widest unit (bytes) that every piece's views allow: innermost dims of stride 1 on both sides
/// whose extents, the other strides and the offsets are whole units.
fn unit(copy: &ViewCopy) -> usize {
    let b = copy.elem_bytes as i64;
    let fits = |u: i64| {
        copy.pieces.iter().all(|p| {
            let l = p.from.shape.len();
            l > 0
                && p.from.strides[l - 1] == 1
                && p.to.strides[l - 1] == 1
                && (p.from.shape[l - 1] * b) % u == 0
                && [&p.from, &p.to].iter().all(|v| (v.base * b) % u == 0 && v.strides[..l - 1].iter().all(|&s| (s * b) % u == 0))
        })
    };
    [16i64, 8, 4].into_iter().find(|&u| u > b && fits(u)).map_or(copy.elem_bytes, |u| u as usize)
}

/// `v` counted in units of `per` elements (innermost extent, other strides and the base divided).
fn in_units(v: &View, per: i64) -> View {
    let l = v.shape.len() - 1;
    let mut w = v.clone();
    w.shape[l] /= per;
    for (d, s) in w.strides.iter_mut().enumerate() {
        if d != l {
            *s /= per;
        }
    }
    w.base /= per;
    w
}

/// The kernel of `copy` (`(long long n, long long oxs.., const T* in.., T* out0)`, one work item per
/// unit, pieces one after another) and its number of work items.
pub fn render(copy: &ViewCopy) -> Option<(String, i64)> {
    if copy.pieces.is_empty() || copy.pieces.iter().any(|p| p.from.shape != p.to.shape || p.from.shape.is_empty()) {
        return None;
    }
    let u = unit(copy);
    let ty = bits_type(u)?;
    let per = (u / copy.elem_bytes) as i64;
    let pieces: Vec<(View, View)> = copy.pieces.iter().map(|Piece { from, to, .. }| (in_units(from, per), in_units(to, per))).collect();
    let mut params: Vec<String> = (0..2 * pieces.len()).map(|j| format!("long long oxs{j}")).collect();
    params.extend((0..pieces.len()).map(|k| format!("const {ty}* __restrict__ in{k}")));
    params.push(format!("{ty}* __restrict__ out0"));
    let mut body = String::new();
    let (mut start, mut bases) = (0i64, Vec::new());
    for (k, (from, to)) in pieces.iter().enumerate() {
        let n = crate::render::checked_numel(&from.shape)?;
        let end = start.checked_add(n)?;
        let names = coord_names("c", &from.shape);
        let at = |v: &View, base: String| {
            let mut t = vec![base];
            t.extend(v.strides.iter().enumerate().filter(|(_, &s)| s != 0).map(|(d, s)| format!("c{d} * {s}LL")));
            t.join(" + ")
        };
        let _ = writeln!(body, "    if (i < {end}LL) {{\n      const long long j = i - {start}LL;");
        body.push_str(&coords("j", &names));
        let _ = writeln!(body, "      out0[{}] = in{k}[{}];\n      continue;\n    }}", at(to, format!("oxs{}", 2 * k + 1)), at(from, format!("oxs{}", 2 * k)));
        bases.extend([from.base, to.base]);
        start = end;
    }
    let mut src = format!(
        "{PRELUDE}extern \"C\" __global__ void {ENTRY}(long long n, {}) {{\n  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {{\n{body}  }}\n}}\n",
        params.join(", ")
    );
    append_scalars(&mut src, &bases);
    Some((src, start))
}

/// Runs `copy` with its kernel `src` (from [`render`], `items` work items) on the pieces' sources
/// `ins` (in piece order) into a new tensor of type `rty`.
pub fn run(gpu: &Gpu, src: &Kernel, items: i64, ins: &[DTensor], rty: &TensorType) -> Result<DTensor, String> {
    let kind = oxhlo_cpu::Kind::of(&rty.elem).ok_or("view copy: element type without a device layout")?;
    let n = rty.num_elements().ok_or("view copy: dynamic result")?;
    let mut out = [gpu.alloc_raw(kind, n)?];
    let bufs: Vec<_> = ins.iter().map(|d| &**d.buf).collect();
    gpu.launch_scalar(src, items.max(0) as usize, &bufs, &mut out)?;
    let [buf] = out;
    Ok(Gpu::wrap(rty.clone(), kind, n, buf))
}
