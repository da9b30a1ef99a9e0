//! The two optimization tiers (`oxhlo_cuda::tiers`): a program whose kernels no cache has runs first on
//! quickly compiled kernels, its runs are captured as a CUDA graph on them, and once the fully optimized
//! kernels are swapped in the graph is captured again; every run matches the reference interpreter and
//! the fully optimized kernels land in the disk cache. Its own process (its environment: tiers for any
//! program, an empty disk cache). Skips with a message without a GPU.

use oxhlo_cpu::{Buf, NTensor, Val};
use oxhlo_cuda::{CudaOptions, CudaProgram, DVal};
use oxhlo_interp::custom_call::CustomCallRegistry;
mod common;

use common::as_f64;
use oxhlo_ir::{ElementType, FloatType, TensorType};
use std::sync::atomic::Ordering::SeqCst;
use std::sync::Arc;
use std::time::Duration;

/// Twenty layers of elementwise work and a row sum each (a kernel per layer at least, all on the device:
/// enough steps for the runs to be captured as a graph).
fn layers_src() -> String {
    let t = "tensor<96x40xf32>";
    let mut body = String::from("  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n");
    let mut x = "%x".to_string();
    for i in 0..20 {
        let c = 0.25 + i as f64 * 0.0625;
        body.push_str(&format!(
            "  %c{i} = stablehlo.constant dense<{c:.6}> : {t}\n  %e{i} = stablehlo.exponential {x} : {t}\n  %s{i} = stablehlo.sine %e{i} : {t}\n  %m{i} = stablehlo.multiply %s{i}, %c{i} : {t}\n  %r{i} = stablehlo.reduce(%m{i} init: %z) applies stablehlo.add across dimensions = [1] : ({t}, tensor<f32>) -> tensor<96xf32>\n  %b{i} = stablehlo.broadcast_in_dim %r{i}, dims = [0] : (tensor<96xf32>) -> {t}\n  %d{i} = stablehlo.divide %m{i}, %b{i} : {t}\n  %x{i} = stablehlo.subtract {x}, %d{i} : {t}\n"
        ));
        x = format!("%x{i}");
    }
    format!("func.func @main(%x: {t}) -> {t} {{\n{body}  return {x} : {t}\n}}")
}

#[test]
fn quick_kernels_run_first_and_the_full_ones_replace_them() {
    let cache = std::env::temp_dir().join(format!("oxhlo-tiers-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    // Before the GPU and the tier settings are first read.
    std::env::set_var("OXHLO_CUDA_CACHE", &cache);
    std::env::set_var("OXHLO_NVRTC_TIERS", "1");
    // Its kernels are row kernels, which compile at the full tier at once unless told otherwise.
    std::env::set_var("OXHLO_NVRTC_REDUCTIONS_QUICK", "1");
    let module = oxhlo_text::parse_module(&layers_src(), "tiers.mlir").expect("parses");
    oxhlo_ir::verify_module(&module).expect("verifies");
    let func = module.entry().expect("an entry");
    let steps = oxhlo_cuda::kernels::plan_steps(func, func.body.entry().expect("a body"), &CudaOptions::default().fusion);
    assert!(steps.len() >= 16, "enough steps for a graph: {}", steps.len());
    let gpu = match oxhlo_cuda::device::gpu() {
        Ok(g) => g,
        Err(e) => {
            println!("skipped: no CUDA device ({e})");
            return;
        }
    };
    assert_eq!(oxhlo_cuda::tiers::min_kernels(), Some(1), "OXHLO_NVRTC_TIERS=1 asks for tiers on any program");
    oxhlo_cuda::tiers::hold(true);
    let upgrades0 = gpu.upgrades.load(SeqCst);
    let prog = CudaProgram::compile(module.clone(), &CudaOptions::default(), Arc::new(CustomCallRegistry::with_builtins())).expect("compiles");
    let x: Vec<f32> = (0..96 * 40).map(|i| ((i * 37 % 101) as f32 / 101.0) - 0.5).collect();
    let x = NTensor::new(TensorType::new(vec![96, 40], ElementType::Float(FloatType::F32)), Buf::F32(x));
    let want = as_f64(&oxhlo_interp::eval::run_main(&module, vec![Val::Native(x.clone()).to_rt()]).expect("interpreter")[0]);
    let x_dev = DVal::Device(gpu.upload(&x).expect("upload"));
    let check = |when: &str| {
        let outs = prog.run_device(vec![x_dev.clone()]).expect("run_device");
        let DVal::Device(d) = &outs[0] else { panic!("{when}: the result stays on the device") };
        let got = as_f64(&Val::Native(gpu.download(d).expect("download")).to_rt());
        for (e, (g, w)) in got.iter().zip(&want).enumerate() {
            // sin(exp) in CUDA's single-precision functions, summed in another order: rounding only.
            assert!((g - w).abs() <= 1e-4 * w.abs().max(1.0), "{when}, element {e}: {g} vs the interpreter's {w}");
        }
    };
    for run in 0..4 {
        check(&format!("run {run} on the quick tier"));
    }
    let graphs = oxhlo_cuda::graph::enabled();
    let captures = prog.stats.graph_captures.load(SeqCst);
    if graphs {
        assert_eq!(captures, 1, "the quick tier's runs were captured as a graph");
    }
    // (A graph whose replays took longer than step-by-step runs is dropped, and then not captured again.)
    let kept = prog.graph_captured();
    assert_eq!(gpu.upgrades.load(SeqCst), upgrades0, "held back: no upgrade yet");
    oxhlo_cuda::tiers::hold(false);
    assert!(oxhlo_cuda::tiers::wait_for_upgrades(Duration::from_secs(120)), "the full tier finishes");
    assert_eq!(gpu.upgrades.load(SeqCst), upgrades0 + 1, "one upgrade swapped in");
    for run in 0..3 {
        check(&format!("run {run} on the full tier"));
    }
    if graphs && kept {
        assert_eq!(prog.stats.graph_captures.load(SeqCst), captures + 1, "the graph is captured again on the full kernels");
    }
    let cubins = std::fs::read_dir(&cache).map(|d| d.filter_map(|e| e.ok()).filter(|e| e.file_name().to_string_lossy().ends_with(".cubin")).count()).unwrap_or(0);
    assert!(cubins >= 1, "the full tier's CUBINs are in the disk cache");
    let _ = std::fs::remove_dir_all(&cache);
}
