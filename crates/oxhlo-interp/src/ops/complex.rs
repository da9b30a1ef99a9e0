//! Complex arithmetic and complex elementary functions for complex<f32> and complex<f64>, computed in f64
//! and rounded part by part. Products and quotients of complex<f32> are exact or nearly so in f64; for
//! complex<f64>, division uses Smith's algorithm and the functions use forms that avoid needless overflow
//! (e.g. tanh via sinh 2a / (cosh 2a + cos 2b) with a large-|a| branch).

use super::elementwise::{rnd, Bin, Un};
use crate::tensor::Data;
use oxhlo_ir::{ElementType, FloatType};

/// A complex number in f64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct C(pub f64, pub f64);

impl std::ops::Add for C {
    type Output = C;
    fn add(self, o: C) -> C {
        C(self.0 + o.0, self.1 + o.1)
    }
}

impl std::ops::Sub for C {
    type Output = C;
    fn sub(self, o: C) -> C {
        C(self.0 - o.0, self.1 - o.1)
    }
}

impl std::ops::Mul for C {
    type Output = C;
    fn mul(self, o: C) -> C {
        C(self.0 * o.0 - self.1 * o.1, self.0 * o.1 + self.1 * o.0)
    }
}

impl std::ops::Neg for C {
    type Output = C;
    fn neg(self) -> C {
        C(-self.0, -self.1)
    }
}

impl std::ops::Div for C {
    type Output = C;
    /// Smith's division.
    fn div(self, o: C) -> C {
        let (a, b, c, d) = (self.0, self.1, o.0, o.1);
        if c == 0.0 && d == 0.0 {
            // Division by zero: each part follows real division by +0.
            return C(a / c.abs(), b / c.abs());
        }
        if c.abs() >= d.abs() {
            let r = d / c;
            let den = c + d * r;
            C((a + b * r) / den, (b - a * r) / den)
        } else {
            let r = c / d;
            let den = c * r + d;
            C((a * r + b) / den, (b * r - a) / den)
        }
    }
}

impl C {
    pub fn scale(self, s: f64) -> C {
        C(self.0 * s, self.1 * s)
    }
    pub fn abs(self) -> f64 {
        self.0.hypot(self.1)
    }
    pub fn exp(self) -> C {
        if self.1 == 0.0 {
            return C(self.0.exp(), self.1);
        }
        let e = self.0.exp();
        C(e * self.1.cos(), e * self.1.sin())
    }
    pub fn ln(self) -> C {
        C(self.abs().ln(), self.1.atan2(self.0))
    }
    pub fn sqrt(self) -> C {
        let (a, b) = (self.0, self.1);
        if a == 0.0 && b == 0.0 {
            return C(0.0, b);
        }
        if b.is_infinite() {
            return C(f64::INFINITY, b);
        }
        if a.is_nan() {
            return C(a, f64::NAN);
        }
        if a.is_infinite() {
            return if a > 0.0 {
                C(a, if b.is_nan() { b } else { 0.0_f64.copysign(b) })
            } else {
                C(if b.is_nan() { b } else { 0.0 }, f64::INFINITY.copysign(b))
            };
        }
        // Scale to avoid overflow in |z| + |a|.
        let s = if a.abs() > 1e300 || b.abs() > 1e300 { 0.25 } else { 1.0 };
        let (sa, sb) = (a * s, b * s);
        let t = ((sa.abs() + C(sa, sb).abs()) / 2.0).sqrt() / s.sqrt();
        if a >= 0.0 {
            C(t, b / (2.0 * t))
        } else {
            C(b.abs() / (2.0 * t), t.copysign(b))
        }
    }
    pub fn sin(self) -> C {
        C(self.0.sin() * self.1.cosh(), self.0.cos() * self.1.sinh())
    }
    pub fn cos(self) -> C {
        C(self.0.cos() * self.1.cosh(), -(self.0.sin() * self.1.sinh()))
    }
    pub fn sinh(self) -> C {
        C(self.0.sinh() * self.1.cos(), self.0.cosh() * self.1.sin())
    }
    pub fn cosh(self) -> C {
        C(self.0.cosh() * self.1.cos(), self.0.sinh() * self.1.sin())
    }
    pub fn tanh(self) -> C {
        let (a, b) = (self.0, self.1);
        if a.abs() > 20.0 {
            // cosh 2a dominates: tanh -> sign(a) + i * 4 sin b cos b e^{-2|a|}
            let e = (-2.0 * a.abs()).exp();
            return C(1.0_f64.copysign(a), 4.0 * b.sin() * b.cos() * e);
        }
        let den = (2.0 * a).cosh() + (2.0 * b).cos();
        C((2.0 * a).sinh() / den, (2.0 * b).sin() / den)
    }
    pub fn tan(self) -> C {
        // tan z = -i tanh(i z)
        let t = C(-self.1, self.0).tanh();
        C(t.1, -t.0)
    }
    pub fn recip(self) -> C {
        C(1.0, 0.0) / self
    }
    pub fn powc(self, w: C) -> C {
        if self.0 == 0.0 && self.1 == 0.0 {
            if w.0 == 0.0 && w.1 == 0.0 {
                return C(1.0, 0.0);
            }
            if w.1 == 0.0 && w.0 > 0.0 {
                return C(0.0, 0.0);
            }
        }
        (w * self.ln()).exp()
    }
    pub fn expm1(self) -> C {
        let (a, b) = (self.0, self.1);
        let s = (b / 2.0).sin();
        C(a.exp_m1() * b.cos() - 2.0 * s * s, a.exp() * b.sin())
    }
    pub fn log1p(self) -> C {
        let (a, b) = (self.0, self.1);
        let m = a.abs().max(b.abs());
        if m < 0.5 {
            // ln|1+z| = log1p(2a + a^2 + b^2) / 2
            C((2.0 * a + a * a + b * b).ln_1p() / 2.0, b.atan2(1.0 + a))
        } else {
            C(1.0 + a, b).ln()
        }
    }
    pub fn asin(self) -> C {
        // asin z = -i ln(i z + sqrt(1 - z^2))
        let iz = C(-self.1, self.0);
        let r = (iz + (C(1.0, 0.0) - self * self).sqrt()).ln();
        C(r.1, -r.0)
    }
    pub fn acos(self) -> C {
        // acos z = pi/2 - asin z
        let s = self.asin();
        C(std::f64::consts::FRAC_PI_2 - s.0, -s.1)
    }
    pub fn atan(self) -> C {
        // atan z = -i atanh(i z)
        let t = C(-self.1, self.0).atanh();
        C(t.1, -t.0)
    }
    pub fn asinh(self) -> C {
        // asinh z = -i asin(i z)
        let t = C(-self.1, self.0).asin();
        C(t.1, -t.0)
    }
    pub fn acosh(self) -> C {
        // acosh z = ln(z + sqrt(z + 1) sqrt(z - 1))
        let one = C(1.0, 0.0);
        (self + (self + one).sqrt() * (self - one).sqrt()).ln()
    }
    pub fn atanh(self) -> C {
        // atanh z = (ln(1 + z) - ln(1 - z)) / 2
        (self.log1p() - (-self).log1p()).scale(0.5)
    }
    pub fn cbrt(self) -> C {
        let theta = self.1.atan2(self.0) / 3.0;
        let r = self.abs().cbrt();
        C(r * theta.cos(), r * theta.sin())
    }
}

/// Lexicographic (real, imaginary) maximum, as the spec's `maximum` for complex numbers.
fn cmax(x: C, y: C) -> C {
    let gt = if x.0 == y.0 { x.1 > y.1 } else { x.0 > y.0 };
    if gt {
        x
    } else {
        y
    }
}

fn cmin(x: C, y: C) -> C {
    let lt = if x.0 == y.0 { x.1 < y.1 } else { x.0 < y.0 };
    if lt {
        x
    } else {
        y
    }
}

#[inline(always)]
fn map_c(v: &[(f64, f64)], ft: FloatType, f: impl Fn(C) -> C) -> Data {
    Data::Complex(
        v.iter()
            .map(|&(a, b)| {
                let r = f(C(a, b));
                (rnd(ft, r.0), rnd(ft, r.1))
            })
            .collect(),
    )
}

#[inline(always)]
fn map_r(v: &[(f64, f64)], ft: FloatType, f: impl Fn(C) -> f64) -> Data {
    Data::Float(v.iter().map(|&(a, b)| rnd(ft, f(C(a, b)))).collect())
}

/// Unary complex ops; `res` is the declared result element type (float for abs/real/imag).
pub fn unary(op: Un, ft: FloatType, v: &[(f64, f64)], _res: &ElementType) -> Option<Data> {
    Some(match op {
        Un::Abs => map_r(v, ft, C::abs),
        Un::Real => map_r(v, ft, |z| z.0),
        Un::Imag => map_r(v, ft, |z| z.1),
        Un::Neg => map_c(v, ft, |z| -z),
        Un::Conj => map_c(v, ft, |z| C(z.0, -z.1)),
        Un::Sign => map_c(v, ft, |z| {
            if z.0.is_nan() || z.1.is_nan() {
                C(f64::NAN, f64::NAN)
            } else if z.0 == 0.0 && z.1 == 0.0 {
                C(0.0, 0.0)
            } else {
                let m = z.abs();
                if m.is_infinite() {
                    // Scale down before normalizing.
                    let s = C(z.0 / 2f64.powi(600), z.1 / 2f64.powi(600));
                    let m2 = s.abs();
                    C(s.0 / m2, s.1 / m2)
                } else {
                    C(z.0 / m, z.1 / m)
                }
            }
        }),
        Un::Sqrt => map_c(v, ft, C::sqrt),
        Un::Rsqrt => map_c(v, ft, |z| z.sqrt().recip()),
        Un::Cbrt => map_c(v, ft, C::cbrt),
        Un::Exp => map_c(v, ft, C::exp),
        Un::Expm1 => map_c(v, ft, C::expm1),
        Un::Log => map_c(v, ft, C::ln),
        Un::Log1p => map_c(v, ft, C::log1p),
        Un::Logistic => map_c(v, ft, |z| (C(1.0, 0.0) + (-z).exp()).recip()),
        Un::Sin => map_c(v, ft, C::sin),
        Un::Cos => map_c(v, ft, C::cos),
        Un::Tan => map_c(v, ft, C::tan),
        Un::Tanh => map_c(v, ft, C::tanh),
        Un::Sinh => map_c(v, ft, C::sinh),
        Un::Cosh => map_c(v, ft, C::cosh),
        Un::Asin => map_c(v, ft, C::asin),
        Un::Acos => map_c(v, ft, C::acos),
        Un::Atan => map_c(v, ft, C::atan),
        Un::Asinh => map_c(v, ft, C::asinh),
        Un::Acosh => map_c(v, ft, C::acosh),
        Un::Atanh => map_c(v, ft, C::atanh),
        Un::Square => map_c(v, ft, csquare),
        Un::IsFinite => Data::Bool(v.iter().map(|&(a, b)| a.is_finite() && b.is_finite()).collect()),
        _ => return None,
    })
}

/// `square(x + iy) = (x - y)(x + y) + 2xy i`: the factored real part does not overflow to `inf - inf`
/// (NaN) for large `|x| == |y|`, where it is exactly 0 (the formula of StableHLO's `square`, as in
/// JAX/XLA; `z * z` would give NaN for `(1e308, 1e308)`). Infinite parts keep the IEEE results.
fn csquare(z: C) -> C {
    let (x, y) = (z.0, z.1);
    let re = if x.is_finite() && x.abs() == y.abs() { 0.0 } else { (x - y) * (x + y) };
    C(re, 2.0 * x * y)
}

/// Binary complex ops.
pub fn binary(op: Bin, ft: FloatType, a: &[(f64, f64)], b: &[(f64, f64)]) -> Option<Vec<(f64, f64)>> {
    let f: fn(C, C) -> C = match op {
        Bin::Add => |x, y| x + y,
        Bin::Sub => |x, y| x - y,
        Bin::Mul => |x, y| x * y,
        Bin::Div => |x, y| x / y,
        Bin::Pow => C::powc,
        Bin::Max => cmax,
        Bin::Min => cmin,
        Bin::Atan2 => |y, x| {
            // atan2(y, x) = -i ln((x + i y) / sqrt(x^2 + y^2))
            let num = x + C(-y.1, y.0);
            let r = (num / (x * x + y * y).sqrt()).ln();
            C(r.1, -r.0)
        },
        _ => return None,
    };
    Some(
        a.iter()
            .zip(b)
            .map(|(&(p, q), &(r, s))| {
                let z = f(C(p, q), C(r, s));
                (rnd(ft, z.0), rnd(ft, z.1))
            })
            .collect(),
    )
}
