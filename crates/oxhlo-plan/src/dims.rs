//! Dimension numbers of library ops (dot_general / dot, convolution), parsed once from an op's attributes
//! and checked against the operand ranks, with the spec's defaults for absent attributes. Shared by the
//! fast backends (the CPU kernels map them onto batched GEMMs; a CUDA backend renders the same numbers).
//! Errors are messages, never panics, whatever the attributes hold.

use oxhlo_ir::attr::Precision;
use oxhlo_ir::{Attr, Op, OpKind};

/// dot_general's dimension numbers as operand dimension indices, and its precision config.
#[derive(Clone, Debug, PartialEq)]
pub struct DotDims {
    pub lhs_batch: Vec<usize>,
    pub rhs_batch: Vec<usize>,
    pub lhs_contracting: Vec<usize>,
    pub rhs_contracting: Vec<usize>,
    /// The free (neither batch nor contracting) dimensions of each operand, ascending: the result is
    /// `[batch..., lhs free..., rhs free...]`.
    pub lhs_free: Vec<usize>,
    pub rhs_free: Vec<usize>,
    /// `precision_config` (empty when absent; it never changes results on the CPU).
    pub precision: Vec<Precision>,
}

fn idx(dims: &[i64], rank: usize, what: &str) -> Result<Vec<usize>, String> {
    dims.iter()
        .map(|&d| {
            usize::try_from(d).ok().filter(|&u| u < rank).ok_or_else(|| format!("{what} dimension {d} out of range for rank {rank}"))
        })
        .collect()
}

impl DotDims {
    /// Parses a `stablehlo.dot_general` (or the older `stablehlo.dot`) with operands of these shapes.
    pub fn from_op(op: &Op, lhs_shape: &[i64], rhs_shape: &[i64]) -> Result<DotDims, String> {
        let (lr, rr) = (lhs_shape.len(), rhs_shape.len());
        let raw = match op.kind {
            OpKind::Dot => {
                if !(1..=2).contains(&lr) || !(1..=2).contains(&rr) {
                    return Err(format!("dot takes rank-1 or rank-2 operands, got ranks {lr} and {rr}"));
                }
                oxhlo_ir::attr::DotDims {
                    lhs_contracting_dimensions: vec![lr as i64 - 1],
                    rhs_contracting_dimensions: vec![0],
                    ..Default::default()
                }
            }
            OpKind::DotGeneral => match op.attr("dot_dimension_numbers") {
                Some(Attr::DotDims(d)) => d.clone(),
                None => Default::default(),
                Some(_) => return Err("dot_dimension_numbers must be #stablehlo.dot<...>".into()),
            },
            _ => return Err(format!("{} is not a dot", op.name())),
        };
        let lhs_batch = idx(&raw.lhs_batching_dimensions, lr, "lhs batching")?;
        let rhs_batch = idx(&raw.rhs_batching_dimensions, rr, "rhs batching")?;
        let lhs_contracting = idx(&raw.lhs_contracting_dimensions, lr, "lhs contracting")?;
        let rhs_contracting = idx(&raw.rhs_contracting_dimensions, rr, "rhs contracting")?;
        if lhs_batch.len() != rhs_batch.len() || lhs_contracting.len() != rhs_contracting.len() {
            return Err("lhs and rhs batching/contracting dimension lists differ in length".into());
        }
        for (&a, &b) in lhs_batch.iter().zip(&rhs_batch).chain(lhs_contracting.iter().zip(&rhs_contracting)) {
            if lhs_shape[a] != rhs_shape[b] {
                return Err(format!("lhs dimension {a} (size {}) and rhs dimension {b} (size {}) differ", lhs_shape[a], rhs_shape[b]));
            }
        }
        let lhs_free: Vec<usize> = (0..lr).filter(|d| !lhs_batch.contains(d) && !lhs_contracting.contains(d)).collect();
        let rhs_free: Vec<usize> = (0..rr).filter(|d| !rhs_batch.contains(d) && !rhs_contracting.contains(d)).collect();
        if lhs_free.len() + lhs_batch.len() + lhs_contracting.len() != lr
            || rhs_free.len() + rhs_batch.len() + rhs_contracting.len() != rr
        {
            return Err("a dimension is listed twice in the dot dimension numbers".into());
        }
        let precision = match op.attr("precision_config") {
            Some(Attr::Array(items)) => items.iter().filter_map(|a| if let Attr::Precision(p) = a { Some(*p) } else { None }).collect(),
            _ => Vec::new(),
        };
        Ok(DotDims { lhs_batch, rhs_batch, lhs_contracting, rhs_contracting, lhs_free, rhs_free, precision })
    }

    /// The result shape `[batch..., lhs free..., rhs free...]`.
    pub fn result_shape(&self, lhs_shape: &[i64], rhs_shape: &[i64]) -> Vec<i64> {
        let mut s: Vec<i64> = self.lhs_batch.iter().map(|&d| lhs_shape[d]).collect();
        s.extend(self.lhs_free.iter().map(|&d| lhs_shape[d]));
        s.extend(self.rhs_free.iter().map(|&d| rhs_shape[d]));
        s
    }
}

/// A convolution's dimension numbers (as operand dimension indices) and window attributes, defaults
/// filled in: strides/dilations 1, padding 0, no reversal, group counts 1.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvDims {
    pub input_batch: usize,
    pub input_feature: usize,
    pub input_spatial: Vec<usize>,
    pub kernel_input_feature: usize,
    pub kernel_output_feature: usize,
    pub kernel_spatial: Vec<usize>,
    pub output_batch: usize,
    pub output_feature: usize,
    pub output_spatial: Vec<usize>,
    pub window_strides: Vec<i64>,
    /// (low, high) per spatial dimension; may be negative.
    pub padding: Vec<(i64, i64)>,
    pub lhs_dilation: Vec<i64>,
    pub rhs_dilation: Vec<i64>,
    pub window_reversal: Vec<bool>,
    pub feature_group_count: usize,
    pub batch_group_count: usize,
    pub precision: Vec<Precision>,
}

fn i64s(op: &Op, name: &str) -> Result<Option<Vec<i64>>, String> {
    match op.attr(name) {
        None => Ok(None),
        Some(a) => a.as_i64_list().map(Some).ok_or_else(|| format!("attribute `{name}` must be a list of integers")),
    }
}

fn group_count(op: &Op, name: &str) -> Result<usize, String> {
    match op.attr(name) {
        None => Ok(1),
        Some(a) => a
            .as_int()
            .and_then(|v| usize::try_from(v).ok())
            .filter(|&v| v >= 1)
            .ok_or_else(|| format!("`{name}` must be a positive integer")),
    }
}

impl ConvDims {
    /// Parses a `stablehlo.convolution` whose operands have rank `rank`. `padding` overrides the
    /// attribute (dynamic_conv's padding operand, flattened low/high pairs).
    pub fn from_op(op: &Op, rank: usize, padding: Option<&[i64]>) -> Result<ConvDims, String> {
        let dn = match op.attr("dimension_numbers") {
            Some(Attr::ConvDims(d)) => d,
            _ => return Err("missing convolution dimension_numbers".into()),
        };
        let s = dn.input_spatial_dimensions.len();
        if rank != s + 2 || dn.kernel_spatial_dimensions.len() != s || dn.output_spatial_dimensions.len() != s {
            return Err(format!("dimension numbers name {s} spatial dimensions for operands of rank {rank}"));
        }
        let one = |d: i64, what: &str| idx(&[d], rank, what).map(|v| v[0]);
        let list = |name: &str, default: i64| -> Result<Vec<i64>, String> {
            let v = i64s(op, name)?.unwrap_or_else(|| vec![default; s]);
            if v.len() != s {
                return Err(format!("`{name}` must have {s} entries"));
            }
            if v.iter().any(|&x| x < 1) {
                return Err(format!("`{name}` entries must be positive"));
            }
            Ok(v)
        };
        let pad = match padding {
            Some(p) => p.to_vec(),
            None => i64s(op, "padding")?.unwrap_or_else(|| vec![0; 2 * s]),
        };
        if pad.len() != 2 * s {
            return Err(format!("padding must have {s} (low, high) pairs"));
        }
        let window_reversal = match op.attr("window_reversal") {
            None => vec![false; s],
            Some(a) => a.as_bool_list().ok_or("window_reversal must be a list of booleans")?,
        };
        if window_reversal.len() != s {
            return Err(format!("window_reversal must have {s} entries"));
        }
        let feature_group_count = group_count(op, "feature_group_count")?;
        let batch_group_count = group_count(op, "batch_group_count")?;
        if feature_group_count > 1 && batch_group_count > 1 {
            return Err("feature_group_count and batch_group_count cannot both exceed 1".into());
        }
        let precision = match op.attr("precision_config") {
            Some(Attr::Array(items)) => items.iter().filter_map(|a| if let Attr::Precision(p) = a { Some(*p) } else { None }).collect(),
            _ => Vec::new(),
        };
        let c = ConvDims {
            input_batch: one(dn.input_batch_dimension, "input batch")?,
            input_feature: one(dn.input_feature_dimension, "input feature")?,
            input_spatial: idx(&dn.input_spatial_dimensions, rank, "input spatial")?,
            kernel_input_feature: one(dn.kernel_input_feature_dimension, "kernel input feature")?,
            kernel_output_feature: one(dn.kernel_output_feature_dimension, "kernel output feature")?,
            kernel_spatial: idx(&dn.kernel_spatial_dimensions, rank, "kernel spatial")?,
            output_batch: one(dn.output_batch_dimension, "output batch")?,
            output_feature: one(dn.output_feature_dimension, "output feature")?,
            output_spatial: idx(&dn.output_spatial_dimensions, rank, "output spatial")?,
            window_strides: list("window_strides", 1)?,
            padding: pad.chunks_exact(2).map(|p| (p[0], p[1])).collect(),
            lhs_dilation: list("lhs_dilation", 1)?,
            rhs_dilation: list("rhs_dilation", 1)?,
            window_reversal,
            feature_group_count,
            batch_group_count,
            precision,
        };
        let distinct = |a: usize, b: usize, sp: &[usize]| {
            let mut all = vec![a, b];
            all.extend_from_slice(sp);
            all.sort_unstable();
            all.dedup();
            all.len() == rank
        };
        if !distinct(c.input_batch, c.input_feature, &c.input_spatial)
            || !distinct(c.kernel_input_feature, c.kernel_output_feature, &c.kernel_spatial)
            || !distinct(c.output_batch, c.output_feature, &c.output_spatial)
        {
            return Err("convolution dimension numbers must name every dimension once".into());
        }
        Ok(c)
    }

    /// Spatial dimension count.
    pub fn spatial(&self) -> usize {
        self.input_spatial.len()
    }

    /// Output size of spatial dimension `d` for input size `n` and kernel size `k` (0 when the dilated
    /// kernel does not fit the padded, dilated input).
    pub fn output_size(&self, d: usize, n: i64, k: i64) -> i64 {
        let (st, ld, rd) = (self.window_strides[d], self.lhs_dilation[d], self.rhs_dilation[d]);
        let (lo, hi) = self.padding[d];
        let dilated_in = if n <= 0 { 0 } else { (n - 1).saturating_mul(ld).saturating_add(1) };
        let padded = dilated_in.saturating_add(lo).saturating_add(hi);
        let dilated_k = if k <= 0 { 0 } else { (k - 1).saturating_mul(rd).saturating_add(1) };
        if padded < dilated_k || k <= 0 {
            0
        } else {
            (padded - dilated_k) / st + 1
        }
    }

    /// Input position read by output position `y` and kernel tap `k` of spatial dimension `d` (padding
    /// and lhs dilation applied), or None when it falls on padding or a dilation hole.
    pub fn input_pos(&self, d: usize, y: i64, k: i64, n: i64) -> Option<usize> {
        let ld = self.lhs_dilation[d];
        let p = y
            .checked_mul(self.window_strides[d])?
            .checked_add(k.checked_mul(self.rhs_dilation[d])?)?
            .checked_sub(self.padding[d].0)?;
        if p >= 0 && ld > 0 && p % ld == 0 && p / ld < n {
            usize::try_from(p / ld).ok()
        } else {
            None
        }
    }
}
