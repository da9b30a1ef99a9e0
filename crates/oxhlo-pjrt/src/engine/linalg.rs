//! Linear-algebra `custom_call` targets JAX emits for a platform without LAPACK kernels (XLA expands
//! them on TPU), implemented natively on batches of real or complex matrices, computed in f64 and
//! rounded to the result type:
//! - `Qr`: Householder QR in LAPACK `geqrf` form: `(a, taus)`, R in the upper triangle of `a`, the
//!   reflectors' vectors below it (same sign conventions as LAPACK, so results match the CPU backend).
//! - `ProductOfElementaryHouseholderReflectors`: LAPACK `orgqr`/`ungqr`: Q from `(a, taus)`.
//! - `Eigh`: Hermitian eigendecomposition by cyclic Jacobi rotations; `backend_config` is
//!   `"lower,sort,max_sweeps,tol"`; results `(eigenvectors, eigenvalues)`, eigenvalues ascending.

use oxhlo_interp::custom_call::{CustomCallCtx, CustomCallRegistry};
use oxhlo_interp::tensor::round_to;
use oxhlo_interp::{Data, RtValue, Tensor};
use oxhlo_ir::{ElementType, TensorType, Type};
use std::ops::{Add, Mul, Neg, Sub};

/// Adds the targets of this module to a registry.
pub fn register(r: &mut CustomCallRegistry) {
    r.register("Qr", Box::new(qr));
    r.register("ProductOfElementaryHouseholderReflectors", Box::new(householder_product));
    r.register("Eigh", Box::new(eigh));
}

/// A complex number in f64 (real matrices use imaginary parts of zero).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct C {
    re: f64,
    im: f64,
}

impl C {
    const ZERO: C = C { re: 0.0, im: 0.0 };
    const ONE: C = C { re: 1.0, im: 0.0 };
    fn real(re: f64) -> C {
        C { re, im: 0.0 }
    }
    fn conj(self) -> C {
        C { re: self.re, im: -self.im }
    }
    fn norm_sqr(self) -> f64 {
        self.re * self.re + self.im * self.im
    }
    fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
    fn div(self, o: C) -> C {
        let d = o.norm_sqr();
        C { re: (self.re * o.re + self.im * o.im) / d, im: (self.im * o.re - self.re * o.im) / d }
    }
}

impl Add for C {
    type Output = C;
    fn add(self, o: C) -> C {
        C { re: self.re + o.re, im: self.im + o.im }
    }
}
impl Sub for C {
    type Output = C;
    fn sub(self, o: C) -> C {
        C { re: self.re - o.re, im: self.im - o.im }
    }
}
impl Mul for C {
    type Output = C;
    fn mul(self, o: C) -> C {
        C { re: self.re * o.re - self.im * o.im, im: self.re * o.im + self.im * o.re }
    }
}
impl Neg for C {
    type Output = C;
    fn neg(self) -> C {
        C { re: -self.re, im: -self.im }
    }
}

/// A batch of matrices read from a tensor: `[..., rows, cols]`.
struct Batch {
    rows: usize,
    cols: usize,
    mats: Vec<Vec<C>>,
}

fn tensor<'a>(v: &'a RtValue, what: &str) -> Result<&'a Tensor, String> {
    match v {
        RtValue::Tensor(t) => Ok(t),
        _ => Err(format!("{what} must be a tensor")),
    }
}

fn elements(t: &Tensor) -> Result<Vec<C>, String> {
    match &t.data {
        Data::Float(v) => Ok(v.iter().map(|&x| C::real(x)).collect()),
        Data::Complex(v) => Ok(v.iter().map(|&(re, im)| C { re, im }).collect()),
        _ => Err(format!("expected a floating-point or complex tensor, got element type {:?}", t.ty.elem)),
    }
}

fn batch(t: &Tensor, what: &str) -> Result<Batch, String> {
    let s = t.shape();
    if s.len() < 2 {
        return Err(format!("{what} must have rank >= 2, got shape {s:?}"));
    }
    let (rows, cols) = (s[s.len() - 2] as usize, s[s.len() - 1] as usize);
    let all = elements(t)?;
    let size = rows * cols;
    let mats = if size == 0 { vec![Vec::new(); batch_count(s, 2)] } else { all.chunks(size).map(<[C]>::to_vec).collect() };
    Ok(Batch { rows, cols, mats })
}

fn batch_count(shape: &[i64], inner: usize) -> usize {
    shape[..shape.len() - inner].iter().product::<i64>().max(0) as usize
}

/// Builds a result tensor of the declared type from f64 values.
fn output(ty: &Type, vals: impl Iterator<Item = C>) -> Result<RtValue, String> {
    let tt: &TensorType = ty.as_tensor().ok_or("results must be tensors")?;
    let data = match &tt.elem {
        ElementType::Float(f) => Data::Float(vals.map(|c| round_to(*f, c.re)).collect()),
        ElementType::Complex(f) => Data::Complex(vals.map(|c| (round_to(*f, c.re), round_to(*f, c.im))).collect()),
        e => return Err(format!("unsupported result element type {e:?}")),
    };
    Ok(RtValue::Tensor(Tensor { ty: tt.clone(), data }))
}

fn result_type<'a>(ctx: &'a CustomCallCtx, i: usize) -> Result<&'a Type, String> {
    ctx.result_types.get(i).copied().ok_or_else(|| format!("{} needs at least {} result(s)", ctx.target, i + 1))
}

/// One matrix of `geqrf`: factors `a` (rows x cols, row-major) in place and returns the taus.
fn geqrf(a: &mut [C], m: usize, n: usize) -> Vec<C> {
    let k = m.min(n);
    let mut taus = vec![C::ZERO; k];
    for i in 0..k {
        let alpha = a[i * n + i];
        let xnorm = (i + 1..m).map(|j| a[j * n + i].norm_sqr()).sum::<f64>().sqrt();
        let (tau, beta) = if xnorm == 0.0 && alpha.im == 0.0 {
            (C::ZERO, alpha)
        } else {
            let mag = (alpha.norm_sqr() + xnorm * xnorm).sqrt();
            let beta = if alpha.re >= 0.0 { -mag } else { mag };
            let tau = C { re: (beta - alpha.re) / beta, im: -alpha.im / beta };
            let scal = C::ONE.div(alpha - C::real(beta));
            for j in i + 1..m {
                a[j * n + i] = a[j * n + i] * scal;
            }
            (tau, C::real(beta))
        };
        // Apply H^H = I - conj(tau) v v^H to the trailing columns (v = [1, a[i+1.., i]]).
        let ct = tau.conj();
        for c in i + 1..n {
            let mut w = a[i * n + c];
            for j in i + 1..m {
                w = w + a[j * n + i].conj() * a[j * n + c];
            }
            a[i * n + c] = a[i * n + c] - ct * w;
            for j in i + 1..m {
                a[j * n + c] = a[j * n + c] - ct * a[j * n + i] * w;
            }
        }
        a[i * n + i] = beta;
        taus[i] = tau;
    }
    taus
}

/// One matrix of `orgqr`/`ungqr`: Q (m x n) from reflectors stored in `a` and `taus`.
fn orgqr(a: &[C], m: usize, n: usize, taus: &[C]) -> Vec<C> {
    let k = taus.len().min(n);
    let mut q = a.to_vec();
    for j in k..n {
        for l in 0..m {
            q[l * n + j] = if l == j { C::ONE } else { C::ZERO };
        }
    }
    for i in (0..k).rev() {
        let tau = taus[i];
        if i + 1 < n {
            q[i * n + i] = C::ONE;
            for c in i + 1..n {
                let mut w = C::ZERO;
                for j in i..m {
                    w = w + q[j * n + i].conj() * q[j * n + c];
                }
                for j in i..m {
                    q[j * n + c] = q[j * n + c] - tau * q[j * n + i] * w;
                }
            }
        }
        for j in i + 1..m {
            q[j * n + i] = -tau * q[j * n + i];
        }
        q[i * n + i] = C::ONE - tau;
        for l in 0..i {
            q[l * n + i] = C::ZERO;
        }
    }
    q
}

/// Jacobi eigendecomposition of a Hermitian n x n matrix: (eigenvalues, eigenvectors as columns).
fn jacobi(mut a: Vec<C>, n: usize, max_sweeps: usize, tol: f64) -> (Vec<f64>, Vec<C>) {
    let mut v: Vec<C> = (0..n * n).map(|i| if i / n == i % n { C::ONE } else { C::ZERO }).collect();
    let total: f64 = a.iter().map(|x| x.norm_sqr()).sum::<f64>().sqrt();
    let eps = (tol.min(1e-6) * 1e-9).max(f64::EPSILON * f64::EPSILON) * total.max(f64::MIN_POSITIVE);
    for _ in 0..max_sweeps.max(1) {
        let off: f64 = (0..n).flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j))).map(|(i, j)| a[i * n + j].norm_sqr()).sum();
        if off.sqrt() <= eps {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                let r = apq.abs();
                if r <= eps * 1e-3 {
                    continue;
                }
                let e = C { re: apq.re / r, im: apq.im / r };
                let (app, aqq) = (a[p * n + p].re, a[q * n + q].re);
                let theta = (aqq - app) / (2.0 * r);
                let t = if theta == 0.0 { 1.0 } else { theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt()) };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                // U on (p, q): [[c, s], [-s conj(e), c conj(e)]]; A <- U^H A U, V <- V U.
                let (u_pp, u_pq, u_qp, u_qq) = (C::real(c), C::real(s), e.conj() * C::real(-s), e.conj() * C::real(c));
                for k in 0..n {
                    let (akp, akq) = (a[k * n + p], a[k * n + q]);
                    a[k * n + p] = akp * u_pp + akq * u_qp;
                    a[k * n + q] = akp * u_pq + akq * u_qq;
                }
                for k in 0..n {
                    let (apk, aqk) = (a[p * n + k], a[q * n + k]);
                    a[p * n + k] = u_pp.conj() * apk + u_qp.conj() * aqk;
                    a[q * n + k] = u_pq.conj() * apk + u_qq.conj() * aqk;
                }
                a[p * n + q] = C::ZERO;
                a[q * n + p] = C::ZERO;
                a[p * n + p].im = 0.0;
                a[q * n + q].im = 0.0;
                for k in 0..n {
                    let (vkp, vkq) = (v[k * n + p], v[k * n + q]);
                    v[k * n + p] = vkp * u_pp + vkq * u_qp;
                    v[k * n + q] = vkp * u_pq + vkq * u_qq;
                }
            }
        }
    }
    ((0..n).map(|i| a[i * n + i].re).collect(), v)
}

fn qr(ctx: &mut CustomCallCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let t = tensor(args.first().ok_or("Qr takes one operand")?, "the Qr operand")?;
    let b = batch(t, "the Qr operand")?;
    let (mut outs, mut all_taus) = (Vec::new(), Vec::new());
    for mut m in b.mats {
        let taus = geqrf(&mut m, b.rows, b.cols);
        outs.extend(m);
        all_taus.extend(taus);
    }
    Ok(vec![output(result_type(ctx, 0)?, outs.into_iter())?, output(result_type(ctx, 1)?, all_taus.into_iter())?])
}

fn householder_product(ctx: &mut CustomCallCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let [a, taus] = args else { return Err("ProductOfElementaryHouseholderReflectors takes (a, taus)".into()) };
    let b = batch(tensor(a, "a")?, "a")?;
    let taus_t = tensor(taus, "taus")?;
    let all_taus = elements(taus_t)?;
    let k = *taus_t.shape().last().ok_or("taus must have rank >= 1")? as usize;
    let mut out = Vec::new();
    for (i, m) in b.mats.iter().enumerate() {
        let t = all_taus.get(i * k..(i + 1) * k).ok_or("taus do not match the batch of a")?;
        if m.is_empty() {
            continue;
        }
        out.extend(orgqr(m, b.rows, b.cols, t));
    }
    Ok(vec![output(result_type(ctx, 0)?, out.into_iter())?])
}

fn eigh(ctx: &mut CustomCallCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let t = tensor(args.first().ok_or("Eigh takes one operand")?, "the Eigh operand")?;
    let config = ctx.op.attr("backend_config").and_then(|a| a.as_str()).unwrap_or("1,1,100,1e-6").to_string();
    let parts: Vec<&str> = config.split(',').map(str::trim).collect();
    let lower = parts.first().is_none_or(|s| *s != "0");
    let sort = parts.get(1).is_none_or(|s| *s != "0");
    let sweeps = parts.get(2).and_then(|s| s.parse::<usize>().ok()).unwrap_or(100);
    let tol = parts.get(3).and_then(|s| s.parse::<f64>().ok()).unwrap_or(1e-6);
    let b = batch(t, "the Eigh operand")?;
    if b.rows != b.cols {
        return Err(format!("Eigh needs square matrices, got {} x {}", b.rows, b.cols));
    }
    let n = b.rows;
    let (mut vecs, mut vals) = (Vec::new(), Vec::new());
    for m in b.mats {
        if n == 0 {
            continue;
        }
        // Make the matrix Hermitian from the triangle the caller names.
        let mut h = m.clone();
        for i in 0..n {
            h[i * n + i].im = 0.0;
            for j in i + 1..n {
                let (src, dst) = if lower { (j * n + i, i * n + j) } else { (i * n + j, j * n + i) };
                h[dst] = h[src].conj();
            }
        }
        let (w, v) = jacobi(h, n, sweeps, tol);
        let mut order: Vec<usize> = (0..n).collect();
        if sort {
            order.sort_by(|&x, &y| w[x].total_cmp(&w[y]));
        }
        vals.extend(order.iter().map(|&i| C::real(w[i])));
        for r in 0..n {
            vecs.extend(order.iter().map(|&c| v[r * n + c]));
        }
    }
    Ok(vec![output(result_type(ctx, 0)?, vecs.into_iter())?, output(result_type(ctx, 1)?, vals.into_iter())?])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mat(v: &[f64]) -> Vec<C> {
        v.iter().map(|&x| C::real(x)).collect()
    }

    fn matmul(a: &[C], b: &[C], m: usize, k: usize, n: usize) -> Vec<C> {
        let mut out = vec![C::ZERO; m * n];
        for i in 0..m {
            for j in 0..n {
                for l in 0..k {
                    out[i * n + j] = out[i * n + j] + a[i * k + l] * b[l * n + j];
                }
            }
        }
        out
    }

    fn close(a: &[C], b: &[C]) -> bool {
        a.iter().zip(b).all(|(x, y)| (*x - *y).abs() < 1e-9)
    }

    #[test]
    fn qr_reconstructs_and_matches_lapack_signs() {
        let (m, n) = (4, 3);
        let a0 = mat(&[2.0, -1.0, 0.5, 1.0, 3.0, -2.0, 0.0, 1.0, 4.0, -1.0, 2.0, 1.0]);
        let mut a = a0.clone();
        let taus = geqrf(&mut a, m, n);
        let q = orgqr(&a, m, n, &taus);
        let r: Vec<C> = (0..n * n).map(|i| if i % n >= i / n { a[i] } else { C::ZERO }).collect();
        assert!(close(&matmul(&q, &r, m, n, n), &a0));
        // LAPACK makes R's diagonal negative when the column's leading entry is positive.
        assert!(a[0].re < 0.0);
        let qtq = matmul(&(0..n * m).map(|i| q[(i % m) * n + i / m].conj()).collect::<Vec<_>>(), &q, n, m, n);
        assert!(close(&qtq, &mat(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0])));
    }

    #[test]
    fn complex_qr_reconstructs() {
        let (m, n) = (3, 2);
        let a0: Vec<C> = [(1.0, 2.0), (0.5, -1.0), (-2.0, 0.5), (3.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
            .iter()
            .map(|&(re, im)| C { re, im })
            .collect();
        let mut a = a0.clone();
        let taus = geqrf(&mut a, m, n);
        let q = orgqr(&a, m, n, &taus);
        let r: Vec<C> = (0..n * n).map(|i| if i % n >= i / n { a[i] } else { C::ZERO }).collect();
        assert!(close(&matmul(&q, &r, m, n, n), &a0));
    }

    #[test]
    fn jacobi_diagonalizes_hermitian_matrices() {
        let n = 3;
        let h: Vec<C> = [(4.0, 0.0), (1.0, 1.0), (0.0, -2.0), (1.0, -1.0), (3.0, 0.0), (0.5, 0.0), (0.0, 2.0), (0.5, 0.0), (1.0, 0.0)]
            .iter()
            .map(|&(re, im)| C { re, im })
            .collect();
        let (w, v) = jacobi(h.clone(), n, 100, 1e-6);
        let hv = matmul(&h, &v, n, n, n);
        let vw: Vec<C> = (0..n * n).map(|i| v[i] * C::real(w[i % n])).collect();
        assert!(close(&hv, &vw));
        let trace: f64 = w.iter().sum();
        assert!((trace - 8.0).abs() < 1e-9);
    }
}
