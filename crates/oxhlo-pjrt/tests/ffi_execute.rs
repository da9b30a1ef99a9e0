//! Compilation and execution through the C API table: compile options, the compile cache, executable
//! queries, serialization, execution on one and several devices, donation, and error paths (bad
//! programs and bad arguments give errors with messages, never crashes).

mod common;

use common::*;
use oxhlo_pjrt::abi::buffer::{BufferArgs, BufferBoolArgs, BufferFromHostArgs, BufferToHostArgs};
use oxhlo_pjrt::abi::client::{ClientCompileArgs, ClientListArgs, Program};
use oxhlo_pjrt::abi::exec::*;
use oxhlo_pjrt::abi::EventArgs;
use oxhlo_pjrt::proto::{CompileOptions, DeviceAssignment, Writer};
use std::ffi::{c_char, c_void};

const CAPTURED_OPTIONS: &[u8] = include_bytes!("data/jax_0_10_2_compile_options.pb");

/// CompileOptionsProto with `replicas x partitions` and the default device assignment.
fn options(replicas: i64, partitions: i64) -> Vec<u8> {
    let mut b = Writer::default();
    b.int(4, replicas);
    b.int(5, partitions);
    b.bytes(9, &DeviceAssignment::default_for(replicas, partitions).serialize());
    let mut w = Writer::default();
    w.bytes(3, &b.buf);
    w.buf
}

fn compile(c: *mut c_void, code: &str, opts: &[u8]) -> Result<*mut c_void, (i32, String)> {
    compile_bytes(c, code.as_bytes(), opts)
}

fn compile_bytes(c: *mut c_void, code: &[u8], opts: &[u8]) -> Result<*mut c_void, (i32, String)> {
    let fmt = "mlir";
    let p = Program {
        struct_size: std::mem::size_of::<Program>(),
        extension_start: std::ptr::null_mut(),
        code: code.as_ptr() as *mut c_char,
        code_size: code.len(),
        format: fmt.as_ptr() as *const c_char,
        format_size: fmt.len(),
    };
    let mut a: ClientCompileArgs = args();
    a.client = c;
    a.program = &p;
    a.compile_options = opts.as_ptr() as *const c_char;
    a.compile_options_size = opts.len();
    match take_error(call(api().client_compile, &mut a)) {
        None => Ok(a.executable),
        Some(e) => Err(e),
    }
}

fn f32_buffer(c: *mut c_void, device: *mut c_void, vals: &[f32]) -> *mut c_void {
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    let dims = [vals.len() as i64];
    let mut a: BufferFromHostArgs = args();
    a.client = c;
    a.data = bytes.as_ptr() as *const c_void;
    a.kind = 11;
    a.dims = dims.as_ptr();
    a.num_dims = 1;
    a.device = device;
    ok(call(api().client_buffer_from_host_buffer, &mut a));
    let mut e: EventArgs = args();
    e.event = a.done_with_host_buffer;
    ok(call(api().event_destroy, &mut e));
    a.buffer
}

fn read_f32(b: *mut c_void) -> Vec<f32> {
    let mut a: BufferToHostArgs = args();
    a.src = b;
    ok(call(api().buffer_to_host_buffer, &mut a));
    let mut out = vec![0u8; a.dst_size];
    a.dst = out.as_mut_ptr() as *mut c_void;
    ok(call(api().buffer_to_host_buffer, &mut a));
    let mut e: EventArgs = args();
    e.event = a.event;
    ok(call(api().event_destroy, &mut e));
    out.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn destroy_buffer(b: *mut c_void) {
    let mut d: BufferArgs = args();
    d.buffer = b;
    ok(call(api().buffer_destroy, &mut d));
}

fn devices(c: *mut c_void) -> Vec<*mut c_void> {
    let mut l: ClientListArgs = args();
    l.client = c;
    ok(call(api().client_devices, &mut l));
    unsafe { std::slice::from_raw_parts(l.items, l.num_items) }.to_vec()
}

/// Executes with `lists[d]` as device d's arguments; returns each device's outputs.
fn execute(exe: *mut c_void, lists: &[Vec<*mut c_void>], num_out: usize, non_donatable: &[i64]) -> Result<Vec<Vec<*mut c_void>>, (i32, String)> {
    let arg_ptrs: Vec<*const *mut c_void> = lists.iter().map(|l| l.as_ptr()).collect();
    let mut outs: Vec<Vec<*mut c_void>> = lists.iter().map(|_| vec![std::ptr::null_mut(); num_out]).collect();
    let out_ptrs: Vec<*mut *mut c_void> = outs.iter_mut().map(|o| o.as_mut_ptr()).collect();
    let mut events = vec![std::ptr::null_mut(); lists.len()];
    let mut o: ExecuteOptions = args();
    o.non_donatable_input_indices = non_donatable.as_ptr();
    o.num_non_donatable_input_indices = non_donatable.len();
    let mut a: ExecuteArgs = args();
    a.executable = exe;
    a.options = &mut o;
    a.argument_lists = arg_ptrs.as_ptr();
    a.num_devices = lists.len();
    a.num_args = lists.first().map_or(0, Vec::len);
    a.output_lists = out_ptrs.as_ptr();
    a.device_complete_events = events.as_mut_ptr();
    if let Some(e) = take_error(call(api().loaded_executable_execute, &mut a)) {
        return Err(e);
    }
    for ev in events {
        let mut w: EventArgs = args();
        w.event = ev;
        ok(call(api().event_await, &mut w));
        ok(call(api().event_destroy, &mut w));
    }
    Ok(outs)
}

fn get_executable(loaded: *mut c_void) -> *mut c_void {
    let mut g: LoadedGetExecutableArgs = args();
    g.loaded_executable = loaded;
    ok(call(api().loaded_executable_get_executable, &mut g));
    g.executable
}

fn destroy_executables(loaded: *mut c_void, exe: *mut c_void) {
    let mut d: ExecutableArgs = args();
    d.executable = exe;
    ok(call(api().executable_destroy, &mut d));
    d.executable = loaded;
    ok(call(api().loaded_executable_destroy, &mut d));
}

#[test]
fn compile_options_from_jax_parse() {
    let o = CompileOptions::parse(CAPTURED_OPTIONS).unwrap();
    assert_eq!((o.num_replicas, o.num_partitions), (1, 1));
    assert!(o.use_spmd_partitioning && o.use_shardy_partitioner);
    assert_eq!(o.device_assignment.unwrap().devices, vec![vec![0]]);
}

#[test]
fn execute_on_one_device() {
    let c = mock_client(1);
    let d = devices(c);
    let loaded = compile(c, "sum:2:3", CAPTURED_OPTIONS).unwrap();
    let exe = get_executable(loaded);
    let mut n: ExecutableSizeArgs = args();
    n.executable = exe;
    ok(call(api().executable_num_outputs, &mut n));
    assert_eq!(n.value, 1);
    let mut name: ExecutableStringArgs = args();
    name.executable = exe;
    ok(call(api().executable_name, &mut name));
    let s = unsafe { std::slice::from_raw_parts(name.value as *const u8, name.value_size) };
    assert_eq!(s, b"mock_sum");
    let mut types: OutputElementTypesArgs = args();
    types.executable = exe;
    ok(call(api().executable_output_element_types, &mut types));
    assert_eq!(unsafe { *types.output_types }, 11);
    let mut dims: OutputDimensionsArgs = args();
    dims.executable = exe;
    ok(call(api().executable_output_dimensions, &mut dims));
    assert_eq!((dims.num_outputs, unsafe { *dims.dims }), (1, 3));
    let mut kinds: MemoryKindsArgs = args();
    kinds.executable = exe;
    ok(call(api().executable_output_memory_kinds, &mut kinds));
    assert_eq!(unsafe { std::slice::from_raw_parts(*kinds.memory_kinds as *const u8, *kinds.memory_kind_sizes) }, b"device");

    let x = f32_buffer(c, d[0], &[1.0, 2.0, 3.0]);
    let y = f32_buffer(c, d[0], &[10.0, 20.0, 30.0]);
    let outs = execute(loaded, &[vec![x, y]], 1, &[]).unwrap();
    assert_eq!(read_f32(outs[0][0]), vec![11.0, 22.0, 33.0]);
    destroy_buffer(outs[0][0]);

    // Wrong arity, wrong shape, a deleted argument: errors naming the problem.
    expect_error_pair(execute(loaded, &[vec![x]], 1, &[]), "takes 2 argument(s) but was given 1");
    let z = f32_buffer(c, d[0], &[1.0, 2.0]);
    expect_error_pair(execute(loaded, &[vec![x, z]], 1, &[]), "argument 1 of mock_sum: expected f32[3], got f32[2]");
    let mut del: BufferArgs = args();
    del.buffer = y;
    ok(call(api().buffer_delete, &mut del));
    expect_error_pair(execute(loaded, &[vec![x, y]], 1, &[]), "has been deleted");
    for b in [x, y, z] {
        destroy_buffer(b);
    }
    destroy_executables(loaded, exe);
    destroy_client(c);
}

fn expect_error_pair<T>(r: Result<T, (i32, String)>, needle: &str) {
    match r {
        Ok(_) => panic!("expected an error containing {needle:?}"),
        Err((code, msg)) => {
            assert_eq!(code, INVALID, "{msg}");
            assert!(msg.contains(needle), "{msg:?} does not contain {needle:?}");
        }
    }
}

#[test]
fn runtime_errors_carry_the_message() {
    let c = mock_client(1);
    let loaded = compile(c, "fail:1:2", &[]).unwrap();
    let x = f32_buffer(c, devices(c)[0], &[1.0, 2.0]);
    let (code, msg) = execute(loaded, &[vec![x]], 1, &[]).unwrap_err();
    assert_eq!(code, INVALID);
    assert!(msg.contains("mock.mlir:3:5") && msg.contains("failed on purpose"), "{msg}");
    destroy_buffer(x);
    let exe = get_executable(loaded);
    destroy_executables(loaded, exe);
    destroy_client(c);
}

#[test]
fn donation_deletes_the_input_unless_non_donatable() {
    let c = mock_client(1);
    let d = devices(c);
    let loaded = compile(c, "sum:1:2:donate", &[]).unwrap();
    let x = f32_buffer(c, d[0], &[1.0, 2.0]);
    let outs = execute(loaded, &[vec![x]], 1, &[0]).unwrap();
    let mut q: BufferBoolArgs = args();
    q.buffer = x;
    ok(call(api().buffer_is_deleted, &mut q));
    assert!(!q.value, "non-donatable input was donated");
    destroy_buffer(outs[0][0]);
    let outs = execute(loaded, &[vec![x]], 1, &[]).unwrap();
    ok(call(api().buffer_is_deleted, &mut q));
    assert!(q.value, "donated input is still live");
    assert_eq!(read_f32(outs[0][0]), vec![1.0, 2.0]);
    expect_error_pair(execute(loaded, &[vec![x]], 1, &[]), "donated");
    destroy_buffer(outs[0][0]);
    destroy_buffer(x);
    let exe = get_executable(loaded);
    destroy_executables(loaded, exe);
    destroy_client(c);
}

#[test]
fn execute_on_several_devices() {
    let c = mock_client(4);
    let d = devices(c);
    let loaded = compile(c, "sum:1:2", &options(2, 2)).unwrap();
    let mut ad: LoadedDevicesArgs = args();
    ad.executable = loaded;
    ok(call(api().loaded_executable_addressable_devices, &mut ad));
    assert_eq!(ad.num_items, 4);
    let mut ids: LoadedLogicalIdsArgs = args();
    ids.executable = loaded;
    ok(call(api().loaded_executable_addressable_device_logical_ids, &mut ids));
    let ids = unsafe { std::slice::from_raw_parts(ids.ids, ids.num_ids) };
    assert_eq!(ids[3], LogicalDeviceIds { replica: 1, partition: 1 });
    let mut da: SerializedBytesArgs = args();
    da.executable = loaded;
    ok(call(api().loaded_executable_get_device_assignment, &mut da));
    let bytes = unsafe { std::slice::from_raw_parts(da.bytes as *const u8, da.bytes_size) };
    assert_eq!(DeviceAssignment::parse(bytes).unwrap(), DeviceAssignment::default_for(2, 2));
    unsafe { (da.deleter.unwrap())(da.backing) };

    let bufs: Vec<*mut c_void> = d.iter().map(|&dev| f32_buffer(c, dev, &[1.0, 1.0])).collect();
    let lists: Vec<Vec<*mut c_void>> = bufs.iter().map(|&b| vec![b]).collect();
    let outs = execute(loaded, &lists, 1, &[]).unwrap();
    // The mock adds the replica id: devices of replica 1 give 2.0.
    let got: Vec<f32> = outs.iter().map(|o| read_f32(o[0])[0]).collect();
    assert_eq!(got, vec![1.0, 1.0, 2.0, 2.0]);
    expect_error_pair(execute(loaded, &lists[..2], 1, &[]), "runs on 4 device(s) but 2 argument lists");
    assert!(compile(c, "sum:1:2", &options(4, 2)).unwrap_err().1.contains("OXHLO_NUM_DEVICES=8"));
    for o in outs {
        destroy_buffer(o[0]);
    }
    for b in bufs {
        destroy_buffer(b);
    }
    let exe = get_executable(loaded);
    destroy_executables(loaded, exe);
    destroy_client(c);
}

#[test]
fn serialize_and_deserialize() {
    let c = mock_client(1);
    let loaded = compile(c, "sum:1:2", CAPTURED_OPTIONS).unwrap();
    let exe = get_executable(loaded);
    let mut fp: ExecutableStringArgs = args();
    fp.executable = exe;
    ok(call(api().executable_fingerprint, &mut fp));
    let fp1 = unsafe { std::slice::from_raw_parts(fp.value as *const u8, fp.value_size) }.to_vec();
    let mut s: SerializedBytesArgs = args();
    s.executable = exe;
    ok(call(api().executable_serialize, &mut s));
    let mut d: DeserializeAndLoadArgs = args();
    d.client = c;
    d.serialized_executable = s.bytes;
    d.serialized_executable_size = s.bytes_size;
    ok(call(api().executable_deserialize_and_load, &mut d));
    unsafe { (s.deleter.unwrap())(s.backing) };
    let exe2 = get_executable(d.loaded_executable);
    fp.executable = exe2;
    ok(call(api().executable_fingerprint, &mut fp));
    assert_eq!(unsafe { std::slice::from_raw_parts(fp.value as *const u8, fp.value_size) }, &fp1[..]);
    let x = f32_buffer(c, devices(c)[0], &[4.0, 5.0]);
    let outs = execute(d.loaded_executable, &[vec![x]], 1, &[]).unwrap();
    assert_eq!(read_f32(outs[0][0]), vec![4.0, 5.0]);
    destroy_buffer(outs[0][0]);
    destroy_buffer(x);

    let junk = b"not an executable";
    d.serialized_executable = junk.as_ptr() as *const c_char;
    d.serialized_executable_size = junk.len();
    expect_error(call(api().executable_deserialize_and_load, &mut d), INVALID, "not a serialized oxhlo executable");
    destroy_executables(loaded, exe);
    let mut de: ExecutableArgs = args();
    de.executable = exe2;
    ok(call(api().executable_destroy, &mut de));
    de.executable = d.loaded_executable;
    ok(call(api().loaded_executable_destroy, &mut de));
    destroy_client(c);
}

#[test]
fn bad_programs_and_options_are_errors() {
    // The real backend: garbage bytes, truncated bytecode, text that is not a module.
    let c = oxhlo_pjrt::client::create_raw(1, oxhlo_pjrt::engine::default_backend()).unwrap();
    let (_, msg) = compile(c, "\u{0}\u{1}garbage", &[]).unwrap_err();
    assert!(!msg.is_empty());
    let (_, msg) = compile(c, "ML\u{ef}R", &[]).unwrap_err();
    assert!(!msg.is_empty());
    let (_, msg) = compile(c, "this is not MLIR", &[]).unwrap_err();
    assert!(!msg.is_empty());
    // Malformed compile options.
    let (code, msg) = compile(c, "x", &[0x1a, 0x05, 0x20]).unwrap_err();
    assert_eq!(code, INVALID);
    assert!(msg.contains("CompileOptionsProto"), "{msg}");
    destroy_client(c);
    // Wrong program format.
    let c = mock_client(1);
    let code = "sum:1:1";
    let fmt = "hlo";
    let p = Program {
        struct_size: std::mem::size_of::<Program>(),
        extension_start: std::ptr::null_mut(),
        code: code.as_ptr() as *mut c_char,
        code_size: code.len(),
        format: fmt.as_ptr() as *const c_char,
        format_size: fmt.len(),
    };
    let mut a: ClientCompileArgs = args();
    a.client = c;
    a.program = &p;
    let e = call(api().client_compile, &mut a);
    // The mock accepts any format; the default backend's check is covered in its unit tests.
    if !e.is_null() {
        take_error(e);
    }
    destroy_client(c);
}

#[test]
fn jax_0_11_shard_map_with_mesh_axes_replica_groups() {
    // jax 0.11.2: shard_map(lambda a: (psum(a, "x"), pmean(2 * a, "x")), in_specs=P("x"), out_specs=P())
    // on 4 devices; its collectives name their groups by mesh axes.
    let code = include_bytes!("data/jax_0_11_2_shard_map_psum_pmean.mlirbc");
    let c = oxhlo_pjrt::client::create_raw(4, oxhlo_pjrt::engine::default_backend()).unwrap();
    let d = devices(c);
    let loaded = compile_bytes(c, code, &options(1, 4)).unwrap();
    let bufs: Vec<*mut c_void> = (0..4).map(|i| f32_buffer(c, d[i], &[i as f32, 10.0 * i as f32])).collect();
    let lists: Vec<Vec<*mut c_void>> = bufs.iter().map(|&b| vec![b]).collect();
    let outs = execute(loaded, &lists, 2, &[]).unwrap();
    for o in &outs {
        assert_eq!(read_f32(o[0]), vec![6.0, 60.0]);
        assert_eq!(read_f32(o[1]), vec![3.0, 30.0]);
        destroy_buffer(o[0]);
        destroy_buffer(o[1]);
    }
    for b in bufs {
        destroy_buffer(b);
    }
    let exe = get_executable(loaded);
    destroy_executables(loaded, exe);
    destroy_client(c);
}
