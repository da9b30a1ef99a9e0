//! Windowed shapes: the number of windows along one dimension (shared by reduce_window,
//! select_and_scatter and convolution) and the validated output shape of a windowed reduction.

use super::{err, narrow, ShapeResult};
use crate::types::DYN;

rules! {
    WINDOW_DIMS_SIZE = "window.dimensions_size": "size(window_dimensions) = rank(input)";
    WINDOW_DIMS_POSITIVE = "window.dimensions_positive": "window_dimensions[i] > 0";
    WINDOW_STRIDES_SIZE = "window.strides_size": "size(window_strides) = rank(input)";
    WINDOW_STRIDES_POSITIVE = "window.strides_positive": "window_strides[i] > 0";
    BASE_DILATIONS_SIZE = "window.base_dilations_size": "size(base_dilations) = rank(input)";
    BASE_DILATIONS_POSITIVE = "window.base_dilations_positive": "base_dilations[i] > 0";
    WINDOW_DILATIONS_SIZE = "window.window_dilations_size": "size(window_dilations) = rank(input)";
    WINDOW_DILATIONS_POSITIVE = "window.window_dilations_positive": "window_dilations[i] > 0";
    PADDING_SHAPE = "window.padding_shape": "padding has shape [rank(input), 2]";
}

/// The attributes of a window over every dimension of an input; absent lists mean all ones (zeros for
/// padding).
#[derive(Clone, Copy, Debug, Default)]
pub struct WindowConfig<'a> {
    pub dimensions: &'a [i64],
    pub strides: Option<&'a [i64]>,
    pub base_dilations: Option<&'a [i64]>,
    pub window_dilations: Option<&'a [i64]>,
    pub padding: Option<&'a [(i64, i64)]>,
}

/// The number of windows of size `window` (dilated by `window_dilation`) that fit, `stride` apart, in an
/// input dimension of size `input` dilated by `base_dilation` and padded by `(lo, hi)`. Dynamic input
/// gives [`DYN`]. Arguments are assumed validated (positive strides and dilations).
pub fn num_windows(input: i64, window: i64, stride: i64, base_dilation: i64, window_dilation: i64, pad: (i64, i64)) -> i64 {
    if input == DYN || window == DYN {
        return DYN;
    }
    let dilated = |d: i64, dil: i64| if d <= 0 { 0 } else { (d as i128 - 1) * dil as i128 + 1 };
    let padded = pad.0 as i128 + dilated(input, base_dilation) + pad.1 as i128;
    let win = dilated(window, window_dilation);
    if padded <= 0 || win > padded || stride <= 0 {
        return 0;
    }
    narrow((padded - win) / stride as i128 + 1)
}

fn check_list(
    name: &str,
    v: Option<&[i64]>,
    rank: usize,
    size_rule: crate::verify::Rule,
    positive_rule: crate::verify::Rule,
) -> ShapeResult<()> {
    let Some(v) = v else { return Ok(()) };
    if v.len() != rank {
        return err(size_rule, format!("{name} has {} entries, expected {rank}", v.len()));
    }
    if let Some((i, &x)) = v.iter().enumerate().find(|(_, &x)| x <= 0) {
        return err(positive_rule, format!("{name}[{i}] = {x} must be positive"));
    }
    Ok(())
}

/// Validates a window over an input of shape `input` and returns the shape of the windowed result
/// (reduce_window's (C4)-(C12), (C15)).
pub fn infer_window_shape(input: &[i64], w: &WindowConfig) -> ShapeResult {
    let rank = input.len();
    check_list("window_dimensions", Some(w.dimensions), rank, WINDOW_DIMS_SIZE, WINDOW_DIMS_POSITIVE)?;
    check_list("window_strides", w.strides, rank, WINDOW_STRIDES_SIZE, WINDOW_STRIDES_POSITIVE)?;
    check_list("base_dilations", w.base_dilations, rank, BASE_DILATIONS_SIZE, BASE_DILATIONS_POSITIVE)?;
    check_list("window_dilations", w.window_dilations, rank, WINDOW_DILATIONS_SIZE, WINDOW_DILATIONS_POSITIVE)?;
    if let Some(p) = w.padding {
        if p.len() != rank {
            return err(PADDING_SHAPE, format!("padding has {} rows, expected {rank}", p.len()));
        }
    }
    let get = |v: Option<&[i64]>, i: usize, dflt: i64| v.and_then(|v| v.get(i)).copied().unwrap_or(dflt);
    Ok((0..rank)
        .map(|i| {
            num_windows(
                input[i],
                w.dimensions[i],
                get(w.strides, i, 1),
                get(w.base_dilations, i, 1),
                get(w.window_dilations, i, 1),
                w.padding.and_then(|p| p.get(i)).copied().unwrap_or((0, 0)),
            )
        })
        .collect())
}

/// The shape `source` must have in select_and_scatter (C3): the windows of the padded operand, with no
/// dilations.
pub fn infer_select_and_scatter_source_shape(
    operand: &[i64],
    window_dimensions: &[i64],
    window_strides: Option<&[i64]>,
    padding: Option<&[(i64, i64)]>,
) -> ShapeResult {
    infer_window_shape(
        operand,
        &WindowConfig { dimensions: window_dimensions, strides: window_strides, padding, ..Default::default() },
    )
}
