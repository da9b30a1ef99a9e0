//! Type parsing: `tensor<2x?xf32, #enc>`, `tensor<*xf32>`, every integer/float/complex element type,
//! `!quant.uniform<...>` (per-tensor and per-axis), `!stablehlo.token`, `tuple<...>`, function types,
//! `index`, type aliases, and other dialects' types kept verbatim.

use super::{PResult, Parser};
use crate::lexer::Tok;
use oxhlo_ir::{ElementType, FloatType, FunctionType, QuantType, Signedness, TensorType, Type, DYN};

/// Maps an integer type keyword (`i32`, `si8`, `ui4`) to its element type.
pub fn int_type_from_name(s: &str) -> Option<Result<ElementType, String>> {
    let (sign, digits) = if let Some(d) = s.strip_prefix("si") {
        (Signedness::Signed, d)
    } else if let Some(d) = s.strip_prefix("ui") {
        (Signedness::Unsigned, d)
    } else if let Some(d) = s.strip_prefix('i') {
        (Signedness::Signless, d)
    } else {
        return None;
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let bits: u32 = match digits.parse() {
        Ok(b) => b,
        Err(_) => return Some(Err(format!("integer type '{s}' is too wide"))),
    };
    Some(match (bits, sign) {
        (1, Signedness::Signless) => Ok(ElementType::Bool),
        (2..=64, _) => Ok(ElementType::Int { bits, signedness: sign }),
        _ => Err(format!("unsupported integer type '{s}' (oxhlo supports i1 and 2 to 64 bit integers)")),
    })
}

impl<'a> Parser<'a> {
    /// Parses any type.
    pub fn parse_type(&mut self) -> PResult<Type> {
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    fn parse_type_inner(&mut self) -> PResult<Type> {
        let t = self.tok;
        match t.kind {
            Tok::LParen => {
                self.advance();
                let inputs = self.comma_list(Tok::RParen, "type list", |p| p.parse_type())?;
                self.expect(Tok::Arrow, "'->' in the function type")?;
                let results = self.parse_result_types()?;
                Ok(Type::Function(FunctionType { inputs, results }))
            }
            Tok::BangId => self.parse_bang_type(),
            Tok::BareId => match t.text {
                "tensor" => self.parse_tensor_type(),
                "tuple" => {
                    self.advance();
                    self.expect(Tok::Less, "'<'")?;
                    let elems = self.comma_list(Tok::Greater, "tuple type", |p| p.parse_type())?;
                    Ok(Type::Tuple(elems))
                }
                "vector" | "memref" | "none" | "f80" | "f128" => {
                    self.advance();
                    let body = if self.is(Tok::Less) {
                        self.opaque_angle_body(t.pos)?
                    } else {
                        t.text.to_string()
                    };
                    Ok(Type::Opaque(body))
                }
                _ => Ok(Type::Scalar(self.parse_element_type()?)),
            },
            _ => Err(self.expected("a type")),
        }
    }

    /// `T` or `(T, U)` after `->` in a function type.
    pub fn parse_result_types(&mut self) -> PResult<Vec<Type>> {
        if self.is(Tok::LParen) {
            // `(T) -> ((T) -> U)` style nested function results are written with parens too; a
            // parenthesized list is a result list.
            self.advance();
            return self.comma_list(Tok::RParen, "result type list", |p| p.parse_type());
        }
        Ok(vec![self.parse_type()?])
    }

    /// A scalar element type (also accepts `!quant.uniform` and type aliases that name element types).
    pub fn parse_element_type(&mut self) -> PResult<ElementType> {
        let t = self.tok;
        match t.kind {
            Tok::BareId => {
                if let Some(f) = FloatType::from_name(t.text) {
                    self.advance();
                    return Ok(ElementType::Float(f));
                }
                if let Some(r) = int_type_from_name(t.text) {
                    let e = r.map_err(|m| self.err(m))?;
                    self.advance();
                    return Ok(e);
                }
                match t.text {
                    "index" => {
                        self.advance();
                        Ok(ElementType::Index)
                    }
                    "complex" => {
                        self.advance();
                        self.expect(Tok::Less, "'<'")?;
                        let p = self.tok.pos;
                        let part = self.parse_element_type()?;
                        self.expect(Tok::Greater, "'>'")?;
                        match part {
                            ElementType::Float(f) => Ok(ElementType::Complex(f)),
                            _ => Err(self.err_at(p, "complex element type must be a float type")),
                        }
                    }
                    _ => Err(self.err(format!("unknown type '{}'", t.text))),
                }
            }
            Tok::BangId => match self.parse_bang_type()? {
                Type::Scalar(e) => Ok(e),
                _ => Err(self.err_at(t.pos, "expected an element type")),
            },
            _ => Err(self.expected("an element type")),
        }
    }

    /// `!stablehlo.token`, `!quant.uniform<...>`, `!alias`, or another dialect's type kept verbatim.
    fn parse_bang_type(&mut self) -> PResult<Type> {
        let t = self.tok;
        let name = t.text.get(1..).unwrap_or("");
        self.advance();
        match name {
            "stablehlo.token" | "mhlo.token" => Ok(Type::Token),
            "quant.uniform" => Ok(Type::Scalar(ElementType::Quant(Box::new(self.parse_quant_body()?)))),
            _ if !name.contains('.') => {
                self.type_aliases.get(name).cloned().ok_or_else(|| self.err_at(t.pos, format!("undefined type alias '!{name}'")))
            }
            _ => {
                let text = if self.is(Tok::Less) && self.tok.pos == t.pos + t.text.len() {
                    self.opaque_angle_body(t.pos)?
                } else {
                    t.text.to_string()
                };
                Ok(Type::Opaque(text))
            }
        }
    }

    /// With the current token `<` right after the name starting at `start`, scans the balanced body and
    /// returns the whole text `name<...>`.
    pub(crate) fn opaque_angle_body(&mut self, start: usize) -> PResult<String> {
        let lt = self.tok.pos;
        let mut l = self.lex.clone();
        l.pos = lt;
        let body = l.scan_balanced_angle().ok_or_else(|| self.err_at(lt, "unbalanced '<' in dialect type or attribute"))?;
        let end = l.pos;
        self.reset_to(end);
        Ok(self.src.get(start..end).unwrap_or(body).to_string())
    }

    /// `tensor<2x?x3xf32, #encoding>` / `tensor<*xf32>`; the current token is `tensor`.
    fn parse_tensor_type(&mut self) -> PResult<Type> {
        self.advance();
        if !self.is(Tok::Less) {
            return Err(self.expected("'<' after 'tensor'"));
        }
        // Scan the dimension list by hand from just after `<`.
        let b = self.src.as_bytes();
        let mut i = self.tok.pos + 1;
        let skip_ws = |i: &mut usize| {
            while *i < b.len() && (b[*i] == b' ' || b[*i] == b'\t' || b[*i] == b'\n' || b[*i] == b'\r') {
                *i += 1;
            }
        };
        skip_ws(&mut i);
        if b.get(i) == Some(&b'*') {
            i += 1;
            skip_ws(&mut i);
            if b.get(i) != Some(&b'x') {
                return Err(self.err_at(i, "expected 'x' in the unranked tensor type"));
            }
            self.reset_to(i + 1);
            let e = self.parse_element_type()?;
            self.expect(Tok::Greater, "'>' closing the tensor type")?;
            return Ok(Type::UnrankedTensor(e));
        }
        let mut shape = Vec::new();
        loop {
            let d0 = i;
            let dim = if b.get(i) == Some(&b'?') {
                i += 1;
                DYN
            } else if b.get(i).is_some_and(|c| c.is_ascii_digit()) {
                while b.get(i).is_some_and(|c| c.is_ascii_digit()) {
                    i += 1;
                }
                let txt = self.src.get(d0..i).unwrap_or("");
                txt.parse::<i64>().map_err(|_| self.err_at(d0, "dimension size is too large"))?
            } else {
                break;
            };
            if b.get(i) != Some(&b'x') {
                return Err(self.err_at(i, "expected 'x' after the dimension size"));
            }
            i += 1;
            shape.push(dim);
            if shape.len() > 4096 {
                return Err(self.err_at(d0, "tensor rank is too large"));
            }
        }
        self.reset_to(i);
        let elem = self.parse_element_type()?;
        let mut tt = TensorType::new(shape, elem);
        if self.eat(Tok::Comma) {
            let enc = self.parse_attr()?;
            tt.encoding = Some(Box::new(enc));
        }
        self.expect(Tok::Greater, "'>' closing the tensor type")?;
        Ok(Type::Tensor(tt))
    }

    /// The body of `!quant.uniform<storage[<min:max>]:expressed[:axis], params>`; current token is `<`.
    fn parse_quant_body(&mut self) -> PResult<QuantType> {
        self.expect(Tok::Less, "'<' after '!quant.uniform'")?;
        let st = self.tok;
        let storage = match st.kind {
            Tok::BareId => {
                let name = st.text;
                let (sign, digits) = if let Some(d) = name.strip_prefix("ui") {
                    (Signedness::Unsigned, d)
                } else if let Some(d) = name.strip_prefix('u') {
                    (Signedness::Unsigned, d)
                } else if let Some(d) = name.strip_prefix("si") {
                    (Signedness::Signless, d)
                } else if let Some(d) = name.strip_prefix('i') {
                    (Signedness::Signless, d)
                } else {
                    return Err(self.err("expected a quantized storage type like i8 or u8"));
                };
                let bits: u32 = digits.parse().map_err(|_| self.err("expected a quantized storage type like i8 or u8"))?;
                if !(2..=64).contains(&bits) {
                    return Err(self.err("unsupported quantized storage width"));
                }
                self.advance();
                ElementType::Int { bits, signedness: sign }
            }
            _ => return Err(self.expected("a quantized storage type")),
        };
        let (mut smin, mut smax) = (None, None);
        if self.eat(Tok::Less) {
            smin = Some(self.parse_i64()?);
            self.expect(Tok::Colon, "':' in the storage range")?;
            smax = Some(self.parse_i64()?);
            self.expect(Tok::Greater, "'>' closing the storage range")?;
        }
        self.expect(Tok::Colon, "':' after the storage type")?;
        let expressed = self.parse_element_type()?;
        let mut axis = None;
        if self.eat(Tok::Colon) {
            axis = Some(self.parse_i64()?);
        }
        self.expect(Tok::Comma, "',' before the quantization parameters")?;
        let mut scales = Vec::new();
        let mut zps = Vec::new();
        if axis.is_some() {
            self.expect(Tok::LBrace, "'{' opening the per-axis parameters")?;
            let params = self.comma_list(Tok::RBrace, "quantization parameters", |p| p.parse_quant_param())?;
            for (s, z) in params {
                scales.push(s);
                zps.push(z);
            }
        } else {
            let (s, z) = self.parse_quant_param()?;
            scales.push(s);
            zps.push(z);
        }
        self.expect(Tok::Greater, "'>' closing the quantized type")?;
        Ok(QuantType {
            storage,
            storage_min: smin,
            storage_max: smax,
            expressed,
            quantized_dimension: axis,
            scales,
            zero_points: zps,
        })
    }

    /// `scale[:zero_point]`.
    fn parse_quant_param(&mut self) -> PResult<(f64, i64)> {
        let s = self.parse_f64_literal()?;
        let z = if self.eat(Tok::Colon) { self.parse_i64()? } else { 0 };
        Ok((s, z))
    }

    /// A float or integer literal as f64 (with optional sign).
    pub fn parse_f64_literal(&mut self) -> PResult<f64> {
        let neg = self.eat(Tok::Minus);
        let t = self.tok;
        let v = match t.kind {
            Tok::Float => t.text.parse::<f64>().map_err(|_| self.err("invalid float literal"))?,
            Tok::Int => {
                if t.text.starts_with("0x") {
                    return Err(self.err("expected a decimal number"));
                }
                t.text.parse::<f64>().map_err(|_| self.err("invalid number"))?
            }
            _ => return Err(self.expected("a number")),
        };
        self.advance();
        Ok(if neg { -v } else { v })
    }
}
