//! MLIR text syntax for oxhlo: parse StableHLO programs written in the pretty or the generic op form into
//! an [`oxhlo_ir::Module`] (with `FILE:LINE:COL` diagnostics and source locations kept on ops), and print
//! modules back in canonical pretty form or in generic form.
//!
//! ```
//! let src = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.add %a, %a : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}";
//! let m = oxhlo_text::parse_module(src, "add.mlir").unwrap();
//! let text = oxhlo_text::print_module(&m, &oxhlo_text::PrintOptions::default());
//! assert!(text.contains("%0 = stablehlo.add %arg0, %arg0 : tensor<2xf32>"));
//! ```

pub mod lexer;
pub mod parser;
pub mod pretty;
pub mod printer;

pub use printer::{print_module, PrintOptions};

use oxhlo_ir::{Diagnostics, Module};

/// Parses a whole text (a `module` or a list of `func.func`s) into a module.
pub fn parse_module(src: &str, filename: &str) -> Result<Module, Diagnostics> {
    parse_module_at(src, filename, 1)
}

/// Parses a text whose first line is line `first_line` of `filename` (for chunks of a split file).
pub fn parse_module_at(src: &str, filename: &str, first_line: usize) -> Result<Module, Diagnostics> {
    let first = u32::try_from(first_line).unwrap_or(u32::MAX);
    parser::parse_text(src, filename, first).map_err(Diagnostics::from)
}

/// Splits a file like MLIR's `--split-input-file` (`mlir::splitAndProcessBuffer`), returning each chunk
/// with the 1-based line number of its first line.
///
/// MLIR splits on the *substring* `// -----` wherever it occurs (not only on lines consisting of it),
/// provided the character after it exists and is not another `-` (otherwise it is a "near miss" that
/// MLIR warns about and does not split on). So a commented-out marker `// // -----` splits too. The text
/// before the marker on its line stays at the end of the previous chunk; the rest of the marker's line
/// starts the next chunk (dropped here when it is only whitespace, so the chunk starts on the next line).
pub fn split_input(src: &str) -> Vec<(usize, &str)> {
    const MARKER: &str = "// -----";
    let mut out = Vec::new();
    let mut chunk_start = 0usize;
    let mut chunk_line = 1usize;
    let mut search = 0usize;
    while let Some(i) = src[search..].find(MARKER) {
        let at = search + i;
        let after = at + MARKER.len();
        match src.as_bytes().get(after) {
            Some(b'-') | None => {
                // near miss (or marker at the very end): MLIR keeps it inside the chunk
                search = after;
                continue;
            }
            Some(_) => {}
        }
        out.push((chunk_line, &src[chunk_start..at]));
        let marker_line = 1 + src[..at].matches('\n').count();
        let line_end = src[after..].find('\n').map(|j| after + j + 1).unwrap_or(src.len());
        if src[after..line_end].trim().is_empty() {
            chunk_start = line_end;
            chunk_line = marker_line + 1;
        } else {
            chunk_start = after;
            chunk_line = marker_line;
        }
        search = chunk_start;
    }
    out.push((chunk_line, &src[chunk_start..]));
    out
}

/// Parses every `// -----` chunk of a file; one result per chunk, diagnostics carrying the file's lines.
pub fn parse_split(src: &str, filename: &str) -> Vec<Result<Module, Diagnostics>> {
    split_input(src).into_iter().map(|(line, chunk)| parse_module_at(chunk, filename, line)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_line_numbers() {
        let src = "a\n// -----\nb\nc\n// -----\n";
        let chunks = split_input(src);
        assert_eq!(chunks, vec![(1, "a\n"), (3, "b\nc\n"), (6, "")]);
    }

    #[test]
    fn split_matches_mlir_substring_marker() {
        // a commented-out marker still splits (MLIR matches the substring); the prefix stays behind
        let src = "a\n// // -----\nb\n";
        assert_eq!(split_input(src), vec![(1, "a\n// "), (3, "b\n")]);
        // a longer dash run is a near miss: no split
        let src = "a\n// ------\nb\n";
        assert_eq!(split_input(src), vec![(1, src)]);
        // trailing text on the marker line begins the next chunk
        let src = "a\n// ----- x\nb\n";
        assert_eq!(split_input(src), vec![(1, "a\n"), (2, " x\nb\n")]);
    }
}
