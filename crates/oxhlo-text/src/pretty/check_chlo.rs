//! Pretty syntax of the `check` test dialect (`check.expect_eq_const %x, dense<..> : T`,
//! `check.expect_almost_eq_const %x, dense<..> : T, tolerance = 1.0e-3`, `check.expect_eq %a, %b : T`,
//! `check.expect_almost_eq`, `check.expect_close %a, %b, max_ulp_difference = 3 : T, T`,
//! `check.expect_serialized_eq %x, probe_id = "p", iter = 1 : T`), of `chlo.top_k(%x, k = 2) : T -> (R, I)` and of
//! `interpreter.probe %x, probe_id = "p" : T`.

use super::{i64_attr, op_with, Parsed};
use crate::lexer::Tok;
use crate::parser::body::FuncCtx;
use crate::parser::{PResult, Parser};
use crate::printer::attrs::write_string;
use crate::printer::types::fmt_float_value;
use crate::printer::Printer;
use oxhlo_ir::{Attr, ElementType, Op, OpKind, Signedness, Type};

fn uint(bits: u32) -> ElementType {
    ElementType::Int { bits, signedness: Signedness::Unsigned }
}

/// `= 1.0e-3` with an optional `: f64`.
fn parse_f64_attr(p: &mut Parser<'_>) -> PResult<Attr> {
    let v = p.parse_f64_literal()?;
    if p.is(Tok::Colon) && p.peek().kind == Tok::BareId && p.peek().text == "f64" {
        p.advance();
        p.advance();
    }
    Ok(Attr::Float(v, ElementType::F64))
}

fn parse_uint_attr(p: &mut Parser<'_>, bits: u32) -> PResult<Attr> {
    let at = p.tok.pos;
    let v = p.parse_i64()?;
    if v < 0 {
        return Err(p.err_at(at, "expected a non-negative integer"));
    }
    Ok(Attr::Int(v, uint(bits)))
}

pub fn parse<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>, kind: OpKind) -> PResult<Parsed> {
    use OpKind as K;
    match kind {
        K::ChloTopK => {
            p.expect(Tok::LParen, "'('")?;
            let u = p.parse_use(ctx)?;
            p.expect(Tok::Comma, "','")?;
            p.kw_eq("k")?;
            let mut attrs = vec![("k".to_string(), Attr::Int(p.parse_i64()?, ElementType::I64))];
            p.expect(Tok::RParen, "')'")?;
            attrs.extend(p.opt_attr_dict()?);
            p.expect(Tok::Colon, "':' and the operand type")?;
            let at = p.tok.pos;
            let t = p.parse_type()?;
            p.expect(Tok::Arrow, "'->' and the result types")?;
            let results = p.parse_result_types()?;
            let operands = p.check_uses(ctx, &[u], &[t], at)?;
            Ok((op_with(kind, operands, attrs), results))
        }
        K::CheckExpectEqConst | K::CheckExpectAlmostEqConst => {
            let u = p.parse_use(ctx)?;
            p.expect(Tok::Comma, "','")?;
            let at = p.tok.pos;
            let value = p.parse_attr()?;
            let ty = match &value {
                Attr::Dense(d) => Type::Tensor(d.ty.clone()),
                Attr::DenseResource(_, t) => t.clone(),
                _ => return Err(p.err_at(at, "expected a dense elements attribute")),
            };
            let mut attrs = vec![("value".to_string(), value)];
            if kind == K::CheckExpectAlmostEqConst && p.opt_comma_kw("tolerance")? {
                attrs.push(("tolerance".to_string(), parse_f64_attr(p)?));
            }
            attrs.extend(p.opt_attr_dict()?);
            let operands = p.check_uses(ctx, &[u], &[ty], at)?;
            Ok((op_with(kind, operands, attrs), Vec::new()))
        }
        K::CheckExpectEq | K::CheckExpectAlmostEq => {
            let a = p.parse_use(ctx)?;
            p.expect(Tok::Comma, "','")?;
            let b = p.parse_use(ctx)?;
            let mut attrs = Vec::new();
            if kind == K::CheckExpectAlmostEq && p.opt_comma_kw("tolerance")? {
                attrs.push(("tolerance".to_string(), parse_f64_attr(p)?));
            }
            attrs.extend(p.opt_attr_dict()?);
            p.expect(Tok::Colon, "':' and the operand type")?;
            let at = p.tok.pos;
            let t = p.parse_type()?;
            let operands = p.check_uses(ctx, &[a, b], &[t.clone(), t], at)?;
            Ok((op_with(kind, operands, attrs), Vec::new()))
        }
        K::CheckExpectClose => {
            let a = p.parse_use(ctx)?;
            p.expect(Tok::Comma, "','")?;
            let b = p.parse_use(ctx)?;
            p.expect(Tok::Comma, "','")?;
            p.kw_eq("max_ulp_difference")?;
            let mut attrs = vec![("max_ulp_difference".to_string(), parse_uint_attr(p, 64)?)];
            if p.opt_comma_kw("min_ulp_difference")? {
                attrs.push(("min_ulp_difference".to_string(), parse_uint_attr(p, 64)?));
            }
            p.expect(Tok::Colon, "':' and the operand types")?;
            attrs.extend(p.opt_attr_dict()?);
            let at = p.tok.pos;
            let ta = p.parse_type()?;
            p.expect(Tok::Comma, "','")?;
            let tb = p.parse_type()?;
            let operands = p.check_uses(ctx, &[a, b], &[ta, tb], at)?;
            Ok((op_with(kind, operands, attrs), Vec::new()))
        }
        K::InterpreterProbe => {
            // interpreter.probe %x, probe_id = "p" attr-dict : T  (result type = operand type)
            let u = p.parse_use(ctx)?;
            p.expect(Tok::Comma, "','")?;
            p.kw_eq("probe_id")?;
            let mut attrs = vec![("probe_id".to_string(), Attr::Str(p.parse_string()?))];
            attrs.extend(p.opt_attr_dict()?);
            p.expect(Tok::Colon, "':' and the operand type")?;
            let at = p.tok.pos;
            let t = p.parse_type()?;
            let operands = p.check_uses(ctx, &[u], std::slice::from_ref(&t), at)?;
            Ok((op_with(kind, operands, attrs), vec![t]))
        }
        _ => {
            // check.expect_serialized_eq
            let u = p.parse_use(ctx)?;
            p.expect(Tok::Comma, "','")?;
            p.kw_eq("probe_id")?;
            let mut attrs = vec![("probe_id".to_string(), Attr::Str(p.parse_string()?))];
            if p.opt_comma_kw("iter")? {
                attrs.push(("iteration".to_string(), parse_uint_attr(p, 32)?));
            }
            attrs.extend(p.opt_attr_dict()?);
            p.expect(Tok::Colon, "':' and the operand type")?;
            let at = p.tok.pos;
            let t = p.parse_type()?;
            let operands = p.check_uses(ctx, &[u], &[t], at)?;
            Ok((op_with(kind, operands, attrs), Vec::new()))
        }
    }
}

fn tolerance_text(op: &Op) -> Option<Option<String>> {
    match op.attr("tolerance") {
        None => Some(None),
        Some(Attr::Float(v, e)) if *e == ElementType::F64 => Some(Some(fmt_float_value(*v, e))),
        Some(_) => None,
    }
}

fn uint_attr(op: &Op, name: &str, bits: u32) -> Option<Option<i64>> {
    match op.attr(name) {
        None => Some(None),
        Some(Attr::Int(v, e)) if *e == uint(bits) && *v >= 0 => Some(Some(*v)),
        Some(_) => None,
    }
}

pub fn print(pr: &mut Printer<'_>, op: &Op) -> bool {
    use OpKind as K;
    if !op.results.is_empty() && !matches!(op.kind, K::ChloTopK | K::InterpreterProbe) {
        return false;
    }
    let tys: Vec<Type> = op.operands.iter().map(|v| pr.type_of(*v)).collect();
    match op.kind {
        K::InterpreterProbe => {
            let Some(Attr::Str(probe)) = op.attr("probe_id") else { return false };
            if op.operands.len() != 1 || op.results.len() != 1 || pr.type_of(op.results[0]) != tys[0] {
                return false;
            }
            pr.w("interpreter.probe ");
            pr.val(op.operands[0]);
            pr.w(", probe_id = ");
            write_string(&mut pr.out, probe);
            pr.attr_dict_except(op, &["probe_id"]);
            pr.w(" : ");
            pr.ty(&tys[0]);
        }
        K::ChloTopK => {
            let Some(k) = i64_attr(op, "k") else { return false };
            if op.operands.len() != 1 {
                return false;
            }
            pr.w("chlo.top_k(");
            pr.val(op.operands[0]);
            pr.w(&format!(", k = {k})"));
            pr.attr_dict_except(op, &["k"]);
            pr.w(" : ");
            pr.ty(&tys[0]);
            pr.w(" -> ");
            let outs: Vec<Type> = op.results.iter().map(|v| pr.type_of(*v)).collect();
            crate::printer::types::write_result_types(&mut pr.out, &outs);
        }
        K::CheckExpectEqConst | K::CheckExpectAlmostEqConst => {
            let Some(Attr::Dense(d)) = op.attr("value") else { return false };
            if op.operands.len() != 1 || tys[0] != Type::Tensor(d.ty.clone()) {
                return false;
            }
            let Some(tol) = tolerance_text(op) else { return false };
            if tol.is_some() && op.kind == K::CheckExpectEqConst {
                return false;
            }
            pr.w(op.name());
            pr.w(" ");
            pr.val(op.operands[0]);
            pr.w(", ");
            let v = Attr::Dense(d.clone());
            pr.attr(&v);
            if let Some(t) = tol {
                pr.w(&format!(", tolerance = {t}"));
            }
            pr.attr_dict_except(op, &["value", "tolerance"]);
        }
        K::CheckExpectEq | K::CheckExpectAlmostEq => {
            if op.operands.len() != 2 || tys[0] != tys[1] {
                return false;
            }
            let Some(tol) = tolerance_text(op) else { return false };
            if tol.is_some() && op.kind == K::CheckExpectEq {
                return false;
            }
            pr.w(op.name());
            pr.w(" ");
            pr.vals(&op.operands);
            if let Some(t) = tol {
                pr.w(&format!(", tolerance = {t}"));
            }
            pr.attr_dict_except(op, &["tolerance"]);
            pr.w(" : ");
            pr.ty(&tys[0]);
        }
        K::CheckExpectClose => {
            let (Some(Some(max)), Some(min)) = (uint_attr(op, "max_ulp_difference", 64), uint_attr(op, "min_ulp_difference", 64)) else {
                return false;
            };
            if op.operands.len() != 2 {
                return false;
            }
            pr.w("check.expect_close ");
            pr.vals(&op.operands);
            pr.w(&format!(", max_ulp_difference = {max}"));
            if let Some(m) = min {
                pr.w(&format!(", min_ulp_difference = {m}"));
            }
            pr.w(" :");
            pr.attr_dict_except(op, &["max_ulp_difference", "min_ulp_difference"]);
            pr.w(" ");
            pr.tys(&tys);
        }
        _ => {
            let Some(Attr::Str(probe)) = op.attr("probe_id") else { return false };
            let Some(iter) = uint_attr(op, "iteration", 32) else { return false };
            if op.operands.len() != 1 {
                return false;
            }
            pr.w("check.expect_serialized_eq ");
            pr.val(op.operands[0]);
            pr.w(", probe_id = ");
            write_string(&mut pr.out, probe);
            if let Some(i) = iter {
                pr.w(&format!(", iter = {i}"));
            }
            pr.attr_dict_except(op, &["probe_id", "iteration"]);
            pr.w(" : ");
            pr.ty(&tys[0]);
        }
    }
    true
}
