//! `stablehlo.custom_call` targets: a registry from target name to a handler. The JAX-style test checks
//! (`@check.expect_eq`, `@check.expect_close`, `@check.expect_almost_eq`, `@check.eq`) are built in; an
//! unknown target is an error naming it.

use crate::tensor::RtValue;
use crate::testing::CheckFailure;
use oxhlo_ir::{Op, Type};
use std::collections::HashMap;

/// What a custom call handler sees: the op (attributes such as `backend_config`), the target name, the
/// declared result types, and the check log of the run.
pub struct CustomCallCtx<'a> {
    pub op: &'a Op,
    pub target: &'a str,
    pub result_types: Vec<&'a Type>,
    /// Failed checks of this run; check targets append here instead of stopping the program.
    pub failures: &'a mut Vec<CheckFailure>,
    /// Count of checks evaluated.
    pub checks_run: &'a mut usize,
}

/// A custom call handler: operands in, results out (or an error message).
pub type CustomCallFn = dyn Fn(&mut CustomCallCtx, &[RtValue]) -> Result<Vec<RtValue>, String> + Send + Sync;

/// Returns the operands as the results (annotations without runtime effect on one process).
fn pass_through(ctx: &mut CustomCallCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    if ctx.result_types.len() != args.len() {
        return Err(format!(
            "@{} passes its operands through, but has {} operands and {} results",
            ctx.target,
            args.len(),
            ctx.result_types.len()
        ));
    }
    Ok(args.to_vec())
}

/// Custom call targets by name.
#[derive(Default)]
pub struct CustomCallRegistry {
    map: HashMap<String, Box<CustomCallFn>>,
}

impl std::fmt::Debug for CustomCallRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names: Vec<&String> = self.map.keys().collect();
        names.sort();
        f.debug_struct("CustomCallRegistry").field("targets", &names).finish()
    }
}

impl CustomCallRegistry {
    /// An empty registry.
    pub fn new() -> CustomCallRegistry {
        CustomCallRegistry::default()
    }

    /// A registry holding the built-in targets: the `check.*` test checks, and the sharding annotations
    /// JAX leaves in single-device programs (`Sharding`, `annotate_device_placement`), which pass their
    /// operands through.
    pub fn with_builtins() -> CustomCallRegistry {
        let mut r = CustomCallRegistry::new();
        for name in ["check.expect_eq", "check.expect_close", "check.expect_almost_eq", "check.eq"] {
            r.register(name, Box::new(crate::testing::custom_call_check));
        }
        for name in ["Sharding", "annotate_device_placement"] {
            r.register(name, Box::new(pass_through));
        }
        r
    }

    /// Adds (or replaces) a target.
    pub fn register(&mut self, name: &str, f: Box<CustomCallFn>) {
        self.map.insert(name.to_string(), f);
    }

    /// The handler of a target.
    pub fn get(&self, name: &str) -> Option<&CustomCallFn> {
        self.map.get(name).map(|b| b.as_ref())
    }

    /// Registered target names, sorted.
    pub fn targets(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.map.keys().map(String::as_str).collect();
        v.sort();
        v
    }
}
