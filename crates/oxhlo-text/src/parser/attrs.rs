//! Attribute parsing: builtin attributes (numbers, strings, arrays, dictionaries, `array<...>`, symbol
//! references, types, `dense_resource`), attribute aliases, and the StableHLO dialect's own attributes
//! (`#stablehlo<comparison_direction EQ>`, `#stablehlo.dot<...>`, `.gather`, `.scatter`, `.conv`,
//! `.channel_handle`, `.output_operand_alias`, `.dot_algorithm`, `.result_accuracy`, `.bounds`).
//! Other dialects' attributes are kept verbatim.

use super::{apply_sign, parse_uint, PResult, Parser};
use crate::lexer::Tok;
use oxhlo_ir::attr::{
    ComparisonDirection, ComparisonType, ConvDims, DenseArray, DotAlgorithm, DotDims, FftType, GatherDims,
    OutputOperandAlias, Precision, ResultAccuracy, ResultAccuracyMode, RngAlgorithm, RngDistribution, ScatterDims,
    Transpose,
};
use oxhlo_ir::{Attr, ElementType, NamedAttr, Type};

/// Rounds an f64 to the nearest value of a float element type (identity for f64 and non-floats).
pub fn round_to(v: f64, e: &ElementType) -> f64 {
    match e {
        ElementType::Float(f) => {
            let fmt = f.format();
            oxhlo_dtype::decode(fmt, oxhlo_dtype::encode(fmt, v))
        }
        _ => v,
    }
}

impl<'a> Parser<'a> {
    /// Parses any attribute value.
    pub fn parse_attr(&mut self) -> PResult<Attr> {
        self.enter()?;
        let r = self.parse_attr_inner();
        self.leave();
        r
    }

    fn parse_attr_inner(&mut self) -> PResult<Attr> {
        let t = self.tok;
        match t.kind {
            Tok::LBracket => {
                self.advance();
                Ok(Attr::Array(self.comma_list(Tok::RBracket, "array", |p| p.parse_attr())?))
            }
            Tok::LBrace => {
                self.advance();
                Ok(Attr::Dict(self.parse_dict_body()?))
            }
            Tok::Str => {
                let s = self.parse_string()?;
                if self.is(Tok::Colon) && self.peek_is_type_start() {
                    // Typed string attribute: the type is not kept.
                    self.advance();
                    self.parse_type()?;
                }
                Ok(Attr::Str(s))
            }
            Tok::Int | Tok::Float | Tok::Minus => self.parse_number_attr(),
            Tok::SymbolRef => {
                self.advance();
                let mut s = self.symbol_name(t)?;
                // Nested references `@a::@b`.
                while self.is(Tok::Colon) && self.src.as_bytes().get(self.tok.pos + 1) == Some(&b':') {
                    self.advance();
                    self.expect(Tok::Colon, "'::'")?;
                    let n = self.expect(Tok::SymbolRef, "a nested symbol reference")?;
                    s.push_str("::@");
                    s.push_str(&self.symbol_name(n)?);
                }
                Ok(Attr::SymbolRef(s))
            }
            Tok::HashId => self.parse_hash_attr(),
            Tok::BareId => match t.text {
                "true" => {
                    self.advance();
                    Ok(Attr::Bool(true))
                }
                "false" => {
                    self.advance();
                    Ok(Attr::Bool(false))
                }
                "unit" => {
                    self.advance();
                    Ok(Attr::Unit)
                }
                "dense" => self.parse_dense_attr(),
                "dense_resource" => {
                    self.advance();
                    self.expect(Tok::Less, "'<'")?;
                    let n = self.tok;
                    if n.kind != Tok::BareId && n.kind != Tok::Str {
                        return Err(self.expected("a resource name"));
                    }
                    let name = if n.kind == Tok::Str { self.parse_string()? } else { n.text.to_string() };
                    if n.kind == Tok::BareId {
                        self.advance();
                    }
                    self.expect(Tok::Greater, "'>'")?;
                    self.expect(Tok::Colon, "':' and the type of the resource")?;
                    let ty = self.parse_type()?;
                    Ok(Attr::DenseResource(name, ty))
                }
                "array" => self.parse_dense_array(),
                "affine_map" | "affine_set" | "sparse" | "strided" | "distinct" | "loc" => {
                    self.advance();
                    if !self.is(Tok::Less) && !self.is(Tok::LParen) {
                        return Err(self.expected("'<'"));
                    }
                    if self.is(Tok::LParen) {
                        return Err(self.err(format!("'{}' attributes are not supported here", t.text)));
                    }
                    Ok(Attr::Opaque(self.opaque_angle_body(t.pos)?))
                }
                _ => Ok(Attr::Type(self.parse_type()?)),
            },
            Tok::BangId | Tok::LParen => Ok(Attr::Type(self.parse_type()?)),
            _ => Err(self.expected("an attribute value")),
        }
    }

    /// Whether the token after the current `:` starts a type.
    fn peek_is_type_start(&self) -> bool {
        let n = self.peek();
        match n.kind {
            Tok::BangId | Tok::LParen => true,
            Tok::BareId => {
                matches!(n.text, "tensor" | "tuple" | "complex" | "index" | "none")
                    || oxhlo_ir::FloatType::from_name(n.text).is_some()
                    || super::types::int_type_from_name(n.text).is_some()
            }
            _ => false,
        }
    }

    /// The entries of a dictionary after `{`, up to and including `}`; sorted by name as MLIR does.
    pub fn parse_dict_body(&mut self) -> PResult<Vec<NamedAttr>> {
        let mut entries: Vec<NamedAttr> = self.comma_list(Tok::RBrace, "dictionary", |p| {
            let t = p.tok;
            let name = match t.kind {
                Tok::BareId => {
                    p.advance();
                    t.text.to_string()
                }
                Tok::Str => p.parse_string()?,
                _ => return Err(p.expected("an attribute name")),
            };
            if p.eat(Tok::Equal) {
                Ok((name, p.parse_attr()?))
            } else {
                Ok((name, Attr::Unit))
            }
        })?;
        sort_named(&mut entries).map_err(|n| self.err(format!("duplicate attribute '{n}'")))?;
        Ok(entries)
    }

    /// `42`, `-1 : i32`, `1.5 : f32`, `0x7FC00000 : f32`, `true`-like `1 : i1`.
    fn parse_number_attr(&mut self) -> PResult<Attr> {
        let start = self.tok.pos;
        let neg = self.eat(Tok::Minus);
        let t = self.tok;
        if t.kind != Tok::Int && t.kind != Tok::Float {
            return Err(self.expected("a number"));
        }
        self.advance();
        let ty = if self.is(Tok::Colon) && self.peek_is_type_start() {
            self.advance();
            let p = self.tok.pos;
            match self.parse_type()? {
                Type::Scalar(e) => Some(e),
                _ => return Err(self.err_at(p, "expected a scalar type for the number")),
            }
        } else {
            None
        };
        let elem = ty.unwrap_or(if t.kind == Tok::Int { ElementType::I64 } else { ElementType::F64 });
        match &elem {
            ElementType::Float(f) => {
                let v = if t.kind == Tok::Int && t.text.starts_with("0x") {
                    let bits = parse_uint(t.text).ok_or_else(|| self.err_at(t.pos, "hex literal is too large"))?;
                    if neg || (f.bits() < 64 && bits >> f.bits() != 0) {
                        return Err(self.err_at(t.pos, format!("hex float literal does not fit in {}", f.name())));
                    }
                    oxhlo_dtype::decode(f.format(), bits)
                } else {
                    let v: f64 = t.text.parse().map_err(|_| self.err_at(t.pos, "invalid number"))?;
                    round_to(if neg { -v } else { v }, &elem)
                };
                Ok(Attr::Float(v, elem))
            }
            ElementType::Bool => {
                if t.kind != Tok::Int || neg {
                    return Err(self.err_at(start, "expected 0 or 1 for an i1 value"));
                }
                match parse_uint(t.text) {
                    Some(0) => Ok(Attr::Bool(false)),
                    Some(1) => Ok(Attr::Bool(true)),
                    _ => Err(self.err_at(start, "integer constant out of range for i1")),
                }
            }
            ElementType::Int { .. } | ElementType::Index => {
                if t.kind != Tok::Int {
                    return Err(self.err_at(t.pos, "expected an integer literal for an integer type"));
                }
                let mag = parse_uint(t.text).ok_or_else(|| self.err_at(t.pos, "integer literal is too large"))?;
                let v = check_int_range(mag, neg, &elem).ok_or_else(|| self.err_at(start, "integer constant out of range for its type"))?;
                Ok(Attr::Int(v, elem))
            }
            _ => Err(self.err_at(start, "numbers must have an integer or float type")),
        }
    }

    /// `array<i64: 1, 2>`, `array<i1: true>`, `array<f32: 1.0>`, `array<i64>`.
    fn parse_dense_array(&mut self) -> PResult<Attr> {
        self.advance();
        self.expect(Tok::Less, "'<' after 'array'")?;
        let tp = self.tok.pos;
        let elem = self.parse_element_type()?;
        let mut items: Vec<(bool, Tok, &'a str, usize)> = Vec::new();
        if self.eat(Tok::Colon) {
            loop {
                let neg = self.eat(Tok::Minus);
                let t = self.tok;
                match t.kind {
                    Tok::Int | Tok::Float => {}
                    Tok::BareId if t.text == "true" || t.text == "false" => {}
                    _ => return Err(self.expected("an array element")),
                }
                self.advance();
                items.push((neg, t.kind, t.text, t.pos));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(Tok::Greater, "'>' closing the array")?;
        let ints = |p: &Parser<'a>, e: &ElementType| -> PResult<Vec<i64>> {
            items
                .iter()
                .map(|&(neg, k, text, pos)| {
                    if k != Tok::Int {
                        return Err(p.err_at(pos, "expected an integer array element"));
                    }
                    let mag = parse_uint(text).ok_or_else(|| p.err_at(pos, "integer is too large"))?;
                    check_int_range(mag, neg, e).ok_or_else(|| p.err_at(pos, "integer out of range for the array type"))
                })
                .collect()
        };
        let floats = |p: &Parser<'a>, e: &ElementType| -> PResult<Vec<f64>> {
            items
                .iter()
                .map(|&(neg, k, text, pos)| {
                    if k == Tok::BareId {
                        return Err(p.err_at(pos, "expected a number"));
                    }
                    if k == Tok::Int && text.starts_with("0x") {
                        let bits = parse_uint(text).ok_or_else(|| p.err_at(pos, "hex literal is too large"))?;
                        let f = e.float_type().unwrap_or(oxhlo_ir::FloatType::F64);
                        return Ok(oxhlo_dtype::decode(f.format(), bits));
                    }
                    let v: f64 = text.parse().map_err(|_| p.err_at(pos, "invalid number"))?;
                    Ok(round_to(if neg { -v } else { v }, e))
                })
                .collect()
        };
        let arr = match &elem {
            ElementType::Bool => DenseArray::Bool(
                items
                    .iter()
                    .map(|&(neg, k, text, pos)| match (neg, k, text) {
                        (false, Tok::BareId, "true") | (false, Tok::Int, "1") => Ok(true),
                        (false, Tok::BareId, "false") | (false, Tok::Int, "0") => Ok(false),
                        _ => Err(self.err_at(pos, "expected true or false")),
                    })
                    .collect::<PResult<_>>()?,
            ),
            ElementType::Int { bits: 8, .. } => DenseArray::I8(ints(self, &elem)?),
            ElementType::Int { bits: 16, .. } => DenseArray::I16(ints(self, &elem)?),
            ElementType::Int { bits: 32, .. } => DenseArray::I32(ints(self, &elem)?),
            ElementType::Int { bits: 64, .. } => DenseArray::I64(ints(self, &elem)?),
            ElementType::Float(oxhlo_ir::FloatType::F32) => DenseArray::F32(floats(self, &elem)?),
            ElementType::Float(oxhlo_ir::FloatType::F64) => DenseArray::F64(floats(self, &elem)?),
            _ => return Err(self.err_at(tp, "unsupported array element type (i1, i8, i16, i32, i64, f32, f64)")),
        };
        Ok(Attr::DenseArray(arr))
    }

    /// `#alias`, `#stablehlo<...>`, `#chlo<...>`, `#stablehlo.xxx<...>`, other dialects verbatim.
    fn parse_hash_attr(&mut self) -> PResult<Attr> {
        let t = self.tok;
        let name = t.text.get(1..).unwrap_or("");
        self.advance();
        let adjacent_lt = self.is(Tok::Less) && self.tok.pos == t.pos + t.text.len();
        match name {
            "stablehlo" | "chlo" | "mhlo" if adjacent_lt => self.parse_enum_attr(),
            "stablehlo.dot" => self.angle(|p| p.parse_dot_dims().map(Attr::DotDims)),
            "stablehlo.gather" => self.angle(|p| p.parse_gather_dims().map(Attr::GatherDims)),
            "stablehlo.scatter" => self.angle(|p| p.parse_scatter_dims().map(Attr::ScatterDims)),
            "stablehlo.conv" => self.angle(|p| p.parse_conv_dims().map(Attr::ConvDims)),
            "stablehlo.channel_handle" => self.angle(|p| {
                let f = p.parse_fields(&["handle", "type"])?;
                Ok(Attr::ChannelHandle { handle: f.int(0)?, kind: f.int(1)? })
            }),
            "stablehlo.output_operand_alias" => self.angle(|p| {
                let f = p.parse_fields(&["output_tuple_indices", "operand_index", "operand_tuple_indices"])?;
                Ok(Attr::OutputOperandAlias(OutputOperandAlias {
                    output_tuple_indices: f.list(0)?,
                    operand_index: f.int(1)?,
                    operand_tuple_indices: f.list(2)?,
                }))
            }),
            "stablehlo.dot_algorithm" => self.angle(|p| p.parse_dot_algorithm_body().map(|a| Attr::DotAlgorithm(Box::new(a)))),
            "stablehlo.result_accuracy" => self.angle(|p| p.parse_result_accuracy_body().map(Attr::ResultAccuracy)),
            "stablehlo.bounds" => self.angle(|p| {
                let mut v = Vec::new();
                if !p.is(Tok::Greater) {
                    loop {
                        v.push(if p.eat(Tok::Question) { oxhlo_ir::DYN } else { p.parse_i64()? });
                        if !p.eat(Tok::Comma) {
                            break;
                        }
                    }
                }
                Ok(Attr::Bounds(v))
            }),
            "stablehlo.type_extensions" => self.angle(|p| {
                p.expect_kw("bounds")?;
                p.expect(Tok::Equal, "'='")?;
                Ok(Attr::Bounds(p.parse_dim_list()?))
            }),
            _ if !name.contains('.') && !adjacent_lt => {
                if let Some(a) = self.attr_aliases.get(name) {
                    return Ok(a.clone());
                }
                Err(self.err_at(t.pos, format!("undefined attribute alias '#{name}'")))
            }
            _ => {
                let text = if adjacent_lt { self.opaque_angle_body(t.pos)? } else { t.text.to_string() };
                Ok(Attr::Opaque(text))
            }
        }
    }

    /// Runs `f` between `<` and `>`.
    fn angle<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.expect(Tok::Less, "'<'")?;
        let v = f(self)?;
        self.expect(Tok::Greater, "'>'")?;
        Ok(v)
    }

    /// `<comparison_direction EQ>` etc. after `#stablehlo`.
    fn parse_enum_attr(&mut self) -> PResult<Attr> {
        self.angle(|p| {
            let k = p.expect(Tok::BareId, "an enum attribute kind")?;
            let v = p.tok;
            if v.kind != Tok::BareId {
                return Err(p.expected("an enum value"));
            }
            let a = parse_enum_value(k.text, v.text).ok_or_else(|| p.err_at(v.pos, format!("unknown {} '{}'", k.text, v.text)))?;
            p.advance();
            Ok(a)
        })
    }

    /// `key = value` fields in any order; each named field may appear once. Values: integer or list.
    fn parse_fields(&mut self, names: &[&str]) -> PResult<Fields> {
        let mut f = Fields { vals: vec![None; names.len()], loc: self.loc_at(self.tok.pos), names: names.iter().map(|s| s.to_string()).collect() };
        if self.is(Tok::Greater) {
            return Ok(f);
        }
        loop {
            let k = self.expect(Tok::BareId, "a field name")?;
            let idx = names.iter().position(|n| *n == k.text).ok_or_else(|| self.err_at(k.pos, format!("unknown field '{}'", k.text)))?;
            if f.vals[idx].is_some() {
                return Err(self.err_at(k.pos, format!("duplicate field '{}'", k.text)));
            }
            self.expect(Tok::Equal, "'='")?;
            let v = if self.is(Tok::LBracket) { FieldVal::List(self.parse_i64_list()?) } else { FieldVal::Int(self.parse_i64()?) };
            f.vals[idx] = Some(v);
            if !self.eat(Tok::Comma) {
                return Ok(f);
            }
        }
    }

    /// Body of `#stablehlo.dot<...>` (also used by dot_general's pretty form through its own syntax).
    fn parse_dot_dims(&mut self) -> PResult<DotDims> {
        let f = self.parse_fields(&[
            "lhs_batching_dimensions",
            "rhs_batching_dimensions",
            "lhs_contracting_dimensions",
            "rhs_contracting_dimensions",
        ])?;
        Ok(DotDims {
            lhs_batching_dimensions: f.list_or_empty(0)?,
            rhs_batching_dimensions: f.list_or_empty(1)?,
            lhs_contracting_dimensions: f.list_or_empty(2)?,
            rhs_contracting_dimensions: f.list_or_empty(3)?,
        })
    }

    fn parse_gather_dims(&mut self) -> PResult<GatherDims> {
        let f = self.parse_fields(&[
            "offset_dims",
            "collapsed_slice_dims",
            "operand_batching_dims",
            "start_indices_batching_dims",
            "start_index_map",
            "index_vector_dim",
        ])?;
        Ok(GatherDims {
            offset_dims: f.list_or_empty(0)?,
            collapsed_slice_dims: f.list_or_empty(1)?,
            operand_batching_dims: f.list_or_empty(2)?,
            start_indices_batching_dims: f.list_or_empty(3)?,
            start_index_map: f.list_or_empty(4)?,
            index_vector_dim: f.int_or(5, 0)?,
        })
    }

    fn parse_scatter_dims(&mut self) -> PResult<ScatterDims> {
        let f = self.parse_fields(&[
            "update_window_dims",
            "inserted_window_dims",
            "input_batching_dims",
            "scatter_indices_batching_dims",
            "scatter_dims_to_operand_dims",
            "index_vector_dim",
        ])?;
        Ok(ScatterDims {
            update_window_dims: f.list_or_empty(0)?,
            inserted_window_dims: f.list_or_empty(1)?,
            input_batching_dims: f.list_or_empty(2)?,
            scatter_indices_batching_dims: f.list_or_empty(3)?,
            scatter_dims_to_operand_dims: f.list_or_empty(4)?,
            index_vector_dim: f.int_or(5, 0)?,
        })
    }

    /// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` or `raw input_batch_dimension = 0, ...`.
    pub fn parse_conv_dims(&mut self) -> PResult<ConvDims> {
        if self.eat_kw("raw") {
            let f = self.parse_fields(&[
                "input_batch_dimension",
                "input_feature_dimension",
                "input_spatial_dimensions",
                "kernel_input_feature_dimension",
                "kernel_output_feature_dimension",
                "kernel_spatial_dimensions",
                "output_batch_dimension",
                "output_feature_dimension",
                "output_spatial_dimensions",
            ])?;
            return Ok(ConvDims {
                input_batch_dimension: f.int(0)?,
                input_feature_dimension: f.int(1)?,
                input_spatial_dimensions: f.list(2)?,
                kernel_input_feature_dimension: f.int(3)?,
                kernel_output_feature_dimension: f.int(4)?,
                kernel_spatial_dimensions: f.list(5)?,
                output_batch_dimension: f.int(6)?,
                output_feature_dimension: f.int(7)?,
                output_spatial_dimensions: f.list(8)?,
            });
        }
        let (ib, if_, is) = self.parse_conv_layout(('b', 'f'))?;
        if !self.eat_kw("x") {
            return Err(self.expected("'x' between the input and kernel layouts"));
        }
        let (ki, ko, ks) = self.parse_conv_layout(('i', 'o'))?;
        self.expect(Tok::Arrow, "'->' before the output layout")?;
        let (ob, of, os) = self.parse_conv_layout(('b', 'f'))?;
        if is.len() != ks.len() || is.len() != os.len() {
            return Err(self.err("convolution layouts have different numbers of spatial dimensions"));
        }
        Ok(ConvDims {
            input_batch_dimension: ib,
            input_feature_dimension: if_,
            input_spatial_dimensions: is,
            kernel_input_feature_dimension: ki,
            kernel_output_feature_dimension: ko,
            kernel_spatial_dimensions: ks,
            output_batch_dimension: ob,
            output_feature_dimension: of,
            output_spatial_dimensions: os,
        })
    }

    /// One `[b, 0, 1, f]` layout: positions of the two named dims and of spatial dims 0, 1, ...
    fn parse_conv_layout(&mut self, names: (char, char)) -> PResult<(i64, i64, Vec<i64>)> {
        let open = self.tok.pos;
        self.expect(Tok::LBracket, "'[' opening a convolution layout")?;
        let items = self.comma_list(Tok::RBracket, "layout", |p| {
            let t = p.tok;
            match t.kind {
                Tok::Int => {
                    let v = p.parse_i64()?;
                    Ok((None, v, t.pos))
                }
                Tok::BareId if t.text.len() == 1 => {
                    p.advance();
                    Ok((t.text.chars().next(), 0, t.pos))
                }
                _ => Err(p.expected("a layout dimension")),
            }
        })?;
        let (mut a, mut b) = (None, None);
        let mut spatial: Vec<Option<i64>> = Vec::new();
        for (i, (c, v, pos)) in items.iter().enumerate() {
            let i = i as i64;
            match c {
                Some(ch) if *ch == names.0 && a.is_none() => a = Some(i),
                Some(ch) if *ch == names.1 && b.is_none() => b = Some(i),
                Some(_) => return Err(self.err_at(*pos, "unexpected or repeated convolution layout dimension")),
                None => {
                    let k = usize::try_from(*v).ok().filter(|k| *k < items.len()).ok_or_else(|| self.err_at(*pos, "spatial dimension out of range"))?;
                    if spatial.len() <= k {
                        spatial.resize(k + 1, None);
                    }
                    if spatial[k].is_some() {
                        return Err(self.err_at(*pos, "repeated spatial dimension"));
                    }
                    spatial[k] = Some(i);
                }
            }
        }
        let missing = || self.err_at(open, format!("convolution layout must name '{}' and '{}' and spatial dims 0..n", names.0, names.1));
        let spatial: Vec<i64> = spatial.into_iter().collect::<Option<_>>().ok_or_else(missing)?;
        Ok((a.ok_or_else(missing)?, b.ok_or_else(missing)?, spatial))
    }

    /// Body of `#stablehlo.dot_algorithm<...>` (also after `algorithm =` in dot_general).
    pub fn parse_dot_algorithm_body(&mut self) -> PResult<DotAlgorithm> {
        let mut tys: [Option<Type>; 3] = [None, None, None];
        let mut ints: [Option<i64>; 3] = [None, None, None];
        let mut imprecise = None;
        loop {
            let k = self.expect(Tok::BareId, "a dot algorithm field")?;
            self.expect(Tok::Equal, "'='")?;
            match k.text {
                "lhs_precision_type" => tys[0] = Some(self.parse_type()?),
                "rhs_precision_type" => tys[1] = Some(self.parse_type()?),
                "accumulation_type" => tys[2] = Some(self.parse_type()?),
                "lhs_component_count" => ints[0] = Some(self.parse_i64()?),
                "rhs_component_count" => ints[1] = Some(self.parse_i64()?),
                "num_primitive_operations" => ints[2] = Some(self.parse_i64()?),
                "allow_imprecise_accumulation" => {
                    imprecise = Some(match self.tok.text {
                        "true" => true,
                        "false" => false,
                        _ => return Err(self.expected("true or false")),
                    });
                    self.advance();
                }
                _ => return Err(self.err_at(k.pos, format!("unknown dot algorithm field '{}'", k.text))),
            }
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        let [a, b, c] = tys;
        let missing = |p: &Self| p.err("dot algorithm is missing a field");
        Ok(DotAlgorithm {
            lhs_precision_type: a.ok_or_else(|| missing(self))?,
            rhs_precision_type: b.ok_or_else(|| missing(self))?,
            accumulation_type: c.ok_or_else(|| missing(self))?,
            lhs_component_count: ints[0].ok_or_else(|| missing(self))?,
            rhs_component_count: ints[1].ok_or_else(|| missing(self))?,
            num_primitive_operations: ints[2].ok_or_else(|| missing(self))?,
            allow_imprecise_accumulation: imprecise.ok_or_else(|| missing(self))?,
        })
    }

    /// Body of `#stablehlo.result_accuracy<atol = .., rtol = .., ulps = .., mode = ..>` (fields default 0).
    fn parse_result_accuracy_body(&mut self) -> PResult<ResultAccuracy> {
        let mut r = ResultAccuracy { atol: 0.0, rtol: 0.0, ulps: 0, mode: ResultAccuracyMode::Default };
        if self.is(Tok::Greater) {
            return Ok(r);
        }
        loop {
            let k = self.expect(Tok::BareId, "a result accuracy field")?;
            self.expect(Tok::Equal, "'='")?;
            match k.text {
                "atol" => r.atol = self.parse_f64_literal()?,
                "rtol" => r.rtol = self.parse_f64_literal()?,
                "ulps" => r.ulps = self.parse_i64()?,
                "mode" => {
                    let h = self.expect(Tok::HashId, "#stablehlo.result_accuracy_mode<...>")?;
                    if h.text != "#stablehlo.result_accuracy_mode" {
                        return Err(self.err_at(h.pos, "expected #stablehlo.result_accuracy_mode<...>"));
                    }
                    self.expect(Tok::Less, "'<'")?;
                    let v = self.expect(Tok::BareId, "a result accuracy mode")?;
                    r.mode = ResultAccuracyMode::from_keyword(v.text).ok_or_else(|| self.err_at(v.pos, "unknown result accuracy mode"))?;
                    self.expect(Tok::Greater, "'>'")?;
                }
                _ => return Err(self.err_at(k.pos, format!("unknown result accuracy field '{}'", k.text))),
            }
            if !self.eat(Tok::Comma) {
                return Ok(r);
            }
        }
    }
}

/// Maps `comparison_direction EQ` etc. to the typed attribute.
pub fn parse_enum_value(kind: &str, v: &str) -> Option<Attr> {
    Some(match kind {
        "comparison_direction" => Attr::ComparisonDirection(ComparisonDirection::from_keyword(v)?),
        "comparison_type" => Attr::ComparisonType(ComparisonType::from_keyword(v)?),
        "precision" => Attr::Precision(Precision::from_keyword(v)?),
        "fft_type" => Attr::FftType(FftType::from_keyword(v)?),
        "transpose" => Attr::Transpose(Transpose::from_keyword(v)?),
        "rng_distribution" => Attr::RngDistribution(RngDistribution::from_keyword(v)?),
        "rng_algorithm" => Attr::RngAlgorithm(RngAlgorithm::from_keyword(v)?),
        _ => return None,
    })
}

/// Range-checks an integer literal for a type (signless types accept the unsigned range too).
pub fn check_int_range(mag: u64, neg: bool, e: &ElementType) -> Option<i64> {
    let (bits, unsigned, signless) = match e {
        ElementType::Int { bits, signedness } => {
            (*bits, *signedness == oxhlo_ir::Signedness::Unsigned, *signedness == oxhlo_ir::Signedness::Signless)
        }
        ElementType::Bool => (1, true, false),
        ElementType::Quant(q) => return check_int_range(mag, neg, &q.storage),
        _ => (64, false, true),
    };
    if unsigned {
        if neg && mag != 0 {
            return None;
        }
        if bits < 64 && mag >> bits != 0 {
            return None;
        }
        return Some(mag as i64);
    }
    if neg {
        let limit = 1u128 << (bits - 1);
        if (mag as u128) > limit {
            return None;
        }
        return apply_sign(mag, true);
    }
    let limit: u128 = if signless { (1u128 << bits) - 1 } else { (1u128 << (bits - 1)) - 1 };
    if (mag as u128) > limit {
        return None;
    }
    Some(mag as i64)
}

/// Sorts named attributes by name (MLIR's dictionary order); reports a duplicate name.
pub fn sort_named(v: &mut [NamedAttr]) -> Result<(), String> {
    v.sort_by(|a, b| a.0.cmp(&b.0));
    for w in v.windows(2) {
        if w[0].0 == w[1].0 {
            return Err(w[0].0.clone());
        }
    }
    Ok(())
}

#[derive(Clone)]
enum FieldVal {
    Int(i64),
    List(Vec<i64>),
}

/// Parsed `key = value` fields of a dialect attribute.
struct Fields {
    vals: Vec<Option<FieldVal>>,
    names: Vec<String>,
    loc: oxhlo_ir::Location,
}

impl Fields {
    fn missing(&self, i: usize) -> oxhlo_ir::Diagnostic {
        oxhlo_ir::Diagnostic::new(self.loc.clone(), format!("missing or malformed field '{}'", self.names[i]))
    }
    fn int(&self, i: usize) -> PResult<i64> {
        match &self.vals[i] {
            Some(FieldVal::Int(v)) => Ok(*v),
            _ => Err(self.missing(i)),
        }
    }
    fn int_or(&self, i: usize, d: i64) -> PResult<i64> {
        match &self.vals[i] {
            None => Ok(d),
            _ => self.int(i),
        }
    }
    fn list(&self, i: usize) -> PResult<Vec<i64>> {
        match &self.vals[i] {
            Some(FieldVal::List(v)) => Ok(v.clone()),
            _ => Err(self.missing(i)),
        }
    }
    fn list_or_empty(&self, i: usize) -> PResult<Vec<i64>> {
        match &self.vals[i] {
            None => Ok(Vec::new()),
            _ => self.list(i),
        }
    }
}
