//! Times NVRTC on the kernels a program lists (no GPU needed): `cargo run --release -p oxhlo-cuda
//! --example nvrtc_time -- prog.mlir [N [THREADS [BATCH]]]` prints how long parsing, optimizing and
//! listing take (`kernels::module_kernels`) and how long the first N kernels take to compile on THREADS
//! threads, in about N/BATCH NVRTC programs of equal length (`nvrtc::balanced_batches`, as
//! `Gpu::precompile` makes them).
//! `NVRTC_TIME_DUMP=dir` writes the listed sources there; `NVRTC_TIME_SLICE=i/n` keeps every n-th listed
//! kernel from the i-th (to compare n processes with n threads of one process).
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
    let ks: Vec<String> = ks.into_iter().take(n).skip(slice).step_by(of).collect();
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
                let b = oxhlo_cuda::nvrtc::compile_cubin(u, "sm_90").expect("compiles");
                println!("  program {i}: {} chars, {:?}", u.len(), t.elapsed());
                bytes.fetch_add(b.len(), std::sync::atomic::Ordering::Relaxed);
            });
        }
    });
    let took = t.elapsed();
    println!(
        "{} kernels in {} programs on {threads} threads: {:?} ({:?} a kernel), {} bytes of cubin",
        ks.len(),
        units.len(),
        took,
        took / ks.len().max(1) as u32,
        bytes.into_inner()
    );
}
