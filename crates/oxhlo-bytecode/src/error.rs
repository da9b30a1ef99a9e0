//! The error type of the bytecode reader: a byte offset into the input plus what was
//! expected there.

use std::fmt;

/// An error found while reading bytecode: `offset` is the absolute byte offset in the
/// input where reading failed, `message` says what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BytecodeError {
    pub offset: usize,
    pub message: String,
}

impl BytecodeError {
    pub fn new(offset: usize, message: impl Into<String>) -> Self {
        BytecodeError { offset, message: message.into() }
    }
}

impl fmt::Display for BytecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: error: {}", self.offset, self.message)
    }
}

impl std::error::Error for BytecodeError {}

/// Result alias used throughout the crate.
pub type Result<T> = std::result::Result<T, BytecodeError>;
