//! The verifier: checks a [`Module`] against the StableHLO spec's constraints and reports every violation
//! as a [`Diagnostic`] at the offending op's location, worded `<op name>: <the rule, with the values>`.
//!
//! The checks come in two layers. The generic layer (`structure.rs`) walks every function: arity from the
//! op table, SSA scoping (values defined before use, inside their region), well-formed value types,
//! one-block regions ending in the right terminator, function signatures, `func.call` against its callee,
//! symbol references. The per-op layer dispatches on [`OpKind`](crate::OpKind) to one file per op family, each holding
//! the spec's "Constraints" (C1), (C2), ... for its ops. Shape rules live in [`shape`] as public
//! inference functions, so the interpreter and later passes reuse them instead of re-deriving them.
//!
//! Every rule has an id ([`Rule`]); [`check_module`] returns findings tagged with it, which the
//! negative-test corpus uses to prove each rule has a test. The verifier never panics on malformed IR:
//! bad value ids, missing attributes and attributes of the wrong kind are themselves diagnostics.
//!
//! Adding a rule: declare it in its family file's `rules!` block, report it with
//! `cx.fail(op, RULE, format!(...))` (or return it as a [`shape::ShapeError`]), and add a case to
//! `crates/oxhlo-ir/tests/verify/<family>.mlir` (`// expected-error@+1 {{text}}` above the op). The harness
//! `crates/oxhlo-text/tests/verify_diagnostics.rs` fails while any rule lacks a negative case, and checks
//! that the `valid*.mlir` files, the interpreter's conformance corpus and JAX-lowered programs stay clean.

use crate::diag::{Diagnostic, Diagnostics};
use crate::module::Module;

/// Declares a file's rules: one `pub(crate) const` per rule and a `RULES` slice listing them.
macro_rules! rules {
    ($($name:ident = $id:literal : $what:literal;)*) => {
        $(pub(crate) const $name: $crate::verify::Rule = $crate::verify::Rule { id: $id, what: $what };)*
        /// Every rule this file enforces.
        pub(crate) const RULES: &[$crate::verify::Rule] = &[$($name),*];
    };
}

mod chlo;
mod collectives;
mod cx;
mod elementwise;
pub(crate) mod fmt;
mod indexing;
mod linalg;
mod misc;
mod movement;
mod regions;
pub mod shape;
mod structure;
mod types;

#[cfg(test)]
mod tests;

/// One constraint the verifier enforces: a stable id (`dot_general.contracting_sizes`) and what it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    pub id: &'static str,
    pub what: &'static str,
}

/// A violation: the diagnostic and the id of the rule it breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub rule: &'static str,
    pub diag: Diagnostic,
}

/// Verifies a module; `Err` holds every violation found, in program order.
pub fn verify_module(m: &Module) -> Result<(), Diagnostics> {
    let findings = check_module(m);
    if findings.is_empty() {
        Ok(())
    } else {
        Err(Diagnostics(findings.into_iter().map(|f| f.diag).collect()))
    }
}

/// Verifies a module and returns every violation tagged with its rule id (empty when the module is valid).
pub fn check_module(m: &Module) -> Vec<Finding> {
    structure::check_module(m)
}

/// Every rule the verifier enforces, across all op families.
pub fn all_rules() -> Vec<Rule> {
    [
        structure::RULES,
        cx::RULES,
        types::RULES,
        elementwise::RULES,
        movement::RULES,
        linalg::RULES,
        indexing::RULES,
        regions::RULES,
        collectives::RULES,
        misc::RULES,
        chlo::RULES,
        shape::RULES,
        shape::window::RULES,
        shape::dot_conv::RULES,
        shape::gather::RULES,
    ]
    .concat()
}
