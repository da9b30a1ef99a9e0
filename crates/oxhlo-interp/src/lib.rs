//! The reference interpreter: executes oxhlo IR op by op, exactly as the StableHLO spec says, on every
//! element type. It is the oracle every fast backend and optimization is checked against.

pub mod collectives;
pub mod error;
pub mod ops;
pub mod tensor;

pub use error::InterpError;
pub use tensor::{Data, RtValue, Tensor};
