//! Shared helpers of the elementwise / fusion / reduce tests: element-type tables, deterministic random
//! and edge-case inputs, running a module on the interpreter (the oracle) and on the CPU backend, and
//! comparing results (bit-exact, or within an f32 ulp bound for the fast transcendentals).

#![allow(dead_code)]

use half::{bf16, f16};
use oxhlo_cpu::{Buf, CpuOptions, CpuProgram, Kind, NTensor, Val};
use oxhlo_interp::{Data, Interpreter, RtValue, Tensor};
use oxhlo_ir::TensorType;
use oxhlo_plan::fusion::FusionOptions;

/// MLIR spelling and native kind of every real element type the backend stores natively.
pub const TYPES: &[(&str, Kind)] = &[
    ("f32", Kind::F32),
    ("f64", Kind::F64),
    ("f16", Kind::F16),
    ("bf16", Kind::BF16),
    ("i8", Kind::I8),
    ("i16", Kind::I16),
    ("i32", Kind::I32),
    ("i64", Kind::I64),
    ("ui8", Kind::U8),
    ("ui16", Kind::U16),
    ("ui32", Kind::U32),
    ("ui64", Kind::U64),
    ("i1", Kind::Bool),
];

pub fn is_float(k: Kind) -> bool {
    matches!(k, Kind::F32 | Kind::F64 | Kind::F16 | Kind::BF16)
}

pub fn is_int(k: Kind) -> bool {
    !is_float(k) && k != Kind::Bool
}

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

const FLOAT_EDGES: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    1.5,
    2.5,
    -2.5,
    3.0,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    1e-40,
    -1e-42,
    1.17549435e-38,
    65504.0,
    70000.0,
    3.0e38,
    88.72,
    -103.9,
    1e-3,
    0.625,
    20.0,
    -20.0,
];

/// `n` values of `kind`: edge cases first, then random ones (floats spread over magnitudes).
pub fn values(kind: Kind, n: usize, seed: u64) -> Buf {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let fl: Vec<f64> = (0..n)
        .map(|i| {
            if i < FLOAT_EDGES.len() && seed.is_multiple_of(2) {
                FLOAT_EDGES[i]
            } else {
                let mag = 10f64.powf(r.unit() * 8.0 - 4.0);
                let v = if r.next().is_multiple_of(3) { (r.unit() * 8.0 - 4.0).round() } else { mag };
                if r.next().is_multiple_of(2) {
                    -v
                } else {
                    v
                }
            }
        })
        .collect();
    let ints: Vec<u64> = (0..n)
        .map(|i| match (i, seed % 2) {
            (0, 0) => 0,
            (1, 0) => 1,
            (2, 0) => u64::MAX,
            (3, 0) => 0x80,
            (4, 0) => 0x7f,
            (5, 0) => 0x8000,
            (6, 0) => 0x8000_0000,
            (7, 0) => 0x8000_0000_0000_0000,
            (8, _) => 7,
            (9, _) => 63,
            (10, _) => 64,
            _ if r.next().is_multiple_of(2) => r.next() % 70,
            _ => r.next(),
        })
        .collect();
    match kind {
        Kind::F32 => Buf::F32(fl.iter().map(|&x| x as f32).collect()),
        Kind::F64 => Buf::F64(fl),
        Kind::F16 => Buf::F16(fl.iter().map(|&x| f16::from_f64(x)).collect()),
        Kind::BF16 => Buf::BF16(fl.iter().map(|&x| bf16::from_f64(x)).collect()),
        Kind::I8 => Buf::I8(ints.iter().map(|&x| x as i8).collect()),
        Kind::I16 => Buf::I16(ints.iter().map(|&x| x as i16).collect()),
        Kind::I32 => Buf::I32(ints.iter().map(|&x| x as i32).collect()),
        Kind::I64 => Buf::I64(ints.iter().map(|&x| x as i64).collect()),
        Kind::U8 => Buf::U8(ints.iter().map(|&x| x as u8).collect()),
        Kind::U16 => Buf::U16(ints.iter().map(|&x| x as u16).collect()),
        Kind::U32 => Buf::U32(ints.iter().map(|&x| x as u32).collect()),
        Kind::U64 => Buf::U64(ints),
        Kind::Bool => Buf::Bool(ints.iter().map(|&x| x % 2 == 1).collect()),
        Kind::C64 | Kind::C128 => Buf::zeros(kind, n),
    }
}

/// A native tensor of `shape` holding `buf`, with the element type spelled `ty`.
pub fn tensor(ty: &str, shape: &[i64], buf: Buf) -> NTensor {
    let m = oxhlo_text::parse_module(
        &format!("func.func @main(%a: tensor<{ty}>) -> tensor<{ty}> {{\n  return %a : tensor<{ty}>\n}}"),
        "t.mlir",
    )
    .expect("type parses");
    let elem = match m.funcs[0].ty.inputs[0].as_tensor() {
        Some(t) => t.elem.clone(),
        None => panic!("not a tensor type"),
    };
    NTensor::new(TensorType::new(shape.to_vec(), elem), buf)
}

/// Runs `src`'s @main on the interpreter.
pub fn run_interp(src: &str, inputs: &[NTensor]) -> Result<Vec<Tensor>, String> {
    let m = oxhlo_text::parse_module(src, "case.mlir").map_err(|e| format!("{e:?}"))?;
    let args: Vec<RtValue> = inputs.iter().map(|t| RtValue::Tensor(t.to_interp())).collect();
    let out = Interpreter::new(&m).run_func("main", args).map_err(|e| e.to_string())?;
    Ok(out
        .into_iter()
        .map(|v| match v {
            RtValue::Tensor(t) => t,
            other => panic!("non-tensor result {other:?}"),
        })
        .collect())
}

/// Runs `src`'s @main on the CPU backend (verified first) with fusion on or off.
pub fn run_cpu(src: &str, inputs: &[NTensor], fusion: bool, threads: usize) -> Result<Vec<Tensor>, String> {
    run_cpu_with(src, inputs, FusionOptions { enabled: fusion, aggressive: false, recompute: false, recompute_costly: false, rows: false, max_params: 0, sibling_reductions: 0 }, threads)
}

/// [`run_cpu`] with these fusion options.
pub fn run_cpu_with(src: &str, inputs: &[NTensor], fusion: FusionOptions, threads: usize) -> Result<Vec<Tensor>, String> {
    let m = oxhlo_text::parse_module(src, "case.mlir").map_err(|e| format!("{e:?}"))?;
    oxhlo_ir::verify_module(&m).map_err(|e| format!("verify: {e:?}"))?;
    let opts = CpuOptions { fusion, threads, ..CpuOptions::default() };
    let p = CpuProgram::compile(m, &opts)?;
    let out = p.run(inputs.iter().cloned().map(Val::Native).collect()).map_err(|e| e.to_string())?;
    Ok(out
        .into_iter()
        .map(|v| match v.to_rt() {
            RtValue::Tensor(t) => t,
            other => panic!("non-tensor result {other:?}"),
        })
        .collect())
}

/// Distance in f32 ulps (0 for equal values or two NaNs).
pub fn f32_ulps(a: f64, b: f64) -> u64 {
    if a.is_nan() && b.is_nan() {
        return 0;
    }
    if a.is_nan() || b.is_nan() {
        return u64::MAX;
    }
    let key = |x: f32| {
        let b = x.to_bits() as i64;
        if b < 0 {
            i64::MIN - b
        } else {
            b
        }
    };
    let (x, y) = (key(a as f32), key(b as f32));
    x.abs_diff(y)
}

/// Compares results: exact (NaNs equal, -0 != +0) unless `ulps` > 0, then floats within that many f32
/// ulps; `rel` > 0 allows a relative error instead (reassociated sums). Returns a description of the
/// first difference.
pub fn compare(got: &Tensor, want: &Tensor, ulps: u64, rel: f64) -> Result<(), String> {
    if got.ty.shape != want.ty.shape || got.ty.elem != want.ty.elem {
        return Err(format!("type differs: {:?} vs {:?}", got.ty, want.ty));
    }
    match (&got.data, &want.data) {
        (Data::Float(g), Data::Float(w)) => {
            for (i, (&a, &b)) in g.iter().zip(w).enumerate() {
                let same = (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits();
                if same {
                    continue;
                }
                if ulps > 0 && f32_ulps(a, b) <= ulps {
                    continue;
                }
                if rel > 0.0 && (a - b).abs() <= rel * b.abs().max(1.0) {
                    continue;
                }
                return Err(format!("element {i}: got {a:e}, want {b:e}"));
            }
            Ok(())
        }
        (g, w) if g == w => Ok(()),
        (g, w) => Err(format!("got {g:?}\nwant {w:?}")),
    }
}
