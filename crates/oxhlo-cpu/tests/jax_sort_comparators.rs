//! JAX's jnp.sort / jnp.argsort comparators as the plugin receives them (exported bytecode, their 0.0
//! and NaN constants defined in the enclosing function, outside the comparator's region) run on the
//! native sort kernel, not the interpreter's comparator-calling merge sort (~150 ms a call for [64, 100]
//! through the plugin before), and give NumPy's order: each slice stably sorted by the element with
//! -0.0 read as 0.0 and every NaN as one NaN after +inf. The reference order is computed here from that
//! rule, independently of oxhlo.

use oxhlo_cpu::kernels::{run_native, KernelCtx};
use oxhlo_cpu::{Buf, NTensor};
use oxhlo_ir::{Attr, OpKind};
use std::cmp::Ordering;

/// NumPy's order of two f32 keys (what JAX's canonicalizing comparator with TOTALORDER means).
fn numpy_order(a: f32, b: f32) -> Ordering {
    let canon = |x: f32| if x.is_nan() { f32::NAN } else if x == 0.0 { 0.0 } else { x };
    canon(a).total_cmp(&canon(b))
}

#[test]
fn jax_exported_comparators_sort_natively_in_numpy_order() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-cuda/tests/sorts_jax/jnp_sort_argsort.mlir");
    let module = oxhlo_text::parse_module(&std::fs::read_to_string(&path).unwrap(), "jnp_sort_argsort.mlir").unwrap();
    // Quarter steps (many ties), signed zeros, NaNs of both signs, infinities.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let values: Vec<f32> = (0..800)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            match state % 10 {
                0 => [f32::NAN, -f32::NAN, -0.0, 0.0, f32::INFINITY, f32::NEG_INFINITY][(state >> 8) as usize % 6],
                _ => ((state >> 16) % 33) as f32 / 4.0 - 4.0,
            }
        })
        .collect();
    let mut sorts = 0;
    for func in &module.funcs {
        for op in func.body.entry().unwrap().ops.iter().filter(|o| o.kind == OpKind::Sort) {
            let types: Vec<&oxhlo_ir::TensorType> = op.results.iter().map(|&r| func.ty(r).as_tensor().unwrap()).collect();
            let dim = op.attr("dimension").and_then(Attr::as_int).unwrap() as usize;
            let (rows, cols) = (types[0].shape[0] as usize, types[0].shape[1] as usize);
            // The first operand the values; a second one the iota along the sort dimension (argsort).
            let mut args = vec![NTensor::new(types[0].clone(), Buf::F32(values.clone()))];
            if types.len() == 2 {
                let iota: Vec<i32> = (0..rows * cols).map(|i| if dim == 0 { (i / cols) as i32 } else { (i % cols) as i32 }).collect();
                args.push(NTensor::new(types[1].clone(), Buf::I32(iota)));
            }
            let refs: Vec<&NTensor> = args.iter().collect();
            let ctx = KernelCtx { op, func, result_types: types.clone(), threads: 2 };
            let got = run_native(&ctx, &refs).expect("JAX's comparator runs on the native sort kernel").unwrap();
            // The reference: each slice along `dim` stably sorted in NumPy's order.
            let (slices, len) = if dim == 1 { (rows, cols) } else { (cols, rows) };
            for s in 0..slices {
                let at = |j: usize| if dim == 1 { s * cols + j } else { j * cols + s };
                let mut order: Vec<usize> = (0..len).collect();
                order.sort_by(|&x, &y| numpy_order(values[at(x)], values[at(y)]));
                for (j, &from) in order.iter().enumerate() {
                    let Buf::F32(v) = &*got[0].buf else { panic!("f32 results") };
                    assert_eq!(v[at(j)].to_bits(), values[at(from)].to_bits(), "{}: slice {s} position {j}", func.name);
                    if let Some(Buf::I32(ix)) = got.get(1).map(|t| &*t.buf) {
                        assert_eq!(ix[at(j)], from as i32, "{}: slice {s} index {j}", func.name);
                    }
                }
            }
            sorts += 1;
        }
    }
    assert_eq!(sorts, 2, "jnp.sort and jnp.argsort");
}
