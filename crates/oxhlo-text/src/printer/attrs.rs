//! Printing attributes (builtin and StableHLO), attribute dictionaries, symbol names and strings, in the
//! spelling the parser reads back. Enum attributes take the dialect prefix of the op they sit on
//! (`#chlo<comparison_direction EQ>` on chlo ops).

use super::types::{fmt_float_value, write_elem, write_type};
use oxhlo_ir::attr::{ConvDims, DenseArray, DotAlgorithm, DotDims, GatherDims, ResultAccuracy, ScatterDims};
use oxhlo_ir::{Attr, ElementType, NamedAttr, Signedness, DYN};
use std::fmt::Write;

/// Whether `s` can be written without quotes as an attribute name or symbol.
pub fn is_bare_id(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.')
}

/// A quoted string literal with MLIR escapes.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for &b in s.as_bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7E => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:02X}");
            }
        }
    }
    out.push('"');
}

/// `@name` or `@"quoted name"`; nested references (`a::@b`) are written as stored.
pub fn write_symbol(out: &mut String, s: &str) {
    out.push('@');
    let mut parts = s.split("::@");
    if let Some(first) = parts.next() {
        write_symbol_part(out, first);
    }
    for p in parts {
        out.push_str("::@");
        write_symbol_part(out, p);
    }
}

fn write_symbol_part(out: &mut String, s: &str) {
    if is_bare_id(s) {
        out.push_str(s);
    } else {
        write_string(out, s);
    }
}

/// `{a = 1 : i64, b}` (nothing for an empty list when `skip_empty`).
pub fn write_dict(out: &mut String, d: &[NamedAttr], dialect: &str) {
    out.push('{');
    for (i, (k, v)) in d.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if is_bare_id(k) {
            out.push_str(k);
        } else {
            write_string(out, k);
        }
        if *v != Attr::Unit {
            out.push_str(" = ");
            write_attr(out, v, dialect);
        }
    }
    out.push('}');
}

/// `[1, 2, 3]`.
pub fn write_i64s(out: &mut String, v: &[i64]) {
    out.push('[');
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{x}");
    }
    out.push(']');
}

/// `[1, ?]` with dynamic sizes as `?`.
fn write_dims(out: &mut String, v: &[i64]) {
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if *x == DYN {
            out.push('?');
        } else {
            let _ = write!(out, "{x}");
        }
    }
}

/// An integer value as its type reads it (unsigned types print unsigned).
pub fn int_text(v: i64, e: &ElementType) -> String {
    match e {
        ElementType::Int { bits, signedness: Signedness::Unsigned } => {
            let u = v as u64;
            let u = if *bits >= 64 { u } else { u & ((1u64 << bits) - 1) };
            u.to_string()
        }
        _ => v.to_string(),
    }
}

/// Appends any attribute.
pub fn write_attr(out: &mut String, a: &Attr, dialect: &str) {
    match a {
        Attr::Unit => out.push_str("unit"),
        Attr::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Attr::Int(v, e) => {
            out.push_str(&int_text(*v, e));
            out.push_str(" : ");
            write_elem(out, e);
        }
        Attr::Float(v, e) => {
            out.push_str(&fmt_float_value(*v, e));
            out.push_str(" : ");
            write_elem(out, e);
        }
        Attr::Str(s) => write_string(out, s),
        Attr::Type(t) => write_type(out, t),
        Attr::Array(items) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_attr(out, x, dialect);
            }
            out.push(']');
        }
        Attr::DenseArray(d) => write_dense_array(out, d),
        Attr::Dense(d) => super::dense::write_dense(out, d),
        Attr::DenseResource(name, t) => {
            out.push_str("dense_resource<");
            if is_bare_id(name) {
                out.push_str(name);
            } else {
                write_string(out, name);
            }
            out.push_str("> : ");
            write_type(out, t);
        }
        Attr::Dict(d) => write_dict(out, d, dialect),
        Attr::SymbolRef(s) => write_symbol(out, s),
        Attr::ComparisonDirection(x) => enum_attr(out, dialect, "comparison_direction", x.keyword()),
        Attr::ComparisonType(x) => enum_attr(out, dialect, "comparison_type", x.keyword()),
        Attr::Precision(x) => enum_attr(out, dialect, "precision", x.keyword()),
        Attr::FftType(x) => enum_attr(out, dialect, "fft_type", x.keyword()),
        Attr::Transpose(x) => enum_attr(out, dialect, "transpose", x.keyword()),
        Attr::RngDistribution(x) => enum_attr(out, dialect, "rng_distribution", x.keyword()),
        Attr::RngAlgorithm(x) => enum_attr(out, dialect, "rng_algorithm", x.keyword()),
        Attr::DotDims(d) => {
            out.push_str("#stablehlo.dot<");
            write_dot_dims(out, d);
            out.push('>');
        }
        Attr::GatherDims(g) => write_gather(out, g),
        Attr::ScatterDims(s) => write_scatter(out, s),
        Attr::ConvDims(c) => {
            out.push_str("#stablehlo.conv<");
            write_conv_dims(out, c);
            out.push('>');
        }
        Attr::OutputOperandAlias(o) => {
            out.push_str("#stablehlo.output_operand_alias<output_tuple_indices = ");
            write_i64s(out, &o.output_tuple_indices);
            let _ = write!(out, ", operand_index = {}, operand_tuple_indices = ", o.operand_index);
            write_i64s(out, &o.operand_tuple_indices);
            out.push('>');
        }
        Attr::ChannelHandle { handle, kind } => {
            let _ = write!(out, "#stablehlo.channel_handle<handle = {handle}, type = {kind}>");
        }
        Attr::DotAlgorithm(d) => {
            out.push_str("#stablehlo.dot_algorithm");
            write_dot_algorithm_body(out, d);
        }
        Attr::ResultAccuracy(r) => write_result_accuracy(out, r),
        Attr::Bounds(b) => {
            out.push_str("#stablehlo.bounds<");
            write_dims(out, b);
            out.push('>');
        }
        Attr::Opaque(s) => out.push_str(s),
    }
}

fn enum_attr(out: &mut String, dialect: &str, kind: &str, v: &str) {
    let _ = write!(out, "#{dialect}<{kind} {v}>");
}

fn write_dense_array(out: &mut String, d: &DenseArray) {
    fn ints(out: &mut String, ty: &str, v: &[i64]) {
        out.push_str("array<");
        out.push_str(ty);
        for (i, x) in v.iter().enumerate() {
            out.push_str(if i == 0 { ": " } else { ", " });
            let _ = write!(out, "{x}");
        }
        out.push('>');
    }
    match d {
        DenseArray::Bool(v) => {
            out.push_str("array<i1");
            for (i, x) in v.iter().enumerate() {
                out.push_str(if i == 0 { ": " } else { ", " });
                out.push_str(if *x { "true" } else { "false" });
            }
            out.push('>');
        }
        DenseArray::I8(v) => ints(out, "i8", v),
        DenseArray::I16(v) => ints(out, "i16", v),
        DenseArray::I32(v) => ints(out, "i32", v),
        DenseArray::I64(v) => ints(out, "i64", v),
        DenseArray::F32(v) | DenseArray::F64(v) => {
            let e = if matches!(d, DenseArray::F32(_)) { ElementType::F32 } else { ElementType::F64 };
            out.push_str("array<");
            write_elem(out, &e);
            for (i, x) in v.iter().enumerate() {
                out.push_str(if i == 0 { ": " } else { ", " });
                out.push_str(&fmt_float_value(*x, &e));
            }
            out.push('>');
        }
    }
}

/// The fields of `#stablehlo.dot<...>`, empty lists left out.
pub fn write_dot_dims(out: &mut String, d: &DotDims) {
    let mut first = true;
    for (name, v) in [
        ("lhs_batching_dimensions", &d.lhs_batching_dimensions),
        ("rhs_batching_dimensions", &d.rhs_batching_dimensions),
        ("lhs_contracting_dimensions", &d.lhs_contracting_dimensions),
        ("rhs_contracting_dimensions", &d.rhs_contracting_dimensions),
    ] {
        if v.is_empty() {
            continue;
        }
        if !first {
            out.push_str(", ");
        }
        first = false;
        let _ = write!(out, "{name} = ");
        write_i64s(out, v);
    }
}

fn write_fields(out: &mut String, fields: &[(&str, &Vec<i64>)], last: (&str, i64)) {
    for (name, v) in fields {
        if v.is_empty() {
            continue;
        }
        let _ = write!(out, "{name} = ");
        write_i64s(out, v);
        out.push_str(", ");
    }
    let _ = write!(out, "{} = {}", last.0, last.1);
}

fn write_gather(out: &mut String, g: &GatherDims) {
    out.push_str("#stablehlo.gather<");
    write_fields(
        out,
        &[
            ("offset_dims", &g.offset_dims),
            ("collapsed_slice_dims", &g.collapsed_slice_dims),
            ("operand_batching_dims", &g.operand_batching_dims),
            ("start_indices_batching_dims", &g.start_indices_batching_dims),
            ("start_index_map", &g.start_index_map),
        ],
        ("index_vector_dim", g.index_vector_dim),
    );
    out.push('>');
}

fn write_scatter(out: &mut String, s: &ScatterDims) {
    out.push_str("#stablehlo.scatter<");
    write_fields(
        out,
        &[
            ("update_window_dims", &s.update_window_dims),
            ("inserted_window_dims", &s.inserted_window_dims),
            ("input_batching_dims", &s.input_batching_dims),
            ("scatter_indices_batching_dims", &s.scatter_indices_batching_dims),
            ("scatter_dims_to_operand_dims", &s.scatter_dims_to_operand_dims),
        ],
        ("index_vector_dim", s.index_vector_dim),
    );
    out.push('>');
}

/// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`, or the `raw` form when the layouts are not expressible.
pub fn write_conv_dims(out: &mut String, c: &ConvDims) {
    let lay = |a: i64, an: char, b: i64, bn: char, sp: &[i64]| -> Option<String> {
        let rank = sp.len() + 2;
        let mut slots: Vec<Option<String>> = vec![None; rank];
        let mut put = |i: i64, s: String| -> Option<()> {
            let slot = slots.get_mut(usize::try_from(i).ok()?)?;
            if slot.is_some() {
                return None;
            }
            *slot = Some(s);
            Some(())
        };
        put(a, an.to_string())?;
        put(b, bn.to_string())?;
        for (k, &d) in sp.iter().enumerate() {
            put(d, k.to_string())?;
        }
        let parts: Option<Vec<String>> = slots.into_iter().collect();
        Some(format!("[{}]", parts?.join(", ")))
    };
    let i = lay(c.input_batch_dimension, 'b', c.input_feature_dimension, 'f', &c.input_spatial_dimensions);
    let k = lay(c.kernel_input_feature_dimension, 'i', c.kernel_output_feature_dimension, 'o', &c.kernel_spatial_dimensions);
    let o = lay(c.output_batch_dimension, 'b', c.output_feature_dimension, 'f', &c.output_spatial_dimensions);
    let same_rank = c.input_spatial_dimensions.len() == c.kernel_spatial_dimensions.len()
        && c.input_spatial_dimensions.len() == c.output_spatial_dimensions.len();
    match (i, k, o) {
        (Some(i), Some(k), Some(o)) if same_rank => {
            let _ = write!(out, "{i}x{k}->{o}");
        }
        _ => {
            let _ = write!(out, "raw input_batch_dimension = {}, input_feature_dimension = {}, input_spatial_dimensions = ", c.input_batch_dimension, c.input_feature_dimension);
            write_i64s(out, &c.input_spatial_dimensions);
            let _ = write!(out, ", kernel_input_feature_dimension = {}, kernel_output_feature_dimension = {}, kernel_spatial_dimensions = ", c.kernel_input_feature_dimension, c.kernel_output_feature_dimension);
            write_i64s(out, &c.kernel_spatial_dimensions);
            let _ = write!(out, ", output_batch_dimension = {}, output_feature_dimension = {}, output_spatial_dimensions = ", c.output_batch_dimension, c.output_feature_dimension);
            write_i64s(out, &c.output_spatial_dimensions);
        }
    }
}

/// `<lhs_precision_type = ..., ...>` (shared by the attribute and dot_general's `algorithm = <...>`).
pub fn write_dot_algorithm_body(out: &mut String, d: &DotAlgorithm) {
    out.push_str("<lhs_precision_type = ");
    write_type(out, &d.lhs_precision_type);
    out.push_str(", rhs_precision_type = ");
    write_type(out, &d.rhs_precision_type);
    out.push_str(", accumulation_type = ");
    write_type(out, &d.accumulation_type);
    let _ = write!(
        out,
        ", lhs_component_count = {}, rhs_component_count = {}, num_primitive_operations = {}, allow_imprecise_accumulation = {}>",
        d.lhs_component_count, d.rhs_component_count, d.num_primitive_operations, d.allow_imprecise_accumulation
    );
}

fn write_result_accuracy(out: &mut String, r: &ResultAccuracy) {
    out.push_str("#stablehlo.result_accuracy<");
    let mut parts: Vec<String> = Vec::new();
    if r.atol != 0.0 || r.atol.is_sign_negative() {
        parts.push(format!("atol = {}", super::types::fmt_f64(r.atol)));
    }
    if r.rtol != 0.0 || r.rtol.is_sign_negative() {
        parts.push(format!("rtol = {}", super::types::fmt_f64(r.rtol)));
    }
    if r.ulps != 0 {
        parts.push(format!("ulps = {}", r.ulps));
    }
    parts.push(format!("mode = #stablehlo.result_accuracy_mode<{}>", r.mode.keyword()));
    out.push_str(&parts.join(", "));
    out.push('>');
}
