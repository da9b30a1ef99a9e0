//! The CPU executor: compiles a module into per-block plans (fusion steps, liveness, constants decoded
//! once) and runs them. Control flow (while/if/case/call/composite) runs on the host over the same frame,
//! so regions see the values they capture; every other op goes to a native kernel when one handles it
//! and to the reference interpreter otherwise (per op, with its captured values), so results are always
//! defined by the interpreter's semantics.

use crate::kernels::{self, KernelCtx};
use crate::profile::RunProfile;
use crate::tensor::{NTensor, Val};
use oxhlo_interp::custom_call::CustomCallRegistry;
use oxhlo_interp::testing::CheckFailure;
use oxhlo_interp::{Data, InterpError, Interpreter, RtValue, Tensor};
use oxhlo_ir::{Attr, Block, Func, Module, Op, OpKind, Region, Type, Value};
use oxhlo_plan::fusion::{fuse_block, FusionOptions, Step};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// How a program is compiled for the CPU.
#[derive(Clone, Debug)]
pub struct CpuOptions {
    pub fusion: FusionOptions,
    /// Worker threads kernels may use (0 = the machine's available parallelism).
    pub threads: usize,
    /// Run every op on the interpreter even when a native kernel exists (a debugging aid).
    pub interpreter_only: bool,
}

impl Default for CpuOptions {
    fn default() -> CpuOptions {
        CpuOptions { fusion: FusionOptions { enabled: true, aggressive: false, recompute: oxhlo_plan::recompute::env_setting().unwrap_or(true), recompute_costly: false, rows: oxhlo_plan::row_fusion::env_setting().unwrap_or(false), max_params: 0, sibling_reductions: 0 }, threads: 0, interpreter_only: false }
    }
}

/// One step with its liveness: which operand slots may be moved out, which values die after it.
#[derive(Debug)]
struct PlannedStep {
    step: Step,
    /// Per input (op operands, or kernel inputs): moved out of the frame (last use) instead of cloned.
    take: Vec<bool>,
    free_after: Vec<Value>,
    /// Values of enclosing scopes the op's regions read (passed to the interpreter on fallback).
    captured: Vec<Value>,
    /// The step's op runs as a view copy (`oxhlo_plan::view_copy`; its inputs are the pieces' sources).
    copy: Option<Arc<oxhlo_plan::view_copy::ViewCopy>>,
}

#[derive(Debug)]
struct BlockPlan {
    steps: Vec<PlannedStep>,
}

/// A module compiled for the CPU backend. Immutable; `run` may be called from several threads at once.
pub struct CpuProgram {
    module: Arc<Module>,
    plans: HashMap<usize, BlockPlan>,
    constants: HashMap<usize, Val>,
    registry: Arc<CustomCallRegistry>,
    threads: usize,
    interpreter_only: bool,
    /// `OXHLO_PROFILE`: print per-step times after each run (0 off, 1 by op, 2 by op and types).
    profile: u8,
}

/// What one run produced besides its results: checks evaluated and failed (`check.*` ops).
#[derive(Debug, Default)]
pub struct RunOutcome {
    pub checks_run: usize,
    pub check_failures: Vec<CheckFailure>,
}

const MAX_DEPTH: usize = 200;

impl CpuProgram {
    /// Plans every block of `module` (which must be verified).
    pub fn compile(module: Module, opts: &CpuOptions) -> Result<CpuProgram, String> {
        Self::compile_with_registry(module, opts, Arc::new(CustomCallRegistry::with_builtins()))
    }

    /// As [`CpuProgram::compile`], with the custom-call targets of `registry` available to the program.
    pub fn compile_with_registry(
        module: Module,
        opts: &CpuOptions,
        registry: Arc<CustomCallRegistry>,
    ) -> Result<CpuProgram, String> {
        crate::alloc::tune_once();
        let module = Arc::new(module);
        let mut plans = HashMap::new();
        let mut constants = HashMap::new();
        for func in &module.funcs {
            for block in &func.body.blocks {
                plan_tree(func, block, &opts.fusion, &mut plans, &mut constants)?;
            }
        }
        let threads = if opts.threads == 0 {
            std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
        } else {
            opts.threads
        };
        let profile = crate::profile::level_from_env();
        Ok(CpuProgram { module, plans, constants, registry, threads, interpreter_only: opts.interpreter_only, profile })
    }

    pub fn module(&self) -> &Module {
        &self.module
    }

    /// Runs the entry function on `inputs` (checked against its signature); failed checks are an error.
    pub fn run(&self, inputs: Vec<Val>) -> Result<Vec<Val>, InterpError> {
        let (res, outcome) = self.run_with_checks(inputs);
        let res = res?;
        if let Some(f) = outcome.check_failures.first() {
            return Err(InterpError::new(format!("{} check(s) failed; first: {f}", outcome.check_failures.len())));
        }
        Ok(res)
    }

    /// Runs the entry function and reports the checks it evaluated.
    pub fn run_with_checks(&self, inputs: Vec<Val>) -> (Result<Vec<Val>, InterpError>, RunOutcome) {
        let mut outcome = RunOutcome::default();
        let Some(func) = self.module.entry() else {
            return (Err(InterpError::new("the module has no @main and no single public function to run")), outcome);
        };
        let (nr, np) = (self.module.num_replicas(), self.module.num_partitions());
        if nr * np != 1 {
            return (
                Err(InterpError::new(format!("the CPU backend runs single-process programs; this one has {nr} x {np}"))),
                outcome,
            );
        }
        let rt: Vec<RtValue> = inputs.iter().map(Val::to_rt_light).collect();
        let checked = match oxhlo_interp::eval::check_inputs(func, rt) {
            Ok(c) => c,
            Err(e) => return (Err(e), outcome),
        };
        // Keep native inputs as given (no copy), retyped to the parameter types check_inputs settled on.
        let inputs: Vec<Val> = inputs
            .into_iter()
            .zip(checked)
            .map(|(v, c)| match (v, c) {
                (Val::Native(n), RtValue::Tensor(t)) => Val::Native(n.retyped(t.ty)),
                (_, c) => Val::from_rt(c),
            })
            .collect();
        let profile = (self.profile > 0).then(RunProfile::default);
        let mut run = Run { prog: self, interp: None, depth: 0, profile };
        let res = run.call(func, inputs);
        if let Some(p) = &run.profile {
            eprint!("{}", p.render());
        }
        if let Some(it) = run.interp.take() {
            outcome.checks_run = it.checks_run;
            outcome.check_failures = it.check_failures;
        }
        (res, outcome)
    }

    /// Runs a test case (a no-argument entry function) and returns its check count and failures, in the
    /// form `oxhlo_interp::testing::run_test_source_with` takes.
    pub fn run_case(&self) -> Result<(usize, Vec<CheckFailure>), String> {
        let (res, outcome) = self.run_with_checks(Vec::new());
        res.map_err(|e| e.to_string())?;
        Ok((outcome.checks_run, outcome.check_failures))
    }
}

impl Val {
    /// The interpreter value used only for signature checking: native tensors become empty-data
    /// placeholders of their type (no element copy).
    fn to_rt_light(&self) -> RtValue {
        match self {
            Val::Native(n) => {
                let data = placeholder_data(&n.ty.elem);
                RtValue::Tensor(Tensor { ty: n.ty.clone(), data })
            }
            Val::Other(v) => v.clone(),
        }
    }
}

fn placeholder_data(elem: &oxhlo_ir::ElementType) -> Data {
    use oxhlo_ir::ElementType as E;
    match elem {
        E::Bool => Data::Bool(Vec::new()),
        E::Float(_) => Data::Float(Vec::new()),
        E::Complex(_) => Data::Complex(Vec::new()),
        e if e.is_unsigned_integer() => Data::UInt(Vec::new()),
        _ => Data::Int(Vec::new()),
    }
}

fn block_key(block: &Block) -> usize {
    block as *const Block as usize
}

fn collect_uses(r: &Region, out: &mut HashSet<Value>) {
    for b in &r.blocks {
        for op in &b.ops {
            out.extend(op.operands.iter().copied());
            for rr in &op.regions {
                collect_uses(rr, out);
            }
        }
    }
}

fn collect_defs(r: &Region, out: &mut HashSet<Value>) {
    for b in &r.blocks {
        out.extend(b.args.iter().copied());
        for op in &b.ops {
            out.extend(op.results.iter().copied());
            for rr in &op.regions {
                collect_defs(rr, out);
            }
        }
    }
}

/// Plans `block` and every block nested in it; decodes constants.
fn plan_tree(
    func: &Func,
    block: &Block,
    fusion: &FusionOptions,
    plans: &mut HashMap<usize, BlockPlan>,
    constants: &mut HashMap<usize, Val>,
) -> Result<(), String> {
    for op in &block.ops {
        if matches!(op.kind, OpKind::Constant | OpKind::ChloConstant) {
            if let Some(d) = op.attr("value").and_then(Attr::as_dense) {
                let rt = match op.results.first().and_then(|v| func.try_ty(*v)) {
                    Some(Type::Tensor(rt)) if rt.is_static() && rt.shape == d.ty.shape => {
                        Some(oxhlo_ir::TensorType { encoding: None, ..rt.clone() })
                    }
                    _ => None,
                };
                let key = op as *const Op as usize;
                if let Some(v) = rt.as_ref().and_then(|rt| compact_splat(d, rt)) {
                    constants.insert(key, v);
                } else {
                    let mut t = Tensor::from_dense(d)?;
                    if let Some(rt) = rt {
                        t.ty = rt;
                    }
                    constants.insert(key, Val::from_rt(RtValue::Tensor(t)));
                }
            }
        }
        for r in &op.regions {
            for b in &r.blocks {
                plan_tree(func, b, fusion, plans, constants)?;
            }
        }
    }
    plans.insert(block_key(block), plan_block(func, block, fusion));
    Ok(())
}

/// Splat constants above this many elements are kept as one element ([`NTensor::splat`]): fused kernels
/// read them as scalars, and any other consumer gets them expanded when it runs (transiently), so a
/// program's big splats (JAX writes e.g. `dense<1.0> : tensor<4096x4096xf32>`) cost no memory between runs.
const COMPACT_SPLAT_MIN: usize = 4096;

/// The compact form of a big native splat constant.
fn compact_splat(d: &oxhlo_ir::DenseElements, ty: &oxhlo_ir::TensorType) -> Option<Val> {
    if !d.splat || ty.num_elements()? < COMPACT_SPLAT_MIN {
        return None;
    }
    let one = Tensor::from_dense(&oxhlo_ir::DenseElements { ty: oxhlo_ir::TensorType::new(vec![], ty.elem.clone()), ..d.clone() }).ok()?;
    let one = NTensor::from_interp(&one)?;
    Some(Val::Native(NTensor::splat(ty.clone(), Arc::try_unwrap(one.buf).ok()?)))
}

/// A value as an op other than a fused kernel needs it: compact splats expanded.
fn full(v: Val) -> Val {
    match v {
        Val::Native(n) if n.is_compact_splat() => Val::Native(n.expanded()),
        v => v,
    }
}

fn plan_block(func: &Func, block: &Block, fusion: &FusionOptions) -> BlockPlan {
    let mut steps = fuse_block(func, block, fusion);
    if fusion.enabled {
        steps = oxhlo_plan::reduce_fusion::fuse_reductions(func, block, steps, 1, |_| true);
        if fusion.rows {
            // Row kernels whose programs do not compile here run as their steps.
            steps = oxhlo_plan::row_fusion::fuse_rows(func, block, steps)
                .into_iter()
                .flat_map(|s| match &s {
                    Step::Kernel(k) if k.rows.is_some() && !crate::kernels::rows::supported(k, func, block) => {
                        k.rows.as_ref().map(|r| r.steps.clone()).unwrap_or_default()
                    }
                    _ => vec![s],
                })
                .collect();
        }
        if fusion.recompute {
            steps = oxhlo_plan::recompute::recompute_in_consumers(func, block, steps, fusion.recompute_costly);
        }
        if fusion.sibling_reductions > 1 {
            // The CPU evaluates each merged reduction as a pass of its own (no gain here: off by default).
            steps = oxhlo_plan::reduce_fusion::merge_kernels(block, steps, fusion.sibling_reductions, |_| true);
        }
    }
    let mut copies: HashMap<usize, Arc<oxhlo_plan::view_copy::ViewCopy>> = HashMap::new();
    if fusion.enabled && view_copies_enabled() {
        let (s, found) = oxhlo_plan::view_copy::plan(func, block, steps, false);
        steps = s;
        copies = found.into_iter().map(|c| (c.head, Arc::new(c))).collect();
    }
    let mut owned: HashSet<Value> = block.args.iter().copied().collect();
    for op in &block.ops {
        owned.extend(op.results.iter().copied());
    }
    // Per step: the values it reads directly, and those its regions read.
    let mut direct: Vec<Vec<Value>> = Vec::new();
    let mut nested: Vec<HashSet<Value>> = Vec::new();
    let mut captured: Vec<Vec<Value>> = Vec::new();
    for step in &steps {
        match step {
            Step::Op(i) if copies.contains_key(i) => {
                direct.push(copies[i].pieces.iter().map(|p| p.src).collect());
                nested.push(HashSet::new());
                captured.push(Vec::new());
            }
            Step::Op(i) => {
                let op = &block.ops[*i];
                let mut inner = HashSet::new();
                let mut defs = HashSet::new();
                for r in &op.regions {
                    collect_uses(r, &mut inner);
                    collect_defs(r, &mut defs);
                }
                let mut cap: Vec<Value> = inner.difference(&defs).copied().collect();
                cap.sort();
                direct.push(op.operands.clone());
                nested.push(inner);
                captured.push(cap);
            }
            Step::Kernel(k) => {
                direct.push(k.inputs.clone());
                nested.push(HashSet::new());
                captured.push(Vec::new());
            }
        }
    }
    let mut last: HashMap<Value, usize> = HashMap::new();
    for (i, (d, n)) in direct.iter().zip(&nested).enumerate() {
        for v in d.iter().chain(n.iter()) {
            if owned.contains(v) {
                last.insert(*v, i);
            }
        }
    }
    let mut planned: Vec<PlannedStep> = steps
        .into_iter()
        .enumerate()
        .map(|(i, step)| {
            let take = direct[i]
                .iter()
                .map(|v| {
                    owned.contains(v)
                        && last.get(v) == Some(&i)
                        && !nested[i].contains(v)
                        && direct[i].iter().filter(|w| *w == v).count() == 1
                })
                .collect();
            let copy = match &step {
                Step::Op(j) => copies.get(j).cloned(),
                Step::Kernel(_) => None,
            };
            PlannedStep { step, take, free_after: Vec::new(), captured: std::mem::take(&mut captured[i]), copy }
        })
        .collect();
    for (v, &i) in &last {
        planned[i].free_after.push(*v);
    }
    BlockPlan { steps: planned }
}

/// Whether chains of view ops run as one copy ([`oxhlo_plan::view_copy`]; `OXHLO_VIEW_COPIES=0` runs
/// every op alone).
fn view_copies_enabled() -> bool {
    std::env::var("OXHLO_VIEW_COPIES").map_or(true, |v| v.trim() != "0")
}

/// One execution.
struct Run<'p> {
    prog: &'p CpuProgram,
    /// The interpreter used for fallback ops, created on first use.
    interp: Option<Interpreter<'p>>,
    depth: usize,
    profile: Option<RunProfile>,
}

fn op_error(op: &Op, message: String) -> InterpError {
    InterpError { loc: op.loc.clone(), op: op.name().to_string(), message }
}

/// A function activation: one slot per value of the function.
struct Frame<'f> {
    func: &'f Func,
    env: Vec<Option<Val>>,
}

impl Frame<'_> {
    fn get(&mut self, v: Value, take: bool) -> Result<Val, String> {
        let slot = self.env.get_mut(v.0 as usize).ok_or_else(|| format!("value %{} is out of range", v.0))?;
        let x = if take { slot.take() } else { slot.clone() };
        x.ok_or_else(|| format!("value %{} has no value (used before it is defined)", v.0))
    }
    fn set(&mut self, v: Value, x: Val) -> Result<(), String> {
        let slot = self.env.get_mut(v.0 as usize).ok_or_else(|| format!("value %{} is out of range", v.0))?;
        *slot = Some(x);
        Ok(())
    }
}

impl<'p> Run<'p> {
    fn call(&mut self, func: &'p Func, args: Vec<Val>) -> Result<Vec<Val>, InterpError> {
        let body = func.body.entry().ok_or_else(|| {
            InterpError::new(format!("@{} is a declaration without a body", func.name))
        })?;
        if self.depth >= MAX_DEPTH {
            return Err(InterpError::new(format!("call depth limit ({MAX_DEPTH}) exceeded calling @{}", func.name)));
        }
        self.depth += 1;
        let mut frame = Frame { func, env: vec![None; func.values.len()] };
        let res = self.run_block(&mut frame, body, args);
        self.depth -= 1;
        res
    }

    fn run_region(&mut self, frame: &mut Frame<'p>, region: &'p Region, args: Vec<Val>) -> Result<Vec<Val>, InterpError> {
        let block = region.entry().ok_or_else(|| InterpError::new("region has no block"))?;
        if self.depth >= MAX_DEPTH {
            return Err(InterpError::new(format!("region nesting limit ({MAX_DEPTH}) exceeded")));
        }
        self.depth += 1;
        let res = self.run_block(frame, block, args);
        self.depth -= 1;
        res
    }

    fn run_block(&mut self, frame: &mut Frame<'p>, block: &'p Block, args: Vec<Val>) -> Result<Vec<Val>, InterpError> {
        let plan = self
            .prog
            .plans
            .get(&block_key(block))
            .ok_or_else(|| InterpError::new("internal error: a block without a plan"))?;
        if args.len() != block.args.len() {
            return Err(InterpError::new(format!("block takes {} arguments, got {}", block.args.len(), args.len())));
        }
        for (&v, x) in block.args.iter().zip(args) {
            frame.set(v, x).map_err(InterpError::new)?;
        }
        for ps in &plan.steps {
            let started = self.profile.is_some().then(std::time::Instant::now);
            match &ps.step {
                Step::Op(i) if ps.copy.is_some() => {
                    let (op, copy) = (&block.ops[*i], ps.copy.as_deref().expect("checked"));
                    let src = frame.get(copy.pieces[0].src, ps.take.first().copied().unwrap_or(false)).map_err(|m| op_error(op, m))?;
                    let Some(Type::Tensor(rt)) = frame.func.try_ty(copy.result) else { return Err(op_error(op, "internal error: a view copy's result is not a tensor".into())) };
                    let Some(x) = src.native() else { return Err(op_error(op, "internal error: a view copy got a non-native source".into())) };
                    let t = kernels::view_copy::run(copy, x, rt).map_err(|m| op_error(op, m))?;
                    frame.set(copy.result, Val::Native(t)).map_err(|m| op_error(op, m))?;
                }
                Step::Op(i) => {
                    let op = &block.ops[*i];
                    let args = op
                        .operands
                        .iter()
                        .zip(&ps.take)
                        .map(|(&v, &t)| frame.get(v, t).map(full))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|m| op_error(op, m))?;
                    if matches!(op.kind, OpKind::Return | OpKind::FuncReturn) {
                        return Ok(args);
                    }
                    let results = self.exec_op(frame, op, args, &ps.captured)?;
                    if results.len() != op.results.len() {
                        return Err(op_error(
                            op,
                            format!("produced {} results, the op declares {}", results.len(), op.results.len()),
                        ));
                    }
                    for (&v, r) in op.results.iter().zip(results) {
                        frame.set(v, r).map_err(|m| op_error(op, m))?;
                    }
                }
                Step::Kernel(k) => {
                    let vals = k
                        .inputs
                        .iter()
                        .zip(&ps.take)
                        .map(|(&v, &t)| frame.get(v, t))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(InterpError::new)?;
                    let natives: Vec<&NTensor> = vals.iter().filter_map(Val::native).collect();
                    let first = &block.ops[k.ops[0]];
                    if natives.len() != vals.len() {
                        return Err(op_error(first, "internal error: a fused kernel got a non-native input".into()));
                    }
                    let outs = kernels::fused::run_kernel(k, frame.func, block, &natives, self.prog.threads)
                        .map_err(|m| op_error(first, m))?;
                    drop(natives);
                    drop(vals);
                    for (&v, t) in k.outputs.iter().zip(outs) {
                        frame.set(v, Val::Native(t)).map_err(InterpError::new)?;
                    }
                }
            }
            if let (Some(t), Some(p)) = (started, self.profile.as_mut()) {
                let detailed = self.prog.profile >= 2;
                let name = || match &ps.step {
                    Step::Op(i) if detailed => {
                        let op = &block.ops[*i];
                        let types = |vs: &[oxhlo_ir::Value]| {
                            let tys: Vec<String> = vs
                                .iter()
                                .map(|&v| match frame.func.ty(v).as_tensor() {
                                    Some(t) => format!("{:?}{:?}", t.shape, t.elem),
                                    None => "?".into(),
                                })
                                .collect();
                            format!("({})", tys.join(", "))
                        };
                        format!("{} {} -> {}", op.name(), types(&op.operands), types(&op.results))
                    }
                    Step::Op(i) => block.ops[*i].name().to_string(),
                    Step::Kernel(k) => {
                        let names: Vec<&str> =
                            k.ops.iter().take(8).map(|&i| block.ops[i].name().trim_start_matches("stablehlo.")).collect();
                        let more = if k.ops.len() > 8 { format!(",... {} ops", k.ops.len()) } else { String::new() };
                        if detailed {
                            format!("fused[{}{more}] {} inputs, {} outputs", names.join(","), k.inputs.len(), k.outputs.len())
                        } else {
                            format!("fused[{}{more}]", names.join(","))
                        }
                    }
                };
                if !matches!(&ps.step, Step::Op(i) if matches!(block.ops[*i].kind, OpKind::While | OpKind::If | OpKind::Case | OpKind::Call)) {
                    p.record(name, t.elapsed());
                }
            }
            for v in &ps.free_after {
                if let Some(s) = frame.env.get_mut(v.0 as usize) {
                    *s = None;
                }
            }
        }
        Err(InterpError::new("block ends without a terminator (return)"))
    }

    fn exec_op(
        &mut self,
        frame: &mut Frame<'p>,
        op: &'p Op,
        args: Vec<Val>,
        captured: &[Value],
    ) -> Result<Vec<Val>, InterpError> {
        match op.kind {
            OpKind::Constant | OpKind::ChloConstant => {
                if let Some(c) = self.prog.constants.get(&(op as *const Op as usize)) {
                    return Ok(vec![c.clone()]);
                }
            }
            OpKind::While => return self.exec_while(frame, op, args),
            OpKind::If => {
                let pred = scalar_bool(args.first()).map_err(|m| op_error(op, m))?;
                let r = op.regions.get(if pred { 0 } else { 1 }).ok_or_else(|| op_error(op, "if needs two regions".into()))?;
                return self.run_region(frame, r, Vec::new());
            }
            OpKind::Case => {
                let n = op.regions.len();
                if n == 0 {
                    return Err(op_error(op, "case has no branches".into()));
                }
                let idx = scalar_int(args.first()).map_err(|m| op_error(op, m))?;
                let i = if idx < 0 || idx >= n as i64 { n - 1 } else { idx as usize };
                return self.run_region(frame, &op.regions[i], Vec::new());
            }
            OpKind::Call | OpKind::Composite => {
                let attr = if op.kind == OpKind::Call { "callee" } else { "decomposition" };
                if let Some(Attr::SymbolRef(name) | Attr::Str(name)) = op.attr(attr) {
                    let name = name.trim_start_matches('@');
                    if let Some(callee) = self.prog.module.func(name) {
                        if callee.ty.inputs.len() == args.len() {
                            return self.call(callee, args);
                        }
                    }
                }
            }
            OpKind::OptimizationBarrier => return Ok(args),
            OpKind::Reshape => {
                if let (Some(Val::Native(n)), Some(Type::Tensor(rt))) = (args.first(), op.results.first().map(|v| frame.func.ty(*v))) {
                    if rt.is_static() && rt.num_elements() == Some(n.len()) {
                        return Ok(vec![Val::Native(n.retyped(rt.clone()))]);
                    }
                }
            }
            _ => {}
        }
        if op.regions.is_empty() || region_kernel_candidate(op) {
            if let Some(r) = self.try_native(frame.func, op, &args) {
                return r;
            }
        }
        self.fallback(frame, op, args, captured)
    }

    fn try_native(&self, func: &'p Func, op: &'p Op, args: &[Val]) -> Option<Result<Vec<Val>, InterpError>> {
        if self.prog.interpreter_only {
            return None;
        }
        let natives: Vec<&NTensor> = args.iter().map(Val::native).collect::<Option<Vec<_>>>()?;
        let mut result_types = Vec::with_capacity(op.results.len());
        for v in &op.results {
            match func.try_ty(*v) {
                Some(Type::Tensor(t)) if t.is_static() => result_types.push(t),
                _ => return None,
            }
        }
        let ctx = KernelCtx { op, func, result_types, threads: self.prog.threads };
        let res = kernels::run_native(&ctx, &natives)?;
        Some(match res {
            Ok(ts) => Ok(ts.into_iter().map(Val::Native).collect()),
            Err(m) => Err(op_error(op, m)),
        })
    }

    fn fallback(
        &mut self,
        frame: &mut Frame<'p>,
        op: &'p Op,
        args: Vec<Val>,
        captured: &[Value],
    ) -> Result<Vec<Val>, InterpError> {
        let prog = self.prog;
        let it = self.interp.get_or_insert_with(|| {
            let mut it = Interpreter::new(&prog.module);
            it.registry = prog.registry.clone();
            it
        });
        let rt_args: Vec<RtValue> = args.iter().map(Val::to_rt).collect();
        drop(args);
        let mut cap = Vec::with_capacity(captured.len());
        for &v in captured {
            if let Some(Some(x)) = frame.env.get(v.0 as usize) {
                cap.push((v, full(x.clone()).to_rt()));
            }
        }
        let started = self.profile.is_some().then(std::time::Instant::now);
        let res = it.eval_op(frame.func, op, rt_args, cap)?;
        if let (Some(t), Some(p)) = (started, self.profile.as_mut()) {
            p.record(|| format!("  (interpreter fallback) {}", op.name()), t.elapsed());
        }
        Ok(res.into_iter().map(Val::from_rt).collect())
    }

    fn exec_while(&mut self, frame: &mut Frame<'p>, op: &'p Op, args: Vec<Val>) -> Result<Vec<Val>, InterpError> {
        let (cond, body) = match op.regions.as_slice() {
            [c, b] => (c, b),
            _ => return Err(op_error(op, "while needs a cond and a body region".into())),
        };
        let mut state = args;
        loop {
            let c = self.run_region(frame, cond, state.clone())?;
            let go = scalar_bool(c.first()).map_err(|m| op_error(op, m))?;
            if !go {
                return Ok(state);
            }
            state = self.run_region(frame, body, state)?;
            if state.len() != op.results.len() {
                return Err(op_error(op, format!("while body returned {} values, expected {}", state.len(), op.results.len())));
            }
        }
    }
}

/// Ops with regions that native kernels may still handle (reducer bodies they recognize).
fn region_kernel_candidate(op: &Op) -> bool {
    matches!(
        op.kind,
        OpKind::Reduce | OpKind::ReduceWindow | OpKind::Scatter | OpKind::SelectAndScatter | OpKind::Sort | OpKind::Map
    )
}

fn scalar_bool(v: Option<&Val>) -> Result<bool, String> {
    match v {
        Some(Val::Native(n)) => match &*n.buf {
            crate::tensor::Buf::Bool(b) if b.len() == 1 => Ok(b[0]),
            _ => Err("expected a tensor<i1> with one element".into()),
        },
        Some(Val::Other(RtValue::Tensor(Tensor { data: Data::Bool(b), .. }))) if b.len() == 1 => Ok(b[0]),
        _ => Err("expected a tensor<i1> with one element".into()),
    }
}

fn scalar_int(v: Option<&Val>) -> Result<i64, String> {
    use crate::tensor::Buf;
    match v {
        Some(Val::Native(n)) if n.len() == 1 => match &*n.buf {
            Buf::I8(b) => Ok(b[0] as i64),
            Buf::I16(b) => Ok(b[0] as i64),
            Buf::I32(b) => Ok(b[0] as i64),
            Buf::I64(b) => Ok(b[0]),
            Buf::U8(b) => Ok(b[0] as i64),
            Buf::U16(b) => Ok(b[0] as i64),
            Buf::U32(b) => Ok(b[0] as i64),
            Buf::U64(b) => Ok(b[0].min(i64::MAX as u64) as i64),
            _ => Err("expected an integer tensor with one element".into()),
        },
        Some(Val::Other(RtValue::Tensor(Tensor { data: Data::Int(b), .. }))) if b.len() == 1 => Ok(b[0]),
        Some(Val::Other(RtValue::Tensor(Tensor { data: Data::UInt(b), .. }))) if b.len() == 1 => {
            Ok(b[0].min(i64::MAX as u64) as i64)
        }
        _ => Err("expected an integer tensor with one element".into()),
    }
}
