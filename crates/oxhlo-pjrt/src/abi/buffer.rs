//! Argument structs of the buffer family: host transfers, layouts, queries.

use super::ExtPtr;
use std::ffi::c_void;

/// `PJRT_HostBufferSemantics`.
pub mod semantics {
    pub const IMMUTABLE_ONLY_DURING_CALL: i32 = 0;
    pub const IMMUTABLE_UNTIL_TRANSFER_COMPLETES: i32 = 1;
    pub const IMMUTABLE_ZERO_COPY: i32 = 2;
    pub const MUTABLE_ZERO_COPY: i32 = 3;
}

/// `PJRT_Buffer_MemoryLayout_Type`.
pub const LAYOUT_TILED: i32 = 0;
pub const LAYOUT_STRIDES: i32 = 1;

/// `PJRT_Buffer_MemoryLayout_Tiled`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct LayoutTiled {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub minor_to_major: *const i64,
    pub minor_to_major_size: usize,
    pub tile_dims: *const i64,
    pub tile_dim_sizes: *const usize,
    pub num_tiles: usize,
}

/// `PJRT_Buffer_MemoryLayout_Strides`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct LayoutStrides {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub byte_strides: *const i64,
    pub num_byte_strides: usize,
}

/// The union inside `PJRT_Buffer_MemoryLayout`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union LayoutUnion {
    pub tiled: LayoutTiled,
    pub strides: LayoutStrides,
}

/// `PJRT_Buffer_MemoryLayout`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct MemoryLayout {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub u: LayoutUnion,
    pub kind: i32,
}

/// `PJRT_Client_BufferFromHostBuffer_Args`.
#[repr(C)]
pub struct BufferFromHostArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub client: *mut c_void,
    pub data: *const c_void,
    pub kind: i32,
    pub dims: *const i64,
    pub num_dims: usize,
    pub byte_strides: *const i64,
    pub num_byte_strides: usize,
    pub host_buffer_semantics: i32,
    pub device: *mut c_void,
    pub memory: *mut c_void,
    pub device_layout: *mut MemoryLayout,
    pub done_with_host_buffer: *mut c_void,
    pub buffer: *mut c_void,
}

/// `PJRT_Client_CreateUninitializedBuffer_Args`.
#[repr(C)]
pub struct CreateUninitializedArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub client: *mut c_void,
    pub shape_dims: *const i64,
    pub shape_num_dims: usize,
    pub shape_element_type: i32,
    pub shape_layout: *mut MemoryLayout,
    pub device: *mut c_void,
    pub memory: *mut c_void,
    pub buffer: *mut c_void,
}

/// Every `{struct_size, extension_start, buffer}` struct (`PJRT_Buffer_Destroy_Args`, `_Delete_Args`, ...).
#[repr(C)]
pub struct BufferArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub buffer: *mut c_void,
}

/// `PJRT_Buffer_ElementType_Args`.
#[repr(C)]
pub struct BufferElementTypeArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub buffer: *mut c_void,
    pub kind: i32,
}

/// `PJRT_Buffer_Dimensions_Args` / `PJRT_Buffer_UnpaddedDimensions_Args`.
#[repr(C)]
pub struct BufferDimsArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub buffer: *mut c_void,
    pub dims: *const i64,
    pub num_dims: usize,
}

/// `PJRT_Buffer_DynamicDimensionIndices_Args`.
#[repr(C)]
pub struct BufferDynamicDimsArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub buffer: *mut c_void,
    pub dynamic_dim_indices: *const usize,
    pub num_dynamic_dims: usize,
}

/// `PJRT_Buffer_GetMemoryLayout_Args`.
#[repr(C)]
pub struct BufferGetLayoutArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub buffer: *mut c_void,
    pub layout: MemoryLayout,
}

/// `PJRT_Buffer_OnDeviceSizeInBytes_Args`.
#[repr(C)]
pub struct BufferSizeArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub buffer: *mut c_void,
    pub size: usize,
}

/// `PJRT_Buffer_IsDeleted_Args` / `PJRT_Buffer_IsOnCpu_Args`.
#[repr(C)]
pub struct BufferBoolArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub buffer: *mut c_void,
    pub value: bool,
}

/// `PJRT_Buffer_Device_Args` / `_Memory_Args` / `_ReadyEvent_Args`: a buffer and an out handle.
#[repr(C)]
pub struct BufferHandleArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub buffer: *mut c_void,
    pub out: *mut c_void,
}

/// `PJRT_Buffer_UnsafePointer_Args`.
#[repr(C)]
pub struct BufferPointerArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub buffer: *mut c_void,
    pub pointer: usize,
}

/// `PJRT_Buffer_ToHostBuffer_Args`.
#[repr(C)]
pub struct BufferToHostArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub src: *mut c_void,
    pub host_layout: *mut MemoryLayout,
    pub dst: *mut c_void,
    pub dst_size: usize,
    pub event: *mut c_void,
}

/// `PJRT_Buffer_CopyRawToHost_Args`.
#[repr(C)]
pub struct BufferCopyRawToHostArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub buffer: *mut c_void,
    pub dst: *mut c_void,
    pub offset: i64,
    pub transfer_size: i64,
    pub event: *mut c_void,
}

/// `PJRT_Buffer_CopyToDevice_Args` / `PJRT_Buffer_CopyToMemory_Args`.
#[repr(C)]
pub struct BufferCopyArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub buffer: *mut c_void,
    pub dst: *mut c_void,
    pub dst_buffer: *mut c_void,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn layouts_match_the_header() {
        assert_eq!(size_of::<LayoutTiled>(), 56);
        assert_eq!(size_of::<MemoryLayout>(), 80);
        assert_eq!(offset_of!(MemoryLayout, kind), 72);
        assert_eq!(size_of::<BufferFromHostArgs>(), 120);
        assert_eq!(offset_of!(BufferFromHostArgs, host_buffer_semantics), 72);
        assert_eq!(size_of::<BufferToHostArgs>(), 56);
        assert_eq!(size_of::<BufferGetLayoutArgs>(), 104);
    }
}
