//! Reusable big-stack worker threads for whole-program runs: [`run_on_worker`] runs a closure on a worker
//! with the interpreter's stack ([`RUN_STACK_BYTES`]) and waits for it. One pool serves the process (it
//! is created on first use): `run_main`, the test runner, the `oxhlo` facade and the plugin all share it.
//!
//! Starting a thread with a 256 MiB stack per run is cheap natively but costs most of a second under
//! valgrind; reusing workers makes runs fast everywhere. A job never waits for a busy worker: when no
//! worker is free a new one starts, so nested runs (a run started from inside a run, e.g. a host callback
//! that runs another program) cannot deadlock. Up to [`KEEP_IDLE`] idle workers are kept for reuse; a
//! worker that finishes a job while that many are idle exits.
//!
//! A panic inside the closure is caught and returned as an [`InterpError`]; the worker survives.

use crate::error::InterpError;
use crate::eval::RUN_STACK_BYTES;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::sync_channel;
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};

/// Idle workers kept alive for reuse.
pub const KEEP_IDLE: usize = 4;

type Job = Box<dyn FnOnce() + Send + 'static>;

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    /// Workers waiting for a job.
    idle: usize,
    /// Workers alive.
    workers: usize,
}

struct Pool {
    state: Mutex<State>,
    ready: Condvar,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| Pool { state: Mutex::new(State::default()), ready: Condvar::new() })
}

fn lock(p: &Pool) -> MutexGuard<'_, State> {
    p.state.lock().unwrap_or_else(|e| e.into_inner())
}

fn worker_loop(p: &'static Pool) {
    let mut st = lock(p);
    loop {
        if let Some(job) = st.queue.pop_front() {
            drop(st);
            job();
            st = lock(p);
            if st.idle >= KEEP_IDLE && st.queue.is_empty() {
                st.workers -= 1;
                return;
            }
            continue;
        }
        st.idle += 1;
        st = p.ready.wait(st).unwrap_or_else(|e| e.into_inner());
        st.idle -= 1;
    }
}

/// Queues `job`, starting a worker when every idle one already has a queued job to take.
fn submit(job: Job) -> Result<(), InterpError> {
    let p = pool();
    let mut st = lock(p);
    if st.idle > st.queue.len() {
        st.queue.push_back(job);
        p.ready.notify_one();
        return Ok(());
    }
    std::thread::Builder::new()
        .name("oxhlo-interp".into())
        .stack_size(RUN_STACK_BYTES)
        .spawn(move || worker_loop(p))
        .map_err(|e| InterpError::new(format!("cannot start an interpreter thread: {e}")))?;
    st.workers += 1;
    st.queue.push_back(job);
    Ok(())
}

/// The message of a panic payload.
fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_default()
}

/// Runs `f` on a pooled big-stack worker and returns its result; a panic in `f` becomes an error.
/// `f` may borrow from the caller: this call returns only after `f` has run (or was dropped unrun).
pub fn run_on_worker<'a, T: Send + 'a>(f: impl FnOnce() -> T + Send + 'a) -> Result<T, InterpError> {
    let (tx, rx) = sync_channel::<Result<T, InterpError>>(1);
    let job = move || {
        let r = catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
            let msg = panic_message(&*p);
            InterpError::new(format!("internal error: the interpreter panicked{}", if msg.is_empty() { String::new() } else { format!(": {msg}") }))
        });
        let _ = tx.send(r);
    };
    let job: Box<dyn FnOnce() + Send + 'a> = Box::new(job);
    // SAFETY: the job may borrow data of lifetime 'a. It is erased to 'static only to pass it through the
    // pool's queue; this function does not return before the job is gone: `rx.recv()` returns once the
    // job has sent its result (after `f` finished and was dropped; the sender is its last capture) or
    // once the job was dropped without running (its sender dropped with it). Nothing of 'a outlives this
    // call, the same guarantee `std::thread::scope` gives.
    let job: Job = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + 'a>, Job>(job) };
    submit(job)?;
    rx.recv().unwrap_or_else(|_| Err(InterpError::new("internal error: an interpreter worker stopped before running the job")))
}

/// Runs `f` on this thread when at least `need` bytes of its stack are left (Linux with glibc, where the
/// thread's stack bounds can be asked for), else on a pooled big-stack worker ([`run_on_worker`]); a
/// panic in `f` becomes an error either way. Handing a run to a worker and back costs two thread
/// wake-ups: a jitted add on four floats took 90 us a call through the plugin that way, 7 us inline
/// (XLA:CPU 5.7 us).
pub fn run_here_or_on_worker<T: Send>(need: usize, f: impl FnOnce() -> T + Send) -> Result<T, InterpError> {
    if stack_left().is_some_and(|left| left >= need) {
        return catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
            let msg = panic_message(&*p);
            InterpError::new(format!("internal error: the interpreter panicked{}", if msg.is_empty() { String::new() } else { format!(": {msg}") }))
        });
    }
    run_on_worker(f)
}

/// Bytes of this thread's stack below the caller's frame (less a margin), when known.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn stack_left() -> Option<usize> {
    use std::cell::Cell;
    use std::ffi::c_void;
    extern "C" {
        fn pthread_self() -> usize;
        fn pthread_getattr_np(thread: usize, attr: *mut c_void) -> i32;
        fn pthread_attr_getstack(attr: *const c_void, addr: *mut *mut c_void, size: *mut usize) -> i32;
        fn pthread_attr_destroy(attr: *mut c_void) -> i32;
    }
    thread_local! {
        /// The lowest address of this thread's stack (asked once: for the main thread glibc reads
        /// /proc/self/maps).
        static LOW: Cell<Option<Option<usize>>> = const { Cell::new(None) };
    }
    let low = LOW.with(|c| {
        if let Some(v) = c.get() {
            return v;
        }
        // pthread_attr_t is 56 bytes on x86-64 glibc and 64 on aarch64: 128 bytes hold either.
        let mut attr = [0u64; 16];
        let (mut addr, mut size) = (std::ptr::null_mut::<c_void>(), 0usize);
        // SAFETY: `attr` is a writable buffer larger than pthread_attr_t, initialized by
        // pthread_getattr_np before it is read and destroyed once after; the out-pointers are valid.
        let v = unsafe {
            let a = attr.as_mut_ptr() as *mut c_void;
            if pthread_getattr_np(pthread_self(), a) != 0 {
                None
            } else {
                let ok = pthread_attr_getstack(a, &mut addr, &mut size) == 0;
                pthread_attr_destroy(a);
                (ok && size > 0).then_some(addr as usize)
            }
        };
        c.set(Some(v));
        v
    })?;
    let here = 0u8;
    let sp = &here as *const u8 as usize;
    // A guard page and what the caller's own frames above us may still grow by.
    const MARGIN: usize = 256 << 10;
    sp.checked_sub(low)?.checked_sub(MARGIN)
}

/// Bytes of this thread's stack left: unknown here (runs go to a worker).
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn stack_left() -> Option<usize> {
    None
}

/// Workers alive and idle now (for tests and diagnostics).
pub fn worker_counts() -> (usize, usize) {
    let st = lock(pool());
    (st.workers, st.idle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_jobs_borrows_and_survives_panics() {
        assert_eq!(run_on_worker(|| 6 * 7).unwrap(), 42);
        let data = String::from("borrowed");
        assert_eq!(run_on_worker(|| data.len()).unwrap(), 8);
        let e = run_on_worker(|| -> i32 { panic!("boom") }).unwrap_err();
        assert!(e.to_string().contains("panicked: boom"), "{e}");
        // The pool still works after a panic, from many threads at once.
        let handles: Vec<_> = (0..8).map(|i| std::thread::spawn(move || run_on_worker(move || i * 2).unwrap())).collect();
        assert_eq!(handles.into_iter().map(|h| h.join().unwrap()).sum::<i32>(), 56);
        let (workers, idle) = worker_counts();
        assert!(idle <= workers);
    }

    #[test]
    fn shallow_runs_stay_on_the_calling_thread_and_deep_ones_move() {
        let here = std::thread::current().id();
        if cfg!(all(target_os = "linux", target_env = "gnu")) {
            let left = stack_left().expect("known on glibc");
            // The test harness's threads have at least 2 MiB of stack (RUST_MIN_STACK aside).
            assert!(left > 64 << 10 && left < 1 << 30, "{left}");
            assert_eq!(run_here_or_on_worker(16 << 10, || std::thread::current().id()).unwrap(), here);
        }
        // More stack than this thread has: a worker's.
        assert_ne!(run_here_or_on_worker(crate::eval::RUN_STACK_BYTES, || std::thread::current().id()).unwrap(), here);
        let e = run_here_or_on_worker(16 << 10, || -> i32 { panic!("inline boom") }).unwrap_err();
        assert!(e.to_string().contains("panicked: inline boom"), "{e}");
    }

    #[test]
    fn nested_runs_do_not_deadlock() {
        fn nest(n: u32) -> u32 {
            if n == 0 {
                return 0;
            }
            run_on_worker(move || nest(n - 1) + 1).unwrap()
        }
        assert_eq!(nest(12), 12);
    }

    #[test]
    fn jobs_run_on_a_big_stack() {
        // 8 MiB of locals would overflow a default 2 MiB thread stack.
        fn deep(n: u32) -> u64 {
            let buf = [n as u8; 64 * 1024];
            if n == 0 {
                return buf[7] as u64;
            }
            deep(n - 1) + std::hint::black_box(&buf)[0] as u64
        }
        assert_eq!(run_on_worker(|| deep(128)).unwrap(), (1..=128u64).map(|n| n as u8 as u64).sum::<u64>());
    }
}
