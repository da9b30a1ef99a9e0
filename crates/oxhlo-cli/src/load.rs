//! Loading a program for a command: read the bytes, parse them (MLIR text, or MLIR bytecode told apart by
//! its magic), verify, and render diagnostics.

use oxhlo_ir::Module;

/// The MLIR bytecode magic.
pub const BYTECODE_MAGIC: &[u8] = b"ML\xEFR";

/// Parses and verifies a program; on failure returns every diagnostic, one per line.
pub fn load_module(name: &str, bytes: &[u8]) -> Result<Module, String> {
    if bytes.starts_with(BYTECODE_MAGIC) {
        let module = oxhlo_bytecode::read_module(bytes).map_err(|e| format!("{name}: {e}"))?;
        oxhlo_ir::verify_module(&module).map_err(|d| d.to_string())?;
        return Ok(module);
    }
    let src = std::str::from_utf8(bytes).map_err(|e| format!("{name}: not UTF-8 text (byte {}): {e}", e.valid_up_to()))?;
    parse_and_verify(src, name, 1)
}

/// Parses a text chunk whose first line is `first_line`, then verifies it.
pub fn parse_and_verify(src: &str, name: &str, first_line: usize) -> Result<Module, String> {
    let module = oxhlo_text::parse_module_at(src, name, first_line).map_err(|d| d.to_string())?;
    oxhlo_ir::verify_module(&module).map_err(|d| d.to_string())?;
    Ok(module)
}
