//! Argument structs of the executable and loaded-executable families, and execution options.

use super::{ExtPtr, NamedValue};
use std::ffi::{c_char, c_void};

/// `PJRT_Executable_Destroy_Args`, `PJRT_LoadedExecutable_Destroy_Args`, `_Delete_Args`.
#[repr(C)]
pub struct ExecutableArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
}

/// `PJRT_LoadedExecutable_GetExecutable_Args`.
#[repr(C)]
pub struct LoadedGetExecutableArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub loaded_executable: *mut c_void,
    pub executable: *mut c_void,
}

/// `PJRT_LoadedExecutable_GetDeviceAssignment_Args`, `PJRT_Executable_Serialize_Args`,
/// `PJRT_Executable_GetCompileOptions_Args`: out bytes backed by an object with a deleter.
#[repr(C)]
pub struct SerializedBytesArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub bytes: *const c_char,
    pub bytes_size: usize,
    pub backing: *mut c_void,
    pub deleter: Option<unsafe extern "C" fn(*mut c_void)>,
}

/// `PJRT_Executable_Name_Args`, `PJRT_Executable_Fingerprint_Args`, `PJRT_LoadedExecutable_Fingerprint_Args`.
#[repr(C)]
pub struct ExecutableStringArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub value: *const c_char,
    pub value_size: usize,
}

/// `PJRT_Executable_NumReplicas_Args`, `_NumPartitions_Args`, `_NumOutputs_Args`.
#[repr(C)]
pub struct ExecutableSizeArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub value: usize,
}

/// `PJRT_Executable_SizeOfGeneratedCodeInBytes_Args`.
#[repr(C)]
pub struct ExecutableI64Args {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub value: i64,
}

/// `PJRT_LoadedExecutable_AddressableDevices_Args`.
#[repr(C)]
pub struct LoadedDevicesArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub items: *const *mut c_void,
    pub num_items: usize,
}

/// `PJRT_LogicalDeviceIds`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogicalDeviceIds {
    pub replica: i32,
    pub partition: i32,
}

/// `PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args`.
#[repr(C)]
pub struct LoadedLogicalIdsArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub ids: *mut LogicalDeviceIds,
    pub num_ids: usize,
}

/// `PJRT_Executable_OptimizedProgram_Args`.
#[repr(C)]
pub struct OptimizedProgramArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub program: *mut super::client::Program,
}

/// `PJRT_LoadedExecutable_IsDeleted_Args`.
#[repr(C)]
pub struct LoadedIsDeletedArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub is_deleted: bool,
}

/// `PJRT_Chunk`: bytes handed over together with their deleter.
#[repr(C)]
pub struct Chunk {
    pub data: *mut c_void,
    pub size: usize,
    pub deleter: Option<unsafe extern "C" fn(data: *mut c_void, deleter_arg: *mut c_void)>,
    pub deleter_arg: *mut c_void,
}

/// `PJRT_CallbackError`: makes a `PJRT_Error*` for a callback to return.
pub type CallbackError = unsafe extern "C" fn(code: i32, message: *const c_char, message_size: usize) -> *mut c_void;

/// `PJRT_SendCallback`.
pub type SendCallback = unsafe extern "C" fn(
    chunk: *mut Chunk,
    callback_error: *mut CallbackError,
    total_size_in_bytes: usize,
    done: bool,
    user_arg: *mut c_void,
) -> *mut c_void;

/// `PJRT_RecvCallback`: takes ownership of the stream.
pub type RecvCallback = unsafe extern "C" fn(stream: *mut c_void, user_arg: *mut c_void);

/// `PJRT_SendCallbackInfo`.
#[repr(C)]
pub struct SendCallbackInfo {
    pub channel_id: i64,
    pub user_arg: *mut c_void,
    pub send_callback: Option<SendCallback>,
}

/// `PJRT_RecvCallbackInfo`.
#[repr(C)]
pub struct RecvCallbackInfo {
    pub channel_id: i64,
    pub user_arg: *mut c_void,
    pub recv_callback: Option<RecvCallback>,
}

/// `PJRT_CopyToDeviceStream_Destroy_Args`.
#[repr(C)]
pub struct StreamArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub stream: *mut c_void,
}

/// `PJRT_CopyToDeviceStream_AddChunk_Args`.
#[repr(C)]
pub struct StreamAddChunkArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub stream: *mut c_void,
    pub chunk: *mut Chunk,
    pub transfer_complete: *mut c_void,
}

/// `PJRT_CopyToDeviceStream_TotalBytes_Args` / `_GranuleSize_Args` / `_CurrentBytes_Args`.
#[repr(C)]
pub struct StreamI64Args {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub stream: *mut c_void,
    pub value: i64,
}

/// `PJRT_ExecuteOptions`.
#[repr(C)]
pub struct ExecuteOptions {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub send_callbacks: *mut *mut SendCallbackInfo,
    pub recv_callbacks: *mut *mut RecvCallbackInfo,
    pub num_send_ops: usize,
    pub num_recv_ops: usize,
    pub launch_id: i32,
    pub non_donatable_input_indices: *const i64,
    pub num_non_donatable_input_indices: usize,
    pub context: *mut c_void,
    pub call_location: *const c_char,
    pub num_tasks: usize,
    pub task_ids: *mut i32,
    pub incarnation_ids: *mut i64,
    pub multi_slice_config: *mut c_void,
    pub use_major_to_minor_data_layout_for_callbacks: bool,
    pub hlo_output_callbacks: *mut c_void,
    pub num_hlo_output_callbacks: usize,
}

/// `PJRT_LoadedExecutable_Execute_Args`.
#[repr(C)]
pub struct ExecuteArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub options: *mut ExecuteOptions,
    pub argument_lists: *const *const *mut c_void,
    pub num_devices: usize,
    pub num_args: usize,
    pub output_lists: *const *mut *mut c_void,
    pub device_complete_events: *mut *mut c_void,
    pub execute_device: *mut c_void,
}

/// `PJRT_Executable_GetCostAnalysis_Args` (count before pointer).
#[repr(C)]
pub struct CostAnalysisArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub num_properties: usize,
    pub properties: *const NamedValue,
}

/// `PJRT_Executable_GetCompiledMemoryStats_Args`: byte counts, all written as i64.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CompiledMemoryStatsArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub generated_code_size_in_bytes: i64,
    pub argument_size_in_bytes: i64,
    pub output_size_in_bytes: i64,
    pub alias_size_in_bytes: i64,
    pub temp_size_in_bytes: i64,
    pub host_generated_code_size_in_bytes: i64,
    pub host_argument_size_in_bytes: i64,
    pub host_output_size_in_bytes: i64,
    pub host_alias_size_in_bytes: i64,
    pub host_temp_size_in_bytes: i64,
    pub peak_memory_in_bytes: i64,
    pub total_size_in_bytes: i64,
    pub total_allocation_bytes: i64,
    pub indefinite_allocations: i64,
    pub peak_unpadded_heap_bytes: i64,
}

/// `PJRT_Executable_OutputElementTypes_Args`.
#[repr(C)]
pub struct OutputElementTypesArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub output_types: *const i32,
    pub num_output_types: usize,
}

/// `PJRT_Executable_OutputDimensions_Args`.
#[repr(C)]
pub struct OutputDimensionsArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub num_outputs: usize,
    pub dims: *const i64,
    pub dim_sizes: *const usize,
}

/// `PJRT_Executable_OutputMemoryKinds_Args` / `PJRT_Executable_ParameterMemoryKinds_Args`.
#[repr(C)]
pub struct MemoryKindsArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub num: usize,
    pub memory_kinds: *const *const c_char,
    pub memory_kind_sizes: *const usize,
}

/// `PJRT_Executable_DeserializeAndLoad_Args`.
#[repr(C)]
pub struct DeserializeAndLoadArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub client: *mut c_void,
    pub serialized_executable: *const c_char,
    pub serialized_executable_size: usize,
    pub loaded_executable: *mut c_void,
    pub overridden_serialized_compile_options: *const c_char,
    pub overridden_serialized_compile_options_size: usize,
    pub load_options: *mut c_void,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn layouts_match_the_header() {
        // jaxlib 0.10.2 passes ExecuteOptions.struct_size 144.
        assert_eq!(size_of::<ExecuteOptions>(), 144);
        assert_eq!(offset_of!(ExecuteOptions, non_donatable_input_indices), 56);
        assert_eq!(offset_of!(ExecuteOptions, call_location), 80);
        assert_eq!(size_of::<ExecuteArgs>(), 80);
        assert_eq!(size_of::<SerializedBytesArgs>(), 56);
        assert_eq!(size_of::<OutputDimensionsArgs>(), 48);
        assert_eq!(size_of::<SendCallbackInfo>(), 24);
        assert_eq!(size_of::<Chunk>(), 32);
    }
}
