//! The oxhlo C API: `liboxhlo.so` / `liboxhlo.a` and the header `include/oxhlo.h` (generated from this crate
//! by cbindgen). A thin layer over the `oxhlo` Rust crate: opaque handles (client, compile options,
//! executable, buffer, timing, status), explicit create/destroy functions, and error statuses.
//!
//! Every entry point checks its pointers (NULL gives `OXHLO_ERROR_CODE_INVALID_ARGUMENT`) and runs its body
//! under `catch_unwind`, so no panic crosses into C. Everything handed to C is a `Box` turned into a raw
//! pointer and taken back by the matching destroy function.
//!
//! ```c
//! OxhloClient *client = NULL;
//! OxhloStatus *st = oxhlo_client_create(OXHLO_BACKEND_DEFAULT, &client);
//! if (st) { fprintf(stderr, "%s\n", oxhlo_status_message(st)); oxhlo_status_destroy(st); return 1; }
//! ```

#![warn(missing_docs)]

/// A pointer to a static NUL-terminated copy of a string literal.
macro_rules! cstr {
    ($s:expr) => {
        concat!($s, "\0").as_ptr().cast::<std::ffi::c_char>()
    };
}

pub mod buffer;
pub mod client;
pub mod execute;
pub mod status;

pub use buffer::*;
pub use client::*;
pub use execute::*;
pub use status::*;

/// The oxhlo version, a static string such as `"0.1.0"`.
#[no_mangle]
pub extern "C" fn oxhlo_version() -> *const std::ffi::c_char {
    cstr!(env!("CARGO_PKG_VERSION"))
}
