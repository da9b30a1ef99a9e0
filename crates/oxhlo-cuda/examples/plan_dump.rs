//! Prints the CUDA plan of a program's main function (no GPU needed): `plan_dump prog.mlir` lists each
//! step, fused kernels with their inputs, outputs, shape and reduction epilogues. For reading what
//! fusion made of a program. Each step ends with the megabytes it reads and writes (every input once),
//! and a summary per kind of step closes each function: the traffic a device pass cannot go below.
//! `PLAN_DUMP_OPS=1` lists the ops inside each kernel too; `PLAN_DUMP_KERNELS=dir` writes every kernel
//! source the program can launch to `dir/kNNN.cu`. A step that a reduction's finishing pass runs
//! (`finish_epilogue`) says so.
use oxhlo_cpu::OptLevel;
use oxhlo_ir::{Type, Value};
use oxhlo_plan::fusion::Step;

fn main() {
    let show_ops = std::env::var("PLAN_DUMP_OPS").is_ok_and(|v| v == "1");
    let path = std::env::args().nth(1).expect("usage: plan_dump prog.mlir");
    let text = std::fs::read_to_string(&path).expect("readable");
    let mut m = oxhlo_text::parse_module(&text, &path).expect("parses");
    oxhlo_cuda::optimize(&mut m, &oxhlo_opt::OptOptions::at(OptLevel::O2)).expect("optimizes");
    let fusion = oxhlo_cuda::options_at(OptLevel::O2).fusion;
    if let Ok(dir) = std::env::var("PLAN_DUMP_KERNELS") {
        std::fs::create_dir_all(&dir).expect("a kernel folder");
        for (j, src) in oxhlo_cuda::kernels::module_kernels(&m, &fusion).iter().enumerate() {
            std::fs::write(format!("{dir}/k{j:03}.cu"), src).expect("kernel written");
        }
    }
    for func in &m.funcs {
        let Some(block) = func.body.blocks.first() else { continue };
        let ty = |v| func.try_ty(v).map(|t| format!("{t:?}")).unwrap_or_default();
        let mb = |vs: &[Value]| -> f64 {
            let bytes = |v: &Value| match func.try_ty(*v) {
                Some(Type::Tensor(t)) => t.num_elements().unwrap_or(0) * t.elem.storage_bytes(),
                _ => 0,
            };
            vs.iter().map(bytes).sum::<usize>() as f64 / 1e6
        };
        // (steps, MB read, MB written) per kind of step.
        let mut totals: std::collections::BTreeMap<String, (usize, f64, f64)> = Default::default();
        println!("func {}", func.name);
        let (steps, copies) = oxhlo_cuda::kernels::plan_view_copies(func, block, oxhlo_cuda::kernels::plan_steps(func, block, &fusion), &fusion);
        for (si, s) in steps.iter().enumerate() {
            if si > 0 && oxhlo_cuda::finish_epilogue::epilogue(func, block, &steps[si - 1], s).is_some() {
                print!("(run by the finishing pass of {}) ", si - 1);
            }
            match s {
                Step::Op(i) if copies.contains_key(i) => {
                    let c = &copies[i];
                    let srcs: Vec<Value> = c.pieces.iter().map(|p| p.src).collect();
                    let (r, w) = (mb(&srcs), mb(&[c.result]));
                    println!("{si}: view copy at {} of {} ops, {} pieces {:?} -> {:?} {} [{r:.1} MB in, {w:.1} MB out]", block.ops[*i].kind.name(), c.absorbed.len() + 1, c.pieces.len(), srcs, c.result, ty(c.result));
                    let t = totals.entry("view copy".to_string()).or_default();
                    *t = (t.0 + 1, t.1 + r, t.2 + w);
                }
                Step::Op(i) => {
                    let op = &block.ops[*i];
                    let (r, w) = (mb(&op.operands), mb(&op.results));
                    println!("{si}: op {} {:?} -> {:?} {} [{r:.1} MB in, {w:.1} MB out]", op.kind.name(), op.operands, op.results, op.results.first().map(|&v| ty(v)).unwrap_or_default());
                    let t = totals.entry(op.kind.name().to_string()).or_default();
                    *t = (t.0 + 1, t.1 + r, t.2 + w);
                }
                Step::Kernel(k) => {
                    let red: Vec<String> = k.reduce.iter().map(|e| format!("reduce {:?}[{}x{}x{}] of {:?} -> {:?}", e.kind, e.outer, e.n, e.inner, e.operand, e.result)).collect();
                    let (r, w) = (mb(&k.inputs), mb(&k.outputs));
                    // A plain elementwise kernel that does not render runs on the host (the reference
                    // interpreter, with its operands copied there and back).
                    let host = k.reduce.is_empty() && k.rows.is_none() && oxhlo_cuda::render::render_fused(func, block, k).is_none();
                    println!("{si}: kernel {:?} ops {} in {:?} out {:?} {} {}{} [{r:.1} MB in, {w:.1} MB out]", k.shape, k.ops.len(), k.inputs, k.outputs, red.join(" "), if k.rows.is_some() { "rows" } else { "" }, if host { " ON THE HOST (does not render)" } else { "" });
                    let kind = if k.rows.is_some() { "kernel (rows)" } else if k.reduce.is_empty() { "kernel" } else { "kernel (reduce)" };
                    let t = totals.entry(kind.to_string()).or_default();
                    *t = (t.0 + 1, t.1 + r, t.2 + w);
                    if show_ops {
                        for &i in &k.ops {
                            let op = &block.ops[i];
                            println!("      {} {:?} -> {:?} {}", op.kind.name(), op.operands, op.results, op.results.first().map(|&v| ty(v)).unwrap_or_default());
                        }
                    }
                }
            }
        }
        for (kind, (n, r, w)) in &totals {
            println!("# {kind}: {n} steps, {r:.0} MB read, {w:.0} MB written");
        }
    }
}
