//! The CUDA backend: a [`CudaProgram`] runs an optimized module on an NVIDIA GPU, with values resident in
//! device memory, fused elementwise kernels rendered as CUDA C ([`render`]) and compiled with NVRTC for the
//! device's architecture, dot_general on cuBLAS ([`dot`]), convolution on cuDNN where it is installed ([`cudnn`], planned by [`cudnn_plan`]) or as im2col + GEMM ([`conv`]), reductions ([`reduce`]), slices/concatenations/pads/reverses/iota ([`movement`]), gather and scatter-add ([`gather_scatter`]), sorts and top_k ([`sort`]), reductions of several inputs ([`variadic_reduce`]), reduce_window and select_and_scatter ([`windows`]), dynamic slices and updates ([`dynamic`]), reduce_precision ([`reduce_precision`]), whole runs replayed as CUDA graphs ([`graph`]), and every other op on the host through the CPU
//! backend's kernels or the reference interpreter ([`exec`]). [`available`] probes for a usable device
//! without ever panicking; on a machine without CUDA it returns the reason. Which module owns what:
//! `README.md` beside this crate's `Cargo.toml`.

pub mod conv;
pub mod cudnn;
mod cudnn_choices;
pub mod cudnn_plan;
pub mod device;
pub mod dot;
pub mod dynamic;
pub mod exec;
pub mod finish_epilogue;
pub mod gather_scatter;
pub mod gemm_epilogue;
pub mod gemm_lt;
pub mod graph;
pub mod fft;
pub mod item_ops;
pub mod linalg;
pub mod kernels;
pub mod movement;
pub mod nvrtc;
pub mod nvrtc_worker;
pub mod profile;
pub mod reduce;
pub mod reduce_precision;
mod region;
pub mod render;
pub mod row_arith;
pub mod rows;
pub mod sort;
pub mod sort_merge;
pub mod sort_packed;
pub mod sort_registers;
pub mod tiers;
pub mod top_k;
pub mod top_k_select;
pub mod variadic_reduce;
pub mod view_copy;
pub mod windows;

pub use device::DeviceInfo;
pub use device::DTensor;
pub use device::InFlight;
pub use exec::{CudaOptions, CudaProgram, DVal, Stats};

use oxhlo_cpu::OptLevel;
use oxhlo_interp::custom_call::CustomCallRegistry;
use oxhlo_ir::Module;
use oxhlo_opt::OptOptions;
use std::sync::Arc;

/// The GPU this process would use, or why there is none (missing libraries, no device, driver errors).
pub fn available() -> Result<DeviceInfo, String> {
    device::gpu().map(|g| g.info.clone())
}

/// Inputs + outputs a fused kernel may have before it is split into its independent parts
/// (`oxhlo_plan::kernel_split`; `OXHLO_CUDA_MAX_PARAMS` overrides, 0 for no limit): each elementwise input
/// takes four registers a thread for its vector load, and one kernel of 190 buffers compiled for 2-3 s.
pub const MAX_KERNEL_PARAMS: usize = 32;

/// CUDA options at an optimization level (fusion from O2).
pub fn options_at(level: OptLevel) -> CudaOptions {
    let mut o = CudaOptions::default();
    o.fusion.enabled = level >= OptLevel::O2;
    o.fusion.aggressive = level >= OptLevel::O3;
    o.fusion.recompute = o.fusion.enabled && oxhlo_plan::recompute::env_setting().unwrap_or(true);
    o.fusion.rows = o.fusion.enabled && oxhlo_plan::row_fusion::env_setting().unwrap_or(true);
    if let Some(n) = std::env::var("OXHLO_CUDA_MAX_PARAMS").ok().and_then(|v| v.trim().parse().ok()) {
        o.fusion.max_params = n;
    }
    o
}

/// Reductions over one view merged into one kernel at most (`FusionOptions::sibling_reductions`): 4
/// unless `OXHLO_CUDA_SIBLINGS` says otherwise (read once; 1 turns merging off, for measuring).
pub fn sibling_reductions() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    reduce::knob(&N, "OXHLO_CUDA_SIBLINGS", |_| true, 4)
}

/// Whether the environment variable `name` is set to turn something off (`0`, `false`, `no`, `off`).
pub(crate) fn env_off(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| matches!(v.trim(), "0" | "false" | "no" | "off"))
}

/// A setting on unless `name` turns it off ([`env_off`]), read once into `cell`.
pub(crate) fn on_unless_off(cell: &std::sync::OnceLock<bool>, name: &str) -> bool {
    *cell.get_or_init(|| !env_off(name))
}

/// Whether DEFAULT-precision f32 products may use TF32 tensor cores (as XLA:GPU does): yes unless
/// `OXHLO_CUDA_TF32=0` (for comparing GPU results with exact f32 references).
pub fn tf32_from_env() -> bool {
    !env_off("OXHLO_CUDA_TF32")
}

/// Whether runs may return before their device work completes ([`CudaProgram::run_device_async`]): yes
/// unless `OXHLO_CUDA_ASYNC=0` (every run then waits for its device work, as before).
pub fn async_runs() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    on_unless_off(&ON, "OXHLO_CUDA_ASYNC")
}

/// How long a run polls for its device work to complete before returning it in flight: 100 us unless
/// `OXHLO_CUDA_ASYNC_SPIN_US` says otherwise (0: never).
pub fn async_spin() -> std::time::Duration {
    static US: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    std::time::Duration::from_micros(*US.get_or_init(|| std::env::var("OXHLO_CUDA_ASYNC_SPIN_US").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(100)))
}

/// Whether the optimizer factors per-slice constants out of sums for the GPU
/// ([`oxhlo_opt::factor_sums`]: its sums run in their own order already): yes unless
/// `OXHLO_FACTOR_SUMS=0`.
pub fn factor_sums_from_env() -> bool {
    !env_off("OXHLO_FACTOR_SUMS")
}

/// Runs the optimizer as the GPU backend does: `opt`'s passes plus [`factor_sums_from_env`], then big
/// splat constants as broadcasts of scalars ([`oxhlo_opt::splat_broadcast`]: kernels read one element,
/// the compile uploads one) unless `OXHLO_CUDA_SPLATS=0`.
pub fn optimize(module: &mut Module, opt: &OptOptions) -> Result<oxhlo_opt::PassReport, String> {
    let report = oxhlo_opt::optimize(module, &OptOptions { factor_sums: factor_sums_from_env(), ..opt.clone() })?;
    if !env_off("OXHLO_CUDA_SPLATS") {
        oxhlo_opt::splat_broadcast::rewrite_module(module, oxhlo_opt::splat_broadcast::MIN_ELEMENTS);
    }
    Ok(report)
}

/// Optimizes `module` ([`optimize`]) and compiles it for the GPU.
pub fn compile(
    mut module: Module,
    opt: &OptOptions,
    opts: &CudaOptions,
    registry: Option<Arc<CustomCallRegistry>>,
) -> Result<CudaProgram, String> {
    let t0 = std::time::Instant::now();
    optimize(&mut module, opt)?;
    nvrtc::compile_log(&format!("optimized in {:.0} ms", t0.elapsed().as_secs_f64() * 1e3));
    let registry = registry.unwrap_or_else(|| Arc::new(CustomCallRegistry::with_builtins()));
    CudaProgram::compile(module, opts, registry)
}
