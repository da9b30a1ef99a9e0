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
