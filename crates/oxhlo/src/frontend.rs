//! The front end of compilation: program bytes to a verified IR module. Text goes through `oxhlo-text`, MLIR
//! bytecode (recognized by its `ML\xEFR` magic) through `oxhlo-bytecode`; then the spec verifier runs.
//! Failures become [`Parse`](crate::ErrorKind::Parse) or [`Verify`](crate::ErrorKind::Verify) errors whose
//! diagnostics say where.

use crate::error::{Diagnostic, Error, ErrorKind, Result};
use oxhlo_ir::{Diagnostics, Module};

/// The magic number MLIR bytecode files start with.
pub const BYTECODE_MAGIC: &[u8; 4] = b"ML\xEFR";

/// Reads and verifies a program; `name` is the file name diagnostics use.
pub(crate) fn load(program: &[u8], name: &str) -> Result<Module> {
    let module = if program.starts_with(BYTECODE_MAGIC) { read_bytecode(program, name)? } else { parse_text(program, name)? };
    verify(&module, name)?;
    Ok(module)
}

fn diagnostics(d: &Diagnostics) -> Vec<Diagnostic> {
    d.0.iter().map(Diagnostic::from).collect()
}

fn parse_text(program: &[u8], name: &str) -> Result<Module> {
    let src = match std::str::from_utf8(program) {
        Ok(s) => s,
        Err(e) => {
            let at = e.valid_up_to();
            let before = &program[..at];
            let line = 1 + before.iter().filter(|&&b| b == b'\n').count() as u32;
            let column = 1 + before.iter().rev().take_while(|&&b| b != b'\n').count() as u32;
            let d = Diagnostic {
                file: Some(name.to_string()),
                line,
                column,
                byte_offset: Some(at),
                message: format!("invalid UTF-8 at byte offset {at} (MLIR text must be UTF-8; bytecode starts with `ML\\xEFR`)"),
            };
            return Err(Error::with_diagnostics(ErrorKind::Parse, format!("could not read `{name}`"), vec![d]));
        }
    };
    oxhlo_text::parse_module(src, name)
        .map_err(|d| Error::with_diagnostics(ErrorKind::Parse, format!("could not parse `{name}`"), diagnostics(&d)))
}

fn read_bytecode(program: &[u8], name: &str) -> Result<Module> {
    oxhlo_bytecode::read_module(program).map_err(|e| {
        let d = Diagnostic {
            file: Some(name.to_string()),
            line: 0,
            column: 0,
            byte_offset: Some(e.offset),
            message: e.message.clone(),
        };
        Error::with_diagnostics(ErrorKind::Parse, format!("could not read the MLIR bytecode `{name}`"), vec![d])
    })
}

fn verify(module: &Module, name: &str) -> Result<()> {
    oxhlo_ir::verify::verify_module(module).map_err(|d| {
        let n = d.0.len();
        let message = format!("`{name}` breaks {n} rule{} of the StableHLO spec", if n == 1 { "" } else { "s" });
        Error::with_diagnostics(ErrorKind::Verify, message, diagnostics(&d))
    })
}
