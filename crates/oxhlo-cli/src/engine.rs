//! Which engine runs a program for `run`, `test` and `bench`: `--backend cpu` (the default: the CPU
//! backend, optimized at `-O N` / `--opt-level N`, default 2) or `--backend interp` (the reference
//! interpreter, the program as written). `--print-after-all` prints the IR after every optimizer pass.

use crate::args::Args;
use oxhlo_cpu::{CpuProgram, OptLevel, OptOptions, Val};
use oxhlo_interp::testing::CheckFailure;
use oxhlo_interp::{InterpError, RtValue};
use oxhlo_ir::Module;

/// Options every running command accepts.
pub const OPTIONS: &[&str] = &["backend", "opt-level"];
/// Flags every running command accepts.
pub const FLAGS: &[&str] = &["print-after-all"];

/// Rewrites `-O2` into `--opt-level=2` so the option parser sees one spelling.
pub fn normalize(argv: &[String]) -> Vec<String> {
    argv.iter()
        .map(|a| match a.strip_prefix("-O") {
            Some(n) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => format!("--opt-level={n}"),
            _ => a.clone(),
        })
        .collect()
}

/// The engine a command was asked for.
pub struct Choice {
    cpu: bool,
    opt: OptOptions,
}

impl Choice {
    pub fn from_args(args: &Args) -> Result<Choice, String> {
        let cpu = match args.value("backend") {
            None | Some("cpu") => true,
            Some("interp" | "interpreter") => false,
            Some(b) => return Err(format!("unknown backend `{b}` (available: cpu, interp)")),
        };
        let level = match args.value("opt-level") {
            Some(l) => l.parse::<OptLevel>()?,
            None => OptLevel::O2,
        };
        let mut opt = oxhlo_cpu::pipeline::opt_options_from_env(level);
        opt.print_after_all |= args.flag("print-after-all");
        Ok(Choice { cpu, opt })
    }

    /// The engine's name for reports: `cpu -O2` or `interpreter`.
    pub fn describe(&self) -> String {
        if self.cpu {
            format!("cpu -{}", self.opt.level)
        } else {
            "interpreter".into()
        }
    }

    /// Compiles `module` for the chosen engine.
    pub fn prepare<'m>(&self, module: &'m Module) -> Result<Prepared<'m>, String> {
        // Multi-process programs (replicas x partitions) run on the interpreter's process grid.
        if !self.cpu || module.num_replicas().saturating_mul(module.num_partitions()) != 1 {
            return Ok(Prepared::Interp(module));
        }
        let (program, _) = oxhlo_cpu::pipeline::compile(module.clone(), &self.opt, None)?;
        Ok(Prepared::Cpu(Box::new(program)))
    }
}

/// A program ready to run.
pub enum Prepared<'m> {
    Interp(&'m Module),
    Cpu(Box<CpuProgram>),
}

impl Prepared<'_> {
    /// Runs the entry function on `inputs` (checked against its signature; failed checks are errors).
    pub fn run(&self, inputs: Vec<RtValue>) -> Result<Vec<RtValue>, InterpError> {
        match self {
            Prepared::Interp(m) => oxhlo_interp::run_main(m, inputs),
            Prepared::Cpu(p) => {
                let vals: Vec<Val> = inputs.into_iter().map(Val::from_rt).collect();
                let out = oxhlo_interp::eval::on_enough_stack(oxhlo_interp::eval::needs_deep_stack(p.module()), || p.run(vals))??;
                Ok(out.iter().map(Val::to_rt).collect())
            }
        }
    }

    /// Times `warmup + runs` executions on `inputs` and returns the last `runs` times. Inputs are converted
    /// to the engine's own form once, before timing (the CPU backend's native tensors, shared, not copied,
    /// by every run), so the times are the executions' own; `each` is called after every run.
    pub fn time_runs(&self, inputs: Vec<RtValue>, warmup: usize, runs: usize, mut each: impl FnMut(usize)) -> Result<Vec<std::time::Duration>, InterpError> {
        let mut times = Vec::with_capacity(runs);
        let native: Vec<Val> = match self {
            Prepared::Cpu(_) => inputs.iter().cloned().map(Val::from_rt).collect(),
            Prepared::Interp(_) => Vec::new(),
        };
        let deep = match self {
            Prepared::Cpu(p) => oxhlo_interp::eval::needs_deep_stack(p.module()),
            Prepared::Interp(_) => true,
        };
        for i in 0..warmup + runs {
            let t = std::time::Instant::now();
            match self {
                Prepared::Interp(m) => drop(oxhlo_interp::run_main(m, inputs.clone())?),
                Prepared::Cpu(p) => {
                    let vals = native.clone();
                    let out = oxhlo_interp::eval::on_enough_stack(deep, || p.run(vals))??;
                    let elapsed = t.elapsed();
                    drop(out);
                    if i >= warmup {
                        times.push(elapsed);
                    }
                    each(i + 1);
                    continue;
                }
            }
            if i >= warmup {
                times.push(t.elapsed());
            }
            each(i + 1);
        }
        Ok(times)
    }

    /// Runs a test case (no inputs): checks evaluated and the failures.
    pub fn run_case(&self) -> Result<(usize, Vec<CheckFailure>), String> {
        match self {
            Prepared::Interp(m) => oxhlo_interp::testing::run_case(m),
            Prepared::Cpu(p) => oxhlo_interp::eval::on_big_stack(|| p.run_case()).map_err(|e| e.to_string())?,
        }
    }
}
