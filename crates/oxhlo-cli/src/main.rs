//! The `oxhlo` command line. A thin front door: argument handling and output formatting only; the work is
//! done by the library crates (text parser/printer, verifier, bytecode reader, interpreter).

mod args;
mod cmd_parse;

use std::process::ExitCode;

const USAGE: &str = "\
usage: oxhlo <command> [options]

commands:
  parse [--generic] [--debug-info] [--split-input-file] FILE|-
        read a StableHLO program (MLIR text), verify it, print it in canonical form
  help  print this message
";

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let Some((cmd, rest)) = argv.split_first() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match cmd.as_str() {
        "parse" => cmd_parse::run(rest),
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(true)
        }
        other => Err(format!("unknown command `{other}` (try `oxhlo help`)")),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(msg) => {
            eprintln!("oxhlo: error: {msg}");
            ExitCode::from(2)
        }
    }
}
