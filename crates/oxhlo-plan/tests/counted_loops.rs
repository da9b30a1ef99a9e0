//! `loops::trip_count` against independent counts: JAX's lowerings of scans and fori_loops (the
//! counts their Python sources fix, `tests/loops/generate.py`), and generated loops over i8 / ui8 /
//! i32 counters of every compare direction, step sign and operand order, each run by the reference
//! interpreter with a second, i64 counter of the iterations it actually made.

use oxhlo_ir::body::walk_ops;
use oxhlo_ir::{Module, Op, OpKind};
use oxhlo_plan::loops::{int_constants, trip_count};

/// Every while of `m` (functions in order, each depth first, outer loops first) and its trip count.
fn counts(m: &Module) -> Vec<Option<u64>> {
    let mut out = Vec::new();
    for f in &m.funcs {
        let consts = int_constants(f);
        let mut whiles: Vec<&Op> = Vec::new();
        walk_ops(&f.body, &mut |op| {
            if op.kind == OpKind::While {
                whiles.push(op);
            }
        });
        out.extend(whiles.into_iter().map(|op| trip_count(f, &consts, op)));
    }
    out
}

fn parse(path: &str) -> Module {
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    oxhlo_text::parse_module(&src, path).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

fn optimized(mut m: Module) -> Module {
    let opts = oxhlo_opt::OptOptions { level: oxhlo_opt::OptLevel::O2, print_after_all: false, dump_dir: None, verify_each: true, factor_sums: false };
    oxhlo_opt::optimize(&mut m, &opts).expect("optimizes");
    m
}

#[test]
fn jax_scans_and_fori_loops_have_their_source_counts() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/loops");
    // File, the counts as JAX's source fixes them (the lowered text: outer loops first, functions in
    // order), and after O2 (calls inlined: the nested scan's inner loop inside the outer).
    let cases: &[(&str, &[Option<u64>])] = &[
        ("scan8", &[Some(8)]),
        ("scan8_reverse", &[Some(8)]),
        ("fori10", &[Some(10)]),
        ("fori_3_to_40_by_scan", &[Some(37)]),
        ("fori_traced_bound", &[None]),
        ("while_data", &[None]),
        ("nested_scans", &[Some(8), Some(5)]),
    ];
    for (name, want) in cases {
        let m = parse(&format!("{dir}/{name}.mlir"));
        assert_eq!(counts(&m), want.to_vec(), "{name} as JAX lowered it");
        assert_eq!(counts(&optimized(m)), want.to_vec(), "{name} after O2");
    }
}

/// A loop over a counter of type `ty` from `start`, stepped by `step_op` (add or subtract) of constant
/// `step`, while `dir` of the counter and `limit` holds.
struct Loop {
    ty: &'static str,
    start: i64,
    step_op: &'static str,
    step: i64,
    dir: &'static str,
    limit: i64,
}

/// `l` as a program returning the iterations made (counted in i64): the counter written first or
/// second in the step, and first or second in the compare (`dir` then the swapped direction).
fn loop_program(l: &Loop, counter_first: bool, dir: &str, counter_lhs: bool) -> String {
    let Loop { ty, start, step_op, step, limit, .. } = l;
    let cmp_type = if ty.starts_with("ui") { "UNSIGNED" } else { "SIGNED" };
    let (a, b) = if counter_lhs { ("%c", "%lim") } else { ("%lim", "%c") };
    let (x, y) = if counter_first { ("%c", "%s") } else { ("%s", "%c") };
    format!(
        "func.func @main() -> tensor<i64> {{
  %init = stablehlo.constant dense<{start}> : tensor<{ty}>
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %r:2 = stablehlo.while(%c = %init, %n = %zero) : tensor<{ty}>, tensor<i64>
  cond {{
    %lim = stablehlo.constant dense<{limit}> : tensor<{ty}>
    %p = stablehlo.compare {dir}, {a}, {b}, {cmp_type} : (tensor<{ty}>, tensor<{ty}>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }} do {{
    %s = stablehlo.constant dense<{step}> : tensor<{ty}>
    %next = stablehlo.{step_op} {x}, {y} : tensor<{ty}>
    %one = stablehlo.constant dense<1> : tensor<i64>
    %m = stablehlo.add %n, %one : tensor<i64>
    stablehlo.return %next, %m : tensor<{ty}>, tensor<i64>
  }}
  return %r#1 : tensor<i64>
}}"
    )
}

fn iterations_run(m: &Module) -> u64 {
    let out = oxhlo_interp::run_main(m, Vec::new()).expect("runs");
    match &out[0] {
        oxhlo_interp::RtValue::Tensor(t) => match &t.data {
            oxhlo_interp::Data::Int(v) => v[0] as u64,
            d => panic!("unexpected result {d:?}"),
        },
        v => panic!("unexpected result {v:?}"),
    }
}

#[test]
fn generated_loops_count_what_the_interpreter_runs() {
    let (mut known, mut unknown) = (0, 0);
    // i8 / ui8 counters with odd steps visit every value within 256 steps, so each loop ends (limits
    // stay off the extremes, where LE / GE would hold for every value); i32 counters move toward the
    // limit only. The interpreter runs each; a known count must equal its iterations.
    let dirs = ["LT", "LE", "GT", "GE", "EQ", "NE"];
    let mut cases = Vec::new();
    for ty in ["i8", "ui8"] {
        let (starts, limits): (&[i64], &[i64]) = if ty == "i8" { (&[-128, -7, 0, 5, 120, 126], &[-100, -1, 0, 6, 100, 125]) } else { (&[0, 3, 250, 255], &[1, 4, 100, 250]) };
        for &start in starts {
            for &limit in limits {
                for step in [1, 3, 5, 127] {
                    for step_op in ["add", "subtract"] {
                        for dir in dirs {
                            cases.push(Loop { ty, start, step_op, step, dir, limit });
                        }
                    }
                }
            }
        }
    }
    for (start, limit) in [(0, 256), (3, 40), (-10, 10), (100, -3), (7, 7)] {
        for (step_op, step) in [("add", 1), ("add", 3), ("subtract", 2)] {
            for dir in dirs {
                let down = step_op == "subtract";
                // Only loops that end before the i32 counter wraps (it would take 2^32 steps).
                let ends = match dir {
                    "LT" | "LE" => !down || start > limit,
                    "GT" | "GE" => down || start < limit,
                    "EQ" => true,
                    _ => (limit - start) % step == 0 && ((limit - start) > 0) != down,
                };
                if ends {
                    cases.push(Loop { ty: "i32", start, step_op, step, dir, limit });
                }
            }
        }
    }
    for (i, l) in cases.iter().enumerate() {
        let Loop { ty, start, step_op, step, dir, limit } = *l;
        let counter_first = i % 2 == 0 || step_op == "subtract";
        let counter_lhs = i % 3 != 1;
        let dir_written = if counter_lhs {
            dir
        } else {
            // The same condition with the operands swapped.
            match dir {
                "LT" => "GT",
                "LE" => "GE",
                "GT" => "LT",
                "GE" => "LE",
                d => d,
            }
        };
        let src = loop_program(l, counter_first, dir_written, counter_lhs);
        let m = oxhlo_text::parse_module(&src, "generated").unwrap_or_else(|e| panic!("{e:?}\n{src}"));
        let ran = iterations_run(&m);
        match counts(&m).as_slice() {
            [Some(n)] => {
                assert_eq!(*n, ran, "{src}");
                known += 1;
            }
            [None] => {
                // Unknown only where the counter wraps around before the loop ends.
                assert!(wraps(ty, start, if step_op == "add" { step } else { -step }, dir, limit), "not counted:\n{src}");
                unknown += 1;
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(known > 0 && unknown > 0, "{known} known, {unknown} not");
}

/// Whether the counter leaves its type's range (wraps) before `dir limit` first fails.
fn wraps(ty: &str, start: i64, step: i64, dir: &str, limit: i64) -> bool {
    let (lo, hi) = match ty {
        "i8" => (-128, 127),
        "ui8" => (0, 255),
        _ => (i32::MIN as i64, i32::MAX as i64),
    };
    let holds = |x: i64| match dir {
        "LT" => x < limit,
        "LE" => x <= limit,
        "GT" => x > limit,
        "GE" => x >= limit,
        "EQ" => x == limit,
        _ => x != limit,
    };
    let mut x = start;
    while holds(x) {
        x += step;
        if x < lo || x > hi {
            return true;
        }
    }
    false
}
