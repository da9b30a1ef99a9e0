//! The bytecode container: magic, version, producer, the section table, and the
//! sections read before the IR (strings, dialects with versions and op names,
//! properties, resources, attribute/type offset tables).

use crate::cursor::Cursor;
use crate::error::{BytecodeError, Result};

pub const MAGIC: &[u8; 4] = b"ML\xEFR";
/// Newest bytecode version this reader understands.
pub const MAX_VERSION: u64 = 6;

pub const SEC_STRING: u8 = 0;
pub const SEC_DIALECT: u8 = 1;
pub const SEC_ATTR_TYPE: u8 = 2;
pub const SEC_ATTR_TYPE_OFFSET: u8 = 3;
pub const SEC_IR: u8 = 4;
pub const SEC_RESOURCE: u8 = 5;
pub const SEC_RESOURCE_OFFSET: u8 = 6;
pub const SEC_DIALECT_VERSIONS: u8 = 7;
pub const SEC_PROPERTIES: u8 = 8;

/// Version gates (`mlir/Bytecode/Encoding.h`).
pub const V_DIALECT_VERSIONING: u64 = 1;
pub const V_LAZY_LOADING: u64 = 2;
pub const V_USE_LIST_ORDERING: u64 = 3;
pub const V_ELIDE_UNKNOWN_BLOCK_ARG_LOC: u64 = 4;
pub const V_NATIVE_PROPERTIES: u64 = 5;

/// A dialect of the file, with its version blob if it wrote one.
#[derive(Clone, Debug, PartialEq)]
pub struct Dialect {
    pub name: String,
    pub version: Option<Vec<u8>>,
}

/// An operation name: `dialect.op`; `registered` is known from bytecode version 5.
#[derive(Clone, Debug, PartialEq)]
pub struct OpName {
    pub dialect: usize,
    pub name: String,
    pub registered: Option<bool>,
}

/// A resource value.
#[derive(Clone, Debug, PartialEq)]
pub enum ResourceValue {
    Blob { alignment: u64, data: Vec<u8> },
    Bool(bool),
    String(String),
    /// A declared resource without data (MLIR writes an empty entry for a
    /// `dense_resource` whose blob it did not have).
    Empty,
}

/// A resource entry: owner is `external:NAME` or a dialect name.
#[derive(Clone, Debug, PartialEq)]
pub struct Resource {
    pub owner: String,
    pub key: String,
    pub value: ResourceValue,
}

/// Where an attribute or type entry's bytes are.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    pub dialect: usize,
    pub custom: bool,
    pub data: Cursor<'a>,
}

/// Everything about the file except the decoded attributes/types and the IR.
pub struct Container<'a> {
    pub version: u64,
    pub producer: String,
    pub strings: Vec<&'a [u8]>,
    pub dialects: Vec<Dialect>,
    pub op_names: Vec<OpName>,
    pub properties: Vec<Cursor<'a>>,
    pub resources: Vec<Resource>,
    pub attr_entries: Vec<Entry<'a>>,
    pub type_entries: Vec<Entry<'a>>,
    pub ir: Cursor<'a>,
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl<'a> Container<'a> {
    pub fn string(&self, idx: u64, at: usize) -> Result<&'a [u8]> {
        usize::try_from(idx)
            .ok()
            .and_then(|i| self.strings.get(i).copied())
            .ok_or_else(|| BytecodeError::new(at, format!("string index {idx} out of range ({} strings)", self.strings.len())))
    }

    /// Reads a string-table reference from `c`.
    pub fn read_string(&self, c: &mut Cursor<'a>, what: &str) -> Result<&'a [u8]> {
        let at = c.offset();
        let i = c.varint(what)?;
        self.string(i, at)
    }

    pub fn dialect_name(&self, idx: usize) -> &str {
        self.dialects.get(idx).map(|d| d.name.as_str()).unwrap_or("?")
    }

    fn dialect_index(&self, c: &mut Cursor<'a>) -> Result<usize> {
        let at = c.offset();
        let d = c.index("dialect index")?;
        if d >= self.dialects.len() {
            return Err(BytecodeError::new(at, format!("dialect index {d} out of range ({} dialects)", self.dialects.len())));
        }
        Ok(d)
    }

    /// Parses the header and every section that precedes the IR.
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        let mut c = Cursor::new(data, 0);
        let magic = c.bytes(4, "magic ML\\xEFR").map_err(|_| BytecodeError::new(0, "not MLIR bytecode: file shorter than the magic"))?;
        if magic != MAGIC {
            return Err(BytecodeError::new(0, "not MLIR bytecode: expected magic ML\\xEFR"));
        }
        let at = c.offset();
        let version = c.varint("bytecode version")?;
        if version > MAX_VERSION {
            return Err(BytecodeError::new(at, format!("unsupported bytecode version {version} (this reader handles 0 to {MAX_VERSION})")));
        }
        let producer = lossy(c.cstr("producer string")?);
        let mut sections: [Option<Cursor<'a>>; 9] = Default::default();
        while !c.is_empty() {
            let at = c.offset();
            let (id, body) = c.section()?;
            let slot = sections.get_mut(id as usize).filter(|_| id != SEC_DIALECT_VERSIONS);
            match slot {
                None => return Err(BytecodeError::new(at, format!("unknown top-level section id {id}"))),
                Some(Some(_)) => return Err(BytecodeError::new(at, format!("duplicate section id {id}"))),
                Some(s) => *s = Some(body),
            }
        }
        let end = data.len();
        let take = |id: u8, name: &str| -> Result<Cursor<'a>> {
            sections
                .get(id as usize)
                .copied()
                .flatten()
                .ok_or_else(|| BytecodeError::new(end, format!("missing required {name} section (id {id})")))
        };
        let strings = read_strings(take(SEC_STRING, "string")?)?;
        let dialect_sec = take(SEC_DIALECT, "dialect")?;
        let attr_sec = take(SEC_ATTR_TYPE, "attribute/type")?;
        let offs_sec = take(SEC_ATTR_TYPE_OFFSET, "attribute/type offset")?;
        let ir = take(SEC_IR, "IR")?;
        let props_sec = sections.get(SEC_PROPERTIES as usize).copied().flatten();
        if version >= V_NATIVE_PROPERTIES && props_sec.is_none() {
            return Err(BytecodeError::new(end, format!("missing properties section (required by bytecode version {version})")));
        }
        let res_sec = sections.get(SEC_RESOURCE as usize).copied().flatten();
        let res_off_sec = sections.get(SEC_RESOURCE_OFFSET as usize).copied().flatten();

        let mut me = Container {
            version,
            producer,
            strings,
            dialects: Vec::new(),
            op_names: Vec::new(),
            properties: Vec::new(),
            resources: Vec::new(),
            attr_entries: Vec::new(),
            type_entries: Vec::new(),
            ir,
        };
        if let Some(p) = props_sec {
            me.properties = read_properties(p)?;
        }
        me.read_dialects(dialect_sec)?;
        match (res_sec, res_off_sec) {
            (Some(r), Some(o)) => me.read_resources(r, o)?,
            (None, None) => {}
            (Some(r), None) => return Err(r.err("resource section without a resource offset section")),
            (None, Some(o)) => return Err(o.err("resource offset section without a resource section")),
        }
        me.read_attr_type_offsets(offs_sec, attr_sec)?;
        Ok(me)
    }

    fn read_dialects(&mut self, mut c: Cursor<'a>) -> Result<()> {
        let n = c.count("dialect count", 1)?;
        for _ in 0..n {
            if self.version < V_DIALECT_VERSIONING {
                let name = lossy(self.read_string(&mut c, "dialect name")?);
                self.dialects.push(Dialect { name, version: None });
                continue;
            }
            let at = c.offset();
            let (idx, has_version) = c.varint_flag("dialect name")?;
            let name = lossy(self.string(idx, at)?);
            let version = if has_version {
                let at = c.offset();
                let (id, body) = c.section()?;
                if id != SEC_DIALECT_VERSIONS {
                    return Err(BytecodeError::new(at, format!("expected dialect version section (id 7), found id {id}")));
                }
                Some(body.data().to_vec())
            } else {
                None
            };
            self.dialects.push(Dialect { name, version });
        }
        if self.version >= V_ELIDE_UNKNOWN_BLOCK_ARG_LOC {
            c.count("op name count", 1)?;
        }
        while !c.is_empty() {
            let dialect = self.dialect_index(&mut c)?;
            let count = c.count("op names in group", 1)?;
            for _ in 0..count {
                let (name, registered) = if self.version < V_NATIVE_PROPERTIES {
                    (self.read_string(&mut c, "op name")?, None)
                } else {
                    let at = c.offset();
                    let (idx, reg) = c.varint_flag("op name")?;
                    (self.string(idx, at)?, Some(reg))
                };
                self.op_names.push(OpName { dialect, name: lossy(name), registered });
            }
        }
        Ok(())
    }

    fn read_resources(&mut self, mut data: Cursor<'a>, mut offs: Cursor<'a>) -> Result<()> {
        let n_external = offs.count("external resource group count", 1)?;
        for _ in 0..n_external {
            let owner = format!("external:{}", lossy(self.read_string(&mut offs, "resource group key")?));
            self.read_resource_group(owner, &mut data, &mut offs)?;
        }
        while !offs.is_empty() {
            let d = self.dialect_index(&mut offs)?;
            let owner = self.dialect_name(d).to_string();
            self.read_resource_group(owner, &mut data, &mut offs)?;
        }
        Ok(())
    }

    fn read_resource_group(&mut self, owner: String, data: &mut Cursor<'a>, offs: &mut Cursor<'a>) -> Result<()> {
        let n = offs.count("resource count", 1)?;
        for _ in 0..n {
            let key = lossy(self.read_string(offs, "resource key")?);
            let at = offs.offset();
            let size = offs.varint("resource size")?;
            if size > data.remaining() as u64 {
                return Err(BytecodeError::new(at, format!("resource {key} claims {size} bytes but only {} remain", data.remaining())));
            }
            let kind = offs.byte("resource kind")?;
            let mut body = Cursor::new(data.bytes(size as usize, "resource")?, data.offset().saturating_sub(size as usize));
            // A declared resource without data (a `dense_resource` whose blob the writer did
            // not have): kept as `Empty`, so that handles still count it.
            if size == 0 {
                self.resources.push(Resource { owner: owner.clone(), key, value: ResourceValue::Empty });
                continue;
            }
            let value = match kind {
                0 => {
                    let alignment = body.varint("blob alignment")?;
                    let at = body.offset();
                    let len = body.varint("blob size")?;
                    body.align(alignment)?;
                    if len > body.remaining() as u64 {
                        return Err(BytecodeError::new(at, format!("blob claims {len} bytes but only {} remain", body.remaining())));
                    }
                    ResourceValue::Blob { alignment, data: body.bytes(len as usize, "blob")?.to_vec() }
                }
                1 => ResourceValue::Bool(body.byte("bool resource")? != 0),
                2 => ResourceValue::String(lossy(self.read_string(&mut body, "string resource")?)),
                k => return Err(offs.err(format!("unknown resource kind {k}"))),
            };
            self.resources.push(Resource { owner: owner.clone(), key, value });
        }
        Ok(())
    }

    fn read_attr_type_offsets(&mut self, mut offs: Cursor<'a>, data: Cursor<'a>) -> Result<()> {
        let num_attrs = offs.count("attribute count", 1)?;
        let num_types = offs.count("type count", 1)?;
        let mut pos = 0usize;
        self.attr_entries = self.read_entries(&mut offs, data, num_attrs, &mut pos, "attribute")?;
        self.type_entries = self.read_entries(&mut offs, data, num_types, &mut pos, "type")?;
        if !offs.is_empty() {
            return Err(offs.err("trailing bytes in the attribute/type offset section"));
        }
        if pos != data.data().len() {
            return Err(BytecodeError::new(data.base() + pos, "attribute/type entries do not cover the attribute/type section"));
        }
        Ok(())
    }

    fn read_entries(&self, offs: &mut Cursor<'a>, data: Cursor<'a>, count: usize, pos: &mut usize, what: &str) -> Result<Vec<Entry<'a>>> {
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            let dialect = self.dialect_index(offs)?;
            let at = offs.offset();
            let n = offs.count("entries in group", 1)?;
            if n > count - out.len() {
                return Err(BytecodeError::new(at, format!("{what} group of {n} entries overflows the declared count {count}")));
            }
            for _ in 0..n {
                let at = offs.offset();
                let (size, custom) = offs.varint_flag("entry size")?;
                let end = (*pos as u64).checked_add(size).filter(|&e| e <= data.data().len() as u64);
                let Some(end) = end else {
                    return Err(BytecodeError::new(at, format!("{what} entry of {size} bytes runs past the attribute/type section")));
                };
                let end = end as usize;
                let bytes = data.data().get(*pos..end).unwrap_or_default();
                out.push(Entry { dialect, custom, data: Cursor::new(bytes, data.base() + *pos) });
                *pos = end;
            }
        }
        Ok(out)
    }
}

fn read_strings(mut c: Cursor<'_>) -> Result<Vec<&[u8]>> {
    let n = c.count("string count", 2)?;
    let mut sizes = Vec::with_capacity(n);
    for _ in 0..n {
        sizes.push(c.varint("string size")?);
    }
    sizes.reverse();
    let mut out = Vec::with_capacity(n);
    for size in sizes {
        if size == 0 || size > c.remaining() as u64 {
            return Err(c.err(format!("string of size {size} does not fit ({} bytes left)", c.remaining())));
        }
        let at = c.offset();
        let s = c.bytes(size as usize, "string")?;
        match s.split_last() {
            Some((0, body)) => out.push(body),
            _ => return Err(BytecodeError::new(at, "string is not NUL-terminated")),
        }
    }
    if !c.is_empty() {
        return Err(c.err("trailing bytes in the string section"));
    }
    Ok(out)
}

fn read_properties(mut c: Cursor<'_>) -> Result<Vec<Cursor<'_>>> {
    if c.is_empty() {
        return Ok(Vec::new());
    }
    let n = c.count("properties count", 1)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let base = {
            let mut probe = c;
            probe.varint("properties size")?;
            probe.offset()
        };
        let body = c.blob("properties entry")?;
        out.push(Cursor::new(body, base));
    }
    Ok(out)
}
