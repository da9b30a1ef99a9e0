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

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

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

/// Compiles translation unit `src` for architecture `arch` at `tier` in a process of `worker`: the
/// CUBIN, or what went wrong (the worker's stderr, or why it could not run).
pub fn compile_in_worker(worker: &Path, src: &str, arch: &str, tier: crate::nvrtc::Tier) -> Result<Vec<u8>, String> {
    let mut child = Command::new(worker)
        .arg(arch)
        .arg(tier.name())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("starting {}: {e}", worker.display()))?;
    // The unit goes in from its own thread while this one drains stdout: neither pipe can fill up and
    // stall the other.
    let mut stdin = child.stdin.take().ok_or("the worker's stdin")?;
    let text = src.as_bytes().to_vec();
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
