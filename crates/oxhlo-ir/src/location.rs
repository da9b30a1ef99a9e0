//! Source locations (`loc(...)`) kept on ops, functions and block arguments so that diagnostics can point
//! at the user's file, line and column (or Python line, for JAX programs).

use std::fmt;

/// An MLIR location.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Location {
    #[default]
    Unknown,
    /// `"file":line:col` (a FileLineColRange keeps its start and end).
    File { file: String, line: u32, col: u32, end: Option<(u32, u32)> },
    /// `"name"(child)`
    Name { name: String, child: Box<Location> },
    /// `callsite(callee at caller)`
    CallSite { callee: Box<Location>, caller: Box<Location> },
    /// `fused<metadata>[a, b]`
    Fused { locs: Vec<Location>, metadata: Option<String> },
}

impl Location {
    /// A file location at line and column.
    pub fn file(file: impl Into<String>, line: u32, col: u32) -> Location {
        Location::File { file: file.into(), line, col, end: None }
    }

    /// The first file:line:col reachable in this location (the most useful one for a diagnostic).
    pub fn file_line_col(&self) -> Option<(&str, u32, u32)> {
        match self {
            Location::Unknown => None,
            Location::File { file, line, col, .. } => Some((file, *line, *col)),
            Location::Name { child, .. } => child.file_line_col(),
            Location::CallSite { callee, caller } => callee.file_line_col().or_else(|| caller.file_line_col()),
            Location::Fused { locs, .. } => locs.iter().find_map(|l| l.file_line_col()),
        }
    }
}

/// Prints `file:line:col` (or `<unknown>`), the prefix of a diagnostic.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.file_line_col() {
            Some((file, line, col)) => write!(f, "{file}:{line}:{col}"),
            None => write!(f, "<unknown>"),
        }
    }
}
