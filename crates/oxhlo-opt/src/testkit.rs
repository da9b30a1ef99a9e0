//! Unit-test helpers shared by the passes' tests: parse a program, run a pass, check that the result
//! verifies and that the interpreter gives bitwise-identical results before and after.

use crate::Pass;
use oxhlo_interp::{run_main, Data, RtValue, Tensor};
use oxhlo_ir::{Module, OpKind, Type};

pub fn parse(src: &str) -> Module {
    let m = oxhlo_text::parse_module(src, "test.mlir").unwrap_or_else(|d| panic!("parse: {d}\n{src}"));
    oxhlo_ir::verify_module(&m).unwrap_or_else(|d| panic!("verify input: {d}"));
    m
}

pub fn print(m: &Module) -> String {
    oxhlo_text::print_module(m, &oxhlo_text::PrintOptions::default())
}

/// Deterministic inputs for the entry function (small integers, floats with fractions and signs).
pub fn inputs(m: &Module) -> Vec<RtValue> {
    let f = m.entry().expect("entry");
    f.ty.inputs
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let Type::Tensor(t) = t else { panic!("non-tensor input") };
            let n = t.num_elements().expect("static");
            let data = match &t.elem {
                e if e.is_float() => Data::Float((0..n).map(|i| ((i * 7 + k * 3) % 11) as f64 * 0.5 - 2.0).collect()),
                e if e.is_bool() => Data::Bool((0..n).map(|i| (i + k) % 3 == 0).collect()),
                e if e.is_unsigned_integer() => Data::UInt((0..n).map(|i| ((i * 5 + k) % 9) as u64).collect()),
                _ => Data::Int((0..n).map(|i| ((i * 5 + k) % 9) as i64 - 4).collect()),
            };
            RtValue::Tensor(Tensor { ty: t.clone(), data })
        })
        .collect()
}

/// Bitwise equality of runtime values (any NaN equals any NaN: the spec leaves payloads open).
pub fn same(a: &[RtValue], b: &[RtValue]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_value(x, y))
}

fn same_value(a: &RtValue, b: &RtValue) -> bool {
    let fe = |x: f64, y: f64| (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits();
    match (a, b) {
        (RtValue::Tensor(x), RtValue::Tensor(y)) => {
            x.ty.shape == y.ty.shape
                && x.ty.elem == y.ty.elem
                && match (&x.data, &y.data) {
                    (Data::Float(p), Data::Float(q)) => p.len() == q.len() && p.iter().zip(q).all(|(u, v)| fe(*u, *v)),
                    (Data::Complex(p), Data::Complex(q)) => {
                        p.len() == q.len() && p.iter().zip(q).all(|(u, v)| fe(u.0, v.0) && fe(u.1, v.1))
                    }
                    (p, q) => p == q,
                }
        }
        (RtValue::Tuple(x), RtValue::Tuple(y)) => same(x, y),
        (RtValue::Token, RtValue::Token) => true,
        _ => false,
    }
}

/// Runs `pass` on `src`; asserts the output verifies and computes the same results; returns it.
pub fn check_pass(pass: &dyn Pass, src: &str) -> (Module, bool) {
    let before = parse(src);
    let args = inputs(&before);
    let expected = run_main(&before, args.clone()).unwrap_or_else(|e| panic!("run before: {e}"));
    let mut after = before.clone();
    let changed = pass.run(&mut after).unwrap_or_else(|e| panic!("{}: {e}", pass.name()));
    oxhlo_ir::verify_module(&after).unwrap_or_else(|d| panic!("verify after {}: {d}\n{}", pass.name(), print(&after)));
    let got = run_main(&after, args).unwrap_or_else(|e| panic!("run after: {e}\n{}", print(&after)));
    assert!(same(&expected, &got), "{} changed results:\n{}\nexpected {expected:?}\ngot {got:?}", pass.name(), print(&after));
    (after, changed)
}

/// Number of ops of a kind anywhere in the module.
pub fn count(m: &Module, kind: OpKind) -> usize {
    let mut n = 0;
    for f in &m.funcs {
        f.walk(&mut |op| n += (op.kind == kind) as usize);
    }
    n
}
