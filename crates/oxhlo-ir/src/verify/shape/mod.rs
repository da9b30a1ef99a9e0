//! Shape inference and shape rules, shared by the verifier, the interpreter and the passes: every function
//! here validates the attributes that shape a result (dimension lists, permutations, bounds) and either
//! returns the result shape or a [`ShapeError`] naming the broken rule with its values. Dynamic
//! dimensions ([`DYN`]) are compatible with any size and propagate into the results they feed.
//!
//! Families: element-wise broadcasting and data movement here; windows in [`window`]; dot_general and
//! convolution in [`dot_conv`]; gather and scatter in [`gather`].

use crate::types::DYN;
use crate::verify::fmt;
use crate::verify::Rule;

pub mod dot_conv;
pub mod gather;
pub mod window;

pub use dot_conv::{infer_conv_shape, infer_dot_general_shape, infer_dot_shape, ConvConfig};
pub use gather::{check_scatter_shapes, infer_gather_shape, ScatterShapes};
pub use window::{infer_select_and_scatter_source_shape, infer_window_shape, num_windows, WindowConfig};

rules! {
    NUMPY_BROADCAST = "broadcast.compatible": "implicitly broadcast operands have broadcast-compatible shapes";
    BCAST_DIMS_SIZE = "broadcast_in_dim.dims_size": "size(broadcast_dimensions) = rank(operand) (C2)";
    BCAST_DIMS_RANGE = "broadcast_in_dim.dims_range": "0 <= broadcast_dimensions[i] < rank(result) (C3)";
    BCAST_DIMS_UNIQUE = "broadcast_in_dim.dims_unique": "broadcast_dimensions are unique (C4)";
    BCAST_DIM_SIZE = "broadcast_in_dim.dim_size": "dim(operand, j) is 1 or dim(result, broadcast_dimensions[j]) (C5)";
    TRANSPOSE_PERM = "transpose.permutation": "permutation is a permutation of [0, rank(operand)) (C2)";
    SLICE_SIZES = "slice.sizes": "size(start_indices) = size(limit_indices) = size(strides) = rank(operand) (C2)";
    SLICE_BOUNDS = "slice.bounds": "0 <= start_indices[d] <= limit_indices[d] <= dim(operand, d) (C3)";
    SLICE_STRIDES = "slice.strides": "strides[d] > 0 (C4)";
    PAD_SIZES = "pad.sizes": "edge_padding_low, edge_padding_high and interior_padding have rank(operand) entries (C2)";
    PAD_INTERIOR = "pad.interior": "interior_padding[i] >= 0 (C3)";
    PAD_RESULT_DIM = "pad.result_dim": "every padded dimension size is >= 0 (C4)";
    CONCAT_DIM = "concatenate.dimension": "0 <= dimension < rank(inputs[0]) (C4)";
    CONCAT_SHAPES = "concatenate.shapes": "inputs have the same shape except along dimension (C2)";
    REDUCE_DIMS_RANGE = "reduce.dims_range": "0 <= dimensions[d] < rank(inputs[0]) (C4)";
    REDUCE_DIMS_UNIQUE = "reduce.dims_unique": "dimensions are unique (C5)";
    DSLICE_SIZES_COUNT = "dynamic_slice.sizes_count": "size(slice_sizes) = rank(operand) (C2)";
    DSLICE_SIZES_RANGE = "dynamic_slice.sizes_range": "0 <= slice_sizes[k] <= dim(operand, k) (C4)";
}

/// A violated shape rule: which, and a message with the values (no op name; callers add it).
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeError {
    pub rule: Rule,
    pub message: String,
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ShapeError {}

/// The result of a shape inference: the result shape, or the rule broken.
pub type ShapeResult<T = Vec<i64>> = Result<T, ShapeError>;

pub(crate) fn err<T>(rule: Rule, message: impl Into<String>) -> ShapeResult<T> {
    Err(ShapeError { rule, message: message.into() })
}

/// Whether two dimension sizes can be equal at run time (either is dynamic, or they are equal).
pub fn dim_compatible(a: i64, b: i64) -> bool {
    a == DYN || b == DYN || a == b
}

/// Whether two shapes have the same rank and compatible dimensions.
pub fn shapes_compatible(a: &[i64], b: &[i64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| dim_compatible(x, y))
}

/// The number of elements of a static shape (None when dynamic, negative or overflowing).
pub fn num_elements(shape: &[i64]) -> Option<i64> {
    shape.iter().try_fold(1i64, |n, &d| if d < 0 { None } else { n.checked_mul(d) })
}

/// Whether every entry is distinct.
pub fn is_unique(v: &[i64]) -> bool {
    let mut s = v.to_vec();
    s.sort_unstable();
    s.windows(2).all(|w| w[0] != w[1])
}

/// Whether the entries are in non-decreasing order.
pub fn is_sorted(v: &[i64]) -> bool {
    v.windows(2).all(|w| w[0] <= w[1])
}

/// The first entry outside `[0, bound)`, if any.
pub(crate) fn out_of_range(v: &[i64], bound: usize) -> Option<i64> {
    v.iter().copied().find(|&d| d < 0 || d as u64 >= bound as u64)
}

/// `shape[d]` for a dimension already checked to be in range (DYN otherwise, never panics).
pub(crate) fn at(shape: &[i64], d: i64) -> i64 {
    usize::try_from(d).ok().and_then(|i| shape.get(i)).copied().unwrap_or(DYN)
}

/// Clamps a wide intermediate back to a dimension size.
pub(crate) fn narrow(x: i128) -> i64 {
    x.clamp(i64::MIN as i128 + 1, i64::MAX as i128) as i64
}

/// Numpy-style broadcasting of two shapes aligned at their trailing dimensions (chlo's implicit
/// broadcasting): sizes must be equal, or one of them 1.
pub fn broadcast_shapes(a: &[i64], b: &[i64]) -> ShapeResult {
    let rank = a.len().max(b.len());
    let mut out = vec![0; rank];
    for i in 0..rank {
        let x = if i + a.len() >= rank { a[i + a.len() - rank] } else { 1 };
        let y = if i + b.len() >= rank { b[i + b.len() - rank] } else { 1 };
        out[i] = match (x, y) {
            (1, y) => y,
            (x, 1) => x,
            (DYN, y) | (y, DYN) => y,
            (x, y) if x == y => x,
            _ => {
                return err(
                    NUMPY_BROADCAST,
                    format!("shapes [{}] and [{}] are not broadcast-compatible", fmt::shape(a), fmt::shape(b)),
                )
            }
        };
    }
    Ok(out)
}

/// Checks broadcast_in_dim's constraints (C2)-(C5) for an operand shape, its broadcast_dimensions and
/// the result shape.
pub fn check_broadcast_in_dim(operand: &[i64], dims: &[i64], result: &[i64]) -> ShapeResult<()> {
    if dims.len() != operand.len() {
        return err(
            BCAST_DIMS_SIZE,
            format!("broadcast_dimensions has {} entries but the operand has rank {}", dims.len(), operand.len()),
        );
    }
    if let Some(d) = out_of_range(dims, result.len()) {
        return err(BCAST_DIMS_RANGE, format!("broadcast dimension {d} is out of range [0, {})", result.len()));
    }
    if !is_unique(dims) {
        return err(BCAST_DIMS_UNIQUE, format!("broadcast_dimensions {} are not unique", fmt::list(dims)));
    }
    for (j, (&od, &rd)) in operand.iter().zip(dims).enumerate() {
        let r = at(result, rd);
        if od != 1 && !dim_compatible(od, r) {
            return err(
                BCAST_DIM_SIZE,
                format!(
                    "operand dimension {j} has size {} but result dimension {rd} has size {}; it must be 1 or equal",
                    fmt::dim(od),
                    fmt::dim(r)
                ),
            );
        }
    }
    Ok(())
}

/// The shape of `transpose(operand, permutation)`.
pub fn infer_transpose_shape(operand: &[i64], perm: &[i64]) -> ShapeResult {
    let mut sorted = perm.to_vec();
    sorted.sort_unstable();
    if perm.len() != operand.len() || sorted.iter().enumerate().any(|(i, &p)| p != i as i64) {
        return err(
            TRANSPOSE_PERM,
            format!("permutation {} is not a permutation of [0, {})", fmt::list(perm), operand.len()),
        );
    }
    Ok(perm.iter().map(|&p| at(operand, p)).collect())
}

/// The shape of `slice(operand, start_indices, limit_indices, strides)`.
pub fn infer_slice_shape(operand: &[i64], start: &[i64], limit: &[i64], strides: &[i64]) -> ShapeResult {
    let r = operand.len();
    if start.len() != r || limit.len() != r || strides.len() != r {
        return err(
            SLICE_SIZES,
            format!(
                "start_indices, limit_indices and strides have {}, {} and {} entries but the operand has rank {r}",
                start.len(),
                limit.len(),
                strides.len()
            ),
        );
    }
    let mut out = Vec::with_capacity(r);
    for d in 0..r {
        let (s, l, st, dim) = (start[d], limit[d], strides[d], operand[d]);
        if s < 0 || l < s || (dim != DYN && l > dim) {
            return err(
                SLICE_BOUNDS,
                format!(
                    "dimension {d}: need 0 <= start ({s}) <= limit ({l}) <= dimension size ({})",
                    fmt::dim(dim)
                ),
            );
        }
        if st <= 0 {
            return err(SLICE_STRIDES, format!("stride {st} of dimension {d} must be positive"));
        }
        out.push(narrow((l as i128 - s as i128 + st as i128 - 1) / st as i128));
    }
    Ok(out)
}

/// The shape of `pad(operand, edge_padding_low, edge_padding_high, interior_padding)`.
pub fn infer_pad_shape(operand: &[i64], low: &[i64], high: &[i64], interior: &[i64]) -> ShapeResult {
    let r = operand.len();
    if low.len() != r || high.len() != r || interior.len() != r {
        return err(
            PAD_SIZES,
            format!(
                "edge_padding_low, edge_padding_high and interior_padding have {}, {} and {} entries but the operand has rank {r}",
                low.len(),
                high.len(),
                interior.len()
            ),
        );
    }
    let mut out = Vec::with_capacity(r);
    for d in 0..r {
        if interior[d] < 0 {
            return err(PAD_INTERIOR, format!("interior_padding[{d}] = {} must be non-negative", interior[d]));
        }
        if operand[d] == DYN {
            out.push(DYN);
            continue;
        }
        let di = operand[d] as i128;
        let size = di + (di - 1).max(0) * interior[d] as i128 + low[d] as i128 + high[d] as i128;
        if size < 0 {
            return err(PAD_RESULT_DIM, format!("padded dimension {d} would have negative size {size}"));
        }
        out.push(narrow(size));
    }
    Ok(out)
}

/// The shape of `concatenate(inputs, dimension)`.
pub fn infer_concatenate_shape(inputs: &[&[i64]], dimension: i64) -> ShapeResult {
    let Some(first) = inputs.first() else { return Ok(Vec::new()) };
    if dimension < 0 || dimension as u64 >= first.len() as u64 {
        return err(CONCAT_DIM, format!("dimension {dimension} is out of range [0, {})", first.len()));
    }
    let d = dimension as usize;
    let mut out = first.to_vec();
    for (k, s) in inputs.iter().enumerate().skip(1) {
        let same = s.len() == first.len()
            && s.iter().zip(first.iter()).enumerate().all(|(i, (&x, &y))| i == d || dim_compatible(x, y));
        if !same {
            return err(
                CONCAT_SHAPES,
                format!(
                    "input #{k} has shape [{}], which differs from input #0's [{}] outside dimension {d}",
                    fmt::shape(s),
                    fmt::shape(first)
                ),
            );
        }
        out[d] = if out[d] == DYN || s[d] == DYN { DYN } else { narrow(out[d] as i128 + s[d] as i128) };
        for i in 0..out.len() {
            if i != d && out[i] == DYN {
                out[i] = s[i];
            }
        }
    }
    Ok(out)
}

/// The shape left after reducing `input` along `dimensions`.
pub fn infer_reduce_shape(input: &[i64], dimensions: &[i64]) -> ShapeResult {
    if let Some(d) = out_of_range(dimensions, input.len()) {
        return err(REDUCE_DIMS_RANGE, format!("reduction dimension {d} is out of range [0, {})", input.len()));
    }
    if !is_unique(dimensions) {
        return err(REDUCE_DIMS_UNIQUE, format!("dimensions {} are not unique", fmt::list(dimensions)));
    }
    Ok(input.iter().enumerate().filter(|(i, _)| !dimensions.contains(&(*i as i64))).map(|(_, &d)| d).collect())
}

/// The shape of `dynamic_slice(operand, ..., slice_sizes)`.
pub fn infer_dynamic_slice_shape(operand: &[i64], slice_sizes: &[i64]) -> ShapeResult {
    if slice_sizes.len() != operand.len() {
        return err(
            DSLICE_SIZES_COUNT,
            format!("slice_sizes has {} entries but the operand has rank {}", slice_sizes.len(), operand.len()),
        );
    }
    for (k, (&s, &d)) in slice_sizes.iter().zip(operand).enumerate() {
        if s < 0 || (d != DYN && s > d) {
            return err(
                DSLICE_SIZES_RANGE,
                format!("slice size {s} of dimension {k} is out of range [0, {}]", fmt::dim(d)),
            );
        }
    }
    Ok(slice_sizes.to_vec())
}
