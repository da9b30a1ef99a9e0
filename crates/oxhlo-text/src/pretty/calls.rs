//! Pretty syntax of calls: `custom_call @target(%a) {backend_config = ...} : (T) -> R`,
//! `composite "name" %a {decomposition = @f, ...} : (T) -> R`, and `call @f(%a) : (T) -> R` (func.call).

use super::{op_with, Parsed};
use crate::lexer::Tok;
use crate::parser::body::FuncCtx;
use crate::parser::{PResult, Parser};
use crate::printer::attrs::{write_string, write_symbol};
use crate::printer::Printer;
use oxhlo_ir::{Attr, Op, OpKind};

pub fn parse<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>, kind: OpKind) -> PResult<Parsed> {
    let mut attrs = Vec::new();
    let uses = if kind == OpKind::Composite {
        attrs.push(("name".to_string(), Attr::Str(p.parse_string()?)));
        p.parse_uses(ctx)?
    } else {
        let t = p.expect(Tok::SymbolRef, "the callee '@name'")?;
        let name = p.symbol_name(t)?;
        if kind == OpKind::CustomCall {
            attrs.push(("call_target_name".to_string(), Attr::Str(name)));
        } else {
            attrs.push(("callee".to_string(), Attr::SymbolRef(name)));
        }
        p.expect(Tok::LParen, "'(' and the operands")?;
        let u = p.parse_uses(ctx)?;
        p.expect(Tok::RParen, "')'")?;
        u
    };
    attrs.extend(p.opt_attr_dict()?);
    let (operands, results) = p.colon_functional(ctx, &uses)?;
    Ok((op_with(kind, operands, attrs), results))
}

pub fn print(pr: &mut Printer<'_>, op: &Op) -> bool {
    match op.kind {
        OpKind::Composite => {
            let Some(Attr::Str(name)) = op.attr("name") else { return false };
            pr.w("stablehlo.composite ");
            write_string(&mut pr.out, name);
            pr.w(" ");
            pr.vals(&op.operands);
            pr.attr_dict_except(op, &["name"]);
        }
        OpKind::CustomCall => {
            let Some(Attr::Str(name)) = op.attr("call_target_name") else { return false };
            pr.w("stablehlo.custom_call ");
            write_symbol(&mut pr.out, name);
            pr.w("(");
            pr.vals(&op.operands);
            pr.w(")");
            pr.attr_dict_except(op, &["call_target_name"]);
        }
        _ => {
            let Some(Attr::SymbolRef(name)) = op.attr("callee") else { return false };
            pr.w(if pr.nesting == 0 { "call " } else { "func.call " });
            write_symbol(&mut pr.out, name);
            pr.w("(");
            pr.vals(&op.operands);
            pr.w(")");
            pr.attr_dict_except(op, &["callee"]);
        }
    }
    pr.w(" : ");
    pr.functional_type(op);
    true
}
