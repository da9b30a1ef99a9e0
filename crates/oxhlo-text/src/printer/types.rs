//! Printing types and numbers: element types, tensor/tuple/function types, `!quant.uniform`, and the
//! float spelling that reads back bit-exactly (`1.000000e+00` when six digits suffice, more digits
//! otherwise, hex bit patterns for infinities and NaNs, as MLIR does).

use oxhlo_ir::{ElementType, FloatType, QuantType, Signedness, Type, DYN};
use std::fmt::Write;

/// A type as MLIR text.
pub fn type_to_string(t: &Type) -> String {
    let mut s = String::new();
    write_type(&mut s, t);
    s
}

/// Appends a type.
pub fn write_type(out: &mut String, t: &Type) {
    match t {
        Type::Tensor(tt) => {
            out.push_str("tensor<");
            for &d in &tt.shape {
                if d == DYN {
                    out.push('?');
                } else {
                    let _ = write!(out, "{d}");
                }
                out.push('x');
            }
            write_elem(out, &tt.elem);
            if let Some(enc) = &tt.encoding {
                out.push_str(", ");
                super::attrs::write_attr(out, enc, "stablehlo");
            }
            out.push('>');
        }
        Type::UnrankedTensor(e) => {
            out.push_str("tensor<*x");
            write_elem(out, e);
            out.push('>');
        }
        Type::Token => out.push_str("!stablehlo.token"),
        Type::Tuple(ts) => {
            out.push_str("tuple<");
            write_type_list(out, ts);
            out.push('>');
        }
        Type::Function(f) => {
            out.push('(');
            write_type_list(out, &f.inputs);
            out.push_str(") -> ");
            write_result_types(out, &f.results);
        }
        Type::Scalar(e) => write_elem(out, e),
        Type::Opaque(s) => out.push_str(s),
    }
}

/// `A, B, C`.
pub fn write_type_list(out: &mut String, ts: &[Type]) {
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_type(out, t);
    }
}

/// Result types after `->`: `T` for one non-function type, else `(T, U)`.
pub fn write_result_types(out: &mut String, ts: &[Type]) {
    if ts.len() == 1 && !matches!(ts[0], Type::Function(_)) {
        write_type(out, &ts[0]);
    } else {
        out.push('(');
        write_type_list(out, ts);
        out.push(')');
    }
}

/// Appends an element type.
pub fn write_elem(out: &mut String, e: &ElementType) {
    match e {
        ElementType::Bool => out.push_str("i1"),
        ElementType::Int { bits, signedness } => {
            let p = match signedness {
                Signedness::Signless => "i",
                Signedness::Signed => "si",
                Signedness::Unsigned => "ui",
            };
            let _ = write!(out, "{p}{bits}");
        }
        ElementType::Float(f) => out.push_str(f.name()),
        ElementType::Complex(f) => {
            let _ = write!(out, "complex<{}>", f.name());
        }
        ElementType::Quant(q) => write_quant(out, q),
        ElementType::Index => out.push_str("index"),
    }
}

fn write_quant(out: &mut String, q: &QuantType) {
    out.push_str("!quant.uniform<");
    let (prefix, bits) = match &q.storage {
        ElementType::Int { bits, signedness: Signedness::Unsigned } => ("u", *bits),
        ElementType::Int { bits, .. } => ("i", *bits),
        other => ("i", other.bits()),
    };
    let _ = write!(out, "{prefix}{bits}");
    if let (Some(lo), Some(hi)) = (q.storage_min, q.storage_max) {
        let _ = write!(out, "<{lo}:{hi}>");
    }
    out.push(':');
    write_elem(out, &q.expressed);
    let param = |out: &mut String, i: usize| {
        out.push_str(&fmt_f64(q.scales.get(i).copied().unwrap_or(0.0)));
        let z = q.zero_points.get(i).copied().unwrap_or(0);
        if z != 0 {
            let _ = write!(out, ":{z}");
        }
    };
    match q.quantized_dimension {
        Some(axis) => {
            let _ = write!(out, ":{axis}, {{");
            for i in 0..q.scales.len() {
                if i > 0 {
                    out.push(',');
                }
                param(out, i);
            }
            out.push('}');
        }
        None => {
            out.push_str(", ");
            param(out, 0);
        }
    }
    out.push('>');
}

/// `1.000000e+00` style with `prec` digits after the point.
fn sci(v: f64, prec: usize) -> String {
    let s = format!("{v:.prec$e}");
    match s.split_once('e') {
        Some((m, e)) => {
            let exp: i32 = e.parse().unwrap_or(0);
            let sign = if exp < 0 { '-' } else { '+' };
            let m = if m.contains('.') { m.to_string() } else { format!("{m}.0") };
            format!("{m}e{sign}{:02}", exp.unsigned_abs())
        }
        None => s,
    }
}

/// The shortest `d.dddddde+XX` spelling (at least 6 digits) for which `reads_back` holds.
fn shortest(v: f64, reads_back: impl Fn(f64) -> bool) -> String {
    for prec in 6..=17 {
        let s = sci(v, prec);
        if s.parse::<f64>().ok().is_some_and(&reads_back) {
            return s;
        }
    }
    sci(v, 17)
}

/// An f64 value that reads back exactly (hex bits for non-finite values).
pub fn fmt_f64(v: f64) -> String {
    if !v.is_finite() {
        return format!("0x{:016X}", v.to_bits());
    }
    shortest(v, |r| r.to_bits() == v.to_bits())
}

/// A float of format `f` given by its bit pattern, spelled so that it reads back to the same bits.
pub fn fmt_float_bits(bits: u64, f: FloatType) -> String {
    let fmt = f.format();
    let v = oxhlo_dtype::decode(fmt, bits);
    if !v.is_finite() {
        let digits = (f.bits() as usize).div_ceil(4);
        return format!("0x{bits:0digits$X}");
    }
    let s = shortest(v, |r| oxhlo_dtype::encode(fmt, r) == bits);
    if s.parse::<f64>().ok().map(|r| oxhlo_dtype::encode(fmt, r)) == Some(bits) {
        s
    } else {
        let digits = (f.bits() as usize).div_ceil(4);
        format!("0x{bits:0digits$X}")
    }
}

/// A float attribute value of element type `e` (rounded into the type first).
pub fn fmt_float_value(v: f64, e: &ElementType) -> String {
    match e {
        ElementType::Float(f) => fmt_float_bits(oxhlo_dtype::encode(f.format(), v), *f),
        _ => fmt_f64(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sci_matches_mlir_style() {
        assert_eq!(sci(1.0, 6), "1.000000e+00");
        assert_eq!(sci(-0.25, 6), "-2.500000e-01");
        assert_eq!(sci(1e-45, 6), "1.000000e-45");
        assert_eq!(fmt_f64(0.1), "1.000000e-01");
        assert_eq!(fmt_f64(f64::INFINITY), "0x7FF0000000000000");
    }
}
