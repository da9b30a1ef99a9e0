//! Pretty syntax of region-carrying ops: `reduce(%x init: %i) applies stablehlo.add across dimensions =
//! [1] : ...` (the compact form for a body that is one binary op), `reduce(...) across dimensions = [..] :
//! ... reducer(%a: T, %b: T) {...}` (the general form), and `while(%iterArg = %init) : T cond {...} do
//! {...}`.

use super::{i64_array, op_with, Parsed};
use crate::lexer::Tok;
use crate::parser::body::{FuncCtx, Use};
use crate::parser::{PResult, Parser};
use crate::printer::Printer;
use oxhlo_ir::{Block, Op, OpKind, Region, Syntax, TensorType, Type, Value};

pub fn parse<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>, kind: OpKind) -> PResult<Parsed> {
    if kind == OpKind::While {
        parse_while(p, ctx)
    } else {
        parse_reduce(p, ctx)
    }
}

pub fn print(pr: &mut Printer<'_>, op: &Op) -> bool {
    if op.kind == OpKind::While {
        print_while(pr, op)
    } else {
        print_reduce(pr, op)
    }
}

fn parse_reduce<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>) -> PResult<Parsed> {
    let mut inputs: Vec<Use<'a>> = Vec::new();
    let mut inits: Vec<Use<'a>> = Vec::new();
    loop {
        p.expect(Tok::LParen, "'(' and an input")?;
        inputs.push(p.parse_use(ctx)?);
        p.expect_kw("init")?;
        p.expect(Tok::Colon, "':' after 'init'")?;
        inits.push(p.parse_use(ctx)?);
        p.expect(Tok::RParen, "')'")?;
        if !p.eat(Tok::Comma) {
            break;
        }
    }
    let mut applies: Option<(OpKind, usize)> = None;
    if p.eat_kw("applies") {
        let t = p.expect(Tok::BareId, "the name of the reduction op")?;
        let k = OpKind::from_name(t.text).ok_or_else(|| p.err_at(t.pos, format!("unknown operation '{}'", t.text)))?;
        if !k.def().is_some_and(|d| d.operands.accepts(2)) || inputs.len() != 1 {
            return Err(p.err_at(t.pos, "'applies' needs one input and a binary op"));
        }
        applies = Some((k, t.pos));
    }
    p.expect_kw("across")?;
    p.kw_eq("dimensions")?;
    let mut attrs = vec![("dimensions".to_string(), p.i64_array_attr()?)];
    attrs.extend(p.opt_attr_dict()?);
    let uses: Vec<Use<'a>> = inputs.iter().chain(inits.iter()).copied().collect();
    let (operands, results) = p.colon_functional(ctx, &uses)?;
    let mut op = op_with(OpKind::Reduce, operands, attrs);
    if let Some((k, pos)) = applies {
        let elem = match ctx.values.get(inits[0].v.0 as usize) {
            Some(Type::Tensor(t)) => t.elem.clone(),
            Some(Type::UnrankedTensor(e)) => e.clone(),
            _ => return Err(p.err_at(pos, "the init value must be a tensor")),
        };
        let t = Type::Tensor(TensorType::new(Vec::new(), elem));
        let a = ctx.new_value(t.clone());
        let b = ctx.new_value(t.clone());
        let r = ctx.new_value(t);
        // The synthesized ops take the reduce op's location (filled in by the caller).
        let _ = pos;
        let inner = Op::new(k, vec![a, b], vec![r]);
        let ret = Op::new(OpKind::Return, vec![r], Vec::new());
        op.regions.push(Region::single(Block { args: vec![a, b], ops: vec![inner, ret] }));
    } else {
        p.expect_kw("reducer")?;
        let mut pairs = Vec::new();
        for _ in 0..inputs.len() {
            p.expect(Tok::LParen, "'(' and a pair of reducer arguments")?;
            let a = parse_arg(p)?;
            p.expect(Tok::Comma, "','")?;
            let b = parse_arg(p)?;
            p.expect(Tok::RParen, "')'")?;
            pairs.push((a, b));
        }
        ctx.push_scope();
        let r = (|| {
            let mut args = Vec::new();
            for ((n, t, pos), _) in &pairs {
                args.extend(ctx.define(n, vec![t.clone()]).map_err(|m| p.err_at(*pos, m))?);
            }
            for (_, (n, t, pos)) in &pairs {
                args.extend(ctx.define(n, vec![t.clone()]).map_err(|m| p.err_at(*pos, m))?);
            }
            p.parse_region_with_args(ctx, Some(args))
        })();
        ctx.pop_scope();
        op.regions.push(r?);
    }
    Ok((op, results))
}

/// `%name: T`.
fn parse_arg<'a>(p: &mut Parser<'a>) -> PResult<(&'a str, Type, usize)> {
    let n = p.expect(Tok::ValueId, "an argument name")?;
    if n.text.contains('#') {
        return Err(p.err_at(n.pos, "argument names cannot have a result number"));
    }
    p.expect(Tok::Colon, "':' and the argument type")?;
    let t = p.parse_type()?;
    p.parse_opt_loc()?;
    Ok((n.text, t, n.pos))
}

/// The op kind of the compact `applies` form, if the body is exactly `r = op(a, b); return r`.
fn compact_body(pr: &Printer<'_>, op: &Op) -> Option<OpKind> {
    if op.operands.len() != 2 {
        return None;
    }
    let b = op.regions.first()?.blocks.first()?;
    if op.regions[0].blocks.len() != 1 || b.args.len() != 2 || b.ops.len() != 2 {
        return None;
    }
    let init_elem = match pr.type_of(op.operands[1]) {
        Type::Tensor(t) => t.elem,
        Type::UnrankedTensor(e) => e,
        _ => return None,
    };
    let scalar = Type::Tensor(TensorType::new(Vec::new(), init_elem));
    let (inner, ret) = (&b.ops[0], &b.ops[1]);
    let fits = inner.kind.syntax() == Syntax::Operands
        && inner.kind.dialect() == "stablehlo"
        && inner.attrs.is_empty()
        && inner.regions.is_empty()
        && inner.operands == b.args
        && inner.results.len() == 1
        && b.args.iter().chain(inner.results.iter()).all(|v| pr.type_of(*v) == scalar)
        && ret.kind == OpKind::Return
        && ret.attrs.is_empty()
        && ret.operands == inner.results
        && (!pr.opts.debug_info || (inner.loc == op.loc && ret.loc == op.loc));
    fits.then_some(inner.kind)
}

fn print_reduce(pr: &mut Printer<'_>, op: &Op) -> bool {
    let Some(dims) = i64_array(op, "dimensions") else { return false };
    let n = op.operands.len() / 2;
    if n == 0 || !op.operands.len().is_multiple_of(2) || op.regions.len() != 1 {
        return false;
    }
    let compact = compact_body(pr, op);
    let block_args: Vec<Value> = match op.regions[0].blocks.as_slice() {
        [b] if b.args.len() == 2 * n => b.args.clone(),
        _ => return false,
    };
    pr.w("stablehlo.reduce");
    for i in 0..n {
        if i > 0 {
            pr.w(",");
        }
        pr.w("(");
        pr.val(op.operands[i]);
        pr.w(" init: ");
        pr.val(op.operands[n + i]);
        pr.w(")");
    }
    if let Some(k) = compact {
        pr.w(" applies ");
        pr.w(k.name());
    }
    pr.w(" across dimensions = ");
    crate::printer::attrs::write_i64s(&mut pr.out, &dims);
    pr.attr_dict_except(op, &["dimensions"]);
    pr.w(" : ");
    pr.functional_type(op);
    if compact.is_none() {
        pr.w("\n");
        pr.w_pad();
        pr.w(" reducer");
        for i in 0..n {
            pr.w("(");
            for (j, a) in [block_args[i], block_args[n + i]].into_iter().enumerate() {
                if j > 0 {
                    pr.w(", ");
                }
                pr.val(a);
                pr.w(": ");
                let t = pr.type_of(a);
                pr.ty(&t);
            }
            pr.w(") ");
        }
        pr.region_opts(&op.regions[0], true);
    }
    true
}

fn parse_while<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>) -> PResult<Parsed> {
    p.expect(Tok::LParen, "'(' and the loop-carried values")?;
    let pairs = p.comma_list(Tok::RParen, "loop-carried values", |p| {
        let n = p.expect(Tok::ValueId, "an iteration argument name")?;
        if n.text.contains('#') {
            return Err(p.err_at(n.pos, "argument names cannot have a result number"));
        }
        p.expect(Tok::Equal, "'='")?;
        let u = p.parse_use(ctx)?;
        Ok((n.text, n.pos, u))
    })?;
    let mut tys = Vec::new();
    let at = p.tok.pos;
    if p.eat(Tok::Colon) {
        loop {
            tys.push(p.parse_type()?);
            if !p.eat(Tok::Comma) {
                break;
            }
        }
    }
    let uses: Vec<Use<'a>> = pairs.iter().map(|x| x.2).collect();
    let operands = p.check_uses(ctx, &uses, &tys, at)?;
    let mut attrs = Vec::new();
    if p.eat_kw("attributes") {
        p.expect(Tok::LBrace, "'{'")?;
        attrs = p.parse_dict_body()?;
    }
    let mut op = op_with(OpKind::While, operands, attrs);
    for kw in ["cond", "do"] {
        p.expect_kw(kw)?;
        ctx.push_scope();
        let r = (|| {
            let mut args = Vec::new();
            for ((n, pos, _), t) in pairs.iter().zip(&tys) {
                args.extend(ctx.define(n, vec![t.clone()]).map_err(|m| p.err_at(*pos, m))?);
            }
            p.parse_region_with_args(ctx, Some(args))
        })();
        ctx.pop_scope();
        op.regions.push(r?);
    }
    Ok((op, tys))
}

fn print_while(pr: &mut Printer<'_>, op: &Op) -> bool {
    let tys: Vec<Type> = op.operands.iter().map(|v| pr.type_of(*v)).collect();
    let outs: Vec<Type> = op.results.iter().map(|v| pr.type_of(*v)).collect();
    if op.regions.len() != 2 || outs != tys {
        return false;
    }
    for r in &op.regions {
        let [b] = r.blocks.as_slice() else { return false };
        let at: Vec<Type> = b.args.iter().map(|v| pr.type_of(*v)).collect();
        if at != tys {
            return false;
        }
    }
    let args = op.regions[0].blocks[0].args.clone();
    pr.w("stablehlo.while(");
    for (i, (a, init)) in args.iter().zip(&op.operands).enumerate() {
        if i > 0 {
            pr.w(", ");
        }
        pr.val(*a);
        pr.w(" = ");
        pr.val(*init);
    }
    pr.w(")");
    if !tys.is_empty() {
        pr.w(" : ");
        pr.tys(&tys);
    }
    if !op.attrs.is_empty() {
        pr.w(" attributes ");
        crate::printer::attrs::write_dict(&mut pr.out, &op.attrs, pr.dialect);
    }
    pr.w("\n");
    pr.w_pad();
    pr.w("cond ");
    pr.region_opts(&op.regions[0], true);
    pr.w(" do ");
    pr.region_opts(&op.regions[1], true);
    true
}
