//! Entry points oxhlo does not implement: each returns an UNIMPLEMENTED error naming the function, so
//! no slot of the API table is ever null.

use crate::error::{guard, Error};
use std::ffi::c_void;

macro_rules! unimplemented_entries {
    ($($fn_name:ident => $c_name:literal,)*) => {
        $(
            #[doc = concat!("`", $c_name, "`: answers UNIMPLEMENTED.")]
            pub unsafe extern "C" fn $fn_name(args: *mut c_void) -> *mut c_void {
                guard($c_name, args, |_| {
                    Err(Error::unimplemented(concat!("oxhlo does not implement ", $c_name)))
                })
            }
        )*
    };
}

unimplemented_entries! {
    client_topology_description => "PJRT_Client_TopologyDescription",
    client_create_view_of_device_buffer => "PJRT_Client_CreateViewOfDeviceBuffer",
    client_create_buffers_for_async_h2d => "PJRT_Client_CreateBuffersForAsyncHostToDevice",
    client_dma_map => "PJRT_Client_DmaMap",
    client_dma_unmap => "PJRT_Client_DmaUnmap",
    client_update_global_process_info => "PJRT_Client_UpdateGlobalProcessInfo",
    client_create_alias_buffer => "PJRT_Client_CreateAliasBuffer",
    client_fulfill_alias_buffer => "PJRT_Client_FulfillAliasBuffer",
    client_create_error_buffer => "PJRT_Client_CreateErrorBuffer",
    device_clear_memory_stats => "PJRT_Device_ClearMemoryStats",
    device_poison_execution => "PJRT_Device_PoisonExecution",
    device_create_async_tracking_event => "PJRT_Device_CreateAsyncTrackingEvent",
    async_tracking_event_destroy => "PJRT_AsyncTrackingEvent_Destroy",
    execute_context_create => "PJRT_ExecuteContext_Create",
    execute_context_destroy => "PJRT_ExecuteContext_Destroy",
    buffer_copy_raw_to_host_future => "PJRT_Buffer_CopyRawToHostFuture",
    buffer_donate_with_control_dependency => "PJRT_Buffer_DonateWithControlDependency",
    buffer_bitcast => "PJRT_Buffer_Bitcast",
    h2d_destroy => "PJRT_AsyncHostToDeviceTransferManager_Destroy",
    h2d_transfer_data => "PJRT_AsyncHostToDeviceTransferManager_TransferData",
    h2d_retrieve_buffer => "PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer",
    h2d_device => "PJRT_AsyncHostToDeviceTransferManager_Device",
    h2d_buffer_count => "PJRT_AsyncHostToDeviceTransferManager_BufferCount",
    h2d_buffer_size => "PJRT_AsyncHostToDeviceTransferManager_BufferSize",
    h2d_set_buffer_error => "PJRT_AsyncHostToDeviceTransferManager_SetBufferError",
    h2d_add_metadata => "PJRT_AsyncHostToDeviceTransferManager_AddMetadata",
    h2d_transfer_literal => "PJRT_AsyncHostToDeviceTransferManager_TransferLiteral",
    topology_create => "PJRT_TopologyDescription_Create",
    topology_destroy => "PJRT_TopologyDescription_Destroy",
    topology_platform_name => "PJRT_TopologyDescription_PlatformName",
    topology_platform_version => "PJRT_TopologyDescription_PlatformVersion",
    topology_device_descriptions => "PJRT_TopologyDescription_GetDeviceDescriptions",
    topology_serialize => "PJRT_TopologyDescription_Serialize",
    topology_attributes => "PJRT_TopologyDescription_Attributes",
    topology_deserialize => "PJRT_TopologyDescription_Deserialize",
    topology_fingerprint => "PJRT_TopologyDescription_Fingerprint",
    topology_canonical_shape => "PJRT_TopologyDescription_MakeCanonicalShapeForMemorySpace",
    topology_memory_space_kind_ids => "PJRT_TopologyDescription_GetMemorySpaceKindIds",
    compile_for_topology => "PJRT_Compile",
}
