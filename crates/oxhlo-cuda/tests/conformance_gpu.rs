//! The interpreter's conformance suite (`crates/oxhlo-interp/tests/conformance/*.mlir`) run on the CUDA
//! backend at O2 with constants lifted to parameters (so kernels, not constant folding, compute the
//! results), strict f32 products (no TF32: the expected values are exact). Skips with a message where no
//! CUDA device is present. `CONFORMANCE_FILTER=substring` runs only matching files.

use oxhlo_cpu::{OptLevel, OptOptions, Val};
use oxhlo_cuda::CudaOptions;
use std::path::Path;

fn run_case(m: &oxhlo_ir::Module) -> Result<(usize, Vec<oxhlo_interp::testing::CheckFailure>), String> {
    let mut m = m.clone();
    let inputs = oxhlo_opt::lift_constants_to_args(&mut m);
    let opt = OptOptions::at(OptLevel::O2);
    let opts = CudaOptions { allow_tf32: false, ..oxhlo_cuda::options_at(OptLevel::O2) };
    let program = oxhlo_cuda::compile(m, &opt, &opts, None)?;
    let (res, checks) = program.run_with_checks(inputs.into_iter().map(Val::from_rt).collect());
    res.map_err(|e| e.to_string())?;
    Ok(checks)
}

#[test]
fn conformance_on_gpu() {
    if let Err(e) = oxhlo_cuda::available() {
        println!("skipped: no CUDA device ({e})");
        return;
    }
    run_suite();
}

fn run_suite() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-interp/tests/conformance");
    let dir = std::env::var("CONFORMANCE_DIR").map(Into::into).unwrap_or(dir);
    let filter = std::env::var("CONFORMANCE_FILTER").unwrap_or_default();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the conformance directory exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .filter(|p| p.to_string_lossy().contains(&filter))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no conformance files found");
    let start = std::time::Instant::now();
    // Files run on several threads (NVRTC compiles dominate small cases); one device, one stream.
    let threads = std::env::var("CONFORMANCE_THREADS").ok().and_then(|t| t.parse().ok()).unwrap_or(8usize).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn_scoped(s, || loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(f) = files.get(i) else { break };
                    let src = std::fs::read_to_string(f).expect("readable test file");
                    let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    let report = oxhlo_interp::testing::run_test_source_with(&src, &format!("tests/conformance/{name}"), &run_case);
                    results.lock().unwrap().push((name, report.passed(), report.failed(), report.render()));
                })
                .unwrap();
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let (mut passed, mut failed) = (0, 0);
    let mut failures = String::new();
    for (name, p, f, text) in &results {
        passed += p;
        failed += f;
        if *f > 0 {
            println!("{name}: {p} passed, {f} failed");
            failures.push_str(text);
        }
    }
    println!("convolutions on cuDNN: {:?}", oxhlo_cuda::cudnn::available());
    println!("CUDA backend conformance: {passed} passed, {failed} failed in {:.1?}", start.elapsed());
    if failed > 0 {
        println!("{failures}");
    }
    assert_eq!(failed, 0, "{failed} conformance case(s) failed on the CUDA backend");
}
