//! Pretty syntax of the contraction ops: `dot_general %a, %b, batching_dims = [0] x [0], contracting_dims =
//! [2] x [1], precision = [DEFAULT, DEFAULT], algorithm = <...>`, `dot %a, %b, precision = [...]`, and
//! `convolution(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [..],
//! pad = [[..]], lhs_dilate = [..], rhs_dilate = [..], reverse = [..]}`; `dynamic_conv(%a, %b, %padding)` likewise.

use super::{i64_array, op_with, Parsed};
use crate::lexer::Tok;
use crate::parser::body::FuncCtx;
use crate::parser::{PResult, Parser};
use crate::printer::attrs::{write_conv_dims, write_dot_algorithm_body, write_i64s};
use crate::printer::Printer;
use oxhlo_ir::attr::{DenseArray, DotDims, Precision};
use oxhlo_ir::{Attr, DenseElements, ElementType, Op, OpKind, TensorType};

pub fn parse<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>, kind: OpKind) -> PResult<Parsed> {
    if matches!(kind, OpKind::Convolution | OpKind::DynamicConv) {
        return parse_conv(p, ctx, kind);
    }
    let uses = p.parse_uses(ctx)?;
    let mut attrs = Vec::new();
    if kind == OpKind::DotGeneral {
        let mut dims = DotDims::default();
        p.expect(Tok::Comma, "','")?;
        if p.is_kw("batching_dims") {
            p.kw_eq("batching_dims")?;
            let (l, r) = parse_pair(p)?;
            dims.lhs_batching_dimensions = l;
            dims.rhs_batching_dimensions = r;
            p.expect(Tok::Comma, "','")?;
        }
        p.kw_eq("contracting_dims")?;
        let (l, r) = parse_pair(p)?;
        dims.lhs_contracting_dimensions = l;
        dims.rhs_contracting_dimensions = r;
        attrs.push(("dot_dimension_numbers".to_string(), Attr::DotDims(dims)));
    }
    if p.opt_comma_kw("precision")? {
        attrs.push(("precision_config".to_string(), parse_precisions(p)?));
    }
    if kind == OpKind::DotGeneral && p.opt_comma_kw("algorithm")? {
        p.expect(Tok::Less, "'<'")?;
        let a = p.parse_dot_algorithm_body()?;
        p.expect(Tok::Greater, "'>'")?;
        attrs.push(("algorithm".to_string(), Attr::DotAlgorithm(Box::new(a))));
    }
    attrs.extend(p.opt_attr_dict()?);
    let (operands, results) = p.colon_functional(ctx, &uses)?;
    Ok((op_with(kind, operands, attrs), results))
}

/// `[0, 1] x [1, 2]`.
fn parse_pair(p: &mut Parser<'_>) -> PResult<(Vec<i64>, Vec<i64>)> {
    let l = p.parse_i64_list()?;
    if !p.eat_kw("x") {
        return Err(p.expected("'x' between the lhs and rhs dimensions"));
    }
    let r = p.parse_i64_list()?;
    Ok((l, r))
}

/// `[DEFAULT, HIGHEST]`.
fn parse_precisions(p: &mut Parser<'_>) -> PResult<Attr> {
    p.expect(Tok::LBracket, "'['")?;
    let v = p.comma_list(Tok::RBracket, "precision list", |p| {
        let t = p.expect(Tok::BareId, "a precision")?;
        Precision::from_keyword(t.text).map(Attr::Precision).ok_or_else(|| p.err_at(t.pos, format!("unknown precision '{}'", t.text)))
    })?;
    Ok(Attr::Array(v))
}

fn precision_text(a: &Attr) -> Option<String> {
    let Attr::Array(items) = a else { return None };
    let words: Option<Vec<&str>> = items.iter().map(|x| if let Attr::Precision(p) = x { Some(p.keyword()) } else { None }).collect();
    Some(format!("[{}]", words?.join(", ")))
}

pub fn print(pr: &mut Printer<'_>, op: &Op) -> bool {
    if matches!(op.kind, OpKind::Convolution | OpKind::DynamicConv) {
        return print_conv(pr, op);
    }
    if op.operands.len() != 2 {
        return false;
    }
    pr.w(op.name());
    pr.w(" ");
    pr.vals(&op.operands);
    let mut used = vec!["precision_config"];
    if op.kind == OpKind::DotGeneral {
        let Some(Attr::DotDims(d)) = op.attr("dot_dimension_numbers") else { return false };
        if !d.lhs_batching_dimensions.is_empty() || !d.rhs_batching_dimensions.is_empty() {
            pr.w(", batching_dims = ");
            write_i64s(&mut pr.out, &d.lhs_batching_dimensions);
            pr.w(" x ");
            write_i64s(&mut pr.out, &d.rhs_batching_dimensions);
        }
        pr.w(", contracting_dims = ");
        write_i64s(&mut pr.out, &d.lhs_contracting_dimensions);
        pr.w(" x ");
        write_i64s(&mut pr.out, &d.rhs_contracting_dimensions);
        used.push("dot_dimension_numbers");
    }
    if let Some(a) = op.attr("precision_config") {
        let Some(t) = precision_text(a) else { return false };
        pr.w(", precision = ");
        pr.w(&t);
    }
    if op.kind == OpKind::DotGeneral {
        match op.attr("algorithm") {
            None => {}
            Some(Attr::DotAlgorithm(a)) => {
                pr.w(", algorithm = ");
                write_dot_algorithm_body(&mut pr.out, a);
                used.push("algorithm");
            }
            Some(_) => return false,
        }
    }
    pr.attr_dict_except(op, &used);
    pr.w(" : ");
    pr.functional_type(op);
    true
}

const WINDOW: [(&str, &str); 5] = [
    ("stride", "window_strides"),
    ("pad", "padding"),
    ("lhs_dilate", "lhs_dilation"),
    ("rhs_dilate", "rhs_dilation"),
    ("reverse", "window_reversal"),
];

fn parse_conv<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>, kind: OpKind) -> PResult<Parsed> {
    p.expect(Tok::LParen, "'(' and the operands")?;
    let uses = p.parse_uses(ctx)?;
    p.expect(Tok::RParen, "')'")?;
    p.kw_eq("dim_numbers")?;
    let dims = p.parse_conv_dims()?;
    let mut attrs = vec![("dimension_numbers".to_string(), Attr::ConvDims(dims))];
    p.expect(Tok::Comma, "','")?;
    p.kw_eq("window")?;
    p.expect(Tok::LBrace, "'{' opening the window attributes")?;
    let mut seen = Vec::new();
    let entries = p.comma_list(Tok::RBrace, "window attributes", |p| {
        let k = p.expect(Tok::BareId, "a window attribute")?;
        let (_, name) = WINDOW.iter().find(|(kw, _)| *kw == k.text).ok_or_else(|| p.err_at(k.pos, format!("unknown window attribute '{}'", k.text)))?;
        p.expect(Tok::Equal, "'='")?;
        let v = match k.text {
            "pad" => {
                let at = p.tok.pos;
                p.expect(Tok::LBracket, "'['")?;
                let rows = p.comma_list(Tok::RBracket, "padding", |p| {
                    let r = p.parse_i64_list()?;
                    if r.len() != 2 {
                        return Err(p.err("each padding entry is [low, high]"));
                    }
                    Ok(r)
                })?;
                let flat: Vec<i64> = rows.concat();
                let tt = TensorType::new(vec![rows.len() as i64, 2], ElementType::I64);
                let d = DenseElements::from_i64s(tt, &flat).map_err(|m| p.err_at(at, m))?;
                Attr::Dense(crate::parser::dense::canonical_splat(d))
            }
            "reverse" => {
                p.expect(Tok::LBracket, "'['")?;
                let v = p.comma_list(Tok::RBracket, "reversal list", |p| {
                    let t = p.tok;
                    let b = match (t.kind, t.text) {
                        (Tok::BareId, "true") | (Tok::Int, "1") => true,
                        (Tok::BareId, "false") | (Tok::Int, "0") => false,
                        _ => return Err(p.expected("true or false")),
                    };
                    p.advance();
                    Ok(b)
                })?;
                Attr::DenseArray(DenseArray::Bool(v))
            }
            _ => p.i64_array_attr()?,
        };
        Ok((name.to_string(), v, k.pos))
    })?;
    for (name, v, pos) in entries {
        if seen.contains(&name) {
            return Err(p.err_at(pos, format!("duplicate window attribute '{name}'")));
        }
        seen.push(name.clone());
        attrs.push((name, v));
    }
    attrs.extend(p.opt_attr_dict()?);
    let (operands, results) = p.colon_functional(ctx, &uses)?;
    Ok((op_with(kind, operands, attrs), results))
}

fn print_conv(pr: &mut Printer<'_>, op: &Op) -> bool {
    let Some(Attr::ConvDims(d)) = op.attr("dimension_numbers") else { return false };
    let mut parts = Vec::new();
    for (kw, name) in WINDOW {
        let Some(a) = op.attr(name) else { continue };
        let text = match (name, a) {
            ("padding", Attr::Dense(dd)) => {
                if dd.ty.elem != ElementType::I64 || dd.ty.shape.len() != 2 || dd.ty.shape[1] != 2 {
                    return false;
                }
                let Some(v) = dd.to_i64_vec() else { return false };
                let rows: Vec<String> = v.chunks(2).map(|c| format!("[{}, {}]", c[0], c.get(1).copied().unwrap_or(0))).collect();
                format!("[{}]", rows.join(", "))
            }
            ("window_reversal", Attr::DenseArray(DenseArray::Bool(b))) => {
                format!("[{}]", b.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "))
            }
            ("padding" | "window_reversal", _) => return false,
            _ => {
                let Some(v) = i64_array(op, name) else { return false };
                let mut s = String::new();
                write_i64s(&mut s, &v);
                s
            }
        };
        parts.push(format!("{kw} = {text}"));
    }
    let want = if op.kind == OpKind::DynamicConv { 3 } else { 2 };
    if op.operands.len() != want {
        return false;
    }
    pr.w(op.name());
    pr.w("(");
    pr.vals(&op.operands);
    pr.w(") dim_numbers = ");
    write_conv_dims(&mut pr.out, d);
    pr.w(", window = {");
    pr.w(&parts.join(", "));
    pr.w("}");
    let mut used: Vec<&str> = WINDOW.iter().map(|w| w.1).collect();
    used.push("dimension_numbers");
    pr.attr_dict_except(op, &used);
    pr.w(" : ");
    pr.functional_type(op);
    true
}
