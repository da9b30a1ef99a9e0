//! oxhlo-bytecode: reads MLIR bytecode (magic `ML\xEFR`, versions 0 to 6) natively,
//! including StableHLO portable artifacts (the VHLO dialect), into a faithful,
//! dialect-agnostic raw tree ([`RawModule`]).
//!
//! - Builtin attributes/types (locations, dense elements/arrays/resources, all float
//!   types) and VHLO attributes/types are decoded; other dialects' entries are kept as
//!   opaque bytes (or their textual-assembly fallback).
//! - VHLO op properties are decoded into named attributes with the VHLO op table.
//! - Every input gives `Ok` or a [`BytecodeError`] with a byte offset; nothing panics,
//!   and no allocation is sized by an unchecked length.
//!
//! ```no_run
//! let bytes = std::fs::read("model.mlirbc").unwrap();
//! let module = oxhlo_bytecode::read(&bytes).unwrap();
//! println!("{}", oxhlo_bytecode::print_module(&module));
//! ```

mod builtin;
mod container;
mod cursor;
mod decoder;
mod dialects;
mod error;
mod ir;
mod model;
mod ods_table;
mod print;
mod print_dialect;
mod raw;
mod to_ir;
mod vhlo;
mod vhlo_table;

pub use container::{Dialect, OpName, Resource, ResourceValue, MAGIC, MAX_VERSION};
pub use error::{BytecodeError, Result};
pub use model::{
    ApInt, Attr, AttrId, BuiltinAttr, BuiltinType, DialectEntry, Field, FloatKind, Signedness, Type, TypeId, VhloAttr, VhloEnum,
    VhloType,
};
pub use ods_table::{ods_op, OdsOp, ODS_OPS};
pub use print::{print_module, Printer};
pub use raw::{BlockArg, Properties, RawBlock, RawModule, RawOp, RawRegion, ValueId};
pub use to_ir::{convert as raw_to_ir, read_module, CURRENT_VHLO_VERSION, MIN_VHLO_VERSION, NEWEST_VHLO_VERSION};
pub use vhlo_table::{vhlo_op, VhloOpInfo, VHLO_OPS};

/// True when `bytes` starts with the MLIR bytecode magic.
pub fn is_bytecode(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Decodes a whole bytecode file into the raw tree.
pub fn read(bytes: &[u8]) -> Result<RawModule> {
    let container = container::Container::parse(bytes)?;
    let mut d = decoder::Decoder::new(container);
    let (ops, num_values) = {
        let mut r = ir::IrReader::new(&mut d);
        let ops = r.read()?;
        (ops, r.num_values())
    };
    let (c, attrs, types) = d.finish()?;
    let attr_offsets = c.attr_entries.iter().map(|e| e.data.base()).collect();
    let type_offsets = c.type_entries.iter().map(|e| e.data.base()).collect();
    Ok(RawModule {
        attr_offsets,
        type_offsets,
        version: c.version,
        producer: c.producer,
        dialects: c.dialects,
        op_names: c.op_names,
        attrs,
        types,
        resources: c.resources,
        ops,
        num_values,
    })
}
