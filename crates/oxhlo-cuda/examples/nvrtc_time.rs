//! Times NVRTC on the kernels a program lists (no GPU needed): `cargo run --release -p oxhlo-cuda
//! --example nvrtc_time -- prog.mlir [N [THREADS [BATCH]]]` prints how long parsing, optimizing and
//! listing take (`kernels::module_kernels`) and how long the first N kernels take to compile on THREADS
//! threads, in about N/BATCH NVRTC programs of equal length (`nvrtc::balanced_batches`, as
//! `Gpu::precompile` makes them).
//! `NVRTC_TIME_DUMP=dir` writes the listed sources there; `NVRTC_TIME_SLICE=i/n` keeps every n-th listed
//! kernel from the i-th (to compare n processes with n threads of one process).
//! `NVRTC_TIME_PTX=1` stops at PTX (NVRTC without its ptxas part); with `NVRTC_TIME_JIT=1` too, each
//! thread then has the driver compile its PTX (`cuModuleLoadData` on GPU 0), timed apart.
//! `NVRTC_TIME_WORKER=1` has each thread compile its program in an NVRTC worker process
//! (`oxhlo_cuda::nvrtc_worker`, found as the backend finds it, e.g. through `OXHLO_NVRTC_WORKER`).
//! `NVRTC_TIME_DROP=text` leaves out the kernels whose source holds `text`.
//! `NVRTC_TIME_INT32=1` compiles the sources with 32-bit instead of 64-bit index arithmetic (a text
//! substitution, for compile times only). `NVRTC_TIME_QUICK=1` compiles at the quick tier
//! (`nvrtc::Tier::Quick`, what a cold first call waits for).
use oxhlo_cpu::OptLevel;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: nvrtc_time prog.mlir [N [THREADS [BATCH]]]");
    let arg = |i: usize, d: usize| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (n, threads, per) = (arg(2, 40), arg(3, 1).max(1), arg(4, 1).max(1));
    let text = std::fs::read_to_string(path).expect("readable");
    let t = std::time::Instant::now();
    let mut m = oxhlo_text::parse_module(&text, path).expect("parses");
    let parsed = t.elapsed();
    oxhlo_cuda::optimize(&mut m, &oxhlo_opt::OptOptions::at(OptLevel::O2)).expect("optimizes");
    println!("parsed in {parsed:?}, optimized in {:?}", t.elapsed() - parsed);
    let t = std::time::Instant::now();
    let ks = oxhlo_cuda::kernels::module_kernels(&m, &oxhlo_cuda::options_at(OptLevel::O2).fusion);
    println!("{} kernels listed in {:?}", ks.len(), t.elapsed());
    if let Ok(dir) = std::env::var("NVRTC_TIME_DUMP") {
        std::fs::create_dir_all(&dir).ok();
        for (i, k) in ks.iter().enumerate() {
            std::fs::write(format!("{dir}/k{i:04}.cu"), k).ok();
        }
    }
    let (slice, of) = std::env::var("NVRTC_TIME_SLICE")
        .ok()
        .and_then(|v| v.split_once('/').and_then(|(i, n)| Some((i.trim().parse::<usize>().ok()?, n.trim().parse::<usize>().ok()?.max(1)))))
        .unwrap_or((0, 1));
    let flag = |v: &str| std::env::var(v).is_ok_and(|v| v.trim() == "1");
    let (ptx, jit) = (flag("NVRTC_TIME_PTX"), flag("NVRTC_TIME_JIT"));
    let tier = if flag("NVRTC_TIME_QUICK") { oxhlo_cuda::nvrtc::Tier::Quick } else { oxhlo_cuda::nvrtc::Tier::Full };
    let ks: Vec<String> = ks.into_iter().take(n).skip(slice).step_by(of).collect();
    let ks: Vec<String> = match std::env::var("NVRTC_TIME_DROP") {
        Ok(text) => ks.into_iter().filter(|k| !k.contains(text.as_str())).collect(),
        Err(_) => ks,
    };
    let ks: Vec<String> = if flag("NVRTC_TIME_INT32") { ks.iter().map(|s| s.replace("long long", "int").replace("LL", "")).collect() } else { ks };
    let ctx = (ptx && jit).then(|| cudarc::driver::CudaContext::new(0).expect("a GPU for NVRTC_TIME_JIT"));
    let jit_ns = std::sync::atomic::AtomicU64::new(0);
    let worker = flag("NVRTC_TIME_WORKER").then(|| oxhlo_cuda::nvrtc_worker::worker().expect("an NVRTC worker (OXHLO_NVRTC_WORKER=path)"));
    let keyed: Vec<(u64, &str)> = ks.iter().map(|s| (0, s.as_str())).collect();
    let units: Vec<String> = oxhlo_cuda::nvrtc::balanced_batches(&keyed, ks.len().div_ceil(per)).iter().map(|b| oxhlo_cuda::nvrtc::batch_unit(&b.iter().map(|(_, s)| *s).collect::<Vec<_>>())).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let bytes = std::sync::atomic::AtomicUsize::new(0);
    let t = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(u) = units.get(i) else { break };
                let t = std::time::Instant::now();
                let b = if let Some(w) = worker {
                    oxhlo_cuda::nvrtc_worker::compile_in_worker(w, u, "sm_90", tier)
                } else if ptx { oxhlo_cuda::nvrtc::compile_ptx(u, "compute_90") } else { oxhlo_cuda::nvrtc::compile_cubin_tier(u, "sm_90", tier) }.expect("compiles");
                let took = t.elapsed();
                if let Some(ctx) = &ctx {
                    let t = std::time::Instant::now();
                    let text = String::from_utf8_lossy(&b).trim_end_matches('\0').to_string();
                    ctx.load_module(cudarc::nvrtc::Ptx::from_src(text)).expect("the driver compiles the PTX");
                    jit_ns.fetch_add(t.elapsed().as_nanos() as u64, std::sync::atomic::Ordering::Relaxed);
                    println!("  program {i}: {} chars, {took:?} + driver JIT {:?}", u.len(), t.elapsed());
                } else {
                    println!("  program {i}: {} chars, {took:?}", u.len());
                }
                bytes.fetch_add(b.len(), std::sync::atomic::Ordering::Relaxed);
            });
        }
    });
    let took = t.elapsed();
    println!(
        "{} kernels in {} programs on {threads} threads{}{} ({:?} tier): {:?} ({:?} a kernel), {} bytes of {}, driver JIT {:.0} ms of thread time",
        ks.len(),
        units.len(),
        if flag("NVRTC_TIME_INT32") { " (32-bit indices)" } else { "" },
        if worker.is_some() { " (worker processes)" } else { "" },
        tier,
        took,
        took / ks.len().max(1) as u32,
        bytes.into_inner(),
        if ptx { "PTX" } else { "cubin" },
        jit_ns.into_inner() as f64 / 1e6
    );
}
