//! The device: library probing (before any cudarc call, which panics when a library is missing), the
//! process-wide context, stream and cuBLAS handle, device tensors (`DTensor`: one byte buffer per tensor,
//! row-major, the element layouts of `oxhlo_cpu::Kind`), host <-> device copies and kernel launches
//! (compilation and the kernel caches: [`crate::nvrtc`]).

use cudarc::cublas::CudaBlas;
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, DevicePtr, LaunchConfig, PushKernelArg};
use oxhlo_cpu::{Buf, Kind, NTensor};
use oxhlo_ir::TensorType;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, OnceLock};

/// What [`crate::available`] reports about the GPU.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    pub name: String,
    /// Compute capability (major, minor).
    pub compute_capability: (i32, i32),
    pub total_memory: usize,
    /// Streaming multiprocessors (0 when the driver does not say).
    pub sm_count: i64,
}

/// The process-wide GPU state.
pub struct Gpu {
    pub info: DeviceInfo,
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    pub blas: Mutex<CudaBlas>,
    pub(crate) arch: &'static str,
    /// Compiled kernels by key (`nvrtc`), and the modules of batches loaded from the disk cache.
    pub(crate) kernels: Mutex<HashMap<u64, CudaFunction>>,
    pub(crate) batch_modules: Mutex<HashMap<u64, Arc<cudarc::driver::CudaModule>>>,
    /// Quickly compiled kernels whose fully optimized versions are compiling (`tiers`), and every
    /// module of such kernels (kept for the process's life: a captured graph may launch them).
    pub(crate) quick: Mutex<HashMap<u64, CudaFunction>>,
    pub(crate) quick_modules: Mutex<Vec<Arc<cudarc::driver::CudaModule>>>,
    /// How many times quickly compiled kernels were replaced by fully optimized ones: a graph captured
    /// under an earlier count is captured again.
    pub upgrades: std::sync::atomic::AtomicU64,
    /// cuBLASLt (GEMMs with epilogues), made on first use.
    lt: OnceLock<Result<crate::gemm_lt::Lt, String>>,
}

/// Runs `f`, turning a panic into an error message (cudarc panics on some missing-library paths).
pub fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into());
            Err(format!("{what}: {msg}"))
        }
    }
}

/// Checks that the driver, NVRTC, cuBLAS and cuBLASLt libraries can be loaded.
fn probe_libraries() -> Result<(), String> {
    // SAFETY: these only try to dlopen the library names; no library function is called.
    let present = [
        ("libcuda (the NVIDIA driver)", unsafe { cudarc::driver::sys::is_culib_present() }),
        ("libnvrtc", unsafe { cudarc::nvrtc::sys::is_culib_present() }),
        ("libcublas", unsafe { cudarc::cublas::sys::is_culib_present() }),
        ("libcublasLt", unsafe { cudarc::cublaslt::sys::is_culib_present() }),
    ];
    let missing: Vec<&str> = present.iter().filter(|(_, ok)| !ok).map(|(n, _)| *n).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("{} not found", missing.join(", ")))
    }
}

fn arch_for(cc: (i32, i32)) -> &'static str {
    match cc {
        (9, 0) => "sm_90",
        (8, 9) => "sm_89",
        (8, 6) => "sm_86",
        (8, 0) => "sm_80",
        (10, 0) => "sm_100",
        (12, 0) => "sm_120",
        (7, 5) => "sm_75",
        _ => "sm_80",
    }
}

fn create() -> Result<Arc<Gpu>, String> {
    probe_libraries()?;
    guarded("CUDA initialization", || {
        let ctx = CudaContext::new(0).map_err(|e| format!("no usable CUDA device: {e}"))?;
        let name = ctx.name().map_err(|e| e.to_string())?;
        let cc = ctx.compute_capability().map_err(|e| e.to_string())?;
        let total_memory = cudarc::driver::result::mem_get_info().map(|(_, t)| t).unwrap_or(0);
        let sm_count = ctx.attribute(cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT).map_or(0, i64::from);
        // One stream only: cudarc's per-buffer events (cross-stream tracking) would only add two event
        // creations per allocation.
        // SAFETY: the backend uses the one stream created below, nothing else.
        unsafe { ctx.disable_event_tracking() };
        keep_freed_memory(&ctx);
        // A stream of our own (not the legacy default stream, which cannot be captured as a graph).
        let stream = ctx.new_stream().map_err(|e| format!("CUDA stream: {e}"))?;
        let blas = CudaBlas::new(stream.clone()).map_err(|e| format!("cuBLAS: {e}"))?;
        Ok(Arc::new(Gpu {
            info: DeviceInfo { name, compute_capability: cc, total_memory, sm_count },
            ctx,
            stream,
            blas: Mutex::new(blas),
            arch: arch_for(cc),
            kernels: Mutex::new(HashMap::new()),
            batch_modules: Mutex::new(HashMap::new()),
            quick: Mutex::new(HashMap::new()),
            quick_modules: Mutex::new(Vec::new()),
            upgrades: Default::default(),
            lt: OnceLock::new(),
        }))
    })
}

/// Lets the device's default memory pool keep freed memory for reuse (stream-ordered allocations would
/// otherwise return it to the driver at every synchronization, and each run would map it again).
fn keep_freed_memory(ctx: &CudaContext) {
    use cudarc::driver::sys;
    let mut pool: sys::CUmemoryPool = std::ptr::null_mut();
    let mut threshold: u64 = u64::MAX;
    // SAFETY: plain driver calls on this context's device with valid out-pointers; failures are ignored
    // (the pool then keeps its default behaviour).
    unsafe {
        if sys::cuDeviceGetDefaultMemPool(&mut pool, ctx.cu_device()) == sys::CUresult::CUDA_SUCCESS && !pool.is_null() {
            let _ = sys::cuMemPoolSetAttribute(
                pool,
                sys::CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                &mut threshold as *mut u64 as *mut std::ffi::c_void,
            );
        }
    }
}

/// Share of the device's free memory the default memory pool reserves when the GPU is created
/// ([`reserve_pool`]): `OXHLO_CUDA_POOL_RESERVE` (0 to 0.9; read once), else a quarter.
fn pool_reserve_share() -> f64 {
    static SHARE: OnceLock<f64> = OnceLock::new();
    crate::reduce::knob(&SHARE, "OXHLO_CUDA_POOL_RESERVE", |f: f64| (0.0..=0.9).contains(&f), 0.25)
}

/// Grows the device's default memory pool by [`pool_reserve_share`] of the free memory (one allocation,
/// freed at once; the pool keeps freed memory, [`keep_freed_memory`]), on the warm-up thread: a loop
/// keeping every call's outputs otherwise grows the pool allocation by allocation on its first pass
/// (layer norm [4096, 4096]: 0.25-0.33 ms a call for each new 64 MiB output on an H100, against 0.05
/// once the pool had grown). Failures are ignored (the pool then grows as before).
fn reserve_pool(g: &Gpu) {
    let share = pool_reserve_share();
    if share <= 0.0 || g.ctx.bind_to_thread().is_err() {
        return;
    }
    let Ok((free, _)) = cudarc::driver::result::mem_get_info() else { return };
    // Whole 2 MiB pages (the pool's granularity).
    let bytes = ((free as f64 * share) as usize) & !((2 << 20) - 1);
    if bytes == 0 {
        return;
    }
    // On the backend's stream, so never while a graph is being captured there (a capture then fails:
    // seen on an H100 as a program's runs not captured).
    let _use = crate::graph::StreamUse::new();
    // SAFETY: never read or written; freed (stream-ordered) when dropped here.
    if let Ok(s) = unsafe { g.stream.alloc::<u8>(bytes) } {
        drop(s);
        let _ = g.synchronize();
    }
}

/// The GPU, created on first use (the failure is remembered too).
///
/// Creating it starts the libraries' one-time warm-up on a thread of its own (`dot::warm_up`: cuDNN's
/// loading and handle, cuBLAS's first GEMM, ~100 ms on the H200 host): a JAX client is created before
/// its first program is traced and lowered (half a second or more), so the first compile no longer
/// waits for them. `OXHLO_CUDA_EARLY_WARMUP=0` leaves them to the first compile that needs them. It
/// also starts NVRTC worker processes for the first cold compile (`nvrtc_worker::prestart`).
pub fn gpu() -> Result<Arc<Gpu>, String> {
    static GPU: OnceLock<Result<Arc<Gpu>, String>> = OnceLock::new();
    GPU.get_or_init(|| {
        let g = create();
        if let Ok(g) = &g {
            if !crate::env_off("OXHLO_CUDA_EARLY_WARMUP") {
                start_early_warm_up(g.clone());
            }
            crate::nvrtc_worker::prestart(g.arch);
        }
        g
    })
    .clone()
}

/// Whether the early warm-up ([`gpu`]) is still running; the process waits for it when it exits.
static EARLY_WARM_UP: (Mutex<bool>, std::sync::Condvar) = (Mutex::new(false), std::sync::Condvar::new());

/// Runs the libraries' warm-up on a thread of its own, and makes the process wait for it at exit: a
/// library still loading while the process tears down the CUDA state crashed a short test binary
/// (SIGSEGV after its last test).
fn start_early_warm_up(g: Arc<Gpu>) {
    extern "C" fn wait_at_exit() {
        let (running, done) = &EARLY_WARM_UP;
        if let Ok(r) = running.lock() {
            let _ = done.wait_timeout_while(r, std::time::Duration::from_secs(30), |r| *r);
        }
    }
    if let Ok(mut r) = EARLY_WARM_UP.0.lock() {
        *r = true;
    }
    // SAFETY: registers a plain `extern "C"` function taking nothing; it only waits on a condition.
    if unsafe { libc::atexit(wait_at_exit) } != 0 {
        return;
    }
    let finish = || {
        if let Ok(mut r) = EARLY_WARM_UP.0.lock() {
            *r = false;
        }
        EARLY_WARM_UP.1.notify_all();
    };
    let spawned = std::thread::Builder::new().name("oxhlo-cuda-warmup".into()).spawn(move || {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            reserve_pool(&g);
            crate::dot::warm_up(&g, true, true, false)
        }));
        finish();
    });
    if spawned.is_err() {
        finish();
    }
}

/// Whether oxhlo's kernels launch as programmatic dependents of the kernel before them
/// (`cuLaunchKernelEx` with programmatic stream serialization: a kernel may start while the one before
/// it finishes, and waits in its prologue, `nvrtc::ENTRY_PROLOGUE`, before touching memory): yes when
/// kernels are compiled for sm_90 or later, unless `OXHLO_CUDA_PDL=0`.
pub fn pdl_enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| !crate::env_off("OXHLO_CUDA_PDL") && gpu().is_ok_and(|g| g.arch_at_least(90)))
        && !PDL_REFUSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Set when the driver refused a programmatic dependent launch (a driver without them): every later
/// launch is a plain one.
static PDL_REFUSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A kernel's CUDA C source, its hash (computed once) and, once compiled, its function.
#[derive(Debug)]
pub struct Kernel {
    pub src: String,
    pub(crate) key: u64,
    pub(crate) func: OnceLock<CudaFunction>,
    /// Work items of a launch when they are not the result's elements (kernels moving wider units).
    pub items: Option<usize>,
    /// Scalar arguments of every launch of this kernel, after the launch's own scalars: an elementwise
    /// kernel's power-of-two index sizes (`render::IndexScalars`) or a small strided copy's shape
    /// (`movement::SHAPE_SCALARS_MAX`), read from the rendered source's last line. Kernels sharing a
    /// source (and its compiled function) may differ in them.
    pub scalars: Vec<i64>,
}

impl Kernel {
    /// The kernel of `src`, its value registers renumbered ([`crate::render::canonical_source`]) and its
    /// launch scalars taken from its last line ([`crate::render::split_scalars`]).
    pub fn new(src: String) -> Kernel {
        let scalars = crate::render::split_scalars(&src).1;
        let src = crate::render::canonical_source(&src);
        Kernel { key: crate::nvrtc::hash(&src), src, func: OnceLock::new(), items: None, scalars }
    }
}

/// Kernels rendered while a program runs (reductions, movement, gathers, convolutions, permutes),
/// rendered once per (op, role) and kept with the program, so later runs neither render nor look up.
#[derive(Debug, Default)]
pub struct Memo {
    map: Mutex<HashMap<MemoKey, Option<Arc<Kernel>>>>,
    /// Zeroed `unsigned int` counters of kernels whose last block finishes the work (each launch
    /// leaves them at zero again), per (op, role).
    counters: Mutex<HashMap<MemoKey, DTensor>>,
    /// Launch plans worked out once per (op, role) ([`Memo::plan`]).
    plans: Plans,
}

/// [`Memo`]'s launch plans, each of its own type.
#[derive(Default)]
struct Plans(Mutex<HashMap<MemoKey, Arc<dyn std::any::Any + Send + Sync>>>);

impl std::fmt::Debug for Plans {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Plans({})", self.0.lock().map_or(0, |m| m.len()))
    }
}

/// (op address, role).
type MemoKey = (usize, u32);

impl Memo {
    /// The kernel of `op` in role `tag`, rendering it on first use (None when it has no rendering).
    /// Ops of a compiled program never move, and their types are static, so the address is a key.
    pub fn get(&self, op: &oxhlo_ir::Op, tag: u32, render: impl FnOnce() -> Option<String>) -> Option<Arc<Kernel>> {
        self.get_kernel(op, tag, || render().map(Kernel::new))
    }

    /// [`Memo::get`] for kernels whose launches cover `items` work items (see [`Kernel::items`]).
    pub fn get_with_items(&self, op: &oxhlo_ir::Op, tag: u32, render: impl FnOnce() -> Option<(String, usize)>) -> Option<Arc<Kernel>> {
        self.get_kernel(op, tag, || {
            render().map(|(s, n)| {
                let mut k = Kernel::new(s);
                k.items = Some(n);
                k
            })
        })
    }

    /// Runs the kernel of `op` in role `tag` that `render` gives (source and work items; rendered once
    /// and kept) as a thread an item over device operands `ins`, into one new buffer per result of
    /// `op` (their static types): the results, or None when it does not render (the op stays on the
    /// host). The windowed ops' and dynamic slices' launches.
    pub fn run_per_item(&self, gpu: &Gpu, func: &oxhlo_ir::Func, op: &oxhlo_ir::Op, tag: u32, render: impl FnOnce() -> Option<(String, usize)>, ins: &[DTensor]) -> Option<Result<Vec<DTensor>, String>> {
        let src = self.get_with_items(op, tag, render)?;
        let n = src.items?;
        let results = crate::render::result_types(func, op)?;
        Some((|| {
            let mut outs = gpu.alloc_results(&results)?;
            let bufs: Vec<_> = ins.iter().map(|d| &**d.buf).collect();
            gpu.launch_scalar(&src, n, &bufs, &mut outs)?;
            Ok(Gpu::wrap_results(&results, outs))
        })())
    }

    /// `n` zeroed counters of `op` in role `tag`, allocated at first use (before any graph capture of
    /// the run that uses them: a program's first run is never captured) and kept with the program.
    pub fn counter(&self, gpu: &Gpu, op: &oxhlo_ir::Op, tag: u32, n: usize) -> Result<DTensor, String> {
        let key = (op as *const oxhlo_ir::Op as usize, tag);
        let mut m = self.counters.lock().map_err(|_| "the counters' lock was poisoned")?;
        if let Some(c) = m.get(&key).filter(|c| c.len == n) {
            return Ok(c.clone());
        }
        let zeros = NTensor::new(oxhlo_ir::TensorType::new(vec![n as i64], oxhlo_ir::ElementType::uint(32)), oxhlo_cpu::Buf::U32(vec![0; n]));
        let c = gpu.upload(&zeros)?;
        m.insert(key, c.clone());
        Ok(c)
    }

    /// What `make` works out for `op` in role `tag` (how its launches go: work too slow to repeat every
    /// run, such as analysing a comparator), made on first use and kept.
    pub fn plan<T: Send + Sync + 'static>(&self, op: &oxhlo_ir::Op, tag: u32, make: impl FnOnce() -> T) -> Arc<T> {
        let key = (op as *const oxhlo_ir::Op as usize, tag);
        if let Some(p) = self.plans.0.lock().ok().and_then(|m| m.get(&key).cloned()).and_then(|p| p.downcast::<T>().ok()) {
            return p;
        }
        let p = Arc::new(make());
        if let Ok(mut m) = self.plans.0.lock() {
            m.insert(key, p.clone());
        }
        p
    }

    fn get_kernel(&self, op: &oxhlo_ir::Op, tag: u32, render: impl FnOnce() -> Option<Kernel>) -> Option<Arc<Kernel>> {
        let key = (op as *const oxhlo_ir::Op as usize, tag);
        if let Ok(m) = self.map.lock() {
            if let Some(k) = m.get(&key) {
                return k.clone();
            }
        }
        let k = render().map(Arc::new);
        if let Ok(mut m) = self.map.lock() {
            m.insert(key, k.clone());
        }
        k
    }
}

/// Freed device buffers kept for reuse, by exact byte size: a program's steps allocate the same sizes run
/// after run, and taking a buffer from here costs no driver call (an allocation and a free through the
/// stream-ordered allocator each cost microseconds per step). One stream orders everything, so a buffer
/// freed after its last use was enqueued can be handed to any later step. At most [`POOL_CAP`] bytes
/// are kept; beyond that, freed buffers go back to the driver.
struct Pool {
    free: Mutex<HashMap<usize, Vec<CudaSlice<u8>>>>,
    bytes: std::sync::atomic::AtomicUsize,
}

const POOL_CAP: usize = 32 << 30;

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| Pool { free: Mutex::new(HashMap::new()), bytes: Default::default() })
}

impl Pool {
    fn take(&self, bytes: usize) -> Option<CudaSlice<u8>> {
        let s = self.free.lock().ok()?.get_mut(&bytes)?.pop()?;
        self.bytes.fetch_sub(bytes, std::sync::atomic::Ordering::Relaxed);
        Some(s)
    }
    fn put(&self, s: CudaSlice<u8>) {
        let n = s.len();
        if self.bytes.load(std::sync::atomic::Ordering::Relaxed) + n > POOL_CAP {
            return; // dropped: back to the driver
        }
        if let Ok(mut m) = self.free.lock() {
            m.entry(n).or_default().push(s);
            self.bytes.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// A device buffer (a whole allocation) that returns to the pool of freed buffers when dropped.
#[derive(Debug)]
pub struct DBuf(Option<CudaSlice<u8>>);

impl DBuf {
    pub fn new(s: CudaSlice<u8>) -> DBuf {
        DBuf(Some(s))
    }

    /// A placeholder holding no buffer (to swap a buffer out of a list for a launch); it must not be
    /// read or launched with.
    pub(crate) fn empty() -> DBuf {
        DBuf(None)
    }
}

impl std::ops::Deref for DBuf {
    type Target = CudaSlice<u8>;
    fn deref(&self) -> &CudaSlice<u8> {
        // Only `drop` empties it.
        self.0.as_ref().expect("a live device buffer")
    }
}

impl std::ops::DerefMut for DBuf {
    fn deref_mut(&mut self) -> &mut CudaSlice<u8> {
        self.0.as_mut().expect("a live device buffer")
    }
}

impl Drop for DBuf {
    fn drop(&mut self) {
        if let Some(s) = self.0.take() {
            if let Err(s) = crate::graph::arena_put(s) {
                pool().put(s);
            }
        }
    }
}

/// Device work the host has not waited for: a run's results are valid in stream order from the moment
/// it returns (every later upload, download, copy and run on the GPU's one stream comes after it), and
/// [`InFlight::wait`] says when the device has finished it, with the error of any kernel that failed.
#[derive(Clone)]
pub struct InFlight(Arc<cudarc::driver::CudaEvent>);

impl InFlight {
    /// Blocks until the marked work is complete.
    pub fn wait(&self) -> Result<(), String> {
        self.0.synchronize().map_err(|e| format!("the GPU failed: {e}"))
    }

    /// Whether the marked work is complete (or failed: [`InFlight::wait`] then says how), without
    /// waiting.
    pub fn is_done(&self) -> bool {
        !matches!(self.0.try_is_complete(), Ok(false))
    }
}

/// A tensor in device memory.
#[derive(Clone, Debug)]
pub struct DTensor {
    pub ty: TensorType,
    pub kind: Kind,
    /// Element count.
    pub len: usize,
    /// At least one byte (CUDA allocations of zero bytes are avoided). Always a whole allocation, never
    /// a view at an offset: kernels rely on its 256-byte alignment for vector accesses.
    pub buf: Arc<DBuf>,
}

impl DTensor {
    pub fn bytes(&self) -> usize {
        self.len * self.kind.size()
    }
    pub fn retyped(&self, ty: TensorType) -> DTensor {
        DTensor { ty, ..self.clone() }
    }
}

impl Gpu {
    /// Whether kernels are compiled for compute capability `cc` (e.g. 90 for sm_90) or later.
    fn arch_at_least(&self, cc: u32) -> bool {
        self.arch.trim_start_matches("sm_").parse::<u32>().is_ok_and(|a| a >= cc)
    }

    /// Whether kernels may be launched in thread block clusters (sm_90 and later).
    pub fn clusters(&self) -> bool {
        self.arch_at_least(90)
    }

    /// The GPU's cuBLASLt handle and workspace (made on first use; a failure is remembered).
    pub fn lt(&self) -> Result<&crate::gemm_lt::Lt, String> {
        self.lt.get_or_init(|| crate::gemm_lt::Lt::new(self)).as_ref().map_err(Clone::clone)
    }

    /// Allocates an uninitialized buffer of `len` elements of `kind` (at least one byte); every
    /// rendered kernel and copy writes all of its outputs before they are read.
    pub fn alloc_raw(&self, kind: Kind, len: usize) -> Result<DBuf, String> {
        self.alloc_bytes(len * kind.size())
    }

    /// One new buffer for each of `results` (static types and kinds, [`crate::render::result_types`]).
    pub fn alloc_results(&self, results: &[(TensorType, Kind)]) -> Result<Vec<DBuf>, String> {
        results.iter().map(|(t, k)| self.alloc_raw(*k, t.num_elements().ok_or("a result of dynamic shape")?)).collect()
    }

    /// `bufs` (from [`Gpu::alloc_results`]) as tensors of `results`.
    pub fn wrap_results(results: &[(TensorType, Kind)], bufs: Vec<DBuf>) -> Vec<DTensor> {
        results.iter().zip(bufs).map(|((t, k), b)| Gpu::wrap(t.clone(), *k, t.num_elements().unwrap_or(0), b)).collect()
    }

    /// A device tensor of type `ty` over a buffer from [`Gpu::alloc_raw`].
    pub fn wrap(ty: TensorType, kind: Kind, len: usize, buf: DBuf) -> DTensor {
        DTensor { ty, kind, len, buf: Arc::new(buf) }
    }

    /// Fills `buf` with zero bytes (in stream order).
    pub fn zero(&self, buf: &mut DBuf) -> Result<(), String> {
        self.stream.memset_zeros(&mut **buf).map_err(|e| format!("device memset: {e}"))
    }

    /// A device copy of a tensor's buffer (the input of an op that updates a copy in place, as scatter).
    pub fn copy_of(&self, d: &DTensor) -> Result<DBuf, String> {
        let out = self.alloc_bytes(d.buf.len())?;
        self.copy_bytes(&d.buf, &out, d.buf.len())?;
        Ok(out)
    }

    /// Copies a native host tensor to the device (straight from its storage, no staging copy).
    pub fn upload(&self, t: &NTensor) -> Result<DTensor, String> {
        let _use = crate::graph::StreamUse::new();
        let kind = t.kind();
        let bytes = t.buf.as_le_bytes();
        let buf = if bytes.is_empty() {
            self.alloc_raw(kind, 0)?
        } else {
            DBuf::new(self.stream.clone_htod(bytes).map_err(|e| format!("host to device copy: {e}"))?)
        };
        Ok(DTensor { ty: t.ty.clone(), kind, len: t.len(), buf: Arc::new(buf) })
    }

    /// Copies a device tensor to the host (into typed storage directly where the kind allows).
    pub fn download(&self, d: &DTensor) -> Result<NTensor, String> {
        let _use = crate::graph::StreamUse::new();
        let n = d.bytes();
        if d.buf.len() < n {
            return Err(format!("short device buffer: {} bytes for {n}", d.buf.len()));
        }
        let mut buf = Buf::zeros(d.kind, d.len);
        if n > 0 {
            let view = d.buf.slice(0..n);
            match buf.as_le_bytes_mut() {
                Some(dst) => self.stream.memcpy_dtoh(&view, dst).map_err(|e| format!("device to host copy: {e}"))?,
                None => {
                    let bytes = self.stream.clone_dtoh(&view).map_err(|e| format!("device to host copy: {e}"))?;
                    buf = Buf::from_le_bytes(d.kind, &bytes)?;
                }
            }
        }
        // The copy is ordered on the stream; wait for it before the host reads the storage.
        self.synchronize()?;
        Ok(NTensor::new(d.ty.clone(), buf))
    }

    /// Makes this process's CUDA context current on the calling thread (device memory freed on a thread
    /// that never ran device work needs it).
    pub fn bind_thread(&self) -> Result<(), String> {
        self.ctx.bind_to_thread().map_err(|e| e.to_string())
    }

    pub fn synchronize(&self) -> Result<(), String> {
        self.stream.synchronize().map_err(|e| e.to_string())
    }

    /// Marks the work enqueued on the stream so far, for the host to wait on later (a run that
    /// returned before its device work completed).
    pub fn in_flight(&self) -> Result<InFlight, String> {
        let _use = crate::graph::StreamUse::new();
        let flags = cudarc::driver::sys::CUevent_flags::CU_EVENT_DISABLE_TIMING;
        self.stream.record_event(Some(flags)).map(|e| InFlight(Arc::new(e))).map_err(|e| format!("recording an event: {e}"))
    }

    /// Launches `src` (entry `(long long a, long long b)`, no buffers) on one thread: the profiler's gate.
    pub fn launch_one_thread(&self, src: &Kernel, a: i64, b: i64) -> Result<(), String> {
        // SAFETY: the kernel's signature is (long long, long long) and it reads only what `b` addresses,
        // which its caller keeps mapped.
        unsafe { self.launch_with(src, (1, 1), &[a, b], &[], &mut []) }
    }

    /// Launches an elementwise kernel of `src` over `n` elements with these inputs and outputs.
    pub fn launch(&self, src: &Kernel, n: usize, inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        // Rendered elementwise kernels take four elements per thread (grid-stride loops beyond).
        self.launch_per_thread(src, n, 4, inputs, outputs)
    }

    /// Launches a kernel `(long long n, inputs..., outputs...)` that handles one element per thread
    /// (grid-stride beyond 2^28 elements): the index kernels of `movement`.
    pub fn launch_scalar(&self, src: &Kernel, n: usize, inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        self.launch_per_thread(src, n, 1, inputs, outputs)
    }

    fn launch_per_thread(&self, src: &Kernel, n: usize, per_thread: usize, inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        if n == 0 {
            return Ok(());
        }
        let blocks = n.div_ceil(256 * per_thread).min(1 << 20) as u32;
        // SAFETY: the kernel signature is (long long n, const T* in..., T* out...) as rendered; every
        // pointer covers n elements (rank-0 and broadcast inputs are only indexed within their size).
        unsafe { self.launch_with(src, (blocks, 256), &[n as i64], inputs, outputs) }
    }

    /// Launches `src` on `grid.0` blocks of `grid.1` threads with the arguments `(long long scalars...,
    /// inputs..., outputs...)`.
    ///
    /// # Safety
    /// The kernel's signature must be exactly those arguments, and every buffer must cover what the kernel
    /// indexes in it for these scalars.
    unsafe fn launch_with(&self, src: &Kernel, grid: (u32, u32), scalars: &[i64], inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        let cfg = LaunchConfig { grid_dim: (grid.0, 1, 1), block_dim: (grid.1, 1, 1), shared_mem_bytes: 0 };
        // SAFETY: passed on from the caller.
        unsafe { self.launch_cfg(src, cfg, scalars, inputs, outputs) }
    }

    /// [`Gpu::launch_with`] with a whole launch configuration.
    ///
    /// # Safety
    /// As for [`Gpu::launch_with`].
    unsafe fn launch_cfg(&self, src: &Kernel, cfg: LaunchConfig, scalars: &[i64], inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        let f = self.function(src)?;
        if pdl_enabled() {
            // Every parameter is 8 bytes (long long scalars, then device pointers).
            let mut vals: Vec<u64> = scalars.iter().chain(&src.scalars).map(|&x| x as u64).collect();
            let mut guards = Vec::with_capacity(inputs.len() + outputs.len());
            for i in inputs {
                let (p, g) = i.device_ptr(&self.stream);
                vals.push(p);
                guards.push(g);
            }
            for o in outputs.iter() {
                let (p, g) = (**o).device_ptr(&self.stream);
                vals.push(p);
                guards.push(g);
            }
            let mut params: Vec<*mut std::ffi::c_void> = vals.iter_mut().map(|v| v as *mut u64 as *mut std::ffi::c_void).collect();
            // SAFETY: a zeroed attribute value is a valid union; its one field used is set below.
            let mut attr: cudarc::driver::sys::CUlaunchAttribute = unsafe { std::mem::zeroed() };
            attr.id = cudarc::driver::sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
            attr.value.programmaticStreamSerializationAllowed = 1;
            let config = cudarc::driver::sys::CUlaunchConfig {
                gridDimX: cfg.grid_dim.0,
                gridDimY: cfg.grid_dim.1,
                gridDimZ: cfg.grid_dim.2,
                blockDimX: cfg.block_dim.0,
                blockDimY: cfg.block_dim.1,
                blockDimZ: cfg.block_dim.2,
                sharedMemBytes: cfg.shared_mem_bytes,
                hStream: self.stream.cu_stream(),
                attrs: &mut attr,
                numAttrs: 1,
            };
            // SAFETY: the caller guarantees the signature and the buffer sizes; `params` points at one
            // 8-byte value per parameter, alive (as are the buffers' guards) until the call returns.
            let r = unsafe { cudarc::driver::sys::cuLaunchKernelEx(&config, f.cu_function(), params.as_mut_ptr(), std::ptr::null_mut()) };
            drop(guards);
            match r.result() {
                Ok(()) => return Ok(()),
                // A driver without programmatic launches: plain launches from now on (the entry
                // prologue's wait is a no-op for them).
                Err(e) if !PDL_REFUSED.swap(true, std::sync::atomic::Ordering::Relaxed) => {
                    eprintln!("oxhlo-cuda: programmatic dependent launch refused ({e}); launching plainly");
                }
                Err(e) => return Err(format!("kernel launch: {e}")),
            }
        }
        let mut b = self.stream.launch_builder(&f);
        for x in scalars.iter().chain(&src.scalars) {
            b.arg(x);
        }
        for i in inputs {
            b.arg(*i);
        }
        for o in outputs.iter_mut() {
            b.arg(&mut **o);
        }
        // SAFETY: the caller guarantees the signature and the buffer sizes.
        unsafe { b.launch(cfg) }.map(|_| ()).map_err(|e| format!("kernel launch: {e}"))
    }

    /// Allocates an uninitialized buffer of `bytes` bytes (at least one) for scratch data such as
    /// partial results, written in full before it is read.
    pub fn alloc_bytes(&self, bytes: usize) -> Result<DBuf, String> {
        let bytes = bytes.max(1);
        if let Some(s) = crate::graph::arena_take(bytes) {
            return Ok(DBuf::new(s));
        }
        if let Some(s) = pool().take(bytes) {
            return Ok(DBuf::new(s));
        }
        if crate::graph::capturing() {
            // A stream-ordered allocation would become part of the graph being captured: allocate
            // outside the stream instead.
            // SAFETY: a plain allocation; the slice takes ownership of the pointer (freed on drop).
            return unsafe {
                let p = cudarc::driver::result::malloc_sync(bytes).map_err(|e| format!("device allocation of {bytes} bytes: {e}"))?;
                Ok(DBuf::new(self.stream.upgrade_device_ptr::<u8>(p, bytes)))
            };
        }
        // SAFETY: the buffer is written in full by the kernel or copy that produces it before any read.
        unsafe { self.stream.alloc::<u8>(bytes) }.map(DBuf::new).map_err(|e| format!("device allocation of {bytes} bytes: {e}"))
    }

    /// Copies `bytes` bytes from `src` to `dst` on the stream. `dst` is written through a shared
    /// reference: callers own it (a fresh buffer, or a captured graph's input).
    pub fn copy_bytes(&self, src: &CudaSlice<u8>, dst: &CudaSlice<u8>, bytes: usize) -> Result<(), String> {
        if bytes == 0 {
            return Ok(());
        }
        if src.len() < bytes || dst.len() < bytes {
            return Err("internal error: a device copy past a buffer's end".into());
        }
        let (ps, _gs) = src.device_ptr(&self.stream);
        let (pd, _gd) = dst.device_ptr(&self.stream);
        // SAFETY: both buffers hold at least `bytes` bytes (checked); the copy is ordered on the stream.
        unsafe { cudarc::driver::result::memcpy_dtod_async(pd, ps, bytes, self.stream.cu_stream()) }.map_err(|e| format!("device to device copy: {e}"))
    }

    /// Launches a row reduction pass `(long long outer, long long red, long long parts, in0, init, out0)`
    /// (`reduce::Shape::WarpRows`: a warp per (row, part)) or `(long long outer, long long red, long
    /// long parts, long long chunk, ...)` (`reduce::Shape::Rows`, parts longer than
    /// `reduce::WARP_ROW_MAX`: a block per (row, part)), grid-stride beyond 2^20 blocks.
    /// `over_partials`: the pass reads partial results (a plain kernel of few registers), so that with
    /// fewer blocks than SMs it may run blocks of up to 1024 threads; a pass over elements (perhaps a
    /// fused kernel of many registers, which a 1024-thread block could not launch) keeps 256.
    #[allow(clippy::too_many_arguments)]
    pub fn launch_reduce_rows(&self, src: &Kernel, outer: i64, red: i64, parts: i64, over_partials: bool, inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        if outer <= 0 {
            return Ok(());
        }
        let per_part = (red + parts - 1) / parts.max(1);
        let warp = per_part <= crate::reduce::WARP_ROW_MAX;
        let (blocks, threads) = if warp {
            // A warp per (row, part), eight to a block.
            (((outer * parts + 7) / 8).min(1 << 20) as u32, 256)
        } else if over_partials && outer * parts < 128 {
            // Fewer blocks than SMs (the pass over a whole-tensor sum's partials): up to 1024 threads,
            // four elements each.
            ((outer * parts) as u32, ((per_part / 4).clamp(256, 1024) as u32).div_ceil(32) * 32)
        } else {
            ((outer * parts).min(crate::reduce::rows_max_blocks()) as u32, (per_part.clamp(32, crate::reduce::rows_threads()) as u32).div_ceil(32) * 32)
        };
        // SAFETY: the signature is (long long outer, long long red, long long parts, inputs..., outputs...)
        // for a warp pass, with `long long chunk` after `parts` for a block pass, as `reduce` renders
        // them; the input covers outer*red values, the output outer*parts.
        let scalars = [outer, red, parts, crate::reduce::rows_chunk(red, parts)];
        unsafe { self.launch_with(src, (blocks, threads), &scalars[..if warp { 3 } else { 4 }], inputs, outputs) }
    }

    /// Launches a kernel `(long long n, inputs..., outputs...)` that takes a block of `threads` per result
    /// (`n` results, grid-stride beyond 2^20 blocks): `variadic_reduce`'s tree kernel.
    pub fn launch_blocks(&self, src: &Kernel, n: usize, threads: u32, inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        if n == 0 {
            return Ok(());
        }
        // SAFETY: the signature is (long long n, inputs..., outputs...) as `variadic_reduce` renders it;
        // the inputs cover n groups and the outputs n values.
        unsafe { self.launch_with(src, (n.min(1 << 20) as u32, threads), &[n as i64], inputs, outputs) }
    }

    /// Launches a tiled kernel `(long long scalars..., inputs..., outputs...)` on `blocks` blocks of
    /// `threads` (at most 2^20 blocks: the kernel strides over the rest): `linalg`'s panels and tiles.
    pub fn launch_tiles(&self, src: &Kernel, blocks: usize, threads: u32, scalars: &[i64], inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        if blocks == 0 {
            return Ok(());
        }
        // SAFETY: the signature is (long long scalars..., inputs..., outputs...) as `linalg` renders it,
        // its first scalar the block count it strides to; the buffers are sized by its plan.
        unsafe { self.launch_with(src, (blocks.min(1 << 20) as u32, threads), scalars, inputs, outputs) }
    }

    /// Launches one launch of a long-row sort (`sort::large_launches`): kernel `(long long rows, long
    /// long k, long long j, long long steps, inputs..., scratch, outputs...)` over `items` work items
    /// (grid-stride beyond 2^20 blocks of 256).
    pub fn launch_sort_stage(&self, src: &Kernel, rows: i64, [k, j, steps]: [i64; 3], items: i64, inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        if items <= 0 {
            return Ok(());
        }
        let blocks = (items as u64).div_ceil(256).min(1 << 20) as u32;
        // SAFETY: the signature is (long long rows, long long k, long long j, long long steps, inputs...,
        // scratch, outputs...) as `sort::large_network` and `sort_registers::large` render it; the
        // scratch is `sort::large_scratch_bytes` long.
        unsafe { self.launch_with(src, (blocks, 256), &[rows, k, j, steps], inputs, outputs) }
    }

    /// Launches a row kernel `(long long rows, inputs..., outputs...)` (`rows::render_rows`): a warp per
    /// row, eight to a block, when `launch.warp`, else a block of `launch.threads` per row; grid-stride
    /// beyond 2^20 blocks, or beyond the blocks the device holds at once when `launch.persistent`
    /// (kernels loading their next row ahead).
    pub fn launch_rows(&self, src: &Kernel, rows: i64, launch: crate::rows::RowLaunch, inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        if rows <= 0 {
            return Ok(());
        }
        let (mut blocks, threads) = if launch.warp { ((rows + 7) / 8, 256) } else { (rows, launch.threads) };
        if launch.persistent {
            let per_sm = self.function(src)?.occupancy_max_active_blocks_per_multiprocessor(threads, 0, None).map_err(|e| format!("occupancy of a row kernel: {e:?}"))?;
            blocks = blocks.min(i64::from(per_sm.max(1)) * self.info.sm_count.max(1));
        }
        // SAFETY: the signature is (long long rows, inputs..., outputs...) as `rows` renders it; the
        // inputs and outputs were allocated for the kernel's values.
        unsafe { self.launch_with(src, (blocks.min(1 << 20) as u32, threads), &[rows], inputs, outputs) }
    }

    /// Launches a column reduction pass `(long long outer, long long red, long long inner, long long
    /// parts, in0, init, out0)` (`reduce::Shape::Cols`): a block of `threads` (a multiple of 32 up to
    /// 1024) per (part, row, `cols_per_block` columns), in `rows` block rows (`blockIdx.y`: a pass of
    /// several reductions at once, one a row).
    #[allow(clippy::too_many_arguments)]
    pub fn launch_reduce_cols(&self, src: &Kernel, outer: i64, red: i64, inner: i64, parts: i64, cols_per_block: i64, threads: u32, rows: u32, inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        let total = outer * ((inner + cols_per_block - 1) / cols_per_block.max(1)) * parts;
        if threads == 0 || !threads.is_multiple_of(32) || threads > 1024 || cols_per_block <= 0 {
            return Err(format!("a column reduction block of {threads} threads over {cols_per_block} columns (a multiple of 32 up to 1024 threads, at least one column expected)"));
        }
        if total <= 0 || inner <= 0 {
            return Ok(());
        }
        let blocks = total.min(1 << 20) as u32;
        let cfg = LaunchConfig { grid_dim: (blocks, rows.max(1), 1), block_dim: (threads, 1, 1), shared_mem_bytes: 0 };
        // SAFETY: the signature is (long long outer, long long red, long long inner, long long parts,
        // inputs..., outputs...) as `reduce` renders it; each input covers outer*red*inner values, each
        // output parts*outer*inner.
        unsafe { self.launch_cfg(src, cfg, &[outer, red, inner, parts], inputs, outputs) }
    }

    /// Launches [`crate::movement::render_transpose_tiles`] over `[batch, rows, cols]`.
    pub fn launch_transpose_tiles(&self, src: &Kernel, batch: i64, rows: i64, cols: i64, input: &CudaSlice<u8>, output: &mut DBuf) -> Result<(), String> {
        if batch <= 0 || rows <= 0 || cols <= 0 {
            return Ok(());
        }
        let (gx, gy) = ((cols + 31) / 32, (rows + 31) / 32);
        if gx > i32::MAX as i64 || gy > 65535 || batch > 65535 {
            return Err(format!("a tiled transpose of [{batch}, {rows}, {cols}] exceeds the grid"));
        }
        let cfg = LaunchConfig { grid_dim: (gx as u32, gy as u32, batch as u32), block_dim: (32, 8, 1), shared_mem_bytes: 0 };
        // SAFETY: the signature is (long long batch, rows, cols, const T* in, T* out) as rendered; both
        // buffers hold batch*rows*cols elements (checked by the caller).
        unsafe { self.launch_cfg(src, cfg, &[batch, rows, cols], &[input], std::slice::from_mut(output)) }
    }

    /// Launches a clustered column reduction pass (`reduce::Shape::ClusterCols4`, the parameters of
    /// [`Gpu::launch_reduce_cols`]): `cluster` blocks of 256 threads per (part, row, group of columns),
    /// `cluster` the kernel's cluster size (1 below sm_90, where its source has no clusters).
    #[allow(clippy::too_many_arguments)]
    pub fn launch_reduce_cols4_clustered(&self, src: &Kernel, outer: i64, red: i64, inner: i64, parts: i64, cluster: i64, inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        let total = outer * crate::reduce::cols4_layout(inner).0 * parts * cluster.max(1);
        if total <= 0 || !crate::reduce::cols4_fits(inner) {
            return Ok(());
        }
        // SAFETY: the signature is (long long outer, long long red, long long inner, long long parts,
        // inputs..., outputs...) as `reduce` renders it; the kernel reads 4 columns a thread (inner a
        // multiple of 4) and `parts` partial rows, each the work of `cluster` blocks; 2^20 blocks is a
        // whole number of clusters.
        unsafe { self.launch_with(src, (total.min(1 << 20) as u32, 256), &[outer, red, inner, parts], inputs, outputs) }
    }

    /// Launches a vectorized column reduction pass (`reduce::Shape::Cols4`, the parameters of
    /// [`Gpu::launch_reduce_cols`]): a block of 256 threads per (part, row, group of columns).
    #[allow(clippy::too_many_arguments)]
    pub fn launch_reduce_cols4(&self, src: &Kernel, outer: i64, red: i64, inner: i64, parts: i64, inputs: &[&CudaSlice<u8>], outputs: &mut [DBuf]) -> Result<(), String> {
        self.launch_reduce_cols4_clustered(src, outer, red, inner, parts, 1, inputs, outputs)
    }
}
