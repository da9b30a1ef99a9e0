//! # oxhlo: compile and run StableHLO programs from Rust
//!
//! A [`Client`] compiles a program (MLIR text, or MLIR bytecode / a StableHLO portable artifact) into an
//! [`Executable`]; [`Buffer`]s carry tensors in and out of [`Executable::execute`].
//!
//! ```
//! use oxhlo::{Buffer, Client};
//!
//! let client = Client::new()?; // backend from OXHLO_BACKEND, else the default (CPU)
//! let exe = client.compile(r#"
//!   func.func @main(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
//!     %0 = stablehlo.add %a, %b : tensor<2x2xf32>
//!     return %0 : tensor<2x2xf32>
//!   }"#)?;
//! let a = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
//! let b = Buffer::from_slice(&[0.5f32, 0.5, 0.5, 0.5], &[2, 2])?;
//! let outputs = exe.execute(&[&a, &b])?;
//! assert_eq!(outputs[0].to_vec::<f32>()?, vec![1.5, 2.5, 3.5, 4.5]);
//! # Ok::<(), oxhlo::Error>(())
//! ```
//!
//! ## What happens in `compile`
//! The bytes are parsed (text, or bytecode when they start with `ML\xEFR`), verified against the StableHLO
//! spec, and compiled for the [`Backend`]. Bad programs give an [`Error`] of kind
//! [`Parse`](ErrorKind::Parse) or [`Verify`](ErrorKind::Verify) whose [`diagnostics`](Error::diagnostics)
//! name the file, line and column. Compiled programs are kept in the client's compile cache
//! ([`CompileOptions::cache`]), keyed by the program and the options.
//!
//! ## Backends
//! [`Backend::Interpreter`] is the reference interpreter: exact and complete, not fast. [`Backend::Cpu`]
//! (the default) is the fast CPU backend (native kernels and fusion; any op without a kernel runs on the
//! interpreter, so results always follow its semantics); [`Backend::Cuda`] runs on an
//! NVIDIA GPU (`oxhlo-cuda`) when one is usable, and fails with a clear Unsupported error otherwise. Programs, buffers and results are the same on every backend.
//!
//! ## Element types
//! Buffers hold every non-quantized StableHLO element type ([`DType`]). Rust types map onto them through
//! [`Element`]: `bool`, `i8`..`i64`, `u8`..`u64`, `f32`, `f64`, [`Complex<f32>`], [`Complex<f64>`], and
//! with the `half` feature `half::f16`, `half::bf16`; the others go through [`Buffer::from_bytes`].
//!
//! ## Features
//! - `half`: `half::f16` and `half::bf16` as [`Element`]s.
//! - `ndarray`: [`Buffer::from_array`] and [`Buffer::to_array`].
//!
//! ## Threads
//! [`Client`], [`Executable`] and [`Buffer`] are `Send + Sync`; several threads may execute one executable
//! at the same time.

#![warn(missing_docs)]

mod backend;
mod buffer;
mod cache;
mod client;
mod dtype;
mod element;
mod engine;
mod error;
mod executable;
mod frontend;
#[cfg(feature = "ndarray")]
mod ndarray_interop;
mod timing;

pub use backend::{Backend, OptLevel, BACKEND_ENV};
pub use buffer::Buffer;
pub use cache::CacheStats;
pub use client::{Client, ClientBuilder, CompileOptions, DEFAULT_CACHE_CAPACITY};
pub use dtype::DType;
pub use element::{Complex, Element};
pub use error::{Diagnostic, Error, ErrorKind, Result};
pub use executable::{Executable, TensorSpec};
pub use frontend::BYTECODE_MAGIC;
pub use timing::{ExecutionTiming, KernelTiming};

/// The version of this crate (`CARGO_PKG_VERSION`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
