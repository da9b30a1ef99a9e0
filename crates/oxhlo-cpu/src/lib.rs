//! The fast CPU backend. A [`CpuProgram`] holds an (already optimized) module and its plan; running it
//! walks each block's steps with native typed tensors ([`tensor`]): fused kernels and library kernels
//! ([`kernels`]) where they exist, the host for control flow (while/if/case/call), and the reference
//! interpreter for any op no kernel handles (converted in and out), so every op and element type runs.

pub mod alloc;
pub mod big_blocks;
pub mod exec;
pub mod kernels;
pub mod pipeline;
pub mod profile;
pub mod tensor;

pub use exec::{CpuOptions, CpuProgram, RunOutcome};
pub use oxhlo_opt::{OptLevel, OptOptions};
pub use tensor::{Buf, Kind, NTensor, Val};
