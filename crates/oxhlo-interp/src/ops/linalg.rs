//! cholesky and triangular_solve, batched over leading dimensions, on f32/f64 (and other floats) and
//! complex64/128. Both compute in f64 for real operands (real arithmetic, as LAPACK does) and in
//! complex f64 for complex ones, and round once to the result type.
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

/// The arithmetic both ops need: real f64 for real operands (as LAPACK computes them), complex f64 for
/// complex ones.
trait Field: Copy {
    const ZERO: Self;
    const ONE: Self;
    fn real(x: f64) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    /// Division by a real pivot.
    fn div_real(self, d: f64) -> Self;
    fn conj(self) -> Self;
    /// The real part.
    fn re(self) -> f64;
    /// |x|^2.
    fn norm2(self) -> f64;
    fn load(t: &Tensor) -> Result<Vec<Self>, String>;
    fn store(elem: &ElementType, v: Vec<Self>) -> Result<Data, String>;
}

impl Field for f64 {
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    fn real(x: f64) -> f64 {
        x
    }
    fn sub(self, o: f64) -> f64 {
        self - o
    }
    fn mul(self, o: f64) -> f64 {
        self * o
    }
    fn div(self, o: f64) -> f64 {
        self / o
    }
    fn div_real(self, d: f64) -> f64 {
        self / d
    }
    fn conj(self) -> f64 {
        self
    }
    fn re(self) -> f64 {
        self
    }
    fn norm2(self) -> f64 {
        self * self
    }
    fn load(t: &Tensor) -> Result<Vec<f64>, String> {
        match &t.data {
            Data::Float(v) => Ok(v.clone()),
            _ => Err("linear algebra ops need float or complex operands".into()),
        }
    }
    fn store(elem: &ElementType, v: Vec<f64>) -> Result<Data, String> {
        let ft = elem.float_type().filter(|_| !elem.is_complex()).ok_or("the result of real operands must be a float type")?;
        Ok(Data::Float(v.into_iter().map(|x| round_to(ft, x)).collect()))
    }
}

impl Field for C64 {
    const ZERO: C64 = C64(0.0, 0.0);
    const ONE: C64 = C64(1.0, 0.0);
    fn real(x: f64) -> C64 {
        C64(x, 0.0)
    }
    fn sub(self, o: C64) -> C64 {
        C64(self.0 - o.0, self.1 - o.1)
    }
    fn mul(self, o: C64) -> C64 {
        Ring::mul(self, o)
    }
    fn div(self, b: C64) -> C64 {
        if b.1 == 0.0 {
            return self.div_real(b.0);
        }
        let d = b.0 * b.0 + b.1 * b.1;
        C64((self.0 * b.0 + self.1 * b.1) / d, (self.1 * b.0 - self.0 * b.1) / d)
    }
    fn div_real(self, d: f64) -> C64 {
        C64(self.0 / d, self.1 / d)
    }
    fn conj(self) -> C64 {
        C64(self.0, -self.1)
    }
    fn re(self) -> f64 {
        self.0
    }
    fn norm2(self) -> f64 {
        self.0 * self.0 + self.1 * self.1
    }
    fn load(t: &Tensor) -> Result<Vec<C64>, String> {
        match &t.data {
            Data::Complex(v) => Ok(v.iter().map(|&(a, b)| C64(a, b)).collect()),
            _ => Err("linear algebra ops need float or complex operands".into()),
        }
    }
    fn store(elem: &ElementType, v: Vec<C64>) -> Result<Data, String> {
        let ft = elem.float_type().filter(|_| elem.is_complex()).ok_or("the result of complex operands must be complex")?;
        Ok(Data::Complex(v.into_iter().map(|c| (round_to(ft, c.0), round_to(ft, c.1))).collect()))
    }
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
    let data = match &a.data {
        Data::Complex(_) => C64::store(&ty.elem, cholesky(&C64::load(a)?, batch, n, lower))?,
        _ => f64::store(&ty.elem, cholesky(&f64::load(a)?, batch, n, lower))?,
    };
    Ok(vec![tv(ty, data)])
}

/// The factors of `batch` n x n matrices `av`: L (lower) or its conjugate transpose, the other
/// triangle zeros.
fn cholesky<F: Field>(av: &[F], batch: usize, n: usize, lower: bool) -> Vec<F> {
    let mut out = vec![F::ZERO; av.len()];
    let mut l = vec![F::ZERO; n * n];
    for b in 0..batch {
        let m = &av[b * n * n..(b + 1) * n * n];
        // Hermitian input read from the requested triangle, as a lower-triangle element (i >= j).
        let get = |i: usize, j: usize| if lower { m[i * n + j] } else { m[j * n + i].conj() };
        l.iter_mut().for_each(|v| *v = F::ZERO);
        for j in 0..n {
            let mut d = get(j, j).re();
            for k in 0..j {
                d -= l[j * n + k].norm2();
            }
            let djj = if d > 0.0 { d.sqrt() } else if d == 0.0 { 0.0 } else { f64::NAN };
            l[j * n + j] = F::real(djj);
            for i in j + 1..n {
                let mut s = get(i, j);
                for k in 0..j {
                    s = s.sub(l[i * n + k].mul(l[j * n + k].conj()));
                }
                l[i * n + j] = s.div_real(djj);
            }
        }
        let o = &mut out[b * n * n..(b + 1) * n * n];
        for i in 0..n {
            for j in 0..=i {
                if lower {
                    o[i * n + j] = l[i * n + j];
                } else {
                    o[j * n + i] = l[i * n + j].conj();
                }
            }
        }
    }
    out
}

/// Solves `t x = rhs` in place for triangular `t` (n x n, row-major), lower or upper. Each `x[i]`
/// subtracts the solved values in the order they were solved (forward: k = 0, 1, ...; backward:
/// k = n - 1, n - 2, ...), the mirror of each other; the spec leaves the order open, and this one lets
/// a blocked solver (the CUDA backend's) apply each solved block to the rest as soon as it is known.
fn substitute<F: Field>(t: &[F], n: usize, lower: bool, x: &mut [F]) {
    if lower {
        for i in 0..n {
            let mut s = x[i];
            for k in 0..i {
                s = s.sub(t[i * n + k].mul(x[k]));
            }
            x[i] = s.div(t[i * n + i]);
        }
    } else {
        for i in (0..n).rev() {
            let mut s = x[i];
            for k in (i + 1..n).rev() {
                s = s.sub(t[i * n + k].mul(x[k]));
            }
            x[i] = s.div(t[i * n + i]);
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
    let flags = [left, lower, unit];
    let data = match (&a.data, &b.data) {
        (Data::Complex(_), _) | (_, Data::Complex(_)) => {
            let mut bv = C64::load(b)?;
            solve(&C64::load(a)?, &mut bv, batch, m, rows, cols, flags, trans);
            C64::store(&ty.elem, bv)?
        }
        _ => {
            let mut bv = f64::load(b)?;
            solve(&f64::load(a)?, &mut bv, batch, m, rows, cols, flags, trans);
            f64::store(&ty.elem, bv)?
        }
    };
    Ok(vec![tv(ty, data)])
}

/// Solves each of `batch` systems op(a) x = b (left) or x op(a) = b in place in `bv`.
#[allow(clippy::too_many_arguments)]
fn solve<F: Field>(av: &[F], bv: &mut [F], batch: usize, m: usize, rows: usize, cols: usize, flags: [bool; 3], trans: Transpose) {
    let [left, lower, unit] = flags;
    let mut t = vec![F::ZERO; m * m];
    let mut line = vec![F::ZERO; m];
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
                    F::ONE
                } else if in_tri {
                    am[i * m + j]
                } else {
                    F::ZERO
                };
                if conjugate {
                    v = v.conj();
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
}
