//! Decoders for the builtin dialect's attribute and type encodings
//! (`mlir/include/mlir/IR/BuiltinDialectBytecode.td`, codes by position, newer float
//! types and locations included).

use crate::cursor::Cursor;
use crate::decoder::Decoder;
use crate::error::{BytecodeError, Result};
use crate::model::{ApInt, BuiltinAttr, BuiltinType, FloatKind, Signedness, Type};

/// Widest integer type MLIR allows.
const MAX_INT_WIDTH: u64 = 1 << 24;

impl<'a> Decoder<'a> {
    pub(crate) fn builtin_attr(&mut self, c: &mut Cursor<'a>) -> Result<BuiltinAttr> {
        let at = c.offset();
        let code = c.varint("builtin attribute code")?;
        Ok(match code {
            0 => BuiltinAttr::Array(self.read_attrs(c)?),
            1 => {
                let n = c.count("dictionary size", 2)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    let k = self.read_string_attr(c, "dictionary key")?;
                    let a = self.read_attr(c)?;
                    v.push((k, a));
                }
                BuiltinAttr::Dictionary(v)
            }
            2 => BuiltinAttr::String { value: self.c.read_string(c, "string attribute")?.to_vec(), ty: None },
            3 => {
                let value = self.c.read_string(c, "string attribute")?.to_vec();
                BuiltinAttr::String { value, ty: Some(self.read_type(c)?) }
            }
            4 => BuiltinAttr::FlatSymbolRef(self.read_string_attr(c, "symbol name")?),
            5 => {
                let root = self.read_string_attr(c, "symbol name")?;
                let n = c.count("nested symbol count", 1)?;
                let mut nested = Vec::with_capacity(n);
                for _ in 0..n {
                    nested.push(self.read_flat_symbol(c)?);
                }
                BuiltinAttr::SymbolRef { root, nested }
            }
            6 => BuiltinAttr::Type(self.read_type(c)?),
            7 => BuiltinAttr::Unit,
            8 => {
                let tat = c.offset();
                let ty = self.read_type(c)?;
                let width = self.int_width(ty, tat)?;
                BuiltinAttr::Integer { ty, value: ApInt { width, words: c.apint(width)? } }
            }
            9 => {
                let tat = c.offset();
                let ty = self.read_type(c)?;
                let width = self.float_kind(ty, tat)?.bit_width();
                BuiltinAttr::Float { ty, bits: ApInt { width, words: c.apint(width)? } }
            }
            10 => {
                let callee = self.read_attr(c)?;
                BuiltinAttr::CallSiteLoc { callee, caller: self.read_attr(c)? }
            }
            11 => {
                let file = self.read_string_attr(c, "location file name")?;
                let line = c.varint("line")?;
                BuiltinAttr::FileLineColLoc { file, line, col: c.varint("column")? }
            }
            12 => BuiltinAttr::FusedLoc { locations: self.read_attrs(c)?, metadata: None },
            13 => {
                let locations = self.read_attrs(c)?;
                BuiltinAttr::FusedLoc { locations, metadata: Some(self.read_attr(c)?) }
            }
            14 => {
                let name = self.read_string_attr(c, "location name")?;
                BuiltinAttr::NameLoc { name, child: self.read_attr(c)? }
            }
            15 => BuiltinAttr::UnknownLoc,
            16 => {
                let ty = self.read_type(c)?;
                let hat = c.offset();
                let handle = c.varint("resource handle")?;
                let key = self.builtin_resource_key(handle);
                if key.is_none() {
                    return Err(BytecodeError::new(hat, format!("dense resource handle {handle} does not name a dialect resource")));
                }
                BuiltinAttr::DenseResourceElements { ty, handle, key }
            }
            17 => {
                let elem_ty = self.read_type(c)?;
                let count = c.varint("dense array size")?;
                BuiltinAttr::DenseArray { elem_ty, count, data: c.blob("dense array data")?.to_vec() }
            }
            18 => {
                let ty = self.read_type(c)?;
                BuiltinAttr::DenseElements { ty, data: c.blob("dense elements data")?.to_vec() }
            }
            19 => {
                let tat = c.offset();
                let ty = self.read_type(c)?;
                let splat = c.varint("dense string splat flag")? != 0;
                let n = if splat { 1 } else { self.num_elements(ty, tat, c.remaining())? };
                let mut values = Vec::with_capacity(n);
                for _ in 0..n {
                    values.push(self.c.read_string(c, "dense string element")?.to_vec());
                }
                BuiltinAttr::DenseStringElements { ty, splat, values }
            }
            20 => {
                let ty = self.read_type(c)?;
                let indices = self.read_attr(c)?;
                BuiltinAttr::SparseElements { ty, indices, values: self.read_attr(c)? }
            }
            21 => BuiltinAttr::Distinct(self.read_attr(c)?),
            22 => {
                let file = self.read_string_attr(c, "location file name")?;
                let n = c.count("location range length", 1)?;
                let mut v = [0u64; 4];
                if n > 4 {
                    return Err(c.err(format!("file/line/column range with {n} numbers (at most 4)")));
                }
                for slot in v.iter_mut().take(n) {
                    *slot = c.varint("location range number")?;
                }
                let [a, b, cc, d] = v;
                let (start_line, start_col, end_line, end_col) = match n {
                    0 => (0, 0, 0, 0),
                    1 => (a, 0, a, 0),
                    2 => (a, b, a, b),
                    3 => (a, b, a, cc),
                    _ => (a, b, cc, d),
                };
                BuiltinAttr::FileLineColRange { file, start_line, start_col, end_line, end_col }
            }
            _ => return Err(BytecodeError::new(at, format!("unknown builtin attribute code {code}"))),
        })
    }

    /// The key of dialect resource number `handle` (handles count the resources of
    /// every dialect group, in file order; external groups are not counted).
    fn builtin_resource_key(&self, handle: u64) -> Option<String> {
        let idx = usize::try_from(handle).ok()?;
        self.c.resources.iter().filter(|r| !r.owner.starts_with("external:")).nth(idx).map(|r| r.key.clone())
    }

    /// Number of elements of a statically shaped type, bounded by `limit`.
    fn num_elements(&self, ty: crate::model::TypeId, at: usize, limit: usize) -> Result<usize> {
        let shape = match self.get_type(ty) {
            Some(Type::Builtin(BuiltinType::RankedTensor { shape, .. }))
            | Some(Type::Builtin(BuiltinType::Vector { shape, .. })) => shape,
            _ => return Err(BytecodeError::new(at, "dense string elements need a ranked tensor or vector type")),
        };
        let mut n: u64 = 1;
        for &d in shape {
            let d = u64::try_from(d).map_err(|_| BytecodeError::new(at, "dense string elements with a dynamic shape"))?;
            n = n.saturating_mul(d);
        }
        if n > limit as u64 {
            return Err(BytecodeError::new(at, format!("dense string elements claim {n} elements but only {limit} bytes remain")));
        }
        Ok(n as usize)
    }

    pub(crate) fn builtin_type(&mut self, c: &mut Cursor<'a>) -> Result<BuiltinType> {
        let at = c.offset();
        let code = c.varint("builtin type code")?;
        use FloatKind::*;
        let float = |k| Ok(BuiltinType::Float(k));
        match code {
            0 => {
                let at = c.offset();
                let v = c.varint("integer width and signedness")?;
                let width = v >> 2;
                if width > MAX_INT_WIDTH {
                    return Err(BytecodeError::new(at, format!("integer width {width} exceeds {MAX_INT_WIDTH}")));
                }
                let signedness = match v & 3 {
                    0 => Signedness::Signless,
                    1 => Signedness::Signed,
                    2 => Signedness::Unsigned,
                    _ => return Err(BytecodeError::new(at, "invalid integer signedness 3")),
                };
                Ok(BuiltinType::Integer { width: width as u32, signedness })
            }
            1 => Ok(BuiltinType::Index),
            2 => {
                let inputs = self.read_types(c)?;
                Ok(BuiltinType::Function { inputs, results: self.read_types(c)? })
            }
            3 => float(BF16),
            4 => float(F16),
            5 => float(F32),
            6 => float(F64),
            7 => float(F80),
            8 => float(F128),
            9 => Ok(BuiltinType::Complex(self.read_type(c)?)),
            10 | 11 => {
                let memory_space = if code == 11 { Some(self.read_attr(c)?) } else { None };
                let shape = Self::read_svarints(c, "memref shape")?;
                let elem = self.read_type(c)?;
                Ok(BuiltinType::MemRef { shape, elem, layout: self.read_attr(c)?, memory_space })
            }
            12 => Ok(BuiltinType::None),
            13 | 14 => {
                let encoding = if code == 14 { Some(self.read_attr(c)?) } else { None };
                let shape = Self::read_svarints(c, "tensor shape")?;
                Ok(BuiltinType::RankedTensor { shape, elem: self.read_type(c)?, encoding })
            }
            15 => Ok(BuiltinType::Tuple(self.read_types(c)?)),
            16 => Ok(BuiltinType::UnrankedMemRef { elem: self.read_type(c)?, memory_space: None }),
            17 => {
                let ms = self.read_attr(c)?;
                Ok(BuiltinType::UnrankedMemRef { elem: self.read_type(c)?, memory_space: Some(ms) })
            }
            18 => Ok(BuiltinType::UnrankedTensor(self.read_type(c)?)),
            19 => {
                let shape = Self::read_svarints(c, "vector shape")?;
                let scalable = vec![false; shape.len()];
                Ok(BuiltinType::Vector { shape, elem: self.read_type(c)?, scalable })
            }
            20 => {
                let n = c.count("scalable dims", 1)?;
                let mut scalable = Vec::with_capacity(n);
                for _ in 0..n {
                    scalable.push(c.byte("scalable flag")? != 0);
                }
                let sat = c.offset();
                let shape = Self::read_svarints(c, "vector shape")?;
                if shape.len() != scalable.len() {
                    return Err(BytecodeError::new(sat, "vector scalable flags and shape differ in rank"));
                }
                Ok(BuiltinType::Vector { shape, elem: self.read_type(c)?, scalable })
            }
            21 => float(TF32),
            22 => float(F8E5M2),
            23 => float(F8E4M3),
            24 => float(F8E4M3FN),
            25 => float(F8E5M2FNUZ),
            26 => float(F8E4M3FNUZ),
            27 => float(F8E4M3B11FNUZ),
            28 => float(F8E3M4),
            29 => float(F4E2M1FN),
            30 => float(F6E2M3FN),
            31 => float(F6E3M2FN),
            32 => float(F8E8M0FNU),
            _ => Err(BytecodeError::new(at, format!("unknown builtin type code {code}"))),
        }
    }
}
