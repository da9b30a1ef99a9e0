//! oxhlo's IR for StableHLO programs.
//!
//! A [`Module`] holds [`Func`]s; a function owns the arena of its [`Value`]s (their [`Type`]s) and a body
//! [`Region`] of [`Block`]s of [`Op`]s. Every op is declared once in [`ops::OP_TABLE`]; attributes are typed
//! ([`Attr`]), dense constants are stored bit-exactly ([`DenseElements`]). The verifier ([`verify`]) checks
//! the StableHLO spec's constraints and reports [`Diagnostic`]s at the op's [`Location`].

pub mod attr;
pub mod body;
pub mod dense;
pub mod diag;
pub mod location;
pub mod module;
pub mod ops;
pub mod types;
pub mod verify;

pub use attr::{Attr, NamedAttr};
pub use body::{Block, Op, Region, Value};
pub use dense::DenseElements;
pub use diag::{Diagnostic, Diagnostics};
pub use location::Location;
pub use module::{Func, Module, Visibility};
pub use ops::{OpKind, Syntax, OP_TABLE};
pub use types::{ElementType, FloatType, FunctionType, QuantType, Signedness, TensorType, Type, DYN};
pub use verify::verify_module;
