//! The reference interpreter: executes oxhlo IR op by op, exactly as the StableHLO spec says, on every
//! element type. It is the oracle every fast backend and optimization is checked against.

pub mod collectives;
pub mod custom_call;
pub mod dispatch;
pub mod error;
pub mod eval;
pub mod npy;
pub mod npz;
pub mod ops;
pub mod parallel;
pub mod pool;
pub mod tensor;
pub mod testing;

pub use error::InterpError;
pub use eval::{run_main, Interpreter, OpProfile};
pub use testing::{run_test_source, TestReport};
pub use tensor::{Data, RtValue, Tensor};
