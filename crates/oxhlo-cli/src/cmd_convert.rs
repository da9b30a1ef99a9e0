//! `oxhlo convert FILE.mlirbc|- [--generic] [--debug-info] [--no-verify]`: reads MLIR bytecode (a StableHLO
//! portable artifact of any VHLO version 0.9.0 and later, or plain stablehlo/func/chlo bytecode) natively,
//! verifies it, and prints the program as MLIR text (pretty form, or generic with `--generic`; source
//! locations with `--debug-info`). Exit 1 with a `byte N: error: ...` message when the file cannot be read,
//! or with the verifier's diagnostics when the program is not valid.

use crate::args::{read_input, Args};
use oxhlo_text::{print_module, PrintOptions};

pub fn run(argv: &[String]) -> Result<bool, String> {
    let args = Args::parse(argv, &["generic", "debug-info", "no-verify"], &[])?;
    let (name, bytes) = read_input(args.one_file()?)?;
    if !oxhlo_bytecode::is_bytecode(&bytes) {
        return Err(format!("{name}: not MLIR bytecode (no ML\\xEFR magic); `oxhlo parse` reads MLIR text"));
    }
    let module = match oxhlo_bytecode::read_module(&bytes) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{name}: {e}");
            return Ok(false);
        }
    };
    if !args.flag("no-verify") {
        if let Err(diags) = oxhlo_ir::verify_module(&module) {
            eprintln!("{diags}");
            return Ok(false);
        }
    }
    let opts = PrintOptions { generic: args.flag("generic"), debug_info: args.flag("debug-info") };
    print!("{}", print_module(&module, &opts));
    Ok(true)
}
