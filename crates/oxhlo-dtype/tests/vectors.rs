//! Checks oxhlo-dtype against the vectors in tests/vectors/, produced by
//! independent implementations (ml_dtypes, numpy, XLA on CPU) with
//! tests/gen_vectors.py. Each test reports how many vectors it checked.

use oxhlo_dtype::*;
use std::path::PathBuf;

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("vectors")
}

/// The non-comment lines of a vector file, split on whitespace.
fn rows(name: &str) -> Vec<Vec<String>> {
    let path = vectors_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s, 16).unwrap_or_else(|e| panic!("bad hex {s}: {e}"))
}

fn narrow_formats() -> Vec<FloatFormat> {
    ALL_FORMATS.iter().copied().filter(|f| f.total_bits() <= 8).collect()
}

/// Same value, or both NaN with the same sign.
fn same_f64(got: f64, want: f64) -> bool {
    if want.is_nan() {
        got.is_nan() && got.is_sign_negative() == want.is_sign_negative()
    } else {
        got.to_bits() == want.to_bits()
    }
}

#[test]
fn decode_every_narrow_pattern() {
    let mut n = 0;
    for f in narrow_formats() {
        let rows = rows(&format!("decode_{}.txt", f.name()));
        assert_eq!(rows.len(), 1 << f.total_bits(), "{}", f.name());
        for r in rows {
            let (bits, want) = (hex(&r[0]), f64::from_bits(hex(&r[1])));
            let got = decode(&f, bits);
            assert!(same_f64(got, want), "{} decode {bits:#x}: got {got:e}, want {want:e}", f.name());
            n += 1;
        }
    }
    for r in rows("decode_f16.txt") {
        let (bits, want) = (hex(&r[0]), f64::from_bits(hex(&r[1])));
        let got = decode(&F16, bits);
        // numpy keeps NaN payloads; so do we (no quieting on decode).
        assert_eq!(got.to_bits(), want.to_bits(), "f16 decode {bits:#x}");
        n += 1;
    }
    println!("decode vectors checked: {n}");
}

fn check_encode_file(file: &str, f: &FloatFormat, from_f32: bool) -> usize {
    let mut n = 0;
    for r in rows(file) {
        let (input, want) = (hex(&r[0]), hex(&r[1]));
        let got = if from_f32 {
            encode_f32(f, f32::from_bits(input as u32))
        } else {
            encode(f, f64::from_bits(input))
        };
        let x = if from_f32 { f64::from(f32::from_bits(input as u32)) } else { f64::from_bits(input) };
        assert_eq!(got, want, "{file}: encode({x:e} = {input:#x}) got {got:#x} want {want:#x}");
        n += 1;
    }
    n
}

#[test]
fn encode_f32_inputs_match_ml_dtypes() {
    let mut n = 0;
    for f in narrow_formats() {
        n += check_encode_file(&format!("encode_f32_{}.txt", f.name()), &f, true);
    }
    n += check_encode_file("encode_f32_bf16.txt", &BF16, true);
    println!("f32 encode vectors checked: {n}");
}

#[test]
fn encode_f64_inputs_match_xla_and_numpy() {
    let mut n = 0;
    for f in narrow_formats() {
        let file = format!("encode_f64_{}.txt", f.name());
        if vectors_dir().join(&file).exists() {
            n += check_encode_file(&file, &f, false);
        }
    }
    n += check_encode_file("encode_f64_f16.txt", &F16, false);
    n += check_encode_file("encode_f64_f32.txt", &F32, false);
    // Every XLA-supported narrow format has f64 vectors (F6 formats do not).
    assert!(n > 9 * 2000, "too few f64 encode vectors: {n}");
    println!("f64 encode vectors checked: {n}");
}

#[test]
fn reduce_precision_matches_xla() {
    let mut n = 0;
    for (file, f) in [
        ("reduce_precision_f32.txt", F32),
        ("reduce_precision_f64.txt", F64),
        ("reduce_precision_f16.txt", F16),
        ("reduce_precision_bf16.txt", BF16),
    ] {
        for r in rows(file) {
            let e: i32 = r[0].parse().unwrap();
            let m: i32 = r[1].parse().unwrap();
            let (input, want) = (hex(&r[2]), hex(&r[3]));
            let got = reduce_precision(&f, input, e, m);
            assert_eq!(got, want, "{file}: e={e} m={m} input {input:#x}: got {got:#x} want {want:#x}");
            if f == F32 {
                assert_eq!(reduce_precision_f32(f32::from_bits(input as u32), e, m).to_bits() as u64, want);
            }
            if f == F64 {
                assert_eq!(reduce_precision_f64(f64::from_bits(input), e, m).to_bits(), want);
            }
            n += 1;
        }
    }
    println!("reduce_precision vectors checked: {n}");
}

fn int_type(name: &str) -> (bool, u32) {
    let signed = name.starts_with('s');
    (signed, name[1..].parse().unwrap())
}

#[test]
fn float_to_int_matches_xla() {
    let mut n = 0;
    for r in rows("float_to_int.txt") {
        let x = f64::from_bits(hex(&r[2]));
        let (signed, width) = int_type(&r[1]);
        if signed {
            let want: i64 = r[3].parse().unwrap();
            assert_eq!(float_to_signed(x, width), want, "{} -> {}: {x:e}", r[0], r[1]);
        } else {
            let want: u64 = r[3].parse().unwrap();
            assert_eq!(float_to_unsigned(x, width), want, "{} -> {}: {x:e}", r[0], r[1]);
        }
        n += 1;
    }
    println!("float -> int vectors checked: {n}");
}

#[test]
fn int_to_float_matches_xla() {
    let mut n = 0;
    for r in rows("int_to_float.txt") {
        let f = FloatFormat::by_name(&r[1]).unwrap_or_else(|| panic!("unknown format {}", r[1]));
        let v: i128 = r[2].parse().unwrap();
        let want = hex(&r[3]);
        let got = encode_i128(&f, v);
        assert_eq!(got, want, "{} {v} -> {}: got {got:#x} want {want:#x}", r[0], r[1]);
        n += 1;
    }
    println!("int -> float vectors checked: {n}");
}

#[test]
fn tf32_encode_is_f32_reduce_precision() {
    // TF32 keeps f32's exponent and 10 mantissa bits: for f32 inputs its
    // rounding is reduce_precision(8, 10) (itself checked against XLA above)
    // with the 13 dropped bits removed.
    let mut n = 0;
    for r in rows("reduce_precision_f32.txt") {
        let x = f32::from_bits(hex(&r[2]) as u32);
        if x.is_nan() {
            continue;
        }
        let want = u64::from(reduce_precision_f32(x, 8, 10).to_bits()) >> 13;
        assert_eq!(encode_f32(&TF32, x), want, "tf32 {x:e}");
        n += 1;
    }
    println!("tf32 vectors checked: {n}");
}
