//! Errors across the C boundary: [`OxhloStatus`] (an owned error object, NULL meaning success), the error
//! codes, and the guards every entry point runs its body in, which turn `oxhlo::Error`s, null pointers and
//! panics into statuses.

use api::{Error, ErrorKind};
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

/// An error code: `OXHLO_ERROR_CODE_OK` or one of the `OXHLO_ERROR_CODE_*` values.
pub type OxhloErrorCode = i32;

/// Success (never carried by a status: success is a NULL status).
pub const OXHLO_ERROR_CODE_OK: OxhloErrorCode = 0;
/// The program text or bytecode could not be read.
pub const OXHLO_ERROR_CODE_PARSE: OxhloErrorCode = 1;
/// The program breaks a rule of the StableHLO spec.
pub const OXHLO_ERROR_CODE_VERIFY: OxhloErrorCode = 2;
/// Executing the program failed.
pub const OXHLO_ERROR_CODE_RUNTIME: OxhloErrorCode = 3;
/// An argument is wrong: a NULL pointer, an input of the wrong type or shape, a size that does not match.
pub const OXHLO_ERROR_CODE_INVALID_ARGUMENT: OxhloErrorCode = 4;
/// Valid but not supported (yet): a backend not built, an argument type the API cannot carry.
pub const OXHLO_ERROR_CODE_UNSUPPORTED: OxhloErrorCode = 5;
/// A bug in oxhlo (for example a panic caught at the API boundary).
pub const OXHLO_ERROR_CODE_INTERNAL: OxhloErrorCode = 6;

/// An error: a code, a message, and the diagnostics that say where. Owned by the caller; free it with
/// `oxhlo_status_destroy`.
pub struct OxhloStatus {
    code: OxhloErrorCode,
    /// The whole report: the summary line and one line per diagnostic.
    message: CString,
    diagnostics: Vec<CString>,
}

pub(crate) fn code_of(kind: ErrorKind) -> OxhloErrorCode {
    match kind {
        ErrorKind::Parse => OXHLO_ERROR_CODE_PARSE,
        ErrorKind::Verify => OXHLO_ERROR_CODE_VERIFY,
        ErrorKind::Runtime => OXHLO_ERROR_CODE_RUNTIME,
        ErrorKind::InvalidArgument => OXHLO_ERROR_CODE_INVALID_ARGUMENT,
        ErrorKind::Unsupported => OXHLO_ERROR_CODE_UNSUPPORTED,
        _ => OXHLO_ERROR_CODE_INTERNAL,
    }
}

/// A C string from Rust text (interior NULs, which C cannot carry, become spaces).
pub(crate) fn c_string(s: &str) -> CString {
    CString::new(s.replace('\0', " ")).unwrap_or_default()
}

fn status_from(e: &Error) -> *mut OxhloStatus {
    let status = OxhloStatus {
        code: code_of(e.kind()),
        message: c_string(&e.to_string()),
        diagnostics: e.diagnostics().iter().map(|d| c_string(&d.to_string())).collect(),
    };
    Box::into_raw(Box::new(status))
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    format!("oxhlo panicked (a bug; please report it): {what}")
}

/// Runs an entry point's body: `Ok` gives NULL, an error or a panic gives a status.
pub(crate) fn guard(body: impl FnOnce() -> Result<(), Error>) -> *mut OxhloStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => ptr::null_mut(),
        Ok(Err(e)) => status_from(&e),
        Err(payload) => status_from(&Error::new(ErrorKind::Internal, panic_message(payload.as_ref()))),
    }
}

/// Runs an infallible entry point's body, giving `fallback` if it panics.
pub(crate) fn guard_value<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// A shared reference from a pointer the caller passed, or an invalid-argument error naming it.
///
/// # Safety
/// `p` must be NULL or point to a live `T`.
pub(crate) unsafe fn arg<'a, T>(p: *const T, name: &str) -> Result<&'a T, Error> {
    p.as_ref().ok_or_else(|| Error::new(ErrorKind::InvalidArgument, format!("`{name}` is NULL")))
}

/// A mutable reference from a pointer the caller passed, or an invalid-argument error naming it.
///
/// # Safety
/// `p` must be NULL or point to a live, unaliased `T`.
pub(crate) unsafe fn arg_mut<'a, T>(p: *mut T, name: &str) -> Result<&'a mut T, Error> {
    p.as_mut().ok_or_else(|| Error::new(ErrorKind::InvalidArgument, format!("`{name}` is NULL")))
}

/// Reads a NUL-terminated UTF-8 string argument.
///
/// # Safety
/// `p` must be NULL or point to a NUL-terminated string.
pub(crate) unsafe fn str_arg<'a>(p: *const c_char, name: &str) -> Result<&'a str, Error> {
    let p = arg(p, name)?;
    CStr::from_ptr(p)
        .to_str()
        .map_err(|e| Error::new(ErrorKind::InvalidArgument, format!("`{name}` is not valid UTF-8: {e}")))
}

/// A byte slice from a pointer and a length (NULL is allowed when the length is 0).
///
/// # Safety
/// `p` must be NULL or point to `len` readable bytes.
pub(crate) unsafe fn bytes_arg<'a>(p: *const u8, len: usize, name: &str) -> Result<&'a [u8], Error> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Error::new(ErrorKind::InvalidArgument, format!("`{name}` is NULL but its size is {len}")));
    }
    Ok(std::slice::from_raw_parts(p, len))
}

/// The status's error code; `OXHLO_ERROR_CODE_OK` for NULL (success).
///
/// # Safety
/// `status` must be NULL or a live status.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_status_code(status: *const OxhloStatus) -> OxhloErrorCode {
    guard_value(OXHLO_ERROR_CODE_INTERNAL, || status.as_ref().map_or(OXHLO_ERROR_CODE_OK, |s| s.code))
}

/// The status's full message: a summary line, then one `file:line:col: error: ...` line per diagnostic.
/// "" for NULL. Valid until the status is destroyed.
///
/// # Safety
/// `status` must be NULL or a live status.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_status_message(status: *const OxhloStatus) -> *const c_char {
    guard_value(cstr!(""), || status.as_ref().map_or(cstr!(""), |s| s.message.as_ptr()))
}

/// How many diagnostics (located messages) the status carries; 0 for NULL.
///
/// # Safety
/// `status` must be NULL or a live status.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_status_num_diagnostics(status: *const OxhloStatus) -> usize {
    guard_value(0, || status.as_ref().map_or(0, |s| s.diagnostics.len()))
}

/// Diagnostic `index` as `file:line:col: error: message`, or NULL when out of range. Valid until the status
/// is destroyed.
///
/// # Safety
/// `status` must be NULL or a live status.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_status_diagnostic(status: *const OxhloStatus, index: usize) -> *const c_char {
    guard_value(ptr::null(), || {
        status.as_ref().and_then(|s| s.diagnostics.get(index)).map_or(ptr::null(), |d| d.as_ptr())
    })
}

/// Frees a status (NULL is allowed).
///
/// # Safety
/// `status` must be NULL or a status not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_status_destroy(status: *mut OxhloStatus) {
    guard_value((), || {
        if !status.is_null() {
            drop(Box::from_raw(status));
        }
    })
}

/// A static name for an error code (`"parse"`, `"invalid argument"`, ...; `"ok"` for 0, `"unknown"` for others).
#[no_mangle]
pub extern "C" fn oxhlo_error_code_name(code: OxhloErrorCode) -> *const c_char {
    match code {
        OXHLO_ERROR_CODE_OK => cstr!("ok"),
        OXHLO_ERROR_CODE_PARSE => cstr!("parse"),
        OXHLO_ERROR_CODE_VERIFY => cstr!("verify"),
        OXHLO_ERROR_CODE_RUNTIME => cstr!("runtime"),
        OXHLO_ERROR_CODE_INVALID_ARGUMENT => cstr!("invalid argument"),
        OXHLO_ERROR_CODE_UNSUPPORTED => cstr!("unsupported"),
        OXHLO_ERROR_CODE_INTERNAL => cstr!("internal"),
        _ => cstr!("unknown"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_internal_errors() {
        let st = guard(|| panic!("boom"));
        unsafe {
            assert_eq!(oxhlo_status_code(st), OXHLO_ERROR_CODE_INTERNAL);
            let msg = CStr::from_ptr(oxhlo_status_message(st)).to_str().unwrap();
            assert!(msg.contains("boom"), "{msg}");
            oxhlo_status_destroy(st);
        }
        assert_eq!(guard_value(7, || panic!("x")), 7);
    }

    #[test]
    fn codes_match_error_kinds() {
        // The C codes are the numeric values of api::ErrorKind.
        for kind in [
            ErrorKind::Parse,
            ErrorKind::Verify,
            ErrorKind::Runtime,
            ErrorKind::InvalidArgument,
            ErrorKind::Unsupported,
            ErrorKind::Internal,
        ] {
            assert_eq!(code_of(kind), kind as i32);
            let name = unsafe { CStr::from_ptr(oxhlo_error_code_name(code_of(kind))) };
            assert_eq!(name.to_str().unwrap(), kind.name());
        }
    }

    #[test]
    fn null_status_is_success() {
        unsafe {
            assert_eq!(oxhlo_status_code(ptr::null()), OXHLO_ERROR_CODE_OK);
            assert_eq!(CStr::from_ptr(oxhlo_status_message(ptr::null())).to_bytes(), b"");
            assert!(oxhlo_status_diagnostic(ptr::null(), 0).is_null());
            oxhlo_status_destroy(ptr::null_mut());
        }
    }

    #[test]
    fn null_args_are_named() {
        let st = guard(|| unsafe { arg(ptr::null::<u8>(), "client").map(|_| ()) });
        unsafe {
            assert_eq!(oxhlo_status_code(st), OXHLO_ERROR_CODE_INVALID_ARGUMENT);
            let msg = CStr::from_ptr(oxhlo_status_message(st)).to_str().unwrap();
            assert_eq!(msg, "invalid argument error: `client` is NULL");
            oxhlo_status_destroy(st);
        }
    }
}
