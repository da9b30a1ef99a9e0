//! `oxhlo parse [--generic] [--debug-info] [--split-input-file] FILE|-`: read, verify and print a program
//! in canonical form; exit 1 with all diagnostics when it is not valid.

use crate::args::{read_input, Args};
use crate::load::{load_module, parse_and_verify};
use oxhlo_text::{print_module, PrintOptions};

pub fn run(argv: &[String]) -> Result<bool, String> {
    let args = Args::parse(argv, &["generic", "debug-info", "split-input-file"], &[])?;
    let (name, bytes) = read_input(args.one_file()?)?;
    let opts = PrintOptions { generic: args.flag("generic"), debug_info: args.flag("debug-info") };
    if !args.flag("split-input-file") {
        return match load_module(&name, &bytes) {
            Ok(m) => {
                print!("{}", print_module(&m, &opts));
                Ok(true)
            }
            Err(diags) => {
                eprintln!("{diags}");
                Ok(false)
            }
        };
    }
    let src = std::str::from_utf8(&bytes).map_err(|e| format!("{name}: not UTF-8 text: {e}"))?;
    let mut ok = true;
    let mut first = true;
    for (line, chunk) in oxhlo_text::split_input(src) {
        if chunk.trim().is_empty() {
            continue;
        }
        if !first {
            println!("// -----");
        }
        first = false;
        match parse_and_verify(chunk, &name, line) {
            Ok(m) => print!("{}", print_module(&m, &opts)),
            Err(diags) => {
                eprintln!("{diags}");
                ok = false;
            }
        }
    }
    Ok(ok)
}
