//! The IR section reader: ops, regions (nested and isolated-from-above, lazily loadable
//! sections from version 2), blocks with arguments, use-list orders (skipped), value
//! numbering with forward references, and properties decoding by op table.

use crate::container::{V_ELIDE_UNKNOWN_BLOCK_ARG_LOC, V_LAZY_LOADING, V_NATIVE_PROPERTIES, V_USE_LIST_ORDERING, SEC_IR};
use crate::cursor::Cursor;
use crate::decoder::Decoder;
use crate::error::{BytecodeError, Result};
use crate::model::{Attr, BuiltinAttr};
use crate::raw::{BlockArg, Properties, RawBlock, RawOp, RawRegion, ValueId};
use crate::ods_table::ods_op;
use crate::vhlo_table::vhlo_op;

/// Deepest region nesting accepted.
pub const MAX_REGION_DEPTH: usize = 100;

/// The values of one region: slots `start..start+count` of the enclosing scope map to
/// global ids `global..global+count`.
struct Segment {
    start: usize,
    count: usize,
    global: u32,
    defined: usize,
    /// Highest slot (relative) referenced by an operand, to catch never-defined uses.
    max_used: Option<usize>,
}

/// One isolated-from-above value scope.
#[derive(Default)]
struct Scope {
    segments: Vec<Segment>,
}

impl Scope {
    fn len(&self) -> usize {
        self.segments.last().map(|s| s.start + s.count).unwrap_or(0)
    }
}

pub struct IrReader<'d, 'a> {
    pub d: &'d mut Decoder<'a>,
    /// `dialect.op` of each op name, built once.
    full_names: std::rc::Rc<[String]>,
    scopes: Vec<Scope>,
    next_global: u64,
    depth: usize,
}

impl<'d, 'a> IrReader<'d, 'a> {
    pub fn new(d: &'d mut Decoder<'a>) -> Self {
        let full_names: Vec<String> = d.c.op_names.iter().map(|n| format!("{}.{}", d.c.dialect_name(n.dialect), n.name)).collect();
        let full_names = full_names.into();
        IrReader { d, full_names, scopes: Vec::new(), next_global: 0, depth: 0 }
    }

    pub fn num_values(&self) -> u32 {
        self.next_global as u32
    }

    /// Reads the whole IR section: the top-level block's ops.
    pub fn read(&mut self) -> Result<Vec<RawOp>> {
        let mut c = self.d.c.ir;
        self.scopes.push(Scope::default());
        // The top-level block has no values of its own.
        self.push_segment(0, &c)?;
        let block = self.block(&mut c, 1)?;
        self.pop_segment(&c)?;
        if !block.args.is_empty() {
            return Err(c.err("top-level block must not have arguments"));
        }
        if !c.is_empty() {
            return Err(c.err("trailing bytes in the IR section"));
        }
        Ok(block.ops)
    }

    fn push_segment(&mut self, count: usize, c: &Cursor<'a>) -> Result<()> {
        let global = self.next_global;
        self.next_global = self.next_global.saturating_add(count as u64);
        if self.next_global > u64::from(u32::MAX) {
            return Err(c.err("too many values"));
        }
        let scope = self.scopes.last_mut().ok_or_else(|| c.err("no value scope"))?;
        let start = scope.len();
        scope.segments.push(Segment { start, count, global: global as u32, defined: 0, max_used: None });
        Ok(())
    }

    fn pop_segment(&mut self, c: &Cursor<'a>) -> Result<()> {
        let seg = self.scopes.last_mut().and_then(|s| s.segments.pop()).ok_or_else(|| c.err("no value scope"))?;
        if let Some(u) = seg.max_used {
            if u >= seg.defined {
                return Err(c.err(format!("an operand refers to value #{} of a region that defines only {} values", seg.start + u, seg.defined)));
            }
        }
        Ok(())
    }

    /// Defines the next `n` values of the innermost region.
    fn define(&mut self, n: usize, at: usize) -> Result<Vec<ValueId>> {
        let seg = self.scopes.last_mut().and_then(|s| s.segments.last_mut()).ok_or_else(|| BytecodeError::new(at, "no value scope"))?;
        if n > seg.count - seg.defined {
            return Err(BytecodeError::new(at, format!("defining {n} more values than the region's declared {} ({} defined)", seg.count, seg.defined)));
        }
        let first = seg.global as usize + seg.defined;
        seg.defined += n;
        Ok((first..first + n).map(|g| ValueId(g as u32)).collect())
    }

    /// Resolves an operand slot of the current scope.
    fn operand(&mut self, slot: u64, at: usize) -> Result<ValueId> {
        let scope = self.scopes.last_mut().ok_or_else(|| BytecodeError::new(at, "no value scope"))?;
        let len = scope.len();
        let slot = usize::try_from(slot).ok().filter(|&s| s < len).ok_or_else(|| {
            BytecodeError::new(at, format!("operand refers to value #{slot}, but only {len} values are in scope"))
        })?;
        for seg in scope.segments.iter_mut().rev() {
            if slot >= seg.start {
                let rel = slot - seg.start;
                seg.max_used = Some(seg.max_used.map_or(rel, |m| m.max(rel)));
                return Ok(ValueId(seg.global + rel as u32));
            }
        }
        Err(BytecodeError::new(at, "operand slot not found"))
    }

    fn block(&mut self, c: &mut Cursor<'a>, num_blocks_in_region: usize) -> Result<RawBlock> {
        let at = c.offset();
        let (num_ops, has_args) = c.varint_flag("block header")?;
        if num_ops > (c.remaining() / 3) as u64 {
            return Err(BytecodeError::new(at, format!("block claims {num_ops} ops but only {} bytes remain", c.remaining())));
        }
        let mut block = RawBlock::default();
        if has_args {
            let n = c.count("block argument count", 1)?;
            let mut tys = Vec::with_capacity(n);
            for _ in 0..n {
                if self.d.c.version >= V_ELIDE_UNKNOWN_BLOCK_ARG_LOC {
                    let tat = c.offset();
                    let (t, has_loc) = c.varint_flag("block argument type")?;
                    let ty = self.d.ty(t, tat)?;
                    let loc = if has_loc { Some(self.d.read_attr(c)?) } else { None };
                    tys.push((ty, loc));
                } else {
                    let ty = self.d.read_type(c)?;
                    tys.push((ty, Some(self.d.read_attr(c)?)));
                }
            }
            let ids = self.define(n, at)?;
            block.args = ids.into_iter().zip(tys).map(|(value, (ty, loc))| BlockArg { value, ty, loc }).collect();
            if self.d.c.version >= V_USE_LIST_ORDERING && c.byte("use-list flag")? != 0 {
                skip_use_lists(c, n)?;
            }
        }
        // Reserve little up front: nested blocks each claim against the same bytes.
        block.ops.reserve((num_ops as usize).min(16));
        for _ in 0..num_ops {
            block.ops.push(self.op(c, num_blocks_in_region)?);
        }
        Ok(block)
    }

    fn op(&mut self, c: &mut Cursor<'a>, num_blocks_in_region: usize) -> Result<RawOp> {
        let offset = c.offset();
        let name = c.index("op name index")?;
        let Some(registered) = self.d.c.op_names.get(name).map(|n| n.registered) else {
            return Err(BytecodeError::new(offset, format!("op name index {name} out of range ({} names)", self.d.c.op_names.len())));
        };
        let mask_at = c.offset();
        let mask = c.byte("op mask")?;
        if mask & 0x80 != 0 {
            return Err(BytecodeError::new(mask_at, format!("unknown op mask bits 0x{mask:02x}")));
        }
        let location = self.d.read_attr(c)?;
        let attrs = if mask & 0x01 != 0 {
            let aat = c.offset();
            let a = self.d.read_attr(c)?;
            if !matches!(self.d.get_attr(a), Some(Attr::Builtin(BuiltinAttr::Dictionary(_)))) {
                return Err(BytecodeError::new(aat, "op attributes must be a dictionary"));
            }
            Some(a)
        } else {
            None
        };
        let properties = if mask & 0x40 != 0 {
            if self.d.c.version < V_NATIVE_PROPERTIES {
                return Err(BytecodeError::new(mask_at, "op has properties before bytecode version 5"));
            }
            if registered == Some(true) {
                let pat = c.offset();
                let pi = c.index("properties index")?;
                let Some(pc) = self.d.c.properties.get(pi).copied() else {
                    return Err(BytecodeError::new(pat, format!("properties index {pi} out of range ({} entries)", self.d.c.properties.len())));
                };
                let names = self.full_names.clone();
                Some(self.properties(names.get(name).map_or("", String::as_str), pc)?)
            } else {
                Some(Properties::Attr(self.d.read_attr(c)?))
            }
        } else {
            None
        };
        let mut result_types = Vec::new();
        if mask & 0x02 != 0 {
            result_types = self.d.read_types(c)?;
        }
        let mut operands = Vec::new();
        if mask & 0x04 != 0 {
            let n = c.count("operand count", 1)?;
            operands.reserve(n);
            for _ in 0..n {
                let at = c.offset();
                let slot = c.varint("operand")?;
                operands.push(self.operand(slot, at)?);
            }
        }
        let mut successors = Vec::new();
        if mask & 0x08 != 0 {
            let n = c.count("successor count", 1)?;
            for _ in 0..n {
                let at = c.offset();
                let b = c.index("successor block")?;
                if b >= num_blocks_in_region {
                    return Err(BytecodeError::new(at, format!("successor block {b} out of range")));
                }
                successors.push(b);
            }
        }
        if mask & 0x20 != 0 && self.d.c.version >= V_USE_LIST_ORDERING {
            skip_use_lists(c, result_types.len())?;
        }
        let (num_regions, isolated) = if mask & 0x10 != 0 {
            let at = c.offset();
            let (n, iso) = c.varint_flag("region count")?;
            if n > c.remaining() as u64 {
                return Err(BytecodeError::new(at, format!("op claims {n} regions but only {} bytes remain", c.remaining())));
            }
            (n as usize, iso)
        } else {
            (0, false)
        };
        let results = self.define(result_types.len(), offset)?;
        let mut op = RawOp {
            offset,
            name,
            location,
            attrs,
            properties,
            operands,
            results,
            result_types,
            successors,
            regions: Vec::with_capacity(num_regions.min(4)),
            isolated_from_above: isolated,
        };
        if num_regions > 0 {
            if self.depth >= MAX_REGION_DEPTH {
                return Err(BytecodeError::new(offset, format!("regions nested deeper than {MAX_REGION_DEPTH}")));
            }
            self.depth += 1;
            let r = self.regions(c, num_regions, isolated, &mut op.regions);
            self.depth -= 1;
            r?;
        }
        Ok(op)
    }

    fn regions(&mut self, c: &mut Cursor<'a>, n: usize, isolated: bool, out: &mut Vec<RawRegion>) -> Result<()> {
        let lazy = isolated && self.d.c.version >= V_LAZY_LOADING;
        let mut section;
        let cur: &mut Cursor<'a> = if lazy {
            let at = c.offset();
            let (id, body) = c.section()?;
            if id != SEC_IR {
                return Err(BytecodeError::new(at, format!("expected an IR section for isolated regions, found id {id}")));
            }
            section = body;
            &mut section
        } else {
            c
        };
        if isolated {
            self.scopes.push(Scope::default());
        }
        let mut result = Ok(());
        for _ in 0..n {
            match self.region(cur) {
                Ok(r) => out.push(r),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        if isolated {
            self.scopes.pop();
        }
        result?;
        if lazy && !cur.is_empty() {
            return Err(cur.err("trailing bytes in an isolated region section"));
        }
        Ok(())
    }

    fn region(&mut self, c: &mut Cursor<'a>) -> Result<RawRegion> {
        let num_blocks = c.count("block count", 1)?;
        if num_blocks == 0 {
            return Ok(RawRegion::default());
        }
        let num_values = c.count("region value count", 1)?;
        self.push_segment(num_values, c)?;
        let mut region = RawRegion { blocks: Vec::with_capacity(num_blocks.min(4)) };
        for _ in 0..num_blocks {
            region.blocks.push(self.block(c, num_blocks)?);
        }
        self.pop_segment(c)?;
        Ok(region)
    }

    /// Decodes a registered op's properties entry with a known op table.
    fn properties(&mut self, name: &str, mut pc: Cursor<'a>) -> Result<Properties> {
        let raw = || Properties::Raw(pc.data().to_vec());
        if name == "builtin.module" {
            let mut v = Vec::new();
            for n in ["sym_name", "sym_visibility"] {
                if let Some(a) = self.d.read_opt_attr(&mut pc)? {
                    v.push((n.to_string(), a));
                }
            }
            if !pc.is_empty() {
                return Err(pc.err("trailing bytes in builtin.module properties"));
            }
            return Ok(Properties::Named(v));
        }
        if let Some(mnemonic) = name.strip_prefix("vhlo.") {
            let info = vhlo_op(mnemonic);
            let mut v = Vec::new();
            let mut i = 0usize;
            while !pc.is_empty() {
                let a = self.d.read_attr(&mut pc)?;
                let n = match info.and_then(|o| o.attrs).and_then(|names| names.get(i)) {
                    Some(n) => n.to_string(),
                    None => format!("#{i}"),
                };
                v.push((n, a));
                i += 1;
            }
            if let Some(names) = info.and_then(|o| o.attrs) {
                if names.len() != v.len() {
                    return Err(pc.err(format!("{name} has {} properties, expected {}", v.len(), names.len())));
                }
            }
            return Ok(Properties::Named(v));
        }
        if let Some((_, attrs, segments)) = ods_op(name) {
            let mut v = Vec::new();
            for &(n, optional) in attrs.iter() {
                let a = if optional { self.d.read_opt_attr(&mut pc)? } else { Some(self.d.read_attr(&mut pc)?) };
                if let Some(a) = a {
                    v.push((n.to_string(), a));
                }
            }
            // Operand/result segment sizes (when the op has them) follow; they are
            // implied by the operand list and not kept.
            if !pc.is_empty() && !segments {
                return Err(pc.err(format!("trailing bytes in {name} properties")));
            }
            return Ok(Properties::Named(v));
        }
        Ok(raw())
    }
}

/// Skips the use-list order data of a range of `n` values.
fn skip_use_lists(c: &mut Cursor<'_>, n: usize) -> Result<()> {
    let items = if n > 1 { c.count("use-list entry count", 2)? } else { 1 };
    for _ in 0..items {
        if n > 1 {
            c.varint("use-list value index")?;
        }
        let at = c.offset();
        let (k, _pair) = c.varint_flag("use-list index count")?;
        if k > c.remaining() as u64 {
            return Err(BytecodeError::new(at, format!("use-list claims {k} indices but only {} bytes remain", c.remaining())));
        }
        for _ in 0..k {
            c.varint("use-list index")?;
        }
    }
    Ok(())
}
