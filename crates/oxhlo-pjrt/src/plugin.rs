//! Plugin-level entry points: `PJRT_Plugin_Initialize` and `PJRT_Plugin_Attributes`. The attributes
//! tell the framework which StableHLO version to serialize programs for (`stablehlo_current_version`,
//! which must be an int64 list of 3: any other type aborts the framework).

use crate::abi::{PluginAttributesArgs, PluginInitializeArgs};
use crate::attrs::{NamedValues, Value};
use crate::error::guard;
use std::ffi::c_void;
use std::sync::OnceLock;

/// The newest StableHLO (VHLO) version whose every op the program reader (`oxhlo-bytecode`) maps; JAX
/// serializes programs for min(this, its own current version).
pub const STABLEHLO_CURRENT_VERSION: [i64; 3] = triple(oxhlo_bytecode::CURRENT_VHLO_VERSION);
/// The oldest StableHLO version the program reader handles.
pub const STABLEHLO_MINIMUM_VERSION: [i64; 3] = triple(oxhlo_bytecode::MIN_VHLO_VERSION);

const fn triple(v: (i64, i64, i64)) -> [i64; 3] {
    [v.0, v.1, v.2]
}

/// The attribute list (built once; lives for the whole process, as the API requires).
pub fn attributes() -> &'static NamedValues {
    static ATTRS: OnceLock<NamedValues> = OnceLock::new();
    ATTRS.get_or_init(|| {
        NamedValues::new(&[
            ("xla_version", Value::Int(2)),
            ("stablehlo_current_version", Value::Ints(STABLEHLO_CURRENT_VERSION.to_vec())),
            ("stablehlo_minimum_version", Value::Ints(STABLEHLO_MINIMUM_VERSION.to_vec())),
            ("oxhlo_version", Value::Str(env!("CARGO_PKG_VERSION").into())),
        ])
    })
}

pub unsafe extern "C" fn plugin_initialize(args: *mut PluginInitializeArgs) -> *mut c_void {
    guard("PJRT_Plugin_Initialize", args, |_| {
        crate::log::info(|| format!("oxhlo PJRT plugin {} initialized (API 0.{})", env!("CARGO_PKG_VERSION"), crate::abi::API_MINOR));
        Ok(())
    })
}

pub unsafe extern "C" fn plugin_attributes(args: *mut PluginAttributesArgs) -> *mut c_void {
    guard("PJRT_Plugin_Attributes", args, |a| {
        let at = attributes();
        a.attributes = at.as_ptr();
        a.num_attributes = at.len();
        Ok(())
    })
}
