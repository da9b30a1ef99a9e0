//! Pretty syntax of ops written as operands plus `keyword = value` attributes: shape ops
//! (`broadcast_in_dim %x, dims = [0]`, `transpose`, `reverse`, `pad ... low = [..], high = [..],
//! interior = [..]`, `concatenate ..., dim = 0`, `dynamic_slice ..., sizes = [..]`, `slice %x [0:2, 1:4:2]`,
//! `get/set_dimension_size`, `dynamic_iota`, `dynamic_broadcast_in_dim`), `fft`, `einsum`, `rng`,
//! `rng_bit_generator`, `cholesky ..., lower = true`, `reduce_precision ..., format = e5m10`. One small
//! table says which keyword maps to which attribute, for both parsing and printing.

use super::{i64_array, op_with, same_type, Parsed};
use crate::lexer::Tok;
use crate::parser::attrs::parse_enum_value;
use crate::parser::body::FuncCtx;
use crate::parser::{PResult, Parser};
use crate::printer::attrs::{write_i64s, write_string};
use crate::printer::Printer;
use oxhlo_ir::attr::DenseArray;
use oxhlo_ir::{Attr, ElementType, Op, OpKind, Signedness};

/// One `keyword = value` piece of an op's syntax.
#[derive(Clone, Copy)]
enum Piece {
    /// `kw = [1, 2]` for an `array<i64>` attribute.
    Dims(&'static str, &'static str),
    /// `kw = 3` for an i64 integer attribute.
    Int(&'static str, &'static str),
    /// `kw = KEYWORD` for a StableHLO enum attribute of the given kind.
    Enum(&'static str, &'static str, &'static str),
    /// `kw = "text"`.
    Str(&'static str, &'static str),
    /// Optional `, kw = true|false`.
    OptBool(&'static str, &'static str),
    /// `format = eXmY` (reduce_precision's exponent and mantissa bits).
    Format,
}

fn pieces(kind: OpKind) -> &'static [Piece] {
    use OpKind as K;
    use Piece::*;
    match kind {
        K::DynamicIota => &[Int("dim", "iota_dimension")],
        K::BroadcastInDim | K::DynamicBroadcastInDim => &[Dims("dims", "broadcast_dimensions")],
        K::Broadcast => &[Dims("sizes", "broadcast_sizes")],
        K::Transpose => &[Dims("dims", "permutation")],
        K::Reverse => &[Dims("dims", "dimensions")],
        K::DynamicSlice => &[Dims("sizes", "slice_sizes")],
        K::Pad => &[Dims("low", "edge_padding_low"), Dims("high", "edge_padding_high"), Dims("interior", "interior_padding")],
        K::Concatenate | K::GetDimensionSize | K::SetDimensionSize => &[Int("dim", "dimension")],
        K::Einsum | K::UnaryEinsum => &[Str("config", "einsum_config")],
        K::Fft => &[Enum("type", "fft_type", "fft_type"), Dims("length", "fft_length")],
        K::Rng => &[Enum("distribution", "rng_distribution", "rng_distribution")],
        K::RngBitGenerator => &[Enum("algorithm", "rng_algorithm", "rng_algorithm")],
        K::Cholesky => &[OptBool("lower", "lower")],
        K::ReducePrecision => &[Format],
        _ => &[],
    }
}

fn parse_pieces(p: &mut Parser<'_>, kind: OpKind, attrs: &mut Vec<(String, Attr)>) -> PResult<()> {
    for piece in pieces(kind) {
        match *piece {
            Piece::OptBool(kw, name) => {
                if p.opt_comma_kw(kw)? {
                    let v = match p.tok.text {
                        "true" if p.is(Tok::BareId) => true,
                        "false" if p.is(Tok::BareId) => false,
                        _ => return Err(p.expected("true or false")),
                    };
                    p.advance();
                    attrs.push((name.to_string(), Attr::Bool(v)));
                }
                continue;
            }
            Piece::Format => {
                p.expect(Tok::Comma, "','")?;
                p.kw_eq("format")?;
                let t = p.expect(Tok::BareId, "a format like e5m10")?;
                let (e, m) = parse_format(t.text).ok_or_else(|| p.err_at(t.pos, "expected a format like e5m10"))?;
                attrs.push(("exponent_bits".to_string(), Attr::Int(e, ElementType::I32)));
                attrs.push(("mantissa_bits".to_string(), Attr::Int(m, ElementType::I32)));
                continue;
            }
            _ => {}
        }
        p.expect(Tok::Comma, "','")?;
        match *piece {
            Piece::Dims(kw, name) => {
                p.kw_eq(kw)?;
                attrs.push((name.to_string(), p.i64_array_attr()?));
            }
            Piece::Int(kw, name) => {
                p.kw_eq(kw)?;
                attrs.push((name.to_string(), Attr::Int(p.parse_i64()?, ElementType::I64)));
            }
            Piece::Enum(kw, name, enum_kind) => {
                p.kw_eq(kw)?;
                let t = p.expect(Tok::BareId, "an enum value")?;
                let a = parse_enum_value(enum_kind, t.text).ok_or_else(|| p.err_at(t.pos, format!("unknown {enum_kind} '{}'", t.text)))?;
                attrs.push((name.to_string(), a));
            }
            Piece::Str(kw, name) => {
                p.kw_eq(kw)?;
                attrs.push((name.to_string(), Attr::Str(p.parse_string()?)));
            }
            Piece::OptBool(..) | Piece::Format => {}
        }
    }
    Ok(())
}

fn parse_format(s: &str) -> Option<(i64, i64)> {
    let rest = s.strip_prefix('e')?;
    let (e, m) = rest.split_once('m')?;
    Some((e.parse().ok()?, m.parse().ok()?))
}

/// Writes the pieces; false if an attribute is missing or of another kind. Returns the names used.
fn print_pieces(pr: &mut Printer<'_>, op: &Op, used: &mut Vec<&'static str>) -> bool {
    for piece in pieces(op.kind) {
        match *piece {
            Piece::Dims(kw, name) => {
                let Some(v) = i64_array(op, name) else { return false };
                pr.w(&format!(", {kw} = "));
                write_i64s(&mut pr.out, &v);
                used.push(name);
            }
            Piece::Int(kw, name) => {
                let Some(v) = super::i64_attr(op, name) else { return false };
                pr.w(&format!(", {kw} = {v}"));
                used.push(name);
            }
            Piece::Enum(kw, name, _) => {
                let kwd = match op.attr(name) {
                    Some(Attr::FftType(x)) => x.keyword(),
                    Some(Attr::RngDistribution(x)) => x.keyword(),
                    Some(Attr::RngAlgorithm(x)) => x.keyword(),
                    _ => return false,
                };
                pr.w(&format!(", {kw} = {kwd}"));
                used.push(name);
            }
            Piece::Str(kw, name) => {
                let Some(Attr::Str(s)) = op.attr(name) else { return false };
                pr.w(&format!(", {kw} = "));
                write_string(&mut pr.out, s);
                used.push(name);
            }
            Piece::OptBool(kw, name) => match op.attr(name) {
                None => {}
                Some(Attr::Bool(b)) => {
                    pr.w(&format!(", {kw} = {b}"));
                    used.push(name);
                }
                Some(_) => return false,
            },
            Piece::Format => {
                let i32t = ElementType::Int { bits: 32, signedness: Signedness::Signless };
                match (op.attr("exponent_bits"), op.attr("mantissa_bits")) {
                    (Some(Attr::Int(e, te)), Some(Attr::Int(m, tm))) if *te == i32t && *tm == i32t => {
                        pr.w(&format!(", format = e{e}m{m}"));
                        used.push("exponent_bits");
                        used.push("mantissa_bits");
                    }
                    _ => return false,
                }
            }
        }
    }
    true
}

/// `op %a, %b, kw = value, ... attr-dict : (T, U) -> R` (also slice's `%x [a:b:c, ...]`).
pub fn parse_functional_with_attrs<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>, kind: OpKind) -> PResult<Parsed> {
    let uses = p.parse_uses(ctx)?;
    let mut attrs = Vec::new();
    if kind == OpKind::Slice {
        parse_slice_ranges(p, &mut attrs)?;
    } else {
        parse_pieces(p, kind, &mut attrs)?;
    }
    attrs.extend(p.opt_attr_dict()?);
    let (operands, results) = p.colon_functional(ctx, &uses)?;
    Ok((op_with(kind, operands, attrs), results))
}

pub fn print_functional_with_attrs(pr: &mut Printer<'_>, op: &Op) -> bool {
    if op.operands.is_empty() {
        return false;
    }
    pr.w(op.name());
    pr.w(" ");
    pr.vals(&op.operands);
    let mut used = Vec::new();
    if op.kind == OpKind::Slice {
        if !print_slice_ranges(pr, op) {
            return false;
        }
        used.extend(["start_indices", "limit_indices", "strides"]);
    } else if !print_pieces(pr, op, &mut used) {
        return false;
    }
    pr.attr_dict_except(op, &used);
    pr.w(" : ");
    pr.functional_type(op);
    true
}

/// `op %a, kw = value attr-dict : T` (or a function type when types differ).
pub fn parse_same_type_with_attrs<'a>(p: &mut Parser<'a>, ctx: &mut FuncCtx<'a>, kind: OpKind) -> PResult<Parsed> {
    let uses = p.parse_uses(ctx)?;
    let mut attrs = Vec::new();
    parse_pieces(p, kind, &mut attrs)?;
    attrs.extend(p.opt_attr_dict()?);
    let (operands, results) = p.colon_same_type(ctx, &uses)?;
    Ok((op_with(kind, operands, attrs), results))
}

pub fn print_same_type_with_attrs(pr: &mut Printer<'_>, op: &Op) -> bool {
    if op.operands.is_empty() || op.results.len() != 1 {
        return false;
    }
    pr.w(op.name());
    pr.w(" ");
    pr.vals(&op.operands);
    let mut used = Vec::new();
    if !print_pieces(pr, op, &mut used) {
        return false;
    }
    pr.attr_dict_except(op, &used);
    pr.w(" : ");
    same_type(pr, op);
    true
}

/// ` [0:2, 1:4:2]`.
fn parse_slice_ranges(p: &mut Parser<'_>, attrs: &mut Vec<(String, Attr)>) -> PResult<()> {
    p.expect(Tok::LBracket, "'[' and the slice ranges")?;
    let ranges = p.comma_list(Tok::RBracket, "slice ranges", |p| {
        let s = p.parse_i64()?;
        p.expect(Tok::Colon, "':' in the slice range")?;
        let l = p.parse_i64()?;
        let st = if p.eat(Tok::Colon) { p.parse_i64()? } else { 1 };
        Ok((s, l, st))
    })?;
    let arr = |f: fn(&(i64, i64, i64)) -> i64| Attr::DenseArray(DenseArray::I64(ranges.iter().map(f).collect()));
    attrs.push(("start_indices".to_string(), arr(|r| r.0)));
    attrs.push(("limit_indices".to_string(), arr(|r| r.1)));
    attrs.push(("strides".to_string(), arr(|r| r.2)));
    Ok(())
}

fn print_slice_ranges(pr: &mut Printer<'_>, op: &Op) -> bool {
    let (Some(s), Some(l), Some(st)) = (i64_array(op, "start_indices"), i64_array(op, "limit_indices"), i64_array(op, "strides")) else {
        return false;
    };
    if s.len() != l.len() || s.len() != st.len() {
        return false;
    }
    pr.w(" [");
    for i in 0..s.len() {
        if i > 0 {
            pr.w(", ");
        }
        pr.w(&format!("{}:{}", s[i], l[i]));
        if st[i] != 1 {
            pr.w(&format!(":{}", st[i]));
        }
    }
    pr.w("]");
    true
}
