//! Contractions: dot_general's dimension numbers and result shape, the legacy `dot`, and convolution's
//! dimension numbers, window attributes, group counts and result shape.

use super::{at, dim_compatible, err, is_unique, out_of_range, window::num_windows, ShapeResult};
use crate::attr::{ConvDims, DotDims};
use crate::types::DYN;
use crate::verify::{fmt, Rule};

rules! {
    DOT_BATCHING_COUNT = "dot_general.batching_count": "size(lhs_batching_dimensions) = size(rhs_batching_dimensions) (C1)";
    DOT_CONTRACTING_COUNT = "dot_general.contracting_count": "size(lhs_contracting_dimensions) = size(rhs_contracting_dimensions) (C2)";
    DOT_LHS_UNIQUE = "dot_general.lhs_unique": "lhs batching and contracting dimensions together are unique (C3)";
    DOT_RHS_UNIQUE = "dot_general.rhs_unique": "rhs batching and contracting dimensions together are unique (C4)";
    DOT_LHS_BATCHING_RANGE = "dot_general.lhs_batching_range": "0 <= lhs_batching_dimensions < rank(lhs) (C5)";
    DOT_LHS_CONTRACTING_RANGE = "dot_general.lhs_contracting_range": "0 <= lhs_contracting_dimensions < rank(lhs) (C6)";
    DOT_RHS_BATCHING_RANGE = "dot_general.rhs_batching_range": "0 <= rhs_batching_dimensions < rank(rhs) (C7)";
    DOT_RHS_CONTRACTING_RANGE = "dot_general.rhs_contracting_range": "0 <= rhs_contracting_dimensions < rank(rhs) (C8)";
    DOT_BATCHING_SIZES = "dot_general.batching_sizes": "batching dimension sizes of lhs and rhs are equal (C9)";
    DOT_CONTRACTING_SIZES = "dot_general.contracting_sizes": "contracting dimension sizes of lhs and rhs are equal (C10)";
    LEGACY_DOT_RANK = "dot.rank": "dot's operands have rank 1 or 2";
    LEGACY_DOT_CONTRACTING = "dot.contracting": "dot's contracting dimension sizes are equal";
    CONV_RANK = "convolution.rank": "rank(lhs) = rank(rhs) >= 2 (C1)";
    CONV_STRIDES_SIZE = "convolution.strides_size": "size(window_strides) = N - 2 (C3)";
    CONV_STRIDES_POSITIVE = "convolution.strides_positive": "window_strides[i] > 0 (C4)";
    CONV_PADDING_SHAPE = "convolution.padding_shape": "padding has shape [N - 2, 2] (C5)";
    CONV_LHS_DILATION_SIZE = "convolution.lhs_dilation_size": "size(lhs_dilation) = N - 2 (C6)";
    CONV_LHS_DILATION_POSITIVE = "convolution.lhs_dilation_positive": "lhs_dilation[i] > 0 (C7)";
    CONV_RHS_DILATION_SIZE = "convolution.rhs_dilation_size": "size(rhs_dilation) = N - 2 (C8)";
    CONV_RHS_DILATION_POSITIVE = "convolution.rhs_dilation_positive": "rhs_dilation[i] > 0 (C9)";
    CONV_REVERSAL_SIZE = "convolution.window_reversal_size": "size(window_reversal) = N - 2 (C10)";
    CONV_BATCH_GROUP_DIVIDES = "convolution.batch_group_divides_input": "dim(lhs, input_batch_dimension) % batch_group_count = 0 (C11)";
    CONV_FEATURE_GROUP_DIVIDES = "convolution.feature_group_divides_input": "dim(lhs, input_feature_dimension) % feature_group_count = 0 (C12)";
    CONV_INPUT_SPATIAL_SIZE = "convolution.input_spatial_size": "size(input_spatial_dimensions) = N - 2 (C13)";
    CONV_INPUT_DIMS = "convolution.input_dims": "input batch, spatial and feature dimensions are unique and in [0, N) (C14)";
    CONV_KERNEL_INPUT_FEATURE = "convolution.kernel_input_feature": "dim(rhs, kernel_input_feature_dimension) = dim(lhs, input_feature_dimension) / feature_group_count (C15)";
    CONV_KERNEL_OUTPUT_BATCH_GROUP = "convolution.kernel_output_batch_group": "dim(rhs, kernel_output_feature_dimension) % batch_group_count = 0 (C16)";
    CONV_KERNEL_OUTPUT_FEATURE_GROUP = "convolution.kernel_output_feature_group": "dim(rhs, kernel_output_feature_dimension) % feature_group_count = 0 (C17)";
    CONV_KERNEL_SPATIAL_SIZE = "convolution.kernel_spatial_size": "size(kernel_spatial_dimensions) = N - 2 (C18)";
    CONV_KERNEL_DIMS = "convolution.kernel_dims": "kernel spatial, input feature and output feature dimensions are unique and in [0, N) (C19)";
    CONV_OUTPUT_SPATIAL_SIZE = "convolution.output_spatial_size": "size(output_spatial_dimensions) = N - 2 (C20)";
    CONV_OUTPUT_DIMS = "convolution.output_dims": "output batch, spatial and feature dimensions are unique and in [0, N) (C21)";
    CONV_FEATURE_GROUP_POSITIVE = "convolution.feature_group_positive": "feature_group_count > 0 (C22)";
    CONV_BATCH_GROUP_POSITIVE = "convolution.batch_group_positive": "batch_group_count > 0 (C23)";
    CONV_GROUPS_EXCLUSIVE = "convolution.groups_exclusive": "feature_group_count = 1 or batch_group_count = 1 (C24)";
}

fn range_check(rule: Rule, what: &str, dims: &[i64], rank: usize) -> ShapeResult<()> {
    match out_of_range(dims, rank) {
        Some(d) => err(rule, format!("{what} {d} is out of range [0, {rank})")),
        None => Ok(()),
    }
}

/// The result shape of `dot_general(lhs, rhs)` (C1)-(C10), (C12): batching dimensions, then lhs's free
/// dimensions, then rhs's free dimensions.
pub fn infer_dot_general_shape(lhs: &[i64], rhs: &[i64], d: &DotDims) -> ShapeResult {
    let (lb, rb, lc, rc) = (
        &d.lhs_batching_dimensions,
        &d.rhs_batching_dimensions,
        &d.lhs_contracting_dimensions,
        &d.rhs_contracting_dimensions,
    );
    if lb.len() != rb.len() {
        return err(
            DOT_BATCHING_COUNT,
            format!("lhs has {} batching dimensions but rhs has {}", lb.len(), rb.len()),
        );
    }
    if lc.len() != rc.len() {
        return err(
            DOT_CONTRACTING_COUNT,
            format!("lhs has {} contracting dimensions but rhs has {}", lc.len(), rc.len()),
        );
    }
    range_check(DOT_LHS_BATCHING_RANGE, "lhs batching dimension", lb, lhs.len())?;
    range_check(DOT_LHS_CONTRACTING_RANGE, "lhs contracting dimension", lc, lhs.len())?;
    range_check(DOT_RHS_BATCHING_RANGE, "rhs batching dimension", rb, rhs.len())?;
    range_check(DOT_RHS_CONTRACTING_RANGE, "rhs contracting dimension", rc, rhs.len())?;
    if !is_unique(&[lb.as_slice(), lc].concat()) {
        return err(
            DOT_LHS_UNIQUE,
            format!("lhs batching {} and contracting {} dimensions overlap or repeat", fmt::list(lb), fmt::list(lc)),
        );
    }
    if !is_unique(&[rb.as_slice(), rc].concat()) {
        return err(
            DOT_RHS_UNIQUE,
            format!("rhs batching {} and contracting {} dimensions overlap or repeat", fmt::list(rb), fmt::list(rc)),
        );
    }
    let mut out = Vec::new();
    for (&l, &r) in lb.iter().zip(rb) {
        let (x, y) = (at(lhs, l), at(rhs, r));
        if !dim_compatible(x, y) {
            return err(
                DOT_BATCHING_SIZES,
                format!(
                    "batching dimension sizes differ ({} vs {}) for lhs dimension {l} and rhs dimension {r}",
                    fmt::dim(x),
                    fmt::dim(y)
                ),
            );
        }
        out.push(if x == DYN { y } else { x });
    }
    for (&l, &r) in lc.iter().zip(rc) {
        let (x, y) = (at(lhs, l), at(rhs, r));
        if !dim_compatible(x, y) {
            return err(
                DOT_CONTRACTING_SIZES,
                format!(
                    "contracting dimension sizes differ ({} vs {}) for lhs dimension {l} and rhs dimension {r}",
                    fmt::dim(x),
                    fmt::dim(y)
                ),
            );
        }
    }
    let free = |shape: &[i64], b: &[i64], c: &[i64]| -> Vec<i64> {
        (0..shape.len() as i64).filter(|i| !b.contains(i) && !c.contains(i)).map(|i| at(shape, i)).collect()
    };
    out.extend(free(lhs, lb, lc));
    out.extend(free(rhs, rb, rc));
    Ok(out)
}

/// The result shape of the legacy `dot(lhs, rhs)`: vector/matrix products contracting lhs's last
/// dimension with rhs's first.
pub fn infer_dot_shape(lhs: &[i64], rhs: &[i64]) -> ShapeResult {
    if !(1..=2).contains(&lhs.len()) || !(1..=2).contains(&rhs.len()) {
        return err(
            LEGACY_DOT_RANK,
            format!("operands must have rank 1 or 2, got ranks {} and {}", lhs.len(), rhs.len()),
        );
    }
    let (x, y) = (lhs[lhs.len() - 1], rhs[0]);
    if !dim_compatible(x, y) {
        return err(
            LEGACY_DOT_CONTRACTING,
            format!("contracting dimension sizes differ ({} vs {})", fmt::dim(x), fmt::dim(y)),
        );
    }
    let mut out = Vec::new();
    if lhs.len() == 2 {
        out.push(lhs[0]);
    }
    if rhs.len() == 2 {
        out.push(rhs[1]);
    }
    Ok(out)
}

/// Convolution's attributes, as read from the op (absent lists mean ones, absent padding zeros).
#[derive(Clone, Copy, Debug)]
pub struct ConvConfig<'a> {
    pub window_strides: Option<&'a [i64]>,
    pub padding: Option<&'a [(i64, i64)]>,
    pub lhs_dilation: Option<&'a [i64]>,
    pub rhs_dilation: Option<&'a [i64]>,
    pub window_reversal: Option<&'a [bool]>,
    pub dims: &'a ConvDims,
    pub feature_group_count: i64,
    pub batch_group_count: i64,
}

fn list_check(v: Option<&[i64]>, name: &str, n: usize, size: Rule, positive: Rule) -> ShapeResult<()> {
    let Some(v) = v else { return Ok(()) };
    if v.len() != n {
        return err(size, format!("{name} has {} entries, expected {n} (the number of spatial dimensions)", v.len()));
    }
    if let Some((i, &x)) = v.iter().enumerate().find(|(_, &x)| x <= 0) {
        return err(positive, format!("{name}[{i}] = {x} must be positive"));
    }
    Ok(())
}

fn dims_check(rule: Rule, what: &str, dims: &[i64], n: usize) -> ShapeResult<()> {
    if let Some(d) = out_of_range(dims, n) {
        return err(rule, format!("{what} dimension {d} is out of range [0, {n})"));
    }
    if !is_unique(dims) {
        return err(rule, format!("{what} dimensions {} are not unique", fmt::list(dims)));
    }
    Ok(())
}

fn divides(rule: Rule, what: &str, size: i64, count: i64, count_name: &str) -> ShapeResult<()> {
    if size != DYN && count > 0 && size % count != 0 {
        return err(rule, format!("{what} ({size}) is not divisible by {count_name} ({count})"));
    }
    Ok(())
}

/// The result shape of `convolution(lhs, rhs)` under `c`, validating (C1), (C3)-(C24) and computing (C26).
pub fn infer_conv_shape(lhs: &[i64], rhs: &[i64], c: &ConvConfig) -> ShapeResult {
    let n = lhs.len();
    if n != rhs.len() || n < 2 {
        return err(CONV_RANK, format!("lhs and rhs must have the same rank >= 2, got {} and {}", n, rhs.len()));
    }
    let s = n - 2;
    let d = c.dims;
    list_check(c.window_strides, "window_strides", s, CONV_STRIDES_SIZE, CONV_STRIDES_POSITIVE)?;
    if let Some(p) = c.padding {
        if p.len() != s {
            return err(CONV_PADDING_SHAPE, format!("padding has {} rows, expected {s}", p.len()));
        }
    }
    list_check(c.lhs_dilation, "lhs_dilation", s, CONV_LHS_DILATION_SIZE, CONV_LHS_DILATION_POSITIVE)?;
    list_check(c.rhs_dilation, "rhs_dilation", s, CONV_RHS_DILATION_SIZE, CONV_RHS_DILATION_POSITIVE)?;
    if let Some(r) = c.window_reversal {
        if r.len() != s {
            return err(CONV_REVERSAL_SIZE, format!("window_reversal has {} entries, expected {s}", r.len()));
        }
    }
    let spatial = |v: &[i64], rule: Rule, what: &str| -> ShapeResult<()> {
        if v.len() != s {
            return err(rule, format!("{what} has {} entries, expected {s}", v.len()));
        }
        Ok(())
    };
    spatial(&d.input_spatial_dimensions, CONV_INPUT_SPATIAL_SIZE, "input_spatial_dimensions")?;
    let input_dims = [&[d.input_batch_dimension][..], &d.input_spatial_dimensions, &[d.input_feature_dimension]].concat();
    dims_check(CONV_INPUT_DIMS, "input", &input_dims, n)?;
    spatial(&d.kernel_spatial_dimensions, CONV_KERNEL_SPATIAL_SIZE, "kernel_spatial_dimensions")?;
    let kernel_dims =
        [&d.kernel_spatial_dimensions[..], &[d.kernel_input_feature_dimension, d.kernel_output_feature_dimension]].concat();
    dims_check(CONV_KERNEL_DIMS, "kernel", &kernel_dims, n)?;
    spatial(&d.output_spatial_dimensions, CONV_OUTPUT_SPATIAL_SIZE, "output_spatial_dimensions")?;
    let output_dims = [&[d.output_batch_dimension][..], &d.output_spatial_dimensions, &[d.output_feature_dimension]].concat();
    dims_check(CONV_OUTPUT_DIMS, "output", &output_dims, n)?;
    let (fgc, bgc) = (c.feature_group_count, c.batch_group_count);
    if fgc <= 0 {
        return err(CONV_FEATURE_GROUP_POSITIVE, format!("feature_group_count {fgc} must be positive"));
    }
    if bgc <= 0 {
        return err(CONV_BATCH_GROUP_POSITIVE, format!("batch_group_count {bgc} must be positive"));
    }
    if fgc != 1 && bgc != 1 {
        return err(
            CONV_GROUPS_EXCLUSIVE,
            format!("feature_group_count ({fgc}) and batch_group_count ({bgc}) cannot both exceed 1"),
        );
    }
    let in_batch = at(lhs, d.input_batch_dimension);
    let in_feature = at(lhs, d.input_feature_dimension);
    let k_in = at(rhs, d.kernel_input_feature_dimension);
    let k_out = at(rhs, d.kernel_output_feature_dimension);
    divides(CONV_BATCH_GROUP_DIVIDES, "input batch dimension size", in_batch, bgc, "batch_group_count")?;
    divides(CONV_FEATURE_GROUP_DIVIDES, "input feature dimension size", in_feature, fgc, "feature_group_count")?;
    if in_feature != DYN && !dim_compatible(k_in, in_feature / fgc) {
        return err(
            CONV_KERNEL_INPUT_FEATURE,
            format!(
                "kernel input feature dimension size ({}) must equal input feature size / feature_group_count ({} / {fgc})",
                fmt::dim(k_in),
                in_feature
            ),
        );
    }
    divides(CONV_KERNEL_OUTPUT_BATCH_GROUP, "kernel output feature dimension size", k_out, bgc, "batch_group_count")?;
    divides(CONV_KERNEL_OUTPUT_FEATURE_GROUP, "kernel output feature dimension size", k_out, fgc, "feature_group_count")?;
    let get = |v: Option<&[i64]>, i: usize| v.and_then(|v| v.get(i)).copied().unwrap_or(1);
    let mut out = vec![DYN; n];
    if let Some(slot) = usize::try_from(d.output_batch_dimension).ok().and_then(|i| out.get_mut(i)) {
        *slot = if in_batch == DYN { DYN } else { in_batch / bgc };
    }
    if let Some(slot) = usize::try_from(d.output_feature_dimension).ok().and_then(|i| out.get_mut(i)) {
        *slot = k_out;
    }
    for i in 0..s {
        let size = num_windows(
            at(lhs, d.input_spatial_dimensions[i]),
            at(rhs, d.kernel_spatial_dimensions[i]),
            get(c.window_strides, i),
            get(c.lhs_dilation, i),
            get(c.rhs_dilation, i),
            c.padding.and_then(|p| p.get(i)).copied().unwrap_or((0, 0)),
        );
        if let Some(slot) = usize::try_from(d.output_spatial_dimensions[i]).ok().and_then(|i| out.get_mut(i)) {
            *slot = size;
        }
    }
    Ok(out)
}
