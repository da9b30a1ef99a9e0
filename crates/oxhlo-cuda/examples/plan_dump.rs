//! Prints the CUDA plan of a program's main function (no GPU needed): `plan_dump prog.mlir` lists each
//! step, fused kernels with their inputs, outputs, shape and reduction epilogues. For reading what
//! fusion made of a program.
use oxhlo_cpu::OptLevel;
use oxhlo_plan::fusion::Step;

fn main() {
    let path = std::env::args().nth(1).expect("usage: plan_dump prog.mlir");
    let text = std::fs::read_to_string(&path).expect("readable");
    let mut m = oxhlo_text::parse_module(&text, &path).expect("parses");
    oxhlo_opt::optimize(&mut m, &oxhlo_opt::OptOptions::at(OptLevel::O2)).expect("optimizes");
    let fusion = oxhlo_cuda::options_at(OptLevel::O2).fusion;
    for func in &m.funcs {
        let Some(block) = func.body.blocks.first() else { continue };
        let ty = |v| func.try_ty(v).map(|t| format!("{t:?}")).unwrap_or_default();
        println!("func {}", func.name);
        for (si, s) in oxhlo_cuda::kernels::plan_steps(func, block, &fusion).iter().enumerate() {
            match s {
                Step::Op(i) => {
                    let op = &block.ops[*i];
                    println!("{si}: op {} {:?} -> {:?} {}", op.kind.name(), op.operands, op.results, op.results.first().map(|&v| ty(v)).unwrap_or_default());
                }
                Step::Kernel(k) => {
                    let red: Vec<String> = k.reduce.iter().map(|e| format!("reduce {:?}[{}x{}x{}] of {:?} -> {:?}", e.kind, e.outer, e.n, e.inner, e.operand, e.result)).collect();
                    println!("{si}: kernel {:?} ops {} in {:?} out {:?} {} {}", k.shape, k.ops.len(), k.inputs, k.outputs, red.join(" "), if k.rows.is_some() { "rows" } else { "" });
                }
            }
        }
    }
}
