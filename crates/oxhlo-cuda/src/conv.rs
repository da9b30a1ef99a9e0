//! Convolution on the GPU by im2col + cuBLAS GEMM, for any dimension numbers, strides, padding
//! (negative too), lhs and rhs dilation and window reversal: the forms JAX emits for the forward pass
//! and both gradients. Three device steps:
//! 1. an im2col kernel writes `A[m, k]` (rows: batch x output positions; contraction: window taps x
//!    input features; zero where a tap falls on padding or a dilation hole), or `A^T[k, m]` when the
//!    operand's innermost dim is a row dim (see [`ConvPlan`]);
//! 2. the kernel is laid out as `B[k, co]` (taps reversed where asked; no copy when it already is, as
//!    HWIO kernels and weight-gradient operands are), then `C[m, co] = A x B` on cuBLAS (TF32 for
//!    DEFAULT-precision f32 where the program allows it, as for dots);
//! 3. `C` is permuted into the result's dimension order (no copy for NHWC results and HWIO weight
//!    gradients).
//!
//! Feature or batch group counts above 1 and element types cuBLAS has no GEMM for return `None` (host).

use crate::device::{DTensor, Gpu, Memo};
use crate::movement::render_strided;
use crate::render::{coords, row_major_strides, ENTRY, PRELUDE};
use oxhlo_cpu::Kind;
use oxhlo_ir::attr::Precision;
use oxhlo_ir::{Op, TensorType};
use oxhlo_plan::dims::ConvDims;
use std::fmt::Write;

/// A dimension of the GEMM's contraction: a window tap dim or the input feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KDim {
    Window(usize),
    Feature,
}

/// A dimension of the GEMM's rows: the batch or an output spatial dim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MDim {
    Batch,
    Out(usize),
}

/// The shapes and layouts of a convolution's GEMM: `C[m, co] = A[m, k] x B[k, co]` with rows `m` over
/// `m_order` and contraction `k` over `k_order`. The contraction follows the kernel's own dimension
/// order (so that B is the kernel itself where possible); A is stored transposed (`A^T[k, m]`) when the
/// operand's innermost dim is a row dim (batch or spatial: weight gradients, NCHW inputs), so that
/// im2col reads and writes along that dim, coalesced, in either case.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvPlan {
    pub dims: ConvDims,
    pub batch: i64,
    pub in_features: i64,
    pub out_features: i64,
    pub in_spatial: Vec<i64>,
    pub window: Vec<i64>,
    pub out_spatial: Vec<i64>,
    pub k_order: Vec<KDim>,
    pub m_order: Vec<MDim>,
    pub a_transposed: bool,
}

impl ConvPlan {
    /// The plan of `op` with operands of these shapes and a result of `out`, when supported.
    pub fn new(op: &Op, lhs: &[i64], rhs: &[i64], out: &[i64]) -> Option<ConvPlan> {
        let dims = ConvDims::from_op(op, lhs.len(), None).ok()?;
        if dims.feature_group_count != 1 || dims.batch_group_count != 1 || rhs.len() != lhs.len() || out.len() != lhs.len() {
            return None;
        }
        let s = dims.spatial();
        let inner = lhs.len() - 1;
        let mut k_order: Vec<(usize, KDim)> = (0..s).map(|k| (dims.kernel_spatial[k], KDim::Window(k))).collect();
        k_order.push((dims.kernel_input_feature, KDim::Feature));
        k_order.sort_unstable_by_key(|x| x.0);
        let mut k_order: Vec<KDim> = k_order.into_iter().map(|x| x.1).collect();
        let mut m_order: Vec<MDim> = std::iter::once(MDim::Batch).chain((0..s).map(MDim::Out)).collect();
        let a_transposed = if inner == dims.input_feature {
            // Features innermost: A[m, k] with the feature last in k (B is copied if that reorders it).
            if k_order.last() != Some(&KDim::Feature) {
                k_order.retain(|&d| d != KDim::Feature);
                k_order.push(KDim::Feature);
            }
            false
        } else if inner == dims.input_batch {
            m_order = (0..s).map(MDim::Out).chain(std::iter::once(MDim::Batch)).collect();
            true
        } else {
            let k = dims.input_spatial.iter().position(|&d| d == inner)?;
            m_order.retain(|&d| d != MDim::Out(k));
            m_order.push(MDim::Out(k));
            true
        };
        let plan = ConvPlan {
            batch: lhs[dims.input_batch],
            in_features: lhs[dims.input_feature],
            out_features: rhs[dims.kernel_output_feature],
            in_spatial: dims.input_spatial.iter().map(|&d| lhs[d]).collect(),
            window: dims.kernel_spatial.iter().map(|&d| rhs[d]).collect(),
            out_spatial: dims.output_spatial.iter().map(|&d| out[d]).collect(),
            dims,
            k_order,
            m_order,
            a_transposed,
        };
        let d = &plan.dims;
        let ok = rhs[d.kernel_input_feature] == plan.in_features
            && out[d.output_batch] == plan.batch
            && out[d.output_feature] == plan.out_features
            && (0..s).all(|k| d.output_size(k, plan.in_spatial[k], plan.window[k]) == plan.out_spatial[k]);
        ok.then_some(plan)
    }

    pub fn m(&self) -> i64 {
        self.batch * self.out_spatial.iter().product::<i64>()
    }
    pub fn k(&self) -> i64 {
        self.window.iter().product::<i64>() * self.in_features
    }
    fn m_size(&self, d: MDim) -> i64 {
        match d {
            MDim::Batch => self.batch,
            MDim::Out(k) => self.out_spatial[k],
        }
    }
    fn k_size(&self, d: KDim) -> i64 {
        match d {
            KDim::Window(k) => self.window[k],
            KDim::Feature => self.in_features,
        }
    }

    /// Elements each im2col thread moves: 4 (one 16- or 8-byte access) when the stored layout's innermost
    /// dim is the operand's contiguous one (features of NHWC inputs, or the batch role of weight
    /// gradients), of a size divisible by 4, for 2- and 4-byte elements; else 1.
    pub fn im2col_width(&self, lhs: &[i64], elem_bytes: usize) -> usize {
        let d = &self.dims;
        let inner = lhs.len() - 1;
        let contiguous = if self.a_transposed {
            self.m_order.last() == Some(&MDim::Batch) && inner == d.input_batch && self.batch % 4 == 0
        } else {
            self.k_order.last() == Some(&KDim::Feature) && inner == d.input_feature && self.in_features % 4 == 0
        };
        if contiguous && matches!(elem_bytes, 2 | 4) {
            4
        } else {
            1
        }
    }

    /// The im2col kernel `(long long n, const T* in0 /*lhs*/, T* out0 /*A or A^T*/)` over `m * k`
    /// elements, or over `m * k / 4` groups of 4 when [`ConvPlan::im2col_width`] is 4 (`n` then counts
    /// groups).
    pub fn render_im2col(&self, lhs: &[i64], elem_bytes: usize) -> Option<String> {
        let width = self.im2col_width(lhs, elem_bytes);
        let ty = match elem_bytes {
            2 => "unsigned short",
            4 => "unsigned int",
            8 => "unsigned long long",
            _ => return None,
        };
        let d = &self.dims;
        let s = d.spatial();
        let lst = row_major_strides(lhs);
        let name_m = |x: &MDim| match x {
            MDim::Batch => "bn".to_string(),
            MDim::Out(k) => format!("o{k}"),
        };
        let name_k = |x: &KDim| match x {
            KDim::Window(k) => format!("w{k}"),
            KDim::Feature => "c".to_string(),
        };
        // The stored layout, outermost first.
        let mut coords_of: Vec<(String, i64)> = Vec::new();
        let ms = self.m_order.iter().map(|x| (name_m(x), self.m_size(*x)));
        let ks = self.k_order.iter().map(|x| (name_k(x), self.k_size(*x)));
        if self.a_transposed {
            coords_of.extend(ks);
            coords_of.extend(ms);
        } else {
            coords_of.extend(ms);
            coords_of.extend(ks);
        }
        let mut body = if width == 4 { format!("    const long long i = g * 4;\n{}", coords("i", &coords_of)) } else { coords("i", &coords_of) };
        let _ = writeln!(body, "    long long src = bn * {}LL + c * {}LL; bool inside = true;", lst[d.input_batch], lst[d.input_feature]);
        for k in 0..s {
            let (lo, _) = d.padding[k];
            let ld = d.lhs_dilation[k];
            let _ = writeln!(body, "    {{ const long long p = o{k} * {}LL + w{k} * {}LL - ({lo}LL);", d.window_strides[k], d.rhs_dilation[k]);
            if ld == 1 {
                let _ = writeln!(body, "      if (p < 0 || p >= {}LL) inside = false; else src += p * {}LL; }}", self.in_spatial[k], lst[d.input_spatial[k]]);
            } else {
                let _ = writeln!(
                    body,
                    "      if (p < 0 || p % {ld}LL != 0 || p / {ld}LL >= {}LL) inside = false; else src += (p / {ld}LL) * {}LL; }}",
                    self.in_spatial[k], lst[d.input_spatial[k]]
                );
            }
        }
        let var = if width == 4 {
            // Four contiguous elements (the innermost coordinate is a multiple of 4, every other stride a
            // multiple of 4 elements): one aligned vector access each way.
            let v = if elem_bytes == 4 { "uint4" } else { "uint2" };
            let zero = if elem_bytes == 4 { "make_uint4(0u, 0u, 0u, 0u)" } else { "make_uint2(0u, 0u)" };
            let _ = writeln!(body, "    reinterpret_cast<{v}*>(out0)[g] = inside ? *reinterpret_cast<const {v}*>(in0 + src) : {zero};");
            "g"
        } else {
            let _ = writeln!(body, "    out0[i] = inside ? in0[src] : ({ty})0;");
            "i"
        };
        Some(format!(
            "{PRELUDE}extern \"C\" __global__ void {ENTRY}(long long n, const {ty}* __restrict__ in0, {ty}* __restrict__ out0) {{\n  for (long long {var} = (long long)blockIdx.x * blockDim.x + threadIdx.x; {var} < n; {var} += (long long)gridDim.x * blockDim.x) {{\n{body}  }}\n}}\n"
        ))
    }

    /// The kernel as `B[k, co]` (k over `k_order`): shape, strides into the kernel and base offset (taps
    /// reversed where the window is), and whether that is the kernel's own layout (no copy needed).
    pub fn kernel_layout(&self, rhs: &[i64]) -> (Vec<i64>, Vec<i64>, i64, bool) {
        let d = &self.dims;
        let rst = row_major_strides(rhs);
        let mut shape = Vec::new();
        let mut strides = Vec::new();
        let mut base = 0;
        for x in &self.k_order {
            match *x {
                KDim::Window(k) => {
                    shape.push(self.window[k]);
                    if d.window_reversal[k] {
                        base += (self.window[k] - 1).max(0) * rst[d.kernel_spatial[k]];
                        strides.push(-rst[d.kernel_spatial[k]]);
                    } else {
                        strides.push(rst[d.kernel_spatial[k]]);
                    }
                }
                KDim::Feature => {
                    shape.push(self.in_features);
                    strides.push(rst[d.kernel_input_feature]);
                }
            }
        }
        shape.push(self.out_features);
        strides.push(rst[d.kernel_output_feature]);
        let identity = base == 0 && strides == row_major_strides(&shape);
        (shape, strides, base, identity)
    }

    /// `C[m, co]` (m over `m_order`) read in the result's dimension order: strides per result dim into
    /// C, and whether C already is the result's layout.
    pub fn output_layout(&self, out: &[i64]) -> (Vec<i64>, bool) {
        let d = &self.dims;
        let mut stride = self.out_features;
        let mut strides = vec![0i64; out.len()];
        strides[d.output_feature] = 1;
        for x in self.m_order.iter().rev() {
            match *x {
                MDim::Batch => strides[d.output_batch] = stride,
                MDim::Out(k) => strides[d.output_spatial[k]] = stride,
            }
            stride *= self.m_size(*x);
        }
        let identity = strides == row_major_strides(out);
        (strides, identity)
    }
}

/// Runs a convolution on the GPU when its plan and types are supported.
pub fn try_conv(gpu: &Gpu, memo: &Memo, op: &Op, lhs: &DTensor, rhs: &DTensor, rty: &TensorType, tf32: bool) -> Option<Result<DTensor, String>> {
    let rk = Kind::of(&rty.elem)?;
    let ok = matches!(
        (lhs.kind, rhs.kind, rk),
        (Kind::F32, Kind::F32, Kind::F32) | (Kind::F64, Kind::F64, Kind::F64) | (Kind::F16, Kind::F16, Kind::F16) | (Kind::BF16, Kind::BF16, Kind::BF16)
    );
    if !ok || !rty.is_static() {
        return None;
    }
    let plan = ConvPlan::new(op, &lhs.ty.shape, &rhs.ty.shape, &rty.shape)?;
    let (m, k, n) = (plan.m(), plan.k(), plan.out_features);
    if [m, k, n].iter().any(|&x| x <= 0 || x > i32::MAX as i64) {
        return None;
    }
    let im2col = memo.get(op, 40, || plan.render_im2col(&lhs.ty.shape, lhs.kind.size()))?;
    let strict = plan.dims.precision.iter().any(|p| matches!(p, Precision::High | Precision::Highest));
    Some((|| {
        let a_len = (m * k) as usize;
        let mut a = [gpu.alloc_raw(lhs.kind, a_len)?];
        gpu.launch_scalar(&im2col, a_len / plan.im2col_width(&lhs.ty.shape, lhs.kind.size()), &[&*lhs.buf], &mut a)?;
        let [a] = a;
        let (bshape, bstrides, bbase, b_identity) = plan.kernel_layout(&rhs.ty.shape);
        let b = if b_identity {
            None
        } else {
            let src = memo.get(op, 41, || render_strided(&bshape, &bstrides, bbase, rhs.kind.size())).ok_or("no kernel layout copy for this element size")?;
            let mut b = [gpu.alloc_raw(rhs.kind, rhs.len)?];
            gpu.launch_scalar(&src, rhs.len, &[&*rhs.buf], &mut b)?;
            let [b] = b;
            Some(b)
        };
        let len = (m * n) as usize;
        let mut c = gpu.alloc_raw(rk, len)?;
        let bbuf = match &b {
            Some(b) => b,
            None => &*rhs.buf,
        };
        crate::dot::gemm(gpu, lhs.kind, rk, (&a, plan.a_transposed), bbuf, &mut c, (1, m, k, n), tf32 && !strict)?;
        drop(a);
        let (ostrides, o_identity) = plan.output_layout(&rty.shape);
        if o_identity {
            return Ok(Gpu::wrap(rty.clone(), rk, len, c));
        }
        let src = memo.get(op, 42, || render_strided(&rty.shape, &ostrides, 0, rk.size())).ok_or("no result permute for this element size")?;
        let mut out = [gpu.alloc_raw(rk, len)?];
        gpu.launch_scalar(&src, len, &[&c], &mut out)?;
        let [out] = out;
        Ok(Gpu::wrap(rty.clone(), rk, len, out))
    })())
}
