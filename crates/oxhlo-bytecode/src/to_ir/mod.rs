//! Phase 2: maps the raw tree of a decoded bytecode file onto oxhlo IR
//! ([`oxhlo_ir::Module`]), giving the same IR as parsing the program's text would.
//!
//! - VHLO ops of every version (`vhlo.add_v1` -> `stablehlo.add`, `vhlo.func_v1` ->
//!   `func.func`, ...) are mapped in `vhlo_ops.rs`: defaults VHLO writes explicitly are
//!   dropped and flat dimension attributes are folded back into `#stablehlo.dot<...>`
//!   and friends, as StableHLO's own VHLO-to-StableHLO legalization does.
//! - Plain stablehlo/chlo/func ops keep their properties and attributes (`attrs.rs`),
//!   types and locations are mapped in `types.rs`, dense data in `dense.rs`, shardy
//!   attributes are kept as their text (`sdy.rs`).
//!
//! Values are numbered per function in the order the text parser numbers them: a
//! function's arguments, then for each op its regions' values before its results.

mod attrs;
mod dense;
mod sdy;
#[cfg(test)]
mod tests;
mod types;
mod vhlo_ops;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use oxhlo_ir::{Attr, Block, Func, Location, Module, NamedAttr, Op, OpKind, Region, Type, Value, Visibility};

use crate::error::{BytecodeError, Result};
use crate::raw::{RawBlock, RawModule, RawOp, RawRegion, ValueId};

/// The newest VHLO version whose every op this reader maps with certainty (jaxlib
/// 0.10.2's VHLO). Reported to frameworks as the plugin's StableHLO version.
pub const CURRENT_VHLO_VERSION: (i64, i64, i64) = (1, 17, 0);

/// The newest VHLO version whose op set this reader knows; artifacts claiming a newer
/// producer version are rejected.
pub const NEWEST_VHLO_VERSION: (i64, i64, i64) = (1, 20, 0);

/// The oldest VHLO version StableHLO still reads.
pub const MIN_VHLO_VERSION: (i64, i64, i64) = (0, 9, 0);

/// Reads MLIR bytecode (a StableHLO portable artifact or plain stablehlo/func/chlo
/// bytecode) into an oxhlo module.
pub fn read_module(bytes: &[u8]) -> Result<Module> {
    // Reject artifacts of unknown StableHLO versions before decoding anything.
    if let Some(at) = bytes.windows(11).take(64).position(|w| w == b"StableHLO_v") {
        let end = bytes.iter().skip(at).position(|&b| b == 0).map_or(bytes.len(), |n| at + n);
        let producer = String::from_utf8_lossy(bytes.get(at..end).unwrap_or_default());
        check_vhlo_version(&producer, at)?;
    }
    let raw = crate::read(bytes)?;
    convert(&raw)
}

/// Maps an already decoded raw tree onto oxhlo IR.
pub fn convert(raw: &RawModule) -> Result<Module> {
    let mut cx = Cx::new(raw)?;
    cx.module()
}

/// A multiplicative hasher for the small integer keys of the conversion's maps.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

pub(crate) type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// The values of one function (or one module-level op): raw ids to oxhlo values and
/// the arena of their types.
#[derive(Default)]
pub(crate) struct Scope {
    map: IdMap<ValueId, Value>,
    values: Vec<Type>,
}

impl Scope {
    fn define(&mut self, id: ValueId, ty: Type) {
        self.values.push(ty);
        self.map.insert(id, Value((self.values.len() - 1) as u32));
    }

    fn get(&self, id: ValueId, at: usize) -> Result<Value> {
        self.map
            .get(&id)
            .copied()
            .ok_or_else(|| BytecodeError::new(at, format!("operand refers to value #{} that is not defined in this function", id.0)))
    }
}

/// Conversion state: the raw module plus caches of converted types and locations.
pub(crate) struct Cx<'m> {
    pub(crate) m: &'m RawModule,
    type_cache: Vec<Option<Type>>,
    loc_cache: IdMap<u32, Location>,
    /// How many ops use each location attribute (only shared ones are cached).
    loc_uses: Vec<u32>,
    /// Each op name of the file, resolved once.
    names: std::rc::Rc<[OpNameInfo]>,
}

/// An op name of the file: its full text and what it maps to.
pub(crate) struct OpNameInfo {
    /// `dialect.op`
    pub(crate) full: String,
    /// The oxhlo op of the same name, if any.
    pub(crate) kind: Option<OpKind>,
    /// For `vhlo.X_vN`: the VHLO op, its base name `X` and `stablehlo.X`'s kind.
    pub(crate) vhlo: Option<(&'static crate::VhloOpInfo, &'static str, Option<OpKind>)>,
}

impl OpNameInfo {
    fn new(dialect: &str, name: &str) -> Self {
        let full = format!("{dialect}.{name}");
        let vhlo = (dialect == "vhlo").then(|| crate::vhlo_op(name)).flatten().map(|info| {
            let base = info.name.rsplit_once("_v").map_or(info.name, |(b, _)| b);
            (info, base, OpKind::from_name(&format!("stablehlo.{base}")))
        });
        OpNameInfo { kind: OpKind::from_name(&full), full, vhlo }
    }
}

/// Deepest attribute/location recursion followed (the decoder bounds trees at 160).
pub(crate) const MAX_DEPTH: u32 = 200;

const CAST: &str = "builtin.unrealized_conversion_cast";

impl<'m> Cx<'m> {
    fn new(m: &'m RawModule) -> Result<Self> {
        check_vhlo_version(&m.producer, 0)?;
        let names: Vec<OpNameInfo> =
            m.op_names.iter().map(|n| OpNameInfo::new(m.dialects.get(n.dialect).map_or("?", |d| d.name.as_str()), &n.name)).collect();
        let names = names.into();
        let mut loc_uses = vec![0u32; m.attrs.len()];
        m.walk(&mut |op, _| {
            if let Some(u) = loc_uses.get_mut(op.location.0 as usize) {
                *u = u.saturating_add(1);
            }
        });
        Ok(Cx { m, type_cache: vec![None; m.types.len()], loc_cache: IdMap::default(), loc_uses, names })
    }

    /// The full name of an op (`stablehlo.add`).
    pub(crate) fn name(&self, op: &RawOp) -> &str {
        self.names.get(op.name).map_or("?", |n| n.full.as_str())
    }

    /// The whole module: `builtin.module` (or bare top-level ops) with functions.
    fn module(&mut self) -> Result<Module> {
        let mut module = Module::default();
        let items: &'m [RawOp] = match self.m.ops.as_slice() {
            [op] if self.name(op) == "builtin.module" => {
                for (k, id) in self.op_attrs(op)? {
                    match k {
                        "sym_name" => module.name = Some(self.string(id, "module name")?),
                        "sym_visibility" => {}
                        _ => module.attrs.push((k.to_string(), self.attr(id)?)),
                    }
                }
                sort_attrs(&mut module.attrs, op.offset)?;
                module.loc = self.loc(op.location);
                single_block(op, 0)?.map(|b| b.ops.as_slice()).unwrap_or(&[])
            }
            ops => ops,
        };
        for op in items {
            let name = self.name(op).to_string();
            match name.as_str() {
                "func.func" | "vhlo.func_v1" => {
                    let f = self.func(op).map_err(|e| context(e, &name))?;
                    if module.funcs.iter().any(|g| g.name == f.name) {
                        return Err(BytecodeError::new(op.offset, format!("redefinition of symbol named '{}'", f.name)));
                    }
                    module.funcs.push(f);
                }
                "builtin.module" => return Err(BytecodeError::new(op.offset, "nested modules are not supported")),
                _ => {
                    let mut sc = Scope::default();
                    self.number_op(op, &mut sc)?;
                    if let Some(o) = self.op(op, &mut sc, false)? {
                        module.other_ops.push(o);
                    }
                }
            }
        }
        Ok(module)
    }

    /// A `func.func` or `vhlo.func_v1`.
    fn func(&mut self, op: &'m RawOp) -> Result<Func> {
        let at = op.offset;
        let attrs = if self.name(op) == "vhlo.func_v1" { self.vhlo_func_attrs(op)? } else { self.plain_attrs(op)? };
        let (mut name, mut fty, mut vis, mut arg_attrs, mut res_attrs) = (None, None, Visibility::Public, None, None);
        let mut rest = Vec::new();
        for (k, v) in attrs {
            match (k.as_str(), v) {
                ("sym_name", Attr::Str(s)) => name = Some(s),
                ("function_type", Attr::Type(Type::Function(t))) => fty = Some(t),
                ("sym_visibility", Attr::Str(s)) => {
                    vis = match s.as_str() {
                        "private" => Visibility::Private,
                        "nested" => Visibility::Nested,
                        "public" | "" => Visibility::Public,
                        _ => return Err(BytecodeError::new(at, format!("unknown symbol visibility '{s}'"))),
                    }
                }
                ("arg_attrs", Attr::Array(a)) => arg_attrs = Some(dict_list(a).ok_or_else(|| BytecodeError::new(at, "arg_attrs must be an array of dictionaries"))?),
                ("res_attrs", Attr::Array(a)) => res_attrs = Some(dict_list(a).ok_or_else(|| BytecodeError::new(at, "res_attrs must be an array of dictionaries"))?),
                (k, v) => rest.push((k.to_string(), v)),
            }
        }
        let name = name.ok_or_else(|| BytecodeError::new(at, "function needs a sym_name string attribute"))?;
        let fty = fty.ok_or_else(|| BytecodeError::new(at, format!("function @{name} needs a function_type attribute")))?;
        let mut f = Func::new(name, fty);
        f.visibility = vis;
        if let Some(a) = arg_attrs {
            if a.len() != f.ty.inputs.len() {
                return Err(BytecodeError::new(at, "arg_attrs has the wrong number of entries"));
            }
            f.arg_attrs = a;
        }
        if let Some(a) = res_attrs {
            if a.len() != f.ty.results.len() {
                return Err(BytecodeError::new(at, "res_attrs has the wrong number of entries"));
            }
            f.res_attrs = a;
        }
        sort_attrs(&mut rest, at)?;
        f.attrs = rest;
        f.loc = self.loc(op.location);
        if op.regions.len() > 1 {
            return Err(BytecodeError::new(at, "a function has one region"));
        }
        let mut sc = Scope::default();
        if let Some(r) = op.regions.first() {
            self.number_region(r, &mut sc)?;
            if let Some(entry) = r.blocks.first() {
                let tys: Vec<&Type> = entry.args.iter().filter_map(|a| sc.map.get(&a.value).and_then(|v| sc.values.get(v.0 as usize))).collect();
                if tys.len() != f.ty.inputs.len() || tys.iter().zip(&f.ty.inputs).any(|(a, b)| *a != b) {
                    return Err(BytecodeError::new(at, "entry block arguments do not match the function type"));
                }
            }
            f.body = self.region(r, &mut sc, true)?;
        }
        f.values = sc.values;
        Ok(f)
    }

    // ---- value numbering (the text parser's order) ----

    fn number_region(&mut self, r: &'m RawRegion, sc: &mut Scope) -> Result<()> {
        for b in &r.blocks {
            for a in &b.args {
                let t = self.ty(a.ty)?;
                sc.define(a.value, t);
            }
            for op in &b.ops {
                self.number_op(op, sc)?;
            }
        }
        Ok(())
    }

    fn number_op(&mut self, op: &'m RawOp, sc: &mut Scope) -> Result<()> {
        for r in &op.regions {
            self.number_region(r, sc)?;
        }
        if let Some(v) = self.elidable_cast(op, sc)? {
            if let Some(&r) = op.results.first() {
                sc.map.insert(r, v);
            }
            return Ok(());
        }
        if op.results.len() != op.result_types.len() {
            return Err(BytecodeError::new(op.offset, "op result count and result types differ"));
        }
        for (&v, &t) in op.results.iter().zip(&op.result_types) {
            let ty = self.ty(t).map_err(|e| context(e, &self.m.op_name(op)))?;
            sc.define(v, ty);
        }
        Ok(())
    }

    /// A `builtin.unrealized_conversion_cast` between a VHLO type and the builtin type
    /// it stands for (mixed artifacts): the value it forwards.
    fn elidable_cast(&mut self, op: &'m RawOp, sc: &Scope) -> Result<Option<Value>> {
        let ([src], [ty]) = (op.operands.as_slice(), op.result_types.as_slice()) else { return Ok(None) };
        if op.results.len() != 1 || self.name(op) != CAST {
            return Ok(None);
        }
        let Some(&v) = sc.map.get(src) else { return Ok(None) };
        let t = self.ty(*ty)?;
        Ok((sc.values.get(v.0 as usize) == Some(&t)).then_some(v))
    }

    // ---- ops ----

    fn region(&mut self, r: &'m RawRegion, sc: &mut Scope, in_func: bool) -> Result<Region> {
        let mut region = Region::default();
        for b in &r.blocks {
            region.blocks.push(self.block(b, sc, in_func)?);
        }
        Ok(region)
    }

    fn block(&mut self, b: &'m RawBlock, sc: &mut Scope, in_func: bool) -> Result<Block> {
        let mut block = Block::default();
        for a in &b.args {
            block.args.push(sc.get(a.value, 0)?);
        }
        for op in &b.ops {
            if let Some(o) = self.op(op, sc, in_func)? {
                block.ops.push(o);
            }
        }
        Ok(block)
    }

    /// One op; `None` for an elided cast. `in_func`: directly in a function body.
    fn op(&mut self, op: &'m RawOp, sc: &mut Scope, in_func: bool) -> Result<Option<Op>> {
        let at = op.offset;
        let names = self.names.clone();
        let Some(info) = names.get(op.name) else { return Err(BytecodeError::new(at, "op name index out of range")) };
        let name = info.full.as_str();
        if name == CAST {
            if let ([src], [res]) = (op.operands.as_slice(), op.results.as_slice()) {
                if sc.map.contains_key(src) && sc.map.get(src) == sc.map.get(res) {
                    return Ok(None);
                }
            }
        }
        if !op.successors.is_empty() {
            return Err(BytecodeError::new(at, format!("{name}: block successors are not supported")));
        }
        let (dialect, short) = name.split_once('.').unwrap_or((name, ""));
        let (kind, attrs) = match dialect {
            "vhlo" => self.vhlo_op(op, short, info.vhlo, in_func).map_err(|e| context(e, name))?,
            "stablehlo" | "chlo" | "func" | "check" | "interpreter" => {
                let kind = info.kind.ok_or_else(|| BytecodeError::new(at, format!("unknown operation '{name}'")))?;
                if name == "func.func" {
                    return Err(BytecodeError::new(at, "func.func nested inside an op is not supported"));
                }
                (kind, self.plain_attrs(op).map_err(|e| context(e, name))?)
            }
            "sdy" | "builtin" => (OpKind::Unregistered, self.plain_attrs(op).map_err(|e| context(e, name))?),
            _ => {
                return Err(BytecodeError::new(at, format!("operation '{name}' of unsupported dialect '{dialect}'")));
            }
        };
        let mut o = Op::new(kind, Vec::with_capacity(op.operands.len()), Vec::with_capacity(op.results.len()));
        if kind == OpKind::Unregistered {
            o.unregistered_name = Some(name.to_string());
        }
        for &v in &op.operands {
            o.operands.push(sc.get(v, at)?);
        }
        for &v in &op.results {
            o.results.push(sc.get(v, at)?);
        }
        o.attrs = attrs;
        sort_attrs(&mut o.attrs, at)?;
        for r in &op.regions {
            o.regions.push(self.region(r, sc, false)?);
        }
        o.loc = self.loc(op.location);
        Ok(Some(o))
    }

    /// The named attributes of an op (properties, then the discardable dictionary).
    pub(crate) fn op_attrs(&self, op: &'m RawOp) -> Result<Vec<(&'m str, crate::AttrId)>> {
        let m = self.m;
        let dict = |id: crate::AttrId, out: &mut Vec<(&'m str, crate::AttrId)>| match m.attr(id) {
            Some(crate::Attr::Builtin(crate::BuiltinAttr::Dictionary(v))) => {
                out.extend(v.iter().map(|(k, a)| (k.as_str(), *a)));
                Ok(())
            }
            _ => Err(BytecodeError::new(op.offset, "op attributes must be a dictionary")),
        };
        let mut out = Vec::new();
        match &op.properties {
            None => {}
            Some(crate::Properties::Named(v)) => out.extend(v.iter().map(|(k, a)| (k.as_str(), *a))),
            Some(crate::Properties::Attr(a)) => dict(*a, &mut out)?,
            Some(crate::Properties::Raw(_)) => {
                return Err(BytecodeError::new(op.offset, format!("cannot decode the properties of '{}'", self.name(op))));
            }
        }
        if let Some(a) = op.attrs {
            dict(a, &mut out)?;
        }
        Ok(out)
    }

    /// A string attribute's text.
    fn string(&mut self, id: crate::AttrId, what: &str) -> Result<String> {
        match self.attr(id)? {
            Attr::Str(s) => Ok(s),
            _ => Err(BytecodeError::new(self.m.attr_offset(id), format!("{what} must be a string"))),
        }
    }

    /// Attributes of a non-VHLO op, converted as they are.
    fn plain_attrs(&mut self, op: &'m RawOp) -> Result<Vec<NamedAttr>> {
        let mut out = Vec::new();
        for (k, id) in self.op_attrs(op)? {
            out.push((k.to_string(), self.attr(id)?));
        }
        Ok(out)
    }
}

/// Adds the op name to an error's message.
pub(crate) fn context(e: BytecodeError, what: &str) -> BytecodeError {
    BytecodeError::new(e.offset, format!("{} (in {what})", e.message))
}

/// The only block of region `i` of an op, if the region has one.
fn single_block(op: &RawOp, i: usize) -> Result<Option<&RawBlock>> {
    match op.regions.get(i).map(|r| r.blocks.as_slice()) {
        None | Some([]) => Ok(None),
        Some([b]) => Ok(Some(b)),
        Some(_) => Err(BytecodeError::new(op.offset, "expected a region with one block")),
    }
}

/// Sorts named attributes by name (MLIR's dictionary order) and rejects duplicates.
pub(crate) fn sort_attrs(v: &mut [NamedAttr], at: usize) -> Result<()> {
    v.sort_by(|a, b| a.0.cmp(&b.0));
    for w in v.windows(2) {
        if w[0].0 == w[1].0 {
            return Err(BytecodeError::new(at, format!("duplicate attribute '{}'", w[0].0)));
        }
    }
    Ok(())
}

fn dict_list(a: Vec<Attr>) -> Option<Vec<Vec<NamedAttr>>> {
    a.into_iter().map(|x| if let Attr::Dict(d) = x { Some(d) } else { None }).collect()
}

/// Rejects portable artifacts whose producer version is outside what this reader
/// knows; `at` is the producer string's byte offset.
fn check_vhlo_version(producer: &str, at: usize) -> Result<()> {
    let Some(v) = producer_vhlo_version(producer).map_err(|e| BytecodeError::new(at, e.message))? else { return Ok(()) };
    let show = |v: (i64, i64, i64)| format!("v{}.{}.{}", v.0, v.1, v.2);
    if v > NEWEST_VHLO_VERSION {
        return Err(BytecodeError::new(
            at,
            format!("portable artifact is StableHLO {}, newer than the newest version this reader knows ({})", show(v), show(NEWEST_VHLO_VERSION)),
        ));
    }
    if v < MIN_VHLO_VERSION {
        return Err(BytecodeError::new(at, format!("portable artifact is StableHLO {}, older than the oldest readable ({})", show(v), show(MIN_VHLO_VERSION))));
    }
    Ok(())
}

/// `StableHLO_vX.Y.Z` -> (X, Y, Z); `None` for other producers.
fn producer_vhlo_version(producer: &str) -> Result<Option<(i64, i64, i64)>> {
    let Some(v) = producer.strip_prefix("StableHLO_v") else { return Ok(None) };
    let parts: Vec<Option<i64>> = v.split('.').map(|p| p.parse().ok()).collect();
    match parts.as_slice() {
        [Some(a), Some(b), Some(c)] => Ok(Some((*a, *b, *c))),
        _ => Err(BytecodeError::new(0, format!("unrecognized StableHLO producer version '{producer}'"))),
    }
}

#[cfg(test)]
mod version_tests {
    use super::*;

    #[test]
    fn producer_versions() {
        assert_eq!(producer_vhlo_version("StableHLO_v1.13.7").unwrap(), Some((1, 13, 7)));
        assert_eq!(producer_vhlo_version("MLIR23.0.0git").unwrap(), None);
        assert!(producer_vhlo_version("StableHLO_vx").is_err());
    }
}
