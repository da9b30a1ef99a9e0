//! Gather and scatter: validation of their dimension numbers (including the batching dimensions) and the
//! shapes they relate: gather's result shape, scatter's update shape.

use super::{at, dim_compatible, err, is_sorted, is_unique, out_of_range, ShapeResult};
use crate::attr::{GatherDims, ScatterDims};
use crate::types::DYN;
use crate::verify::{fmt, Rule};

rules! {
    GATHER_RANK = "gather.operand_rank": "rank(operand) = size(offset_dims) + size(collapsed_slice_dims) + size(operand_batching_dims) (C1)";
    GATHER_INDEX_VECTOR_DIM = "gather.index_vector_dim": "0 <= index_vector_dim <= rank(start_indices) (C2)";
    GATHER_START_INDEX_MAP_SIZE = "gather.start_index_map_size": "size(start_index_map) = dim(start_indices, index_vector_dim), or 1 (C3)";
    GATHER_OFFSET_DIMS = "gather.offset_dims": "offset_dims are unique and sorted (C4)";
    GATHER_OFFSET_DIMS_RANGE = "gather.offset_dims_range": "0 <= offset_dims < rank(result) (C5)";
    GATHER_COLLAPSED_BATCHING_UNIQUE = "gather.collapsed_batching_unique": "collapsed_slice_dims and operand_batching_dims together are unique (C6)";
    GATHER_COLLAPSED_SORTED = "gather.collapsed_sorted": "collapsed_slice_dims are sorted (C7)";
    GATHER_COLLAPSED_RANGE = "gather.collapsed_range": "0 <= collapsed_slice_dims < rank(operand) (C8)";
    GATHER_COLLAPSED_SIZE = "gather.collapsed_size": "slice_sizes[collapsed_slice_dims] <= 1 (C9)";
    GATHER_BATCHING_SORTED = "gather.operand_batching_sorted": "operand_batching_dims are sorted (C10)";
    GATHER_BATCHING_RANGE = "gather.operand_batching_range": "0 <= operand_batching_dims < rank(operand) (C11)";
    GATHER_BATCHING_SIZE = "gather.operand_batching_size": "slice_sizes[operand_batching_dims] <= 1 (C12)";
    GATHER_INDICES_BATCHING_UNIQUE = "gather.indices_batching_unique": "start_indices_batching_dims are unique (C13)";
    GATHER_INDICES_BATCHING_RANGE = "gather.indices_batching_range": "0 <= start_indices_batching_dims < rank(start_indices) (C14)";
    GATHER_INDICES_BATCHING_IVD = "gather.indices_batching_index_vector_dim": "index_vector_dim is not a start_indices_batching_dim (C15)";
    GATHER_BATCHING_COUNT = "gather.batching_count": "size(operand_batching_dims) = size(start_indices_batching_dims) (C16)";
    GATHER_BATCHING_SIZES = "gather.batching_sizes": "operand and start_indices batching dimension sizes are equal (C17)";
    GATHER_START_INDEX_MAP_UNIQUE = "gather.start_index_map_unique": "start_index_map and operand_batching_dims together are unique (C18)";
    GATHER_START_INDEX_MAP_RANGE = "gather.start_index_map_range": "0 <= start_index_map < rank(operand) (C19)";
    GATHER_SLICE_SIZES_COUNT = "gather.slice_sizes_count": "size(slice_sizes) = rank(operand) (C20)";
    GATHER_SLICE_SIZES_RANGE = "gather.slice_sizes_range": "0 <= slice_sizes[i] <= dim(operand, i) (C21)";
    SCATTER_RANK = "scatter.input_rank": "rank(inputs[0]) = size(update_window_dims) + size(inserted_window_dims) + size(input_batching_dims) (C2)";
    SCATTER_UPDATE_SHAPE = "scatter.update_shape": "shape(updates[0]) combines the scatter index dimensions and window sizes <= the input's (C4)";
    SCATTER_WINDOW_DIMS = "scatter.update_window_dims": "update_window_dims are unique and sorted (C7)";
    SCATTER_WINDOW_DIMS_RANGE = "scatter.update_window_dims_range": "0 <= update_window_dims < rank(updates[0]) (C8)";
    SCATTER_INSERTED_BATCHING_UNIQUE = "scatter.inserted_batching_unique": "inserted_window_dims and input_batching_dims together are unique (C9)";
    SCATTER_INSERTED_SORTED = "scatter.inserted_sorted": "inserted_window_dims are sorted (C10)";
    SCATTER_INSERTED_RANGE = "scatter.inserted_range": "0 <= inserted_window_dims < rank(inputs[0]) (C11)";
    SCATTER_BATCHING_SORTED = "scatter.input_batching_sorted": "input_batching_dims are sorted (C12)";
    SCATTER_BATCHING_RANGE = "scatter.input_batching_range": "0 <= input_batching_dims < rank(inputs[0]) (C13)";
    SCATTER_INDICES_BATCHING_UNIQUE = "scatter.indices_batching_unique": "scatter_indices_batching_dims are unique (C14)";
    SCATTER_INDICES_BATCHING_RANGE = "scatter.indices_batching_range": "0 <= scatter_indices_batching_dims < rank(scatter_indices) (C15)";
    SCATTER_INDICES_BATCHING_IVD = "scatter.indices_batching_index_vector_dim": "index_vector_dim is not a scatter_indices_batching_dim (C16)";
    SCATTER_BATCHING_COUNT = "scatter.batching_count": "size(input_batching_dims) = size(scatter_indices_batching_dims) (C17)";
    SCATTER_BATCHING_SIZES = "scatter.batching_sizes": "input and scatter_indices batching dimension sizes are equal (C18)";
    SCATTER_DIMS_TO_OPERAND_SIZE = "scatter.dims_to_operand_size": "size(scatter_dims_to_operand_dims) = dim(scatter_indices, index_vector_dim), or 1 (C19)";
    SCATTER_DIMS_TO_OPERAND_UNIQUE = "scatter.dims_to_operand_unique": "scatter_dims_to_operand_dims and input_batching_dims together are unique (C20)";
    SCATTER_DIMS_TO_OPERAND_RANGE = "scatter.dims_to_operand_range": "0 <= scatter_dims_to_operand_dims < rank(inputs[0]) (C21)";
    SCATTER_INDEX_VECTOR_DIM = "scatter.index_vector_dim": "0 <= index_vector_dim <= rank(scatter_indices) (C22)";
}

fn range(rule: Rule, what: &str, dims: &[i64], bound: usize, bound_name: &str) -> ShapeResult<()> {
    match out_of_range(dims, bound) {
        Some(d) => err(rule, format!("{what} {d} is out of range [0, {bound}) ({bound_name})")),
        None => Ok(()),
    }
}

fn unique(rule: Rule, what: &str, dims: &[i64]) -> ShapeResult<()> {
    if is_unique(dims) {
        Ok(())
    } else {
        err(rule, format!("{what} {} are not unique", fmt::list(dims)))
    }
}

fn sorted(rule: Rule, what: &str, dims: &[i64]) -> ShapeResult<()> {
    if is_sorted(dims) {
        Ok(())
    } else {
        err(rule, format!("{what} {} are not sorted", fmt::list(dims)))
    }
}

/// The index vector dimension's size check shared by gather (C3) and scatter (C19).
fn index_map_size(rule: Rule, what: &str, map_len: usize, indices: &[i64], ivd: i64) -> ShapeResult<()> {
    let expected = if (ivd as u64) < indices.len() as u64 { at(indices, ivd) } else { 1 };
    if expected != DYN && expected != map_len as i64 {
        return err(
            rule,
            format!("{what} has {map_len} entries but the index vector dimension has size {expected}"),
        );
    }
    Ok(())
}

/// Batch dimensions of the indices: every dimension except the index vector dimension.
fn index_batch_dims(indices: &[i64], ivd: i64) -> Vec<i64> {
    indices.iter().enumerate().filter(|(i, _)| *i as i64 != ivd).map(|(_, &d)| d).collect()
}

/// Checks the batching-dimension pairing shared by gather (C13)-(C17) and scatter (C14)-(C18).
#[allow(clippy::too_many_arguments)]
fn batching(
    rules: [Rule; 5],
    names: (&str, &str),
    operand: &[i64],
    operand_batching: &[i64],
    indices: &[i64],
    indices_batching: &[i64],
    ivd: i64,
) -> ShapeResult<()> {
    let [uniq, rng, ivd_rule, count, sizes] = rules;
    unique(uniq, names.1, indices_batching)?;
    range(rng, names.1, indices_batching, indices.len(), "the rank of the indices")?;
    if indices_batching.contains(&ivd) {
        return err(ivd_rule, format!("index_vector_dim {ivd} must not be one of {} {}", names.1, fmt::list(indices_batching)));
    }
    if operand_batching.len() != indices_batching.len() {
        return err(
            count,
            format!("{} has {} entries but {} has {}", names.0, operand_batching.len(), names.1, indices_batching.len()),
        );
    }
    for (&o, &i) in operand_batching.iter().zip(indices_batching) {
        let (x, y) = (at(operand, o), at(indices, i));
        if !dim_compatible(x, y) {
            return err(
                sizes,
                format!("batching dimension sizes differ ({} vs {}) for operand dimension {o} and indices dimension {i}", fmt::dim(x), fmt::dim(y)),
            );
        }
    }
    Ok(())
}

/// The result shape of `gather(operand, start_indices)`, validating (C1)-(C21). `slice_sizes` is None
/// for dynamic_gather, whose slice sizes are an operand.
pub fn infer_gather_shape(operand: &[i64], indices: &[i64], d: &GatherDims, slice_sizes: Option<&[i64]>) -> ShapeResult {
    let r = operand.len();
    if let Some(s) = slice_sizes {
        if s.len() != r {
            return err(GATHER_SLICE_SIZES_COUNT, format!("slice_sizes has {} entries but the operand has rank {r}", s.len()));
        }
    }
    let (offset, collapsed, obatch) = (&d.offset_dims, &d.collapsed_slice_dims, &d.operand_batching_dims);
    if offset.len() + collapsed.len() + obatch.len() != r {
        return err(
            GATHER_RANK,
            format!(
                "operand rank {r} must equal size(offset_dims) + size(collapsed_slice_dims) + size(operand_batching_dims) = {} + {} + {}",
                offset.len(),
                collapsed.len(),
                obatch.len()
            ),
        );
    }
    let ivd = d.index_vector_dim;
    if ivd < 0 || ivd as u64 > indices.len() as u64 {
        return err(GATHER_INDEX_VECTOR_DIM, format!("index_vector_dim {ivd} is out of range [0, {}]", indices.len()));
    }
    index_map_size(GATHER_START_INDEX_MAP_SIZE, "start_index_map", d.start_index_map.len(), indices, ivd)?;
    if !is_unique(offset) || !is_sorted(offset) {
        return err(GATHER_OFFSET_DIMS, format!("offset_dims {} must be unique and sorted", fmt::list(offset)));
    }
    unique(GATHER_COLLAPSED_BATCHING_UNIQUE, "collapsed_slice_dims + operand_batching_dims", &[collapsed.as_slice(), obatch].concat())?;
    sorted(GATHER_COLLAPSED_SORTED, "collapsed_slice_dims", collapsed)?;
    range(GATHER_COLLAPSED_RANGE, "collapsed slice dimension", collapsed, r, "the rank of the operand")?;
    sorted(GATHER_BATCHING_SORTED, "operand_batching_dims", obatch)?;
    range(GATHER_BATCHING_RANGE, "operand batching dimension", obatch, r, "the rank of the operand")?;
    if let Some(s) = slice_sizes {
        for (rule, what, dims) in
            [(GATHER_COLLAPSED_SIZE, "collapsed", collapsed), (GATHER_BATCHING_SIZE, "operand batching", obatch)]
        {
            if let Some(&dim) = dims.iter().find(|&&dim| at(s, dim) > 1) {
                return err(rule, format!("slice size {} of {what} dimension {dim} must be at most 1", at(s, dim)));
            }
        }
    }
    batching(
        [
            GATHER_INDICES_BATCHING_UNIQUE,
            GATHER_INDICES_BATCHING_RANGE,
            GATHER_INDICES_BATCHING_IVD,
            GATHER_BATCHING_COUNT,
            GATHER_BATCHING_SIZES,
        ],
        ("operand_batching_dims", "start_indices_batching_dims"),
        operand,
        obatch,
        indices,
        &d.start_indices_batching_dims,
        ivd,
    )?;
    unique(GATHER_START_INDEX_MAP_UNIQUE, "start_index_map + operand_batching_dims", &[d.start_index_map.as_slice(), obatch].concat())?;
    range(GATHER_START_INDEX_MAP_RANGE, "start_index_map entry", &d.start_index_map, r, "the rank of the operand")?;
    if let Some(s) = slice_sizes {
        for (i, (&sz, &dim)) in s.iter().zip(operand).enumerate() {
            if sz < 0 || (dim != DYN && sz > dim) {
                return err(GATHER_SLICE_SIZES_RANGE, format!("slice size {sz} of dimension {i} is out of range [0, {}]", fmt::dim(dim)));
            }
        }
    }
    let batch = index_batch_dims(indices, ivd);
    let result_rank = batch.len() + offset.len();
    range(GATHER_OFFSET_DIMS_RANGE, "offset dimension", offset, result_rank, "the rank of the result")?;
    let offset_sizes: Vec<i64> = (0..r as i64)
        .filter(|i| !collapsed.contains(i) && !obatch.contains(i))
        .map(|i| slice_sizes.map(|s| at(s, i)).unwrap_or(DYN))
        .collect();
    let (mut bi, mut oi) = (batch.into_iter(), offset_sizes.into_iter());
    Ok((0..result_rank as i64)
        .map(|i| if offset.contains(&i) { oi.next().unwrap_or(DYN) } else { bi.next().unwrap_or(DYN) })
        .collect())
}

/// The shapes scatter relates: the first input, the scatter indices and the first update.
#[derive(Clone, Copy, Debug)]
pub struct ScatterShapes<'a> {
    pub input: &'a [i64],
    pub indices: &'a [i64],
    pub updates: &'a [i64],
}

/// Validates scatter's dimension numbers against its shapes: (C2), (C4), (C7)-(C22).
pub fn check_scatter_shapes(s: ScatterShapes, d: &ScatterDims) -> ShapeResult<()> {
    let (input, indices, updates) = (s.input, s.indices, s.updates);
    let r = input.len();
    let (uwd, iwd, ibd) = (&d.update_window_dims, &d.inserted_window_dims, &d.input_batching_dims);
    if uwd.len() + iwd.len() + ibd.len() != r {
        return err(
            SCATTER_RANK,
            format!(
                "input rank {r} must equal size(update_window_dims) + size(inserted_window_dims) + size(input_batching_dims) = {} + {} + {}",
                uwd.len(),
                iwd.len(),
                ibd.len()
            ),
        );
    }
    let ivd = d.index_vector_dim;
    if ivd < 0 || ivd as u64 > indices.len() as u64 {
        return err(SCATTER_INDEX_VECTOR_DIM, format!("index_vector_dim {ivd} is out of range [0, {}]", indices.len()));
    }
    index_map_size(SCATTER_DIMS_TO_OPERAND_SIZE, "scatter_dims_to_operand_dims", d.scatter_dims_to_operand_dims.len(), indices, ivd)?;
    if !is_unique(uwd) || !is_sorted(uwd) {
        return err(SCATTER_WINDOW_DIMS, format!("update_window_dims {} must be unique and sorted", fmt::list(uwd)));
    }
    range(SCATTER_WINDOW_DIMS_RANGE, "update window dimension", uwd, updates.len(), "the rank of the updates")?;
    unique(SCATTER_INSERTED_BATCHING_UNIQUE, "inserted_window_dims + input_batching_dims", &[iwd.as_slice(), ibd].concat())?;
    sorted(SCATTER_INSERTED_SORTED, "inserted_window_dims", iwd)?;
    range(SCATTER_INSERTED_RANGE, "inserted window dimension", iwd, r, "the rank of the input")?;
    sorted(SCATTER_BATCHING_SORTED, "input_batching_dims", ibd)?;
    range(SCATTER_BATCHING_RANGE, "input batching dimension", ibd, r, "the rank of the input")?;
    batching(
        [
            SCATTER_INDICES_BATCHING_UNIQUE,
            SCATTER_INDICES_BATCHING_RANGE,
            SCATTER_INDICES_BATCHING_IVD,
            SCATTER_BATCHING_COUNT,
            SCATTER_BATCHING_SIZES,
        ],
        ("input_batching_dims", "scatter_indices_batching_dims"),
        input,
        ibd,
        indices,
        &d.scatter_indices_batching_dims,
        ivd,
    )?;
    let sdod = &d.scatter_dims_to_operand_dims;
    unique(SCATTER_DIMS_TO_OPERAND_UNIQUE, "scatter_dims_to_operand_dims + input_batching_dims", &[sdod.as_slice(), ibd].concat())?;
    range(SCATTER_DIMS_TO_OPERAND_RANGE, "scatter_dims_to_operand_dims entry", sdod, r, "the rank of the input")?;
    let scatter_sizes = index_batch_dims(indices, ivd);
    let window_bounds: Vec<i64> =
        (0..r as i64).filter(|i| !iwd.contains(i) && !ibd.contains(i)).map(|i| at(input, i)).collect();
    if updates.len() != scatter_sizes.len() + uwd.len() {
        return err(
            SCATTER_UPDATE_SHAPE,
            format!(
                "updates have rank {} but the scatter indices give {} scatter dimensions and update_window_dims has {} entries",
                updates.len(),
                scatter_sizes.len(),
                uwd.len()
            ),
        );
    }
    let (mut si, mut wi) = (scatter_sizes.into_iter(), window_bounds.into_iter());
    for (i, &u) in updates.iter().enumerate() {
        if uwd.contains(&(i as i64)) {
            let bound = wi.next().unwrap_or(DYN);
            if u != DYN && bound != DYN && (u < 0 || u > bound) {
                return err(
                    SCATTER_UPDATE_SHAPE,
                    format!("update window dimension {i} has size {u}, larger than the input's window bound {bound}"),
                );
            }
        } else {
            let want = si.next().unwrap_or(DYN);
            if !dim_compatible(u, want) {
                return err(
                    SCATTER_UPDATE_SHAPE,
                    format!("update scatter dimension {i} has size {u} but the scatter indices give {}", fmt::dim(want)),
                );
            }
        }
    }
    Ok(())
}
