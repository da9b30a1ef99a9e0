//! Row kernels' arithmetic ([`crate::rows`] renders it): maxima and minima folded without branches
//! ([`FOLD_MAX_MIN`]), and divisions by a row's value as the row's reciprocal and a corrected product
//! an element ([`row_divisions`], [`ROW_DIVIDE`]), both exact.

use std::collections::HashMap;
use std::fmt::Write;

/// `body` (a row kernel's output loop) with its f32 divisions by a row's value (`__fdiv_rn(x, r7)`, or
/// by a copy `float v9 = r7;` of it) as `oxh_rdiv(x, v9, rc_r7, slow_)`, and those row registers; None
/// when it has none. See [`ROW_DIVIDE`].
pub fn row_divisions(body: &str) -> Option<(String, Vec<String>)> {
    // Names holding a row register: the registers themselves and the body's copies of them.
    let mut row_of: HashMap<String, String> = HashMap::new();
    for line in body.lines() {
        let t = line.trim();
        if let Some((lhs, rhs)) = t.strip_prefix("float ").and_then(|t| t.strip_suffix(';')).and_then(|t| t.split_once(" = ")) {
            let is_reg = |n: &str| n.len() > 1 && n.starts_with('r') && n[1..].bytes().all(|c| c.is_ascii_digit());
            if is_reg(rhs) {
                row_of.insert(lhs.to_string(), rhs.to_string());
            }
        }
    }
    let (mut out, mut rest, mut divisors) = (String::new(), body, Vec::new());
    while let Some(at) = rest.find("__fdiv_rn(") {
        let args = &rest[at + "__fdiv_rn(".len()..];
        // The first argument runs to the comma at depth 0, the second to the closing parenthesis.
        let (mut depth, mut comma, mut close) = (0i32, None, None);
        for (k, c) in args.char_indices() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' if depth > 0 => depth -= 1,
                ')' => {
                    close = Some(k);
                    break;
                }
                ',' if depth == 0 => comma = Some(k),
                _ => {}
            }
        }
        let (comma, close) = (comma?, close?);
        let (x, d) = (args[..comma].trim(), args[comma + 1..close].trim());
        let reg = row_of.get(d).cloned().or_else(|| d.strip_prefix('r').filter(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit())).map(|_| d.to_string()));
        out += &rest[..at];
        match reg {
            Some(r) => {
                let _ = write!(out, "oxh_rdiv({x}, {d}, rc_{r}, slow_)");
                if !divisors.contains(&r) {
                    divisors.push(r);
                }
            }
            None => out += &rest[at..at + "__fdiv_rn(".len() + close + 1],
        }
        rest = &args[close + 1..];
    }
    out += rest;
    (!divisors.is_empty()).then_some((out, divisors))
}

/// Row kernels' divisions by a row's value (softmax's `e / sum`): `OXHLO_CUDA_ROW_DIVIDE=0` keeps IEEE
/// divisions (`__fdiv_rn`: a reciprocal, its refinement and a range check an element) instead of
/// [`row_divisions`]' form (read once).
pub fn row_divide_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    crate::on_unless_off(&ON, "OXHLO_CUDA_ROW_DIVIDE")
}

/// `x / d` for `d` a row's value whose correctly rounded reciprocal `rc` the row computed once: the
/// product `q = x rc` corrected by its residual (`x - q d`, exact in a fused multiply-add) is the
/// correctly rounded quotient (Markstein's theorem) when nothing under- or overflows: `d` within
/// [2^-20, 2^20] (the row's check) and `|x|` within (2^-100, 2^100), or `x` +0 (a masked softmax's
/// exponentials: the form gives +0 / d = +0, but +0 for -0 too, so -0 is not taken); otherwise `slow`
/// is set and the row's loop runs again with IEEE divisions.
pub const ROW_DIVIDE: &str = "__device__ __forceinline__ float oxh_rdiv(float x, float d, float rc, bool& slow) {
  const float q = __fmul_rn(x, rc);
  slow |= !((fabsf(x) > 0x1p-100f && fabsf(x) < 0x1p100f) || __float_as_uint(x) == 0u);
  return fmaf(fmaf(-q, d, x), rc, q);
}
";

/// A thread's fold of maxima and minima in float without branches: `fmaxf` / `fminf` (which drop NaNs:
/// the fold keeps a flag of its own, and a NaN seen makes the partial NaN) except for equal operands,
/// whose bits are and-ed (max) or or-ed (min), so that max(-0, +0) is +0 and min(-0, +0) is -0 as the
/// spec's maximum and minimum order them. `oxh_max` (tests and branches on NaNs and zeros) took ~10
/// instructions an element of a softmax row; these take five with the flag.
pub const FOLD_MAX_MIN: &str = "__device__ __forceinline__ float oxh_fold_max(float a, float b) { return a == b ? __int_as_float(__float_as_int(a) & __float_as_int(b)) : fmaxf(a, b); }
__device__ __forceinline__ float oxh_fold_min(float a, float b) { return a == b ? __int_as_float(__float_as_int(a) | __float_as_int(b)) : fminf(a, b); }
";
