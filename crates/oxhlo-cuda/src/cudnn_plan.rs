//! How a StableHLO convolution maps onto one call of cuDNN's convolution API (pure shape logic, no
//! device: tested on any machine against the interpreter through a reference of cuDNN's documented
//! semantics, `tests/cudnn_plan.rs`).
//!
//! cuDNN computes one cross-correlation `y = x (*) w` (stride `s`, dilation `d`, symmetric zero padding
//! `q` per spatial dim) and its two gradients. JAX emits all three as plain `stablehlo.convolution`s:
//! - the forward pass: lhs dilation 1 -> [`Form::Forward`] (x = lhs, w = rhs, y = result);
//! - the input gradient of a strided convolution: lhs dilation `s` (the forward stride), window stride
//!   1 -> [`Form::BackwardData`] (dy = lhs, w = the rhs with its taps flipped and its features swapped,
//!   dx = result), which computes only the products that a dilated operand does not zero;
//! - the weight gradient: the activations as lhs with batch and feature roles swapped, the output
//!   gradient as the kernel, the forward stride as rhs dilation, a result that is a small window ->
//!   [`Form::BackwardFilter`] (x = lhs, dy = rhs, dw = result).
//!
//! Every tensor is described to cuDNN as a strided view (`[N, C, spatial...]` dims, any strides), so
//! no operand is permuted; filters must be packed (`KCRS` or `KRSC`) and are copied into that order
//! from the rhs (or out of it into the result) by a strided copy kernel: weights are small. Padding
//! that cuDNN's symmetric padding cannot express is absorbed into the view (a negative low padding is
//! an offset, unread trailing rows are cut) where possible, else the lhs is zero-padded explicitly
//! first; a backward-data result whose forward had more high than low padding is computed one stride
//! taller and sliced.

use crate::movement::{render_strided_units, render_zero_pad};
use crate::render::row_major_strides;
use oxhlo_ir::Op;
use oxhlo_plan::dims::ConvDims;

/// Which cuDNN call computes the convolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    Forward,
    BackwardData,
    BackwardFilter,
}

/// A cuDNN tensor over a buffer: element offset, dims `[N, C, spatial...]` and element strides.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    pub offset: i64,
    pub dims: Vec<i64>,
    pub strides: Vec<i64>,
}

/// A strided copy `out[i] = in[base + sum_d c_d * strides[d]]` over the row-major `shape`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Copy {
    pub shape: Vec<i64>,
    pub strides: Vec<i64>,
    pub base: i64,
}

/// Zero padding of the lhs before the call: `out[c] = in[c - low]` where inside, else 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ZeroPad {
    pub in_shape: Vec<i64>,
    pub low: Vec<i64>,
    pub out_shape: Vec<i64>,
}

/// One convolution as one cuDNN call, with the copies around it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CudnnPlan {
    pub form: Form,
    /// cuDNN's x (dx for backward data): over the (padded) lhs, or the result (or `ext`).
    pub x: View,
    /// cuDNN's y (dy): over the result (forward), the lhs (backward data) or the rhs (backward filter).
    pub y: View,
    /// Filter dims `[K, C/groups, taps...]`; stored `KRSC` when `nhwc`, else `KCRS`.
    pub filter: Vec<i64>,
    pub nhwc: bool,
    /// Forward / backward data: the packed filter as a copy of the rhs (None: the rhs already is it).
    pub filter_from_rhs: Option<Copy>,
    /// Backward filter: the result as a copy of the packed filter (None: the filter is the result).
    pub result_from_filter: Option<Copy>,
    /// Forward / backward filter: the lhs zero-padded first (x is then a view of the padded copy).
    pub pad: Option<ZeroPad>,
    /// Backward data: dx is computed into a taller buffer of this many elements, and the result is
    /// this copy out of it. Forward with `x_from_lhs`: y is computed into a packed NHWC buffer and
    /// the result is this copy out of it.
    pub ext: Option<(usize, Copy)>,
    /// Forward over a channels-first lhs: the lhs (its view) copied into a packed NHWC buffer first
    /// (x is then a view of it), see [`nhwc_wanted`].
    pub x_from_lhs: Option<Copy>,
    pub pads: Vec<i64>,
    pub strides: Vec<i64>,
    pub dilations: Vec<i64>,
    pub groups: i64,
}

/// The view of one spatial dim of cuDNN's x for a forward-style access `x[p*s + r*d - lo]` (`p <
/// out`, `r < taps`) of an operand of size `size` with padding `(lo, hi)`: `(offset, size', q)` with
/// cuDNN padding `q` on both sides, when that reads exactly the operand's values and zeros, and gives
/// exactly `out` outputs.
fn view_dim(size: i64, (lo, _hi): (i64, i64), out: i64, taps: i64, s: i64, d: i64) -> Option<(i64, i64, i64)> {
    let q = lo.max(0);
    let off = (-lo).max(0);
    let eff = (taps - 1) * d + 1;
    // The last view position read (before cuDNN's padding).
    let last = (out - 1) * s + (taps - 1) * d - q;
    let full = size - off;
    if full < 1 {
        return None;
    }
    // Reads past the view must be zeros of the operand: either the view is the full operand, or
    // nothing past it is read.
    // The full operand first: packed views are what cuDNN's kernels support best.
    let start = (last + 1).clamp(1, full);
    (start..=full).rev().find(|&h| h + 2 * q >= eff && (h + 2 * q - eff) / s + 1 == out).map(|h| (off, h, q))
}

fn fits_i32(v: &[i64]) -> bool {
    v.iter().all(|&x| (0..=i32::MAX as i64).contains(&x))
}

impl CudnnPlan {
    /// The plan of `op` with operands of these shapes and a result of `out`, when cuDNN can compute it.
    pub fn new(op: &Op, lhs: &[i64], rhs: &[i64], out: &[i64]) -> Option<CudnnPlan> {
        let dims = ConvDims::from_op(op, lhs.len(), None).ok()?;
        if rhs.len() != lhs.len() || out.len() != lhs.len() || dims.batch_group_count != 1 {
            return None;
        }
        let sp = dims.spatial();
        if !(1..=3).contains(&sp) || [lhs, rhs, out].iter().any(|s| s.iter().any(|&d| d <= 0)) {
            return None;
        }
        let plan = if dims.lhs_dilation.iter().any(|&l| l > 1) {
            backward_data(&dims, lhs, rhs, out)?
        } else {
            let out_window: i64 = dims.output_spatial.iter().map(|&d| out[d]).product();
            let rhs_window: i64 = dims.kernel_spatial.iter().map(|&d| rhs[d]).product();
            if out_window < rhs_window && dims.feature_group_count == 1 && !dims.window_reversal.iter().any(|&r| r) {
                backward_filter(&dims, lhs, rhs, out)?
            } else {
                forward(&dims, lhs, rhs, out)?
            }
        };
        plan.with_two_spatial_dims().checked()
    }

    /// cuDNN's legacy API takes 4-d or 5-d tensors: a 1-d convolution gets a unit second spatial dim.
    fn with_two_spatial_dims(mut self) -> CudnnPlan {
        if self.filter.len() == 3 {
            for v in [&mut self.x, &mut self.y] {
                v.dims.push(1);
                v.strides.push(1);
            }
            self.filter.push(1);
            self.pads.push(0);
            self.strides.push(1);
            self.dilations.push(1);
        }
        self
    }

    fn checked(self) -> Option<CudnnPlan> {
        let elems = |v: &View| v.dims.iter().product::<i64>();
        let ok = fits_i32(&self.x.dims)
            && fits_i32(&self.x.strides)
            && fits_i32(&self.y.dims)
            && fits_i32(&self.y.strides)
            && fits_i32(&self.filter)
            && elems(&self.x) < i32::MAX as i64
            && elems(&self.y) < i32::MAX as i64;
        ok.then_some(self)
    }

    /// The packed filter's element count.
    pub fn filter_len(&self) -> usize {
        self.filter.iter().product::<i64>() as usize
    }

    /// Every helper kernel the plan launches (filter and result copies, zero padding, the slice out of
    /// a taller dx), for elements of `elem_bytes`.
    pub fn kernels(&self, elem_bytes: usize) -> Vec<String> {
        let mut out = Vec::new();
        for c in [&self.filter_from_rhs, &self.result_from_filter, &self.ext.as_ref().map(|e| e.1.clone()), &self.x_from_lhs].into_iter().flatten() {
            out.extend(match batched_transpose(c) {
                Some(_) => crate::movement::render_transpose_tiles(elem_bytes),
                None => render_strided_units(&c.shape, &c.strides, c.base, elem_bytes).map(|(s, _)| s),
            });
        }
        if let Some(p) = &self.pad {
            out.extend(render_zero_pad(&p.in_shape, &p.out_shape, &p.low, elem_bytes).map(|(s, _)| s));
        }
        out
    }
}

/// The packed filter's memory order as `[K, C, taps...]` positions: KRSC when `nhwc`, else KCRS.
fn filter_order(taps: usize, nhwc: bool) -> Vec<usize> {
    if nhwc {
        std::iter::once(0).chain(2..2 + taps).chain(std::iter::once(1)).collect()
    } else {
        (0..2 + taps).collect()
    }
}

/// The packed filter (dims `filter`, `[K, C, taps...]`) read from a tensor: `src_strides` and `flip`
/// per `[K, C, taps...]` position. None when it already is that tensor.
fn filter_copy(filter: &[i64], src_strides: &[i64], flip: &[bool], nhwc: bool) -> Option<Copy> {
    let order = filter_order(filter.len() - 2, nhwc);
    let mut base = 0;
    let mut shape = Vec::new();
    let mut strides = Vec::new();
    for &p in &order {
        shape.push(filter[p]);
        if flip[p] {
            base += (filter[p] - 1) * src_strides[p];
            strides.push(-src_strides[p]);
        } else {
            strides.push(src_strides[p]);
        }
    }
    (base != 0 || strides != row_major_strides(&shape)).then_some(Copy { shape, strides, base })
}

/// The packed filter `[K, C, taps...]` of the rhs, its K and C being the rhs dims `(k_dim, c_dim)` and its
/// taps the kernel's spatial dims, each tap dim flipped where `flip(window_reversal)` says: the filter's
/// dims and the copy that makes it (None when the rhs already is it).
fn rhs_filter(dims: &ConvDims, rhs: &[i64], (k_dim, c_dim): (usize, usize), flip: impl Fn(bool) -> bool, nhwc: bool) -> (Vec<i64>, Option<Copy>) {
    let order: Vec<usize> = [k_dim, c_dim].into_iter().chain(dims.kernel_spatial.iter().copied()).collect();
    let filter: Vec<i64> = order.iter().map(|&d| rhs[d]).collect();
    let rst = row_major_strides(rhs);
    let src: Vec<i64> = order.iter().map(|&d| rst[d]).collect();
    let flips: Vec<bool> = [false, false].into_iter().chain(dims.window_reversal.iter().map(|&r| flip(r))).collect();
    let copy = filter_copy(&filter, &src, &flips, nhwc);
    (filter, copy)
}

/// A view `[N, C, spatial...]` of a row-major tensor of `shape` with these role dims.
fn view(shape: &[i64], n: usize, c: usize, spatial: &[usize]) -> View {
    let st = row_major_strides(shape);
    View {
        offset: 0,
        dims: std::iter::once(n).chain(std::iter::once(c)).chain(spatial.iter().copied()).map(|d| shape[d]).collect(),
        strides: std::iter::once(n).chain(std::iter::once(c)).chain(spatial.iter().copied()).map(|d| st[d]).collect(),
    }
}

/// x for forward-style access of the lhs along its spatial dims (`outs`, `taps`, `s`, `d` per dim):
/// a view with offsets and cut rows, or a zero-padded copy.
#[allow(clippy::too_many_arguments)]
fn x_view(lhs: &[i64], n: usize, c: usize, spatial: &[usize], padding: &[(i64, i64)], outs: &[i64], taps: &[i64], s: &[i64], d: &[i64]) -> Option<(View, Vec<i64>, Option<ZeroPad>)> {
    let k = spatial.len();
    let fitted: Option<Vec<(i64, i64, i64)>> = (0..k).map(|i| view_dim(lhs[spatial[i]], padding[i], outs[i], taps[i], s[i], d[i])).collect();
    let (shape, fitted, pad) = match fitted {
        Some(f) => (lhs.to_vec(), f, None),
        None => {
            let mut padded = lhs.to_vec();
            let mut low = vec![0; lhs.len()];
            for i in 0..k {
                padded[spatial[i]] = lhs[spatial[i]] + padding[i].0 + padding[i].1;
                low[spatial[i]] = padding[i].0;
            }
            let f: Vec<(i64, i64, i64)> = (0..k).map(|i| view_dim(padded[spatial[i]], (0, 0), outs[i], taps[i], s[i], d[i])).collect::<Option<_>>()?;
            (padded.clone(), f, Some(ZeroPad { in_shape: lhs.to_vec(), low, out_shape: padded }))
        }
    };
    let mut v = view(&shape, n, c, spatial);
    for (i, &(off, size, _)) in fitted.iter().enumerate() {
        v.offset += off * v.strides[2 + i];
        v.dims[2 + i] = size;
    }
    Some((v, fitted.iter().map(|f| f.2).collect(), pad))
}

fn forward(dims: &ConvDims, lhs: &[i64], rhs: &[i64], out: &[i64]) -> Option<CudnnPlan> {
    let groups = dims.feature_group_count as i64;
    let (k, c) = (rhs[dims.kernel_output_feature], rhs[dims.kernel_input_feature]);
    if c * groups != lhs[dims.input_feature] || k % groups != 0 || out[dims.output_feature] != k || out[dims.output_batch] != lhs[dims.input_batch] {
        return None;
    }
    let taps: Vec<i64> = dims.kernel_spatial.iter().map(|&d| rhs[d]).collect();
    let outs: Vec<i64> = dims.output_spatial.iter().map(|&d| out[d]).collect();
    let (x, pads, pad) = x_view(lhs, dims.input_batch, dims.input_feature, &dims.input_spatial, &dims.padding, &outs, &taps, &dims.window_strides, &dims.rhs_dilation)?;
    let mut y = view(out, dims.output_batch, dims.output_feature, &dims.output_spatial);
    let (mut x, mut x_from_lhs, mut ext) = (x, None, None);
    let to_nhwc = x.strides[1] != 1 && pad.is_none() && nhwc_wanted(groups, c, k, dims.spatial());
    if to_nhwc {
        // x and y as packed NHWC buffers: the lhs copied in first, the result copied out after.
        let (xc, xv) = to_packed_nhwc(&x);
        x = xv;
        x_from_lhs = Some(xc);
        let (_, yv) = to_packed_nhwc(&y);
        let len = yv.dims.iter().product::<i64>() as usize;
        ext = Some((len, from_packed(&yv, out, dims.output_batch, dims.output_feature, &dims.output_spatial)));
        y = yv;
    }
    let nhwc = x.strides[1] == 1;
    let (filter, filter_from_rhs) = rhs_filter(dims, rhs, (dims.kernel_output_feature, dims.kernel_input_feature), |r| r, nhwc);
    Some(CudnnPlan {
        form: Form::Forward,
        x,
        y,
        filter_from_rhs,
        filter,
        nhwc,
        result_from_filter: None,
        pad,
        ext,
        x_from_lhs,
        pads,
        strides: dims.window_strides.clone(),
        dilations: dims.rhs_dilation.clone(),
        groups,
    })
}

/// Whether a forward convolution over a channels-first lhs runs on NHWC copies of x and y (cuDNN's
/// NHWC tensor-core kernels; on NCHW descriptors it took an sm80 kernel plus two conversions of its own:
/// 32x64x56x56 3x3, 61 + 18 us): 2-d, ungrouped, channels a multiple of 4; `OXHLO_CUDNN_NHWC=0` turns
/// it off (read once).
pub fn nhwc_wanted(groups: i64, c: i64, k: i64, spatial: usize) -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let on = *ON.get_or_init(|| !std::env::var("OXHLO_CUDNN_NHWC").is_ok_and(|v| v.trim() == "0"));
    on && groups == 1 && spatial == 2 && c % 4 == 0 && k % 4 == 0
}

/// `(batch, rows, cols)` when the copy `c` is a batched transpose of a row-major `[batch, rows, cols]`
/// input (`out[b][j][i] = in[b][i][j]`): NCHW -> NHWC (`[N, H, W, C]` out of `[N, C, H*W]`) and NHWC ->
/// NCHW (`[N, K, P, Q]` out of `[N, P*Q, K]`), the copies around a channels-first convolution.
pub fn batched_transpose(c: &Copy) -> Option<(i64, i64, i64)> {
    let (s, t) = (&c.shape, &c.strides);
    if c.base != 0 || s.len() != 4 {
        return None;
    }
    let (n, a, b, d) = (s[0], s[1], s[2], s[3]);
    if t[..] == [a * b * d, b, 1, a * b] {
        return Some((n, d, a * b));
    }
    if t[..] == [a * b * d, 1, d * a, a] {
        return Some((n, b * d, a));
    }
    None
}

/// A view `[N, C, spatial...]` moved into a packed NHWC buffer: the copy filling it from the view
/// (its elements in `[N, spatial..., C]` order) and the view over it.
fn to_packed_nhwc(v: &View) -> (Copy, View) {
    let k = v.dims.len();
    let order: Vec<usize> = std::iter::once(0).chain(2..k).chain(std::iter::once(1)).collect();
    let shape: Vec<i64> = order.iter().map(|&p| v.dims[p]).collect();
    let copy = Copy { shape: shape.clone(), strides: order.iter().map(|&p| v.strides[p]).collect(), base: v.offset };
    let packed = row_major_strides(&shape);
    let mut strides = vec![0; k];
    for (i, &p) in order.iter().enumerate() {
        strides[p] = packed[i];
    }
    (copy, View { offset: 0, dims: v.dims.clone(), strides })
}

/// The copy of a row-major tensor of `shape` (batch, feature and spatial roles at these dims) out of
/// a packed NHWC view `v` of the same values.
fn from_packed(v: &View, shape: &[i64], n: usize, c: usize, spatial: &[usize]) -> Copy {
    let mut strides = vec![0; shape.len()];
    strides[n] = v.strides[0];
    strides[c] = v.strides[1];
    for (i, &d) in spatial.iter().enumerate() {
        strides[d] = v.strides[2 + i];
    }
    Copy { shape: shape.to_vec(), strides, base: 0 }
}

fn backward_data(dims: &ConvDims, lhs: &[i64], rhs: &[i64], out: &[i64]) -> Option<CudnnPlan> {
    if dims.feature_group_count != 1 || dims.window_strides.iter().any(|&s| s != 1) {
        return None;
    }
    // dy = lhs [N, K, P], w = rhs with K = its input feature, C = its output feature, dx = result.
    let (k, c) = (rhs[dims.kernel_input_feature], rhs[dims.kernel_output_feature]);
    if lhs[dims.input_feature] != k || out[dims.output_feature] != c || out[dims.output_batch] != lhs[dims.input_batch] {
        return None;
    }
    let sp = dims.spatial();
    let mut pads = Vec::new();
    let mut ext_shape = out.to_vec();
    for i in 0..sp {
        let (s, d) = (dims.lhs_dilation[i], dims.rhs_dilation[i]);
        let taps = rhs[dims.kernel_spatial[i]];
        let p = lhs[dims.input_spatial[i]];
        let h = out[dims.output_spatial[i]];
        // The forward convolution's low padding; cuDNN pads it on both sides.
        let q = (taps - 1) * d - dims.padding[i].0;
        if q < 0 {
            return None;
        }
        let eff = (taps - 1) * d + 1;
        let extra = (0..s).find(|&e| h + e + 2 * q >= eff && (h + e + 2 * q - eff) / s + 1 == p)?;
        ext_shape[dims.output_spatial[i]] = h + extra;
        pads.push(q);
    }
    let x = view(&ext_shape, dims.output_batch, dims.output_feature, &dims.output_spatial);
    let nhwc = x.strides[1] == 1;
    // cuDNN's backward data correlates with the forward filter, which is the rhs flipped (unless the
    // convolution flips it itself).
    let (filter, filter_from_rhs) = rhs_filter(dims, rhs, (dims.kernel_input_feature, dims.kernel_output_feature), |r| !r, nhwc);
    let ext = (ext_shape.as_slice() != out).then(|| (ext_shape.iter().product::<i64>() as usize, Copy { shape: out.to_vec(), strides: row_major_strides(&ext_shape), base: 0 }));
    Some(CudnnPlan {
        form: Form::BackwardData,
        x,
        y: view(lhs, dims.input_batch, dims.input_feature, &dims.input_spatial),
        filter_from_rhs,
        filter,
        nhwc,
        result_from_filter: None,
        pad: None,
        ext,
        x_from_lhs: None,
        pads,
        strides: dims.lhs_dilation.clone(),
        dilations: dims.rhs_dilation.clone(),
        groups: 1,
    })
}

fn backward_filter(dims: &ConvDims, lhs: &[i64], rhs: &[i64], out: &[i64]) -> Option<CudnnPlan> {
    // x = lhs with N = its feature dim and C = its batch dim; dy = rhs with N = its input feature and K
    // = its output feature; dw[K, C, taps] = the result (feature = K, batch = C, spatial = taps).
    let (n, c, k) = (lhs[dims.input_feature], lhs[dims.input_batch], rhs[dims.kernel_output_feature]);
    if rhs[dims.kernel_input_feature] != n || out[dims.output_feature] != k || out[dims.output_batch] != c {
        return None;
    }
    let taps: Vec<i64> = dims.output_spatial.iter().map(|&d| out[d]).collect();
    let outs: Vec<i64> = dims.kernel_spatial.iter().map(|&d| rhs[d]).collect();
    // The forward stride is this convolution's rhs dilation, the forward dilation its window stride.
    let (s, d) = (&dims.rhs_dilation, &dims.window_strides);
    let (x, pads, pad) = x_view(lhs, dims.input_feature, dims.input_batch, &dims.input_spatial, &dims.padding, &outs, &taps, s, d)?;
    let nhwc = x.strides[1] == 1;
    let filter: Vec<i64> = [k, c].into_iter().chain(taps.iter().copied()).collect();
    // Strides of the packed filter per [K, C, taps...] position, then per result dim.
    let order = filter_order(taps.len(), nhwc);
    let stored: Vec<i64> = order.iter().map(|&p| filter[p]).collect();
    let sst = row_major_strides(&stored);
    let mut pos_stride = vec![0; filter.len()];
    for (i, &p) in order.iter().enumerate() {
        pos_stride[p] = sst[i];
    }
    let mut strides = vec![0; out.len()];
    strides[dims.output_feature] = pos_stride[0];
    strides[dims.output_batch] = pos_stride[1];
    for (i, &dim) in dims.output_spatial.iter().enumerate() {
        strides[dim] = pos_stride[2 + i];
    }
    let result_from_filter = (strides != row_major_strides(out)).then(|| Copy { shape: out.to_vec(), strides, base: 0 });
    Some(CudnnPlan {
        form: Form::BackwardFilter,
        x,
        y: view(rhs, dims.kernel_input_feature, dims.kernel_output_feature, &dims.kernel_spatial),
        filter,
        nhwc,
        filter_from_rhs: None,
        result_from_filter,
        pad,
        ext: None,
        x_from_lhs: None,
        pads,
        strides: s.clone(),
        dilations: d.clone(),
        groups: 1,
    })
}

/// Plans of a convolution `op` (operand shapes `ls`, `rs`, result `out`) with their helper kernels,
/// for `kernels.rs`: the kernels a cuDNN convolution launches.
pub fn helper_kernels(op: &Op, ls: &[i64], rs: &[i64], out: &[i64], elem_bytes: usize) -> Option<Vec<String>> {
    CudnnPlan::new(op, ls, rs, out).map(|p| p.kernels(elem_bytes))
}
