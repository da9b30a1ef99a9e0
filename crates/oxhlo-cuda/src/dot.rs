//! dot_general on cuBLAS: operands stored as `[B, M, K]` or `[B, K, M]` (lhs) and `[B, K, N]` or
//! `[B, N, K]` (rhs) row-major are read in place (cuBLAS transposes); others are permuted on the device
//! to the first form. Then one strided-batched GEMM (`cublasGemmStridedBatchedEx`) computes
//! `[B, M, N]`, which is the result's row-major layout. f32 x f32 -> f32 (TF32 tensor cores when the
//! precision config is DEFAULT and the program allows it, as XLA does; true fp32 for HIGH/HIGHEST),
//! f64, f16/bf16 operands with a result of their type or f32 (fp32 accumulation), and complex64 /
//! complex128 (cuBLAS's complex GEMMs; `OP_T` transposes without conjugating, as dot_general
//! multiplies). Anything else (integers, mixed types, empty dimensions) returns `None` and runs on the
//! host.

use crate::device::{DTensor, Gpu, Memo};
use crate::render::{permute_units, render_permute_units};
use cudarc::cublas::sys;
use cudarc::driver::DevicePtr;
use oxhlo_cpu::Kind;
use oxhlo_ir::attr::Precision;
use oxhlo_ir::{Op, TensorType};
use oxhlo_plan::dims::DotDims;
use std::ffi::c_void;

/// Permutes `t` so that its dims come in `perm` order (no copy for the identity); the kernel is kept in
/// `memo` as `op`'s role `tag`.
pub fn permute(gpu: &Gpu, memo: &Memo, op: &Op, tag: u32, t: &DTensor, perm: &[usize]) -> Result<DTensor, String> {
    if perm.iter().enumerate().all(|(i, &p)| i == p) {
        return Ok(t.clone());
    }
    let src = memo.get(op, tag, || render_permute_units(&t.ty.shape, perm, t.kind.size())).ok_or("no permute kernel for this element size")?;
    let shape: Vec<i64> = perm.iter().map(|&p| t.ty.shape[p]).collect();
    let mut out = [gpu.alloc_raw(t.kind, t.len)?];
    let (units, unit) = permute_units(&t.ty.shape, perm, t.kind.size());
    let n_units = crate::render::checked_numel(&units).unwrap_or(0) as usize;
    debug_assert_eq!(n_units * unit, t.len * t.kind.size());
    gpu.launch(&src, n_units, &[&*t.buf], &mut out)?;
    let [buf] = out;
    Ok(Gpu::wrap(TensorType::new(shape, t.ty.elem.clone()), t.kind, t.len, buf))
}

fn data_type(k: Kind) -> Option<sys::cudaDataType> {
    Some(match k {
        Kind::F32 => sys::cudaDataType::CUDA_R_32F,
        Kind::F64 => sys::cudaDataType::CUDA_R_64F,
        Kind::F16 => sys::cudaDataType::CUDA_R_16F,
        Kind::BF16 => sys::cudaDataType::CUDA_R_16BF,
        Kind::C64 => sys::cudaDataType::CUDA_C_32F,
        Kind::C128 => sys::cudaDataType::CUDA_C_64F,
        _ => return None,
    })
}

/// Runs a dot_general / dot on the GPU when its types are supported.
pub fn try_dot(gpu: &Gpu, memo: &Memo, op: &Op, lhs: &DTensor, rhs: &DTensor, rty: &TensorType, tf32: bool) -> Option<Result<DTensor, String>> {
    let rk = Kind::of(&rty.elem)?;
    if !rty.is_static() {
        return None;
    }
    let (d, (b, m, k, n), tf32) = gemm_form(op, (lhs.kind, rhs.kind, rk), &lhs.ty.shape, &rhs.ty.shape, tf32)?;
    if rty.num_elements() != Some((b * m * n) as usize) {
        return None;
    }
    Some(run(gpu, memo, op, &d, lhs, rhs, rty, rk, (b, m, k, n), tf32))
}

/// Runs an f32 dot_general with a cuBLASLt epilogue ([`crate::gemm_lt`]): GELU, or plus `add` (a tensor
/// of the result's shape). None when the dot has no f32 GEMM form here.
#[allow(clippy::too_many_arguments)]
pub fn try_dot_epilogue(gpu: &Gpu, memo: &Memo, op: &Op, lhs: &DTensor, rhs: &DTensor, rty: &TensorType, tf32: bool, add: Option<&DTensor>) -> Option<Result<DTensor, String>> {
    if rty.num_elements().is_none() || Kind::of(&rty.elem)? != Kind::F32 {
        return None;
    }
    let (d, (b, m, k, n), tf32) = gemm_form(op, (lhs.kind, rhs.kind, Kind::F32), &lhs.ty.shape, &rhs.ty.shape, tf32)?;
    let len = (b * m * n) as usize;
    if lhs.kind != Kind::F32 || rty.num_elements() != Some(len) || add.is_some_and(|t| t.kind != Kind::F32 || t.len != len) {
        return None;
    }
    let run = || {
        let (a, a_trans) = operand_view(gpu, memo, op, 1, lhs, &d.lhs_batch, &d.lhs_free, &d.lhs_contracting)?;
        let (bt, b_trans) = operand_view(gpu, memo, op, 2, rhs, &d.rhs_batch, &d.rhs_contracting, &d.rhs_free)?;
        let mut out = gpu.alloc_raw(Kind::F32, len)?;
        let epilogue = match add {
            Some(t) => crate::gemm_lt::LtEpilogue::Add(&t.buf),
            None => crate::gemm_lt::LtEpilogue::Gelu,
        };
        crate::gemm_lt::matmul(gpu, (&a.buf, a_trans), (&bt.buf, b_trans), &mut out, (b, m, k, n), tf32, epilogue)?;
        Ok(Gpu::wrap(rty.clone(), Kind::F32, len, out))
    };
    Some(run())
}

/// A GEMM's `(batch, m, k, n)`.
type GemmDims = (i64, i64, i64, i64);

/// The GEMM a dot_general over operands of these kinds and shapes runs as: its dimension numbers,
/// `(b, m, k, n)` and whether TF32 may be used (`tf32` asked and the precision below HIGH). None when
/// the types or sizes have no GEMM here.
fn gemm_form(op: &Op, kinds: (Kind, Kind, Kind), ls: &[i64], rs: &[i64], tf32: bool) -> Option<(DotDims, GemmDims, bool)> {
    let ok = matches!(
        kinds,
        (Kind::F32, Kind::F32, Kind::F32)
            | (Kind::F64, Kind::F64, Kind::F64)
            | (Kind::F16, Kind::F16, Kind::F16 | Kind::F32)
            | (Kind::BF16, Kind::BF16, Kind::BF16 | Kind::F32)
            | (Kind::C64, Kind::C64, Kind::C64)
            | (Kind::C128, Kind::C128, Kind::C128)
    );
    if !ok {
        return None;
    }
    let d = DotDims::from_op(op, ls, rs).ok()?;
    let prod = |s: &[i64], ix: &[usize]| ix.iter().map(|&i| s[i]).product::<i64>();
    let (b, m, k, n) = (prod(ls, &d.lhs_batch), prod(ls, &d.lhs_free), prod(ls, &d.lhs_contracting), prod(rs, &d.rhs_free));
    if [b, m, k, n].iter().any(|&x| x <= 0 || x > i32::MAX as i64) {
        return None;
    }
    let strict = d.precision.iter().any(|p| matches!(p, Precision::High | Precision::Highest));
    Some((d, (b, m, k, n), tf32 && !strict))
}

#[allow(clippy::too_many_arguments)]
fn run(
    gpu: &Gpu,
    memo: &Memo,
    op: &Op,
    d: &DotDims,
    lhs: &DTensor,
    rhs: &DTensor,
    rty: &TensorType,
    rk: Kind,
    (b, m, k, n): (i64, i64, i64, i64),
    tf32: bool,
) -> Result<DTensor, String> {
    // Each operand is read in place when its stored order is [batch, rows, cols] with the two groups in
    // either order (cuBLAS takes it transposed); otherwise it is permuted to the untransposed form.
    let (a, a_trans) = operand_view(gpu, memo, op, 1, lhs, &d.lhs_batch, &d.lhs_free, &d.lhs_contracting)?;
    let (bt, b_trans) = operand_view(gpu, memo, op, 2, rhs, &d.rhs_batch, &d.rhs_contracting, &d.rhs_free)?;
    let len = (b * m * n) as usize;
    let mut out = gpu.alloc_raw(rk, len)?;
    gemm_t(gpu, lhs.kind, rk, (&a.buf, a_trans), (&bt.buf, b_trans), &mut out, (b, m, k, n), tf32)?;
    Ok(Gpu::wrap(rty.clone(), rk, len, out))
}

/// The permutation an operand of a dot is copied through before its GEMM: None when it is read in place
/// (stored `[batch, rows, cols]` or `[batch, cols, rows]`).
pub fn operand_perm(batch: &[usize], rows: &[usize], cols: &[usize]) -> Option<Vec<usize>> {
    if in_place(&[batch, rows, cols]) || in_place(&[batch, cols, rows]) {
        return None;
    }
    Some(batch.iter().chain(rows).chain(cols).copied().collect())
}

/// Whether the dims `order` are `0, 1, 2, ...` (the stored order).
fn in_place(order: &[&[usize]]) -> bool {
    order.iter().flat_map(|g| g.iter()).enumerate().all(|(i, &d)| i == d)
}

/// How an operand reaches its GEMM: `(the permutation it is copied through first, transposed)`; read
/// in place (no permutation) when its dims are already in either order, transposed when stored
/// `[batch, cols, rows]`.
fn operand_form(batch: &[usize], rows: &[usize], cols: &[usize]) -> (Option<Vec<usize>>, bool) {
    match operand_perm(batch, rows, cols) {
        Some(perm) => (Some(perm), false),
        None => (None, !in_place(&[batch, rows, cols])),
    }
}

/// An operand as a row-major `[batch, rows, cols]` matrix stack: `(tensor, transposed)`, where a
/// transposed one is stored `[batch, cols, rows]` ([`operand_form`]).
#[allow(clippy::too_many_arguments)]
fn operand_view(gpu: &Gpu, memo: &Memo, op: &Op, tag: u32, t: &DTensor, batch: &[usize], rows: &[usize], cols: &[usize]) -> Result<(DTensor, bool), String> {
    match operand_form(batch, rows, cols) {
        (Some(perm), transposed) => Ok((permute(gpu, memo, op, tag, t, &perm)?, transposed)),
        (None, transposed) => Ok((t.clone(), transposed)),
    }
}

/// Row-major `C[b, m, n] = A[b, m, k] x B[b, k, n]` on cuBLAS (one strided-batched GEMM): operands of
/// `in_kind`, result of `out_kind`, f32 products on TF32 tensor cores when `tf32`. `a` is `(buffer,
/// transposed)`: a transposed `a` holds `A^T[b, k, m]` row-major.
#[allow(clippy::too_many_arguments)]
pub fn gemm(
    gpu: &Gpu,
    in_kind: Kind,
    out_kind: Kind,
    a: (&cudarc::driver::CudaSlice<u8>, bool),
    bt: &cudarc::driver::CudaSlice<u8>,
    out: &mut cudarc::driver::CudaSlice<u8>,
    dims: (i64, i64, i64, i64),
    tf32: bool,
) -> Result<(), String> {
    gemm_t(gpu, in_kind, out_kind, a, (bt, false), out, dims, tf32)
}

/// [`gemm`] with either operand possibly transposed: a transposed `b` holds `B^T[b, n, k]` row-major.
#[allow(clippy::too_many_arguments)]
pub fn gemm_t(
    gpu: &Gpu,
    in_kind: Kind,
    out_kind: Kind,
    (a, a_trans): (&cudarc::driver::CudaSlice<u8>, bool),
    (bt, b_trans): (&cudarc::driver::CudaSlice<u8>, bool),
    out: &mut cudarc::driver::CudaSlice<u8>,
    (b, m, k, n): (i64, i64, i64, i64),
    tf32: bool,
) -> Result<(), String> {
    let double = matches!(in_kind, Kind::F64 | Kind::C128);
    let compute = match (in_kind, tf32) {
        _ if double => sys::cublasComputeType_t::CUBLAS_COMPUTE_64F,
        (Kind::F32 | Kind::C64, true) => sys::cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32,
        _ => sys::cublasComputeType_t::CUBLAS_COMPUTE_32F,
    };
    // Complex GEMMs read alpha and beta as (real, imaginary) pairs; real ones the first element.
    let (alpha64, beta64) = ([1.0f64, 0.0], [0.0f64, 0.0]);
    let (alpha32, beta32) = ([1.0f32, 0.0], [0.0f32, 0.0]);
    let (alpha, beta): (*const c_void, *const c_void) = if double {
        (alpha64.as_ptr() as *const c_void, beta64.as_ptr() as *const c_void)
    } else {
        (alpha32.as_ptr() as *const c_void, beta32.as_ptr() as *const c_void)
    };
    let ik = data_type(in_kind).ok_or("unsupported dot operand type")?;
    let ok = data_type(out_kind).ok_or("unsupported dot result type")?;
    let need = |len: usize, elems: i64, kind: Kind| len >= (elems as usize) * kind.size();
    if !need(a.len(), b * m * k, in_kind) || !need(bt.len(), b * k * n, in_kind) || !need(out.len(), b * m * n, out_kind) {
        return Err("internal error: a GEMM operand is shorter than its shape".into());
    }
    let blas = gpu.blas.lock().map_err(|_| "cuBLAS handle poisoned")?;
    let stream = &gpu.stream;
    let status = {
        let (pa, _ga) = a.device_ptr(stream);
        let (pb, _gb) = bt.device_ptr(stream);
        let (pc, _gc) = cudarc::driver::DevicePtrMut::device_ptr_mut(out, stream);
        // Row-major C[M,N] = A[M,K] B[K,N] is column-major C^T[N,M] = B^T[N,K] A^T[K,M]: cuBLAS gets
        // the rhs as its first operand (ld N; a row-major B^T[N,K] is the column-major B, taken
        // transposed with ld K) and the lhs as its second (ld K; a row-major A^T[K,M] is the
        // column-major A, taken transposed with ld M).
        // SAFETY: the pointers cover b*k*n, b*m*k and b*m*n elements of the stated types (checked
        // above); the handle is bound to `stream`, which orders this call after the kernels producing
        // the operands and before later readers.
        unsafe {
            sys::cublasGemmStridedBatchedEx(
                *blas.handle(),
                if b_trans { sys::cublasOperation_t::CUBLAS_OP_T } else { sys::cublasOperation_t::CUBLAS_OP_N },
                if a_trans { sys::cublasOperation_t::CUBLAS_OP_T } else { sys::cublasOperation_t::CUBLAS_OP_N },
                n as i32,
                m as i32,
                k as i32,
                alpha,
                pb as *const c_void,
                ik,
                if b_trans { k as i32 } else { n as i32 },
                k * n,
                pa as *const c_void,
                ik,
                if a_trans { m as i32 } else { k as i32 },
                m * k,
                beta,
                pc as *mut c_void,
                ok,
                n as i32,
                m * n,
                b as i32,
                compute,
                sys::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        }
    };
    if status != sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
        return Err(format!("cuBLAS GEMM failed: {status:?}"));
    }
    Ok(())
}

/// The libraries' one-time costs paid ahead of a program's first run: cuDNN loaded (with `convs`), and
/// one small GEMM (with `dots`, TF32 as the program's f32 products). Failures are ignored: the program's
/// own calls report them.
pub fn warm_up(gpu: &Gpu, convs: bool, dots: bool, tf32: bool) {
    static GEMM_DONE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if convs {
        let _ = crate::cudnn::available();
    }
    if dots && !GEMM_DONE.swap(true, std::sync::atomic::Ordering::Relaxed) {
        let n = 64usize;
        let bufs = (0..3).map(|_| gpu.alloc_bytes(n * n * 4)).collect::<Result<Vec<_>, _>>();
        if let Ok(Ok([a, b, mut out])) = bufs.map(<[_; 3]>::try_from) {
            let _ = gemm(gpu, Kind::F32, Kind::F32, (&a, false), &b, &mut out, (1, n as i64, n as i64, n as i64), tf32);
            let _ = gpu.synchronize();
        }
    }
}

/// One cuBLASLt call of each GEMM-with-epilogue form (the dot op, its operands' shapes, GELU or a
/// residual add) on scratch buffers: cuBLASLt's algorithm choice (kept per form) and the loading of its
/// kernel, paid while the program compiles. Failures are ignored (the run reports its own).
pub fn warm_lt(gpu: &Gpu, forms: &[(Op, Vec<i64>, Vec<i64>, bool)], tf32: bool) {
    let mut done = Vec::new();
    for (op, ls, rs, gelu) in forms {
        let Some((d, (b, m, k, n), tf32)) = gemm_form(op, (Kind::F32, Kind::F32, Kind::F32), ls, rs, tf32) else { continue };
        let at = operand_form(&d.lhs_batch, &d.lhs_free, &d.lhs_contracting).1;
        let bt = operand_form(&d.rhs_batch, &d.rhs_contracting, &d.rhs_free).1;
        let form = ((b, m, k, n), at, bt, tf32, *gelu);
        if done.contains(&form) {
            continue;
        }
        done.push(form);
        let bufs = [b * m * k, b * k * n, b * m * n, b * m * n].map(|len| gpu.alloc_raw(Kind::F32, len as usize));
        if let [Ok(a), Ok(bb), Ok(mut out), Ok(c)] = bufs {
            let epilogue = if *gelu { crate::gemm_lt::LtEpilogue::Gelu } else { crate::gemm_lt::LtEpilogue::Add(&c) };
            let _ = crate::gemm_lt::matmul(gpu, (&a, at), (&bb, bt), &mut out, (b, m, k, n), tf32, epilogue);
        }
    }
    let _ = gpu.synchronize();
}

/// One GEMM of every distinct form (sizes, transposes, types, TF32) the dots of `module` will run, on
/// scratch buffers (values unset, results dropped), during the program's compilation: cuBLAS's choice
/// of kernel for a new form and the loading of that kernel were part of the first run (ResNet-18's
/// [256, 512] x [512, 10] took 27 ms there). `OXHLO_CUDA_WARM_DOTS=0` skips them; failures are ignored.
pub fn warm_runs(gpu: &Gpu, module: &oxhlo_ir::Module, tf32: bool) {
    if crate::env_off("OXHLO_CUDA_WARM_DOTS") {
        return;
    }
    type Form = (Kind, Kind, bool, bool, GemmDims, bool);
    let mut forms: Vec<Form> = Vec::new();
    for f in &module.funcs {
        f.walk(&mut |op| {
            if !matches!(op.kind, oxhlo_ir::OpKind::Dot | oxhlo_ir::OpKind::DotGeneral) || op.operands.len() != 2 || op.results.len() != 1 {
                return;
            }
            let ty = |v| match f.try_ty(v) {
                Some(oxhlo_ir::Type::Tensor(t)) if t.is_static() => Some((t.shape.clone(), Kind::of(&t.elem)?)),
                _ => None,
            };
            let (Some((ls, lk)), Some((rs, rk)), Some((_, ok))) = (ty(op.operands[0]), ty(op.operands[1]), ty(op.results[0])) else { return };
            let Some((d, dims, tf32)) = gemm_form(op, (lk, rk, ok), &ls, &rs, tf32) else { return };
            let lhs_t = operand_form(&d.lhs_batch, &d.lhs_free, &d.lhs_contracting).1;
            let rhs_t = operand_form(&d.rhs_batch, &d.rhs_contracting, &d.rhs_free).1;
            let form = (lk, ok, lhs_t, rhs_t, dims, tf32);
            if !forms.contains(&form) {
                forms.push(form);
            }
        });
    }
    for (ik, ok, at, bt, (b, m, k, n), tf32) in forms {
        let bufs = [(b * m * k, ik), (b * k * n, ik), (b * m * n, ok)].map(|(len, kind)| gpu.alloc_raw(kind, len as usize));
        if let [Ok(a), Ok(bb), Ok(mut out)] = bufs {
            let _ = gemm_t(gpu, ik, ok, (&a, at), (&bb, bt), &mut out, (b, m, k, n), tf32);
        }
    }
    let _ = gpu.synchronize();
}
