//! Readable printing of runtime values: `tensor<2x2xf32> [[1, 2], [3, 4]]`, long tensors elided.

use oxhlo_interp::testing::{fmt_elem, type_string};
use oxhlo_interp::{RtValue, Tensor};

/// Elements printed per tensor before eliding the rest.
const MAX_ELEMENTS: usize = 1000;

pub fn format_value(v: &RtValue) -> String {
    match v {
        RtValue::Tensor(t) => format!("{} {}", type_string(&t.ty), format_tensor(t)),
        RtValue::Token => "!stablehlo.token".into(),
        RtValue::Tuple(items) => {
            let parts: Vec<String> = items.iter().map(format_value).collect();
            format!("tuple({})", parts.join(", "))
        }
    }
}

/// Nested-list form of a tensor's elements.
pub fn format_tensor(t: &Tensor) -> String {
    let mut out = String::new();
    let mut next = 0usize;
    nest(t, 0, &mut next, &mut out);
    out
}

fn nest(t: &Tensor, dim: usize, next: &mut usize, out: &mut String) {
    if dim == t.ty.shape.len() {
        if *next < MAX_ELEMENTS {
            out.push_str(&fmt_elem(&t.data, *next, &t.ty.elem));
        } else if *next == MAX_ELEMENTS {
            out.push_str("...");
        }
        *next += 1;
        return;
    }
    out.push('[');
    let n = t.ty.shape[dim].max(0) as usize;
    for i in 0..n {
        if i > 0 && *next <= MAX_ELEMENTS {
            out.push_str(", ");
        }
        nest(t, dim + 1, next, out);
    }
    out.push(']');
}
