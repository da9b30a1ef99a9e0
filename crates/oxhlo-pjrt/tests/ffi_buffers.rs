//! Buffers and events through the C API table: host transfers with strides and layouts, queries,
//! deletion, copies between devices, events and their callbacks.

mod common;

use common::*;
use oxhlo_pjrt::abi::buffer::*;
use oxhlo_pjrt::abi::{EventArgs, EventIsReadyArgs, EventOnReadyArgs};
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};

fn from_host(c: *mut c_void, ty: i32, data: &[u8], dims: &[i64], strides: Option<&[i64]>) -> Result<*mut c_void, (i32, String)> {
    let mut a: BufferFromHostArgs = args();
    a.client = c;
    a.data = data.as_ptr() as *const c_void;
    a.kind = ty;
    a.dims = dims.as_ptr();
    a.num_dims = dims.len();
    if let Some(s) = strides {
        a.byte_strides = s.as_ptr();
        a.num_byte_strides = s.len();
    }
    a.host_buffer_semantics = semantics::IMMUTABLE_ZERO_COPY;
    if let Some(e) = take_error(call(api().client_buffer_from_host_buffer, &mut a)) {
        return Err(e);
    }
    assert!(!a.done_with_host_buffer.is_null());
    assert!(event_ready(a.done_with_host_buffer));
    destroy_event(a.done_with_host_buffer);
    Ok(a.buffer)
}

fn event_ready(e: *mut c_void) -> bool {
    let mut r: EventIsReadyArgs = args();
    r.event = e;
    ok(call(api().event_is_ready, &mut r));
    r.is_ready
}

fn destroy_event(e: *mut c_void) {
    let mut d: EventArgs = args();
    d.event = e;
    ok(call(api().event_destroy, &mut d));
}

fn to_host(b: *mut c_void, layout: Option<&mut MemoryLayout>) -> Result<Vec<u8>, (i32, String)> {
    let mut a: BufferToHostArgs = args();
    a.src = b;
    let lp: *mut MemoryLayout = match layout {
        Some(l) => l,
        None => std::ptr::null_mut(),
    };
    a.host_layout = lp;
    if let Some(e) = take_error(call(api().buffer_to_host_buffer, &mut a)) {
        return Err(e);
    }
    let mut out = vec![0u8; a.dst_size];
    a.dst = out.as_mut_ptr() as *mut c_void;
    if let Some(e) = take_error(call(api().buffer_to_host_buffer, &mut a)) {
        return Err(e);
    }
    let mut w: EventArgs = args();
    w.event = a.event;
    ok(call(api().event_await, &mut w));
    destroy_event(a.event);
    Ok(out)
}

fn destroy(b: *mut c_void) {
    let mut d: BufferArgs = args();
    d.buffer = b;
    ok(call(api().buffer_destroy, &mut d));
}

const F32: i32 = 11;
const U8: i32 = 6;

#[test]
fn round_trip_with_byte_strides() {
    let c = mock_client(1);
    // A 2x3 u8 array stored column-major (strides 1, 2).
    let data = [0u8, 3, 1, 4, 2, 5];
    let b = from_host(c, U8, &data, &[2, 3], Some(&[1, 2])).unwrap();
    assert_eq!(to_host(b, None).unwrap(), vec![0, 1, 2, 3, 4, 5]);
    // Back out in column-major order through a tiled layout.
    let m2m = [0i64, 1];
    let mut l: MemoryLayout = args();
    l.kind = LAYOUT_TILED;
    l.u.tiled = LayoutTiled {
        struct_size: std::mem::size_of::<LayoutTiled>(),
        extension_start: std::ptr::null_mut(),
        minor_to_major: m2m.as_ptr(),
        minor_to_major_size: 2,
        tile_dims: std::ptr::null(),
        tile_dim_sizes: std::ptr::null(),
        num_tiles: 0,
    };
    assert_eq!(to_host(b, Some(&mut l)).unwrap(), data.to_vec());

    let mut et: BufferElementTypeArgs = args();
    et.buffer = b;
    ok(call(api().buffer_element_type, &mut et));
    assert_eq!(et.kind, U8);
    let mut dims: BufferDimsArgs = args();
    dims.buffer = b;
    ok(call(api().buffer_dimensions, &mut dims));
    assert_eq!(unsafe { std::slice::from_raw_parts(dims.dims, dims.num_dims) }, &[2, 3]);
    let mut sz: BufferSizeArgs = args();
    sz.buffer = b;
    ok(call(api().buffer_on_device_size_in_bytes, &mut sz));
    assert_eq!(sz.size, 6);
    destroy(b);
    destroy_client(c);
}

#[test]
fn scalars_and_empty_arrays() {
    let c = mock_client(1);
    let s = from_host(c, F32, &2.5f32.to_le_bytes(), &[], None).unwrap();
    assert_eq!(to_host(s, None).unwrap(), 2.5f32.to_le_bytes().to_vec());
    let mut a: BufferFromHostArgs = args();
    a.client = c;
    a.kind = F32;
    let dims = [3i64, 0];
    a.dims = dims.as_ptr();
    a.num_dims = 2;
    ok(call(api().client_buffer_from_host_buffer, &mut a)); // null data is fine for an empty array
    destroy_event(a.done_with_host_buffer);
    assert!(to_host(a.buffer, None).unwrap().is_empty());
    destroy(a.buffer);
    destroy(s);
    destroy_client(c);
}

#[test]
fn invalid_transfers_are_errors() {
    let c = mock_client(1);
    let data = [0u8; 16];
    let (code, msg) = from_host(c, 99, &data, &[4], None).unwrap_err();
    assert_eq!(code, INVALID);
    assert!(msg.contains("element type"), "{msg}");
    let (code, _) = from_host(c, F32, &data, &[-1], None).unwrap_err();
    assert_eq!(code, INVALID);
    let (code, _) = from_host(c, F32, &data, &[2, 2], Some(&[4])).unwrap_err();
    assert_eq!(code, INVALID);
    let mut a: BufferFromHostArgs = args();
    a.client = c;
    a.kind = F32;
    let dims = [4i64];
    a.dims = dims.as_ptr();
    a.num_dims = 1;
    expect_error(call(api().client_buffer_from_host_buffer, &mut a), INVALID, "null");

    let b = from_host(c, F32, &data, &[4], None).unwrap();
    let mut t: BufferToHostArgs = args();
    let mut small = [0u8; 8];
    t.src = b;
    t.dst = small.as_mut_ptr() as *mut c_void;
    t.dst_size = 8;
    expect_error(call(api().buffer_to_host_buffer, &mut t), INVALID, "needs 16");
    destroy(b);
    destroy_client(c);
}

#[test]
fn deleted_buffers() {
    let c = mock_client(1);
    let b = from_host(c, F32, &[0u8; 8], &[2], None).unwrap();
    let mut d: BufferArgs = args();
    d.buffer = b;
    ok(call(api().buffer_delete, &mut d));
    let mut q: BufferBoolArgs = args();
    q.buffer = b;
    ok(call(api().buffer_is_deleted, &mut q));
    assert!(q.value);
    let (code, msg) = to_host(b, None).unwrap_err();
    assert_eq!(code, INVALID);
    assert!(msg.contains("deleted"), "{msg}");
    let mut r: BufferHandleArgs = args();
    r.buffer = b;
    ok(call(api().buffer_ready_event, &mut r));
    let mut e: EventArgs = args();
    e.event = r.out;
    expect_error(call(api().event_error, &mut e), INVALID, "deleted");
    destroy_event(r.out);
    destroy(b);
    destroy_client(c);
}

#[test]
fn copies_between_devices() {
    let c = mock_client(2);
    let b = from_host(c, F32, &1.0f32.to_le_bytes(), &[1], None).unwrap();
    let mut dev: BufferHandleArgs = args();
    dev.buffer = b;
    ok(call(api().buffer_device, &mut dev));
    let mut list: oxhlo_pjrt::abi::client::ClientListArgs = args();
    list.client = c;
    ok(call(api().client_devices, &mut list));
    let devices = unsafe { std::slice::from_raw_parts(list.items, 2) };
    assert_eq!(dev.out, devices[0]);
    let mut cp: BufferCopyArgs = args();
    cp.buffer = b;
    cp.dst = devices[0];
    expect_error(call(api().buffer_copy_to_device, &mut cp), INVALID, "already on device 0");
    cp.dst = devices[1];
    ok(call(api().buffer_copy_to_device, &mut cp));
    let mut dev2: BufferHandleArgs = args();
    dev2.buffer = cp.dst_buffer;
    ok(call(api().buffer_device, &mut dev2));
    assert_eq!(dev2.out, devices[1]);
    assert_eq!(to_host(cp.dst_buffer, None).unwrap(), 1.0f32.to_le_bytes().to_vec());
    destroy(cp.dst_buffer);
    destroy(b);
    destroy_client(c);
}

static CALLS: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn on_ready(err: *mut c_void, user: *mut c_void) {
    assert!(err.is_null());
    assert_eq!(user as usize, 42);
    CALLS.fetch_add(1, Ordering::SeqCst);
}

#[test]
fn events_run_callbacks() {
    let mut cr: oxhlo_pjrt::abi::EventCreateArgs = args();
    ok(call(api().event_create, &mut cr));
    assert!(!event_ready(cr.event));
    let mut o: EventOnReadyArgs = args();
    o.event = cr.event;
    o.callback = Some(on_ready);
    o.user_arg = 42 as *mut c_void;
    ok(call(api().event_on_ready, &mut o));
    assert_eq!(CALLS.load(Ordering::SeqCst), 0);
    let mut s: oxhlo_pjrt::abi::EventSetArgs = args();
    s.event = cr.event;
    ok(call(api().event_set, &mut s));
    assert_eq!(CALLS.load(Ordering::SeqCst), 1);
    assert!(event_ready(cr.event));
    ok(call(api().event_on_ready, &mut o)); // already ready: runs at once
    assert_eq!(CALLS.load(Ordering::SeqCst), 2);
    let mut e: EventArgs = args();
    e.event = cr.event;
    ok(call(api().event_error, &mut e));
    destroy_event(cr.event);
}

#[test]
fn memory_stats_follow_live_buffers() {
    let c = mock_client(1);
    let mut list: oxhlo_pjrt::abi::client::ClientListArgs = args();
    list.client = c;
    ok(call(api().client_devices, &mut list));
    let dev = unsafe { *list.items };
    let in_use = || {
        let mut m: oxhlo_pjrt::abi::client::DeviceMemoryStatsArgs = args();
        m.device = dev;
        ok(call(api().device_memory_stats, &mut m));
        assert!(m.peak_bytes_in_use_is_set && !m.bytes_limit_is_set);
        m.bytes_in_use
    };
    assert_eq!(in_use(), 0);
    let b = from_host(c, F32, &[0u8; 64], &[16], None).unwrap();
    assert_eq!(in_use(), 64);
    let mut d: BufferArgs = args();
    d.buffer = b;
    ok(call(api().buffer_delete, &mut d));
    assert_eq!(in_use(), 0);
    destroy(b);
    let b = from_host(c, F32, &[0u8; 16], &[4], None).unwrap();
    destroy(b);
    assert_eq!(in_use(), 0);
    destroy_client(c);
}
