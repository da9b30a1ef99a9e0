//! The raw IR tree a bytecode file decodes into: [`RawModule`] with its top-level ops,
//! each [`RawOp`] with operands, results, attributes, properties, regions, blocks and
//! location, plus the tables (dialects, op names, attributes, types, resources) that
//! the tree refers to by index.

use crate::container::{Dialect, OpName, Resource};
use crate::model::{Attr, AttrId, BuiltinAttr, Type, TypeId, VhloAttr};

/// A value (op result or block argument), numbered uniquely in the whole module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

/// An op's properties (native properties, bytecode version 5 and later).
#[derive(Clone, Debug, PartialEq)]
pub enum Properties {
    /// Unregistered op: the properties are one attribute.
    Attr(AttrId),
    /// Decoded with a known op table: inherent attributes by name (absent optional
    /// attributes are left out).
    Named(Vec<(String, AttrId)>),
    /// An op whose properties layout this reader does not know: the entry's bytes.
    Raw(Vec<u8>),
}

/// A block argument.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockArg {
    pub value: ValueId,
    pub ty: TypeId,
    pub loc: Option<AttrId>,
}

/// A block: arguments and ops.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RawBlock {
    pub args: Vec<BlockArg>,
    pub ops: Vec<RawOp>,
}

/// A region: its blocks (successor indices of terminators index into this list).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RawRegion {
    pub blocks: Vec<RawBlock>,
}

/// One operation, dialect-agnostic.
#[derive(Clone, Debug, PartialEq)]
pub struct RawOp {
    /// Byte offset of the op in the file (for diagnostics).
    pub offset: usize,
    /// Index into [`RawModule::op_names`].
    pub name: usize,
    pub location: AttrId,
    /// The discardable-attribute dictionary, if any.
    pub attrs: Option<AttrId>,
    pub properties: Option<Properties>,
    pub operands: Vec<ValueId>,
    pub results: Vec<ValueId>,
    pub result_types: Vec<TypeId>,
    /// Successor block indices within the enclosing region.
    pub successors: Vec<usize>,
    pub regions: Vec<RawRegion>,
    pub isolated_from_above: bool,
}

/// A whole decoded bytecode file.
#[derive(Clone, Debug, PartialEq)]
pub struct RawModule {
    pub version: u64,
    pub producer: String,
    pub dialects: Vec<Dialect>,
    pub op_names: Vec<OpName>,
    pub attrs: Vec<Attr>,
    pub types: Vec<Type>,
    /// Byte offset of each attribute entry's encoding (for diagnostics).
    pub attr_offsets: Vec<usize>,
    /// Byte offset of each type entry's encoding.
    pub type_offsets: Vec<usize>,
    pub resources: Vec<Resource>,
    /// Ops of the top-level block (normally one `builtin.module`).
    pub ops: Vec<RawOp>,
    /// Upper bound of the value ids in use.
    pub num_values: u32,
}

impl RawModule {
    pub fn attr(&self, id: AttrId) -> Option<&Attr> {
        self.attrs.get(id.0 as usize)
    }

    pub fn ty(&self, id: TypeId) -> Option<&Type> {
        self.types.get(id.0 as usize)
    }

    /// Byte offset of an attribute entry (0 if unknown).
    pub fn attr_offset(&self, id: AttrId) -> usize {
        self.attr_offsets.get(id.0 as usize).copied().unwrap_or(0)
    }

    /// Byte offset of a type entry (0 if unknown).
    pub fn type_offset(&self, id: TypeId) -> usize {
        self.type_offsets.get(id.0 as usize).copied().unwrap_or(0)
    }

    /// `dialect.op` of an op.
    pub fn op_name(&self, op: &RawOp) -> String {
        match self.op_names.get(op.name) {
            Some(n) => {
                let d = self.dialects.get(n.dialect).map(|d| d.name.as_str()).unwrap_or("?");
                format!("{d}.{}", n.name)
            }
            None => "?".to_string(),
        }
    }

    /// The named attributes of an op, properties first then the discardable dictionary
    /// (builtin `DictionaryAttr` entries; VHLO discardable dictionaries are builtin too).
    pub fn op_attributes(&self, op: &RawOp) -> Vec<(String, AttrId)> {
        let mut out = Vec::new();
        if let Some(Properties::Named(v)) = &op.properties {
            out.extend(v.iter().cloned());
        }
        if let Some(Properties::Attr(a)) = &op.properties {
            out.extend(self.dictionary(*a));
        }
        if let Some(d) = op.attrs {
            out.extend(self.dictionary(d));
        }
        out
    }

    /// Entries of a builtin dictionary (VHLO dictionaries with string keys too).
    pub fn dictionary(&self, id: AttrId) -> Vec<(String, AttrId)> {
        match self.attr(id) {
            Some(Attr::Builtin(BuiltinAttr::Dictionary(v))) => v.clone(),
            Some(Attr::Vhlo(VhloAttr::Dictionary(v))) => v
                .iter()
                .filter_map(|(k, a)| match self.attr(*k) {
                    Some(Attr::Vhlo(VhloAttr::String(s))) => Some((String::from_utf8_lossy(s).into_owned(), *a)),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Visits every op in pre-order (the order of the file).
    pub fn walk<'m>(&'m self, f: &mut dyn FnMut(&'m RawOp, usize)) {
        fn go<'m>(ops: &'m [RawOp], depth: usize, f: &mut dyn FnMut(&'m RawOp, usize)) {
            for op in ops {
                f(op, depth);
                for r in &op.regions {
                    for b in &r.blocks {
                        go(&b.ops, depth + 1, f);
                    }
                }
            }
        }
        go(&self.ops, 0, f);
    }

    /// Number of ops in the whole tree.
    pub fn num_ops(&self) -> usize {
        let mut n = 0;
        self.walk(&mut |_, _| n += 1);
        n
    }
}
