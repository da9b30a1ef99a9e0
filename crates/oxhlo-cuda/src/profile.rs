//! `OXHLO_PROFILE=1` for the CUDA backend: every step of a run is timed to completion (a device
//! synchronization after each, so GPU time and host overhead are both in it) and, after each run, the
//! steps are printed to stderr grouped by label (op name and operand shapes, `host` for steps that ran
//! on the host), largest total first. `OXHLO_PROFILE=launch` times the host side of each step only (no
//! synchronization: what planning, allocating and launching cost while the GPU runs behind).
//! `OXHLO_PROFILE=gpu` times each step's device work alone: a pair of CUDA events recorded around the
//! step on the stream (nothing synchronized until the run ends). So that the events time the device
//! and not the host's launching, each step is held back by a gate ([`Gate`]): a one-thread kernel
//! enqueued first waits until the host has enqueued the whole step (or 2 ms, so a step that waits for
//! the device itself cannot deadlock), then the step's work runs back to back. Profiling slows runs
//! down (and turns CUDA graphs off); it says where their time goes.

use oxhlo_ir::{Func, Op, Type};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// Whether `OXHLO_PROFILE` asks for per-step times.
pub fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXHLO_PROFILE").is_ok_and(|v| !matches!(v.trim(), "" | "0")))
}

/// Whether steps are timed on the host side only (`OXHLO_PROFILE=launch`), without synchronizing.
pub fn host_side_only() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXHLO_PROFILE").is_ok_and(|v| v.trim().eq_ignore_ascii_case("launch")))
}

/// Whether steps are timed by CUDA events on the stream (`OXHLO_PROFILE=gpu`): device time only.
pub fn gpu_events() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXHLO_PROFILE").is_ok_and(|v| v.trim().eq_ignore_ascii_case("gpu")))
}

/// A fused kernel's label: its ops (in order, repeats counted), its shape and, when it ends in a
/// reduction, the reduction's `[outer, n, inner]` view.
pub fn kernel_label(block: &oxhlo_ir::Block, k: &oxhlo_plan::fusion::FusedKernel, on_host: bool) -> String {
    let mut names: Vec<String> = Vec::new();
    for &i in &k.ops {
        let n = block.ops[i].name().trim_start_matches("stablehlo.").to_string();
        names.push(n);
    }
    let mut ops = names.join(",");
    if ops.len() > 90 {
        ops.truncate(90);
        ops.push_str("...");
    }
    let red = k.reduce.first().map(|e| format!(" reduce{}[{}x{}x{}]", if k.reduce.len() > 1 { format!("x{}", k.reduce.len()) } else { String::new() }, e.outer, e.n, e.inner)).unwrap_or_default();
    let rows = k.rows.as_ref().map(|r| format!(" rows[{}x{}]", r.rows, r.cols)).unwrap_or_default();
    format!("{}fused[{}] {:?}{red}{rows}", if on_host { "host " } else { "" }, ops, k.shape)
}

/// `name(shape, shape) -> shape`, prefixed with `host ` when it ran on the host.
pub fn op_label(func: &Func, op: &Op, on_host: bool) -> String {
    let ty = |v: &oxhlo_ir::Value| match func.try_ty(*v) {
        Some(Type::Tensor(t)) => format!("{:?}", t.shape),
        _ => "?".into(),
    };
    let ins: Vec<String> = op.operands.iter().take(3).map(ty).collect();
    let outs: Vec<String> = op.results.iter().take(1).map(ty).collect();
    format!("{}{}({}) -> {}", if on_host { "host " } else { "" }, op.name(), ins.join(", "), outs.join(", "))
}

/// Bytes a step reads and writes at least: its operands (a kernel's inputs) and results, each once
/// (none for a reshape, which only retypes its buffer).
pub fn step_bytes(func: &Func, block: &oxhlo_ir::Block, step: &oxhlo_plan::fusion::Step) -> usize {
    let bytes = |v: &oxhlo_ir::Value| match func.try_ty(*v) {
        Some(Type::Tensor(t)) => t.num_elements().unwrap_or(0) * t.elem.storage_bytes(),
        _ => 0,
    };
    match step {
        oxhlo_plan::fusion::Step::Op(i) if block.ops[*i].kind == oxhlo_ir::OpKind::Reshape => 0,
        oxhlo_plan::fusion::Step::Op(i) => block.ops[*i].operands.iter().chain(&block.ops[*i].results).map(bytes).sum(),
        oxhlo_plan::fusion::Step::Kernel(k) => k.inputs.iter().chain(&k.outputs).map(bytes).sum(),
    }
}

/// Accumulated step times of one program: per label, (count, time, bytes moved).
#[derive(Default)]
pub struct Profile {
    steps: Mutex<HashMap<String, (usize, Duration, usize)>>,
    /// `OXHLO_PROFILE=gpu`: (label, bytes, start, end) events of the run's steps, read when it ends.
    events: Mutex<Vec<(String, usize, cudarc::driver::CudaEvent, cudarc::driver::CudaEvent)>>,
}

impl std::fmt::Debug for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Profile")
    }
}

impl Profile {
    pub fn record(&self, label: String, bytes: usize, d: Duration) {
        if let Ok(mut m) = self.steps.lock() {
            let e = m.entry(label).or_default();
            e.0 += 1;
            e.1 += d;
            e.2 += bytes;
        }
    }

    /// Keeps a step's start and end events (`OXHLO_PROFILE=gpu`) until the run's end.
    pub fn record_events(&self, label: String, bytes: usize, start: cudarc::driver::CudaEvent, end: cudarc::driver::CudaEvent) {
        if let Ok(mut e) = self.events.lock() {
            e.push((label, bytes, start, end));
        }
    }

    /// Prints the run's steps (top 25 by total time, and the totals) and starts over.
    pub fn report(&self) {
        let events: Vec<_> = self.events.lock().map(|mut e| e.drain(..).collect()).unwrap_or_default();
        for (label, bytes, a, b) in events {
            if let Ok(ms) = a.elapsed_ms(&b) {
                self.record(label, bytes, Duration::from_secs_f64(ms.max(0.0) as f64 / 1e3));
            }
        }
        let Ok(mut m) = self.steps.lock() else { return };
        let mut rows: Vec<(String, (usize, Duration, usize))> = m.drain().collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.1 .1));
        let total: Duration = rows.iter().map(|r| r.1 .1).sum();
        let steps: usize = rows.iter().map(|r| r.1 .0).sum();
        let host: Duration = rows.iter().filter(|r| r.0.starts_with("host ")).map(|r| r.1 .1).sum();
        let what = if gpu_events() {
            "device time of each step, CUDA events"
        } else if host_side_only() {
            "host side only, not synchronized"
        } else {
            "each step synchronized"
        };
        eprintln!("oxhlo-cuda profile ({what}): {steps} steps, {:.3} ms (host steps {:.3} ms)", total.as_secs_f64() * 1e3, host.as_secs_f64() * 1e3);
        // GB/s over the bytes a step must move at least (its operands and results once each).
        for (label, (n, d, bytes)) in rows.iter().take(top_rows()) {
            let gbs = *bytes as f64 / d.as_secs_f64().max(1e-9) / 1e9;
            eprintln!("  {:9.3} ms {n:5}x {gbs:7.0} GB/s  {label}", d.as_secs_f64() * 1e3);
        }
    }
}

/// How many rows a report prints (`OXHLO_PROFILE_TOP`, default 25).
fn top_rows() -> usize {
    std::env::var("OXHLO_PROFILE_TOP").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(25)
}

/// The gate of `OXHLO_PROFILE=gpu`: a counter in host memory the device can read. [`Gate::close`]
/// enqueues a kernel that waits until the counter reaches the step's number; [`Gate::open`] stores it
/// once the step is enqueued.
pub struct Gate {
    host: *mut u32,
    addr: u64,
    next: u32,
    kernel: crate::device::Kernel,
}

impl Drop for Gate {
    fn drop(&mut self) {
        // SAFETY: `host` came from cuMemHostAlloc in `new` and is freed once; the program that held the
        // gate is being dropped, so no step will wait on it again (waits time out regardless).
        unsafe {
            let _ = cudarc::driver::sys::cuMemFreeHost(self.host as *mut std::ffi::c_void);
        }
    }
}

// SAFETY: the mapped counter is written only through `&mut Gate` (under the program's lock) and read by
// the device.
unsafe impl Send for Gate {}

/// The gate kernel's source (public for the NVRTC compile test).
pub const GATE_SRC: &str = r#"
extern "C" __global__ void oxk(long long target, long long addr) {
  const volatile unsigned int* flag = (const volatile unsigned int*)addr;
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  while (*flag < (unsigned int)target) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 > 2000000ull) break;
  }
}
"#;

impl Gate {
    /// A counter in page-locked host memory mapped into the device's address space.
    pub fn new(gpu: &crate::device::Gpu) -> Result<Gate, String> {
        use cudarc::driver::sys;
        gpu.bind_thread()?;
        let mut p: *mut std::ffi::c_void = std::ptr::null_mut();
        // SAFETY: plain driver calls on the bound context; the 4 bytes are zeroed before the device reads them.
        unsafe {
            let r = sys::cuMemHostAlloc(&mut p, 4, sys::CU_MEMHOSTALLOC_DEVICEMAP | sys::CU_MEMHOSTALLOC_PORTABLE);
            if r != sys::cudaError_enum::CUDA_SUCCESS || p.is_null() {
                return Err(format!("pinned host memory for the profiler: {r:?}"));
            }
            std::ptr::write_volatile(p as *mut u32, 0);
            let mut d: sys::CUdeviceptr = 0;
            let r = sys::cuMemHostGetDevicePointer_v2(&mut d, p, 0);
            if r != sys::cudaError_enum::CUDA_SUCCESS {
                return Err(format!("mapping the profiler's counter: {r:?}"));
            }
            Ok(Gate { host: p as *mut u32, addr: d, next: 0, kernel: crate::device::Kernel::new(GATE_SRC.to_string()) })
        }
    }

    /// Holds the device's stream until [`Gate::open`].
    pub fn close(&mut self, gpu: &crate::device::Gpu) -> Result<(), String> {
        self.next = self.next.wrapping_add(1).max(1);
        gpu.launch_one_thread(&self.kernel, self.next as i64, self.addr as i64)
    }

    /// Lets the held work run.
    pub fn open(&mut self) {
        // SAFETY: `host` is the live mapped allocation made in `new`.
        unsafe { std::ptr::write_volatile(self.host, self.next) };
        std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
    }
}

/// Device time of one call of `f` (the work it enqueues on the stream), in ms, averaged over `reps`
/// calls held behind a [`Gate`] until all of them are enqueued: the time between two events around
/// them, without the host's launching cost (a call of `reduce::try_reduce` costs the host about as
/// long as a 64 MiB sum costs the device). An error when enqueuing outlasted the gate's 2 ms hold
/// (the device would have waited for the host): take fewer `reps`.
pub fn device_ms_per_call(gpu: &crate::device::Gpu, reps: usize, mut f: impl FnMut()) -> Result<f64, String> {
    let timed = Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT);
    let mut gate = Gate::new(gpu)?;
    f();
    gpu.synchronize()?;
    gate.close(gpu)?;
    let t = std::time::Instant::now();
    let a = gpu.stream.record_event(timed).map_err(|e| format!("recording an event: {e}"))?;
    for _ in 0..reps {
        f();
    }
    let b = gpu.stream.record_event(timed).map_err(|e| format!("recording an event: {e}"))?;
    let enqueued = t.elapsed();
    gate.open();
    b.synchronize().map_err(|e| format!("waiting for an event: {e}"))?;
    if enqueued > Duration::from_micros(1500) {
        return Err(format!("enqueuing {reps} calls took {enqueued:?}, longer than the gate holds the device"));
    }
    Ok(a.elapsed_ms(&b).map_err(|e| format!("event time: {e}"))? as f64 / reps.max(1) as f64)
}
