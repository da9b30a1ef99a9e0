//! The NVRTC worker process (`oxhlo-nvrtc`, `oxhlo_cuda::nvrtc_worker`): a batch of rendered kernels
//! compiled by the worker is the same CUBIN as compiled in this process, a unit NVRTC rejects comes back
//! as an error carrying NVRTC's log, and a worker that cannot start is an error, not a panic; the quick
//! tier's unit too. Needs the NVRTC library only (no GPU); without it the test says so and skips.

use oxhlo_cuda::nvrtc::{batch_unit, compile_cubin, compile_cubin_tier, nvrtc_available, Tier};
use oxhlo_cuda::nvrtc_worker::compile_in_worker;
use std::path::Path;

const SQUARE: &str = "extern \"C\" __global__ void oxk(long long n, const float* __restrict__ in0, float* __restrict__ out0) {\n  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out0[i] = in0[i] * in0[i];\n}\n";
const NEGATE: &str = "extern \"C\" __global__ void oxk(long long n, const float* __restrict__ in0, float* __restrict__ out0) {\n  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out0[i] = -in0[i];\n}\n";

#[test]
fn the_worker_compiles_what_this_process_compiles() {
    if !nvrtc_available() {
        eprintln!("SKIP: libnvrtc not found (pip install nvidia-cuda-nvrtc and put its lib/ on LD_LIBRARY_PATH)");
        return;
    }
    let worker = Path::new(env!("CARGO_BIN_EXE_oxhlo-nvrtc"));
    let unit = batch_unit(&[SQUARE, NEGATE]);
    let here = compile_cubin(&unit, "sm_90").expect("NVRTC compiles the unit here");
    let there = compile_in_worker(worker, &unit, "sm_90", Tier::Full).expect("the worker compiles the unit");
    assert!(there.starts_with(b"\x7fELF"), "a CUBIN is an ELF image");
    assert_eq!(here, there, "the same CUBIN from the worker as from this process");
    let quick_here = compile_cubin_tier(&unit, "sm_90", Tier::Quick).expect("NVRTC compiles the quick tier here");
    let quick_there = compile_in_worker(worker, &unit, "sm_90", Tier::Quick).expect("the worker compiles the quick tier");
    assert_eq!(quick_here, quick_there, "the same quick-tier CUBIN from the worker as from this process");

    let err = compile_in_worker(worker, "extern \"C\" __global__ void oxk() { undeclared_name = 1; }", "sm_90", Tier::Quick).expect_err("NVRTC rejects the unit");
    assert!(err.contains("undeclared_name"), "NVRTC's log comes back: {err}");

    let err = compile_in_worker(Path::new("/nonexistent/oxhlo-nvrtc"), &unit, "sm_90", Tier::Full).expect_err("no such worker");
    assert!(err.contains("starting"), "{err}");
}

/// A worker started ahead (`oxhlo-nvrtc --serve ARCH`) compiles the unit that follows its tier line as
/// a worker started for it does, and exits quietly when no unit comes; with 3 cores or more,
/// `prestart` keeps such workers waiting and `compile_in_started_worker` takes one.
#[test]
fn a_worker_started_ahead_compiles_its_unit_and_leaves_quietly_without_one() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    if !nvrtc_available() {
        eprintln!("SKIP: libnvrtc not found (pip install nvidia-cuda-nvrtc and put its lib/ on LD_LIBRARY_PATH)");
        return;
    }
    let worker = Path::new(env!("CARGO_BIN_EXE_oxhlo-nvrtc"));
    let unit = batch_unit(&[SQUARE, NEGATE]);
    let serve = |input: &str| {
        let mut c = Command::new(worker).args([oxhlo_cuda::nvrtc_worker::SERVE, "sm_90"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("starts");
        c.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("writes");
        c.wait_with_output().expect("finishes")
    };
    let out = serve(&format!("quick\n{unit}"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, compile_cubin_tier(&unit, "sm_90", Tier::Quick).expect("compiles here"), "the same quick-tier CUBIN");
    let out = serve("");
    assert!(out.status.success() && out.stdout.is_empty() && out.stderr.is_empty(), "no unit: exit 0 and nothing written");

    if oxhlo_cuda::nvrtc_worker::ready_target() < 3 {
        println!("fewer than 3 cores: no workers started ahead");
        return;
    }
    std::env::set_var("OXHLO_NVRTC_WORKER", worker);
    oxhlo_cuda::nvrtc_worker::prestart("sm_90");
    let t = std::time::Instant::now();
    while oxhlo_cuda::nvrtc_worker::waiting(worker, "sm_90") < oxhlo_cuda::nvrtc_worker::ready_target() && t.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let n = oxhlo_cuda::nvrtc_worker::waiting(worker, "sm_90");
    assert_eq!(n, oxhlo_cuda::nvrtc_worker::ready_target(), "workers started ahead");
    let there = oxhlo_cuda::nvrtc_worker::compile_in_started_worker(worker, &unit, "sm_90", Tier::Full).expect("a started worker compiles");
    assert_eq!(there, compile_cubin(&unit, "sm_90").expect("compiles here"), "the same full-tier CUBIN");
    assert_eq!(oxhlo_cuda::nvrtc_worker::waiting(worker, "sm_90"), n - 1, "one started worker taken");
}
