//! The generic op form: `"dialect.op"(%a, %b) <{properties}> ({regions}) {attributes} : (T, T) -> (R)`.
//! Properties and attributes are merged into the op's attribute list; ops outside the table become
//! `OpKind::Unregistered` with their name kept.

use super::body::FuncCtx;
use super::{PResult, Parser};
use crate::lexer::Tok;
use oxhlo_ir::{NamedAttr, Op, OpKind, Type};

impl<'a> Parser<'a> {
    /// A generic op; the current token is its quoted name. Returns the op (results unbound) and result types.
    pub fn parse_generic_op(&mut self, ctx: &mut FuncCtx<'a>) -> PResult<(Op, Vec<Type>)> {
        let name_tok = self.tok;
        let name = self.parse_string()?;
        let kind = OpKind::from_name(&name).unwrap_or(OpKind::Unregistered);
        self.expect(Tok::LParen, "'(' opening the operand list")?;
        let uses = self.parse_uses(ctx)?;
        self.expect(Tok::RParen, "')' closing the operand list")?;
        if self.is(Tok::LBracket) {
            return Err(self.err("block successors are not supported"));
        }
        let mut attrs: Vec<NamedAttr> = Vec::new();
        if self.is(Tok::Less) && self.peek().kind == Tok::LBrace {
            self.advance();
            self.advance();
            attrs = self.parse_dict_body()?;
            self.expect(Tok::Greater, "'>' closing the properties")?;
        }
        let mut regions = Vec::new();
        if self.is(Tok::LParen) && self.peek().kind == Tok::LBrace {
            self.advance();
            loop {
                regions.push(self.parse_region(ctx)?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::RParen, "')' closing the region list")?;
        }
        if self.eat(Tok::LBrace) {
            attrs.extend(self.parse_dict_body()?);
        }
        self.expect(Tok::Colon, "':' and the op's function type")?;
        let tpos = self.tok.pos;
        let fty = match self.parse_type()? {
            Type::Function(f) => f,
            _ => return Err(self.err_at(tpos, "expected a function type '(operand types) -> result types'")),
        };
        let operands = self.check_uses(ctx, &uses, &fty.inputs, tpos)?;
        let mut op = Op::new(kind, operands, Vec::new());
        if kind == OpKind::Unregistered {
            op.unregistered_name = Some(name);
        } else if name_tok.text.is_empty() {
            return Err(self.err_at(name_tok.pos, "empty op name"));
        }
        op.attrs = attrs;
        op.regions = regions;
        Ok((op, fty.results))
    }
}
