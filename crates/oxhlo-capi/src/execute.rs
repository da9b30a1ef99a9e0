//! Execution in the C API: run an executable on input buffers into new output buffers, optionally with
//! timings ([`OxhloTiming`]: the total and one entry per kernel).

use crate::buffer::OxhloBuffer;
use crate::client::OxhloExecutable;
use crate::status::{arg, arg_mut, c_string, guard, guard_value, OxhloStatus};
use api::{Buffer, Error, ErrorKind, ExecutionTiming};
use std::ffi::{c_char, CString};
use std::ptr;

/// The timings of one execution: total wall time and, per kernel (on the interpreter, per op), its name,
/// source location, number of calls and time.
pub struct OxhloTiming {
    timing: ExecutionTiming,
    names: Vec<CString>,
    locations: Vec<CString>,
    report: CString,
}

unsafe fn execute_impl(
    executable: *const OxhloExecutable,
    inputs: *const *const OxhloBuffer,
    num_inputs: usize,
    outputs: *mut *mut OxhloBuffer,
    num_outputs: usize,
    timing: Option<*mut *mut OxhloTiming>,
) -> Result<(), Error> {
    let e = arg(executable, "executable")?;
    let expected = e.exe.outputs().len();
    if num_outputs != expected {
        return Err(Error::new(
            ErrorKind::InvalidArgument,
            format!("`num_outputs` is {num_outputs} but @{} returns {expected} result(s)", e.exe.entry_name()),
        ));
    }
    if expected > 0 {
        arg_mut(outputs, "outputs")?;
        for i in 0..expected {
            *outputs.add(i) = ptr::null_mut();
        }
    }
    if let Some(t) = timing {
        *arg_mut(t, "timing")? = ptr::null_mut();
    }
    let inputs: &[*const OxhloBuffer] = if num_inputs == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(arg(inputs, "inputs")?, num_inputs)
    };
    let buffers: Vec<&Buffer> = inputs
        .iter()
        .enumerate()
        .map(|(i, &p)| arg(p, &format!("inputs[{i}]")).map(|b| &b.buffer))
        .collect::<Result<_, _>>()?;
    let (results, timings) = match timing {
        Some(_) => {
            let (r, t) = e.exe.execute_with_timing(&buffers)?;
            (r, Some(t))
        }
        None => (e.exe.execute(&buffers)?, None),
    };
    if results.len() != expected {
        return Err(Error::new(ErrorKind::Internal, format!("{} results for {expected} outputs", results.len())));
    }
    for (i, r) in results.into_iter().enumerate() {
        *outputs.add(i) = Box::into_raw(Box::new(OxhloBuffer::new(r)));
    }
    if let (Some(t), Some(timing)) = (timing, timings) {
        let names = timing.kernels.iter().map(|k| c_string(&k.name)).collect();
        let locations = timing.kernels.iter().map(|k| c_string(&k.location)).collect();
        let report = c_string(&timing.to_string());
        *t = Box::into_raw(Box::new(OxhloTiming { timing, names, locations, report }));
    }
    Ok(())
}

/// Runs `executable` on `inputs[0..num_inputs]` (one buffer per argument, each of the argument's element type
/// and shape) and writes one new buffer per result to `outputs[0..num_outputs]`; `num_outputs` must be
/// `oxhlo_executable_num_outputs`. The caller destroys the outputs. On error every `outputs[i]` is NULL.
/// Several threads may execute one executable at the same time.
///
/// # Safety
/// `executable` must be NULL or live; `inputs` NULL or `num_inputs` pointers to live buffers; `outputs` NULL
/// or room for `num_outputs` pointers.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_execute(
    executable: *const OxhloExecutable,
    inputs: *const *const OxhloBuffer,
    num_inputs: usize,
    outputs: *mut *mut OxhloBuffer,
    num_outputs: usize,
) -> *mut OxhloStatus {
    guard(|| execute_impl(executable, inputs, num_inputs, outputs, num_outputs, None))
}

/// As `oxhlo_execute`, also writing the execution's timings to `*timing` (a new object the caller destroys
/// with `oxhlo_timing_destroy`; NULL on error).
///
/// # Safety
/// As `oxhlo_execute`; `timing` must be writable.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_execute_with_timing(
    executable: *const OxhloExecutable,
    inputs: *const *const OxhloBuffer,
    num_inputs: usize,
    outputs: *mut *mut OxhloBuffer,
    num_outputs: usize,
    timing: *mut *mut OxhloTiming,
) -> *mut OxhloStatus {
    guard(|| execute_impl(executable, inputs, num_inputs, outputs, num_outputs, Some(timing)))
}

/// Total wall time of the execution in nanoseconds (0 for NULL).
///
/// # Safety
/// `timing` must be NULL or live.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_timing_total_ns(timing: *const OxhloTiming) -> u64 {
    guard_value(0, || timing.as_ref().map_or(0, |t| t.timing.total.as_nanos() as u64))
}

/// The number of kernels timed (0 for NULL).
///
/// # Safety
/// `timing` must be NULL or live.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_timing_num_kernels(timing: *const OxhloTiming) -> usize {
    guard_value(0, || timing.as_ref().map_or(0, |t| t.timing.kernels.len()))
}

/// Kernel `index`'s name (on the interpreter, the op name such as `"stablehlo.add"`); NULL when out of
/// range. Valid until the timing is destroyed.
///
/// # Safety
/// `timing` must be NULL or live.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_timing_kernel_name(timing: *const OxhloTiming, index: usize) -> *const c_char {
    guard_value(ptr::null(), || timing.as_ref().and_then(|t| t.names.get(index)).map_or(ptr::null(), |s| s.as_ptr()))
}

/// Kernel `index`'s source location (`file:line:col` or `<unknown>`); NULL when out of range.
///
/// # Safety
/// `timing` must be NULL or live.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_timing_kernel_location(timing: *const OxhloTiming, index: usize) -> *const c_char {
    guard_value(ptr::null(), || timing.as_ref().and_then(|t| t.locations.get(index)).map_or(ptr::null(), |s| s.as_ptr()))
}

/// How many times kernel `index` ran (0 when out of range).
///
/// # Safety
/// `timing` must be NULL or live.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_timing_kernel_calls(timing: *const OxhloTiming, index: usize) -> u64 {
    guard_value(0, || timing.as_ref().and_then(|t| t.timing.kernels.get(index)).map_or(0, |k| k.calls))
}

/// Kernel `index`'s total time over all its calls, in nanoseconds (0 when out of range).
///
/// # Safety
/// `timing` must be NULL or live.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_timing_kernel_ns(timing: *const OxhloTiming, index: usize) -> u64 {
    guard_value(0, || timing.as_ref().and_then(|t| t.timing.kernels.get(index)).map_or(0, |k| k.time.as_nanos() as u64))
}

/// The timings as a readable table, slowest kernel first ("" for NULL). Valid until the timing is destroyed.
///
/// # Safety
/// `timing` must be NULL or live.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_timing_report(timing: *const OxhloTiming) -> *const c_char {
    guard_value(cstr!(""), || timing.as_ref().map_or(cstr!(""), |t| t.report.as_ptr()))
}

/// Frees a timing (NULL is allowed).
///
/// # Safety
/// `timing` must be NULL or a timing not yet destroyed.
#[no_mangle]
pub unsafe extern "C" fn oxhlo_timing_destroy(timing: *mut OxhloTiming) {
    guard_value((), || {
        if !timing.is_null() {
            drop(Box::from_raw(timing));
        }
    })
}
