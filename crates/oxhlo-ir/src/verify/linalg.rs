//! Contractions and linear algebra: dot_general (and the legacy dot and einsum), convolution and
//! dynamic_conv, cholesky, triangular_solve, fft and the batch_norm ops. Shape arithmetic is in
//! [`crate::verify::shape::dot_conv`]; this file reads the attributes and compares results.

use std::collections::HashMap;

use crate::attr::{Attr, ConvDims, DotAlgorithm, DotDims, FftType, Transpose};
use crate::body::Op;
use crate::types::{ElementType, TensorType, DYN};
use crate::verify::cx::{class, elem_compatible, Cx};
use crate::verify::fmt;
use crate::verify::shape::{self, dim_compatible, shapes_compatible, ConvConfig};

rules! {
    OPERAND_ELEM = "contraction.element_types": "lhs and rhs element types are of one kind (dot_general C13, convolution C2; mixed float widths such as fp8 x fp8 are admitted as XLA does)";
    DOT_RESULT = "dot_general.result": "shape(result) = batching dims + lhs free dims + rhs free dims (C12)";
    DOT_ALGORITHM = "dot_general.algorithm": "a dot algorithm's component counts and primitive operation count are positive";
    EINSUM_CONFIG = "einsum.config": "einsum_config names one label per operand dimension and output labels that appear in the inputs";
    EINSUM_SIZES = "einsum.sizes": "dimensions sharing an einsum label have the same size";
    CONV_RESULT = "convolution.result": "the result shape is given by (C26) and rank(result) = N (C28)";
    CONV_PADDING_OPERAND = "dynamic_conv.padding": "dynamic_conv's padding operand is an integer tensor of shape [N - 2, 2]";
    CHOLESKY_TYPE = "cholesky.type": "cholesky's operand and result have the same type (C1)";
    CHOLESKY_SHAPE = "cholesky.shape": "cholesky's operand has rank >= 2 and square trailing matrices (C2, C3)";
    TS_ELEM = "triangular_solve.element_types": "a and b have the same element type (C1)";
    TS_RANK = "triangular_solve.rank": "rank(a) = rank(b) >= 2 (C2)";
    TS_SHAPES = "triangular_solve.shapes": "a is square, batch dims agree and b's solved dimension matches a (C3)";
    TS_RESULT = "triangular_solve.result": "b and result have the same type (C4)";
    TS_TRANSPOSE = "triangular_solve.transpose_a": "transpose_a is NO_TRANSPOSE, TRANSPOSE or ADJOINT";
    FFT_RANK = "fft.rank": "rank(operand) >= size(fft_length) (C1)";
    FFT_ELEM = "fft.element_types": "operand and result element types suit fft_type (C2)";
    FFT_LENGTH_SIZE = "fft.length_size": "1 <= size(fft_length) <= 3 (C3)";
    FFT_LENGTH_DIMS = "fft.length_dims": "the real tensor's trailing dimensions equal fft_length (C4)";
    FFT_RESULT = "fft.result": "result dimensions equal the operand's except the last for RFFT/IRFFT (C5)";
    BN_FEATURE_INDEX = "batch_norm.feature_index": "0 <= feature_index < rank(operand) (C1)";
    BN_ELEM = "batch_norm.element_types": "all operands and results have the same element type (C2)";
    BN_SHAPE = "batch_norm.shape": "operand-shaped operands and results have the operand's shape";
    BN_FEATURE_SIZE = "batch_norm.feature_size": "per-feature tensors are 1-D of size dim(operand, feature_index)";
}


/// The kind of a contraction operand's element type: floats of any width mix (XLA multiplies e.g.
/// `f8E4M3FN x f8E5M2`), integers of any signedness mix, everything else must match exactly.
fn kind(e: &ElementType) -> u8 {
    match e {
        ElementType::Float(_) => 0,
        ElementType::Int { .. } => 1,
        ElementType::Complex(_) => 2,
        ElementType::Quant(_) => 3,
        _ => 4,
    }
}

fn same_elem(cx: &mut Cx, op: &Op, l: &TensorType, r: &TensorType) {
    let ok = match (kind(&l.elem), kind(&r.elem)) {
        (3, _) | (_, 3) => true,
        (a, b) if a == b => a < 2 || l.elem == r.elem,
        _ => false,
    };
    if !ok {
        cx.fail(op, OPERAND_ELEM, format!("lhs element type {} and rhs element type {} are of different kinds", fmt::elem(&l.elem), fmt::elem(&r.elem)));
    }
}

fn expect(cx: &mut Cx, op: &Op, rule: crate::verify::Rule, r: &TensorType, want: &[i64]) {
    if !shapes_compatible(&r.shape, want) {
        cx.fail(op, rule, format!("result shape [{}] does not match the expected shape [{}]", fmt::shape(&r.shape), fmt::shape(want)));
    }
}

pub(crate) fn dot_general<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dims = cx.attr_as(op, "dot_dimension_numbers", true, "#stablehlo.dot dimension numbers", |a| match a {
        Attr::DotDims(d) => Some(d),
        _ => None,
    });
    cx.precision_config(op);
    let algo: Option<&DotAlgorithm> = cx.attr_as(op, "algorithm", false, "a #stablehlo.dot_algorithm", |a| match a {
        Attr::DotAlgorithm(d) => Some(d.as_ref()),
        _ => None,
    });
    if let Some(a) = algo {
        if a.lhs_component_count < 1 || a.rhs_component_count < 1 || a.num_primitive_operations < 1 {
            cx.fail(
                op,
                DOT_ALGORITHM,
                format!(
                    "algorithm component counts ({}, {}) and num_primitive_operations ({}) must be positive",
                    a.lhs_component_count, a.rhs_component_count, a.num_primitive_operations
                ),
            );
        }
    }
    let (Some(l), Some(rhs), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else {
        return;
    };
    same_elem(cx, op, l, rhs);
    let Some(dims) = dims else { return };
    contraction(cx, op, l, rhs, r, dims);
}

fn contraction(cx: &mut Cx, op: &Op, l: &TensorType, rhs: &TensorType, r: &TensorType, dims: &DotDims) {
    match shape::infer_dot_general_shape(&l.shape, &rhs.shape, dims) {
        Ok(want) => expect(cx, op, DOT_RESULT, r, &want),
        Err(e) => cx.fail_shape(op, e),
    }
}

pub(crate) fn dot<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    cx.precision_config(op);
    let (Some(l), Some(rhs), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else {
        return;
    };
    same_elem(cx, op, l, rhs);
    match shape::infer_dot_shape(&l.shape, &rhs.shape) {
        Ok(want) => expect(cx, op, DOT_RESULT, r, &want),
        Err(e) => cx.fail_shape(op, e),
    }
}

/// `einsum` (`"ab,bc->ac"`) and `unary_einsum` (`"ab->a"`).
pub(crate) fn einsum<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let Some(config) = cx.attr_str(op, "einsum_config", true) else { return };
    let n = op.operands.len();
    let (Some(xs), Some(r)) = (cx.tensor_opds(op, 0..n), cx.tensor_res(op, 0)) else { return };
    let Some((ins, out)) = config.split_once("->") else {
        cx.fail(op, EINSUM_CONFIG, format!("einsum_config \"{config}\" has no \"->\""));
        return;
    };
    let ins: Vec<&str> = ins.split(',').map(str::trim).collect();
    let out = out.trim();
    let labels = |s: &str| s.chars().filter(|c| c.is_ascii_alphabetic()).collect::<Vec<char>>();
    if ins.len() != n {
        cx.fail(op, EINSUM_CONFIG, format!("einsum_config \"{config}\" names {} inputs but the op has {n}", ins.len()));
        return;
    }
    let mut sizes: HashMap<char, i64> = HashMap::new();
    for (k, (spec, x)) in ins.iter().zip(&xs).enumerate() {
        let ls = labels(spec);
        if ls.len() != x.rank() {
            cx.fail(op, EINSUM_CONFIG, format!("einsum_config input #{k} \"{spec}\" has {} labels but the operand has rank {}", ls.len(), x.rank()));
            return;
        }
        for (&c, &d) in ls.iter().zip(&x.shape) {
            match sizes.get(&c) {
                Some(&prev) if !dim_compatible(prev, d) => {
                    cx.fail(op, EINSUM_SIZES, format!("label '{c}' has sizes {} and {}", fmt::dim(prev), fmt::dim(d)));
                    return;
                }
                Some(&prev) if prev != DYN => {}
                _ => {
                    sizes.insert(c, d);
                }
            }
        }
    }
    let mut want = Vec::new();
    for c in labels(out) {
        match sizes.get(&c) {
            Some(&d) => want.push(d),
            None => {
                cx.fail(op, EINSUM_CONFIG, format!("output label '{c}' of einsum_config \"{config}\" is not an input label"));
                return;
            }
        }
    }
    expect(cx, op, DOT_RESULT, r, &want);
}

pub(crate) fn convolution<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dynamic = op.kind == crate::ops::OpKind::DynamicConv;
    let strides = cx.attr_i64s(op, "window_strides", false);
    let padding = if dynamic { Some(None) } else { cx.attr_padding(op, "padding", shape::dot_conv::CONV_PADDING_SHAPE) };
    let lhs_dil = cx.attr_i64s(op, "lhs_dilation", false);
    let rhs_dil = cx.attr_i64s(op, "rhs_dilation", false);
    let reversal = cx.attr_bools(op, "window_reversal", false);
    let dims: Option<&ConvDims> = cx.attr_as(op, "dimension_numbers", true, "#stablehlo.conv dimension numbers", |a| match a {
        Attr::ConvDims(d) => Some(d),
        _ => None,
    });
    let fgc = cx.attr_int(op, "feature_group_count", false).unwrap_or(1);
    let bgc = cx.attr_int(op, "batch_group_count", false).unwrap_or(1);
    cx.precision_config(op);
    let (Some(l), Some(rhs), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else {
        return;
    };
    same_elem(cx, op, l, rhs);
    if dynamic {
        if let Some(p) = cx.tensor_opd(op, 2) {
            let s = l.rank() as i64 - 2;
            if p.rank() != 2 || !p.elem.is_integer() || !dim_compatible(p.shape[0], s) || !dim_compatible(p.shape[1], 2) {
                cx.fail(op, CONV_PADDING_OPERAND, format!("padding must be an integer tensor of shape [{s}, 2], got {}", fmt::tensor(p)));
            }
        }
    }
    let (Some(dims), Some(padding)) = (dims, padding) else { return };
    let cfg = ConvConfig {
        window_strides: strides.as_deref(),
        padding: padding.as_deref(),
        lhs_dilation: lhs_dil.as_deref(),
        rhs_dilation: rhs_dil.as_deref(),
        window_reversal: reversal.as_deref(),
        dims,
        feature_group_count: fgc,
        batch_group_count: bgc,
    };
    match shape::infer_conv_shape(&l.shape, &rhs.shape, &cfg) {
        Ok(mut want) => {
            if dynamic {
                for &d in &dims.output_spatial_dimensions {
                    if let Some(slot) = usize::try_from(d).ok().and_then(|i| want.get_mut(i)) {
                        *slot = DYN;
                    }
                }
            }
            expect(cx, op, CONV_RESULT, r, &want);
        }
        Err(e) => cx.fail_shape(op, e),
    }
}

pub(crate) fn cholesky<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    cx.attr_bool(op, "lower", false);
    let (Some(a), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    cx.elem(op, "operand", &a.elem, class::FLOAT | class::COMPLEX);
    if a.elem != r.elem || !shapes_compatible(&a.shape, &r.shape) {
        cx.fail(op, CHOLESKY_TYPE, format!("operand type {} and result type {} differ", fmt::tensor(a), fmt::tensor(r)));
    }
    let n = a.rank();
    if n < 2 || !dim_compatible(a.shape[n - 2], a.shape[n - 1]) {
        cx.fail(op, CHOLESKY_SHAPE, format!("operand must have rank >= 2 and square matrices, got {}", fmt::tensor(a)));
    }
}

pub(crate) fn triangular_solve<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let left = cx.attr_bool(op, "left_side", false).unwrap_or(false);
    cx.attr_bool(op, "lower", false);
    cx.attr_bool(op, "unit_diagonal", false);
    let tr = cx.attr_as(op, "transpose_a", true, "a #stablehlo<transpose>", |a| match a {
        Attr::Transpose(t) => Some(*t),
        _ => None,
    });
    if tr == Some(Transpose::TransposeInvalid) {
        cx.fail(op, TS_TRANSPOSE, "transpose_a must be NO_TRANSPOSE, TRANSPOSE or ADJOINT, got TRANSPOSE_INVALID");
    }
    let (Some(a), Some(b), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else { return };
    cx.elem(op, "a", &a.elem, class::FLOAT | class::COMPLEX);
    if a.elem != b.elem {
        cx.fail(op, TS_ELEM, format!("a element type {} and b element type {} differ", fmt::elem(&a.elem), fmt::elem(&b.elem)));
    }
    if b.elem != r.elem || !shapes_compatible(&b.shape, &r.shape) {
        cx.fail(op, TS_RESULT, format!("b type {} and result type {} differ", fmt::tensor(b), fmt::tensor(r)));
    }
    let n = a.rank();
    if n < 2 || b.rank() != n {
        cx.fail(op, TS_RANK, format!("a and b must have the same rank >= 2, got {} and {}", n, b.rank()));
        return;
    }
    let batch_ok = shapes_compatible(&a.shape[..n - 2], &b.shape[..n - 2]);
    let solved = if left { b.shape[n - 2] } else { b.shape[n - 1] };
    let square = dim_compatible(a.shape[n - 2], a.shape[n - 1]);
    if !batch_ok || !square || !dim_compatible(a.shape[n - 1], solved) {
        cx.fail(
            op,
            TS_SHAPES,
            format!(
                "a {} must be square with batch dimensions and size matching b {} (left_side = {left})",
                fmt::tensor(a),
                fmt::tensor(b)
            ),
        );
    }
}

pub(crate) fn fft<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let ft = cx.attr_as(op, "fft_type", true, "a #stablehlo<fft_type>", |a| match a {
        Attr::FftType(t) => Some(*t),
        _ => None,
    });
    let len = cx.attr_i64s(op, "fft_length", true);
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    let (Some(ft), Some(len)) = (ft, len) else { return };
    if !(1..=3).contains(&len.len()) {
        cx.fail(op, FFT_LENGTH_SIZE, format!("fft_length must have 1 to 3 entries, got {}", len.len()));
        return;
    }
    if x.rank() < len.len() {
        cx.fail(op, FFT_RANK, format!("operand rank {} is smaller than size(fft_length) = {}", x.rank(), len.len()));
        return;
    }
    let part = |e: &ElementType| e.float_type();
    let elem_ok = match ft {
        FftType::Fft | FftType::Ifft => x.elem.is_complex() && x.elem == r.elem,
        FftType::Rfft => x.elem.is_float() && r.elem.is_complex() && part(&x.elem) == part(&r.elem),
        FftType::Irfft => x.elem.is_complex() && r.elem.is_float() && part(&x.elem) == part(&r.elem),
    };
    if !elem_ok {
        cx.fail(op, FFT_ELEM, format!("{} cannot map element type {} to {}", ft.keyword(), fmt::elem(&x.elem), fmt::elem(&r.elem)));
        return;
    }
    let real = match ft {
        FftType::Rfft => Some(x),
        FftType::Irfft => Some(r),
        _ => None,
    };
    if let Some(real) = real {
        if real.rank() >= len.len() && !shapes_compatible(&real.shape[real.rank() - len.len()..], &len) {
            cx.fail(op, FFT_LENGTH_DIMS, format!("trailing dimensions of the real tensor {} must equal fft_length {}", fmt::tensor(real), fmt::list(&len)));
            return;
        }
    }
    let mut want = x.shape.clone();
    let half = |d: i64| if d == DYN { DYN } else if d == 0 { 0 } else { d / 2 + 1 };
    match ft {
        FftType::Rfft => {
            if let Some(last) = want.last_mut() {
                *last = half(*last);
            }
        }
        FftType::Irfft => {
            if let (Some(last), Some(&rl)) = (want.last_mut(), r.shape.last()) {
                if !dim_compatible(*last, half(rl)) {
                    cx.fail(op, FFT_RESULT, format!("operand's last dimension {} must be {} for result {}", fmt::dim(*last), fmt::dim(half(rl)), fmt::tensor(r)));
                    return;
                }
                *last = rl;
            }
        }
        _ => {}
    }
    expect(cx, op, FFT_RESULT, r, &want);
}

pub(crate) fn batch_norm<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    use crate::ops::OpKind as K;
    let fi = cx.attr_int(op, "feature_index", true);
    cx.attr_as(op, "epsilon", true, "a float", |a| match a {
        Attr::Float(v, _) => Some(*v),
        _ => None,
    });
    // (full-shaped operands, full-shaped results, per-feature operands, per-feature results)
    let (full_in, full_out, feat_in, feat_out): (&[usize], &[usize], &[usize], &[usize]) = match op.kind {
        K::BatchNormGrad => (&[0, 4], &[0], &[1, 2, 3], &[1, 2]),
        K::BatchNormInference => (&[0], &[0], &[1, 2, 3, 4], &[]),
        _ => (&[0], &[0], &[1, 2], &[1, 2]),
    };
    let mut full = Vec::new();
    let mut feat = Vec::new();
    for &i in full_in {
        full.push((format!("operand #{i}"), cx.tensor_opd(op, i)));
    }
    for &i in full_out {
        full.push((format!("result #{i}"), cx.tensor_res(op, i)));
    }
    for &i in feat_in {
        feat.push((format!("operand #{i}"), cx.tensor_opd(op, i)));
    }
    for &i in feat_out {
        feat.push((format!("result #{i}"), cx.tensor_res(op, i)));
    }
    let Some(x) = full[0].1 else { return };
    cx.elem(op, "operand", &x.elem, class::FLOAT);
    for (name, t) in full.iter().chain(&feat) {
        let Some(t) = t else { continue };
        if !elem_compatible(&t.elem, &x.elem) {
            cx.fail(op, BN_ELEM, format!("{name} element type {} differs from the operand's {}", fmt::elem(&t.elem), fmt::elem(&x.elem)));
            return;
        }
    }
    for (name, t) in full.iter().skip(1) {
        if let Some(t) = t {
            if !shapes_compatible(&t.shape, &x.shape) {
                cx.fail(op, BN_SHAPE, format!("{name} shape [{}] differs from the operand's [{}]", fmt::shape(&t.shape), fmt::shape(&x.shape)));
            }
        }
    }
    let Some(fi) = fi else { return };
    if fi < 0 || fi as u64 >= x.rank() as u64 {
        cx.fail(op, BN_FEATURE_INDEX, format!("feature_index {fi} is out of range [0, {})", x.rank()));
        return;
    }
    let n = x.shape[fi as usize];
    for (name, t) in &feat {
        if let Some(t) = t {
            if t.rank() != 1 || !dim_compatible(t.shape[0], n) {
                cx.fail(op, BN_FEATURE_SIZE, format!("{name} must have shape [{}] (the feature dimension), got [{}]", fmt::dim(n), fmt::shape(&t.shape)));
            }
        }
    }
}
