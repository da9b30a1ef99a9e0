//! Schema-driven decoding of the custom bytecode encodings of the dialects that plain
//! (non-VHLO) StableHLO programs and mixed artifacts carry besides builtin and VHLO:
//! `stablehlo` (`StablehloBytecode.cpp`), `chlo` (`ChloBytecode.cpp`), `sdy`
//! (shardy's `bytecode.td`) and `quant` (`QuantDialectBytecode.td`).
//!
//! Each entry starts with a varint kind code; the code selects a list of [`Field`]
//! kinds read in order. Entries with a code this reader does not know stay opaque
//! bytes (the caller keeps them as [`crate::Attr::Opaque`]), so a newer dialect fails
//! only where such an entry is actually needed.

use crate::cursor::Cursor;
use crate::decoder::Decoder;
use crate::error::Result;
use crate::model::{DialectEntry, Field};

/// How one field is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum F {
    /// varint
    U,
    /// signed varint
    S,
    /// count, then signed varints
    Ints,
    /// one byte
    Bool,
    /// an IEEE double as a 64-bit APInt
    F64,
    /// count, then doubles
    F64s,
    /// a string-table index
    Str,
    /// an attribute reference
    Attr,
    /// `(index << 1) | present`
    OptAttr,
    /// count, then attribute references
    Attrs,
    /// a type reference
    Type,
    /// count, then type references
    Types,
    /// `(value << 1) | present` (shardy's optional varint)
    OptU,
    /// a bool byte, then an attribute reference when it is true
    FlagAttr,
}

use F::*;

/// The schema of `dialect` entry `code` (attribute or type), if known.
fn schema(dialect: &str, is_type: bool, code: u64) -> Option<&'static [F]> {
    let s: &'static [F] = match (dialect, is_type, code) {
        // stablehlo attributes
        ("stablehlo", false, 1) => &[S, S],
        ("stablehlo", false, 2 | 3 | 6 | 8 | 9 | 10 | 12 | 16) => &[U],
        ("stablehlo", false, 4) => &[S, S, Ints, S, S, Ints, S, S, Ints],
        ("stablehlo", false, 5) => &[Ints, Ints, Ints, Ints],
        ("stablehlo", false, 7 | 11) => &[Ints, Ints, Ints, Ints, Ints, S],
        ("stablehlo", false, 13) => &[Ints],
        ("stablehlo", false, 14) => &[Ints, S, Ints],
        ("stablehlo", false, 15) => &[Type, Type, Type, S, S, S, Bool],
        ("stablehlo", false, 17) => &[F64, F64, S, Attr],
        ("stablehlo", false, 18) => &[Attr, Attrs],
        ("stablehlo", false, 19) => &[S, S],
        ("stablehlo", false, 20) => &[Str, FlagAttr],
        ("stablehlo", false, 21) => &[Str, S],
        ("stablehlo", false, 22) => &[Attr, FlagAttr],
        // stablehlo types: token, future
        ("stablehlo", true, 0) => &[],
        ("stablehlo", true, 1) => &[Types],
        // chlo attributes: comparison direction, comparison type
        ("chlo", false, 0 | 1) => &[U],
        // shardy attributes
        ("sdy", false, 0) => &[Attrs],
        ("sdy", false, 1) => &[Str, S],
        ("sdy", false, 2) => &[Attrs, Ints],
        ("sdy", false, 3) => &[S, S],
        ("sdy", false, 4) => &[Str, OptAttr],
        ("sdy", false, 5) => &[Attrs, Bool, OptU],
        ("sdy", false, 6) => &[Attr, Attrs, Attrs],
        ("sdy", false, 7 | 9 | 11 | 12 | 14 | 16) => &[Attrs],
        ("sdy", false, 8) => &[Ints],
        ("sdy", false, 10) => &[Ints, Attrs, Attrs, Ints, Ints, Ints, Ints, Bool],
        ("sdy", false, 13) => &[Attrs, S, S],
        ("sdy", false, 15) => &[Attr, Attrs, Attrs, Attrs],
        // quant types
        ("quant", true, 1) => &[U, Type, S, S],
        ("quant", true, 2) => &[U, Type, Type, S, S],
        ("quant", true, 3) => &[Type, F64, F64],
        ("quant", true, 4) => &[U, Type, Type, F64, S, S, S],
        ("quant", true, 5) => &[U, Type, Type, U, S, S, F64s, Ints],
        ("quant", true, 6) => &[U, Type, Type, S, S, Ints, Ints, Attr, Attr],
        _ => return None,
    };
    Some(s)
}

impl<'a> Decoder<'a> {
    /// Decodes a custom-encoded entry of a dialect with a known schema. `Ok(None)` when
    /// the dialect or the entry's code is unknown (the caller keeps the bytes).
    pub(crate) fn dialect_entry(&mut self, dialect: &str, is_type: bool, c: &mut Cursor<'a>) -> Result<Option<DialectEntry>> {
        if !matches!(dialect, "stablehlo" | "chlo" | "sdy" | "quant") {
            return Ok(None);
        }
        let mut probe = *c;
        let code = probe.varint("dialect entry code")?;
        let Some(fields) = schema(dialect, is_type, code) else { return Ok(None) };
        *c = probe;
        let mut out = Vec::with_capacity(fields.len());
        for &f in fields {
            out.push(self.field(f, c)?);
        }
        Ok(Some(DialectEntry { dialect: dialect.to_string(), code, fields: out }))
    }

    fn field(&mut self, f: F, c: &mut Cursor<'a>) -> Result<Field> {
        Ok(match f {
            U => Field::U(c.varint("varint field")?),
            S => Field::S(c.svarint("signed varint field")?),
            Ints => Field::Ints(Self::read_svarints(c, "integer list")?),
            Bool => Field::Bool(c.byte("bool field")? != 0),
            F64 => Field::F64(read_f64(c)?),
            F64s => {
                let n = c.count("double list", 1)?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(read_f64(c)?);
                }
                Field::F64s(v)
            }
            Str => Field::Str(String::from_utf8_lossy(self.c.read_string(c, "string field")?).into_owned()),
            Attr => Field::Attr(self.read_attr(c)?),
            OptAttr => Field::OptAttr(self.read_opt_attr(c)?),
            Attrs => Field::Attrs(self.read_attrs(c)?),
            Type => Field::Type(self.read_type(c)?),
            Types => Field::Types(self.read_types(c)?),
            OptU => {
                let (v, present) = c.varint_flag("optional varint field")?;
                Field::OptU(present.then_some(v))
            }
            FlagAttr => {
                let present = c.byte("presence flag")? != 0;
                Field::OptAttr(if present { Some(self.read_attr(c)?) } else { None })
            }
        })
    }
}

fn read_f64(c: &mut Cursor<'_>) -> Result<f64> {
    Ok(f64::from_bits(c.apint(64)?.first().copied().unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_cover_the_documented_codes() {
        for code in 1..=22 {
            assert!(schema("stablehlo", false, code).is_some(), "stablehlo attr {code}");
        }
        for code in 0..=16 {
            assert!(schema("sdy", false, code).is_some(), "sdy attr {code}");
        }
        for code in 1..=6 {
            assert!(schema("quant", true, code).is_some(), "quant type {code}");
        }
        assert!(schema("stablehlo", false, 23).is_none());
        assert!(schema("other", false, 1).is_none());
    }
}
