//! f32 GEMMs with an epilogue on cuBLASLt ([`crate::gemm_epilogue`] decides which): `D = gelu(A B)`
//! (`CUBLASLT_EPILOGUE_GELU`) or `D = A B + C` (beta 1, `C` a separate buffer). Operands are laid out
//! as for [`crate::dot::gemm_t`] (row-major `[b, m, k]` x `[b, k, n]`, either possibly stored
//! transposed), which cuBLASLt's column-major view sees as `D^T = B^T A^T`. One handle and one 32 MiB
//! workspace per GPU (made on first use); the algorithm cuBLASLt's heuristic picks for a form is kept.

use crate::device::{DBuf, Gpu};
use cudarc::cublaslt::{result, sys};
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;

/// The workspace cuBLASLt may use (NVIDIA's recommendation for Hopper).
const WORKSPACE_BYTES: usize = 32 << 20;

/// What is applied to the product.
pub enum LtEpilogue<'a> {
    /// The GELU of every element (tanh approximation).
    Gelu,
    /// Plus this buffer (same layout as the result).
    Add(&'a CudaSlice<u8>),
}

/// A GPU's cuBLASLt handle, workspace and the algorithms chosen per form.
pub struct Lt {
    handle: sys::cublasLtHandle_t,
    workspace: DBuf,
    algos: Mutex<HashMap<Form, sys::cublasLtMatmulAlgo_t>>,
}

// SAFETY: the handle is used under the GPU's one stream by one thread at a time (the `algos` lock is
// held across each call), as cuBLASLt allows for a handle shared between threads.
unsafe impl Send for Lt {}
unsafe impl Sync for Lt {}

/// `(b, m, k, n, a transposed, b transposed, TF32, GELU (else plus C))`.
type Form = (i64, i64, i64, i64, bool, bool, bool, bool);

impl Lt {
    pub fn new(gpu: &Gpu) -> Result<Lt, String> {
        let handle = crate::device::guarded("cuBLASLt", || result::create_handle().map_err(|e| format!("cuBLASLt: {e:?}")))?;
        let workspace = gpu.alloc_bytes(WORKSPACE_BYTES)?;
        Ok(Lt { handle, workspace, algos: Mutex::new(HashMap::new()) })
    }
}

/// The descriptors of one call, destroyed when dropped.
struct Descs {
    desc: sys::cublasLtMatmulDesc_t,
    layouts: Vec<sys::cublasLtMatrixLayout_t>,
}

impl Drop for Descs {
    fn drop(&mut self) {
        // SAFETY: each handle was created by cuBLASLt for this call and is destroyed once.
        unsafe {
            for l in &self.layouts {
                let _ = result::destroy_matrix_layout(*l);
            }
            if !self.desc.is_null() {
                let _ = result::destroy_matmul_desc(self.desc);
            }
        }
    }
}

fn lt_err(what: &str) -> impl Fn(result::CublasError) -> String + '_ {
    move |e| format!("cuBLASLt {what}: {e:?}")
}

/// `out[b, m, n] = epilogue(A[b, m, k] x B[b, k, n])` in f32 (TF32 tensor cores when `tf32`): `a` and
/// `bt` as `(buffer, transposed)` like [`crate::dot::gemm_t`]'s.
#[allow(clippy::too_many_arguments)]
pub fn matmul(
    gpu: &Gpu,
    (a, a_trans): (&CudaSlice<u8>, bool),
    (bt, b_trans): (&CudaSlice<u8>, bool),
    out: &mut CudaSlice<u8>,
    (b, m, k, n): (i64, i64, i64, i64),
    tf32: bool,
    epilogue: LtEpilogue<'_>,
) -> Result<(), String> {
    let lt = gpu.lt()?;
    let need = |len: usize, elems: i64| len >= elems as usize * 4;
    let c = match epilogue {
        LtEpilogue::Add(c) => Some(c),
        LtEpilogue::Gelu => None,
    };
    if !need(a.len(), b * m * k) || !need(bt.len(), b * k * n) || !need(out.len(), b * m * n) || c.is_some_and(|c| !need(c.len(), b * m * n)) {
        return Err("internal error: a GEMM operand is shorter than its shape".into());
    }
    let f32t = sys::cudaDataType_t::CUDA_R_32F;
    let compute = if tf32 { sys::cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32 } else { sys::cublasComputeType_t::CUBLAS_COMPUTE_32F };
    let mut d = Descs { desc: result::create_matmul_desc(compute, f32t).map_err(lt_err("descriptor"))?, layouts: Vec::new() };
    // SAFETY: attribute values are plain integers of the sizes cuBLASLt documents for them, read during
    // the call only; the descriptor and layouts are live until `d` drops.
    unsafe {
        let set = |attr: sys::cublasLtMatmulDescAttributes_t, v: i32| result::set_matmul_desc_attribute(d.desc, attr, &v as *const i32 as *const c_void, 4);
        // The row-major product's operands swap places in the column-major view (see `dot::gemm_t`).
        set(sys::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSA, b_trans as i32).map_err(lt_err("transpose"))?;
        set(sys::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_TRANSB, a_trans as i32).map_err(lt_err("transpose"))?;
        let ep = if c.is_none() { sys::cublasLtEpilogue_t::CUBLASLT_EPILOGUE_GELU } else { sys::cublasLtEpilogue_t::CUBLASLT_EPILOGUE_DEFAULT };
        set(sys::cublasLtMatmulDescAttributes_t::CUBLASLT_MATMUL_DESC_EPILOGUE, ep as i32).map_err(lt_err("epilogue"))?;
        // Column-major (rows, cols, leading dim, batch stride) of: the rhs as stored, the lhs as stored,
        // and C / D.
        let shapes = [
            if b_trans { (k, n, k) } else { (n, k, n) },
            if a_trans { (m, k, m) } else { (k, m, k) },
            (n, m, n),
            (n, m, n),
        ];
        let strides = [k * n, m * k, m * n, m * n];
        for ((rows, cols, ld), stride) in shapes.into_iter().zip(strides) {
            let l = result::create_matrix_layout(f32t, rows as u64, cols as u64, ld).map_err(lt_err("layout"))?;
            d.layouts.push(l);
            if b > 1 {
                let count = b as i32;
                result::set_matrix_layout_attribute(l, sys::cublasLtMatrixLayoutAttribute_t::CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count as *const i32 as *const c_void, 4).map_err(lt_err("batch"))?;
                result::set_matrix_layout_attribute(l, sys::cublasLtMatrixLayoutAttribute_t::CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride as *const i64 as *const c_void, 8)
                    .map_err(lt_err("batch"))?;
            }
        }
    }
    let form: Form = (b, m, k, n, a_trans, b_trans, tf32, c.is_none());
    let mut algos = lt.algos.lock().map_err(|_| "cuBLASLt state poisoned")?;
    let stream = &gpu.stream;
    let (alpha, beta) = (1.0f32, if c.is_some() { 1.0f32 } else { 0.0 });
    let (pa, _ga) = a.device_ptr(stream);
    let (pb, _gb) = bt.device_ptr(stream);
    let (pd, _gd) = out.device_ptr_mut(stream);
    // Without C (beta 0) cuBLASLt reads nothing from it: D's pointer stands in.
    let (pc, _gc) = match c {
        Some(c) => {
            let (p, g) = c.device_ptr(stream);
            (p, Some(g))
        }
        None => (pd, None),
    };
    let (pw, _gw) = lt.workspace.device_ptr(stream);
    // SAFETY: the buffers cover the sizes the layouts state (checked above); the workspace is this
    // handle's own, used by one call at a time (the `algos` lock is held); all work is ordered on the
    // GPU's stream.
    let call = |algo: &sys::cublasLtMatmulAlgo_t| unsafe {
        result::matmul(
            lt.handle,
            d.desc,
            &alpha as *const f32 as *const c_void,
            &beta as *const f32 as *const c_void,
            pb as *const c_void,
            d.layouts[0],
            pa as *const c_void,
            d.layouts[1],
            pc as *const c_void,
            d.layouts[2],
            pd as *mut c_void,
            d.layouts[3],
            algo,
            pw as *mut c_void,
            WORKSPACE_BYTES,
            stream.cu_stream() as sys::cudaStream_t,
        )
    };
    let algo = match algos.get(&form) {
        Some(a) => *a,
        None => {
            let candidates = heuristic(lt.handle, &d, candidates())?;
            // Several candidates: each timed on this call's own buffers (D is written, C only read, so
            // the call below still computes the result), the fastest kept.
            let best = if candidates.len() > 1 && !crate::graph::capturing() { fastest(gpu, &candidates, &call) } else { candidates[0] };
            algos.insert(form, best);
            best
        }
    };
    call(&algo).map_err(lt_err("matmul"))
}

/// How many of cuBLASLt's heuristic's algorithms a new form times (`OXHLO_CUDA_LT_CANDIDATES`, default
/// [`DEFAULT_CANDIDATES`]; 1 takes the heuristic's first).
fn candidates() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *N.get_or_init(|| std::env::var("OXHLO_CUDA_LT_CANDIDATES").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(DEFAULT_CANDIDATES).clamp(1, 16))
}

/// See [`candidates`].
pub const DEFAULT_CANDIDATES: usize = 1;

/// Up to `want` algorithms cuBLASLt's heuristic proposes for the call `d` describes, best first.
fn heuristic(handle: sys::cublasLtHandle_t, d: &Descs, want: usize) -> Result<Vec<sys::cublasLtMatmulAlgo_t>, String> {
    let pref = result::create_matmul_pref().map_err(lt_err("preference"))?;
    let mut found = vec![std::mem::MaybeUninit::<sys::cublasLtMatmulHeuristicResult_t>::zeroed(); want];
    let mut count = 0i32;
    // SAFETY: `pref` is live until destroyed below; the size attribute is a usize as documented; the
    // descriptors are live (`d`); `found` has room for `want` results, which cuBLASLt fills `count` of.
    let status = unsafe {
        let size = WORKSPACE_BYTES;
        let r = result::set_matmul_pref_attribute(pref, sys::cublasLtMatmulPreferenceAttributes_t::CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &size as *const usize as *const c_void, 8);
        let r = r.and_then(|_| {
            sys::cublasLtMatmulAlgoGetHeuristic(handle, d.desc, d.layouts[0], d.layouts[1], d.layouts[2], d.layouts[3], pref, want as i32, found.as_mut_ptr() as *mut _, &mut count).result()
        });
        let _ = result::destroy_matmul_pref(pref);
        r
    };
    status.map_err(lt_err("algorithm choice"))?;
    // SAFETY: the first `count` entries were written by cuBLASLt (the rest stay zeroed and are dropped).
    let algos: Vec<_> = found[..(count.max(0) as usize).min(want)]
        .iter()
        .map(|h| unsafe { h.assume_init() })
        .filter(|h| h.state == sys::cublasStatus_t::CUBLAS_STATUS_SUCCESS)
        .map(|h| h.algo)
        .collect();
    if algos.is_empty() {
        return Err("cuBLASLt has no algorithm for this GEMM".into());
    }
    Ok(algos)
}

/// The candidate whose calls take the least device time (each run once, then timed over three calls
/// between two events); the first when timing fails.
fn fastest(gpu: &Gpu, candidates: &[sys::cublasLtMatmulAlgo_t], call: &dyn Fn(&sys::cublasLtMatmulAlgo_t) -> Result<(), result::CublasError>) -> sys::cublasLtMatmulAlgo_t {
    let mut best = (f32::INFINITY, candidates[0]);
    for algo in candidates {
        let timed = (|| {
            call(algo).ok()?;
            let e0 = gpu.stream.record_event(None).ok()?;
            for _ in 0..3 {
                call(algo).ok()?;
            }
            let e1 = gpu.stream.record_event(None).ok()?;
            e0.elapsed_ms(&e1).ok()
        })();
        if let Some(ms) = timed {
            if ms < best.0 {
                best = (ms, *algo);
            }
        }
    }
    best.1
}
