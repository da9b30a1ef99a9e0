//! Deterministic mutation test: thousands of seeded mutations of the corpus files (deleted, duplicated,
//! swapped and inserted bytes and tokens, truncations) must each parse to `Ok` or `Err` — never panic,
//! never hang — and whatever parses must print and parse again. Also hostile nesting depths.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

const MUTANTS: usize = 10_000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const TOKENS: &[&str] = &[
    "{", "}", "(", ")", "[", "]", "<", ">", ",", ":", "=", "->", "?", "x", "*", "-", "%0", "%arg0#7", "%0:3", "@f", "@\"q\"", "^bb0",
    "^bb1(%z: tensor<f32>):", "#loc", "#loc9", "#stablehlo<", "#stablehlo.conv<", "!stablehlo.token", "!quant.uniform<", "tensor<", "tensor<*x",
    "tuple<", "complex<", "dense<", "dense<\"0x", "array<i64:", "\"", "\\", "0x", "0x7FC00000", "1.5e300", "-0.0", "99999999999999999999",
    "18446744073709551616", "f8E4M3FN", "i1", "ui64", "tf32", "loc(", "loc(#loc1)", "callsite(", "fused[", "unknown", "// -----\n",
    "// c\n", "{-#", "#-}", "stablehlo.while", "stablehlo.reduce", "applies", "reducer", "cond", "do", "func.func", "module", "return",
    "\"stablehlo.add\"(", ") : (", "<{", "}>", "({", "})", "\u{1F600}", "\t", "\n", " ",
];

fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut b: Vec<u8> = src.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = b.len();
        match rng.below(7) {
            0 if len > 0 => {
                let at = rng.below(len);
                let n = 1 + rng.below(20);
                b.drain(at..(at + n).min(len));
            }
            1 | 2 => {
                let at = rng.below(len + 1);
                let t = TOKENS[rng.below(TOKENS.len())];
                b.splice(at..at, t.bytes());
            }
            3 if len > 0 => {
                let from = rng.below(len);
                let n = 1 + rng.below(64);
                let piece: Vec<u8> = b[from..(from + n).min(len)].to_vec();
                let at = rng.below(len + 1);
                b.splice(at..at, piece);
            }
            4 if len > 1 => {
                let (i, j) = (rng.below(len), rng.below(len));
                b.swap(i, j);
            }
            5 if len > 0 => {
                let at = rng.below(len);
                let pool = b"{}()[]<>,:=%@#!^\"0123456789abcx.-? \n";
                b[at] = pool[rng.below(pool.len())];
            }
            _ if len > 0 => {
                b.truncate(rng.below(len));
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Parses, and on success prints (pretty and generic) and parses again; panics only on a bug.
fn exercise(text: &str) -> bool {
    match oxhlo_text::parse_module(text, "m.mlir") {
        Ok(m) => {
            for generic in [false, true] {
                let opts = oxhlo_text::PrintOptions { generic, debug_info: generic };
                let printed = oxhlo_text::print_module(&m, &opts);
                let m2 = oxhlo_text::parse_module(&printed, "p.mlir").unwrap_or_else(|d| panic!("printed text fails to parse: {d}\n{printed}"));
                assert!(m2.without_locations() == m.without_locations(), "round trip changed the module:\n{printed}");
            }
            true
        }
        Err(d) => {
            let s = d.to_string();
            assert!(s.starts_with("m.mlir:") && s.contains(": error: "), "malformed diagnostic: {s}");
            false
        }
    }
}

fn sources() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "mlir")).collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let s = std::fs::read_to_string(f).unwrap();
        for (_, chunk) in oxhlo_text::split_input(&s) {
            out.push(chunk.to_string());
        }
    }
    out
}

#[test]
fn mutated_corpus_never_panics_or_hangs() {
    let srcs = sources();
    let (tx, rx) = mpsc::channel::<(usize, bool)>();
    let worker = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
            for i in 0..MUTANTS {
                let src = &srcs[rng.below(srcs.len())];
                let text = mutate(src, &mut rng);
                let r = catch_unwind(AssertUnwindSafe(|| exercise(&text)));
                match r {
                    Ok(ok) => {
                        if tx.send((i, ok)).is_err() {
                            return;
                        }
                    }
                    Err(_) => panic!("mutant #{i} panicked; input:\n{text}"),
                }
            }
        })
        .unwrap();
    let (mut ok, mut err) = (0, 0);
    for _ in 0..MUTANTS {
        match rx.recv_timeout(Duration::from_secs(20)) {
            Ok((_, true)) => ok += 1,
            Ok((_, false)) => err += 1,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("a mutant took more than 20 s (hang) after {} done", ok + err),
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    if let Err(e) = worker.join() {
        std::panic::resume_unwind(e);
    }
    assert_eq!(ok + err, MUTANTS);
    assert!(ok > 50 && err > 1000, "mutants: {ok} parsed, {err} rejected");
    eprintln!("mutation test: {ok} mutants parsed, {err} rejected");
}

#[test]
fn hostile_nesting_is_rejected_without_overflow() {
    let deep_regions = format!("func.func @f() {{\n{}\n{}}}", "\"a.b\"() ({\n".repeat(3000), "}) : () -> ()\n".repeat(3000));
    let deep_types = format!("func.func @f(%a: {}) {{ return }}", "tuple<".repeat(100_000));
    let deep_fn_types = format!("func.func @f(%a: {}f32) {{ return }}", "(".repeat(100_000));
    let deep_attrs = format!("func.func @f() attributes {{a = {}}} {{ return }}", "{b = ".repeat(50_000));
    let deep_dense = format!("func.func @f() attributes {{a = dense<{}1> : tensor<f32>}} {{ return }}", "[".repeat(100_000));
    let deep_locs = format!("func.func @f() {{ return loc({}) }}", "callsite(".repeat(100_000));
    let deep_while = format!(
        "func.func @f(%x: tensor<i32>) {{\n{}\n}}",
        "%r = stablehlo.while(%i = %x) : tensor<i32>\ncond {\n".repeat(2000)
    );
    for src in [deep_regions, deep_types, deep_fn_types, deep_attrs, deep_dense, deep_locs, deep_while] {
        let s = src.clone();
        // Run on a thread with the default test stack size.
        let r = std::thread::spawn(move || oxhlo_text::parse_module(&s, "d.mlir").map(|_| ()).map_err(|d| d.to_string())).join();
        let msg = r.expect("parser panicked").expect_err("hostile input parsed");
        assert!(msg.starts_with("d.mlir:1") || msg.starts_with("d.mlir:"), "{msg}");
    }
}
