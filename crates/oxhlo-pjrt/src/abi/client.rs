//! Argument structs of the client, device, device-description, memory and topology families.

use super::{ExtPtr, NamedValue};
use std::ffi::{c_char, c_void};

/// `PJRT_Client_Create_Args` (the key-value store callbacks are not used by a single-process plugin).
#[repr(C)]
pub struct ClientCreateArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub create_options: *const NamedValue,
    pub num_options: usize,
    pub kv_get_callback: *mut c_void,
    pub kv_get_user_arg: *mut c_void,
    pub kv_put_callback: *mut c_void,
    pub kv_put_user_arg: *mut c_void,
    pub client: *mut c_void,
    pub kv_try_get_callback: *mut c_void,
    pub kv_try_get_user_arg: *mut c_void,
}

/// Every `{struct_size, extension_start, client}` argument struct (`PJRT_Client_Destroy_Args`, ...).
#[repr(C)]
pub struct ClientArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub client: *mut c_void,
}

/// `PJRT_Client_PlatformName_Args` / `PJRT_Client_PlatformVersion_Args`: a client and an out string.
#[repr(C)]
pub struct ClientStringArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub client: *mut c_void,
    pub value: *const c_char,
    pub value_size: usize,
}

/// `PJRT_Client_ProcessIndex_Args`.
#[repr(C)]
pub struct ClientProcessIndexArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub client: *mut c_void,
    pub process_index: i32,
}

/// `PJRT_Client_Devices_Args`, `PJRT_Client_AddressableDevices_Args`, `PJRT_Client_AddressableMemories_Args`:
/// a client and an out list of handles.
#[repr(C)]
pub struct ClientListArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub client: *mut c_void,
    pub items: *const *mut c_void,
    pub num_items: usize,
}

/// `PJRT_Client_LookupDevice_Args` / `PJRT_Client_LookupAddressableDevice_Args`.
#[repr(C)]
pub struct ClientLookupDeviceArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub client: *mut c_void,
    pub id: i32,
    pub device: *mut c_void,
}

/// `PJRT_Client_TopologyDescription_Args`.
#[repr(C)]
pub struct ClientTopologyArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub client: *mut c_void,
    pub topology: *mut c_void,
}

/// `PJRT_Program`.
#[repr(C)]
pub struct Program {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub code: *mut c_char,
    pub code_size: usize,
    pub format: *const c_char,
    pub format_size: usize,
}

/// `PJRT_Client_Compile_Args`.
#[repr(C)]
pub struct ClientCompileArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub client: *mut c_void,
    pub program: *const Program,
    pub compile_options: *const c_char,
    pub compile_options_size: usize,
    pub executable: *mut c_void,
}

/// `PJRT_Client_DefaultDeviceAssignment_Args`.
#[repr(C)]
pub struct ClientDefaultDeviceAssignmentArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub client: *mut c_void,
    pub num_replicas: i32,
    pub num_partitions: i32,
    pub default_assignment_size: usize,
    pub default_assignment: *mut i32,
}

/// `PJRT_Client_Load_Args`.
#[repr(C)]
pub struct ClientLoadArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub client: *mut c_void,
    pub executable: *mut c_void,
    pub compile_options: *const c_char,
    pub compile_options_size: usize,
    pub loaded_executable: *mut c_void,
}

// ------------------------------------------------------------------------------ device descriptions

/// `PJRT_DeviceDescription_Id_Args` / `_ProcessIndex_Args`: a description and an out int.
#[repr(C)]
pub struct DescIntArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub device_description: *mut c_void,
    pub value: i32,
}

/// `PJRT_DeviceDescription_Attributes_Args` (note: the count comes before the pointer here).
#[repr(C)]
pub struct DescAttributesArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub device_description: *mut c_void,
    pub num_attributes: usize,
    pub attributes: *const NamedValue,
}

/// `PJRT_DeviceDescription_Kind_Args` / `_DebugString_Args` / `_ToString_Args`.
#[repr(C)]
pub struct DescStringArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub device_description: *mut c_void,
    pub value: *const c_char,
    pub value_size: usize,
}

// ------------------------------------------------------------------------------------------ devices

/// `PJRT_Device_GetDescription_Args` / `PJRT_Device_DefaultMemory_Args`: a device and an out handle.
#[repr(C)]
pub struct DeviceHandleArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub device: *mut c_void,
    pub out: *mut c_void,
}

/// `PJRT_Device_IsAddressable_Args`.
#[repr(C)]
pub struct DeviceBoolArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub device: *mut c_void,
    pub value: bool,
}

/// `PJRT_Device_LocalHardwareId_Args`.
#[repr(C)]
pub struct DeviceIntArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub device: *mut c_void,
    pub value: i32,
}

/// `PJRT_Device_AddressableMemories_Args`.
#[repr(C)]
pub struct DeviceListArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub device: *mut c_void,
    pub items: *const *mut c_void,
    pub num_items: usize,
}

/// `PJRT_Device_MemoryStats_Args`: `bytes_in_use` and optional statistics, each with an `_is_set` flag.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct DeviceMemoryStatsArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub device: *mut c_void,
    pub bytes_in_use: i64,
    pub peak_bytes_in_use: i64,
    pub peak_bytes_in_use_is_set: bool,
    pub num_allocs: i64,
    pub num_allocs_is_set: bool,
    pub largest_alloc_size: i64,
    pub largest_alloc_size_is_set: bool,
    pub bytes_limit: i64,
    pub bytes_limit_is_set: bool,
    pub bytes_reserved: i64,
    pub bytes_reserved_is_set: bool,
    pub peak_bytes_reserved: i64,
    pub peak_bytes_reserved_is_set: bool,
    pub bytes_reservable_limit: i64,
    pub bytes_reservable_limit_is_set: bool,
    pub largest_free_block_bytes: i64,
    pub largest_free_block_bytes_is_set: bool,
    pub pool_bytes: i64,
    pub pool_bytes_is_set: bool,
    pub peak_pool_bytes: i64,
    pub peak_pool_bytes_is_set: bool,
    pub peak_allocated_bytes: i64,
    pub peak_allocated_bytes_is_set: bool,
}

/// `PJRT_Device_GetAttributes_Args`.
#[repr(C)]
pub struct DeviceGetAttributesArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub device: *mut c_void,
    pub attributes: *const NamedValue,
    pub num_attributes: usize,
    pub device_attributes: *mut c_void,
    pub attributes_deleter: Option<unsafe extern "C" fn(*mut c_void)>,
}

// ----------------------------------------------------------------------------------------- memories

/// `PJRT_Memory_Id_Args` / `PJRT_Memory_Kind_Id_Args`.
#[repr(C)]
pub struct MemoryIntArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub memory: *mut c_void,
    pub value: i32,
}

/// `PJRT_Memory_Kind_Args` / `_DebugString_Args` / `_ToString_Args`.
#[repr(C)]
pub struct MemoryStringArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub memory: *mut c_void,
    pub value: *const c_char,
    pub value_size: usize,
}

/// `PJRT_Memory_AddressableByDevices_Args`.
#[repr(C)]
pub struct MemoryListArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub memory: *mut c_void,
    pub items: *const *mut c_void,
    pub num_items: usize,
}

// ----------------------------------------------------------------------------------------- topology

/// `PJRT_TopologyDescription_Create_Args`.
#[repr(C)]
pub struct TopologyCreateArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub topology_name: *const c_char,
    pub topology_name_size: usize,
    pub create_options: *const NamedValue,
    pub num_options: usize,
    pub topology: *mut c_void,
}

/// `PJRT_TopologyDescription_Destroy_Args`.
#[repr(C)]
pub struct TopologyArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub topology: *mut c_void,
}

/// `PJRT_TopologyDescription_PlatformName_Args` / `_PlatformVersion_Args`.
#[repr(C)]
pub struct TopologyStringArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub topology: *mut c_void,
    pub value: *const c_char,
    pub value_size: usize,
}

/// `PJRT_TopologyDescription_GetDeviceDescriptions_Args`.
#[repr(C)]
pub struct TopologyDescriptionsArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub topology: *mut c_void,
    pub descriptions: *const *mut c_void,
    pub num_descriptions: usize,
}

/// `PJRT_TopologyDescription_Attributes_Args`.
#[repr(C)]
pub struct TopologyAttributesArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub topology: *mut c_void,
    pub attributes: *const NamedValue,
    pub num_attributes: usize,
}

/// `PJRT_TopologyDescription_Serialize_Args`.
#[repr(C)]
pub struct TopologySerializeArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub topology: *mut c_void,
    pub serialized_bytes: *const c_char,
    pub serialized_bytes_size: usize,
    pub serialized_topology: *mut c_void,
    pub serialized_topology_deleter: Option<unsafe extern "C" fn(*mut c_void)>,
}

/// `PJRT_TopologyDescription_Deserialize_Args`.
#[repr(C)]
pub struct TopologyDeserializeArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub serialized_topology: *const c_char,
    pub serialized_topology_size: usize,
    pub topology: *mut c_void,
}

/// `PJRT_TopologyDescription_Fingerprint_Args`.
#[repr(C)]
pub struct TopologyFingerprintArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub topology: *mut c_void,
    pub fingerprint: u64,
}

/// `PJRT_Compile_Args` (compile against a topology, without a client).
#[repr(C)]
pub struct CompileArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub topology: *const c_void,
    pub program: *const Program,
    pub compile_options: *const c_char,
    pub compile_options_size: usize,
    pub client: *mut c_void,
    pub executable: *mut c_void,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    #[test]
    fn layouts_match_the_header() {
        // The framework of jaxlib 0.10.2 passes struct_size 88.
        assert_eq!(size_of::<ClientCreateArgs>(), 88);
        assert_eq!(size_of::<ClientCompileArgs>(), 56);
        assert_eq!(size_of::<Program>(), 48);
        assert_eq!(size_of::<DeviceGetAttributesArgs>(), 56);
        assert_eq!(size_of::<ClientLookupDeviceArgs>(), 40);
        assert_eq!(size_of::<DeviceMemoryStatsArgs>(), 24 + 8 + 11 * 16);
    }
}
