//! Native elementwise ops against the interpreter (the oracle), op by op, for every native real element
//! type, on edge-case and random inputs: unary and binary ops, compare (every direction and comparison
//! type), select, clamp and convert between every pair of types. Results must be bit-exact, except the
//! f32 fast transcendentals (exp, log, log_plus_one, tanh, logistic), which may differ by 2 f32 ulps.

mod common;
use common::*;
use oxhlo_cpu::Kind;

const N: i64 = 300;

/// Checks one case; returns false when the program is not valid StableHLO (the verifier rejects it), so
/// callers can make sure that most of their cases did run.
fn check(src: &str, inputs: &[oxhlo_cpu::NTensor], ulps: u64) -> bool {
    let m = oxhlo_text::parse_module(src, "case.mlir").expect("parses");
    if oxhlo_ir::verify_module(&m).is_err() {
        return false;
    }
    let want = run_interp(src, inputs).unwrap_or_else(|e| panic!("{src}\ninterpreter failed: {e}"));
    for threads in [1, 3] {
        let got = run_cpu(src, inputs, false, threads).unwrap_or_else(|e| panic!("{src}\nCPU failed: {e}"));
        for (g, w) in got.iter().zip(&want) {
            if let Err(e) = compare(g, w, ulps, 0.0) {
                panic!("{src}\n{e}");
            }
        }
    }
    true
}

fn unary_src(op: &str, ty: &str, rty: &str) -> String {
    format!(
        "func.func @main(%a: tensor<{N}x{ty}>) -> tensor<{N}x{rty}> {{\n  %0 = \"stablehlo.{op}\"(%a) : (tensor<{N}x{ty}>) -> tensor<{N}x{rty}>\n  return %0 : tensor<{N}x{rty}>\n}}"
    )
}

fn binary_src(op: &str, ty: &str) -> String {
    format!(
        "func.func @main(%a: tensor<{N}x{ty}>, %b: tensor<{N}x{ty}>) -> tensor<{N}x{ty}> {{\n  %0 = \"stablehlo.{op}\"(%a, %b) : (tensor<{N}x{ty}>, tensor<{N}x{ty}>) -> tensor<{N}x{ty}>\n  return %0 : tensor<{N}x{ty}>\n}}"
    )
}

fn input(ty: &str, kind: Kind, seed: u64) -> oxhlo_cpu::NTensor {
    tensor(ty, &[N], values(kind, N as usize, seed))
}

#[test]
fn unary_ops_match_the_interpreter() {
    let float_ops = [
        "abs", "negate", "sign", "sqrt", "rsqrt", "cbrt", "exponential", "exponential_minus_one", "log",
        "log_plus_one", "logistic", "sine", "cosine", "tan", "tanh", "floor", "ceil", "round_nearest_afz",
        "round_nearest_even",
    ];
    let int_ops = ["abs", "negate", "sign", "not", "popcnt", "count_leading_zeros"];
    let mut ran = 0;
    for &(ty, kind) in TYPES {
        let ops: &[&str] = if is_float(kind) {
            &float_ops
        } else if is_int(kind) {
            &int_ops
        } else {
            &["not"]
        };
        for op in ops {
            let fast = kind == Kind::F32 && matches!(*op, "exponential" | "log" | "log_plus_one" | "tanh" | "logistic");
            for seed in [0, 1] {
                ran += check(&unary_src(op, ty, ty), &[input(ty, kind, seed)], if fast { 2 } else { 0 }) as usize;
            }
        }
        if is_float(kind) {
            ran += check(&unary_src("is_finite", ty, "i1"), &[input(ty, kind, 0)], 0) as usize;
        }
    }
    assert!(ran >= 4 * 19 * 2 + 7 * 6 * 2, "only {ran} unary cases ran");
}

#[test]
fn binary_ops_match_the_interpreter() {
    let float_ops = ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "atan2"];
    let int_ops = [
        "add",
        "subtract",
        "multiply",
        "divide",
        "remainder",
        "power",
        "maximum",
        "minimum",
        "and",
        "or",
        "xor",
        "shift_left",
        "shift_right_arithmetic",
        "shift_right_logical",
    ];
    let mut ran = 0;
    for &(ty, kind) in TYPES {
        let ops: &[&str] = if is_float(kind) {
            &float_ops
        } else if is_int(kind) {
            &int_ops
        } else {
            &["and", "or", "xor"]
        };
        for op in ops {
            for (s1, s2) in [(0, 2), (1, 3), (0, 0)] {
                ran += check(&binary_src(op, ty), &[input(ty, kind, s1), input(ty, kind, s2)], 0) as usize;
            }
        }
    }
    assert!(ran >= 3 * (4 * 9 + 8 * 14 + 3), "only {ran} binary cases ran");
}

#[test]
fn compare_matches_the_interpreter() {
    let mut ran = 0;
    for &(ty, kind) in TYPES {
        let types: &[&str] = if is_float(kind) {
            &["FLOAT", "TOTALORDER"]
        } else if is_int(kind) {
            &["SIGNED", "UNSIGNED"]
        } else {
            &["UNSIGNED"]
        };
        for dir in ["EQ", "NE", "LT", "LE", "GT", "GE"] {
            for cty in types {
                let src = format!(
                    "func.func @main(%a: tensor<{N}x{ty}>, %b: tensor<{N}x{ty}>) -> tensor<{N}xi1> {{\n  %0 = stablehlo.compare {dir}, %a, %b, {cty} : (tensor<{N}x{ty}>, tensor<{N}x{ty}>) -> tensor<{N}xi1>\n  return %0 : tensor<{N}xi1>\n}}"
                );
                // Seeds 0 and 0 compare equal pairs too; 0 and 2 share the edge cases.
                ran += check(&src, &[input(ty, kind, 0), input(ty, kind, 2)], 0) as usize;
                ran += check(&src, &[input(ty, kind, 1), input(ty, kind, 3)], 0) as usize;
            }
        }
    }
    assert!(ran >= 2 * 6 * (4 * 2 + 8), "only {ran} compare cases ran");
}

#[test]
fn select_and_clamp_match_the_interpreter() {
    for &(ty, kind) in TYPES {
        let sel = format!(
            "func.func @main(%p: tensor<{N}xi1>, %a: tensor<{N}x{ty}>, %b: tensor<{N}x{ty}>) -> tensor<{N}x{ty}> {{\n  %0 = \"stablehlo.select\"(%p, %a, %b) : (tensor<{N}xi1>, tensor<{N}x{ty}>, tensor<{N}x{ty}>) -> tensor<{N}x{ty}>\n  return %0 : tensor<{N}x{ty}>\n}}"
        );
        let p = input("i1", Kind::Bool, 1);
        check(&sel, &[p, input(ty, kind, 0), input(ty, kind, 1)], 0);
        let sel0 = format!(
            "func.func @main(%p: tensor<i1>, %a: tensor<{N}x{ty}>, %b: tensor<{N}x{ty}>) -> tensor<{N}x{ty}> {{\n  %0 = \"stablehlo.select\"(%p, %a, %b) : (tensor<i1>, tensor<{N}x{ty}>, tensor<{N}x{ty}>) -> tensor<{N}x{ty}>\n  return %0 : tensor<{N}x{ty}>\n}}"
        );
        for b in [true, false] {
            let p0 = tensor("i1", &[], oxhlo_cpu::Buf::Bool(vec![b]));
            check(&sel0, &[p0, input(ty, kind, 0), input(ty, kind, 1)], 0);
        }
        let clamp = format!(
            "func.func @main(%lo: tensor<{ty}>, %a: tensor<{N}x{ty}>, %hi: tensor<{N}x{ty}>) -> tensor<{N}x{ty}> {{\n  %0 = \"stablehlo.clamp\"(%lo, %a, %hi) : (tensor<{ty}>, tensor<{N}x{ty}>, tensor<{N}x{ty}>) -> tensor<{N}x{ty}>\n  return %0 : tensor<{N}x{ty}>\n}}"
        );
        let lo = tensor(ty, &[], values(kind, 1, 3));
        check(&clamp, &[lo, input(ty, kind, 0), input(ty, kind, 1)], 0);
    }
}

#[test]
fn convert_between_every_pair_matches_the_interpreter() {
    for &(from, fk) in TYPES {
        for &(to, _) in TYPES {
            for seed in [0, 1] {
                assert!(check(&unary_src("convert", from, to), &[input(from, fk, seed)], 0));
            }
        }
    }
}
