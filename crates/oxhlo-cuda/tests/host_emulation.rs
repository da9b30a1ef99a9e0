//! The sort, top_k and several-input reduction (argmax) kernels the CUDA backend renders, run on the
//! host: each kernel's CUDA C (its
//! prelude swapped for host definitions of the few helpers these kernels call) is compiled by the C++
//! compiler as a shared library and called as one block of one thread over every row (its loops stride
//! by `blockDim.x` and `gridDim.x`, so one thread is a valid launch and `__syncthreads` has nothing to
//! wait for). Each op of every program of `tests/sorts`, `tests/sorts_jax` and
//! `tests/variadic_reduces`, optimized as the plugin optimizes, takes the operand values the
//! interpreter computes and must give the interpreter's results bit for bit. This checks the bitonic
//! network, the tie-breaking, the comparators, top_k's order and the reducers' folds without a GPU
//! (`device_values` runs the same programs on one). Skips with a message where no `c++` compiler is found.

use oxhlo_cpu::{Buf, Kind, NTensor, OptLevel, OptOptions, Val};
use oxhlo_ir::OpKind;
use std::path::{Path, PathBuf};
mod common;

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
// One thread: a shuffle reads the thread's own value (the trees never combine it with itself).
template <typename T> static inline T __shfl_down_sync(unsigned, T v, int) { return v; }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
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

/// Calls entry `f` as `oxk(rows, k, j, args...)` (a step of a sort in global memory).
///
/// # Safety
/// As for [`call`], with three scalars first.
unsafe fn call3(f: usize, rows: i64, k: i64, j: i64, a: &[usize]) {
    type A = usize;
    // SAFETY: passed on from the caller (the arity picks the signature).
    unsafe {
        match a.len() {
            3 => std::mem::transmute::<usize, extern "C" fn(i64, i64, i64, A, A, A)>(f)(rows, k, j, a[0], a[1], a[2]),
            4 => std::mem::transmute::<usize, extern "C" fn(i64, i64, i64, A, A, A, A)>(f)(rows, k, j, a[0], a[1], a[2], a[3]),
            5 => std::mem::transmute::<usize, extern "C" fn(i64, i64, i64, A, A, A, A, A)>(f)(rows, k, j, a[0], a[1], a[2], a[3], a[4]),
            13 => std::mem::transmute::<usize, extern "C" fn(i64, i64, i64, A, A, A, A, A, A, A, A, A, A, A, A, A)>(f)(rows, k, j, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]),
            n => panic!("no signature for {n} pointers"),
        }
    }
}

/// The values the interpreter gives the operands (or, with `results`, the results) of op `i` of the
/// optimized entry of `m` on `args`: the entry's return changed to return them.
fn values_at(m: &oxhlo_ir::Module, i: usize, args: &[Val], results: bool) -> Vec<Val> {
    let mut m = m.clone();
    let name = m.entry().unwrap().name.clone();
    let f = m.funcs.iter_mut().find(|f| f.name == name).unwrap();
    let op = &f.body.blocks[0].ops[i];
    let values = if results { op.results.clone() } else { op.operands.clone() };
    let types: Vec<oxhlo_ir::Type> = values.iter().map(|&v| f.ty(v).clone()).collect();
    let block = &mut f.body.blocks[0];
    let ret = block.ops.len() - 1;
    block.ops[ret].operands = values;
    f.ty.results = types;
    f.res_attrs = vec![Vec::new(); f.ty.results.len()];
    oxhlo_interp::eval::run_main(&m, args.iter().map(Val::to_rt).collect()).expect("interpreter").into_iter().map(Val::from_rt).collect()
}

/// Whether op `op` is one these tests run on the host: a sort, a top_k or a reduction of several inputs.
fn emulated(op: &oxhlo_ir::Op) -> bool {
    matches!(op.kind, OpKind::Sort | OpKind::ChloTopK) || (op.kind == OpKind::Reduce && op.operands.len() > 2)
}

#[test]
fn sort_top_k_and_argmax_kernels_on_the_host_match_the_interpreter_bit_for_bit() {
    let Some(cxx) = compiler() else {
        println!("skipped: no C++ compiler (c++, g++ or clang++) to build the kernels for the host");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir: PathBuf = std::env::temp_dir().join(format!("oxhlo-host-emulation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files: Vec<PathBuf> = ["tests/sorts", "tests/sorts_jax", "tests/variadic_reduces"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    let mut checked = 0;
    for (n, path) in files.iter().enumerate() {
        let text = std::fs::read_to_string(path).unwrap();
        let mut m = oxhlo_text::parse_module(&text, &path.display().to_string()).expect("parses");
        oxhlo_ir::verify_module(&m).expect("verifies");
        // NaNs only where the comparators order them (the multikey and bf16 sorts compare with FLOAT).
        let nans = !["multikey", "bf16", "top_k_long", "no_nans"].iter().any(|w| path.to_string_lossy().contains(w));
        let func = m.entry().unwrap().clone();
        let args: Vec<Val> =
            func.body.entry().unwrap().args.iter().enumerate().map(|(j, &a)| Val::Native(NTensor::new(func.ty(a).as_tensor().unwrap().clone(), common::sort_input(func.ty(a).as_tensor().unwrap(), (n * 10 + j) as u64, nans)))).collect();
        oxhlo_cuda::optimize(&mut m, &OptOptions::at(OptLevel::O2)).expect("optimizes");
        let f = m.entry().unwrap();
        let block = f.body.entry().unwrap();
        let targets: Vec<usize> = (0..block.ops.len()).filter(|&i| emulated(&block.ops[i])).collect();
        assert!(!targets.is_empty(), "{path:?}: nothing to emulate in the entry after the optimizer");
        for (s, &i) in targets.iter().enumerate() {
            let op = &block.ops[i];
            let ins = values_at(&m, i, &args, false);
            let want = values_at(&m, i, &args, true);
            let (src, rows, large) = if op.kind == OpKind::Reduce {
                let (src, n) = oxhlo_cuda::variadic_reduce::render(f, op).unwrap_or_else(|| panic!("{path:?}: reduce {s} stays on the host"));
                (src, n as i64, None)
            } else {
                let p = oxhlo_cuda::sort::plan_op(f, op).unwrap_or_else(|| panic!("{path:?}: sort {s} stays on the host"));
                (p.src, p.rows, p.large.then_some((p.n, p.chunk)))
            };
            let entry = host_kernel(cxx, &src, &dir, &format!("k{n}_{s}"));
            let outs: Vec<Buf> = op
                .results
                .iter()
                .map(|&r| {
                    let t = f.ty(r).as_tensor().unwrap();
                    Buf::zeros(Kind::of(&t.elem).unwrap(), t.num_elements().unwrap())
                })
                .collect();
            if let Some((n, chunk)) = large {
                // In global memory: the positions buffer between the inputs and the outputs, a call a
                // step, in the backend's order.
                let p = (n as u64).next_power_of_two() as i64;
                let pos = vec![0i32; (rows * p) as usize];
                let ptrs: Vec<usize> = ins.iter().map(|v| ptr(&v.native().unwrap().buf)).chain([pos.as_ptr() as usize]).chain(outs.iter().map(ptr)).collect();
                for (k, j) in oxhlo_cuda::sort::large_stages(p, chunk) {
                    // SAFETY: the kernel takes (rows, k, j, inputs..., positions, outputs...) with these
                    // element types and sizes.
                    unsafe { call3(entry, rows, k, j, &ptrs) };
                }
            } else {
                let ptrs: Vec<usize> = ins.iter().map(|v| ptr(&v.native().unwrap().buf)).chain(outs.iter().map(ptr)).collect();
                // SAFETY: the kernel takes (rows or result elements, inputs..., outputs...) with these
                // element types and sizes.
                unsafe { call(entry, rows, &ptrs) };
            }
            for (k, ((&r, b), w)) in op.results.iter().zip(outs).zip(&want).enumerate() {
                let got = Val::Native(NTensor::new(f.ty(r).as_tensor().unwrap().clone(), b));
                assert_eq!(common::bits(&got.to_rt()), common::bits(&w.to_rt()), "{path:?} op {s} result {k}");
            }
            checked += 1;
        }
        println!("{}: {} ops agree bit for bit", path.display(), targets.len());
    }
    assert!(checked >= 15, "{checked} ops checked");
    let _ = std::fs::remove_dir_all(&dir);
}
