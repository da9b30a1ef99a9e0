//! Events (`PJRT_Event`): a completion state (pending, ok, or an error) shared by the work that sets it
//! and every handle given out; callbacks registered with `OnReady` run when it is set (at once, on the
//! registering thread, when it already is). Work in this plugin mostly completes inside the call that
//! starts it, so most events are born ready, but the state machine is real.

use crate::abi::{EventArgs, EventCreateArgs, EventIsReadyArgs, EventOnReadyArgs, EventSetArgs, OnReadyCallback};
use crate::error::{guard, Error, Result};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// A callback and its user argument, to run once.
struct Waiter {
    callback: unsafe extern "C" fn(*mut c_void, *mut c_void),
    user_arg: *mut c_void,
}
// SAFETY: the framework hands us callbacks that may run on any thread (PJRT's contract).
unsafe impl Send for Waiter {}

#[derive(Default)]
struct State {
    done: Option<std::result::Result<(), Error>>,
    waiters: Vec<Waiter>,
}

/// Shared completion state.
#[derive(Default)]
pub struct EventState {
    state: Mutex<State>,
    cv: Condvar,
    /// Whether the framework asked for the data this event guards (a buffer's ready event, a copy to
    /// the host): an execution's caller that waits for its results ([`crate::execute`]).
    awaited: AtomicBool,
}

impl EventState {
    /// A pending event.
    pub fn pending() -> Arc<EventState> {
        Arc::new(EventState::default())
    }
    /// An event that is already complete with `result`.
    pub fn ready(result: std::result::Result<(), Error>) -> Arc<EventState> {
        let e = EventState::pending();
        e.set(result);
        e
    }
    /// Completes the event (a second set is ignored) and runs the waiting callbacks.
    pub fn set(&self, result: std::result::Result<(), Error>) {
        let waiters = {
            let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
            if s.done.is_some() {
                return;
            }
            s.done = Some(result.clone());
            std::mem::take(&mut s.waiters)
        };
        self.cv.notify_all();
        for w in waiters {
            run_waiter(w, &result);
        }
    }
    /// Notes that the framework waits for (or reads) the data this event guards.
    pub fn mark_awaited(&self) {
        self.awaited.store(true, Ordering::Relaxed);
    }
    /// Whether [`EventState::mark_awaited`] was called.
    pub fn was_awaited(&self) -> bool {
        self.awaited.load(Ordering::Relaxed)
    }
    pub fn is_ready(&self) -> bool {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).done.is_some()
    }
    /// Blocks until complete and returns the result.
    pub fn wait(&self) -> std::result::Result<(), Error> {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(r) = &s.done {
                return r.clone();
            }
            s = self.cv.wait(s).unwrap_or_else(|p| p.into_inner());
        }
    }
    /// The result if complete.
    pub fn result(&self) -> Option<std::result::Result<(), Error>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).done.clone()
    }
    fn on_ready(&self, w: Waiter) {
        let done = {
            let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
            match &s.done {
                Some(r) => Some(r.clone()),
                None => {
                    s.waiters.push(w);
                    return;
                }
            }
        };
        if let Some(r) = done {
            run_waiter(w, &r);
        }
    }
}

fn run_waiter(w: Waiter, r: &std::result::Result<(), Error>) {
    let err = match r {
        Ok(()) => std::ptr::null_mut(),
        Err(e) => e.clone().into_raw(),
    };
    // SAFETY: the callback came from the framework together with its user argument; it takes the error.
    unsafe { (w.callback)(err, w.user_arg) }
}

/// The object behind a `PJRT_Event*`.
pub struct Event(pub Arc<EventState>);

impl Event {
    /// A new `PJRT_Event*` on `state`, owned by the caller.
    pub fn into_raw(state: Arc<EventState>) -> *mut c_void {
        Box::into_raw(Box::new(Event(state))) as *mut c_void
    }
    /// A ready, successful `PJRT_Event*`.
    pub fn ready_raw() -> *mut c_void {
        Event::into_raw(EventState::ready(Ok(())))
    }
}

unsafe fn event<'a>(p: *mut c_void) -> Result<&'a Event> {
    (p as *const Event).as_ref().ok_or_else(|| Error::invalid("the PJRT_Event pointer is null"))
}

/// `PJRT_Event_Destroy`.
pub unsafe extern "C" fn event_destroy(args: *mut EventArgs) -> *mut c_void {
    guard("PJRT_Event_Destroy", args, |a| {
        if !a.event.is_null() {
            drop(Box::from_raw(a.event as *mut Event));
        }
        Ok(())
    })
}

/// `PJRT_Event_IsReady`.
pub unsafe extern "C" fn event_is_ready(args: *mut EventIsReadyArgs) -> *mut c_void {
    guard("PJRT_Event_IsReady", args, |a| {
        a.is_ready = event(a.event)?.0.is_ready();
        Ok(())
    })
}

/// `PJRT_Event_Error`: the event's error (null when it succeeded).
pub unsafe extern "C" fn event_error(args: *mut EventArgs) -> *mut c_void {
    guard("PJRT_Event_Error", args, |a| {
        match event(a.event)?.0.result() {
            Some(r) => r,
            None => Err(Error::precondition("PJRT_Event_Error called on an event that is not ready")),
        }
    })
}

/// `PJRT_Event_Await`: blocks until ready, returns the event's error.
pub unsafe extern "C" fn event_await(args: *mut EventArgs) -> *mut c_void {
    guard("PJRT_Event_Await", args, |a| event(a.event)?.0.wait())
}

/// `PJRT_Event_OnReady`.
pub unsafe extern "C" fn event_on_ready(args: *mut EventOnReadyArgs) -> *mut c_void {
    guard("PJRT_Event_OnReady", args, |a| {
        let ev = event(a.event)?;
        let cb: OnReadyCallback = a.callback;
        let callback = cb.ok_or_else(|| Error::invalid("PJRT_Event_OnReady: the callback is null"))?;
        ev.0.on_ready(Waiter { callback, user_arg: a.user_arg });
        Ok(())
    })
}

/// `PJRT_Event_Create`: a pending event the caller completes with `PJRT_Event_Set`.
pub unsafe extern "C" fn event_create(args: *mut EventCreateArgs) -> *mut c_void {
    guard("PJRT_Event_Create", args, |a| {
        a.event = Event::into_raw(EventState::pending());
        Ok(())
    })
}

/// `PJRT_Event_Set`.
pub unsafe extern "C" fn event_set(args: *mut EventSetArgs) -> *mut c_void {
    guard("PJRT_Event_Set", args, |a| {
        let ev = event(a.event)?;
        if a.error_code == crate::abi::code::OK {
            ev.0.set(Ok(()));
        } else {
            let msg = crate::util::bytes(a.error_message as *const u8, a.error_message_size);
            ev.0.set(Err(Error::new(a.error_code, String::from_utf8_lossy(msg).into_owned())));
        }
        Ok(())
    })
}
