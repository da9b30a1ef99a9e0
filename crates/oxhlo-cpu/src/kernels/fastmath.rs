//! Vectorizable f32 transcendentals: `exp`, `log`, `log1p`, `tanh`, `logistic`, `erf_inv`, and IEEE `max`/`min`.
//! Each is branch-free (special cases are blended in with selects) and built from `+ - * /`, comparisons and bit casts only, so a loop
//! over a slice auto-vectorizes. Polynomials are Cephes' single-precision minimax fits with Cody-Waite
//! range reduction. Measured max errors against f64 std math (tests below, over every 97th f32 bit
//! pattern plus edge cases): exp <= 1 ulp, log <= 1 ulp, log1p <= 2 ulp, tanh <= 2 ulp, logistic <= 1 ulp,
//! erf_inv <= 3.4 ulp (Giles' single-precision fit), erf_inv_precise correctly rounded; NaN, ±Inf,
//! ±0, overflow, underflow to subnormals and subnormal inputs follow IEEE / the f64 reference.
//! (The coefficients are kept as published, with more digits than f32 holds.)

#![allow(clippy::excessive_precision)]

const LOG2E: f32 = std::f32::consts::LOG2_E;
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;
/// 1.5 * 2^23: adding it rounds a float of magnitude < 2^22 to an integer in the low mantissa bits.
const ROUND_MAGIC: f32 = 12_582_912.0;

#[inline(always)]
fn pow2i(k: i32) -> f32 {
    f32::from_bits(((k + 127) as u32) << 23)
}

#[inline(always)]
fn sel(c: bool, a: f32, b: f32) -> f32 {
    if c {
        a
    } else {
        b
    }
}

/// e^x.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    // Clamp so that the reduction below stays in range (NaN is restored at the end). Inputs whose result
    // is 0 (selected at the end) compute exp(0) instead: scaling down to 2^-150 took a microcode assist
    // per vector on x86 (the underflow), and masked attention scores (-1e9) are half of such a row.
    let xc = sel(x < -103.972_08, 0.0, x.clamp(-104.0, 89.0));
    let t = xc * LOG2E + ROUND_MAGIC;
    let n = t - ROUND_MAGIC;
    let ni = (t.to_bits() as i32) - (ROUND_MAGIC.to_bits() as i32);
    let r = xc - n * LN2_HI - n * LN2_LO;
    let r2 = r * r;
    let p = ((((1.987_569_1e-4 * r + 1.398_199_9e-3) * r + 8.333_452e-3) * r + 4.166_579_6e-2) * r
        + 1.666_666_5e-1)
        * r
        + 5.000_000_1e-1;
    let y = p * r2 + r + 1.0;
    // 2^n in two factors, so subnormal results and n = 128 are both reached exactly.
    let h = ni >> 1;
    let y = y * pow2i(h) * pow2i(ni - h);
    let y = sel(x > 88.722_84, f32::INFINITY, y);
    let y = sel(x < -103.972_08, 0.0, y);
    sel(x.is_nan(), x, y)
}

/// IEEE-754 `maximum` (a NaN operand gives a NaN, -0 < +0) from comparisons, bit operations and
/// selects only, so loops over it vectorize (the interpreter's branchy form made a row maximum 11x
/// slower than a row sum). Equal operands give the AND of their bits: +0 for (-0, +0), the value else.
#[inline(always)]
pub fn max(a: f32, b: f32) -> f32 {
    let m = sel(a > b, a, b);
    let m = sel(a == b, f32::from_bits(a.to_bits() & b.to_bits()), m);
    sel(a.is_nan() || b.is_nan(), a + b, m)
}

/// IEEE-754 `minimum` (a NaN operand gives a NaN, -0 < +0), vectorizable as [`max`]: equal operands
/// give the OR of their bits (-0 for (-0, +0)).
#[inline(always)]
pub fn min(a: f32, b: f32) -> f32 {
    let m = sel(a < b, a, b);
    let m = sel(a == b, f32::from_bits(a.to_bits() | b.to_bits()), m);
    sel(a.is_nan() || b.is_nan(), a + b, m)
}

/// The natural logarithm.
#[inline(always)]
pub fn log(x: f32) -> f32 {
    // Subnormals: scale into the normal range first.
    let sub = x < f32::MIN_POSITIVE;
    let xs = sel(sub, x * 8_388_608.0, x);
    let bits = xs.to_bits() as i32;
    let mut e = ((bits >> 23) & 0xff) - 126;
    // Mantissa in [0.5, 1).
    let mut m = f32::from_bits(((bits & 0x007f_ffff) | 0x3f00_0000) as u32);
    let small = m < std::f32::consts::FRAC_1_SQRT_2;
    e -= small as i32;
    m = sel(small, m + m, m) - 1.0;
    let ef = (e - 23 * sub as i32) as f32;
    let z = m * m;
    let mut p = 7.037_683_6e-2f32;
    for c in [-1.151_461e-1, 1.167_699_9e-1, -1.242_014_1e-1, 1.424_932_3e-1, -1.666_805_8e-1, 2.000_071_4e-1, -2.499_999_4e-1, 3.333_333_1e-1] {
        p = p * m + c;
    }
    let y = m * z * p + ef * LN2_LO - 0.5 * z;
    let y = m + y + ef * LN2_HI;
    let y = sel(x == f32::INFINITY, x, y);
    let y = sel(x == 0.0, f32::NEG_INFINITY, y);
    sel(x < 0.0 || x.is_nan(), f32::NAN, y)
}

/// ln(1 + x): [`log`] of `u = 1 + x` plus `(x - (u - 1)) / u`, the first-order term of what rounding
/// `1 + x` lost; x itself where `1 + x` rounds to 1.
#[inline(always)]
pub fn log1p(x: f32) -> f32 {
    let u = 1.0 + x;
    let d = u - 1.0;
    let y = sel(d == 0.0, x, log(u) + (x - d) / u);
    let y = sel(u == 0.0, f32::NEG_INFINITY, y);
    sel(x == f32::INFINITY, x, y)
}

/// The hyperbolic tangent.
#[inline(always)]
pub fn tanh(x: f32) -> f32 {
    let a = x.abs();
    // Small |x|: odd polynomial (evaluated on |x|; the sign is applied at the end).
    let z = x * x;
    let p = ((((-5.704_988_7e-3 * z + 2.063_908_9e-2) * z - 5.373_971_6e-2) * z + 1.333_144_2e-1) * z
        - 3.333_328_2e-1)
        * z
        * a
        + a;
    // Larger |x|: 1 - 2 / (e^(2|x|) + 1), with the sign of x.
    let e = exp(2.0 * a.min(10.0));
    let q = 1.0 - 2.0 / (e + 1.0);
    let y = sel(a < 0.625, p, q);
    let y = f32::from_bits(y.to_bits() | (x.to_bits() & 0x8000_0000));
    sel(x.is_nan(), x, y)
}

/// e^x in f64 to about 1e-11 relative error for |x| <= 708 (a helper for [`logistic`]; the input is
/// clamped, so larger magnitudes give a finite but huge or tiny value).
#[inline(always)]
fn exp_f64(x: f64) -> f64 {
    const MAGIC: f64 = 6_755_399_441_055_744.0;
    let xc = x.clamp(-708.0, 708.0);
    let t = xc * std::f64::consts::LOG2_E + MAGIC;
    let n = t - MAGIC;
    let ni = (t.to_bits() as i64) - (MAGIC.to_bits() as i64);
    let r = xc - n * 0.693_147_180_369_123_8 - n * 1.908_214_929_270_587_7e-10;
    let mut p = 1.0 / 3_628_800.0;
    for c in [362_880.0, 40_320.0, 5_040.0, 720.0, 120.0, 24.0, 6.0, 2.0, 1.0, 1.0] {
        p = p * r + 1.0 / c;
    }
    f64::from_bits(((ni + 1023) as u64) << 52) * p
}

/// The logistic function 1 / (1 + e^-x), computed in f64 (so the f32 result is within 1 ulp, nearly
/// always correctly rounded).
#[inline(always)]
pub fn logistic(x: f32) -> f32 {
    let y = (1.0 / (1.0 + exp_f64(-(x as f64)))) as f32;
    let y = sel(x < -120.0, 0.0, y);
    sel(x.is_nan(), x, y)
}

/// The inverse error function: Giles' single-precision approximation ("Approximating the erfinv
/// function", GPU Computing Gems, 2011), the one XLA uses for f32: w = -log((1 - x)(1 + x)), then a
/// polynomial in w - 2.5 (w < 5) or in sqrt(w) - 3, times x. Both branches are computed and one selected.
/// erfinv(±1) = ±inf; |x| > 1 and NaN give NaN.
#[inline(always)]
pub fn erf_inv(x: f32) -> f32 {
    let w = -log((1.0 - x) * (1.0 + x));
    let a = w - 2.5;
    let mut p = 2.810_226_36e-8f32;
    for c in [3.432_739_39e-7, -3.523_387_7e-6, -4.391_506_54e-6, 2.185_808_7e-4, -1.253_725_03e-3, -4.177_681_64e-3, 2.466_407_27e-1, 1.501_409_41] {
        p = p * a + c;
    }
    let b = w.max(0.0).sqrt() - 3.0;
    let mut q = -2.002_142_57e-4f32;
    for c in [1.009_505_58e-4, 1.349_343_22e-3, -3.673_428_44e-3, 5.739_507_73e-3, -7.622_461_3e-3, 9.438_870_47e-3, 1.001_674_06, 2.832_976_82] {
        q = q * b + c;
    }
    let y = sel(w < 5.0, p, q) * x;
    let y = sel(x.abs() == 1.0, x * f32::INFINITY, y);
    sel(x.abs() > 1.0 || x.is_nan(), f32::NAN, y)
}

/// [`erf_inv`] refined by one Newton step in f64 (with [`erf_f64`]), so the f32 result is within 1 ulp
/// of the true value (0.5 ulp on the unit test's sweep), as the conformance suite requires (Giles' fit
/// alone is within 3.4). Branch-free, so the loop over a slice vectorizes: `jax.random.normal` spends
/// most of its time here.
#[inline(always)]
pub fn erf_inv_precise(x: f32) -> f32 {
    let y0 = erf_inv(x);
    let (y, t) = (y0 as f64, x as f64);
    let e = erf_f64(y) - t;
    let refined = (y - e / (std::f64::consts::FRAC_2_SQRT_PI * exp_f64(-y * y))) as f32;
    sel(!y0.is_finite() || y0 == 0.0, y0, refined)
}

/// [`erf_inv_precise`] over a slice: its own loop, so that the big body is inlined into it (passed to
/// [`map`] as a function, it stayed a call per element and the loop did not vectorize).
#[inline(always)]
pub fn erf_inv_precise_slice(dst: &mut [f32], src: &[f32]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = erf_inv_precise(s);
    }
}

/// erf(y) in f64 without branches, relative error below 1e-13 (the Newton step of
/// [`erf_inv_precise`] needs about 1e-9): for |y| <= 1 the Taylor series of erf(y)/y in y^2 (18
/// terms); above, 1 - e^(-y^2) erfcx(|y|), erfcx(y) = e^(y^2) erfc(y) by a degree-14 Chebyshev fit in
/// z = 1/(1 + y) over y in [1, 6] (fitted here with numpy against scipy's `erfcx`, max relative error
/// 3.7e-14); +-1 beyond 6 (erfc(6) < 2.2e-17). NaN stays NaN.
#[inline(always)]
pub fn erf_f64(y: f64) -> f64 {
    const TAYLOR: [f64; 18] = [
        std::f64::consts::FRAC_2_SQRT_PI, -0.37612638903183754, 0.11283791670955126, -0.026866170645131252, 0.005223977625442188,
        -0.0008548327023450852, 0.00012055332981789664, -1.492565035840625e-05, 1.6462114365889246e-06,
        -1.6365844691234924e-07, 1.4807192815879218e-08, -1.2290555301717926e-09, 9.422759064650411e-11,
        -6.7113668551641105e-12, 4.4632242632864775e-13, -2.7835162072109212e-14, 1.6342614095367152e-15,
        -9.063970842808673e-17,
    ];
    const ERFCX: [f64; 15] = [
        0.252141527416841, 0.16790788453237665, 0.008077511005135887, -0.000510511030834893, -3.896056166356081e-05,
        6.205455127585012e-06, -1.3577663876099686e-08, -7.50267395363304e-08, 7.854330635635095e-09,
        2.29897125253156e-10, -1.5910775965311546e-10, 1.821302235067327e-11, 2.433161189538171e-13,
        -3.963861792489871e-13, 6.343734895510537e-14,
    ];
    let a = y.abs();
    // |y| <= 1: y * P(y^2).
    let t = y * y;
    let mut p = TAYLOR[17];
    for &c in TAYLOR[..17].iter().rev() {
        p = p * t + c;
    }
    let small = y * p;
    // 1 < |y| <= 6: Clenshaw's recurrence over the Chebyshev series in s in [-1, 1].
    let (lo, hi) = (1.0 / 7.0, 0.5);
    let ac = a.clamp(1.0, 6.0);
    let s = (2.0 / (1.0 + ac) - (lo + hi)) / (hi - lo);
    let (mut b1, mut b2) = (0.0f64, 0.0f64);
    for &c in ERFCX[1..].iter().rev() {
        let b0 = 2.0 * s * b1 - b2 + c;
        b2 = b1;
        b1 = b0;
    }
    let erfcx = s * b1 - b2 + ERFCX[0];
    let large = (1.0 - exp_f64(-ac * ac) * erfcx).copysign(y);
    let r = if a <= 1.0 { small } else { large };
    let r = if a > 6.0 { 1.0f64.copysign(y) } else { r };
    if y.is_nan() { y } else { r }
}

/// Applies `f` to every element of `src` into `dst` (the loop the compiler vectorizes).
#[inline(always)]
pub fn map(dst: &mut [f32], src: &[f32], f: impl Fn(f32) -> f32) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = f(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place of f32 between `got` and the f64 reference `want`.
    fn ulps(got: f32, want: f64) -> f64 {
        if want.is_nan() {
            return if got.is_nan() { 0.0 } else { f64::INFINITY };
        }
        let w = want as f32;
        if w.is_infinite() || got.is_infinite() {
            return if got == w { 0.0 } else { f64::INFINITY };
        }
        // ulp of the reference value (at least the subnormal spacing).
        let a = (want.abs() as f32).max(f32::MIN_POSITIVE);
        let ulp = (f32::from_bits(a.to_bits() + 1) - a) as f64;
        let ulp = if (want.abs() as f32) < f32::MIN_POSITIVE { 2f64.powi(-149) } else { ulp };
        ((got as f64) - want).abs() / ulp
    }

    fn inputs() -> Vec<f32> {
        let mut v: Vec<f32> = (0..u32::MAX / 97).map(|i| f32::from_bits(i.wrapping_mul(97))).collect();
        v.extend([
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::MIN_POSITIVE,
            1e-45,
            -1e-45,
            88.72,
            88.73,
            -87.3,
            -103.9,
            -104.0,
            0.625,
            -0.625,
            9.0,
            -9.0,
            1.0,
            f32::MAX,
            f32::MIN,
        ]);
        v
    }

    fn max_ulps(f: impl Fn(f32) -> f32, r: impl Fn(f64) -> f64) -> f64 {
        let xs = inputs();
        let mut out = vec![0.0f32; xs.len()];
        map(&mut out, &xs, f);
        let mut worst = 0.0f64;
        for (&x, &y) in xs.iter().zip(&out) {
            let e = ulps(y, r(x as f64));
            assert!(e.is_finite(), "x = {x:e} ({:#x}): got {y:e}, want {:e}", x.to_bits(), r(x as f64));
            worst = worst.max(e);
        }
        eprintln!("max error: {worst:.3} ulp");
        worst
    }

    #[test]
    fn exp_within_1_ulp() {
        let e = max_ulps(exp, f64::exp);
        assert!(e <= 1.0, "exp: {e} ulp");
    }

    #[test]
    fn log_within_1_ulp() {
        let e = max_ulps(log, f64::ln);
        assert!(e <= 1.0, "log: {e} ulp");
    }

    #[test]
    fn log1p_within_2_ulp() {
        let e = max_ulps(log1p, f64::ln_1p);
        assert!(e <= 2.0, "log1p: {e} ulp");
        for (x, want) in [(-1.0f32, f32::NEG_INFINITY), (-1.5, f32::NAN), (f32::NEG_INFINITY, f32::NAN), (-0.0, -0.0), (1e-30, 1e-30)] {
            let got = log1p(x);
            assert!(got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()), "log1p({x}) = {got}, want {want}");
        }
    }

    #[test]
    fn tanh_within_2_ulp() {
        let e = max_ulps(tanh, f64::tanh);
        assert!(e <= 2.0, "tanh: {e} ulp");
    }

    #[test]
    fn logistic_within_1_ulp() {
        let lg = |x: f64| if x >= 0.0 { 1.0 / (1.0 + (-x).exp()) } else { x.exp() / (1.0 + x.exp()) };
        let e = max_ulps(logistic, lg);
        assert!(e <= 1.0, "logistic: {e} ulp");
    }

    #[test]
    fn erf_f64_matches_the_interpreters_erf() {
        // The reference interpreter's erf: the oracle the conformance suite checks against SciPy values.
        let mut worst = 0.0f64;
        for i in 0..=120_000 {
            let y = -6.5 + 13.0 * i as f64 / 120_000.0;
            let (got, want) = (erf_f64(y), oxhlo_interp::ops::math_special::erf(y));
            worst = worst.max(((got - want) / want).abs());
        }
        eprintln!("erf_f64: max relative error {worst:.2e}");
        assert!(worst < 1e-12, "erf_f64: {worst:e} relative");
        assert!(erf_f64(f64::NAN).is_nan());
        assert_eq!(erf_f64(0.0), 0.0);
        assert_eq!(erf_f64(f64::INFINITY), 1.0);
        assert_eq!(erf_f64(f64::NEG_INFINITY), -1.0);
    }

    #[test]
    fn erf_inv_within_bounds() {
        // Reference: invert the f64 erf by Newton steps from the f32 approximation.
        let reference = |x: f64| -> f64 {
            let mut y = erf_inv(x as f32) as f64;
            for _ in 0..3 {
                let e = oxhlo_interp::ops::math_special::erf(y) - x;
                y -= e / (2.0 / std::f64::consts::PI.sqrt() * (-y * y).exp());
            }
            y
        };
        let mut worst = 0.0f64;
        let mut worst_rel = 0.0f64;
        for i in 0..200_000 {
            let x = -1.0 + 2.0 * (i as f64 + 0.5) / 200_000.0;
            let (got, want) = (erf_inv(x as f32) as f64, reference((x as f32) as f64));
            worst = worst.max(ulps(got as f32, want));
            worst_rel = worst_rel.max(((got - want) / want).abs());
            let precise = erf_inv_precise(x as f32);
            assert!(ulps(precise, want) <= 0.5001, "erf_inv_precise({x}) = {precise}, want {want}");
        }
        // The tails, where erf is flattest: x within a few thousand f32 ulps of +-1.
        for k in 1..4000 {
            for sign in [1.0f32, -1.0] {
                let x = sign * (1.0 - k as f32 * f32::EPSILON / 2.0);
                let precise = erf_inv_precise(x);
                assert!(ulps(precise, reference(x as f64)) <= 0.5001, "erf_inv_precise({x}) = {precise}");
            }
        }
        eprintln!("erf_inv: max error {worst:.2} ulp, {worst_rel:.2e} relative");
        assert!(worst <= 8.0 && worst_rel < 1e-6, "erf_inv: {worst} ulp, {worst_rel:e} relative");
        assert_eq!(erf_inv(1.0), f32::INFINITY);
        assert_eq!(erf_inv(-1.0), f32::NEG_INFINITY);
        assert!(erf_inv(1.5).is_nan() && erf_inv(f32::NAN).is_nan());
        assert_eq!(erf_inv(0.0), 0.0);
    }

    #[test]
    fn max_and_min_match_ieee_maximum_and_minimum() {
        use oxhlo_interp::ops::elementwise_float::{fmax, fmin};
        let vals = [0.0f32, -0.0, 1.0, -1.0, 2.5, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, -f32::NAN, f32::MIN_POSITIVE, -1e-45, 3.4e38];
        for &a in &vals {
            for &b in &vals {
                let (want_max, want_min) = (fmax(a, b), fmin(a, b));
                let (got_max, got_min) = (max(a, b), min(a, b));
                assert!(want_max.to_bits() == got_max.to_bits() || (want_max.is_nan() && got_max.is_nan()), "max({a}, {b}) = {got_max}, want {want_max}");
                assert!(want_min.to_bits() == got_min.to_bits() || (want_min.is_nan() && got_min.is_nan()), "min({a}, {b}) = {got_min}, want {want_min}");
            }
        }
    }

    #[test]
    fn special_values() {
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp(-1e9), 0.0);
        assert_eq!(exp(-103.972_09), 0.0);
        assert!(exp(-103.9) > 0.0);
        assert_eq!(exp(f32::INFINITY), f32::INFINITY);
        assert!(exp(f32::NAN).is_nan());
        assert_eq!(log(1.0), 0.0);
        assert_eq!(log(0.0), f32::NEG_INFINITY);
        assert_eq!(log(-0.0), f32::NEG_INFINITY);
        assert!(log(-1.0).is_nan());
        assert_eq!(tanh(f32::INFINITY), 1.0);
        assert_eq!(tanh(f32::NEG_INFINITY), -1.0);
        assert!(tanh(-0.0).is_sign_negative() && tanh(-0.0) == 0.0);
        assert_eq!(logistic(f32::INFINITY), 1.0);
        assert_eq!(logistic(f32::NEG_INFINITY), 0.0);
    }
}
