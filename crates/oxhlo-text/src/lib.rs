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

/// Splits a file at lines consisting of `// -----` (MLIR's `--split-input-file`), returning each chunk
/// with the 1-based line number of its first line.
pub fn split_input(src: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut chunk_start = 0usize;
    let mut chunk_line = 1usize;
    let mut line_no = 1usize;
    let mut pos = 0usize;
    while pos < src.len() {
        let end = src[pos..].find('\n').map(|i| pos + i + 1).unwrap_or(src.len());
        let line = src[pos..end].trim_end_matches(['\n', '\r']);
        if line.trim_end() == "// -----" {
            out.push((chunk_line, &src[chunk_start..pos]));
            chunk_start = end;
            chunk_line = line_no + 1;
        }
        pos = end;
        line_no += 1;
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
}
