//! dot_general, the older dot, and einsum / unary_einsum.
//!
//! Numerics: operands are converted to the result element type's domain and the sum of products is
//! computed there: integers with wraparound (exactly the result type's modular arithmetic), booleans as
//! OR of ANDs, floats and complex parts accumulated in f64 and rounded once to the result type. The spec
//! leaves accumulation precision implementation-defined; XLA on CPU accumulates f32 in f32 (and bf16/f16
//! in f32), so results can differ from XLA by a few ulps for long contractions. precision_config and
//! the dot algorithm are accepted and do not change the result. Quantized operands are dequantized, the
//! product computed in the expressed type and quantized into a quantized result type (the spec's
//! dequantize_op_quantize; a float result gives its hybrid form). einsum rejects quantized operands.

use crate::ops::support::*;
use crate::ops::OpCtx;
use crate::tensor::{Data, RtValue, Tensor};
use oxhlo_ir::attr::DotDims;
use oxhlo_ir::Attr;

/// out[b, m, n] = sum_k lhs[b, m, k] * rhs[b, n, k] (both operands pre-arranged contiguously).
struct MatMul {
    b: usize,
    m: usize,
    n: usize,
    k: usize,
}

impl Kernel2 for MatMul {
    fn run<T: FromData>(&self, a: &[T], r: &[T]) -> Result<Vec<T>, String> {
        let (b, m, n, k) = (self.b, self.m, self.n, self.k);
        let mut out = vec![T::ZERO; b * m * n];
        if k == 0 {
            return Ok(out);
        }
        for bi in 0..b {
            for mi in 0..m {
                let lrow = &a[(bi * m + mi) * k..(bi * m + mi + 1) * k];
                let orow = &mut out[(bi * m + mi) * n..(bi * m + mi + 1) * n];
                let rows = |ni: usize| &r[(bi * n + ni) * k..(bi * n + ni + 1) * k];
                // Four outputs at a time: independent accumulation chains, each still summed in k order.
                let mut ni = 0;
                while ni + 4 <= n {
                    let (r0, r1, r2, r3) = (rows(ni), rows(ni + 1), rows(ni + 2), rows(ni + 3));
                    let (mut a0, mut a1, mut a2, mut a3) = (T::ZERO, T::ZERO, T::ZERO, T::ZERO);
                    for kk in 0..k {
                        let x = lrow[kk];
                        a0 = a0.add(x.mul(r0[kk]));
                        a1 = a1.add(x.mul(r1[kk]));
                        a2 = a2.add(x.mul(r2[kk]));
                        a3 = a3.add(x.mul(r3[kk]));
                    }
                    orow[ni..ni + 4].copy_from_slice(&[a0, a1, a2, a3]);
                    ni += 4;
                }
                for (o, ni) in orow[ni..].iter_mut().zip(ni..) {
                    let mut acc = T::ZERO;
                    for (&x, &y) in lrow.iter().zip(rows(ni)) {
                        acc = acc.add(x.mul(y));
                    }
                    *o = acc;
                }
            }
        }
        Ok(out)
    }
}

/// Rearranges `t` so that the dims `outer` (slowest), then `mid`, then `inner` (fastest) are contiguous.
fn arrange(t: &Tensor, outer: &[usize], mid: &[usize], inner: &[usize]) -> Data {
    let st = t.strides();
    let order: Vec<usize> = outer.iter().chain(mid).chain(inner).copied().collect();
    let shape: Vec<usize> = order.iter().map(|&d| t.shape()[d] as usize).collect();
    let src: Vec<isize> = order.iter().map(|&d| st[d] as isize).collect();
    take(&t.data, &strided_indices(&shape, &src, 0))
}

pub(crate) fn dot_general_impl(ctx: &OpCtx, lhs: &Tensor, rhs: &Tensor, dd: &DotDims) -> Result<Vec<RtValue>, String> {
    let (lr, rr) = (lhs.shape().len(), rhs.shape().len());
    let lb = dims_in(&dd.lhs_batching_dimensions, lr, "lhs batching")?;
    let rb = dims_in(&dd.rhs_batching_dimensions, rr, "rhs batching")?;
    let lc = dims_in(&dd.lhs_contracting_dimensions, lr, "lhs contracting")?;
    let rc = dims_in(&dd.rhs_contracting_dimensions, rr, "rhs contracting")?;
    if lb.len() != rb.len() || lc.len() != rc.len() {
        return Err("lhs and rhs batching/contracting dimension lists differ in length".into());
    }
    for (&a, &b) in lb.iter().zip(&rb).chain(lc.iter().zip(&rc)) {
        if lhs.shape()[a] != rhs.shape()[b] {
            return Err(format!("lhs dimension {a} (size {}) and rhs dimension {b} (size {}) differ", lhs.shape()[a], rhs.shape()[b]));
        }
    }
    let lf: Vec<usize> = (0..lr).filter(|d| !lb.contains(d) && !lc.contains(d)).collect();
    let rf: Vec<usize> = (0..rr).filter(|d| !rb.contains(d) && !rc.contains(d)).collect();
    if lf.len() + lb.len() + lc.len() != lr || rf.len() + rb.len() + rc.len() != rr {
        return Err("a dimension is listed twice in the dot dimension numbers".into());
    }
    let size = |t: &Tensor, ds: &[usize]| ds.iter().map(|&d| t.shape()[d] as usize).product::<usize>();
    let mut shape: Vec<i64> = lb.iter().map(|&d| lhs.shape()[d]).collect();
    shape.extend(lf.iter().map(|&d| lhs.shape()[d]));
    shape.extend(rf.iter().map(|&d| rhs.shape()[d]));
    let (ty, quant) = split_quant(refine_result_type(ctx, 0, &shape)?);
    elem_count(&shape)?;
    let mm = MatMul { b: size(lhs, &lb), m: size(lhs, &lf), n: size(rhs, &rf), k: size(lhs, &lc) };
    let a = arrange(lhs, &lb, &lf, &lc);
    let b = arrange(rhs, &rb, &rf, &rc);
    let data = run_ring2(&mm, &a, &b, &ty.elem)?;
    Ok(vec![RtValue::Tensor(finish_quant(Tensor { ty, data }, quant)?)])
}

pub fn eval_dot_general(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let lhs = tensor_arg(args, 0)?;
    let rhs = tensor_arg(args, 1)?;
    let dd = match ctx.op.attr("dot_dimension_numbers") {
        Some(Attr::DotDims(d)) => d.clone(),
        None => DotDims::default(),
        Some(_) => return Err("dot_dimension_numbers must be #stablehlo.dot<...>".into()),
    };
    let (lhs, rhs) = (dequantized(lhs)?, dequantized(rhs)?);
    dot_general_impl(ctx, &lhs, &rhs, &dd)
}

fn reject_quantized(lhs: &Tensor, rhs: &Tensor) -> Result<(), String> {
    if lhs.elem().is_quantized() || rhs.elem().is_quantized() {
        return Err("dot on quantized element types is not supported by the interpreter yet".into());
    }
    Ok(())
}

/// The old dot: vector/matrix products contracting lhs' last dimension with rhs' first.
pub fn eval_dot(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let lhs = tensor_arg(args, 0)?;
    let rhs = tensor_arg(args, 1)?;
    let (lhs, rhs) = (&*dequantized(lhs)?, &*dequantized(rhs)?);
    let (lr, rr) = (lhs.shape().len(), rhs.shape().len());
    if !(1..=2).contains(&lr) || !(1..=2).contains(&rr) {
        return Err(format!("dot takes rank-1 or rank-2 operands, got ranks {lr} and {rr}"));
    }
    let dd = DotDims {
        lhs_contracting_dimensions: vec![lr as i64 - 1],
        rhs_contracting_dimensions: vec![0],
        ..DotDims::default()
    };
    dot_general_impl(ctx, lhs, rhs, &dd)
}

/// Einsum over labelled axes: out[o] = sum over every label not in the output of lhs[l] * rhs[r].
struct Einsum {
    /// Size of every label.
    sizes: Vec<usize>,
    /// Per label: stride in lhs, rhs, out (0 when absent).
    ls: Vec<usize>,
    rs: Vec<usize>,
    os: Vec<usize>,
    out_len: usize,
    unary: bool,
}

impl Kernel2 for Einsum {
    fn run<T: FromData>(&self, a: &[T], b: &[T]) -> Result<Vec<T>, String> {
        let mut out = vec![T::ZERO; self.out_len];
        let total: usize = self.sizes.iter().product();
        if total == 0 {
            return Ok(out);
        }
        let mut idx = vec![0usize; self.sizes.len()];
        let (mut li, mut ri, mut oi) = (0usize, 0usize, 0usize);
        loop {
            let p = if self.unary { a[li] } else { a[li].mul(b[ri]) };
            out[oi] = out[oi].add(p);
            // Advance the label counter, keeping the three offsets in step.
            let mut d = self.sizes.len();
            loop {
                if d == 0 {
                    return Ok(out);
                }
                d -= 1;
                idx[d] += 1;
                li += self.ls[d];
                ri += self.rs[d];
                oi += self.os[d];
                if idx[d] < self.sizes[d] {
                    break;
                }
                li -= self.ls[d] * self.sizes[d];
                ri -= self.rs[d] * self.sizes[d];
                oi -= self.os[d] * self.sizes[d];
                idx[d] = 0;
            }
        }
    }
}

fn einsum_impl(ctx: &OpCtx, config: &str, ops: &[&Tensor]) -> Result<Vec<RtValue>, String> {
    let (ins, out) = config.split_once("->").ok_or_else(|| format!("einsum_config `{config}` has no `->`"))?;
    let ins: Vec<&str> = ins.split(',').map(str::trim).collect();
    let out = out.trim();
    if ins.len() != ops.len() {
        return Err(format!("einsum_config `{config}` names {} operands, the op has {}", ins.len(), ops.len()));
    }
    let mut labels: Vec<char> = Vec::new();
    let mut sizes: Vec<usize> = Vec::new();
    for (spec, t) in ins.iter().zip(ops) {
        if spec.chars().count() != t.shape().len() {
            return Err(format!("einsum term `{spec}` does not match operand rank {}", t.shape().len()));
        }
        for (c, &n) in spec.chars().zip(t.shape()) {
            if !c.is_ascii_alphabetic() {
                return Err(format!("unsupported einsum label `{c}` in `{config}`"));
            }
            match labels.iter().position(|&l| l == c) {
                Some(p) if sizes[p] != n as usize => return Err(format!("einsum label `{c}` has sizes {} and {n}", sizes[p])),
                Some(_) => {}
                None => {
                    labels.push(c);
                    sizes.push(n as usize);
                }
            }
        }
    }
    let strides_for = |spec: &str, shape: &[usize]| -> Vec<usize> {
        let st = strides_u(shape);
        let mut s = vec![0usize; labels.len()];
        for (c, &k) in spec.chars().zip(&st) {
            if let Some(p) = labels.iter().position(|&l| l == c) {
                s[p] += k;
            }
        }
        s
    };
    let mut oshape = Vec::new();
    for c in out.chars() {
        let p = labels.iter().position(|&l| l == c).ok_or_else(|| format!("output label `{c}` not in any input"))?;
        oshape.push(sizes[p]);
    }
    let shape: Vec<i64> = oshape.iter().map(|&d| d as i64).collect();
    let ty = refine_result_type(ctx, 0, &shape)?;
    let k = Einsum {
        ls: strides_for(ins[0], &ushape(ops[0].shape())),
        rs: if ops.len() > 1 { strides_for(ins[1], &ushape(ops[1].shape())) } else { vec![0; labels.len()] },
        os: strides_for(out, &oshape),
        out_len: elem_count(&shape)?,
        sizes,
        unary: ops.len() == 1,
    };
    let b = if ops.len() > 1 { &ops[1].data } else { &ops[0].data };
    let data = run_ring2(&k, &ops[0].data, b, &ty.elem)?;
    Ok(vec![tv(ty, data)])
}

fn config(ctx: &OpCtx) -> Result<String, String> {
    ctx.op.attr("einsum_config").and_then(Attr::as_str).map(str::to_string).ok_or_else(|| "missing einsum_config".into())
}

pub fn eval_einsum(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let lhs = tensor_arg(args, 0)?;
    let rhs = tensor_arg(args, 1)?;
    reject_quantized(lhs, rhs)?;
    einsum_impl(ctx, &config(ctx)?, &[lhs, rhs])
}

pub fn eval_unary_einsum(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let t = tensor_arg(args, 0)?;
    reject_quantized(t, t)?;
    let cfg = config(ctx)?;
    // Older programs write unary einsum configs with a leading comma (",ab->ba").
    let cfg = cfg.trim_start_matches(',').to_string();
    einsum_impl(ctx, &cfg, &[t])
}
