//! The client (`PJRT_Client`): the device list (`OXHLO_NUM_DEVICES`, or the `num_devices` create
//! option), the memories, the backend and its compile cache, and the client entry points other than
//! buffer creation (in `buffer`) and compilation (in `executable`).

use crate::abi::client::{
    ClientArgs, ClientCreateArgs, ClientDefaultDeviceAssignmentArgs, ClientListArgs, ClientLookupDeviceArgs,
    ClientProcessIndexArgs, ClientStringArgs,
};
use crate::attrs::{self, Value};
use crate::device::{Device, Memory};
use crate::engine::{self, Backend};
use crate::error::{guard, Error, Result};
use crate::executable::Compiled;
use crate::log;
use std::collections::HashMap;
use std::ffi::{c_char, c_void};
use std::sync::{Arc, Mutex};

/// The platform name JAX sees (`jax.devices()[0].platform`).
pub const PLATFORM_NAME: &str = "oxhlo";
/// Most devices a client may expose.
pub const MAX_DEVICES: usize = 4096;

/// Everything a client owns; shared with its buffers and executables so none outlives the devices.
pub struct ClientInner {
    pub devices: Vec<Box<Device>>,
    pub memories: Vec<Box<Memory>>,
    /// The devices as `PJRT_Device*`, in id order.
    pub device_ptrs: Vec<*mut c_void>,
    /// The memories as `PJRT_Memory*`.
    pub memory_ptrs: Vec<*mut c_void>,
    pub platform_version: String,
    pub backend: Box<dyn Backend>,
    /// Compiled programs by (program, options) hash.
    pub cache: Mutex<HashMap<u64, Arc<Compiled>>>,
}

// SAFETY: the raw pointers point into boxes owned by this struct, which is immutable after creation;
// the mutable state (the cache) is behind a mutex.
unsafe impl Send for ClientInner {}
unsafe impl Sync for ClientInner {}

impl ClientInner {
    /// A client with `n` devices running `backend`.
    pub fn new(n: usize, backend: Box<dyn Backend>) -> Result<ClientInner> {
        if n == 0 || n > MAX_DEVICES {
            return Err(Error::invalid(format!("oxhlo: the number of devices must be between 1 and {MAX_DEVICES}, got {n}")));
        }
        let mut devices: Vec<Box<Device>> = (0..n).map(|i| Box::new(Device::new(i))).collect();
        let mut memories: Vec<Box<Memory>> = (0..n).map(|i| Box::new(Memory::new(i, i))).collect();
        let device_ptrs: Vec<*mut c_void> = devices.iter_mut().map(|d| &mut **d as *mut Device as *mut c_void).collect();
        let memory_ptrs: Vec<*mut c_void> = memories.iter_mut().map(|m| &mut **m as *mut Memory as *mut c_void).collect();
        for i in 0..n {
            devices[i].memories.push(memory_ptrs[i]);
            memories[i].devices.push(device_ptrs[i]);
        }
        let platform_version = backend.describe();
        Ok(ClientInner { devices, memories, device_ptrs, memory_ptrs, platform_version, backend, cache: Mutex::default() })
    }

    /// The index of a `PJRT_Device*` of this client.
    pub fn device_index(&self, p: *mut c_void) -> Result<usize> {
        self.device_ptrs
            .iter()
            .position(|&d| d == p)
            .ok_or_else(|| Error::invalid(format!("device {p:?} does not belong to this oxhlo client")))
    }

    /// The device index of a `PJRT_Memory*` of this client.
    pub fn memory_device(&self, p: *mut c_void) -> Result<usize> {
        let i = self
            .memory_ptrs
            .iter()
            .position(|&m| m == p)
            .ok_or_else(|| Error::invalid(format!("memory {p:?} does not belong to this oxhlo client")))?;
        Ok(self.memories[i].device_index)
    }

    /// The device a transfer targets: `memory` if given, else `device`, else device 0.
    pub fn target_device(&self, device: *mut c_void, memory: *mut c_void) -> Result<usize> {
        if !memory.is_null() {
            self.memory_device(memory)
        } else if !device.is_null() {
            self.device_index(device)
        } else {
            Ok(0)
        }
    }
}

/// The object behind a `PJRT_Client*`.
pub struct Client {
    pub inner: Arc<ClientInner>,
}

/// The client behind a `PJRT_Client*`.
///
/// # Safety
/// `p` must be null or a live `PJRT_Client*` of this plugin.
pub unsafe fn client<'a>(p: *mut c_void) -> Result<&'a Client> {
    (p as *const Client).as_ref().ok_or_else(|| Error::invalid("the PJRT_Client pointer is null"))
}

/// The number of devices: the `num_devices` create option, else `OXHLO_NUM_DEVICES`, else 1.
pub fn device_count(options: &[(String, Value)]) -> Result<usize> {
    for (k, v) in options {
        if k == "num_devices" {
            return match v {
                Value::Int(n) if *n > 0 => Ok(*n as usize),
                Value::Str(s) => parse_count(s, "the num_devices option"),
                other => Err(Error::invalid(format!("oxhlo: the num_devices option must be a positive integer, got {other:?}"))),
            };
        }
    }
    match std::env::var("OXHLO_NUM_DEVICES") {
        Ok(s) if !s.trim().is_empty() => parse_count(&s, "OXHLO_NUM_DEVICES"),
        _ => Ok(1),
    }
}

fn parse_count(s: &str, what: &str) -> Result<usize> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_DEVICES).contains(&n) => Ok(n),
        _ => Err(Error::invalid(format!("oxhlo: {what} must be an integer between 1 and {MAX_DEVICES}, got {s:?}"))),
    }
}

/// Makes a `PJRT_Client*` with the given backend (used by `PJRT_Client_Create` and by tests).
pub fn create_raw(n: usize, backend: Box<dyn Backend>) -> Result<*mut c_void> {
    let inner = Arc::new(ClientInner::new(n, backend)?);
    log::info(|| format!("created a client with {n} device(s): {}", inner.platform_version));
    Ok(Box::into_raw(Box::new(Client { inner })) as *mut c_void)
}

pub unsafe extern "C" fn client_create(args: *mut ClientCreateArgs) -> *mut c_void {
    guard("PJRT_Client_Create", args, |a| {
        let options = attrs::read(a.create_options, a.num_options);
        log::debug(|| format!("create options: {options:?}"));
        let n = device_count(&options)?;
        a.client = create_raw(n, engine::default_backend())?;
        Ok(())
    })
}

pub unsafe extern "C" fn client_destroy(args: *mut ClientArgs) -> *mut c_void {
    guard("PJRT_Client_Destroy", args, |a| {
        if !a.client.is_null() {
            drop(Box::from_raw(a.client as *mut Client));
        }
        Ok(())
    })
}

pub unsafe extern "C" fn client_platform_name(args: *mut ClientStringArgs) -> *mut c_void {
    guard("PJRT_Client_PlatformName", args, |a| {
        client(a.client)?;
        a.value = PLATFORM_NAME.as_ptr() as *const c_char;
        a.value_size = PLATFORM_NAME.len();
        Ok(())
    })
}

pub unsafe extern "C" fn client_platform_version(args: *mut ClientStringArgs) -> *mut c_void {
    guard("PJRT_Client_PlatformVersion", args, |a| {
        let c = client(a.client)?;
        a.value = c.inner.platform_version.as_ptr() as *const c_char;
        a.value_size = c.inner.platform_version.len();
        Ok(())
    })
}

pub unsafe extern "C" fn client_process_index(args: *mut ClientProcessIndexArgs) -> *mut c_void {
    guard("PJRT_Client_ProcessIndex", args, |a| {
        client(a.client)?;
        a.process_index = 0;
        Ok(())
    })
}

pub unsafe extern "C" fn client_devices(args: *mut ClientListArgs) -> *mut c_void {
    guard("PJRT_Client_Devices", args, |a| {
        let c = client(a.client)?;
        a.items = c.inner.device_ptrs.as_ptr();
        a.num_items = c.inner.device_ptrs.len();
        Ok(())
    })
}

pub unsafe extern "C" fn client_addressable_devices(args: *mut ClientListArgs) -> *mut c_void {
    guard("PJRT_Client_AddressableDevices", args, |a| {
        let c = client(a.client)?;
        a.items = c.inner.device_ptrs.as_ptr();
        a.num_items = c.inner.device_ptrs.len();
        Ok(())
    })
}

pub unsafe extern "C" fn client_addressable_memories(args: *mut ClientListArgs) -> *mut c_void {
    guard("PJRT_Client_AddressableMemories", args, |a| {
        let c = client(a.client)?;
        a.items = c.inner.memory_ptrs.as_ptr();
        a.num_items = c.inner.memory_ptrs.len();
        Ok(())
    })
}

fn lookup(c: &Client, id: i32) -> Result<*mut c_void> {
    usize::try_from(id)
        .ok()
        .and_then(|i| c.inner.device_ptrs.get(i).copied())
        .ok_or_else(|| Error::invalid(format!("oxhlo has no device with id {id} ({} devices)", c.inner.device_ptrs.len())))
}

pub unsafe extern "C" fn client_lookup_device(args: *mut ClientLookupDeviceArgs) -> *mut c_void {
    guard("PJRT_Client_LookupDevice", args, |a| {
        a.device = lookup(client(a.client)?, a.id)?;
        Ok(())
    })
}

pub unsafe extern "C" fn client_lookup_addressable_device(args: *mut ClientLookupDeviceArgs) -> *mut c_void {
    guard("PJRT_Client_LookupAddressableDevice", args, |a| {
        a.device = lookup(client(a.client)?, a.id)?;
        Ok(())
    })
}

pub unsafe extern "C" fn client_default_device_assignment(args: *mut ClientDefaultDeviceAssignmentArgs) -> *mut c_void {
    guard("PJRT_Client_DefaultDeviceAssignment", args, |a| {
        let c = client(a.client)?;
        let (r, p) = (a.num_replicas.max(0) as usize, a.num_partitions.max(0) as usize);
        let n = r * p;
        if n > c.inner.devices.len() {
            return Err(Error::invalid(format!(
                "{r} replicas x {p} partitions need {n} devices, but oxhlo has {} (set OXHLO_NUM_DEVICES)",
                c.inner.devices.len()
            )));
        }
        if a.default_assignment_size < n || (n > 0 && a.default_assignment.is_null()) {
            return Err(Error::invalid("PJRT_Client_DefaultDeviceAssignment: the output array is too small"));
        }
        let out = std::slice::from_raw_parts_mut(a.default_assignment, n);
        for (i, o) in out.iter_mut().enumerate() {
            *o = i as i32;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_count_prefers_the_option() {
        assert_eq!(device_count(&[("num_devices".into(), Value::Int(3))]).unwrap(), 3);
        assert_eq!(device_count(&[("num_devices".into(), Value::Str("5".into()))]).unwrap(), 5);
        assert!(device_count(&[("num_devices".into(), Value::Int(0))]).is_err());
        assert!(parse_count("lots", "x").is_err());
    }
}
