//! Where a device cholesky's time goes (`cargo build --release -p oxhlo-cuda --example linalg_lab`,
//! run on the GPU machine): plans `stablehlo.cholesky` of one f32 matrix of each size with
//! `linalg::plan`, launches its kernels as the backend does and prints the device time of the whole
//! chain and of each kernel role alone (the fill, the panels, the trailing updates, the store), then the
//! same for `triangular_solve` of n x n against n x 8. Times: CUDA events around the launches, the
//! launches held until all are enqueued (`profile::device_ms_per_call`), best of five.
//! cholesky runs once with each form of its panels' steps (`linalg::PanelSteps`: one block barrier a
//! step, two).
//! `LINALG_LAB_SIZES=256,1024` picks the sizes (default 256, 512, 1024).
use oxhlo_cpu::{Buf, NTensor};
use oxhlo_cuda::device::{self, Gpu, Kernel};
use oxhlo_cuda::linalg::{self, PanelSteps, Plan, THREADS};
use oxhlo_ir::{ElementType, FloatType, OpKind, TensorType};

/// Device microseconds of one pass over the plan's launches whose kernel `keep` accepts, best of five.
fn time_us(gpu: &Gpu, plan: &Plan, kernels: &[Kernel], inputs: &[&device::DTensor], outs: &mut [device::DBuf], keep: &dyn Fn(usize) -> bool) -> f64 {
    let bufs: Vec<_> = inputs.iter().map(|d| &**d.buf).collect();
    let mut pass = || {
        for l in plan.launches.iter().filter(|l| keep(l.kernel)) {
            gpu.launch_tiles(&kernels[l.kernel], l.blocks, THREADS, &[l.blocks as i64, l.k0], &bufs, outs).expect("launch");
        }
    };
    (0..5).map(|_| oxhlo_cuda::profile::device_ms_per_call(gpu, 1, &mut pass).expect("device time") * 1e3).fold(f64::INFINITY, f64::min)
}

fn matrix(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut a: Vec<f32> = (0..n * n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as f32 / (1u64 << 24) as f32) - 0.5
        })
        .collect();
    // Symmetric and diagonally dominant: positive definite.
    for i in 0..n {
        for j in 0..i {
            a[j * n + i] = a[i * n + j];
        }
        a[i * n + i] = n as f32;
    }
    a
}

fn main() {
    let gpu = match device::gpu() {
        Ok(g) => g,
        Err(e) => {
            println!("skipped: no CUDA device ({e})");
            return;
        }
    };
    let sizes: Vec<usize> = std::env::var("LINALG_LAB_SIZES").ok().map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect()).unwrap_or_else(|| vec![256, 512, 1024]);
    for n in sizes {
        for (name, text) in [
            ("cholesky", format!("func.func @main(%a: tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32> {{\n  %0 = stablehlo.cholesky %a, lower = true : tensor<{n}x{n}xf32>\n  return %0 : tensor<{n}x{n}xf32>\n}}\n")),
            ("triangular_solve", format!("func.func @main(%a: tensor<{n}x{n}xf32>, %b: tensor<{n}x8xf32>) -> tensor<{n}x8xf32> {{\n  %0 = \"stablehlo.triangular_solve\"(%a, %b) {{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}} : (tensor<{n}x{n}xf32>, tensor<{n}x8xf32>) -> tensor<{n}x8xf32>\n  return %0 : tensor<{n}x8xf32>\n}}\n")),
        ] {
            let forms: Vec<Option<PanelSteps>> = if name == "cholesky" { PanelSteps::ALL.into_iter().map(Some).collect() } else { vec![None] };
            for variant in forms {
                let m = oxhlo_text::parse_module(&text, "linalg_lab").expect("parses");
                let func = m.entry().expect("an entry");
                let block = func.body.blocks.first().expect("a body");
                let op = block.ops.iter().find(|o| matches!(o.kind, OpKind::Cholesky | OpKind::TriangularSolve)).expect("the op");
                let plan = match variant {
                    Some(steps) => linalg::plan_cholesky(func, op, steps),
                    None => linalg::plan(func, op),
                }
                .expect("runs on the device");
                let kernels: Vec<Kernel> = plan.kernels.iter().map(|s| Kernel::new(s.clone())).collect();
                let f32t = |shape: &[i64], v: Vec<f32>| NTensor::new(TensorType::new(shape.to_vec(), ElementType::Float(FloatType::F32)), Buf::F32(v));
                let a = gpu.upload(&f32t(&[n as i64, n as i64], matrix(n, 7))).unwrap();
                let b = gpu.upload(&f32t(&[n as i64, 8], matrix(n, 9)[..n * 8].to_vec())).unwrap();
                let inputs: Vec<&device::DTensor> = if name == "cholesky" { vec![&a] } else { vec![&a, &b] };
                let result_len = if name == "cholesky" { n * n } else { n * 8 };
                let mut outs = vec![gpu.alloc_raw(oxhlo_cpu::Kind::F64, plan.work).unwrap(), gpu.alloc_raw(oxhlo_cpu::Kind::F32, result_len).unwrap()];
                let whole = time_us(&gpu, &plan, &kernels, &inputs, &mut outs, &|_| true);
                let per: Vec<f64> = (0..plan.kernels.len()).map(|k| time_us(&gpu, &plan, &kernels, &inputs, &mut outs, &|i| i == k)).collect();
                let counts: Vec<usize> = (0..plan.kernels.len()).map(|k| plan.launches.iter().filter(|l| l.kernel == k).count()).collect();
                println!(
                    "{name} {n}{}: whole {whole:.1} us in {} launches; fill {:.1}, {} x {} {:.1} us ({:.2} a launch), {} x {} {:.1} us ({:.2} a launch), store {:.1}",
                    variant.map_or(String::new(), |v| format!(" ({v:?} panels)")),
                    plan.launches.len(),
                    per[0],
                    counts[1],
                    if name == "cholesky" { "panel" } else { "solve" },
                    per[1],
                    per[1] / counts[1].max(1) as f64,
                    counts[2],
                    if name == "cholesky" { "trailing" } else { "update" },
                    per[2],
                    per[2] / counts[2].max(1) as f64,
                    per[3]
                );
            }
        }
    }
}
