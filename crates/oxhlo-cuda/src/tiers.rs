//! Two optimization tiers for a program's kernels: what no cache has is compiled quickly first
//! (`nvrtc::Tier::Quick`, NVRTC's `--Ofast-compile=min`: about half of NVRTC's time), so that a cold
//! first call waits for less of the compile, except reductions and row kernels, which the quick tier
//! slows by 15-60% and which compile fully at once ([`full_at_once`]; the other kernels lose nothing
//! measurable); the quick batches are then
//! compiled fully optimized on a thread of lower priority ([`upgrade_in_background`]), written to the
//! disk cache, and swapped in: later launches take the full kernels (`Gpu::function` looks at the quick
//! ones only while they are there), and a program's captured CUDA graph is captured again once
//! `Gpu::upgrades` moved (`exec`).
//!
//! `OXHLO_NVRTC_TIERS`: `0` compiles everything fully at once (as before the tiers); a number N sets the
//! fewest kernels to compile for the quick tier to be used (default [`DEFAULT_MIN_KERNELS`]: small
//! programs compile fully at once). At exit the process waits for the background compiles to finish
//! and writes them to the disk cache (NVRTC must not be running in this process while it unloads, and a
//! short process, a test or a script, would otherwise never leave the full kernels for the next one).

use crate::device::Gpu;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The fewest kernels to compile for the quick tier to be used, unless `OXHLO_NVRTC_TIERS` says
/// otherwise.
pub const DEFAULT_MIN_KERNELS: usize = 8;

/// The fewest kernels a precompile must compile for the quick tier; None when tiers are off (or NVRTC's
/// options already ask for a fast-compile level, so the tiers would be the same).
pub fn min_kernels() -> Option<usize> {
    static MIN: OnceLock<Option<usize>> = OnceLock::new();
    *MIN.get_or_init(|| {
        if crate::nvrtc::options_beside_arch().iter().any(|o| o.starts_with("--Ofast-compile")) {
            return None;
        }
        match std::env::var("OXHLO_NVRTC_TIERS").ok().and_then(|v| v.trim().parse::<usize>().ok()) {
            Some(0) => None,
            Some(n) => Some(n),
            None => Some(DEFAULT_MIN_KERNELS),
        }
    })
}

/// Whether a kernel compiles at the full tier even in a precompile that uses the quick one: reductions
/// and row kernels (their sources define the combining functions `double oxr...`). On the H200 (session
/// 23, every kernel at the quick tier's options against the full tier, per-step device time) they
/// were the whole difference: ResNet-18's reductions +0.34 ms a step (15-60% slower each), nanoGPT's
/// row kernels +0.24 and reductions +0.09, every other kernel within 0.03 ms; compiling them fully
/// costs 15% more NVRTC work (their CPU time 1.4x) where a cold process otherwise ran its first
/// second on steps 4-7% slower. `OXHLO_NVRTC_REDUCTIONS_QUICK=1` compiles them quickly too (read once).
pub fn full_at_once(src: &str) -> bool {
    static QUICK_TOO: OnceLock<bool> = OnceLock::new();
    !*QUICK_TOO.get_or_init(|| std::env::var("OXHLO_NVRTC_REDUCTIONS_QUICK").is_ok_and(|v| v.trim() == "1")) && src.contains("double oxr")
}

/// How many of `cores` the full tier's kernels (`full`) get when compiled beside the quick tier's
/// (`quick`): in proportion to their NVRTC work, the full tier's about twice the quick tier's per byte
/// of source; at least one when there are any, all when there is nothing else.
pub fn full_share(full: &[(u64, &str)], quick: &[(u64, &str)], cores: usize) -> usize {
    let bytes = |g: &[(u64, &str)]| g.iter().map(|(_, s)| s.len()).sum::<usize>() as f64;
    let (f, q) = (2.0 * bytes(full), bytes(quick));
    if full.is_empty() {
        return 0;
    }
    if quick.is_empty() {
        return cores;
    }
    ((cores as f64 * f / (f + q)).round() as usize).clamp(1, cores.saturating_sub(1).max(1))
}

/// Background upgrades in flight, and whether the process is exiting.
#[derive(Default)]
struct Upgrades {
    running: usize,
    exiting: bool,
}

fn state() -> &'static (Mutex<Upgrades>, Condvar) {
    static STATE: OnceLock<(Mutex<Upgrades>, Condvar)> = OnceLock::new();
    STATE.get_or_init(Default::default)
}

fn exiting() -> bool {
    state().0.lock().map_or(true, |s| s.exiting)
}

/// Set by tests: finished upgrades wait before swapping their kernels in (so that a test can run a
/// program on its quick kernels, have its graph captured, and then see the upgrade).
static HOLD: AtomicBool = AtomicBool::new(false);

/// Holds finished upgrades back from swapping their kernels in (`true`) or lets them go (`false`). For
/// tests.
pub fn hold(on: bool) {
    HOLD.store(on, Ordering::SeqCst);
}

/// Waits until no upgrade is compiling or waiting to swap in (at most `limit`); whether none is.
pub fn wait_for_upgrades(limit: Duration) -> bool {
    let (m, cv) = state();
    let Ok(mut s) = m.lock() else { return false };
    let t0 = Instant::now();
    while s.running > 0 {
        let left = limit.saturating_sub(t0.elapsed());
        if left.is_zero() {
            return false;
        }
        match cv.wait_timeout(s, left) {
            Ok((g, _)) => s = g,
            Err(_) => return false,
        }
    }
    true
}

extern "C" fn stop_at_exit() {
    if let Ok(mut s) = state().0.lock() {
        s.exiting = true;
    }
    // A program's full tier takes about twice its quick one (a second or two); the limit only guards
    // against a hang.
    wait_for_upgrades(Duration::from_secs(60));
}

/// Lowers the calling thread's scheduling priority (nice 10), so that the background tier yields the
/// host's cores to the program's own work; the threads and processes it starts inherit it.
fn lower_this_threads_priority() {
    // SAFETY: `gettid` takes nothing; `setpriority` on this thread's id only changes its nice value
    // (failure leaves it as it was).
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
    }
}

/// Compiles `batches` (each kernel's device key and canonical source, as the quick tier compiled them)
/// fully optimized on a thread of its own, then swaps the results in (`Gpu::install`) and counts an
/// upgrade (`Gpu::upgrades`).
pub fn upgrade_in_background(gpu: Arc<Gpu>, batches: Vec<Vec<(u64, String)>>) {
    static AT_EXIT: OnceLock<bool> = OnceLock::new();
    // SAFETY: registers a plain `extern "C"` function taking nothing; it only waits on a condition.
    let registered = *AT_EXIT.get_or_init(|| unsafe { libc::atexit(stop_at_exit) } == 0);
    let (m, cv) = state();
    match m.lock() {
        Ok(mut s) if registered && !s.exiting => s.running += 1,
        _ => return,
    }
    let finish = || {
        if let Ok(mut s) = m.lock() {
            s.running -= 1;
        }
        cv.notify_all();
    };
    let spawned = std::thread::Builder::new().name("oxhlo-nvrtc-full".into()).spawn(move || {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| upgrade(&gpu, &batches)));
        finish();
    });
    if spawned.is_err() {
        finish();
    }
}

fn upgrade(gpu: &Arc<Gpu>, batches: &[Vec<(u64, String)>]) {
    use crate::nvrtc::{compile_batches, compile_log, Tier};
    lower_this_threads_priority();
    let t0 = Instant::now();
    let borrowed: Vec<Vec<(u64, &str)>> = batches.iter().map(|b| b.iter().map(|(k, s)| (*k, s.as_str())).collect()).collect();
    let (results, _) = compile_batches(&borrowed, gpu.arch, &vec![Tier::Full; borrowed.len()], false);
    while HOLD.load(Ordering::SeqCst) && !exiting() {
        std::thread::sleep(Duration::from_millis(5));
    }
    if exiting() {
        // The process is unloading: no more driver work, only the disk cache for the next process.
        for (batch, r) in borrowed.iter().zip(&results) {
            if let Some(c) = r {
                crate::nvrtc::store_compiled(batch, c);
            }
        }
        return;
    }
    let n: usize = borrowed.iter().map(Vec::len).sum();
    for (batch, r) in borrowed.iter().zip(results) {
        gpu.install(batch, r, Tier::Full);
    }
    gpu.upgrades.fetch_add(1, Ordering::SeqCst);
    compile_log(&format!("{n} quickly compiled kernels replaced by fully optimized ones after {:.0} ms", t0.elapsed().as_secs_f64() * 1e3));
}
