//! oxhlo's optimizer: semantics-preserving rewrites of an [`oxhlo_ir::Module`] before planning.
//!
//! Levels: O0 runs nothing; O1 inlines calls, folds constants (with the reference interpreter), applies
//! exact algebraic identities, turns reductions over extent-1 dims into elementwise ops and removes dead
//! code; O2 adds iotas as broadcasts of 1-D iotas (`iota_broadcast`), CSE, canonicalization of shape ops, loop-invariant code motion, small elementwise ops
//! moved off unit-dim reshapes, transposes around `dot_general` folded into its dimension numbers where
//! the GEMM then reads its operands in place (`dot_transpose`); O3 folds every operand transpose that
//! keeps the result's order. Every pass is exact: results are bitwise those of the
//! unoptimized program (NaN payloads aside, which the spec leaves open). The [`PassManager`] times each pass, can dump the IR after each one and verify between passes.

pub mod canon;
pub mod composites;
pub mod cse;
pub mod dce;
pub mod conv_reverse;
pub mod dot_transpose;
pub mod factor_sums;
pub mod fold;
pub mod inline;
pub mod iota_broadcast;
pub mod licm;
pub mod lift;
pub mod loop_state;
pub mod pow2_divide;
pub mod reshape_sink;
pub mod simplify;
pub mod sort_key;
pub mod splat_broadcast;
pub mod unit_reduce;
pub mod util;

#[cfg(test)]
pub(crate) mod testkit;

pub use lift::lift_constants_to_args;

use oxhlo_ir::Module;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Optimization level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum OptLevel {
    O0,
    O1,
    #[default]
    O2,
    O3,
}

impl std::str::FromStr for OptLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<OptLevel, String> {
        let t = s.trim();
        let t = t.strip_prefix('O').or_else(|| t.strip_prefix('o')).unwrap_or(t);
        match t {
            "0" => Ok(OptLevel::O0),
            "1" => Ok(OptLevel::O1),
            "2" => Ok(OptLevel::O2),
            "3" => Ok(OptLevel::O3),
            _ => Err(format!("unknown optimization level `{s}` (expected 0-3 or O0-O3)")),
        }
    }
}

impl std::fmt::Display for OptLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = match self {
            OptLevel::O0 => 0,
            OptLevel::O1 => 1,
            OptLevel::O2 => 2,
            OptLevel::O3 => 3,
        };
        write!(f, "O{n}")
    }
}

/// Options of [`optimize`].
#[derive(Clone, Debug)]
pub struct OptOptions {
    pub level: OptLevel,
    /// Print the module to stderr after every pass.
    pub print_after_all: bool,
    /// Write the module after every pass to `NN-pass.mlir` files in this directory.
    pub dump_dir: Option<PathBuf>,
    /// Run the verifier after every pass (an error names the pass that broke the module).
    pub verify_each: bool,
    /// At O2 and up, also factor per-slice constants out of sums ([`factor_sums`]): not exact (it
    /// rounds differently), so off unless a backend whose sums run in their own order asks for it.
    pub factor_sums: bool,
}

// Not derived: `verify_each` follows the build's debug assertions.
#[allow(clippy::derivable_impls)]
impl Default for OptOptions {
    fn default() -> OptOptions {
        OptOptions { level: OptLevel::default(), print_after_all: false, dump_dir: None, verify_each: cfg!(debug_assertions), factor_sums: false }
    }
}

impl OptOptions {
    /// Default options at a level.
    pub fn at(level: OptLevel) -> OptOptions {
        OptOptions { level, ..OptOptions::default() }
    }
}

/// One pass run: its name, how long it took, whether it changed the module.
#[derive(Clone, Debug)]
pub struct PassRun {
    pub name: &'static str,
    pub time: Duration,
    pub changed: bool,
}

/// Every pass run of an [`optimize`] call, in order.
#[derive(Clone, Debug, Default)]
pub struct PassReport {
    pub runs: Vec<PassRun>,
}

impl PassReport {
    /// Total time of all passes.
    pub fn total(&self) -> Duration {
        self.runs.iter().map(|r| r.time).sum()
    }
    /// One line per pass run: name, time, changed.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for r in &self.runs {
            s.push_str(&format!("{:<22} {:>10.3?} {}\n", r.name, r.time, if r.changed { "changed" } else { "-" }));
        }
        s.push_str(&format!("total {:.3?}\n", self.total()));
        s
    }
}

/// A module-to-module transformation. `run` returns whether it changed anything.
pub trait Pass {
    fn name(&self) -> &'static str;
    fn run(&self, m: &mut Module) -> Result<bool, String>;
}

/// An ordered list of passes.
#[derive(Default)]
pub struct PassManager {
    passes: Vec<Box<dyn Pass>>,
}

impl PassManager {
    pub fn new() -> PassManager {
        PassManager::default()
    }

    /// Appends a pass.
    pub fn add(&mut self, p: Box<dyn Pass>) {
        self.passes.push(p);
    }

    /// Names of the passes, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.passes.iter().map(|p| p.name()).collect()
    }

    /// Runs every pass in order, timing each, dumping and verifying as `opts` asks.
    pub fn run(&self, m: &mut Module, opts: &OptOptions) -> Result<PassReport, String> {
        let mut report = PassReport::default();
        if let Some(dir) = &opts.dump_dir {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create dump dir {}: {e}", dir.display()))?;
            dump(m, dir, 0, "input")?;
        }
        for (i, p) in self.passes.iter().enumerate() {
            let t = Instant::now();
            let changed = p.run(m).map_err(|e| format!("pass {}: {e}", p.name()))?;
            let time = t.elapsed();
            report.runs.push(PassRun { name: p.name(), time, changed });
            if opts.print_after_all {
                eprintln!("// ----- IR after {} ({}) -----", p.name(), if changed { "changed" } else { "unchanged" });
                eprintln!("{}", oxhlo_text::print_module(m, &oxhlo_text::PrintOptions::default()));
            }
            if let Some(dir) = &opts.dump_dir {
                dump(m, dir, i + 1, p.name())?;
            }
            if opts.verify_each && changed {
                oxhlo_ir::verify_module(m).map_err(|d| format!("the module does not verify after pass {}: {d}", p.name()))?;
            }
        }
        Ok(report)
    }
}

fn dump(m: &Module, dir: &std::path::Path, i: usize, name: &str) -> Result<(), String> {
    let path = dir.join(format!("{i:02}-{name}.mlir"));
    let text = oxhlo_text::print_module(m, &oxhlo_text::PrintOptions::default());
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The pass pipeline of a level (exact passes only).
pub fn pipeline(level: OptLevel) -> PassManager {
    pipeline_with(level, false)
}

/// The pass pipeline of a level, with [`factor_sums`] after the first round when asked (the second
/// round's CSE then merges the sums it made equal).
pub fn pipeline_with(level: OptLevel, factor_sums: bool) -> PassManager {
    let mut pm = PassManager::new();
    if level == OptLevel::O0 {
        return pm;
    }
    pm.add(Box::new(composites::NativeComposites));
    pm.add(Box::new(inline::Inline));
    pm.add(Box::new(fold::ConstantFold));
    pm.add(Box::new(simplify::AlgebraicSimplify));
    pm.add(Box::new(unit_reduce::UnitReduce));
    pm.add(Box::new(pow2_divide::Pow2Divide));
    if level >= OptLevel::O2 {
        pm.add(Box::new(iota_broadcast::IotaBroadcast));
        pm.add(Box::new(canon::Canonicalize));
        pm.add(Box::new(cse::Cse));
        pm.add(Box::new(licm::Licm));
        pm.add(Box::new(reshape_sink::ReshapeSink));
        pm.add(Box::new(conv_reverse::ConvReverseFold));
    }
    pm.add(Box::new(dce::Dce));
    if level >= OptLevel::O2 {
        // After DCE: a dot result's use count must not include readers nothing reads.
        pm.add(Box::new(dot_transpose::DotResultTransposeFold));
        pm.add(Box::new(dot_transpose::DotTransposeFold { gemm_layouts_only: level == OptLevel::O2 }));
    }
    if factor_sums && level >= OptLevel::O2 {
        pm.add(Box::new(factor_sums::FactorSums));
    }
    // second round: what the first round exposed (folding after simplification, CSE after canonicalization)
    pm.add(Box::new(fold::ConstantFold));
    pm.add(Box::new(simplify::AlgebraicSimplify));
    if level >= OptLevel::O2 {
        pm.add(Box::new(reshape_sink::ReshapeSink));
        pm.add(Box::new(canon::Canonicalize));
        pm.add(Box::new(cse::Cse));
    }
    pm.add(Box::new(dce::Dce));
    pm
}

/// Optimizes a module in place at `opts.level`.
pub fn optimize(module: &mut Module, opts: &OptOptions) -> Result<PassReport, String> {
    pipeline_with(opts.level, opts.factor_sums).run(module, opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_default() {
        assert_eq!("2".parse::<OptLevel>(), Ok(OptLevel::O2));
        assert_eq!("O3".parse::<OptLevel>(), Ok(OptLevel::O3));
        assert_eq!("o0".parse::<OptLevel>(), Ok(OptLevel::O0));
        assert!("4".parse::<OptLevel>().is_err());
        assert_eq!(OptLevel::default(), OptLevel::O2);
        assert_eq!(OptLevel::O1.to_string(), "O1");
    }

    #[test]
    fn pipelines_grow_with_level() {
        assert!(pipeline(OptLevel::O0).names().is_empty());
        let o1 = pipeline(OptLevel::O1).names();
        let o2 = pipeline(OptLevel::O2).names();
        let o3 = pipeline(OptLevel::O3).names();
        assert!(o1.contains(&"inline") && !o1.contains(&"cse"));
        assert!(o2.contains(&"cse") && o2.contains(&"licm") && !o2.contains(&"dot-transpose-fold"));
        assert!(o2.contains(&"dot-transpose-fold-gemm") && o2.contains(&"dot-result-transpose-fold"));
        assert!(o3.contains(&"dot-transpose-fold"));
    }

    /// A pass that breaks the module (drops the entry's terminator) to show verify_each catches it.
    struct Breaker;
    impl Pass for Breaker {
        fn name(&self) -> &'static str {
            "breaker"
        }
        fn run(&self, m: &mut Module) -> Result<bool, String> {
            if let Some(b) = m.funcs.first_mut().and_then(|f| f.body.blocks.first_mut()) {
                b.ops.pop();
            }
            Ok(true)
        }
    }

    #[test]
    fn verify_each_names_the_breaking_pass() {
        let src = "func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {\n  return %a : tensor<2xi32>\n}";
        let m = oxhlo_text::parse_module(src, "t.mlir").unwrap();
        let mut pm = PassManager::new();
        pm.add(Box::new(dce::Dce));
        pm.add(Box::new(Breaker));
        let err = pm.run(&mut m.clone(), &OptOptions { verify_each: true, ..OptOptions::default() }).unwrap_err();
        assert!(err.contains("after pass breaker"), "{err}");
        let ok = pm.run(&mut m.clone(), &OptOptions { verify_each: false, ..OptOptions::default() }).unwrap();
        assert_eq!(ok.runs.len(), 2);
        assert!(!ok.runs[0].changed && ok.runs[1].changed);
    }

    #[test]
    fn pass_manager_dumps_and_reports() {
        let src = "func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {\n  %c = stablehlo.constant dense<0> : tensor<2xi32>\n  %0 = stablehlo.add %a, %c : tensor<2xi32>\n  return %0 : tensor<2xi32>\n}";
        let mut m = oxhlo_text::parse_module(src, "t.mlir").unwrap();
        let dir = std::env::temp_dir().join(format!("oxhlo-opt-dump-{}", std::process::id()));
        let opts = OptOptions { level: OptLevel::O1, dump_dir: Some(dir.clone()), verify_each: true, ..OptOptions::default() };
        let report = optimize(&mut m, &opts).unwrap();
        assert_eq!(report.runs.len(), pipeline(OptLevel::O1).names().len());
        assert!(report.runs.iter().any(|r| r.changed));
        let files = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(files, report.runs.len() + 1);
        let _ = std::fs::remove_dir_all(&dir);
        let text = oxhlo_text::print_module(&m, &oxhlo_text::PrintOptions::default());
        assert!(!text.contains("stablehlo.add"), "{text}");
    }
}
