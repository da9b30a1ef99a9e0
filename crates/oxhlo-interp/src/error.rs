//! Interpreter errors: what went wrong, in which op, at which source location.

use oxhlo_ir::Location;
use std::fmt;

/// A runtime error of the interpreter.
#[derive(Clone, Debug, PartialEq)]
pub struct InterpError {
    /// Where (the op's location; Unknown when not tied to an op).
    pub loc: Location,
    /// The op's name, or empty.
    pub op: String,
    pub message: String,
}

impl InterpError {
    pub fn new(message: impl Into<String>) -> InterpError {
        InterpError { loc: Location::Unknown, op: String::new(), message: message.into() }
    }
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.op.is_empty() {
            write!(f, "{}: error: {}", self.loc, self.message)
        } else {
            write!(f, "{}: error: {}: {}", self.loc, self.op, self.message)
        }
    }
}

impl std::error::Error for InterpError {}
