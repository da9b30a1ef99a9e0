//! fft: FFT, IFFT, RFFT and IRFFT over the last `fft_length.len()` dimensions, on complex64/128 (and
//! f32/f64 for the real forms). Transforms run in f64 for every length: iterative radix-2 for powers of
//! two, a direct DFT for short other lengths, Bluestein's chirp-z (through a power-of-two FFT) for long
//! ones; results are rounded once to the result type. IFFT/IRFFT scale by 1/n per transformed dimension.

use crate::ops::support::*;
use crate::ops::OpCtx;
use crate::tensor::{round_to, Data, RtValue, Tensor};
use oxhlo_ir::attr::FftType;
use oxhlo_ir::{Attr, ElementType};
use std::f64::consts::PI;

#[derive(Clone, Copy)]
struct C(f64, f64);

impl C {
    #[inline]
    fn add(self, o: C) -> C {
        C(self.0 + o.0, self.1 + o.1)
    }
    #[inline]
    fn sub(self, o: C) -> C {
        C(self.0 - o.0, self.1 - o.1)
    }
    #[inline]
    fn mul(self, o: C) -> C {
        C(self.0 * o.0 - self.1 * o.1, self.0 * o.1 + self.1 * o.0)
    }
    #[inline]
    fn conj(self) -> C {
        C(self.0, -self.1)
    }
}

/// e^{-2 pi i k / n} with k reduced into [0, n) for accuracy.
fn twiddle(k: usize, n: usize) -> C {
    let k = k % n;
    let a = -2.0 * PI * (k as f64) / (n as f64);
    C(a.cos(), a.sin())
}

/// A transform of one length (forward; the inverse conjugates around it).
enum Plan {
    Radix2 { n: usize, tw: Vec<C> },
    Direct { n: usize, tw: Vec<C> },
    Bluestein { n: usize, m: usize, chirp: Vec<C>, bfft: Vec<C>, inner: Box<Plan> },
}

const DIRECT_MAX: usize = 64;

impl Plan {
    fn new(n: usize) -> Plan {
        if n.is_power_of_two() {
            Plan::Radix2 { n, tw: (0..n / 2).map(|k| twiddle(k, n)).collect() }
        } else if n <= DIRECT_MAX {
            Plan::Direct { n, tw: (0..n).map(|k| twiddle(k, n)).collect() }
        } else {
            let m = (2 * n - 1).next_power_of_two();
            // chirp[k] = e^{-pi i k^2 / n}; k^2 reduced mod 2n to keep the angle small.
            let chirp: Vec<C> = (0..n)
                .map(|k| {
                    let e = ((k as u128 * k as u128) % (2 * n as u128)) as f64;
                    let a = -PI * e / n as f64;
                    C(a.cos(), a.sin())
                })
                .collect();
            let inner = Box::new(Plan::new(m));
            let mut b = vec![C(0.0, 0.0); m];
            b[0] = chirp[0].conj();
            for k in 1..n {
                b[k] = chirp[k].conj();
                b[m - k] = chirp[k].conj();
            }
            inner.forward(&mut b, &mut Vec::new());
            Plan::Bluestein { n, m, chirp, bfft: b, inner }
        }
    }

    /// In-place forward DFT of `x` (length n); `scratch` is reused between calls.
    fn forward(&self, x: &mut [C], scratch: &mut Vec<C>) {
        match self {
            Plan::Radix2 { n, tw } => {
                let n = *n;
                if n <= 1 {
                    return;
                }
                let bits = n.trailing_zeros();
                for i in 0..n {
                    let j = i.reverse_bits() >> (usize::BITS - bits);
                    if j > i {
                        x.swap(i, j);
                    }
                }
                let mut len = 2;
                while len <= n {
                    let step = n / len;
                    for start in (0..n).step_by(len) {
                        for k in 0..len / 2 {
                            let w = tw[k * step];
                            let a = x[start + k];
                            let b = x[start + k + len / 2].mul(w);
                            x[start + k] = a.add(b);
                            x[start + k + len / 2] = a.sub(b);
                        }
                    }
                    len *= 2;
                }
            }
            Plan::Direct { n, tw } => {
                let n = *n;
                scratch.clear();
                scratch.extend_from_slice(&x[..n]);
                for (k, out) in x.iter_mut().enumerate().take(n) {
                    let mut acc = C(0.0, 0.0);
                    for (j, &v) in scratch.iter().enumerate() {
                        acc = acc.add(v.mul(tw[(j * k) % n]));
                    }
                    *out = acc;
                }
            }
            Plan::Bluestein { n, m, chirp, bfft, inner } => {
                let (n, m) = (*n, *m);
                let mut a = vec![C(0.0, 0.0); m];
                for k in 0..n {
                    a[k] = x[k].mul(chirp[k]);
                }
                inner.forward(&mut a, scratch);
                for (v, b) in a.iter_mut().zip(bfft) {
                    *v = v.mul(*b);
                }
                // Inverse via conjugation.
                a.iter_mut().for_each(|v| *v = v.conj());
                inner.forward(&mut a, scratch);
                let s = 1.0 / m as f64;
                for k in 0..n {
                    let v = a[k].conj();
                    x[k] = C(v.0 * s, v.1 * s).mul(chirp[k]);
                }
            }
        }
    }

    /// Unscaled inverse DFT.
    fn inverse(&self, x: &mut [C], scratch: &mut Vec<C>) {
        x.iter_mut().for_each(|v| *v = v.conj());
        self.forward(x, scratch);
        x.iter_mut().for_each(|v| *v = v.conj());
    }
}

/// Transforms every line along axis `axis` of a complex array of `shape`, in place.
fn along_axis(data: &mut [C], shape: &[usize], axis: usize, inverse: bool) {
    let n = shape[axis];
    if n == 0 || data.is_empty() {
        return;
    }
    let st = strides_u(shape);
    let mut outer = shape.to_vec();
    outer[axis] = 1;
    let starts = strided_indices(&outer, &st.iter().map(|&s| s as isize).collect::<Vec<_>>(), 0);
    let plan = Plan::new(n);
    let mut line = vec![C(0.0, 0.0); n];
    let mut scratch = Vec::new();
    let scale = 1.0 / n as f64;
    for s in starts {
        for (i, v) in line.iter_mut().enumerate() {
            *v = data[s + i * st[axis]];
        }
        if inverse {
            plan.inverse(&mut line, &mut scratch);
            line.iter_mut().for_each(|v| *v = C(v.0 * scale, v.1 * scale));
        } else {
            plan.forward(&mut line, &mut scratch);
        }
        for (i, v) in line.iter().enumerate() {
            data[s + i * st[axis]] = *v;
        }
    }
}

fn complex_in(t: &Tensor) -> Result<Vec<C>, String> {
    match &t.data {
        Data::Complex(v) => Ok(v.iter().map(|&(a, b)| C(a, b)).collect()),
        Data::Float(v) => Ok(v.iter().map(|&a| C(a, 0.0)).collect()),
        _ => Err("fft operand must be complex (or float for RFFT)".into()),
    }
}

pub fn eval_fft(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let x = tensor_arg(args, 0)?;
    let kind = match ctx.op.attr("fft_type") {
        Some(Attr::FftType(k)) => *k,
        _ => return Err("missing fft_type".into()),
    };
    let lens = req_i64s(ctx, "fft_length")?;
    let rank = x.shape().len();
    let l = lens.len();
    if l == 0 || l > 3 || l > rank {
        return Err(format!("fft_length must have 1 to 3 entries, at most the operand rank {rank}"));
    }
    let fft_dims: Vec<usize> = (rank - l..rank).collect();
    let mut shape = ushape(x.shape());
    let last = rank - 1;
    let n_last = lens[l - 1].max(0) as usize;
    for (k, &d) in fft_dims.iter().enumerate() {
        let want = lens[k];
        let have = x.shape()[d];
        let ok = match kind {
            FftType::Irfft if d == last => have == want / 2 + 1,
            _ => have == want,
        };
        if !ok || want < 0 {
            return Err(format!("operand dimension {d} of size {have} does not fit fft_length {lens:?} for {}", kind.keyword()));
        }
    }
    let out_ty = result_tensor_type(ctx, 0)?;
    let ft = out_ty.elem.float_type().ok_or("fft result must be float or complex")?;
    match kind {
        FftType::Fft | FftType::Ifft => {
            if !x.elem().is_complex() {
                return Err("FFT/IFFT need a complex operand".into());
            }
            let mut data = complex_in(x)?;
            for &d in fft_dims.iter().rev() {
                along_axis(&mut data, &shape, d, kind == FftType::Ifft);
            }
            finish_complex(ctx, &shape, ft, data)
        }
        FftType::Rfft => {
            if !x.elem().is_float() {
                return Err("RFFT needs a float operand".into());
            }
            let mut data = complex_in(x)?;
            along_axis(&mut data, &shape, last, false);
            // Keep the n/2 + 1 non-redundant outputs of the last dimension.
            let keep = n_last / 2 + 1;
            let mut oshape = shape.clone();
            oshape[last] = keep;
            let rows = data.len().checked_div(shape[last]).unwrap_or(0);
            let mut out = Vec::with_capacity(rows * keep);
            for r in 0..rows {
                out.extend_from_slice(&data[r * shape[last]..r * shape[last] + keep]);
            }
            for &d in fft_dims[..l - 1].iter().rev() {
                along_axis(&mut out, &oshape, d, false);
            }
            finish_complex(ctx, &oshape, ft, out)
        }
        FftType::Irfft => {
            if !x.elem().is_complex() {
                return Err("IRFFT needs a complex operand".into());
            }
            let mut data = complex_in(x)?;
            for &d in fft_dims[..l - 1].iter().rev() {
                along_axis(&mut data, &shape, d, true);
            }
            // Rebuild the full Hermitian spectrum of the last dimension, invert, keep real parts.
            let half = shape[last];
            let rows = data.len().checked_div(half).unwrap_or(0);
            let mut full = vec![C(0.0, 0.0); rows * n_last];
            for r in 0..rows {
                let src = &data[r * half..(r + 1) * half];
                let dst = &mut full[r * n_last..(r + 1) * n_last];
                for k in 0..n_last {
                    dst[k] = if k < half { src[k] } else { src[n_last - k].conj() };
                }
            }
            shape[last] = n_last;
            along_axis(&mut full, &shape, last, true);
            let oshape: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
            let ty = refine_result_type(ctx, 0, &oshape)?;
            if !matches!(ty.elem, ElementType::Float(_)) {
                return Err("IRFFT result must be a float tensor".into());
            }
            let v = full.iter().map(|c| round_to(ft, c.0)).collect();
            Ok(vec![tv(ty, Data::Float(v))])
        }
    }
}

fn finish_complex(ctx: &OpCtx, shape: &[usize], ft: oxhlo_ir::FloatType, data: Vec<C>) -> Result<Vec<RtValue>, String> {
    let oshape: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    let ty = refine_result_type(ctx, 0, &oshape)?;
    if !ty.elem.is_complex() {
        return Err("FFT/IFFT/RFFT results must be complex".into());
    }
    let v = data.into_iter().map(|c| (round_to(ft, c.0), round_to(ft, c.1))).collect();
    Ok(vec![tv(ty, Data::Complex(v))])
}
