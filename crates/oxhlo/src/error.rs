//! Errors: one [`Error`] type for the whole API, with an [`ErrorKind`] saying what class of thing went wrong,
//! a message saying what, and [`Diagnostic`]s saying where (file, line and column of the program text, or
//! the op that failed at run time).

use std::fmt;

/// The result type of every fallible oxhlo call.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What class of failure an [`Error`] is.
///
/// The numeric values are the C API's error codes (`OXHLO_ERROR_*` in `oxhlo.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The program text (or bytecode) could not be read; the diagnostics point at the bad spot.
    Parse = 1,
    /// The program was read but breaks a rule of the StableHLO spec (types, shapes, attributes).
    Verify = 2,
    /// Executing the program failed (an op found bad data, a loop exceeded a limit, ...).
    Runtime = 3,
    /// A caller-supplied argument is wrong: input count, element type or shape, a buffer size, an option.
    InvalidArgument = 4,
    /// The request is valid but not supported (yet): a backend not built, an argument type the API does not
    /// carry (tokens, tuples, quantized tensors).
    Unsupported = 5,
    /// A bug in oxhlo itself (for example a panic caught at the C API boundary).
    Internal = 6,
}

impl ErrorKind {
    /// A short lower-case name: `parse`, `verify`, `runtime`, `invalid argument`, `unsupported`, `internal`.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Parse => "parse",
            ErrorKind::Verify => "verify",
            ErrorKind::Runtime => "runtime",
            ErrorKind::InvalidArgument => "invalid argument",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One located message about a program: `file:line:column: error: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file (or the source name given in [`CompileOptions`](crate::CompileOptions)); None when unknown.
    pub file: Option<String>,
    /// 1-based line, 0 when unknown.
    pub line: u32,
    /// 1-based column, 0 when unknown.
    pub column: u32,
    /// For MLIR bytecode: the byte offset in the file where reading failed.
    pub byte_offset: Option<usize>,
    /// What is wrong there.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic at a source location given by the IR (unknown locations give `file: None`).
    pub(crate) fn from_ir(loc: &oxhlo_ir::Location, message: impl Into<String>) -> Diagnostic {
        match loc.file_line_col() {
            Some((file, line, col)) => {
                Diagnostic { file: Some(file.to_string()), line, column: col, byte_offset: None, message: message.into() }
            }
            None => Diagnostic { file: None, line: 0, column: 0, byte_offset: None, message: message.into() },
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.as_deref().unwrap_or("<unknown>");
        match (self.line, self.byte_offset) {
            (0, Some(offset)) => write!(f, "{file}: byte {offset}: error: {}", self.message),
            (0, None) => write!(f, "{file}: error: {}", self.message),
            (line, _) => write!(f, "{file}:{line}:{}: error: {}", self.column, self.message),
        }
    }
}

impl From<&oxhlo_ir::Diagnostic> for Diagnostic {
    fn from(d: &oxhlo_ir::Diagnostic) -> Diagnostic {
        Diagnostic::from_ir(&d.loc, d.message.clone())
    }
}

/// An oxhlo error: what kind, what happened, and where.
///
/// `Display` prints the summary line followed by one line per diagnostic:
///
/// ```
/// let client = oxhlo::Client::builder().backend(oxhlo::Backend::Interpreter).build().unwrap();
/// let err = client.compile("func.func @main( {").unwrap_err();
/// assert_eq!(err.kind(), oxhlo::ErrorKind::Parse);
/// assert!(!err.diagnostics().is_empty());
/// println!("{err}"); // parse error: ... \n <input>:1:17: error: ...
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    diagnostics: Vec<Diagnostic>,
}

impl Error {
    /// A new error without diagnostics.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error { kind, message: message.into(), diagnostics: Vec::new() }
    }

    /// A new error with diagnostics.
    pub fn with_diagnostics(kind: ErrorKind, message: impl Into<String>, diagnostics: Vec<Diagnostic>) -> Error {
        Error { kind, message: message.into(), diagnostics }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidArgument, message)
    }

    pub(crate) fn unsupported(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Unsupported, message)
    }

    /// The class of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The summary message (without the diagnostics).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where it went wrong: parse and verify errors carry one diagnostic per problem found, runtime errors
    /// the failing op's location.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} error: {}", self.kind, self.message)?;
        for d in &self.diagnostics {
            write!(f, "\n{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_lists_diagnostics() {
        let e = Error::with_diagnostics(
            ErrorKind::Parse,
            "could not parse `m.mlir`",
            vec![Diagnostic {
                file: Some("m.mlir".into()),
                line: 3,
                column: 7,
                byte_offset: None,
                message: "expected `)`".into(),
            }],
        );
        assert_eq!(e.to_string(), "parse error: could not parse `m.mlir`\nm.mlir:3:7: error: expected `)`");
        assert_eq!(e.kind().name(), "parse");
    }

    #[test]
    fn unknown_location() {
        let d = Diagnostic::from_ir(&oxhlo_ir::Location::Unknown, "boom");
        assert_eq!(d.to_string(), "<unknown>: error: boom");
        let d = Diagnostic::from_ir(&oxhlo_ir::Location::file("a.mlir", 2, 5), "bad");
        assert_eq!(d.to_string(), "a.mlir:2:5: error: bad");
        let b = Diagnostic { file: Some("m.mlirbc".into()), line: 0, column: 0, byte_offset: Some(12), message: "x".into() };
        assert_eq!(b.to_string(), "m.mlirbc: byte 12: error: x");
    }

    #[test]
    fn error_is_send_sync() {
        fn check<T: Send + Sync + 'static>() {}
        check::<Error>();
    }
}
