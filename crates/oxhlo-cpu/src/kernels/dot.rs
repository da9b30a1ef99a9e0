//! Native dot_general (and the older dot) for float results: any batch/contracting dimension numbers
//! become a batched GEMM `[B, M, K] x [B, K, N] -> [B, M, N]` run by the `gemm` crate, reading operands
//! through strides when their dimension groups collapse and through a packing copy otherwise. The
//! products (and blocks of large ones) run as rayon tasks, see `gemm_util::matmul_batch`.
//!
//! Numerics: f64 results compute in f64; f32, f16 and bf16 results convert the operands to the result
//! type (as the spec and the interpreter do), widen them to f32, accumulate in f32 (blocked, with FMA)
//! and round f16/bf16 once at the end. The interpreter accumulates in f64 and rounds once, so results
//! agree to f32 reassociation error (a few ulps times sqrt(K)), as XLA:CPU's do. Integer, boolean,
//! complex and quantized dots return None (the interpreter runs them).

use super::gemm_util::{as_f32, as_f64, collapse, from_f32, is_float, matmul_batch_uninit, permute, strides, BatchOperand, Scalar};
use super::{Attempt, KernelCtx};
use crate::tensor::{Buf, Kind, NTensor};
use oxhlo_ir::OpKind;
use oxhlo_plan::dims::DotDims;

/// Runs the op natively when this family handles it.
pub fn try_run(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    if !matches!(ctx.op.kind, OpKind::DotGeneral | OpKind::Dot) || args.len() != 2 {
        return None;
    }
    let rty = ctx.result_types.first()?;
    let rk = Kind::of(&rty.elem)?;
    let (l, r) = (args[0], args[1]);
    if !is_float(rk) || !is_float(l.kind()) || !is_float(r.kind()) {
        return None;
    }
    // Malformed numbers or a mismatched result type: the interpreter reports the error.
    let dd = DotDims::from_op(ctx.op, &l.ty.shape, &r.ty.shape).ok()?;
    if dd.result_shape(&l.ty.shape, &r.ty.shape) != rty.shape {
        return None;
    }
    let (ls, rs) = (l.dims(), r.dims());
    if ls.iter().product::<usize>() != l.len() || rs.iter().product::<usize>() != r.len() {
        return None;
    }
    let threads = ctx.threads.max(1);
    let buf = if rk == Kind::F64 {
        let (a, b) = (as_f64(&l.buf)?, as_f64(&r.buf)?);
        batched(&a, &ls, &b, &rs, &dd, threads).map(Buf::F64)
    } else {
        let (a, b) = (as_f32(&l.buf, rk)?, as_f32(&r.buf, rk)?);
        batched(&a, &ls, &b, &rs, &dd, threads).and_then(|v| from_f32(v, rk).ok_or_else(|| "unsupported result".to_string()))
    };
    Some(buf.map(|b| vec![NTensor::new((*rty).clone(), b)]))
}

/// One operand as a batch of matrices: per-batch element offsets and the (row, column) strides.
struct Operand<'a, T: Clone> {
    data: std::borrow::Cow<'a, [T]>,
    offsets: Vec<usize>,
    rs: usize,
    cs: usize,
}

/// Views `src` (row-major `shape`) as `batch` x (`rows` x `cols`) matrices; packs a copy ordered
/// `[batch..., rows..., cols...]` when the row or column dimension groups do not collapse to one stride.
fn operand<'a, T: Copy + Default + Send + Sync>(
    src: &'a [T],
    shape: &[usize],
    batch: &[usize],
    rows: &[usize],
    cols: &[usize],
    threads: usize,
) -> Operand<'a, T> {
    let st = strides(shape);
    let (nr, nc): (usize, usize) = (rows.iter().map(|&d| shape[d]).product(), cols.iter().map(|&d| shape[d]).product());
    let nb: usize = batch.iter().map(|&d| shape[d]).product();
    if let (Some(rs), Some(cs)) = (collapse(rows, shape, &st), collapse(cols, shape, &st)) {
        // Batch offsets through the batch dims' own strides (any order, no collapse needed).
        let mut offsets = Vec::with_capacity(nb);
        let mut idx = vec![0usize; batch.len()];
        for _ in 0..nb {
            offsets.push(idx.iter().zip(batch).map(|(&i, &d)| i * st[d]).sum());
            for j in (0..idx.len()).rev() {
                idx[j] += 1;
                if idx[j] < shape[batch[j]] {
                    break;
                }
                idx[j] = 0;
            }
        }
        return Operand { data: std::borrow::Cow::Borrowed(src), offsets, rs, cs };
    }
    let order: Vec<usize> = batch.iter().chain(rows).chain(cols).copied().collect();
    let packed = permute(src, shape, &order, threads);
    Operand { data: std::borrow::Cow::Owned(packed), offsets: (0..nb).map(|b| b * nr * nc).collect(), rs: nc, cs: 1 }
}

/// The batched product of `dd` on row-major operands: the result `[batch..., lhs free..., rhs free...]`.
pub fn batched<T: Scalar>(lhs: &[T], ls: &[usize], rhs: &[T], rs: &[usize], dd: &DotDims, threads: usize) -> Result<Vec<T>, String> {
    let size = |shape: &[usize], ds: &[usize]| ds.iter().map(|&d| shape[d]).product::<usize>();
    let (b, m, n, k) = (size(ls, &dd.lhs_batch), size(ls, &dd.lhs_free), size(rs, &dd.rhs_free), size(ls, &dd.lhs_contracting));
    let total = b.checked_mul(m).and_then(|x| x.checked_mul(n)).ok_or("dot result too large")?;
    if total == 0 || k == 0 {
        return Ok(vec![T::ZERO; total]);
    }
    let a = operand(lhs, ls, &dd.lhs_batch, &dd.lhs_free, &dd.lhs_contracting, threads);
    let bm = operand(rhs, rs, &dd.rhs_batch, &dd.rhs_contracting, &dd.rhs_free, threads);
    let lhs = BatchOperand { data: &a.data, offsets: &a.offsets, rs: a.rs, cs: a.cs };
    let rhs = BatchOperand { data: &bm.data, offsets: &bm.offsets, rs: bm.rs, cs: bm.cs };
    // The result is written in full by the products: no zeroing pass first.
    let mut out: Vec<T> = Vec::with_capacity(total);
    matmul_batch_uninit(b, m, n, k, &mut out.spare_capacity_mut()[..total], &lhs, &rhs, threads)?;
    // SAFETY: matmul_batch_uninit wrote all `total` elements (it returned Ok).
    unsafe { out.set_len(total) };
    Ok(out)
}
