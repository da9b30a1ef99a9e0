//! Small helpers for reading C arguments: slices and strings from (pointer, length) pairs that may be
//! null when the length is zero.

/// A byte slice from a pointer and a length; empty when the pointer is null or the length zero.
///
/// # Safety
/// When non-null, `p` must point to `n` readable bytes that outlive the returned slice.
pub unsafe fn bytes<'a>(p: *const u8, n: usize) -> &'a [u8] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p, n)
    }
}

/// A slice of `T` from a pointer and a count; empty when null or zero.
///
/// # Safety
/// When non-null, `p` must point to `n` valid, aligned `T`s that outlive the returned slice.
pub unsafe fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p, n)
    }
}

/// A lossy UTF-8 string from a pointer and a length.
///
/// # Safety
/// As [`bytes`].
pub unsafe fn string(p: *const std::ffi::c_char, n: usize) -> String {
    String::from_utf8_lossy(bytes(p as *const u8, n)).into_owned()
}
