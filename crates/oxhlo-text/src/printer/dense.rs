//! Printing dense literals: splats as `dense<v>`, nested lists by shape, `dense<>` when empty, and MLIR's
//! hex raw storage `dense<"0x...">` for large literals (so big constants stay exact and fast to read).

use super::attrs::int_text;
use super::types::{fmt_float_bits, write_type};
use crate::parser::dense::mlir_storage_bytes;
use oxhlo_ir::dense::extend;
use oxhlo_ir::{DenseElements, ElementType, Type};
use std::fmt::Write;

/// Literals with more elements than this are printed as hex.
pub const HEX_THRESHOLD: usize = 100;

/// `dense<...> : tensor<...>`.
pub fn write_dense(out: &mut String, d: &DenseElements) {
    out.push_str("dense<");
    write_dense_body(out, d);
    out.push_str("> : ");
    write_type(out, &Type::Tensor(d.ty.clone()));
}

/// The part between `dense<` and `>`.
pub fn write_dense_body(out: &mut String, d: &DenseElements) {
    let n = d.len();
    if d.splat {
        if n > 0 {
            write_elem(out, d, 0);
        }
        return;
    }
    if n == 0 {
        return;
    }
    if d.ty.shape.is_empty() {
        write_elem(out, d, 0);
        return;
    }
    if n > HEX_THRESHOLD {
        write_hex(out, d);
        return;
    }
    let shape: Vec<usize> = d.ty.shape.iter().map(|&x| x.max(0) as usize).collect();
    let mut idx = 0usize;
    write_nested(out, d, &shape, &mut idx);
}

fn write_nested(out: &mut String, d: &DenseElements, shape: &[usize], idx: &mut usize) {
    out.push('[');
    match shape.split_first() {
        Some((&n, rest)) if !rest.is_empty() => {
            for i in 0..n {
                if i > 0 {
                    out.push_str(", ");
                }
                write_nested(out, d, rest, idx);
            }
        }
        Some((&n, _)) => {
            for i in 0..n {
                if i > 0 {
                    out.push_str(", ");
                }
                write_elem(out, d, *idx);
                *idx += 1;
            }
        }
        None => {}
    }
    out.push(']');
}

/// One element in literal form.
fn write_elem(out: &mut String, d: &DenseElements, i: usize) {
    match &d.ty.elem {
        ElementType::Bool => out.push_str(if d.bits(i) & 1 != 0 { "true" } else { "false" }),
        ElementType::Float(f) => out.push_str(&fmt_float_bits(mask(d.bits(i), f.bits()), *f)),
        ElementType::Complex(f) => {
            let re = fmt_float_bits(mask(d.part_bits(i, 0), f.bits()), *f);
            let im = fmt_float_bits(mask(d.part_bits(i, 1), f.bits()), *f);
            let _ = write!(out, "({re},{im})");
        }
        e @ ElementType::Int { bits, .. } => {
            let v = extend(d.bits(i), *bits, e.is_signed_integer());
            out.push_str(&int_text(v, e));
        }
        ElementType::Index => {
            let _ = write!(out, "{}", d.bits(i) as i64);
        }
        ElementType::Quant(q) => {
            let bits = q.storage.bits();
            let v = extend(d.bits(i), bits, q.storage.is_signed_integer());
            out.push_str(&int_text(v, &q.storage));
        }
    }
}

fn mask(v: u64, bits: u32) -> u64 {
    if bits >= 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    }
}

/// `"0x..."` in MLIR's raw layout.
fn write_hex(out: &mut String, d: &DenseElements) {
    let w = mlir_storage_bytes(&d.ty.elem);
    let slot = d.slot();
    let (parts, pw, ps) = if d.ty.elem.is_complex() { (2, w / 2, slot / 2) } else { (1, w, slot) };
    let bits = match &d.ty.elem {
        ElementType::Float(f) | ElementType::Complex(f) => f.bits(),
        ElementType::Bool => 1,
        other => other.bits(),
    };
    out.push_str("\"0x");
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for i in 0..d.len() {
        for p in 0..parts {
            let base = i * slot + p * ps;
            let mut v: u64 = 0;
            for k in 0..ps.min(8) {
                v |= (*d.data.get(base + k).unwrap_or(&0) as u64) << (8 * k);
            }
            let v = mask(v, bits);
            for k in 0..pw {
                let byte = if k < 8 { (v >> (8 * k)) as u8 } else { 0 };
                out.push(HEX[(byte >> 4) as usize] as char);
                out.push(HEX[(byte & 15) as usize] as char);
            }
        }
    }
    out.push('"');
}
