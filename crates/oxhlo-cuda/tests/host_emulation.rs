//! The sort and top_k kernels the CUDA backend renders, run on the host: each kernel's CUDA C (its
//! prelude swapped for host definitions of the few helpers these kernels call) is compiled by the C++
//! compiler as a shared library and called as one block of one thread over every row (its loops stride
//! by `blockDim.x` and `gridDim.x`, so one thread is a valid launch and `__syncthreads` has nothing to
//! wait for). Results must equal the reference interpreter's bit for bit, for every program of
//! `tests/sorts` and `tests/sorts_jax` optimized as the plugin optimizes. This checks the bitonic
//! network, the tie-breaking, the comparators and top_k's order without a GPU (`device_values` runs the
//! same programs on one). Skips with a message where no `c++` compiler is found.

use oxhlo_cpu::{Buf, Kind, NTensor, OptLevel, OptOptions, Val};
use oxhlo_ir::{ElementType, FloatType, OpKind, TensorType};
use std::path::{Path, PathBuf};

/// Host definitions of what the sort kernels use from CUDA and from the backend's prelude.
const SHIM: &str = r#"
#include <cmath>
#include <cstring>
#define __device__
#define __forceinline__ inline
#define __global__
#define __launch_bounds__(...)
#define __shared__ static
struct OxDim { unsigned x, y, z; };
static const OxDim threadIdx = {0, 0, 0}, blockIdx = {0, 0, 0}, blockDim = {1, 1, 1}, gridDim = {1, 1, 1};
static inline void __syncthreads() {}
static inline int __float_as_int(float f) { int i; std::memcpy(&i, &f, 4); return i; }
static inline float __int_as_float(int i) { float f; std::memcpy(&f, &i, 4); return f; }
static inline long long __double_as_longlong(double d) { long long i; std::memcpy(&i, &d, 8); return i; }
static inline double __longlong_as_double(long long i) { double d; std::memcpy(&d, &i, 8); return d; }
static inline float oxh_bf16_to_f(unsigned short h) { return __int_as_float(((int)h) << 16); }
static inline float oxh_f16_to_f(unsigned short h) {
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? std::ldexp((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp((float)(m | 1024), e - 25);
  return s ? -v : v;
}
static inline int oxh_tok(float x) { int k = __float_as_int(x); return k ^ (int)((unsigned int)(k >> 31) >> 1); }
static inline long long oxh_tok(double x) { long long k = __double_as_longlong(x); return k ^ (long long)((unsigned long long)(k >> 63) >> 1); }
"#;

fn compiler() -> Option<&'static str> {
    ["c++", "g++", "clang++"].into_iter().find(|c| std::process::Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
}

/// Compiles kernel `src` for the host into `dir/name.so` and returns its entry point.
fn host_kernel(cxx: &str, src: &str, dir: &Path, name: &str) -> usize {
    let body = src.replace(oxhlo_cuda::render::PRELUDE, "");
    let cpp = dir.join(format!("{name}.cpp"));
    let so = dir.join(format!("{name}.so"));
    std::fs::write(&cpp, format!("{SHIM}{body}")).unwrap();
    let out = std::process::Command::new(cxx).args(["-std=c++17", "-O1", "-shared", "-fPIC", "-o"]).arg(&so).arg(&cpp).output().unwrap();
    assert!(out.status.success(), "{name}: the host compiler rejects the kernel:\n{}\n{body}", String::from_utf8_lossy(&out.stderr));
    let path = std::ffi::CString::new(so.to_str().unwrap()).unwrap();
    // SAFETY: dlopen/dlsym on a library this test just built; the handle is kept for the process.
    unsafe {
        let h = libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
        assert!(!h.is_null(), "{name}: dlopen failed");
        let f = libc::dlsym(h, c"oxk".as_ptr());
        assert!(!f.is_null(), "{name}: no entry point");
        f as usize
    }
}

fn ptr(b: &Buf) -> usize {
    match b {
        Buf::Bool(v) => v.as_ptr() as usize,
        Buf::I8(v) => v.as_ptr() as usize,
        Buf::I16(v) => v.as_ptr() as usize,
        Buf::I32(v) => v.as_ptr() as usize,
        Buf::I64(v) => v.as_ptr() as usize,
        Buf::U8(v) => v.as_ptr() as usize,
        Buf::U16(v) => v.as_ptr() as usize,
        Buf::U32(v) => v.as_ptr() as usize,
        Buf::U64(v) => v.as_ptr() as usize,
        Buf::F16(v) => v.as_ptr() as usize,
        Buf::BF16(v) => v.as_ptr() as usize,
        Buf::F32(v) => v.as_ptr() as usize,
        Buf::F64(v) => v.as_ptr() as usize,
        Buf::C64(v) => v.as_ptr() as usize,
        Buf::C128(v) => v.as_ptr() as usize,
    }
}

/// Calls entry `f` as `oxk(rows, args...)` (every argument 8 bytes, as the kernel's parameters are).
///
/// # Safety
/// `f` must take `1 + args.len()` such parameters, and every pointer must cover what it reads or writes.
unsafe fn call(f: usize, rows: i64, a: &[usize]) {
    type A = usize;
    // SAFETY: passed on from the caller (the arity picks the signature).
    unsafe {
        match a.len() {
            2 => std::mem::transmute::<usize, extern "C" fn(i64, A, A)>(f)(rows, a[0], a[1]),
            3 => std::mem::transmute::<usize, extern "C" fn(i64, A, A, A)>(f)(rows, a[0], a[1], a[2]),
            4 => std::mem::transmute::<usize, extern "C" fn(i64, A, A, A, A)>(f)(rows, a[0], a[1], a[2], a[3]),
            6 => std::mem::transmute::<usize, extern "C" fn(i64, A, A, A, A, A, A)>(f)(rows, a[0], a[1], a[2], a[3], a[4], a[5]),
            n => panic!("no signature for {n} pointers"),
        }
    }
}

/// Inputs with ties, signed zeros, infinities and (where the comparators order them) NaNs of both signs.
fn input(t: &TensorType, seed: u64, nans: bool) -> Buf {
    let n = t.num_elements().expect("static");
    let mut s = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1;
    let r: Vec<f32> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect();
    match &t.elem {
        ElementType::Float(FloatType::F32) => Buf::F32(
            r.iter()
                .enumerate()
                .map(|(i, &v)| match i % 11 {
                    0 if nans => f32::NAN,
                    1 if nans => -f32::NAN,
                    2 => -0.0,
                    3 => 0.0,
                    4 => f32::INFINITY,
                    5 => f32::NEG_INFINITY,
                    _ => (v * 4.0).round() / 2.0,
                })
                .collect(),
        ),
        ElementType::Float(FloatType::BF16) => Buf::BF16(r.iter().enumerate().map(|(i, &v)| half::bf16::from_f32(if i % 7 == 0 { -0.0 } else { (v * 20.0).round() / 4.0 })).collect()),
        ElementType::Int { bits: 32, signedness: oxhlo_ir::Signedness::Unsigned } => Buf::U32(r.iter().map(|&v| (v.abs() * 3e9) as u32 % 1000).collect()),
        ElementType::Int { bits: 32, .. } => Buf::I32(r.iter().map(|&v| (v * 4.0).round() as i32).collect()),
        other => panic!("no inputs for {other:?}"),
    }
}

#[test]
fn sort_and_top_k_kernels_on_the_host_match_the_interpreter_bit_for_bit() {
    let Some(cxx) = compiler() else {
        println!("skipped: no C++ compiler (c++, g++ or clang++) to build the kernels for the host");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir: PathBuf = std::env::temp_dir().join(format!("oxhlo-host-emulation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files: Vec<PathBuf> =
        ["tests/sorts", "tests/sorts_jax"].iter().flat_map(|d| std::fs::read_dir(root.join(d)).unwrap()).map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "mlir")).collect();
    files.sort();
    let mut checked = 0;
    for (n, path) in files.iter().enumerate() {
        let text = std::fs::read_to_string(path).unwrap();
        let mut m = oxhlo_text::parse_module(&text, &path.display().to_string()).expect("parses");
        oxhlo_ir::verify_module(&m).expect("verifies");
        // The programs' sorts read only the entry's arguments (and iotas of them, folded or not): each
        // sort op is checked alone, on the values the interpreter gives its operands.
        let nans = !path.to_string_lossy().contains("multikey") && !path.to_string_lossy().contains("bf16");
        let func = m.entry().unwrap().clone();
        let args: Vec<Val> =
            func.body.entry().unwrap().args.iter().enumerate().map(|(j, &a)| Val::Native(NTensor::new(func.ty(a).as_tensor().unwrap().clone(), input(func.ty(a).as_tensor().unwrap(), (n * 10 + j) as u64, nans)))).collect();
        let want = oxhlo_interp::eval::run_main(&m, args.iter().map(Val::to_rt).collect()).expect("interpreter");
        oxhlo_cuda::optimize(&mut m, &OptOptions::at(OptLevel::O2)).expect("optimizes");
        let f = m.entry().unwrap();
        let block = f.body.entry().unwrap();
        let sorts: Vec<_> = block.ops.iter().filter(|o| matches!(o.kind, OpKind::Sort | OpKind::ChloTopK)).collect();
        assert!(!sorts.is_empty(), "{path:?}: no sort left in the entry after the optimizer");
        let mut results: std::collections::HashMap<oxhlo_ir::Value, Buf> = std::collections::HashMap::new();
        for (&a, v) in block.args.iter().zip(&args) {
            results.insert(a, v.native().unwrap().buf.as_ref().clone());
        }
        for (s, op) in sorts.iter().enumerate() {
            let plan = oxhlo_cuda::sort::plan_op(f, op).unwrap_or_else(|| panic!("{path:?}: sort {s} does not run on the device"));
            let entry = host_kernel(cxx, &plan.src, &dir, &format!("k{n}_{s}"));
            // An operand that is not an argument is argsort's iota along the sort dimension (after the
            // optimizer, a broadcast of an iota): made here (a wrong guess fails the comparison below).
            for &v in &op.operands {
                results.entry(v).or_insert_with(|| {
                    let t = f.ty(v).as_tensor().unwrap();
                    let rank = t.shape.len() as i64;
                    let d = op.attr("dimension").and_then(|a| a.as_int()).map(|d| if d < 0 { d + rank } else { d }).unwrap() as usize;
                    let inner: i64 = t.shape[d + 1..].iter().product();
                    Buf::I32((0..t.num_elements().unwrap() as i64).map(|i| ((i / inner) % t.shape[d]) as i32).collect())
                });
            }
            let ins: Vec<&Buf> = op.operands.iter().map(|v| &results[v]).collect();
            let outs: Vec<Buf> = op
                .results
                .iter()
                .map(|&r| {
                    let t = f.ty(r).as_tensor().unwrap();
                    Buf::zeros(Kind::of(&t.elem).unwrap(), t.num_elements().unwrap())
                })
                .collect();
            let ptrs: Vec<usize> = ins.iter().map(|b| ptr(b)).chain(outs.iter().map(ptr)).collect();
            // SAFETY: the kernel takes (rows, inputs..., outputs...) with these element types and sizes.
            unsafe { call(entry, plan.rows, &ptrs) };
            for (&r, b) in op.results.iter().zip(outs) {
                results.insert(r, b);
            }
        }
        // The entry's results, from the kernels' outputs.
        let ret = block.ops.last().unwrap();
        assert_eq!(ret.operands.len(), want.len());
        for (k, (&v, w)) in ret.operands.iter().zip(&want).enumerate() {
            let t = f.ty(v).as_tensor().unwrap().clone();
            let got = Val::Native(NTensor::new(t, results.get(&v).unwrap_or_else(|| panic!("{path:?}: result {k} is not a sort's")).clone()));
            assert_eq!(format!("{:?}", got.to_rt()), format!("{w:?}"), "{path:?} result {k}");
        }
        checked += sorts.len();
        println!("{}: {} sorts agree bit for bit", path.display(), sorts.len());
    }
    assert!(checked >= 7, "{checked} sorts checked");
    let _ = std::fs::remove_dir_all(&dir);
}
