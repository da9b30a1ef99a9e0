//! The `PJRT_Api` function table (API 0.112: 138 slots, 1144 bytes), in the header's slot order, and
//! `GetPjrtApi`, the symbol the framework looks up after `dlopen`. Every slot is filled: implemented
//! entry points, or `stubs` answering UNIMPLEMENTED.

use crate::abi::{ApiVersion, ExtensionBase, ShardingsExtension, API_MAJOR, API_MINOR, EXTENSION_SHARDINGS};
use crate::layouts_ext::LayoutsExtension;
use crate::{buffer as b, client as c, device as d, error as e, event as ev, execute as x, executable as ex, plugin as p};
use crate::host_callbacks as hc;
use crate::stubs as s;
use std::ffi::c_void;
use std::sync::OnceLock;

/// A slot: any entry point, stored untyped (the framework calls it with its real signature).
pub type Slot = Option<unsafe extern "C" fn()>;

/// Turns a typed entry point (`fn(*mut Args) -> R`) into a slot.
pub trait Entry {
    fn slot(self) -> Slot;
}

impl<A, R> Entry for unsafe extern "C" fn(*mut A) -> R {
    fn slot(self) -> Slot {
        // SAFETY: function pointers all have the same size and representation; the framework calls the
        // slot with the signature the header declares for it, which is this function's signature.
        Some(unsafe { std::mem::transmute::<unsafe extern "C" fn(*mut A) -> R, unsafe extern "C" fn()>(self) })
    }
}

macro_rules! api_table {
    ($($field:ident = $f:path;)*) => {
        /// `PJRT_Api`.
        #[repr(C)]
        pub struct PjrtApi {
            pub struct_size: usize,
            pub extension_start: *mut c_void,
            pub pjrt_api_version: ApiVersion,
            $(pub $field: Slot,)*
        }

        fn build(extension_start: *mut c_void) -> PjrtApi {
            PjrtApi {
                struct_size: std::mem::size_of::<PjrtApi>(),
                extension_start,
                pjrt_api_version: ApiVersion {
                    struct_size: std::mem::size_of::<ApiVersion>(),
                    extension_start: std::ptr::null_mut(),
                    major_version: API_MAJOR,
                    minor_version: API_MINOR,
                },
                $($field: Entry::slot($f as unsafe extern "C" fn(*mut _) -> _),)*
            }
        }

        /// The header names of the slots, in order (for tests and logs).
        pub const SLOT_NAMES: &[&str] = &[$(stringify!($field),)*];
    };
}

api_table! {
    error_destroy = e::error_destroy;
    error_message = e::error_message;
    error_get_code = e::error_get_code;
    plugin_initialize = p::plugin_initialize;
    plugin_attributes = p::plugin_attributes;
    event_destroy = ev::event_destroy;
    event_is_ready = ev::event_is_ready;
    event_error = ev::event_error;
    event_await = ev::event_await;
    event_on_ready = ev::event_on_ready;
    client_create = c::client_create;
    client_destroy = c::client_destroy;
    client_platform_name = c::client_platform_name;
    client_process_index = c::client_process_index;
    client_platform_version = c::client_platform_version;
    client_devices = c::client_devices;
    client_addressable_devices = c::client_addressable_devices;
    client_lookup_device = c::client_lookup_device;
    client_lookup_addressable_device = c::client_lookup_addressable_device;
    client_addressable_memories = c::client_addressable_memories;
    client_compile = ex::client_compile;
    client_default_device_assignment = c::client_default_device_assignment;
    client_buffer_from_host_buffer = b::buffer_from_host;
    device_description_id = d::desc_id;
    device_description_process_index = d::desc_process_index;
    device_description_attributes = d::desc_attributes;
    device_description_kind = d::desc_kind;
    device_description_debug_string = d::desc_debug_string;
    device_description_to_string = d::desc_to_string;
    device_get_description = d::device_get_description;
    device_is_addressable = d::device_is_addressable;
    device_local_hardware_id = d::device_local_hardware_id;
    device_addressable_memories = d::device_addressable_memories;
    device_default_memory = d::device_default_memory;
    device_memory_stats = d::device_memory_stats;
    memory_id = d::memory_id;
    memory_kind = d::memory_kind;
    memory_debug_string = d::memory_debug_string;
    memory_to_string = d::memory_to_string;
    memory_addressable_by_devices = d::memory_addressable_by_devices;
    executable_destroy = ex::executable_destroy;
    executable_name = ex::executable_name;
    executable_num_replicas = ex::executable_num_replicas;
    executable_num_partitions = ex::executable_num_partitions;
    executable_num_outputs = ex::executable_num_outputs;
    executable_size_of_generated_code_in_bytes = ex::executable_code_size;
    executable_get_cost_analysis = ex::executable_cost_analysis;
    executable_output_memory_kinds = ex::executable_output_memory_kinds;
    executable_optimized_program = ex::executable_optimized_program;
    executable_serialize = ex::executable_serialize;
    loaded_executable_destroy = ex::loaded_destroy;
    loaded_executable_get_executable = ex::loaded_get_executable;
    loaded_executable_addressable_devices = ex::loaded_addressable_devices;
    loaded_executable_delete = ex::loaded_delete;
    loaded_executable_is_deleted = ex::loaded_is_deleted;
    loaded_executable_execute = x::loaded_execute;
    executable_deserialize_and_load = ex::executable_deserialize_and_load;
    loaded_executable_fingerprint = ex::loaded_fingerprint;
    buffer_destroy = b::buffer_destroy;
    buffer_element_type = b::buffer_element_type;
    buffer_dimensions = b::buffer_dimensions;
    buffer_unpadded_dimensions = b::buffer_unpadded_dimensions;
    buffer_dynamic_dimension_indices = b::buffer_dynamic_dimension_indices;
    buffer_get_memory_layout = b::buffer_get_memory_layout;
    buffer_on_device_size_in_bytes = b::buffer_on_device_size;
    buffer_device = b::buffer_device;
    buffer_memory = b::buffer_memory;
    buffer_delete = b::buffer_delete;
    buffer_is_deleted = b::buffer_is_deleted;
    buffer_copy_to_device = b::buffer_copy_to_device;
    buffer_to_host_buffer = b::buffer_to_host;
    buffer_is_on_cpu = b::buffer_is_on_cpu;
    buffer_ready_event = b::buffer_ready_event;
    buffer_unsafe_pointer = b::buffer_unsafe_pointer;
    buffer_increase_external_reference_count = b::buffer_increase_ref;
    buffer_decrease_external_reference_count = b::buffer_decrease_ref;
    buffer_opaque_device_memory_data_pointer = b::buffer_opaque_pointer;
    copy_to_device_stream_destroy = hc::stream_destroy;
    copy_to_device_stream_add_chunk = hc::stream_add_chunk;
    copy_to_device_stream_total_bytes = hc::stream_total_bytes;
    copy_to_device_stream_granule_size = hc::stream_granule_size;
    copy_to_device_stream_current_bytes = hc::stream_current_bytes;
    topology_description_create = s::topology_create;
    topology_description_destroy = s::topology_destroy;
    topology_description_platform_name = s::topology_platform_name;
    topology_description_platform_version = s::topology_platform_version;
    topology_description_get_device_descriptions = s::topology_device_descriptions;
    topology_description_serialize = s::topology_serialize;
    topology_description_attributes = s::topology_attributes;
    compile = s::compile_for_topology;
    executable_output_element_types = ex::executable_output_element_types;
    executable_output_dimensions = ex::executable_output_dimensions;
    buffer_copy_to_memory = b::buffer_copy_to_memory;
    client_create_view_of_device_buffer = s::client_create_view_of_device_buffer;
    executable_fingerprint = ex::executable_fingerprint;
    client_topology_description = s::client_topology_description;
    executable_get_compiled_memory_stats = ex::executable_compiled_memory_stats;
    memory_kind_id = d::memory_kind_id;
    execute_context_create = s::execute_context_create;
    execute_context_destroy = s::execute_context_destroy;
    buffer_copy_raw_to_host = b::buffer_copy_raw_to_host;
    async_h2d_destroy = s::h2d_destroy;
    async_h2d_transfer_data = s::h2d_transfer_data;
    client_create_buffers_for_async_host_to_device = s::client_create_buffers_for_async_h2d;
    async_h2d_retrieve_buffer = s::h2d_retrieve_buffer;
    async_h2d_device = s::h2d_device;
    async_h2d_buffer_count = s::h2d_buffer_count;
    async_h2d_buffer_size = s::h2d_buffer_size;
    async_h2d_set_buffer_error = s::h2d_set_buffer_error;
    async_h2d_add_metadata = s::h2d_add_metadata;
    client_dma_map = s::client_dma_map;
    client_dma_unmap = s::client_dma_unmap;
    client_create_uninitialized_buffer = b::create_uninitialized;
    client_update_global_process_info = s::client_update_global_process_info;
    topology_description_deserialize = s::topology_deserialize;
    client_create_alias_buffer = s::client_create_alias_buffer;
    client_fulfill_alias_buffer = s::client_fulfill_alias_buffer;
    loaded_executable_get_device_assignment = ex::loaded_device_assignment;
    client_create_error_buffer = s::client_create_error_buffer;
    async_h2d_transfer_literal = s::h2d_transfer_literal;
    buffer_copy_raw_to_host_future = s::buffer_copy_raw_to_host_future;
    device_poison_execution = s::device_poison_execution;
    device_create_async_tracking_event = s::device_create_async_tracking_event;
    async_tracking_event_destroy = s::async_tracking_event_destroy;
    executable_get_compile_options = ex::executable_get_compile_options;
    buffer_donate_with_control_dependency = s::buffer_donate_with_control_dependency;
    event_create = ev::event_create;
    event_set = ev::event_set;
    device_get_attributes = d::device_get_attributes;
    client_load = ex::client_load;
    loaded_executable_addressable_device_logical_ids = ex::loaded_logical_ids;
    buffer_bitcast = s::buffer_bitcast;
    error_for_each_payload = e::error_for_each_payload;
    topology_description_fingerprint = s::topology_fingerprint;
    executable_parameter_memory_kinds = ex::executable_parameter_memory_kinds;
    device_clear_memory_stats = s::device_clear_memory_stats;
    topology_description_make_canonical_shape_for_memory_space = s::topology_canonical_shape;
    topology_description_get_memory_space_kind_ids = s::topology_memory_space_kind_ids;
}

struct SyncApi(PjrtApi);
// SAFETY: the table is immutable after construction; its pointer field points to the immutable
// extension chain below, which lives for the whole process.
unsafe impl Sync for SyncApi {}
unsafe impl Send for SyncApi {}

struct SyncExt(ShardingsExtension, LayoutsExtension);
// SAFETY: immutable after construction; the layouts extension's `next` points to the shardings
// extension beside it, which lives as long (a process-wide static).
unsafe impl Sync for SyncExt {}
unsafe impl Send for SyncExt {}

/// The extension chain: the layouts extension (device layouts of buffers and executables), then the
/// shardings extension (parameter and output shardings of executables).
fn extensions() -> *mut c_void {
    static EXT: OnceLock<Box<SyncExt>> = OnceLock::new();
    let e = EXT.get_or_init(|| {
        let mut e = Box::new(SyncExt(
            ShardingsExtension {
                base: ExtensionBase {
                    struct_size: std::mem::size_of::<ShardingsExtension>(),
                    kind: EXTENSION_SHARDINGS,
                    next: std::ptr::null_mut(),
                },
                parameter_shardings: Some(ex::executable_parameter_shardings),
                output_shardings: Some(ex::executable_output_shardings),
            },
            LayoutsExtension::new(std::ptr::null_mut()),
        ));
        e.1.base.next = &mut e.0.base as *mut ExtensionBase;
        e
    });
    &e.1 as *const LayoutsExtension as *mut c_void
}

/// The process-wide table.
pub fn api() -> &'static PjrtApi {
    static API: OnceLock<SyncApi> = OnceLock::new();
    &API.get_or_init(|| SyncApi(build(extensions()))).0
}

/// `GetPjrtApi`: the entry symbol of a PJRT plugin.
#[no_mangle]
pub extern "C" fn GetPjrtApi() -> *const PjrtApi {
    match std::panic::catch_unwind(api) {
        Ok(a) => a,
        Err(_) => std::ptr::null(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_api_0_112() {
        assert_eq!(SLOT_NAMES.len(), 138);
        assert_eq!(std::mem::size_of::<PjrtApi>(), 1144);
        let a = api();
        assert_eq!(a.struct_size, 1144);
        assert_eq!((a.pjrt_api_version.major_version, a.pjrt_api_version.minor_version), (0, 112));
        let slots = unsafe { std::slice::from_raw_parts(&a.error_destroy as *const Slot, 138) };
        assert!(slots.iter().all(|s| s.is_some()));
        assert_eq!(std::mem::offset_of!(PjrtApi, error_for_each_payload), 40 + 132 * 8);
        assert_eq!(std::mem::offset_of!(PjrtApi, loaded_executable_get_device_assignment), 40 + 117 * 8);
    }
}
