//! Ops with regions: reduce, reduce_window, select_and_scatter, sort, map, while, if and case. Each
//! region's block signature (argument types and `stablehlo.return` operand types) is checked against the
//! type the spec gives the function it stands for; [`check_body`] is shared with scatter and the
//! collectives.

use crate::body::Op;
use crate::ops::OpKind;
use crate::types::{ElementType, TensorType, Type};
use crate::verify::cx::{elem_compatible, types_compatible, Cx};
use crate::verify::shape::{self, shapes_compatible, WindowConfig};
use crate::verify::{fmt, Rule};

rules! {
    REDUCE_ARITY = "reduce.arity": "size(inputs) = size(init_values) = size(results) = N >= 1 (C3)";
    REDUCE_INPUT_SHAPES = "reduce.input_shapes": "all inputs have the same shape (C1)";
    REDUCE_ELEM = "reduce.element_types": "element_type(inputs[k]) = element_type(init_values[k]) = element_type(results[k]) (C2)";
    REDUCE_INIT_RANK = "reduce.init_rank": "init_values are 0-dimensional tensors";
    REDUCE_BODY = "reduce.body": "body has type (tensor<E0>, ..., tensor<E0>, ...) -> (tensor<E0>, ...) (C6)";
    REDUCE_RESULT = "reduce.result": "shape(results[k]) = shape(inputs[k]) without the reduced dimensions (C7)";
    REDUCE_WINDOW_BODY = "reduce_window.body": "body has type (tensor<E0>, ..., tensor<E0>, ...) -> (tensor<E0>, ...) (C13)";
    REDUCE_WINDOW_RESULT = "reduce_window.result": "every result has the shape num_windows (C14, C15)";
    SAS_SOURCE = "select_and_scatter.source": "source has the operand's element type and the windowed shape (C2, C3)";
    SAS_SELECT = "select_and_scatter.select": "select has type (tensor<E>, tensor<E>) -> tensor<i1> (C10)";
    SAS_SCATTER = "select_and_scatter.scatter": "scatter has type (tensor<E>, tensor<E>) -> tensor<E> (C11)";
    SAS_RESULT = "select_and_scatter.result": "type(operand) = type(result), init_value of element type E (C4, C12)";
    SORT_RESULTS = "sort.results": "results have the types of the inputs (C2)";
    SORT_SHAPES = "sort.shapes": "all inputs have the same shape (C3)";
    SORT_DIMENSION = "sort.dimension": "-R <= dimension < R (C4)";
    SORT_COMPARATOR = "sort.comparator": "comparator has type (tensor<E0>, tensor<E0>, ...) -> tensor<i1> (C5)";
    MAP_SHAPES = "map.shapes": "all inputs and the result have the same shape (C1)";
    MAP_DIMENSIONS = "map.dimensions": "dimensions = [0, ..., R-1] (C3)";
    MAP_COMPUTATION = "map.computation": "computation has type (tensor<E0>, ..., tensor<EN-1>) -> tensor<E'> (C4)";
    WHILE_COND = "while.cond": "cond has type (T0, ..., TN-1) -> tensor<i1> (C1)";
    WHILE_BODY = "while.body": "body has type (T0, ..., TN-1) -> (T0, ..., TN-1) (C2)";
    WHILE_RESULTS = "while.results": "type(results[i]) = type(operand[i]) (C3)";
    BRANCH_ARGS = "branches.no_arguments": "if/case branches take no arguments (C1/C2)";
    BRANCH_TYPES = "branches.same_outputs": "all branches return the same types (C2/C3)";
    BRANCH_RESULTS = "branches.results": "the op's results have the branches' output types (C3/C4)";
    BRANCH_SELECTOR = "branches.selector": "if's pred is tensor<i1>; case's index is tensor<i32>";
}


/// The argument types of region `idx`'s block and the operand types of its `stablehlo.return` (None when
/// the region, block or return is missing or a value id is bad; the generic layer reports those).
pub(crate) fn region_sig<'a>(cx: &Cx<'a>, op: &'a Op, idx: usize) -> Option<(Vec<&'a Type>, Vec<&'a Type>)> {
    let block = op.regions.get(idx)?.blocks.first()?;
    let args: Option<Vec<&Type>> = block.args.iter().map(|v| cx.ty(*v)).collect();
    let ret = block.ops.last().filter(|o| o.kind == OpKind::Return)?;
    let rets: Option<Vec<&Type>> = ret.operands.iter().map(|v| cx.ty(*v)).collect();
    Some((args?, rets?))
}

/// Reports region `idx` unless its signature is `(want_args) -> (want_rets)`.
pub(crate) fn check_body<'a>(cx: &mut Cx<'a>, op: &'a Op, idx: usize, rule: Rule, what: &str, want_args: &[Type], want_rets: &[Type]) {
    let Some((args, rets)) = region_sig(cx, op, idx) else { return };
    let ok = |got: &[&Type], want: &[Type]| got.len() == want.len() && got.iter().zip(want).all(|(g, w)| types_compatible(g, w));
    if !ok(&args, want_args) || !ok(&rets, want_rets) {
        cx.fail(
            op,
            rule,
            format!(
                "{what} must have type ({}) -> ({}), got ({}) -> ({})",
                fmt::tys(want_args.iter()),
                fmt::tys(want_rets.iter()),
                fmt::tys(args.into_iter()),
                fmt::tys(rets.into_iter())
            ),
        );
    }
}

fn scalar(e: &ElementType) -> Type {
    Type::tensor(&[], e.clone())
}

/// Splits reduce/reduce_window's operands into (inputs, init_values), checking N.
fn split_inputs<'a>(cx: &mut Cx<'a>, op: &'a Op) -> Option<(Vec<&'a TensorType>, Vec<&'a TensorType>, Vec<&'a TensorType>)> {
    let total = op.operands.len();
    if !total.is_multiple_of(2) || total == 0 || op.results.len() != total / 2 {
        cx.fail(op, REDUCE_ARITY, format!("expects 2N operands (inputs, init values) and N results, got {total} operands and {} results", op.results.len()));
        return None;
    }
    let n = total / 2;
    let (Some(inputs), Some(inits), Some(results)) = (cx.tensor_opds(op, 0..n), cx.tensor_opds(op, n..total), cx.tensor_results(op)) else {
        return None;
    };
    for (k, t) in inputs.iter().enumerate().skip(1) {
        if !shapes_compatible(&t.shape, &inputs[0].shape) {
            cx.fail(op, REDUCE_INPUT_SHAPES, format!("input #{k} shape [{}] differs from input #0's [{}]", fmt::shape(&t.shape), fmt::shape(&inputs[0].shape)));
        }
    }
    for (k, ((i, v), r)) in inputs.iter().zip(&inits).zip(&results).enumerate() {
        if !elem_compatible(&i.elem, &v.elem) || !elem_compatible(&i.elem, &r.elem) {
            cx.fail(
                op,
                REDUCE_ELEM,
                format!("input #{k}, init value #{k} and result #{k} element types {}, {} and {} differ", fmt::elem(&i.elem), fmt::elem(&v.elem), fmt::elem(&r.elem)),
            );
        }
        cx.scalar_tensor(op, REDUCE_INIT_RANK, &format!("init value #{k}"), v);
    }
    Some((inputs, inits, results))
}

/// The body type `(tensor<E0>, ..., tensor<E0>, ...) -> (tensor<E0>, ...)` for the inputs' element types.
fn body_types(inputs: &[&TensorType]) -> (Vec<Type>, Vec<Type>) {
    let rets: Vec<Type> = inputs.iter().map(|t| scalar(&t.elem)).collect();
    ([rets.clone(), rets.clone()].concat(), rets)
}

pub(crate) fn reduce<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dims = cx.attr_i64s(op, "dimensions", true);
    let Some((inputs, _, results)) = split_inputs(cx, op) else { return };
    let (args, rets) = body_types(&inputs);
    check_body(cx, op, 0, REDUCE_BODY, "body", &args, &rets);
    let Some(dims) = dims else { return };
    match shape::infer_reduce_shape(&inputs[0].shape, &dims) {
        Ok(want) => {
            for (k, r) in results.iter().enumerate() {
                if !shapes_compatible(&r.shape, &want) {
                    cx.fail(op, REDUCE_RESULT, format!("result #{k} shape [{}] does not match the expected shape [{}]", fmt::shape(&r.shape), fmt::shape(&want)));
                }
            }
        }
        Err(e) => cx.fail_shape(op, e),
    }
}

pub(crate) fn reduce_window<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let wd = cx.attr_i64s(op, "window_dimensions", true);
    let ws = cx.attr_i64s(op, "window_strides", false);
    let bd = cx.attr_i64s(op, "base_dilations", false);
    let wdl = cx.attr_i64s(op, "window_dilations", false);
    let pad = cx.attr_padding(op, "padding", shape::window::PADDING_SHAPE);
    let Some((inputs, _, results)) = split_inputs(cx, op) else { return };
    let (args, rets) = body_types(&inputs);
    check_body(cx, op, 0, REDUCE_WINDOW_BODY, "body", &args, &rets);
    let (Some(wd), Some(pad)) = (wd, pad) else { return };
    let w = WindowConfig {
        dimensions: &wd,
        strides: ws.as_deref(),
        base_dilations: bd.as_deref(),
        window_dilations: wdl.as_deref(),
        padding: pad.as_deref(),
    };
    match shape::infer_window_shape(&inputs[0].shape, &w) {
        Ok(want) => {
            for (k, r) in results.iter().enumerate() {
                if !shapes_compatible(&r.shape, &want) {
                    cx.fail(op, REDUCE_WINDOW_RESULT, format!("result #{k} shape [{}] does not match the expected shape [{}]", fmt::shape(&r.shape), fmt::shape(&want)));
                }
            }
        }
        Err(e) => cx.fail_shape(op, e),
    }
}

pub(crate) fn select_and_scatter<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let wd = cx.attr_i64s(op, "window_dimensions", false);
    let ws = cx.attr_i64s(op, "window_strides", false);
    let pad = cx.attr_padding(op, "padding", shape::window::PADDING_SHAPE);
    let (Some(x), Some(src), Some(init), Some(r)) =
        (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_opd(op, 2), cx.tensor_res(op, 0))
    else {
        return;
    };
    if !elem_compatible(&x.elem, &r.elem) || !shapes_compatible(&x.shape, &r.shape) || !elem_compatible(&init.elem, &x.elem) || init.rank() != 0 {
        cx.fail(op, SAS_RESULT, format!("operand {}, init_value {} and result {} must be T, tensor<E> and T", fmt::tensor(x), fmt::tensor(init), fmt::tensor(r)));
    }
    let e = scalar(&x.elem);
    check_body(cx, op, 0, SAS_SELECT, "select", &[e.clone(), e.clone()], &[Type::tensor(&[], ElementType::Bool)]);
    check_body(cx, op, 1, SAS_SCATTER, "scatter", &[e.clone(), e.clone()], &[e]);
    if !elem_compatible(&src.elem, &x.elem) {
        cx.fail(op, SAS_SOURCE, format!("source element type {} differs from the operand's {}", fmt::elem(&src.elem), fmt::elem(&x.elem)));
        return;
    }
    let Some(pad) = pad else { return };
    let wd = wd.unwrap_or_else(|| vec![1; x.rank()]);
    match shape::infer_select_and_scatter_source_shape(&x.shape, &wd, ws.as_deref(), pad.as_deref()) {
        Ok(want) => {
            if !shapes_compatible(&src.shape, &want) {
                cx.fail(op, SAS_SOURCE, format!("source shape [{}] must be the windowed operand shape [{}]", fmt::shape(&src.shape), fmt::shape(&want)));
            }
        }
        Err(e) => cx.fail_shape(op, e),
    }
}

pub(crate) fn sort<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dim = cx.attr_int(op, "dimension", false).unwrap_or(-1);
    cx.attr_bool(op, "is_stable", false);
    let n = op.operands.len();
    let (Some(inputs), Some(results)) = (cx.tensor_opds(op, 0..n), cx.tensor_results(op)) else { return };
    let same = results.len() == n
        && inputs.iter().zip(&results).all(|(a, b)| elem_compatible(&a.elem, &b.elem) && shapes_compatible(&a.shape, &b.shape));
    if !same {
        cx.fail(op, SORT_RESULTS, format!("results ({}) must have the input types ({})", fmt::tensors(&results), fmt::tensors(&inputs)));
    }
    for (k, t) in inputs.iter().enumerate().skip(1) {
        if !shapes_compatible(&t.shape, &inputs[0].shape) {
            cx.fail(op, SORT_SHAPES, format!("input #{k} shape [{}] differs from input #0's [{}]", fmt::shape(&t.shape), fmt::shape(&inputs[0].shape)));
        }
    }
    let Some(first) = inputs.first() else { return };
    let r = first.rank() as i64;
    if dim < -r || dim >= r {
        cx.fail(op, SORT_DIMENSION, format!("dimension {dim} is out of range [{}, {r})", -r));
    }
    let args: Vec<Type> = inputs.iter().flat_map(|t| [scalar(&t.elem), scalar(&t.elem)]).collect();
    check_body(cx, op, 0, SORT_COMPARATOR, "comparator", &args, &[Type::tensor(&[], ElementType::Bool)]);
}

pub(crate) fn map<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dims = cx.attr_i64s(op, "dimensions", false);
    let n = op.operands.len();
    let (Some(inputs), Some(r)) = (cx.tensor_opds(op, 0..n), cx.tensor_res(op, 0)) else { return };
    if let Some((k, t)) = inputs.iter().enumerate().find(|(_, t)| !shapes_compatible(&t.shape, &r.shape)) {
        cx.fail(op, MAP_SHAPES, format!("input #{k} shape [{}] differs from the result shape [{}]", fmt::shape(&t.shape), fmt::shape(&r.shape)));
    }
    if let (Some(dims), Some(first)) = (dims, inputs.first()) {
        let want: Vec<i64> = (0..first.rank() as i64).collect();
        if dims != want {
            cx.fail(op, MAP_DIMENSIONS, format!("dimensions {} must be {}", fmt::list(&dims), fmt::list(&want)));
        }
    }
    let args: Vec<Type> = inputs.iter().map(|t| scalar(&t.elem)).collect();
    check_body(cx, op, 0, MAP_COMPUTATION, "computation", &args, &[scalar(&r.elem)]);
}

pub(crate) fn while_op<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let opds: Option<Vec<Type>> = cx.opd_tys(op).into_iter().map(|t| t.cloned()).collect();
    let Some(opds) = opds else { return };
    let res: Option<Vec<&Type>> = cx.res_tys(op).into_iter().collect();
    let Some(res) = res else { return };
    if res.len() != opds.len() || res.iter().zip(&opds).any(|(r, o)| !types_compatible(r, o)) {
        cx.fail(op, WHILE_RESULTS, format!("results ({}) must have the operand types ({})", fmt::tys(res.into_iter()), fmt::tys(opds.iter())));
    }
    check_body(cx, op, 0, WHILE_COND, "cond", &opds, &[Type::tensor(&[], ElementType::Bool)]);
    check_body(cx, op, 1, WHILE_BODY, "body", &opds, &opds);
}

/// `if` and `case`: the selector, argument-free branches returning one set of types, and the results.
pub(crate) fn branches<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    if let Some(sel) = cx.tensor_opd(op, 0) {
        let ok = sel.rank() == 0
            && if op.kind == OpKind::If {
                sel.elem.is_bool()
            } else {
                matches!(sel.elem, ElementType::Int { bits: 32, .. }) && !sel.elem.is_unsigned_integer()
            };
        if !ok {
            let want = if op.kind == OpKind::If { "tensor<i1>" } else { "tensor<i32>" };
            cx.fail(op, BRANCH_SELECTOR, format!("{} must be {want}, got {}", if op.kind == OpKind::If { "pred" } else { "index" }, fmt::tensor(sel)));
        }
    }
    let mut first: Option<Vec<&Type>> = None;
    for i in 0..op.regions.len() {
        let Some((args, rets)) = region_sig(cx, op, i) else { continue };
        if !args.is_empty() {
            cx.fail(op, BRANCH_ARGS, format!("branch #{i} must take no arguments, got ({})", fmt::tys(args.into_iter())));
        }
        match &first {
            None => first = Some(rets),
            Some(f) => {
                if f.len() != rets.len() || f.iter().zip(&rets).any(|(a, b)| !types_compatible(a, b)) {
                    cx.fail(op, BRANCH_TYPES, format!("branch #{i} returns ({}) but branch #0 returns ({})", fmt::tys(rets.into_iter()), fmt::tys(f.iter().copied())));
                }
            }
        }
    }
    let Some(f) = first else { return };
    let res: Option<Vec<&Type>> = cx.res_tys(op).into_iter().collect();
    let Some(res) = res else { return };
    if res.len() != f.len() || res.iter().zip(&f).any(|(a, b)| !types_compatible(a, b)) {
        cx.fail(op, BRANCH_RESULTS, format!("results ({}) must have the branches' output types ({})", fmt::tys(res.into_iter()), fmt::tys(f.into_iter())));
    }
}
