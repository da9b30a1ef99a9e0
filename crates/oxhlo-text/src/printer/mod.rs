//! The printer: modules, functions, regions and op lines in canonical pretty form (or the generic form
//! for every op), values renumbered `%arg0..`, `%0..` (`%0:2` / `%0#1` for multi-result ops), optional
//! `loc(...)` debug info. Ops with a pretty syntax are printed by `crate::pretty`; when an op does not fit
//! its pretty syntax (unexpected attribute kinds, region shapes) it falls back to the generic form, so the
//! output always reads back to the same module.

pub mod attrs;
pub mod dense;
pub mod types;

use crate::pretty;
use attrs::{write_attr, write_dict, write_string, write_symbol};
use oxhlo_ir::{Attr, Block, Func, Location, Module, NamedAttr, Op, OpKind, Region, Syntax, Type, Value, Visibility};
use std::fmt::Write;

/// How to print a module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// Print every op (and the module and functions) in the generic form.
    pub generic: bool,
    /// Print `loc(...)` after ops and functions.
    pub debug_info: bool,
}

/// Printer state while printing one function.
pub struct Printer<'m> {
    pub out: String,
    pub opts: PrintOptions,
    types: &'m [Type],
    names: Vec<String>,
    indent: usize,
    /// Dialect prefix for enum attributes of the op being printed (`stablehlo` or `chlo`).
    pub dialect: &'static str,
    /// How many op regions enclose the current op (0 in a function body, where `func` is the default
    /// dialect and `return`/`call` need no prefix).
    pub nesting: u32,
}

/// Prints a module.
pub fn print_module(m: &Module, opts: &PrintOptions) -> String {
    let mut p = Printer { out: String::new(), opts: *opts, types: &[], names: Vec::new(), indent: 0, dialect: "stablehlo", nesting: 0 };
    p.module(m);
    p.out
}

impl<'m> Printer<'m> {
    // ---- small writers used by the pretty printers ----

    pub fn w(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// The printed name of a value.
    pub fn val(&mut self, v: Value) {
        match self.names.get(v.0 as usize) {
            Some(n) if !n.is_empty() => self.out.push_str(n),
            _ => {
                let _ = write!(self.out, "%undef{}", v.0);
            }
        }
    }

    /// `%a, %b`.
    pub fn vals(&mut self, vs: &[Value]) {
        for (i, v) in vs.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.val(*v);
        }
    }

    /// The type of a value (an opaque placeholder for ids outside the function).
    pub fn type_of(&self, v: Value) -> Type {
        self.types.get(v.0 as usize).cloned().unwrap_or(Type::Opaque("none".into()))
    }

    pub fn ty(&mut self, t: &Type) {
        types::write_type(&mut self.out, t);
    }

    pub fn tys(&mut self, ts: &[Type]) {
        types::write_type_list(&mut self.out, ts);
    }

    pub fn attr(&mut self, a: &Attr) {
        write_attr(&mut self.out, a, self.dialect);
    }

    /// ` {a = 1, ...}` of the op's attributes not named in `except` (nothing if none remain).
    pub fn attr_dict_except(&mut self, op: &Op, except: &[&str]) {
        let rest: Vec<NamedAttr> = op.attrs.iter().filter(|(k, _)| !except.contains(&k.as_str())).cloned().collect();
        if !rest.is_empty() {
            self.w(" ");
            write_dict(&mut self.out, &rest, self.dialect);
        }
    }

    /// `(T, U) -> R` of the op's operands and results.
    pub fn functional_type(&mut self, op: &Op) {
        let ins: Vec<Type> = op.operands.iter().map(|v| self.type_of(*v)).collect();
        let outs: Vec<Type> = op.results.iter().map(|v| self.type_of(*v)).collect();
        self.w("(");
        self.tys(&ins);
        self.w(") -> ");
        types::write_result_types(&mut self.out, &outs);
    }

    /// A region `{ ... }` at the current indentation.
    pub fn region(&mut self, r: &Region) {
        self.region_opts(r, false);
    }

    /// A region; `hide_entry_args` leaves out the entry block's label (its arguments are printed by the
    /// op's own syntax, as in `while` and `reduce ... reducer(...)`).
    pub fn region_opts(&mut self, r: &Region, hide_entry_args: bool) {
        self.w("{\n");
        self.nesting += 1;
        for (i, b) in r.blocks.iter().enumerate() {
            let label = i > 0 || (!b.args.is_empty() && !hide_entry_args);
            self.block(b, i, label);
        }
        self.nesting -= 1;
        self.pad();
        self.w("}");
    }

    fn block(&mut self, b: &Block, index: usize, label: bool) {
        if label {
            self.pad();
            let _ = write!(self.out, "^bb{index}");
            if !b.args.is_empty() {
                self.w("(");
                for (i, a) in b.args.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.val(*a);
                    self.w(": ");
                    let t = self.type_of(*a);
                    self.ty(&t);
                }
                self.w(")");
            }
            self.w(":\n");
        }
        self.indent += 1;
        for op in &b.ops {
            self.op_line(op);
        }
        self.indent -= 1;
    }

    /// The current indentation.
    pub fn w_pad(&mut self) {
        self.pad();
    }

    fn pad(&mut self) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    // ---- modules and functions ----

    fn module(&mut self, m: &'m Module) {
        if self.opts.generic {
            self.w("\"builtin.module\"() ");
            if let Some(n) = &m.name {
                self.w("<{sym_name = ");
                write_string(&mut self.out, n);
                self.w("}> ");
            }
            self.w("({\n");
        } else {
            self.w("module");
            if let Some(n) = &m.name {
                self.w(" ");
                write_symbol(&mut self.out, n);
            }
            if !m.attrs.is_empty() {
                self.w(" attributes ");
                write_dict(&mut self.out, &m.attrs, "stablehlo");
            }
            self.w(" {\n");
        }
        self.indent = 1;
        for op in &m.other_ops {
            self.types = &[];
            self.names.clear();
            self.op_line(op);
        }
        for f in &m.funcs {
            self.func(f);
        }
        self.indent = 0;
        if self.opts.generic {
            self.w("})");
            if !m.attrs.is_empty() {
                self.w(" ");
                write_dict(&mut self.out, &m.attrs, "stablehlo");
            }
            self.w(" : () -> ()");
        } else {
            self.w("}");
        }
        self.loc_suffix(&m.loc);
        self.w("\n");
    }

    fn func(&mut self, f: &'m Func) {
        self.types = &f.values;
        self.assign_names(f);
        self.pad();
        if self.opts.generic {
            self.func_generic(f);
        } else {
            self.func_pretty(f);
        }
        self.loc_suffix(&f.loc);
        self.w("\n");
    }

    fn func_pretty(&mut self, f: &'m Func) {
        self.w("func.func ");
        match f.visibility {
            Visibility::Public => {}
            Visibility::Private => self.w("private "),
            Visibility::Nested => self.w("nested "),
        }
        write_symbol(&mut self.out, &f.name);
        self.w("(");
        let entry = f.body.entry();
        for (i, t) in f.ty.inputs.iter().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            if let Some(a) = entry.and_then(|b| b.args.get(i)) {
                self.val(*a);
                self.w(": ");
            }
            self.ty(t);
            if let Some(d) = f.arg_attrs.get(i).filter(|d| !d.is_empty()) {
                self.w(" ");
                write_dict(&mut self.out, d, "stablehlo");
            }
        }
        self.w(")");
        let res_attrs = f.res_attrs.iter().any(|d| !d.is_empty());
        if !f.ty.results.is_empty() {
            self.w(" -> ");
            if f.ty.results.len() == 1 && !res_attrs && !matches!(f.ty.results[0], Type::Function(_)) {
                self.ty(&f.ty.results[0]);
            } else {
                self.w("(");
                for (i, t) in f.ty.results.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.ty(t);
                    if let Some(d) = f.res_attrs.get(i).filter(|d| !d.is_empty()) {
                        self.w(" ");
                        write_dict(&mut self.out, d, "stablehlo");
                    }
                }
                self.w(")");
            }
        }
        if !f.attrs.is_empty() {
            self.w(" attributes ");
            write_dict(&mut self.out, &f.attrs, "stablehlo");
        }
        if let Some((first, rest)) = f.body.blocks.split_first() {
            self.w(" {\n");
            self.block(first, 0, false);
            for (i, b) in rest.iter().enumerate() {
                self.block(b, i + 1, true);
            }
            self.pad();
            self.w("}");
        }
    }

    fn func_generic(&mut self, f: &'m Func) {
        let mut props: Vec<NamedAttr> = Vec::new();
        if f.arg_attrs.iter().any(|d| !d.is_empty()) {
            props.push(("arg_attrs".into(), Attr::Array(f.arg_attrs.iter().map(|d| Attr::Dict(d.clone())).collect())));
        }
        props.push(("function_type".into(), Attr::Type(Type::Function(f.ty.clone()))));
        if f.res_attrs.iter().any(|d| !d.is_empty()) {
            props.push(("res_attrs".into(), Attr::Array(f.res_attrs.iter().map(|d| Attr::Dict(d.clone())).collect())));
        }
        props.push(("sym_name".into(), Attr::Str(f.name.clone())));
        match f.visibility {
            Visibility::Public => {}
            Visibility::Private => props.push(("sym_visibility".into(), Attr::Str("private".into()))),
            Visibility::Nested => props.push(("sym_visibility".into(), Attr::Str("nested".into()))),
        }
        self.w("\"func.func\"() <");
        write_dict(&mut self.out, &props, "stablehlo");
        self.w("> (");
        self.region(&f.body);
        self.w(")");
        if !f.attrs.is_empty() {
            self.w(" ");
            write_dict(&mut self.out, &f.attrs, "stablehlo");
        }
        self.w(" : () -> ()");
    }

    /// Names every value of `f` in print order: arguments `%argN`, op results `%N` (`%N#i`).
    fn assign_names(&mut self, f: &Func) {
        self.names = vec![String::new(); f.values.len()];
        let mut next_arg = 0usize;
        let mut next_res = 0usize;
        for a in f.args() {
            self.set_name(*a, format!("%arg{next_arg}"));
            next_arg += 1;
        }
        for (i, b) in f.body.blocks.iter().enumerate() {
            if i > 0 {
                self.name_block_args(b, &mut next_arg);
            }
            self.name_ops(&b.ops, &mut next_arg, &mut next_res, 0);
        }
    }

    fn set_name(&mut self, v: Value, n: String) {
        if let Some(slot) = self.names.get_mut(v.0 as usize) {
            *slot = n;
        }
    }

    fn name_block_args(&mut self, b: &Block, next_arg: &mut usize) {
        for a in &b.args {
            self.set_name(*a, format!("%arg{next_arg}"));
            *next_arg += 1;
        }
    }

    fn name_ops(&mut self, ops: &[Op], next_arg: &mut usize, next_res: &mut usize, depth: u32) {
        if depth > 1000 {
            return;
        }
        for op in ops {
            match op.results.len() {
                0 => {}
                1 => {
                    self.set_name(op.results[0], format!("%{next_res}"));
                    *next_res += 1;
                }
                _ => {
                    for (i, r) in op.results.iter().enumerate() {
                        self.set_name(*r, format!("%{next_res}#{i}"));
                    }
                    *next_res += 1;
                }
            }
            // `while` shares its iteration argument names between `cond` and `do`.
            let shared = op.kind == OpKind::While
                && op.regions.len() == 2
                && op.regions.iter().all(|r| r.blocks.len() == 1)
                && op.regions[0].blocks[0].args.len() == op.regions[1].blocks[0].args.len();
            for (ri, r) in op.regions.iter().enumerate() {
                for b in &r.blocks {
                    if shared && ri == 1 {
                        let cond_args = &op.regions[0].blocks[0].args;
                        for (a, c) in b.args.iter().zip(cond_args) {
                            let n = self.names.get(c.0 as usize).cloned().unwrap_or_default();
                            self.set_name(*a, n);
                        }
                    } else {
                        self.name_block_args(b, next_arg);
                    }
                    self.name_ops(&b.ops, next_arg, next_res, depth + 1);
                }
            }
        }
    }

    // ---- ops ----

    /// One op on its own line.
    pub fn op_line(&mut self, op: &Op) {
        self.pad();
        if !op.results.is_empty() {
            let first = self.names.get(op.results[0].0 as usize).cloned().unwrap_or_default();
            let group = first.split('#').next().unwrap_or("").to_string();
            if group.is_empty() {
                let _ = write!(self.out, "%undef{}", op.results[0].0);
            } else {
                self.w(&group);
            }
            if op.results.len() > 1 {
                let _ = write!(self.out, ":{}", op.results.len());
            }
            self.w(" = ");
        }
        self.dialect = if op.kind.dialect() == "chlo" { "chlo" } else { "stablehlo" };
        let mark = self.out.len();
        let pretty = !self.opts.generic && op.kind.syntax() != Syntax::Generic && pretty::print_pretty(self, op);
        if !pretty {
            self.out.truncate(mark);
            self.generic_op(op);
        }
        self.loc_suffix(&op.loc);
        self.w("\n");
    }

    /// `"name"(operands) <{props}> ({regions}) {attrs} : (T) -> R`.
    pub fn generic_op(&mut self, op: &Op) {
        self.w("\"");
        self.w(op.name());
        self.w("\"(");
        self.vals(&op.operands);
        self.w(")");
        let inherent = pretty::inherent_attrs(op.kind);
        let (props, rest): (Vec<NamedAttr>, Vec<NamedAttr>) = op.attrs.iter().cloned().partition(|(k, _)| inherent.contains(&k.as_str()));
        if !props.is_empty() {
            self.w(" <");
            write_dict(&mut self.out, &props, self.dialect);
            self.w(">");
        }
        if !op.regions.is_empty() {
            self.w(" (");
            for (i, r) in op.regions.iter().enumerate() {
                if i > 0 {
                    self.w(", ");
                }
                self.region(r);
            }
            self.w(")");
        }
        if !rest.is_empty() {
            self.w(" ");
            write_dict(&mut self.out, &rest, self.dialect);
        }
        self.w(" : ");
        self.functional_type(op);
    }

    fn loc_suffix(&mut self, l: &Location) {
        if self.opts.debug_info {
            self.w(" loc(");
            write_loc(&mut self.out, l, 0);
            self.w(")");
        }
    }
}

/// A location body (inside `loc(...)`).
pub fn write_loc(out: &mut String, l: &Location, depth: u32) {
    if depth > 1000 {
        out.push_str("unknown");
        return;
    }
    match l {
        Location::Unknown => out.push_str("unknown"),
        Location::File { file, line, col, end } => {
            write_string(out, file);
            let _ = write!(out, ":{line}:{col}");
            match end {
                Some((el, ec)) if el == line => {
                    let _ = write!(out, " to :{ec}");
                }
                Some((el, ec)) => {
                    let _ = write!(out, " to {el}:{ec}");
                }
                None => {}
            }
        }
        Location::Name { name, child } => {
            write_string(out, name);
            if **child != Location::Unknown {
                out.push('(');
                write_loc(out, child, depth + 1);
                out.push(')');
            }
        }
        Location::CallSite { callee, caller } => {
            out.push_str("callsite(");
            write_loc(out, callee, depth + 1);
            out.push_str(" at ");
            write_loc(out, caller, depth + 1);
            out.push(')');
        }
        Location::Fused { locs, metadata } => {
            out.push_str("fused");
            if let Some(m) = metadata {
                out.push('<');
                out.push_str(m);
                out.push('>');
            }
            out.push('[');
            for (i, x) in locs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_loc(out, x, depth + 1);
            }
            out.push(']');
        }
    }
}
