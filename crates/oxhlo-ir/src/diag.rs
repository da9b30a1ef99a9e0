//! Diagnostics: one error with the location it points at, printed as `FILE:LINE:COL: error: message`.

use crate::location::Location;
use std::fmt;

/// An error found in a program, with where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub loc: Location,
    pub message: String,
}

impl Diagnostic {
    pub fn new(loc: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic { loc, message: message.into() }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: error: {}", self.loc, self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// Several diagnostics (a parse or verify run reports all it finds).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Diagnostics {
        Diagnostics(vec![d])
    }
}
