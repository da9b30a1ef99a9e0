//! The `oxhlo` command line. A thin front door: argument handling and output formatting only; the work is
//! done by the library crates (text parser/printer, verifier, bytecode reader, CPU backend, interpreter).

/// Big freed blocks are kept for the next run's tensors (`oxhlo_cpu::big_blocks`): no page faults per run.
#[global_allocator]
static ALLOCATOR: oxhlo_cpu::big_blocks::BigBlockCache = oxhlo_cpu::big_blocks::BigBlockCache;

mod args;
mod cmd_bench;
mod cmd_convert;
mod cmd_parse;
mod cmd_run;
mod cmd_test;
mod engine;
mod format;
mod load;

use std::process::ExitCode;

const USAGE: &str = "\
usage: oxhlo <command> [options]

commands:
  parse [--generic] [--debug-info] [--split-input-file] FILE|-
        read a StableHLO program (MLIR text), verify it, print it in canonical form
  convert FILE.mlirbc|- [--generic] [--debug-info] [--no-verify]
        read MLIR bytecode (a VHLO portable artifact or plain bytecode) and print it as text
  run PROG.mlir [--input x.npy|xs.npz]... [--output-dir DIR | --output FILE.npz]
        execute @main (or the only public function); print the results or write them as .npy
  test FILE.mlir|DIR...
        run StableHLO-style test files (`// -----` cases, check.* ops); prints `N passed, M failed`
  bench PROG [--input x.npy]... [--runs N] [--warmup K]
        time loading, compiling and running a program (zero-filled inputs where none are given)

  run, test and bench take: --backend cpu|interp (default cpu), -O0..-O3 (default -O2),
  --print-after-all (the IR after every optimizer pass, on stderr; OXHLO_DUMP=DIR writes it to files)
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
        "run" => cmd_run::run(rest),
        "convert" => cmd_convert::run(rest),
        "bench" => cmd_bench::run(rest),
        "test" => cmd_test::run(rest),
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
