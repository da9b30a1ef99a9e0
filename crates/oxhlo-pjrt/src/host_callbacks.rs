//! The framework's host callbacks (`PJRT_ExecuteOptions.send_callbacks` / `recv_callbacks`, how JAX
//! runs Python callbacks on a plugin) as the engine's [`HostChannels`], and the
//! `PJRT_CopyToDeviceStream` the framework writes received data into.
//!
//! A send hands the framework a `PJRT_Chunk` it owns (freed through the chunk's deleter). A receive
//! gives the framework a stream it owns (it calls `PJRT_CopyToDeviceStream_Destroy`), shares the
//! stream's state, and waits until the framework has added all the bytes.

use crate::abi::exec::{
    CallbackError, Chunk, ExecuteOptions, RecvCallback, SendCallback, StreamAddChunkArgs, StreamArgs, StreamI64Args,
};
use crate::engine::{ArraySpec, HostArray, HostChannels};
use crate::error::{guard, peek, Error, Result};
use crate::event::Event;
use crate::{log, util};
use std::collections::HashMap;
use std::ffi::{c_char, c_void};
use std::sync::{Arc, Condvar, Mutex};

#[derive(Clone, Copy)]
struct Callback<F> {
    f: F,
    user_arg: *mut c_void,
}

/// One device's send and receive callbacks, by channel id.
pub struct FrameworkHost {
    sends: HashMap<i64, Callback<SendCallback>>,
    recvs: HashMap<i64, Callback<RecvCallback>>,
}

// SAFETY: PJRT requires the callbacks (and their user arguments) to be callable from any thread for
// the duration of the execution, which outlives every use here.
unsafe impl Send for FrameworkHost {}
unsafe impl Sync for FrameworkHost {}

impl FrameworkHost {
    /// Device `d`'s callbacks from the execute options (None when there are none).
    ///
    /// # Safety
    /// `o` must be the framework's valid options for an execution on at least `d + 1` devices.
    pub unsafe fn from_options(o: &ExecuteOptions, d: usize) -> Option<Arc<dyn HostChannels>> {
        let mut h = FrameworkHost { sends: HashMap::new(), recvs: HashMap::new() };
        if !o.send_callbacks.is_null() && o.num_send_ops > 0 {
            for info in util::slice(*o.send_callbacks.add(d), o.num_send_ops) {
                if let Some(f) = info.send_callback {
                    h.sends.insert(info.channel_id, Callback { f, user_arg: info.user_arg });
                }
            }
        }
        if !o.recv_callbacks.is_null() && o.num_recv_ops > 0 {
            for info in util::slice(*o.recv_callbacks.add(d), o.num_recv_ops) {
                if let Some(f) = info.recv_callback {
                    h.recvs.insert(info.channel_id, Callback { f, user_arg: info.user_arg });
                }
            }
        }
        if h.sends.is_empty() && h.recvs.is_empty() {
            None
        } else {
            Some(Arc::new(h))
        }
    }
}

unsafe extern "C" fn callback_error(code: i32, message: *const c_char, size: usize) -> *mut c_void {
    Error::new(code, util::string(message, size)).into_raw()
}

unsafe extern "C" fn free_chunk(_data: *mut c_void, arg: *mut c_void) {
    if !arg.is_null() {
        drop(Box::from_raw(arg as *mut Vec<u8>));
    }
}

/// Takes an error returned by a framework callback (made by our `callback_error`, or null).
fn take_error(e: *mut c_void) -> Result<()> {
    if e.is_null() {
        return Ok(());
    }
    // SAFETY: the framework builds callback errors with the PJRT_CallbackError we passed it, so they are
    // ours; we own the error and free it after reading it.
    let err = unsafe { peek(e) }.unwrap_or_else(|| Error::internal("host callback failed"));
    let mut d = crate::abi::ErrorDestroyArgs { struct_size: 0, extension_start: std::ptr::null_mut(), error: e };
    unsafe { crate::error::error_destroy(&mut d) };
    Err(err)
}

impl HostChannels for FrameworkHost {
    fn send(&self, channel: i64, data: &HostArray) -> Result<()> {
        let cb = self.sends.get(&channel).ok_or_else(|| Error::invalid(format!("no send callback for channel {channel}")))?;
        let bytes = Box::new(data.bytes.to_vec());
        let size = bytes.len();
        let mut chunk = Chunk {
            data: bytes.as_ptr() as *mut c_void,
            size,
            deleter: Some(free_chunk),
            deleter_arg: Box::into_raw(bytes) as *mut c_void,
        };
        let mut make_error: CallbackError = callback_error;
        log::debug(|| format!("host send on channel {channel}: {} ({size} bytes)", data.spec));
        // SAFETY: a callback the framework registered for this execution, called as PJRT specifies.
        let e = unsafe { (cb.f)(&mut chunk, &mut make_error, size, true, cb.user_arg) };
        take_error(e)
    }

    fn recv(&self, channel: i64, spec: &ArraySpec) -> Result<HostArray> {
        let cb = self.recvs.get(&channel).ok_or_else(|| Error::invalid(format!("no recv callback for channel {channel}")))?;
        let state = Arc::new(StreamState::new(spec.byte_size()));
        let stream = Box::into_raw(Box::new(Stream(state.clone()))) as *mut c_void;
        log::debug(|| format!("host recv on channel {channel}: {spec}"));
        // SAFETY: as for send; the framework takes ownership of the stream.
        unsafe { (cb.f)(stream, cb.user_arg) };
        let bytes = state.wait();
        Ok(HostArray { spec: spec.clone(), bytes: crate::host_bytes::HostBytes::from(bytes) })
    }
}

/// What a receive is filled with.
struct StreamState {
    total: usize,
    data: Mutex<Vec<u8>>,
    cv: Condvar,
}

impl StreamState {
    fn new(total: usize) -> StreamState {
        StreamState { total, data: Mutex::new(Vec::with_capacity(total)), cv: Condvar::new() }
    }
    fn wait(&self) -> Vec<u8> {
        let mut d = self.data.lock().unwrap_or_else(|p| p.into_inner());
        while d.len() < self.total {
            d = self.cv.wait(d).unwrap_or_else(|p| p.into_inner());
        }
        std::mem::take(&mut *d)
    }
}

/// The object behind a `PJRT_CopyToDeviceStream*`.
struct Stream(Arc<StreamState>);

unsafe fn stream<'a>(p: *mut c_void) -> Result<&'a Stream> {
    (p as *const Stream).as_ref().ok_or_else(|| Error::invalid("the PJRT_CopyToDeviceStream pointer is null"))
}

pub unsafe extern "C" fn stream_destroy(args: *mut StreamArgs) -> *mut c_void {
    guard("PJRT_CopyToDeviceStream_Destroy", args, |a| {
        if !a.stream.is_null() {
            drop(Box::from_raw(a.stream as *mut Stream));
        }
        Ok(())
    })
}

pub unsafe extern "C" fn stream_add_chunk(args: *mut StreamAddChunkArgs) -> *mut c_void {
    guard("PJRT_CopyToDeviceStream_AddChunk", args, |a| {
        let s = stream(a.stream)?;
        let chunk = a.chunk.as_mut().ok_or_else(|| Error::invalid("PJRT_CopyToDeviceStream_AddChunk: the chunk is null"))?;
        let bytes = util::bytes(chunk.data as *const u8, chunk.size).to_vec();
        if let Some(del) = chunk.deleter {
            del(chunk.data, chunk.deleter_arg);
        }
        {
            let mut d = s.0.data.lock().unwrap_or_else(|p| p.into_inner());
            if d.len() + bytes.len() > s.0.total {
                return Err(Error::invalid(format!(
                    "the host sent {} bytes into a {}-byte stream that already holds {}",
                    bytes.len(),
                    s.0.total,
                    d.len()
                )));
            }
            d.extend_from_slice(&bytes);
        }
        s.0.cv.notify_all();
        a.transfer_complete = Event::ready_raw();
        Ok(())
    })
}

pub unsafe extern "C" fn stream_total_bytes(args: *mut StreamI64Args) -> *mut c_void {
    guard("PJRT_CopyToDeviceStream_TotalBytes", args, |a| {
        a.value = stream(a.stream)?.0.total as i64;
        Ok(())
    })
}

pub unsafe extern "C" fn stream_granule_size(args: *mut StreamI64Args) -> *mut c_void {
    guard("PJRT_CopyToDeviceStream_GranuleSize", args, |a| {
        stream(a.stream)?;
        a.value = 1;
        Ok(())
    })
}

pub unsafe extern "C" fn stream_current_bytes(args: *mut StreamI64Args) -> *mut c_void {
    guard("PJRT_CopyToDeviceStream_CurrentBytes", args, |a| {
        let s = stream(a.stream)?;
        a.value = s.0.data.lock().unwrap_or_else(|p| p.into_inner()).len() as i64;
        Ok(())
    })
}
