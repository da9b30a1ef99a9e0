//! Prints the GPU backend's kernel plan of a program (no GPU needed): `cargo run --release -p oxhlo-cuda
//! --example dump_rows -- prog.mlir` lists the steps after the GPU's optimizer (ops run alone, fused
//! kernels with their row view); with `SRC=1` it also prints each row kernel's CUDA C source
//! (`rows::render_rows`), as the device would compile it; with `PASSES=1` the optimizer's time by pass.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: dump_rows prog.mlir");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut m = oxhlo_text::parse_module(&text, &path).unwrap_or_else(|e| panic!("{e}"));
    let report = oxhlo_cuda::optimize(&mut m, &oxhlo_opt::OptOptions::at(oxhlo_opt::OptLevel::O2)).expect("optimizes");
    if std::env::var("PASSES").is_ok() {
        print!("{}", report.render());
    }
    let f = m.entry().expect("an entry function");
    let block = f.body.entry().expect("a body");
    let options = oxhlo_cuda::CudaOptions::default().fusion;
    let sources = std::env::var("SRC").is_ok();
    for step in oxhlo_cuda::kernels::plan_steps(f, block, &options) {
        match step {
            oxhlo_plan::fusion::Step::Op(i) => println!("// op {}", block.ops[i].name()),
            oxhlo_plan::fusion::Step::Kernel(k) => {
                println!("// kernel: {} ops, rows {:?}", k.ops.len(), k.rows.as_ref().map(|r| (r.rows, r.cols)));
                if let (true, Some(r)) = (sources && k.rows.is_some(), oxhlo_cuda::rows::render_rows(f, block, &k)) {
                    println!("// a {} a row{}\n{}", if r.launch.warp { "warp" } else { "block" }, if r.launch.persistent { ", the next row loaded ahead" } else { "" }, r.src);
                }
            }
        }
    }
}
