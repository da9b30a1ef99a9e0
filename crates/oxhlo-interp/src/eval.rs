//! The evaluator: runs functions of a module op by op. Each call gets a frame (one slot per value of the
//! function's arena); regions of an op run in the frame of the function that holds them. Control flow
//! (`func.call`, `while`, `if`, `case`, `composite`, `custom_call`, host queues, `check.*`) lives here; all
//! other ops go through [`crate::dispatch::dispatch`] to their op family.
//!
//! Values are moved out of the frame at their last use (computed once per block, see [`BlockPlan`]) so a
//! chain of elementwise ops does not copy its tensors; values still needed later are cloned.

use crate::collectives::Rendezvous;
use crate::custom_call::{CustomCallCtx, CustomCallRegistry};
use crate::error::InterpError;
use crate::ops::{OpCtx, ProcessInfo, RegionEval};
use crate::tensor::{Data, RtValue, Tensor};
use crate::testing::CheckFailure;
use oxhlo_ir::{Attr, Block, ElementType, Func, Module, Op, OpKind, Region, Type, Value};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

/// Deepest nesting of function calls and region runs before the evaluator reports an error (instead of
/// overflowing the native stack on runaway recursion).
pub const MAX_DEPTH: usize = 400;

/// Host-side queues for infeed/outfeed and point-to-point channels of one process.
#[derive(Debug, Default)]
pub struct HostQueues {
    /// Values `infeed` reads, one entry per infeed op execution (without the token).
    pub infeed: VecDeque<Vec<RtValue>>,
    /// What `outfeed` wrote, in order.
    pub outfeed: Vec<Vec<RtValue>>,
    /// Per channel id, values sent and not yet received.
    pub channels: HashMap<i64, VecDeque<Vec<RtValue>>>,
    /// Per `probe_id`, the values `interpreter.probe` recorded, one per execution (iteration 0, 1, ...);
    /// `check.expect_serialized_eq` compares against them (upstream serializes them to files instead).
    pub probes: HashMap<String, Vec<RtValue>>,
}

/// Which operands of an op may be moved out of the frame, and which values die after it.
#[derive(Debug)]
struct OpPlan {
    take: Vec<bool>,
    free_after: Vec<Value>,
}

/// Liveness of one block, computed once and cached by block address.
#[derive(Debug)]
struct BlockPlan {
    /// Identity check against a reused address: (ops pointer, op count, arg count).
    key: (usize, usize, usize),
    arg_used: Vec<bool>,
    ops: Vec<OpPlan>,
}

fn collect_region_uses(r: &Region, out: &mut HashSet<Value>) {
    for b in &r.blocks {
        for op in &b.ops {
            out.extend(op.operands.iter().copied());
            for rr in &op.regions {
                collect_region_uses(rr, out);
            }
        }
    }
}

fn block_key(block: &Block) -> (usize, usize, usize) {
    (block.ops.as_ptr() as usize, block.ops.len(), block.args.len())
}

fn plan_block(block: &Block) -> BlockPlan {
    let mut owned: HashSet<Value> = block.args.iter().copied().collect();
    for op in &block.ops {
        owned.extend(op.results.iter().copied());
    }
    let mut last: HashMap<Value, usize> = HashMap::new();
    let mut nested: Vec<HashSet<Value>> = Vec::with_capacity(block.ops.len());
    for (i, op) in block.ops.iter().enumerate() {
        let mut inner = HashSet::new();
        for r in &op.regions {
            collect_region_uses(r, &mut inner);
        }
        for v in op.operands.iter().chain(inner.iter()) {
            if owned.contains(v) {
                last.insert(*v, i);
            }
        }
        nested.push(inner);
    }
    let mut ops: Vec<OpPlan> = block
        .ops
        .iter()
        .enumerate()
        .map(|(i, op)| {
            let take = op
                .operands
                .iter()
                .map(|v| {
                    owned.contains(v)
                        && last.get(v) == Some(&i)
                        && !nested[i].contains(v)
                        && op.operands.iter().filter(|w| *w == v).count() == 1
                })
                .collect();
            let free_after = op.results.iter().copied().filter(|v| !last.contains_key(v)).collect();
            OpPlan { take, free_after }
        })
        .collect();
    for (v, &i) in &last {
        ops[i].free_after.push(*v);
    }
    let arg_used = block.args.iter().map(|a| last.contains_key(a)).collect();
    BlockPlan { key: block_key(block), arg_used, ops }
}

/// The interpreter for one module (and one process of the replicas x partitions grid).
pub struct Interpreter<'m> {
    module: &'m Module,
    funcs: HashMap<&'m str, &'m Func>,
    /// Custom call targets (`check.*` built in).
    pub registry: Arc<CustomCallRegistry>,
    /// This process's place in the grid (replica 0, partition 0 of 1 x 1 by default).
    pub process: ProcessInfo,
    /// The meeting point of a parallel run, if this interpreter is one of its processes.
    pub rendezvous: Option<Arc<Rendezvous>>,
    /// Infeed, outfeed and channel queues.
    pub host: HostQueues,
    /// Failed checks (`check.*` ops and `@check.*` custom calls) recorded while running.
    pub check_failures: Vec<CheckFailure>,
    /// Number of checks evaluated (passed or failed).
    pub checks_run: usize,
    /// Per-op times, collected when set to `Some` before running (see [`OpProfile`]).
    pub profile: Option<OpProfile>,
    plans: HashMap<usize, Arc<BlockPlan>>,
    inner_error: Option<InterpError>,
    depth: usize,
}

/// Times of the ops an interpreter ran, in order. An op with regions (while, reduce, call, ...) counts the
/// time of its regions too (inclusive times); an op inside a loop body appears once per iteration.
#[derive(Debug, Default)]
pub struct OpProfile {
    /// (op identity, time) for every op run; the identity is the op's address in the module.
    pub runs: Vec<(usize, std::time::Duration)>,
    /// Name and location of each op identity seen.
    pub ops: HashMap<usize, (String, oxhlo_ir::Location)>,
}

impl OpProfile {
    fn record(&mut self, op: &Op, time: std::time::Duration) {
        let key = op as *const Op as usize;
        self.ops.entry(key).or_insert_with(|| (op.name().to_string(), op.loc.clone()));
        self.runs.push((key, time));
    }
}

impl<'m> Interpreter<'m> {
    /// An interpreter for `module` with the built-in custom calls, as process (0, 0) of a 1 x 1 grid.
    pub fn new(module: &'m Module) -> Interpreter<'m> {
        Interpreter {
            module,
            funcs: module.funcs.iter().map(|f| (f.name.as_str(), f)).collect(),
            registry: Arc::new(CustomCallRegistry::with_builtins()),
            process: ProcessInfo::default(),
            rendezvous: None,
            host: HostQueues::default(),
            check_failures: Vec::new(),
            checks_run: 0,
            profile: None,
            plans: HashMap::new(),
            inner_error: None,
            depth: 0,
        }
    }

    /// The module being run.
    pub fn module(&self) -> &'m Module {
        self.module
    }

    /// Runs function `name` with `args` and returns its results.
    pub fn run_func(&mut self, name: &str, args: Vec<RtValue>) -> Result<Vec<RtValue>, InterpError> {
        let func = *self.funcs.get(name).ok_or_else(|| InterpError::new(format!("no function named @{name}")))?;
        if args.len() != func.ty.inputs.len() {
            return Err(InterpError {
                loc: func.loc.clone(),
                op: String::new(),
                message: format!("@{name} takes {} arguments, got {}", func.ty.inputs.len(), args.len()),
            });
        }
        self.call(func, args)
    }

    /// Evaluates one op of `func` (any op, regions included) on `args`, outside a full function run: the
    /// fallback fast backends use for ops they have no kernel for. `captured` binds the values defined
    /// outside the op that its regions read (StableHLO regions may use enclosing values).
    pub fn eval_op(
        &mut self,
        func: &'m Func,
        op: &Op,
        args: Vec<RtValue>,
        captured: Vec<(Value, RtValue)>,
    ) -> Result<Vec<RtValue>, InterpError> {
        let mut frame = Frame { it: self, func, env: vec![None; func.values.len()] };
        for (v, x) in captured {
            frame.bind(v, x).map_err(|m| op_error(op, m))?;
        }
        let results = match frame.exec(op, args) {
            Ok(r) => r,
            Err(m) => return Err(frame.it.inner_error.take().unwrap_or_else(|| op_error(op, m))),
        };
        if results.len() != op.results.len() {
            return Err(op_error(op, format!("produced {} results, the op declares {}", results.len(), op.results.len())));
        }
        Ok(results)
    }

    fn call(&mut self, func: &'m Func, args: Vec<RtValue>) -> Result<Vec<RtValue>, InterpError> {
        let body = func.body.entry().ok_or_else(|| InterpError {
            loc: func.loc.clone(),
            op: String::new(),
            message: format!("@{} is a declaration without a body", func.name),
        })?;
        if self.depth >= MAX_DEPTH {
            return Err(InterpError::new(format!("call depth limit ({MAX_DEPTH}) exceeded calling @{}", func.name)));
        }
        self.depth += 1;
        let mut frame = Frame { it: self, func, env: vec![None; func.values.len()] };
        let res = frame.run_block(body, args.into_iter().map(Some).collect());
        self.depth -= 1;
        res
    }

    fn plan(&mut self, block: &Block) -> Arc<BlockPlan> {
        let addr = block as *const Block as usize;
        if let Some(p) = self.plans.get(&addr) {
            if p.key == block_key(block) {
                return p.clone();
            }
        }
        let p = Arc::new(plan_block(block));
        self.plans.insert(addr, p.clone());
        p
    }
}

/// One function activation.
struct Frame<'i, 'm> {
    it: &'i mut Interpreter<'m>,
    func: &'m Func,
    env: Vec<Option<RtValue>>,
}

fn op_error(op: &Op, message: String) -> InterpError {
    InterpError { loc: op.loc.clone(), op: op.name().to_string(), message }
}

impl<'i, 'm> Frame<'i, 'm> {
    fn slot(&mut self, v: Value) -> Result<&mut Option<RtValue>, String> {
        let n = self.env.len();
        self.env.get_mut(v.0 as usize).ok_or_else(|| format!("value %{} is outside the function's {n} values", v.0))
    }

    fn bind(&mut self, v: Value, x: RtValue) -> Result<(), String> {
        *self.slot(v)? = Some(x);
        Ok(())
    }

    /// Runs a block with (optionally absent) arguments and returns what its terminator returns.
    fn run_block(&mut self, block: &Block, args: Vec<Option<RtValue>>) -> Result<Vec<RtValue>, InterpError> {
        if block.args.len() != args.len() {
            return Err(InterpError::new(format!(
                "block takes {} arguments, got {}",
                block.args.len(),
                args.len()
            )));
        }
        let plan = self.it.plan(block);
        for ((&v, x), &used) in block.args.iter().zip(args).zip(&plan.arg_used) {
            if let (Some(x), true) = (x, used) {
                self.bind(v, x).map_err(InterpError::new)?;
            }
        }
        for (op, op_plan) in block.ops.iter().zip(&plan.ops) {
            let args = self.gather(op, op_plan).map_err(|m| op_error(op, m))?;
            if matches!(op.kind, OpKind::Return | OpKind::FuncReturn) {
                self.free(op_plan);
                return Ok(args);
            }
            let started = self.it.profile.is_some().then(std::time::Instant::now);
            let results = match self.exec(op, args) {
                Ok(r) => r,
                Err(m) => return Err(self.it.inner_error.take().unwrap_or_else(|| op_error(op, m))),
            };
            if let (Some(t), Some(p)) = (started, self.it.profile.as_mut()) {
                p.record(op, t.elapsed());
            }
            self.it.inner_error = None;
            if results.len() != op.results.len() {
                return Err(op_error(
                    op,
                    format!("produced {} results, the op declares {}", results.len(), op.results.len()),
                ));
            }
            for (&v, r) in op.results.iter().zip(results) {
                check_result_type(self.func, v, &r).map_err(|m| op_error(op, m))?;
                self.bind(v, r).map_err(|m| op_error(op, m))?;
            }
            self.free(op_plan);
        }
        Err(InterpError::new("block ends without a terminator (return)"))
    }

    fn free(&mut self, plan: &OpPlan) {
        for v in &plan.free_after {
            if let Some(s) = self.env.get_mut(v.0 as usize) {
                *s = None;
            }
        }
    }

    fn gather(&mut self, op: &Op, plan: &OpPlan) -> Result<Vec<RtValue>, String> {
        let mut out = Vec::with_capacity(op.operands.len());
        for (&v, &take) in op.operands.iter().zip(&plan.take) {
            let slot = self.slot(v)?;
            let x = if take { slot.take() } else { slot.clone() };
            out.push(x.ok_or_else(|| format!("operand %{} has no value (used before it is defined)", v.0))?);
        }
        Ok(out)
    }

    /// Runs a nested region with owned arguments (for the evaluator's own control flow).
    fn region(&mut self, region: &Region, args: Vec<RtValue>) -> Result<Vec<RtValue>, String> {
        let block = region.entry().ok_or("region has no block")?;
        if region.blocks.len() != 1 {
            return Err(format!("regions with {} blocks are not supported", region.blocks.len()));
        }
        if self.it.depth >= MAX_DEPTH {
            return Err(format!("region nesting limit ({MAX_DEPTH}) exceeded"));
        }
        self.it.depth += 1;
        let res = self.run_block(block, args.into_iter().map(Some).collect());
        self.it.depth -= 1;
        res.map_err(|e| {
            let msg = e.to_string();
            self.it.inner_error = Some(e);
            msg
        })
    }

    fn exec(&mut self, op: &Op, args: Vec<RtValue>) -> Result<Vec<RtValue>, String> {
        match op.kind {
            OpKind::Constant | OpKind::ChloConstant => {
                let ty = result_type(self.func, op, 0)?;
                constant(op, ty).map(|t| vec![t])
            }
            OpKind::While => self.exec_while(op, args),
            OpKind::If => {
                let pred = scalar_bool(args.first().ok_or("missing predicate")?)?;
                let r = op.regions.get(if pred { 0 } else { 1 }).ok_or("if needs two regions")?;
                self.region(r, Vec::new())
            }
            OpKind::Case => {
                let n = op.regions.len();
                if n == 0 {
                    return Err("case has no branches".into());
                }
                let idx = scalar_int(args.first().ok_or("missing index")?)?;
                let i = if idx < 0 || idx >= n as i64 { n - 1 } else { idx as usize };
                self.region(&op.regions[i], Vec::new())
            }
            OpKind::Call => {
                let name = symbol_attr(op, "callee")?;
                self.call_named(&name, args)
            }
            OpKind::Composite => {
                let name = symbol_attr(op, "decomposition")?;
                self.call_named(&name, args)
            }
            OpKind::CustomCall => self.exec_custom_call(op, args),
            OpKind::OptimizationBarrier => Ok(args),
            OpKind::AfterAll | OpKind::CreateToken => Ok(vec![RtValue::Token]),
            OpKind::Infeed => {
                let from_run = self.it.rendezvous.as_ref().and_then(|rv| rv.pop_infeed());
                let mut vals = match from_run {
                    Some(func) => self.call_named(&func, Vec::new())?,
                    None => self.it.host.infeed.pop_front().ok_or("the infeed queue is empty")?,
                };
                vals.push(RtValue::Token);
                Ok(vals)
            }
            OpKind::Outfeed => {
                let vals: Vec<RtValue> = args.into_iter().filter(|v| !matches!(v, RtValue::Token)).collect();
                self.it.host.outfeed.push(vals);
                Ok(vec![RtValue::Token])
            }
            OpKind::Send => {
                let ch = channel_id(op);
                let vals: Vec<RtValue> = args.into_iter().filter(|v| !matches!(v, RtValue::Token)).collect();
                // In a parallel run the channels are shared by all processes (a recv may wait for
                // another process's send); on one process they are this interpreter's host queues.
                match &self.it.rendezvous {
                    Some(rv) => rv.send(ch, vals),
                    None => self.it.host.channels.entry(ch).or_default().push_back(vals),
                }
                Ok(vec![RtValue::Token])
            }
            OpKind::Recv => {
                let ch = channel_id(op);
                let mut vals = match self.it.rendezvous.clone() {
                    Some(rv) => {
                        let me = (self.it.process.replica_id, self.it.process.partition_id);
                        rv.recv(me, ch)?
                    }
                    None => self
                        .it
                        .host
                        .channels
                        .get_mut(&ch)
                        .and_then(|q| q.pop_front())
                        .ok_or_else(|| format!("nothing was sent on channel {ch}"))?,
                };
                vals.push(RtValue::Token);
                Ok(vals)
            }
            OpKind::CheckExpectEq
            | OpKind::CheckExpectEqConst
            | OpKind::CheckExpectAlmostEq
            | OpKind::CheckExpectAlmostEqConst
            | OpKind::CheckExpectClose
            | OpKind::CheckExpectSerializedEq => {
                self.it.checks_run += 1;
                let failure = if op.kind == OpKind::CheckExpectSerializedEq {
                    crate::testing::eval_serialized_eq(op, &args, &self.it.host.probes)?
                } else {
                    crate::testing::eval_check_op(op, &args)?
                };
                if let Some(f) = failure {
                    self.it.check_failures.push(f);
                }
                Ok(Vec::new())
            }
            OpKind::InterpreterProbe => {
                if let (Some(Attr::Str(id)), Some(v)) = (op.attr("probe_id"), args.first()) {
                    self.it.host.probes.entry(id.clone()).or_default().push(v.clone());
                }
                Ok(args.into_iter().take(1).collect())
            }
            // Shardy annotations: identities on a single process.
            OpKind::Unregistered
                if matches!(op.name(), "sdy.sharding_constraint" | "sdy.reshard") && args.len() == op.results.len() =>
            {
                Ok(args)
            }
            OpKind::InterpreterRunParallel => {
                let registry = Some(self.it.registry.clone());
                let outcome = crate::parallel::eval_run_parallel(self.it.module, op, args, registry)?;
                self.it.check_failures.extend(outcome.check_failures);
                self.it.checks_run += outcome.checks_run;
                Ok(outcome.results)
            }
            _ => {
                let func = self.func;
                let result_types = op
                    .results
                    .iter()
                    .map(|v| func.try_ty(*v).ok_or_else(|| format!("result %{} has no type", v.0)))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut ctx = OpCtx { op, func, result_types, regions: self };
                crate::dispatch::dispatch(&mut ctx, &args)
            }
        }
    }

    fn call_named(&mut self, name: &str, args: Vec<RtValue>) -> Result<Vec<RtValue>, String> {
        let name = name.trim_start_matches('@');
        let func = *self.it.funcs.get(name).ok_or_else(|| format!("no function named @{name}"))?;
        if args.len() != func.ty.inputs.len() {
            return Err(format!("@{name} takes {} arguments, got {}", func.ty.inputs.len(), args.len()));
        }
        self.it.call(func, args).map_err(|e| {
            let msg = e.to_string();
            self.it.inner_error = Some(e);
            msg
        })
    }

    fn exec_while(&mut self, op: &Op, args: Vec<RtValue>) -> Result<Vec<RtValue>, String> {
        let (cond, body) = match op.regions.as_slice() {
            [c, b] => (c, b),
            _ => return Err("while needs a cond and a body region".into()),
        };
        let cond_block = cond.entry().ok_or("while cond has no block")?;
        let mut state = args;
        loop {
            // Only the arguments the condition reads are copied into it.
            let used = self.it.plan(cond_block).arg_used.clone();
            let cargs: Vec<RtValue> = state
                .iter()
                .zip(used.iter().chain(std::iter::repeat(&true)))
                .map(|(v, &u)| if u { v.clone() } else { RtValue::Token })
                .collect();
            let c = self.region(cond, cargs)?;
            let go = scalar_bool(c.first().ok_or("while cond returned nothing")?)?;
            if !go {
                return Ok(state);
            }
            state = self.region(body, state)?;
            if state.len() != op.results.len() {
                return Err(format!("while body returned {} values, expected {}", state.len(), op.results.len()));
            }
        }
    }

    fn exec_custom_call(&mut self, op: &Op, args: Vec<RtValue>) -> Result<Vec<RtValue>, String> {
        let target = match op.attr("call_target_name") {
            Some(Attr::Str(s)) => s.clone(),
            Some(Attr::SymbolRef(s)) => s.clone(),
            _ => return Err("custom_call without a call_target_name".into()),
        };
        let registry = self.it.registry.clone();
        let f = registry
            .get(&target)
            .ok_or_else(|| format!("unknown custom_call target \"{target}\" (no handler registered)"))?;
        let result_types = op
            .results
            .iter()
            .map(|v| self.func.try_ty(*v).ok_or_else(|| format!("result %{} has no type", v.0)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut cctx = CustomCallCtx {
            op,
            target: &target,
            result_types,
            failures: &mut self.it.check_failures,
            checks_run: &mut self.it.checks_run,
        };
        f(&mut cctx, &args)
    }
}

impl RegionEval for Frame<'_, '_> {
    fn call_region(&mut self, region: &Region, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
        self.region(region, args.to_vec())
    }
    fn call_func(&mut self, name: &str, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
        self.call_named(name, args.to_vec())
    }
    fn process(&self) -> ProcessInfo {
        self.it.process
    }
    fn collectives(&self) -> Option<&Rendezvous> {
        self.it.rendezvous.as_deref()
    }
}

fn result_type<'f>(func: &'f Func, op: &Op, i: usize) -> Result<&'f Type, String> {
    let v = op.results.get(i).ok_or_else(|| format!("op has no result #{i}"))?;
    func.try_ty(*v).ok_or_else(|| format!("result %{} has no type", v.0))
}

/// Checks a computed value against the declared type of the value it is bound to (static shapes and element
/// types; dynamic dimensions accept any size).
fn check_result_type(func: &Func, v: Value, r: &RtValue) -> Result<(), String> {
    let Some(decl) = func.try_ty(v) else { return Ok(()) };
    match (decl, r) {
        (Type::Tensor(d), RtValue::Tensor(t)) => {
            let shape_ok = d.shape.len() == t.ty.shape.len()
                && d.shape.iter().zip(&t.ty.shape).all(|(&a, &b)| a < 0 || a == b);
            let elem_ok = same_elem_kind(&d.elem, &t.ty.elem) && data_fits(&t.ty.elem, &t.data);
            if !shape_ok || !elem_ok || t.len() != t.ty.num_elements().unwrap_or(usize::MAX) {
                return Err(format!(
                    "internal error: computed {} for a result declared {}",
                    crate::testing::type_string(&t.ty),
                    crate::testing::type_string(d)
                ));
            }
            Ok(())
        }
        (Type::Token, RtValue::Token) | (Type::Tuple(_), RtValue::Tuple(_)) => Ok(()),
        (Type::Tensor(_) | Type::Token | Type::Tuple(_), _) => {
            Err(format!("internal error: computed a value of another kind than the declared {decl:?}"))
        }
        _ => Ok(()),
    }
}

/// Whether the storage variant is the one the element type uses.
pub(crate) fn data_fits(elem: &ElementType, data: &Data) -> bool {
    match data {
        Data::Bool(_) => elem.is_bool(),
        Data::Float(_) => elem.is_float(),
        Data::Complex(_) => elem.is_complex(),
        Data::Int(_) => !elem.is_bool() && crate::tensor::int_layout(elem).1 && !elem.is_float() && !elem.is_complex(),
        Data::UInt(_) => !elem.is_bool() && !crate::tensor::int_layout(elem).1 && !elem.is_float() && !elem.is_complex(),
    }
}

/// Element types equal up to quantization parameters.
fn same_elem_kind(a: &ElementType, b: &ElementType) -> bool {
    match (a, b) {
        (ElementType::Quant(x), ElementType::Quant(y)) => x.storage == y.storage && x.expressed == y.expressed,
        _ => a == b,
    }
}

/// `stablehlo.constant`: the `value` attribute, typed as the result.
fn constant(op: &Op, ty: &Type) -> Result<RtValue, String> {
    let d = op.attr("value").and_then(Attr::as_dense).ok_or("constant without a dense `value` attribute")?;
    let mut t = Tensor::from_dense(d)?;
    if let Type::Tensor(rt) = ty {
        if rt.is_static() && rt.shape == t.ty.shape {
            t.ty = rt.clone();
            t.ty.encoding = None;
        }
    }
    Ok(RtValue::Tensor(t))
}

fn symbol_attr(op: &Op, name: &str) -> Result<String, String> {
    match op.attr(name) {
        Some(Attr::SymbolRef(s)) | Some(Attr::Str(s)) => Ok(s.clone()),
        _ => Err(format!("missing symbol attribute `{name}`")),
    }
}

fn channel_id(op: &Op) -> i64 {
    match op.attr("channel_handle") {
        Some(Attr::ChannelHandle { handle, .. }) => *handle,
        _ => op.attr("channel_id").and_then(Attr::as_int).unwrap_or(0),
    }
}

/// The value of a rank-0 boolean tensor.
pub(crate) fn scalar_bool(v: &RtValue) -> Result<bool, String> {
    match v {
        RtValue::Tensor(Tensor { data: Data::Bool(b), .. }) if b.len() == 1 => Ok(b[0]),
        _ => Err("expected a tensor<i1> with one element".into()),
    }
}

/// The value of a rank-0 integer tensor.
pub(crate) fn scalar_int(v: &RtValue) -> Result<i64, String> {
    match v {
        RtValue::Tensor(Tensor { data: Data::Int(b), .. }) if b.len() == 1 => Ok(b[0]),
        RtValue::Tensor(Tensor { data: Data::UInt(b), .. }) if b.len() == 1 => Ok(b[0].min(i64::MAX as u64) as i64),
        _ => Err("expected an integer tensor with one element".into()),
    }
}

/// Stack size of the thread a whole program runs on (deep recursion and nested regions need room).
pub const RUN_STACK_BYTES: usize = 256 << 20;

/// Runs `f` on a pooled worker thread with a large stack and returns its result (an error if it
/// panicked); see [`crate::pool`]. `f` may borrow from the caller.
pub fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Result<T, InterpError> {
    crate::pool::run_on_worker(f)
}

/// Stack a run of a compiled program without control flow needs at most (its kernels do not recurse
/// through regions): such runs stay on the calling thread when it has this much left.
pub const SHALLOW_STACK_BYTES: usize = 4 << 20;

/// Whether running `module` may recurse through nested regions (while, if, case, call), and so needs
/// the interpreter's big stack ([`RUN_STACK_BYTES`]).
pub fn needs_deep_stack(module: &Module) -> bool {
    module.any_op(|op| matches!(op.kind, OpKind::While | OpKind::If | OpKind::Case | OpKind::Call))
}

/// Runs a compiled program's run `f` on this thread when `deep` is false and the thread has
/// [`SHALLOW_STACK_BYTES`] of stack left, else as [`on_big_stack`].
pub fn on_enough_stack<T: Send>(deep: bool, f: impl FnOnce() -> T + Send) -> Result<T, InterpError> {
    crate::pool::run_here_or_on_worker(if deep { RUN_STACK_BYTES } else { SHALLOW_STACK_BYTES }, f)
}

/// Checks `inputs` against the parameters of `func` (count, kind, element type, shape) and adapts
/// compatible ones (a plain integer tensor for a quantized parameter of that storage type; static sizes
/// for dynamic dimensions). Errors name the input and say what was expected.
pub fn check_inputs(func: &Func, inputs: Vec<RtValue>) -> Result<Vec<RtValue>, InterpError> {
    let err = |m: String| InterpError { loc: func.loc.clone(), op: String::new(), message: m };
    if inputs.len() != func.ty.inputs.len() {
        return Err(err(format!(
            "@{} takes {} input{}, got {}",
            func.name,
            func.ty.inputs.len(),
            if func.ty.inputs.len() == 1 { "" } else { "s" },
            inputs.len()
        )));
    }
    let mut out = Vec::with_capacity(inputs.len());
    for (i, (v, decl)) in inputs.into_iter().zip(&func.ty.inputs).enumerate() {
        match (decl, v) {
            (Type::Tensor(d), RtValue::Tensor(mut t)) => {
                let elem_ok = t.ty.elem == d.elem
                    || (matches!(&d.elem, ElementType::Quant(q) if q.storage == t.ty.elem))
                    || same_elem_kind(&d.elem, &t.ty.elem);
                if !elem_ok {
                    return Err(err(format!(
                        "input #{i}: element type {} does not match the parameter type {}",
                        crate::testing::elem_string(&t.ty.elem),
                        crate::testing::type_string(d)
                    )));
                }
                let shape_ok = d.shape.len() == t.ty.shape.len()
                    && d.shape.iter().zip(&t.ty.shape).all(|(&a, &b)| a < 0 || a == b);
                if !shape_ok {
                    return Err(err(format!(
                        "input #{i}: shape {:?} does not match the parameter type {}",
                        t.ty.shape,
                        crate::testing::type_string(d)
                    )));
                }
                if !data_fits(&d.elem, &t.data) {
                    return Err(err(format!("input #{i}: storage does not fit {}", crate::testing::type_string(d))));
                }
                t.ty.elem = d.elem.clone();
                out.push(RtValue::Tensor(t));
            }
            (Type::Token, RtValue::Token) => out.push(RtValue::Token),
            (Type::Tuple(_), v @ RtValue::Tuple(_)) => out.push(v),
            (d, _) => return Err(err(format!("input #{i}: expected a value of type {d:?}"))),
        }
    }
    Ok(out)
}

/// Runs the module's entry function (`@main`, or the only public function) on `inputs`, checked against
/// its signature. Failed `check.*` ops make the run an error. A module with `mhlo.num_replicas` x
/// `mhlo.num_partitions` > 1 runs on every process of the grid (each with the same inputs) and returns
/// all processes' results concatenated in (replica, partition) order.
pub fn run_main(module: &Module, inputs: Vec<RtValue>) -> Result<Vec<RtValue>, InterpError> {
    let func = module
        .entry()
        .ok_or_else(|| InterpError::new("the module has no @main and no single public function to run"))?;
    let inputs = check_inputs(func, inputs)?;
    let (nr, np) = (module.num_replicas(), module.num_partitions());
    if nr < 1 || np < 1 || nr.saturating_mul(np) > 4096 {
        return Err(InterpError::new(format!("unsupported process grid {nr} x {np}")));
    }
    if nr * np > 1 {
        let out = crate::parallel::run_spmd(module, &func.name, nr as usize, np as usize, inputs)?;
        if let Some(f) = out.check_failures.first() {
            return Err(InterpError {
                loc: f.loc.clone(),
                op: f.check.clone(),
                message: format!("{} ({} failed check(s))", f.message, out.check_failures.len()),
            });
        }
        return Ok(out.results);
    }
    on_big_stack(|| {
        let mut it = Interpreter::new(module);
        let res = it.run_func(&func.name, inputs)?;
        if let Some(f) = it.check_failures.first() {
            return Err(InterpError {
                loc: f.loc.clone(),
                op: f.check.clone(),
                message: format!("{} ({} failed check(s))", f.message, it.check_failures.len()),
            });
        }
        Ok(res)
    })?
}
