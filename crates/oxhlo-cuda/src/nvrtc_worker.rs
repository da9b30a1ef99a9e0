//! NVRTC in worker processes: a program's kernels compiled by several `oxhlo-nvrtc` processes at once
//! instead of several threads of this one.
//!
//! Many NVRTC instances in one process share its state; processes share nothing. On the H200 host
//! (16 cores) ResNet-18's 60 kernels compiled in 829-930 ms by workers against 1029-1107 ms on threads
//! (alternating, empty caches), both far from 16x their ~6 s on one thread: that host gives NVRTC about
//! 5x either way. The worker (`src/bin/oxhlo-nvrtc.rs`) reads one translation unit on stdin, compiles
//! it with [`crate::nvrtc::compile_cubin_tier`] for the architecture and tier named by its arguments (the
//! options come from the environment it inherits, as in this process) and writes the CUBIN to stdout; on failure it
//! writes NVRTC's log to stderr and exits non-zero. A batch whose worker fails is compiled in this
//! process, and if it compiles here, workers are not used again ([`give_up`]).
//!
//! The worker is found ([`worker`]) through `OXHLO_NVRTC_WORKER` (a path; `0` turns workers off), else
//! beside the shared object this code was loaded from (the PJRT plugin's wheel ships it next to
//! `liboxhlo_pjrt.so`), else beside the running executable (the `oxhlo` command line). Without one,
//! batches compile on threads.
//!
//! Workers started ahead ([`prestart`]: when the GPU is created, one per core up to 16) run
//! `oxhlo-nvrtc --serve ARCH`: they load NVRTC and compile an empty kernel while JAX traces and lowers
//! the program and the backend plans it, then wait for a unit on stdin whose first line names the
//! tier. They run at the lowest CPU priority (nice 19). Only a big compile (at least
//! half as many batches as started workers: a training step, not a parameter draw) takes them, and
//! none are started after: a process pays for one warm-up, when its GPU is created, and its first
//! big cold compile gains from it. (Refilled after every compile, even at nice 19, their warm-ups
//! slowed the next programs' first calls by 0.1-0.2 s and some benchmarks' runs; refilled after big
//! compiles only, the first run after one, by ~20 ms: crates/oxhlo-cuda/NOTES.md, v23.)
//! An idle worker exits when this process closes its stdin (at exit). `OXHLO_NVRTC_PRESTART=0` turns
//! this off.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// The worker executable's file name.
pub const WORKER: &str = "oxhlo-nvrtc";

/// Set once a worker failed where this process then compiled the unit (a worker that cannot start, or
/// cannot load NVRTC where this process can): later batches stay in this process.
static GAVE_UP: AtomicBool = AtomicBool::new(false);

/// Stops using workers in this process (see [`GAVE_UP`]).
pub fn give_up() {
    GAVE_UP.store(true, Ordering::Relaxed);
}

/// The worker to use, if any (looked up once; see the module doc; none after [`give_up`]).
pub fn worker() -> Option<&'static Path> {
    if GAVE_UP.load(Ordering::Relaxed) {
        return None;
    }
    static W: OnceLock<Option<PathBuf>> = OnceLock::new();
    W.get_or_init(|| {
        if let Some(v) = std::env::var_os("OXHLO_NVRTC_WORKER") {
            let p = PathBuf::from(&v);
            return (v != "0" && !v.is_empty() && p.is_file()).then_some(p);
        }
        [this_object_dir(), std::env::current_exe().ok().and_then(|e| e.parent().map(Path::to_path_buf))]
            .into_iter()
            .flatten()
            .map(|d| d.join(WORKER))
            .find(|p| p.is_file())
    })
    .as_deref()
}

/// The directory of the shared object (or executable) holding this function.
fn this_object_dir() -> Option<PathBuf> {
    // SAFETY: `dladdr` only reads the loader's tables for an address inside this object; `info` is
    // plain data it fills, and `dli_fname` (when set) points at a NUL-terminated path the loader owns.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        if libc::dladdr(this_object_dir as *const libc::c_void, &mut info) == 0 || info.dli_fname.is_null() {
            return None;
        }
        let path = std::ffi::CStr::from_ptr(info.dli_fname).to_str().ok()?;
        let path = std::fs::canonicalize(path).ok()?;
        path.parent().map(Path::to_path_buf)
    }
}

/// The argument that starts a worker that waits for its unit ([`prestart`]).
pub const SERVE: &str = "--serve";

/// Workers started ahead: (worker, architecture, process), each waiting for one unit.
static READY: Mutex<Vec<(PathBuf, String, Child)>> = Mutex::new(Vec::new());

/// Set while a thread of [`prestart`] is starting workers.
static FILLING: AtomicBool = AtomicBool::new(false);

/// Whether a compile of `batches` batches is big enough to take started workers (see the module doc).
pub fn takes_started(batches: usize) -> bool {
    batches >= crate::nvrtc::MIN_WORKER_BATCHES && batches >= ready_target() / 2
}

/// How many workers [`prestart`] keeps waiting: one per core, at most 16 (more programs gained nothing
/// on the H200 host: crates/oxhlo-cuda/NOTES.md, v22).
pub fn ready_target() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(16)
}

/// Starts workers for `arch` on a thread of its own until [`ready_target`] wait (see the module doc);
/// nothing without a worker, with `OXHLO_NVRTC_PRESTART=0`, on fewer than 3 cores, or while another
/// call is still starting them.
pub fn prestart(arch: &'static str) {
    let Some(w) = worker() else { return };
    let want = ready_target();
    if crate::env_off("OXHLO_NVRTC_PRESTART") || want < crate::nvrtc::MIN_WORKER_BATCHES || FILLING.swap(true, Ordering::AcqRel) {
        return;
    }
    let started = std::thread::Builder::new().name("oxhlo-nvrtc-prestart".into()).spawn(move || {
        let have = READY.lock().map_or(want, |r| r.iter().filter(|(p, a, _)| p == w && a == arch).count());
        for _ in have..want {
            let child = Command::new(w).arg(SERVE).arg(arch).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
            match (child, READY.lock()) {
                (Ok(c), Ok(mut r)) => r.push((w.to_path_buf(), arch.to_string(), c)),
                _ => break,
            }
        }
        FILLING.store(false, Ordering::Release);
    });
    if started.is_err() {
        FILLING.store(false, Ordering::Release);
    }
}

/// Units compiled by workers started ahead, in this process so far.
static SERVED: AtomicUsize = AtomicUsize::new(0);

/// How many units workers started ahead have compiled in this process.
pub fn served() -> usize {
    SERVED.load(Ordering::Relaxed)
}

/// How many started workers of `worker` for `arch` wait now.
pub fn waiting(worker: &Path, arch: &str) -> usize {
    READY.lock().map_or(0, |r| r.iter().filter(|(p, a, _)| p == worker && a == arch).count())
}

/// A started worker of `worker` for `arch`, if one is waiting.
fn take_ready(worker: &Path, arch: &str) -> Option<Child> {
    let mut r = READY.lock().ok()?;
    let i = r.iter().position(|(p, a, _)| p == worker && a == arch)?;
    Some(r.swap_remove(i).2)
}

/// [`compile_in_worker`] in a worker started ahead when one waits ([`prestart`]; a fresh one when none
/// does or it fails).
pub fn compile_in_started_worker(worker: &Path, src: &str, arch: &str, tier: crate::nvrtc::Tier) -> Result<Vec<u8>, String> {
    if let Some(child) = take_ready(worker, arch) {
        if let Ok(bin) = run_worker(child, worker, format!("{}\n{src}", tier.name())) {
            SERVED.fetch_add(1, Ordering::Relaxed);
            return Ok(bin);
        }
    }
    compile_in_worker(worker, src, arch, tier)
}

/// Compiles translation unit `src` for architecture `arch` at `tier` in a fresh process of `worker`:
/// the CUBIN, or what went wrong (the worker's stderr, or why it could not run).
pub fn compile_in_worker(worker: &Path, src: &str, arch: &str, tier: crate::nvrtc::Tier) -> Result<Vec<u8>, String> {
    let child = Command::new(worker)
        .arg(arch)
        .arg(tier.name())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("starting {}: {e}", worker.display()))?;
    run_worker(child, worker, src.to_string())
}

/// Feeds `text` to the started worker `child` and collects its CUBIN (see [`compile_in_worker`]).
fn run_worker(mut child: Child, worker: &Path, text: String) -> Result<Vec<u8>, String> {
    // The unit goes in from its own thread while this one drains stdout: neither pipe can fill up and
    // stall the other.
    let mut stdin = child.stdin.take().ok_or("the worker's stdin")?;
    let text = text.into_bytes();
    let feeder = std::thread::spawn(move || stdin.write_all(&text));
    let mut bin = Vec::new();
    let mut err = String::new();
    let out = child.stdout.take().ok_or("the worker's stdout")?.read_to_end(&mut bin);
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    let status = child.wait().map_err(|e| format!("waiting for {}: {e}", worker.display()))?;
    let fed = feeder.join().map_err(|_| "the worker's feeder panicked".to_string())?;
    out.map_err(|e| format!("reading the worker's CUBIN: {e}"))?;
    match (status.success(), fed) {
        (true, Ok(())) if !bin.is_empty() => Ok(bin),
        (true, _) => Err(format!("{} wrote no CUBIN{}", worker.display(), if err.is_empty() { String::new() } else { format!(": {err}") })),
        (false, _) => Err(if err.is_empty() { format!("{} failed ({status})", worker.display()) } else { err }),
    }
}
