//! `oxhlo bench PROG [--input x.npy]... [--runs N] [--warmup K]`: time loading (parse + verify) and
//! execution of a program's entry function, and print a table (min / median / mean / max per run).
//! Parameters without `--input` get zero-filled tensors of their declared (static) types.

use crate::args::{read_input, Args};
use crate::load::load_module;
use oxhlo_interp::{npy, RtValue, Tensor};
use oxhlo_ir::Type;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::{Duration, Instant};

pub fn run(argv: &[String]) -> Result<bool, String> {
    let argv = crate::engine::normalize(argv);
    let options = [&["input", "runs", "warmup"], crate::engine::OPTIONS].concat();
    let args = Args::parse(&argv, crate::engine::FLAGS, &options)?;
    let engine = crate::engine::Choice::from_args(&args)?;
    let runs: usize = parse_count(args.value("runs"), 10, "runs")?.max(1);
    let warmup: usize = parse_count(args.value("warmup"), 1, "warmup")?;
    let (name, bytes) = read_input(args.one_file()?)?;

    let t0 = Instant::now();
    let module = match load_module(&name, &bytes) {
        Ok(m) => m,
        Err(diags) => {
            eprintln!("{diags}");
            return Ok(false);
        }
    };
    let load_time = t0.elapsed();
    let t1 = Instant::now();
    let prepared = engine.prepare(&module)?;
    let compile_time = t1.elapsed();
    let entry = module.entry().ok_or("the program has no @main and no single public function")?;
    let paths = args.values("input");
    if !paths.is_empty() && paths.len() != entry.ty.inputs.len() {
        return Err(format!("@{} takes {} input(s), {} given with --input", entry.name, entry.ty.inputs.len(), paths.len()));
    }
    let mut inputs = Vec::new();
    for (i, ty) in entry.ty.inputs.iter().enumerate() {
        let t = match (paths.get(i), ty) {
            (Some(p), Type::Tensor(t)) => npy::read_npy(Path::new(p), Some(t)).map_err(|e| format!("input #{i} ({p}): {e}"))?,
            (None, Type::Tensor(t)) => Tensor::zeros(t.clone()).map_err(|e| format!("input #{i}: {e}"))?,
            _ => return Err(format!("input #{i}: only tensor parameters can be benchmarked")),
        };
        inputs.push(RtValue::Tensor(t));
    }

    let show_progress = std::io::stderr().is_terminal();
    // Inputs are converted to the engine's form once: the times are the executions' own.
    let mut times = match prepared.time_runs(inputs, warmup, runs, |done| {
        if show_progress {
            progress(done, warmup + runs);
        }
    }) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return Ok(false);
        }
    };
    if show_progress {
        eprintln!();
    }
    print!("{}", render_table(&format!("{name} (backend: {})", engine.describe()), load_time, compile_time, &mut times));
    Ok(true)
}

fn parse_count(v: Option<&str>, default: usize, what: &str) -> Result<usize, String> {
    match v {
        None => Ok(default),
        Some(s) => s.parse().map_err(|_| format!("--{what} needs a non-negative integer, got `{s}`")),
    }
}

/// A one-line progress bar on stderr.
fn progress(done: usize, total: usize) {
    const WIDTH: usize = 30;
    let filled = done * WIDTH / total.max(1);
    let mut err = std::io::stderr();
    let _ = write!(err, "\r[{}{}] {done}/{total}", "#".repeat(filled), ".".repeat(WIDTH - filled));
    let _ = err.flush();
}

/// The result table: load time, then per-run statistics of the execution times.
pub fn render_table(name: &str, load: Duration, compile: Duration, times: &mut [Duration]) -> String {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let n = times.len();
    let (min, max) = (times.first().copied().unwrap_or_default(), times.last().copied().unwrap_or_default());
    let median = if n == 0 { Duration::ZERO } else if n % 2 == 1 { times[n / 2] } else { (times[n / 2 - 1] + times[n / 2]) / 2 };
    let mean = if n == 0 { Duration::ZERO } else { times.iter().sum::<Duration>() / n as u32 };
    let mut out = String::new();
    out.push_str(&format!("{name}\n"));
    out.push_str(&format!("{:<20} {:>12}\n", "load (parse+verify)", format!("{:.3} ms", ms(load))));
    out.push_str(&format!("{:<20} {:>12}\n", "compile", format!("{:.3} ms", ms(compile))));
    out.push_str(&format!("{:<20} {:>12}\n", "runs", n));
    for (label, d) in [("min", min), ("median", median), ("mean", mean), ("max", max)] {
        out.push_str(&format!("{:<20} {:>12}\n", label, format!("{:.3} ms", ms(d))));
    }
    out
}
