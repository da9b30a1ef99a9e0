//! CUDA C rendering without a GPU: the text and structure of fused kernels, single ops and permutes,
//! ops without a rendering refused, and device probing failing cleanly (or succeeding) without a panic.

use oxhlo_cuda::render;
use oxhlo_plan::fusion::{fuse_block, FusionOptions, Step};

fn module(src: &str) -> oxhlo_ir::Module {
    let m = oxhlo_text::parse_module(src, "test.mlir").expect("parses");
    oxhlo_ir::verify_module(&m).expect("verifies");
    m
}

const CHAIN: &str = r#"
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %1 = stablehlo.add %a, %0 : tensor<4x8xf32>
  %2 = stablehlo.exponential %1 : tensor<4x8xf32>
  %3 = stablehlo.maximum %2, %a : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}
"#;

#[test]
fn fused_chain_renders_one_loop_with_broadcast_index() {
    let m = module(CHAIN);
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    let steps = fuse_block(f, block, &FusionOptions { enabled: true, aggressive: false, recompute: false, recompute_costly: false, rows: false, max_params: 0, sibling_reductions: 0 });
    let k = steps
        .iter()
        .find_map(|s| match s {
            Step::Kernel(k) => Some(k.clone()),
            Step::Op(_) => None,
        })
        .expect("the chain fuses");
    assert_eq!(k.ops.len(), 4);
    let src = render::render_fused(f, block, &k).expect("renders");
    assert!(src.contains("extern \"C\" __global__ void oxk(long long n, long long oxs0, const float* __restrict__ in0, const float* __restrict__ in1, float* __restrict__ out0)"), "{src}");
    // The broadcast reads the rank-1 operand at the column index: a power-of-two column count is a
    // mask passed at launch (the value on the source's last line, which the kernel's key leaves out).
    assert!(src.contains("in0[(long long)(((unsigned int)i) & (unsigned int)oxs0)]"), "{src}");
    assert!(src.trim_end().ends_with(&format!("{} 7", render::SCALARS_MARK)), "{src}");
    let kernel = oxhlo_cuda::device::Kernel::new(src.clone());
    assert_eq!(kernel.scalars, vec![7]);
    assert!(!kernel.src.contains(render::SCALARS_MARK));
    // The same chain over 16 columns is the same kernel with another mask; over 6 columns the modulo
    // stays a literal.
    for (cols, same, scalars) in [(16, true, vec![15]), (6, false, vec![])] {
        let text = CHAIN.replace("8xf32", &format!("{cols}xf32")).replace("4x8xf32", &format!("4x{cols}xf32"));
        let m2 = module(&text);
        let f2 = &m2.funcs[0];
        let block2 = f2.body.entry().unwrap();
        let steps2 = fuse_block(f2, block2, &FusionOptions { enabled: true, aggressive: false, recompute: false, recompute_costly: false, rows: false, max_params: 0, sibling_reductions: 0 });
        let Some(Step::Kernel(k2)) = steps2.iter().find(|s| matches!(s, Step::Kernel(_))) else { panic!("the chain fuses") };
        let src2 = render::render_fused(f2, block2, k2).expect("renders");
        let kernel2 = oxhlo_cuda::device::Kernel::new(src2.clone());
        assert_eq!(kernel2.src == kernel.src, same, "{src2}");
        assert_eq!(kernel2.scalars, scalars);
        if !same {
            assert!(src2.contains(&format!("% {cols}u")), "{src2}");
        }
    }
    assert!(src.contains("oxh_max("), "{src}");
    // f32 addition in float with the round-to-nearest intrinsic (bit-identical to f64 then rounding),
    // exp by CUDA's single-precision expf (in double rounded to float with OXHLO_CUDA_EXACT_MATH=1).
    assert!(src.contains("__fadd_rn("), "{src}");
    if render::exact_math() {
        assert!(src.contains("((float)(exp(((double)"), "{src}");
    } else {
        assert!(src.contains("((float)(expf(") && !src.replace(render::PRELUDE, "").contains("(double)"), "{src}");
    }
    // A multiple of 4 elements: no scalar tail (the 1003-element kernel below has one).
    assert_eq!(src.matches("out0[i] =").count(), 0);
    // The elementwise input moves as vectors; the broadcast read indexes from each lane's `i`.
    assert!(src.contains("oxh_ld4(a1, in1 + i0)") && src.contains("const long long i = i0 + e;"), "{src}");
}

#[test]
fn elementwise_kernels_get_a_vector_loop_and_a_scalar_tail() {
    let m = module(
        r#"
func.func @main(%a: tensor<1003xf32>, %b: tensor<1003xf16>, %s: tensor<f32>) -> (tensor<1003xf32>, tensor<1003xi1>) {
  %0 = stablehlo.convert %b : (tensor<1003xf16>) -> tensor<1003xf32>
  %1 = stablehlo.multiply %a, %0 : tensor<1003xf32>
  %2 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<1003xf32>
  %3 = stablehlo.add %1, %a : tensor<1003xf32>
  %4 = stablehlo.compare GT, %3, %a : (tensor<1003xf32>, tensor<1003xf32>) -> tensor<1003xi1>
  return %3, %4 : tensor<1003xf32>, tensor<1003xi1>
}
"#,
    );
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    let b = &block.args;
    let outs = [block.ops[3].results[0], block.ops[4].results[0]];
    let src = render::render(f, block, &[0, 1, 3, 4], &[b[0], b[1]], &outs, &[1003]).expect("renders");
    assert!(src.contains("__align__(16) float a0[4]; oxh_ld4(a0, in0 + i0);"), "{src}");
    assert!(src.contains("__align__(16) unsigned short a1[4]; oxh_ld4(a1, in1 + i0);"), "{src}");
    assert!(src.contains("oxh_st4(out0 + i0, o0);") && src.contains("oxh_st4(out1 + i0, o1);"), "{src}");
    assert!(src.contains("__align__(16) unsigned char o1[4];"), "{src}");
    assert!(src.contains("o0[e] =") && src.contains("a0[e]") && src.contains("oxh_f16_to_f(a1[e])"), "{src}");
    // The tail covers the last n % 4 elements with the scalar body.
    assert!(src.contains("for (long long i = ((n >> 2) << 2) + tid; i < n; i += stride)"), "{src}");
    assert!(src.contains("out0[i] =") && src.contains("in0[i]"), "{src}");
    assert!(src.contains("__fmul_rn(") && src.contains("__fadd_rn("), "{src}");
}

#[test]
fn single_ops_render_by_type_and_refuse_what_they_cannot_do() {
    let m = module(
        r#"
func.func @main(%a: tensor<3xbf16>, %b: tensor<3xbf16>, %i: tensor<3xi32>, %j: tensor<3xi32>) -> (tensor<3xbf16>, tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) {
  %0 = stablehlo.multiply %a, %b : tensor<3xbf16>
  %1 = stablehlo.compare LT, %i, %j : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %2 = stablehlo.divide %i, %j : tensor<3xi32>
  %3 = stablehlo.convert %a : (tensor<3xbf16>) -> tensor<3xi32>
  return %0, %1, %2, %3 : tensor<3xbf16>, tensor<3xi1>, tensor<3xi32>, tensor<3xi32>
}
"#,
    );
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    let (mul, inputs) = render::render_single(f, block, 0).expect("bf16 multiply renders");
    assert_eq!(inputs.len(), 2);
    assert!(mul.contains("oxh_bf16_to_f(in0[i])") && mul.contains("oxh_f_to_bf16"), "{mul}");
    let (cmp, _) = render::render_single(f, block, 1).expect("compare renders");
    assert!(cmp.contains("unsigned char* __restrict__ out0") && cmp.contains(" < "), "{cmp}");
    // Integer division with the interpreter's results for a zero divisor and MIN / -1; float -> int
    // conversion truncated and saturated (NaN -> 0) through the prelude's helper.
    let (div, _) = render::render_single(f, block, 2).expect("integer division renders");
    assert!(div.contains("== 0LL ? -1LL") && div.contains("== -1LL ? (long long)(0ULL -"), "{div}");
    let (conv, _) = render::render_single(f, block, 3).expect("float -> int renders");
    assert!(conv.contains("oxh_f2i((double)(") && conv.contains("-2147483647LL - 1LL, 2147483647LL)"), "{conv}");
    // What the renderer cannot do stays on the host: an integer power.
    let m = module(
        r#"
func.func @main(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi32> {
  %0 = stablehlo.power %a, %b : tensor<3xi32>
  return %0 : tensor<3xi32>
}
"#,
    );
    let f = &m.funcs[0];
    assert!(render::render_single(f, f.body.entry().unwrap(), 0).is_none());
}

#[test]
fn shifts_render_for_every_integer_width_with_the_spec_s_large_amounts() {
    let m = module(
        r#"
func.func @main(%a: tensor<5xui32>, %b: tensor<5xui32>, %c: tensor<5xi8>, %d: tensor<5xi8>, %e: tensor<5xui64>, %f: tensor<5xui64>) -> (tensor<5xui32>, tensor<5xi8>, tensor<5xui64>, tensor<5xui32>) {
  %0 = stablehlo.shift_left %a, %b : tensor<5xui32>
  %1 = stablehlo.shift_right_arithmetic %c, %d : tensor<5xi8>
  %2 = stablehlo.shift_right_logical %e, %f : tensor<5xui64>
  %3 = stablehlo.shift_right_arithmetic %a, %b : tensor<5xui32>
  return %0, %1, %2, %3 : tensor<5xui32>, tensor<5xi8>, tensor<5xui64>, tensor<5xui32>
}
"#,
    );
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    let src = |i: usize| render::render_single(f, block, i).unwrap_or_else(|| panic!("shift {i} renders")).0;
    // Amounts read as unsigned values of the width; at or above it, 0 (or the sign for arithmetic).
    let shl = src(0);
    assert!(shl.contains("& 0xffffffffULL) >= 32ULL ?") && shl.contains(" << "), "{shl}");
    let sra = src(1);
    assert!(sra.contains("& 0xffULL) >= 8ULL ?") && sra.contains("< 0 ? -1LL : 0LL"), "{sra}");
    let srl = src(2);
    assert!(srl.contains("& 0xffffffffffffffffULL) >= 64ULL ?") && srl.contains(" >> "), "{srl}");
    // An unsigned value's top bit is its sign for the arithmetic shift: sign-extended from 32 bits.
    let sra_u = src(3);
    assert!(sra_u.contains("<< 32)) >> 32)"), "{sra_u}");
}

#[test]
fn permute_kernel_indexes_the_source() {
    let src = render::render_permute(&[2, 3], &[1, 0], 4).unwrap();
    assert!(src.contains("const unsigned int* __restrict__ in0"), "{src}");
    // Output [3, 2]: the last output dim walks input dim 0 (stride 3).
    assert!(src.contains("src += (long long)(r % 2u) * 3LL"), "{src}");
    assert!(src.contains("src += (long long)(r % 3u) * 1LL"), "{src}");
    assert!(render::render_permute(&[2, 3], &[0], 4).is_none());
    assert!(render::render_permute(&[2], &[0], 3).is_none());
}

#[test]
fn permutes_keeping_the_innermost_dim_move_wide_units() {
    // [16, 256, 6, 64] f32 -> [16, 6, 256, 64]: rows of 64 floats move as 16 units of 16 bytes.
    assert_eq!(render::permute_units(&[16, 256, 6, 64], &[0, 2, 1, 3], 4), (vec![16, 256, 6, 16], 16));
    // Rows of 6 bf16 (12 bytes): 4-byte units.
    assert_eq!(render::permute_units(&[3, 5, 6], &[1, 0, 2], 2), (vec![3, 5, 3], 4));
    // The innermost dim moves: element by element.
    assert_eq!(render::permute_units(&[3, 4], &[1, 0], 4), (vec![3, 4], 4));
    // Rows of 3 f32 (12 bytes): 4-byte units are the elements themselves.
    assert_eq!(render::permute_units(&[2, 5, 3], &[1, 0, 2], 4), (vec![2, 5, 3], 4));
    let src = render::render_permute_units(&[16, 256, 6, 64], &[0, 2, 1, 3], 4).unwrap();
    assert!(src.contains("const ulonglong2* __restrict__ in0"), "{src}");
}

#[test]
fn dot_operands_are_read_in_place_when_stored_either_way() {
    use oxhlo_cuda::dot::operand_perm;
    // lhs [16, 256, 1536] contracting {0, 1} (a weight gradient): stored [K, M], read transposed.
    assert_eq!(operand_perm(&[], &[2], &[0, 1]), None);
    // rhs [16, 256, 384] contracting {0, 1}: stored [K, N].
    assert_eq!(operand_perm(&[], &[0, 1], &[2]), None);
    // Batched, rhs stored [B, N, K] (q @ k^T): read transposed.
    assert_eq!(operand_perm(&[0, 1], &[3], &[2]), None);
    // Batch dims not leading: permuted.
    assert_eq!(operand_perm(&[1], &[0], &[2]), Some(vec![1, 0, 2]));
    // Contracting dims out of their stored order: permuted.
    assert_eq!(operand_perm(&[], &[2], &[1, 0]), Some(vec![2, 1, 0]));
}

#[test]
fn probing_never_panics() {
    match oxhlo_cuda::available() {
        Ok(info) => println!("CUDA device: {info:?}"),
        Err(e) => {
            assert!(!e.is_empty());
            println!("skipped: no CUDA device ({e})");
        }
    }
}

#[test]
fn reduce_kernels_render_per_reducer() {
    use oxhlo_cpu::Kind;
    use oxhlo_cuda::reduce::{render_pass, Pass, Shape};
    use oxhlo_plan::reducer::ReduceKind;
    let fin = |shape| Pass { shape, from_partials: false, to_partials: false };
    let sum = render_pass(Kind::F32, ReduceKind::Add, fin(Shape::Rows)).unwrap();
    assert!(sum.contains("__shfl_down_sync") && sum.contains("__syncthreads") && sum.contains("double acc = (double)(0)"), "{sum}");
    // Short rows: a warp each, four accumulators fed by their own element positions per iteration.
    let warp = render_pass(Kind::F32, ReduceKind::Add, fin(Shape::WarpRows)).unwrap();
    assert!(!warp.contains("__syncthreads") && warp.contains("if (lane == 0)"), "{warp}");
    assert!(warp.contains("double& acc = acc3;") && warp.contains("double acc = oxr(oxr(acc0, acc1), oxr(acc2, acc3));"), "{warp}");
    use oxhlo_cuda::reduce::rows_shape;
    assert_eq!(rows_shape(256, 1), Shape::WarpRows);
    assert_eq!(rows_shape(1024, 1), Shape::WarpRows);
    assert_eq!(rows_shape(4096, 1), Shape::Rows);
    assert_eq!(rows_shape(4096, 4), Shape::WarpRows);
    let max = render_pass(Kind::BF16, ReduceKind::Max, fin(Shape::Cols)).unwrap();
    assert!(max.contains("-OXH_INF") && max.contains("oxh_f_to_bf16") && !max.contains("__shfl"), "{max}");
    let imin = render_pass(Kind::I32, ReduceKind::Min, fin(Shape::Rows)).unwrap();
    assert!(imin.contains("long long acc") && imin.contains("9223372036854775807LL"), "{imin}");
    assert!(render_pass(Kind::Bool, ReduceKind::Mul, fin(Shape::Rows)).is_none());
    assert!(render_pass(Kind::C64, ReduceKind::Add, fin(Shape::Rows)).is_none());
    // A first pass writes accumulator-typed partials without the init value; the second reads them.
    let first = render_pass(Kind::F16, ReduceKind::Add, Pass { shape: Shape::Rows, from_partials: false, to_partials: true }).unwrap();
    assert!(first.contains("double* __restrict__ out0") && !first.contains("init_v"), "{first}");
    let second = render_pass(Kind::F16, ReduceKind::Add, Pass { shape: Shape::Rows, from_partials: true, to_partials: false }).unwrap();
    assert!(second.contains("const double* __restrict__ in0") && second.contains("oxh_f_to_f16((float)(oxr(init_v, acc)))"), "{second}");
}

#[test]
fn reductions_view_contiguous_dims_and_split_long_ones() {
    use oxhlo_cuda::reduce::{contiguous_view, parts_for};
    assert_eq!(contiguous_view(&[4096, 4096], &[1]), Some((4096, 4096, 1)));
    assert_eq!(contiguous_view(&[4096, 4096], &[0]), Some((1, 4096, 4096)));
    assert_eq!(contiguous_view(&[4096, 4096], &[1, 0]), Some((1, 4096 * 4096, 1)));
    assert_eq!(contiguous_view(&[2, 3, 4, 5], &[1, 2]), Some((2, 12, 5)));
    assert_eq!(contiguous_view(&[2, 3, 4], &[0, 2]), None);
    assert_eq!(contiguous_view(&[2, 3], &[]), Some((6, 1, 1)));
    // Enough rows already: one pass; one long row: split into many parts of at least 4096 elements.
    assert_eq!(parts_for(4096, 4096, 1), 1);
    let p = parts_for(1, 1 << 24, 1);
    assert!(p >= 512 && (1 << 24) / p >= 4096, "{p}");
    // Columns: 4096 of them are too few threads; rows of the reduced dim are split.
    let p = parts_for(1, 4096, 4096);
    assert!(p > 1 && 4096 / p >= 32, "{p}");
    assert_eq!(parts_for(1, 10, 1), 1);
    assert_eq!(parts_for(0, 0, 1), 1);
}

#[test]
fn reductions_launch_a_schedule_decided_by_their_shape() {
    use oxhlo_cuda::reduce::{launches, Launch, Pass, Shape, FINISH_PARTS};
    let pass = |shape, from_partials, to_partials| Pass { shape, from_partials, to_partials };
    // Enough rows: one pass writing final values (a block per row longer than a warp takes).
    assert_eq!(launches(4096, 4096, 1), vec![Launch { pass: pass(Shape::Rows, false, false), outer: 4096, red: 4096, inner: 1, parts: 1 }]);
    assert_eq!(launches(4096, 512, 1)[0].pass, pass(Shape::WarpRows, false, false));
    // One long row: partial results (4096 parts of 4096 elements), then one block pass over them.
    let l = launches(1, 1 << 24, 1);
    assert_eq!(l.len(), 2, "{l:?}");
    assert_eq!((l[0].pass, l[1].pass), (pass(Shape::Rows, false, true), pass(Shape::Rows, true, false)));
    assert_eq!((l[0].parts, l[1].red, l[1].parts), (4096, 4096, 1));
    // A shorter one: fewer parts, a warp over them.
    let l = launches(1, 1 << 22, 1);
    assert_eq!((l[0].parts, l[1].pass), (1024, pass(Shape::WarpRows, true, false)), "{l:?}");
    // Batch-norm sums (64 channels of 65536 rows): up to FINISH_PARTS column partials, one pass over them.
    let l = launches(1, 65536, 64);
    assert_eq!(l.len(), 2, "{l:?}");
    assert!(l[0].parts > 1 && l[0].parts <= FINISH_PARTS && l[1].pass == pass(Shape::Cols, true, false), "{l:?}");
    assert_eq!(l[0].pass.shape, Shape::ClusterCols4, "64 columns: 4 to a thread, one group: blocks in clusters");
    assert_eq!((l[0].parts, l[1].red), (32, 32), "32 partial rows of 8 blocks each, one pass over them");
    // Many column groups keep the `Cols4` shape.
    assert_eq!(launches(1, 65536, 4096)[0].pass.shape, Shape::Cols4);
    // A clustered pass rendered for its column count (the default, `OXHLO_CUDA_NARROW_CONST=0` not) carries it as a
    // constant, folded or not; without, the count stays a launch scalar; a `Cols4` pass never takes it.
    use oxhlo_cuda::reduce::render_launch_with;
    use oxhlo_plan::reducer::ReduceKind;
    let f32k = oxhlo_cpu::Kind::F32;
    for folded in [false, true] {
        let with = render_launch_with(f32k, ReduceKind::Add, &l[0], true, folded).expect("renders");
        assert!(with.contains("inner = 64LL;") && with.contains("OXH_CP 8"), "{with}");
        let without = render_launch_with(f32k, ReduceKind::Add, &l[0], false, folded).expect("renders");
        assert!(!without.contains("inner = "), "{without}");
    }
    let wide = launches(1, 65536, 4096)[0];
    assert!(!render_launch_with(f32k, ReduceKind::Add, &wide, true, false).expect("renders").contains("inner = "));
    // More column partials than FINISH_PARTS over few columns (18: not the vectorized shape): split
    // again before the last pass.
    let l = launches(1, 1 << 22, 18);
    assert_eq!(l.iter().map(|x| x.pass).collect::<Vec<_>>(), vec![pass(Shape::Cols, false, true), pass(Shape::Cols, true, true), pass(Shape::Cols, true, false)], "{l:?}");
    assert!(l[0].parts > FINISH_PARTS && l[1].red == l[0].parts && l[2].red == l[1].parts, "{l:?}");
}

#[test]
fn kernel_sources_of_the_same_computation_on_other_values_are_one() {
    use oxhlo_cuda::render::canonical_source;
    let a = "float v12 = in0[i]; float v7 = v12 * v12; out0[i] = v7 + v120;";
    let b = "float v3 = in0[i]; float v40 = v3 * v3; out0[i] = v40 + v9;";
    assert_eq!(canonical_source(a), "float v0 = in0[i]; float v1 = v0 * v0; out0[i] = v1 + v2;");
    assert_eq!(canonical_source(a), canonical_source(b));
    // Other identifiers (and a `v` alone, or followed by letters) are left as they are.
    assert_eq!(canonical_source("v vx uv4 v4x oxh_ld4 v5"), "v vx uv4 v4x oxh_ld4 v0");
    // A different computation stays different.
    assert_ne!(canonical_source("float v1 = v2 + v3;"), canonical_source("float v1 = v2 + v2;"));
    // Row registers (`r<id>`) are renumbered through a map of their own: every layer's softmax is one
    // source, and an `r` and a `v` of the same number stay apart.
    let a = "float r4734; r4734 = v9; float r4744 = r4734 + v5; out0[i] = r4744 * r4734;";
    let b = "float r1057; r1057 = v2; float r267 = r1057 + v8; out0[i] = r267 * r1057;";
    assert_eq!(canonical_source(a), "float r0; r0 = v0; float r1 = r0 + v1; out0[i] = r1 * r0;");
    assert_eq!(canonical_source(a), canonical_source(b));
    assert_ne!(canonical_source("float r1 = r2 + r3;"), canonical_source("float r1 = r2 + r2;"));
    assert_eq!(canonical_source("r rows r2x oxr_add row r7"), "r rows r2x oxr_add row r0");
    // So are the arrays a row kernel holds element values in (`e<id>`): every layer's attention
    // softmax gradient is one source. Exponents of literals are not names.
    let a = "float e273[12]; float e2370[12]; e273[j_] = v3; e2370[j_] = v4 * e273[j_] * 1e10f;";
    let b = "float e342[12]; float e2275[12]; e342[j_] = v3; e2275[j_] = v4 * e342[j_] * 1e10f;";
    assert_eq!(canonical_source(a), "float e0[12]; float e1[12]; e0[j_] = v0; e1[j_] = v1 * e0[j_] * 1e10f;");
    assert_eq!(canonical_source(a), canonical_source(b));
    assert_ne!(canonical_source("e1[j_] = e2[j_];"), canonical_source("e1[j_] = e1[j_];"));
}

#[test]
fn reductions_fold_into_the_kernel_computing_their_operand() {
    // Softmax's denominator: exp(x - max) is computed inside the row reduction and stored once (the
    // divide reads it); layernorm-style column sums reduce a product never stored.
    let m = module(
        r#"
func.func @main(%x: tensor<64x128xf32>, %mx: tensor<64xf32>) -> (tensor<64x128xf32>, tensor<64xf32>, tensor<128xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<64xf32>) -> tensor<64x128xf32>
  %d = stablehlo.subtract %x, %b : tensor<64x128xf32>
  %e = stablehlo.exponential %d : tensor<64x128xf32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
  %sq = stablehlo.multiply %x, %x : tensor<64x128xf32>
  %c = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [0] : (tensor<64x128xf32>, tensor<f32>) -> tensor<128xf32>
  return %e, %s, %c : tensor<64x128xf32>, tensor<64xf32>, tensor<128xf32>
}
"#,
    );
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    let steps = oxhlo_cuda::kernels::plan_steps(f, block, &FusionOptions { enabled: true, aggressive: false, recompute: false, recompute_costly: false, rows: false, max_params: 0, sibling_reductions: 0 });
    let fused: Vec<_> = steps
        .iter()
        .filter_map(|s| match s {
            Step::Kernel(k) if !k.reduce.is_empty() => Some(k.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(fused.len(), 2, "{steps:?}");
    // The row reduction is short enough for one pass (`reduce::launches`): its kernel writes final values.
    let rows = oxhlo_cuda::reduce::render_fused_pass(f, block, &fused[0]).expect("renders");
    assert!(rows.contains("long long outer, long long red, long long parts,") && rows.contains("__shfl_down_sync"), "{rows}");
    assert!(rows.contains("exp") && rows.contains("out0[i] =") && rows.contains("float* __restrict__ red0"), "{rows}");
    let cols = oxhlo_cuda::reduce::render_fused_pass(f, block, &fused[1]).expect("renders");
    // 128 columns: the vectorized column shape, its operand loaded 4 columns at a time.
    assert!(cols.contains("long long inner, long long parts") && cols.contains("oxh_ld4(a0, in0 + i0)"), "{cols}");
    assert!(!cols.contains("out0[i] ="), "the squared value is never stored: {cols}");
}

#[test]
fn convolution_plans_pick_coalesced_layouts_and_skip_needless_copies() {
    use oxhlo_cuda::conv::{ConvPlan, KDim, MDim};
    let m = module(
        r#"
func.func @main(%x: tensor<8x6x6x4xf32>, %w: tensor<3x3x4x5xf32>, %dy: tensor<8x6x6x5xf32>, %xc: tensor<8x4x6x6xf32>, %wc: tensor<5x4x3x3xf32>) -> (tensor<8x6x6x5xf32>, tensor<3x3x4x5xf32>, tensor<8x5x6x6xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x6x6x4xf32>, tensor<3x3x4x5xf32>) -> tensor<8x6x6x5xf32>
  %1 = stablehlo.convolution(%x, %dy) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x6x6x4xf32>, tensor<8x6x6x5xf32>) -> tensor<3x3x4x5xf32>
  %2 = stablehlo.convolution(%xc, %wc) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x4x6x6xf32>, tensor<5x4x3x3xf32>) -> tensor<8x5x6x6xf32>
  return %0, %1, %2 : tensor<8x6x6x5xf32>, tensor<3x3x4x5xf32>, tensor<8x5x6x6xf32>
}
"#,
    );
    let f = &m.funcs[0];
    let ops = &f.body.entry().unwrap().ops;
    // Forward NHWC x HWIO: A[(n, h, w), (kh, kw, c)], the kernel and the result used as they are.
    let fwd = ConvPlan::new(&ops[0], &[8, 6, 6, 4], &[3, 3, 4, 5], &[8, 6, 6, 5]).expect("plans");
    assert!(!fwd.a_transposed);
    assert_eq!(fwd.k_order, vec![KDim::Window(0), KDim::Window(1), KDim::Feature]);
    assert!(fwd.kernel_layout(&[3, 3, 4, 5]).3 && fwd.output_layout(&[8, 6, 6, 5]).1);
    // Four features per thread, moved as one 16-byte access.
    assert_eq!(fwd.im2col_width(&[8, 6, 6, 4], 4), 4);
    let src = fwd.render_im2col(&[8, 6, 6, 4], 4).unwrap();
    assert!(src.contains("reinterpret_cast<uint4*>(out0)[g] = inside ? *reinterpret_cast<const uint4*>(in0 + src)"), "{src}");
    assert_eq!((fwd.m(), fwd.k()), (8 * 36, 9 * 4));
    // Weight gradient: the operand's innermost dim is its batch role, so A is stored transposed with
    // that role fastest; dy is the GEMM's B as it is and the result comes out HWIO.
    let wg = ConvPlan::new(&ops[1], &[8, 6, 6, 4], &[8, 6, 6, 5], &[3, 3, 4, 5]).expect("plans");
    assert!(wg.a_transposed);
    assert_eq!(wg.m_order, vec![MDim::Out(0), MDim::Out(1), MDim::Batch]);
    assert_eq!(wg.k_order, vec![KDim::Feature, KDim::Window(0), KDim::Window(1)]);
    assert!(wg.kernel_layout(&[8, 6, 6, 5]).3 && wg.output_layout(&[3, 3, 4, 5]).1);
    assert_eq!(wg.im2col_width(&[8, 6, 6, 4], 4), 4);
    // NCHW x OIHW: A^T with the output column fastest; the result needs a permute to NCHW.
    let nchw = ConvPlan::new(&ops[2], &[8, 4, 6, 6], &[5, 4, 3, 3], &[8, 5, 6, 6]).expect("plans");
    assert!(nchw.a_transposed);
    assert_eq!(nchw.m_order.last(), Some(&MDim::Out(1)));
    assert!(!nchw.output_layout(&[8, 5, 6, 6]).1);
    assert_eq!(nchw.im2col_width(&[8, 4, 6, 6], 4), 1);
    let src = nchw.render_im2col(&[8, 4, 6, 6], 4).unwrap();
    assert!(src.contains("inside ? in0[src] : (unsigned int)0"), "{src}");
}

/// The row programs of `oxhlo-plan/tests/rows/` (softmax, layer norm, attention-shaped scores): parsed, verified.
fn row_program(name: &str) -> oxhlo_ir::Module {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-plan/tests/rows").join(name);
    module(&std::fs::read_to_string(&path).expect("readable row program"))
}

/// The row kernels of a module's plan (with row fusion on), each with its view.
fn row_kernels(m: &oxhlo_ir::Module) -> Vec<std::sync::Arc<oxhlo_plan::fusion::FusedKernel>> {
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    let steps = oxhlo_cuda::kernels::plan_steps(f, block, &FusionOptions { enabled: true, aggressive: false, recompute: true, recompute_costly: true, rows: true, max_params: 0, sibling_reductions: 0 });
    steps.into_iter().filter_map(|s| if let Step::Kernel(k) = s { k.rows.is_some().then_some(k) } else { None }).collect()
}

#[test]
fn softmax_and_layer_norm_rows_become_one_kernel() {
    for (name, rows, cols, warp, reductions, phases) in [
        ("softmax_block.mlir", 48, 2000, false, 2, 2),
        ("attention_rows.mlir", 96, 40, true, 2, 2),
        ("layernorm.mlir", 37, 384, true, 2, 1),
        ("layernorm_block.mlir", 24, 3000, false, 2, 2),
        ("softmax_block_held.mlir", 20, 4096, false, 2, 2),
        ("layernorm_block_held.mlir", 16, 2048, false, 2, 2),
        ("attention_rows_1024.mlir", 48, 1024, false, 2, 2),
    ] {
        let m = row_program(name);
        let ks = row_kernels(&m);
        assert_eq!(ks.len(), 1, "{name}: one row kernel");
        let k = &ks[0];
        let f = &m.funcs[0];
        let block = f.body.entry().unwrap();
        // The whole program is the kernel but its constants, the return and broadcasts of parameters
        // (the scale and bias rows, run before it).
        for (i, o) in block.ops.iter().enumerate() {
            let outside = matches!(o.kind, oxhlo_ir::OpKind::Constant | oxhlo_ir::OpKind::Return | oxhlo_ir::OpKind::FuncReturn)
                || (o.kind == oxhlo_ir::OpKind::BroadcastInDim && k.inputs.contains(&o.results[0]));
            assert_eq!(k.ops.contains(&i), !outside, "{name}: op {i} {}", o.name());
        }
        let view = k.rows.as_ref().unwrap();
        assert_eq!((view.rows, view.cols), (rows, cols), "{name}");
        let r = oxhlo_cuda::rows::render_rows(f, block, k).expect("renders");
        assert_eq!(r.launch.warp, warp, "{name}");
        // One accumulator per reduction; one reduction loop per phase plus the output loop.
        assert_eq!(r.src.matches("double acc").count() + r.src.matches("float acc").count(), reductions, "{name}: {}", r.src);
        // (Loops of one statement are a prefetch's loads and copies.) A held row dividing by a row's
        // value has its output loop twice: with the reciprocal's corrected products, and again with
        // IEEE divisions when an operand falls outside their exact range.
        let loops = r.src.matches("for (long long c =").count() + r.src.matches("; ++j_) {").count();
        let rerun = r.src.contains("if (slow_) {");
        assert_eq!(loops, phases + 1 + usize::from(rerun), "{name}: {}", r.src);
        if rerun {
            let (fast, slow) = r.src.split_once("if (slow_) {").unwrap();
            assert!(fast.contains("__frcp_rn(") && fast.contains("oxh_rdiv(") && !fast.contains("__fdiv_rn(e"), "{name}: {}", r.src);
            assert!(slow.contains("__fdiv_rn(") && !slow.contains("oxh_rdiv("), "{name}: {}", r.src);
        }
        // Rows of a multiple of their threads (a warp's 32, a block's 256), at most 16 elements a
        // thread (32 at 128 threads), keep the values later loops need in registers (layer norm's
        // centred values: the output loop does not reload and recentre the row; softmax's row and
        // exponentials). A block row takes 128 threads where 256 would hold fewer than 8 elements a
        // thread (1024), and rows of 3200 to 4096 (a multiple of 128) at 25 to 32 a thread.
        let threads = if warp { 32 } else { r.launch.threads as usize };
        if !warp && std::env::var("OXHLO_CUDA_ROW_BLOCK_THREADS").is_err() {
            assert_eq!(threads, if cols == 1024 || cols == 4096 { 128 } else { 256 }, "{name}");
        }
        let holds = cols % threads == 0 && cols / threads <= if threads == 128 { 32 } else { 16 };
        assert_eq!(r.src.contains("[j_] = "), holds, "{name}: {}", r.src);
        // Softmax rows (the attention scores' too) divide by their sums: held ones in the two-loop form.
        let divides = name.starts_with("softmax") || name.starts_with("attention");
        // A persistent layer norm loads its scale and bias once a block, before the row loop.
        if r.launch.persistent && name.starts_with("layernorm") && std::env::var("OXHLO_CUDA_ROW_COLUMNS").is_err() {
            let (head, rows_loop) = r.src.split_once("for (long long row = blockIdx.x;").unwrap();
            assert_eq!(head.matches("; ++j_) col").count(), 2, "{name}: {}", r.src);
            assert!(rows_loop.contains("col") && !rows_loop.contains(&format!("% {cols}u)]")), "{name}: {}", r.src);
        }
        if std::env::var("OXHLO_CUDA_ROW_DIVIDE").is_err() {
            assert_eq!(rerun, holds && divides, "{name}: {}", r.src);
        }
        assert_eq!(r.src.matches("__syncthreads()").count(), if warp { 0 } else { 2 * phases }, "{name}: {}", r.src);
        // Across a block's warps each thread reads one warp's partial, then shuffles combine them.
        if !warp {
            assert_eq!(r.src.matches(&format!("[lane & {}];", threads / 32 - 1)).count(), reductions, "{name}: {}", r.src);
        }
        // Wide held rows (more than 16 a thread, a block a row, f32) with `OXHLO_CUDA_ROW_START_LOADS=1`
        // load their row at its start as 16-byte vectors and store their outputs 4 at a time, never
        // element by element; by default in their first loop.
        let at_start = !warp && holds && cols / threads > 16 && !r.launch.persistent;
        let start_loads = std::env::var("OXHLO_CUDA_ROW_START_LOADS").as_deref() == Ok("1");
        if at_start && !start_loads {
            assert!(!r.src.contains("oxh_ld4(&x0") && r.src.contains("in0[i]"), "{name}: {}", r.src);
        }
        if at_start && start_loads && std::env::var("OXHLO_CUDA_ROW_VECTORS").is_err() {
            let (_, rows_loop) = r.src.split_once("for (long long row = blockIdx.x").unwrap();
            assert!(rows_loop.contains("oxh_ld4(&x0[4 * g_], in0 + row * C + 4 * ((int)threadIdx.x"), "{name}: {}", r.src);
            assert!(rows_loop.contains("oxh_st4(out0 + row * C + 4 * ((int)threadIdx.x") && !rows_loop.contains("out0[i] =") && !rows_loop.contains("in0[i]"), "{name}: {}", r.src);
            assert!(rows_loop.contains(&format!("const long long c = 4 * ((int)threadIdx.x + {threads} * (j_ >> 2)) + (j_ & 3);")), "{name}: {}", r.src);
        }
        // Held block rows of 8 to 16 elements a thread load their next row's input while they work
        // on this one (then the grid is the blocks the device holds): the row itself here, loaded
        // before the row loop and for the next row inside it, never from `in0[i]`. Rows of 32 a
        // thread do not (a block a row, as XLA's Triton softmax).
        if std::env::var("OXHLO_CUDA_ROW_PREFETCH").is_err() {
            let prefetch = !warp && holds && (8..=16).contains(&(cols / threads));
            assert_eq!(r.launch.persistent, prefetch, "{name}: {}", r.src);
            if prefetch {
                // f32 rows of a multiple of 4 elements a thread move as 16-byte vectors: a thread's
                // elements 4 adjacent ones a block's width apart, loaded and stored 4 at a time.
                let vectors = std::env::var("OXHLO_CUDA_ROW_VECTORS").is_err() && (cols / threads) % 4 == 0;
                let load = |j: usize, r: &str| if vectors { format!("oxh_ld4(&n{j}[4 * g_], in{j} + {r} * C") } else { format!("n{j}[j_] = (float)(in{j}[{r} * C") };
                let first = |j: usize| load(j, "(long long)blockIdx.x");
                let next = |j: usize| load(j, "(row + gridDim.x)");
                let j = (0..k.inputs.len()).find(|&j| r.src.contains(&first(j))).expect("the first row's loads");
                let x = r.src.find(&first(j)).unwrap();
                let head = r.src.find("for (long long row = blockIdx.x").unwrap();
                assert!(x < head, "{name}: {}", r.src);
                assert!(r.src.contains("if (row + gridDim.x < rows)") && r.src.contains(&next(j)), "{name}: {}", r.src);
                assert!(!r.src.contains(&format!("in{j}[i]")), "{name}: {}", r.src);
                if vectors {
                    let (_, rows_loop) = r.src.split_once("for (long long row = blockIdx.x").unwrap();
                    assert!(rows_loop.contains(&format!("const long long c = 4 * ((int)threadIdx.x + {threads} * (j_ >> 2)) + (j_ & 3);")), "{name}: {}", r.src);
                    assert!(rows_loop.contains("oxh_st4(out0 + row * C + 4 * ((int)threadIdx.x") && !rows_loop.contains("out0[i] ="), "{name}: {}", r.src);
                }
            }
        }
    }
}

/// Rows of 4096 take 128 threads, 32 elements a thread held, where the values their loops keep fit a
/// row's registers (softmax: its row and exponentials), else 256 threads holding 16 each (four inputs
/// each read by two loops).
#[test]
fn wide_rows_take_128_threads_where_their_values_fit() {
    if std::env::var("OXHLO_CUDA_ROW_BLOCK_THREADS").is_ok() || std::env::var("OXHLO_CUDA_ROW_HOLD").is_ok() {
        return;
    }
    for (name, threads, per_thread) in [("softmax_block_held.mlir", 128, 32), ("shares_4096.mlir", 256, 16)] {
        let m = row_program(name);
        let ks = row_kernels(&m);
        assert_eq!(ks.len(), 1, "{name}: one row kernel");
        let f = &m.funcs[0];
        let r = oxhlo_cuda::rows::render_rows(f, f.body.entry().unwrap(), &ks[0]).expect("renders");
        assert_eq!((r.launch.warp, r.launch.persistent, r.launch.threads), (false, false, threads), "{name}");
        assert!(r.src.contains(&format!("[{per_thread}];")) && !r.src.contains("for (long long c ="), "{name}: {}", r.src);
    }
}

/// Rows a warp would re-read every loop (more than 16 elements a lane) go a block each where a block
/// holds them in registers (a multiple of 256 elements); rows past 1024 always do.
#[test]
fn rows_a_block_holds_take_a_block() {
    use oxhlo_cuda::rows::warp_rows;
    if std::env::var("OXHLO_CUDA_ROW_BLOCK_HOLD").as_deref() == Ok("0") {
        return;
    }
    assert!(warp_rows(40) && warp_rows(512) && warp_rows(1000) && warp_rows(544));
    assert!(!warp_rows(768) && !warp_rows(1024) && !warp_rows(1025) && !warp_rows(4096));
}

#[test]
fn row_groups_stop_at_column_broadcasts_and_transposed_reads() {
    let m = row_program("log_softmax_transposed.mlir");
    let ks = row_kernels(&m);
    assert_eq!(ks.len(), 1);
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    let k = &ks[0];
    // The kernel returns the log-softmax (read by the transpose and returned) and the row maximum (read
    // along the columns by the later broadcast, which is not part of it).
    let names: Vec<&str> = k.ops.iter().map(|&i| block.ops[i].name()).collect();
    assert!(!names.contains(&"stablehlo.transpose"), "{names:?}");
    assert_eq!(k.outputs.len(), 2, "{k:?}");
    let r = oxhlo_cuda::rows::render_rows(f, block, k).expect("renders");
    assert!(r.src.contains("out1[row] =") || r.src.contains("out0[row] ="), "{}", r.src);
}

/// A column pass of several reductions is sized to whole waves of the device (3 blocks an SM) when that
/// keeps the listed passes; other passes keep the shape-only launches.
#[test]
fn merged_column_passes_fill_whole_waves() {
    use oxhlo_cuda::reduce::{fused_launches, launches, Shape};
    if std::env::var("OXHLO_CUDA_MULTI_WAVES").as_deref() == Ok("0") {
        // Turned off: the launches stay as listed.
        assert_eq!(fused_launches(1, 262144, 2048, 4, false, 132), launches(1, 262144, 2048));
        return;
    }
    // 2048 columns: 16 groups of 128 (not the clustered shape), 32 parts listed.
    let listed = launches(1, 262144, 2048);
    assert_eq!((listed[0].pass.shape, listed[0].parts), (Shape::Cols4, 32));
    let sized = fused_launches(1, 262144, 2048, 4, false, 132);
    assert_eq!(sized[0].parts, 25, "396 blocks of 16 groups: {sized:?}");
    assert_eq!(sized.iter().map(|l| l.pass).collect::<Vec<_>>(), listed.iter().map(|l| l.pass).collect::<Vec<_>>());
    assert_eq!(sized[1].red, 25, "the finishing pass reduces the parts the first one wrote");
    assert_eq!(fused_launches(1, 262144, 2048, 1, false, 132), listed, "one reduction: as listed");
    assert_eq!(fused_launches(1, 262144, 2048, 4, false, 0), listed, "no SM count: as listed");
    // One group (64 columns): a plain sum in clusters, as listed; fused sums keep `Cols4`, sized.
    assert_eq!(fused_launches(1, 262144, 64, 1, true, 132), launches(1, 262144, 64));
    assert_eq!(launches(1, 262144, 64)[0].pass.shape, Shape::ClusterCols4);
    let fused = fused_launches(1, 262144, 64, 4, false, 132);
    assert_eq!((fused[0].pass.shape, fused[0].parts), (Shape::Cols4, 396), "{fused:?}");
    // Few rows: parts are capped by the rows either way.
    assert_eq!(fused_launches(1, 4096, 64, 4, false, 132), oxhlo_cuda::reduce::multi_launches(1, 4096, 64, 4, false));
}

#[test]
fn a_reducing_kernel_takes_a_second_sum_of_its_view_and_stores_nothing() {
    // A batch norm's statistics after the backward's sums were factored: sum((x - m)^2) and sum(x - m)
    // over the rows. The second sum reads a value of the first one's kernel: one pass computes both,
    // and `x - m` is never stored.
    let m = module(
        r#"
func.func @main(%x: tensor<4096x64xf32>, %mean: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.broadcast_in_dim %mean, dims = [1] : (tensor<64xf32>) -> tensor<4096x64xf32>
  %d = stablehlo.subtract %x, %b : tensor<4096x64xf32>
  %sq = stablehlo.multiply %d, %d : tensor<4096x64xf32>
  %v = stablehlo.reduce(%sq init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4096x64xf32>, tensor<f32>) -> tensor<64xf32>
  %s = stablehlo.reduce(%d init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4096x64xf32>, tensor<f32>) -> tensor<64xf32>
  return %v, %s : tensor<64xf32>, tensor<64xf32>
}
"#,
    );
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    let plan = |siblings| oxhlo_cuda::kernels::plan_steps(f, block, &FusionOptions { enabled: true, aggressive: false, recompute: true, recompute_costly: true, rows: true, max_params: 0, sibling_reductions: siblings });
    let kernels = |steps: &[Step]| steps.iter().filter_map(|s| if let Step::Kernel(k) = s { Some(k.clone()) } else { None }).collect::<Vec<_>>();
    let merged = plan(4);
    let ks = kernels(&merged);
    assert_eq!(ks.len(), 1, "{merged:?}");
    assert_eq!(ks[0].reduce.len(), 2);
    assert_eq!(ks[0].outputs.len(), 2, "only the two sums leave the kernel: {:?}", ks[0].outputs);
    let src = oxhlo_cuda::reduce::render_fused_pass(f, block, &ks[0]).expect("renders");
    assert!(src.contains("acc1 = oxr(acc1"), "{src}");
    // One reduction a kernel: the second sum reads `x - m` from memory.
    let single = plan(1);
    assert!(kernels(&single).iter().all(|k| k.reduce.len() <= 1), "{single:?}");
    assert!(single.iter().any(|s| matches!(s, Step::Op(i) if block.ops[*i].kind == oxhlo_ir::OpKind::Reduce)), "{single:?}");
}

/// Every compiled kernel waits for the kernels before it at the start of its entry (programmatic
/// dependent launches), in a batch and alone; a device function before the entry is left alone.
#[test]
fn entries_start_with_the_grid_dependency_prologue() {
    use oxhlo_cuda::nvrtc::{batch_entry, batch_unit, with_entry_prologue, ENTRY_PROLOGUE};
    let src = format!("{}__device__ void oxh_finish(long long n) {{ }}\nextern \"C\" __global__ void __launch_bounds__(256, 3) oxk(long long n, const float* __restrict__ in0) {{\n  body();\n}}\n", oxhlo_cuda::render::PRELUDE);
    let alone = with_entry_prologue(&src, oxhlo_cuda::render::ENTRY);
    assert!(alone.contains(&format!("oxk(long long n, const float* __restrict__ in0) {{{ENTRY_PROLOGUE}\n  body();")), "{alone}");
    assert!(alone.contains("oxh_finish(long long n) { }"));
    let unit = batch_unit(&[src.as_str(), src.as_str()]);
    for j in 0..2 {
        assert!(unit.contains(&format!("{}(long long n, const float* __restrict__ in0) {{{ENTRY_PROLOGUE}", batch_entry(j))), "{unit}");
    }
    assert_eq!(unit.matches("griddepcontrol.wait").count(), 2);
}

#[test]
fn small_strided_copies_share_one_kernel_and_take_their_shape_at_launch() {
    use oxhlo_cuda::device::Kernel;
    use oxhlo_cuda::movement::{render_strided, SHAPE_SCALARS_MAX};
    // Two filter layouts of different sizes ([K, R, S, C] read from HWIO): one source, their shapes,
    // strides and bases as launch scalars (base, extents of dims 1.., strides).
    let a = Kernel::new(render_strided(&[64, 3, 3, 32], &[1, 3 * 32 * 64, 32 * 64, 64], 0, 4).expect("renders"));
    let b = Kernel::new(render_strided(&[128, 3, 3, 64], &[1, 3 * 64 * 128, 64 * 128, 128], 5, 4).expect("renders"));
    assert_eq!(a.src, b.src, "one kernel for both");
    assert_eq!(a.scalars, vec![0, 3, 3, 32, 1, 6144, 2048, 64]);
    assert_eq!(b.scalars, vec![5, 3, 3, 64, 1, 24576, 8192, 128]);
    assert!(a.src.contains("long long oxs7, const unsigned int* __restrict__ in0"), "{}", a.src);
    // A copy of another rank or element size is another kernel; a large copy keeps literal sizes.
    let c = Kernel::new(render_strided(&[64, 9, 32], &[1, 2048, 64], 0, 4).expect("renders"));
    assert_ne!(a.src, c.src);
    let big = SHAPE_SCALARS_MAX * 2;
    let d = Kernel::new(render_strided(&[big / 64, 64], &[1, big / 64], 0, 4).expect("renders"));
    assert!(d.scalars.is_empty() && d.src.contains("% 64u"), "{}", d.src);
}

#[test]
fn view_chains_and_concatenations_of_them_plan_as_one_copy_each() {
    use oxhlo_cuda::device::Kernel;
    use oxhlo_ir::OpKind;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-plan/tests/view_copies");
    let plan = |name: &str| {
        let m = module(&std::fs::read_to_string(dir.join(name)).expect("readable"));
        let f = m.entry().expect("entry").clone();
        let block = f.body.entry().expect("block").clone();
        let fusion = oxhlo_cuda::CudaOptions::default().fusion;
        let (steps, copies) = oxhlo_cuda::kernels::plan_view_copies(&f, &block, oxhlo_cuda::kernels::plan_steps(&f, &block, &fusion), &fusion);
        let mut heads: Vec<_> = copies.values().map(|c| (c.head, c.absorbed.len(), c.pieces.len(), block.ops[c.head].kind)).collect();
        heads.sort_by_key(|h| h.0);
        let kinds: Vec<OpKind> = steps.iter().filter_map(|s| if let Step::Op(i) = s { Some(block.ops[*i].kind) } else { None }).collect();
        let sources: Vec<Kernel> = heads.iter().map(|h| Kernel::new(oxhlo_cuda::view_copy::render(&copies[&h.0]).expect("renders").0)).collect();
        (heads, kinds, sources)
    };
    // heads.mlir: q and v are copies of their slice, reshape and transpose; k's transpose moves the
    // innermost dim (its slice and reshape stay ops); v's slice is also read by an add, so v's copy
    // starts after it (reshape + transpose: one kernel only, not a copy).
    let (heads, kinds, src) = plan("heads.mlir");
    assert_eq!(heads.iter().map(|h| (h.1, h.2, h.3)).collect::<Vec<_>>(), vec![(2, 1, OpKind::Transpose)]);
    assert_eq!(kinds.iter().filter(|&&k| k == OpKind::Slice).count(), 2, "{kinds:?}");
    assert!(src[0].src.contains("ulonglong2"), "16-byte units: {}", src[0].src);
    // q's slice starts at element 0 of the projection, in units of 4 floats: bases (from, to).
    assert_eq!(src[0].scalars, vec![0, 0]);
    // concat.mlir: both concatenations become copies of three pieces; no transpose, reshape or slice
    // step is left.
    let (heads, kinds, src) = plan("concat.mlir");
    assert_eq!(heads.iter().map(|h| (h.1, h.2, h.3)).collect::<Vec<_>>(), vec![(6, 3, OpKind::Concatenate), (3, 3, OpKind::Concatenate)]);
    assert!(kinds.iter().all(|k| !matches!(k, OpKind::Transpose | OpKind::Reshape | OpKind::Slice)), "{kinds:?}");
    assert!(src[0].src.contains("ulonglong2") && !src[1].src.contains("ulonglong2"), "{}", src[1].src);
    // The f32 pieces land at 0, 16 and 32 floats of each row of 48: 0, 4 and 8 units.
    assert_eq!(src[0].scalars, vec![0, 0, 0, 4, 0, 8]);
    // The i32 pieces: the slice of %c reads from c[1, 0, 3] (103), its place starts at column 18.
    assert_eq!(src[1].scalars, vec![0, 0, 0, 9, 103, 18]);
}

#[test]
fn a_backward_row_kernel_recomputes_the_forward_values_from_per_row_ones() {
    let m = row_program("softmax_grad.mlir");
    let ks = row_kernels(&m);
    assert_eq!(ks.len(), 2, "forward and backward row kernels");
    let f = &m.funcs[0];
    let block = f.body.entry().unwrap();
    let full = |v: &oxhlo_ir::Value| f.ty(*v).as_tensor().is_some_and(|t| t.shape == vec![2, 3, 8, 40]);
    // The forward stores its result (read by the dot) and its row maxima and row sums; not the row sums
    // broadcast to the full shape, nor the exponentials (the backward recomputes them from the input).
    let (fwd, bwd) = (&ks[0], &ks[1]);
    assert_eq!(fwd.outputs.iter().filter(|v| full(v)).count(), 1, "{:?}", fwd.outputs);
    assert_eq!(fwd.outputs.len(), 3, "{:?}", fwd.outputs);
    // The backward reads the dot's result and the program's input at full shape, the row values per row
    // (broadcast by itself) and computes the exponentials again.
    assert_eq!(bwd.inputs.iter().filter(|v| full(v)).count(), 2, "{:?}", bwd.inputs);
    assert!(bwd.inputs.contains(&block.args[0]), "{:?}", bwd.inputs);
    assert_eq!(bwd.ops.iter().filter(|&&i| block.ops[i].kind == oxhlo_ir::OpKind::BroadcastInDim && fwd.outputs.contains(&block.ops[i].operands[0])).count(), 2);
    assert!(bwd.ops.iter().any(|&i| block.ops[i].kind == oxhlo_ir::OpKind::Exponential));
    for k in [fwd, bwd] {
        oxhlo_cuda::rows::render_rows(f, block, k).expect("renders");
    }
}

#[test]
fn a_view_chain_ending_in_a_scalar_copies_up_to_its_last_shaped_value() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-plan/tests/view_copies/scalar_end.mlir");
    let m = module(&std::fs::read_to_string(path).expect("readable"));
    let f = m.entry().expect("entry");
    let block = f.body.entry().expect("block");
    let fusion = oxhlo_cuda::CudaOptions::default().fusion;
    let (steps, copies) = oxhlo_cuda::kernels::plan_view_copies(f, block, oxhlo_cuda::kernels::plan_steps(f, block, &fusion), &fusion);
    // The slice and the transpose are one copy; the reshape to rank 0 stays an op (a retype).
    assert_eq!(copies.len(), 1);
    let c = copies.values().next().unwrap();
    assert_eq!(block.ops[c.head].kind, oxhlo_ir::OpKind::Transpose);
    assert!(oxhlo_cuda::view_copy::render(c).is_some());
    assert!(steps.iter().any(|s| matches!(s, Step::Op(i) if block.ops[*i].kind == oxhlo_ir::OpKind::Reshape)));
    assert!(!steps.iter().any(|s| matches!(s, Step::Op(i) if block.ops[*i].kind == oxhlo_ir::OpKind::Slice)));
}

#[test]
fn reductions_and_row_kernels_compile_fully_at_once_and_get_their_share_of_the_cores() {
    use oxhlo_cpu::Kind;
    use oxhlo_cuda::reduce::{render_folded, render_pass, Pass, Shape};
    use oxhlo_plan::reducer::ReduceKind;
    use oxhlo_cuda::tiers::{full_at_once, full_share};
    // Every reduction pass (first, finishing, folded, clustered) and every row kernel.
    for shape in [Shape::Rows, Shape::WarpRows, Shape::Cols, Shape::Cols4, Shape::ClusterCols4] {
        for (from, to) in [(false, true), (true, false), (false, false)] {
            if let Some(src) = render_pass(Kind::F32, ReduceKind::Add, Pass { shape, from_partials: from, to_partials: to }) {
                assert!(full_at_once(&src), "{shape:?} {from} {to}");
            }
        }
        if let Some(src) = render_folded(Kind::F32, ReduceKind::Max, shape) {
            assert!(full_at_once(&src), "folded {shape:?}");
        }
    }
    let m = row_program("layernorm.mlir");
    let (f, k) = (&m.funcs[0], row_kernels(&m).remove(0));
    let rows = oxhlo_cuda::rows::render_rows(f, f.body.entry().unwrap(), &k).expect("renders");
    assert!(full_at_once(&rows.src));
    // Elementwise kernels compile quickly first.
    let m = module("func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = stablehlo.multiply %a, %b : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}");
    let f = &m.funcs[0];
    let (mul, _) = render::render_single(f, f.body.entry().unwrap(), 0).expect("renders");
    assert!(!full_at_once(&mul));
    // Cores in proportion to NVRTC work (the full tier's about twice the quick tier's per byte).
    let (a, b) = ("x".repeat(1000), "y".repeat(2000));
    let full = [(1u64, a.as_str())];
    let quick = [(2u64, b.as_str())];
    assert_eq!(full_share(&full, &quick, 16), 8);
    assert_eq!(full_share(&[], &quick, 16), 0);
    assert_eq!(full_share(&full, &[], 16), 16);
    let tiny = "z".repeat(10);
    assert_eq!(full_share(&[(3, tiny.as_str())], &quick, 16), 1, "at least one core");
    let big = "w".repeat(1_000_000);
    assert_eq!(full_share(&[(4, big.as_str())], &quick, 16), 15, "one core left for the quick tier");
}

#[test]
fn sorts_render_a_stable_bitonic_kernel_with_their_comparator() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sorts");
    // Every sort of the device test's programs runs on the device (their values are checked there).
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let m = module(&std::fs::read_to_string(&path).unwrap());
        let f = m.entry().unwrap();
        let sorts: Vec<_> = f.body.entry().unwrap().ops.iter().filter(|o| matches!(o.kind, oxhlo_ir::OpKind::Sort | oxhlo_ir::OpKind::ChloTopK)).collect();
        assert!(!sorts.is_empty() && sorts.iter().all(|op| oxhlo_cuda::sort::plan_op(f, op).is_some()), "{path:?}");
    }
    let src = std::fs::read_to_string(dir.join("argsort_f32.mlir")).unwrap();
    let m = module(&src);
    let f = &m.funcs[0];
    let op = f.body.entry().unwrap().ops.iter().find(|o| o.kind == oxhlo_ir::OpKind::Sort).unwrap();
    let p = oxhlo_cuda::sort::plan(f, op).expect("JAX's argsort sorts on the device");
    assert_eq!((p.rows, p.n), (6, 37));
    // One key: the comparator's lhs side (constants inlined, TOTALORDER as the order key's bits) packed
    // above each position in a 64-bit slot; the sorted positions gather both operands.
    assert!(p.src.contains("unsigned oxs_key(float p0, float p1, long long p2, long long p3)"), "{}", p.src);
    assert!(p.src.contains("(unsigned)oxh_tok(") && p.src.contains("__int_as_float((int)0x7fc00000U)"), "{}", p.src);
    assert!(p.src.contains("out1[base + (long long)i * 1LL] = in1[base + q * 1LL];"), "{}", p.src);
    // 64 slots for 37 elements, a warp a row, 2 a lane in registers (`sort_registers`); ties broken
    // by position (stable) inside the one integer comparison; no separate positions (the slots hold
    // theirs).
    assert!(p.src.contains("  unsigned long long r0[2];") && p.src.contains("r0[e] = i < 37 ? ((unsigned long long)(oxs_key("), "{}", p.src);
    assert!(!p.src.contains("int pos[") && !p.src.contains("rp["), "{}", p.src);
    assert!(p.src.contains("row = blockIdx.x * 8LL + (threadIdx.x >> 5)") && !p.src.contains("__syncthreads"), "{}", p.src);
    assert!(p.src.contains("__shfl_xor_sync(0xffffffffu, r0[e], m)") && p.src.contains("bool oxs_before_r(unsigned long long x, unsigned long long y) { return x < y; }"), "{}", p.src);
    // A long row of one key: packed slots in chunks of 4096, the sorted positions gathering the
    // operands at the end.
    let m = module(&std::fs::read_to_string(dir.join("sort_large.mlir")).unwrap());
    let f = &m.funcs[0];
    let op = f.body.entry().unwrap().ops.iter().find(|o| o.kind == oxhlo_ir::OpKind::Sort).unwrap();
    let p = oxhlo_cuda::sort::plan(f, op).expect("a long row sorts on the device");
    assert!(p.large && p.chunk == 1024 && p.src.contains("unsigned oxs_key(") && p.src.contains("out0[base + t * 1LL] = in0[base + at * 1LL];"), "{}", p.src);
    // Its sixteen chunks merge in four passes (`sort_merge`), tiles of 1024 slots: two buffers of
    // slots the passes alternate between, the last (from the second buffer) writing the results.
    assert_eq!(oxhlo_cuda::sort::large_scratch_bytes(f, op), Some(16384 * 16));
    assert!(p.src.contains("unsigned long long* __restrict__ kv0 = (unsigned long long*)((char*)pos_all + rows * 0LL);"), "{}", p.src);
    let (chunks, tiles) = (16 * 256, 16 * 256);
    assert_eq!(oxhlo_cuda::sort::large_launches(f, op).unwrap(), vec![(1024, -1, 0, chunks), (1024, -2, 0, tiles), (2048, -2, 1, tiles), (4096, -2, 0, tiles), (8192, -2, 3, tiles)]);
    assert!(p.src.contains("long long oxs_split(") && p.src.contains("if (j == -2) {") && p.src.contains("out0[base + (t0 + t) * 1LL] = in0[base + at * 1LL];"), "{}", p.src);
    // Two keys: the comparator itself on the elements in registers.
    let m = module(&std::fs::read_to_string(dir.join("sort_dim0_multikey.mlir")).unwrap());
    let f = &m.funcs[0];
    let op = f.body.entry().unwrap().ops.iter().find(|o| o.kind == oxhlo_ir::OpKind::Sort).unwrap();
    let p = oxhlo_cuda::sort::plan(f, op).expect("a lexicographic sort sorts on the device");
    assert!(p.src.contains("bool oxc(long long p0, long long p1, float p2, float p3, long long p4, long long p5)") && !p.src.contains("oxs_key("), "{}", p.src);
    assert!(p.src.contains("int rp[2]; int r0[2]; float r1[2]; int r2[2];") && p.src.contains("bool oxs_before_r(int x0, int y0, float x1, float y1, int x2, int y2, int a, int b)"), "{}", p.src);
    // A row longer than shared memory holds sorts in global memory; a comparator that does not render
    // stays on the host.
    let long = module(
        r#"
func.func @main(%x: tensor<9000xf32>) -> tensor<9000xf32> {
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<9000xf32>) -> tensor<9000xf32>
  return %0 : tensor<9000xf32>
}
"#,
    );
    let f = &long.funcs[0];
    let p = oxhlo_cuda::sort::plan(f, &f.body.entry().unwrap().ops[0]).expect("a long row sorts on the device");
    assert!(p.large && p.src.contains("int* __restrict__ pos_all") && p.src.contains("if (k < 0)") && p.src.contains("__shared__ float sv0[4096];"), "{}", p.src);
    // f32 keys: chunks of 4096 sorted in registers, 16 a thread; the elements after the positions in
    // the scratch; stage 8192 takes one step across chunks, 16384 two in one launch (a thread 4 slots).
    assert_eq!(p.chunk, 4096);
    assert!(p.src.contains("int rp[16]; float r0[16];") && p.src.contains("float* __restrict__ kv0 = (float*)((char*)pos_all + rows * 65536LL);"), "{}", p.src);
    let op = &f.body.entry().unwrap().ops[0];
    let chunks = 4 * 256;
    assert_eq!(oxhlo_cuda::sort::large_launches(f, op).unwrap(), vec![(4096, -1, 0, chunks), (8192, 4096, 1, 8192), (8192, -1, 0, chunks), (16384, 8192, 2, 4096), (16384, -1, 0, chunks), (-1, 0, 0, 9000)]);
    assert_eq!(oxhlo_cuda::sort::large_scratch_bytes(f, op), Some(16384 * 8));
    // Longer rows: stages of more steps across chunks than a launch takes (three at most).
    assert_eq!(oxhlo_cuda::sort_registers::large_launches(&[oxhlo_cpu::Kind::F32], 1, 100_000, 4096)[7..12], [(65536, 32768, 3, 16384), (65536, 4096, 1, 65536), (65536, -1, 0, 32 * 256), (131072, 65536, 3, 16384), (131072, 8192, 2, 32768)]);
    // The shared-memory networks' stages (`OXHLO_CUDA_SORT_REGISTERS=0`).
    assert_eq!(oxhlo_cuda::sort::large_stages(16384, 4096), vec![(4096, -1), (8192, 4096), (8192, -1), (16384, 8192), (16384, 4096), (16384, -1), (-1, 0)]);
    let pow = module(
        r#"
func.func @main(%x: tensor<9xi32>) -> tensor<9xi32> {
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %p = stablehlo.power %a, %b : tensor<i32>
    %1 = stablehlo.compare LT, %p, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<9xi32>) -> tensor<9xi32>
  return %0 : tensor<9xi32>
}
"#,
    );
    let f = &pow.funcs[0];
    assert!(oxhlo_cuda::sort::plan(f, &f.body.entry().unwrap().ops[0]).is_none());
}

/// JAX's jnp.sort and jnp.argsort as it lowers them (each in a private function it calls) still sort on
/// the device once the optimizer has inlined them.
#[test]
fn jax_sorts_sort_on_the_device_after_the_optimizer() {
    let src = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sorts_jax/jnp_sort_argsort.mlir")).unwrap();
    let mut m = module(&src);
    oxhlo_cuda::optimize(&mut m, &oxhlo_cpu::OptOptions::at(oxhlo_cpu::OptLevel::O2)).unwrap();
    let mut sorts = 0;
    for f in &m.funcs {
        for op in f.body.entry().unwrap().ops.iter().filter(|o| o.kind == oxhlo_ir::OpKind::Sort) {
            sorts += 1;
            let p = oxhlo_cuda::sort::plan(f, op).unwrap_or_else(|| panic!("a sort of @{} stays on the host", f.name));
            // One key (the canonicalized element under TOTALORDER): packed with its position.
            assert!(p.src.contains("unsigned oxs_key(") && p.src.contains("unsigned long long r0["), "@{} not packed:\n{}", f.name, p.src);
        }
    }
    assert_eq!(sorts, 2);
}

/// jnp.sort as the plugin receives it (constants outside the comparator) renders the same kernel,
/// byte for byte once canonical, as the same sort with its constants inside (`tests/sorts/sort_f32_rows`,
/// whose values the device test checks).
#[test]
fn a_comparator_s_outer_constants_render_as_its_inner_ones() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let fusion = oxhlo_cuda::options_at(oxhlo_cpu::OptLevel::O2).fusion;
    let sorts = |file: &str| -> Vec<String> {
        let mut m = module(&std::fs::read_to_string(root.join(file)).unwrap());
        oxhlo_cuda::optimize(&mut m, &oxhlo_cpu::OptOptions::at(oxhlo_cpu::OptLevel::O2)).unwrap();
        oxhlo_cuda::kernels::module_kernels(&m, &fusion).into_iter().filter(|s| s.contains("oxs_before")).collect()
    };
    let inner = sorts("tests/sorts/sort_f32_rows.mlir");
    let outer = sorts("tests/sorts_jax/jnp_sort_argsort.mlir");
    assert_eq!(inner.len(), 1);
    assert_eq!(outer.len(), 2, "jnp.sort and jnp.argsort");
    assert!(outer.contains(&inner[0]), "the same jnp.sort kernel:\n{}", inner[0]);
}

/// top_k's kernel orders by the element type's total order, descending, ties by position, and keeps the
/// first k positions of each row: values and positions.
#[test]
fn top_k_renders_a_descending_total_order_network_keeping_k() {
    let src = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sorts/top_k.mlir")).unwrap();
    let m = module(&src);
    let f = &m.funcs[0];
    let ops: Vec<_> = f.body.entry().unwrap().ops.iter().filter(|o| o.kind == oxhlo_ir::OpKind::ChloTopK).collect();
    // k = 5 takes the selection kernel (a warp a row); its network form is what k > 16 takes.
    let sel = oxhlo_cuda::sort::plan_op(f, ops[0]).expect("top_k of f32 runs on the device");
    assert_eq!(oxhlo_cuda::top_k_select::selects(f, ops[0]), Some(oxhlo_cuda::top_k_select::Form::Warp));
    assert!(sel.src.contains("typedef decltype(oxh_tok((float)(((const float*)0)[0]))) oxt_key;") && sel.src.contains("ka > kb || (ka == kb && ia < ib)") && sel.src.contains("oxt_key kv[8]; int iv[8];"), "{}", sel.src);
    let p = oxhlo_cuda::top_k::plan_top_k_network(f, ops[0]).expect("top_k of f32 has a network form");
    assert_eq!((p.rows, p.n), (6, 37));
    assert!(p.src.contains("const auto ka = oxh_tok((float)(in0[ia]))") && p.src.contains("if (ka != kb) return ka > kb;"), "{}", p.src);
    // In registers (`sort_registers::top_k`), a warp a row (64 slots): the first 5 slots kept.
    assert!(p.src.contains("if (i < 5) {") && p.src.contains("out1[row * 5LL + i] = (int)rp[e];") && p.src.contains("(threadIdx.x >> 5)"), "{}", p.src);
    let q = oxhlo_cuda::sort::plan_op(f, ops[1]).expect("top_k of i32 runs on the device");
    assert!(q.src.contains("const auto ka = (long long)(in0[ia])"), "{}", q.src);
    // k = 5 of 37 (64 slots): chunks of 8 sorted, then rounds halving them; k = all 100: a full sort.
    assert!(p.src.contains("for (long long kk = 2; kk <= 8; kk <<= 1)") && p.src.contains("for (long long stride = 8; stride < 64; stride <<= 1)"), "{}", p.src);
    assert!(q.src.contains("for (long long kk = 2; kk <= 128; kk <<= 1)") && !q.src.contains("stride"), "{}", q.src);
    // The 7 largest of rows of 10000: each chunk of 4096's first 8 in shared memory, then the 4 chunks'
    // 32 candidates sorted; two launches.
    let long = module(
        r#"
func.func @main(%v: tensor<2x10000xf32>) -> (tensor<2x7xf32>, tensor<2x7xi32>) {
  %b, %r = chlo.top_k(%v, k = 7) : tensor<2x10000xf32> -> (tensor<2x7xf32>, tensor<2x7xi32>)
  return %b, %r : tensor<2x7xf32>, tensor<2x7xi32>
}
"#,
    );
    let f = &long.funcs[0];
    let op = &f.body.entry().unwrap().ops[0];
    // By selection: 2 long rows split into 9 parts of 1112 positions, a block a part keeping its best 7
    // positions, then a block a row selecting from the 63 candidates.
    assert_eq!(oxhlo_cuda::top_k_select::selects(f, op), Some(oxhlo_cuda::top_k_select::Form::Split { parts: 9, len: 1112 }), "2 long rows: split over blocks");
    assert_eq!(oxhlo_cuda::top_k_select::launches(f, op).unwrap(), vec![(0, -2, 0, 2 * 9 * 256), (0, -3, 0, 2 * 256)]);
    assert_eq!(oxhlo_cuda::top_k_select::scratch_bytes(f, op), Some(2 * 9 * 7 * 4));
    let sel = oxhlo_cuda::sort::plan_op(f, op).unwrap();
    assert!(sel.large && sel.src.contains("const int lo = (int)(c % 9LL) * 1112, hi = min(lo + 1112, 10000);") && sel.src.contains("pos[c * 7LL + q] = iv[q];") && sel.src.contains("for (int c = threadIdx.x; c < 63; c += blockDim.x)"), "{}", sel.src);
    assert!(oxhlo_cuda::sort::plan_is_large(f, op), "a split top_k launches as a long sort (and replays as a graph)");
    let p = oxhlo_cuda::top_k::plan_top_k_network(f, op).expect("a long top_k has a network form");
    assert!(p.large && p.src.contains("pos[row * 16384LL + ci * 8LL + t] = sp[t];") && p.src.contains("for (int k = 2; k <= 32; k <<= 1)"), "{}", p.src);
    assert_eq!(oxhlo_cuda::sort::large_launches(f, op).unwrap(), vec![(4096, -2, 0, 2 * 4 * 256), (-3, 0, 0, 2 * 256)]);
}

/// JAX's argmax and argmin (a reduce of values and positions) render with the reducer a device function
/// (its constants inlined): over the last dimension (contiguous groups of 300) as a block a result, each
/// thread a contiguous chunk, the chunks combined in index order by shuffles of growing offsets; over
/// the first dimension as a thread a result folding in the interpreter's order.
#[test]
fn argmax_renders_a_tree_or_a_fold_a_thread() {
    let src = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variadic_reduces/argmax_argmin.mlir")).unwrap();
    let mut m = module(&src);
    oxhlo_cuda::optimize(&mut m, &oxhlo_cpu::OptOptions::at(oxhlo_cpu::OptLevel::O2)).unwrap();
    let f = m.entry().unwrap();
    let reduces: Vec<_> = f.body.entry().unwrap().ops.iter().filter(|o| o.kind == oxhlo_ir::OpKind::Reduce && o.operands.len() == 4).collect();
    assert_eq!(reduces.len(), 3);
    let (src, n) = oxhlo_cuda::variadic_reduce::render(f, reduces[0]).expect("argmax runs on the device");
    assert_eq!(n, 16);
    assert!(src.contains("void oxv(float p0, long long p1, float p2, long long p3, float* r0, long long* r1)"), "{src}");
    assert!(src.contains("float acc0 = (float)(in2[0]), oth0;") && src.contains("for (int off = 1; off < 32; off <<= 1)"), "{src}");
    assert!(src.contains("if ((lane & (2 * off - 1)) == 0 && tid + off < active) oxv(acc0, acc1, oth0, oth1, &acc0, &acc1);"), "{src}");
    assert_eq!(oxhlo_cuda::variadic_reduce::block_threads(f, reduces[0]), Some(64));
    let (src, n) = oxhlo_cuda::variadic_reduce::render(f, reduces[1]).expect("argmin runs on the device");
    assert_eq!(n, 300);
    assert!(src.contains("for (long long r = 0; r < 16LL; ++r)") && src.contains("float acc0 = (float)(in2[0]);"), "{src}");
    assert_eq!(oxhlo_cuda::variadic_reduce::block_threads(f, reduces[1]), None);
    for r in &reduces {
        assert!(oxhlo_cuda::variadic_reduce::render(f, r).is_some());
    }
}

/// Windowed ops and dynamic slices render (no host steps for pooling, its gradient, cumulative ops and
/// scans): JAX's cumsum (a prefix window) as a thread a line folding once along it when the reducer
/// keeps its init, other windows a thread a result folding its taps, select_and_scatter by gathering,
/// dynamic slices reading their starts on the device, clamped.
#[test]
fn windows_and_dynamic_slices_render() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let load = |file: &str| {
        let mut m = module(&std::fs::read_to_string(root.join(file)).unwrap());
        oxhlo_cuda::optimize(&mut m, &oxhlo_cpu::OptOptions::at(oxhlo_cpu::OptLevel::O2)).unwrap();
        m
    };
    let m = load("tests/windows/scans_no_nans.mlir");
    let f = m.entry().unwrap();
    let rws: Vec<_> = f.body.entry().unwrap().ops.iter().filter(|o| o.kind == oxhlo_ir::OpKind::ReduceWindow).collect();
    assert_eq!(rws.len(), 4);
    // Down the 7 columns of [50, 7]: 7 lines, each line's elements 7 apart.
    let (src, lines) = oxhlo_cuda::windows::render(f, rws[0]).expect("cumsum renders");
    assert_eq!(lines, 7);
    assert!(src.contains("const long long base = (line / 7LL) * 350LL + line % 7LL;") && src.contains("const long long at = base + i * 7LL;"), "{src}");
    assert!(src.contains("if ((__float_as_int(g0) == __float_as_int(init0)))"), "{src}");
    let m = load("tests/windows/dilations_no_nans.mlir");
    let f = m.entry().unwrap();
    let rw = f.body.entry().unwrap().ops.iter().find(|o| o.kind == oxhlo_ir::OpKind::ReduceWindow).unwrap();
    let (src, n) = oxhlo_cuda::windows::render(f, rw).expect("a dilated window renders");
    assert_eq!(n, 16);
    assert!(src.contains("const long long q0 = o0 * (long long)4 + w0 * (long long)3 - (long long)(2);") && src.contains("q0 % (long long)2 == 0"), "{src}");
    let m = load("tests/windows/jax_pools_no_nans.mlir");
    let f = m.entry().unwrap();
    let ss = f.body.entry().unwrap().ops.iter().find(|o| o.kind == oxhlo_ir::OpKind::SelectAndScatter).expect("the max-pool gradient");
    let (src, n) = oxhlo_cuda::windows::render(f, ss).expect("select_and_scatter renders");
    assert_eq!(n, 2 * 8 * 8 * 3);
    // Small enough for 32-bit indices; the pick's value kept in a register.
    assert!(src.contains("bool oxsel(") && src.contains("if (pick == self) oxv(acc, ") && src.contains("int oxfdiv(int a, int b)") && src.contains("if (pick < 0 || !oxsel(pv, x)) { pick = at4; pv = x; }"), "{src}");
    let m = load("tests/windows/dynamic_slices.mlir");
    let f = m.entry().unwrap();
    let ds: Vec<_> = f.body.entry().unwrap().ops.iter().filter(|o| matches!(o.kind, oxhlo_ir::OpKind::DynamicSlice | oxhlo_ir::OpKind::DynamicUpdateSlice)).collect();
    assert!(ds.len() >= 4);
    for o in &ds {
        assert!(oxhlo_cuda::dynamic::render(f, o).is_some(), "{} renders", o.name());
    }
    let (src, _) = oxhlo_cuda::dynamic::render(f, ds[0]).unwrap();
    assert!(src.contains("const long long st0 = (long long)(idx0[0]) < 0 ? 0LL : (long long)(idx0[0]) > 6LL ? 6LL : (long long)(idx0[0]);"), "{src}");
}

/// JAX's argmax (values reduced beside an iota of their positions, which the optimizer turns into a
/// broadcast of a 1-D iota): the reduce's kernel computes the positions instead of reading them, and
/// no step of the plan computes the iota or its broadcast (`variadic_reduce::absorb_iotas`); an iota
/// that something else also uses keeps its step.
#[test]
fn argmax_positions_are_computed_not_materialized() {
    let src = "func.func @main(%x: tensor<16x300xf32>) -> (tensor<16xi32>, tensor<16x300xi32>) {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %i = stablehlo.iota dim = 0 : tensor<300xi32>
  %b = stablehlo.broadcast_in_dim %i, dims = [1] : (tensor<300xi32>) -> tensor<16x300xi32>
  %r:2 = stablehlo.reduce(%x init: %1), (%b init: %0) across dimensions = [1] : (tensor<16x300xf32>, tensor<16x300xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%ai: tensor<i32>, %ci: tensor<i32>) {
    %g = stablehlo.compare GT, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %e = stablehlo.compare EQ, %a, %c, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %l = stablehlo.compare LT, %ai, %ci, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %el = stablehlo.and %e, %l : tensor<i1>
    %t = stablehlo.or %g, %el : tensor<i1>
    %v = stablehlo.select %g, %a, %c : tensor<i1>, tensor<f32>
    %w = stablehlo.select %t, %ai, %ci : tensor<i1>, tensor<i32>
    stablehlo.return %v, %w : tensor<f32>, tensor<i32>
  }
  return %r#1, %b : tensor<16xi32>, tensor<16x300xi32>
}";
    let opts = FusionOptions { enabled: true, aggressive: false, recompute: false, recompute_costly: false, rows: false, max_params: 0, sibling_reductions: 0 };
    let computes = |m: &oxhlo_ir::Module, kinds: &[oxhlo_ir::OpKind]| {
        let f = m.entry().unwrap();
        let block = f.body.entry().unwrap();
        let steps = oxhlo_cuda::kernels::plan_steps(f, block, &opts);
        steps.iter().any(|s| match s {
            Step::Op(i) => kinds.contains(&block.ops[*i].kind),
            Step::Kernel(k) => k.ops.iter().any(|&i| kinds.contains(&block.ops[i].kind)),
        })
    };
    use oxhlo_ir::OpKind::{BroadcastInDim, Iota};
    // The broadcast is also returned: it keeps its steps.
    let kept = module(src);
    assert!(computes(&kept, &[BroadcastInDim]) && computes(&kept, &[Iota]), "a returned broadcast of the iota is computed");
    // Returned no more: neither runs.
    let m = module(&src.replace("-> (tensor<16xi32>, tensor<16x300xi32>)", "-> tensor<16xi32>").replace("return %r#1, %b : tensor<16xi32>, tensor<16x300xi32>", "return %r#1 : tensor<16xi32>"));
    assert!(!computes(&m, &[BroadcastInDim, Iota]), "the iota and its broadcast have no step");
    let f = m.entry().unwrap();
    let reduce = f.body.entry().unwrap().ops.iter().find(|o| o.kind == oxhlo_ir::OpKind::Reduce).unwrap();
    assert_eq!(oxhlo_cuda::variadic_reduce::coordinate_inputs(f, reduce), vec![None, Some(1), None, None]);
    let (kernel, _) = oxhlo_cuda::variadic_reduce::render(f, reduce).expect("renders");
    assert!(!kernel.contains("in1["), "the positions are not read:\n{kernel}");
}
