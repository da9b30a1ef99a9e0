//! Buffers (`PJRT_Buffer`): an array on one device, held as dense row-major little-endian bytes shared
//! by reference (so copies between devices and executions reading it are free; with the CUDA backend the
//! bytes may live in GPU memory and come to the host on the first host read, see `host_bytes`). A buffer is live until
//! deleted or donated. Host-to-device copies honour byte strides; the copy happens inside the call, so
//! `done_with_host_buffer` is ready on return for every host-buffer semantics.

use crate::abi::buffer::{
    BufferArgs, BufferBoolArgs, BufferCopyArgs, BufferCopyRawToHostArgs, BufferDimsArgs, BufferDynamicDimsArgs,
    BufferElementTypeArgs, BufferFromHostArgs, BufferGetLayoutArgs, BufferHandleArgs, BufferPointerArgs,
    BufferSizeArgs, BufferToHostArgs, CreateUninitializedArgs, LayoutTiled, LayoutUnion, MemoryLayout, LAYOUT_TILED,
};
use crate::client::{client, ClientInner};
use crate::dtype::{num_elements, BufferType};
use crate::engine::{ArraySpec, HostArray};
use crate::host_bytes::HostBytes;
use crate::error::{guard, Error, Result};
use crate::event::{Event, EventState};
use crate::{layout, log, util};
use std::ffi::c_void;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

/// Why a buffer no longer holds data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gone {
    Deleted,
    Donated,
}

enum State {
    Live(HostBytes),
    Gone(Gone),
}

/// The object behind a `PJRT_Buffer*`.
pub struct Buffer {
    pub client: Arc<ClientInner>,
    pub device: usize,
    pub spec: ArraySpec,
    state: Mutex<State>,
    ready: Arc<EventState>,
    /// Row-major minor-to-major order, for `GetMemoryLayout`.
    minor_to_major: Vec<i64>,
    external_refs: AtomicI64,
}

impl Buffer {
    pub fn new(client: Arc<ClientInner>, device: usize, spec: ArraySpec, bytes: HostBytes) -> Buffer {
        let rank = spec.dims.len() as i64;
        client.devices[device].stats.alloc(spec.byte_size());
        Buffer {
            client,
            device,
            spec,
            state: Mutex::new(State::Live(bytes)),
            ready: EventState::ready(Ok(())),
            minor_to_major: (0..rank).rev().collect(),
            external_refs: AtomicI64::new(0),
        }
    }

    /// A buffer whose data a device is still computing: `ready` completes when it is done (reads on
    /// the device's stream are ordered after the work already).
    pub fn in_flight(client: Arc<ClientInner>, device: usize, spec: ArraySpec, bytes: HostBytes, ready: Arc<EventState>) -> Buffer {
        let mut b = Buffer::new(client, device, spec, bytes);
        b.ready = ready;
        b
    }

    /// A new `PJRT_Buffer*` owned by the caller.
    pub fn into_raw(self) -> *mut c_void {
        Box::into_raw(Box::new(self)) as *mut c_void
    }

    /// The data, or why there is none.
    pub fn data(&self) -> std::result::Result<HostBytes, Gone> {
        match &*self.state.lock().unwrap_or_else(|p| p.into_inner()) {
            State::Live(b) => Ok(b.clone()),
            State::Gone(g) => Err(*g),
        }
    }

    /// The data as a host array, or an error naming `what` when the buffer was deleted or donated.
    pub fn host_array(&self, what: &str) -> Result<HostArray> {
        match self.data() {
            Ok(bytes) => Ok(HostArray { spec: self.spec.clone(), bytes }),
            Err(Gone::Deleted) => Err(Error::invalid(format!("{what}: the buffer has been deleted"))),
            Err(Gone::Donated) => Err(Error::invalid(format!(
                "{what}: the buffer was donated to an earlier computation and can no longer be used"
            ))),
        }
    }

    /// Drops the data (delete or donation); returns the data it held.
    pub fn take(&self, why: Gone) -> Option<HostBytes> {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        match std::mem::replace(&mut *s, State::Gone(why)) {
            State::Live(b) => {
                self.client.devices[self.device].stats.free(self.spec.byte_size());
                Some(b)
            }
            State::Gone(g) => {
                *s = State::Gone(g);
                None
            }
        }
    }

    pub fn is_deleted(&self) -> bool {
        self.data().is_err()
    }

    fn device_ptr(&self) -> *mut c_void {
        self.client.device_ptrs[self.device]
    }

    fn memory_ptr(&self) -> *mut c_void {
        self.client.memory_ptrs[self.device]
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        self.take(Gone::Deleted);
    }
}

/// The buffer behind a `PJRT_Buffer*`.
///
/// # Safety
/// `p` must be null or a live `PJRT_Buffer*` of this plugin.
pub unsafe fn buffer<'a>(p: *mut c_void) -> Result<&'a Buffer> {
    (p as *const Buffer).as_ref().ok_or_else(|| Error::invalid("the PJRT_Buffer pointer is null"))
}

/// Checks an element type and dimensions coming from the caller.
pub fn check_spec(ty: i32, dims: &[i64]) -> Result<ArraySpec> {
    let t = BufferType(ty);
    if t.byte_size().is_none() {
        return Err(Error::invalid(format!("oxhlo cannot hold arrays of element type {} ({ty})", t.name())));
    }
    if dims.iter().any(|&d| d < 0) || num_elements(dims).is_none() {
        return Err(Error::invalid(format!("invalid array dimensions {dims:?}")));
    }
    Ok(ArraySpec::new(t, dims))
}

/// Rejects device layouts other than dense row-major (the only one oxhlo stores).
unsafe fn check_device_layout(l: *const MemoryLayout, spec: &ArraySpec) -> Result<()> {
    if l.is_null() {
        return Ok(());
    }
    let elem = spec.ty.byte_size().unwrap_or(1);
    if layout::strides_of(l, &spec.dims, elem)? != layout::dense_strides(&spec.dims, elem) {
        return Err(Error::unimplemented("oxhlo stores arrays in dense row-major order only; got another device layout"));
    }
    Ok(())
}

pub unsafe extern "C" fn buffer_from_host(args: *mut BufferFromHostArgs) -> *mut c_void {
    guard("PJRT_Client_BufferFromHostBuffer", args, |a| {
        let c = client(a.client)?;
        let dims = util::slice(a.dims, a.num_dims);
        let spec = check_spec(a.kind, dims)?;
        let elem = spec.ty.byte_size().unwrap_or(1);
        let device = c.inner.target_device(a.device, a.memory)?;
        check_device_layout(a.device_layout, &spec)?;
        let strides = if a.num_byte_strides == 0 {
            layout::dense_strides(dims, elem)
        } else {
            let s = util::slice(a.byte_strides, a.num_byte_strides);
            if s.len() != dims.len() {
                return Err(Error::invalid(format!("{} byte strides for a rank-{} array", s.len(), dims.len())));
            }
            s.to_vec()
        };
        let n = num_elements(dims).unwrap_or(0);
        if n > 0 && a.data.is_null() {
            return Err(Error::invalid("PJRT_Client_BufferFromHostBuffer: the host data pointer is null"));
        }
        log::debug(|| {
            format!("host->device {spec} strides {strides:?} semantics {} device {device}", a.host_buffer_semantics)
        });
        let size = n * elem;
        let data = a.data as *const u8;
        let bytes = HostBytes::build(spec.ty, size, |dst| if n > 0 { layout::gather_into(data, dims, &strides, elem, dst) });
        a.buffer = Buffer::new(c.inner.clone(), device, spec, bytes).into_raw();
        // The data was copied inside this call: the caller may reuse its host buffer at once.
        a.done_with_host_buffer = Event::ready_raw();
        Ok(())
    })
}

pub unsafe extern "C" fn create_uninitialized(args: *mut CreateUninitializedArgs) -> *mut c_void {
    guard("PJRT_Client_CreateUninitializedBuffer", args, |a| {
        let c = client(a.client)?;
        let spec = check_spec(a.shape_element_type, util::slice(a.shape_dims, a.shape_num_dims))?;
        check_device_layout(a.shape_layout, &spec)?;
        let device = c.inner.target_device(a.device, a.memory)?;
        let bytes = HostBytes::build(spec.ty, spec.byte_size(), |_| {});
        a.buffer = Buffer::new(c.inner.clone(), device, spec, bytes).into_raw();
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_destroy(args: *mut BufferArgs) -> *mut c_void {
    guard("PJRT_Buffer_Destroy", args, |a| {
        if !a.buffer.is_null() {
            drop(Box::from_raw(a.buffer as *mut Buffer));
        }
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_delete(args: *mut BufferArgs) -> *mut c_void {
    guard("PJRT_Buffer_Delete", args, |a| {
        buffer(a.buffer)?.take(Gone::Deleted);
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_is_deleted(args: *mut BufferBoolArgs) -> *mut c_void {
    guard("PJRT_Buffer_IsDeleted", args, |a| {
        a.value = buffer(a.buffer)?.is_deleted();
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_element_type(args: *mut BufferElementTypeArgs) -> *mut c_void {
    guard("PJRT_Buffer_ElementType", args, |a| {
        a.kind = buffer(a.buffer)?.spec.ty.0;
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_dimensions(args: *mut BufferDimsArgs) -> *mut c_void {
    guard("PJRT_Buffer_Dimensions", args, |a| {
        let b = buffer(a.buffer)?;
        a.dims = b.spec.dims.as_ptr();
        a.num_dims = b.spec.dims.len();
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_unpadded_dimensions(args: *mut BufferDimsArgs) -> *mut c_void {
    guard("PJRT_Buffer_UnpaddedDimensions", args, |a| {
        let b = buffer(a.buffer)?;
        a.dims = b.spec.dims.as_ptr();
        a.num_dims = b.spec.dims.len();
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_dynamic_dimension_indices(args: *mut BufferDynamicDimsArgs) -> *mut c_void {
    guard("PJRT_Buffer_DynamicDimensionIndices", args, |a| {
        buffer(a.buffer)?;
        a.dynamic_dim_indices = std::ptr::null();
        a.num_dynamic_dims = 0;
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_get_memory_layout(args: *mut BufferGetLayoutArgs) -> *mut c_void {
    guard("PJRT_Buffer_GetMemoryLayout", args, |a| {
        let b = buffer(a.buffer)?;
        a.layout = MemoryLayout {
            struct_size: std::mem::size_of::<MemoryLayout>(),
            extension_start: std::ptr::null_mut(),
            u: LayoutUnion {
                tiled: LayoutTiled {
                    struct_size: std::mem::size_of::<LayoutTiled>(),
                    extension_start: std::ptr::null_mut(),
                    minor_to_major: b.minor_to_major.as_ptr(),
                    minor_to_major_size: b.minor_to_major.len(),
                    tile_dims: std::ptr::null(),
                    tile_dim_sizes: std::ptr::null(),
                    num_tiles: 0,
                },
            },
            kind: LAYOUT_TILED,
        };
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_on_device_size(args: *mut BufferSizeArgs) -> *mut c_void {
    guard("PJRT_Buffer_OnDeviceSizeInBytes", args, |a| {
        a.size = buffer(a.buffer)?.spec.byte_size();
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_device(args: *mut BufferHandleArgs) -> *mut c_void {
    guard("PJRT_Buffer_Device", args, |a| {
        a.out = buffer(a.buffer)?.device_ptr();
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_memory(args: *mut BufferHandleArgs) -> *mut c_void {
    guard("PJRT_Buffer_Memory", args, |a| {
        a.out = buffer(a.buffer)?.memory_ptr();
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_is_on_cpu(args: *mut BufferBoolArgs) -> *mut c_void {
    guard("PJRT_Buffer_IsOnCpu", args, |a| {
        buffer(a.buffer)?;
        // Reported false so JAX copies through ToHostBuffer instead of aliasing oxhlo's storage.
        a.value = false;
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_ready_event(args: *mut BufferHandleArgs) -> *mut c_void {
    guard("PJRT_Buffer_ReadyEvent", args, |a| {
        let b = buffer(a.buffer)?;
        b.ready.mark_awaited();
        a.out = match b.host_array("PJRT_Buffer_ReadyEvent") {
            Ok(_) => Event::into_raw(b.ready.clone()),
            Err(e) => Event::into_raw(EventState::ready(Err(e))),
        };
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_to_host(args: *mut BufferToHostArgs) -> *mut c_void {
    guard("PJRT_Buffer_ToHostBuffer", args, |a| {
        let b = buffer(a.src)?;
        let elem = b.spec.ty.byte_size().unwrap_or(1);
        let strides = layout::strides_of(a.host_layout, &b.spec.dims, elem)?;
        let (lo, hi) = layout::extent(&b.spec.dims, &strides, elem);
        if lo < 0 {
            return Err(Error::unimplemented("oxhlo cannot copy to a host layout with negative strides"));
        }
        let needed = hi as usize;
        if a.dst.is_null() {
            a.dst_size = needed;
            return Ok(());
        }
        if a.dst_size < needed {
            return Err(Error::invalid(format!(
                "PJRT_Buffer_ToHostBuffer: destination has {} bytes, {} needs {needed}",
                a.dst_size, b.spec
            )));
        }
        b.ready.mark_awaited();
        let bytes = b.host_array("PJRT_Buffer_ToHostBuffer")?.bytes;
        let data = bytes.try_bytes().map_err(Error::internal)?;
        if strides == layout::dense_strides(&b.spec.dims, elem) {
            std::ptr::copy_nonoverlapping(data.as_ptr(), a.dst as *mut u8, data.len());
        } else {
            layout::scatter(data, a.dst as *mut u8, &b.spec.dims, &strides, elem);
        }
        a.event = Event::ready_raw();
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_copy_raw_to_host(args: *mut BufferCopyRawToHostArgs) -> *mut c_void {
    guard("PJRT_Buffer_CopyRawToHost", args, |a| {
        let b = buffer(a.buffer)?;
        b.ready.mark_awaited();
        let bytes = b.host_array("PJRT_Buffer_CopyRawToHost")?.bytes;
        let data = bytes.try_bytes().map_err(Error::internal)?;
        let (off, n) = (usize::try_from(a.offset).ok(), usize::try_from(a.transfer_size).ok());
        let range = off.zip(n).and_then(|(o, n)| Some(o..o.checked_add(n)?)).filter(|r| r.end <= data.len());
        let range = range.ok_or_else(|| {
            Error::invalid(format!("raw copy of {} bytes at {} is outside the {}-byte buffer", a.transfer_size, a.offset, data.len()))
        })?;
        if range.end > range.start {
            if a.dst.is_null() {
                return Err(Error::invalid("PJRT_Buffer_CopyRawToHost: the destination is null"));
            }
            std::ptr::copy_nonoverlapping(data[range.clone()].as_ptr(), a.dst as *mut u8, range.len());
        }
        a.event = Event::ready_raw();
        Ok(())
    })
}

fn copy_to(b: &Buffer, device: usize) -> Result<*mut c_void> {
    if device == b.device {
        return Err(Error::invalid(format!("the buffer is already on device {device}")));
    }
    let data = b.host_array("copy to another device")?.bytes;
    Ok(Buffer::new(b.client.clone(), device, b.spec.clone(), data).into_raw())
}

pub unsafe extern "C" fn buffer_copy_to_device(args: *mut BufferCopyArgs) -> *mut c_void {
    guard("PJRT_Buffer_CopyToDevice", args, |a| {
        let b = buffer(a.buffer)?;
        let d = b.client.device_index(a.dst)?;
        a.dst_buffer = copy_to(b, d)?;
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_copy_to_memory(args: *mut BufferCopyArgs) -> *mut c_void {
    guard("PJRT_Buffer_CopyToMemory", args, |a| {
        let b = buffer(a.buffer)?;
        let d = b.client.memory_device(a.dst)?;
        a.dst_buffer = copy_to(b, d)?;
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_unsafe_pointer(args: *mut BufferPointerArgs) -> *mut c_void {
    guard("PJRT_Buffer_UnsafePointer", args, |a| {
        let b = buffer(a.buffer)?;
        a.pointer = b.host_array("PJRT_Buffer_UnsafePointer")?.bytes.try_bytes().map_err(Error::internal)?.as_ptr() as usize;
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_opaque_pointer(args: *mut BufferHandleArgs) -> *mut c_void {
    guard("PJRT_Buffer_OpaqueDeviceMemoryDataPointer", args, |a| {
        let b = buffer(a.buffer)?;
        a.out = b.host_array("PJRT_Buffer_OpaqueDeviceMemoryDataPointer")?.bytes.try_bytes().map_err(Error::internal)?.as_ptr() as *mut c_void;
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_increase_ref(args: *mut BufferArgs) -> *mut c_void {
    guard("PJRT_Buffer_IncreaseExternalReferenceCount", args, |a| {
        buffer(a.buffer)?.external_refs.fetch_add(1, Ordering::SeqCst);
        Ok(())
    })
}

pub unsafe extern "C" fn buffer_decrease_ref(args: *mut BufferArgs) -> *mut c_void {
    guard("PJRT_Buffer_DecreaseExternalReferenceCount", args, |a| {
        let b = buffer(a.buffer)?;
        let r = b.external_refs.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| if n > 0 { Some(n - 1) } else { None });
        r.map(|_| ()).map_err(|_| Error::precondition("the buffer's external reference count is already zero"))
    })
}
