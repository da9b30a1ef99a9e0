//! Types and locations: builtin, VHLO, stablehlo (token) and quant types onto
//! [`oxhlo_ir::Type`] (every element type, quantized types, bounded dynamism), and
//! builtin location attributes onto [`oxhlo_ir::Location`].

use oxhlo_ir::{Attr, ElementType, FloatType, FunctionType, Location, QuantType, Signedness, TensorType, Type};

use super::{Cx, MAX_DEPTH};
use crate::error::{BytecodeError, Result};
use crate::model::{Attr as RawAttr, BuiltinAttr, BuiltinType, DialectEntry, Field, FloatKind, Type as RawType, TypeId, VhloAttr, VhloType};
use crate::print::Printer;

/// The oxhlo float type of a float semantics (f80 and f128 have none).
pub(crate) fn float_type(k: FloatKind) -> Option<FloatType> {
    use FloatKind::*;
    Some(match k {
        BF16 => FloatType::BF16,
        F16 => FloatType::F16,
        F32 => FloatType::F32,
        F64 => FloatType::F64,
        TF32 => FloatType::TF32,
        F8E5M2 => FloatType::F8E5M2,
        F8E4M3 => FloatType::F8E4M3,
        F8E4M3FN => FloatType::F8E4M3FN,
        F8E5M2FNUZ => FloatType::F8E5M2FNUZ,
        F8E4M3FNUZ => FloatType::F8E4M3FNUZ,
        F8E4M3B11FNUZ => FloatType::F8E4M3B11FNUZ,
        F8E3M4 => FloatType::F8E3M4,
        F4E2M1FN => FloatType::F4E2M1FN,
        F6E2M3FN => FloatType::F6E2M3FN,
        F6E3M2FN => FloatType::F6E3M2FN,
        F8E8M0FNU => FloatType::F8E8M0FNU,
        F80 | F128 => return None,
    })
}

/// The full value range of a `bits`-wide storage type.
fn default_range(bits: u32, signed: bool) -> (i64, i64) {
    crate::print_dialect::default_range(bits, signed)
}

impl Cx<'_> {
    /// The oxhlo type of a type entry (cached).
    pub(crate) fn ty(&mut self, id: TypeId) -> Result<Type> {
        if let Some(Some(t)) = self.type_cache.get(id.0 as usize) {
            return Ok(t.clone());
        }
        let t = self.ty_uncached(id, 0)?;
        if let Some(slot) = self.type_cache.get_mut(id.0 as usize) {
            *slot = Some(t.clone());
        }
        Ok(t)
    }

    /// The type as MLIR prints it, for types oxhlo keeps verbatim.
    fn type_text(&self, id: TypeId) -> Type {
        Type::Opaque(Printer { m: self.m }.ty(id))
    }

    fn ty_d(&mut self, id: TypeId, depth: u32) -> Result<Type> {
        if let Some(Some(t)) = self.type_cache.get(id.0 as usize) {
            return Ok(t.clone());
        }
        self.ty_uncached(id, depth)
    }

    fn ty_uncached(&mut self, id: TypeId, depth: u32) -> Result<Type> {
        let at = self.m.type_offset(id);
        if depth > MAX_DEPTH {
            return Err(BytecodeError::new(at, "types nested too deeply"));
        }
        let d = depth + 1;
        let Some(t) = self.m.ty(id) else { return Err(BytecodeError::new(at, format!("type index {} out of range", id.0))) };
        Ok(match t {
            RawType::Builtin(b) => match b {
                BuiltinType::Integer { width, signedness } => {
                    let s = match signedness {
                        crate::Signedness::Signless => Signedness::Signless,
                        crate::Signedness::Signed => Signedness::Signed,
                        crate::Signedness::Unsigned => Signedness::Unsigned,
                    };
                    match (*width, s) {
                        (1, Signedness::Signless) => Type::Scalar(ElementType::Bool),
                        (2..=64, _) => Type::Scalar(ElementType::Int { bits: *width, signedness: s }),
                        _ => self.type_text(id),
                    }
                }
                BuiltinType::Index => Type::Scalar(ElementType::Index),
                BuiltinType::Function { inputs, results } => Type::Function(self.fn_type(inputs, results, d)?),
                BuiltinType::Float(k) => match float_type(*k) {
                    Some(f) => Type::Scalar(ElementType::Float(f)),
                    None => self.type_text(id),
                },
                BuiltinType::Complex(e) => self.complex(*e, id, d)?,
                BuiltinType::RankedTensor { shape, elem, encoding } => {
                    let elem = self.elem_d(*elem, d)?;
                    let encoding = match encoding {
                        Some(a) => Some(Box::new(self.encoding(*a)?)),
                        None => None,
                    };
                    Type::Tensor(TensorType { shape: shape.clone(), elem, encoding })
                }
                BuiltinType::UnrankedTensor(e) => Type::UnrankedTensor(self.elem_d(*e, d)?),
                BuiltinType::Tuple(ts) => Type::Tuple(ts.iter().map(|&t| self.ty_d(t, d)).collect::<Result<_>>()?),
                BuiltinType::None | BuiltinType::MemRef { .. } | BuiltinType::UnrankedMemRef { .. } | BuiltinType::Vector { .. } => {
                    self.type_text(id)
                }
            },
            RawType::Vhlo(v) => match v {
                VhloType::Bool => Type::Scalar(ElementType::Bool),
                VhloType::Integer { width, unsigned } => {
                    let signedness = if *unsigned { Signedness::Unsigned } else { Signedness::Signless };
                    Type::Scalar(ElementType::Int { bits: *width, signedness })
                }
                VhloType::Float(k) => match float_type(*k) {
                    Some(f) => Type::Scalar(ElementType::Float(f)),
                    None => self.type_text(id),
                },
                VhloType::Complex(e) => self.complex(*e, id, d)?,
                VhloType::Index => Type::Scalar(ElementType::Index),
                VhloType::Function { inputs, outputs } => Type::Function(self.fn_type(inputs, outputs, d)?),
                VhloType::RankedTensor { shape, elem, encoding } => {
                    let elem = self.elem_d(*elem, d)?;
                    let encoding = match encoding {
                        Some(a) => Some(Box::new(self.encoding(*a)?)),
                        None => None,
                    };
                    Type::Tensor(TensorType { shape: shape.clone(), elem, encoding })
                }
                VhloType::UnrankedTensor(e) => Type::UnrankedTensor(self.elem_d(*e, d)?),
                VhloType::Token => Type::Token,
                VhloType::Tuple(ts) => Type::Tuple(ts.iter().map(|&t| self.ty_d(t, d)).collect::<Result<_>>()?),
                VhloType::UniformQuantized { flags, storage, expressed, scale, zero_point, storage_min, storage_max } => {
                    let q = self.quant(*flags, *storage, *expressed, (*storage_min, *storage_max), None, vec![*scale], vec![*zero_point], d)?;
                    Type::Scalar(ElementType::Quant(Box::new(q)))
                }
                VhloType::UniformQuantizedPerAxis {
                    flags,
                    storage,
                    expressed,
                    quantized_dimension,
                    storage_min,
                    storage_max,
                    scales,
                    zero_points,
                } => {
                    let axis = i64::try_from(*quantized_dimension).map_err(|_| BytecodeError::new(at, "quantized dimension out of range"))?;
                    let q = self.quant(*flags, *storage, *expressed, (*storage_min, *storage_max), Some(axis), scales.clone(), zero_points.clone(), d)?;
                    Type::Scalar(ElementType::Quant(Box::new(q)))
                }
                VhloType::Witness | VhloType::None | VhloType::Buffer { .. } | VhloType::Future(_) => self.type_text(id),
            },
            RawType::Dialect(e) => self.dialect_type(e, id, d)?,
            RawType::Opaque { dialect, .. } => {
                return Err(BytecodeError::new(at, format!("type of unsupported dialect '{dialect}'")));
            }
            RawType::Asm { text, .. } => Type::Opaque(text.clone()),
        })
    }

    fn fn_type(&mut self, inputs: &[TypeId], results: &[TypeId], d: u32) -> Result<FunctionType> {
        Ok(FunctionType {
            inputs: inputs.iter().map(|&t| self.ty_d(t, d)).collect::<Result<_>>()?,
            results: results.iter().map(|&t| self.ty_d(t, d)).collect::<Result<_>>()?,
        })
    }

    fn complex(&mut self, part: TypeId, id: TypeId, d: u32) -> Result<Type> {
        Ok(match self.ty_d(part, d)? {
            Type::Scalar(ElementType::Float(f)) => Type::Scalar(ElementType::Complex(f)),
            _ => self.type_text(id),
        })
    }

    fn dialect_type(&mut self, e: &DialectEntry, id: TypeId, d: u32) -> Result<Type> {
        let at = self.m.type_offset(id);
        Ok(match (e.dialect.as_str(), e.code, e.fields.as_slice()) {
            ("stablehlo", 0, []) => Type::Token,
            ("quant", 4, [Field::U(flags), Field::Type(st), Field::Type(ex), Field::F64(scale), Field::S(zp), Field::S(lo), Field::S(hi)]) => {
                let q = self.quant(*flags, *st, *ex, (*lo, *hi), None, vec![*scale], vec![*zp], d)?;
                Type::Scalar(ElementType::Quant(Box::new(q)))
            }
            (
                "quant",
                5,
                [Field::U(flags), Field::Type(st), Field::Type(ex), Field::U(axis), Field::S(lo), Field::S(hi), Field::F64s(scales), Field::Ints(zps)],
            ) => {
                let axis = i64::try_from(*axis).map_err(|_| BytecodeError::new(at, "quantized dimension out of range"))?;
                let q = self.quant(*flags, *st, *ex, (*lo, *hi), Some(axis), scales.clone(), zps.clone(), d)?;
                Type::Scalar(ElementType::Quant(Box::new(q)))
            }
            _ => self.type_text(id),
        })
    }

    /// A uniform quantized type; the storage range is kept only when it is narrowed.
    #[allow(clippy::too_many_arguments)]
    fn quant(
        &mut self,
        flags: u64,
        storage: TypeId,
        expressed: TypeId,
        range: (i64, i64),
        axis: Option<i64>,
        scales: Vec<f64>,
        zero_points: Vec<i64>,
        d: u32,
    ) -> Result<QuantType> {
        let at = self.m.type_offset(storage);
        let bits = match self.ty_d(storage, d)? {
            Type::Scalar(ElementType::Int { bits, .. }) => bits,
            _ => return Err(BytecodeError::new(at, "quantized storage type must be an integer type")),
        };
        if scales.len() != zero_points.len() {
            return Err(BytecodeError::new(at, "quantized type has different numbers of scales and zero points"));
        }
        let signed = flags & 1 == 1;
        let signedness = if signed { Signedness::Signless } else { Signedness::Unsigned };
        let (storage_min, storage_max) = if range == default_range(bits, signed) { (None, None) } else { (Some(range.0), Some(range.1)) };
        Ok(QuantType {
            storage: ElementType::Int { bits, signedness },
            storage_min,
            storage_max,
            expressed: self.elem_d(expressed, d)?,
            quantized_dimension: axis,
            scales,
            zero_points,
        })
    }

    /// The element type of a type entry that must be a scalar type.
    pub(crate) fn elem(&mut self, id: TypeId) -> Result<ElementType> {
        self.elem_d(id, 0)
    }

    fn elem_d(&mut self, id: TypeId, d: u32) -> Result<ElementType> {
        match self.ty_d(id, d)? {
            Type::Scalar(e) => Ok(e),
            other => Err(BytecodeError::new(self.m.type_offset(id), format!("expected an element type, found {other:?}"))),
        }
    }

    /// A tensor type's encoding attribute (`#stablehlo.bounds<...>` or other).
    fn encoding(&mut self, a: crate::AttrId) -> Result<Attr> {
        match self.m.attr(a) {
            Some(RawAttr::Vhlo(VhloAttr::TypeExtensions { bounds })) => Ok(Attr::Bounds(bounds.clone())),
            Some(RawAttr::Dialect(e)) if e.dialect == "stablehlo" && e.code == 13 => match e.fields.as_slice() {
                [Field::Ints(b)] => Ok(Attr::Bounds(b.clone())),
                _ => Err(BytecodeError::new(self.m.attr_offset(a), "malformed type extensions")),
            },
            _ => self.attr(a),
        }
    }

    // ---- locations ----

    /// The location of a location attribute (unknown kinds give `Unknown`).
    pub(crate) fn loc(&mut self, id: crate::AttrId) -> Location {
        if let Some(l) = self.loc_cache.get(&id.0) {
            return l.clone();
        }
        let l = self.loc_d(id, 0);
        if self.loc_uses.get(id.0 as usize).is_some_and(|&n| n > 1) {
            self.loc_cache.insert(id.0, l.clone());
        }
        l
    }

    fn loc_d(&mut self, id: crate::AttrId, depth: u32) -> Location {
        if depth > MAX_DEPTH {
            return Location::Unknown;
        }
        if let Some(l) = self.loc_cache.get(&id.0) {
            return l.clone();
        }
        let n = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        let Some(RawAttr::Builtin(b)) = self.m.attr(id) else { return Location::Unknown };
        match b {
            BuiltinAttr::FileLineColLoc { file, line, col } => Location::File { file: file.clone(), line: n(*line), col: n(*col), end: None },
            BuiltinAttr::FileLineColRange { file, start_line, start_col, end_line, end_col } => {
                let end = (end_line, end_col) != (start_line, start_col);
                Location::File { file: file.clone(), line: n(*start_line), col: n(*start_col), end: end.then(|| (n(*end_line), n(*end_col))) }
            }
            BuiltinAttr::NameLoc { name, child } => Location::Name { name: name.clone(), child: Box::new(self.loc_d(*child, depth + 1)) },
            BuiltinAttr::CallSiteLoc { callee, caller } => Location::CallSite {
                callee: Box::new(self.loc_d(*callee, depth + 1)),
                caller: Box::new(self.loc_d(*caller, depth + 1)),
            },
            BuiltinAttr::FusedLoc { locations, metadata } => {
                let locs = locations.iter().map(|&l| self.loc_d(l, depth + 1)).collect();
                let metadata = metadata.map(|m| Printer { m: self.m }.attr(m));
                Location::Fused { locs, metadata }
            }
            _ => Location::Unknown,
        }
    }
}
