//! Row kernels (`oxhlo_plan::row_fusion`: softmax, layer norm and their gradients as one kernel)
//! rendered as CUDA C. A warp per row (rows of at most [`WARP_ROW_MAX`] elements, [`warp_rows`]) or a block of
//! [`ROW_THREADS`] threads per row runs the group's phases over its row: the reductions whose operands
//! need only per-row values known so far, all in one loop (a double accumulator each, combined by warp
//! shuffles and, for a block, shared memory, so every thread holds the result), then the per-row ops
//! those results make computable; and after the last reductions one loop computing and storing the
//! full-shape outputs. Rows of at most 16 elements a thread (32 at 128 threads a block: rows of
//! 3200-4096, [`block_threads`]) keep in registers the values later loops would recompute, and the row
//! itself (`element_cache`: read from memory once); otherwise every loop recomputes the elementwise ops
//! it needs from the kernel's inputs (later loops hit the cache). Held rows fold a thread's elements
//! in float before the threads' partials meet in double (maxima and minima without branches, and
//! divisions by a row's value, in [`crate::row_arith`]). Held block rows of 8 to 16 elements a thread
//! load their next row's inputs while they work on this one (the grid is then the blocks the device
//! holds at once, [`RowLaunch::persistent`]), their column inputs once a block, f32 rows as 16-byte
//! vectors. Per-row outputs are stored once
//! per row. The phases are the plan's (`oxhlo_plan::row_fusion::row_phases`), as on the CPU. Entry [`crate::render::ENTRY`]: `(long long rows, inputs..., outputs...)`.

use crate::reduce::WARP_ROW_MAX;
use crate::render::{kind_of, load, reg_type, render_body_with, storage_type, PRELUDE, ENTRY};
use oxhlo_cpu::Kind;
use oxhlo_ir::{Block, Func, OpKind, Value};
use oxhlo_plan::fusion::FusedKernel;
use oxhlo_plan::reducer::{reducer_kind, ReduceKind};
use oxhlo_plan::row_fusion::{cone_until, full_cone, row_phases, RowPhases};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Threads of a block-per-row kernel.
pub const ROW_THREADS: i64 = 256;

/// A rendered row kernel: its source and how it launches.
pub struct RowSource {
    pub src: String,
    pub launch: RowLaunch,
}

/// How a row kernel launches: a warp per row (else a block per row), whether its grid is the blocks
/// the device holds at once (each loading its next row ahead), and its block's threads (eight warps a
/// row each, or a row's [`block_threads`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowLaunch {
    pub warp: bool,
    pub persistent: bool,
    pub threads: u32,
}

impl RowLaunch {
    /// A warp a row (eight to a block), or a block of [`ROW_THREADS`] a row, the grid a block a row.
    pub fn plain(warp: bool) -> RowLaunch {
        RowLaunch { warp, persistent: false, threads: ROW_THREADS as u32 }
    }
}

/// Threads of a block-per-row kernel over rows of `cols` elements: [`ROW_THREADS`], or 128 where that
/// holds 8 to 16 elements a thread and 256 would hold fewer or none (rows of 1024 to 1920: each thread
/// then loads its next row ahead, and a row's reductions cost half as many shuffles an element), or
/// 128 holding [`WIDE_MIN_PER_THREAD`] to [`WIDE_MAX_PER_THREAD`] a thread (rows of 3200 to 4096, a
/// multiple of 128), a block a row and no prefetch: the hardware starts a row's block as another ends.
/// The causal attention's masked softmax over [32768, 1024] took 163 us a call at 256 threads, 148 at
/// 128 (H100; 154 without the prefetch; 253 at 512). `OXHLO_CUDA_ROW_BLOCK_THREADS` (128, 256 or 512;
/// read once) sets it for every row of a multiple of it, at most 16 elements a thread (32 at 128).
pub fn block_threads(cols: i64) -> i64 {
    static T: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    let held = |t: i64| cols % t == 0 && cols / t <= 16;
    match crate::reduce::knob(&T, "OXHLO_CUDA_ROW_BLOCK_THREADS", |t: i64| t == 128 || t == 256 || t == 512, 0) {
        0 if cols % 128 == 0 && (WIDE_MIN_PER_THREAD..=WIDE_MAX_PER_THREAD).contains(&(cols / 128)) => 128,
        128 if cols % 128 == 0 && cols / 128 <= WIDE_MAX_PER_THREAD => 128,
        0 if held(128) && cols / 128 >= 8 && !(held(ROW_THREADS) && cols / ROW_THREADS >= 8) => 128,
        t if t > 0 && held(t) => t,
        _ => ROW_THREADS,
    }
}

/// Renders the row kernel `k` (None when it is not one, or some op or type has no rendering).
pub fn render_rows(func: &Func, block: &Block, k: &FusedKernel) -> Option<RowSource> {
    let cols = k.rows.as_ref()?.cols as i64;
    let threads = block_threads(cols);
    let (r, held) = render_rows_at(func, block, k, threads)?;
    if !held && !r.launch.warp && cols / threads > 16 {
        // Wide rows take 128 threads to hold 25-32 elements a thread; where the values their loops keep
        // do not fit the registers, 256 threads hold half as many each.
        return render_rows_at(func, block, k, ROW_THREADS).map(|(r, _)| r);
    }
    Some(r)
}

/// [`render_rows`] with a block row's threads given; whether the row's values are held in registers.
fn render_rows_at(func: &Func, block: &Block, k: &FusedKernel, row_threads: i64) -> Option<(RowSource, bool)> {
    let view = k.rows.as_ref()?;
    let (rows, cols) = (view.rows as i64, view.cols as i64);
    if rows < 1 || cols < 2 || k.shape.iter().product::<i64>() != rows.checked_mul(cols)? {
        return None;
    }
    let warp = warp_rows(cols);
    // Lanes a row: a warp, or half of one for rows of up to 256 elements (16 a lane) when
    // `OXHLO_CUDA_ROW_LANES=16` ([`row_lanes`]).
    let lanes: i64 = if warp && row_lanes() == 16 && cols % 16 == 0 && cols / 16 <= 16 { 16 } else { 32 };
    let half = lanes < 32;
    let is_row = |i: usize| view.row_ops.binary_search(&i).is_ok();
    let reduces: Vec<usize> = k.ops.iter().copied().filter(|&i| block.ops[i].kind == OpKind::Reduce).collect();
    let full_defined: HashSet<Value> =
        k.ops.iter().filter(|&&i| !is_row(i) && block.ops[i].kind != OpKind::Reduce).filter_map(|&i| block.ops[i].results.first().copied()).collect();
    let RowPhases { first_row_ops, phases } = row_phases(block, k)?;
    let mut row_kind: Vec<(Value, Kind)> = Vec::new();
    for &i in &k.ops {
        let op = &block.ops[i];
        if op.kind == OpKind::Reduce {
            row_kind.push((op.results[0], Kind::F32));
        } else if is_row(i) {
            row_kind.push((op.results[0], kind_of(func, op.results[0])?.0));
        }
    }

    let mut params = vec!["long long rows".to_string()];
    for (j, &v) in k.inputs.iter().enumerate() {
        params.push(format!("const {}* __restrict__ in{j}", storage_type(kind_of(func, v)?.0)?));
    }
    let row_values: HashSet<Value> = row_kind.iter().map(|&(v, _)| v).collect();
    for (j, &v) in k.outputs.iter().enumerate() {
        params.push(format!("{}* __restrict__ out{j}", storage_type(kind_of(func, v)?.0)?));
        // Outputs are per-row values or full-shape values of the kernel's ops.
        if !row_values.contains(&v) && !full_defined.contains(&v) {
            return None;
        }
    }
    let block_threads = if warp { 256 } else { row_threads };
    let (tid, nt) = if warp { ("lane", lanes.to_string()) } else { ("(int)threadIdx.x", format!("{block_threads}")) };
    let mut src = String::from(PRELUDE);
    for (name, combine) in [("oxr_add", "a + b"), ("oxr_max", "oxh_max(a, b)"), ("oxr_min", "oxh_min(a, b)")] {
        let _ = writeln!(src, "__device__ __forceinline__ double {name}(double a, double b) {{ return {combine}; }}");
    }
    src += crate::row_arith::FOLD_MAX_MIN;
    src += crate::row_arith::ROW_DIVIDE;
    let bounds = match row_min_blocks() {
        b if warp && b > 0 => format!("__launch_bounds__(256, {b}) "),
        _ => String::new(),
    };
    let _ = writeln!(src, "extern \"C\" __global__ void {bounds}{ENTRY}({}) {{", params.join(", "));
    let _ = writeln!(src, "  const int lane = threadIdx.x & {};", lanes - 1);
    let _ = writeln!(src, "  const long long C = {cols}LL;");
    if half {
        // Two rows a warp, one a half: the loop runs while the warp's first row exists (its shuffles
        // need both halves); a half past the last row computes that row again and stores nothing.
        let _ = writeln!(src, "  const long long rpb = blockDim.x / {lanes};");
        let _ = writeln!(src, "  for (long long wrow = (long long)blockIdx.x * rpb + (threadIdx.x >> 5) * {}; wrow < rows; wrow += (long long)gridDim.x * rpb) {{", 32 / lanes);
        let _ = writeln!(src, "    const bool live = wrow + ((threadIdx.x & 31) / {lanes}) < rows;");
        let _ = writeln!(src, "    const long long row = live ? wrow + ((threadIdx.x & 31) / {lanes}) : rows - 1;");
    } else if warp {
        let _ = writeln!(src, "  const long long rpb = blockDim.x >> 5;");
        let _ = writeln!(src, "  for (long long row = (long long)blockIdx.x * rpb + (threadIdx.x >> 5); row < rows; row += (long long)gridDim.x * rpb) {{");
    } else {
        let per_phase = reduces.len().max(1);
        let _ = writeln!(src, "  __shared__ double sh[{per_phase}][{}];", block_threads / 32);
        let _ = writeln!(src, "  __shared__ float shf[{per_phase}][{}];", block_threads / 32);
        let _ = writeln!(src, "  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {{");
    }
    for &(v, kind) in &row_kind {
        let _ = writeln!(src, "    {} r{};", reg_type(kind), v.0);
    }
    let mut seeded: HashMap<Value, (String, Kind)> = HashMap::new();
    let emit_row_run = |src: &mut String, ops: &[usize], seeded: &mut HashMap<Value, (String, Kind)>| -> Option<()> {
        if ops.is_empty() {
            return Some(());
        }
        let b = render_body_with(func, block, ops, &k.inputs, &[], &[rows], seeded, true, false)?;
        let _ = writeln!(src, "    {{\n      const long long i = row;");
        for line in b.body.lines() {
            let _ = writeln!(src, "  {line}");
        }
        for &i in ops {
            let v = block.ops[i].results[0];
            let (name, kind) = b.regs.get(&v)?.clone();
            let _ = writeln!(src, "      r{} = {name};", v.0);
            seeded.insert(v, (format!("r{}", v.0), kind));
        }
        let _ = writeln!(src, "    }}");
        Some(())
    };
    // Per-row ops, in runs of elementwise ops between reshapes (a reshape of a per-row value is the
    // same value).
    let emit_row_ops = |src: &mut String, ops: &[usize], seeded: &mut HashMap<Value, (String, Kind)>| -> Option<()> {
        for run in ops.split_inclusive(|&i| block.ops[i].kind == OpKind::Reshape) {
            let (ew, reshape) = match run.split_last() {
                Some((&last, rest)) if block.ops[last].kind == OpKind::Reshape => (rest, Some(last)),
                _ => (run, None),
            };
            emit_row_run(src, ew, seeded)?;
            if let Some(r) = reshape {
                let (from, to) = (block.ops[r].operands[0], block.ops[r].results[0]);
                let (name, kind) = seeded.get(&from)?.clone();
                let _ = writeln!(src, "    r{} = {name};", to.0);
                seeded.insert(to, (format!("r{}", to.0), kind));
            }
        }
        Some(())
    };
    // The full-shape outputs, computed after every reduction.
    let full_outs: Vec<(usize, Value)> = k.outputs.iter().copied().enumerate().filter(|(_, v)| full_defined.contains(v)).collect();
    let mut targets: Vec<Vec<Value>> = phases.iter().map(|(phase, _)| phase.iter().map(|&i| block.ops[i].operands[0]).collect()).collect();
    targets.push(full_outs.iter().map(|&(_, v)| v).collect());
    // A row's threads: a warp's lanes, or the block's.
    let threads = if warp { lanes } else { block_threads };
    let mut cache = element_cache(func, block, k, cols, threads, &targets);
    let per_lane = cols / threads;
    // Element values held in registers by the loop that computed them (`e<value>[j_]`), for later loops.
    let mut held: HashMap<Value, (String, Kind)> = HashMap::new();
    // Inputs a block row loads for its next row while it works on this one (`x<j>` this row's, `n<j>`
    // the next's): the grid is then the blocks the device holds at once ([`RowLaunch::persistent`]).
    // Wide rows (more than 16 a thread) that do not, f32 a multiple of 4 a thread, load their row's
    // inputs at the row's start as 16-byte vectors instead (`x<j>` only: [`row_start_loads`]).
    let next_row = !warp && row_prefetch().unwrap_or((PREFETCH_MIN_PER_THREAD..=16).contains(&per_lane));
    let outs_f32 = full_outs.iter().all(|&(_, v)| kind_of(func, v).is_some_and(|(kd, _)| kd == Kind::F32));
    let at_start = !warp && !next_row && per_lane > 16 && per_lane % 4 == 0 && outs_f32 && row_vectors_enabled() && row_start_loads();
    let prefetched: Vec<(usize, Value, Kind)> = match &mut cache {
        Some(c) if next_row || at_start => {
            let pre: Vec<(usize, Value, Kind)> = elementwise_inputs(func, block, k).into_iter().filter_map(|v| Some((k.inputs.iter().position(|&x| x == v)?, v, kind_of(func, v)?.0))).collect();
            let kept: i64 = c.iter().map(|l| l.iter().filter(|v| !pre.iter().any(|p| p.1 == **v)).count() as i64).sum();
            let copies = if next_row { 2 } else { 1 };
            let vectors_only = at_start && !pre.iter().all(|p| p.2 == Kind::F32);
            if !pre.is_empty() && !vectors_only && (kept + copies * pre.len() as i64) * per_lane <= HELD_REGISTERS {
                for l in c.iter_mut() {
                    l.retain(|v| !pre.iter().any(|p| p.1 == *v));
                }
                pre
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    };
    let persistent = !prefetched.is_empty() && next_row;
    // Rows of f32 inputs and outputs loading them ahead or at the row's start, a multiple of 4
    // elements a thread, give each thread runs of 4 adjacent elements (`c = 4 (t + threads g) + e` for
    // its element `j_ = 4 g + e`): those inputs and the full-shape outputs move as 16-byte vectors
    // (buffers are whole 256-byte aligned allocations).
    let f32_only = prefetched.iter().all(|p| p.2 == Kind::F32) && outs_f32;
    let vec4 = !prefetched.is_empty() && per_lane % 4 == 0 && f32_only && row_vectors_enabled();
    // Where a block row thread's run of 4 starts (vector rows), and the column of its element `j_`.
    let run_start = |g: &str| format!("4 * ((int)threadIdx.x + {threads} * {g})");
    let column = |j_: &str| if vec4 { format!("{} + ({j_} & 3)", run_start(&format!("({j_} >> 2)"))) } else { format!("(int)threadIdx.x + {threads} * {j_}") };
    // Loads input `j`'s row `r` into the register array `arr<j>` (4 at a time in vector rows).
    let fill = |arr: &str, j: usize, kind: Kind, r: &str| {
        if vec4 {
            format!("for (int g_ = 0; g_ < {}; ++g_) oxh_ld4(&{arr}{j}[4 * g_], in{j} + {r} * C + {});", per_lane / 4, run_start("g_"))
        } else {
            format!("for (int j_ = 0; j_ < {per_lane}; ++j_) {arr}{j}[j_] = {};", load(kind, &format!("in{j}"), &format!("{r} * C + {}", column("j_"))))
        }
    };
    if persistent {
        for &(j, v, kind) in &prefetched {
            let _ = writeln!(src, "    {} x{j}[{per_lane}];", reg_type(kind));
            let _ = writeln!(src, "    #pragma unroll\n    for (int j_ = 0; j_ < {per_lane}; ++j_) x{j}[j_] = n{j}[j_];");
            let _ = writeln!(src, "    if (row + gridDim.x < rows) {{\n      #pragma unroll\n      {}\n    }}", fill("n", j, kind, "(row + gridDim.x)"));
            held.insert(v, (format!("x{j}[j_]"), kind));
        }
        // The first row's loads, before the row loop.
        let mut first = String::new();
        for &(j, _, kind) in &prefetched {
            let _ = writeln!(first, "  {} n{j}[{per_lane}];", reg_type(kind));
            let _ = writeln!(first, "  if ((long long)blockIdx.x < rows) {{\n    #pragma unroll\n    {}\n  }}", fill("n", j, kind, "(long long)blockIdx.x"));
        }
        let head = "  for (long long row = blockIdx.x; row < rows; row += gridDim.x) {\n";
        let at_head = src.rfind(head)?;
        src.insert_str(at_head, &first);
        if let b @ 1.. = persistent_min_blocks() {
            // The launch finds the grid by the occupancy the compiled kernel has, bounds included.
            src = src.replacen(&format!("__global__ void {ENTRY}("), &format!("__global__ void __launch_bounds__({block_threads}, {b}) {ENTRY}("), 1);
        }
    }
    if !persistent {
        // Wide rows' start loads (`at_start`: always vector rows).
        for &(j, v, kind) in &prefetched {
            let _ = writeln!(src, "    {} x{j}[{per_lane}];", reg_type(kind));
            let _ = writeln!(src, "    #pragma unroll\n    {}", fill("x", j, kind, "row"));
            held.insert(v, (format!("x{j}[j_]"), kind));
        }
    }
    let loop_head = |tid: &str, nt: &str, pad: &str| {
        if cache.is_some() {
            format!("{pad}#pragma unroll\n{pad}for (int j_ = 0; j_ < {per_lane}; ++j_) {{\n{pad}  const long long c = {};\n{pad}  const long long i = row * C + c;", if vec4 { column("j_") } else { format!("{tid} + {threads} * j_") })
        } else {
            format!("{pad}#pragma unroll 4\n{pad}for (long long c = {tid}; c < C; c += {nt}) {{\n{pad}  const long long i = row * C + c;")
        }
    };
    // Renders loop `q`'s body (the ops its targets need that no earlier loop holds), and C declaring the
    // arrays that keep the values later loops take from it, and storing them.
    let body_of = |q: usize, seeded: &HashMap<Value, (String, Kind)>, held: &mut HashMap<Value, (String, Kind)>| -> Option<(crate::render::Body, String, String)> {
        let stops: Vec<Value> = held.keys().copied().collect();
        let c = if cache.is_some() { cone_until(block, k, &targets[q], &stops) } else { full_cone(block, k, &targets[q]) };
        let mut known = seeded.clone();
        known.extend(held.iter().map(|(v, r)| (*v, r.clone())));
        let b = render_body_with(func, block, &c, &k.inputs, &[], &k.shape, &known, false, false)?;
        let (mut decls, mut keeps) = (String::new(), String::new());
        for &v in cache.as_ref().map(|c| &c[q][..]).unwrap_or(&[]) {
            let (name, kind) = match k.inputs.iter().position(|&x| x == v) {
                Some(j) => {
                    let kind = kind_of(func, v)?.0;
                    (load(kind, &format!("in{j}"), "i"), kind)
                }
                None => b.regs.get(&v)?.clone(),
            };
            let _ = writeln!(decls, "    {} e{}[{per_lane}];", reg_type(kind), v.0);
            let _ = writeln!(keeps, "        e{}[j_] = {name};", v.0);
            held.insert(v, (format!("e{}[j_]", v.0), kind));
        }
        Some((b, decls, keeps))
    };
    emit_row_ops(&mut src, &first_row_ops, &mut seeded)?;
    for (q, (phase, row_ops_after)) in phases.iter().enumerate() {
        let (b, decls, keeps) = body_of(q, &seeded, &mut held)?;
        let mut fold = String::new();
        let mut names = Vec::new();
        for (q, &i) in phase.iter().enumerate() {
            let op = &block.ops[i];
            let (name, ident) = match reducer_kind(func, &op.regions[0])? {
                ReduceKind::Add => ("oxr_add", "0.0"),
                ReduceKind::Max => ("oxr_max", "-OXH_INF"),
                ReduceKind::Min => ("oxr_min", "OXH_INF"),
                _ => return None,
            };
            let operand = op.operands[0];
            let x = match b.regs.get(&operand) {
                Some((r, Kind::F32)) => r.clone(),
                Some(_) => return None,
                None => {
                    let j = k.inputs.iter().position(|&v| v == operand)?;
                    load(Kind::F32, &format!("in{j}"), "i")
                }
            };
            let init = k.inputs.iter().position(|&v| v == op.operands[1])?;
            // Maxima and minima are exact in float; sums add a thread's elements in float, then the
            // threads' partial sums in double ([`row_float_folds`]).
            let float_fold = row_float_folds() && cache.is_some();
            match (float_fold, name) {
                (true, "oxr_add") => {
                    let _ = writeln!(fold, "        part{q} += {x};");
                }
                (true, _) => {
                    let f = if name == "oxr_max" { "oxh_fold_max" } else { "oxh_fold_min" };
                    let _ = writeln!(fold, "        {{ const float x_ = {x}; part{q} = {f}(part{q}, x_); nan{q} |= x_ != x_; }}");
                }
                _ => {
                    let _ = writeln!(fold, "        acc{q} = {name}(acc{q}, (double)({x}));");
                }
            }
            names.push((q, name, ident, init, op.results[0], float_fold));
        }
        src += &decls;
        let _ = writeln!(src, "    {{");
        for &(q, _, ident, _, _, float_fold) in &names {
            if float_fold {
                let _ = writeln!(src, "      float part{q} = {};", if ident == "0.0" { "0.0f" } else { ident });
                if ident != "0.0" {
                    let _ = writeln!(src, "      bool nan{q} = false;");
                }
            } else {
                let _ = writeln!(src, "      double acc{q} = {ident};");
            }
        }
        let _ = writeln!(src, "{}", loop_head(tid, &nt, "      "));
        for line in b.body.lines() {
            let _ = writeln!(src, "    {line}");
        }
        src += &fold;
        src += &keeps;
        let _ = writeln!(src, "      }}");
        // Maxima and minima folded in float stay in float (exact); sums meet in double. Across warps
        // each thread reads one warp's partial and the block's warps are combined by shuffles (the
        // same order in every thread, so every thread holds the same result).
        let in_float = |name: &str, float_fold: bool| float_fold && name != "oxr_add";
        let combine = |name: &'static str, float_fold: bool| match (in_float(name, float_fold), name) {
            (true, "oxr_max") => "oxh_max",
            (true, _) => "oxh_min",
            _ => name,
        };
        for &(q, name, _, _, _, float_fold) in &names {
            match (float_fold, in_float(name, float_fold)) {
                (true, true) => {
                    let _ = writeln!(src, "      float acc{q} = nan{q} ? __int_as_float(0x7fc00000) : part{q};");
                }
                (true, false) => {
                    let _ = writeln!(src, "      double acc{q} = (double)part{q};");
                }
                _ => {}
            }
        }
        for &(q, name, _, _, _, float_fold) in &names {
            let _ = writeln!(src, "      for (int o = {}; o > 0; o >>= 1) acc{q} = {}(acc{q}, __shfl_xor_sync(0xffffffffu, acc{q}, o));", lanes / 2, combine(name, float_fold));
        }
        if !warp {
            let warps = block_threads / 32;
            for &(q, name, _, _, _, float_fold) in &names {
                let _ = writeln!(src, "      if (lane == 0) {}[{q}][threadIdx.x >> 5] = acc{q};", if in_float(name, float_fold) { "shf" } else { "sh" });
            }
            let _ = writeln!(src, "      __syncthreads();");
            for &(q, name, _, _, _, float_fold) in &names {
                let _ = writeln!(src, "      acc{q} = {}[{q}][lane & {}];", if in_float(name, float_fold) { "shf" } else { "sh" }, warps - 1);
                let _ = writeln!(src, "      for (int o = {}; o > 0; o >>= 1) acc{q} = {}(acc{q}, __shfl_xor_sync(0xffffffffu, acc{q}, o));", warps / 2, combine(name, float_fold));
            }
            let _ = writeln!(src, "      __syncthreads();");
        }
        for &(q, name, _, init, result, float_fold) in &names {
            let init = load(Kind::F32, &format!("in{init}"), "0");
            if in_float(name, float_fold) {
                let _ = writeln!(src, "      r{} = {}({init}, acc{q});", result.0, combine(name, float_fold));
            } else {
                let _ = writeln!(src, "      r{} = (float){name}((double){init}, acc{q});", result.0);
            }
            seeded.insert(result, (format!("r{}", result.0), Kind::F32));
        }
        let _ = writeln!(src, "    }}");
        emit_row_ops(&mut src, row_ops_after, &mut seeded)?;
    }
    // The full-shape outputs, after every reduction.
    if !full_outs.is_empty() {
        let (b, _, _) = body_of(phases.len(), &seeded, &mut held)?;
        let mut stores = String::new();
        for &(j, v) in &full_outs {
            let (name, kind) = b.regs.get(&v)?;
            let stored = crate::render::store(*kind, name);
            if vec4 {
                let _ = writeln!(stores, "      o{j}[j_] = {stored};");
            } else {
                let _ = writeln!(stores, "      {}out{j}[i] = {stored};", if half { "if (live) " } else { "" });
            }
        }
        // Vector rows gather a thread's outputs and store them 4 at a time after the loop.
        let output_loop = |src: &mut String, body: &str| {
            if vec4 {
                for &(j, _) in &full_outs {
                    let _ = writeln!(src, "    float o{j}[{per_lane}];");
                }
            }
            let _ = writeln!(src, "{}", loop_head(tid, &nt, "    "));
            for line in body.lines() {
                let _ = writeln!(src, "  {line}");
            }
            *src += &stores;
            let _ = writeln!(src, "    }}");
            if vec4 {
                for &(j, _) in &full_outs {
                    let _ = writeln!(src, "    #pragma unroll\n    for (int g_ = 0; g_ < {}; ++g_) oxh_st4(out{j} + row * C + {}, &o{j}[4 * g_]);", per_lane / 4, run_start("g_"));
                }
            }
        };
        match crate::row_arith::row_divisions(&b.body).filter(|_| cache.is_some() && crate::row_arith::row_divide_enabled()) {
            Some((fast, divisors)) => {
                // Divisions by a row's value: its reciprocal once a row, a product corrected by one
                // fused multiply-add an element (exact where the operands' ranges allow, which the
                // flag checks); the loop again with IEEE divisions when any element is outside them.
                let mut check = Vec::new();
                for d in &divisors {
                    let _ = writeln!(src, "    const float rc_{d} = __frcp_rn({d});");
                    check.push(format!("!(fabsf({d}) >= 0x1p-20f && fabsf({d}) <= 0x1p20f)"));
                }
                let _ = writeln!(src, "    bool slow_ = {};", check.join(" || "));
                output_loop(&mut src, &fast);
                let _ = writeln!(src, "    if (slow_) {{");
                output_loop(&mut src, &b.body);
                let _ = writeln!(src, "    }}");
            }
            None => output_loop(&mut src, &b.body),
        }
    }
    // Per-row outputs, once per row.
    let first = if half { "lane == 0 && live" } else if warp { "lane == 0" } else { "threadIdx.x == 0" };
    for (j, &v) in k.outputs.iter().enumerate() {
        if let Some((name, kind)) = seeded.get(&v) {
            let _ = writeln!(src, "    if ({first}) out{j}[row] = {};", crate::render::store(*kind, name));
        } else if row_values.contains(&v) {
            return None;
        }
    }
    let _ = writeln!(src, "  }}\n}}");
    if persistent && row_columns_enabled() {
        // A block of a persistent grid works on many rows at the same columns: f32 inputs read by
        // column (layer norm's scale and bias) are loaded once, before the row loop, while the
        // registers the row holds allow.
        let arrays = src.matches(&format!("[{per_lane}];")).count() as i64;
        let mut budget = HELD_REGISTERS / per_lane - arrays;
        for (j, &v) in k.inputs.iter().enumerate() {
            let read = format!("(float)(in{j}[(long long)(((unsigned int)i) % {cols}u)])");
            // Only reads inside the element loops (`i = row * C + c`), none in a run of per-row ops.
            let in_loops = |src: &str| src.match_indices(&read).all(|(p, _)| src[..p].rfind("const long long i = ").is_some_and(|q| src[q..].starts_with("const long long i = row * C + c;")));
            if budget <= 0 || kind_of(func, v)?.0 != Kind::F32 || !src.contains(&read) || !in_loops(&src) {
                continue;
            }
            src = src.replace(&read, &format!("col{j}[j_]"));
            let load_ahead = format!("  float col{j}[{per_lane}];\n  #pragma unroll\n  for (int j_ = 0; j_ < {per_lane}; ++j_) col{j}[j_] = in{j}[{}];\n", column("j_"));
            let at = src.find("  for (long long row = blockIdx.x;")?;
            src.insert_str(at, &load_ahead);
            budget -= 1;
        }
    }
    let held_rows = cache.is_some();
    Some((RowSource { src, launch: RowLaunch { warp, persistent, threads: block_threads as u32 } }, held_rows))
}

/// Whether persistent f32 row kernels move their rows as 16-byte vectors (`OXHLO_CUDA_ROW_VECTORS=0`:
/// a thread's elements a block's width apart, one element an access; read once).
fn row_vectors_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    crate::on_unless_off(&ON, "OXHLO_CUDA_ROW_VECTORS")
}

/// Whether wide block rows (more than 16 elements a thread, a block a row) of f32 inputs and outputs
/// load their inputs at the row's start as 16-byte vectors and store their outputs so
/// (`OXHLO_CUDA_ROW_START_LOADS=1`; read once), instead of in the row's first loop, one element an
/// access. Off until timed on a device: SASS (session 36) shows softmax [4096, 4096] at 71 registers
/// against 56 (7 blocks of 128 an SM against 9) and layer norm at 167 against 56 (its scale and bias
/// loads, 64 a thread, hoisted to the row's start).
fn row_start_loads() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXHLO_CUDA_ROW_START_LOADS").is_ok_and(|v| v.trim() == "1"))
}

/// Whether persistent row kernels load their f32 column inputs once a block (`OXHLO_CUDA_ROW_COLUMNS=0`:
/// every row reads them again; read once).
fn row_columns_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    crate::on_unless_off(&ON, "OXHLO_CUDA_ROW_COLUMNS")
}

/// Elements a thread from which held block rows load their next row's inputs ahead (rows of 2048 or
/// more). Session 34 (kernel times; H100 and H200): softmax [4096, 4096] 63.1 -> 51.5 us and 55.7 ->
/// 39.1 (XLA's Triton kernel 46.9 on the H100), layer norm [4096, 4096] 47.7 -> 48.4 and 36.6 -> 37.4;
/// the causal attention's rows of 1024 (4 a thread) 154 -> 163 on the H200: not below 8.
const PREFETCH_MIN_PER_THREAD: i64 = 8;

/// Whether block rows load their next row's inputs while they work on this one (a grid of the blocks
/// the device holds at once): `OXHLO_CUDA_ROW_PREFETCH=1` for every held block row, `0` for none;
/// unset, rows of [`PREFETCH_MIN_PER_THREAD`] to 16 elements a thread (read once; more a thread
/// would hold twice as many registers: see [`WIDE_MIN_PER_THREAD`]).
fn row_prefetch() -> Option<bool> {
    static ON: std::sync::OnceLock<Option<bool>> = std::sync::OnceLock::new();
    *ON.get_or_init(|| match std::env::var("OXHLO_CUDA_ROW_PREFETCH").ok()?.trim() {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    })
}

/// Whether held rows fold a thread's elements in float (maxima and minima exactly; sums before the
/// threads' partial sums meet in double, converted once a thread instead of once an element): yes unless
/// `OXHLO_CUDA_ROW_FLOAT_FOLDS=0`. On an H100 (session 34): softmax [4096, 4096] 65.3 -> 63.1 us,
/// nanoGPT's warp-row kernels 856 -> 816 us a step.
fn row_float_folds() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    crate::on_unless_off(&ON, "OXHLO_CUDA_ROW_FLOAT_FOLDS")
}

/// Lanes a row of up to 256 elements takes in a warp-per-row kernel: 32 unless
/// `OXHLO_CUDA_ROW_LANES=16` (read once; a knob for measuring: two rows a warp, 16 elements a lane,
/// twice the loads in flight a lane). Slower on the H200 (session 23): nanoGPT's attention softmax
/// gradient 49 -> 83 us a call at 108 registers against 62 (half the blocks an SM), the step 4.54-4.59
/// -> 4.64-4.78 ms.
pub fn row_lanes() -> i64 {
    static L: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    crate::reduce::knob(&L, "OXHLO_CUDA_ROW_LANES", |l: i64| l == 16 || l == 32, 32)
}

/// Blocks of a warp-per-row kernel that must fit an SM at once (`__launch_bounds__(256, n)`): none
/// unless `OXHLO_CUDA_ROW_MIN_BLOCKS` says otherwise (1 to 8; read once; a knob for measuring: 4 timed
/// nanoGPT's attention softmax 69 -> 58 us a call with maxima accumulated in float, 64 registers and
/// small spills; 5 spilled more). Maxima and minima stay in double: in float (exact too, one shuffle a
/// step) the softmax took 69 us against 49 in double (one profile each).
fn row_min_blocks() -> u32 {
    static B: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    crate::reduce::knob(&B, "OXHLO_CUDA_ROW_MIN_BLOCKS", |b| b <= 8, 0)
}

/// Blocks of a persistent row kernel that must fit an SM at once (`__launch_bounds__(threads, n)`):
/// none unless `OXHLO_CUDA_ROW_PERSIST_MIN_BLOCKS` says otherwise (1 to 8; read once; a knob for
/// measuring: more resident blocks, more rows in flight and a shorter tail of the grid's last rows,
/// against what ptxas spills to fit).
fn persistent_min_blocks() -> u32 {
    static B: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    crate::reduce::knob(&B, "OXHLO_CUDA_ROW_PERSIST_MIN_BLOCKS", |b| b <= 8, 0)
}

/// Rows of 128 threads holding 25 to 32 elements a thread (3200 to 4096): XLA's Triton softmax over
/// [4096, 4096] runs 4 warps a row, 32 elements a thread, 80 registers, 6 blocks an SM and a grid of
/// a block a row (Nsight Compute, session 36). Ours at 256 threads with the next row loaded ahead
/// (persistent, 3 blocks an SM at 70 registers) took 52.4-53.7 us a call against Triton's 47.1-47.3
/// (H100, one job); at 128 x 32 without the prefetch (56 registers, 9 blocks an SM) 47.6, and layer
/// norm 47.6 against 47.3 (the prefetch at 128 x 32 holds 116-166 registers: 52.7 and 50.5).
const WIDE_MIN_PER_THREAD: i64 = 25;
const WIDE_MAX_PER_THREAD: i64 = 32;

/// Whether rows of `cols` elements take a warp each (else a block of [`ROW_THREADS`]): rows up to
/// `reduce::WARP_ROW_MAX`, but for those of more than 16 elements a lane that a block holds in
/// registers (a multiple of its threads, `element_cache`): a warp re-reads them every loop. The causal
/// attention's masked softmax over [32768, 1024] took 261 us a call a warp a row on an H100 (1 TB/s,
/// its mask and scale recomputed in every loop) against XLA's 156; `OXHLO_CUDA_ROW_BLOCK_HOLD=0` keeps
/// such rows a warp each.
pub fn warp_rows(cols: i64) -> bool {
    let held_by_block = cols / 32 > 16 && cols % ROW_THREADS == 0 && !crate::env_off("OXHLO_CUDA_ROW_BLOCK_HOLD");
    cols <= WARP_ROW_MAX && !held_by_block
}

/// Registers a lane may spend holding element values between a row kernel's loops.
const HELD_REGISTERS: i64 = 96;

/// Which element values each loop of a row kernel keeps for the loops after it (`targets[q]`: the
/// values loop `q` needs: a phase's reduction operands, then the full-shape outputs): the values a
/// later loop would otherwise recompute from the same inputs, taken where that recomputation would
/// begin (softmax's masked logits and exponentials, not each op before them). Rows of a multiple of
/// the row's `threads` (a warp's lanes, or a block's [`ROW_THREADS`]), at most 16 elements a thread,
/// 32 at 128 threads a block (then every loop runs fully unrolled, the values in registers); None when the kernel has other rows
/// or would hold more than [`HELD_REGISTERS`] registers. Without it every loop recomputed its whole
/// cone from the inputs: nanoGPT's attention softmax over [24576, 256] evaluated the scale, mask and
/// exponential three times an element (73 us a call on the H200, 1 TB/s), and a softmax of [4096, 4096]
/// (a block a row) read its rows three times (75 us a call on an H100 against XLA's 47). Inputs of the
/// kernel's shape that two loops read element by element are held too (loaded once).
fn element_cache(func: &Func, block: &Block, k: &FusedKernel, cols: i64, threads: i64, targets: &[Vec<Value>]) -> Option<Vec<Vec<Value>>> {
    let most = if threads == 128 { WIDE_MAX_PER_THREAD } else { 16 };
    if cols % threads != 0 || cols / threads > most || crate::env_off("OXHLO_CUDA_ROW_HOLD") {
        return None;
    }
    let producer = |v: Value, ops: &[usize]| ops.iter().copied().find(|&i| block.ops[i].results.first() == Some(&v));
    let mut held: Vec<Value> = Vec::new();
    let mut out: Vec<Vec<Value>> = Vec::new();
    for q in 0..targets.len() {
        let here = cone_until(block, k, &targets[q], &held);
        let mut keep: Vec<Value> = Vec::new();
        for later_targets in &targets[q + 1..] {
            let later = cone_until(block, k, later_targets, &held);
            let shared: Vec<usize> = later.iter().copied().filter(|i| here.contains(i)).collect();
            // Values of ops both loops compute that the later loop uses outside those ops (or needs).
            let frontier = later.iter().filter(|i| !shared.contains(i)).flat_map(|&i| block.ops[i].operands.iter().copied()).chain(later_targets.iter().copied());
            for v in frontier {
                if producer(v, &shared).is_some() && !keep.contains(&v) {
                    keep.push(v);
                }
            }
        }
        held.extend(keep.iter().copied());
        out.push(keep);
    }
    // Inputs of the kernel's shape read only element by element, by two loops or more: loaded once,
    // by the first loop that reads them.
    // Loop q computes what its targets need but the values earlier loops keep (not those it keeps
    // itself for later loops).
    let cones: Vec<Vec<usize>> = (0..targets.len()).map(|q| cone_until(block, k, &targets[q], &out[..q].concat())).collect();
    for v in elementwise_inputs(func, block, k) {
        let readers: Vec<usize> = (0..targets.len()).filter(|&q| targets[q].contains(&v) || cones[q].iter().any(|&i| block.ops[i].operands.contains(&v))).collect();
        if readers.len() >= 2 {
            out[readers[0]].push(v);
            held.push(v);
        }
    }
    (held.len() as i64 * (cols / threads) <= HELD_REGISTERS).then_some(out)
}

/// The inputs of row kernel `k` of its full shape that its ops read only element by element (reductions
/// and elementwise ops of the kernel's shape; no broadcast, reshape or transpose).
fn elementwise_inputs(func: &Func, block: &Block, k: &FusedKernel) -> Vec<Value> {
    let numel: i64 = k.shape.iter().product();
    let full = |v: Value| kind_of(func, v).is_some_and(|(_, s)| s.iter().product::<i64>() == numel);
    k.inputs.iter().copied().filter(|&v| {
        let consumers: Vec<usize> = k.ops.iter().copied().filter(|&i| block.ops[i].operands.contains(&v)).collect();
        full(v) && !consumers.is_empty() && consumers.iter().all(|&i| block.ops[i].kind == OpKind::Reduce || !matches!(block.ops[i].kind, OpKind::BroadcastInDim | OpKind::Reshape | OpKind::Transpose) && block.ops[i].results.first().is_some_and(|&r| full(r)))
    }).collect()
}
