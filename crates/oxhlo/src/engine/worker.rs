//! Long-lived worker threads with the interpreter's big stack (`RUN_STACK_BYTES`), shared by every
//! executable of the process. Starting a thread with a 256 MiB stack per execution is cheap natively but
//! costs most of a second under valgrind's memcheck; reusing a few workers makes executions (and the C API's
//! leak check) fast everywhere. Workers start on demand, up to the machine's parallelism, and live until the
//! process exits.

use crate::error::{Error, ErrorKind, Result};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender};
use std::sync::{Arc, Mutex, OnceLock};

type Job = Box<dyn FnOnce() + Send>;

struct Pool {
    sender: Mutex<Sender<Job>>,
    receiver: Arc<Mutex<Receiver<Job>>>,
    /// (workers started, workers idle)
    counts: Arc<Mutex<(usize, usize)>>,
    max: usize,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let (sender, receiver) = channel::<Job>();
        let max = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, 16);
        Pool { sender: Mutex::new(sender), receiver: Arc::new(Mutex::new(receiver)), counts: Arc::default(), max }
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Starts one more worker; an error when the thread cannot be created.
fn start_worker(p: &'static Pool) -> Result<()> {
    let receiver = Arc::clone(&p.receiver);
    let counts = Arc::clone(&p.counts);
    std::thread::Builder::new()
        .name("oxhlo-interp".into())
        .stack_size(oxhlo_interp::eval::RUN_STACK_BYTES)
        .spawn(move || loop {
            let job = lock(&receiver).recv();
            match job {
                Ok(job) => {
                    lock(&counts).1 -= 1;
                    job();
                    lock(&counts).1 += 1;
                }
                Err(_) => return,
            }
        })
        .map_err(|e| Error::new(ErrorKind::Runtime, format!("cannot start an interpreter thread: {e}")))?;
    Ok(())
}

/// Runs `f` on a worker thread and waits for its result; a panic in `f` becomes an Internal error.
pub(crate) fn run<T: Send + 'static>(f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    let p = pool();
    {
        let mut c = lock(&p.counts);
        if c.1 == 0 && c.0 < p.max {
            start_worker(p)?;
            c.0 += 1;
            c.1 += 1;
        }
    }
    let (tx, rx) = sync_channel::<Result<T>>(1);
    let job: Job = Box::new(move || {
        let r = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
            Err(Error::new(ErrorKind::Internal, "the interpreter panicked (a bug in oxhlo; please report it)"))
        });
        let _ = tx.send(r);
    });
    lock(&p.sender).send(job).map_err(|_| Error::new(ErrorKind::Internal, "the interpreter workers are gone"))?;
    rx.recv().unwrap_or_else(|_| Err(Error::new(ErrorKind::Internal, "an interpreter worker stopped")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_jobs_and_survives_panics() {
        assert_eq!(run(|| Ok(6 * 7)).unwrap(), 42);
        let e = run::<()>(|| panic!("boom")).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Internal);
        let handles: Vec<_> = (0..8).map(|i| std::thread::spawn(move || run(move || Ok(i * 2)).unwrap())).collect();
        let sum: i32 = handles.into_iter().map(|h| h.join().unwrap()).sum();
        assert_eq!(sum, 56);
        assert!(lock(&pool().counts).0 <= pool().max);
    }
}
