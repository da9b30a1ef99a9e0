/*
 * oxhlo.h: the C API of oxhlo, a StableHLO compiler and runtime.
 *
 * Generated from crates/oxhlo-capi/src by cbindgen (crates/oxhlo-capi/regen-header.sh); do not edit.
 *
 * Conventions:
 * - Fallible functions return an OxhloStatus*: NULL on success, else an error the caller owns and frees
 *   with oxhlo_status_destroy (read it with oxhlo_status_code / oxhlo_status_message).
 * - Every object made by a *_create function, by oxhlo_compile*, or returned through an out-pointer
 *   (executables, output buffers, timings) is owned by the caller and freed with its *_destroy function.
 *   Destroy functions accept NULL.
 * - NULL where an object is required gives OXHLO_ERROR_CODE_INVALID_ARGUMENT; no entry point lets a Rust
 *   panic escape (it becomes OXHLO_ERROR_CODE_INTERNAL).
 * - Clients, executables and buffers may be used from several threads at once; compile options and
 *   statuses may not.
 */

#ifndef OXHLO_H
#define OXHLO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// A tensor in host memory: element type, shape, bytes. Immutable once created.
typedef struct OxhloBuffer OxhloBuffer;

// Compiles programs and holds the compile cache.
typedef struct OxhloClient OxhloClient;

// Options for one compilation: optimization level, backend, cache use, source name.
typedef struct OxhloCompileOptions OxhloCompileOptions;

// A compiled program.
typedef struct OxhloExecutable OxhloExecutable;

// An error: a code, a message, and the diagnostics that say where. Owned by the caller; free it with
// `oxhlo_status_destroy`.
typedef struct OxhloStatus OxhloStatus;

// The timings of one execution: total wall time and, per kernel (on the interpreter, per op), its name,
// source location, number of calls and time.
typedef struct OxhloTiming OxhloTiming;

// An element type: one of the `OXHLO_DTYPE_*` values. Each element takes `oxhlo_dtype_size` bytes,
// little-endian: sub-byte integers one byte each holding the (sign-extended) value, sub-byte floats one
// byte with the bit pattern in the low bits, `i1` one byte holding 0 or 1, `tf32` its 19-bit pattern in a
// `uint32_t`, complex numbers the real part then the imaginary part.
typedef uint32_t OxhloDtype;

// A backend: one of the `OXHLO_BACKEND_*` values.
typedef int32_t OxhloBackend;

// An error code: `OXHLO_ERROR_CODE_OK` or one of the `OXHLO_ERROR_CODE_*` values.
typedef int32_t OxhloErrorCode;

// `i1` (bool)
#define OXHLO_DTYPE_BOOL 1

// `i2`
#define OXHLO_DTYPE_I2 2

// `i4`
#define OXHLO_DTYPE_I4 3

// `i8` (int8_t)
#define OXHLO_DTYPE_I8 4

// `i16` (int16_t)
#define OXHLO_DTYPE_I16 5

// `i32` (int32_t)
#define OXHLO_DTYPE_I32 6

// `i64` (int64_t)
#define OXHLO_DTYPE_I64 7

// `ui2`
#define OXHLO_DTYPE_U2 8

// `ui4`
#define OXHLO_DTYPE_U4 9

// `ui8` (uint8_t)
#define OXHLO_DTYPE_U8 10

// `ui16` (uint16_t)
#define OXHLO_DTYPE_U16 11

// `ui32` (uint32_t)
#define OXHLO_DTYPE_U32 12

// `ui64` (uint64_t)
#define OXHLO_DTYPE_U64 13

// `f4E2M1FN`
#define OXHLO_DTYPE_F4E2M1FN 14

// `f6E2M3FN`
#define OXHLO_DTYPE_F6E2M3FN 15

// `f6E3M2FN`
#define OXHLO_DTYPE_F6E3M2FN 16

// `f8E3M4`
#define OXHLO_DTYPE_F8E3M4 17

// `f8E4M3`
#define OXHLO_DTYPE_F8E4M3 18

// `f8E4M3FN`
#define OXHLO_DTYPE_F8E4M3FN 19

// `f8E4M3FNUZ`
#define OXHLO_DTYPE_F8E4M3FNUZ 20

// `f8E4M3B11FNUZ`
#define OXHLO_DTYPE_F8E4M3B11FNUZ 21

// `f8E5M2`
#define OXHLO_DTYPE_F8E5M2 22

// `f8E5M2FNUZ`
#define OXHLO_DTYPE_F8E5M2FNUZ 23

// `f8E8M0FNU`
#define OXHLO_DTYPE_F8E8M0FNU 24

// `bf16` (its bits in a uint16_t)
#define OXHLO_DTYPE_BF16 25

// `f16` (IEEE half; its bits in a uint16_t, or _Float16)
#define OXHLO_DTYPE_F16 26

// `tf32` (19-bit pattern in a uint32_t)
#define OXHLO_DTYPE_TF32 27

// `f32` (float)
#define OXHLO_DTYPE_F32 28

// `f64` (double)
#define OXHLO_DTYPE_F64 29

// `complex<f32>` (float _Complex)
#define OXHLO_DTYPE_C64 30

// `complex<f64>` (double _Complex)
#define OXHLO_DTYPE_C128 31

// The backend named by the OXHLO_BACKEND environment variable, else the default (CPU). Only valid as a
// request; a client reports the backend it was built for.
#define OXHLO_BACKEND_DEFAULT 0

// The reference interpreter (exact, every op and element type; slow).
#define OXHLO_BACKEND_INTERPRETER 1

// The host CPU: the multi-threaded, vectorized CPU backend (an op it has no kernel for runs on the
// reference interpreter).
#define OXHLO_BACKEND_CPU 2

// NVIDIA GPUs through CUDA (without a usable GPU, requesting it gives OXHLO_ERROR_CODE_UNSUPPORTED).
#define OXHLO_BACKEND_CUDA 3

// Success (never carried by a status: success is a NULL status).
#define OXHLO_ERROR_CODE_OK 0

// The program text or bytecode could not be read.
#define OXHLO_ERROR_CODE_PARSE 1

// The program breaks a rule of the StableHLO spec.
#define OXHLO_ERROR_CODE_VERIFY 2

// Executing the program failed.
#define OXHLO_ERROR_CODE_RUNTIME 3

// An argument is wrong: a NULL pointer, an input of the wrong type or shape, a size that does not match.
#define OXHLO_ERROR_CODE_INVALID_ARGUMENT 4

// Valid but not supported (yet): a backend not built, an argument type the API cannot carry.
#define OXHLO_ERROR_CODE_UNSUPPORTED 5

// A bug in oxhlo (for example a panic caught at the API boundary).
#define OXHLO_ERROR_CODE_INTERNAL 6

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

// The oxhlo version, a static string such as `"0.1.0"`.
const char *oxhlo_version(void);

// Creates a buffer of element type `dtype` and shape `dims[0..rank]` by copying `size` bytes from `data`
// (row-major; `size` must be the element count times `oxhlo_dtype_size(dtype)`). `dims` and `data` may be
// NULL when `rank` or `size` is 0.
//
// # Safety
// `dims` must be NULL or `rank` readable values; `data` NULL or `size` readable bytes; `out` writable.
OxhloStatus *oxhlo_buffer_create(OxhloDtype dtype,
                                 const int64_t *dims,
                                 size_t rank,
                                 const void *data,
                                 size_t size,
                                 OxhloBuffer **out);

// Frees a buffer (NULL is allowed).
//
// # Safety
// `buffer` must be NULL or a buffer not yet destroyed.
void oxhlo_buffer_destroy(OxhloBuffer *buffer);

// The buffer's element type (0 for NULL).
//
// # Safety
// `buffer` must be NULL or a live buffer.
OxhloDtype oxhlo_buffer_dtype(const OxhloBuffer *buffer);

// The number of dimensions (0 for a scalar, and for NULL).
//
// # Safety
// `buffer` must be NULL or a live buffer.
size_t oxhlo_buffer_rank(const OxhloBuffer *buffer);

// The dimensions (`oxhlo_buffer_rank` values, owned by the buffer); NULL for NULL.
//
// # Safety
// `buffer` must be NULL or a live buffer.
const int64_t *oxhlo_buffer_dims(const OxhloBuffer *buffer);

// The number of elements (1 for a scalar; 0 for NULL).
//
// # Safety
// `buffer` must be NULL or a live buffer.
size_t oxhlo_buffer_num_elements(const OxhloBuffer *buffer);

// The size of the buffer's data in bytes (0 for NULL).
//
// # Safety
// `buffer` must be NULL or a live buffer.
size_t oxhlo_buffer_size(const OxhloBuffer *buffer);

// The buffer's data (`oxhlo_buffer_size` bytes, read-only, owned by the buffer, from malloc and so aligned
// for every element type); NULL for NULL and for a buffer of 0 bytes.
//
// # Safety
// `buffer` must be NULL or a live buffer.
const void *oxhlo_buffer_data(const OxhloBuffer *buffer);

// Copies the buffer's data into `dst`, which has room for `dst_size` bytes (at least `oxhlo_buffer_size`).
//
// # Safety
// `buffer` must be NULL or a live buffer; `dst` NULL or `dst_size` writable bytes.
OxhloStatus *oxhlo_buffer_copy_to_host(const OxhloBuffer *buffer,
                                       void *dst,
                                       size_t dst_size);

// Bytes one element of `dtype` takes (0 for a value that is not an element type).
size_t oxhlo_dtype_size(OxhloDtype dtype);

// The MLIR name of `dtype` (`"f32"`, `"complex<f64>"`, ...; a static string), or NULL for a value that is
// not an element type.
const char *oxhlo_dtype_name(OxhloDtype dtype);

// Creates a client for `backend` (`OXHLO_BACKEND_DEFAULT` reads the OXHLO_BACKEND environment variable).
//
// # Safety
// `out` must point to writable storage for one pointer.
OxhloStatus *oxhlo_client_create(OxhloBackend backend,
                                 OxhloClient **out);

// The backend the client compiles for (an `OXHLO_BACKEND_*` value; `OXHLO_BACKEND_DEFAULT` for NULL).
//
// # Safety
// `client` must be NULL or a live client.
OxhloBackend oxhlo_client_backend(const OxhloClient *client);

// Drops every executable in the client's compile cache (executables already returned keep working).
//
// # Safety
// `client` must be NULL or a live client.
void oxhlo_client_clear_cache(const OxhloClient *client);

// Frees a client (NULL is allowed). Executables compiled by it stay valid.
//
// # Safety
// `client` must be NULL or a client not yet destroyed.
void oxhlo_client_destroy(OxhloClient *client);

// Creates compile options with the defaults: level 2, the client's backend, cache on, source name "<input>".
//
// # Safety
// `out` must point to writable storage for one pointer.
OxhloStatus *oxhlo_compile_options_create(OxhloCompileOptions **out);

// Sets the optimization level, 0 to 3.
//
// # Safety
// `options` must be NULL or live compile options.
OxhloStatus *oxhlo_compile_options_set_opt_level(OxhloCompileOptions *options, int32_t level);

// Sets the backend to compile for (`OXHLO_BACKEND_DEFAULT`: the client's).
//
// # Safety
// `options` must be NULL or live compile options.
OxhloStatus *oxhlo_compile_options_set_backend(OxhloCompileOptions *options, OxhloBackend backend);

// Turns the client's compile cache on or off for compilations with these options.
//
// # Safety
// `options` must be NULL or live compile options.
OxhloStatus *oxhlo_compile_options_set_cache(OxhloCompileOptions *options, bool enabled);

// Sets the file name that diagnostics show (copied).
//
// # Safety
// `options` must be NULL or live compile options; `name` NULL or a NUL-terminated string.
OxhloStatus *oxhlo_compile_options_set_source_name(OxhloCompileOptions *options, const char *name);

// Frees compile options (NULL is allowed).
//
// # Safety
// `options` must be NULL or options not yet destroyed.
void oxhlo_compile_options_destroy(OxhloCompileOptions *options);

// Compiles a program of `size` bytes: MLIR text, or MLIR bytecode (starting with "ML\xEFR").
// `options` may be NULL for the defaults. On success `*out` is a new executable.
//
// # Safety
// `client` must be NULL or a live client; `program` NULL or `size` readable bytes; `options` NULL or live
// options; `out` writable.
OxhloStatus *oxhlo_compile(const OxhloClient *client,
                           const uint8_t *program,
                           size_t size,
                           const OxhloCompileOptions *options,
                           OxhloExecutable **out);

// Compiles a NUL-terminated MLIR text program; otherwise as `oxhlo_compile`.
//
// # Safety
// As `oxhlo_compile`, with `program` NULL or a NUL-terminated string.
OxhloStatus *oxhlo_compile_text(const OxhloClient *client,
                                const char *program,
                                const OxhloCompileOptions *options,
                                OxhloExecutable **out);

// Frees an executable (NULL is allowed).
//
// # Safety
// `executable` must be NULL or an executable not yet destroyed, with no execution running on it.
void oxhlo_executable_destroy(OxhloExecutable *executable);

// The number of inputs (arguments of the entry function); 0 for NULL.
//
// # Safety
// `executable` must be NULL or a live executable.
size_t oxhlo_executable_num_inputs(const OxhloExecutable *executable);

// The number of outputs (results of the entry function); 0 for NULL.
//
// # Safety
// `executable` must be NULL or a live executable.
size_t oxhlo_executable_num_outputs(const OxhloExecutable *executable);

// The element type, rank and dimensions of input `index`. `*dims` points at `*rank` values (-1 for a dynamic
// dimension) owned by the executable.
//
// # Safety
// `executable` must be NULL or live; `dtype`, `rank`, `dims` writable.
OxhloStatus *oxhlo_executable_input_type(const OxhloExecutable *executable,
                                         size_t index,
                                         OxhloDtype *dtype,
                                         size_t *rank,
                                         const int64_t **dims);

// The element type, rank and dimensions of output `index`, as `oxhlo_executable_input_type`.
//
// # Safety
// As `oxhlo_executable_input_type`.
OxhloStatus *oxhlo_executable_output_type(const OxhloExecutable *executable,
                                          size_t index,
                                          OxhloDtype *dtype,
                                          size_t *rank,
                                          const int64_t **dims);

// The backend that runs the executable (an `OXHLO_BACKEND_*` value; `OXHLO_BACKEND_DEFAULT` for NULL).
//
// # Safety
// `executable` must be NULL or a live executable.
OxhloBackend oxhlo_executable_backend(const OxhloExecutable *executable);

// Runs `executable` on `inputs[0..num_inputs]` (one buffer per argument, each of the argument's element type
// and shape) and writes one new buffer per result to `outputs[0..num_outputs]`; `num_outputs` must be
// `oxhlo_executable_num_outputs`. The caller destroys the outputs. On error every `outputs[i]` is NULL.
// Several threads may execute one executable at the same time.
//
// # Safety
// `executable` must be NULL or live; `inputs` NULL or `num_inputs` pointers to live buffers; `outputs` NULL
// or room for `num_outputs` pointers.
OxhloStatus *oxhlo_execute(const OxhloExecutable *executable,
                           const OxhloBuffer *const *inputs,
                           size_t num_inputs,
                           OxhloBuffer **outputs,
                           size_t num_outputs);

// As `oxhlo_execute`, also writing the execution's timings to `*timing` (a new object the caller destroys
// with `oxhlo_timing_destroy`; NULL on error).
//
// # Safety
// As `oxhlo_execute`; `timing` must be writable.
OxhloStatus *oxhlo_execute_with_timing(const OxhloExecutable *executable,
                                       const OxhloBuffer *const *inputs,
                                       size_t num_inputs,
                                       OxhloBuffer **outputs,
                                       size_t num_outputs,
                                       OxhloTiming **timing);

// Total wall time of the execution in nanoseconds (0 for NULL).
//
// # Safety
// `timing` must be NULL or live.
uint64_t oxhlo_timing_total_ns(const OxhloTiming *timing);

// The number of kernels timed (0 for NULL).
//
// # Safety
// `timing` must be NULL or live.
size_t oxhlo_timing_num_kernels(const OxhloTiming *timing);

// Kernel `index`'s name (on the interpreter, the op name such as `"stablehlo.add"`); NULL when out of
// range. Valid until the timing is destroyed.
//
// # Safety
// `timing` must be NULL or live.
const char *oxhlo_timing_kernel_name(const OxhloTiming *timing,
                                     size_t index);

// Kernel `index`'s source location (`file:line:col` or `<unknown>`); NULL when out of range.
//
// # Safety
// `timing` must be NULL or live.
const char *oxhlo_timing_kernel_location(const OxhloTiming *timing, size_t index);

// How many times kernel `index` ran (0 when out of range).
//
// # Safety
// `timing` must be NULL or live.
uint64_t oxhlo_timing_kernel_calls(const OxhloTiming *timing, size_t index);

// Kernel `index`'s total time over all its calls, in nanoseconds (0 when out of range).
//
// # Safety
// `timing` must be NULL or live.
uint64_t oxhlo_timing_kernel_ns(const OxhloTiming *timing, size_t index);

// The timings as a readable table, slowest kernel first ("" for NULL). Valid until the timing is destroyed.
//
// # Safety
// `timing` must be NULL or live.
const char *oxhlo_timing_report(const OxhloTiming *timing);

// Frees a timing (NULL is allowed).
//
// # Safety
// `timing` must be NULL or a timing not yet destroyed.
void oxhlo_timing_destroy(OxhloTiming *timing);

// The status's error code; `OXHLO_ERROR_CODE_OK` for NULL (success).
//
// # Safety
// `status` must be NULL or a live status.
OxhloErrorCode oxhlo_status_code(const OxhloStatus *status);

// The status's full message: a summary line, then one `file:line:col: error: ...` line per diagnostic.
// "" for NULL. Valid until the status is destroyed.
//
// # Safety
// `status` must be NULL or a live status.
const char *oxhlo_status_message(const OxhloStatus *status);

// How many diagnostics (located messages) the status carries; 0 for NULL.
//
// # Safety
// `status` must be NULL or a live status.
size_t oxhlo_status_num_diagnostics(const OxhloStatus *status);

// Diagnostic `index` as `file:line:col: error: message`, or NULL when out of range. Valid until the status
// is destroyed.
//
// # Safety
// `status` must be NULL or a live status.
const char *oxhlo_status_diagnostic(const OxhloStatus *status,
                                    size_t index);

// Frees a status (NULL is allowed).
//
// # Safety
// `status` must be NULL or a status not yet destroyed.
void oxhlo_status_destroy(OxhloStatus *status);

// A static name for an error code (`"parse"`, `"invalid argument"`, ...; `"ok"` for 0, `"unknown"` for others).
const char *oxhlo_error_code_name(OxhloErrorCode code);

#ifdef __cplusplus
} // extern "C"
#endif // __cplusplus

#endif /* OXHLO_H */
