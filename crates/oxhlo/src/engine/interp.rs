//! The reference-interpreter backend: runs the verified module's entry function on a big-stack worker
//! thread ([`super::worker`]) as `oxhlo_interp::run_main` does (inputs checked, failed `check.*` ops are
//! errors; multi-process modules go through `run_main` itself). Every execution builds its own interpreter
//! state over the shared, read-only module, so concurrent executions do not interact.

use super::{Profile, Program};
use crate::buffer::Buffer;
use crate::error::{Diagnostic, Error, ErrorKind, Result};
use oxhlo_interp::eval::{check_inputs, OpProfile};
use oxhlo_interp::{InterpError, Interpreter, RtValue};
use oxhlo_ir::Module;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A module ready for the interpreter (the interpreter needs no compilation).
pub(crate) struct InterpProgram {
    module: Arc<Module>,
    /// The entry function's name and location, for the timing entry.
    entry: String,
    entry_loc: String,
}

impl InterpProgram {
    pub(crate) fn new(module: Module) -> Result<InterpProgram> {
        let f = module.entry().ok_or_else(|| Error::invalid("the module has no entry function"))?;
        let (entry, entry_loc) = (f.name.clone(), f.loc.to_string());
        Ok(InterpProgram { module: Arc::new(module), entry, entry_loc })
    }
}

/// A runtime error naming the op that failed and where it is.
fn runtime(e: InterpError) -> Error {
    let what = if e.op.is_empty() { e.message.clone() } else { format!("{}: {}", e.op, e.message) };
    Error::with_diagnostics(ErrorKind::Runtime, what.clone(), vec![Diagnostic::from_ir(&e.loc, what)])
}

/// `oxhlo_interp::run_main` on the current thread (which must have the interpreter's big stack), timed.
fn run_entry(module: &Module, args: Vec<RtValue>, profile: bool) -> Result<(Vec<RtValue>, Duration, Option<OpProfile>), InterpError> {
    let func = module.entry().ok_or_else(|| InterpError::new("the module has no entry function"))?;
    if module.num_replicas().saturating_mul(module.num_partitions()) != 1 {
        // Several processes: run_main runs each on its own thread.
        let start = Instant::now();
        return oxhlo_interp::run_main(module, args).map(|r| (r, start.elapsed(), None));
    }
    let args = check_inputs(func, args)?;
    let start = Instant::now();
    let mut it = Interpreter::new(module);
    if profile {
        it.profile = Some(OpProfile::default());
    }
    let results = it.run_func(&func.name, args)?;
    let elapsed = start.elapsed();
    if let Some(f) = it.check_failures.first() {
        return Err(InterpError {
            loc: f.loc.clone(),
            op: f.check.clone(),
            message: format!("{} ({} failed check(s))", f.message, it.check_failures.len()),
        });
    }
    Ok((results, elapsed, it.profile.take()))
}

impl Program for InterpProgram {
    fn execute(&self, inputs: &[&Buffer], profile: Option<&mut Profile>) -> Result<Vec<Buffer>> {
        let args = inputs.iter().map(|b| b.to_tensor().map(RtValue::Tensor)).collect::<Result<Vec<_>>>()?;
        let module = Arc::clone(&self.module);
        let want = profile.is_some();
        let (results, elapsed, ops) = super::worker::run(move || run_entry(&module, args, want).map_err(runtime))?;
        if let Some(p) = profile {
            match ops {
                // On the interpreter every op is a kernel (ops with regions count their bodies too).
                Some(ops) => {
                    for (key, time) in ops.runs {
                        p.record(key, time, || match ops.ops.get(&key) {
                            Some((name, loc)) => (name.clone(), loc.to_string()),
                            None => (String::from("?"), String::new()),
                        });
                    }
                }
                // Several processes: each runs on its own thread, so the entry function is the one kernel.
                None => p.record(0, elapsed, || (format!("@{}", self.entry), self.entry_loc.clone())),
            }
        }
        results
            .iter()
            .enumerate()
            .map(|(i, r)| match r {
                RtValue::Tensor(t) => Buffer::from_tensor(t),
                _ => Err(Error::unsupported(format!("result {i} of @{} is not a tensor", self.entry))),
            })
            .collect()
    }
}
