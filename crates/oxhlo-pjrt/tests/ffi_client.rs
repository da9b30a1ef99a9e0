//! The plugin, client, device and memory entry points through the C API table, and the error paths
//! every entry point shares (null arguments, unimplemented slots).

mod common;

use common::*;
use oxhlo_pjrt::abi::client::*;
use oxhlo_pjrt::abi::{named_type, NamedValue, NamedValueUnion, PluginAttributesArgs, PluginInitializeArgs};
use std::ffi::{c_char, c_void};

fn str_of(p: *const c_char, n: usize) -> String {
    unsafe { String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, n)).into_owned() }
}

fn create_client(options: &[NamedValue]) -> Result<*mut c_void, (i32, String)> {
    let mut a: ClientCreateArgs = args();
    a.create_options = options.as_ptr();
    a.num_options = options.len();
    match take_error(call(api().client_create, &mut a)) {
        None => Ok(a.client),
        Some(e) => Err(e),
    }
}

fn int_option(name: &'static str, v: i64) -> NamedValue {
    NamedValue {
        struct_size: std::mem::size_of::<NamedValue>(),
        extension_start: std::ptr::null_mut(),
        name: name.as_ptr() as *const c_char,
        name_size: name.len(),
        kind: named_type::INT64,
        value: NamedValueUnion { int64_value: v },
        value_size: 1,
    }
}

#[test]
fn version_and_table() {
    let a = api();
    assert_eq!(a.struct_size, 1144);
    assert_eq!(a.pjrt_api_version.major_version, 0);
    assert!(a.pjrt_api_version.minor_version >= 29);
    let mut i: PluginInitializeArgs = args();
    ok(call(a.plugin_initialize, &mut i));
}

#[test]
fn plugin_attributes_report_the_stablehlo_version() {
    let mut a: PluginAttributesArgs = args();
    ok(call(api().plugin_attributes, &mut a));
    let attrs = unsafe { std::slice::from_raw_parts(a.attributes, a.num_attributes) };
    let v = attrs.iter().find(|v| str_of(v.name, v.name_size) == "stablehlo_current_version").expect("attribute");
    assert_eq!(v.kind, named_type::INT64_LIST);
    assert_eq!(v.value_size, 3);
    let ver = unsafe { std::slice::from_raw_parts(v.value.int64_array_value, 3) };
    assert_eq!(ver[0], 1);
}

#[test]
fn client_devices_and_memories() {
    let c = create_client(&[int_option("num_devices", 3)]).unwrap();
    let api = api();
    let mut name: ClientStringArgs = args();
    name.client = c;
    ok(call(api.client_platform_name, &mut name));
    assert_eq!(str_of(name.value, name.value_size), "oxhlo");
    ok(call(api.client_platform_version, &mut name));
    assert!(str_of(name.value, name.value_size).contains("oxhlo"));

    let mut devs: ClientListArgs = args();
    devs.client = c;
    ok(call(api.client_devices, &mut devs));
    assert_eq!(devs.num_items, 3);
    let devices = unsafe { std::slice::from_raw_parts(devs.items, 3) }.to_vec();
    for (i, &d) in devices.iter().enumerate() {
        let mut g: DeviceHandleArgs = args();
        g.device = d;
        ok(call(api.device_get_description, &mut g));
        let mut id: DescIntArgs = args();
        id.device_description = g.out;
        ok(call(api.device_description_id, &mut id));
        assert_eq!(id.value, i as i32);
        let mut s: DescStringArgs = args();
        s.device_description = g.out;
        ok(call(api.device_description_to_string, &mut s));
        assert_eq!(str_of(s.value, s.value_size), format!("OxhloDevice(id={i})"));
        ok(call(api.device_description_kind, &mut s));
        assert_eq!(str_of(s.value, s.value_size), "oxhlo");

        let mut m: DeviceHandleArgs = args();
        m.device = d;
        ok(call(api.device_default_memory, &mut m));
        let mut k: MemoryStringArgs = args();
        k.memory = m.out;
        ok(call(api.memory_kind, &mut k));
        assert_eq!(str_of(k.value, k.value_size), "device");
        let mut by: MemoryListArgs = args();
        by.memory = m.out;
        ok(call(api.memory_addressable_by_devices, &mut by));
        assert_eq!(unsafe { *by.items }, d);

        let mut at: DeviceGetAttributesArgs = args();
        at.device = d;
        ok(call(api.device_get_attributes, &mut at));
        assert!(at.attributes_deleter.is_some());
    }
    let mut l: ClientLookupDeviceArgs = args();
    l.client = c;
    l.id = 2;
    ok(call(api.client_lookup_device, &mut l));
    assert_eq!(l.device, devices[2]);
    l.id = 3;
    expect_error(call(api.client_lookup_device, &mut l), INVALID, "no device with id 3");

    let mut da: ClientDefaultDeviceAssignmentArgs = args();
    let mut out = [0i32; 4];
    da.client = c;
    da.num_replicas = 2;
    da.num_partitions = 2;
    da.default_assignment_size = 4;
    da.default_assignment = out.as_mut_ptr();
    expect_error(call(api.client_default_device_assignment, &mut da), INVALID, "need 4 devices");
    da.num_partitions = 1;
    ok(call(api.client_default_device_assignment, &mut da));
    assert_eq!(&out[..2], &[0, 1]);
    destroy_client(c);
}

#[test]
fn bad_device_counts_are_errors() {
    let (code, msg) = create_client(&[int_option("num_devices", 0)]).unwrap_err();
    assert_eq!(code, INVALID);
    assert!(msg.contains("num_devices"), "{msg}");
    let (code, _) = create_client(&[int_option("num_devices", 1 << 40)]).unwrap_err();
    assert_eq!(code, INVALID);
}

#[test]
fn null_arguments_are_errors_not_crashes() {
    let a = api();
    let slots: &[(&str, oxhlo_pjrt::api::Slot)] = &[
        ("client_create", a.client_create),
        ("client_devices", a.client_devices),
        ("client_compile", a.client_compile),
        ("buffer_to_host_buffer", a.buffer_to_host_buffer),
        ("loaded_executable_execute", a.loaded_executable_execute),
        ("event_on_ready", a.event_on_ready),
        ("executable_serialize", a.executable_serialize),
    ];
    for (name, s) in slots {
        expect_error(call_null(*s), INVALID, "null");
        let _ = name;
    }
    // Null handles inside valid argument structs.
    let mut d: ClientListArgs = args();
    expect_error(call(a.client_devices, &mut d), INVALID, "PJRT_Client pointer is null");
    let mut g: DeviceHandleArgs = args();
    expect_error(call(a.device_get_description, &mut g), INVALID, "PJRT_Device pointer is null");
}

#[test]
fn every_slot_is_filled_and_stubs_say_unimplemented() {
    let a = api();
    let slots = unsafe {
        std::slice::from_raw_parts(&a.error_destroy as *const oxhlo_pjrt::api::Slot, oxhlo_pjrt::api::SLOT_NAMES.len())
    };
    assert!(slots.iter().all(Option::is_some));
    let mut t: ClientTopologyArgs = args();
    expect_error(call(a.client_topology_description, &mut t), UNIMPLEMENTED, "PJRT_Client_TopologyDescription");
    let mut t: TopologyArgs = args();
    expect_error(call(a.topology_description_destroy, &mut t), UNIMPLEMENTED, "PJRT_TopologyDescription_Destroy");
}

#[test]
fn error_for_each_payload_returns_null() {
    let mut a: oxhlo_pjrt::abi::ErrorForEachPayloadArgs = args();
    a.error = oxhlo_pjrt::error::make_error(3, "x");
    assert!(call(api().error_for_each_payload, &mut a).is_null());
    assert_eq!(take_error(a.error as *mut c_void), Some((3, "x".to_string())));
}
