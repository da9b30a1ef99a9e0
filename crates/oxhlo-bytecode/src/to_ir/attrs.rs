//! Attributes: builtin, VHLO (the generic 1:1 part of StableHLO's VHLO legalization),
//! stablehlo and chlo dialect attributes (their custom encodings in plain bytecode)
//! onto typed [`oxhlo_ir::Attr`]s, the way the text parser represents the same
//! attribute. Shardy attributes become their text (`Attr::Opaque`).

use oxhlo_ir::attr::{
    ComparisonDirection, ComparisonType, ConvDims, DenseArray, DotAlgorithm, DotDims, FftType, GatherDims, OutputOperandAlias, Precision,
    ResultAccuracy, ResultAccuracyMode, RngAlgorithm, RngDistribution, ScatterDims, Transpose,
};
use oxhlo_ir::{Attr, ElementType, FloatType, NamedAttr};

use super::{Cx, MAX_DEPTH};
use crate::error::{BytecodeError, Result};
use crate::model::{ApInt, Attr as RawAttr, AttrId, BuiltinAttr, DialectEntry, Field, TypeId, VhloAttr, VhloEnum};
use crate::print::Printer;

/// A StableHLO enum attribute from its keyword (`EQ`, `HIGHEST`, ...), by the name of
/// the VHLO enum kind.
fn enum_attr(kind: VhloEnum, keyword: &str) -> Option<Attr> {
    Some(match kind {
        VhloEnum::ComparisonDirection => Attr::ComparisonDirection(ComparisonDirection::from_keyword(keyword)?),
        VhloEnum::ComparisonType => Attr::ComparisonType(ComparisonType::from_keyword(keyword)?),
        VhloEnum::Precision => Attr::Precision(Precision::from_keyword(keyword)?),
        VhloEnum::FftType => Attr::FftType(FftType::from_keyword(keyword)?),
        VhloEnum::Transpose => Attr::Transpose(Transpose::from_keyword(keyword)?),
        VhloEnum::RngDistribution => Attr::RngDistribution(RngDistribution::from_keyword(keyword)?),
        VhloEnum::RngAlgorithm => Attr::RngAlgorithm(RngAlgorithm::from_keyword(keyword)?),
        VhloEnum::CustomCallApiVersion | VhloEnum::ResultAccuracyMode => return None,
    })
}

/// An enum attribute written in its textual form (`#chlo<precision DEFAULT>`: dialects
/// without a binary encoding for it), as the text parser reads it.
fn asm_enum(text: &str) -> Option<Attr> {
    let body = ["#stablehlo<", "#chlo<", "#mhlo<"].iter().find_map(|p| text.strip_prefix(p))?.strip_suffix('>')?;
    let (kind, value) = body.trim().split_once(' ')?;
    let kind = match kind {
        "comparison_direction" => VhloEnum::ComparisonDirection,
        "comparison_type" => VhloEnum::ComparisonType,
        "precision" => VhloEnum::Precision,
        "fft_type" => VhloEnum::FftType,
        "transpose" => VhloEnum::Transpose,
        "rng_distribution" => VhloEnum::RngDistribution,
        "rng_algorithm" => VhloEnum::RngAlgorithm,
        _ => return None,
    };
    enum_attr(kind, value.trim())
}

impl Cx<'_> {
    /// The oxhlo attribute of an attribute entry.
    pub(crate) fn attr(&mut self, id: AttrId) -> Result<Attr> {
        self.attr_d(id, 0)
    }

    fn err(&self, id: AttrId, msg: impl Into<String>) -> BytecodeError {
        BytecodeError::new(self.m.attr_offset(id), msg)
    }

    /// The attribute as MLIR prints it, for attributes oxhlo keeps verbatim.
    pub(crate) fn attr_text(&self, id: AttrId) -> String {
        Printer { m: self.m }.attr(id)
    }

    pub(crate) fn attr_d(&mut self, id: AttrId, depth: u32) -> Result<Attr> {
        if depth > MAX_DEPTH {
            return Err(self.err(id, "attributes nested too deeply"));
        }
        let d = depth + 1;
        let Some(a) = self.m.attr(id) else { return Err(self.err(id, format!("attribute index {} out of range", id.0))) };
        Ok(match a {
            RawAttr::Builtin(b) => match b {
                BuiltinAttr::Array(v) => Attr::Array(v.iter().map(|&x| self.attr_d(x, d)).collect::<Result<_>>()?),
                BuiltinAttr::Dictionary(v) => {
                    let mut out: Vec<NamedAttr> = Vec::with_capacity(v.len());
                    for (k, x) in v {
                        out.push((k.clone(), self.attr_d(*x, d)?));
                    }
                    super::sort_attrs(&mut out, self.m.attr_offset(id))?;
                    Attr::Dict(out)
                }
                BuiltinAttr::String { value, .. } => Attr::Str(String::from_utf8_lossy(value).into_owned()),
                BuiltinAttr::FlatSymbolRef(s) => Attr::SymbolRef(s.clone()),
                BuiltinAttr::SymbolRef { root, nested } => {
                    let mut s = root.clone();
                    for n in nested {
                        s.push_str("::@");
                        s.push_str(n);
                    }
                    Attr::SymbolRef(s)
                }
                BuiltinAttr::Type(t) => Attr::Type(self.ty(*t)?),
                BuiltinAttr::Unit => Attr::Unit,
                BuiltinAttr::Integer { ty, value } => self.int_attr(id, *ty, value)?,
                BuiltinAttr::Float { ty, bits } => self.float_attr(id, *ty, bits)?,
                BuiltinAttr::DenseElements { ty, data } => match self.ty(*ty)? {
                    oxhlo_ir::Type::Tensor(_) => Attr::Dense(self.dense(*ty, data, self.m.attr_offset(id))?),
                    // `dense<...> : vector<...>` and the like: kept as text.
                    _ => Attr::Opaque(self.attr_text(id)),
                },
                BuiltinAttr::DenseArray { elem_ty, count, data } => self.dense_array(id, *elem_ty, *count, data)?,
                BuiltinAttr::DenseResourceElements { ty, key, .. } => self.dense_resource(id, *ty, key.as_deref())?,
                _ => Attr::Opaque(self.attr_text(id)),
            },
            RawAttr::Vhlo(v) => self.vhlo_attr(id, v, d)?,
            RawAttr::Dialect(e) => self.dialect_attr(id, e, d)?,
            RawAttr::Opaque { dialect, .. } => return Err(self.err(id, format!("attribute of unsupported dialect '{dialect}'"))),
            RawAttr::Asm { text, .. } => asm_enum(text).unwrap_or_else(|| Attr::Opaque(text.clone())),
        })
    }

    /// An integer attribute: `Bool` for i1, sign- or zero-extended by signedness.
    fn int_attr(&mut self, id: AttrId, ty: TypeId, value: &ApInt) -> Result<Attr> {
        let Ok(elem) = self.elem(ty) else { return Ok(Attr::Opaque(self.attr_text(id))) };
        Ok(match &elem {
            ElementType::Bool => Attr::Bool(value.low_u64() & 1 == 1),
            ElementType::Int { bits, signedness: oxhlo_ir::Signedness::Unsigned } => {
                let v = value.low_u64();
                Attr::Int((if *bits >= 64 { v } else { v & ((1u64 << bits) - 1) }) as i64, elem)
            }
            ElementType::Int { .. } | ElementType::Index => match value.as_i64() {
                Some(v) => Attr::Int(v, elem),
                None => Attr::Opaque(self.attr_text(id)),
            },
            _ => return Err(self.err(id, "integer attribute with a non-integer type")),
        })
    }

    /// A float attribute, its value decoded exactly.
    fn float_attr(&mut self, id: AttrId, ty: TypeId, bits: &ApInt) -> Result<Attr> {
        match self.elem(ty) {
            Ok(ElementType::Float(f)) => Ok(Attr::Float(oxhlo_dtype::decode(f.format(), bits.low_u64()), ElementType::Float(f))),
            _ => Ok(Attr::Opaque(self.attr_text(id))),
        }
    }

    /// `array<i64: ...>` and the other dense array kinds.
    fn dense_array(&mut self, id: AttrId, elem_ty: TypeId, count: u64, data: &[u8]) -> Result<Attr> {
        let elem = self.elem(elem_ty)?;
        let width: usize = match &elem {
            ElementType::Bool => 1,
            ElementType::Int { bits: b @ (8 | 16 | 32 | 64), .. } => (*b / 8) as usize,
            ElementType::Float(FloatType::F32) => 4,
            ElementType::Float(FloatType::F64) => 8,
            _ => return Ok(Attr::Opaque(self.attr_text(id))),
        };
        if count.checked_mul(width as u64) != Some(data.len() as u64) {
            return Err(self.err(id, format!("dense array of {count} elements has {} bytes", data.len())));
        }
        let words = data.chunks_exact(width).map(|c| c.iter().rev().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)));
        let ext = |w: u64| crate::to_ir::dense::sign_extend(w, (width * 8) as u32);
        Ok(Attr::DenseArray(match elem {
            ElementType::Bool => DenseArray::Bool(words.map(|w| w != 0).collect()),
            ElementType::Int { bits: 8, .. } => DenseArray::I8(words.map(ext).collect()),
            ElementType::Int { bits: 16, .. } => DenseArray::I16(words.map(ext).collect()),
            ElementType::Int { bits: 32, .. } => DenseArray::I32(words.map(ext).collect()),
            ElementType::Int { .. } => DenseArray::I64(words.map(ext).collect()),
            ElementType::Float(FloatType::F32) => DenseArray::F32(words.map(|w| f64::from(f32::from_bits(w as u32))).collect()),
            _ => DenseArray::F64(words.map(f64::from_bits).collect()),
        }))
    }

    /// `dense_resource<key>`: the builtin resource's blob as dense elements when the
    /// file carries it, else the reference.
    fn dense_resource(&mut self, id: AttrId, ty: TypeId, key: Option<&str>) -> Result<Attr> {
        let key = key.unwrap_or_default();
        let blob = self.m.resources.iter().find(|r| r.owner == "builtin" && r.key == key).and_then(|r| match &r.value {
            crate::ResourceValue::Blob { data, .. } => Some(data.as_slice()),
            _ => None,
        });
        match blob {
            Some(data) => Ok(Attr::Dense(self.dense(ty, data, self.m.attr_offset(id))?)),
            None => Ok(Attr::DenseResource(key.to_string(), self.ty(ty)?)),
        }
    }

    /// The generic (1:1) part of the VHLO-to-StableHLO attribute mapping.
    fn vhlo_attr(&mut self, id: AttrId, v: &VhloAttr, d: u32) -> Result<Attr> {
        Ok(match v {
            VhloAttr::Array(v) => Attr::Array(v.iter().map(|&x| self.attr_d(x, d)).collect::<Result<_>>()?),
            VhloAttr::Bool(b) => Attr::Bool(*b),
            VhloAttr::Enum { kind: VhloEnum::CustomCallApiVersion, value } => Attr::Int(*value as i64, ElementType::I32),
            VhloAttr::Enum { kind, value } => {
                let kw = kind.case(*value).unwrap_or("?");
                match enum_attr(*kind, kw) {
                    Some(a) => a,
                    None if *kind == VhloEnum::ResultAccuracyMode => Attr::Opaque(format!("#stablehlo.result_accuracy_mode<{kw}>")),
                    None => return Err(self.err(id, format!("{} value {kw} has no StableHLO counterpart", kind.mnemonic()))),
                }
            }
            VhloAttr::Dictionary(pairs) => {
                let mut out = Vec::with_capacity(pairs.len());
                for (k, x) in pairs {
                    let key = match self.attr_d(*k, d)? {
                        Attr::Str(s) => s,
                        _ => return Err(self.err(id, "dictionary key is not a string")),
                    };
                    out.push((key, self.attr_d(*x, d)?));
                }
                super::sort_attrs(&mut out, self.m.attr_offset(id))?;
                Attr::Dict(out)
            }
            VhloAttr::Float { ty, bits } => self.float_attr(id, *ty, bits)?,
            VhloAttr::Integer { ty, value } => self.int_attr(id, *ty, value)?,
            VhloAttr::OutputOperandAlias { output_tuple_indices, operand_index, operand_tuple_indices } => Attr::OutputOperandAlias(OutputOperandAlias {
                output_tuple_indices: output_tuple_indices.clone(),
                operand_index: *operand_index,
                operand_tuple_indices: operand_tuple_indices.clone(),
            }),
            VhloAttr::String(s) => Attr::Str(String::from_utf8_lossy(s).into_owned()),
            VhloAttr::Tensor { ty, data } => Attr::Dense(self.dense(*ty, data, self.m.attr_offset(id))?),
            VhloAttr::Type(t) => Attr::Type(self.ty(*t)?),
            VhloAttr::TypeExtensions { bounds } => Attr::Bounds(bounds.clone()),
            VhloAttr::ResultAccuracy { atol, rtol, ulps, mode } => {
                Attr::ResultAccuracy(ResultAccuracy { atol: *atol, rtol: *rtol, ulps: *ulps, mode: self.accuracy_mode(*mode)? })
            }
            VhloAttr::SubAxisInfo { .. } | VhloAttr::AxisRef { .. } | VhloAttr::ReplicaGroupMeshAxes { .. } | VhloAttr::MeshAxis { .. } | VhloAttr::Mesh { .. } => {
                Attr::Opaque(self.attr_text(id))
            }
        })
    }

    /// The mode of a result accuracy (a VHLO enum or a stablehlo mode attribute).
    fn accuracy_mode(&self, id: AttrId) -> Result<ResultAccuracyMode> {
        let kw = match self.m.attr(id) {
            Some(RawAttr::Vhlo(VhloAttr::Enum { kind: VhloEnum::ResultAccuracyMode, value })) => VhloEnum::ResultAccuracyMode.case(*value),
            Some(RawAttr::Dialect(DialectEntry { dialect, code: 16, fields })) if dialect == "stablehlo" => match fields.as_slice() {
                [Field::U(v)] => VhloEnum::ResultAccuracyMode.case(*v),
                _ => None,
            },
            _ => None,
        };
        kw.and_then(ResultAccuracyMode::from_keyword).ok_or_else(|| self.err(id, "expected a result accuracy mode"))
    }

    /// stablehlo and chlo attributes decoded from their custom encodings; shardy ones
    /// become their text.
    fn dialect_attr(&mut self, id: AttrId, e: &DialectEntry, _d: u32) -> Result<Attr> {
        let bad = || BytecodeError::new(self.m.attr_offset(id), format!("malformed {} attribute (code {})", e.dialect, e.code));
        let en = |kind: VhloEnum, f: &[Field]| -> Option<Attr> {
            match f {
                [Field::U(v)] => enum_attr(kind, kind.case(*v)?),
                _ => None,
            }
        };
        use Field::{Bool as B, Ints as L, S, Type as T};
        let f = e.fields.as_slice();
        Ok(match (e.dialect.as_str(), e.code) {
            ("stablehlo", 1) => match f {
                [S(h), S(k)] => Attr::ChannelHandle { handle: *h, kind: *k },
                _ => return Err(bad()),
            },
            ("stablehlo", 2) | ("chlo", 0) => en(VhloEnum::ComparisonDirection, f).ok_or_else(bad)?,
            ("stablehlo", 3) | ("chlo", 1) => en(VhloEnum::ComparisonType, f).ok_or_else(bad)?,
            ("stablehlo", 4) => match f {
                [S(ib), S(if_), L(is), S(ki), S(ko), L(ks), S(ob), S(of), L(os)] => Attr::ConvDims(ConvDims {
                    input_batch_dimension: *ib,
                    input_feature_dimension: *if_,
                    input_spatial_dimensions: is.clone(),
                    kernel_input_feature_dimension: *ki,
                    kernel_output_feature_dimension: *ko,
                    kernel_spatial_dimensions: ks.clone(),
                    output_batch_dimension: *ob,
                    output_feature_dimension: *of,
                    output_spatial_dimensions: os.clone(),
                }),
                _ => return Err(bad()),
            },
            ("stablehlo", 5) => match f {
                [L(lb), L(rb), L(lc), L(rc)] => Attr::DotDims(DotDims {
                    lhs_batching_dimensions: lb.clone(),
                    rhs_batching_dimensions: rb.clone(),
                    lhs_contracting_dimensions: lc.clone(),
                    rhs_contracting_dimensions: rc.clone(),
                }),
                _ => return Err(bad()),
            },
            ("stablehlo", 6) => en(VhloEnum::FftType, f).ok_or_else(bad)?,
            ("stablehlo", 7) => match f {
                [L(o), L(c), L(ob), L(sb), L(m), S(iv)] => Attr::GatherDims(GatherDims {
                    offset_dims: o.clone(),
                    collapsed_slice_dims: c.clone(),
                    operand_batching_dims: ob.clone(),
                    start_indices_batching_dims: sb.clone(),
                    start_index_map: m.clone(),
                    index_vector_dim: *iv,
                }),
                _ => return Err(bad()),
            },
            ("stablehlo", 8) => en(VhloEnum::Precision, f).ok_or_else(bad)?,
            ("stablehlo", 9) => en(VhloEnum::RngAlgorithm, f).ok_or_else(bad)?,
            ("stablehlo", 10) => en(VhloEnum::RngDistribution, f).ok_or_else(bad)?,
            ("stablehlo", 11) => match f {
                [L(u), L(i), L(ib), L(sb), L(m), S(iv)] => Attr::ScatterDims(ScatterDims {
                    update_window_dims: u.clone(),
                    inserted_window_dims: i.clone(),
                    input_batching_dims: ib.clone(),
                    scatter_indices_batching_dims: sb.clone(),
                    scatter_dims_to_operand_dims: m.clone(),
                    index_vector_dim: *iv,
                }),
                _ => return Err(bad()),
            },
            ("stablehlo", 12) => en(VhloEnum::Transpose, f).ok_or_else(bad)?,
            ("stablehlo", 13) => match f {
                [L(b)] => Attr::Bounds(b.clone()),
                _ => return Err(bad()),
            },
            ("stablehlo", 14) => match f {
                [L(o), S(i), L(t)] => {
                    Attr::OutputOperandAlias(OutputOperandAlias { output_tuple_indices: o.clone(), operand_index: *i, operand_tuple_indices: t.clone() })
                }
                _ => return Err(bad()),
            },
            ("stablehlo", 15) => match f {
                [T(l), T(r), T(a), S(lc), S(rc), S(n), B(imprecise)] => Attr::DotAlgorithm(Box::new(DotAlgorithm {
                    lhs_precision_type: self.ty(*l)?,
                    rhs_precision_type: self.ty(*r)?,
                    accumulation_type: self.ty(*a)?,
                    lhs_component_count: *lc,
                    rhs_component_count: *rc,
                    num_primitive_operations: *n,
                    allow_imprecise_accumulation: *imprecise,
                })),
                _ => return Err(bad()),
            },
            ("stablehlo", 17) => match f {
                [Field::F64(atol), Field::F64(rtol), S(ulps), Field::Attr(mode)] => {
                    Attr::ResultAccuracy(ResultAccuracy { atol: *atol, rtol: *rtol, ulps: *ulps, mode: self.accuracy_mode(*mode)? })
                }
                _ => return Err(bad()),
            },
            ("sdy", _) => Attr::Opaque(super::sdy::print(self.m, id)),
            _ => Attr::Opaque(self.attr_text(id)),
        })
    }
}
