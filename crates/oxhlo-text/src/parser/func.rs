//! Modules and functions: `module @name attributes {...} {...}`, `func.func [visibility] @f(%arg0: T {attrs})
//! -> (R {attrs}) attributes {...} {...}`, declarations, their generic forms (`"builtin.module"`,
//! `"func.func"`), other module-level ops, and resolution of `dense_resource` blobs.

use super::attrs::sort_named;
use super::body::FuncCtx;
use super::{PResult, Parser};
use crate::lexer::Tok;
use oxhlo_ir::{Attr, Func, FunctionType, Module, NamedAttr, Op, Region, Type, Visibility};

impl<'a> Parser<'a> {
    /// `module [@name] [attributes {...}] { items }`.
    pub fn parse_module_op(&mut self) -> PResult<Module> {
        let pos = self.tok.pos;
        self.advance();
        let mut m = Module::default();
        if self.is(Tok::SymbolRef) {
            let t = self.tok;
            m.name = Some(self.symbol_name(t)?);
            self.advance();
        }
        if self.eat_kw("attributes") {
            self.expect(Tok::LBrace, "'{' opening the module attributes")?;
            m.attrs = self.parse_dict_body()?;
        }
        self.expect(Tok::LBrace, "'{' opening the module body")?;
        while !self.eat(Tok::RBrace) {
            if self.is(Tok::Eof) || self.is(Tok::Error) {
                return Err(self.expected("'}' closing the module"));
            }
            self.parse_module_item(&mut m)?;
        }
        let given = self.parse_opt_loc()?;
        m.loc = self.op_location(given, pos);
        Ok(m)
    }

    /// `"builtin.module"() ({ items }) {attrs} : () -> ()`.
    pub fn parse_generic_module(&mut self) -> PResult<Module> {
        let pos = self.tok.pos;
        self.advance();
        self.expect(Tok::LParen, "'('")?;
        self.expect(Tok::RParen, "')' (a module takes no operands)")?;
        let mut m = Module::default();
        let mut attrs: Vec<NamedAttr> = Vec::new();
        if self.is(Tok::Less) && self.peek().kind == Tok::LBrace {
            self.advance();
            self.advance();
            attrs = self.parse_dict_body()?;
            self.expect(Tok::Greater, "'>'")?;
        }
        self.expect(Tok::LParen, "'(' opening the module region")?;
        self.expect(Tok::LBrace, "'{'")?;
        if self.is(Tok::CaretId) {
            self.advance();
            self.expect(Tok::Colon, "':'")?;
        }
        while !self.eat(Tok::RBrace) {
            if self.is(Tok::Eof) || self.is(Tok::Error) {
                return Err(self.expected("'}' closing the module"));
            }
            self.parse_module_item(&mut m)?;
        }
        self.expect(Tok::RParen, "')'")?;
        if self.eat(Tok::LBrace) {
            attrs.extend(self.parse_dict_body()?);
        }
        self.expect(Tok::Colon, "':'")?;
        self.parse_type()?;
        for (k, v) in attrs {
            if k == "sym_name" {
                m.name = v.as_str().map(str::to_string);
            } else {
                m.attrs.push((k, v));
            }
        }
        sort_named(&mut m.attrs).map_err(|n| self.err_at(pos, format!("duplicate attribute '{n}'")))?;
        let given = self.parse_opt_loc()?;
        m.loc = self.op_location(given, pos);
        Ok(m)
    }

    /// One item of a module body: a function or another op.
    pub fn parse_module_item(&mut self, m: &mut Module) -> PResult<()> {
        if self.is_kw("func.func") {
            let f = self.parse_func()?;
            return self.push_func(m, f);
        }
        if self.is(Tok::Str) && self.tok.text == "\"func.func\"" {
            let f = self.parse_generic_func()?;
            return self.push_func(m, f);
        }
        if self.is_kw("module") || (self.is(Tok::Str) && self.tok.text == "\"builtin.module\"") {
            return Err(self.err("nested modules are not supported"));
        }
        if self.is(Tok::HashId) || self.is(Tok::BangId) {
            return Err(self.err("aliases must be defined at the top level, outside the module"));
        }
        let mut ctx = FuncCtx::new();
        let pos = self.tok.pos;
        let op = self.parse_op(&mut ctx)?;
        if !ctx.values.is_empty() {
            return Err(self.err_at(pos, "module-level ops other than functions must not define values"));
        }
        m.other_ops.push(op);
        Ok(())
    }

    fn push_func(&self, m: &mut Module, f: (Func, usize)) -> PResult<()> {
        let (f, pos) = f;
        if m.funcs.iter().any(|g| g.name == f.name) {
            return Err(self.err_at(pos, format!("redefinition of symbol named '{}'", f.name)));
        }
        m.funcs.push(f);
        Ok(())
    }

    /// `func.func [public|private|nested] @name(args) [-> results] [attributes {...}] [{ body }]`.
    fn parse_func(&mut self) -> PResult<(Func, usize)> {
        let pos = self.tok.pos;
        self.advance();
        let mut vis = Visibility::Public;
        for (kw, v) in [("public", Visibility::Public), ("private", Visibility::Private), ("nested", Visibility::Nested)] {
            if self.eat_kw(kw) {
                vis = v;
                break;
            }
        }
        let nt = self.expect(Tok::SymbolRef, "the function name '@name'")?;
        let name = self.symbol_name(nt)?;
        self.expect(Tok::LParen, "'(' opening the argument list")?;
        let mut ctx = FuncCtx::new();
        let mut inputs = Vec::new();
        let mut arg_attrs = Vec::new();
        let mut names: Vec<(&'a str, usize)> = Vec::new();
        let named = self.is(Tok::ValueId);
        if !self.eat(Tok::RParen) {
            loop {
                if named {
                    let n = self.expect(Tok::ValueId, "an argument name")?;
                    if n.text.contains('#') {
                        return Err(self.err_at(n.pos, "argument names cannot have a result number"));
                    }
                    names.push((n.text, n.pos));
                    self.expect(Tok::Colon, "':' and the argument type")?;
                }
                inputs.push(self.parse_type()?);
                arg_attrs.push(if self.eat(Tok::LBrace) { self.parse_dict_body()? } else { Vec::new() });
                self.parse_opt_loc()?;
                if self.eat(Tok::RParen) {
                    break;
                }
                self.expect(Tok::Comma, "',' or ')' in the argument list")?;
            }
        }
        let mut results = Vec::new();
        let mut res_attrs = Vec::new();
        if self.eat(Tok::Arrow) {
            if self.eat(Tok::LParen) {
                if !self.eat(Tok::RParen) {
                    loop {
                        results.push(self.parse_type()?);
                        res_attrs.push(if self.eat(Tok::LBrace) { self.parse_dict_body()? } else { Vec::new() });
                        if self.eat(Tok::RParen) {
                            break;
                        }
                        self.expect(Tok::Comma, "',' or ')' in the result list")?;
                    }
                }
            } else {
                results.push(self.parse_type()?);
                res_attrs.push(Vec::new());
            }
        }
        let mut f = Func::new(name, FunctionType { inputs: inputs.clone(), results });
        f.visibility = vis;
        f.arg_attrs = arg_attrs;
        f.res_attrs = res_attrs;
        if self.eat_kw("attributes") {
            self.expect(Tok::LBrace, "'{' opening the function attributes")?;
            f.attrs = self.parse_dict_body()?;
        }
        if self.is(Tok::LBrace) {
            if !named && !inputs.is_empty() {
                return Err(self.err("a function with a body needs named arguments"));
            }
            let mut args = Vec::new();
            for ((n, p), ty) in names.iter().zip(inputs) {
                let v = ctx.define(n, vec![ty]).map_err(|m| self.err_at(*p, m))?;
                args.extend(v);
            }
            f.body = self.parse_region_with_args(&mut ctx, Some(args))?;
        }
        f.values = ctx.values;
        let given = self.parse_opt_loc()?;
        f.loc = self.op_location(given, pos);
        Ok((f, nt.pos))
    }

    /// `"func.func"() <{function_type = ..., sym_name = "f", ...}> ({ ^bb0(...): ... }) : () -> ()`.
    fn parse_generic_func(&mut self) -> PResult<(Func, usize)> {
        let pos = self.tok.pos;
        let mut ctx = FuncCtx::new();
        let (op, results) = self.parse_generic_op(&mut ctx)?;
        let given = self.parse_opt_loc()?;
        if !results.is_empty() || !op.operands.is_empty() {
            return Err(self.err_at(pos, "func.func takes no operands and has no results"));
        }
        let Op { attrs, mut regions, .. } = op;
        let mut name = None;
        let mut fty = None;
        let mut vis = Visibility::Public;
        let mut arg_attrs = None;
        let mut res_attrs = None;
        let mut rest = Vec::new();
        for (k, v) in attrs {
            match (k.as_str(), v) {
                ("sym_name", Attr::Str(s)) => name = Some(s),
                ("function_type", Attr::Type(Type::Function(t))) => fty = Some(t),
                ("sym_visibility", Attr::Str(s)) => {
                    vis = match s.as_str() {
                        "private" => Visibility::Private,
                        "nested" => Visibility::Nested,
                        "public" => Visibility::Public,
                        _ => return Err(self.err_at(pos, format!("unknown symbol visibility '{s}'"))),
                    }
                }
                ("arg_attrs", Attr::Array(a)) => arg_attrs = Some(dict_list(a).ok_or_else(|| self.err_at(pos, "arg_attrs must be an array of dictionaries"))?),
                ("res_attrs", Attr::Array(a)) => res_attrs = Some(dict_list(a).ok_or_else(|| self.err_at(pos, "res_attrs must be an array of dictionaries"))?),
                (k, v) => rest.push((k.to_string(), v)),
            }
        }
        let name = name.ok_or_else(|| self.err_at(pos, "func.func needs a sym_name string attribute"))?;
        let fty = fty.ok_or_else(|| self.err_at(pos, "func.func needs a function_type attribute"))?;
        let mut f = Func::new(name, fty);
        f.visibility = vis;
        if let Some(a) = arg_attrs {
            if a.len() != f.ty.inputs.len() {
                return Err(self.err_at(pos, "arg_attrs has the wrong number of entries"));
            }
            f.arg_attrs = a;
        }
        if let Some(a) = res_attrs {
            if a.len() != f.ty.results.len() {
                return Err(self.err_at(pos, "res_attrs has the wrong number of entries"));
            }
            f.res_attrs = a;
        }
        f.attrs = rest;
        if regions.len() > 1 {
            return Err(self.err_at(pos, "func.func has one region"));
        }
        f.body = regions.pop().unwrap_or_else(Region::default);
        if let Some(b) = f.body.entry() {
            let tys: Vec<&Type> = b.args.iter().filter_map(|a| ctx.values.get(a.0 as usize)).collect();
            if tys.len() != f.ty.inputs.len() || tys.iter().zip(&f.ty.inputs).any(|(a, b)| *a != b) {
                return Err(self.err_at(pos, "entry block arguments do not match the function type"));
            }
        }
        f.values = ctx.values;
        f.loc = self.op_location(given, pos);
        Ok((f, pos))
    }

    /// Replaces `dense_resource<name>` attributes whose blob is in the file's metadata by dense literals.
    pub(crate) fn resolve_resources(&self, m: &mut Module) {
        let res = &self.resources;
        let mut fix = |a: &mut Attr| fix_resource(a, res, 0);
        for op in &mut m.other_ops {
            walk_op_attrs(op, &mut fix);
        }
        for f in &mut m.funcs {
            for r in &mut f.body.blocks {
                for op in &mut r.ops {
                    walk_op_attrs(op, &mut fix);
                }
            }
        }
    }
}

fn dict_list(a: Vec<Attr>) -> Option<Vec<Vec<NamedAttr>>> {
    a.into_iter().map(|x| if let Attr::Dict(d) = x { Some(d) } else { None }).collect()
}

fn walk_op_attrs(op: &mut Op, f: &mut dyn FnMut(&mut Attr)) {
    for (_, a) in &mut op.attrs {
        f(a);
    }
    for r in &mut op.regions {
        for b in &mut r.blocks {
            for o in &mut b.ops {
                walk_op_attrs(o, f);
            }
        }
    }
}

fn fix_resource(a: &mut Attr, res: &std::collections::HashMap<String, Vec<u8>>, depth: u32) {
    if depth > super::MAX_DEPTH {
        return;
    }
    match a {
        Attr::DenseResource(name, Type::Tensor(tt)) => {
            // A blob starts with its 4-byte little-endian alignment.
            if let (Some(blob), Some(n)) = (res.get(name.as_str()), tt.num_elements()) {
                if let Some(raw) = blob.get(4..) {
                    if let Ok(d) = super::dense::from_mlir_raw(tt.clone(), raw, n) {
                        *a = Attr::Dense(super::dense::canonical_splat(d));
                    }
                }
            }
        }
        Attr::Array(v) => v.iter_mut().for_each(|x| fix_resource(x, res, depth + 1)),
        Attr::Dict(v) => v.iter_mut().for_each(|(_, x)| fix_resource(x, res, depth + 1)),
        _ => {}
    }
}
