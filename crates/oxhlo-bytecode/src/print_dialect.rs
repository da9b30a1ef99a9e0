//! Debug printing of schema-decoded stablehlo, chlo, sdy and quant entries: types the
//! way MLIR prints them (`!stablehlo.token`, `!quant.uniform<i8:f32, 5.000000e-01:3>`),
//! attributes as `#dialect<code N: fields>`.

use crate::model::{DialectEntry, Field};
use crate::print::Printer;

impl Printer<'_> {
    pub(crate) fn dialect_type(&self, e: &DialectEntry) -> String {
        let f = &e.fields;
        match (e.dialect.as_str(), e.code, f.as_slice()) {
            ("stablehlo", 0, []) => "!stablehlo.token".into(),
            ("stablehlo", 1, [Field::Types(ts)]) => {
                format!("!stablehlo.future<{}>", ts.iter().map(|&t| self.ty(t)).collect::<Vec<_>>().join(", "))
            }
            ("quant", 4, [Field::U(flags), Field::Type(st), Field::Type(ex), Field::F64(scale), Field::S(zp), Field::S(lo), Field::S(hi)]) => {
                format!("!quant.uniform<{}:{}, {}>", self.storage(*flags, *st, *lo, *hi), self.ty(*ex), param(*scale, *zp))
            }
            (
                "quant",
                5,
                [Field::U(flags), Field::Type(st), Field::Type(ex), Field::U(axis), Field::S(lo), Field::S(hi), Field::F64s(scales), Field::Ints(zps)],
            ) => {
                let ps: Vec<String> = scales.iter().zip(zps).map(|(s, z)| param(*s, *z)).collect();
                format!("!quant.uniform<{}:{}:{axis}, {{{}}}>", self.storage(*flags, *st, *lo, *hi), self.ty(*ex), ps.join(","))
            }
            _ => format!("!{}<code {}: {}>", e.dialect, e.code, self.fields(f)),
        }
    }

    pub(crate) fn dialect_attr(&self, e: &DialectEntry) -> String {
        format!("#{}<code {}: {}>", e.dialect, e.code, self.fields(&e.fields))
    }

    /// `i8`, `u8`, `i8<-127:127>`: the storage type as quant prints it.
    fn storage(&self, flags: u64, st: crate::model::TypeId, lo: i64, hi: i64) -> String {
        let signed = flags & 1 == 1;
        let t = self.ty(st);
        let bits: u32 = t.trim_start_matches(|c: char| c.is_ascii_alphabetic()).parse().unwrap_or(0);
        let name = format!("{}{bits}", if signed { "i" } else { "u" });
        let (dlo, dhi) = default_range(bits, signed);
        if (lo, hi) == (dlo, dhi) {
            name
        } else {
            format!("{name}<{lo}:{hi}>")
        }
    }

    fn fields(&self, f: &[Field]) -> String {
        let one = |x: &Field| -> String {
            match x {
                Field::U(v) => v.to_string(),
                Field::S(v) => v.to_string(),
                Field::Ints(v) => format!("{v:?}"),
                Field::Bool(b) => b.to_string(),
                Field::F64(v) => format!("{v:e}"),
                Field::F64s(v) => format!("{v:?}"),
                Field::Str(s) => format!("{s:?}"),
                Field::Attr(a) => self.attr(*a),
                Field::OptAttr(a) => a.map_or_else(|| "none".into(), |a| self.attr(a)),
                Field::Attrs(v) => format!("[{}]", v.iter().map(|&a| self.attr(a)).collect::<Vec<_>>().join(", ")),
                Field::Type(t) => self.ty(*t),
                Field::Types(v) => format!("[{}]", v.iter().map(|&t| self.ty(t)).collect::<Vec<_>>().join(", ")),
                Field::OptU(v) => v.map_or_else(|| "none".into(), |v| v.to_string()),
            }
        };
        f.iter().map(one).collect::<Vec<_>>().join(", ")
    }
}

/// The full range of a `bits`-wide storage type.
pub(crate) fn default_range(bits: u32, signed: bool) -> (i64, i64) {
    match (bits, signed) {
        (0, _) => (0, 0),
        (b, true) if b >= 64 => (i64::MIN, i64::MAX),
        (b, true) => (-(1i64 << (b - 1)), (1i64 << (b - 1)) - 1),
        (b, false) if b >= 63 => (0, i64::MAX),
        (b, false) => (0, (1i64 << b) - 1),
    }
}

/// `scale[:zero_point]` as MLIR prints quantization parameters.
fn param(scale: f64, zp: i64) -> String {
    let s = format!("{scale:.6e}");
    // Rust prints `5.000000e-1`; MLIR prints two exponent digits and a sign.
    let s = match s.split_once('e') {
        Some((m, e)) => {
            let (sign, digits) = e.strip_prefix('-').map_or(("+", e), |d| ("-", d));
            format!("{m}e{sign}{digits:0>2}")
        }
        None => s,
    };
    if zp == 0 {
        s
    } else {
        format!("{s}:{zp}")
    }
}
