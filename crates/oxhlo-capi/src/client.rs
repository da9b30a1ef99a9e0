//! Clients, compile options, compilation, and executables' signatures in the C API.

use crate::status::{arg, arg_mut, bytes_arg, guard, guard_value, str_arg, OxhloStatus};
use api::{Backend, Client, CompileOptions, Error, ErrorKind, Executable, OptLevel};
use std::ffi::c_char;

/// A backend: one of the `OXHLO_BACKEND_*` values.
pub type OxhloBackend = i32;

/// The backend named by the OXHLO_BACKEND environment variable, else the default (CPU). Only valid as a
/// request; a client reports the backend it was built for.
pub const OXHLO_BACKEND_DEFAULT: OxhloBackend = 0;
/// The reference interpreter (exact, every op and element type; slow).
pub const OXHLO_BACKEND_INTERPRETER: OxhloBackend = 1;
/// The host CPU: the multi-threaded, vectorized CPU backend (an op it has no kernel for runs on the
/// reference interpreter).
pub const OXHLO_BACKEND_CPU: OxhloBackend = 2;
/// NVIDIA GPUs through CUDA (without a usable GPU, requesting it gives OXHLO_ERROR_CODE_UNSUPPORTED).
pub const OXHLO_BACKEND_CUDA: OxhloBackend = 3;

fn backend_from(code: OxhloBackend) -> Result<Option<Backend>, Error> {
    match code {
        OXHLO_BACKEND_DEFAULT => Ok(None),
        OXHLO_BACKEND_INTERPRETER => Ok(Some(Backend::Interpreter)),
        OXHLO_BACKEND_CPU => Ok(Some(Backend::Cpu)),
        OXHLO_BACKEND_CUDA => Ok(Some(Backend::Cuda)),
        other => Err(Error::new(ErrorKind::InvalidArgument, format!("{other} is not an OXHLO_BACKEND_* value"))),
    }
}

pub(crate) fn backend_code(b: Backend) -> OxhloBackend {
    match b {
        Backend::Interpreter => OXHLO_BACKEND_INTERPRETER,
        Backend::Cpu => OXHLO_BACKEND_CPU,
        Backend::Cuda => OXHLO_BACKEND_CUDA,
        _ => OXHLO_BACKEND_DEFAULT,
    }
}

/// Compiles programs and holds the compile cache.
pub struct OxhloClient {
    client: Client,
}

/// Options for one compilation: optimization level, backend, cache use, source name.
pub struct OxhloCompileOptions {
    options: CompileOptions,
}

/// A compiled program.
pub struct OxhloExecutable {
    pub(crate) exe: Executable,
    /// Dimensions of each input and output (-1 for dynamic), kept for `oxhlo_executable_*_type`.
    input_dims: Vec<Vec<i64>>,
    output_dims: Vec<Vec<i64>>,
}

/// Writes a new object through an out-pointer.
///
/// # Safety
/// `out` must be NULL or writable.
unsafe fn put<T>(out: *mut *mut T, value: T) -> Result<(), Error> {
    let slot = arg_mut(out, "out")?;
    *slot = Box::into_raw(Box::new(value));
    Ok(())
}

/// Creates a client for `backend` (`OXHLO_BACKEND_DEFAULT` reads the OXHLO_BACKEND environment variable).
///
/// # Safety
/// `out` must point to writable storage for one pointer.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_client_create(backend: OxhloBackend, out: *mut *mut OxhloClient) -> *mut OxhloStatus {
    guard(|| {
        arg_mut(out, "out")?;
        let client = match backend_from(backend)? {
            None => Client::new()?,
            Some(b) => Client::builder().backend(b).build()?,
        };
        put(out, OxhloClient { client })
    })
}

/// The backend the client compiles for (an `OXHLO_BACKEND_*` value; `OXHLO_BACKEND_DEFAULT` for NULL).
///
/// # Safety
/// `client` must be NULL or a live client.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_client_backend(client: *const OxhloClient) -> OxhloBackend {
    guard_value(OXHLO_BACKEND_DEFAULT, || client.as_ref().map_or(OXHLO_BACKEND_DEFAULT, |c| backend_code(c.client.backend())))
}

/// Drops every executable in the client's compile cache (executables already returned keep working).
///
/// # Safety
/// `client` must be NULL or a live client.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_client_clear_cache(client: *const OxhloClient) {
    guard_value((), || {
        if let Some(c) = client.as_ref() {
            c.client.clear_cache()
        }
    })
}

/// Frees a client (NULL is allowed). Executables compiled by it stay valid.
///
/// # Safety
/// `client` must be NULL or a client not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_client_destroy(client: *mut OxhloClient) {
    guard_value((), || {
        if !client.is_null() {
            drop(Box::from_raw(client));
        }
    })
}

/// Creates compile options with the defaults: level 2, the client's backend, cache on, source name "<input>".
///
/// # Safety
/// `out` must point to writable storage for one pointer.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_compile_options_create(out: *mut *mut OxhloCompileOptions) -> *mut OxhloStatus {
    guard(|| put(out, OxhloCompileOptions { options: CompileOptions::default() }))
}

/// Sets the optimization level, 0 to 3.
///
/// # Safety
/// `options` must be NULL or live compile options.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_compile_options_set_opt_level(options: *mut OxhloCompileOptions, level: i32) -> *mut OxhloStatus {
    guard(|| {
        let o = arg_mut(options, "options")?;
        let level = u8::try_from(level).map_err(|_| Error::new(ErrorKind::InvalidArgument, format!("optimization level {level} is not one of 0, 1, 2, 3")))?;
        o.options.opt_level = OptLevel::try_from(level)?;
        Ok(())
    })
}

/// Sets the backend to compile for (`OXHLO_BACKEND_DEFAULT`: the client's).
///
/// # Safety
/// `options` must be NULL or live compile options.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_compile_options_set_backend(options: *mut OxhloCompileOptions, backend: OxhloBackend) -> *mut OxhloStatus {
    guard(|| {
        let o = arg_mut(options, "options")?;
        o.options.backend = backend_from(backend)?;
        Ok(())
    })
}

/// Turns the client's compile cache on or off for compilations with these options.
///
/// # Safety
/// `options` must be NULL or live compile options.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_compile_options_set_cache(options: *mut OxhloCompileOptions, enabled: bool) -> *mut OxhloStatus {
    guard(|| {
        arg_mut(options, "options")?.options.cache = enabled;
        Ok(())
    })
}

/// Sets the file name that diagnostics show (copied).
///
/// # Safety
/// `options` must be NULL or live compile options; `name` NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_compile_options_set_source_name(options: *mut OxhloCompileOptions, name: *const c_char) -> *mut OxhloStatus {
    guard(|| {
        let o = arg_mut(options, "options")?;
        o.options.source_name = Some(str_arg(name, "name")?.to_string());
        Ok(())
    })
}

/// Frees compile options (NULL is allowed).
///
/// # Safety
/// `options` must be NULL or options not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_compile_options_destroy(options: *mut OxhloCompileOptions) {
    guard_value((), || {
        if !options.is_null() {
            drop(Box::from_raw(options));
        }
    })
}

unsafe fn compile_impl(
    client: *const OxhloClient,
    program: &[u8],
    options: *const OxhloCompileOptions,
    out: *mut *mut OxhloExecutable,
) -> Result<(), Error> {
    let client = arg(client, "client")?;
    arg_mut(out, "out")?;
    let default = CompileOptions::default();
    let options = options.as_ref().map_or(&default, |o| &o.options);
    let exe = client.client.compile_with_options(program, options)?;
    let dims = |specs: &[api::TensorSpec]| -> Vec<Vec<i64>> {
        specs.iter().map(|s| s.shape.iter().map(|d| d.map_or(-1, |n| n as i64)).collect()).collect()
    };
    let (input_dims, output_dims) = (dims(exe.inputs()), dims(exe.outputs()));
    put(out, OxhloExecutable { exe, input_dims, output_dims })
}

/// Compiles a program of `size` bytes: MLIR text, or MLIR bytecode (starting with "ML\xEFR").
/// `options` may be NULL for the defaults. On success `*out` is a new executable.
///
/// # Safety
/// `client` must be NULL or a live client; `program` NULL or `size` readable bytes; `options` NULL or live
/// options; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_compile(
    client: *const OxhloClient,
    program: *const u8,
    size: usize,
    options: *const OxhloCompileOptions,
    out: *mut *mut OxhloExecutable,
) -> *mut OxhloStatus {
    guard(|| compile_impl(client, bytes_arg(program, size, "program")?, options, out))
}

/// Compiles a NUL-terminated MLIR text program; otherwise as `oxhlo_compile`.
///
/// # Safety
/// As `oxhlo_compile`, with `program` NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_compile_text(
    client: *const OxhloClient,
    program: *const c_char,
    options: *const OxhloCompileOptions,
    out: *mut *mut OxhloExecutable,
) -> *mut OxhloStatus {
    guard(|| compile_impl(client, str_arg(program, "program")?.as_bytes(), options, out))
}

/// Frees an executable (NULL is allowed).
///
/// # Safety
/// `executable` must be NULL or an executable not yet destroyed, with no execution running on it.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_executable_destroy(executable: *mut OxhloExecutable) {
    guard_value((), || {
        if !executable.is_null() {
            drop(Box::from_raw(executable));
        }
    })
}

/// The number of inputs (arguments of the entry function); 0 for NULL.
///
/// # Safety
/// `executable` must be NULL or a live executable.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_executable_num_inputs(executable: *const OxhloExecutable) -> usize {
    guard_value(0, || executable.as_ref().map_or(0, |e| e.exe.inputs().len()))
}

/// The number of outputs (results of the entry function); 0 for NULL.
///
/// # Safety
/// `executable` must be NULL or a live executable.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_executable_num_outputs(executable: *const OxhloExecutable) -> usize {
    guard_value(0, || executable.as_ref().map_or(0, |e| e.exe.outputs().len()))
}

unsafe fn spec_out(
    executable: *const OxhloExecutable,
    index: usize,
    outputs: bool,
    dtype: *mut crate::buffer::OxhloDtype,
    rank: *mut usize,
    dims: *mut *const i64,
) -> Result<(), Error> {
    let e = arg(executable, "executable")?;
    let (specs, all_dims, what) =
        if outputs { (e.exe.outputs(), &e.output_dims, "output") } else { (e.exe.inputs(), &e.input_dims, "input") };
    let spec = specs.get(index).ok_or_else(|| {
        Error::new(ErrorKind::InvalidArgument, format!("{what} {index} does not exist: there are {}", specs.len()))
    })?;
    *arg_mut(dtype, "dtype")? = spec.dtype as crate::buffer::OxhloDtype;
    *arg_mut(rank, "rank")? = spec.shape.len();
    *arg_mut(dims, "dims")? = all_dims[index].as_ptr();
    Ok(())
}

/// The element type, rank and dimensions of input `index`. `*dims` points at `*rank` values (-1 for a dynamic
/// dimension) owned by the executable.
///
/// # Safety
/// `executable` must be NULL or live; `dtype`, `rank`, `dims` writable.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_executable_input_type(
    executable: *const OxhloExecutable,
    index: usize,
    dtype: *mut crate::buffer::OxhloDtype,
    rank: *mut usize,
    dims: *mut *const i64,
) -> *mut OxhloStatus {
    guard(|| spec_out(executable, index, false, dtype, rank, dims))
}

/// The element type, rank and dimensions of output `index`, as `oxhlo_executable_input_type`.
///
/// # Safety
/// As `oxhlo_executable_input_type`.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_executable_output_type(
    executable: *const OxhloExecutable,
    index: usize,
    dtype: *mut crate::buffer::OxhloDtype,
    rank: *mut usize,
    dims: *mut *const i64,
) -> *mut OxhloStatus {
    guard(|| spec_out(executable, index, true, dtype, rank, dims))
}

/// The backend that runs the executable (an `OXHLO_BACKEND_*` value; `OXHLO_BACKEND_DEFAULT` for NULL).
///
/// # Safety
/// `executable` must be NULL or a live executable.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_executable_backend(executable: *const OxhloExecutable) -> OxhloBackend {
    guard_value(OXHLO_BACKEND_DEFAULT, || executable.as_ref().map_or(OXHLO_BACKEND_DEFAULT, |e| backend_code(e.exe.backend())))
}
