//! Small elementwise kernels over a reduction's results run by the reduction's finishing launch.
//!
//! A batch norm reduces its activations to per-channel sums, then runs a few ops on `[C]` values (the
//! mean, `rsqrt(var + eps)`, the scale's and bias's gradients, their optimizer updates): each a kernel
//! of one block whose launch costs more than its work (a resnet18 step had 64 of them beside 64
//! finishing passes over the sums' partials). Here such a kernel `K` runs at the end of the finishing
//! pass of the reduction kernel `R` whose results it reads: every block of the pass counts itself done
//! on a counter in device memory, and the last one (all results final and visible after a memory
//! fence) evaluates `K` over the `C` elements and resets the counter for the next launch. The order of
//! every sum is unchanged, so results are the same bits as with two launches.
//!
//! [`reorder`] moves each such `K` right behind its `R` in the plan (legal when everything `K` reads
//! is computed by then); [`epilogue`] says whether a step and the one after it pair up, for the
//! executor and the kernel listing alike; [`render`] writes the combined kernel. `OXHLO_CUDA_EPILOGUES=0`
//! turns it off.

use crate::reduce::{self, Pass, Shape};
use crate::render::{self, ENTRY};
use oxhlo_cpu::Kind;
use oxhlo_ir::{Block, Func, Value};
use oxhlo_plan::fusion::{FusedKernel, Step};
use oxhlo_plan::reduce_fusion::step_reads;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The most elements an epilogue may have: it runs in one block of the finishing pass.
pub const MAX_EPILOGUE: i64 = 4096;

/// Whether reductions take epilogues: yes unless `OXHLO_CUDA_EPILOGUES=0` (read once).
pub fn enabled() -> bool {
    static E: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    reduce::knob(&E, "OXHLO_CUDA_EPILOGUES", |e| e <= 1, 1) == 1
}

/// The number of result elements of `r` when it is a reduction kernel whose last launch is the one pass
/// over partial results that every reduction of it shares (the form an epilogue attaches to).
fn finishing_results(r: &FusedKernel) -> Option<i64> {
    let e0 = r.reduce.first()?;
    if r.rows.is_some() {
        return None;
    }
    let ls = reduce::multi_launches(e0.outer as i64, e0.n as i64, e0.inner as i64, r.reduce.len(), reduce::is_plain(r));
    let single = r.reduce.len() == 1 && ls.len() == 2 && ls[0].pass.to_partials;
    if !(single || reduce::shared_finish(&ls, r.reduce.len()).is_some()) {
        return None;
    }
    if ls[1].pass != (Pass { shape: Shape::Cols, from_partials: true, to_partials: false }) {
        return None;
    }
    Some((e0.outer * e0.inner) as i64)
}

/// `step` as an elementwise kernel of `n` elements (a fused kernel, or one elementwise op as a kernel
/// of its own), or None.
fn as_small_kernel(func: &Func, block: &Block, step: &Step, n: i64) -> Option<Arc<FusedKernel>> {
    let k = match step {
        Step::Kernel(k) if k.reduce.is_empty() && k.rows.is_none() => k.clone(),
        Step::Op(i) => {
            let (_, inputs) = render::render_single(func, block, *i)?;
            let op = &block.ops[*i];
            let (_, shape) = render::kind_of(func, *op.results.first()?)?;
            Arc::new(FusedKernel { ops: vec![*i], inputs, outputs: op.results.clone(), shape, reduce: Vec::new(), rows: None })
        }
        _ => return None,
    };
    (k.shape.iter().product::<i64>() == n && !k.outputs.is_empty()).then_some(k)
}

/// The epilogue `next` makes for `r` when `r` is a reduction kernel with a shared finishing pass and
/// `next` an elementwise kernel over its results' elements that reads at least one of them (and no
/// other value `r` defines), None otherwise.
pub fn epilogue(func: &Func, block: &Block, r: &Step, next: &Step) -> Option<Arc<FusedKernel>> {
    if !enabled() {
        return None;
    }
    let Step::Kernel(rk) = r else { return None };
    let n = finishing_results(rk)?;
    if n > MAX_EPILOGUE {
        return None;
    }
    let k = as_small_kernel(func, block, next, n)?;
    let results: HashSet<Value> = rk.reduce.iter().map(|e| e.result).collect();
    let reads_result = k.inputs.iter().any(|v| results.contains(v));
    let reads_other_output = k.inputs.iter().any(|v| rk.outputs.contains(v) && !results.contains(v));
    if !reads_result || reads_other_output {
        return None;
    }
    render::render_body(func, block, &k.ops, &k.inputs, &k.outputs, &k.shape)?;
    Some(k)
}

/// A `reduce` op (`block.ops[i]`) of one f32 operand over contiguous dims, with an add, max or min
/// reducer, as a reduction kernel of no other ops (its first pass is the plain one over elements:
/// `reduce::render_fused_pass`), so that it can take an epilogue; None for other ops.
fn reduce_as_kernel(func: &Func, block: &Block, i: usize) -> Option<Arc<FusedKernel>> {
    use oxhlo_plan::reducer::ReduceKind;
    let op = block.ops.get(i)?;
    let ([x, init], [result]) = (op.operands.as_slice(), op.results.as_slice()) else { return None };
    if op.kind != oxhlo_ir::OpKind::Reduce {
        return None;
    }
    let kind = oxhlo_plan::reducer::reducer_kind(func, op.regions.first()?)?;
    if !matches!(kind, ReduceKind::Add | ReduceKind::Max | ReduceKind::Min) {
        return None;
    }
    let (xk, shape) = render::kind_of(func, *x)?;
    let (rk, _) = render::kind_of(func, *result)?;
    if xk != Kind::F32 || rk != Kind::F32 || x == init {
        return None;
    }
    let dims: Vec<usize> = op.attr("dimensions")?.as_i64_list()?.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<_>>()?;
    let (outer, n, inner) = reduce::contiguous_view(&shape, &dims)?;
    let e = oxhlo_plan::fusion::ReduceEpilogue { op: i, operand: *x, init: *init, result: *result, kind, outer: outer as usize, n: n as usize, inner: inner as usize };
    Some(Arc::new(FusedKernel { ops: vec![i], inputs: vec![*x, *init], outputs: vec![*result], shape, reduce: vec![e], rows: None }))
}

/// Values each step defines (fused kernels: their outputs).
fn defined(block: &Block, step: &Step) -> Vec<Value> {
    match step {
        Step::Op(i) => block.ops[*i].results.clone(),
        Step::Kernel(k) => k.outputs.clone(),
    }
}

/// `steps` with each step that makes an [`epilogue`] for an earlier reduction kernel moved right behind
/// it, when every value it reads is defined by then (the first such step per reduction; constants it
/// reads that come later move ahead of the reduction with it). Steps with regions (control flow) stay
/// where they are, and nothing moves past one.
pub fn reorder(func: &Func, block: &Block, steps: Vec<Step>) -> Vec<Step> {
    if !enabled() {
        return steps;
    }
    let mut steps = steps;
    let mut i = 0;
    while i + 1 < steps.len() {
        // A plain `reduce` op becomes a reduction kernel when that gives it an epilogue.
        let as_kernel = match &steps[i] {
            Step::Op(o) => reduce_as_kernel(func, block, *o).map(Step::Kernel),
            _ => None,
        };
        let original = as_kernel.map(|k| std::mem::replace(&mut steps[i], k));
        if !matches!(&steps[i], Step::Kernel(k) if finishing_results(k).is_some()) {
            i += 1;
            continue;
        }
        if epilogue(func, block, &steps[i], &steps[i + 1]).is_some() {
            i += 2;
            continue;
        }
        // Values defined among the steps after `i`, and the constants among them (steps of no operands,
        // which may move ahead of the reduction with the step that reads them).
        let mut later: HashSet<Value> = HashSet::new();
        let mut constants: HashMap<Value, usize> = HashMap::new();
        let mut found = None;
        for j in i + 1..steps.len() {
            if let Step::Op(o) = &steps[j] {
                let op = &block.ops[*o];
                if !op.regions.is_empty() {
                    break;
                }
                if op.operands.is_empty() {
                    constants.extend(op.results.iter().map(|&v| (v, j)));
                    continue;
                }
            }
            if epilogue(func, block, &steps[i], &steps[j]).is_some() && step_reads(block, &steps[j]).iter().all(|v| !later.contains(v)) {
                found = Some(j);
                break;
            }
            later.extend(defined(block, &steps[j]));
        }
        let Some(j) = found else {
            if let Some(op) = original {
                steps[i] = op;
            }
            i += 1;
            continue;
        };
        let mut moved: Vec<usize> = step_reads(block, &steps[j]).iter().filter_map(|v| constants.get(v).copied()).collect();
        moved.sort_unstable();
        moved.dedup();
        let k = steps.remove(j);
        let consts: Vec<Step> = moved.iter().rev().map(|&c| steps.remove(c)).collect();
        for c in consts {
            steps.insert(i, c);
            i += 1;
        }
        steps.insert(i + 1, k);
        i += 2;
    }
    steps
}

/// The finishing pass of reduction kernel `r` with epilogue `k` (from [`epilogue`]) as one kernel: the
/// pass as the shared finishing launch renders it (`reduce::render_finish_multi`, or the single
/// reduction's column pass over partials), then, in the last block to finish, `k`'s ops over its
/// elements. Parameters: `(outer, red, inner, parts)`, each reduction's partials, each one's init
/// value, `k`'s inputs other than `r`'s results, the counter (one `unsigned int`, zero between
/// launches), each reduction's result, `k`'s outputs.
pub fn render(func: &Func, block: &Block, r: &FusedKernel, k: &FusedKernel) -> Option<String> {
    let e0 = r.reduce.first()?;
    let m = r.reduce.len();
    finishing_results(r)?;
    let head = format!("extern \"C\" __global__ void {ENTRY}(");
    let fin = if m > 1 {
        reduce::render_finish_multi(e0.kind, m)?
    } else {
        reduce::render_pass(Kind::F32, e0.kind, Pass { shape: Shape::Cols, from_partials: true, to_partials: false })?
    };
    if fin.matches(&head).count() != 1 {
        return None;
    }
    let fin = fin.replacen(&head, "__device__ __forceinline__ void oxh_fin(", 1);
    let b = render::render_body(func, block, &k.ops, &k.inputs, &k.outputs, &k.shape)?;
    // The epilogue's own parameters, without `__restrict__`: it reads what this launch wrote.
    let plain: Vec<String> = b.params.iter().map(|p| p.replace(" __restrict__", "")).collect();
    let body: String = b.body.lines().map(|l| format!("    {l}\n")).collect();
    let epi = format!(
        "__device__ __forceinline__ void oxh_epi({}) {{\n  for (long long i = threadIdx.x; i < n; i += blockDim.x) {{\n{body}  }}\n}}\n",
        plain.join(", ")
    );
    // The type of parameter `p` (`const float* in3` -> `const float*`).
    let ty = |p: &str| p.rsplit_once(' ').map(|(t, _)| t.to_string());
    let mut params: Vec<String> = (0..m).map(|j| format!("const double* f_p{j}")).collect();
    params.extend((0..m).map(|j| format!("const float* f_i{j}")));
    // The epilogue's element count is the finishing pass's `outer * inner` (its results), a parameter
    // rather than a constant: batch norms of different widths then share one kernel (one NVRTC
    // compile).
    let mut args = vec!["outer * inner".to_string()];
    for (j, v) in k.inputs.iter().enumerate() {
        match r.reduce.iter().position(|e| e.result == *v) {
            Some(at) => args.push(format!("f_o{at}")),
            None => {
                params.push(format!("{} e{j}", ty(&plain[1 + j])?));
                args.push(format!("e{j}"));
            }
        }
    }
    params.push("unsigned int* oxh_count".to_string());
    params.extend((0..m).map(|j| format!("float* f_o{j}")));
    for j in 0..k.outputs.len() {
        params.push(format!("{} k_o{j}", ty(&plain[1 + k.inputs.len() + j])?));
        args.push(format!("k_o{j}"));
    }
    let fin_args: Vec<String> = (0..m).map(|j| format!("f_p{j}")).chain((0..m).map(|j| format!("f_i{j}"))).chain((0..m).map(|j| format!("f_o{j}"))).collect();
    Some(format!(
        "{fin}\n{epi}\nextern \"C\" __global__ void {ENTRY}(long long outer, long long red, long long inner, long long parts, {params}) {{
  oxh_fin(outer, red, inner, parts, {fin_args});
  __shared__ unsigned int oxh_arrived;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) oxh_arrived = atomicAdd(oxh_count, 1u);
  __syncthreads();
  if (oxh_arrived + 1u == gridDim.x * gridDim.y) {{
    __threadfence();
    oxh_epi({args});
    if (threadIdx.x == 0) *oxh_count = 0u;
  }}
}}
",
        params = params.join(", "),
        fin_args = fin_args.join(", "),
        args = args.join(", "),
    ))
}
