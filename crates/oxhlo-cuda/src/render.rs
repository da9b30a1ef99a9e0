//! CUDA C rendering of loop-fusion kernels (`oxhlo_plan::fusion::FusedKernel`) and single elementwise
//! ops: a pure function from IR ops to source text, compiled later with NVRTC. Values are computed in a
//! register type (float for f32, double for the other floats, 64-bit integers, bool) and rounded to their
//! element type after each op, as the reference interpreter does: f32 `+ - * /`, sqrt, fmod, max/min,
//! compare and select are computed in float with the round-to-nearest intrinsics (never contracted into
//! FMAs), which is bit-identical to the interpreter's f64 result rounded to f32 (f64 carries more than
//! 2*24+2 bits, so its rounding first is innocuous); f32 transcendental functions are computed in double
//! and rounded. Results match the interpreter up to the libm differences of transcendental functions. Ops or types without a rendering here return `None` (the caller then runs
//! the kernel on the host), never wrong code.

use oxhlo_cpu::Kind;
use oxhlo_ir::attr::{ComparisonDirection as Dir, ComparisonType as CmpTy};
use oxhlo_ir::{Block, Func, Op, OpKind, Type, Value};
use oxhlo_plan::fusion::{ew_class, EwClass, FusedKernel};
use std::collections::HashMap;
use std::fmt::Write;

/// The name of the `extern "C"` entry every rendered kernel has.
pub const ENTRY: &str = "oxk";

/// Helpers shared by every kernel: f16/bf16 conversions (f16 through PTX `cvt`, bf16 by bit
/// arithmetic with round-to-nearest-even and NaN kept quiet), max/min that propagate NaN and order -0
/// below +0 (double and float), and 4-element vector loads/stores (`oxh_ld4`/`oxh_st4`: one 4-, 8-, or
/// 16-byte access, two for 8-byte elements; the address must be aligned to 4 elements).
pub const PRELUDE: &str = r#"
__device__ __forceinline__ float oxh_f16_to_f(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ __forceinline__ unsigned short oxh_f_to_f16(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
__device__ __forceinline__ float oxh_bf16_to_f(unsigned short h) { return __uint_as_float(((unsigned int)h) << 16); }
__device__ __forceinline__ unsigned short oxh_f_to_bf16(float f) {
  unsigned int u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
#define OXH_INF __longlong_as_double(0x7ff0000000000000LL)
template <typename T> __device__ __forceinline__ void oxh_ld4(T* d, const T* __restrict__ s) {
  if constexpr (sizeof(T) == 1) { *reinterpret_cast<unsigned int*>(d) = *reinterpret_cast<const unsigned int*>(s); }
  else if constexpr (sizeof(T) == 2) { *reinterpret_cast<uint2*>(d) = *reinterpret_cast<const uint2*>(s); }
  else if constexpr (sizeof(T) == 4) { *reinterpret_cast<uint4*>(d) = *reinterpret_cast<const uint4*>(s); }
  else { reinterpret_cast<uint4*>(d)[0] = reinterpret_cast<const uint4*>(s)[0]; reinterpret_cast<uint4*>(d)[1] = reinterpret_cast<const uint4*>(s)[1]; }
}
template <typename T> __device__ __forceinline__ void oxh_st4(T* __restrict__ d, const T* s) {
  if constexpr (sizeof(T) == 1) { *reinterpret_cast<unsigned int*>(d) = *reinterpret_cast<const unsigned int*>(s); }
  else if constexpr (sizeof(T) == 2) { *reinterpret_cast<uint2*>(d) = *reinterpret_cast<const uint2*>(s); }
  else if constexpr (sizeof(T) == 4) { *reinterpret_cast<uint4*>(d) = *reinterpret_cast<const uint4*>(s); }
  else { reinterpret_cast<uint4*>(d)[0] = reinterpret_cast<const uint4*>(s)[0]; reinterpret_cast<uint4*>(d)[1] = reinterpret_cast<const uint4*>(s)[1]; }
}
__device__ __forceinline__ double oxh_max(double a, double b) { return (a != a || b != b) ? (a + b) : (a > b ? a : (b > a ? b : (signbit(a) ? b : a))); }
__device__ __forceinline__ double oxh_min(double a, double b) { return (a != a || b != b) ? (a + b) : (a < b ? a : (b < a ? b : (signbit(a) ? a : b))); }
__device__ __forceinline__ double oxh_sign(double a) { return a != a ? a : (a > 0.0 ? 1.0 : (a < 0.0 ? -1.0 : a)); }
__device__ __forceinline__ float oxh_max(float a, float b) { return (a != a || b != b) ? (a + b) : (a > b ? a : (b > a ? b : (signbit(a) ? b : a))); }
__device__ __forceinline__ float oxh_min(float a, float b) { return (a != a || b != b) ? (a + b) : (a < b ? a : (b < a ? b : (signbit(a) ? a : b))); }
__device__ __forceinline__ float oxh_sign(float a) { return a != a ? a : (a > 0.0f ? 1.0f : (a < 0.0f ? -1.0f : a)); }
__device__ __forceinline__ int oxh_tok(float x) { int k = __float_as_int(x); return k ^ (int)((unsigned int)(k >> 31) >> 1); }
__device__ __forceinline__ long long oxh_tok(double x) { long long k = __double_as_longlong(x); return k ^ (long long)((unsigned long long)(k >> 63) >> 1); }
__device__ __forceinline__ long long oxh_f2i(double x, long long lo, long long hi) { return x != x ? 0LL : (x <= (double)lo ? lo : (x >= (double)hi ? hi : (long long)x)); }
__device__ __forceinline__ unsigned long long oxh_f2u(double x, unsigned long long hi) { return (x != x || x <= 0.0) ? 0ULL : (x >= (double)hi ? hi : (unsigned long long)x); }
__device__ __forceinline__ float oxh_next_after(float x, float y) {
  if (x != x || y != y) return __int_as_float(0x7fc00000);
  if (x == y) return y;
  if (x == 0.0f) return __int_as_float(y > x ? 1 : (int)0x80000001u);
  return __int_as_float(__float_as_int(x) + ((y > x) == (x > 0.0f) ? 1 : -1));
}
__device__ __forceinline__ double oxh_next_after(double x, double y) {
  if (x != x || y != y) return __longlong_as_double(0x7ff8000000000000LL);
  if (x == y) return y;
  if (x == 0.0) return __longlong_as_double(y > x ? 1LL : (long long)0x8000000000000001ULL);
  return __longlong_as_double(__double_as_longlong(x) + ((y > x) == (x > 0.0) ? 1LL : -1LL));
}
__device__ __forceinline__ double oxh_next_after16(double x, double y, bool bf) {
  if (x != x || y != y) return __longlong_as_double(0x7ff8000000000000LL);
  if (x == y) return y;
  int h = bf ? oxh_f_to_bf16((float)x) : oxh_f_to_f16((float)x);
  h = x == 0.0 ? (y > x ? 1 : 0x8001) : h + ((y > x) == (x > 0.0) ? 1 : -1);
  return bf ? (double)oxh_bf16_to_f((unsigned short)h) : (double)oxh_f16_to_f((unsigned short)h);
}
"#;

/// `src` with its value registers renumbered in order of first appearance: `v<id>` (named after IR value
/// ids) as `v0, v1, ...`, a row kernel's row registers `r<id>` ([`crate::rows`]) as `r0, r1, ...` and
/// its arrays of held element values `e<id>` as `e0, e1, ...`. Kernels of the same computation on
/// different values (every layer's batch norm, every block's residual add, every layer's softmax and
/// its gradient) become one source, so they share one NVRTC compilation, one
/// cache entry and one loaded module. Each prefix's `<letter><digits>` identifiers are renamed through a
/// map of their own, so the renaming is a bijection. A launch-scalars line ([`SCALARS_MARK`]) is dropped.
pub fn canonical_source(src: &str) -> String {
    let src = split_scalars(src).0;
    let b = src.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut names: [HashMap<&str, usize>; 3] = [HashMap::new(), HashMap::new(), HashMap::new()];
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        if !ident(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && ident(b[i]) {
            i += 1;
        }
        let word = &src[start..i];
        let prefix = word.as_bytes()[0];
        let which = match prefix {
            b'v' => 0,
            b'r' => 1,
            b'e' => 2,
            _ => continue,
        };
        if word.len() > 1 && word.bytes().skip(1).all(|c| c.is_ascii_digit()) {
            let next = names[which].len();
            let n = *names[which].entry(word).or_insert(next);
            out.push_str(&src[copied..start]);
            out.push(prefix as char);
            out.push_str(&n.to_string());
            copied = i;
        }
    }
    out.push_str(&src[copied..]);
    out
}

/// The number of elements of `shape`; None when it is negative or overflows i64.
pub fn checked_numel(shape: &[i64]) -> Option<i64> {
    shape.iter().try_fold(1i64, |a, &d| if d < 0 { None } else { a.checked_mul(d) })
}

/// Row-major strides (in elements) of `shape`.
pub fn row_major_strides(shape: &[i64]) -> Vec<i64> {
    let mut st = vec![1i64; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        st[d] = st[d + 1] * shape[d + 1];
    }
    st
}

/// The C type that copies elements of `bytes` bytes as raw bits (None for other sizes).
pub fn bits_type(bytes: usize) -> Option<&'static str> {
    Some(match bytes {
        1 => "unsigned char",
        2 => "unsigned short",
        4 => "unsigned int",
        8 => "unsigned long long",
        16 => "ulonglong2",
        _ => return None,
    })
}

/// `(prefix0, shape[0]), (prefix1, shape[1]), ...`: coordinate names for [`coords`].
pub fn coord_names(prefix: &str, shape: &[i64]) -> Vec<(String, i64)> {
    shape.iter().enumerate().map(|(d, &n)| (format!("{prefix}{d}"), n)).collect()
}

/// C statements defining a `const long long` per `(name, size)` of `dims` (outermost first): the
/// coordinates of the linear index `var` in that row-major shape, computed in 32-bit arithmetic when
/// every index fits (64-bit division is a long instruction sequence on the GPU).
pub fn coords(var: &str, dims: &[(String, i64)]) -> String {
    let total: i64 = dims.iter().map(|d| d.1).product();
    let (t, suf) = if total <= u32::MAX as i64 { ("unsigned int", "u") } else { ("unsigned long long", "ULL") };
    let mut s = format!("    {t} r = ({t}){var};\n");
    for (j, (name, size)) in dims.iter().enumerate().rev() {
        if j == 0 {
            let _ = writeln!(s, "    const long long {name} = (long long)r;");
        } else {
            let _ = writeln!(s, "    const long long {name} = (long long)(r % {size}{suf}); r /= {size}{suf};");
        }
    }
    s
}

/// The native kind of a value of `func`, when it is a statically shaped tensor.
pub fn kind_of(func: &Func, v: Value) -> Option<(Kind, Vec<i64>)> {
    match func.try_ty(v)? {
        Type::Tensor(t) if t.is_static() && t.encoding.is_none() => Some((Kind::of(&t.elem)?, t.shape.clone())),
        _ => None,
    }
}

/// The (static) types and kinds of `op`'s results (None when one has no device form).
pub(crate) fn result_types(func: &Func, op: &Op) -> Option<Vec<(oxhlo_ir::TensorType, Kind)>> {
    op.results
        .iter()
        .map(|&r| match (func.try_ty(r), kind_of(func, r)) {
            (Some(Type::Tensor(t)), Some((k, _))) => Some((t.clone(), k)),
            _ => None,
        })
        .collect()
}

pub(crate) fn is_float(k: Kind) -> bool {
    matches!(k, Kind::F16 | Kind::BF16 | Kind::F32 | Kind::F64)
}

pub(crate) fn is_unsigned(k: Kind) -> bool {
    matches!(k, Kind::U8 | Kind::U16 | Kind::U32 | Kind::U64)
}

/// Whether `k` is an integer kind (signed or not; not bool).
pub(crate) fn is_int(k: Kind) -> bool {
    is_unsigned(k) || matches!(k, Kind::I8 | Kind::I16 | Kind::I32 | Kind::I64)
}

/// The C storage type of an element kind (None for complex).
pub fn storage_type(k: Kind) -> Option<&'static str> {
    Some(match k {
        Kind::Bool | Kind::U8 => "unsigned char",
        Kind::I8 => "signed char",
        Kind::I16 => "short",
        Kind::I32 => "int",
        Kind::I64 => "long long",
        Kind::U16 | Kind::F16 | Kind::BF16 => "unsigned short",
        Kind::U32 => "unsigned int",
        Kind::U64 => "unsigned long long",
        Kind::F32 => "float",
        Kind::F64 => "double",
        Kind::C64 | Kind::C128 => return None,
    })
}

/// The C type of a buffer element of kind `k` in an elementwise kernel: [`storage_type`], and CUDA's
/// `float2` / `double2` for complex numbers (which only the elementwise renderer takes).
pub fn value_type(k: Kind) -> Option<&'static str> {
    match k {
        Kind::C64 => Some("float2"),
        Kind::C128 => Some("double2"),
        _ => storage_type(k),
    }
}

pub(crate) fn is_complex(k: Kind) -> bool {
    matches!(k, Kind::C64 | Kind::C128)
}

/// The float kind of a complex kind's parts.
fn part_kind(k: Kind) -> Option<Kind> {
    match k {
        Kind::C64 => Some(Kind::F32),
        Kind::C128 => Some(Kind::F64),
        _ => None,
    }
}

/// Complex numbers in elementwise kernels (added after the prelude to the kernels that use them): the
/// register type `oxz` (two doubles: complex64 values are computed in double and their parts rounded to
/// float after each op, as the interpreter computes), loads and stores of `float2` / `double2`, and the
/// interpreter's arithmetic (its products and Smith's division, uncontracted: `__dmul_rn` and friends;
/// exp, log, sqrt, sin, cos and tanh by its formulas, on CUDA's double-precision functions).
pub const COMPLEX_PRELUDE: &str = r#"
struct oxz { double re, im; };
__device__ __forceinline__ oxz oxz_make(double re, double im) { oxz z; z.re = re; z.im = im; return z; }
__device__ __forceinline__ oxz oxz_ld(float2 v) { return oxz_make((double)v.x, (double)v.y); }
__device__ __forceinline__ oxz oxz_ld(double2 v) { return oxz_make(v.x, v.y); }
__device__ __forceinline__ float2 oxz_f2(oxz z) { return make_float2((float)z.re, (float)z.im); }
__device__ __forceinline__ double2 oxz_d2(oxz z) { return make_double2(z.re, z.im); }
__device__ __forceinline__ oxz oxz_rf(oxz z) { return oxz_make((double)(float)z.re, (double)(float)z.im); }
__device__ __forceinline__ oxz oxz_conj(oxz z) { z.im = -z.im; return z; }
__device__ __forceinline__ oxz oxz_add(oxz a, oxz b) { return oxz_make(__dadd_rn(a.re, b.re), __dadd_rn(a.im, b.im)); }
__device__ __forceinline__ oxz oxz_sub(oxz a, oxz b) { return oxz_make(__dsub_rn(a.re, b.re), __dsub_rn(a.im, b.im)); }
__device__ __forceinline__ oxz oxz_mul(oxz a, oxz b) {
  return oxz_make(__dsub_rn(__dmul_rn(a.re, b.re), __dmul_rn(a.im, b.im)), __dadd_rn(__dmul_rn(a.re, b.im), __dmul_rn(a.im, b.re)));
}
__device__ __forceinline__ oxz oxz_div(oxz x, oxz y) {
  const double a = x.re, b = x.im, c = y.re, d = y.im;
  if (c == 0.0 && d == 0.0) return oxz_make(a / fabs(c), b / fabs(c));
  if (fabs(c) >= fabs(d)) {
    const double r = d / c, den = __dadd_rn(c, __dmul_rn(d, r));
    return oxz_make(__dadd_rn(a, __dmul_rn(b, r)) / den, __dsub_rn(b, __dmul_rn(a, r)) / den);
  }
  const double r = c / d, den = __dadd_rn(__dmul_rn(c, r), d);
  return oxz_make(__dadd_rn(__dmul_rn(a, r), b) / den, __dsub_rn(__dmul_rn(b, r), a) / den);
}
__device__ __forceinline__ oxz oxz_exp(oxz z) {
  if (z.im == 0.0) return oxz_make(exp(z.re), z.im);
  const double e = exp(z.re);
  return oxz_make(e * cos(z.im), e * sin(z.im));
}
__device__ __forceinline__ oxz oxz_log(oxz z) { return oxz_make(log(hypot(z.re, z.im)), atan2(z.im, z.re)); }
__device__ __forceinline__ oxz oxz_sqrt(oxz z) {
  const double a = z.re, b = z.im;
  if (a == 0.0 && b == 0.0) return oxz_make(0.0, b);
  if (b == OXH_INF || b == -OXH_INF) return oxz_make(OXH_INF, b);
  if (a != a) return oxz_make(a, __longlong_as_double(0x7ff8000000000000LL));
  if (a == OXH_INF) return oxz_make(a, b != b ? b : copysign(0.0, b));
  if (a == -OXH_INF) return oxz_make(b != b ? b : 0.0, copysign(OXH_INF, b));
  const double s = (fabs(a) > 1e300 || fabs(b) > 1e300) ? 0.25 : 1.0;
  const double sa = a * s, sb = b * s;
  const double t = sqrt((fabs(sa) + hypot(sa, sb)) / 2.0) / sqrt(s);
  return a >= 0.0 ? oxz_make(t, b / (2.0 * t)) : oxz_make(fabs(b) / (2.0 * t), copysign(t, b));
}
__device__ __forceinline__ oxz oxz_sin(oxz z) { return oxz_make(sin(z.re) * cosh(z.im), cos(z.re) * sinh(z.im)); }
__device__ __forceinline__ oxz oxz_cos(oxz z) { return oxz_make(cos(z.re) * cosh(z.im), -(sin(z.re) * sinh(z.im))); }
__device__ __forceinline__ oxz oxz_tanh(oxz z) {
  const double a = z.re, b = z.im;
  if (fabs(a) > 20.0) { const double e = exp(-2.0 * fabs(a)); return oxz_make(copysign(1.0, a), 4.0 * sin(b) * cos(b) * e); }
  const double den = cosh(2.0 * a) + cos(2.0 * b);
  return oxz_make(sinh(2.0 * a) / den, sin(2.0 * b) / den);
}
"#;

/// The register type values of a kind are computed in.
pub(crate) fn reg_type(k: Kind) -> &'static str {
    match k {
        Kind::Bool => "bool",
        Kind::C64 | Kind::C128 => "oxz",
        Kind::F32 => "float",
        k if is_float(k) => "double",
        k if is_unsigned(k) => "unsigned long long",
        _ => "long long",
    }
}

/// An expression loading element `idx` of pointer `p` into the register type.
pub(crate) fn load(k: Kind, p: &str, idx: &str) -> String {
    match k {
        Kind::Bool => format!("({p}[{idx}] != 0)"),
        Kind::F16 => format!("(double)oxh_f16_to_f({p}[{idx}])"),
        Kind::BF16 => format!("(double)oxh_bf16_to_f({p}[{idx}])"),
        Kind::C64 | Kind::C128 => format!("oxz_ld({p}[{idx}])"),
        _ => format!("({})({p}[{idx}])", reg_type(k)),
    }
}

/// An expression converting a register value to storage.
pub(crate) fn store(k: Kind, x: &str) -> String {
    match k {
        Kind::Bool => format!("(unsigned char)({x} ? 1 : 0)"),
        Kind::F16 => format!("oxh_f_to_f16((float)({x}))"),
        Kind::BF16 => format!("oxh_f_to_bf16((float)({x}))"),
        Kind::C64 => format!("oxz_f2({x})"),
        Kind::C128 => format!("oxz_d2({x})"),
        _ => format!("({})({x})", storage_type(k).unwrap_or("int")),
    }
}

/// An expression rounding a register-typed result to the precision and range of kind `k`.
fn round(k: Kind, x: &str) -> String {
    match k {
        Kind::Bool | Kind::F64 | Kind::I64 | Kind::U64 | Kind::C128 => format!("({x})"),
        Kind::C64 => format!("oxz_rf({x})"),
        Kind::F32 => format!("((float)({x}))"),
        Kind::F16 => format!("(double)oxh_f16_to_f(oxh_f_to_f16((float)({x})))"),
        Kind::BF16 => format!("(double)oxh_bf16_to_f(oxh_f_to_bf16((float)({x})))"),
        _ => format!("({})({})({x})", reg_type(k), storage_type(k).unwrap_or("int")),
    }
}

/// A float unary op on `a` (a register of kind `k`). For f32 the exactly rounded ops stay in float and
/// the others are computed in double (the caller rounds the result to the kind).
fn float_unary(kind: OpKind, k: Kind, a: &str) -> Option<String> {
    use OpKind as K;
    if k == Kind::F32 {
        match kind {
            K::Abs => return Some(format!("fabsf({a})")),
            K::Negate => return Some(format!("(-{a})")),
            K::Sign => return Some(format!("oxh_sign({a})")),
            K::Sqrt => return Some(format!("__fsqrt_rn({a})")),
            K::Floor => return Some(format!("floorf({a})")),
            K::Ceil => return Some(format!("ceilf({a})")),
            K::RoundNearestAfz => return Some(format!("roundf({a})")),
            K::RoundNearestEven => return Some(format!("rintf({a})")),
            K::Square | K::ChloSquare => return Some(format!("__fmul_rn({a}, {a})")),
            _ if !exact_math() => {
                if let Some(e) = float_libm_unary(kind, a) {
                    return Some(e);
                }
                return libm_unary(kind, &format!("((double){a})"));
            }
            _ => return libm_unary(kind, &format!("((double){a})")),
        }
    }
    if k == Kind::F64 && matches!(kind, K::Square | K::ChloSquare) {
        return Some(format!("__dmul_rn({a}, {a})"));
    }
    libm_unary(kind, a)
}

/// Whether f32 transcendental ops are computed in double and rounded once (`OXHLO_CUDA_EXACT_MATH=1`:
/// correctly rounded nearly always, at several times the cost) instead of by CUDA's single-precision
/// functions (the default: at most 2 ulp from the exact result, as XLA's GPU backend is; the spec leaves
/// their accuracy to the implementation).
pub fn exact_math() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXHLO_CUDA_EXACT_MATH").is_ok_and(|v| matches!(v.trim(), "1" | "true" | "yes" | "on")))
}

/// The f32 transcendental ops CUDA's single-precision math library computes (within 2 ulp; not the
/// `__` fast-math intrinsics), on a float expression `a`.
fn float_libm_unary(kind: OpKind, a: &str) -> Option<String> {
    use OpKind as K;
    Some(match kind {
        K::Exponential => format!("expf({a})"),
        K::ExponentialMinusOne => format!("expm1f({a})"),
        K::Log => format!("logf({a})"),
        K::LogPlusOne => format!("log1pf({a})"),
        K::Logistic => format!("(1.0f / (1.0f + expf(-{a})))"),
        K::Tanh => format!("tanhf({a})"),
        K::Sine => format!("sinf({a})"),
        K::Cosine => format!("cosf({a})"),
        K::Rsqrt => format!("rsqrtf({a})"),
        _ => return None,
    })
}

/// A float unary op on a double expression `a`, as C.
fn libm_unary(kind: OpKind, a: &str) -> Option<String> {
    use OpKind as K;
    Some(match kind {
        K::Abs => format!("fabs({a})"),
        K::Negate => format!("(-{a})"),
        K::Sign => format!("oxh_sign({a})"),
        K::Sqrt => format!("sqrt({a})"),
        K::Rsqrt => format!("(1.0 / sqrt({a}))"),
        K::Cbrt => format!("cbrt({a})"),
        K::Exponential => format!("exp({a})"),
        K::ExponentialMinusOne => format!("expm1({a})"),
        K::Log => format!("log({a})"),
        K::LogPlusOne => format!("log1p({a})"),
        K::Logistic => format!("(1.0 / (1.0 + exp(-{a})))"),
        K::Sine => format!("sin({a})"),
        K::Cosine => format!("cos({a})"),
        K::Tan | K::ChloTan => format!("tan({a})"),
        K::Tanh => format!("tanh({a})"),
        K::Floor => format!("floor({a})"),
        K::Ceil => format!("ceil({a})"),
        K::RoundNearestAfz => format!("round({a})"),
        K::RoundNearestEven => format!("rint({a})"),
        K::Square | K::ChloSquare => format!("({a} * {a})"),
        K::ChloCosh => format!("cosh({a})"),
        K::ChloSinh => format!("sinh({a})"),
        K::ChloAcos => format!("acos({a})"),
        K::ChloAsin => format!("asin({a})"),
        K::ChloAtan => format!("atan({a})"),
        K::ChloAcosh => format!("acosh({a})"),
        K::ChloAsinh => format!("asinh({a})"),
        K::ChloAtanh => format!("atanh({a})"),
        K::ChloErf => format!("erf({a})"),
        K::ChloErfc => format!("erfc({a})"),
        _ => return None,
    })
}

/// A float binary op on registers of kind `k`: f32 in float where the result is exactly rounded (the
/// rest in double), f64 arithmetic through the `_rn` intrinsics so that no two ops fuse into an FMA.
fn float_binary(kind: OpKind, k: Kind, a: &str, b: &str) -> Option<String> {
    use OpKind as K;
    // The next value of the element type's own format (NaN: the interpreter's positive quiet NaN).
    if kind == K::ChloNextAfter {
        return Some(match k {
            Kind::F32 | Kind::F64 => format!("oxh_next_after({a}, {b})"),
            Kind::BF16 => format!("oxh_next_after16({a}, {b}, true)"),
            Kind::F16 => format!("oxh_next_after16({a}, {b}, false)"),
            _ => return None,
        });
    }
    let rn = match k {
        Kind::F32 => "f",
        Kind::F64 => "d",
        _ => "",
    };
    if !rn.is_empty() {
        let intrinsic = match kind {
            K::Add => Some("add"),
            K::Subtract => Some("sub"),
            K::Multiply => Some("mul"),
            K::Divide => Some("div"),
            _ => None,
        };
        if let Some(f) = intrinsic {
            return Some(format!("__{rn}{f}_rn({a}, {b})"));
        }
    }
    if k == Kind::F32 {
        return match kind {
            K::Maximum | K::Minimum => libm_binary(kind, a, b),
            K::Remainder => Some(format!("fmodf({a}, {b})")),
            _ => libm_binary(kind, &format!("((double){a})"), &format!("((double){b})")),
        };
    }
    libm_binary(kind, a, b)
}

/// A float binary op on expressions of one type (double, or float for max/min), as C.
fn libm_binary(kind: OpKind, a: &str, b: &str) -> Option<String> {
    use OpKind as K;
    Some(match kind {
        K::Add => format!("({a} + {b})"),
        K::Subtract => format!("({a} - {b})"),
        K::Multiply => format!("({a} * {b})"),
        K::Divide => format!("({a} / {b})"),
        K::Remainder => format!("fmod({a}, {b})"),
        K::Power => format!("pow({a}, {b})"),
        K::Maximum => format!("oxh_max({a}, {b})"),
        K::Minimum => format!("oxh_min({a}, {b})"),
        K::Atan2 => format!("atan2({a}, {b})"),
        _ => return None,
    })
}

/// Integer binary ops with wrapping arithmetic (through unsigned 64-bit) and bitwise logic.
fn int_binary(kind: OpKind, k: Kind, a: &str, b: &str) -> Option<String> {
    use OpKind as K;
    let rt = reg_type(k);
    let wrap = |op: &str| format!("({rt})((unsigned long long)({a}) {op} (unsigned long long)({b}))");
    Some(match kind {
        K::Add => wrap("+"),
        K::Subtract => wrap("-"),
        K::Multiply => wrap("*"),
        K::Maximum => format!("({a} > {b} ? {a} : {b})"),
        K::Minimum => format!("({a} < {b} ? {a} : {b})"),
        K::And => format!("({a} & {b})"),
        K::Or => format!("({a} | {b})"),
        K::Xor => format!("({a} ^ {b})"),
        K::ShiftLeft | K::ShiftRightLogical | K::ShiftRightArithmetic => shift(kind, k, a, b)?,
        // The interpreter's results where C's are undefined: x / 0 is all ones (-1 signed), x % 0 is x,
        // x % -1 is 0 and MIN / -1 wraps to MIN.
        K::Divide if is_unsigned(k) => format!("({b} == 0ULL ? ~0ULL : {a} / {b})"),
        K::Remainder if is_unsigned(k) => format!("({b} == 0ULL ? {a} : {a} % {b})"),
        K::Divide => format!("({b} == 0LL ? -1LL : ({b} == -1LL ? (long long)(0ULL - (unsigned long long)({a})) : {a} / {b}))"),
        K::Remainder => format!("({b} == 0LL ? {a} : ({b} == -1LL ? 0LL : {a} % {b}))"),
        _ => return None,
    })
}

/// The spec's shifts of `a` by `b` (registers of integer kind `k`, held in 64 bits): the amount read as
/// an unsigned value of the kind's width, amounts at or above the width giving 0 (left, logical) or the
/// sign (arithmetic; an unsigned value's top bit is its sign), as the reference interpreter does.
fn shift(kind: OpKind, k: Kind, a: &str, b: &str) -> Option<String> {
    if !is_int(k) {
        return None;
    }
    let w = 8 * k.size() as u32;
    let rt = reg_type(k);
    let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let s = format!("((unsigned long long)({b}) & 0x{mask:x}ULL)");
    Some(match kind {
        OpKind::ShiftLeft => format!("({s} >= {w}ULL ? ({rt})0 : ({rt})((unsigned long long)({a}) << {s}))"),
        OpKind::ShiftRightLogical => format!("({s} >= {w}ULL ? ({rt})0 : ({rt})(((unsigned long long)({a}) & 0x{mask:x}ULL) >> {s}))"),
        OpKind::ShiftRightArithmetic => {
            let signed = if w == 64 || !is_unsigned(k) { format!("((long long)({a}))") } else { format!("(((long long)((unsigned long long)({a}) << {})) >> {})", 64 - w, 64 - w) };
            format!("({s} >= {w}ULL ? ({rt})({signed} < 0 ? -1LL : 0LL) : ({rt})({signed} >> {s}))")
        }
        _ => return None,
    })
}

fn bool_op(kind: OpKind, a: &str, b: Option<&str>) -> Option<String> {
    use OpKind as K;
    Some(match (kind, b) {
        (K::Not, None) => format!("(!{a})"),
        (K::And | K::Multiply | K::Minimum, Some(b)) => format!("({a} && {b})"),
        (K::Or | K::Add | K::Maximum, Some(b)) => format!("({a} || {b})"),
        (K::Xor, Some(b)) => format!("({a} != {b})"),
        _ => return None,
    })
}

/// The expression of elementwise `op` when a complex number is among its operands or results (`args`:
/// operand registers and kinds, `rk`: the result's kind), as the interpreter computes it; None for the
/// ops that stay on the host (other transcendental functions, ordering compares, conversions to real).
fn complex_expr(op: &Op, args: &[(String, Kind)], rk: Kind) -> Option<String> {
    let (a, ak) = args.first()?.clone();
    let b = args.get(1).filter(|(_, bk)| *bk == ak).map(|(b, _)| b.as_str());
    Some(match (op.kind, b) {
        (OpKind::Real | OpKind::Imag, None) if part_kind(ak) == Some(rk) => round(rk, &format!("{a}.{}", if op.kind == OpKind::Real { "re" } else { "im" })),
        (OpKind::Abs, None) if part_kind(ak) == Some(rk) => round(rk, &format!("hypot({a}.re, {a}.im)")),
        (OpKind::Complex, Some(b)) if part_kind(rk) == Some(ak) => format!("oxz_make((double)({a}), (double)({b}))"),
        (OpKind::Negate, None) if ak == rk => format!("oxz_make(-{a}.re, -{a}.im)"),
        (OpKind::Exponential | OpKind::Log | OpKind::Sqrt | OpKind::Sine | OpKind::Cosine | OpKind::Tanh, None) if ak == rk => {
            let f = match op.kind {
                OpKind::Exponential => "oxz_exp",
                OpKind::Log => "oxz_log",
                OpKind::Sqrt => "oxz_sqrt",
                OpKind::Sine => "oxz_sin",
                OpKind::Cosine => "oxz_cos",
                _ => "oxz_tanh",
            };
            round(rk, &format!("{f}({a})"))
        }
        (OpKind::Add | OpKind::Subtract | OpKind::Multiply | OpKind::Divide, Some(b)) if ak == rk => {
            let f = match op.kind {
                OpKind::Add => "oxz_add",
                OpKind::Subtract => "oxz_sub",
                OpKind::Multiply => "oxz_mul",
                _ => "oxz_div",
            };
            round(rk, &format!("{f}({a}, {b})"))
        }
        (OpKind::Compare, Some(b)) if rk == Kind::Bool && is_complex(ak) => {
            match op.comparison().ok()?.0 {
                Dir::Eq => format!("({a}.re == {b}.re && {a}.im == {b}.im)"),
                Dir::Ne => format!("({a}.re != {b}.re || {a}.im != {b}.im)"),
                _ => return None,
            }
        }
        // Reals and integers to complex (the interpreter's value as a double, then the part's rounding),
        // complex to complex.
        (OpKind::Convert, None) if is_complex(rk) && is_complex(ak) => round(rk, &a),
        (OpKind::Convert, None) if is_complex(rk) && (is_float(ak) || is_int(ak)) => round(rk, &format!("oxz_make((double)({a}), 0.0)")),
        _ => return None,
    })
}

fn compare(op: &Op, k: Kind, a: &str, b: &str) -> Option<String> {
    let (dir, ty) = op.comparison().ok()?;
    if matches!(ty, Some(CmpTy::WeakOrder)) && is_float(k) {
        return None;
    }
    // IEEE totalOrder (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN): the bits as a signed integer,
    // a negative value's bits below the sign flipped (`oxh_tok`).
    let total = matches!(ty, Some(CmpTy::TotalOrder)) && is_float(k);
    let (a, b) = if total { (format!("oxh_tok({a})"), format!("oxh_tok({b})")) } else { (a.to_string(), b.to_string()) };
    if matches!(ty, Some(CmpTy::Unsigned)) && !is_unsigned(k) && k != Kind::Bool {
        return None;
    }
    let c = match dir {
        Dir::Eq => "==",
        Dir::Ne => "!=",
        Dir::Lt => "<",
        Dir::Le => "<=",
        Dir::Gt => ">",
        Dir::Ge => ">=",
    };
    Some(format!("({a} {c} {b})"))
}

fn convert(from: Kind, to: Kind, a: &str) -> Option<String> {
    if from == to {
        return Some(a.to_string());
    }
    if to == Kind::Bool {
        return Some(format!("({a} != 0)"));
    }
    if from == Kind::Bool {
        return Some(round(to, &format!("(({a}) ? 1 : 0)")));
    }
    match (is_float(from), is_float(to)) {
        (_, true) => Some(round(to, &format!("(double)({a})"))),
        (false, false) => Some(round(to, &format!("({})({a})", reg_type(to)))),
        // float -> integer as the interpreter: truncated, saturated to the kind's range, NaN -> 0.
        (true, false) => {
            let w = 8 * to.size() as u32;
            Some(if is_unsigned(to) {
                let hi = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
                format!("oxh_f2u((double)({a}), {hi}ULL)")
            } else {
                let hi = if w == 64 { i64::MAX } else { (1i64 << (w - 1)) - 1 };
                format!("oxh_f2i((double)({a}), {}LL - 1LL, {hi}LL)", -hi)
            })
        }
    }
}

/// The output index `i` as index terms read it, and their literals' suffix: 32-bit unsigned when every
/// index of an iteration space of `numel` elements fits.
fn index_form(numel: i64) -> (&'static str, &'static str) {
    if numel <= u32::MAX as i64 {
        ("((unsigned int)i)", "u")
    } else {
        ("i", "LL")
    }
}

/// `i % size` exactly as index terms render it (`reduce` finds it in a column reduction's body: there it
/// is the thread's own column when `size` is the column count).
pub fn index_modulo(size: i64, numel: i64) -> String {
    let (x, suf) = index_form(numel);
    format!("({x} % {size}{suf})")
}

/// The operand offset contributed by output dim `d` (`(i / step) % size * stride`): no division for a
/// unit step, no modulo for the outermost dim, and 32-bit unsigned arithmetic when every index fits
/// (64-bit division is a long instruction sequence on the GPU). While [`render`] collects launch scalars
/// ([`IndexScalars`]), a power-of-two step or size is a shift or a mask read from a scalar parameter.
fn index_term(step: i64, size: i64, outermost: bool, stride: i64, numel: i64) -> String {
    let (x, suf) = index_form(numel);
    let cast = if suf == "u" { "(unsigned int)" } else { "" };
    let mut t = x.to_string();
    if step != 1 {
        t = match IndexScalars::take(step.trailing_zeros() as i64, step) {
            Some(p) => format!("({t} >> {cast}{p})"),
            None => format!("({t} / {step}{suf})"),
        };
    }
    if !outermost {
        t = match IndexScalars::take(size - 1, size) {
            Some(p) => format!("({t} & {cast}{p})"),
            None if step == 1 => index_modulo(size, numel),
            None => format!("({t} % {size}{suf})"),
        };
    }
    if stride == 1 {
        format!("(long long){t}")
    } else {
        format!("(long long){t} * {stride}LL")
    }
}

/// The launch scalars of the elementwise kernel [`render`] is writing: each power-of-two divisor or
/// modulus of a broadcast's index is a shift or a mask read from a parameter (`long long oxs<j>`, after
/// `n`) instead of a literal, so that kernels that differ only in such sizes (every layer's per-channel
/// scale and shift over 64, 128, 256 or 512 channels) are one source, compiled once by NVRTC; a shift or
/// mask costs what the literal's division or modulo compiled to. One parameter per index term, never
/// shared, so that the source depends on the computation alone. Other kernels (rows, reduction
/// passes, epilogues embed bodies without these parameters) keep literals: collecting happens only
/// inside [`render`], on its thread.
struct IndexScalars;

thread_local! {
    static INDEX_SCALARS: std::cell::RefCell<Option<Vec<i64>>> = const { std::cell::RefCell::new(None) };
}

impl IndexScalars {
    /// The parameter name holding `value` when collecting and `size` is a power of two above 1.
    fn take(value: i64, size: i64) -> Option<String> {
        if size < 2 || size & (size - 1) != 0 {
            return None;
        }
        INDEX_SCALARS.with(|c| {
            let mut c = c.borrow_mut();
            let list = c.as_mut()?;
            list.push(value);
            Some(format!("oxs{}", list.len() - 1))
        })
    }

    /// Runs `f` collecting the scalars its index terms take (collecting stops when `f` returns or
    /// unwinds).
    fn collect<T>(f: impl FnOnce() -> T) -> (T, Vec<i64>) {
        struct Stop;
        impl Drop for Stop {
            fn drop(&mut self) {
                INDEX_SCALARS.with(|c| c.borrow_mut().take());
            }
        }
        INDEX_SCALARS.with(|c| *c.borrow_mut() = Some(Vec::new()));
        let stop = Stop;
        let r = f();
        let scalars = INDEX_SCALARS.with(|c| c.borrow_mut().take()).unwrap_or_default();
        drop(stop);
        (r, scalars)
    }
}

/// What ends a kernel source that takes launch scalars ([`IndexScalars`]): this mark, then the values,
/// on the source's last line (a comment to NVRTC). [`canonical_source`] drops the line, so kernels that
/// differ only in these values are one source; `Kernel::new` reads the values for its launches.
pub const SCALARS_MARK: &str = "//@oxhlo-scalars";

/// Ends `src` with its launch-scalars line ([`SCALARS_MARK`] and `values`; nothing when there are none).
pub fn append_scalars(src: &mut String, values: &[i64]) {
    if !values.is_empty() {
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        let _ = writeln!(src, "{SCALARS_MARK} {}", values.join(" "));
    }
}

/// `src` without its launch-scalars line ([`SCALARS_MARK`]) and the values on it.
pub fn split_scalars(src: &str) -> (&str, Vec<i64>) {
    match src.rfind(SCALARS_MARK) {
        Some(at) => (&src[..at], src[at + SCALARS_MARK.len()..].split_whitespace().filter_map(|w| w.parse().ok()).collect()),
        None => (src, Vec::new()),
    }
}

/// A broadcast_in_dim operand index for output index `i` (row-major `out` shape).
fn broadcast_index(op: &Op, src: &[i64], out: &[i64]) -> Option<String> {
    let numel: i64 = out.iter().product();
    let dims = op.attr("broadcast_dimensions")?.as_i64_list()?;
    if dims.len() != src.len() {
        return None;
    }
    let out_strides = row_major_strides(out);
    let mut terms = Vec::new();
    let mut stride = 1i64;
    for k in (0..src.len()).rev() {
        let d = usize::try_from(dims[k]).ok().filter(|&d| d < out.len())?;
        if src[k] != 1 {
            if src[k] != out[d] {
                return None;
            }
            terms.push(index_term(out_strides[d], out[d], d == 0, stride, numel));
        }
        stride *= src[k];
    }
    Some(if terms.is_empty() { "0".into() } else { terms.join(" + ") })
}

/// Renders the kernel computing `ops` (indices into `block.ops`, in order) over `shape`, reading
/// `inputs` and writing `outputs`: the full CUDA C source with entry [`ENTRY`] taking
/// `(long long n, inputs..., outputs...)`. None when some op or type has no rendering.
/// Power-of-two index sizes are launch scalars (`long long oxs<j>` after `n`, values on the source's
/// last line: [`IndexScalars`], [`SCALARS_MARK`]).
pub fn render(func: &Func, block: &Block, ops: &[usize], inputs: &[Value], outputs: &[Value], shape: &[i64]) -> Option<String> {
    let (b, scalars) = IndexScalars::collect(|| render_body_with(func, block, ops, inputs, outputs, shape, &HashMap::new(), false, true));
    let mut b = b?;
    for j in (0..scalars.len()).rev() {
        b.params.insert(1, format!("long long oxs{j}"));
    }
    let mut src = assemble(b, outputs.len(), shape.iter().product());
    append_scalars(&mut src, &scalars);
    Some(src)
}

/// What [`render_body`] produces: the kernel's parameters (`long long n` first), the scalar body for
/// element `i` (registers, then a store per output), the registers of every value the body defines,
/// the inputs read at `i` and whether any input is read at another index.
pub struct Body {
    pub params: Vec<String>,
    pub body: String,
    pub regs: HashMap<Value, (String, Kind)>,
    elementwise_inputs: Vec<(usize, Kind)>,
    out_kinds: Vec<Kind>,
    gathers: bool,
}

/// The body of the kernel computing `ops` over `shape` (see [`render`]).
pub fn render_body(func: &Func, block: &Block, ops: &[usize], inputs: &[Value], outputs: &[Value], shape: &[i64]) -> Option<Body> {
    render_body_with(func, block, ops, inputs, outputs, shape, &HashMap::new(), false, false)
}

/// [`render_body`] with values already in registers (`seeded`: a row kernel's per-row values, read by
/// the body's ops by name; broadcasts of them pass them through), and for `row_body` (a row kernel's
/// per-row ops, whose values all list the rows in one order) broadcasts of any register pass it through.
/// `complex`: complex numbers may be read, computed and written (plain elementwise kernels only; the
/// reduction, row and region renderers take no complex values).
#[allow(clippy::too_many_arguments)]
pub fn render_body_with(
    func: &Func,
    block: &Block,
    ops: &[usize],
    inputs: &[Value],
    outputs: &[Value],
    shape: &[i64],
    seeded: &HashMap<Value, (String, Kind)>,
    row_body: bool,
    complex: bool,
) -> Option<Body> {
    let elem_type = |k: Kind| if complex { value_type(k) } else { storage_type(k) };
    let numel: i64 = shape.iter().product();
    let mut params = vec!["long long n".to_string()];
    let mut in_idx: HashMap<Value, (usize, Kind, Vec<i64>)> = HashMap::new();
    for (j, &v) in inputs.iter().enumerate() {
        let (k, s) = kind_of(func, v)?;
        params.push(format!("const {}* __restrict__ in{j}", elem_type(k)?));
        in_idx.insert(v, (j, k, s));
    }
    for (j, &v) in outputs.iter().enumerate() {
        let (k, _) = kind_of(func, v)?;
        params.push(format!("{}* __restrict__ out{j}", elem_type(k)?));
    }
    let mut body = String::new();
    let mut regs: HashMap<Value, (String, Kind)> = seeded.clone();
    let mut tmp = 0usize;
    // Inputs read at the element's own index (`i`), and whether any read uses another index expression.
    let mut elementwise_inputs: Vec<(usize, Kind)> = Vec::new();
    let mut gathers = false;
    for &oi in ops {
        let op = block.ops.get(oi)?;
        let class = match op.kind {
            OpKind::Real | OpKind::Imag if complex => EwClass::Unary,
            OpKind::Complex if complex => EwClass::Binary,
            k => ew_class(k)?,
        };
        if op.results.len() != 1 || !op.regions.is_empty() {
            return None;
        }
        let (rk, rshape) = kind_of(func, op.results[0])?;
        if rshape.iter().product::<i64>() != numel || elem_type(rk).is_none() {
            return None;
        }
        // Operand expressions: kernel values by register, inputs loaded at the right index.
        let mut args: Vec<(String, Kind)> = Vec::new();
        for &a in &op.operands {
            if let Some(r) = regs.get(&a) {
                args.push(r.clone());
                continue;
            }
            let (j, k, s) = in_idx.get(&a)?.clone();
            let n: i64 = s.iter().product();
            let idx = if class == EwClass::Broadcast {
                broadcast_index(op, &s, &rshape)?
            } else if n == numel {
                "i".into()
            } else if n == 1 {
                "0".into()
            } else {
                return None;
            };
            match idx.as_str() {
                "i" if !elementwise_inputs.iter().any(|e| e.0 == j) => elementwise_inputs.push((j, k)),
                "i" | "0" => {}
                _ => gathers = true,
            }
            let name = format!("t{tmp}");
            tmp += 1;
            let _ = writeln!(body, "    {} {name} = {};", reg_type(k), load(k, &format!("in{j}"), &idx));
            args.push((name, k));
        }
        let a = args.first()?.0.clone();
        let ak = args.first()?.1;
        let with_complex = is_complex(rk) || args.iter().any(|(_, k)| is_complex(*k));
        let expr = match class {
            EwClass::Unary | EwClass::Binary | EwClass::Compare | EwClass::Convert | EwClass::Clamp if with_complex => complex_expr(op, &args, rk)?,
            EwClass::Broadcast => {
                // An operand inside the kernel must already have the result's shape (identity map), but
                // for a row kernel's per-row values.
                let passes = seeded.contains_key(&op.operands[0]) || (row_body && regs.contains_key(&op.operands[0]));
                if args.len() != 1 || !passes && !in_idx.contains_key(&op.operands[0]) && kind_of(func, op.operands[0])?.1 != rshape {
                    return None;
                }
                a.clone()
            }
            EwClass::Unary => {
                if op.kind == OpKind::IsFinite {
                    if !is_float(ak) {
                        return None;
                    }
                    format!("isfinite({a})")
                } else if matches!(op.kind, OpKind::ChloIsInf | OpKind::ChloIsPosInf | OpKind::ChloIsNegInf) {
                    if !is_float(ak) {
                        return None;
                    }
                    match op.kind {
                        OpKind::ChloIsInf => format!("isinf({a})"),
                        OpKind::ChloIsPosInf => format!("(isinf({a}) && {a} > 0)"),
                        _ => format!("(isinf({a}) && {a} < 0)"),
                    }
                } else if rk != ak {
                    return None;
                } else if is_float(rk) {
                    round(rk, &float_unary(op.kind, rk, &a)?)
                } else if rk == Kind::Bool {
                    bool_op(op.kind, &a, None)?
                } else {
                    let rt = reg_type(rk);
                    let e = match op.kind {
                        OpKind::Negate => format!("({rt})(0ULL - (unsigned long long)({a}))"),
                        OpKind::Not => format!("(~{a})"),
                        OpKind::Abs if !is_unsigned(rk) => format!("({a} < 0 ? ({rt})(0ULL - (unsigned long long)({a})) : {a})"),
                        OpKind::Sign if !is_unsigned(rk) => format!("({rt})({a} > 0 ? 1 : ({a} < 0 ? -1 : 0))"),
                        _ => return None,
                    };
                    round(rk, &e)
                }
            }
            EwClass::Binary => {
                let b = &args.get(1)?.0;
                if args[1].1 != ak || rk != ak {
                    return None;
                }
                if is_float(rk) {
                    round(rk, &float_binary(op.kind, rk, &a, b)?)
                } else if rk == Kind::Bool {
                    bool_op(op.kind, &a, Some(b))?
                } else {
                    round(rk, &int_binary(op.kind, rk, &a, b)?)
                }
            }
            EwClass::Compare => {
                let b = &args.get(1)?.0;
                if args[1].1 != ak || rk != Kind::Bool {
                    return None;
                }
                compare(op, ak, &a, b)?
            }
            EwClass::Select => {
                let [(p, pk), (t, tk), (f, fk)] = args.as_slice() else { return None };
                if *pk != Kind::Bool || tk != fk || *tk != rk {
                    return None;
                }
                format!("({p} ? {t} : {f})")
            }
            EwClass::Clamp => {
                let [(lo, lk), (x, xk), (hi, hk)] = args.as_slice() else { return None };
                if lk != xk || hk != xk || *xk != rk {
                    return None;
                }
                if is_float(rk) {
                    format!("oxh_min(oxh_max({x}, {lo}), {hi})")
                } else if rk == Kind::Bool {
                    return None;
                } else {
                    format!("({x} < {lo} ? {lo} : ({x} > {hi} ? {hi} : {x}))")
                }
            }
            EwClass::Convert => convert(ak, rk, &a)?,
        };
        let name = format!("v{}", op.results[0].0);
        let _ = writeln!(body, "    {} {name} = {expr};", reg_type(rk));
        regs.insert(op.results[0], (name, rk));
    }
    let mut out_kinds = Vec::new();
    for (j, &v) in outputs.iter().enumerate() {
        let (name, k) = regs.get(&v)?;
        let _ = writeln!(body, "    out{j}[i] = {};", store(*k, name));
        out_kinds.push(*k);
    }
    Some(Body { params, body, regs, elementwise_inputs, out_kinds, gathers })
}

/// A body's work on four consecutive elements `i0 .. i0 + 4` (`i0` a multiple of 4): `loads` (every
/// input read at the element's index, one vector load each into `a<j>[4]`, and the output lanes
/// `o<j>[4]` declared), `lane` (the body for lane `e`, run in a `for e` loop: inputs read at other
/// indices, broadcasts, load per element from `i`; outputs written to `o<j>[e]`) and `stores` (each
/// output as one vector store). Inputs and outputs start at allocation bases, aligned for it.
pub struct Lanes {
    pub loads: String,
    pub lane: String,
    pub stores: String,
}

impl Body {
    /// This body on four consecutive elements, its first `n_outputs` outputs stored (see [`Lanes`]).
    pub fn lanes(&self, n_outputs: usize) -> Lanes {
        let mut lane = self.body.clone();
        for &(j, _) in &self.elementwise_inputs {
            lane = lane.replace(&format!("in{j}[i]"), &format!("a{j}[e]"));
        }
        for j in 0..n_outputs {
            lane = lane.replace(&format!("out{j}[i] ="), &format!("o{j}[e] ="));
        }
        if self.gathers {
            lane = format!("      const long long i = i0 + e;\n{lane}");
        }
        let mut loads = String::new();
        for &(j, k) in &self.elementwise_inputs {
            // Elements of 16 bytes (complex128) move one by one; the others four to one or two vectors.
            let (ty, wide) = (value_type(k).unwrap_or("int"), k.size() == 16);
            let ld = if wide { format!("for (int e = 0; e < 4; ++e) a{j}[e] = in{j}[i0 + e];") } else { format!("oxh_ld4(a{j}, in{j} + i0);") };
            let _ = writeln!(loads, "    __align__(16) {ty} a{j}[4]; {ld}");
        }
        for (j, &k) in self.out_kinds.iter().enumerate().take(n_outputs) {
            let _ = writeln!(loads, "    __align__(16) {} o{j}[4];", value_type(k).unwrap_or("int"));
        }
        let mut stores = String::new();
        for j in 0..n_outputs {
            if self.out_kinds.get(j).is_some_and(|k| k.size() == 16) {
                let _ = writeln!(stores, "    for (int e = 0; e < 4; ++e) out{j}[i0 + e] = o{j}[e];");
            } else {
                let _ = writeln!(stores, "    oxh_st4(out{j} + i0, o{j});");
            }
        }
        Lanes { loads, lane, stores }
    }
}

/// The elementwise kernel of a body: a 4-elements-per-thread vector loop and a scalar tail, the tail
/// left out when the kernel's `numel` elements are a multiple of 4 (it would never run: the scalar copy
/// of the body was a fifth of the source NVRTC compiles).
fn assemble(b: Body, n_outputs: usize, numel: i64) -> String {
    let complex = b.body.contains("oxz");
    let Lanes { loads, lane, stores } = b.lanes(n_outputs);
    let mut src = String::from(PRELUDE);
    if complex {
        src.push_str(COMPLEX_PRELUDE);
    }
    let _ = writeln!(src, "extern \"C\" __global__ void {ENTRY}({}) {{", b.params.join(", "));
    let _ = writeln!(src, "  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x, stride = (long long)gridDim.x * blockDim.x;");
    // Four elements per thread, all loads issued before the arithmetic; the scalar loop below finishes
    // the last n % 4.
    let _ = writeln!(src, "  for (long long q = tid; q < (n >> 2); q += stride) {{\n    const long long i0 = q << 2;");
    src.push_str(&loads);
    let _ = writeln!(src, "    #pragma unroll\n    for (int e = 0; e < 4; ++e) {{");
    for line in lane.lines() {
        let _ = writeln!(src, "  {line}");
    }
    let _ = writeln!(src, "    }}");
    src.push_str(&stores);
    let _ = writeln!(src, "  }}");
    if numel % 4 != 0 {
        let _ = write!(src, "  for (long long i = ((n >> 2) << 2) + tid; i < n; i += stride) {{\n{}  }}\n", b.body);
    }
    src.push_str("}\n");
    src
}

/// Renders a fused kernel of `block`.
pub fn render_fused(func: &Func, block: &Block, k: &FusedKernel) -> Option<String> {
    render(func, block, &k.ops, &k.inputs, &k.outputs, &k.shape)
}

/// Renders a single elementwise op (`block.ops[i]`) as a kernel; inputs are its distinct operands.
pub fn render_single(func: &Func, block: &Block, i: usize) -> Option<(String, Vec<Value>)> {
    let op = block.ops.get(i)?;
    if !matches!(op.kind, OpKind::Real | OpKind::Imag | OpKind::Complex) {
        ew_class(op.kind)?;
    }
    let mut inputs: Vec<Value> = Vec::new();
    for &a in &op.operands {
        if !inputs.contains(&a) {
            inputs.push(a);
        }
    }
    let (_, shape) = kind_of(func, *op.results.first()?)?;
    let src = render(func, block, &[i], &inputs, &op.results, &shape)?;
    Some((src, inputs))
}

/// The form in which a permute of elements of `elem_bytes` bytes is moved: when the innermost dim stays
/// innermost, its rows move as wider units (16, 8 or 4 bytes; buffers start at allocation bases, aligned
/// for them). Returns `(shape in units, unit bytes)`; the permutation is unchanged.
pub fn permute_units(in_shape: &[i64], perm: &[usize], elem_bytes: usize) -> (Vec<i64>, usize) {
    let rank = in_shape.len();
    if rank >= 1 && perm.last() == Some(&(rank - 1)) {
        let inner = in_shape[rank - 1].checked_mul(elem_bytes as i64).unwrap_or(-1);
        for unit in [16usize, 8, 4] {
            if unit > elem_bytes && inner > 0 && inner % unit as i64 == 0 {
                let mut shape = in_shape.to_vec();
                shape[rank - 1] = inner / unit as i64;
                return (shape, unit);
            }
        }
    }
    (in_shape.to_vec(), elem_bytes)
}

/// [`render_permute`] of the unit form ([`permute_units`]) of a permute.
pub fn render_permute_units(in_shape: &[i64], perm: &[usize], elem_bytes: usize) -> Option<String> {
    let (shape, unit) = permute_units(in_shape, perm, elem_bytes);
    render_permute(&shape, perm, unit)
}

/// A transpose (permute) kernel: output dims `out` (row-major), output dim d reads input dim `perm[d]`
/// of an input with row-major `in_shape`; elements of `elem_bytes` bytes copied unchanged.
pub fn render_permute(in_shape: &[i64], perm: &[usize], elem_bytes: usize) -> Option<String> {
    let ty = bits_type(elem_bytes)?;
    if perm.len() != in_shape.len() {
        return None;
    }
    let in_strides = row_major_strides(in_shape);
    let out: Vec<i64> = perm.iter().map(|&p| in_shape.get(p).copied()).collect::<Option<_>>()?;
    // 32-bit index arithmetic when every index fits (64-bit division is a long instruction sequence).
    let n = checked_numel(&out)?;
    let (t, suf) = if n <= u32::MAX as i64 { ("unsigned int", "u") } else { ("unsigned long long", "ULL") };
    let mut body = format!("    {t} r = ({t})i; long long src = 0;\n");
    for d in (0..out.len()).rev() {
        let _ = writeln!(body, "    src += (long long)(r % {}{suf}) * {}LL; r /= {}{suf};", out[d], in_strides[perm[d]], out[d]);
    }
    Some(format!(
        "extern \"C\" __global__ void {ENTRY}(long long n, const {ty}* __restrict__ in0, {ty}* __restrict__ out0) {{\n  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {{\n{body}    out0[i] = in0[src];\n  }}\n}}\n"
    ))
}
