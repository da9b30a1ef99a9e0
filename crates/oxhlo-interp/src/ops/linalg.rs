//! cholesky and triangular_solve, batched over leading dimensions, on f32/f64 (and other floats) and
//! complex64/128. Both compute in f64 (complex f64) and round once to the result type.
//!
//! cholesky reads only the triangle it is asked for (`lower`) and writes zeros to the other one (the spec
//! leaves it implementation-defined); a matrix that is not positive definite yields NaNs where the
//! factorization breaks down, as XLA does. triangular_solve reads only the `lower`/upper triangle of `a`,
//! takes the diagonal as ones when `unit_diagonal`, applies NO_TRANSPOSE / TRANSPOSE / ADJOINT, and solves
//! op(a) x = b (left_side) or x op(a) = b by substitution.

use crate::ops::support::*;
use crate::ops::OpCtx;
use crate::tensor::{round_to, Data, RtValue, Tensor};
use oxhlo_ir::attr::Transpose;
use oxhlo_ir::{Attr, ElementType};

fn to_c(t: &Tensor) -> Result<Vec<C64>, String> {
    match &t.data {
        Data::Float(v) => Ok(v.iter().map(|&x| C64(x, 0.0)).collect()),
        Data::Complex(v) => Ok(v.iter().map(|&(a, b)| C64(a, b)).collect()),
        _ => Err("linear algebra ops need float or complex operands".into()),
    }
}

fn from_c(elem: &ElementType, v: Vec<C64>) -> Result<Data, String> {
    let ft = elem.float_type().ok_or("result must be float or complex")?;
    Ok(if elem.is_complex() {
        Data::Complex(v.into_iter().map(|c| (round_to(ft, c.0), round_to(ft, c.1))).collect())
    } else {
        Data::Float(v.into_iter().map(|c| round_to(ft, c.0)).collect())
    })
}

#[inline]
fn conj(c: C64) -> C64 {
    C64(c.0, -c.1)
}

#[inline]
fn div(a: C64, b: C64) -> C64 {
    if b.1 == 0.0 {
        return C64(a.0 / b.0, a.1 / b.0);
    }
    let d = b.0 * b.0 + b.1 * b.1;
    C64((a.0 * b.0 + a.1 * b.1) / d, (a.1 * b.0 - a.0 * b.1) / d)
}

#[inline]
fn sub(a: C64, b: C64) -> C64 {
    C64(a.0 - b.0, a.1 - b.1)
}

/// Square matrices `[..., n, n]`: (batch count, n).
fn square(t: &Tensor, what: &str) -> Result<(usize, usize), String> {
    let s = t.shape();
    let r = s.len();
    if r < 2 || s[r - 1] != s[r - 2] {
        return Err(format!("{what} must be a batch of square matrices, got shape {s:?}"));
    }
    let n = s[r - 1] as usize;
    Ok((if n == 0 { elem_count(&s[..r - 2])? } else { t.len() / (n * n) }, n))
}

pub fn eval_cholesky(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let a = tensor_arg(args, 0)?;
    let lower = flag(ctx, "lower");
    let (batch, n) = square(a, "cholesky operand")?;
    let ty = refine_result_type(ctx, 0, a.shape())?;
    let av = to_c(a)?;
    let mut out = vec![C64(0.0, 0.0); av.len()];
    let mut l = vec![C64(0.0, 0.0); n * n];
    for b in 0..batch {
        let m = &av[b * n * n..(b + 1) * n * n];
        // Hermitian input read from the requested triangle, as a lower-triangle element (i >= j).
        let get = |i: usize, j: usize| if lower { m[i * n + j] } else { conj(m[j * n + i]) };
        l.iter_mut().for_each(|v| *v = C64(0.0, 0.0));
        for j in 0..n {
            let mut d = get(j, j).0;
            for k in 0..j {
                let x = l[j * n + k];
                d -= x.0 * x.0 + x.1 * x.1;
            }
            let djj = if d > 0.0 { d.sqrt() } else if d == 0.0 { 0.0 } else { f64::NAN };
            l[j * n + j] = C64(djj, 0.0);
            for i in j + 1..n {
                let mut s = get(i, j);
                for k in 0..j {
                    s = sub(s, l[i * n + k].mul(conj(l[j * n + k])));
                }
                l[i * n + j] = div(s, C64(djj, 0.0));
            }
        }
        let o = &mut out[b * n * n..(b + 1) * n * n];
        for i in 0..n {
            for j in 0..=i {
                if lower {
                    o[i * n + j] = l[i * n + j];
                } else {
                    o[j * n + i] = conj(l[i * n + j]);
                }
            }
        }
    }
    let data = from_c(&ty.elem, out)?;
    Ok(vec![tv(ty, data)])
}

/// Solves `t x = rhs` in place for triangular `t` (n x n, row-major), lower or upper. Each `x[i]`
/// subtracts the solved values in the order they were solved (forward: k = 0, 1, ...; backward:
/// k = n - 1, n - 2, ...), the mirror of each other; the spec leaves the order open, and this one lets
/// a blocked solver (the CUDA backend's) apply each solved block to the rest as soon as it is known.
fn substitute(t: &[C64], n: usize, lower: bool, x: &mut [C64]) {
    if lower {
        for i in 0..n {
            let mut s = x[i];
            for k in 0..i {
                s = sub(s, t[i * n + k].mul(x[k]));
            }
            x[i] = div(s, t[i * n + i]);
        }
    } else {
        for i in (0..n).rev() {
            let mut s = x[i];
            for k in (i + 1..n).rev() {
                s = sub(s, t[i * n + k].mul(x[k]));
            }
            x[i] = div(s, t[i * n + i]);
        }
    }
}

pub fn eval_triangular_solve(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let a = tensor_arg(args, 0)?;
    let b = tensor_arg(args, 1)?;
    let left = flag(ctx, "left_side");
    let lower = flag(ctx, "lower");
    let unit = flag(ctx, "unit_diagonal");
    let trans = match ctx.op.attr("transpose_a") {
        Some(Attr::Transpose(t)) => *t,
        None => Transpose::NoTranspose,
        Some(_) => return Err("transpose_a must be #stablehlo<transpose ...>".into()),
    };
    if trans == Transpose::TransposeInvalid {
        return Err("transpose_a is TRANSPOSE_INVALID".into());
    }
    let (batch, m) = square(a, "a")?;
    let bs = b.shape();
    let r = bs.len();
    if r != a.shape().len() || bs[..r - 2] != a.shape()[..r - 2] {
        return Err(format!("b shape {bs:?} does not match a's batch shape {:?}", a.shape()));
    }
    let (rows, cols) = (bs[r - 2] as usize, bs[r - 1] as usize);
    if (left && rows != m) || (!left && cols != m) {
        return Err(format!("b shape {bs:?} does not fit a {m}x{m} left_side={left} solve"));
    }
    let ty = refine_result_type(ctx, 0, bs)?;
    let av = to_c(a)?;
    let mut bv = to_c(b)?;
    let mut t = vec![C64(0.0, 0.0); m * m];
    let mut line = vec![C64(0.0, 0.0); m];
    for bi in 0..batch {
        let am = &av[bi * m * m..(bi + 1) * m * m];
        // T = op(triangle of a); for right-side solves use T^T (x T = b  <=>  T^T x^T = b^T).
        let transposed = trans != Transpose::NoTranspose;
        let conjugate = trans == Transpose::Adjoint;
        let flip = transposed == left;
        for i in 0..m {
            for j in 0..m {
                let in_tri = if lower { j <= i } else { j >= i };
                let mut v = if i == j && unit {
                    C64(1.0, 0.0)
                } else if in_tri {
                    am[i * m + j]
                } else {
                    C64(0.0, 0.0)
                };
                if conjugate {
                    v = conj(v);
                }
                if flip {
                    t[j * m + i] = v;
                } else {
                    t[i * m + j] = v;
                }
            }
        }
        let eff_lower = lower != flip;
        let bm = &mut bv[bi * rows * cols..(bi + 1) * rows * cols];
        if left {
            for c in 0..cols {
                for i in 0..m {
                    line[i] = bm[i * cols + c];
                }
                substitute(&t, m, eff_lower, &mut line);
                for i in 0..m {
                    bm[i * cols + c] = line[i];
                }
            }
        } else {
            for rr in 0..rows {
                substitute(&t, m, eff_lower, &mut bm[rr * cols..(rr + 1) * cols]);
            }
        }
    }
    let data = from_c(&ty.elem, bv)?;
    Ok(vec![tv(ty, data)])
}
