//! Completion of device work an execution left running (`Program::execute_async`): one thread waits
//! for each piece in the order it was started and then completes its events (the output buffers'
//! ready events and the execution's device-complete events), which runs the framework's `OnReady`
//! callbacks on that thread. The caller returns at once, so JAX dispatches the next step while the
//! GPU computes this one.

use crate::engine::InFlight;
use crate::event::EventState;
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, OnceLock};

type Job = (InFlight, Arc<EventState>);

/// The waiting thread's queue (started on first use).
fn queue() -> Option<&'static Mutex<Sender<Job>>> {
    static QUEUE: OnceLock<Option<Mutex<Sender<Job>>>> = OnceLock::new();
    QUEUE
        .get_or_init(|| {
            let (tx, rx) = channel::<Job>();
            let spawned = std::thread::Builder::new().name("oxhlo-completion".into()).spawn(move || {
                for (work, event) in rx {
                    // A panic in the backend's wait becomes the event's error, never a dead thread.
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
                        .unwrap_or_else(|_| Err(crate::error::Error::internal("oxhlo: waiting for the device panicked")));
                    event.set(result);
                }
            });
            spawned.ok().map(|_| Mutex::new(tx))
        })
        .as_ref()
}

/// An event that completes when `work` is done. Without a waiting thread (it could not be started)
/// the work is waited for here.
pub fn complete_later(work: InFlight) -> Arc<EventState> {
    let event = EventState::pending();
    let rejected = match queue() {
        Some(q) => match q.lock() {
            Ok(tx) => tx.send((work, event.clone())).err().map(|e| e.0 .0),
            Err(_) => Some(work),
        },
        None => Some(work),
    };
    if let Some(work) = rejected {
        event.set(work());
    }
    event
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    #[test]
    fn events_complete_when_their_work_does_in_order() {
        let gate = Arc::new(AtomicBool::new(false));
        let g = gate.clone();
        let first = complete_later(Box::new(move || {
            while !g.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
            Ok(())
        }));
        let second = complete_later(Box::new(|| Err(Error::internal("the GPU failed: an illegal address"))));
        std::thread::sleep(Duration::from_millis(20));
        assert!(!first.is_ready() && !second.is_ready(), "pending while the first work runs (the second waits behind it)");
        gate.store(true, Ordering::SeqCst);
        assert!(first.wait().is_ok());
        let err = second.wait().expect_err("the device failure reaches the event");
        assert!(err.message.contains("illegal address"), "{}", err.message);
    }

    #[test]
    fn a_panicking_wait_becomes_the_events_error() {
        let e = complete_later(Box::new(|| panic!("boom")));
        assert!(e.wait().is_err());
        // The thread survives it.
        assert!(complete_later(Box::new(|| Ok(()))).wait().is_ok());
    }
}
