//! Native `fft`: FFT, IFFT, RFFT and IRFFT over the last `fft_length.len()` (1 to 3) dimensions of
//! complex64/complex128 (f32/f64 for the real forms) on the `rustfft` crate (mixed-radix and Bluestein
//! plans for every length, SIMD on x86-64; the real forms through `realfft`, a half-length complex
//! transform), in the operand's own precision as XLA computes it; lines of a dimension are transformed
//! in parallel over `threads` workers. IFFT and IRFFT scale by 1/n per
//! transformed dimension, as the spec says. The interpreter (f64 for every type) stays the reference;
//! the two agree within the f32 rounding of the sums. Any other case returns `None` for it.

use super::elems::result_type;
use super::{Attempt, KernelCtx};
use crate::tensor::{Buf, NTensor};
use oxhlo_ir::attr::FftType;
use oxhlo_ir::{Attr, OpKind};
use rustfft::num_complex::Complex;
use realfft::RealFftPlanner;
use rustfft::{FftDirection, FftNum, FftPlanner};

/// Elements below which the lines of a dimension are transformed on the calling thread.
const PARALLEL_MIN: usize = 1 << 15;

/// Runs the op natively when this family handles it.
pub fn try_run(ctx: &KernelCtx, args: &[&NTensor]) -> Attempt {
    if ctx.op.kind != OpKind::Fft {
        return None;
    }
    let kind = match ctx.op.attr("fft_type") {
        Some(Attr::FftType(k)) => *k,
        _ => return None,
    };
    let lens: Vec<usize> = ctx.op.attr("fft_length")?.as_i64_list()?.iter().map(|&n| usize::try_from(n).ok()).collect::<Option<_>>()?;
    let x = args.first()?;
    let shape: Vec<usize> = x.ty.shape.iter().map(|&d| usize::try_from(d).ok()).collect::<Option<_>>()?;
    let rank = shape.len();
    if lens.is_empty() || lens.len() > 3 || lens.len() > rank {
        return None;
    }
    // The operand's transformed dims must be what the verifier checked (the interpreter reports misfits).
    let last = rank - 1;
    let fits = (rank - lens.len()..rank).zip(&lens).all(|(d, &n)| if kind == FftType::Irfft && d == last { shape[d] == n / 2 + 1 } else { shape[d] == n });
    if !fits {
        return None;
    }
    let rty = result_type(ctx, 0)?;
    let t = Transform { kind, lens: &lens, shape: &shape, threads: ctx.threads.max(1) };
    let buf = match (&*x.buf, kind) {
        (Buf::C64(v), FftType::Fft | FftType::Ifft) => Buf::C64(t.complex(v.clone())),
        (Buf::C128(v), FftType::Fft | FftType::Ifft) => Buf::C128(t.complex(v.clone())),
        (Buf::F32(v), FftType::Rfft) => Buf::C64(t.real_forward(v)),
        (Buf::F64(v), FftType::Rfft) => Buf::C128(t.real_forward(v)),
        (Buf::C64(v), FftType::Irfft) => Buf::F32(t.real_inverse(v.clone())),
        (Buf::C128(v), FftType::Irfft) => Buf::F64(t.real_inverse(v.clone())),
        _ => return None,
    };
    if buf.len() != rty.num_elements()? {
        return None;
    }
    Some(Ok(vec![NTensor::new(rty, buf)]))
}

/// The backend's complex storage (`[re, im]` pairs) seen as rustfft's `Complex` (the same `repr(C)`
/// layout): the transforms work on the tensor's own buffer, no conversion passes.
fn as_complex<T: FftNum + bytemuck::Pod>(v: &mut [[T; 2]]) -> &mut [Complex<T>]
where
    Complex<T>: bytemuck::Pod,
{
    bytemuck::cast_slice_mut(v)
}

/// One op's transform: its kind, lengths, operand shape and worker threads.
struct Transform<'a> {
    kind: FftType,
    lens: &'a [usize],
    shape: &'a [usize],
    threads: usize,
}

impl Transform<'_> {
    /// The transformed dims (the last `lens.len()`).
    fn dims(&self) -> std::ops::Range<usize> {
        self.shape.len() - self.lens.len()..self.shape.len()
    }

    /// FFT or IFFT of every transformed dim.
    fn complex<T: FftNum + bytemuck::Pod>(&self, mut data: Vec<[T; 2]>) -> Vec<[T; 2]>
    where
        Complex<T>: bytemuck::Pod,
    {
        let inverse = self.kind == FftType::Ifft;
        for d in self.dims().rev() {
            along(as_complex(&mut data), self.shape, d, inverse, self.threads);
        }
        data
    }

    /// RFFT: each last-dim line's real transform (its n/2 + 1 non-redundant outputs), then the other
    /// transformed dims.
    fn real_forward<T: FftNum + bytemuck::Pod>(&self, v: &[T]) -> Vec<[T; 2]>
    where
        Complex<T>: bytemuck::Pod,
    {
        let last = self.shape.len() - 1;
        let n = self.shape[last];
        let keep = n / 2 + 1;
        let rows = v.len().checked_div(n).unwrap_or(0);
        let mut pairs = vec![[T::zero(); 2]; rows * keep];
        let out = as_complex(&mut pairs);
        if n > 0 {
            let r2c = RealFftPlanner::<T>::new().plan_fft_forward(n);
            par_units(out, keep, self.threads, &|first, chunk| {
                let mut line = vec![T::zero(); n];
                let mut scratch = r2c.make_scratch_vec();
                for (k, o) in chunk.chunks_exact_mut(keep).enumerate() {
                    line.copy_from_slice(&v[(first + k) * n..(first + k + 1) * n]);
                    // Lengths are the plan's own, so the transform cannot refuse them.
                    let _ = r2c.process_with_scratch(&mut line, o, &mut scratch);
                }
            });
        }
        let mut oshape = self.shape.to_vec();
        oshape[last] = keep;
        for d in self.dims().rev().skip(1) {
            along(out, &oshape, d, false, self.threads);
        }
        pairs
    }

    /// IRFFT: the other transformed dims inverted, then each last-dim line's inverse real transform
    /// from its n/2 + 1 values (the imaginary parts of the first and, for even n, the last value do not
    /// reach the real result of the full Hermitian spectrum's inverse, so they are ignored), scaled by 1/n.
    fn real_inverse<T: FftNum + bytemuck::Pod>(&self, mut pairs: Vec<[T; 2]>) -> Vec<T>
    where
        Complex<T>: bytemuck::Pod,
    {
        let data = as_complex(&mut pairs);
        for d in self.dims().rev().skip(1) {
            along(data, self.shape, d, true, self.threads);
        }
        let last = self.shape.len() - 1;
        let (half, n) = (self.shape[last], self.lens[self.lens.len() - 1]);
        let rows = data.len().checked_div(half).unwrap_or(0);
        let mut out = vec![T::zero(); rows * n];
        if n > 0 {
            let c2r = RealFftPlanner::<T>::new().plan_fft_inverse(n);
            let scale = T::one() / T::from_usize(n).unwrap_or_else(T::one);
            let data = &*data;
            par_units(&mut out, n, self.threads, &|first, chunk| {
                let mut line = vec![zero::<T>(); half];
                let mut scratch = c2r.make_scratch_vec();
                for (k, o) in chunk.chunks_exact_mut(n).enumerate() {
                    line.copy_from_slice(&data[(first + k) * half..(first + k + 1) * half]);
                    // An error here only reports those ignored imaginary parts; the output is computed.
                    let _ = c2r.process_with_scratch(&mut line, o, &mut scratch);
                    o.iter_mut().for_each(|v| *v = *v * scale);
                }
            });
        }
        out
    }
}

/// Transforms every line along `axis` of `data` (row-major `shape`) in place; inverse transforms are
/// scaled by 1/n. Lines of the last dim are contiguous; for another dim the array, seen as
/// `[outer, n, inner]`, is transposed to `[outer, inner, n]` and back around the transform.
fn along<T: FftNum>(data: &mut [Complex<T>], shape: &[usize], axis: usize, inverse: bool, threads: usize) {
    let n = shape[axis];
    if n == 0 || data.is_empty() {
        return;
    }
    let inner: usize = shape[axis + 1..].iter().product();
    if inner == 1 {
        lines(data, n, inverse, threads);
        return;
    }
    let mut t = vec![zero::<T>(); data.len()];
    transpose(data, &mut t, n, inner, threads);
    lines(&mut t, n, inverse, threads);
    transpose(&t, data, inner, n, threads);
}

fn zero<T: FftNum>() -> Complex<T> {
    Complex { re: T::zero(), im: T::zero() }
}

/// Transforms the contiguous lines of length `n` that make up `data`, split over `threads` workers.
fn lines<T: FftNum>(data: &mut [Complex<T>], n: usize, inverse: bool, threads: usize) {
    let dir = if inverse { FftDirection::Inverse } else { FftDirection::Forward };
    let fft = FftPlanner::<T>::new().plan_fft(n, dir);
    let scale = T::one() / T::from_usize(n).unwrap_or_else(T::one);
    par_units(data, n, threads, &|_, chunk| {
        let mut scratch = vec![zero::<T>(); fft.get_inplace_scratch_len()];
        fft.process_with_scratch(chunk, &mut scratch);
        if inverse {
            chunk.iter_mut().for_each(|v| *v = *v * scale);
        }
    });
}

/// `dst` = `src` seen as blocks of `[rows, cols]`, each transposed to `[cols, rows]`; eight columns
/// are gathered at a time so that each source row is read in runs.
fn transpose<T: FftNum>(src: &[Complex<T>], dst: &mut [Complex<T>], rows: usize, cols: usize, threads: usize) {
    const GROUP: usize = 8;
    par_units(dst, rows, threads, &|first, out| {
        let count = out.len() / rows;
        let mut l = 0;
        while l < count {
            let line = first + l;
            let (blk, c) = (line / cols, line % cols);
            let g = GROUP.min(cols - c).min(count - l);
            let base = blk * rows * cols;
            for r in 0..rows {
                let row = &src[base + r * cols + c..base + r * cols + c + g];
                for (j, &v) in row.iter().enumerate() {
                    out[(l + j) * rows + r] = v;
                }
            }
            l += g;
        }
    });
}

/// Runs `f(first unit, chunk)` over `data` cut into whole units of `unit` elements, the units spread
/// over up to `threads` scoped workers (one when the data is small).
fn par_units<T: Send>(data: &mut [T], unit: usize, threads: usize, f: &(dyn Fn(usize, &mut [T]) + Sync)) {
    let units = data.len() / unit.max(1);
    if threads <= 1 || units <= 1 || data.len() < PARALLEL_MIN {
        f(0, data);
        return;
    }
    let per = units.div_ceil(threads.min(units));
    std::thread::scope(|sc| {
        for (k, chunk) in data.chunks_mut(per * unit).enumerate() {
            sc.spawn(move || f(k * per, chunk));
        }
    });
}
