//! Convolutions on cuDNN 9 (its convolution API: forward, backward data, backward filter), as planned
//! by [`crate::cudnn_plan`]: library loading without panics, one handle on the backend's stream,
//! tensor/filter/convolution descriptors, the algorithm chosen once per convolution shape (cuDNN's
//! heuristic first choice; `OXHLO_CUDNN_FIND=1` times the candidates with `Find...Ex` on the real
//! buffers instead, as XLA autotunes: on the H200 the timed choice was slower in the program, conv3x3
//! 0.29-0.35 ms against 0.21 ms and the ResNet-18 step 12.0-12.6 against 11.8 ms, Winograd winning
//! the isolated timing) and the call itself with its helper kernels.
//!
//! cuDNN is found by its usual library name (`LD_LIBRARY_PATH`), in `OXHLO_CUDNN_DIR`, or in the
//! `nvidia/cudnn/lib` folder of a Python environment this process has loaded libraries from (JAX's
//! CUDA wheels install it there). Without it (or with `OXHLO_CUDNN=0`) convolutions run as im2col +
//! cuBLAS ([`crate::conv`]).

use crate::cudnn_plan::{CudnnPlan, Form, View};
use crate::device::{guarded, DBuf, DTensor, Gpu, Memo};
use cudarc::cudnn::sys;
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};
use oxhlo_cpu::Kind;
use oxhlo_ir::attr::Precision;
use oxhlo_ir::{Op, TensorType};
use oxhlo_plan::dims::ConvDims;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Mutex, OnceLock};

/// Largest workspace an algorithm may ask for.
const WORKSPACE_CAP: usize = 1 << 30;

/// The cuDNN state of the process.
struct Cudnn {
    handle: Mutex<Handle>,
    choices: Mutex<HashMap<Key, State>>,
    /// `cudnnGetVersion` and the GPU's architecture: part of the choices' disk keys.
    version: usize,
    arch: &'static str,
    /// Which forms time their candidates (`OXHLO_CUDNN_FIND`) instead of taking the heuristic's first.
    find: FindForms,
}

/// The forms whose algorithm is chosen by timing: `OXHLO_CUDNN_FIND=1` (all), or a comma list of `fwd`,
/// `data`, `filter`.
#[derive(Clone, Copy, Debug, Default)]
struct FindForms {
    forward: bool,
    data: bool,
    filter: bool,
}

impl FindForms {
    fn from_env() -> FindForms {
        let v = std::env::var("OXHLO_CUDNN_FIND").unwrap_or_default();
        let all = matches!(v.trim(), "1" | "all");
        let has = |name: &str| all || v.split(',').any(|p| p.trim() == name);
        FindForms { forward: has("fwd"), data: has("data"), filter: has("filter") }
    }

    fn of(&self, form: Form) -> bool {
        match form {
            Form::Forward => self.forward,
            Form::BackwardData => self.data,
            Form::BackwardFilter => self.filter,
        }
    }
}

struct Handle(sys::cudnnHandle_t);
// SAFETY: the handle is only used under its mutex, on the one stream it is bound to.
unsafe impl Send for Handle {}

/// A convolution shape: the plan, the element kind, TF32 allowed.
type Key = (CudnnPlan, Kind, bool);

/// What is known of a shape: no usable algorithm (it runs as im2col), cuDNN's heuristic ranking (not
/// yet measured), or the algorithm to use.
#[derive(Clone, Debug)]
enum State {
    Unsupported,
    Ranked(Vec<Perf>),
    Chosen(Choice),
}

/// An algorithm of one of the three calls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Algo {
    Forward(sys::cudnnConvolutionFwdAlgo_t),
    BackwardData(sys::cudnnConvolutionBwdDataAlgo_t),
    BackwardFilter(sys::cudnnConvolutionBwdFilterAlgo_t),
}

/// The algorithm, its math mode and its workspace.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Choice {
    pub(crate) algo: Algo,
    pub(crate) math: sys::cudnnMathType_t,
    pub(crate) workspace: usize,
}

fn check(what: &str, s: sys::cudnnStatus_t) -> Result<(), String> {
    if s == sys::cudnnStatus_t::CUDNN_STATUS_SUCCESS {
        Ok(())
    } else {
        Err(format!("cuDNN {what}: {s:?}"))
    }
}

/// Folders that may hold cuDNN: `OXHLO_CUDNN_DIR`, then `nvidia/cudnn/lib` beside every
/// `site-packages` folder this process has mapped a library from.
fn candidate_dirs() -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<std::path::PathBuf> = std::env::var("OXHLO_CUDNN_DIR").map(|v| v.split(':').filter(|s| !s.is_empty()).map(Into::into).collect()).unwrap_or_default();
    if let Ok(maps) = std::fs::read_to_string("/proc/self/maps") {
        for line in maps.lines() {
            if let Some(i) = line.find("/site-packages/") {
                let start = line.find('/').unwrap_or(i);
                let d = std::path::PathBuf::from(format!("{}/site-packages/nvidia/cudnn/lib", &line[start..i]));
                if !dirs.contains(&d) {
                    dirs.push(d);
                }
            }
        }
    }
    dirs
}

/// Loads cuDNN's libraries from `dir` (each kept loaded for the process's life), so that later loads
/// by library name find them. True when `libcudnn.so.9` loaded.
fn preload(dir: &std::path::Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    let mut todo: Vec<std::path::PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("libcudnn") && n.contains(".so"))).collect();
    // Sub-libraries depend on each other: load in passes until nothing more loads.
    let mut main = false;
    loop {
        let before = todo.len();
        todo.retain(|p| {
            // SAFETY: loading cuDNN's own libraries runs only their initializers.
            match unsafe { libloading::Library::new(p) } {
                Ok(lib) => {
                    main |= p.file_name().and_then(|n| n.to_str()) == Some("libcudnn.so.9");
                    std::mem::forget(lib);
                    false
                }
                Err(_) => true,
            }
        });
        if todo.is_empty() || todo.len() == before {
            return main;
        }
    }
}

fn load() -> Result<Cudnn, String> {
    if crate::env_off("OXHLO_CUDNN") {
        return Err("disabled by OXHLO_CUDNN=0".into());
    }
    // SAFETY: only tries to dlopen the library names.
    if !unsafe { sys::is_culib_present() } {
        for d in candidate_dirs() {
            if preload(&d) {
                break;
            }
        }
        // SAFETY: as above.
        if !unsafe { sys::is_culib_present() } {
            return Err("libcudnn.so.9 not found (set LD_LIBRARY_PATH or OXHLO_CUDNN_DIR)".into());
        }
    }
    let gpu = crate::device::gpu()?;
    guarded("cuDNN initialization", || {
        // SAFETY: plain cuDNN calls with valid out-pointers; the handle is bound to the backend's stream.
        unsafe {
            let v = sys::cudnnGetVersion();
            if v < 90000 {
                return Err(format!("cuDNN {v} is older than 9.0"));
            }
            let mut h: sys::cudnnHandle_t = std::ptr::null_mut();
            check("create", sys::cudnnCreate(&mut h))?;
            check("set stream", sys::cudnnSetStream(h, gpu.stream.cu_stream() as sys::cudaStream_t))?;
            Ok(Cudnn { handle: Mutex::new(Handle(h)), choices: Mutex::new(HashMap::new()), version: v, arch: gpu.arch, find: FindForms::from_env() })
        }
    })
}

fn cudnn() -> Result<&'static Cudnn, String> {
    static C: OnceLock<Result<Cudnn, String>> = OnceLock::new();
    C.get_or_init(load).as_ref().map_err(Clone::clone)
}

/// Whether convolutions will run on cuDNN in this process (the reason when not).
pub fn available() -> Result<(), String> {
    cudnn().map(|_| ())
}

fn data_type(k: Kind) -> Option<sys::cudnnDataType_t> {
    Some(match k {
        Kind::F32 => sys::cudnnDataType_t::CUDNN_DATA_FLOAT,
        Kind::F64 => sys::cudnnDataType_t::CUDNN_DATA_DOUBLE,
        Kind::F16 => sys::cudnnDataType_t::CUDNN_DATA_HALF,
        Kind::BF16 => sys::cudnnDataType_t::CUDNN_DATA_BFLOAT16,
        _ => return None,
    })
}

/// The descriptors of one call, destroyed when dropped.
struct Descs {
    x: sys::cudnnTensorDescriptor_t,
    y: sys::cudnnTensorDescriptor_t,
    w: sys::cudnnFilterDescriptor_t,
    conv: sys::cudnnConvolutionDescriptor_t,
}

impl Drop for Descs {
    fn drop(&mut self) {
        // SAFETY: each was created by `Descs::new` (null ones are skipped) and is destroyed once.
        unsafe {
            if !self.x.is_null() {
                sys::cudnnDestroyTensorDescriptor(self.x);
            }
            if !self.y.is_null() {
                sys::cudnnDestroyTensorDescriptor(self.y);
            }
            if !self.w.is_null() {
                sys::cudnnDestroyFilterDescriptor(self.w);
            }
            if !self.conv.is_null() {
                sys::cudnnDestroyConvolutionDescriptor(self.conv);
            }
        }
    }
}

fn i32s(v: &[i64]) -> Vec<i32> {
    v.iter().map(|&x| x as i32).collect()
}

impl Descs {
    fn new(plan: &CudnnPlan, kind: Kind) -> Result<Descs, String> {
        let dt = data_type(kind).ok_or("no cuDNN type")?;
        let compute = if kind == Kind::F64 { sys::cudnnDataType_t::CUDNN_DATA_DOUBLE } else { sys::cudnnDataType_t::CUDNN_DATA_FLOAT };
        let mut d = Descs { x: std::ptr::null_mut(), y: std::ptr::null_mut(), w: std::ptr::null_mut(), conv: std::ptr::null_mut() };
        let tensor = |desc: sys::cudnnTensorDescriptor_t, v: &View| {
            let (dims, strides) = (i32s(&v.dims), i32s(&v.strides));
            // SAFETY: the arrays hold nbDims entries each.
            check("tensor descriptor", unsafe { sys::cudnnSetTensorNdDescriptor(desc, dt, dims.len() as i32, dims.as_ptr(), strides.as_ptr()) })
        };
        // SAFETY: out-pointers are valid; every array passed holds the count passed with it (the plan has
        // one pad/stride/dilation per spatial dim, dims of 2 + spatial entries).
        unsafe {
            check("create", sys::cudnnCreateTensorDescriptor(&mut d.x))?;
            check("create", sys::cudnnCreateTensorDescriptor(&mut d.y))?;
            check("create", sys::cudnnCreateFilterDescriptor(&mut d.w))?;
            check("create", sys::cudnnCreateConvolutionDescriptor(&mut d.conv))?;
            tensor(d.x, &plan.x)?;
            tensor(d.y, &plan.y)?;
            let f = i32s(&plan.filter);
            let format = if plan.nhwc { sys::cudnnTensorFormat_t::CUDNN_TENSOR_NHWC } else { sys::cudnnTensorFormat_t::CUDNN_TENSOR_NCHW };
            check("filter descriptor", sys::cudnnSetFilterNdDescriptor(d.w, dt, format, f.len() as i32, f.as_ptr()))?;
            let (p, s, dl) = (i32s(&plan.pads), i32s(&plan.strides), i32s(&plan.dilations));
            check(
                "convolution descriptor",
                sys::cudnnSetConvolutionNdDescriptor(d.conv, p.len() as i32, p.as_ptr(), s.as_ptr(), dl.as_ptr(), sys::cudnnConvolutionMode_t::CUDNN_CROSS_CORRELATION, compute),
            )?;
            if plan.groups > 1 {
                check("group count", sys::cudnnSetConvolutionGroupCount(d.conv, plan.groups as i32))?;
            }
        }
        Ok(d)
    }
}

/// Device pointer of `buf` at element `offset` (cuDNN reads and writes through raw pointers; the
/// returned guard keeps cudarc's stream bookkeeping alive for the call).
fn ptr(gpu: &Gpu, buf: &CudaSlice<u8>, offset: i64, elem: usize) -> u64 {
    let (p, _g) = buf.device_ptr(&gpu.stream);
    p + (offset as u64) * elem as u64
}

fn ptr_mut(gpu: &Gpu, buf: &mut CudaSlice<u8>) -> u64 {
    let (p, _g) = buf.device_ptr_mut(&gpu.stream);
    p
}

/// The three pointers of a call, in cuDNN's (x, w, y) roles, whichever is the output.
struct Ptrs {
    x: u64,
    w: u64,
    y: u64,
}

/// Runs a convolution on cuDNN when it is available and the plan covers it.
pub fn try_conv(gpu: &Gpu, memo: &Memo, op: &Op, lhs: &DTensor, rhs: &DTensor, rty: &TensorType, tf32: bool) -> Option<Result<DTensor, String>> {
    let rk = Kind::of(&rty.elem)?;
    if lhs.kind != rk || rhs.kind != rk || data_type(rk).is_none() || !rty.is_static() {
        return None;
    }
    let c = cudnn().ok()?;
    let key = key_for(op, &lhs.ty.shape, &rhs.ty.shape, &rty.shape, rk, tf32)?;
    let state = state_for(c, &key)?;
    if matches!(state, State::Unsupported) {
        return None;
    }
    Some(run(gpu, c, memo, op, &key, state, lhs, rhs, rty))
}

/// The cache key of `op` over operands of these shapes (elements of `rk`): its plan, the kind and
/// whether TF32 may be used (`tf32` asked, f32, and the op's precision below HIGH).
fn key_for(op: &Op, lhs: &[i64], rhs: &[i64], out: &[i64], rk: Kind, tf32: bool) -> Option<Key> {
    let plan = CudnnPlan::new(op, lhs, rhs, out)?;
    let strict = ConvDims::from_op(op, lhs.len(), None).ok()?.precision.iter().any(|p| matches!(p, Precision::High | Precision::Highest));
    Some((plan, rk, tf32 && !strict && rk == Kind::F32))
}

/// The disk key of `key`'s choice ([`crate::cudnn_choices`]).
fn disk_key(c: &Cudnn, key: &Key) -> u64 {
    crate::cudnn_choices::disk_key(&format!("{key:?}"), c.version, c.arch)
}

/// What is known of `key`: the choice kept on disk by an earlier process, else cuDNN's ranking of its
/// algorithms (asked once per key and kept).
fn state_for(c: &Cudnn, key: &Key) -> Option<State> {
    if let Some(s) = c.choices.lock().ok()?.get(key).cloned() {
        return Some(s);
    }
    let kept = if c.find.of(key.0.form) { None } else { crate::cudnn_choices::load(disk_key(c, key)) };
    let s = match kept {
        Some(Some(choice)) => State::Chosen(choice),
        Some(None) => State::Unsupported,
        None => match rank(c, key) {
            Ok(r) if !r.is_empty() => State::Ranked(r),
            Ok(_) => State::Unsupported,
            Err(e) => {
                log(&key.0, &e);
                State::Unsupported
            }
        },
    };
    if matches!(s, State::Unsupported) {
        log(&key.0, "no usable algorithm: im2col + cuBLAS instead");
        if kept.is_none() {
            crate::cudnn_choices::store(disk_key(c, key), None);
        }
    }
    c.choices.lock().ok()?.insert(key.clone(), s.clone());
    Some(s)
}

/// Asks cuDNN for the algorithms of every convolution of `module` with static shapes (as the first
/// run would at each one's first call), so that a program's compilation does it beside planning and
/// NVRTC: ResNet-18's 30-odd shapes were part of its first run.
pub fn prepare(gpu: &Gpu, module: &oxhlo_ir::Module, tf32: bool) {
    let Ok(c) = cudnn() else { return };
    let mut keys: Vec<Key> = Vec::new();
    for f in &module.funcs {
        f.walk(&mut |op| {
            if op.kind != oxhlo_ir::OpKind::Convolution || op.operands.len() != 2 || op.results.len() != 1 {
                return;
            }
            let shape = |v| match f.try_ty(v) {
                Some(oxhlo_ir::Type::Tensor(t)) if t.is_static() => Some((t.shape.clone(), Kind::of(&t.elem))),
                _ => None,
            };
            let (Some((l, _)), Some((r, _)), Some((o, Some(rk)))) = (shape(op.operands[0]), shape(op.operands[1]), shape(op.results[0])) else { return };
            if data_type(rk).is_none() {
                return;
            }
            if let Some(key) = key_for(op, &l, &r, &o, rk, tf32) {
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        });
    }
    for key in &keys {
        let Some(state) = state_for(c, key) else { continue };
        if matches!(state, State::Unsupported) || !warm_runs() {
            continue;
        }
        if warm_run(gpu, c, key, &state).is_err() && matches!(state, State::Chosen(_)) {
            // A kept choice this cuDNN no longer runs: forgotten, and the shape ranked again.
            if let Ok(mut m) = c.choices.lock() {
                m.remove(key);
            }
            if let Some(p) = crate::nvrtc::disk_path(disk_key(c, key), "cudnn") {
                let _ = std::fs::remove_file(p);
            }
            if let Some(state) = state_for(c, key) {
                if !matches!(state, State::Unsupported) {
                    let _ = warm_run(gpu, c, key, &state);
                }
            }
        }
    }
    let _ = gpu.synchronize();
}

/// Whether [`prepare`] runs each convolution once on scratch buffers (`OXHLO_CUDNN_WARM=0`: no).
fn warm_runs() -> bool {
    !crate::env_off("OXHLO_CUDNN_WARM")
}

/// Elements a view of a buffer spans from its start (its offset included).
fn extent(v: &View) -> usize {
    let span: i64 = v.dims.iter().zip(&v.strides).map(|(&d, &s)| (d - 1).max(0) * s.max(0)).sum();
    (v.offset + span + 1).max(1) as usize
}

/// Runs `key`'s convolution once on scratch buffers of its views' extents (their values unset; the
/// result is dropped): what the program's first run would pay at its first call of the shape (the
/// algorithm picked, cuDNN's kernels loaded) is paid during the compilation instead.
fn warm_run(gpu: &Gpu, c: &Cudnn, key: &Key, state: &State) -> Result<(), String> {
    let (plan, kind) = (&key.0, key.1);
    let elem = kind.size();
    let x = gpu.alloc_raw(kind, extent(&plan.x))?;
    let w = gpu.alloc_raw(kind, plan.filter_len().max(1))?;
    let y = gpu.alloc_raw(kind, extent(&plan.y))?;
    let p = Ptrs { x: ptr(gpu, &x, plan.x.offset, elem), w: ptr(gpu, &w, 0, elem), y: ptr(gpu, &y, plan.y.offset, elem) };
    call(gpu, c, key, state, &p)
}

/// With `OXHLO_CUDNN_LOG=1`, prints what cuDNN decided for a plan.
fn log(plan: &CudnnPlan, what: &str) {
    static ON: OnceLock<bool> = OnceLock::new();
    if *ON.get_or_init(|| std::env::var("OXHLO_CUDNN_LOG").is_ok_and(|v| v.trim() == "1")) {
        eprintln!("oxhlo-cuda cuDNN {:?} x{:?}/{:?} y{:?}/{:?} w{:?} nhwc={} pad={:?} s={:?} d={:?} g={}: {what}", plan.form, plan.x.dims, plan.x.strides, plan.y.dims, plan.y.strides, plan.filter, plan.nhwc, plan.pads, plan.strides, plan.dilations, plan.groups);
    }
}

fn math_for(kind: Kind, tf32: bool) -> sys::cudnnMathType_t {
    match (kind, tf32) {
        (Kind::F32, true) => sys::cudnnMathType_t::CUDNN_DEFAULT_MATH,
        (Kind::F32 | Kind::F64, _) => sys::cudnnMathType_t::CUDNN_FMA_MATH,
        _ => sys::cudnnMathType_t::CUDNN_TENSOR_OP_MATH,
    }
}

/// cuDNN's heuristic ranking for a shape, keeping the algorithms it says are usable within the cap.
fn rank(c: &Cudnn, (plan, kind, tf32): &Key) -> Result<Vec<Perf>, String> {
    let d = Descs::new(plan, *kind)?;
    let handle = c.handle.lock().map_err(|_| "cuDNN handle poisoned")?;
    let math = math_for(*kind, *tf32);
    let all = guarded("cuDNN heuristics", || heuristics(handle.0, plan.form, &d, math))?;
    Ok(all.into_iter().filter(|x| usable(x, math, WORKSPACE_CAP)).collect())
}

/// A successful result within `cap` bytes of workspace; a TF32-free search must not take a tensor-op
/// algorithm for f32.
fn usable(x: &Perf, math: sys::cudnnMathType_t, cap: usize) -> bool {
    let fma = sys::cudnnMathType_t::CUDNN_FMA_MATH;
    x.1 == sys::cudnnStatus_t::CUDNN_STATUS_SUCCESS && x.3 <= cap && !(math == fma && x.4 != fma && x.4 != sys::cudnnMathType_t::CUDNN_DEFAULT_MATH)
}

#[allow(clippy::too_many_arguments)]
fn run(gpu: &Gpu, c: &Cudnn, memo: &Memo, op: &Op, key: &Key, state: State, lhs: &DTensor, rhs: &DTensor, rty: &TensorType) -> Result<DTensor, String> {
    let (plan, kind) = (&key.0, key.1);
    let elem = kind.size();
    let out_len = rty.num_elements().ok_or("dynamic convolution result")?;
    let copy = |tag: u32, src: &CudaSlice<u8>, c: &crate::cudnn_plan::Copy, len: usize| -> Result<DBuf, String> {
        let mut out = gpu.alloc_raw(kind, len)?;
        match crate::cudnn_plan::batched_transpose(c) {
            Some((b, r, s)) if (b * r * s) as usize == len => {
                let k = memo.get(op, tag + 100, || crate::movement::render_transpose_tiles(elem)).ok_or("no transpose kernel for this element size")?;
                gpu.launch_transpose_tiles(&k, b, r, s, src, &mut out)?;
            }
            _ => {
                let k = memo
                    .get_with_items(op, tag, || crate::movement::render_strided_units(&c.shape, &c.strides, c.base, elem).map(|(s, n)| (s, n.max(0) as usize)))
                    .ok_or("no copy kernel for this element size")?;
                gpu.launch_scalar(&k, k.items.unwrap_or(len), &[src], std::slice::from_mut(&mut out))?;
            }
        }
        Ok(out)
    };
    // The lhs as cuDNN's x, zero-padded first where the plan says.
    let padded = match &plan.pad {
        Some(p) => {
            let k = memo
                .get_with_items(op, 50, || crate::movement::render_zero_pad(&p.in_shape, &p.out_shape, &p.low, elem).map(|(s, n)| (s, n.max(0) as usize)))
                .ok_or("no pad kernel for this element size")?;
            let len = p.out_shape.iter().product::<i64>() as usize;
            let mut out = [gpu.alloc_raw(kind, len)?];
            gpu.launch_scalar(&k, k.items.unwrap_or(len), &[&*lhs.buf], &mut out)?;
            let [o] = out;
            Some(o)
        }
        _ => None,
    };
    let filter = match &plan.filter_from_rhs {
        Some(fc) => Some(copy(51, &rhs.buf, fc, plan.filter_len())?),
        None => None,
    };
    // Or copied into a packed NHWC buffer.
    let packed = match &plan.x_from_lhs {
        Some(xc) => Some(copy(54, &lhs.buf, xc, plan.x.dims.iter().product::<i64>() as usize)?),
        None => None,
    };
    let w_in: &CudaSlice<u8> = filter.as_deref().unwrap_or(&rhs.buf);
    let x_in: &CudaSlice<u8> = padded.as_deref().or(packed.as_deref()).unwrap_or(&lhs.buf);
    let result = match plan.form {
        Form::Forward => {
            let mut y = gpu.alloc_raw(kind, plan.ext.as_ref().map_or(out_len, |e| e.0))?;
            let p = Ptrs { x: ptr(gpu, x_in, plan.x.offset, elem), w: ptr(gpu, w_in, 0, elem), y: ptr_mut(gpu, &mut y) };
            call(gpu, c, key, &state, &p)?;
            match &plan.ext {
                Some((_, back)) => copy(55, &y, back, out_len)?,
                None => y,
            }
        }
        Form::BackwardData => {
            let len = plan.ext.as_ref().map_or(out_len, |e| e.0);
            let mut dx = gpu.alloc_raw(kind, len)?;
            let p = Ptrs { x: ptr_mut(gpu, &mut dx), w: ptr(gpu, w_in, 0, elem), y: ptr(gpu, &lhs.buf, 0, elem) };
            call(gpu, c, key, &state, &p)?;
            match &plan.ext {
                Some((_, slice)) => copy(52, &dx, slice, out_len)?,
                None => dx,
            }
        }
        Form::BackwardFilter => {
            let mut dw = gpu.alloc_raw(kind, plan.filter_len())?;
            let p = Ptrs { x: ptr(gpu, x_in, plan.x.offset, elem), w: ptr_mut(gpu, &mut dw), y: ptr(gpu, &rhs.buf, 0, elem) };
            call(gpu, c, key, &state, &p)?;
            match &plan.result_from_filter {
                Some(rc) => copy(53, &dw, rc, out_len)?,
                None => dw,
            }
        }
    };
    Ok(Gpu::wrap(rty.clone(), kind, out_len, result))
}

/// cuDNN's algorithm results, as (algo, status, time, memory, math) whatever the form.
type Perf = (Algo, sys::cudnnStatus_t, f32, usize, sys::cudnnMathType_t);

/// The call itself: descriptors, the algorithm (measured on first use of this shape), the workspace.
fn call(gpu: &Gpu, c: &Cudnn, key: &Key, state: &State, p: &Ptrs) -> Result<(), String> {
    let (plan, kind) = (&key.0, key.1);
    let d = Descs::new(plan, kind)?;
    let handle = c.handle.lock().map_err(|_| "cuDNN handle poisoned")?;
    let h = handle.0;
    let choice = match state {
        State::Chosen(ch) => *ch,
        State::Unsupported => return Err("internal error: a cuDNN call for an unsupported shape".into()),
        State::Ranked(ranked) => {
            let ch = if c.find.of(plan.form) { guarded("cuDNN algorithm search", || measure(gpu, h, plan.form, &d, math_for(kind, key.2), ranked, p))? } else { pick(&ranked[0]) };
            log(plan, &format!("{ch:?} (of {} ranked)", ranked.len()));
            if let Ok(mut m) = c.choices.lock() {
                m.insert(key.clone(), State::Chosen(ch));
            }
            if !c.find.of(plan.form) {
                crate::cudnn_choices::store(disk_key(c, key), Some(&ch));
            }
            ch
        }
    };
    let ws = if choice.workspace > 0 { Some(gpu.alloc_bytes(choice.workspace)?) } else { None };
    let ws_ptr = ws.as_ref().map_or(0, |w| ptr(gpu, w, 0, 1)) as *mut c_void;
    let (a32, b32, a64, b64) = (1.0f32, 0.0f32, 1.0f64, 0.0f64);
    let (alpha, beta): (*const c_void, *const c_void) = if kind == Kind::F64 { (&a64 as *const f64 as _, &b64 as *const f64 as _) } else { (&a32 as *const f32 as _, &b32 as *const f32 as _) };
    guarded("cuDNN convolution", || {
        // SAFETY: the descriptors describe the buffers behind the pointers (the plan's views stay inside
        // them), the workspace holds what the algorithm asked for, and the handle runs on the stream
        // that orders the buffers' producers and consumers.
        unsafe {
            check("math type", sys::cudnnSetConvolutionMathType(d.conv, choice.math))?;
            let s = match choice.algo {
                Algo::Forward(a) => sys::cudnnConvolutionForward(h, alpha, d.x, p.x as _, d.w, p.w as _, d.conv, a, ws_ptr, choice.workspace, beta, d.y, p.y as _),
                Algo::BackwardData(a) => sys::cudnnConvolutionBackwardData(h, alpha, d.w, p.w as _, d.y, p.y as _, d.conv, a, ws_ptr, choice.workspace, beta, d.x, p.x as _),
                Algo::BackwardFilter(a) => sys::cudnnConvolutionBackwardFilter(h, alpha, d.x, p.x as _, d.y, p.y as _, d.conv, a, ws_ptr, choice.workspace, beta, d.w, p.w as _),
            };
            check("convolution", s)
        }
    })
}

fn pick(x: &Perf) -> Choice {
    Choice { algo: x.0, math: x.4, workspace: x.3 }
}

/// cuDNN's heuristic ranking of the algorithms for these descriptors.
fn heuristics(h: sys::cudnnHandle_t, form: Form, d: &Descs, math: sys::cudnnMathType_t) -> Result<Vec<Perf>, String> {
    const N: usize = 16;
    let mut got = 0i32;
    // SAFETY: the out-arrays hold N results and cuDNN writes at most `got` of them; the descriptors
    // are live.
    unsafe {
        check("math type", sys::cudnnSetConvolutionMathType(d.conv, math))?;
        Ok(match form {
            Form::Forward => {
                let mut r = [std::mem::zeroed::<sys::cudnnConvolutionFwdAlgoPerf_t>(); N];
                check("forward heuristics", sys::cudnnGetConvolutionForwardAlgorithm_v7(h, d.x, d.w, d.conv, d.y, N as i32, &mut got, r.as_mut_ptr()))?;
                r[..got as usize].iter().map(|x| (Algo::Forward(x.algo), x.status, x.time, x.memory, x.mathType)).collect()
            }
            Form::BackwardData => {
                let mut r = [std::mem::zeroed::<sys::cudnnConvolutionBwdDataAlgoPerf_t>(); N];
                check("backward data heuristics", sys::cudnnGetConvolutionBackwardDataAlgorithm_v7(h, d.w, d.y, d.conv, d.x, N as i32, &mut got, r.as_mut_ptr()))?;
                r[..got as usize].iter().map(|x| (Algo::BackwardData(x.algo), x.status, x.time, x.memory, x.mathType)).collect()
            }
            Form::BackwardFilter => {
                let mut r = [std::mem::zeroed::<sys::cudnnConvolutionBwdFilterAlgoPerf_t>(); N];
                check("backward filter heuristics", sys::cudnnGetConvolutionBackwardFilterAlgorithm_v7(h, d.x, d.y, d.conv, d.w, N as i32, &mut got, r.as_mut_ptr()))?;
                r[..got as usize].iter().map(|x| (Algo::BackwardFilter(x.algo), x.status, x.time, x.memory, x.mathType)).collect()
            }
        })
    }
}

/// The fastest algorithm measured by cuDNN on these buffers, with a workspace of the largest size any
/// ranked algorithm asks for; cuDNN's first-ranked one when none measures.
fn measure(gpu: &Gpu, h: sys::cudnnHandle_t, form: Form, d: &Descs, math: sys::cudnnMathType_t, ranked: &[Perf], p: &Ptrs) -> Result<Choice, String> {
    const N: usize = 16;
    let mut got = 0i32;
    let ws_size = ranked.iter().map(|x| x.3).max().unwrap_or(0);
    let ws = if ws_size > 0 { Some(gpu.alloc_bytes(ws_size)?) } else { None };
    let ws_ptr = ws.as_ref().map_or(0, |w| ptr(gpu, w, 0, 1)) as *mut c_void;
    // SAFETY: the out-arrays hold N results and cuDNN writes at most `got` of them; the descriptors are
    // live; the pointers cover the views and the workspace holds `ws_size` bytes.
    let measured: Vec<Perf> = unsafe {
        check("math type", sys::cudnnSetConvolutionMathType(d.conv, math))?;
        match form {
            Form::Forward => {
                let mut r = [std::mem::zeroed::<sys::cudnnConvolutionFwdAlgoPerf_t>(); N];
                check("forward search", sys::cudnnFindConvolutionForwardAlgorithmEx(h, d.x, p.x as _, d.w, p.w as _, d.conv, d.y, p.y as _, N as i32, &mut got, r.as_mut_ptr(), ws_ptr, ws_size))?;
                r[..got as usize].iter().map(|x| (Algo::Forward(x.algo), x.status, x.time, x.memory, x.mathType)).collect()
            }
            Form::BackwardData => {
                let mut r = [std::mem::zeroed::<sys::cudnnConvolutionBwdDataAlgoPerf_t>(); N];
                check("backward data search", sys::cudnnFindConvolutionBackwardDataAlgorithmEx(h, d.w, p.w as _, d.y, p.y as _, d.conv, d.x, p.x as _, N as i32, &mut got, r.as_mut_ptr(), ws_ptr, ws_size))?;
                r[..got as usize].iter().map(|x| (Algo::BackwardData(x.algo), x.status, x.time, x.memory, x.mathType)).collect()
            }
            Form::BackwardFilter => {
                let mut r = [std::mem::zeroed::<sys::cudnnConvolutionBwdFilterAlgoPerf_t>(); N];
                check("backward filter search", sys::cudnnFindConvolutionBackwardFilterAlgorithmEx(h, d.x, p.x as _, d.y, p.y as _, d.conv, d.w, p.w as _, N as i32, &mut got, r.as_mut_ptr(), ws_ptr, ws_size))?;
                r[..got as usize].iter().map(|x| (Algo::BackwardFilter(x.algo), x.status, x.time, x.memory, x.mathType)).collect()
            }
        }
    };
    // Results come fastest first.
    Ok(measured.iter().find(|x| usable(x, math, ws_size)).map(pick).unwrap_or_else(|| pick(&ranked[0])))
}
