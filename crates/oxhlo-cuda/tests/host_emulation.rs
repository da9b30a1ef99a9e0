//! The kernels the CUDA backend renders for sorts, top_k, several-input reductions (argmax), windowed
//! ops, dynamic slices and updates, next_after / reduce_precision, scatters, cholesky and
//! triangular_solve, and row kernels (softmax, layer norm: within 1e-5 of the interpreter, the rest bit
//! for bit), run on the host: each kernel's CUDA C (its prelude swapped for host definitions of
//! the few helpers these kernels call) is compiled by the C++ compiler as a shared library and run as
//! one block of as many threads as the backend launches (OS threads: `__shared__` arrays are static,
//! `__syncthreads` a barrier of the block, `__shfl_down_sync` / `__shfl_xor_sync` / `__shfl_sync` / `__ballot_sync` an exchange through slots between two
//! barriers of the warp, atomics on C++20 `atomic_ref`) over every row (the kernels' loops stride by
//! `gridDim.x`, so one block is a valid launch). Each such op of every program of `tests/sorts`,
//! `tests/sorts_jax`, `tests/variadic_reduces`, `tests/windows`, `tests/float_steps`, `tests/linalg`
//! and `tests/scatters`, and of the conformance suite's window, slice, sort and scatter cases,
//! optimized as the plugin optimizes, takes the operand values the interpreter computes and must give
//! the interpreter's results bit for bit (a dynamic_update_slice also in its in-place form, over a copy
//! of its operand). This checks the bitonic network, the tie-breaking, the comparators, top_k's order,
//! the reducers' folds, the update computations and the factorizations' arithmetic without a GPU
//! (`device_values` runs the same programs on one). Skips with a message where no `c++` compiler is found.

use oxhlo_cpu::{Buf, Kind, NTensor, OptLevel, OptOptions, Val};
use oxhlo_ir::OpKind;
use std::path::{Path, PathBuf};
mod common;

/// Host definitions of what the kernels use from CUDA (and of the prelude's two PTX functions): a block
/// of `blockDim.x` threads (see the module doc).
const SHIM: &str = r#"
#include <algorithm>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstring>
#include <memory>
#include <thread>
#include <utility>
#include <vector>
#define __device__
#define __forceinline__ inline
#define __global__
#define __launch_bounds__(...)
#define __shared__ static
#define __align__(n) alignas(n)
struct OxDim { unsigned x, y, z; };
static thread_local OxDim threadIdx = {0, 0, 0};
static OxDim blockIdx = {0, 0, 0}, blockDim = {1, 1, 1}, gridDim = {1, 1, 1};
static std::barrier<>* ox_block;
static std::vector<std::unique_ptr<std::barrier<>>> ox_warps;
static unsigned long long ox_slots[1024];
static inline void __syncthreads() { ox_block->arrive_and_wait(); }
// Every lane of the warp calls it: each publishes its value, then reads lane + off's (its own past the warp).
template <typename T> static inline T __shfl_down_sync(unsigned, T v, int off) {
  const unsigned t = threadIdx.x, lane = t & 31;
  std::barrier<>& warp = *ox_warps[t / 32];
  std::memcpy(&ox_slots[t], &v, sizeof(T));
  warp.arrive_and_wait();
  const unsigned from = lane + off < 32 && t + off < blockDim.x ? t + off : t;
  T r;
  std::memcpy(&r, &ox_slots[from], sizeof(T));
  warp.arrive_and_wait();
  return r;
}
// The same, from lane `src` of the warp.
template <typename T> static inline T __shfl_sync(unsigned, T v, int src) {
  const unsigned t = threadIdx.x;
  std::barrier<>& warp = *ox_warps[t / 32];
  std::memcpy(&ox_slots[t], &v, sizeof(T));
  warp.arrive_and_wait();
  const unsigned from = t - (t & 31) + (unsigned)(src & 31);
  T r;
  std::memcpy(&r, &ox_slots[from < blockDim.x ? from : t], sizeof(T));
  warp.arrive_and_wait();
  return r;
}
// The same, from lane ^ mask.
template <typename T> static inline T __shfl_xor_sync(unsigned, T v, int mask) {
  const unsigned t = threadIdx.x, lane = t & 31;
  std::barrier<>& warp = *ox_warps[t / 32];
  std::memcpy(&ox_slots[t], &v, sizeof(T));
  warp.arrive_and_wait();
  const unsigned from = (lane ^ mask) < 32 && t - lane + (lane ^ mask) < blockDim.x ? t - lane + (lane ^ mask) : t;
  T r;
  std::memcpy(&r, &ox_slots[from], sizeof(T));
  warp.arrive_and_wait();
  return r;
}
// Every lane of the warp calls it: each publishes its predicate, then reads the warp's.
static inline unsigned __ballot_sync(unsigned, int pred) {
  const unsigned t = threadIdx.x, lane = t & 31, w0 = t - lane;
  std::barrier<>& warp = *ox_warps[t / 32];
  ox_slots[t] = pred != 0;
  warp.arrive_and_wait();
  unsigned r = 0;
  for (unsigned l = 0; l < 32 && w0 + l < blockDim.x; ++l) r |= (unsigned)ox_slots[w0 + l] << l;
  warp.arrive_and_wait();
  return r;
}
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
static inline long long max(long long a, long long b) { return a > b ? a : b; }
static inline int __float_as_int(float f) { int i; std::memcpy(&i, &f, 4); return i; }
static inline float __int_as_float(int i) { float f; std::memcpy(&f, &i, 4); return f; }
static inline unsigned int __float_as_uint(float f) { unsigned int i; std::memcpy(&i, &f, 4); return i; }
static inline float __uint_as_float(unsigned int i) { float f; std::memcpy(&f, &i, 4); return f; }
static inline long long __double_as_longlong(double d) { long long i; std::memcpy(&i, &d, 8); return i; }
static inline double __longlong_as_double(long long i) { double d; std::memcpy(&d, &i, 8); return d; }
using std::signbit;
// Round-to-nearest arithmetic (what the backend writes to keep NVRTC from contracting into FMAs): the
// host's ISO C++ arithmetic does not contract.
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline float __frcp_rn(float a) { return 1.0f / a; }
static inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __dsub_rn(double a, double b) { return a - b; }
// Atomics on the host's memory (scatters): C++20's atomic_ref over the same element.
#include <atomic>
template <typename T> static inline T atomicCAS(T* p, T expected, T desired) { std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired); return expected; }
template <typename T, typename U> static inline T atomicAdd(T* p, U v) { return std::atomic_ref<T>(*p).fetch_add((T)v); }
template <typename T, typename U> static inline T atomicMax(T* p, U v) {
  std::atomic_ref<T> a(*p); T old = a.load();
  while (old < (T)v && !a.compare_exchange_weak(old, (T)v)) {}
  return old;
}
struct uint2 { unsigned int x, y; };
struct float2 { float x, y; };
struct double2 { double x, y; };
static inline float2 make_float2(float x, float y) { return {x, y}; }
static inline double2 make_double2(double x, double y) { return {x, y}; }
static inline unsigned long long __brevll(unsigned long long x) { unsigned long long r = 0; for (int b = 0; b < 64; ++b) r |= ((x >> b) & 1ULL) << (63 - b); return r; }
struct uint4 { unsigned int x, y, z, w; };
// The prelude's f16 conversions are PTX instructions: the host's _Float16 (round to nearest even) instead.
static inline float oxh_f16_to_f(unsigned short h) { _Float16 f; std::memcpy(&f, &h, 2); return (float)f; }
static inline unsigned short oxh_f_to_f16(float x) { _Float16 f = (_Float16)x; unsigned short h; std::memcpy(&h, &f, 2); return h; }
"#;

/// After the kernel: `oxrun(threads, words)` runs `oxk` as one block of `threads` threads, its
/// parameters (every one 8 bytes: scalars, then pointers) taken in order from `words`.
const RUNNER: &str = r#"
template <typename T> static T ox_word(void* const* w, std::size_t i) { T t; std::memcpy(&t, &w[i], sizeof(T)); return t; }
template <typename... A, std::size_t... I> static void ox_call(void (*f)(A...), void* const* w, std::index_sequence<I...>) { f(ox_word<A>(w, I)...); }
template <typename... A> static void ox_call_all(void (*f)(A...), void* const* w) { ox_call(f, w, std::index_sequence_for<A...>{}); }
extern "C" void oxrun(unsigned threads, void* const* words) {
  blockDim.x = threads;
  std::barrier<> block(threads);
  ox_block = &block;
  ox_warps.clear();
  for (unsigned w = 0; w * 32 < threads; ++w) ox_warps.emplace_back(new std::barrier<>(std::min(32u, threads - w * 32)));
  std::vector<std::thread> ts;
  for (unsigned t = 0; t < threads; ++t) ts.emplace_back([t, words] { threadIdx.x = t; ox_call_all(oxk, words); });
  for (auto& t : ts) t.join();
}
"#;

fn compiler() -> Option<&'static str> {
    ["c++", "g++", "clang++"].into_iter().find(|c| std::process::Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
}

/// The host's C++ compiler and a fresh folder named after `tag` for the kernels built with it; None
/// (the test skips, saying why) when there is no compiler.
fn host_compiler_and_dir(tag: &str) -> Option<(&'static str, PathBuf)> {
    let Some(cxx) = compiler() else {
        println!("skipped: no C++ compiler (c++, g++ or clang++) to build the kernels for the host");
        return None;
    };
    let dir = std::env::temp_dir().join(format!("oxhlo-host-emulation-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    Some((cxx, dir))
}

/// Compiles kernel `src` for the host into `dir/name.so` and returns its entry point.
fn host_kernel(cxx: &str, src: &str, dir: &Path, name: &str) -> usize {
    // The backend's prelude, its PTX lines aside (the shim defines those functions for the host).
    let prelude: String = oxhlo_cuda::render::PRELUDE.lines().filter(|l| !l.contains("asm(")).map(|l| format!("{l}\n")).collect();
    let body = src.replace(oxhlo_cuda::render::PRELUDE, &prelude);
    let cpp = dir.join(format!("{name}.cpp"));
    let so = dir.join(format!("{name}.so"));
    std::fs::write(&cpp, format!("{SHIM}{body}{RUNNER}")).unwrap();
    let out = std::process::Command::new(cxx).args(["-std=c++20", "-O1", "-pthread", "-shared", "-fPIC", "-o"]).arg(&so).arg(&cpp).output().unwrap();
    assert!(out.status.success(), "{name}: the host compiler rejects the kernel:\n{}\n{body}", String::from_utf8_lossy(&out.stderr));
    let path = std::ffi::CString::new(so.to_str().unwrap()).unwrap();
    // SAFETY: dlopen/dlsym on a library this test just built; the handle is kept for the process.
    unsafe {
        let h = libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
        assert!(!h.is_null(), "{name}: dlopen failed");
        let f = libc::dlsym(h, c"oxrun".as_ptr());
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

/// Runs a kernel through its `oxrun` entry `f` as one block of `threads` threads on parameters `words`
/// (scalars, then pointers, each 8 bytes).
///
/// # Safety
/// `words` must match the kernel's parameters in number and order, and every pointer must cover what
/// the kernel reads or writes through it.
unsafe fn run(f: usize, threads: u32, words: &[usize]) {
    // SAFETY: `oxrun(unsigned, void* const*)` as RUNNER defines it; the rest is passed on from the caller.
    unsafe { std::mem::transmute::<usize, extern "C" fn(u32, *const usize)>(f)(threads, words.as_ptr()) }
}

/// The values the interpreter gives the operands (or, with `results`, the results) of op `i` of the
/// optimized entry of `m` on `args`: the entry's return changed to return them.
fn values_at(m: &oxhlo_ir::Module, i: usize, args: &[Val], results: bool) -> Vec<Val> {
    let op = &m.entry().unwrap().body.blocks[0].ops[i];
    values_of(m, if results { &op.results } else { &op.operands }, args)
}

/// The values the interpreter gives `values` (of the entry's first block of `m`) on `args`: the entry's
/// return changed to return them.
fn values_of(m: &oxhlo_ir::Module, values: &[oxhlo_ir::Value], args: &[Val]) -> Vec<Val> {
    let mut m = m.clone();
    let name = m.entry().unwrap().name.clone();
    let f = m.funcs.iter_mut().find(|f| f.name == name).unwrap();
    let values = values.to_vec();
    let types: Vec<oxhlo_ir::Type> = values.iter().map(|&v| f.ty(v).clone()).collect();
    let block = &mut f.body.blocks[0];
    let ret = block.ops.len() - 1;
    block.ops[ret].operands = values;
    f.ty.results = types;
    f.res_attrs = vec![Vec::new(); f.ty.results.len()];
    oxhlo_interp::eval::run_main(&m, args.iter().map(Val::to_rt).collect()).expect("interpreter").into_iter().map(Val::from_rt).collect()
}

/// Whether op `op` is one these tests run on the host: a sort, a top_k, a reduction of several inputs, a
/// windowed op, a dynamic slice or update, reduce_precision, or next_after (as a one-op elementwise
/// kernel).
fn emulated(op: &oxhlo_ir::Op) -> bool {
    matches!(
        op.kind,
        OpKind::Sort | OpKind::ChloTopK | OpKind::ReduceWindow | OpKind::SelectAndScatter | OpKind::DynamicSlice | OpKind::DynamicUpdateSlice | OpKind::ChloNextAfter | OpKind::ReducePrecision | OpKind::Cholesky | OpKind::TriangularSolve | OpKind::Scatter | OpKind::Fft
    ) || (op.kind == OpKind::Reduce && op.operands.len() > 2)
}

/// Whether `op` is a reduction the CUDA backend takes to `variadic_reduce` (several inputs, or complex
/// numbers).
fn variadic(f: &oxhlo_ir::Func, op: &oxhlo_ir::Op) -> bool {
    oxhlo_cuda::variadic_reduce::takes(f, op)
}

/// Runs scatter `op`'s kernel (a thread an update element over the result, which starts as the input:
/// the backend's copy, or the input's own buffer), then for a `set` whose updates may collide its
/// second launch over the zeroed marks, and asserts the result is `want` bit for bit.
#[allow(clippy::too_many_arguments)]
fn check_scatter(cxx: &str, dir: &Path, tag: &str, label: &str, f: &oxhlo_ir::Func, op: &oxhlo_ir::Op, ins: &[Val], want: &Val) {
    let src = scatter_kernel(f, op).unwrap_or_else(|| panic!("{label}: scatter stays on the host"));
    let shapes: Vec<(&[i64], Kind)> = op.operands.iter().map(|&v| (f.ty(v).as_tensor().unwrap().shape.as_slice(), Kind::of(&f.ty(v).as_tensor().unwrap().elem).unwrap())).collect();
    let rt = f.ty(op.results[0]).as_tensor().unwrap().clone();
    let last = oxhlo_cuda::gather_scatter::render_last_writes(f, op, &shapes, &rt.shape);
    let out: Buf = (*ins[0].native().unwrap().buf).clone();
    let mut win = vec![0i64; rt.num_elements().unwrap()];
    let mut words: Vec<usize> = vec![ins[2].native().unwrap().len(), ptr(&ins[2].native().unwrap().buf), ptr(&ins[1].native().unwrap().buf), ptr(&out)];
    if last.is_some() {
        words.push(win.as_mut_ptr() as usize);
    }
    for (j, k) in std::iter::once(&src).chain(last.as_ref()).enumerate() {
        let entry = host_kernel(cxx, k, dir, &format!("{tag}_{j}"));
        // SAFETY: the kernels take (update elements, updates, indices, result[, marks]) of these sizes.
        unsafe { run(entry, 64, &words) };
    }
    let float = rt.elem.is_float();
    let got = Val::Native(NTensor::new(rt, out));
    // Float sums and products of colliding updates combine in the order the threads reach the atomics
    // (the spec leaves it open): those agree to rounding, everything else bit for bit.
    let body = op.regions[0].blocks[0].ops.first().map(|o| o.kind);
    if float && matches!(body, Some(OpKind::Add | OpKind::Multiply)) {
        let (g, w) = (common::as_f64(&got.to_rt()), common::as_f64(&want.to_rt()));
        for (k, (a, b)) in g.iter().zip(&w).enumerate() {
            assert!(a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-6 * b.abs().max(1.0), "{label} element {k}: {a} vs {b}");
        }
        return;
    }
    assert_eq!(common::bits(&got.to_rt()), common::bits(&want.to_rt()), "{label}");
}

/// Runs fft `op`'s launches (`fft::plan`) in order over host buffers (the operand `x`, two work
/// buffers, the scratch, the result) and asserts the result is `want` bit for bit.
#[allow(clippy::too_many_arguments)]
fn check_fft(cxx: &str, dir: &Path, tag: &str, label: &str, f: &oxhlo_ir::Func, op: &oxhlo_ir::Op, x: &Val, want: &Val) {
    use oxhlo_cuda::fft::Buffer;
    let p = oxhlo_cuda::fft::plan(f, op).unwrap_or_else(|| panic!("{label}: fft stays on the host"));
    let (mut work, mut work2, mut scratch) = (vec![0f64; 2 * p.work], vec![0f64; 2 * p.work], vec![0f64; 2 * p.scratch.max(1)]);
    let rt = f.ty(op.results[0]).as_tensor().unwrap().clone();
    let out = Buf::zeros(Kind::of(&rt.elem).unwrap(), rt.num_elements().unwrap());
    for (j, l) in p.launches.iter().enumerate() {
        let entry = host_kernel(cxx, &l.src, dir, &format!("{tag}_{j}"));
        let words: Vec<usize> = [l.items]
            .into_iter()
            .chain(l.buffers.iter().map(|b| match b {
                Buffer::Operand => ptr(&x.native().unwrap().buf),
                Buffer::Work => work.as_mut_ptr() as usize,
                Buffer::Work2 => work2.as_mut_ptr() as usize,
                Buffer::Scratch => scratch.as_mut_ptr() as usize,
                Buffer::Result => ptr(&out),
            }))
            .collect();
        // SAFETY: each launch takes (items, its buffers in this order), every buffer as large as the plan
        // sizes it.
        unsafe { run(entry, l.threads.unwrap_or(64), &words) };
    }
    let got = Val::Native(NTensor::new(rt, out));
    assert_eq!(common::bits(&got.to_rt()), common::bits(&want.to_rt()), "{label}");
}

/// Runs cholesky or triangular_solve `op`'s launches in order on operands `ins` (each launch one block
/// striding over its blocks) and asserts the result is `want` bit for bit: a cholesky with each of its
/// panels' forms.
#[allow(clippy::too_many_arguments)]
fn check_linalg(cxx: &str, dir: &Path, tag: &str, label: &str, f: &oxhlo_ir::Func, op: &oxhlo_ir::Op, ins: &[Val], want: &Val) {
    if op.kind == OpKind::Cholesky {
        for (i, steps) in oxhlo_cuda::linalg::PanelSteps::ALL.into_iter().enumerate() {
            let p = oxhlo_cuda::linalg::plan_cholesky(f, op, steps).unwrap_or_else(|| panic!("{label}: cholesky stays on the host"));
            check_linalg_plan(cxx, dir, &format!("{tag}_{i}"), &format!("{label} ({steps:?})"), f, op, &p, ins, want);
        }
        return;
    }
    let p = oxhlo_cuda::linalg::plan(f, op).unwrap_or_else(|| panic!("{label}: {} stays on the host", op.name()));
    check_linalg_plan(cxx, dir, tag, label, f, op, &p, ins, want);
}

/// [`check_linalg`] of plan `p`.
#[allow(clippy::too_many_arguments)]
fn check_linalg_plan(cxx: &str, dir: &Path, tag: &str, label: &str, f: &oxhlo_ir::Func, op: &oxhlo_ir::Op, p: &oxhlo_cuda::linalg::Plan, ins: &[Val], want: &Val) {
    let entries: Vec<_> = p.kernels.iter().enumerate().map(|(j, src)| host_kernel(cxx, src, dir, &format!("{tag}_{j}"))).collect();
    let mut work = vec![0f64; p.work];
    let rt = f.ty(op.results[0]).as_tensor().unwrap().clone();
    let out = Buf::zeros(Kind::of(&rt.elem).unwrap(), rt.num_elements().unwrap());
    for l in &p.launches {
        let words: Vec<usize> = [l.blocks, l.k0 as usize].into_iter().chain(ins.iter().map(|v| ptr(&v.native().unwrap().buf))).chain([work.as_mut_ptr() as usize, ptr(&out)]).collect();
        // SAFETY: every kernel takes (blocks, k0, operands..., work, result), the work buffer sized by
        // the plan.
        unsafe { run(entries[l.kernel], oxhlo_cuda::linalg::THREADS, &words) };
    }
    let got = Val::Native(NTensor::new(rt, out));
    assert_eq!(common::bits(&got.to_rt()), common::bits(&want.to_rt()), "{label}");
}

/// Whether `op` is an elementwise op (one-op kernel) reading or writing complex numbers.
fn complex_elementwise(f: &oxhlo_ir::Func, op: &oxhlo_ir::Op) -> bool {
    let complex = |v: &oxhlo_ir::Value| f.ty(*v).as_tensor().is_some_and(|t| t.elem.is_complex());
    let elementwise = oxhlo_plan::fusion::ew_class(op.kind).is_some() || matches!(op.kind, OpKind::Real | OpKind::Imag | OpKind::Complex);
    op.regions.is_empty() && elementwise && op.operands.iter().chain(&op.results).any(complex)
}

/// The backend's kernel of scatter `op` (None when it stays on the host).
fn scatter_kernel(f: &oxhlo_ir::Func, op: &oxhlo_ir::Op) -> Option<String> {
    let shapes: Vec<(&[i64], Kind)> = op.operands.iter().map(|&v| Some((f.ty(v).as_tensor()?.shape.as_slice(), Kind::of(&f.ty(v).as_tensor()?.elem)?))).collect::<Option<_>>()?;
    oxhlo_cuda::gather_scatter::render_op(f, op, &shapes, &f.ty(op.results[0]).as_tensor()?.shape)
}

/// Runs every emulated op of optimized module `m`'s entry as the backend would on the host ([`run`]),
/// on the operand values the interpreter computes from `args`, and asserts its results are the
/// interpreter's bit for bit. Kernels build in `dir` named after `tag`; `label` names the program in
/// messages. Ops on empty tensors (which stay on the host) are left out, and with `host_scatters` the
/// scatters that stay on the host. Returns the ops checked.
fn check_entry_ops(cxx: &str, dir: &Path, tag: &str, label: &str, m: &oxhlo_ir::Module, args: &[Val], host_scatters: bool) -> usize {
    let f = m.entry().unwrap();
    let block = f.body.entry().unwrap();
    let empty = |v: &oxhlo_ir::Value| f.ty(*v).as_tensor().is_some_and(|t| t.num_elements() == Some(0));
    // With `host_scatters`, scatters that stay on the host (of bytes, complex numbers, several operands)
    // are left out.
    let left_out = |op: &oxhlo_ir::Op| host_scatters && op.kind == OpKind::Scatter && scatter_kernel(f, op).is_none();
    let targets: Vec<usize> = (0..block.ops.len()).filter(|&i| (emulated(&block.ops[i]) || complex_elementwise(f, &block.ops[i]) || variadic(f, &block.ops[i])) && !left_out(&block.ops[i]) && !block.ops[i].operands.iter().chain(&block.ops[i].results).any(empty)).collect();
    for (s, &i) in targets.iter().enumerate() {
        let op = &block.ops[i];
        let mut ins = values_at(m, i, args, false);
        let want = values_at(m, i, args, true);
        if op.kind == OpKind::Fft {
            check_fft(cxx, dir, &format!("{tag}_{s}"), &format!("{label} op {s}"), f, op, &ins[0], &want[0]);
            continue;
        }
        if op.kind == OpKind::Scatter {
            check_scatter(cxx, dir, &format!("{tag}_{s}"), &format!("{label} op {s}"), f, op, &ins, &want[0]);
            continue;
        }
        // The block the backend launches: a reduce's tree kernel its block of threads (a thread a
        // result otherwise, 64 here), a sort's 256.
        let threads = if op.kind == OpKind::Reduce { oxhlo_cuda::variadic_reduce::block_threads(f, op).unwrap_or(64) } else { oxhlo_cuda::rows::ROW_THREADS as u32 };
        if matches!(op.kind, OpKind::Cholesky | OpKind::TriangularSolve) {
            check_linalg(cxx, dir, &format!("{tag}_{s}"), &format!("{label} op {s}"), f, op, &ins, &want[0]);
            continue;
        }
        // A top_k that selects is also checked in its sorting-network form.
        // A form's long launches and scratch bytes: a split top_k's, else a long sort's (its network).
        let split = || Some((oxhlo_cuda::top_k_select::launches(f, op)?, oxhlo_cuda::top_k_select::scratch_bytes(f, op)?));
        let network = || (oxhlo_cuda::sort::large_launches(f, op).unwrap(), oxhlo_cuda::sort::large_scratch_bytes(f, op).unwrap());
        let mut forms = Vec::new();
        if op.kind == OpKind::ChloTopK && oxhlo_cuda::top_k_select::selects(f, op).is_some() {
            let p = oxhlo_cuda::top_k::plan_top_k_network(f, op).unwrap_or_else(|| panic!("{label}: top_k {s} has no network form"));
            forms.push((p.src, p.rows, p.large.then(network)));
        }
        forms.insert(0, if op.kind == OpKind::ChloNextAfter || complex_elementwise(f, op) {
            // A one-op elementwise kernel over the result's elements, its inputs the distinct operands.
            let (src, inputs) = oxhlo_cuda::render::render_single(f, block, i).unwrap_or_else(|| panic!("{label}: {} {s} does not render", op.name()));
            ins = inputs.iter().map(|v| ins[op.operands.iter().position(|o| o == v).unwrap()].clone()).collect();
            (src, f.ty(op.results[0]).as_tensor().unwrap().num_elements().unwrap() as i64, None)
        } else if op.kind == OpKind::Reduce {
            let (src, n) = oxhlo_cuda::variadic_reduce::render(f, op).unwrap_or_else(|| panic!("{label}: reduce {s} stays on the host"));
            (src, n as i64, None)
        } else if let Some((src, n)) = oxhlo_cuda::item_ops::render(f, op) {
            (src, n as i64, None)
        } else if !matches!(op.kind, OpKind::Sort | OpKind::ChloTopK) {
            panic!("{label}: {} {s} stays on the host", op.name());
        } else {
            let p = oxhlo_cuda::sort::plan_op(f, op).unwrap_or_else(|| panic!("{label}: sort {s} stays on the host"));
            (p.src, p.rows, p.large.then(|| split().unwrap_or_else(network)))
        });
        for (form, (src, rows, large)) in forms.into_iter().enumerate() {
        let entry = host_kernel(cxx, &src, dir, &format!("{tag}_{s}_{form}"));
        let outs: Vec<Buf> = op
            .results
            .iter()
            .map(|&r| {
                let t = f.ty(r).as_tensor().unwrap();
                Buf::zeros(Kind::of(&t.elem).unwrap(), t.num_elements().unwrap())
            })
            .collect();

        if let Some((launches, scratch_bytes)) = large {
            // In global memory: the positions buffer between the inputs and the outputs, a call a
            // launch, in the backend's order.
            let scratch = vec![0u64; (scratch_bytes as usize).div_ceil(8)];
            let ptrs: Vec<usize> = ins.iter().map(|v| ptr(&v.native().unwrap().buf)).chain([scratch.as_ptr() as usize]).chain(outs.iter().map(ptr)).collect();
            for (k, j, steps, _) in launches {
                let words: Vec<usize> = [rows as usize, k as usize, j as usize, steps as usize].into_iter().chain(ptrs.iter().copied()).collect();
                // SAFETY: the kernel takes (rows, k, j, steps, inputs..., scratch, outputs...) with these
                // element types and sizes.
                unsafe { run(entry, 256, &words) };
            }
        } else if let Some(parts) = (op.kind == OpKind::Reduce).then(|| oxhlo_cuda::variadic_reduce::parts(f, op)).flatten() {
            // A split reduce: the first pass into n * parts values of each result's kind, then the
            // finishing pass folding each group's parts (a thread a result).
            let partial: Vec<Buf> = outs.iter().map(|b| Buf::zeros(b.kind(), b.len() * parts as usize)).collect();
            let m = ins.len() / 2;
            let words: Vec<usize> = [rows as usize].into_iter().chain(ins.iter().map(|v| ptr(&v.native().unwrap().buf))).chain(partial.iter().map(ptr)).collect();
            // SAFETY: the first pass takes (n * parts, inputs..., inits..., parts...) with these types and sizes.
            unsafe { run(entry, threads, &words) };
            let finish = host_kernel(cxx, &oxhlo_cuda::variadic_reduce::render_finish(f, op).unwrap(), dir, &format!("{tag}_{s}_{form}_finish"));
            let words: Vec<usize> = [rows as usize / parts as usize].into_iter().chain(partial.iter().map(ptr)).chain(ins[m..].iter().map(|v| ptr(&v.native().unwrap().buf))).chain(outs.iter().map(ptr)).collect();
            // SAFETY: the finishing pass takes (n, parts..., inits..., outputs...).
            unsafe { run(finish, 64, &words) };
        } else {
            // An elementwise kernel's launch scalars (power-of-two broadcast sizes) follow `n`.
            let launch_scalars = oxhlo_cuda::render::split_scalars(&src).1.into_iter().map(|v| v as usize);
            let words: Vec<usize> = [rows as usize].into_iter().chain(launch_scalars).chain(ins.iter().map(|v| ptr(&v.native().unwrap().buf))).chain(outs.iter().map(ptr)).collect();
            // SAFETY: the kernel takes (rows or result elements, [launch scalars,] inputs..., outputs...)
            // with these element types and sizes.
            unsafe { run(entry, threads, &words) };
        }
        for (k, ((&r, b), w)) in op.results.iter().zip(outs).zip(&want).enumerate() {
            let got = Val::Native(NTensor::new(f.ty(r).as_tensor().unwrap().clone(), b));
            assert_eq!(common::bits(&got.to_rt()), common::bits(&w.to_rt()), "{label} op {s} form {form} result {k}");
        }
        }
        if op.kind == OpKind::DynamicUpdateSlice {
            // The in-place form: the operand's elements in the result buffer already, the update's
            // written over them (a thread an update element).
            let (src, n) = oxhlo_cuda::dynamic::render_in_place(f, op).unwrap_or_else(|| panic!("{label}: update {s} has no in-place form"));
            let entry = host_kernel(cxx, &src, dir, &format!("{tag}_{s}_in_place"));
            let out: Buf = (*ins[0].native().unwrap().buf).clone();
            let words: Vec<usize> = [n].into_iter().chain(ins[1..].iter().map(|v| ptr(&v.native().unwrap().buf))).chain([ptr(&out)]).collect();
            // SAFETY: the kernel takes (update elements, update, index scalars..., operand-sized output).
            unsafe { run(entry, threads, &words) };
            let got = Val::Native(NTensor::new(f.ty(op.results[0]).as_tensor().unwrap().clone(), out));
            assert_eq!(common::bits(&got.to_rt()), common::bits(&want[0].to_rt()), "{label} op {s} in place");
        }
    }
    targets.len()
}

#[test]
fn sort_top_k_and_argmax_kernels_on_the_host_match_the_interpreter_bit_for_bit() {
    let Some((cxx, dir)) = host_compiler_and_dir("ops") else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = ["tests/sorts", "tests/sorts_jax", "tests/variadic_reduces", "tests/windows", "tests/float_steps", "tests/linalg", "tests/scatters", "tests/complex", "tests/fft"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        // HOST_EMULATION_ONLY=text: only the files whose path holds it (while working on one kernel).
        .filter(|p| std::env::var("HOST_EMULATION_ONLY").map_or(true, |w| p.to_string_lossy().contains(&w)))
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
        // Linear algebra's matrices finite (the programs make them well conditioned).
        let linalg = ["linalg", "complex", "fft"].iter().any(|w| path.to_string_lossy().contains(w));
        let input = |t: &oxhlo_ir::TensorType, seed: u64| if linalg { common::uniform_input(t, seed) } else { common::sort_input(t, seed, nans) };
        let args: Vec<Val> = func.body.entry().unwrap().args.iter().enumerate().map(|(j, &a)| Val::Native(NTensor::new(func.ty(a).as_tensor().unwrap().clone(), input(func.ty(a).as_tensor().unwrap(), (n * 10 + j) as u64)))).collect();
        oxhlo_cuda::optimize(&mut m, &OptOptions::at(OptLevel::O2)).expect("optimizes");
        let ops = check_entry_ops(cxx, &dir, &format!("k{n}"), &path.display().to_string(), &m, &args, false);
        assert!(ops > 0, "{path:?}: nothing to emulate in the entry after the optimizer");
        println!("{}: {ops} ops agree bit for bit", path.display());
        checked += ops;
    }
    assert!(checked >= 15 || std::env::var("HOST_EMULATION_ONLY").is_ok(), "{checked} ops checked");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The conformance suite's reduce_window, select_and_scatter, dynamic_slice, dynamic_update_slice and
/// sort cases (JAX-generated, their expected values JAX's on the CPU, which the interpreter meets),
/// their constants lifted to arguments as the CUDA conformance run lifts them, optimized as the plugin
/// optimizes: every such op's kernel on the host gives the interpreter's results bit for bit.
#[test]
fn conformance_window_slice_and_sort_kernels_on_the_host_match_the_interpreter() {
    let Some((cxx, dir)) = host_compiler_and_dir("conf") else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-interp/tests/conformance");
    let mut checked = 0;
    for file in ["reduce_window.mlir", "data_movement.mlir", "sort.mlir", "scatter.mlir"] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        for (c, case) in text.split("// -----").enumerate() {
            if !["reduce_window", "select_and_scatter", "dynamic_slice", "dynamic_update_slice", "stablehlo.sort", "stablehlo.scatter"].iter().any(|w| case.contains(w)) {
                continue;
            }
            let label = format!("{file} case {c}");
            let mut m = oxhlo_text::parse_module(case, &label).expect("parses");
            let inputs = oxhlo_opt::lift_constants_to_args(&mut m);
            oxhlo_cuda::optimize(&mut m, &OptOptions::at(OptLevel::O2)).expect("optimizes");
            let args: Vec<Val> = inputs.into_iter().map(Val::from_rt).collect();
            let ops = check_entry_ops(cxx, &dir, &format!("c{}_{c}", file.len()), &label, &m, &args, true);
            println!("{label}: {ops} ops agree bit for bit");
            checked += ops;
        }
    }
    println!("{checked} conformance ops agree bit for bit");
    assert!(checked >= 15 || std::env::var("HOST_EMULATION_ONLY").is_ok(), "{checked} ops checked");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether a row program takes rows of special values ([`special_rows`]) and is compared bit for bit.
fn special(path: &Path) -> bool {
    path.to_string_lossy().contains("special")
}

/// An f32 input of rows of special values, by row (mod 7): signed zeros mixed, all -0, uniform values
/// with one NaN, uniform values with both infinities, negative values and one -0, halved uniform values
/// with both zeros, a subnormal and a maximum of 0.75, uniform values.
fn special_rows(t: &oxhlo_ir::TensorType, seed: u64) -> Buf {
    let cols = *t.shape.last().unwrap() as usize;
    let Buf::F32(mut v) = common::uniform_input(t, seed) else { panic!("special rows are f32") };
    for (r, row) in v.chunks_mut(cols).enumerate() {
        let at = (r * 7919 + seed as usize) % cols;
        match r % 7 {
            0 => row.iter_mut().enumerate().for_each(|(c, x)| *x = if (c * 31 + r) % 5 == 0 { 0.0 } else { -0.0 }),
            1 => row.iter_mut().for_each(|x| *x = -0.0),
            2 => row[at] = f32::NAN,
            3 => {
                row[at] = f32::INFINITY;
                row[(at + 1) % cols] = f32::NEG_INFINITY;
            }
            4 => {
                row.iter_mut().for_each(|x| *x = -x.abs() - 1.0);
                row[at] = -0.0;
            }
            5 => {
                // Halved, with a maximum of 0.75 and a subnormal whose quotient by it the reciprocal's
                // product and correction round wrongly (0x1.002d24p-127 / 0.75).
                row.iter_mut().for_each(|x| *x *= 0.5);
                row[at] = 0.0;
                row[(at + 1) % cols] = 0.75;
                row[(at + 2) % cols] = f32::from_bits(0x0040_0b49);
                row[(at + 3) % cols] = -0.0;
            }
            _ => {}
        }
    }
    Buf::F32(v)
}

/// The row kernels (softmax, layer norm and attention-score rows as one kernel each: `rows.rs`) of the
/// programs of `oxhlo-plan/tests/rows/`, planned as the CUDA backend plans them, run on the host as a
/// block of the threads the backend launches (a warp a row or a block a row, values held in registers
/// between loops or recomputed), on the values the interpreter gives the kernel's inputs: every output
/// within 1e-5 (relative) of the interpreter's (the host's `expf` and the device's differ in the last
/// bits); a program named `*special*` takes rows of signed zeros, NaNs, infinities and a subnormal
/// ([`special_rows`]) and must match bit for bit (its maxima, minima, differences and quotients).
#[test]
fn row_kernels_on_the_host_match_the_interpreter() {
    let Some((cxx, dir)) = host_compiler_and_dir("rows") else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../oxhlo-plan/tests/rows");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "mlir")).collect();
    files.sort();
    let options = oxhlo_plan::fusion::FusionOptions { enabled: true, aggressive: false, recompute: true, recompute_costly: true, rows: true, max_params: 0, sibling_reductions: 0 };
    let (mut checked, mut forms) = (0, std::collections::HashSet::new());
    for (n, path) in files.iter().enumerate() {
        let m = oxhlo_text::parse_module(&std::fs::read_to_string(path).unwrap(), &path.display().to_string()).expect("parses");
        let f = m.entry().unwrap();
        let block = f.body.entry().unwrap();
        let args: Vec<Val> = block.args.iter().enumerate().map(|(j, &a)| {
            let t = f.ty(a).as_tensor().unwrap().clone();
            let buf = match t.elem {
                oxhlo_ir::ElementType::Bool => common::sort_input(&t, (n * 10 + j) as u64, false),
                _ if special(path) => special_rows(&t, (n * 10 + j) as u64),
                _ => common::uniform_input(&t, (n * 10 + j) as u64),
            };
            Val::Native(NTensor::new(t, buf))
        }).collect();
        for (q, step) in oxhlo_cuda::kernels::plan_steps(f, block, &options).into_iter().enumerate() {
            let oxhlo_plan::fusion::Step::Kernel(k) = step else { continue };
            let Some(view) = k.rows.as_ref() else { continue };
            let rows = oxhlo_cuda::rows::render_rows(f, block, &k).unwrap_or_else(|| panic!("{path:?}: row kernel {q} does not render"));
            let entry = host_kernel(cxx, &rows.src, &dir, &format!("r{n}_{q}"));
            let ins = values_of(&m, &k.inputs, &args);
            let want = values_of(&m, &k.outputs, &args);
            let outs: Vec<Buf> = k.outputs.iter().map(|&v| {
                let t = f.ty(v).as_tensor().unwrap();
                Buf::zeros(Kind::of(&t.elem).unwrap(), t.num_elements().unwrap())
            }).collect();
            let words: Vec<usize> = [view.rows].into_iter().chain(ins.iter().map(|v| ptr(&v.native().unwrap().buf))).chain(outs.iter().map(ptr)).collect();
            // SAFETY: the kernel takes (rows, inputs..., outputs...) with these element types and sizes.
            unsafe { run(entry, rows.launch.threads, &words) };
            for (o, (b, w)) in outs.into_iter().zip(&want).enumerate() {
                let got = Val::Native(NTensor::new(w.native().unwrap().ty.clone(), b));
                let (g, w) = (common::as_f64(&got.to_rt()), common::as_f64(&w.to_rt()));
                for (e, (a, b)) in g.iter().zip(&w).enumerate() {
                    // Rows of special values: bit for bit (the sign of a zero included).
                    let close = if special(path) { a.to_bits() == b.to_bits() } else { (a - b).abs() <= 1e-5 * (1.0 + b.abs()) };
                    assert!((a.is_nan() && b.is_nan()) || close, "{path:?} row kernel {q} output {o} element {e}: {a} vs {b}");
                }
            }
            forms.insert((rows.launch.warp, rows.src.contains("[j_] = ")));
            println!("{}: row kernel {q} ({} rows of {}, {}) agrees", path.display(), view.rows, view.cols, if rows.launch.warp { "a warp a row" } else { "a block a row" });
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked >= files.len(), "{checked} row kernels checked in {} files", files.len());
    // Warp and block rows, with values held between loops and without.
    assert_eq!(forms.len(), 4, "{forms:?}");
}
