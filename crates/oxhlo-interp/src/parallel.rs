//! The replicas x partitions runner: one thread per process, each with its own [`Interpreter`] (its own
//! frames, host queues and check records) sharing one [`Rendezvous`] for the collectives.
//!
//! `interpreter.run_parallel` follows the StableHLO reference interpreter's convention:
//! `programs = [[@f00, @f01], [@f10, @f11]]` is indexed `[replica][partition]`; the op's operands are the
//! processes' arguments concatenated in row-major (replica, partition) order, each process taking as many
//! as its function has parameters; the op's results are the processes' results concatenated the same way.
//! `infeed = [@f, ...]` gives the run one infeed queue: each `infeed` op (of any process) takes the
//! results of the next function of the list, evaluated when the op runs.
//! A process that fails poisons the rendezvous, so the others fail instead of waiting; the first failure
//! (in process order) is the run's error.

use crate::collectives::Rendezvous;
use crate::custom_call::CustomCallRegistry;
use crate::error::InterpError;
use crate::eval::{Interpreter, RUN_STACK_BYTES};
use crate::ops::ProcessInfo;
use crate::tensor::RtValue;
use crate::testing::CheckFailure;
use oxhlo_ir::{Attr, Module, Op};
use std::sync::Arc;

/// What a parallel run produced.
#[derive(Debug, Default)]
pub struct ParallelOutcome {
    /// All processes' results, concatenated in (replica, partition) order.
    pub results: Vec<RtValue>,
    /// Failed checks of every process, in process order.
    pub check_failures: Vec<CheckFailure>,
    /// Checks evaluated by every process together.
    pub checks_run: usize,
}

/// Reads `programs = [[@a, @b], ...]` as function names, `[replica][partition]`.
pub fn programs_of(op: &Op) -> Result<Vec<Vec<String>>, String> {
    let rows = match op.attr("programs") {
        Some(Attr::Array(rows)) => rows,
        _ => return Err("interpreter.run_parallel needs `programs = [[@f, ...], ...]`".into()),
    };
    let grid: Vec<Vec<String>> = rows
        .iter()
        .map(|r| match r {
            Attr::Array(cells) => cells
                .iter()
                .map(|c| c.as_symbol().map(str::to_string).ok_or_else(|| "programs must hold function symbols".to_string()))
                .collect(),
            Attr::SymbolRef(s) => Ok(vec![s.clone()]),
            _ => Err("programs must be a 2-D array of function symbols".to_string()),
        })
        .collect::<Result<_, _>>()?;
    if grid.is_empty() || grid[0].is_empty() || grid.iter().any(|r| r.len() != grid[0].len()) {
        return Err("programs must be a non-empty rectangular grid".into());
    }
    Ok(grid)
}

/// Runs `programs[replica][partition]` in parallel with the concatenated `inputs`.
pub fn run_grid(
    module: &Module,
    programs: &[Vec<String>],
    inputs: Vec<RtValue>,
    registry: Option<Arc<CustomCallRegistry>>,
) -> Result<ParallelOutcome, InterpError> {
    run_grid_with_infeed(module, programs, inputs, registry, Vec::new())
}

/// [`run_grid`] with `infeed = [@f, ...]`: each `infeed` op of any process takes the results of the next
/// function of the list (one queue for the whole run).
pub fn run_grid_with_infeed(
    module: &Module,
    programs: &[Vec<String>],
    inputs: Vec<RtValue>,
    registry: Option<Arc<CustomCallRegistry>>,
    infeed: Vec<String>,
) -> Result<ParallelOutcome, InterpError> {
    let nr = programs.len();
    let np = programs.first().map(|r| r.len()).unwrap_or(0);
    if nr == 0 || np == 0 {
        return Err(InterpError::new("a parallel run needs at least one process"));
    }
    // Split the inputs among the processes.
    let mut per_proc: Vec<Vec<RtValue>> = Vec::with_capacity(nr * np);
    let mut it = inputs.into_iter();
    for row in programs {
        for name in row {
            let f = module.func(name).ok_or_else(|| InterpError::new(format!("run_parallel: no function named @{name}")))?;
            let args: Vec<RtValue> = it.by_ref().take(f.ty.inputs.len()).collect();
            if args.len() != f.ty.inputs.len() {
                return Err(InterpError::new(format!("run_parallel: not enough operands for @{name}")));
            }
            per_proc.push(args);
        }
    }
    if it.next().is_some() {
        return Err(InterpError::new("run_parallel: more operands than the programs take"));
    }
    for name in &infeed {
        let f = module.func(name).ok_or_else(|| InterpError::new(format!("run_parallel: no infeed function named @{name}")))?;
        if !f.ty.inputs.is_empty() {
            return Err(InterpError::new(format!("run_parallel: infeed function @{name} must take no arguments")));
        }
    }
    let rv = Rendezvous::new(nr as u32, np as u32);
    rv.set_infeed(infeed);
    let rv = Arc::new(rv);
    type ProcResult = Result<(Vec<RtValue>, Vec<CheckFailure>, usize), InterpError>;
    let outcomes: Vec<ProcResult> = std::thread::scope(|s| {
        let mut handles = Vec::with_capacity(nr * np);
        for (k, args) in per_proc.into_iter().enumerate() {
            let (r, p) = (k / np, k % np);
            let name = programs[r][p].clone();
            let rv = rv.clone();
            let registry = registry.clone();
            let spawned = std::thread::Builder::new().stack_size(RUN_STACK_BYTES / 4).spawn_scoped(s, move || {
                let mut interp = Interpreter::new(module);
                interp.process = ProcessInfo {
                    replica_id: r as u32,
                    partition_id: p as u32,
                    num_replicas: nr as u32,
                    num_partitions: np as u32,
                };
                interp.rendezvous = Some(rv.clone());
                if let Some(reg) = registry {
                    interp.registry = reg;
                }
                let res = interp.run_func(&name, args);
                match &res {
                    Ok(_) => rv.finish((r as u32, p as u32)),
                    Err(e) => rv.poison((r as u32, p as u32), &e.to_string()),
                }
                res.map(|v| (v, std::mem::take(&mut interp.check_failures), interp.checks_run))
            });
            handles.push(spawned);
        }
        handles
            .into_iter()
            .enumerate()
            .map(|(k, h)| match h {
                Ok(h) => h.join().unwrap_or_else(|_| {
                    rv.poison(((k / np) as u32, (k % np) as u32), "panicked");
                    Err(InterpError::new("internal error: a process of the parallel run panicked"))
                }),
                Err(e) => {
                    rv.poison(((k / np) as u32, (k % np) as u32), "could not start");
                    Err(InterpError::new(format!("cannot start a process thread: {e}")))
                }
            })
            .collect()
    });
    let mut out = ParallelOutcome::default();
    // Report the root cause: an error that is not a consequence of another process's failure.
    let root = outcomes.iter().filter_map(|o| o.as_ref().err()).find(|e| !e.message.contains("collective aborted"));
    if let Some(e) = root {
        return Err(e.clone());
    }
    for o in outcomes {
        let (res, fails, n) = o?;
        out.results.extend(res);
        out.check_failures.extend(fails);
        out.checks_run += n;
    }
    Ok(out)
}

/// `interpreter.run_parallel` as an op: its results, or the first process error as a message.
pub fn eval_run_parallel(module: &Module, op: &Op, args: Vec<RtValue>, registry: Option<Arc<CustomCallRegistry>>) -> Result<ParallelOutcome, String> {
    let programs = programs_of(op)?;
    let infeed = match op.attr("infeed") {
        None => Vec::new(),
        Some(Attr::Array(items)) => items
            .iter()
            .map(|a| a.as_symbol().map(str::to_string).ok_or_else(|| "infeed must hold function symbols".to_string()))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("interpreter.run_parallel: `infeed` must be an array of function symbols".into()),
    };
    run_grid_with_infeed(module, &programs, args, registry, infeed).map_err(|e| e.to_string())
}

/// Runs `func` on every process of a `num_replicas` x `num_partitions` grid, every process taking the
/// same `inputs` (for programs whose module sets mhlo.num_replicas / mhlo.num_partitions).
pub fn run_spmd(module: &Module, func: &str, num_replicas: usize, num_partitions: usize, inputs: Vec<RtValue>) -> Result<ParallelOutcome, InterpError> {
    let programs = vec![vec![func.to_string(); num_partitions]; num_replicas];
    let all: Vec<RtValue> = (0..num_replicas * num_partitions).flat_map(|_| inputs.clone()).collect();
    run_grid(module, &programs, all, None)
}
