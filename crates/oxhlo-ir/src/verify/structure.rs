//! The generic layer: walks every function and checks what holds for all ops alike: operand, result and
//! region counts from the op table, SSA scoping (values defined once, before use, and used only inside
//! the region that defines them), value types, one-block regions ending in the right terminator,
//! function signatures and `func.return`, `func.call` against its callee, and symbol references. Ops
//! that pass are handed to their family's rules by [`dispatch`].

use std::collections::HashSet;

use crate::attr::Attr;
use crate::body::{Block, Op, Region, Value};
use crate::location::Location;
use crate::module::{Func, Module, Visibility};
use crate::ops::{OpKind, MANY_REGIONS};
use crate::types::Type;
use crate::verify::cx::Cx;
use crate::verify::{chlo, collectives, elementwise, fmt, indexing, linalg, misc, movement, regions, types, Finding};

rules! {
    DUPLICATE_FUNC = "module.duplicate_symbol": "function names are unique in the module";
    FUNC_DECL_PRIVATE = "func.declaration_private": "a function without a body is private";
    FUNC_BLOCKS = "func.single_block": "a function body has exactly one block";
    FUNC_ARGS = "func.entry_args": "the entry block's arguments match the signature's inputs";
    FUNC_RETURN = "func.return_types": "func.return's operands match the function's result types";
    OPERAND_COUNT = "op.operand_count": "the number of operands is one the op table allows";
    RESULT_COUNT = "op.result_count": "the number of results is one the op table allows";
    REGION_COUNT = "op.region_count": "the number of regions is the op table's";
    REGION_BLOCKS = "op.region_blocks": "every region of a StableHLO op has exactly one block";
    VALUE_UNKNOWN = "value.unknown": "every value id is in the function's value table";
    VALUE_BEFORE_DEF = "value.use_before_def": "a value is defined before it is used";
    VALUE_SCOPE = "value.scope": "a value is used only inside the region that defines it";
    VALUE_REDEFINED = "value.redefined": "a value is defined exactly once";
    TERMINATOR_MISSING = "region.terminator": "a region's block ends with stablehlo.return, a function body with func.return";
    TERMINATOR_NOT_LAST = "terminator.last": "a return op is the last op of its block";
    TERMINATOR_PARENT = "terminator.parent": "func.return appears only in a function body, stablehlo.return only in an op's region";
    CALL_CALLEE = "func.call.callee": "func.call's callee is a function of the module";
    CALL_SIGNATURE = "func.call.signature": "func.call's operand and result types match the callee's signature";
    SYMBOL_UNKNOWN = "symbol.unknown": "symbol references name a function or symbol of the module";
}

/// Checks a whole module.
pub(crate) fn check_module(m: &Module) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for f in &m.funcs {
        if !seen.insert(f.name.as_str()) {
            let mut cx = Cx::new(m, f);
            cx.fail_at(&f.loc, &format!("func.func @{}", f.name), DUPLICATE_FUNC, format!("duplicate function name @{}", f.name));
            out.append(&mut cx.out);
        }
    }
    for f in &m.funcs {
        out.append(&mut check_func(m, f));
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Unseen,
    Live,
    Dead,
}

/// Where a block sits: a function body, or a region of an op.
#[derive(Clone, Copy)]
enum Parent<'a> {
    Func,
    Op(&'a Op),
}

struct Walker<'a> {
    cx: Cx<'a>,
    state: Vec<State>,
    /// Values defined so far, innermost region last; popped (and marked dead) when a region closes.
    stack: Vec<Value>,
    symbols: HashSet<&'a str>,
}

fn check_func<'a>(m: &'a Module, f: &'a Func) -> Vec<Finding> {
    let mut symbols: HashSet<&str> = m.funcs.iter().map(|f| f.name.as_str()).collect();
    for op in &m.other_ops {
        if let Some(Attr::Str(s)) = op.attr("sym_name") {
            symbols.insert(s);
        }
    }
    let mut w = Walker { cx: Cx::new(m, f), state: vec![State::Unseen; f.values.len()], stack: Vec::new(), symbols };
    let what = format!("func.func @{}", f.name);
    let Some(entry) = f.body.blocks.first() else {
        if f.visibility == Visibility::Public {
            w.cx.fail_at(&f.loc, &what, FUNC_DECL_PRIVATE, "a function declaration (no body) must be private");
        }
        return w.cx.out;
    };
    if f.body.blocks.len() != 1 {
        w.cx.fail_at(&f.loc, &what, FUNC_BLOCKS, format!("body must have exactly one block, found {}", f.body.blocks.len()));
    }
    let arg_tys: Vec<Option<&Type>> = entry.args.iter().map(|v| f.try_ty(*v)).collect();
    let sig_ok = arg_tys.len() == f.ty.inputs.len() && arg_tys.iter().zip(&f.ty.inputs).all(|(a, b)| *a == Some(b));
    if !sig_ok {
        w.cx.fail_at(
            &f.loc,
            &what,
            FUNC_ARGS,
            format!(
                "entry block arguments ({}) do not match the signature's inputs ({})",
                fmt::opt_tys(arg_tys.into_iter()),
                fmt::tys(f.ty.inputs.iter())
            ),
        );
    }
    w.block(entry, Parent::Func, &f.loc, &what);
    w.cx.out
}

impl<'a> Walker<'a> {
    /// Defines `v` (a block argument or an op result).
    fn define(&mut self, v: Value, loc: &Location, what: &str) {
        let Some(state) = self.state.get_mut(v.0 as usize) else {
            let n = self.state.len();
            self.cx.fail_at(loc, what, VALUE_UNKNOWN, format!("defines value %{} but the function has only {n} values", v.0));
            return;
        };
        if *state != State::Unseen {
            self.cx.fail_at(loc, what, VALUE_REDEFINED, format!("value %{} is defined more than once", v.0));
            return;
        }
        *state = State::Live;
        self.stack.push(v);
        if let Some(t) = self.cx.f.try_ty(v) {
            types::check_value_type(&mut self.cx, loc, what, v, t);
        }
    }

    /// Checks a use of `v` as operand `i` of `op`; false when the id is unusable.
    fn use_value(&mut self, op: &Op, i: usize, v: Value) -> bool {
        match self.state.get(v.0 as usize) {
            None => {
                let n = self.state.len();
                self.cx.fail(op, VALUE_UNKNOWN, format!("operand #{i} refers to value %{} but the function has only {n} values", v.0));
                false
            }
            Some(State::Unseen) => {
                self.cx.fail(op, VALUE_BEFORE_DEF, format!("operand #{i} (%{}) is used before it is defined", v.0));
                true
            }
            Some(State::Dead) => {
                self.cx.fail(op, VALUE_SCOPE, format!("operand #{i} (%{}) is used outside the region that defines it", v.0));
                true
            }
            Some(State::Live) => true,
        }
    }

    fn block(&mut self, b: &'a Block, parent: Parent<'a>, loc: &Location, what: &str) {
        for &a in &b.args {
            self.define(a, loc, what);
        }
        for (i, op) in b.ops.iter().enumerate() {
            self.op(op, parent, i + 1 == b.ops.len());
        }
        let needs = match parent {
            Parent::Func => Some(OpKind::FuncReturn),
            Parent::Op(p) if p.kind != OpKind::Unregistered => Some(OpKind::Return),
            Parent::Op(_) => None,
        };
        if let Some(kind) = needs {
            if b.ops.last().map(|o| o.kind) != Some(kind) {
                let found = b.ops.last().map(|o| o.name().to_string()).unwrap_or_else(|| "nothing".into());
                self.cx.fail_at(loc, what, TERMINATOR_MISSING, format!("block must end with {}, found {found}", kind.name()));
            }
        }
    }

    fn region(&mut self, r: &'a Region, op: &'a Op, idx: usize) {
        if op.kind != OpKind::Unregistered && r.blocks.len() != 1 {
            self.cx.fail(op, REGION_BLOCKS, format!("region #{idx} must have exactly one block, found {}", r.blocks.len()));
        }
        let mark = self.stack.len();
        for b in &r.blocks {
            self.block(b, Parent::Op(op), &op.loc, op.name());
        }
        for v in self.stack.drain(mark..) {
            if let Some(s) = self.state.get_mut(v.0 as usize) {
                *s = State::Dead;
            }
        }
    }

    fn op(&mut self, op: &'a Op, parent: Parent<'a>, is_last: bool) {
        let mut ok = true;
        for (i, &v) in op.operands.iter().enumerate() {
            ok &= self.use_value(op, i, v);
        }
        if let Some(def) = op.kind.def() {
            if !def.operands.accepts(op.operands.len()) {
                self.cx.fail(op, OPERAND_COUNT, format!("expects {} operands, got {}", arity(def.operands), op.operands.len()));
                ok = false;
            }
            if !def.results.accepts(op.results.len()) {
                self.cx.fail(op, RESULT_COUNT, format!("expects {} results, got {}", arity(def.results), op.results.len()));
                ok = false;
            }
            let regions_ok = if def.regions == MANY_REGIONS { !op.regions.is_empty() } else { op.regions.len() == def.regions as usize };
            if !regions_ok {
                let want = if def.regions == MANY_REGIONS { "at least 1".to_string() } else { def.regions.to_string() };
                self.cx.fail(op, REGION_COUNT, format!("expects {want} regions, got {}", op.regions.len()));
                ok = false;
            }
        }
        if matches!(op.kind, OpKind::Return | OpKind::FuncReturn) {
            if !is_last {
                self.cx.fail(op, TERMINATOR_NOT_LAST, "must be the last op of its block");
            }
            match (op.kind, parent) {
                (OpKind::FuncReturn, Parent::Op(p)) => {
                    self.cx.fail(op, TERMINATOR_PARENT, format!("must be in a function body, not in a region of {}", p.name()))
                }
                (OpKind::Return, Parent::Func) => {
                    self.cx.fail(op, TERMINATOR_PARENT, "must be in a region of a StableHLO op, not in a function body (use func.return)")
                }
                (OpKind::FuncReturn, Parent::Func) => self.func_return(op),
                _ => {}
            }
        }
        for (i, r) in op.regions.iter().enumerate() {
            self.region(r, op, i);
        }
        for &v in &op.results {
            self.define(v, &op.loc, op.name());
            ok &= (v.0 as usize) < self.state.len();
        }
        if op.kind != OpKind::Unregistered {
            self.symbols(op);
        }
        if ok {
            dispatch(&mut self.cx, op);
        }
    }

    fn func_return(&mut self, op: &Op) {
        let got: Vec<Option<&Type>> = self.cx.opd_tys(op);
        let want = &self.cx.f.ty.results;
        if got.len() != want.len() || got.iter().zip(want).any(|(g, w)| *g != Some(w)) {
            self.cx.fail(
                op,
                FUNC_RETURN,
                format!("returns ({}) but the function's result types are ({})", fmt::opt_tys(got.into_iter()), fmt::tys(want.iter())),
            );
        }
    }

    fn symbols(&mut self, op: &Op) {
        let mut refs = Vec::new();
        for (name, a) in &op.attrs {
            if op.kind == OpKind::Call && name == "callee" {
                continue;
            }
            collect_refs(a, &mut refs);
        }
        for r in refs {
            if !r.contains("::") && !self.symbols.contains(r) {
                self.cx.fail(op, SYMBOL_UNKNOWN, format!("refers to unknown symbol @{r}"));
            }
        }
    }
}

fn collect_refs<'x>(a: &'x Attr, out: &mut Vec<&'x str>) {
    match a {
        Attr::SymbolRef(s) => out.push(s),
        Attr::Array(items) => items.iter().for_each(|i| collect_refs(i, out)),
        Attr::Dict(items) => items.iter().for_each(|(_, i)| collect_refs(i, out)),
        _ => {}
    }
}

fn arity(a: crate::ops::Arity) -> String {
    if a.max == crate::ops::MANY {
        format!("at least {}", a.min)
    } else if a.min == a.max {
        a.min.to_string()
    } else {
        format!("{} to {}", a.min, a.max)
    }
}

/// `func.call`: the callee exists and the types line up with its signature.
fn call(cx: &mut Cx, op: &Op) {
    let Some(a) = op.attr("callee") else {
        cx.fail(op, crate::verify::cx::ATTR_MISSING, "missing required attribute `callee`");
        return;
    };
    let Some(name) = a.as_symbol() else {
        cx.fail(op, crate::verify::cx::ATTR_KIND, format!("attribute `callee` must be a symbol reference, got {}", crate::verify::cx::attr_kind(a)));
        return;
    };
    let Some(callee) = cx.m.func(name) else {
        cx.fail(op, CALL_CALLEE, format!("callee @{name} is not a function of this module"));
        return;
    };
    let args = cx.opd_tys(op);
    let res = cx.res_tys(op);
    let ins_ok = args.len() == callee.ty.inputs.len() && args.iter().zip(&callee.ty.inputs).all(|(a, b)| *a == Some(b));
    let outs_ok = res.len() == callee.ty.results.len() && res.iter().zip(&callee.ty.results).all(|(a, b)| *a == Some(b));
    if !ins_ok || !outs_ok {
        cx.fail(
            op,
            CALL_SIGNATURE,
            format!(
                "call type ({}) -> ({}) does not match @{name}'s signature ({}) -> ({})",
                fmt::opt_tys(args.into_iter()),
                fmt::opt_tys(res.into_iter()),
                fmt::tys(callee.ty.inputs.iter()),
                fmt::tys(callee.ty.results.iter())
            ),
        );
    }
}

/// Hands an op that passed the generic checks to its family's rules.
fn dispatch<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    use crate::verify::cx::class::*;
    use OpKind as K;
    match op.kind {
        K::Call => call(cx, op),
        // element-wise
        K::Cbrt | K::Cosine | K::Sine | K::Tan | K::Tanh | K::Exponential | K::ExponentialMinusOne | K::Log
        | K::LogPlusOne | K::Logistic | K::Rsqrt | K::Sqrt => elementwise::unary(cx, op, FLOAT | COMPLEX | QUANT),
        K::Ceil | K::Floor | K::RoundNearestAfz | K::RoundNearestEven => elementwise::unary(cx, op, FLOAT | QUANT),
        K::CountLeadingZeros | K::Popcnt => elementwise::unary(cx, op, INT),
        K::Not => elementwise::unary(cx, op, BOOL | INT),
        K::Negate => elementwise::unary(cx, op, INT | FLOAT | COMPLEX | QUANT),
        K::Sign => elementwise::unary(cx, op, SINT | FLOAT | COMPLEX | QUANT),
        K::Abs => elementwise::abs(cx, op),
        K::Square => elementwise::unary(cx, op, INT | FLOAT | COMPLEX),
        K::Real | K::Imag => elementwise::real_imag(cx, op),
        K::IsFinite => elementwise::is_finite(cx, op),
        K::Add | K::Multiply | K::Maximum | K::Minimum => elementwise::binary(cx, op, ANY),
        K::Subtract | K::Divide | K::Remainder | K::Power => elementwise::binary(cx, op, INT | FLOAT | COMPLEX | QUANT),
        K::Atan2 => elementwise::binary(cx, op, FLOAT | COMPLEX | QUANT),
        K::And | K::Or | K::Xor => elementwise::binary(cx, op, BOOL | INT),
        K::ShiftLeft | K::ShiftRightArithmetic | K::ShiftRightLogical => elementwise::binary(cx, op, INT),
        K::Compare => elementwise::compare(cx, op),
        K::Complex => elementwise::complex(cx, op),
        K::Select => elementwise::select(cx, op),
        K::Clamp => elementwise::clamp(cx, op),
        K::Convert => elementwise::convert(cx, op),
        K::BitcastConvert => elementwise::bitcast_convert(cx, op),
        K::ReducePrecision => elementwise::reduce_precision(cx, op),
        // data movement
        K::BroadcastInDim => movement::broadcast_in_dim(cx, op),
        K::Broadcast => movement::broadcast(cx, op),
        K::Reshape => movement::reshape(cx, op),
        K::Transpose => movement::transpose(cx, op),
        K::Slice => movement::slice(cx, op),
        K::Concatenate => movement::concatenate(cx, op),
        K::Pad => movement::pad(cx, op),
        K::Reverse => movement::reverse(cx, op),
        K::Iota => movement::iota(cx, op),
        K::GetDimensionSize => movement::get_dimension_size(cx, op),
        K::SetDimensionSize => movement::set_dimension_size(cx, op),
        K::DynamicBroadcastInDim => movement::dynamic_broadcast_in_dim(cx, op),
        K::DynamicIota => movement::dynamic_iota(cx, op),
        K::DynamicPad => movement::dynamic_pad(cx, op),
        K::DynamicReshape => movement::dynamic_reshape(cx, op),
        K::RealDynamicSlice => movement::real_dynamic_slice(cx, op),
        // contractions and linear algebra
        K::DotGeneral => linalg::dot_general(cx, op),
        K::Dot => linalg::dot(cx, op),
        K::Einsum | K::UnaryEinsum => linalg::einsum(cx, op),
        K::Convolution | K::DynamicConv => linalg::convolution(cx, op),
        K::Cholesky => linalg::cholesky(cx, op),
        K::TriangularSolve => linalg::triangular_solve(cx, op),
        K::Fft => linalg::fft(cx, op),
        K::BatchNormGrad | K::BatchNormInference | K::BatchNormTraining => linalg::batch_norm(cx, op),
        // indexing
        K::Gather | K::DynamicGather => indexing::gather(cx, op),
        K::Scatter => indexing::scatter(cx, op),
        K::DynamicSlice => indexing::dynamic_slice(cx, op),
        K::DynamicUpdateSlice => indexing::dynamic_update_slice(cx, op),
        K::TorchIndexSelect => indexing::torch_index_select(cx, op),
        // ops with regions
        K::Reduce => regions::reduce(cx, op),
        K::ReduceWindow => regions::reduce_window(cx, op),
        K::SelectAndScatter => regions::select_and_scatter(cx, op),
        K::Sort => regions::sort(cx, op),
        K::Map => regions::map(cx, op),
        K::While => regions::while_op(cx, op),
        K::If | K::Case => regions::branches(cx, op),
        // distribution and side effects
        K::AllGather => collectives::all_gather(cx, op),
        K::AllReduce | K::CollectiveReduce => collectives::all_reduce(cx, op),
        K::AllToAll => collectives::all_to_all(cx, op),
        K::ReduceScatter => collectives::reduce_scatter(cx, op),
        K::CollectivePermute => collectives::collective_permute(cx, op),
        K::CollectiveBroadcast => collectives::collective_broadcast(cx, op),
        K::CrossReplicaSum => collectives::cross_replica_sum(cx, op),
        K::Send | K::Recv | K::Infeed | K::Outfeed | K::AfterAll | K::CreateToken => collectives::io(cx, op),
        K::ReplicaId | K::PartitionId => collectives::process_id(cx, op),
        // everything else
        K::Constant | K::ChloConstant => misc::constant(cx, op),
        K::Tuple => misc::tuple(cx, op),
        K::GetTupleElement => misc::get_tuple_element(cx, op),
        K::CustomCall => misc::custom_call(cx, op),
        K::Composite => misc::composite(cx, op),
        K::OptimizationBarrier => misc::optimization_barrier(cx, op),
        K::Rng => misc::rng(cx, op),
        K::RngBitGenerator => misc::rng_bit_generator(cx, op),
        K::UniformQuantize => misc::uniform_quantize(cx, op),
        K::UniformDequantize => misc::uniform_dequantize(cx, op),
        K::CheckExpectEq | K::CheckExpectAlmostEq | K::CheckExpectClose => misc::check_pair(cx, op),
        K::CheckExpectEqConst | K::CheckExpectAlmostEqConst => misc::check_const(cx, op),
        K::InterpreterProbe => misc::probe(cx, op),
        K::AsyncStart | K::AsyncDone | K::CheckExpectSerializedEq | K::InterpreterRunParallel => {}
        K::Return | K::FuncReturn | K::Unregistered => {}
        _ => chlo::check(cx, op),
    }
}
