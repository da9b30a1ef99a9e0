//! Dense element literals: `dense<[[1, 2], [3, 4]]> : T`, splats, `dense<>`, complex `(re, im)`, booleans,
//! hex element bit patterns (`0x7FC00000`), and hex raw storage `dense<"0x...">` in MLIR's layout (one byte
//! per i1 and sub-byte element, 3 bytes per tf32, parts in order for complex). Values are rounded into the
//! element format by the dtype crate; all-equal literals are stored as splats, as MLIR does.

use super::attrs::check_int_range;
use super::{decode_hex_string, parse_uint, PResult, Parser};
use crate::lexer::Tok;
use oxhlo_ir::{Attr, DenseElements, ElementType, TensorType, Type};

/// One scalar literal of a dense list, kept as text until the element type is known.
#[derive(Clone, Copy)]
enum Leaf<'a> {
    Num { neg: bool, float: bool, text: &'a str, pos: usize },
    Bool(bool, usize),
    /// `(re, im)`: indices of the two parts in the leaf list are the next two entries.
    Complex(usize),
}

/// The parsed literal: its leaves (flattened) and the shape the nesting implies.
struct Literal<'a> {
    leaves: Vec<Leaf<'a>>,
    shape: Vec<usize>,
    /// True for a bare scalar (a splat).
    scalar: bool,
}

/// MLIR's raw storage bytes per element for hex literals (`None` for types MLIR cannot store densely).
pub fn mlir_storage_bytes(e: &ElementType) -> usize {
    match e {
        ElementType::Bool => 1,
        ElementType::Complex(f) => 2 * (f.bits() as usize).div_ceil(8),
        ElementType::Quant(q) => mlir_storage_bytes(&q.storage),
        other => (other.bits() as usize).div_ceil(8),
    }
}

impl<'a> Parser<'a> {
    /// `dense<...> : type`; the current token is `dense`.
    pub fn parse_dense_attr(&mut self) -> PResult<Attr> {
        let start = self.tok.pos;
        self.advance();
        self.expect(Tok::Less, "'<' after 'dense'")?;
        let hex = if self.is(Tok::Str) {
            let t = self.tok;
            self.advance();
            Some(t)
        } else {
            None
        };
        let lit = if hex.is_none() && !self.is(Tok::Greater) { Some(self.parse_literal()?) } else { None };
        self.expect(Tok::Greater, "'>' closing the dense literal")?;
        self.expect(Tok::Colon, "':' and the type of the dense literal")?;
        let tpos = self.tok.pos;
        let ty = self.parse_type()?;
        let tt = match ty {
            Type::Tensor(t) => t,
            _ => return Err(self.err_at(tpos, "dense literals need a ranked tensor type")),
        };
        let n = tt.num_elements().ok_or_else(|| self.err_at(tpos, "dense literals need a static shape"))?;
        let d = if let Some(h) = hex {
            let raw = decode_hex_string(h.text).map_err(|m| self.err_at(h.pos, m))?;
            from_mlir_raw(tt, &raw, n).map_err(|m| self.err_at(h.pos, m))?
        } else if let Some(lit) = lit {
            self.literal_to_dense(lit, tt, n, start)?
        } else {
            if n != 0 {
                return Err(self.err_at(start, format!("empty dense literal for a type with {n} elements")));
            }
            DenseElements::from_raw(tt, Vec::new()).map_err(|m| self.err_at(start, m))?
        };
        Ok(Attr::Dense(canonical_splat(d)))
    }

    /// A scalar or nested list literal.
    fn parse_literal(&mut self) -> PResult<Literal<'a>> {
        let mut lit = Literal { leaves: Vec::new(), shape: Vec::new(), scalar: false };
        if !self.is(Tok::LBracket) {
            self.parse_leaf(&mut lit.leaves)?;
            lit.scalar = true;
            return Ok(lit);
        }
        let mut dims: Vec<Option<usize>> = Vec::new();
        let mut leaf_depth: Option<usize> = None;
        self.parse_list(0, &mut dims, &mut leaf_depth, &mut lit.leaves)?;
        lit.shape = dims.into_iter().map(|d| d.unwrap_or(0)).collect();
        Ok(lit)
    }

    fn parse_list(&mut self, depth: usize, dims: &mut Vec<Option<usize>>, leaf_depth: &mut Option<usize>, leaves: &mut Vec<Leaf<'a>>) -> PResult<()> {
        self.enter()?;
        let open = self.tok.pos;
        self.expect(Tok::LBracket, "'['")?;
        let mut count = 0usize;
        if !self.is(Tok::RBracket) {
            loop {
                if self.is(Tok::LBracket) {
                    self.parse_list(depth + 1, dims, leaf_depth, leaves)?;
                } else {
                    match leaf_depth {
                        Some(d) if *d != depth + 1 => return Err(self.err("inconsistent nesting in the dense literal")),
                        _ => *leaf_depth = Some(depth + 1),
                    }
                    self.parse_leaf(leaves)?;
                }
                count += 1;
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::RBracket, "']' or ',' in the dense literal")?;
        if dims.len() <= depth {
            dims.resize(depth + 1, None);
        }
        match dims[depth] {
            Some(c) if c != count => return Err(self.err_at(open, format!("dense literal lists have different lengths ({c} vs {count})"))),
            _ => dims[depth] = Some(count),
        }
        if let Some(d) = *leaf_depth {
            if d <= depth {
                return Err(self.err_at(open, "inconsistent nesting in the dense literal"));
            }
        }
        self.leave();
        Ok(())
    }

    fn parse_leaf(&mut self, leaves: &mut Vec<Leaf<'a>>) -> PResult<()> {
        if self.eat(Tok::LParen) {
            let at = leaves.len();
            leaves.push(Leaf::Complex(at));
            self.parse_leaf_scalar(leaves)?;
            self.expect(Tok::Comma, "',' in the complex literal")?;
            self.parse_leaf_scalar(leaves)?;
            self.expect(Tok::RParen, "')' closing the complex literal")?;
            return Ok(());
        }
        self.parse_leaf_scalar(leaves)
    }

    fn parse_leaf_scalar(&mut self, leaves: &mut Vec<Leaf<'a>>) -> PResult<()> {
        let neg = self.eat(Tok::Minus);
        let t = self.tok;
        let leaf = match t.kind {
            Tok::Int => Leaf::Num { neg, float: false, text: t.text, pos: t.pos },
            Tok::Float => Leaf::Num { neg, float: true, text: t.text, pos: t.pos },
            Tok::BareId if !neg && t.text == "true" => Leaf::Bool(true, t.pos),
            Tok::BareId if !neg && t.text == "false" => Leaf::Bool(false, t.pos),
            _ => return Err(self.expected("a dense element literal")),
        };
        self.advance();
        leaves.push(leaf);
        Ok(())
    }

    fn literal_to_dense(&self, lit: Literal<'a>, tt: TensorType, n: usize, start: usize) -> PResult<DenseElements> {
        let count = if tt.elem.is_complex() { lit.leaves.len() / 3 } else { lit.leaves.len() };
        if !lit.scalar {
            let want: Vec<usize> = tt.shape.iter().map(|&d| d as usize).collect();
            if lit.shape != want {
                return Err(self.err_at(
                    start,
                    format!("dense literal shape [{}] does not match the type's shape [{}]", join(&lit.shape), join(&want)),
                ));
            }
        }
        if !lit.scalar && count != n {
            return Err(self.err_at(start, "dense literal has the wrong number of elements"));
        }
        let slot = tt.elem.storage_bytes();
        let mut data = Vec::with_capacity(slot * count.max(1));
        let mut i = 0;
        while i < lit.leaves.len() {
            match (&tt.elem, lit.leaves[i]) {
                (ElementType::Complex(f), Leaf::Complex(_)) => {
                    let part = slot / 2;
                    for k in 1..=2 {
                        let bits = self.leaf_float_bits(lit.leaves.get(i + k), *f)?;
                        push_le(&mut data, bits, part);
                    }
                    i += 3;
                    continue;
                }
                (ElementType::Complex(_), l) => return Err(self.err_at(leaf_pos(l, start), "expected a complex literal '(re, im)'")),
                (_, Leaf::Complex(_)) => return Err(self.err_at(start, "complex literal for a non-complex element type")),
                (e, l) => {
                    let bits = self.leaf_bits(l, e)?;
                    push_le(&mut data, bits, slot);
                }
            }
            i += 1;
        }
        DenseElements::from_raw(tt, data).map_err(|m| self.err_at(start, m))
    }

    /// The storage bits of one non-complex leaf for element type `e`.
    fn leaf_bits(&self, l: Leaf<'a>, e: &ElementType) -> PResult<u64> {
        match e {
            ElementType::Float(f) => self.leaf_float_bits(Some(&l), *f),
            ElementType::Bool => match l {
                Leaf::Bool(b, _) => Ok(b as u64),
                Leaf::Num { neg: false, float: false, text, pos } => match parse_uint(text) {
                    Some(v @ (0 | 1)) => Ok(v),
                    _ => Err(self.err_at(pos, "expected true, false, 0 or 1 for an i1 element")),
                },
                Leaf::Num { pos, .. } | Leaf::Complex(pos) => Err(self.err_at(pos, "expected true or false for an i1 element")),
            },
            ElementType::Int { .. } | ElementType::Index | ElementType::Quant(_) => match l {
                Leaf::Num { neg, float: false, text, pos } => {
                    let mag = parse_uint(text).ok_or_else(|| self.err_at(pos, "integer literal is too large"))?;
                    let v = check_int_range(mag, neg, e).ok_or_else(|| self.err_at(pos, "integer constant out of range for the element type"))?;
                    Ok(canonical_int(v as u64, e))
                }
                Leaf::Bool(_, pos) | Leaf::Num { pos, .. } | Leaf::Complex(pos) => {
                    Err(self.err_at(pos, "expected an integer literal for an integer element"))
                }
            },
            ElementType::Complex(_) => Err(self.err("internal: complex leaf")),
        }
    }

    fn leaf_float_bits(&self, l: Option<&Leaf<'a>>, f: oxhlo_ir::FloatType) -> PResult<u64> {
        match l {
            Some(&Leaf::Num { neg, float, text, pos }) => {
                if !float && text.starts_with("0x") {
                    let bits = parse_uint(text).ok_or_else(|| self.err_at(pos, "hex literal is too large"))?;
                    if neg || (f.bits() < 64 && bits >> f.bits() != 0) {
                        return Err(self.err_at(pos, format!("hex float literal does not fit in {}", f.name())));
                    }
                    return Ok(bits);
                }
                let v: f64 = text.parse().map_err(|_| self.err_at(pos, "invalid float literal"))?;
                Ok(oxhlo_dtype::encode(f.format(), if neg { -v } else { v }))
            }
            Some(&Leaf::Bool(_, pos)) | Some(&Leaf::Complex(pos)) => Err(self.err_at(pos, "expected a float literal")),
            None => Err(self.err("expected a float literal")),
        }
    }
}

fn leaf_pos(l: Leaf<'_>, d: usize) -> usize {
    match l {
        Leaf::Num { pos, .. } | Leaf::Bool(_, pos) => pos,
        Leaf::Complex(_) => d,
    }
}

fn join(v: &[usize]) -> String {
    v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
}

fn push_le(out: &mut Vec<u8>, v: u64, slot: usize) {
    for k in 0..slot {
        out.push(if k < 8 { (v >> (8 * k)) as u8 } else { 0 });
    }
}

/// Converts MLIR's raw hex storage into oxhlo's slots (widening tf32, masking sub-byte values).
pub fn from_mlir_raw(tt: TensorType, raw: &[u8], n: usize) -> Result<DenseElements, String> {
    let w = mlir_storage_bytes(&tt.elem);
    let slot = tt.elem.storage_bytes();
    let count = if raw.len() == w { 1 } else if Some(raw.len()) == n.checked_mul(w) { n } else {
        return Err(format!("hex dense literal has {} bytes, expected {} ({} elements of {} bytes) or {}", raw.len(), n.saturating_mul(w), n, w, w));
    };
    let is_complex = tt.elem.is_complex();
    let (parts, pw, ps) = if is_complex { (2, w / 2, slot / 2) } else { (1, w, slot) };
    let bits = match &tt.elem {
        ElementType::Complex(f) | ElementType::Float(f) => f.bits(),
        ElementType::Bool => 1,
        other => other.bits(),
    };
    let mut data = Vec::with_capacity(count * slot);
    for e in 0..count {
        for p in 0..parts {
            let base = e * w + p * pw;
            let mut v: u64 = 0;
            for k in 0..pw.min(8) {
                v |= (raw[base + k] as u64) << (8 * k);
            }
            if tt.elem.is_bool() {
                v = (v != 0) as u64;
            } else if matches!(tt.elem, ElementType::Int { .. } | ElementType::Quant(_)) {
                v = canonical_int(v, &tt.elem);
            } else if bits < 64 {
                v &= (1u64 << bits) - 1;
            }
            push_le(&mut data, v, ps);
        }
    }
    DenseElements::from_raw(tt, data)
}

/// The storage of an integer element: its value as the type reads it (sign-extended for signed and
/// signless types, zero-extended for unsigned ones), as `DenseElements::from_i64s` stores in-range values.
pub fn canonical_int(raw: u64, e: &ElementType) -> u64 {
    let (bits, signed) = match e {
        ElementType::Int { bits, .. } => (*bits, e.is_signed_integer()),
        ElementType::Quant(q) => (q.storage.bits(), q.storage.is_signed_integer()),
        _ => return raw,
    };
    oxhlo_ir::dense::extend(raw, bits, signed) as u64
}

/// Stores an all-equal literal of more than one element as a splat (MLIR's canonical form).
pub fn canonical_splat(d: DenseElements) -> DenseElements {
    if d.splat || d.len() <= 1 {
        return d;
    }
    let slot = d.slot();
    if slot == 0 || d.data.len() < slot {
        return d;
    }
    let first = &d.data[..slot];
    if d.data.chunks(slot).all(|c| c == first) {
        let data = first.to_vec();
        return DenseElements { ty: d.ty, data, splat: true };
    }
    d
}
