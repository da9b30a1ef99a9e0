//! Pretty syntax of small ops: `constant dense<..> : T` (and chlo.constant), `iota dim = 0 : T`,
//! `create_token`/`replica_id`/`partition_id : T`, `tuple %a, %b : tuple<..>`, `get_tuple_element %t[0]`,
//! `compare EQ, %a, %b, FLOAT`, `select %p, %a, %b : P, T`, `complex %a, %b : C`,
//! `optimization_barrier %a, %b : T, U`, and `stablehlo.return` / `return`.

use super::{i64_attr, op_with, Parsed};
use crate::lexer::Tok;
use crate::parser::body::FuncCtx;
use crate::parser::{PResult, Parser};
use crate::printer::Printer;
use oxhlo_ir::{Attr, ElementType, Op, OpKind, Type};

pub fn parse_constant<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>, kind: OpKind) -> PResult<Parsed> {
    // `stablehlo.constant() <{value = ...}> : () -> T` (types differ, e.g. quantized results).
    if p.is(Tok::LParen) {
        p.advance();
        p.expect(Tok::RParen, "')'")?;
        let mut attrs = Vec::new();
        if p.is(Tok::Less) {
            p.advance();
            p.expect(Tok::LBrace, "'{'")?;
            attrs = p.parse_dict_body()?;
            p.expect(Tok::Greater, "'>'")?;
        }
        attrs.extend(p.opt_attr_dict()?);
        let (operands, results) = p.colon_functional(ctx, &[])?;
        return Ok((op_with(kind, operands, attrs), results));
    }
    let mut attrs = p.opt_attr_dict()?;
    let at = p.tok.pos;
    let value = p.parse_attr()?;
    let ty = match &value {
        Attr::Dense(d) => Type::Tensor(d.ty.clone()),
        Attr::DenseResource(_, t) => t.clone(),
        _ => return Err(p.err_at(at, "expected a dense elements attribute")),
    };
    if kind == OpKind::ChloConstant {
        attrs.extend(p.opt_attr_dict()?);
    }
    attrs.push(("value".to_string(), value));
    Ok((op_with(kind, Vec::new(), attrs), vec![ty]))
}

pub fn print_constant(pr: &mut Printer<'_>, op: &Op) -> bool {
    if !op.operands.is_empty() || op.results.len() != 1 {
        return false;
    }
    let rt = pr.type_of(op.results[0]);
    let vt = match op.attr("value") {
        Some(Attr::Dense(d)) => Type::Tensor(d.ty.clone()),
        Some(Attr::DenseResource(_, t)) => t.clone(),
        _ => return false,
    };
    pr.w(op.name());
    if vt != rt {
        pr.w("() <{value = ");
        if let Some(v) = op.attr("value") {
            pr.attr(v);
        }
        pr.w("}>");
        pr.attr_dict_except(op, &["value"]);
        pr.w(" : () -> ");
        pr.ty(&rt);
        return true;
    }
    if op.kind == OpKind::Constant {
        pr.attr_dict_except(op, &["value"]);
    }
    pr.w(" ");
    if let Some(v) = op.attr("value") {
        pr.attr(v);
    }
    if op.kind == OpKind::ChloConstant {
        pr.attr_dict_except(op, &["value"]);
    }
    true
}

/// `iota dim = 0 : T`, `create_token : T`, `replica_id : T`, `partition_id : T`.
pub fn parse_nullary(p: &mut Parser<'_>, kind: OpKind) -> PResult<Parsed> {
    let mut attrs = Vec::new();
    if kind == OpKind::Iota {
        p.kw_eq("dim")?;
        attrs.push(("iota_dimension".to_string(), Attr::Int(p.parse_i64()?, ElementType::I64)));
    }
    attrs.extend(p.opt_attr_dict()?);
    p.expect(Tok::Colon, "':' and the result type")?;
    let t = p.parse_type()?;
    Ok((op_with(kind, Vec::new(), attrs), vec![t]))
}

pub fn print_nullary(pr: &mut Printer<'_>, op: &Op) -> bool {
    if !op.operands.is_empty() || op.results.len() != 1 {
        return false;
    }
    pr.w(op.name());
    if op.kind == OpKind::Iota {
        let Some(d) = i64_attr(op, "iota_dimension") else { return false };
        pr.w(&format!(" dim = {d}"));
        pr.attr_dict_except(op, &["iota_dimension"]);
    } else {
        pr.attr_dict_except(op, &[]);
    }
    pr.w(" : ");
    let t = pr.type_of(op.results[0]);
    pr.ty(&t);
    true
}

/// `tuple %a, %b : tuple<A, B>`.
pub fn parse_tuple<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>) -> PResult<Parsed> {
    let uses = p.parse_uses(ctx)?;
    let attrs = p.opt_attr_dict()?;
    p.expect(Tok::Colon, "':' and the tuple type")?;
    let at = p.tok.pos;
    let t = p.parse_type()?;
    let elems = match &t {
        Type::Tuple(e) => e.clone(),
        _ => return Err(p.err_at(at, "expected a tuple type")),
    };
    let operands = p.check_uses(ctx, &uses, &elems, at)?;
    Ok((op_with(OpKind::Tuple, operands, attrs), vec![t]))
}

pub fn print_tuple(pr: &mut Printer<'_>, op: &Op) -> bool {
    if op.results.len() != 1 {
        return false;
    }
    let rt = pr.type_of(op.results[0]);
    let ins: Vec<Type> = op.operands.iter().map(|v| pr.type_of(*v)).collect();
    if rt != Type::Tuple(ins) {
        return false;
    }
    pr.w("stablehlo.tuple");
    if !op.operands.is_empty() {
        pr.w(" ");
        pr.vals(&op.operands);
    }
    pr.attr_dict_except(op, &[]);
    pr.w(" : ");
    pr.ty(&rt);
    true
}

/// `get_tuple_element %t[0] : (tuple<..>) -> T`.
pub fn parse_get_tuple_element<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>) -> PResult<Parsed> {
    let u = p.parse_use(ctx)?;
    p.expect(Tok::LBracket, "'[' and the tuple index")?;
    let idx = p.parse_i64()?;
    p.expect(Tok::RBracket, "']'")?;
    let mut attrs = vec![("index".to_string(), Attr::Int(idx, ElementType::I32))];
    attrs.extend(p.opt_attr_dict()?);
    let (operands, results) = p.colon_functional(ctx, &[u])?;
    Ok((op_with(OpKind::GetTupleElement, operands, attrs), results))
}

pub fn print_get_tuple_element(pr: &mut Printer<'_>, op: &Op) -> bool {
    let Some(Attr::Int(i, ElementType::Int { bits: 32, signedness: oxhlo_ir::Signedness::Signless })) = op.attr("index") else {
        return false;
    };
    if op.operands.len() != 1 {
        return false;
    }
    pr.w("stablehlo.get_tuple_element ");
    pr.val(op.operands[0]);
    pr.w(&format!("[{i}]"));
    pr.attr_dict_except(op, &["index"]);
    pr.w(" : ");
    pr.functional_type(op);
    true
}

/// `compare EQ, %a, %b[, TYPE] : (T, T) -> R`.
pub fn parse_compare<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>) -> PResult<Parsed> {
    let d = p.expect(Tok::BareId, "a comparison direction")?;
    let dir = oxhlo_ir::attr::ComparisonDirection::from_keyword(d.text).ok_or_else(|| p.err_at(d.pos, format!("unknown comparison direction '{}'", d.text)))?;
    p.expect(Tok::Comma, "','")?;
    let a = p.parse_use(ctx)?;
    p.expect(Tok::Comma, "','")?;
    let b = p.parse_use(ctx)?;
    let mut attrs = vec![("comparison_direction".to_string(), Attr::ComparisonDirection(dir))];
    if p.eat(Tok::Comma) {
        let t = p.expect(Tok::BareId, "a comparison type")?;
        let ct = oxhlo_ir::attr::ComparisonType::from_keyword(t.text).ok_or_else(|| p.err_at(t.pos, format!("unknown comparison type '{}'", t.text)))?;
        attrs.push(("compare_type".to_string(), Attr::ComparisonType(ct)));
    }
    attrs.extend(p.opt_attr_dict()?);
    let (operands, results) = p.colon_functional(ctx, &[a, b])?;
    Ok((op_with(OpKind::Compare, operands, attrs), results))
}

pub fn print_compare(pr: &mut Printer<'_>, op: &Op) -> bool {
    let Some(Attr::ComparisonDirection(d)) = op.attr("comparison_direction") else { return false };
    let ct = match op.attr("compare_type") {
        None => None,
        Some(Attr::ComparisonType(t)) => Some(*t),
        Some(_) => return false,
    };
    if op.operands.len() != 2 {
        return false;
    }
    pr.w(&format!("stablehlo.compare {}, ", d.keyword()));
    pr.vals(&op.operands);
    if let Some(t) = ct {
        pr.w(&format!(", {}", t.keyword()));
    }
    pr.attr_dict_except(op, &["comparison_direction", "compare_type"]);
    pr.w(" : ");
    pr.functional_type(op);
    true
}

/// `select %p, %a, %b : P, T` or `: (P, T, T) -> T`.
pub fn parse_select<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>) -> PResult<Parsed> {
    let uses = p.parse_uses(ctx)?;
    let attrs = p.opt_attr_dict()?;
    p.expect(Tok::Colon, "':' and the types")?;
    let at = p.tok.pos;
    let first = p.parse_type()?;
    if let Type::Function(f) = first {
        let operands = p.check_uses(ctx, &uses, &f.inputs, at)?;
        return Ok((op_with(OpKind::Select, operands, attrs), f.results));
    }
    p.expect(Tok::Comma, "',' and the result type")?;
    let t = p.parse_type()?;
    let operands = p.check_uses(ctx, &uses, &[first, t.clone(), t.clone()], at)?;
    Ok((op_with(OpKind::Select, operands, attrs), vec![t]))
}

pub fn print_select(pr: &mut Printer<'_>, op: &Op) -> bool {
    if op.operands.len() != 3 || op.results.len() != 1 {
        return false;
    }
    pr.w("stablehlo.select ");
    pr.vals(&op.operands);
    pr.attr_dict_except(op, &[]);
    pr.w(" : ");
    let rt = pr.type_of(op.results[0]);
    if pr.type_of(op.operands[1]) == rt && pr.type_of(op.operands[2]) == rt {
        let pt = pr.type_of(op.operands[0]);
        pr.ty(&pt);
        pr.w(", ");
        pr.ty(&rt);
    } else {
        pr.functional_type(op);
    }
    true
}

/// The real type matching a complex type (`tensor<2xcomplex<f32>>` -> `tensor<2xf32>`).
fn real_of(t: &Type) -> Option<Type> {
    match t {
        Type::Tensor(tt) => match tt.elem {
            ElementType::Complex(f) => {
                let mut r = tt.clone();
                r.elem = ElementType::Float(f);
                Some(Type::Tensor(r))
            }
            _ => None,
        },
        _ => None,
    }
}

/// `complex %a, %b : C` or `: (A, B) -> C`.
pub fn parse_complex<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>) -> PResult<Parsed> {
    let uses = p.parse_uses(ctx)?;
    let attrs = p.opt_attr_dict()?;
    p.expect(Tok::Colon, "':' and the type")?;
    let at = p.tok.pos;
    let t = p.parse_type()?;
    if let Type::Function(f) = t {
        let operands = p.check_uses(ctx, &uses, &f.inputs, at)?;
        return Ok((op_with(OpKind::Complex, operands, attrs), f.results));
    }
    let r = real_of(&t).ok_or_else(|| p.err_at(at, "expected a complex tensor type"))?;
    let operands = p.check_uses(ctx, &uses, &[r.clone(), r], at)?;
    Ok((op_with(OpKind::Complex, operands, attrs), vec![t]))
}

pub fn print_complex(pr: &mut Printer<'_>, op: &Op) -> bool {
    if op.operands.len() != 2 || op.results.len() != 1 {
        return false;
    }
    pr.w("stablehlo.complex ");
    pr.vals(&op.operands);
    pr.attr_dict_except(op, &[]);
    pr.w(" : ");
    let rt = pr.type_of(op.results[0]);
    let r = real_of(&rt);
    if r.is_some() && r == Some(pr.type_of(op.operands[0])) && r == Some(pr.type_of(op.operands[1])) {
        pr.ty(&rt);
    } else {
        pr.functional_type(op);
    }
    true
}

/// `optimization_barrier %a, %b : A, B` / `optimization_barrier()`.
pub fn parse_optimization_barrier<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>) -> PResult<Parsed> {
    if p.eat(Tok::LParen) {
        p.expect(Tok::RParen, "')'")?;
        let attrs = p.opt_attr_dict()?;
        return Ok((op_with(OpKind::OptimizationBarrier, Vec::new(), attrs), Vec::new()));
    }
    let uses = p.parse_uses(ctx)?;
    let attrs = p.opt_attr_dict()?;
    p.expect(Tok::Colon, "':' and the types")?;
    let at = p.tok.pos;
    let mut tys = Vec::new();
    loop {
        tys.push(p.parse_type()?);
        if !p.eat(Tok::Comma) {
            break;
        }
    }
    let operands = p.check_uses(ctx, &uses, &tys, at)?;
    Ok((op_with(OpKind::OptimizationBarrier, operands, attrs), tys))
}

pub fn print_optimization_barrier(pr: &mut Printer<'_>, op: &Op) -> bool {
    let ins: Vec<Type> = op.operands.iter().map(|v| pr.type_of(*v)).collect();
    let outs: Vec<Type> = op.results.iter().map(|v| pr.type_of(*v)).collect();
    if ins != outs {
        return false;
    }
    pr.w("stablehlo.optimization_barrier");
    if op.operands.is_empty() {
        pr.w("()");
        pr.attr_dict_except(op, &[]);
        return true;
    }
    pr.w(" ");
    pr.vals(&op.operands);
    pr.attr_dict_except(op, &[]);
    pr.w(" : ");
    pr.tys(&ins);
    true
}

/// `stablehlo.return %a, %b : A, B` / `return` (func.return).
pub fn parse_return<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>, kind: OpKind) -> PResult<Parsed> {
    let uses = p.parse_uses(ctx)?;
    let attrs = p.opt_attr_dict()?;
    let mut tys = Vec::new();
    let at = p.tok.pos;
    if !uses.is_empty() {
        p.expect(Tok::Colon, "':' and the returned types")?;
        loop {
            tys.push(p.parse_type()?);
            if !p.eat(Tok::Comma) {
                break;
            }
        }
    }
    let operands = p.check_uses(ctx, &uses, &tys, at)?;
    Ok((op_with(kind, operands, attrs), Vec::new()))
}

pub fn print_return(pr: &mut Printer<'_>, op: &Op) -> bool {
    if !op.results.is_empty() {
        return false;
    }
    pr.w(match op.kind {
        OpKind::FuncReturn if pr.nesting == 0 => "return",
        OpKind::FuncReturn => "func.return",
        _ => "stablehlo.return",
    });
    if !op.operands.is_empty() {
        pr.w(" ");
        pr.vals(&op.operands);
    }
    pr.attr_dict_except(op, &[]);
    if !op.operands.is_empty() {
        pr.w(" : ");
        let ins: Vec<Type> = op.operands.iter().map(|v| pr.type_of(*v)).collect();
        pr.tys(&ins);
    }
    true
}
