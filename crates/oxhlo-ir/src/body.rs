//! The body of a function: values (typed, numbered per function), operations with operands, results,
//! attributes and nested regions, blocks with arguments. Ops are stored in place (a tree of regions), value
//! types in the function's arena, in the manner of Cranelift's typed indices.

use crate::attr::{Attr, ComparisonDirection, ComparisonType, NamedAttr};
use crate::location::Location;
use crate::ops::OpKind;

/// An SSA value, an index into its function's value arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub u32);

/// One operation.
#[derive(Clone, Debug, PartialEq)]
pub struct Op {
    pub kind: OpKind,
    /// The full name for `OpKind::Unregistered` ops (`sdy.sharding_constraint`), else None.
    pub unregistered_name: Option<String>,
    pub operands: Vec<Value>,
    pub results: Vec<Value>,
    /// Attributes and properties, sorted by name as MLIR keeps them (the parsers sort; builders may push).
    pub attrs: Vec<NamedAttr>,
    pub regions: Vec<Region>,
    pub loc: Location,
}

impl Op {
    /// A new op with no attributes or regions.
    pub fn new(kind: OpKind, operands: Vec<Value>, results: Vec<Value>) -> Op {
        Op { kind, unregistered_name: None, operands, results, attrs: Vec::new(), regions: Vec::new(), loc: Location::Unknown }
    }

    /// The op's full name, `stablehlo.add`.
    pub fn name(&self) -> &str {
        match &self.unregistered_name {
            Some(n) => n,
            None => self.kind.name(),
        }
    }

    /// The attribute named `name`.
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }

    /// Sets (or replaces) an attribute.
    pub fn set_attr(&mut self, name: &str, value: Attr) {
        match self.attrs.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.attrs.push((name.to_string(), value)),
        }
    }

    /// The i64 list of an array attribute.
    pub fn i64s(&self, name: &str) -> Option<Vec<i64>> {
        self.attr(name).and_then(Attr::as_i64_list)
    }

    /// A compare's `comparison_direction` and `compare_type` (also spelled `comparison_type`; None when
    /// absent), typed or as their keywords; Err saying which is missing or not one of the spec's.
    pub fn comparison(&self) -> Result<(ComparisonDirection, Option<ComparisonType>), String> {
        let dir = match self.attr("comparison_direction") {
            Some(Attr::ComparisonDirection(d)) => *d,
            Some(Attr::Str(s)) => ComparisonDirection::from_keyword(s).ok_or_else(|| format!("unknown comparison direction {s}"))?,
            Some(_) => return Err("comparison_direction is not a direction".into()),
            None => return Err("compare without a comparison_direction".into()),
        };
        let ty = match self.attr("compare_type").or_else(|| self.attr("comparison_type")) {
            Some(Attr::ComparisonType(t)) => Some(*t),
            Some(Attr::Str(s)) => Some(ComparisonType::from_keyword(s).ok_or_else(|| format!("unknown compare type {s}"))?),
            Some(_) => return Err("compare_type is not a compare type".into()),
            None => None,
        };
        Ok((dir, ty))
    }
}

/// A basic block: arguments and ops.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Block {
    pub args: Vec<Value>,
    pub ops: Vec<Op>,
}

/// A region: StableHLO regions hold one block.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Region {
    pub blocks: Vec<Block>,
}

impl Region {
    /// A region of one block.
    pub fn single(block: Block) -> Region {
        Region { blocks: vec![block] }
    }
    /// The entry block, if any.
    pub fn entry(&self) -> Option<&Block> {
        self.blocks.first()
    }
}

/// Visits every op in a region, depth first, parents before children.
pub fn walk_ops<'a>(region: &'a Region, f: &mut dyn FnMut(&'a Op)) {
    for block in &region.blocks {
        for op in &block.ops {
            f(op);
            for r in &op.regions {
                walk_ops(r, f);
            }
        }
    }
}
