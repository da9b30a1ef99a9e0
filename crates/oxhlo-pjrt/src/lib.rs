//! oxhlo's PJRT plugin: `liboxhlo_pjrt.so` exports `GetPjrtApi`, through which JAX (or any PJRT
//! framework) lists oxhlo devices, moves arrays in and out, compiles StableHLO programs and runs them
//! on oxhlo.
//!
//! Layout of the crate:
//! - [`abi`]: `#[repr(C)]` mirrors of the C API structs (API 0.112).
//! - [`api`]: the function table and `GetPjrtApi`.
//! - [`error`], [`event`]: `PJRT_Error` and `PJRT_Event`, and [`error::guard`], which every entry point
//!   runs under so that no panic crosses the FFI boundary.
//! - [`client`], [`device`], [`buffer`], [`executable`], [`execute`], [`plugin`]: the entry points.
//! - [`engine`]: the execution facade (a `Backend` compiling programs that run on host arrays).
//! - [`completion`]: the thread that completes the events of device work an execution left running.
//! - [`proto`]: protobuf wire decoding of compile options; [`layout`]: strided host copies.
//!
//! Environment: `OXHLO_NUM_DEVICES=N` exposes N devices; `OXHLO_LOG=debug` logs every call to stderr.
//!
//! # Safety of the entry points
//! Every `pub unsafe extern "C" fn` entry point has the contract of the C API: `args` is null or points
//! to a live argument struct of the type the header declares for that function, whose handles
//! (clients, devices, buffers, ...) were made by this plugin and are still alive.

#![allow(clippy::missing_safety_doc)]

/// Big freed blocks are kept for the next run's tensors (`oxhlo_cpu::big_blocks`): no page faults per run.
#[global_allocator]
static ALLOCATOR: oxhlo_cpu::big_blocks::BigBlockCache = oxhlo_cpu::big_blocks::BigBlockCache;

pub mod abi;
pub mod api;
pub mod attrs;
pub mod buffer;
pub mod client;
pub mod completion;
pub mod device;
pub mod dtype;
pub mod engine;
pub mod error;
pub mod event;
pub mod executable;
pub mod execute;
pub mod host_bytes;
pub mod host_callbacks;
pub mod layout;
pub mod layouts_ext;
pub mod log;
pub mod plugin;
pub mod proto;
pub mod stubs;
pub mod util;

pub use api::{GetPjrtApi, PjrtApi};
