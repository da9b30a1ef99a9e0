//! Every kernel the CUDA backend can render, compiled with NVRTC for sm_90 without a GPU: the fused and
//! single-op kernels of the whole conformance suite (as the executor plans them at O2 with constants
//! lifted), the row kernels of `oxhlo-plan/tests/rows/`, reduction passes for every kind and reducer, and permutes. NVRTC needs no device, only the
//! library (`pip install nvidia-cuda-nvrtc`, found through LD_LIBRARY_PATH; `scripts/test.sh` sets it
//! up); without it the test says so and skips. Kernels are compiled in batches (each in a namespace of
//! its own, the shared prelude once) to keep the run short.

use oxhlo_cpu::{Kind, OptLevel, OptOptions};
use oxhlo_cuda::reduce::{render_pass, Pass, Shape};
use oxhlo_cuda::render;
use oxhlo_plan::reducer::ReduceKind;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Mutex;

fn conformance_kernels() -> BTreeSet<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-interp/tests/conformance");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the conformance directory exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    let kernels = Mutex::new(BTreeSet::new());
    let fusion = oxhlo_cuda::options_at(OptLevel::O2).fusion;
    for f in &files {
        let src = std::fs::read_to_string(f).expect("readable test file");
        let collect = |m: &oxhlo_ir::Module| -> Result<(usize, Vec<oxhlo_interp::testing::CheckFailure>), String> {
            let mut m = m.clone();
            let _ = oxhlo_opt::lift_constants_to_args(&mut m);
            oxhlo_cuda::optimize(&mut m, &OptOptions::at(OptLevel::O2))?;
            kernels.lock().unwrap().extend(oxhlo_cuda::kernels::module_kernels(&m, &fusion));
            Ok((0, Vec::new()))
        };
        let _ = oxhlo_interp::testing::run_test_source_with(&src, &f.to_string_lossy(), &collect);
    }
    kernels.into_inner().unwrap()
}

/// The helper kernels (filter and result copies, zero padding, slices) of the cuDNN plans of every
/// convolution in `modules`.
fn cudnn_kernels(modules: &[oxhlo_ir::Module]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for m in modules {
        let func = m.entry().expect("entry");
        for op in func.body.blocks[0].ops.iter().filter(|op| op.kind == oxhlo_ir::OpKind::Convolution) {
            let shape = |v| match func.ty(v) {
                oxhlo_ir::Type::Tensor(t) => t.shape.clone(),
                _ => panic!("tensor"),
            };
            for bytes in [2, 4, 8] {
                out.extend(oxhlo_cuda::cudnn_plan::helper_kernels(op, &shape(op.operands[0]), &shape(op.operands[1]), &shape(op.results[0]), bytes).unwrap_or_default());
            }
        }
    }
    out
}

fn reduction_kernels() -> BTreeSet<String> {
    let kinds = [
        Kind::Bool,
        Kind::I8,
        Kind::I16,
        Kind::I32,
        Kind::I64,
        Kind::U8,
        Kind::U16,
        Kind::U32,
        Kind::U64,
        Kind::F16,
        Kind::BF16,
        Kind::F32,
        Kind::F64,
    ];
    let rks = [ReduceKind::Add, ReduceKind::Mul, ReduceKind::Max, ReduceKind::Min, ReduceKind::And, ReduceKind::Or];
    let mut out = BTreeSet::new();
    for k in kinds {
        for rk in rks {
            for shape in [Shape::Rows, Shape::WarpRows, Shape::Cols, Shape::Cols4, Shape::ClusterCols4] {
                for (from_partials, to_partials) in [(false, false), (false, true), (true, false), (true, true)] {
                    out.extend(render_pass(k, rk, Pass { shape, from_partials, to_partials }));
                }
                // The first pass that finishes the reduction in its last block (`reduce::folded_launch`).
                out.extend(oxhlo_cuda::reduce::render_folded(k, rk, shape));
            }
            // The column pass finished inside a thread block cluster (`reduce::cluster_cols`).
            out.extend(oxhlo_cuda::reduce::render_cluster_cols(k, rk));
            // Clustered narrow passes rendered for their column count (the default; `OXHLO_CUDA_NARROW_CONST=0` not).
            for l in oxhlo_cuda::reduce::launches(1, 65536, 64).iter().take(1) {
                for folded in [false, true] {
                    out.extend(oxhlo_cuda::reduce::render_launch_with(k, rk, l, true, folded));
                }
            }
        }
    }
    // The finishing pass of several f32 sums (merged reductions) at once.
    for rk in [ReduceKind::Add, ReduceKind::Max, ReduceKind::Min] {
        for m in 2..=4 {
            out.extend(oxhlo_cuda::reduce::render_finish_multi(rk, m));
        }
    }
    out
}

const RESNET_CONVS: &str = r#"
func.func @main(%x: tensor<8x8x8x64xf32>, %w: tensor<3x3x64x64xf32>, %dy: tensor<8x8x8x64xf32>, %dy2: tensor<8x4x4x128xf32>, %w2: tensor<3x3x64x128xf32>) -> (tensor<8x8x8x64xf32>, tensor<3x3x64x64xf32>, tensor<8x8x8x64xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x8x8x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x8x8x64xf32>
  %1 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x8x8x64xf32>, tensor<8x8x8x64xf32>) -> tensor<3x3x64x64xf32>
  %2 = stablehlo.convolution(%dy2, %w2) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], reverse = [true, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x4x4x128xf32>, tensor<3x3x64x128xf32>) -> tensor<8x8x8x64xf32>
  return %0, %1, %2 : tensor<8x8x8x64xf32>, tensor<3x3x64x64xf32>, tensor<8x8x8x64xf32>
}
"#;

/// The kernels of every `.mlir` program in `dir` (relative to this crate) at O2, per program.
fn dir_kernels(dir: &str) -> Vec<(std::path::PathBuf, Vec<String>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let files = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir:?}: {e}")).filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "mlir"));
    files
        .map(|path| {
            let m = oxhlo_text::parse_module(&std::fs::read_to_string(&path).expect("readable"), &path.display().to_string()).expect("parses");
            let ks = oxhlo_cuda::kernels::module_kernels(&m, &oxhlo_cuda::options_at(OptLevel::O2).fusion);
            (path, ks)
        })
        .collect()
}

#[test]
fn every_rendered_kernel_compiles() {
    if !oxhlo_cuda::nvrtc::nvrtc_available() {
        println!("skipped: libnvrtc not found (pip install nvidia-cuda-nvrtc and put its lib folder on LD_LIBRARY_PATH)");
        return;
    }
    let mut all: BTreeSet<String> = conformance_kernels();
    let from_suite = all.len();
    assert!(from_suite > 100, "the conformance suite should render many kernels, got {from_suite}");
    all.extend(reduction_kernels());
    // The convolution forms of a ResNet training step (forward, weight gradient, strided input gradient),
    // whose im2col kernels move 4 elements per thread.
    let convs = oxhlo_text::parse_module(RESNET_CONVS, "convs.mlir").expect("parses");
    let conv_kernels = oxhlo_cuda::kernels::module_kernels(&convs, &oxhlo_cuda::options_at(OptLevel::O2).fusion);
    assert!(conv_kernels.iter().filter(|s| s.contains("reinterpret_cast<uint4*>(out0)[g]")).count() >= 2, "{conv_kernels:?}");
    all.extend(conv_kernels);
    let mut conv_modules: Vec<oxhlo_ir::Module> = oxhlo_progen::conv_case::cases().iter().map(|c| oxhlo_text::parse_module(&c.text("f32"), "case.mlir").expect("parses")).collect();
    conv_modules.push(convs);
    let cudnn = cudnn_kernels(&conv_modules);
    assert!(cudnn.len() >= 10, "cuDNN plans should need filter copies and paddings: {cudnn:?}");
    all.extend(cudnn);
    for shape in [&[2i64, 3, 4][..], &[5, 7]] {
        let perm: Vec<usize> = (0..shape.len()).rev().collect();
        for bytes in [1, 2, 4, 8, 16] {
            all.extend(render::render_permute(shape, &perm, bytes));
        }
    }
    // The row kernels of tests/rows/ (softmax, layer norm, attention scores; warp and block forms).
    let mut row_kernels = 0;
    for (_, ks) in dir_kernels("../oxhlo-plan/tests/rows") {
        row_kernels += ks.iter().filter(|s| s.contains("long long rows,")).count();
        all.extend(ks);
    }
    assert!(row_kernels >= 5, "every row program renders a row kernel ({row_kernels})");
    // Test directories whose every program renders a kernel of its kind: (directory, what the kind's
    // kernels contain (any of), the kind).
    let kinds: [(&str, &[&str], &str); 10] = [
        // Reductions' finishing passes running the small kernels after them (batch norms).
        ("tests/epilogues", &["oxh_epi("], "a finishing pass with an epilogue"),
        // Integer division and remainder, float -> integer conversions: on the device now.
        ("tests/int_ops", &[" % ", "oxh_f2i((double)"], "a kernel with the integer ops"),
        // Sorts and top_k (JAX's comparators, several operands, long rows).
        ("tests/sorts", &["oxs_before(", "oxs_key(", "oxt_merge("], "a sort or top_k kernel"),
        // Reductions of several inputs (JAX's argmax and argmin).
        ("tests/variadic_reduces", &["oxv("], "a several-input reduction kernel"),
        // Windowed ops and dynamic slices (pooling, its gradient, cumsum, dilations, scans).
        ("tests/windows", &["oxv(", "st0"], "a windowed or dynamic-slice kernel"),
        // next_after and reduce_precision of every float kind.
        ("tests/float_steps", &["oxh_next_after(", "mag >> "], "a next_after or reduce_precision kernel"),
        // cholesky and triangular_solve (f32, f64; every side, triangle and transpose).
        ("tests/linalg", &["oxh_pivot(", "oxh_t("], "a cholesky or triangular_solve kernel"),
        // Scatters of every update computation (atomic adds, stores, compare-and-swap loops).
        ("tests/scatters", &["atomicAdd(", "out0[t] = upd[i]", "atomicCAS("], "a scatter kernel"),
        // Complex arithmetic (complex64 and complex128 elementwise kernels).
        ("tests/complex", &["oxz_"], "a complex elementwise kernel"),
        // FFTs of every type and transform (radix-2, direct, Bluestein; 1-D to 3-D).
        ("tests/fft", &["oxf_twiddle("], "an fft pass"),
    ];
    for (dir, marks, what) in kinds {
        for (path, ks) in dir_kernels(dir) {
            assert!(ks.iter().any(|s| marks.iter().any(|m| s.contains(m))), "{path:?}: {what}");
            all.extend(ks);
        }
    }
    // View copies (oxhlo-plan/tests/view_copies: attention heads and their gradients' concatenation).
    let mut copy_kernels = 0;
    for (_, ks) in dir_kernels("../oxhlo-plan/tests/view_copies") {
        copy_kernels += ks.iter().filter(|s| s.contains("const long long j = i - ")).count();
        all.extend(ks);
    }
    assert!(copy_kernels >= 3, "view copies render their kernels ({copy_kernels})");
    all.insert(oxhlo_cuda::profile::GATE_SRC.to_string());
    for bytes in [1, 2, 4, 8] {
        all.extend(oxhlo_cuda::movement::render_transpose_tiles(bytes));
    }
    all.insert(oxhlo_cuda::graph::COPY_MANY_SRC.to_string());
    let all: Vec<&String> = all.iter().collect();
    let start = std::time::Instant::now();
    for chunk in all.chunks(150) {
        // Batched as `Gpu::precompile` batches a program's kernels.
        let unit = oxhlo_cuda::nvrtc::batch_unit(&chunk.iter().map(|s| s.as_str()).collect::<Vec<_>>());
        if let Err(e) = oxhlo_cuda::nvrtc::compile_cubin(&unit, "sm_90") {
            // Find the kernel that fails, for a readable message.
            for s in chunk {
                if let Err(e) = oxhlo_cuda::nvrtc::compile_cubin(s, "sm_90") {
                    panic!("a rendered kernel does not compile: {e}");
                }
            }
            panic!("a batch of kernels does not compile (each alone does): {e}");
        }
    }
    println!("NVRTC compiled {} kernels ({from_suite} from the conformance suite) in {:.1?}", all.len(), start.elapsed());
}
