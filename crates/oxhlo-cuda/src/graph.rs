//! Whole runs replayed as CUDA graphs. A program whose run was all device work (no host steps, no
//! control flow, device-resident inputs) is captured on its next run: the stream's launches become one
//! graph over buffers the graph owns (its inputs, every intermediate, its outputs), and later runs copy
//! their inputs into the graph's input buffers, launch the graph (one driver call instead of one host
//! step per op), and copy the outputs out into fresh buffers (callers keep results across runs, which
//! the next replay would overwrite). `OXHLO_CUDA_GRAPHS=0` turns it off.
//!
//! While a capture runs on this thread, device buffers freed by the run go to the capture's arena
//! instead of the shared pool, and allocations come from there first (so that the graph's buffers are
//! its own and reused within the run as the pool would), then from the pool, then from a plain
//! allocation (a stream-ordered one would become a node of the graph; plain allocations are allowed
//! only in the driver's relaxed capture mode, which this uses).

use cudarc::driver::CudaSlice;
use std::cell::RefCell;
use std::collections::HashMap;

/// The buffers of one capture: free ones by byte size, plus every one it ever handed out.
#[derive(Default)]
pub struct Arena {
    free: HashMap<usize, Vec<CudaSlice<u8>>>,
}

impl Arena {
    /// Every buffer the arena holds (the graph's intermediates), to keep for the graph's life.
    pub fn into_buffers(self) -> Vec<CudaSlice<u8>> {
        self.free.into_values().flatten().collect()
    }
}

thread_local! {
    static ARENA: RefCell<Option<Arena>> = const { RefCell::new(None) };
}

/// Whether this thread is capturing a graph.
pub fn capturing() -> bool {
    ARENA.with(|a| a.borrow().is_some())
}

/// Starts collecting this thread's freed buffers (a capture begins).
pub fn arena_begin() {
    ARENA.with(|a| *a.borrow_mut() = Some(Arena::default()));
}

/// Stops collecting and returns what was collected.
pub fn arena_end() -> Arena {
    ARENA.with(|a| a.borrow_mut().take()).unwrap_or_default()
}

/// A freed buffer of `bytes` bytes from the capture's arena.
pub fn arena_take(bytes: usize) -> Option<CudaSlice<u8>> {
    ARENA.with(|a| a.borrow_mut().as_mut().and_then(|ar| ar.free.get_mut(&bytes).and_then(Vec::pop)))
}

/// Gives a freed buffer to the capture's arena; hands it back when this thread is not capturing.
pub fn arena_put(s: CudaSlice<u8>) -> Result<(), CudaSlice<u8>> {
    ARENA.with(|a| match a.borrow_mut().as_mut() {
        Some(ar) => {
            ar.free.entry(s.len()).or_default().push(s);
            Ok(())
        }
        None => Err(s),
    })
}

/// Whether runs may be captured (`OXHLO_CUDA_GRAPHS=0` says no).
pub fn enabled() -> bool {
    !crate::env_off("OXHLO_CUDA_GRAPHS")
}

use crate::device::{DBuf, DTensor, Gpu};
use std::sync::Arc;

/// A captured run: the graph and the buffers it reads and writes.
pub struct Captured {
    graph: cudarc::driver::CudaGraph,
    /// The graph's inputs (each run's inputs are copied here).
    inputs: Vec<DTensor>,
    /// The graph's results (copied out after each replay).
    outputs: Vec<DTensor>,
    /// Every intermediate buffer, kept for the graph's life.
    _buffers: Vec<CudaSlice<u8>>,
    /// Bytes the graph holds (inputs, results, intermediates), counted in [`HELD`].
    bytes: usize,
}

/// Device bytes held by all live graphs. A capture that would take them past a quarter of the device's
/// memory is dropped (the program then runs step by step), so that graphs never starve allocations.
static HELD: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Drop for Captured {
    fn drop(&mut self) {
        HELD.fetch_sub(self.bytes, std::sync::atomic::Ordering::Relaxed);
    }
}

// SAFETY: a graph executable may be launched from any thread; every use of it here is under the
// program's graph mutex, on the backend's one stream.
unsafe impl Send for Captured {}

/// What a program knows about capturing its runs.
pub enum GraphState {
    /// Runs so far that were all device work.
    Learning(u32),
    Ready(Box<Captured>),
    /// Capture failed or the program cannot be captured.
    Off,
}

impl Default for GraphState {
    fn default() -> GraphState {
        GraphState::Learning(0)
    }
}

/// Wall times that decide whether a captured graph is kept: replays copy every input in and every result
/// out, which costs more than launching step by step when the device, not the host, sets the pace (a
/// transformer step of small kernels and GEMMs); they pay off when steps cost much host time (cuDNN
/// calls). The fastest step-by-step run of all-device work is compared with the fastest of replays 2 to
/// [`JUDGED_REPLAYS`] (the first follows the capture); a graph that is slower is dropped for good. One
/// replay alone decided before: a disturbed one (the host busy elsewhere) dropped ResNet-18's graph for
/// a whole benchmark (13.4 instead of 9.1 ms a step).
#[derive(Default)]
pub struct Timing {
    /// Seconds of the fastest step-by-step run that was all device work.
    pub plain: Option<f64>,
    /// Replays so far.
    pub replays: u32,
    /// Seconds of the fastest judged replay so far.
    pub best_replay: Option<f64>,
}

/// Replays whose wall time judges a graph (waited for); the first is not counted (it follows the capture).
pub const JUDGED_REPLAYS: u32 = 4;

impl Timing {
    pub fn record_plain(&mut self, secs: f64) {
        self.plain = Some(self.plain.map_or(secs, |p| p.min(secs)));
    }

    /// Whether the next replay's wall time is still needed (it is then waited for).
    pub fn judging(&self) -> bool {
        self.replays < JUDGED_REPLAYS
    }

    /// Counts a replay of `secs`; true when the graph should be dropped (the fastest of replays 2 to
    /// [`JUDGED_REPLAYS`] was more than 3% slower than the fastest step-by-step run: not within the noise).
    pub fn replay_is_slower(&mut self, secs: f64) -> bool {
        self.replays += 1;
        if self.replays >= 2 {
            self.best_replay = Some(self.best_replay.map_or(secs, |b| b.min(secs)));
        }
        self.replays == JUDGED_REPLAYS && self.plain.zip(self.best_replay).is_some_and(|(p, b)| b > p * 1.03) && !keep_graphs()
    }
}

/// Whether captured graphs are kept whatever their replays' wall time (`OXHLO_CUDA_GRAPH_KEEP=1`).
fn keep_graphs() -> bool {
    std::env::var("OXHLO_CUDA_GRAPH_KEEP").is_ok_and(|v| v.trim() == "1")
}

/// Whether `OXHLO_CUDA_GRAPH_LOG=1` (read once).
pub fn logging() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXHLO_CUDA_GRAPH_LOG").is_ok_and(|v| v.trim() == "1"))
}

/// With `OXHLO_CUDA_GRAPH_LOG=1`, says what happened to a capture.
pub fn log(what: &str) {
    if logging() {
        eprintln!("oxhlo-cuda graph: {what}");
    }
}

impl Captured {
    /// Whether `inputs` have the types and sizes of the captured run's inputs.
    pub fn matches(&self, inputs: &[DTensor]) -> bool {
        inputs.len() == self.inputs.len() && inputs.iter().zip(&self.inputs).all(|(a, b)| a.ty == b.ty && a.kind == b.kind && a.len == b.len)
    }

    /// Runs the graph on `inputs` and returns its results in fresh buffers. The inputs go in by one
    /// launch and the results out by another ([`copy_many`]), whatever their number.
    pub fn replay(&self, gpu: &Gpu, inputs: &[DTensor]) -> Result<Vec<DTensor>, String> {
        let ins: Vec<(&CudaSlice<u8>, &CudaSlice<u8>, usize)> =
            inputs.iter().zip(&self.inputs).filter(|(src, dst)| !Arc::ptr_eq(&src.buf, &dst.buf)).map(|(src, dst)| (&**src.buf, &**dst.buf, dst.bytes())).collect();
        copy_many(gpu, &ins)?;
        self.graph.launch().map_err(|e| format!("graph launch: {e}"))?;
        let fresh: Vec<DBuf> = self.outputs.iter().map(|o| gpu.alloc_bytes(o.buf.len())).collect::<Result<_, String>>()?;
        let outs: Vec<(&CudaSlice<u8>, &CudaSlice<u8>, usize)> = self.outputs.iter().zip(&fresh).map(|(o, b)| (&**o.buf, &**b, o.bytes())).collect();
        copy_many(gpu, &outs)?;
        Ok(self.outputs.iter().zip(fresh).map(|(o, b)| DTensor { buf: Arc::new(b), ..o.clone() }).collect())
    }
}

/// The kernel of [`copy_many`]: `jobs` holds (source, destination, bytes) triples; block row `y` copies
/// job `y`, its blocks striding over the bytes in 16-byte units where both ends are 16-byte aligned.
pub const COPY_MANY_SRC: &str = r#"extern "C" __global__ void oxk(long long n, const unsigned long long* jobs) {
  long long j = blockIdx.y;
  if (j >= n) return;
  const unsigned char* src = (const unsigned char*)jobs[3 * j];
  unsigned char* dst = (unsigned char*)jobs[3 * j + 1];
  unsigned long long bytes = jobs[3 * j + 2];
  unsigned long long start = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  unsigned long long units = ((((unsigned long long)src) | ((unsigned long long)dst)) & 15) ? 0 : bytes / 16;
  for (unsigned long long i = start; i < units; i += stride) ((uint4*)dst)[i] = ((const uint4*)src)[i];
  for (unsigned long long i = units * 16 + start; i < bytes; i += stride) dst[i] = src[i];
}
"#;

/// Most jobs of one [`copy_many`] launch (the grid's y extent).
const COPY_MANY_MAX_JOBS: usize = 65_535;

/// Copies each `(source, destination, bytes)` on the stream, all in one kernel launch per 65535 jobs
/// (plus one small upload of the job table): a replay of a training step moves hundreds of parameter
/// and optimizer-state buffers in and out, and one driver copy each costs microseconds of launch.
pub fn copy_many(gpu: &Gpu, jobs: &[(&CudaSlice<u8>, &CudaSlice<u8>, usize)]) -> Result<(), String> {
    use cudarc::driver::{DevicePtr, LaunchConfig, PushKernelArg};
    let jobs: Vec<_> = jobs.iter().filter(|j| j.2 > 0).collect();
    match jobs.as_slice() {
        [] => return Ok(()),
        [(s, d, n)] => return gpu.copy_bytes(s, d, *n),
        _ => {}
    }
    let mut table: Vec<u64> = Vec::with_capacity(jobs.len() * 3);
    for (s, d, n) in &jobs {
        if s.len() < *n || d.len() < *n {
            return Err("internal error: a device copy past a buffer's end".into());
        }
        let (ps, _gs) = s.device_ptr(&gpu.stream);
        let (pd, _gd) = d.device_ptr(&gpu.stream);
        table.extend([ps, pd, *n as u64]);
    }
    let most = jobs.iter().map(|j| j.2).max().unwrap_or(0);
    let tbuf = gpu.alloc_bytes(table.len() * 8)?;
    let (tp, _gt) = tbuf.device_ptr(&gpu.stream);
    // SAFETY: `tbuf` holds the whole table; the upload is ordered on the stream before the launches that
    // read it, and pageable host memory is staged before the call returns.
    unsafe { cudarc::driver::result::memcpy_htod_async(tp, &table, gpu.stream.cu_stream()) }.map_err(|e| format!("host to device copy: {e}"))?;
    static KERNEL: std::sync::OnceLock<crate::device::Kernel> = std::sync::OnceLock::new();
    let f = gpu.function(KERNEL.get_or_init(|| crate::device::Kernel::new(COPY_MANY_SRC.to_string())))?;
    // Four 4 KiB strides per block on the biggest job.
    let blocks_x = most.div_ceil(4 * 256 * 16).clamp(1, 1024) as u32;
    for (c, chunk) in jobs.chunks(COPY_MANY_MAX_JOBS).enumerate() {
        let n = chunk.len() as i64;
        let ptr: u64 = tp + (c * COPY_MANY_MAX_JOBS * 24) as u64;
        let cfg = LaunchConfig { grid_dim: (blocks_x, chunk.len() as u32, 1), block_dim: (256, 1, 1), shared_mem_bytes: 0 };
        let mut b = gpu.stream.launch_builder(&f);
        b.arg(&n);
        b.arg(&ptr);
        // SAFETY: the kernel is (long long n, const unsigned long long* jobs); `ptr` addresses n triples of
        // the uploaded table, and every triple's buffers hold its byte count (checked above).
        unsafe { b.launch(cfg) }.map_err(|e| format!("kernel launch: {e}"))?;
    }
    Ok(())
}

/// Captures one run: `run` executes the program on the given inputs (graph-owned copies of `inputs`)
/// while the stream records, and must leave every result on the device.
pub fn capture(gpu: &Gpu, inputs: &[DTensor], run: impl FnOnce(Vec<DTensor>) -> Result<Vec<DTensor>, String>) -> Result<Captured, String> {
    let owned: Vec<DTensor> = inputs
        .iter()
        .map(|d| {
            let b = gpu.alloc_bytes(d.buf.len())?;
            Ok(DTensor { buf: Arc::new(b), ..d.clone() })
        })
        .collect::<Result<_, String>>()?;
    // No other thread may enqueue work while the stream records.
    let _alone = exclusive();
    gpu.synchronize()?;
    arena_begin();
    let begun = gpu.stream.begin_capture(cudarc::driver::sys::CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED);
    let result = match begun {
        Ok(()) => run(owned.clone()),
        Err(e) => Err(format!("begin capture: {e}")),
    };
    let graph = if begun.is_ok() { gpu.stream.end_capture(cudarc::driver::sys::CUgraphInstantiate_flags::CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) } else { Ok(None) };
    let buffers = arena_end().into_buffers();
    let graph = match (result, graph) {
        (Ok(outputs), Ok(Some(g))) => {
            let bytes = owned.iter().chain(&outputs).map(|d| d.buf.len()).sum::<usize>() + buffers.iter().map(|b| b.len()).sum::<usize>();
            let budget = gpu.info.total_memory / 4;
            let held = HELD.fetch_add(bytes, std::sync::atomic::Ordering::Relaxed);
            let c = Captured { graph: g, inputs: owned, outputs, _buffers: buffers, bytes };
            if budget > 0 && held + bytes > budget {
                return Err(format!("the graph would hold {} MiB (graphs may hold {} MiB in all)", bytes >> 20, budget >> 20));
            }
            return Ok(c);
        }
        (Err(e), _) => e,
        (Ok(_), Ok(None)) => "the capture recorded nothing".into(),
        (Ok(_), Err(e)) => format!("end capture: {e}"),
    };
    // Nothing captured ran: the buffers go back to the pool.
    drop(buffers.into_iter().map(DBuf::new).collect::<Vec<_>>());
    Err(graph)
}

/// Work on the backend's stream from other threads must not land in a graph being captured: every
/// entry point that enqueues work (runs, uploads, downloads) holds this lock shared, a capture holds
/// it exclusively.
static STREAM: std::sync::RwLock<()> = std::sync::RwLock::new(());

thread_local! {
    static DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A shared hold on the stream (re-entrant on one thread; none while this thread captures).
pub struct StreamUse(#[allow(dead_code)] Option<std::sync::RwLockReadGuard<'static, ()>>);

impl StreamUse {
    pub fn new() -> StreamUse {
        let outer = DEPTH.with(|d| {
            let n = d.get();
            d.set(n + 1);
            n == 0
        });
        StreamUse(if outer && !capturing() { STREAM.read().ok() } else { None })
    }
}

impl Default for StreamUse {
    fn default() -> StreamUse {
        StreamUse::new()
    }
}

impl Drop for StreamUse {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// The exclusive hold a capture takes (this thread must hold no shared one).
fn exclusive() -> Option<std::sync::RwLockWriteGuard<'static, ()>> {
    STREAM.write().ok()
}
