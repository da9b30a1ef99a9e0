//! Times NVRTC on the kernels a program enumerates (no GPU needed): `cargo run --release -p oxhlo-cuda
//! --example nvrtc_time -- prog.mlir [N]` prints how many kernels `kernels::module_kernels` lists and how
//! long the first N take to compile, one per NVRTC program, on one thread.
use oxhlo_cpu::OptLevel;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: nvrtc_time prog.mlir [N]");
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(40);
    let text = std::fs::read_to_string(path).expect("readable");
    let mut m = oxhlo_text::parse_module(&text, path).expect("parses");
    oxhlo_opt::optimize(&mut m, &oxhlo_opt::OptOptions::at(OptLevel::O2)).expect("optimizes");
    let t = std::time::Instant::now();
    let ks = oxhlo_cuda::kernels::module_kernels(&m, &oxhlo_cuda::options_at(OptLevel::O2).fusion);
    println!("{} kernels enumerated in {:?}", ks.len(), t.elapsed());
    if let Ok(dir) = std::env::var("NVRTC_TIME_DUMP") {
        std::fs::create_dir_all(&dir).ok();
        for (i, k) in ks.iter().enumerate() {
            std::fs::write(format!("{dir}/k{i:04}.cu"), k).ok();
        }
    }
    let t = std::time::Instant::now();
    let mut bytes = 0;
    for k in ks.iter().take(n) {
        bytes += oxhlo_cuda::device::compile_cubin(k, "sm_90").expect("compiles").len();
    }
    let took = t.elapsed();
    println!("{} compiled in {:?} ({:?} each), {} bytes of cubin", n.min(ks.len()), took, took / n.min(ks.len()).max(1) as u32, bytes);
}
