//! Devices, their descriptions and memories: `PJRT_Device`, `PJRT_DeviceDescription`, `PJRT_Memory`.
//! Each device has one memory of kind "device" (the kind JAX asks for by default). The objects live
//! inside the client, which never moves or frees them while any handle to the client exists.

use crate::abi::client::{
    DescAttributesArgs, DescIntArgs, DescStringArgs, DeviceBoolArgs, DeviceGetAttributesArgs, DeviceHandleArgs,
    DeviceIntArgs, DeviceListArgs, DeviceMemoryStatsArgs, MemoryIntArgs, MemoryListArgs, MemoryStringArgs,
};
use crate::attrs::{NamedValues, Value};
use crate::error::{guard, Error, Result};
use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicI64, Ordering};

/// The memory kind every device has.
pub const MEMORY_KIND: &str = "device";
/// The device kind string.
pub const DEVICE_KIND: &str = "oxhlo";

/// `PJRT_DeviceDescription`.
pub struct DeviceDescription {
    pub id: i32,
    pub process_index: i32,
    pub kind: String,
    pub debug_string: String,
    pub to_string: String,
    pub attributes: NamedValues,
}

/// `PJRT_Device`.
pub struct Device {
    pub desc: DeviceDescription,
    /// Index in the client's device list (equal to the id here).
    pub index: usize,
    pub local_hardware_id: i32,
    /// This device's memories (as `PJRT_Memory*`), the default first.
    pub memories: Vec<*mut c_void>,
    pub stats: MemoryStats,
}

/// Bytes held by a device's live buffers.
#[derive(Default)]
pub struct MemoryStats {
    in_use: AtomicI64,
    peak: AtomicI64,
    allocs: AtomicI64,
    largest: AtomicI64,
}

impl MemoryStats {
    /// Accounts for a new buffer of `n` bytes.
    pub fn alloc(&self, n: usize) {
        let n = n as i64;
        let now = self.in_use.fetch_add(n, Ordering::Relaxed) + n;
        self.peak.fetch_max(now, Ordering::Relaxed);
        self.largest.fetch_max(n, Ordering::Relaxed);
        self.allocs.fetch_add(1, Ordering::Relaxed);
    }
    /// Accounts for a buffer of `n` bytes released.
    pub fn free(&self, n: usize) {
        self.in_use.fetch_sub(n as i64, Ordering::Relaxed);
    }
    pub fn in_use(&self) -> i64 {
        self.in_use.load(Ordering::Relaxed)
    }
}

/// `PJRT_Memory`. Starts with a function-table pointer, which the header (0.105+) puts first and the
/// framework may read; null means "no table".
#[repr(C)]
pub struct Memory {
    pub vtable: *const c_void,
    pub id: i32,
    pub kind_id: i32,
    pub device_index: usize,
    pub debug_string: String,
    pub to_string: String,
    /// The devices that can address it (as `PJRT_Device*`).
    pub devices: Vec<*mut c_void>,
}

impl Device {
    pub fn new(index: usize) -> Device {
        let id = index as i32;
        Device {
            desc: DeviceDescription {
                id,
                process_index: 0,
                kind: DEVICE_KIND.into(),
                debug_string: format!("oxhlo:{id}"),
                to_string: format!("OxhloDevice(id={id})"),
                attributes: NamedValues::new(&[("backend", Value::Str("interpreter".into()))]),
            },
            index,
            local_hardware_id: id,
            memories: Vec::new(),
            stats: MemoryStats::default(),
        }
    }
}

impl Memory {
    pub fn new(id: usize, device_index: usize) -> Memory {
        Memory {
            vtable: std::ptr::null(),
            id: id as i32,
            kind_id: 0,
            device_index,
            debug_string: format!("oxhlo memory {id} (kind \"{MEMORY_KIND}\") of device {device_index}"),
            to_string: format!("MEMORY_SPACE_{id}"),
            devices: Vec::new(),
        }
    }
}

/// The device behind a `PJRT_Device*`.
///
/// # Safety
/// `p` must be null or a `PJRT_Device*` of a live client of this plugin.
pub unsafe fn device<'a>(p: *mut c_void) -> Result<&'a Device> {
    (p as *const Device).as_ref().ok_or_else(|| Error::invalid("the PJRT_Device pointer is null"))
}

/// The description behind a `PJRT_DeviceDescription*`.
///
/// # Safety
/// As [`device`].
pub unsafe fn description<'a>(p: *mut c_void) -> Result<&'a DeviceDescription> {
    (p as *const DeviceDescription).as_ref().ok_or_else(|| Error::invalid("the PJRT_DeviceDescription pointer is null"))
}

/// The memory behind a `PJRT_Memory*`.
///
/// # Safety
/// As [`device`].
pub unsafe fn memory<'a>(p: *mut c_void) -> Result<&'a Memory> {
    (p as *const Memory).as_ref().ok_or_else(|| Error::invalid("the PJRT_Memory pointer is null"))
}

fn out_str(s: &str) -> (*const c_char, usize) {
    (s.as_ptr() as *const c_char, s.len())
}

// ------------------------------------------------------------------------------ device descriptions

pub unsafe extern "C" fn desc_id(args: *mut DescIntArgs) -> *mut c_void {
    guard("PJRT_DeviceDescription_Id", args, |a| {
        a.value = description(a.device_description)?.id;
        Ok(())
    })
}

pub unsafe extern "C" fn desc_process_index(args: *mut DescIntArgs) -> *mut c_void {
    guard("PJRT_DeviceDescription_ProcessIndex", args, |a| {
        a.value = description(a.device_description)?.process_index;
        Ok(())
    })
}

pub unsafe extern "C" fn desc_attributes(args: *mut DescAttributesArgs) -> *mut c_void {
    guard("PJRT_DeviceDescription_Attributes", args, |a| {
        let d = description(a.device_description)?;
        a.attributes = d.attributes.as_ptr();
        a.num_attributes = d.attributes.len();
        Ok(())
    })
}

pub unsafe extern "C" fn desc_kind(args: *mut DescStringArgs) -> *mut c_void {
    guard("PJRT_DeviceDescription_Kind", args, |a| {
        (a.value, a.value_size) = out_str(&description(a.device_description)?.kind);
        Ok(())
    })
}

pub unsafe extern "C" fn desc_debug_string(args: *mut DescStringArgs) -> *mut c_void {
    guard("PJRT_DeviceDescription_DebugString", args, |a| {
        (a.value, a.value_size) = out_str(&description(a.device_description)?.debug_string);
        Ok(())
    })
}

pub unsafe extern "C" fn desc_to_string(args: *mut DescStringArgs) -> *mut c_void {
    guard("PJRT_DeviceDescription_ToString", args, |a| {
        (a.value, a.value_size) = out_str(&description(a.device_description)?.to_string);
        Ok(())
    })
}

// ------------------------------------------------------------------------------------------ devices

pub unsafe extern "C" fn device_get_description(args: *mut DeviceHandleArgs) -> *mut c_void {
    guard("PJRT_Device_GetDescription", args, |a| {
        a.out = &device(a.device)?.desc as *const DeviceDescription as *mut c_void;
        Ok(())
    })
}

pub unsafe extern "C" fn device_is_addressable(args: *mut DeviceBoolArgs) -> *mut c_void {
    guard("PJRT_Device_IsAddressable", args, |a| {
        device(a.device)?;
        a.value = true;
        Ok(())
    })
}

pub unsafe extern "C" fn device_local_hardware_id(args: *mut DeviceIntArgs) -> *mut c_void {
    guard("PJRT_Device_LocalHardwareId", args, |a| {
        a.value = device(a.device)?.local_hardware_id;
        Ok(())
    })
}

pub unsafe extern "C" fn device_addressable_memories(args: *mut DeviceListArgs) -> *mut c_void {
    guard("PJRT_Device_AddressableMemories", args, |a| {
        let d = device(a.device)?;
        a.items = d.memories.as_ptr();
        a.num_items = d.memories.len();
        Ok(())
    })
}

pub unsafe extern "C" fn device_default_memory(args: *mut DeviceHandleArgs) -> *mut c_void {
    guard("PJRT_Device_DefaultMemory", args, |a| {
        let d = device(a.device)?;
        a.out = *d.memories.first().ok_or_else(|| Error::internal("device has no memory"))?;
        Ok(())
    })
}

/// `PJRT_Device_MemoryStats`: bytes held by the device's live buffers, their peak, allocation count and
/// largest allocation (written only as far as the caller's struct reaches).
pub unsafe extern "C" fn device_memory_stats(args: *mut DeviceMemoryStatsArgs) -> *mut c_void {
    guard("PJRT_Device_MemoryStats", args, |a| {
        let s = &device(a.device)?.stats;
        let mut out: DeviceMemoryStatsArgs = std::ptr::read(a);
        out.bytes_in_use = s.in_use();
        (out.peak_bytes_in_use, out.peak_bytes_in_use_is_set) = (s.peak.load(Ordering::Relaxed), true);
        (out.num_allocs, out.num_allocs_is_set) = (s.allocs.load(Ordering::Relaxed), true);
        (out.largest_alloc_size, out.largest_alloc_size_is_set) = (s.largest.load(Ordering::Relaxed), true);
        for flag in [
            &mut out.bytes_limit_is_set,
            &mut out.bytes_reserved_is_set,
            &mut out.peak_bytes_reserved_is_set,
            &mut out.bytes_reservable_limit_is_set,
            &mut out.largest_free_block_bytes_is_set,
            &mut out.pool_bytes_is_set,
            &mut out.peak_pool_bytes_is_set,
            &mut out.peak_allocated_bytes_is_set,
        ] {
            *flag = false;
        }
        // Copy back only the fields the caller's struct has (everything after the device pointer).
        let start = std::mem::offset_of!(DeviceMemoryStatsArgs, bytes_in_use);
        let end = a.struct_size.min(std::mem::size_of::<DeviceMemoryStatsArgs>());
        if end > start {
            let src = (&out as *const DeviceMemoryStatsArgs as *const u8).add(start);
            let dst = (a as *mut DeviceMemoryStatsArgs as *mut u8).add(start);
            std::ptr::copy_nonoverlapping(src, dst, end - start);
        }
        Ok(())
    })
}

/// `PJRT_Device_GetAttributes`: the description's attributes; they live as long as the device, so the
/// deleter has nothing to free.
pub unsafe extern "C" fn device_get_attributes(args: *mut DeviceGetAttributesArgs) -> *mut c_void {
    unsafe extern "C" fn no_op(_: *mut c_void) {}
    guard("PJRT_Device_GetAttributes", args, |a| {
        let d = device(a.device)?;
        a.attributes = d.desc.attributes.as_ptr();
        a.num_attributes = d.desc.attributes.len();
        a.device_attributes = std::ptr::null_mut();
        a.attributes_deleter = Some(no_op);
        Ok(())
    })
}

// ----------------------------------------------------------------------------------------- memories

pub unsafe extern "C" fn memory_id(args: *mut MemoryIntArgs) -> *mut c_void {
    guard("PJRT_Memory_Id", args, |a| {
        a.value = memory(a.memory)?.id;
        Ok(())
    })
}

pub unsafe extern "C" fn memory_kind(args: *mut MemoryStringArgs) -> *mut c_void {
    guard("PJRT_Memory_Kind", args, |a| {
        memory(a.memory)?;
        (a.value, a.value_size) = out_str(MEMORY_KIND);
        Ok(())
    })
}

pub unsafe extern "C" fn memory_kind_id(args: *mut MemoryIntArgs) -> *mut c_void {
    guard("PJRT_Memory_Kind_Id", args, |a| {
        a.value = memory(a.memory)?.kind_id;
        Ok(())
    })
}

pub unsafe extern "C" fn memory_debug_string(args: *mut MemoryStringArgs) -> *mut c_void {
    guard("PJRT_Memory_DebugString", args, |a| {
        (a.value, a.value_size) = out_str(&memory(a.memory)?.debug_string);
        Ok(())
    })
}

pub unsafe extern "C" fn memory_to_string(args: *mut MemoryStringArgs) -> *mut c_void {
    guard("PJRT_Memory_ToString", args, |a| {
        (a.value, a.value_size) = out_str(&memory(a.memory)?.to_string);
        Ok(())
    })
}

pub unsafe extern "C" fn memory_addressable_by_devices(args: *mut MemoryListArgs) -> *mut c_void {
    guard("PJRT_Memory_AddressableByDevices", args, |a| {
        let m = memory(a.memory)?;
        a.items = m.devices.as_ptr();
        a.num_items = m.devices.len();
        Ok(())
    })
}
