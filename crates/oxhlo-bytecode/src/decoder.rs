//! Lazy, cached decoding of attribute and type entries by index, with cycle and
//! nesting-depth guards, and dispatch to the builtin and VHLO decoders (entries of
//! other dialects are kept as opaque bytes).

use crate::container::Container;
use crate::cursor::Cursor;
use crate::error::{BytecodeError, Result};
use crate::model::{Attr, AttrId, BuiltinAttr, BuiltinType, FloatKind, Type, TypeId, VhloType};

/// Deepest chain of attribute/type references decoded recursively.
pub const MAX_ATTR_DEPTH: u32 = 160;

enum Slot<T> {
    Pending,
    Busy,
    Done(T),
}

/// The container plus the attribute/type caches.
pub struct Decoder<'a> {
    pub c: Container<'a>,
    attrs: Vec<Slot<Attr>>,
    types: Vec<Slot<Type>>,
    /// Nesting depth of each decoded entry's tree (1 for a leaf).
    attr_depth: Vec<u16>,
    type_depth: Vec<u16>,
    /// Deepest child seen by each entry being decoded (innermost last).
    child_depth: Vec<u16>,
    depth: u32,
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl<'a> Decoder<'a> {
    pub fn new(c: Container<'a>) -> Self {
        let attrs = c.attr_entries.iter().map(|_| Slot::Pending).collect();
        let types = c.type_entries.iter().map(|_| Slot::Pending).collect();
        let attr_depth = vec![0; c.attr_entries.len()];
        let type_depth = vec![0; c.type_entries.len()];
        Decoder { c, attrs, types, attr_depth, type_depth, child_depth: Vec::new(), depth: 0 }
    }

    /// Makes sure attribute `idx` is decoded; `at` is where the reference was read.
    pub fn attr(&mut self, idx: u64, at: usize) -> Result<AttrId> {
        let i = usize::try_from(idx).ok().filter(|&i| i < self.attrs.len()).ok_or_else(|| {
            BytecodeError::new(at, format!("attribute index {idx} out of range ({} attributes)", self.attrs.len()))
        })?;
        match self.attrs.get(i) {
            Some(Slot::Done(_)) => {
                let d = self.attr_depth.get(i).copied().unwrap_or(0);
                self.note_child(d);
                return Ok(AttrId(i as u32));
            }
            Some(Slot::Busy) => return Err(BytecodeError::new(at, format!("attribute {i} refers to itself"))),
            _ => {}
        }
        let Some(entry) = self.c.attr_entries.get(i).copied() else {
            return Err(BytecodeError::new(at, "attribute entry missing"));
        };
        self.enter(at)?;
        if let Some(s) = self.attrs.get_mut(i) {
            *s = Slot::Busy;
        }
        let mut cur = entry.data;
        let dialect = self.c.dialect_name(entry.dialect).to_string();
        let r = if !entry.custom {
            cur.cstr("attribute assembly").map(|t| Attr::Asm { dialect: dialect.clone(), text: lossy(t) })
        } else {
            match dialect.as_str() {
                "builtin" => self.builtin_attr(&mut cur).map(Attr::Builtin),
                "vhlo" => self.vhlo_attr(&mut cur).map(Attr::Vhlo),
                d => match self.dialect_entry(d, false, &mut cur) {
                    Ok(Some(e)) => Ok(Attr::Dialect(e)),
                    Err(e) => Err(e),
                    Ok(None) => {
                        let bytes = cur.bytes(cur.remaining(), "opaque attribute").map(<[u8]>::to_vec);
                        bytes.map(|bytes| Attr::Opaque { dialect: dialect.clone(), bytes })
                    }
                },
            }
        };
        let d = self.leave(entry.data.base())?;
        let a = r?;
        if !cur.is_empty() {
            return Err(cur.err(format!("trailing bytes in {dialect} attribute {i}")));
        }
        if let Some(slot) = self.attr_depth.get_mut(i) {
            *slot = d;
        }
        self.note_child(d);
        if let Some(s) = self.attrs.get_mut(i) {
            *s = Slot::Done(a);
        }
        Ok(AttrId(i as u32))
    }

    /// Makes sure type `idx` is decoded.
    pub fn ty(&mut self, idx: u64, at: usize) -> Result<TypeId> {
        let i = usize::try_from(idx).ok().filter(|&i| i < self.types.len()).ok_or_else(|| {
            BytecodeError::new(at, format!("type index {idx} out of range ({} types)", self.types.len()))
        })?;
        match self.types.get(i) {
            Some(Slot::Done(_)) => {
                let d = self.type_depth.get(i).copied().unwrap_or(0);
                self.note_child(d);
                return Ok(TypeId(i as u32));
            }
            Some(Slot::Busy) => return Err(BytecodeError::new(at, format!("type {i} refers to itself"))),
            _ => {}
        }
        let Some(entry) = self.c.type_entries.get(i).copied() else {
            return Err(BytecodeError::new(at, "type entry missing"));
        };
        self.enter(at)?;
        if let Some(s) = self.types.get_mut(i) {
            *s = Slot::Busy;
        }
        let mut cur = entry.data;
        let dialect = self.c.dialect_name(entry.dialect).to_string();
        let r = if !entry.custom {
            cur.cstr("type assembly").map(|t| Type::Asm { dialect: dialect.clone(), text: lossy(t) })
        } else {
            match dialect.as_str() {
                "builtin" => self.builtin_type(&mut cur).map(Type::Builtin),
                "vhlo" => self.vhlo_type(&mut cur).map(Type::Vhlo),
                d => match self.dialect_entry(d, true, &mut cur) {
                    Ok(Some(e)) => Ok(Type::Dialect(e)),
                    Err(e) => Err(e),
                    Ok(None) => {
                        let bytes = cur.bytes(cur.remaining(), "opaque type").map(<[u8]>::to_vec);
                        bytes.map(|bytes| Type::Opaque { dialect: dialect.clone(), bytes })
                    }
                },
            }
        };
        let d = self.leave(entry.data.base())?;
        let t = r?;
        if !cur.is_empty() {
            return Err(cur.err(format!("trailing bytes in {dialect} type {i}")));
        }
        if let Some(slot) = self.type_depth.get_mut(i) {
            *slot = d;
        }
        self.note_child(d);
        if let Some(s) = self.types.get_mut(i) {
            *s = Slot::Done(t);
        }
        Ok(TypeId(i as u32))
    }

    fn enter(&mut self, at: usize) -> Result<()> {
        if self.depth >= MAX_ATTR_DEPTH {
            return Err(BytecodeError::new(at, format!("attributes/types nested deeper than {MAX_ATTR_DEPTH}")));
        }
        self.depth += 1;
        self.child_depth.push(0);
        Ok(())
    }

    /// Ends decoding an entry: its tree depth (1 + deepest child), bounded.
    fn leave(&mut self, at: usize) -> Result<u16> {
        self.depth = self.depth.saturating_sub(1);
        let d = self.child_depth.pop().unwrap_or(0).saturating_add(1);
        if u32::from(d) > MAX_ATTR_DEPTH {
            return Err(BytecodeError::new(at, format!("attributes/types nested deeper than {MAX_ATTR_DEPTH}")));
        }
        Ok(d)
    }

    fn note_child(&mut self, d: u16) {
        if let Some(top) = self.child_depth.last_mut() {
            *top = (*top).max(d);
        }
    }

    /// A decoded attribute (after [`Decoder::attr`] succeeded for it).
    pub fn get_attr(&self, id: AttrId) -> Option<&Attr> {
        match self.attrs.get(id.0 as usize) {
            Some(Slot::Done(a)) => Some(a),
            _ => None,
        }
    }

    pub fn get_type(&self, id: TypeId) -> Option<&Type> {
        match self.types.get(id.0 as usize) {
            Some(Slot::Done(t)) => Some(t),
            _ => None,
        }
    }

    /// Reads an attribute reference and decodes it.
    pub fn read_attr(&mut self, c: &mut Cursor<'a>) -> Result<AttrId> {
        let at = c.offset();
        let i = c.varint("attribute index")?;
        self.attr(i, at)
    }

    /// Reads an optional attribute reference (`(idx << 1) | present`).
    pub fn read_opt_attr(&mut self, c: &mut Cursor<'a>) -> Result<Option<AttrId>> {
        let at = c.offset();
        let (i, present) = c.varint_flag("optional attribute index")?;
        if present {
            self.attr(i, at).map(Some)
        } else {
            Ok(None)
        }
    }

    pub fn read_type(&mut self, c: &mut Cursor<'a>) -> Result<TypeId> {
        let at = c.offset();
        let i = c.varint("type index")?;
        self.ty(i, at)
    }

    /// A list of attribute references.
    pub fn read_attrs(&mut self, c: &mut Cursor<'a>) -> Result<Vec<AttrId>> {
        let n = c.count("attribute list length", 1)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(self.read_attr(c)?);
        }
        Ok(v)
    }

    pub fn read_types(&mut self, c: &mut Cursor<'a>) -> Result<Vec<TypeId>> {
        let n = c.count("type list length", 1)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(self.read_type(c)?);
        }
        Ok(v)
    }

    /// A list of signed varints (shapes, bounds).
    pub fn read_svarints(c: &mut Cursor<'a>, what: &str) -> Result<Vec<i64>> {
        let n = c.count(what, 1)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(c.svarint(what)?);
        }
        Ok(v)
    }

    /// Reads an attribute reference that must be a builtin StringAttr; returns its text.
    pub fn read_string_attr(&mut self, c: &mut Cursor<'a>, what: &str) -> Result<String> {
        let at = c.offset();
        let id = self.read_attr(c)?;
        match self.get_attr(id) {
            Some(Attr::Builtin(BuiltinAttr::String { value, .. })) => Ok(lossy(value)),
            _ => Err(BytecodeError::new(at, format!("expected a string attribute for {what}"))),
        }
    }

    /// Reads an attribute reference that must be a FlatSymbolRefAttr.
    pub fn read_flat_symbol(&mut self, c: &mut Cursor<'a>) -> Result<String> {
        let at = c.offset();
        let id = self.read_attr(c)?;
        match self.get_attr(id) {
            Some(Attr::Builtin(BuiltinAttr::FlatSymbolRef(s))) => Ok(s.clone()),
            _ => Err(BytecodeError::new(at, "expected a flat symbol reference")),
        }
    }

    /// Bit width of an integer-like type (builtin or VHLO), for APInt decoding.
    pub fn int_width(&self, t: TypeId, at: usize) -> Result<u32> {
        match self.get_type(t) {
            Some(Type::Builtin(BuiltinType::Integer { width, .. })) => Ok(*width),
            Some(Type::Builtin(BuiltinType::Index)) | Some(Type::Vhlo(VhloType::Index)) => Ok(64),
            Some(Type::Vhlo(VhloType::Integer { width, .. })) => Ok(*width),
            Some(Type::Vhlo(VhloType::Bool)) => Ok(1),
            _ => Err(BytecodeError::new(at, "integer attribute with a non-integer type")),
        }
    }

    /// Float semantics of a float type (builtin or VHLO), for APFloat decoding.
    pub fn float_kind(&self, t: TypeId, at: usize) -> Result<FloatKind> {
        match self.get_type(t) {
            Some(Type::Builtin(BuiltinType::Float(k))) | Some(Type::Vhlo(VhloType::Float(k))) => Ok(*k),
            _ => Err(BytecodeError::new(at, "float attribute with a non-float type")),
        }
    }

    /// Decodes every entry (also those the IR never referenced) and hands the tables
    /// over.
    pub fn finish(mut self) -> Result<(Container<'a>, Vec<Attr>, Vec<Type>)> {
        for i in 0..self.attrs.len() {
            let at = self.c.attr_entries.get(i).map(|e| e.data.base()).unwrap_or(0);
            self.attr(i as u64, at)?;
        }
        for i in 0..self.types.len() {
            let at = self.c.type_entries.get(i).map(|e| e.data.base()).unwrap_or(0);
            self.ty(i as u64, at)?;
        }
        let attrs = self.attrs.into_iter().filter_map(|s| if let Slot::Done(a) = s { Some(a) } else { None }).collect();
        let types = self.types.into_iter().filter_map(|s| if let Slot::Done(t) = s { Some(t) } else { None }).collect();
        Ok((self.c, attrs, types))
    }
}
