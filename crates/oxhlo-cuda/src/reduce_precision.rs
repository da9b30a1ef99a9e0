//! `stablehlo.reduce_precision` on the GPU (JAX's `lax.reduce_precision`: emulating a narrower float
//! format in a wider one), a thread an element on the storage bits, as the reference interpreter rounds:
//! the mantissa to `mantissa_bits` (to nearest, ties to even; past the largest finite value:
//! infinity), then the exponent range of `exponent_bits` (above: infinity; below, or a subnormal of the
//! type: zero), the sign kept; infinities and NaNs stay (a NaN with no mantissa bits left becomes the
//! infinity of its sign, as XLA does). Complex elements and dynamic shapes stay on the host.

use crate::render::{bits_type, kind_of, ENTRY, PRELUDE};
use oxhlo_cpu::Kind;
use oxhlo_ir::{Attr, Func, Op, OpKind};
use std::fmt::Write;

/// (exponent bits, mantissa bits, bias) of a float kind's format.
fn format_of(k: Kind) -> Option<(u32, u32, i64)> {
    Some(match k {
        Kind::F16 => (5, 10, 15),
        Kind::BF16 => (8, 7, 127),
        Kind::F32 => (8, 23, 127),
        Kind::F64 => (11, 52, 1023),
        _ => return None,
    })
}

/// The kernel of reduce_precision `op` and its element count: `(long long n, in0, out0)` over the
/// elements' bits. None when it stays on the host.
pub fn render(func: &Func, op: &Op) -> Option<(String, usize)> {
    if op.kind != OpKind::ReducePrecision || crate::env_off("OXHLO_CUDA_REDUCE_PRECISION") {
        return None;
    }
    let (k, shape) = kind_of(func, *op.operands.first()?)?;
    let (rk, rshape) = kind_of(func, *op.results.first()?)?;
    let (e, m, bias) = format_of(k)?;
    let eb = op.attr("exponent_bits").and_then(Attr::as_int)?;
    let mb = op.attr("mantissa_bits").and_then(Attr::as_int)?;
    if rk != k || rshape != shape || !(1..=64).contains(&eb) || !(0..=64).contains(&mb) {
        return None;
    }
    let ty = bits_type(k.size())?;
    let sign_mask = 1u64 << (e + m);
    let exp_all = ((1u64 << e) - 1) << m;
    let max_finite = exp_all - 1;
    let mut body = String::new();
    let _ = writeln!(body, "    const unsigned long long bits = (unsigned long long)in0[i], sign = bits & 0x{sign_mask:x}ULL;");
    let _ = writeln!(body, "    unsigned long long mag = bits & 0x{:x}ULL, out = bits;", sign_mask - 1);
    let _ = writeln!(body, "    const bool special = (mag & 0x{exp_all:x}ULL) == 0x{exp_all:x}ULL;");
    if mb == 0 {
        // A NaN keeps no mantissa bit: the infinity of its sign.
        let _ = writeln!(body, "    if (special && mag != 0x{exp_all:x}ULL) out = sign | 0x{exp_all:x}ULL;");
    }
    let _ = writeln!(body, "    if (!special) {{");
    let _ = writeln!(body, "      bool inf = false, zero = false;");
    if (mb as u32) < m {
        let s = m - mb as u32;
        let _ = writeln!(body, "      unsigned long long q = mag >> {s}, r = mag & 0x{:x}ULL;", (1u64 << s) - 1);
        let _ = writeln!(body, "      if (r > 0x{:x}ULL || (r == 0x{:x}ULL && (q & 1ULL))) q += 1ULL;", 1u64 << (s - 1), 1u64 << (s - 1));
        let _ = writeln!(body, "      mag = q << {s};\n      inf = mag > 0x{max_finite:x}ULL;");
    }
    if (eb as u32) < e {
        let narrow = (1i64 << (eb - 1)) - 1;
        let _ = writeln!(body, "      const long long biased = (long long)(mag >> {m}), exponent = biased - {bias}LL;");
        let _ = writeln!(body, "      if (!inf && exponent > {narrow}LL) inf = true;");
        let _ = writeln!(body, "      if (!inf && (biased == 0LL || exponent <= -{narrow}LL)) zero = true;");
    }
    let _ = writeln!(body, "      out = inf ? (sign | 0x{exp_all:x}ULL) : zero ? sign : (sign | mag);\n    }}");
    let _ = writeln!(body, "    out0[i] = ({ty})out;");
    let n = crate::render::checked_numel(&shape)?;
    let src = format!(
        "{PRELUDE}extern \"C\" __global__ void {ENTRY}(long long n, const {ty}* __restrict__ in0, {ty}* __restrict__ out0) {{\n  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {{\n{body}  }}\n}}\n"
    );
    Some((src, n as usize))
}
