//! Runs executions on the interpreter's shared pool of big-stack worker threads
//! ([`oxhlo_interp::pool`]), mapping its errors to the facade's: a panic inside becomes an Internal error
//! and the worker survives.

use crate::error::{Error, ErrorKind, Result};

/// Runs `f` on a pooled worker thread and waits for its result; a panic in `f` becomes an Internal error.
pub(crate) fn run<T: Send + 'static>(f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    internal(oxhlo_interp::pool::run_on_worker(f))
}

/// Runs `f` on this thread when `deep` is false and the thread has the stack for it, else as [`run`]
/// (`oxhlo_interp::eval::on_enough_stack`: no thread hand-off for programs without control flow).
pub(crate) fn run_compiled<T: Send>(deep: bool, f: impl FnOnce() -> Result<T> + Send) -> Result<T> {
    internal(oxhlo_interp::eval::on_enough_stack(deep, f))
}

fn internal<T>(r: std::result::Result<Result<T>, oxhlo_interp::InterpError>) -> Result<T> {
    r.unwrap_or_else(|e| Err(Error::new(ErrorKind::Internal, format!("{} (a bug in oxhlo; please report it)", e.message))))
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
    }
}
