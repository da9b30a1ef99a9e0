//! `#[repr(C)]` mirrors of the PJRT C API structs this plugin reads and writes (API 0.112), written from
//! the layout of `xla/pjrt/c/pjrt_c_api.h`. Every argument struct starts with `struct_size` and
//! `extension_start`; the caller's `struct_size` tells which trailing fields it knows about
//! ([`has_field`]). Opaque handle types (`PJRT_Client`, `PJRT_Buffer`, ...) are the plugin's own Rust
//! objects behind raw pointers, see the modules that own them.
//!
//! This module holds the shared pieces (version, named values, errors, events, plugin); the argument
//! structs of each API family live in the submodules.

#![allow(dead_code)]

pub mod buffer;
pub mod client;
pub mod exec;

use std::ffi::{c_char, c_void};

/// `PJRT_API_MAJOR` this plugin implements.
pub const API_MAJOR: i32 = 0;
/// `PJRT_API_MINOR` this plugin implements (the version jaxlib 0.10.2's framework has).
pub const API_MINOR: i32 = 112;

/// `PJRT_Extension_Base*`: the plugin reads no extensions, so it stays opaque.
pub type ExtPtr = *mut c_void;

/// Error codes (`PJRT_Error_Code`), the absl status codes.
pub mod code {
    pub const OK: i32 = 0;
    pub const CANCELLED: i32 = 1;
    pub const UNKNOWN: i32 = 2;
    pub const INVALID_ARGUMENT: i32 = 3;
    pub const NOT_FOUND: i32 = 5;
    pub const FAILED_PRECONDITION: i32 = 9;
    pub const OUT_OF_RANGE: i32 = 11;
    pub const UNIMPLEMENTED: i32 = 12;
    pub const INTERNAL: i32 = 13;
}

/// True when a struct whose caller-declared size is `struct_size` contains the field that starts at
/// `offset` and is `size` bytes long.
pub fn has_field(struct_size: usize, offset: usize, size: usize) -> bool {
    struct_size >= offset + size
}

/// `PJRT_Extension_Base`: the header of every extension in the chain `PJRT_Api.extension_start`.
#[repr(C)]
pub struct ExtensionBase {
    pub struct_size: usize,
    pub kind: i32,
    pub next: *mut ExtensionBase,
}

/// `PJRT_Extension_Type_Shardings`.
pub const EXTENSION_SHARDINGS: i32 = 19;

/// `PJRT_Shardings_PJRT_Executable_ParameterShardings_Args` / `..._OutputShardings_Args`.
#[repr(C)]
pub struct ShardingsArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub executable: *mut c_void,
    pub num: usize,
    pub shardings: *const *const c_char,
    pub sharding_sizes: *const usize,
}

/// `PJRT_Shardings_Extension`.
#[repr(C)]
pub struct ShardingsExtension {
    pub base: ExtensionBase,
    pub parameter_shardings: Option<unsafe extern "C" fn(*mut ShardingsArgs) -> *mut c_void>,
    pub output_shardings: Option<unsafe extern "C" fn(*mut ShardingsArgs) -> *mut c_void>,
}

/// `PJRT_Api_Version`.
#[repr(C)]
pub struct ApiVersion {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub major_version: i32,
    pub minor_version: i32,
}

/// `PJRT_NamedValue_Type`.
pub mod named_type {
    pub const STRING: i32 = 0;
    pub const INT64: i32 = 1;
    pub const INT64_LIST: i32 = 2;
    pub const FLOAT: i32 = 3;
    pub const BOOL: i32 = 4;
}

/// The value union of a `PJRT_NamedValue` (8 bytes).
#[repr(C)]
#[derive(Clone, Copy)]
pub union NamedValueUnion {
    pub string_value: *const c_char,
    pub int64_value: i64,
    pub int64_array_value: *const i64,
    pub float_value: f32,
    pub bool_value: bool,
}

/// `PJRT_NamedValue`: a key and a typed value; `value_size` counts string bytes or list elements.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct NamedValue {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub name: *const c_char,
    pub name_size: usize,
    pub kind: i32,
    pub value: NamedValueUnion,
    pub value_size: usize,
}

// ----------------------------------------------------------------------------------------- errors

/// `PJRT_Error_Destroy_Args`.
#[repr(C)]
pub struct ErrorDestroyArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub error: *mut c_void,
}

/// `PJRT_Error_Message_Args`.
#[repr(C)]
pub struct ErrorMessageArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub error: *const c_void,
    pub message: *const c_char,
    pub message_size: usize,
}

/// `PJRT_Error_GetCode_Args`.
#[repr(C)]
pub struct ErrorGetCodeArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub error: *const c_void,
    pub code: i32,
}

/// `PJRT_Error_PayloadVisitor`.
pub type PayloadVisitor =
    Option<unsafe extern "C" fn(key: *const c_char, key_size: usize, value: *const c_char, value_size: usize, user: *mut c_void)>;

/// `PJRT_Error_ForEachPayload_Args`.
#[repr(C)]
pub struct ErrorForEachPayloadArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub error: *const c_void,
    pub visitor: PayloadVisitor,
    pub user_arg: *mut c_void,
}

// ----------------------------------------------------------------------------------------- plugin

/// `PJRT_Plugin_Initialize_Args`.
#[repr(C)]
pub struct PluginInitializeArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
}

/// `PJRT_Plugin_Attributes_Args`.
#[repr(C)]
pub struct PluginAttributesArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub attributes: *const NamedValue,
    pub num_attributes: usize,
}

// ----------------------------------------------------------------------------------------- events

/// `PJRT_Event_OnReadyCallback`: receives ownership of the error (or null).
pub type OnReadyCallback = Option<unsafe extern "C" fn(error: *mut c_void, user_arg: *mut c_void)>;

/// `PJRT_Event_Destroy_Args`, `PJRT_Event_Error_Args`, `PJRT_Event_Await_Args` (same layout).
#[repr(C)]
pub struct EventArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub event: *mut c_void,
}

/// `PJRT_Event_IsReady_Args`.
#[repr(C)]
pub struct EventIsReadyArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub event: *mut c_void,
    pub is_ready: bool,
}

/// `PJRT_Event_OnReady_Args`.
#[repr(C)]
pub struct EventOnReadyArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub event: *mut c_void,
    pub callback: OnReadyCallback,
    pub user_arg: *mut c_void,
}

/// `PJRT_Event_Create_Args`.
#[repr(C)]
pub struct EventCreateArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub event: *mut c_void,
}

/// `PJRT_Event_Set_Args`.
#[repr(C)]
pub struct EventSetArgs {
    pub struct_size: usize,
    pub extension_start: ExtPtr,
    pub event: *mut c_void,
    pub error_code: i32,
    pub error_message: *const c_char,
    pub error_message_size: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    #[test]
    fn layouts_match_the_header() {
        assert_eq!(size_of::<ApiVersion>(), 24);
        assert_eq!(size_of::<NamedValue>(), 56);
        assert_eq!(std::mem::offset_of!(NamedValue, value), 40);
        assert_eq!(size_of::<ErrorMessageArgs>(), 40);
        assert_eq!(size_of::<EventOnReadyArgs>(), 40);
        assert_eq!(size_of::<EventSetArgs>(), 48);
        assert_eq!(size_of::<ExtensionBase>(), 24);
        assert_eq!(size_of::<ShardingsExtension>(), 40);
        assert_eq!(size_of::<ShardingsArgs>(), 48);
    }
}
