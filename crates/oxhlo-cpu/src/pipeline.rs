//! The whole CPU compilation pipeline in one call, so every front door (Rust API, plugin, CLI) compiles
//! the same way: optimize the verified module at a level (`oxhlo-opt`), then plan it for the CPU (fusion
//! from O2, aggressive fusion at O3).

use crate::exec::{CpuOptions, CpuProgram};
use oxhlo_interp::custom_call::CustomCallRegistry;
use oxhlo_ir::Module;
use oxhlo_opt::{OptLevel, OptOptions, PassReport};
use oxhlo_plan::fusion::FusionOptions;
use std::sync::Arc;

/// CPU options at an optimization level.
pub fn options_at(level: OptLevel) -> CpuOptions {
    CpuOptions {
        fusion: FusionOptions { enabled: level >= OptLevel::O2, aggressive: level >= OptLevel::O3, recompute: level >= OptLevel::O2 && oxhlo_plan::recompute::env_setting().unwrap_or(true), recompute_costly: false, rows: level >= OptLevel::O2 && oxhlo_plan::row_fusion::env_setting().unwrap_or(false), max_params: 0, sibling_reductions: 0 },
        ..CpuOptions::default()
    }
}

/// Optimization options from the environment at a level: `OXHLO_DUMP=DIR` writes the IR after every pass
/// into DIR, `OXHLO_PRINT_AFTER_ALL=1` prints it to stderr.
pub fn opt_options_from_env(level: OptLevel) -> OptOptions {
    let mut o = OptOptions::at(level);
    if let Some(dir) = std::env::var_os("OXHLO_DUMP").filter(|d| !d.is_empty()) {
        o.dump_dir = Some(std::path::PathBuf::from(dir).join("passes"));
    }
    o.print_after_all = std::env::var("OXHLO_PRINT_AFTER_ALL").is_ok_and(|v| v != "0" && !v.is_empty());
    o
}

/// Optimizes `module` with `opt` and compiles it for the CPU with the custom calls of `registry`.
pub fn compile(
    mut module: Module,
    opt: &OptOptions,
    registry: Option<Arc<CustomCallRegistry>>,
) -> Result<(CpuProgram, PassReport), String> {
    let report = oxhlo_opt::optimize(&mut module, opt)?;
    let opts = options_at(opt.level);
    let registry = registry.unwrap_or_else(|| Arc::new(CustomCallRegistry::with_builtins()));
    let program = CpuProgram::compile_with_registry(module, &opts, registry)?;
    Ok((program, report))
}
