//! The remaining ops: constant, tuple and get_tuple_element, custom_call (api_version, backend_config,
//! layouts, output_operand_aliases), composite, optimization_barrier, rng and rng_bit_generator,
//! uniform_quantize/dequantize, and the `check` / `interpreter` test ops.

use crate::attr::{Attr, OutputOperandAlias, RngAlgorithm, RngDistribution};
use crate::body::Op;
use crate::types::{ElementType, TensorType, Type};
use crate::verify::cx::{attr_kind, class, elem_compatible, types_compatible, Cx, ATTR_KIND};
use crate::verify::shape::{dim_compatible, shapes_compatible};
use crate::verify::{fmt, movement};

rules! {
    CONSTANT_TYPE = "constant.type": "the value's type is the output type, or its storage type for quantized outputs (C1)";
    TUPLE_TYPE = "tuple.type": "the result is the tuple of the operand types (C1, C2)";
    GTE_INDEX = "get_tuple_element.index": "0 <= index < size(operand) (C1)";
    GTE_TYPE = "get_tuple_element.type": "type(result) = type(operand[index]) (C2)";
    CC_API_VERSION = "custom_call.api_version": "api_version is 0 to 4";
    CC_BACKEND_CONFIG = "custom_call.backend_config": "backend_config is a dictionary for api_version 4, else a string";
    CC_LAYOUTS = "custom_call.layouts": "operand_layouts and result_layouts come together, one permutation of [0, rank) per tensor";
    CC_ALIAS = "custom_call.output_operand_aliases": "each alias names an operand and tuple paths that exist, with equal types";
    COMPOSITE_SIGNATURE = "composite.signature": "operand and result types match the decomposition function's signature";
    COMPOSITE_VERSION = "composite.version": "version >= 0";
    BARRIER_TYPES = "optimization_barrier.types": "results have the operand types (C1, C2)";
    RNG_SCALARS = "rng.scalars": "a and b are 0-dimensional tensors";
    RNG_ELEM = "rng.element_types": "a, b and result have the same element type (C1)";
    RNG_NORMAL = "rng.normal": "NORMAL distribution needs a floating-point element type (C2)";
    RBG_STATE_TYPE = "rng_bit_generator.state_type": "type(initial_state) = type(output_state) (C1)";
    RBG_STATE_SIZE = "rng_bit_generator.state_size": "initial_state is 1-D with 2 entries for THREE_FRY, 2 or 3 for PHILOX (C2)";
    QUANTIZE_TYPES = "uniform_quantize.types": "uniform_quantize maps float or quantized to quantized of the same shape and expressed type";
    DEQUANTIZE_TYPES = "uniform_dequantize.types": "uniform_dequantize maps quantized to its expressed float type, same shape";
    CHECK_TYPES = "check.types": "the compared values (or probe operand and result) have the same type";
}

pub(crate) fn constant<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let Some(v) = cx.attr_as(op, "value", true, "a dense elements attribute", |a| match a {
        Attr::Dense(d) => Some(Type::Tensor(d.ty.clone())),
        Attr::DenseResource(_, t) => Some(t.clone()),
        _ => None,
    }) else {
        return;
    };
    let Some(r) = cx.res(op, 0) else { return };
    let ok = match (&v, r) {
        // A quantized constant is written with its storage values: `dense<...> : tensor<4xi8>`.
        (Type::Tensor(a), Type::Tensor(b)) => {
            let elem_ok = match &b.elem {
                ElementType::Quant(q) => a.elem == q.storage || a.elem == b.elem,
                e => a.elem == *e,
            };
            elem_ok && shapes_compatible(&a.shape, &b.shape)
        }
        _ => types_compatible(&v, r),
    };
    if !ok {
        cx.fail(op, CONSTANT_TYPE, format!("value type {} differs from the output type {}", fmt::ty(&v), fmt::ty(r)));
    }
}

pub(crate) fn tuple<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let ins: Option<Vec<Type>> = cx.opd_tys(op).into_iter().map(|t| t.cloned()).collect();
    let (Some(ins), Some(r)) = (ins, cx.res(op, 0)) else { return };
    let want = Type::Tuple(ins);
    if !types_compatible(&want, r) {
        cx.fail(op, TUPLE_TYPE, format!("result type {} must be {}", fmt::ty(r), fmt::ty(&want)));
    }
}

pub(crate) fn get_tuple_element<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let idx = cx.attr_int(op, "index", true);
    let (Some(x), Some(r)) = (cx.opd(op, 0), cx.res(op, 0)) else { return };
    let Type::Tuple(items) = x else {
        cx.fail(op, GTE_INDEX, format!("operand must be a tuple, got {}", fmt::ty(x)));
        return;
    };
    let Some(idx) = idx else { return };
    let Some(item) = usize::try_from(idx).ok().and_then(|i| items.get(i)) else {
        cx.fail(op, GTE_INDEX, format!("index {idx} is out of range [0, {})", items.len()));
        return;
    };
    if !types_compatible(item, r) {
        cx.fail(op, GTE_TYPE, format!("result type {} differs from element #{idx}'s type {}", fmt::ty(r), fmt::ty(item)));
    }
}

/// Follows tuple indices into a type.
fn tuple_path<'t>(mut t: &'t Type, path: &[i64]) -> Result<&'t Type, String> {
    for &i in path {
        let Type::Tuple(items) = t else { return Err(format!("index {i} applied to non-tuple type {}", fmt::ty(t))) };
        t = usize::try_from(i).ok().and_then(|i| items.get(i)).ok_or_else(|| format!("tuple index {i} is out of range [0, {})", items.len()))?;
    }
    Ok(t)
}

pub(crate) fn custom_call<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    cx.attr_str(op, "call_target_name", true);
    cx.attr_bool(op, "has_side_effect", false);
    let api = cx.attr_int(op, "api_version", false).unwrap_or(1);
    if !(0..=4).contains(&api) {
        cx.fail(op, CC_API_VERSION, format!("api_version {api} is not one of 0 to 4"));
    }
    if let Some(b) = op.attr("backend_config") {
        let ok = if api == 4 { matches!(b, Attr::Dict(_)) } else { matches!(b, Attr::Str(_)) };
        if !ok {
            let want = if api == 4 { "a dictionary" } else { "a string" };
            cx.fail(op, CC_BACKEND_CONFIG, format!("backend_config must be {want} for api_version {api}, got {}", attr_kind(b)));
        }
    }
    layouts(cx, op);
    let aliases = cx.attr_as(op, "output_operand_aliases", false, "an array of #stablehlo.output_operand_alias", |a| match a {
        Attr::Array(items) => items
            .iter()
            .map(|i| match i {
                Attr::OutputOperandAlias(x) => Some(x),
                _ => None,
            })
            .collect::<Option<Vec<&OutputOperandAlias>>>(),
        _ => None,
    });
    for a in aliases.unwrap_or_default() {
        let Some(opd) = usize::try_from(a.operand_index).ok().and_then(|i| cx.opd(op, i)) else {
            cx.fail(op, CC_ALIAS, format!("output_operand_alias operand_index {} is out of range [0, {})", a.operand_index, op.operands.len()));
            continue;
        };
        let outs: Vec<Type> = cx.res_tys(op).into_iter().flatten().cloned().collect();
        let root = if outs.len() == 1 { outs[0].clone() } else { Type::Tuple(outs) };
        let (o, p) = (tuple_path(opd, &a.operand_tuple_indices), tuple_path(&root, &a.output_tuple_indices));
        match (o, p) {
            (Ok(o), Ok(p)) if types_compatible(o, p) => {}
            (Ok(o), Ok(p)) => {
                cx.fail(op, CC_ALIAS, format!("aliased operand part {} and output part {} have different types", fmt::ty(o), fmt::ty(p)))
            }
            (Err(e), _) | (_, Err(e)) => cx.fail(op, CC_ALIAS, format!("output_operand_alias: {e}")),
        }
    }
}

fn layouts<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let layout = |a: &Attr| match a {
        Attr::Dense(d) if d.ty.rank() == 1 => d.to_i64_vec(),
        other => other.as_i64_list(),
    };
    let read = |a: &Attr| match a {
        Attr::Array(items) => items.iter().map(layout).collect::<Option<Vec<Vec<i64>>>>(),
        _ => None,
    };
    let ol = cx.attr_as(op, "operand_layouts", false, "an array of layouts", read);
    let rl = cx.attr_as(op, "result_layouts", false, "an array of layouts", read);
    match (ol, rl) {
        (None, None) => {}
        (Some(ol), Some(rl)) => {
            for (what, ls, tys) in [("operand", ol, cx.opd_tys(op)), ("result", rl, cx.res_tys(op))] {
                if ls.len() != tys.len() {
                    cx.fail(op, CC_LAYOUTS, format!("{} {what} layouts for {} {what}s", ls.len(), tys.len()));
                    continue;
                }
                for (i, (l, t)) in ls.iter().zip(tys).enumerate() {
                    let Some(Type::Tensor(t)) = t else { continue };
                    let mut s = l.clone();
                    s.sort_unstable();
                    if s != (0..t.rank() as i64).collect::<Vec<_>>() {
                        cx.fail(op, CC_LAYOUTS, format!("{what} #{i} layout {} is not a permutation of [0, {})", fmt::list(l), t.rank()));
                    }
                }
            }
        }
        _ => cx.fail(op, CC_LAYOUTS, "operand_layouts and result_layouts must both be present or both absent"),
    }
}

pub(crate) fn composite<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    cx.attr_str(op, "name", true);
    if let Some(v) = cx.attr_int(op, "version", false) {
        if v < 0 {
            cx.fail(op, COMPOSITE_VERSION, format!("version {v} must be non-negative"));
        }
    }
    let Some(name) = cx.attr_as(op, "decomposition", true, "a symbol reference", Attr::as_symbol) else { return };
    let Some(f) = cx.m.func(name) else { return };
    let ins = cx.opd_tys(op);
    let outs = cx.res_tys(op);
    let ok = ins.len() == f.ty.inputs.len()
        && outs.len() == f.ty.results.len()
        && ins.iter().zip(&f.ty.inputs).all(|(a, b)| a.is_some_and(|a| types_compatible(a, b)))
        && outs.iter().zip(&f.ty.results).all(|(a, b)| a.is_some_and(|a| types_compatible(a, b)));
    if !ok {
        cx.fail(
            op,
            COMPOSITE_SIGNATURE,
            format!(
                "type ({}) -> ({}) does not match @{name}'s signature ({}) -> ({})",
                fmt::opt_tys(ins.into_iter()),
                fmt::opt_tys(outs.into_iter()),
                fmt::tys(f.ty.inputs.iter()),
                fmt::tys(f.ty.results.iter())
            ),
        );
    }
}

pub(crate) fn optimization_barrier<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (ins, outs) = (cx.opd_tys(op), cx.res_tys(op));
    let ok = ins.len() == outs.len() && ins.iter().zip(&outs).all(|(a, b)| matches!((a, b), (Some(a), Some(b)) if types_compatible(a, b)));
    if !ok {
        cx.fail(op, BARRIER_TYPES, format!("results ({}) must have the operand types ({})", fmt::opt_tys(outs.into_iter()), fmt::opt_tys(ins.into_iter())));
    }
}

pub(crate) fn rng<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dist = cx.attr_as(op, "rng_distribution", true, "a #stablehlo<rng_distribution>", |a| match a {
        Attr::RngDistribution(d) => Some(*d),
        _ => None,
    });
    let (Some(a), Some(b), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_opd(op, 1), cx.tensor_res(op, 0)) else { return };
    movement::shape_operand(cx, op, 2, "shape", Some(r.rank()));
    if a.rank() != 0 || b.rank() != 0 {
        cx.fail(op, RNG_SCALARS, format!("a and b must be 0-dimensional, got {} and {}", fmt::tensor(a), fmt::tensor(b)));
    }
    cx.elem(op, "result", &r.elem, class::BOOL | class::INT | class::FLOAT);
    if a.elem != r.elem || b.elem != r.elem {
        cx.fail(op, RNG_ELEM, format!("a, b and result element types {}, {} and {} differ", fmt::elem(&a.elem), fmt::elem(&b.elem), fmt::elem(&r.elem)));
    } else if dist == Some(RngDistribution::Normal) && !r.elem.is_float() {
        cx.fail(op, RNG_NORMAL, format!("NORMAL needs a floating-point element type, got {}", fmt::elem(&r.elem)));
    }
}

pub(crate) fn rng_bit_generator<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let algo = cx.attr_as(op, "rng_algorithm", true, "a #stablehlo<rng_algorithm>", |a| match a {
        Attr::RngAlgorithm(x) => Some(*x),
        _ => None,
    });
    let (Some(s), Some(os), Some(out)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0), cx.tensor_res(op, 1)) else { return };
    cx.elem(op, "output", &out.elem, class::INT | class::FLOAT);
    if s.elem != os.elem || !shapes_compatible(&s.shape, &os.shape) {
        cx.fail(op, RBG_STATE_TYPE, format!("initial_state type {} and output_state type {} differ", fmt::tensor(s), fmt::tensor(os)));
    }
    let n = if s.rank() == 1 { Some(s.shape[0]) } else { None };
    let ok = match (algo, n) {
        (_, None) => false,
        (Some(RngAlgorithm::ThreeFry), Some(n)) => dim_compatible(n, 2),
        (Some(RngAlgorithm::Philox), Some(n)) => dim_compatible(n, 2) || dim_compatible(n, 3),
        _ => true,
    };
    if !ok {
        let algo = algo.map(|a| a.keyword()).unwrap_or("the algorithm");
        cx.fail(op, RBG_STATE_SIZE, format!("initial_state {} has the wrong shape for {algo}", fmt::tensor(s)));
    }
}

fn expressed(e: &ElementType) -> Option<&ElementType> {
    match e {
        ElementType::Quant(q) => Some(&q.expressed),
        _ => None,
    }
}

pub(crate) fn uniform_quantize<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    let want = if x.elem.is_float() { Some(&x.elem) } else { expressed(&x.elem) };
    let ok = shapes_compatible(&x.shape, &r.shape) && want.is_some() && expressed(&r.elem) == want;
    if !ok {
        cx.fail(op, QUANTIZE_TYPES, format!("cannot quantize {} to {}: need a quantized result of the same shape expressing the operand's float type", fmt::tensor(x), fmt::tensor(r)));
    }
}

pub(crate) fn uniform_dequantize<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(x), Some(r)) = (cx.tensor_opd(op, 0), cx.tensor_res(op, 0)) else { return };
    let ok = shapes_compatible(&x.shape, &r.shape) && expressed(&x.elem) == Some(&r.elem);
    if !ok {
        cx.fail(op, DEQUANTIZE_TYPES, format!("cannot dequantize {} to {}: need the operand's expressed type and shape", fmt::tensor(x), fmt::tensor(r)));
    }
}

fn same_tensor(a: &TensorType, b: &TensorType) -> bool {
    elem_compatible(&a.elem, &b.elem) && shapes_compatible(&a.shape, &b.shape)
}

pub(crate) fn check_pair<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(a), Some(b)) = (cx.opd(op, 0), cx.opd(op, 1)) else { return };
    if !types_compatible(a, b) {
        cx.fail(op, CHECK_TYPES, format!("compared values have different types {} and {}", fmt::ty(a), fmt::ty(b)));
    }
}

pub(crate) fn check_const<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let Some(v) = cx.attr(op, "value", true) else { return };
    let Some(x) = cx.tensor_opd(op, 0) else { return };
    match v {
        Attr::Dense(d) => {
            if !same_tensor(&d.ty, x) {
                cx.fail(op, CHECK_TYPES, format!("expected value type {} differs from the operand type {}", fmt::tensor(&d.ty), fmt::tensor(x)));
            }
        }
        Attr::DenseResource(..) => {}
        other => cx.fail(op, ATTR_KIND, format!("attribute `value` must be a dense elements attribute, got {}", attr_kind(other))),
    }
}

pub(crate) fn probe<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let (Some(a), Some(b)) = (cx.opd(op, 0), cx.res(op, 0)) else { return };
    if !types_compatible(a, b) {
        cx.fail(op, CHECK_TYPES, format!("result type {} differs from the operand type {}", fmt::ty(b), fmt::ty(a)));
    }
}
