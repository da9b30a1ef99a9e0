//! Test harness: calls the plugin's entry points through the `PJRT_Api` table exactly as a framework
//! does (typed function pointers on `#[repr(C)]` argument structs), plus a mock backend so execution
//! paths can be tested independently of the program readers and the interpreter.

#![allow(dead_code)]

use oxhlo_pjrt::abi::{self, ErrorDestroyArgs, ErrorGetCodeArgs, ErrorMessageArgs};
use oxhlo_pjrt::api::Slot;
use oxhlo_pjrt::dtype::BufferType;
use oxhlo_pjrt::engine::{ArraySpec, Backend, CompileRequest, Donation, HostArray, Launch, Program};
use oxhlo_pjrt::error::{Error, Result};
use oxhlo_pjrt::PjrtApi;
use std::ffi::c_void;
use std::sync::Arc;

/// The plugin's table.
pub fn api() -> &'static PjrtApi {
    unsafe { &*oxhlo_pjrt::GetPjrtApi() }
}

/// A zeroed argument struct with `struct_size` set.
pub fn args<T>() -> T {
    unsafe {
        let mut a: T = std::mem::zeroed();
        *(&mut a as *mut T as *mut usize) = std::mem::size_of::<T>();
        a
    }
}

/// Calls a slot with an argument struct; returns the `PJRT_Error*`.
pub fn call<A>(slot: Slot, a: &mut A) -> *mut c_void {
    let f: unsafe extern "C" fn(*mut A) -> *mut c_void = unsafe { std::mem::transmute(slot.expect("null slot")) };
    unsafe { f(a) }
}

/// Calls a slot with a null argument pointer.
pub fn call_null(slot: Slot) -> *mut c_void {
    let f: unsafe extern "C" fn(*mut c_void) -> *mut c_void = unsafe { std::mem::transmute(slot.expect("null slot")) };
    unsafe { f(std::ptr::null_mut()) }
}

/// Reads and frees a `PJRT_Error*` through the API; None for success.
pub fn take_error(e: *mut c_void) -> Option<(i32, String)> {
    if e.is_null() {
        return None;
    }
    let a = api();
    let mut m: ErrorMessageArgs = args();
    m.error = e;
    let f: unsafe extern "C" fn(*mut ErrorMessageArgs) = unsafe { std::mem::transmute(a.error_message.unwrap()) };
    unsafe { f(&mut m) };
    let msg = unsafe { String::from_utf8_lossy(std::slice::from_raw_parts(m.message as *const u8, m.message_size)) }.into_owned();
    let mut c: ErrorGetCodeArgs = args();
    c.error = e;
    assert!(call(a.error_get_code, &mut c).is_null());
    let mut d: ErrorDestroyArgs = args();
    d.error = e;
    let f: unsafe extern "C" fn(*mut ErrorDestroyArgs) = unsafe { std::mem::transmute(a.error_destroy.unwrap()) };
    unsafe { f(&mut d) };
    Some((c.code, msg))
}

/// Asserts success.
pub fn ok(e: *mut c_void) {
    if let Some((code, msg)) = take_error(e) {
        panic!("unexpected error {code}: {msg}");
    }
}

/// Asserts an error with `code` whose message contains `needle`.
pub fn expect_error(e: *mut c_void, code: i32, needle: &str) {
    match take_error(e) {
        None => panic!("expected an error containing {needle:?}"),
        Some((c, m)) => {
            assert_eq!(c, code, "message: {m}");
            assert!(m.contains(needle), "{m:?} does not contain {needle:?}");
        }
    }
}

pub const INVALID: i32 = abi::code::INVALID_ARGUMENT;
pub const UNIMPLEMENTED: i32 = abi::code::UNIMPLEMENTED;

/// A program of the mock backend: `f32[n] x k -> f32[n]`, the elementwise sum of its inputs plus the
/// device's replica id; input 0 may be donated. Code "fail" compiles but fails to run.
pub struct MockProgram {
    inputs: Vec<ArraySpec>,
    outputs: Vec<ArraySpec>,
    donations: Vec<Donation>,
    fail: bool,
}

impl Program for MockProgram {
    fn name(&self) -> &str {
        "mock_sum"
    }
    fn inputs(&self) -> &[ArraySpec] {
        &self.inputs
    }
    fn outputs(&self) -> &[ArraySpec] {
        &self.outputs
    }
    fn donations(&self) -> &[Donation] {
        &self.donations
    }
    fn text(&self) -> String {
        "mock".into()
    }
    fn execute(&self, args: Vec<Vec<HostArray>>, launch: &Launch) -> Result<Vec<Vec<HostArray>>> {
        if self.fail {
            return Err(Error::invalid("mock.mlir:3:5: error: the program failed on purpose"));
        }
        Ok(args
            .iter()
            .zip(&launch.logical_ids)
            .map(|(ins, &(replica, _))| {
                let n = self.outputs[0].dims[0] as usize;
                let mut sum = vec![replica as f32; n];
                for a in ins {
                    for (i, c) in a.bytes.chunks(4).enumerate() {
                        sum[i] += f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                    }
                }
                let bytes: Vec<u8> = sum.iter().flat_map(|v| v.to_le_bytes()).collect();
                vec![HostArray { spec: self.outputs[0].clone(), bytes: oxhlo_pjrt::host_bytes::HostBytes::from(bytes) }]
            })
            .collect())
    }
}

/// Compiles "mlir" code `sum:<k>:<n>[:donate]` or `fail:<k>:<n>`.
pub struct MockBackend;

impl Backend for MockBackend {
    fn describe(&self) -> String {
        "mock backend".into()
    }
    fn compile(&self, req: &CompileRequest) -> Result<Arc<dyn Program>> {
        let code = String::from_utf8_lossy(req.code).into_owned();
        let parts: Vec<&str> = code.split(':').collect();
        let (Some(kind), Some(k), Some(n)) = (parts.first(), parts.get(1), parts.get(2)) else {
            return Err(Error::invalid(format!("mock: cannot parse program {code:?}")));
        };
        let k: usize = k.parse().map_err(|_| Error::invalid("mock: bad k"))?;
        let n: i64 = n.parse().map_err(|_| Error::invalid("mock: bad n"))?;
        let spec = ArraySpec::new(BufferType::F32, &[n]);
        let donations = if parts.get(3) == Some(&"donate") { vec![Donation { input: 0, output: Some(0) }] } else { vec![] };
        Ok(Arc::new(MockProgram {
            inputs: vec![spec.clone(); k],
            outputs: vec![spec],
            donations,
            fail: *kind == "fail",
        }))
    }
}

/// A `PJRT_Client*` of `n` devices on the mock backend.
pub fn mock_client(n: usize) -> *mut c_void {
    oxhlo_pjrt::client::create_raw(n, Box::new(MockBackend)).unwrap()
}

/// Destroys a client.
pub fn destroy_client(c: *mut c_void) {
    let mut a: oxhlo_pjrt::abi::client::ClientArgs = args();
    a.client = c;
    ok(call(api().client_destroy, &mut a));
}
