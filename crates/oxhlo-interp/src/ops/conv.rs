//! convolution and dynamic_conv: any dimension-number permutation, window strides, (negative) padding,
//! lhs (base) and rhs (window) dilation, window reversal, feature_group_count and batch_group_count.
//!
//! Operands are rearranged to canonical layouts (input `[N, spatial..., C]`, kernel `[O, spatial..., I]`),
//! the sums of products are computed in the result type's domain (integers wrap, floats accumulate in f64
//! and round once, as in dot), and the canonical output `[N, O, spatial...]` is permuted into the result's
//! layout. Per spatial dimension a table maps (output position, kernel tap) to an input position or none.
//! Quantized operands are dequantized and a quantized result is quantized back, as for dot_general.

use crate::ops::support::*;
use crate::ops::OpCtx;
use crate::tensor::{RtValue, Tensor};
use oxhlo_ir::attr::ConvDims;
use oxhlo_ir::Attr;

const NONE: usize = usize::MAX;

struct ConvKernel {
    n_out: usize,
    c_in: usize,
    /// Kernel input features (c_in / feature_group_count).
    ci: usize,
    co: usize,
    fgc: usize,
    bgc: usize,
    in_sp: Vec<usize>,
    k_sp: Vec<usize>,
    out_sp: Vec<usize>,
    /// Per spatial dim: `map[d][y * k_sp[d] + kx]` = input position or NONE.
    map: Vec<Vec<usize>>,
    reverse: Vec<bool>,
}

impl Kernel2 for ConvKernel {
    fn run<T: FromData>(&self, lhs: &[T], rhs: &[T]) -> Result<Vec<T>, String> {
        let s = self.in_sp.len();
        let out_total: usize = self.out_sp.iter().product();
        let k_total: usize = self.k_sp.iter().product();
        let in_total: usize = self.in_sp.iter().product();
        let mut out = vec![T::ZERO; self.n_out * self.co * out_total];
        if out.is_empty() {
            return Ok(out);
        }
        let in_st = strides_u(&self.in_sp);
        let k_st = strides_u(&self.k_sp);
        // Every kernel tap: its per-dim coordinates and its offset in the (possibly reversed) kernel.
        let mut taps: Vec<(Vec<usize>, usize)> = Vec::with_capacity(k_total);
        let mut kx = vec![0usize; s];
        for _ in 0..k_total {
            let off: usize = (0..s)
                .map(|d| if self.reverse[d] { self.k_sp[d] - 1 - kx[d] } else { kx[d] } * k_st[d])
                .sum();
            taps.push((kx.clone(), off));
            next_index(&mut kx, &self.k_sp);
        }
        let co_per_fg = self.co / self.fgc;
        let co_per_bg = self.co / self.bgc;
        let mut y = vec![0usize; s];
        for n in 0..self.n_out {
            for o in 0..self.co {
                let gf = o / co_per_fg;
                let gb = o / co_per_bg;
                let nb = gb * self.n_out + n;
                let obase = (n * self.co + o) * out_total;
                y.iter_mut().for_each(|v| *v = 0);
                for yo in 0..out_total {
                    let mut acc = T::ZERO;
                    'taps: for (kc, koff) in &taps {
                        let mut ioff = 0usize;
                        for d in 0..s {
                            let p = self.map[d][y[d] * self.k_sp[d] + kc[d]];
                            if p == NONE {
                                continue 'taps;
                            }
                            ioff += p * in_st[d];
                        }
                        let l = &lhs[(nb * in_total + ioff) * self.c_in + gf * self.ci..][..self.ci];
                        let r = &rhs[(o * k_total + koff) * self.ci..][..self.ci];
                        for (&a, &b) in l.iter().zip(r) {
                            acc = acc.add(a.mul(b));
                        }
                    }
                    out[obase + yo] = acc;
                    next_index(&mut y, &self.out_sp);
                }
            }
        }
        Ok(out)
    }
}

/// Rearranges `t` into the order of `dims`.
fn arrange(t: &Tensor, dims: &[usize]) -> crate::tensor::Data {
    let st = t.strides();
    let shape: Vec<usize> = dims.iter().map(|&d| t.shape()[d] as usize).collect();
    let src: Vec<isize> = dims.iter().map(|&d| st[d] as isize).collect();
    take(&t.data, &strided_indices(&shape, &src, 0))
}

fn conv_impl(ctx: &OpCtx, lhs: &Tensor, rhs: &Tensor, padding: Option<Vec<i64>>) -> Result<Vec<RtValue>, String> {
    // Quantized operands: dequantize, convolve in the expressed type, quantize the result (the spec's
    // dequantize_op_quantize / hybrid forms).
    let (lhs, rhs) = (&*dequantized(lhs)?, &*dequantized(rhs)?);
    let dn: ConvDims = match ctx.op.attr("dimension_numbers") {
        Some(Attr::ConvDims(d)) => d.clone(),
        _ => return Err("missing convolution dimension_numbers".into()),
    };
    let rank = lhs.shape().len();
    if rhs.shape().len() != rank {
        return Err("lhs and rhs must have one rank".into());
    }
    let s = dn.input_spatial_dimensions.len();
    if rank != s + 2 || dn.kernel_spatial_dimensions.len() != s || dn.output_spatial_dimensions.len() != s {
        return Err(format!("dimension numbers name {s} spatial dimensions for operands of rank {rank}"));
    }
    let ib = dims_in(&[dn.input_batch_dimension], rank, "input batch")?[0];
    let ifd = dims_in(&[dn.input_feature_dimension], rank, "input feature")?[0];
    let isp = dims_in(&dn.input_spatial_dimensions, rank, "input spatial")?;
    let kif = dims_in(&[dn.kernel_input_feature_dimension], rank, "kernel input feature")?[0];
    let kof = dims_in(&[dn.kernel_output_feature_dimension], rank, "kernel output feature")?[0];
    let ksp = dims_in(&dn.kernel_spatial_dimensions, rank, "kernel spatial")?;
    let ob = dims_in(&[dn.output_batch_dimension], rank, "output batch")?[0];
    let of = dims_in(&[dn.output_feature_dimension], rank, "output feature")?[0];
    let osp = dims_in(&dn.output_spatial_dimensions, rank, "output spatial")?;
    let get = |name: &str, default: i64| -> Result<Vec<i64>, String> {
        let v = opt_i64s(ctx, name)?.unwrap_or_else(|| vec![default; s]);
        if v.len() != s {
            return Err(format!("`{name}` must have {s} entries"));
        }
        Ok(v)
    };
    let strides = get("window_strides", 1)?;
    let lhs_dil = get("lhs_dilation", 1)?;
    let rhs_dil = get("rhs_dilation", 1)?;
    let pad = match padding {
        Some(p) => p,
        None => opt_i64s(ctx, "padding")?.unwrap_or_else(|| vec![0; 2 * s]),
    };
    if pad.len() != 2 * s {
        return Err(format!("padding must have {s} (low, high) pairs"));
    }
    let reverse = opt_bools(ctx, "window_reversal")?.unwrap_or_else(|| vec![false; s]);
    if reverse.len() != s {
        return Err(format!("window_reversal must have {s} entries"));
    }
    let fgc = opt_int(ctx, "feature_group_count")?.unwrap_or(1);
    let bgc = opt_int(ctx, "batch_group_count")?.unwrap_or(1);
    if fgc < 1 || bgc < 1 || (fgc > 1 && bgc > 1) {
        return Err(format!("invalid feature_group_count {fgc} / batch_group_count {bgc}"));
    }
    let (fgc, bgc) = (fgc as usize, bgc as usize);
    let n_in = lhs.shape()[ib] as usize;
    let c_in = lhs.shape()[ifd] as usize;
    let ci = rhs.shape()[kif] as usize;
    let co = rhs.shape()[kof] as usize;
    if !c_in.is_multiple_of(fgc) || ci * fgc != c_in {
        return Err(format!("input features {c_in} must equal kernel input features {ci} x feature_group_count {fgc}"));
    }
    if !co.is_multiple_of(fgc) || !co.is_multiple_of(bgc) || !n_in.is_multiple_of(bgc) {
        return Err(format!("output features {co} / batch {n_in} are not divisible by the group counts"));
    }
    let mut in_sp = Vec::with_capacity(s);
    let mut k_sp = Vec::with_capacity(s);
    let mut out_sp = Vec::with_capacity(s);
    let mut map = Vec::with_capacity(s);
    for d in 0..s {
        let (n, k) = (lhs.shape()[isp[d]], rhs.shape()[ksp[d]]);
        let (st, ld, rd, lo, hi) = (strides[d], lhs_dil[d], rhs_dil[d], pad[2 * d], pad[2 * d + 1]);
        if st < 1 || ld < 1 || rd < 1 {
            return Err(format!("window strides and dilations must be positive (spatial dimension {d})"));
        }
        let dilated_in = if n == 0 { 0 } else { (n - 1) * ld + 1 };
        let padded = dilated_in + lo + hi;
        let dilated_k = if k == 0 { 0 } else { (k - 1) * rd + 1 };
        let out = if padded < dilated_k || k == 0 { 0 } else { (padded - dilated_k) / st + 1 };
        let mut m = Vec::with_capacity((out * k).max(0) as usize);
        for y in 0..out {
            for kx in 0..k {
                let p = y * st + kx * rd - lo;
                m.push(if p >= 0 && p % ld == 0 && p / ld < n { (p / ld) as usize } else { NONE });
            }
        }
        in_sp.push(n as usize);
        k_sp.push(k as usize);
        out_sp.push(out as usize);
        map.push(m);
    }
    let mut shape = vec![0i64; rank];
    shape[ob] = (n_in / bgc) as i64;
    shape[of] = co as i64;
    for d in 0..s {
        shape[osp[d]] = out_sp[d] as i64;
    }
    let (ty, quant) = split_quant(refine_result_type(ctx, 0, &shape)?);
    elem_count(&shape)?;
    let mut ldims = vec![ib];
    ldims.extend(&isp);
    ldims.push(ifd);
    let mut rdims = vec![kof];
    rdims.extend(&ksp);
    rdims.push(kif);
    let k = ConvKernel { n_out: n_in / bgc, c_in, ci, co, fgc, bgc, in_sp, k_sp, out_sp: out_sp.clone(), map, reverse };
    let canon = run_ring2(&k, &arrange(lhs, &ldims), &arrange(rhs, &rdims), &ty.elem)?;
    // Canonical [N, O, spatial...] -> result layout.
    let mut cshape = vec![(n_in / bgc) as i64, co as i64];
    cshape.extend(out_sp.iter().map(|&x| x as i64));
    let cst = istrides(&cshape);
    let mut src = vec![0isize; rank];
    src[ob] = cst[0];
    src[of] = cst[1];
    for d in 0..s {
        src[osp[d]] = cst[2 + d];
    }
    let data = take(&canon, &strided_indices(&ushape(&shape), &src, 0));
    Ok(vec![RtValue::Tensor(finish_quant(Tensor { ty, data }, quant)?)])
}

pub fn eval_convolution(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let lhs = tensor_arg(args, 0)?;
    let rhs = tensor_arg(args, 1)?;
    conv_impl(ctx, lhs, rhs, None)
}

/// dynamic_conv: the padding comes from the third operand (a `[spatial, 2]` integer tensor).
pub fn eval_dynamic_conv(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let lhs = tensor_arg(args, 0)?;
    let rhs = tensor_arg(args, 1)?;
    let pad = index_values(tensor_arg(args, 2)?)?;
    conv_impl(ctx, lhs, rhs, Some(pad))
}
