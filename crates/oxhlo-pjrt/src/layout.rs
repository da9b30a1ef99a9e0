//! Host memory layouts: gathering a strided host array (possibly negative byte strides, as numpy views
//! have) into oxhlo's dense row-major storage, and scattering dense storage into a host layout given as
//! byte strides or as a tiled layout's minor-to-major order.

use crate::abi::buffer::{MemoryLayout, LAYOUT_STRIDES, LAYOUT_TILED};
use crate::error::{Error, Result};
use crate::util;

/// Row-major byte strides of a dense array.
pub fn dense_strides(dims: &[i64], elem: usize) -> Vec<i64> {
    let mut s = vec![0i64; dims.len()];
    let mut acc = elem as i64;
    for i in (0..dims.len()).rev() {
        s[i] = acc;
        acc = acc.saturating_mul(dims[i].max(1));
    }
    s
}

/// The byte range `[lo, hi)` (relative to the base pointer) that an array with these strides touches;
/// `(0, 0)` for an empty array.
pub fn extent(dims: &[i64], strides: &[i64], elem: usize) -> (i64, i64) {
    if dims.contains(&0) {
        return (0, 0);
    }
    let (mut lo, mut hi) = (0i64, elem as i64);
    for (&d, &s) in dims.iter().zip(strides) {
        let span = (d - 1).saturating_mul(s);
        if span < 0 {
            lo = lo.saturating_add(span);
        } else {
            hi = hi.saturating_add(span);
        }
    }
    (lo, hi)
}

/// Visits the byte offset of every element in row-major order; calls `row` once per innermost run with
/// (offset of the run's first element, stride between its elements, its length).
fn for_each_run(dims: &[i64], strides: &[i64], mut row: impl FnMut(i64, i64, usize)) {
    if dims.iter().any(|&d| d <= 0) && !dims.is_empty() {
        return;
    }
    let Some((&last_d, outer)) = dims.split_last() else {
        row(0, 0, 1);
        return;
    };
    let last_s = strides[dims.len() - 1];
    let mut idx = vec![0i64; outer.len()];
    loop {
        let off: i64 = idx.iter().zip(strides).map(|(&i, &s)| i * s).sum();
        row(off, last_s, last_d as usize);
        let mut k = outer.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < outer[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// Copies a host array at `base` with byte `strides` into dense row-major storage.
///
/// # Safety
/// Every element the strides address from `base` must be readable.
pub unsafe fn gather(base: *const u8, dims: &[i64], strides: &[i64], elem: usize) -> Vec<u8> {
    let n = crate::dtype::num_elements(dims).unwrap_or(0);
    let mut out = vec![0u8; n * elem];
    gather_into(base, dims, strides, elem, &mut out);
    out
}

/// [`gather`] into `out`, which holds exactly the dense row-major bytes.
///
/// # Safety
/// Every element the strides address from `base` must be readable.
pub unsafe fn gather_into(base: *const u8, dims: &[i64], strides: &[i64], elem: usize, out: &mut [u8]) {
    let mut pos = 0usize;
    for_each_run(dims, strides, |off, s, len| {
        let p = base.offset(off as isize);
        if s == elem as i64 {
            out[pos..pos + len * elem].copy_from_slice(std::slice::from_raw_parts(p, len * elem));
            pos += len * elem;
        } else {
            for j in 0..len {
                out[pos..pos + elem].copy_from_slice(std::slice::from_raw_parts(p.offset(j as isize * s as isize), elem));
                pos += elem;
            }
        }
    });
}

/// Copies dense row-major storage to `base` laid out with byte `strides`.
///
/// # Safety
/// Every element the strides address from `base` must be writable.
pub unsafe fn scatter(dense: &[u8], base: *mut u8, dims: &[i64], strides: &[i64], elem: usize) {
    let mut pos = 0usize;
    for_each_run(dims, strides, |off, s, len| {
        let p = base.offset(off as isize);
        if s == elem as i64 {
            std::ptr::copy_nonoverlapping(dense.as_ptr().add(pos), p, len * elem);
            pos += len * elem;
        } else {
            for j in 0..len {
                std::ptr::copy_nonoverlapping(dense.as_ptr().add(pos), p.offset(j as isize * s as isize), elem);
                pos += elem;
            }
        }
    });
}

/// Byte strides of a tiled layout without tiles: dimension `minor_to_major[0]` varies fastest.
pub fn strides_from_minor_to_major(dims: &[i64], m2m: &[i64], elem: usize) -> Result<Vec<i64>> {
    let n = dims.len();
    let mut seen = vec![false; n];
    let mut s = vec![0i64; n];
    let mut acc = elem as i64;
    if m2m.len() != n {
        return Err(Error::invalid(format!("layout minor_to_major {m2m:?} does not match a rank-{n} array")));
    }
    for &d in m2m {
        let d = usize::try_from(d).ok().filter(|&d| d < n && !seen[d]);
        let d = d.ok_or_else(|| Error::invalid(format!("layout minor_to_major {m2m:?} is not a permutation of 0..{n}")))?;
        seen[d] = true;
        s[d] = acc;
        acc = acc.saturating_mul(dims[d].max(1));
    }
    Ok(s)
}

/// The byte strides a caller-provided `PJRT_Buffer_MemoryLayout` describes (dense row-major when null).
///
/// # Safety
/// `layout` must be null or point to a valid layout whose arrays are readable.
pub unsafe fn strides_of(layout: *const MemoryLayout, dims: &[i64], elem: usize) -> Result<Vec<i64>> {
    let Some(l) = layout.as_ref() else {
        return Ok(dense_strides(dims, elem));
    };
    match l.kind {
        LAYOUT_STRIDES => {
            let s = util::slice(l.u.strides.byte_strides, l.u.strides.num_byte_strides);
            if s.len() != dims.len() {
                return Err(Error::invalid(format!("layout has {} byte strides for a rank-{} array", s.len(), dims.len())));
            }
            Ok(s.to_vec())
        }
        LAYOUT_TILED => {
            let t = l.u.tiled;
            let m2m = util::slice(t.minor_to_major, t.minor_to_major_size);
            if t.num_tiles > 0 {
                let sizes = util::slice(t.tile_dim_sizes, t.num_tiles);
                let total: usize = sizes.iter().sum();
                let tiles = util::slice(t.tile_dims, total);
                // A tile that covers at most one element per row is the identity (XLA writes `(1)` tiles).
                if !tiles.iter().all(|&d| d == 1) {
                    return Err(Error::unimplemented(format!(
                        "oxhlo does not support tiled host layouts (tiles {tiles:?} of sizes {sizes:?})"
                    )));
                }
            }
            if m2m.is_empty() && !dims.is_empty() {
                return Ok(dense_strides(dims, elem));
            }
            strides_from_minor_to_major(dims, m2m, elem)
        }
        k => Err(Error::invalid(format!("unknown memory layout type {k}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gather_reads_transposed_and_reversed_views() {
        // A 2x3 array of u16 stored column-major: element (i, j) at (j * 2 + i) * 2 bytes.
        let colmajor: Vec<u16> = vec![0, 3, 1, 4, 2, 5];
        let bytes: Vec<u8> = colmajor.iter().flat_map(|v| v.to_le_bytes()).collect();
        let out = unsafe { gather(bytes.as_ptr(), &[2, 3], &[2, 4], 2) };
        let vals: Vec<u16> = out.chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
        assert_eq!(vals, vec![0, 1, 2, 3, 4, 5]);
        // A reversed 1-d view: base points at the last element, stride -1.
        let data = [10u8, 11, 12, 13];
        let out = unsafe { gather(data.as_ptr().add(3), &[4], &[-1], 1) };
        assert_eq!(out, vec![13, 12, 11, 10]);
        assert_eq!(extent(&[4], &[-1], 1), (-3, 1));
    }

    #[test]
    fn scalars_and_empty_arrays() {
        let x = 7u32.to_le_bytes();
        assert_eq!(unsafe { gather(x.as_ptr(), &[], &[], 4) }, x.to_vec());
        assert!(unsafe { gather(std::ptr::null(), &[3, 0], &[0, 4], 4) }.is_empty());
        assert_eq!(extent(&[3, 0], &[0, 4], 4), (0, 0));
    }

    #[test]
    fn scatter_inverts_gather() {
        let dense: Vec<u8> = (0..24).collect();
        let strides = strides_from_minor_to_major(&[2, 3, 4], &[0, 1, 2], 1).unwrap();
        assert_eq!(strides, vec![1, 2, 6]);
        let mut buf = vec![0u8; 24];
        unsafe { scatter(&dense, buf.as_mut_ptr(), &[2, 3, 4], &strides, 1) };
        assert_eq!(unsafe { gather(buf.as_ptr(), &[2, 3, 4], &strides, 1) }, dense);
        assert!(strides_from_minor_to_major(&[2, 3], &[0, 0], 1).is_err());
    }
}
