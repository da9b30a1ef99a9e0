//! Function bodies: SSA value scopes (names are visible in nested regions, a function is isolated),
//! value uses with `%x#N` result numbers and type checks against their definitions, regions and blocks
//! with arguments, and one op line: result names, the op (generic or pretty form), its location.

use super::attrs::sort_named;
use super::{PResult, Parser};
use crate::lexer::Tok;
use oxhlo_ir::{Block, Op, OpKind, Region, Type, Value};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A small fast hasher for SSA names (FxHash's multiply-rotate; names are not attacker-controlled keys
/// that matter for denial of service here: a parse is linear in the input anyway).
#[derive(Default)]
pub struct NameHasher(u64);

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type NameMap<'a> = HashMap<&'a str, (u32, u32), BuildHasherDefault<NameHasher>>;

/// The values of the function being parsed and the names in scope.
pub struct FuncCtx<'a> {
    /// The function's value arena (becomes `Func::values`).
    pub values: Vec<Type>,
    scopes: Vec<NameMap<'a>>,
}

/// One use of a value as written: the value, its spelling and position.
#[derive(Clone, Copy, Debug)]
pub struct Use<'a> {
    pub v: Value,
    pub name: &'a str,
    pub pos: usize,
}

impl<'a> Default for FuncCtx<'a> {
    fn default() -> Self {
        FuncCtx::new()
    }
}

impl<'a> FuncCtx<'a> {
    pub fn new() -> FuncCtx<'a> {
        FuncCtx { values: Vec::new(), scopes: vec![NameMap::default()] }
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(NameMap::default());
    }

    pub fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    /// Allocates a value without a name.
    pub fn new_value(&mut self, ty: Type) -> Value {
        self.values.push(ty);
        Value((self.values.len() - 1) as u32)
    }

    /// Defines `name` as a group of values with the given types; errors if the name is visible already.
    pub fn define(&mut self, name: &'a str, types: Vec<Type>) -> Result<Vec<Value>, String> {
        if self.scopes.iter().any(|s| s.contains_key(name)) {
            return Err(format!("redefinition of SSA value '{name}'"));
        }
        let first = self.values.len() as u32;
        let n = types.len() as u32;
        let vals: Vec<Value> = types.into_iter().map(|t| self.new_value(t)).collect();
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name, (first, n));
        }
        Ok(vals)
    }

    /// Looks up `%name` or `%name#N`.
    pub fn lookup(&self, text: &str) -> Result<Value, String> {
        let (name, idx) = match text.rfind('#') {
            Some(h) if h > 1 => {
                let n: u32 = text[h + 1..].parse().map_err(|_| format!("invalid result number in '{text}'"))?;
                (&text[..h], n)
            }
            _ => (text, 0),
        };
        for s in self.scopes.iter().rev() {
            if let Some(&(first, count)) = s.get(name) {
                if idx >= count {
                    return Err(format!("result number {idx} of '{name}' is out of range (it has {count} results)"));
                }
                return Ok(Value(first + idx));
            }
        }
        Err(format!("use of undeclared SSA value '{name}'"))
    }
}

impl<'a> Parser<'a> {
    /// One value use `%x` / `%x#1`.
    pub fn parse_use(&mut self, ctx: &FuncCtx<'a>) -> PResult<Use<'a>> {
        let t = self.expect(Tok::ValueId, "an SSA value")?;
        let v = ctx.lookup(t.text).map_err(|m| self.err_at(t.pos, m))?;
        Ok(Use { v, name: t.text, pos: t.pos })
    }

    /// `%a, %b, ...` (possibly empty) until a token that is not a value.
    pub fn parse_uses(&mut self, ctx: &FuncCtx<'a>) -> PResult<Vec<Use<'a>>> {
        let mut v = Vec::new();
        if !self.is(Tok::ValueId) {
            return Ok(v);
        }
        loop {
            v.push(self.parse_use(ctx)?);
            if !(self.is(Tok::Comma) && self.peek().kind == Tok::ValueId) {
                return Ok(v);
            }
            self.advance();
        }
    }

    /// Checks that a use has the type the syntax gives it.
    pub fn check_use(&self, ctx: &FuncCtx<'a>, u: &Use<'a>, ty: &Type) -> PResult<()> {
        let have = ctx.values.get(u.v.0 as usize);
        if have != Some(ty) {
            let have = have.map(crate::printer::types::type_to_string).unwrap_or_default();
            return Err(self.err_at(
                u.pos,
                format!(
                    "use of value '{}' expects different type than prior uses: '{}' vs '{}'",
                    u.name,
                    crate::printer::types::type_to_string(ty),
                    have
                ),
            ));
        }
        Ok(())
    }

    /// Checks a list of uses against a list of types (counts must match).
    pub fn check_uses(&self, ctx: &FuncCtx<'a>, uses: &[Use<'a>], tys: &[Type], at: usize) -> PResult<Vec<Value>> {
        if uses.len() != tys.len() {
            return Err(self.err_at(at, format!("{} operands present, but expected {} types", uses.len(), tys.len())));
        }
        for (u, t) in uses.iter().zip(tys) {
            self.check_use(ctx, u, t)?;
        }
        Ok(uses.iter().map(|u| u.v).collect())
    }

    /// A region `{ blocks }`, with names of enclosing regions visible.
    pub fn parse_region(&mut self, ctx: &mut FuncCtx<'a>) -> PResult<Region> {
        self.parse_region_with_args(ctx, None)
    }

    /// A region whose entry block's arguments are already known (function bodies, pretty `while`).
    pub fn parse_region_with_args(&mut self, ctx: &mut FuncCtx<'a>, entry_args: Option<Vec<Value>>) -> PResult<Region> {
        self.enter()?;
        self.expect(Tok::LBrace, "'{' opening a region")?;
        ctx.push_scope();
        let r = self.parse_region_blocks(ctx, entry_args);
        ctx.pop_scope();
        self.leave();
        r
    }

    fn parse_region_blocks(&mut self, ctx: &mut FuncCtx<'a>, entry_args: Option<Vec<Value>>) -> PResult<Region> {
        let mut region = Region::default();
        let mut entry_args = entry_args;
        let mut block_names: Vec<&'a str> = Vec::new();
        loop {
            if self.eat(Tok::RBrace) {
                if let Some(args) = entry_args.take() {
                    region.blocks.push(Block { args, ops: Vec::new() });
                }
                return Ok(region);
            }
            let mut block = Block::default();
            if self.is(Tok::CaretId) {
                let label = self.tok;
                if entry_args.is_some() {
                    return Err(self.err("invalid block name in a region with named arguments"));
                }
                if block_names.contains(&label.text) {
                    return Err(self.err(format!("redefinition of block '{}'", label.text)));
                }
                block_names.push(label.text);
                self.advance();
                if self.eat(Tok::LParen) {
                    let args = self.comma_list(Tok::RParen, "block arguments", |p| {
                        let n = p.expect(Tok::ValueId, "a block argument")?;
                        p.expect(Tok::Colon, "':' and the argument type")?;
                        let ty = p.parse_type()?;
                        p.parse_opt_loc()?;
                        Ok((n, ty))
                    })?;
                    for (n, ty) in args {
                        if n.text.contains('#') {
                            return Err(self.err_at(n.pos, "block argument names cannot have a result number"));
                        }
                        let v = ctx.define(n.text, vec![ty]).map_err(|m| self.err_at(n.pos, m))?;
                        block.args.extend(v);
                    }
                }
                self.expect(Tok::Colon, "':' after the block label")?;
            } else if let Some(args) = entry_args.take() {
                block.args = args;
            } else if !region.blocks.is_empty() {
                return Err(self.expected("a block label"));
            }
            entry_args = None;
            while !self.is(Tok::RBrace) && !self.is(Tok::CaretId) {
                if self.is(Tok::Eof) || self.is(Tok::Error) {
                    return Err(self.expected("'}' closing the region"));
                }
                let op = self.parse_op(ctx)?;
                block.ops.push(op);
            }
            region.blocks.push(block);
        }
    }

    /// One operation with its result bindings and location.
    pub fn parse_op(&mut self, ctx: &mut FuncCtx<'a>) -> PResult<Op> {
        let start = self.tok.pos;
        let mut names: Vec<(&'a str, u32, usize)> = Vec::new();
        if self.is(Tok::ValueId) {
            loop {
                let t = self.expect(Tok::ValueId, "a result name")?;
                if t.text.contains('#') {
                    return Err(self.err_at(t.pos, "result names cannot have a result number"));
                }
                let mut n = 1;
                if self.eat(Tok::Colon) {
                    let c = self.expect(Tok::Int, "a result count")?;
                    n = c.text.parse::<u32>().ok().filter(|n| *n > 0 && *n < 1_000_000).ok_or_else(|| self.err_at(c.pos, "invalid result count"))?;
                }
                names.push((t.text, n, t.pos));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            self.expect(Tok::Equal, "'=' after the result names")?;
        }
        let name_pos = self.tok.pos;
        let (mut op, result_types) = match self.tok.kind {
            Tok::Str => self.parse_generic_op(ctx)?,
            Tok::BareId => self.parse_pretty_op(ctx)?,
            _ => return Err(self.expected("an operation")),
        };
        let given = self.parse_opt_loc()?;
        op.loc = self.op_location(given, name_pos);
        if op.kind == OpKind::Reduce {
            // Ops synthesized by the compact `applies` form share the reduce op's location.
            for b in op.regions.iter_mut().flat_map(|r| r.blocks.iter_mut()) {
                for inner in b.ops.iter_mut().filter(|o| o.loc == oxhlo_ir::Location::Unknown) {
                    inner.loc = op.loc.clone();
                }
            }
        }
        if names.is_empty() {
            op.results = result_types.into_iter().map(|t| ctx.new_value(t)).collect();
        } else {
            let total: u64 = names.iter().map(|n| n.1 as u64).sum();
            if total != result_types.len() as u64 {
                return Err(self.err_at(
                    start,
                    format!("operation defines {} results but was provided {} to bind", result_types.len(), total),
                ));
            }
            let mut it = result_types.into_iter();
            for (name, n, pos) in names {
                let tys: Vec<Type> = it.by_ref().take(n as usize).collect();
                let vals = ctx.define(name, tys).map_err(|m| self.err_at(pos, m))?;
                op.results.extend(vals);
            }
        }
        sort_named(&mut op.attrs).map_err(|n| self.err_at(name_pos, format!("duplicate attribute '{n}'")))?;
        Ok(op)
    }

    /// A pretty-form op: the name, then the op's own syntax.
    fn parse_pretty_op(&mut self, ctx: &mut FuncCtx<'a>) -> PResult<(Op, Vec<Type>)> {
        let t = self.tok;
        let kind = if t.text.contains('.') { OpKind::from_name(t.text) } else { OpKind::from_name(&format!("func.{}", t.text)) };
        let kind = kind.ok_or_else(|| {
            self.err(format!("unknown operation '{}' (ops of other dialects must use the generic form \"dialect.op\"(...))", t.text))
        })?;
        self.advance();
        crate::pretty::parse_pretty(self, ctx, kind)
    }
}
