//! Errors: the plugin's `PJRT_Error` object (a code and a message the framework shows the user), the
//! `PJRT_Error_*` entry points, and [`guard`], which wraps every entry point so that no panic ever
//! crosses the FFI boundary (a panic becomes an INTERNAL error naming the entry point).

use crate::abi::{self, code, ErrorDestroyArgs, ErrorForEachPayloadArgs, ErrorGetCodeArgs, ErrorMessageArgs};
use crate::log;
use std::ffi::{c_char, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A plugin error in Rust form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub code: i32,
    pub message: String,
}

/// Result of plugin internals.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(code: i32, message: impl Into<String>) -> Error {
        Error { code, message: message.into() }
    }
    pub fn invalid(message: impl Into<String>) -> Error {
        Error::new(code::INVALID_ARGUMENT, message)
    }
    pub fn unimplemented(message: impl Into<String>) -> Error {
        Error::new(code::UNIMPLEMENTED, message)
    }
    pub fn internal(message: impl Into<String>) -> Error {
        Error::new(code::INTERNAL, message)
    }
    pub fn precondition(message: impl Into<String>) -> Error {
        Error::new(code::FAILED_PRECONDITION, message)
    }
    pub fn not_found(message: impl Into<String>) -> Error {
        Error::new(code::NOT_FOUND, message)
    }
    /// Moves the error to the heap as a `PJRT_Error*` owned by the caller.
    pub fn into_raw(self) -> *mut c_void {
        Box::into_raw(Box::new(RawError { vtable: &ERROR_VTABLE, code: self.code, message: self.message })) as *mut c_void
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (code {})", self.message, self.code)
    }
}

/// `PJRT_Error_FunctionTable` (newer frameworks may read an error through it instead of the API table).
#[repr(C)]
pub struct ErrorVTable {
    pub struct_size: usize,
    pub instance_size: usize,
    pub extension_start: *mut c_void,
    pub destroy: unsafe extern "C" fn(*mut c_void),
    pub message: unsafe extern "C" fn(*const c_void, *mut *const c_char, *mut usize),
    pub get_code: unsafe extern "C" fn(*const c_void) -> i32,
    pub for_each_payload: unsafe extern "C" fn(*const c_void, abi::PayloadVisitor, *mut c_void),
}

// SAFETY: the table is immutable and holds only function pointers (and a null extension pointer).
unsafe impl Sync for ErrorVTable {}

static ERROR_VTABLE: ErrorVTable = ErrorVTable {
    struct_size: std::mem::size_of::<ErrorVTable>(),
    instance_size: std::mem::size_of::<*const ErrorVTable>(),
    extension_start: std::ptr::null_mut(),
    destroy: vt_destroy,
    message: vt_message,
    get_code: vt_get_code,
    for_each_payload: vt_for_each_payload,
};

/// The heap object behind a `PJRT_Error*`: starts with the function-table pointer, as the header's
/// `struct PJRT_Error` does.
#[repr(C)]
struct RawError {
    vtable: *const ErrorVTable,
    code: i32,
    message: String,
}

unsafe fn raw<'a>(e: *const c_void) -> Option<&'a RawError> {
    (e as *const RawError).as_ref()
}

unsafe extern "C" fn vt_destroy(e: *mut c_void) {
    if !e.is_null() {
        let _ = catch_unwind(|| drop(Box::from_raw(e as *mut RawError)));
    }
}

unsafe extern "C" fn vt_message(e: *const c_void, msg: *mut *const c_char, size: *mut usize) {
    let (p, n) = match raw(e) {
        Some(r) => (r.message.as_ptr() as *const c_char, r.message.len()),
        None => (c"".as_ptr(), 0),
    };
    if !msg.is_null() {
        *msg = p;
    }
    if !size.is_null() {
        *size = n;
    }
}

unsafe extern "C" fn vt_get_code(e: *const c_void) -> i32 {
    raw(e).map(|r| r.code).unwrap_or(code::UNKNOWN)
}

unsafe extern "C" fn vt_for_each_payload(_e: *const c_void, _visitor: abi::PayloadVisitor, _user: *mut c_void) {}

/// `PJRT_Error_Destroy`.
pub unsafe extern "C" fn error_destroy(args: *mut ErrorDestroyArgs) {
    if let Some(a) = args.as_ref() {
        vt_destroy(a.error);
    }
}

/// `PJRT_Error_Message`.
pub unsafe extern "C" fn error_message(args: *mut ErrorMessageArgs) {
    if let Some(a) = args.as_mut() {
        vt_message(a.error, &mut a.message, &mut a.message_size);
    }
}

/// `PJRT_Error_GetCode`.
pub unsafe extern "C" fn error_get_code(args: *mut ErrorGetCodeArgs) -> *mut c_void {
    if let Some(a) = args.as_mut() {
        a.code = vt_get_code(a.error);
    }
    std::ptr::null_mut()
}

/// `PJRT_Error_ForEachPayload`: plugin errors carry no payloads. Must return null: the framework calls
/// it while converting every error, and an error here would recurse.
pub unsafe extern "C" fn error_for_each_payload(_args: *mut ErrorForEachPayloadArgs) -> *mut c_void {
    std::ptr::null_mut()
}

/// The callback-error constructor shape (`PJRT_CallbackError`) for plugin-side use.
pub fn make_error(code: i32, message: &str) -> *mut c_void {
    Error::new(code, message).into_raw()
}

/// Runs the body of entry point `name` on the argument struct `args`: logs the call when `OXHLO_LOG`
/// asks for it, rejects a null `args`, turns an `Err` into a heap `PJRT_Error*`, and catches panics.
///
/// # Safety
/// `args` must be null or point to a live `A` that nothing else accesses during the call.
pub unsafe fn guard<A>(name: &'static str, args: *mut A, body: impl FnOnce(&mut A) -> Result<()>) -> *mut c_void {
    log::call(name);
    let Some(a) = args.as_mut() else {
        return Error::invalid(format!("{name}: the argument struct pointer is null")).into_raw();
    };
    match catch_unwind(AssertUnwindSafe(|| body(a))) {
        Ok(Ok(())) => std::ptr::null_mut(),
        Ok(Err(e)) => {
            log::error(name, &e);
            e.into_raw()
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            let e = Error::internal(format!("oxhlo internal error in {name}: {what} (this is a bug in oxhlo, please report it)"));
            log::error(name, &e);
            e.into_raw()
        }
    }
}

/// Reads a `PJRT_Error*` back (for tests and for callbacks that hand errors to the plugin).
///
/// # Safety
/// `e` must be null or a `PJRT_Error*` made by this plugin.
pub unsafe fn peek(e: *const c_void) -> Option<Error> {
    raw(e).map(|r| Error { code: r.code, message: r.message.clone() })
}
