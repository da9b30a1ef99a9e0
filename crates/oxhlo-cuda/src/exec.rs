//! The CUDA executor: walks each block's plan (`kernels::plan_steps`: loop fusion, then reductions folded
//! into the kernels computing their operands). Fused kernels and single elementwise ops run as
//! NVRTC-compiled kernels, reduce-fused kernels and reductions as row/column passes (`reduce`), slices,
//! concatenations, pads, reverses, iota, gathers and scatter-adds as index kernels (`movement`,
//! `gather_scatter`), dot_general on cuBLAS and convolutions on cuDNN or as im2col + cuBLAS (`dot`,
//! `cudnn`, `conv`),
//! transposes as permute kernels, reshapes as retypes; every other op runs on the host (the CPU backend's
//! native kernels, else the reference interpreter) on operands copied back, and its results go to the
//! device only when a device op reads them. A value may live on the device, on the host, or both (a copy
//! is made once and kept while the value lives). Control flow (while/if/case/call) runs on the host,
//! reading predicates back, except counted loops (`oxhlo_plan::loops`: scans, fori_loops), whose bodies
//! run their trip count without a read. A dynamic_update_slice of a value nothing else holds (a scan's
//! stacked output) writes into that value's buffer. Results are defined by the interpreter's semantics, with float transcendental
//! functions from CUDA's libm, reduction and scatter-add orders of their own, and (when allowed) TF32
//! products for DEFAULT-precision f32 dots and convolutions. A program of many steps whose run was all
//! device work is captured as a CUDA graph and replayed (`run_device`, `graph`). `run_device_async`
//! returns once a run's work is enqueued, with a [`InFlight`] event for the caller to wait on.

use crate::view_copy::PlannedCopy;
use crate::device::{gpu, DTensor, Gpu, InFlight, Kernel, Memo};
use crate::{async_runs, async_spin};
use crate::{dot, reduce, render};
use oxhlo_cpu::kernels::{self, KernelCtx};
use oxhlo_cpu::{NTensor, Val};
use oxhlo_interp::custom_call::CustomCallRegistry;
use oxhlo_interp::testing::CheckFailure;
use oxhlo_interp::{Data, InterpError, Interpreter, RtValue, Tensor};
use oxhlo_ir::{Attr, Block, Func, Module, Op, OpKind, Region, Type, Value};
use oxhlo_plan::fusion::{FusionOptions, Step};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How a program is compiled for the GPU.
#[derive(Clone, Debug)]
pub struct CudaOptions {
    pub fusion: FusionOptions,
    /// DEFAULT-precision f32 dots may use TF32 tensor cores (as XLA does); HIGH/HIGHEST never do.
    pub allow_tf32: bool,
}

impl Default for CudaOptions {
    fn default() -> CudaOptions {
        CudaOptions { fusion: FusionOptions { enabled: true, aggressive: false, recompute: true, recompute_costly: true, rows: oxhlo_plan::row_fusion::env_setting().unwrap_or(true), max_params: crate::MAX_KERNEL_PARAMS, sibling_reductions: crate::sibling_reductions() }, allow_tf32: true }
    }
}

/// Counts of what ran where (over the program's lifetime).
#[derive(Debug, Default)]
pub struct Stats {
    pub device_kernels: AtomicUsize,
    pub device_gemms: AtomicUsize,
    pub host_ops: AtomicUsize,
    /// Runs captured as a CUDA graph, and replays of captured graphs.
    pub graph_captures: AtomicUsize,
    pub graph_replays: AtomicUsize,
    /// Steps run by the finishing pass of the reduction before them ([`crate::finish_epilogue`]).
    pub finish_epilogues: AtomicUsize,
    /// Control-flow predicates read back to the host (a while's condition, an if's or a case's
    /// selector); counted loops read none.
    pub predicate_reads: AtomicUsize,
    /// dynamic_update_slices and scatters written into their operand's buffer (no copy of it first).
    pub in_place_updates: AtomicUsize,
    /// The last step that ran on the host (op name and result type), for the graph log.
    pub last_host_step: Mutex<String>,
}

impl Stats {
    /// Counts a step run on the host and remembers what it was.
    fn ran_on_host(&self, what: impl FnOnce() -> String) {
        self.host_ops.fetch_add(1, Ordering::Relaxed);
        if crate::graph::logging() {
            if let Ok(mut l) = self.last_host_step.lock() {
                *l = what();
            }
        }
    }

    /// Why a run is not captured when a step of it ran on the host.
    fn host_step_reason(&self) -> String {
        match self.last_host_step.lock().map(|l| l.clone()) {
            Ok(l) if !l.is_empty() => format!("a step ran on the host ({l})"),
            _ => "a step ran on the host".to_string(),
        }
    }
}

/// An op run on the device by a kernel of its own with results of their own (sorts, several-input
/// reductions): its results, or None when it does not run there.
type DeviceRun = fn(&Gpu, &crate::device::Memo, &Func, &Op, &[DTensor]) -> Option<Result<Vec<DTensor>, String>>;

struct PlannedStep {
    step: Step,
    take: Vec<bool>,
    free_after: Vec<Value>,
    captured: Vec<Value>,
    /// The rendered kernel (fused kernels, single elementwise ops) and its inputs.
    kernel: Option<(Arc<Kernel>, Vec<Value>)>,
    /// A fused kernel with a reduction epilogue: its first pass (`reduce::render_fused_pass`).
    fused_reduce: Option<Arc<Kernel>>,
    /// A row kernel (`oxhlo_plan::row_fusion`) and how it launches.
    row_kernel: Option<(Arc<Kernel>, crate::rows::RowLaunch)>,
    /// A reduction kernel's finishing pass that also runs the next step ([`crate::finish_epilogue`]).
    epilogue: Option<Epilogue>,
    /// This step is the epilogue of the step before: nothing to run when that one ran it.
    after_epilogue: bool,
    /// A dot step whose next step (a GELU or a residual add) runs as its cuBLASLt epilogue.
    gemm_epilogue: Option<crate::gemm_epilogue::GemmEpilogue>,
    /// The step's op runs as a view copy ([`crate::view_copy`]) with this kernel.
    view_copy: Option<(Arc<PlannedCopy>, Arc<Kernel>)>,
}

/// The next step run by a reduction's finishing pass: its kernel and the combined source (the pass's
/// counter of finished blocks is the reduction op's in the program's `Memo`, [`EPILOGUE_TAG`]).
struct Epilogue {
    kernel: Arc<oxhlo_plan::fusion::FusedKernel>,
    src: Arc<Kernel>,
}

/// A module compiled for the CUDA backend.
pub struct CudaProgram {
    module: Arc<Module>,
    plans: HashMap<usize, Vec<PlannedStep>>,
    constants: HashMap<usize, Slot>,
    registry: Arc<CustomCallRegistry>,
    gpu: Arc<Gpu>,
    threads: usize,
    tf32: bool,
    /// Kernels rendered at run time (reductions, movement, convolutions, permutes), per op.
    memo: Memo,
    /// Per-step times when `OXHLO_PROFILE` is set.
    profile: crate::profile::Profile,
    pub stats: Stats,
    /// Set by the first run (whose time `OXHLO_CUDA_COMPILE_LOG` reports).
    first_run_done: std::sync::atomic::AtomicBool,
    /// The trip count of each counted loop (`oxhlo_plan::loops`), by the address of its while op: its
    /// body runs that many times without its condition being evaluated (no predicate read back).
    trips: HashMap<usize, u64>,
    /// Whether runs may be captured as a CUDA graph (no control flow but counted loops anywhere in the
    /// module), and what is known about capturing them.
    graphable: bool,
    graph: std::sync::Mutex<crate::graph::GraphState>,
    /// `Gpu::upgrades` when the graph was captured: a graph holding quickly compiled kernels is captured
    /// again once they were replaced (`tiers`); [`ALL_FULL`] when it held none.
    graph_upgrades: AtomicU64,
    /// Step-by-step and replay wall times that decide whether the graph is kept.
    graph_timing: std::sync::Mutex<crate::graph::Timing>,
    /// The profiler's gate (`OXHLO_PROFILE=gpu`), made on first use.
    gate: std::sync::Mutex<Option<crate::profile::Gate>>,
    /// Microseconds a run polls for its device work before returning it in flight ([`async_spin`]).
    spin_us: AtomicU64,
    /// The work the last run of this program returned in flight: a run that finds it still running does
    /// not poll for its own ([`CudaProgram::in_flight`]).
    last_in_flight: std::sync::Mutex<Option<InFlight>>,
}

/// Whether a run skips its poll when the work of this program's previous run is still in flight, or
/// when its caller says it will not wait ([`CudaProgram::run_device_enqueued`]: the plugin's caller did
/// not wait for or read the previous run's results): yes unless `OXHLO_CUDA_SPIN_SKIP=0` (every run
/// polls, as before session 32). A caller that did not wait
/// for the previous run's results is enqueueing calls ahead of the device (a pipelined loop): polling
/// would only hold back its next call, and its own work queues behind the previous run's anyway. A
/// pipelined loop of [16, 65536] sorts (112 us of kernels) took 0.276 ms a call polling, 0.186 not
/// (session 32, an H100); a caller that waits for each call finds the previous work done and polls as
/// before (a short run's hand-off to the completion thread costs more than its device time).
fn spin_skip() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    crate::on_unless_off(&ON, "OXHLO_CUDA_SPIN_SKIP")
}

/// Programs with fewer top-level steps than this run step by step, never as a graph
/// (`OXHLO_CUDA_GRAPH_MIN_STEPS` overrides it).
const GRAPH_MIN_STEPS: usize = 16;

fn graph_min_steps() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *N.get_or_init(|| std::env::var("OXHLO_CUDA_GRAPH_MIN_STEPS").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(GRAPH_MIN_STEPS))
}
/// Nor do programs whose runs take more steps than this (long counted loops: a graph of every
/// iteration's launches would take longer to capture and instantiate than the launches save).
const GRAPH_MAX_STEPS: usize = 20_000;

/// The memo plan role of a variadic reduce's passed operands ([`crate::variadic_reduce::passed_operands`]).
const PASSED_TAG: u32 = 63;

/// `graph_upgrades` of a graph that holds no quickly compiled kernel (never captured again for an upgrade).
const ALL_FULL: u64 = u64::MAX;

/// The memo role of a fused kernel's finishing pass of several sums ([`reduce::render_finish_multi`]).
const FINISH_MULTI_TAG: u32 = 60;
/// Memo tag of the counter of a finishing pass that runs an epilogue (kept with the reduction's op).
const EPILOGUE_TAG: u32 = 61;

/// Whether a block (or a block nested in it) holds control flow whose predicates are read on the host:
/// an if, a case, or a while not in `trips` (counted loops read none).
fn has_control_flow(block: &Block, trips: &HashMap<usize, u64>) -> bool {
    block.ops.iter().any(|op| {
        matches!(op.kind, OpKind::If | OpKind::Case)
            || (op.kind == OpKind::While && !trips.contains_key(&(op as *const Op as usize)))
            || op.regions.iter().any(|r| r.blocks.iter().any(|b| has_control_flow(b, trips)))
    })
}

/// Whether a sort or top_k of `module` launches across a long row's chunks ([`crate::sort::plan_is_large`]:
/// several launches of one step, the same every run). Such a program is captured as a graph whatever its
/// step count: the launches' host work each run outweighs the graph's copies in and out (session 32, an
/// H100: jnp.sort of [16, 65536] 0.186 -> 0.131 ms a call pipelined, 0.293 -> 0.162 waited each).
fn has_long_sort(module: &Module) -> bool {
    let mut long = false;
    for func in &module.funcs {
        oxhlo_ir::body::walk_ops(&func.body, &mut |op| {
            long |= matches!(op.kind, OpKind::Sort | OpKind::ChloTopK) && crate::sort::plan_is_large(func, op);
        });
    }
    long
}

/// The steps a run of `block` takes, a counted loop's body steps once an iteration (what a graph
/// captured from the run would hold).
fn run_steps(plans: &HashMap<usize, Vec<PlannedStep>>, trips: &HashMap<usize, u64>, block: &Block) -> usize {
    let Some(plan) = plans.get(&block_key(block)) else { return 0 };
    let mut steps = plan.len();
    for op in &block.ops {
        if let (Some(&n), [_, body]) = (trips.get(&(op as *const Op as usize)), op.regions.as_slice()) {
            let body_steps = body.entry().map_or(0, |b| run_steps(plans, trips, b));
            steps = steps.saturating_add((n as usize).saturating_mul(body_steps));
        }
    }
    steps
}

/// The trip counts of `module`'s counted loops by while-op address; none with `OXHLO_CUDA_COUNTED_LOOPS=0`.
fn counted_loops(module: &Module) -> HashMap<usize, u64> {
    let mut trips = HashMap::new();
    if crate::env_off("OXHLO_CUDA_COUNTED_LOOPS") {
        return trips;
    }
    for func in &module.funcs {
        let consts = oxhlo_plan::loops::int_constants(func);
        oxhlo_ir::body::walk_ops(&func.body, &mut |op| {
            if let Some(n) = oxhlo_plan::loops::trip_count(func, &consts, op) {
                trips.insert(op as *const Op as usize, n);
            }
        });
    }
    trips
}

/// An input or result of [`CudaProgram::run_device`]: a host value or a tensor in device memory.
#[derive(Clone, Debug)]
pub enum DVal {
    Host(Val),
    Device(DTensor),
}

/// A value: on the device, on the host, or both.
#[derive(Clone, Debug, Default)]
struct Slot {
    dev: Option<DTensor>,
    host: Option<Val>,
}

const MAX_DEPTH: usize = 200;

fn block_key(b: &Block) -> usize {
    b as *const Block as usize
}

fn ie(m: String) -> InterpError {
    InterpError::new(m)
}

fn op_error(op: &Op, message: String) -> InterpError {
    InterpError { loc: op.loc.clone(), op: op.name().to_string(), message }
}

fn collect(r: &Region, uses: &mut HashSet<Value>, defs: &mut HashSet<Value>) {
    for b in &r.blocks {
        defs.extend(b.args.iter().copied());
        for op in &b.ops {
            uses.extend(op.operands.iter().copied());
            defs.extend(op.results.iter().copied());
            for rr in &op.regions {
                collect(rr, uses, defs);
            }
        }
    }
}

/// The f32 results of a fused kernel's reductions (`n_res` elements each) as slots of their types.
fn reduction_slots(func: &Func, k: &oxhlo_plan::fusion::FusedKernel, results: Vec<crate::device::DBuf>, n_res: usize) -> Result<Vec<Slot>, String> {
    k.reduce
        .iter()
        .zip(results)
        .map(|(e, result)| match func.try_ty(e.result) {
            Some(Type::Tensor(rt)) => Ok(Slot { dev: Some(Gpu::wrap(rt.clone(), oxhlo_cpu::Kind::F32, n_res, result)), host: None }),
            _ => Err("internal error: a reduction result is not a tensor".to_string()),
        })
        .collect()
}

fn plan_block(func: &Func, block: &Block, fusion: &FusionOptions) -> (Vec<PlannedStep>, HashMap<usize, Arc<PlannedCopy>>) {
    let mut steps = crate::kernels::plan_steps(func, block, fusion);
    if crate::gemm_epilogue::enabled() {
        steps = crate::gemm_epilogue::sink_dots(func, block, steps);
    }
    let (steps, copies) = crate::kernels::plan_view_copies(func, block, steps, fusion);
    let copy_of = |s: &Step| match s {
        Step::Op(i) => copies.get(i),
        _ => None,
    };
    let mut owned: HashSet<Value> = block.args.iter().copied().collect();
    for op in &block.ops {
        owned.extend(op.results.iter().copied());
    }
    let mut info = Vec::new();
    for step in &steps {
        match step {
            Step::Op(_) if copy_of(step).is_some() => {
                // A view copy reads its pieces' sources (the ops between never run).
                let mut srcs: Vec<Value> = Vec::new();
                for p in copy_of(step).into_iter().flat_map(|c| &c.pieces) {
                    if !srcs.contains(&p.src) {
                        srcs.push(p.src);
                    }
                }
                info.push((srcs, HashSet::new(), Vec::new(), None));
            }
            Step::Op(i) => {
                let op = &block.ops[*i];
                let (mut uses, mut defs) = (HashSet::new(), HashSet::new());
                for r in &op.regions {
                    collect(r, &mut uses, &mut defs);
                }
                let mut cap: Vec<Value> = uses.difference(&defs).copied().collect();
                cap.sort();
                let kernel = render::render_single(func, block, *i).map(|(s, v)| (Arc::new(Kernel::new(s)), v));
                info.push((op.operands.clone(), uses, cap, kernel));
            }
            Step::Kernel(k) if k.rows.is_some() => info.push((k.inputs.clone(), HashSet::new(), Vec::new(), None)),
            Step::Kernel(k) => {
                let kernel = render::render_fused(func, block, k).map(|s| (Arc::new(Kernel::new(s)), k.inputs.clone()));
                info.push((k.inputs.clone(), HashSet::new(), Vec::new(), kernel));
            }
        }
    }
    let mut last: HashMap<Value, usize> = HashMap::new();
    for (i, (d, n, _, _)) in info.iter().enumerate() {
        for v in d.iter().chain(n.iter()) {
            if owned.contains(v) {
                last.insert(*v, i);
            }
        }
    }
    let mut planned: Vec<PlannedStep> = steps
        .into_iter()
        .zip(info)
        .enumerate()
        .map(|(i, (step, (direct, nested, captured, kernel)))| {
            let take = direct
                .iter()
                .map(|v| owned.contains(v) && last.get(v) == Some(&i) && !nested.contains(v) && direct.iter().filter(|w| *w == v).count() == 1)
                .collect();
            let fused_reduce = match &step {
                Step::Kernel(k) if !k.reduce.is_empty() => reduce::render_fused_pass(func, block, k).map(|s| Arc::new(Kernel::new(s))),
                _ => None,
            };
            let row_kernel = match &step {
                Step::Kernel(k) if k.rows.is_some() => crate::rows::render_rows(func, block, k).map(|r| (Arc::new(Kernel::new(r.src)), r.launch)),
                _ => None,
            };
            let view_copy = copy_of(&step).map(|c| (c.clone(), Arc::new(Kernel::new(c.src.clone()))));
            PlannedStep { step, take, free_after: Vec::new(), captured, kernel, fused_reduce, row_kernel, epilogue: None, after_epilogue: false, gemm_epilogue: None, view_copy }
        })
        .collect();
    for i in 1..planned.len() {
        let (before, after) = planned.split_at_mut(i);
        let (r, next) = (&mut before[i - 1], &mut after[0]);
        let Step::Kernel(rk) = &r.step else { continue };
        if r.epilogue.is_some() || r.after_epilogue || r.fused_reduce.is_none() {
            continue;
        }
        let Some(kernel) = crate::finish_epilogue::epilogue(func, block, &r.step, &next.step) else { continue };
        let Some(src) = crate::finish_epilogue::render(func, block, rk, &kernel) else { continue };
        r.epilogue = Some(Epilogue { kernel, src: Arc::new(Kernel::new(src)) });
        next.after_epilogue = true;
    }
    if crate::gemm_epilogue::enabled() {
        for i in 1..planned.len() {
            let (before, after) = planned.split_at_mut(i);
            let (dot, next) = (&mut before[i - 1], &mut after[0]);
            if dot.after_epilogue || next.after_epilogue || next.epilogue.is_some() {
                continue;
            }
            dot.gemm_epilogue = crate::gemm_epilogue::detect(func, block, &dot.step, &next.step);
            next.after_epilogue = dot.gemm_epilogue.is_some();
        }
    }
    for (v, &i) in &last {
        planned[i].free_after.push(*v);
    }
    // Arguments the block never reads (a loop condition's view of the state it does not test) go at
    // once: a clone kept would make every buffer of the state look shared.
    if let Some(first) = planned.first_mut() {
        first.free_after.extend(block.args.iter().filter(|a| !last.contains_key(a)));
    }
    (planned, copies)
}

impl CudaProgram {
    /// Plans every block of `module` (verified, already optimized) and uploads its constants.
    pub fn compile(module: Module, opts: &CudaOptions, registry: Arc<CustomCallRegistry>) -> Result<CudaProgram, String> {
        let gpu = gpu()?;
        // The libraries' first calls (cuDNN's loading, cuBLAS's first GEMM: ~90 ms each on the H200),
        // cuDNN's algorithm choice for each convolution shape and one run of each convolution and GEMM
        // form on scratch buffers (their kernels loaded) happen beside planning and NVRTC instead of in
        // the first run.
        let convs = module.any_op(|op| op.kind == OpKind::Convolution);
        let dots = module.any_op(|op| matches!(op.kind, OpKind::Dot | OpKind::DotGeneral));
        let (g, tf32) = (gpu.clone(), opts.allow_tf32);
        let lib_ops = (convs || dots).then(|| module.clone());
        let warm = std::thread::spawn(move || {
            let t = std::time::Instant::now();
            crate::dot::warm_up(&g, convs, dots, tf32);
            let libraries = t.elapsed();
            let mut convolutions = libraries;
            if let Some(m) = lib_ops {
                if convs {
                    crate::cudnn::prepare(&g, &m, tf32);
                }
                convolutions = t.elapsed();
                if dots {
                    crate::dot::warm_runs(&g, &m, tf32);
                }
            }
            (libraries, convolutions, t.elapsed())
        });
        let t0 = std::time::Instant::now();
        let program = Self::compile_with(gpu, module, opts, registry);
        let planned = t0.elapsed();
        if let Ok((libraries, convolutions, all)) = warm.join() {
            crate::nvrtc::compile_log(&format!(
                "libraries' warm-up {:.0} ms, convolutions ready by {:.0} ms, GEMMs by {:.0} ms; planning and NVRTC {:.0} ms, compile done at {:.0} ms",
                libraries.as_secs_f64() * 1e3,
                convolutions.as_secs_f64() * 1e3,
                all.as_secs_f64() * 1e3,
                planned.as_secs_f64() * 1e3,
                t0.elapsed().as_secs_f64() * 1e3
            ));
        }
        program
    }

    fn compile_with(gpu: Arc<Gpu>, module: Module, opts: &CudaOptions, registry: Arc<CustomCallRegistry>) -> Result<CudaProgram, String> {
        let t0 = std::time::Instant::now();
        let module = Arc::new(module);
        let mut plans = HashMap::new();
        let mut constants = HashMap::new();
        let mut kernels = Vec::new();
        for func in &module.funcs {
            for block in &func.body.blocks {
                plan_tree(&gpu, func, block, &opts.fusion, &mut plans, &mut constants, &mut kernels)?;
            }
        }
        let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        // A graph saves the host work of each step but copies the inputs in and the results out:
        // worth it for programs of many steps only.
        let trips = counted_loops(&module);
        let steps = module.entry().and_then(|f| f.body.entry()).map_or(0, |b| run_steps(&plans, &trips, b));
        let enough = steps >= graph_min_steps() || (steps > 0 && has_long_sort(&module));
        let graphable = enough && steps <= GRAPH_MAX_STEPS && !module.funcs.iter().any(|f| f.body.blocks.iter().any(|b| has_control_flow(b, &trips)));
        if enough && steps <= GRAPH_MAX_STEPS && !graphable {
            crate::graph::log(&format!("never captured ({steps} steps): control flow"));
        } else if steps > GRAPH_MAX_STEPS {
            crate::graph::log(&format!("never captured: {steps} steps a run"));
        }
        // Every kernel the program can launch (as `kernels::module_kernels` lists them), compiled now on
        // all cores (the first run then launches without compiling).
        let mut kernels = crate::kernels::distinct(&kernels);
        if graphable {
            kernels.push(crate::graph::COPY_MANY_SRC.to_string());
        }
        crate::nvrtc::compile_log(&format!("planned and listed {} kernels in {:.0} ms", kernels.len(), t0.elapsed().as_secs_f64() * 1e3));
        // Each GEMM-with-epilogue form runs once on scratch buffers beside NVRTC (cuBLASLt's algorithm
        // choice and kernel loading, otherwise in the first run).
        let mut lt_forms = Vec::new();
        for func in &module.funcs {
            for block in &func.body.blocks {
                for ps in plans.get(&block_key(block)).into_iter().flatten() {
                    if let (Some(ge), Step::Op(i)) = (&ps.gemm_epilogue, &ps.step) {
                        let op = &block.ops[*i];
                        let shape = |v: Value| match func.try_ty(v) {
                            Some(Type::Tensor(t)) => Some(t.shape.clone()),
                            _ => None,
                        };
                        if let (Some(l), Some(r)) = (shape(op.operands[0]), shape(op.operands[1])) {
                            lt_forms.push((op.clone(), l, r, matches!(ge.epilogue, crate::gemm_epilogue::Epilogue::GeluTanh)));
                        }
                    }
                }
            }
        }
        let lt_warm = (!lt_forms.is_empty()).then(|| {
            let (g, tf32) = (gpu.clone(), opts.allow_tf32);
            std::thread::spawn(move || crate::dot::warm_lt(&g, &lt_forms, tf32))
        });
        gpu.precompile(&kernels);
        if let Some(t) = lt_warm {
            let _ = t.join();
        }
        Ok(CudaProgram {
            module,
            plans,
            constants,
            registry,
            gpu,
            threads,
            tf32: opts.allow_tf32,
            memo: Memo::default(),
            profile: Default::default(),
            stats: Stats::default(),
            first_run_done: Default::default(),
            trips,
            graphable,
            graph: Default::default(),
            graph_upgrades: Default::default(),
            graph_timing: Default::default(),
            spin_us: AtomicU64::new(async_spin().as_micros() as u64),
            last_in_flight: Default::default(),
            gate: Default::default(),
        })
    }

    pub fn module(&self) -> &Module {
        &self.module
    }

    /// Runs the entry function on host values and returns host values (results are downloaded); failed
    /// checks are an error.
    pub fn run(&self, inputs: Vec<Val>) -> Result<Vec<Val>, InterpError> {
        let (res, checks) = self.run_with_checks(inputs);
        let res = res?;
        if let Some(f) = checks.1.first() {
            return Err(ie(format!("{} check(s) failed; first: {f}", checks.1.len())));
        }
        Ok(res)
    }

    /// Runs the entry function on values that may already live on the device: host inputs are uploaded
    /// when a device op reads them, device inputs are used in place, and results stay where they were
    /// computed (a device result is never downloaded here). Returns once the device work is complete.
    pub fn run_device(&self, inputs: Vec<DVal>) -> Result<Vec<DVal>, InterpError> {
        let (outs, in_flight) = self.run_device_async(inputs)?;
        if let Some(f) = in_flight {
            f.wait().map_err(ie)?;
        }
        Ok(outs)
    }

    /// [`CudaProgram::run_device`] that may return before the device work is complete: the results are
    /// then valid in stream order (later runs, copies and downloads see them) and the returned
    /// [`InFlight`] says when the device is done. Runs whose wall time is measured (before a captured
    /// graph is judged against step-by-step runs, the first run, profiled runs) still wait, as does
    /// every run with `OXHLO_CUDA_ASYNC=0`.
    pub fn run_device_async(&self, inputs: Vec<DVal>) -> Result<(Vec<DVal>, Option<InFlight>), InterpError> {
        self.run_device_enqueued(inputs, true)
    }

    /// [`CudaProgram::run_device_async`] for a caller that says whether it will wait for the results at
    /// once (`caller_waits`: the plugin's caller waited for or read the previous run's). Work that
    /// finishes soon is polled for only then; a caller enqueueing ahead gets its run in flight at once,
    /// so that the next run's host work overlaps this one's device work.
    pub fn run_device_enqueued(&self, inputs: Vec<DVal>, caller_waits: bool) -> Result<(Vec<DVal>, Option<InFlight>), InterpError> {
        let graphs = self.graphable && crate::graph::enabled() && !crate::profile::enabled();
        // A graph's inputs live on the device: host tensors are uploaded first (a step-by-step run
        // would upload them at their first use).
        let devs: Option<Vec<DTensor>> = if graphs {
            inputs
                .iter()
                .map(|v| match v {
                    DVal::Device(d) => Some(d.clone()),
                    DVal::Host(Val::Native(n)) => self.gpu.upload(n).ok(),
                    DVal::Host(_) => None,
                })
                .collect()
        } else {
            None
        };
        if let Some(devs) = &devs {
            if let Some((outs, waited)) = self.run_graph(devs)? {
                return Ok((outs, self.in_flight(waited, caller_waits)?));
            }
        }
        let inputs = match &devs {
            Some(d) => d.iter().cloned().map(DVal::Device).collect(),
            None => inputs,
        };
        let _use = crate::graph::StreamUse::new();
        let host0 = self.stats.host_ops.load(Ordering::Relaxed);
        let t0 = std::time::Instant::now();
        // The wall time of this run is measured when a graph is still to be judged against it.
        let timed = graphs && self.graph.lock().is_ok_and(|g| matches!(*g, crate::graph::GraphState::Learning(_)));
        let wait = timed || !self.first_run_done.load(Ordering::Relaxed) || crate::profile::enabled();
        let outs = self.run_device_plain(inputs, wait)?;
        let plain_secs = t0.elapsed().as_secs_f64();
        if !self.first_run_done.swap(true, Ordering::Relaxed) {
            crate::nvrtc::compile_log(&format!("first run {:.0} ms", plain_secs * 1e3));
        }
        if graphs {
            let why = if devs.is_none() {
                Some("an input has no device form".to_string())
            } else if self.stats.host_ops.load(Ordering::Relaxed) != host0 {
                Some(self.stats.host_step_reason())
            } else if !outs.iter().all(|o| matches!(o, DVal::Device(_))) {
                Some("a result is on the host".to_string())
            } else {
                None
            };
            if let Ok(mut g) = self.graph.lock() {
                if let crate::graph::GraphState::Learning(n) = &mut *g {
                    match why {
                        None => {
                            *n += 1;
                            if let Ok(mut t) = self.graph_timing.lock() {
                                t.record_plain(plain_secs);
                            }
                        }
                        Some(w) if *n == 0 => crate::graph::log(&format!("not captured ({} steps): {w}", self.plans.values().map(Vec::len).max().unwrap_or(0))),
                        Some(_) => {}
                    }
                }
            }
        }
        Ok((outs, self.in_flight(wait, caller_waits)?))
    }

    /// What a run left on the stream, unless it waited for it (or runs are to wait: `OXHLO_CUDA_ASYNC=0`).
    /// Work that completes within [`async_spin`] of being enqueued is waited for here: a short run's
    /// caller usually waits for it at once, and a hand-off to the thread that completes events costs two
    /// thread wake-ups (10-15 us a call through JAX), more than the run itself for a small op. There is
    /// no poll for a caller that does not wait (`caller_waits` false) or while this program's previous
    /// run is still in flight (its caller enqueued ahead: `OXHLO_CUDA_SPIN_SKIP=0` polls anyway).
    fn in_flight(&self, waited: bool, caller_waits: bool) -> Result<Option<InFlight>, InterpError> {
        if waited {
            return Ok(None);
        }
        if !async_runs() {
            self.gpu.synchronize().map_err(|e| ie(format!("the GPU failed: {e}")))?;
            return Ok(None);
        }
        let f = self.gpu.in_flight().map_err(ie)?;
        let spin = std::time::Duration::from_micros(self.spin_us.load(Ordering::Relaxed));
        let pipelined = spin_skip() && (!caller_waits || self.last_in_flight.lock().is_ok_and(|l| l.as_ref().is_some_and(|l| !l.is_done())));
        if !spin.is_zero() && !pipelined {
            let t0 = std::time::Instant::now();
            while t0.elapsed() < spin {
                if f.is_done() {
                    f.wait().map_err(ie)?;
                    return Ok(None);
                }
                std::hint::spin_loop();
            }
        }
        if let Ok(mut last) = self.last_in_flight.lock() {
            *last = Some(f.clone());
        }
        Ok(Some(f))
    }

    /// Sets how long this program's runs poll for their device work before returning it in flight.
    pub fn set_async_spin(&self, spin: std::time::Duration) {
        self.spin_us.store(spin.as_micros() as u64, Ordering::Relaxed);
    }

    /// Replays the captured graph of this program's runs, or captures it when an earlier run was all
    /// device work; None when the run is to go step by step. The flag says whether the run was waited
    /// for (the replays whose wall time judges the graph).
    fn run_graph(&self, inputs: &[DTensor]) -> Result<Option<(Vec<DVal>, bool)>, InterpError> {
        use crate::graph::{capture, log, GraphState};
        let Ok(mut g) = self.graph.lock() else { return Ok(None) };
        let upgrades = self.gpu.upgrades.load(Ordering::SeqCst);
        let captured_at = self.graph_upgrades.load(Ordering::SeqCst);
        if matches!(&*g, GraphState::Ready(_)) && captured_at != ALL_FULL && captured_at != upgrades {
            log("kernels upgraded to their fully optimized tier: capturing again");
            *g = GraphState::Learning(2);
        }
        let t0 = std::time::Instant::now();
        let replayed = matches!(&*g, GraphState::Ready(c) if c.matches(inputs));
        let outs = match &*g {
            GraphState::Ready(c) if c.matches(inputs) => {
                let _use = crate::graph::StreamUse::new();
                c.replay(&self.gpu, inputs).map_err(|e| ie(format!("the GPU failed: {e}")))?
            }
            GraphState::Learning(n) if *n >= 2 => {
                // A graph captured while no quickly compiled kernel was loaded holds fully optimized
                // ones only: later upgrades (other programs' kernels) do not concern it.
                let any_quick = self.gpu.quick.lock().map_or(true, |q| !q.is_empty());
                let host0 = self.stats.host_ops.load(Ordering::Relaxed);
                let captured = capture(&self.gpu, inputs, |owned| {
                    let outs = self.run_slots(owned.into_iter().map(DVal::Device).collect()).0.map_err(|e| e.to_string())?;
                    if self.stats.host_ops.load(Ordering::Relaxed) != host0 {
                        return Err(self.stats.host_step_reason());
                    }
                    outs.into_iter().map(|s| s.dev.ok_or_else(|| "a result is not on the device".to_string())).collect()
                });
                match captured {
                    Ok(c) => {
                        log("captured a run");
                        self.graph_upgrades.store(if any_quick { upgrades } else { ALL_FULL }, Ordering::SeqCst);
                        self.stats.graph_captures.fetch_add(1, Ordering::Relaxed);
                        let _use = crate::graph::StreamUse::new();
                        let outs = c.replay(&self.gpu, inputs).map_err(|e| ie(format!("the GPU failed: {e}")))?;
                        *g = GraphState::Ready(Box::new(c));
                        outs
                    }
                    Err(e) => {
                        log(&format!("not captured: {e}"));
                        *g = GraphState::Off;
                        return Ok(None);
                    }
                }
            }
            GraphState::Ready(_) => {
                log("inputs differ from the captured run's: step by step");
                return Ok(None);
            }
            _ => return Ok(None),
        };
        drop(g);
        if replayed {
            self.stats.graph_replays.fetch_add(1, Ordering::Relaxed);
        }
        let judging = replayed && self.graph_timing.lock().is_ok_and(|t| t.judging());
        if judging {
            self.gpu.synchronize().map_err(|e| ie(format!("the GPU failed: {e}")))?;
            let secs = t0.elapsed().as_secs_f64();
            let slower = self.graph_timing.lock().is_ok_and(|mut t| t.replay_is_slower(secs));
            if slower {
                let plain = self.graph_timing.lock().ok().and_then(|t| t.plain).unwrap_or(0.0);
                let best = self.graph_timing.lock().ok().and_then(|t| t.best_replay).unwrap_or(secs);
                log(&format!("dropped: a replay takes {:.2} ms at best, a step-by-step run {:.2} ms", best * 1e3, plain * 1e3));
                if let Ok(mut g) = self.graph.lock() {
                    *g = GraphState::Off;
                }
            }
        }
        Ok(Some((outs.into_iter().map(DVal::Device).collect(), judging)))
    }

    /// Closes the profiler's gate before a step (`OXHLO_PROFILE=gpu`); false when there is none.
    fn gate_close(&self) -> bool {
        let Ok(mut g) = self.gate.lock() else { return false };
        if g.is_none() {
            *g = crate::profile::Gate::new(&self.gpu).map_err(|e| eprintln!("oxhlo-cuda profile: {e}")).ok();
        }
        g.as_mut().is_some_and(|g| g.close(&self.gpu).is_ok())
    }

    fn gate_open(&self) {
        if let Ok(mut g) = self.gate.lock() {
            if let Some(g) = g.as_mut() {
                g.open();
            }
        }
    }

    /// Whether this program's runs replay a captured CUDA graph.
    pub fn graph_captured(&self) -> bool {
        self.graph.lock().is_ok_and(|g| matches!(*g, crate::graph::GraphState::Ready(_)))
    }

    /// A step-by-step run; `wait`: the host waits for the device work before returning.
    fn run_device_plain(&self, inputs: Vec<DVal>, wait: bool) -> Result<Vec<DVal>, InterpError> {
        let (res, checks) = self.run_slots(inputs);
        let outs = res?;
        if let Some(f) = checks.1.first() {
            return Err(ie(format!("{} check(s) failed; first: {f}", checks.1.len())));
        }
        let outs: Vec<DVal> = outs
            .into_iter()
            .map(|s| match s {
                Slot { dev: Some(d), .. } => Ok(DVal::Device(d)),
                Slot { host: Some(h), .. } => Ok(DVal::Host(h)),
                _ => Err(ie("internal error: an empty result".into())),
            })
            .collect::<Result<_, _>>()?;
        if wait {
            self.gpu.synchronize().map_err(|e| ie(format!("the GPU failed: {e}")))?;
        }
        if crate::profile::enabled() {
            self.profile.report();
        }
        Ok(outs)
    }

    /// Runs the entry function and reports (checks evaluated, failures) of `check.*` ops.
    #[allow(clippy::type_complexity)]
    pub fn run_with_checks(&self, inputs: Vec<Val>) -> (Result<Vec<Val>, InterpError>, (usize, Vec<CheckFailure>)) {
        let _use = crate::graph::StreamUse::new();
        let (res, checks) = self.run_slots(inputs.into_iter().map(DVal::Host).collect());
        let res = res.and_then(|outs| outs.into_iter().map(|s| host_of(&self.gpu, s).map_err(ie)).collect::<Result<Vec<_>, _>>());
        (res, checks)
    }

    #[allow(clippy::type_complexity)]
    fn run_slots(&self, inputs: Vec<DVal>) -> (Result<Vec<Slot>, InterpError>, (usize, Vec<CheckFailure>)) {
        let Some(func) = self.module.entry() else {
            return (Err(ie("the module has no @main and no single public function to run".into())), (0, Vec::new()));
        };
        if self.module.num_replicas() * self.module.num_partitions() != 1 {
            return (Err(ie("the CUDA backend runs single-process programs".into())), (0, Vec::new()));
        }
        // Signature checking sees native and device tensors as empty placeholders of their type (no
        // element copy).
        let rt: Vec<RtValue> = inputs.iter().map(light).collect();
        let checked = match oxhlo_interp::eval::check_inputs(func, rt) {
            Ok(c) => c,
            Err(e) => return (Err(e), (0, Vec::new())),
        };
        let args = inputs
            .into_iter()
            .zip(checked)
            .map(|(v, c)| match (v, c) {
                (DVal::Device(d), RtValue::Tensor(t)) => Slot { dev: Some(d.retyped(t.ty)), host: None },
                (DVal::Host(Val::Native(n)), RtValue::Tensor(t)) => Slot { dev: None, host: Some(Val::Native(n.retyped(t.ty))) },
                (_, c) => Slot { dev: None, host: Some(Val::from_rt(c)) },
            })
            .collect();
        let mut run = Run { prog: self, interp: None, depth: 0, epilogue_ran: false };
        let res = run.call(func, args);
        let checks = run.interp.take().map(|it| (it.checks_run, it.check_failures)).unwrap_or_default();
        (res, checks)
    }

    /// Runs a test case (a no-argument entry) for `oxhlo_interp::testing::run_test_source_with`.
    pub fn run_case(&self) -> Result<(usize, Vec<CheckFailure>), String> {
        let (res, checks) = self.run_with_checks(Vec::new());
        res.map_err(|e| e.to_string())?;
        Ok(checks)
    }
}

/// An interpreter value for signature checks only: native and device tensors become empty-data
/// placeholders of their type.
fn light(v: &DVal) -> RtValue {
    use oxhlo_ir::ElementType as E;
    let ty = match v {
        DVal::Host(Val::Native(n)) => &n.ty,
        DVal::Device(d) => &d.ty,
        DVal::Host(Val::Other(o)) => return o.clone(),
    };
    let data = match &ty.elem {
        E::Bool => Data::Bool(Vec::new()),
        E::Float(_) => Data::Float(Vec::new()),
        E::Complex(_) => Data::Complex(Vec::new()),
        e if e.is_unsigned_integer() => Data::UInt(Vec::new()),
        _ => Data::Int(Vec::new()),
    };
    RtValue::Tensor(Tensor { ty: ty.clone(), data })
}

/// The host form of a value (downloaded when it lives only on the device).
fn host_of(gpu: &Gpu, s: Slot) -> Result<Val, String> {
    match s {
        Slot { host: Some(h), .. } => Ok(h),
        Slot { dev: Some(d), .. } => gpu.download(&d).map(Val::Native),
        _ => Err("internal error: an empty value".into()),
    }
}

fn plan_tree(
    gpu: &Gpu,
    func: &Func,
    block: &Block,
    fusion: &FusionOptions,
    plans: &mut HashMap<usize, Vec<PlannedStep>>,
    constants: &mut HashMap<usize, Slot>,
    kernels: &mut Vec<String>,
) -> Result<(), String> {
    for op in &block.ops {
        if matches!(op.kind, OpKind::Constant | OpKind::ChloConstant) {
            if let Some(d) = op.attr("value").and_then(Attr::as_dense) {
                let mut t = Tensor::from_dense(d)?;
                if let Some(Type::Tensor(rt)) = op.results.first().and_then(|v| func.try_ty(*v)) {
                    if rt.is_static() && rt.shape == t.ty.shape {
                        t.ty = rt.clone();
                        t.ty.encoding = None;
                    }
                }
                let host = Val::from_rt(RtValue::Tensor(t));
                let dev = match &host {
                    Val::Native(n) => Some(gpu.upload(n)?),
                    Val::Other(_) => None,
                };
                constants.insert(op as *const Op as usize, Slot { dev, host: Some(host) });
            }
        }
        for r in &op.regions {
            for b in &r.blocks {
                plan_tree(gpu, func, b, fusion, plans, constants, kernels)?;
            }
        }
    }
    let (planned, copies) = plan_block(func, block, fusion);
    crate::kernels::step_kernels(func, block, planned.iter().map(|p| &p.step), &copies, kernels);
    plans.insert(block_key(block), planned);
    Ok(())
}

struct Run<'p> {
    prog: &'p CudaProgram,
    interp: Option<Interpreter<'p>>,
    depth: usize,
    /// The step just run was a finishing pass that ran the next step too ([`Epilogue`]).
    epilogue_ran: bool,
}

struct Frame<'f> {
    func: &'f Func,
    env: Vec<Option<Slot>>,
}

impl Frame<'_> {
    fn get(&mut self, v: Value, take: bool) -> Result<Slot, String> {
        let slot = self.env.get_mut(v.0 as usize).ok_or_else(|| format!("value %{} is out of range", v.0))?;
        let x = if take { slot.take() } else { slot.clone() };
        x.ok_or_else(|| format!("value %{} has no value (used before it is defined)", v.0))
    }
    fn set(&mut self, v: Value, x: Slot) -> Result<(), String> {
        let slot = self.env.get_mut(v.0 as usize).ok_or_else(|| format!("value %{} is out of range", v.0))?;
        *slot = Some(x);
        Ok(())
    }
}

impl<'p> Run<'p> {
    fn host_of(&self, s: Slot) -> Result<Val, String> {
        host_of(&self.prog.gpu, s)
    }

    /// The host form of `v`, kept in the frame when the value lives on.
    fn host(&self, frame: &mut Frame, v: Value, take: bool) -> Result<Val, String> {
        let s = frame.get(v, take)?;
        if s.host.is_none() && !take {
            let h = self.host_of(s.clone())?;
            frame.set(v, Slot { dev: s.dev, host: Some(h.clone()) })?;
            return Ok(h);
        }
        self.host_of(s)
    }

    /// The device form of `v` (None when it has no device layout), kept in the frame when it lives on.
    fn dev(&self, frame: &mut Frame, v: Value, take: bool) -> Result<Option<DTensor>, String> {
        let s = frame.get(v, take)?;
        if let Some(d) = s.dev {
            return Ok(Some(d));
        }
        let Some(Val::Native(n)) = &s.host else { return Ok(None) };
        let d = self.prog.gpu.upload(n)?;
        if !take {
            frame.set(v, Slot { dev: Some(d.clone()), host: s.host })?;
        }
        Ok(Some(d))
    }

    /// The device forms of `vals` (None when one has no device layout), kept in the frame.
    fn devs(&self, frame: &mut Frame, vals: &[Value]) -> Result<Option<Vec<DTensor>>, String> {
        let mut out = Vec::with_capacity(vals.len());
        for &v in vals {
            match self.dev(frame, v, false)? {
                Some(d) => out.push(d),
                None => return Ok(None),
            }
        }
        Ok(Some(out))
    }

    fn call(&mut self, func: &'p Func, args: Vec<Slot>) -> Result<Vec<Slot>, InterpError> {
        let body = func.body.entry().ok_or_else(|| ie(format!("@{} is a declaration without a body", func.name)))?;
        if self.depth >= MAX_DEPTH {
            return Err(ie(format!("call depth limit ({MAX_DEPTH}) exceeded calling @{}", func.name)));
        }
        self.depth += 1;
        let mut frame = Frame { func, env: vec![None; func.values.len()] };
        let res = self.run_block(&mut frame, body, args);
        self.depth -= 1;
        res
    }

    fn run_region(&mut self, frame: &mut Frame<'p>, region: &'p Region, args: Vec<Slot>) -> Result<Vec<Slot>, InterpError> {
        let block = region.entry().ok_or_else(|| ie("region has no block".into()))?;
        if self.depth >= MAX_DEPTH {
            return Err(ie(format!("region nesting limit ({MAX_DEPTH}) exceeded")));
        }
        self.depth += 1;
        let res = self.run_block(frame, block, args);
        self.depth -= 1;
        res
    }

    fn run_block(&mut self, frame: &mut Frame<'p>, block: &'p Block, args: Vec<Slot>) -> Result<Vec<Slot>, InterpError> {
        let plan = self.prog.plans.get(&block_key(block)).ok_or_else(|| ie("internal error: a block without a plan".into()))?;
        if args.len() != block.args.len() {
            return Err(ie(format!("block takes {} arguments, got {}", block.args.len(), args.len())));
        }
        for (&v, x) in block.args.iter().zip(args) {
            frame.set(v, x).map_err(ie)?;
        }
        let profiling = crate::profile::enabled();
        for ps in plan {
            // An epilogue the finishing pass before it already ran: its values are set.
            if std::mem::take(&mut self.epilogue_ran) && ps.after_epilogue {
                for v in &ps.free_after {
                    if let Some(s) = frame.env.get_mut(v.0 as usize) {
                        *s = None;
                    }
                }
                continue;
            }
            let started = profiling.then(|| (std::time::Instant::now(), self.prog.stats.host_ops.load(Ordering::Relaxed)));
            // OXHLO_PROFILE=gpu: the step (a return enqueues nothing) waits behind the gate between two events.
            let gpu_events = profiling && crate::profile::gpu_events();
            let is_return = matches!(&ps.step, Step::Op(i) if matches!(block.ops[*i].kind, OpKind::Return | OpKind::FuncReturn));
            let timing = Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT);
            let gated = gpu_events && !is_return && self.prog.gate_close();
            let ev0 = if gpu_events && !is_return { self.prog.gpu.stream.record_event(timing).ok() } else { None };
            match &ps.step {
                Step::Op(i) => {
                    let op = &block.ops[*i];
                    if matches!(op.kind, OpKind::Return | OpKind::FuncReturn) {
                        // The block's own values it returns for the last time move out (a loop's next
                        // state then holds the only reference: updates in place stay possible).
                        let outs = op.operands.iter().zip(&ps.take).map(|(&v, &t)| frame.get(v, t)).collect::<Result<Vec<_>, _>>();
                        return outs.map_err(|m| op_error(op, m));
                    }
                    let fused = match &ps.gemm_epilogue {
                        Some(ge) => self.gemm_with_epilogue(frame, op, ge).map_err(|m| op_error(op, m))?.map(|s| (ge.result, s)),
                        None => None,
                    };
                    if let Some((copy, src)) = &ps.view_copy {
                        let slot = self.run_view_copy(frame, copy, src).map_err(|m| op_error(op, m))?;
                        frame.set(copy.result, slot).map_err(|m| op_error(op, m))?;
                    } else if let Some((v, slot)) = fused {
                        // The next step's value, computed here: that step is skipped.
                        frame.set(v, slot).map_err(|m| op_error(op, m))?;
                        self.epilogue_ran = true;
                    } else {
                        let results = self.exec_op(frame, block, op, ps)?;
                        if results.len() != op.results.len() {
                            return Err(op_error(op, format!("produced {} results, the op declares {}", results.len(), op.results.len())));
                        }
                        for (&v, r) in op.results.iter().zip(results) {
                            frame.set(v, r).map_err(|m| op_error(op, m))?;
                        }
                    }
                }
                Step::Kernel(k) => {
                    let first = &block.ops[k.ops[0]];
                    let outs = self.exec_kernel(frame, block, k, ps).map_err(|m| op_error(first, m))?;
                    for (&v, s) in k.outputs.iter().zip(outs) {
                        frame.set(v, s).map_err(ie)?;
                    }
                }
            }
            for v in &ps.free_after {
                if let Some(s) = frame.env.get_mut(v.0 as usize) {
                    *s = None;
                }
            }
            if let Some((t0, host0)) = started {
                // Each step is timed to completion (GPU work included); control flow steps include their
                // regions' steps, which are also counted on their own.
                if !crate::profile::host_side_only() && !gpu_events {
                    let _ = self.prog.gpu.synchronize();
                }
                let on_host = self.prog.stats.host_ops.load(Ordering::Relaxed) > host0;
                let label = match &ps.step {
                    Step::Op(i) => crate::profile::op_label(frame.func, &block.ops[*i], on_host),
                    Step::Kernel(k) => crate::profile::kernel_label(block, k, on_host),
                };
                let bytes = crate::profile::step_bytes(frame.func, block, &ps.step);
                let ev1 = if ev0.is_some() { self.prog.gpu.stream.record_event(timing).ok() } else { None };
                if gated {
                    self.prog.gate_open();
                }
                match ev0.zip(ev1) {
                    Some((a, b)) => self.prog.profile.record_events(label, bytes, a, b),
                    None if gpu_events => {}
                    None => self.prog.profile.record(label, bytes, t0.elapsed()),
                }
            }
        }
        Err(ie("block ends without a terminator (return)".into()))
    }

    /// A chain of view ops or a concatenation of such chains as one copy ([`crate::view_copy`]).
    fn run_view_copy(&self, frame: &mut Frame, copy: &PlannedCopy, src: &Kernel) -> Result<Slot, String> {
        let Some(Type::Tensor(rt)) = frame.func.try_ty(copy.result) else { return Err("internal error: a view copy's result is not a tensor".into()) };
        let srcs: Vec<Value> = copy.pieces.iter().map(|p| p.src).collect();
        let Some(ins) = self.devs(frame, &srcs)? else { return Err("internal error: a view copy's source is not on the device".into()) };
        let t = crate::view_copy::run(&self.prog.gpu, src, copy.items, &ins, rt)?;
        self.prog.stats.device_kernels.fetch_add(1, Ordering::Relaxed);
        Ok(Slot { dev: Some(t), host: None })
    }

    /// Launches a rendered kernel when every input can live on the device.
    fn try_device_kernel(&self, frame: &mut Frame, ps: &PlannedStep, outputs: &[Value]) -> Result<Option<Vec<Slot>>, String> {
        let Some((src, inputs)) = &ps.kernel else { return Ok(None) };
        let Some(devs) = self.devs(frame, inputs)? else { return Ok(None) };
        let gpu = &self.prog.gpu;
        let mut n = 0usize;
        let mut outs = Vec::new();
        let mut meta = Vec::new();
        for &v in outputs {
            let Some(Type::Tensor(t)) = frame.func.try_ty(v) else { return Ok(None) };
            let Some((kind, _)) = render::kind_of(frame.func, v) else { return Ok(None) };
            n = t.num_elements().unwrap_or(0);
            outs.push(gpu.alloc_raw(kind, n)?);
            meta.push((t.clone(), kind));
        }
        let ins: Vec<_> = devs.iter().map(|d| &**d.buf).collect();
        gpu.launch(src, n, &ins, &mut outs)?;
        self.prog.stats.device_kernels.fetch_add(1, Ordering::Relaxed);
        Ok(Some(
            outs.into_iter().zip(meta).map(|(b, (t, k))| Slot { dev: Some(Gpu::wrap(t, k, n, b)), host: None }).collect(),
        ))
    }

    fn exec_kernel(&mut self, frame: &mut Frame<'p>, block: &'p Block, k: &oxhlo_plan::fusion::FusedKernel, ps: &PlannedStep) -> Result<Vec<Slot>, String> {
        if let (Some((src, launch)), Some(view)) = (&ps.row_kernel, &k.rows) {
            return self.run_row_kernel(frame, k, src, *launch, view.rows as i64);
        }
        if let Some(outs) = self.try_device_kernel(frame, ps, &k.outputs)? {
            return Ok(outs);
        }
        if let Some((outs, epilogue_ran)) = self.try_device_fused_reduce(frame, block, k, ps)? {
            self.epilogue_ran = epilogue_ran;
            return Ok(outs);
        }
        let vals = k.inputs.iter().map(|&v| self.host(frame, v, false)).collect::<Result<Vec<_>, _>>()?;
        let natives: Vec<&NTensor> = vals.iter().filter_map(Val::native).collect();
        if natives.len() != vals.len() {
            return Err("internal error: a fused kernel got a non-native input".into());
        }
        self.prog.stats.ran_on_host(|| format!("a fused kernel of {} ops, {:?}", k.ops.len(), k.shape));
        let outs = kernels::fused::run_kernel(k, frame.func, block, &natives, self.prog.threads)?;
        Ok(outs.into_iter().map(|t| Slot { dev: None, host: Some(Val::Native(t)) }).collect())
    }

    /// A row kernel: one launch, every input on the device (uploaded when on the host), each output
    /// allocated for its own type (full-shape values and per-row values).
    fn run_row_kernel(&self, frame: &mut Frame, k: &oxhlo_plan::fusion::FusedKernel, src: &Kernel, launch: crate::rows::RowLaunch, rows: i64) -> Result<Vec<Slot>, String> {
        let devs = self.devs(frame, &k.inputs)?.ok_or("internal error: a row kernel input has no device form")?;
        let gpu = &self.prog.gpu;
        let mut outs = Vec::new();
        let mut meta = Vec::new();
        for &v in &k.outputs {
            let Some(Type::Tensor(t)) = frame.func.try_ty(v) else { return Err("internal error: a row kernel output is not a tensor".into()) };
            let (kind, _) = render::kind_of(frame.func, v).ok_or("internal error: a row kernel output of no native kind")?;
            let n = t.num_elements().unwrap_or(0);
            outs.push(gpu.alloc_raw(kind, n)?);
            meta.push((t.clone(), kind, n));
        }
        let ins: Vec<_> = devs.iter().map(|d| &**d.buf).collect();
        gpu.launch_rows(src, rows, launch, &ins, &mut outs)?;
        self.prog.stats.device_kernels.fetch_add(1, Ordering::Relaxed);
        Ok(outs.into_iter().zip(meta).map(|(b, (t, kd, n))| Slot { dev: Some(Gpu::wrap(t, kd, n, b)), host: None }).collect())
    }

    /// A fused kernel with reduction epilogues on the device: one pass computing the elementwise ops and
    /// reducing as it goes, plus passes over partial results when the reductions are split (one series
    /// per reduction; several sums finished by one pass share its launch,
    /// [`reduce::render_finish_multi`]).
    ///
    /// With an epilogue ([`crate::finish_epilogue`]) whose other inputs are on the device, the finishing
    /// pass runs it and its results are set in `frame`; the flag says so.
    fn try_device_fused_reduce(&self, frame: &mut Frame, block: &Block, k: &oxhlo_plan::fusion::FusedKernel, ps: &PlannedStep) -> Result<Option<(Vec<Slot>, bool)>, String> {
        let (Some(first_pass), Some(e0)) = (&ps.fused_reduce, k.reduce.first()) else { return Ok(None) };
        let Some(devs) = self.devs(frame, &k.inputs)? else { return Ok(None) };
        let gpu = &self.prog.gpu;
        let n: usize = k.shape.iter().product::<i64>().max(0) as usize;
        let m = k.reduce.len();
        let mut outs = Vec::new();
        let mut meta = Vec::new();
        for &v in &k.outputs[..k.outputs.len() - m] {
            let Some(Type::Tensor(t)) = frame.func.try_ty(v) else { return Ok(None) };
            let Some((kind, _)) = render::kind_of(frame.func, v) else { return Ok(None) };
            outs.push(gpu.alloc_raw(kind, n)?);
            meta.push((t.clone(), kind, n));
        }
        let (outer, red, inner) = (e0.outer as i64, e0.n as i64, e0.inner as i64);
        let n_res = e0.outer * e0.inner;
        let launches = reduce::fused_launches(outer, red, inner, m, reduce::is_plain(k), gpu.info.sm_count);
        let first = launches[0];
        let ins: Vec<_> = devs.iter().map(|d| &**d.buf).collect();
        for _ in 0..m {
            outs.push(if first.pass.to_partials { gpu.alloc_bytes(n_res * first.parts as usize * 8)? } else { gpu.alloc_raw(oxhlo_cpu::Kind::F32, n_res)? });
        }
        reduce::launch(gpu, first_pass, &first, &ins, &mut outs)?;
        let firsts = outs.split_off(outs.len() - m);
        let mut slots: Vec<Slot> = outs.into_iter().zip(meta).map(|(b, (t, kd, n))| Slot { dev: Some(Gpu::wrap(t, kd, n, b)), host: None }).collect();
        let init_of = |e: &oxhlo_plan::fusion::ReduceEpilogue| k.inputs.iter().position(|&v| v == e.init).map(|j| devs[j].clone()).ok_or("internal error: the init value is not a kernel input");
        if let Some(ep) = ps.epilogue.as_ref().filter(|_| first.pass.to_partials && launches.len() == 2) {
            if let Some(done) = self.finish_with_epilogue(frame, &block.ops[e0.op], k, ep, &launches[1], &firsts, &init_of)? {
                slots.extend(done);
                self.prog.stats.device_kernels.fetch_add(1, Ordering::Relaxed);
                self.prog.stats.finish_epilogues.fetch_add(1, Ordering::Relaxed);
                return Ok(Some((slots, true)));
            }
        }
        // Several sums finished by one pass over their partials: one launch for all of them.
        let finish_all = reduce::shared_finish(&launches, m).and_then(|fin| self.prog.memo.get(&block.ops[e0.op], FINISH_MULTI_TAG, || reduce::render_finish_multi(e0.kind, m)).map(|src| (src, fin)));
        let results: Vec<crate::device::DBuf> = if let Some((src, fin)) = finish_all {
            let inits = k.reduce.iter().map(init_of).collect::<Result<Vec<_>, _>>()?;
            let mut ins: Vec<&cudarc::driver::CudaSlice<u8>> = firsts.iter().map(|b| &**b).collect();
            ins.extend(inits.iter().map(|t| &**t.buf));
            let mut rs = (0..m).map(|_| gpu.alloc_raw(oxhlo_cpu::Kind::F32, n_res)).collect::<Result<Vec<_>, _>>()?;
            reduce::launch_finish_multi(gpu, &src, &fin, m, &ins, &mut rs)?;
            rs
        } else {
            let mut rs = Vec::with_capacity(m);
            for (e, result) in k.reduce.iter().zip(firsts) {
                if first.pass.to_partials {
                    let mut r = [gpu.alloc_raw(oxhlo_cpu::Kind::F32, n_res)?];
                    reduce::run_launches(gpu, &self.prog.memo, &block.ops[e.op], oxhlo_cpu::Kind::F32, e.kind, &launches[1..], &result, &init_of(e)?, &mut r)?;
                    let [r] = r;
                    rs.push(r);
                } else {
                    rs.push(result);
                }
            }
            rs
        };
        slots.extend(reduction_slots(frame.func, k, results, n_res)?);
        self.prog.stats.device_kernels.fetch_add(1, Ordering::Relaxed);
        Ok(Some((slots, false)))
    }

    /// The finishing pass `fin` of `k`'s reductions (partials `firsts`; `op` the first reduce) with
    /// epilogue `ep`: sets the
    /// epilogue's outputs in `frame` and returns the reductions' result slots; None (nothing launched)
    /// when an input of the epilogue is not on the device.
    #[allow(clippy::too_many_arguments)]
    fn finish_with_epilogue(
        &self,
        frame: &mut Frame,
        op: &Op,
        k: &oxhlo_plan::fusion::FusedKernel,
        ep: &Epilogue,
        fin: &reduce::Launch,
        firsts: &[crate::device::DBuf],
        init_of: &dyn Fn(&oxhlo_plan::fusion::ReduceEpilogue) -> Result<DTensor, &'static str>,
    ) -> Result<Option<Vec<Slot>>, String> {
        let gpu = &self.prog.gpu;
        let results: Vec<Value> = k.reduce.iter().map(|e| e.result).collect();
        let others: Vec<Value> = ep.kernel.inputs.iter().copied().filter(|v| !results.contains(v)).collect();
        let Some(other_devs) = self.devs(frame, &others)? else { return Ok(None) };
        let counter = self.prog.memo.counter(gpu, op, EPILOGUE_TAG, 1)?;
        let inits = k.reduce.iter().map(init_of).collect::<Result<Vec<_>, _>>()?;
        let m = k.reduce.len();
        let n_res = (fin.outer * fin.inner) as usize;
        let mut ins: Vec<&cudarc::driver::CudaSlice<u8>> = firsts.iter().map(|b| &**b).collect();
        ins.extend(inits.iter().map(|t| &**t.buf));
        ins.extend(other_devs.iter().map(|t| &**t.buf));
        ins.push(&counter.buf);
        let mut outs = (0..m).map(|_| gpu.alloc_raw(oxhlo_cpu::Kind::F32, n_res)).collect::<Result<Vec<_>, _>>()?;
        let mut meta = Vec::new();
        for &v in &ep.kernel.outputs {
            let Some(Type::Tensor(t)) = frame.func.try_ty(v) else { return Ok(None) };
            let Some((kind, _)) = render::kind_of(frame.func, v) else { return Ok(None) };
            outs.push(gpu.alloc_raw(kind, n_res)?);
            meta.push((t.clone(), kind));
        }
        reduce::launch_finish_multi(gpu, &ep.src, fin, m, &ins, &mut outs)?;
        let epi_outs = outs.split_off(m);
        for ((&v, b), (t, kind)) in ep.kernel.outputs.iter().zip(epi_outs).zip(meta) {
            frame.set(v, Slot { dev: Some(Gpu::wrap(t, kind, n_res, b)), host: None })?;
        }
        reduction_slots(frame.func, k, outs, n_res).map(Some)
    }

    fn exec_op(&mut self, frame: &mut Frame<'p>, block: &'p Block, op: &'p Op, ps: &PlannedStep) -> Result<Vec<Slot>, InterpError> {
        let err = |m: String| op_error(op, m);
        let slots = |run: &Self, frame: &mut Frame| -> Result<Vec<Slot>, InterpError> {
            let _ = run;
            op.operands.iter().zip(&ps.take).map(|(&v, &t)| frame.get(v, t)).collect::<Result<Vec<_>, _>>().map_err(err)
        };
        match op.kind {
            OpKind::Constant | OpKind::ChloConstant => {
                if let Some(c) = self.prog.constants.get(&(op as *const Op as usize)) {
                    return Ok(vec![c.clone()]);
                }
            }
            OpKind::While => {
                let (cond, body) = match op.regions.as_slice() {
                    [c, b] => (c, b),
                    _ => return Err(err("while needs a cond and a body region".into())),
                };
                let mut state = slots(self, frame)?;
                if let Some(&n) = self.prog.trips.get(&(op as *const Op as usize)) {
                    for _ in 0..n {
                        state = self.run_region(frame, body, state)?;
                    }
                    return Ok(state);
                }
                loop {
                    let c = self.run_region(frame, cond, state.clone())?;
                    let go = self.scalar(c.into_iter().next()).map_err(err)? != 0;
                    if !go {
                        return Ok(state);
                    }
                    state = self.run_region(frame, body, state)?;
                }
            }
            OpKind::If | OpKind::Case => {
                let args = slots(self, frame)?;
                let n = op.regions.len();
                let x = self.scalar(args.into_iter().next()).map_err(err)?;
                let i = if op.kind == OpKind::If {
                    if x != 0 { 0 } else { 1 }
                } else if x < 0 || x >= n as i64 {
                    n.saturating_sub(1)
                } else {
                    x as usize
                };
                let r = op.regions.get(i).ok_or_else(|| err("missing branch region".into()))?;
                return self.run_region(frame, r, Vec::new());
            }
            OpKind::Call | OpKind::Composite => {
                let attr = if op.kind == OpKind::Call { "callee" } else { "decomposition" };
                if let Some(Attr::SymbolRef(name) | Attr::Str(name)) = op.attr(attr) {
                    if let Some(callee) = self.prog.module.func(name.trim_start_matches('@')) {
                        if callee.ty.inputs.len() == op.operands.len() {
                            let args = slots(self, frame)?;
                            return self.call(callee, args);
                        }
                    }
                }
            }
            OpKind::OptimizationBarrier => return slots(self, frame),
            OpKind::Reshape => {
                if let Some(Type::Tensor(rt)) = op.results.first().map(|v| frame.func.ty(*v)) {
                    let s = frame.get(op.operands[0], false).map_err(err)?;
                    let n = s.dev.as_ref().map(|d| d.len).or_else(|| match &s.host {
                        Some(Val::Native(h)) => Some(h.len()),
                        _ => None,
                    });
                    if rt.is_static() && n.is_some() && rt.num_elements() == n {
                        let host = match s.host {
                            Some(Val::Native(h)) => Some(Val::Native(h.retyped(rt.clone()))),
                            _ => None,
                        };
                        return Ok(vec![Slot { dev: s.dev.map(|d| d.retyped(rt.clone())), host }]);
                    }
                }
            }
            // Between element types of one width the bits are the same bytes: the buffer, retyped (the
            // reference interpreter would copy it to the host and back).
            OpKind::BitcastConvert => {
                let kinds = (crate::render::kind_of(frame.func, op.operands[0]), crate::render::kind_of(frame.func, op.results[0]));
                if let ((Some((ak, ashape)), Some((rk, rshape))), Some(Type::Tensor(rt))) = (kinds, frame.func.try_ty(op.results[0])) {
                    if ak != oxhlo_cpu::Kind::Bool && rk != oxhlo_cpu::Kind::Bool && ak.size() == rk.size() && ashape == rshape && rt.is_static() {
                        if let Some(d) = frame.get(op.operands[0], false).map_err(err)?.dev {
                            return Ok(vec![Slot { dev: Some(DTensor { ty: rt.clone(), kind: rk, ..d }), host: None }]);
                        }
                    }
                }
            }
            OpKind::Slice | OpKind::Reverse | OpKind::Concatenate | OpKind::Pad | OpKind::Iota | OpKind::Gather | OpKind::Scatter => {
                if let Some(r) = self.try_device_movement(frame, op, ps.take.first() == Some(&true)).map_err(err)? {
                    return Ok(vec![r]);
                }
            }
            OpKind::Reduce if crate::variadic_reduce::takes(frame.func, op) => {
                if let Some(r) = self.try_device_variadic_reduce(frame, op).map_err(err)? {
                    return Ok(r);
                }
            }
            OpKind::Dot | OpKind::DotGeneral | OpKind::Transpose | OpKind::Reduce | OpKind::Convolution => {
                if let Some(r) = self.try_device_library(frame, op).map_err(err)? {
                    return Ok(vec![r]);
                }
            }
            OpKind::Sort | OpKind::ChloTopK => {
                if let Some(r) = self.try_device_sort(frame, op).map_err(err)? {
                    return Ok(r);
                }
            }
            OpKind::Cholesky | OpKind::TriangularSolve => {
                let runs = crate::linalg::runs_on_device(&self.prog.memo, frame.func, op);
                if let Some(r) = self.try_device_results(frame, op, runs, crate::linalg::try_run).map_err(err)? {
                    return Ok(r);
                }
            }
            OpKind::Fft => {
                let runs = crate::fft::runs_on_device(&self.prog.memo, frame.func, op);
                if let Some(r) = self.try_device_results(frame, op, runs, crate::fft::try_run).map_err(err)? {
                    return Ok(r);
                }
            }
            OpKind::ReduceWindow | OpKind::SelectAndScatter | OpKind::DynamicSlice | OpKind::DynamicUpdateSlice | OpKind::ReducePrecision => {
                if op.kind == OpKind::DynamicUpdateSlice && ps.take.first() == Some(&true) {
                    if let Some(r) = self.try_update_in_place(frame, op).map_err(err)? {
                        return Ok(vec![r]);
                    }
                }
                let runs = crate::item_ops::runs_on_device(&self.prog.memo, frame.func, op);
                if let Some(r) = self.try_device_results(frame, op, runs, crate::item_ops::try_run).map_err(err)? {
                    return Ok(r);
                }
            }
            _ => {}
        }
        if ps.kernel.is_some() {
            if let Some(outs) = self.try_device_kernel(frame, ps, &op.results).map_err(err)? {
                return Ok(outs);
            }
        }
        self.host_op(frame, block, op, ps)
    }

    /// Slice, reverse, concatenate, pad, iota, gather and scatter-add as index kernels when every operand
    /// can live on the device.
    /// A scatter whose operand dies here (`operand_dies`) and is held by nothing else updates it in place.
    fn try_device_movement(&mut self, frame: &mut Frame<'p>, op: &'p Op, operand_dies: bool) -> Result<Option<Slot>, String> {
        let Some(Type::Tensor(rt)) = op.results.first().and_then(|v| frame.func.try_ty(*v)) else { return Ok(None) };
        // Decide from types alone before any operand is uploaded.
        let Some(kind) = oxhlo_cpu::Kind::of(&rt.elem) else { return Ok(None) };
        let mut shapes = Vec::with_capacity(op.operands.len());
        for &v in &op.operands {
            match render::kind_of(frame.func, v) {
                Some((k, s)) => shapes.push((s, k)),
                _ => return Ok(None),
            }
        }
        let gs = matches!(op.kind, OpKind::Gather | OpKind::Scatter);
        let renders = if gs {
            let refs: Vec<(&[i64], oxhlo_cpu::Kind)> = shapes.iter().map(|(s, k)| (s.as_slice(), *k)).collect();
            crate::gather_scatter::render_op(frame.func, op, &refs, &rt.shape).is_some()
        } else {
            let refs: Vec<&[i64]> = shapes.iter().map(|(s, _)| s.as_slice()).collect();
            shapes.iter().all(|(_, k)| *k == kind) && crate::movement::render_op(op, &refs, &rt.shape, kind).is_some()
        };
        if !rt.is_static() || !renders {
            return Ok(None);
        }
        let Some(ins) = self.devs(frame, &op.operands)? else { return Ok(None) };
        let r = if gs {
            let Some((src, last)) = crate::gather_scatter::kernel(&self.prog.memo, frame.func, op, &ins, rt) else { return Ok(None) };
            if op.kind == OpKind::Scatter && operand_dies {
                // The frame's reference goes: `ins` then holds the operand's only one when nothing else does.
                frame.get(op.operands[0], true)?;
            }
            if op.kind == OpKind::Scatter && Arc::strong_count(&ins[0].buf) == 1 {
                self.prog.stats.in_place_updates.fetch_add(1, Ordering::Relaxed);
            }
            Some(crate::gather_scatter::run(&self.prog.gpu, (&src, last.as_deref()), op, ins, rt))
        } else {
            crate::movement::try_movement(&self.prog.gpu, &self.prog.memo, op, &ins, rt)
        };
        match r {
            Some(r) => {
                self.prog.stats.device_kernels.fetch_add(1, Ordering::Relaxed);
                Ok(Some(Slot { dev: Some(r?), host: None }))
            }
            None => Ok(None),
        }
    }

    /// A sort or top_k (`sort.rs`) whose comparator renders, when every operand can live on the device.
    fn try_device_sort(&mut self, frame: &mut Frame<'p>, op: &'p Op) -> Result<Option<Vec<Slot>>, String> {
        let runs = crate::sort::runs_on_device(&self.prog.memo, frame.func, op);
        self.try_device_results(frame, op, runs, crate::sort::try_sort)
    }

    /// A reduction of several inputs (argmax, argmin) whose reducer renders (`variadic_reduce.rs`),
    /// when every operand can live on the device.
    fn try_device_variadic_reduce(&mut self, frame: &mut Frame<'p>, op: &'p Op) -> Result<Option<Vec<Slot>>, String> {
        if !crate::variadic_reduce::runs_on_device(&self.prog.memo, frame.func, op) {
            return Ok(None);
        }
        // Inputs computed as coordinates (iotas, which may never have run) are passed as another input.
        let passed = self.prog.memo.plan(op, PASSED_TAG, || crate::variadic_reduce::passed_operands(frame.func, op));
        self.try_device_results_of(frame, op, &passed, true, crate::variadic_reduce::try_reduce)
    }

    /// Runs `op` by `run` on its operands on the device when `runs` (decided from types alone, before
    /// any operand is uploaded): its results, or None for the host.
    fn try_device_results(&mut self, frame: &mut Frame<'p>, op: &'p Op, runs: bool, run: DeviceRun) -> Result<Option<Vec<Slot>>, String> {
        self.try_device_results_of(frame, op, &op.operands, runs, run)
    }

    /// [`Run::try_device_results`] on the device values of `operands` (what `run` is passed in place of
    /// `op`'s own operands).
    fn try_device_results_of(&mut self, frame: &mut Frame<'p>, op: &'p Op, operands: &[Value], runs: bool, run: DeviceRun) -> Result<Option<Vec<Slot>>, String> {
        if !runs {
            return Ok(None);
        }
        let Some(ins) = self.devs(frame, operands)? else { return Ok(None) };
        match run(&self.prog.gpu, &self.prog.memo, frame.func, op, &ins) {
            Some(r) => {
                self.prog.stats.device_kernels.fetch_add(1, Ordering::Relaxed);
                Ok(Some(r?.into_iter().map(|d| Slot { dev: Some(d), host: None }).collect()))
            }
            None => Ok(None),
        }
    }

    /// A dynamic_update_slice whose operand dies here and is held by nothing else (its buffer's only
    /// reference is this frame's): the update written into that buffer ([`crate::dynamic::render_in_place`]),
    /// which becomes the result. None (the operand left in place) otherwise.
    fn try_update_in_place(&mut self, frame: &mut Frame<'p>, op: &'p Op) -> Result<Option<Slot>, String> {
        let v = op.operands[0];
        let unique = matches!(frame.env.get(v.0 as usize), Some(Some(Slot { dev: Some(d), .. })) if Arc::strong_count(&d.buf) == 1);
        if !unique {
            return Ok(None);
        }
        let Some(src) = self.prog.memo.get_with_items(op, crate::dynamic::IN_PLACE_TAG, || crate::dynamic::render_in_place(frame.func, op)) else { return Ok(None) };
        let Some(rest) = self.devs(frame, &op.operands[1..])? else { return Ok(None) };
        let Some(d) = frame.get(v, true)?.dev else { return Err("internal error: the operand left the device".into()) };
        let ty = d.ty.clone();
        let (kind, len) = (d.kind, d.len);
        let buf = Arc::try_unwrap(d.buf).map_err(|_| "internal error: the operand's buffer was shared".to_string())?;
        let mut outs = [buf];
        let n = src.items.unwrap_or(0);
        if n > 0 {
            let ins: Vec<_> = rest.iter().map(|t| &**t.buf).collect();
            self.prog.gpu.launch_scalar(&src, n, &ins, &mut outs)?;
        }
        self.prog.stats.device_kernels.fetch_add(1, Ordering::Relaxed);
        self.prog.stats.in_place_updates.fetch_add(1, Ordering::Relaxed);
        let [buf] = outs;
        Ok(Some(Slot { dev: Some(Gpu::wrap(ty, kind, len, buf)), host: None }))
    }

    /// A dot and the GELU or residual add after it as one cuBLASLt call (`gemm_epilogue`): the value
    /// of the add or GELU, or None when it does not run so (then the dot and the next step run apart).
    fn gemm_with_epilogue(&self, frame: &mut Frame<'p>, op: &'p Op, ge: &crate::gemm_epilogue::GemmEpilogue) -> Result<Option<Slot>, String> {
        let Some(Type::Tensor(rt)) = op.results.first().and_then(|v| frame.func.try_ty(*v)) else { return Ok(None) };
        let (Some(a), Some(b)) = (self.dev(frame, op.operands[0], false)?, self.dev(frame, op.operands[1], false)?) else { return Ok(None) };
        let add = match ge.epilogue {
            crate::gemm_epilogue::Epilogue::GeluTanh => None,
            crate::gemm_epilogue::Epilogue::Residual(r) => match self.dev(frame, r, false)? {
                Some(t) => Some(t),
                None => return Ok(None),
            },
        };
        match dot::try_dot_epilogue(&self.prog.gpu, &self.prog.memo, op, &a, &b, rt, self.prog.tf32, add.as_ref()) {
            Some(Ok(t)) => {
                self.prog.stats.device_gemms.fetch_add(1, Ordering::Relaxed);
                Ok(Some(Slot { dev: Some(t), host: None }))
            }
            Some(Err(e)) => {
                crate::gemm_epilogue::log_failure(&e);
                Ok(None)
            }
            None => Ok(None),
        }
    }

    /// dot_general on cuBLAS, transpose as a permute kernel.
    fn try_device_library(&mut self, frame: &mut Frame<'p>, op: &'p Op) -> Result<Option<Slot>, String> {
        let Some(Type::Tensor(rt)) = op.results.first().and_then(|v| frame.func.try_ty(*v)) else { return Ok(None) };
        // Kernels rendered for an op are kept per op (`Memo`): only ops whose operand and result types are
        // static, so that every run sees the same shapes.
        if !rt.is_static() || op.operands.iter().any(|&v| render::kind_of(frame.func, v).is_none()) {
            return Ok(None);
        }
        let gpu = self.prog.gpu.clone();
        if op.kind == OpKind::Transpose {
            let Some(perm) = op.attr("permutation").and_then(Attr::as_i64_list) else { return Ok(None) };
            let Some(x) = self.dev(frame, op.operands[0], false)? else { return Ok(None) };
            let perm: Vec<usize> = perm.iter().map(|&p| p.max(0) as usize).collect();
            if perm.len() != x.ty.shape.len() || perm.iter().any(|&p| p >= perm.len()) {
                return Ok(None);
            }
            let t = dot::permute(&gpu, &self.prog.memo, op, 0, &x, &perm)?;
            self.prog.stats.device_kernels.fetch_add(1, Ordering::Relaxed);
            return Ok(Some(Slot { dev: Some(t.retyped(rt.clone())), host: None }));
        }
        if op.kind == OpKind::Reduce {
            if op.operands.len() != 2 || !matches!(render::kind_of(frame.func, op.operands[0]), Some((k, _)) if crate::render::storage_type(k).is_some()) {
                return Ok(None);
            }
            if op.regions.first().and_then(|r| oxhlo_plan::reducer::reducer_kind(frame.func, r)).is_none() {
                return Ok(None);
            }
        }
        let (Some(a), Some(b)) = (self.dev(frame, op.operands[0], false)?, self.dev(frame, op.operands[1], false)?) else {
            return Ok(None);
        };
        if op.kind == OpKind::Reduce {
            return match reduce::try_reduce(&gpu, &self.prog.memo, frame.func, op, &a, &b, rt) {
                Some(r) => {
                    self.prog.stats.device_kernels.fetch_add(1, Ordering::Relaxed);
                    Ok(Some(Slot { dev: Some(r?), host: None }))
                }
                None => Ok(None),
            };
        }
        if op.kind == OpKind::Convolution {
            let r = crate::cudnn::try_conv(&gpu, &self.prog.memo, op, &a, &b, rt, self.prog.tf32).or_else(|| crate::conv::try_conv(&gpu, &self.prog.memo, op, &a, &b, rt, self.prog.tf32));
            return match r {
                Some(r) => {
                    self.prog.stats.device_gemms.fetch_add(1, Ordering::Relaxed);
                    Ok(Some(Slot { dev: Some(r?), host: None }))
                }
                None => Ok(None),
            };
        }
        match dot::try_dot(&gpu, &self.prog.memo, op, &a, &b, rt, self.prog.tf32) {
            Some(r) => {
                self.prog.stats.device_gemms.fetch_add(1, Ordering::Relaxed);
                Ok(Some(Slot { dev: Some(r?), host: None }))
            }
            None => Ok(None),
        }
    }

    fn host_op(&mut self, frame: &mut Frame<'p>, _block: &'p Block, op: &'p Op, ps: &PlannedStep) -> Result<Vec<Slot>, InterpError> {
        let err = |m: String| op_error(op, m);
        self.prog.stats.ran_on_host(|| match op.results.first().and_then(|&r| frame.func.try_ty(r)).and_then(|t| t.as_tensor()) {
            Some(t) => format!("{} -> {:?} {:?}", op.name(), t.shape, t.elem),
            None => op.name().to_string(),
        });
        let args = op.operands.iter().zip(&ps.take).map(|(&v, &t)| self.host(frame, v, t)).collect::<Result<Vec<_>, _>>().map_err(err)?;
        let wrap = |vals: Vec<Val>| vals.into_iter().map(|h| Slot { dev: None, host: Some(h) }).collect();
        if op.regions.is_empty()
            || matches!(op.kind, OpKind::Reduce | OpKind::ReduceWindow | OpKind::Scatter | OpKind::SelectAndScatter | OpKind::Sort | OpKind::Map)
        {
            if let Some(natives) = args.iter().map(Val::native).collect::<Option<Vec<_>>>() {
                let mut rts = Vec::new();
                for v in &op.results {
                    match frame.func.try_ty(*v) {
                        Some(Type::Tensor(t)) if t.is_static() => rts.push(t),
                        _ => break,
                    }
                }
                if rts.len() == op.results.len() {
                    let ctx = KernelCtx { op, func: frame.func, result_types: rts, threads: self.prog.threads };
                    if let Some(r) = kernels::run_native(&ctx, &natives) {
                        return r.map(|ts| wrap(ts.into_iter().map(Val::Native).collect())).map_err(err);
                    }
                }
            }
        }
        let prog = self.prog;
        let rt_args: Vec<RtValue> = args.iter().map(Val::to_rt).collect();
        drop(args);
        let mut cap = Vec::with_capacity(ps.captured.len());
        for &v in &ps.captured {
            if matches!(frame.env.get(v.0 as usize), Some(Some(_))) {
                cap.push((v, self.host(frame, v, false).map_err(err)?.to_rt()));
            }
        }
        let it = self.interp.get_or_insert_with(|| {
            let mut it = Interpreter::new(&prog.module);
            it.registry = prog.registry.clone();
            it
        });
        let res = it.eval_op(frame.func, op, rt_args, cap)?;
        Ok(wrap(res.into_iter().map(Val::from_rt).collect()))
    }

    /// A one-element bool or integer value read back to the host (bool as 0/1).
    fn scalar(&self, s: Option<Slot>) -> Result<i64, String> {
        self.prog.stats.predicate_reads.fetch_add(1, Ordering::Relaxed);
        let v = self.host_of(s.ok_or("expected a scalar operand")?)?;
        let t = match v {
            Val::Native(n) => n.to_interp(),
            Val::Other(RtValue::Tensor(t)) => t,
            Val::Other(_) => return Err("expected a tensor scalar".into()),
        };
        match &t.data {
            Data::Bool(b) if b.len() == 1 => Ok(b[0] as i64),
            Data::Int(b) if b.len() == 1 => Ok(b[0]),
            Data::UInt(b) if b.len() == 1 => Ok(b[0].min(i64::MAX as u64) as i64),
            _ => Err("expected a bool or integer tensor with one element".into()),
        }
    }
}
