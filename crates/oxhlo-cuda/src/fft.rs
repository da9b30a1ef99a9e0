//! `stablehlo.fft` on the GPU (`jnp.fft.fft` / `ifft` / `rfft` / `irfft` and their 2-D and 3-D forms),
//! as the reference interpreter computes it, in double: the operand widened into a complex-double work
//! buffer, one pass per transformed dimension (last first) transforming every line along it, and one
//! rounding to the result type at the end. A pass takes a block a line; the line's transform is the
//! interpreter's: iterative radix-2 for powers of two (the bit-reversal swaps, then each stage's
//! butterflies spread over the block's threads), a direct DFT for other lengths up to 64 (a thread an
//! output, summing in index order), Bluestein's chirp-z through a power-of-two transform for longer
//! ones; inverses conjugate around the forward transform and scale by `1 / n`. Twiddles are computed
//! with the interpreter's expressions (CUDA's `cos` / `sin` may differ from the host's in the last
//! bit). RFFT keeps the first `n / 2 + 1` outputs of the last dimension before the other passes; IRFFT
//! rebuilds the Hermitian spectrum before the last dimension's pass and keeps real parts.
//!
//! The launches of one op ([`plan`]) use five buffers: the operand, two complex-double work buffers,
//! the passes' scratch (Bluestein's and the direct DFT's line copies) and the result.

use crate::device::{DTensor, Gpu, Memo};
use crate::render::{coord_names, coords, kind_of, row_major_strides, COMPLEX_PRELUDE, ENTRY, PRELUDE};
use oxhlo_cpu::Kind;
use oxhlo_ir::attr::FftType;
use oxhlo_ir::{Attr, Func, Op, OpKind};
use std::fmt::Write;

/// The buffers a launch takes, in its signature's order after `long long n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buffer {
    Operand,
    Work,
    Work2,
    Scratch,
    Result,
}

/// One launch of an fft: a thread an item (`threads == None`) or a block of `threads` an item.
pub struct Launch {
    pub src: String,
    pub items: usize,
    pub threads: Option<u32>,
    pub buffers: Vec<Buffer>,
}

/// The launches of an fft op and the complex doubles its work and scratch buffers hold.
pub struct Plan {
    pub launches: Vec<Launch>,
    pub work: usize,
    pub scratch: usize,
}

/// The kernels' roles in the program's [`Memo`] (one a launch, from this tag on).
const MEMO_TAG: u32 = 70;

/// The line transforms (device functions on complex doubles `oxz`, the whole block calling them).
const LINES: &str = r#"
#define OXF_PI __longlong_as_double(0x400921fb54442d18LL)
__device__ __forceinline__ oxz oxf_twiddle(long long k, long long n) {
  const double a = __dmul_rn(-2.0, OXF_PI) * (double)(k % n) / (double)n;
  return oxz_make(cos(a), sin(a));
}
// In-place forward radix-2 transform of the n (a power of two) elements x[0], x[s], x[2s], ...
__device__ void oxf_radix2(oxz* x, long long s, long long n) {
  if (n <= 1) return;
  int bits = 0; while ((1LL << bits) < n) bits++;
  for (long long i = threadIdx.x; i < n; i += blockDim.x) {
    const long long j = (long long)(__brevll((unsigned long long)i) >> (64 - bits));
    if (j > i) { const oxz t = x[i * s]; x[i * s] = x[j * s]; x[j * s] = t; }
  }
  __syncthreads();
  for (long long len = 2; len <= n; len *= 2) {
    const long long half = len / 2, step = n / len;
    for (long long t = threadIdx.x; t < n / 2; t += blockDim.x) {
      const long long start = (t / half) * len, k = t % half;
      const oxz w = oxf_twiddle(k * step, n);
      const oxz a = x[(start + k) * s];
      const oxz b = oxz_mul(x[(start + k + half) * s], w);
      x[(start + k) * s] = oxz_add(a, b);
      x[(start + k + half) * s] = oxz_sub(a, b);
    }
    __syncthreads();
  }
}
"#;

/// The forward transform of a line of `n` elements `x[p * s]` for this `n`, as C statements (the
/// block's threads all run them; `sc` points at the line's scratch).
fn forward(n: i64) -> String {
    if n <= 1 {
        return String::new();
    }
    if n & (n - 1) == 0 {
        return "      oxf_radix2(x, s, n);\n".to_string();
    }
    if n <= 64 {
        // Direct DFT: the line copied, a thread an output summing over the copy in index order.
        return "      for (long long p = threadIdx.x; p < n; p += blockDim.x) sc[p] = x[p * s];\n      __syncthreads();\n      for (long long k = threadIdx.x; k < n; k += blockDim.x) {\n        oxz acc = oxz_make(0.0, 0.0);\n        for (long long j = 0; j < n; j++) acc = oxz_add(acc, oxz_mul(sc[j], oxf_twiddle((j * k) % n, n)));\n        x[k * s] = acc;\n      }\n      __syncthreads();\n".to_string();
    }
    // Bluestein: chirp c[k] = e^{-pi i (k^2 mod 2n) / n}, b the conjugate chirp wrapped around m and
    // transformed, a = x c transformed, times b, inverted by conjugation, scaled by 1 / m, times c.
    let m = (2 * n - 1) as u64;
    let m = m.next_power_of_two() as i64;
    format!(
        "      oxz* a = sc; oxz* b = sc + {m}LL; oxz* c = sc + {m2}LL;
      for (long long k = threadIdx.x; k < n; k += blockDim.x) {{
        const double e = (double)((k * k) % (2 * n));
        const double ang = (-OXF_PI) * e / (double)n;
        c[k] = oxz_make(cos(ang), sin(ang));
      }}
      __syncthreads();
      for (long long k = threadIdx.x; k < {m}LL; k += blockDim.x) {{
        a[k] = k < n ? oxz_mul(x[k * s], c[k]) : oxz_make(0.0, 0.0);
        b[k] = k < n ? oxz_conj(c[k]) : (k > {m}LL - n ? oxz_conj(c[{m}LL - k]) : oxz_make(0.0, 0.0));
      }}
      __syncthreads();
      oxf_radix2(b, 1, {m}LL);
      oxf_radix2(a, 1, {m}LL);
      for (long long k = threadIdx.x; k < {m}LL; k += blockDim.x) a[k] = oxz_conj(oxz_mul(a[k], b[k]));
      __syncthreads();
      oxf_radix2(a, 1, {m}LL);
      {{
        const double sm = 1.0 / (double){m}LL;
        for (long long k = threadIdx.x; k < n; k += blockDim.x) {{
          const oxz v = oxz_conj(a[k]);
          x[k * s] = oxz_mul(oxz_make(v.re * sm, v.im * sm), c[k]);
        }}
      }}
      __syncthreads();
",
        m2 = 2 * m
    )
}

/// Complex doubles of scratch a line of `n` needs.
fn scratch_per_line(n: i64) -> i64 {
    if n <= 1 || n & (n - 1) == 0 {
        0
    } else if n <= 64 {
        n
    } else {
        let m = ((2 * n - 1) as u64).next_power_of_two() as i64;
        2 * m + n
    }
}

/// The pass transforming every line along `axis` of the work buffer (`shape`), forward or inverse: a
/// block a line. Returns the launch and the scratch it needs.
fn line_pass(shape: &[i64], axis: usize, inverse: bool, buffer: Buffer) -> Option<(Launch, i64)> {
    let n = shape[axis];
    let strides = row_major_strides(shape);
    let mut outer = shape.to_vec();
    outer[axis] = 1;
    let lines = crate::render::checked_numel(&outer)?;
    let per_line = scratch_per_line(n);
    let threads = ((n as u64 / 2).next_power_of_two()).clamp(32, 256) as u32;
    let mut src = String::from(PRELUDE);
    src.push_str(COMPLEX_PRELUDE);
    src.push_str(LINES);
    let _ = writeln!(src, "extern \"C\" __global__ void __launch_bounds__({threads}) {ENTRY}(long long lines, oxz* __restrict__ w, oxz* __restrict__ scratch) {{");
    let _ = writeln!(src, "  const long long n = {n}LL, s = {}LL;", strides[axis]);
    let _ = writeln!(src, "  for (long long g = blockIdx.x; g < lines; g += gridDim.x) {{");
    // The line's first element: the outer coordinates of g, the axis at 0.
    let names = coord_names("c", &outer);
    src.push_str(&coords("g", &names).replace("    ", "      "));
    let start: Vec<String> = (0..shape.len()).map(|d| format!("c{d} * {}LL", strides[d])).collect();
    let _ = writeln!(src, "      oxz* x = w + ({}); oxz* sc = scratch + g * {per_line}LL; (void)sc;", start.join(" + "));
    if inverse {
        let _ = writeln!(src, "      for (long long p = threadIdx.x; p < n; p += blockDim.x) x[p * s] = oxz_conj(x[p * s]);\n      __syncthreads();");
    }
    src.push_str(&forward(n));
    if inverse {
        let _ = writeln!(src, "      {{ const double scale = 1.0 / (double)n;\n      for (long long p = threadIdx.x; p < n; p += blockDim.x) {{ const oxz v = oxz_conj(x[p * s]); x[p * s] = oxz_make(v.re * scale, v.im * scale); }} }}");
    }
    let _ = writeln!(src, "      __syncthreads();\n  }}\n}}");
    Some((Launch { src, items: lines as usize, threads: Some(threads), buffers: vec![buffer, Buffer::Scratch] }, lines * per_line))
}

/// A thread-an-element kernel `(long long n, <from>, <to>)` with `body` (element `i`).
fn per_element(n: i64, from: (Buffer, &str), to: (Buffer, &str), body: &str) -> Launch {
    let mut src = String::from(PRELUDE);
    src.push_str(COMPLEX_PRELUDE);
    let _ = writeln!(src, "extern \"C\" __global__ void {ENTRY}(long long n, const {}* __restrict__ src, {}* __restrict__ dst) {{", from.1, to.1);
    let _ = writeln!(src, "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {{");
    src.push_str(body);
    let _ = writeln!(src, "  }}\n}}");
    Launch { src, items: n as usize, threads: None, buffers: vec![from.0, to.0] }
}

/// The launches of fft `op`, None when it stays on the host.
pub fn plan(func: &Func, op: &Op) -> Option<Plan> {
    if op.kind != OpKind::Fft || crate::env_off("OXHLO_CUDA_FFT") || op.results.len() != 1 {
        return None;
    }
    let kind = match op.attr("fft_type")? {
        Attr::FftType(k) => *k,
        _ => return None,
    };
    let lens = op.i64s("fft_length")?;
    let (ik, ishape) = kind_of(func, *op.operands.first()?)?;
    let (rk, rshape) = kind_of(func, op.results[0])?;
    let (rank, l) = (ishape.len(), lens.len());
    if l == 0 || l > 3 || l > rank || lens.iter().any(|&n| n <= 0) {
        return None;
    }
    let last = rank - 1;
    let dims: Vec<usize> = (rank - l..rank).collect();
    let n_last = lens[l - 1];
    let ok = dims.iter().zip(&lens).all(|(&d, &want)| if kind == FftType::Irfft && d == last { ishape[d] == want / 2 + 1 } else { ishape[d] == want });
    let c_type = |k: Kind| match k {
        Kind::C64 => Some("float2"),
        Kind::C128 => Some("double2"),
        Kind::F32 => Some("float"),
        Kind::F64 => Some("double"),
        _ => None,
    };
    let (ity, rty) = (c_type(ik)?, c_type(rk)?);
    let complex_in = matches!(ik, Kind::C64 | Kind::C128);
    let complex_out = matches!(rk, Kind::C64 | Kind::C128);
    let valid = match kind {
        FftType::Fft | FftType::Ifft => complex_in && complex_out && rshape == ishape,
        FftType::Rfft => !complex_in && complex_out,
        FftType::Irfft => complex_in && !complex_out,
    };
    if !ok || !valid || crate::render::checked_numel(&ishape)? == 0 {
        return None;
    }
    let numel = |s: &[i64]| crate::render::checked_numel(s);
    let widen = if complex_in { "    dst[i] = oxz_ld(src[i]);\n" } else { "    dst[i] = oxz_make((double)src[i], 0.0);\n" };
    let mut launches = vec![per_element(numel(&ishape)?, (Buffer::Operand, ity), (Buffer::Work, "oxz"), widen)];
    let mut scratch = 0i64;
    let mut work = numel(&ishape)?;
    let mut pass = |launches: &mut Vec<Launch>, shape: &[i64], d: usize, inverse: bool, buffer: Buffer| -> Option<()> {
        let (launch, s) = line_pass(shape, d, inverse, buffer)?;
        scratch = scratch.max(s);
        launches.push(launch);
        Some(())
    };
    let store_complex = |shape: &[i64], from: Buffer| {
        let body = if rk == Kind::C64 { "    dst[i] = oxz_f2(src[i]);\n" } else { "    dst[i] = oxz_d2(src[i]);\n" };
        per_element(shape.iter().product(), (from, "oxz"), (Buffer::Result, rty), body)
    };
    match kind {
        FftType::Fft | FftType::Ifft => {
            for &d in dims.iter().rev() {
                pass(&mut launches, &ishape, d, kind == FftType::Ifft, Buffer::Work)?;
            }
            launches.push(store_complex(&ishape, Buffer::Work));
        }
        FftType::Rfft => {
            pass(&mut launches, &ishape, last, false, Buffer::Work)?;
            let keep = n_last / 2 + 1;
            let mut oshape = ishape.clone();
            oshape[last] = keep;
            if oshape != rshape {
                return None;
            }
            work = work.max(numel(&oshape)?);
            let body = format!("    dst[i] = src[(i / {keep}LL) * {n_last}LL + i % {keep}LL];\n");
            launches.push(per_element(numel(&oshape)?, (Buffer::Work, "oxz"), (Buffer::Work2, "oxz"), &body));
            for &d in dims[..l - 1].iter().rev() {
                pass(&mut launches, &oshape, d, false, Buffer::Work2)?;
            }
            launches.push(store_complex(&oshape, Buffer::Work2));
        }
        FftType::Irfft => {
            for &d in dims[..l - 1].iter().rev() {
                pass(&mut launches, &ishape, d, true, Buffer::Work)?;
            }
            let half = ishape[last];
            let mut full = ishape.clone();
            full[last] = n_last;
            if full != rshape {
                return None;
            }
            work = work.max(numel(&full)?);
            let body = format!(
                "    const long long r = i / {n_last}LL, k = i % {n_last}LL;\n    dst[i] = k < {half}LL ? src[r * {half}LL + k] : oxz_conj(src[r * {half}LL + ({n_last}LL - k)]);\n"
            );
            launches.push(per_element(numel(&full)?, (Buffer::Work, "oxz"), (Buffer::Work2, "oxz"), &body));
            pass(&mut launches, &full, last, true, Buffer::Work2)?;
            let body = if rk == Kind::F32 { "    dst[i] = (float)src[i].re;\n" } else { "    dst[i] = src[i].re;\n" };
            launches.push(per_element(numel(&full)?, (Buffer::Work2, "oxz"), (Buffer::Result, rty), body));
        }
    }
    Some(Plan { launches, work: work as usize, scratch: scratch as usize })
}

/// Whether `op` runs on the device this way (its first kernel rendered once and kept in `memo`).
pub fn runs_on_device(memo: &Memo, func: &Func, op: &Op) -> bool {
    memo.get(op, MEMO_TAG, || plan(func, op).and_then(|p| p.launches.into_iter().next()).map(|l| l.src)).is_some()
}

/// Runs fft `op` on its device operand: its result, or None when it stays on the host.
pub fn try_run(gpu: &Gpu, memo: &Memo, func: &Func, op: &Op, ins: &[DTensor]) -> Option<Result<Vec<DTensor>, String>> {
    let p = plan(func, op)?;
    let results = crate::render::result_types(func, op)?;
    let kernels: Vec<_> = p.launches.iter().enumerate().map(|(j, l)| memo.get(op, MEMO_TAG + j as u32, || Some(l.src.clone()))).collect::<Option<_>>()?;
    Some((|| {
        let mut bufs = vec![gpu.alloc_raw(Kind::C128, p.work)?, gpu.alloc_raw(Kind::C128, p.work)?, gpu.alloc_raw(Kind::C128, p.scratch.max(1))?];
        bufs.extend(gpu.alloc_results(&results)?);
        for (l, k) in p.launches.iter().zip(&kernels) {
            // Inputs are the operand (read only); every other buffer is passed as an output.
            let operand: Vec<_> = l.buffers.iter().filter(|b| **b == Buffer::Operand).map(|_| &**ins[0].buf).collect();
            let index = |b: Buffer| match b {
                Buffer::Work => 0,
                Buffer::Work2 => 1,
                Buffer::Scratch => 2,
                _ => 3,
            };
            let wanted: Vec<usize> = l.buffers.iter().filter(|b| **b != Buffer::Operand).map(|b| index(*b)).collect();
            let mut taken: Vec<crate::device::DBuf> = Vec::new();
            for &w in &wanted {
                taken.push(std::mem::replace(&mut bufs[w], crate::device::DBuf::empty()));
            }
            let r = match l.threads {
                Some(t) => gpu.launch_blocks(k, l.items, t, &operand, &mut taken),
                None => gpu.launch_scalar(k, l.items, &operand, &mut taken),
            };
            for (&w, b) in wanted.iter().zip(taken) {
                bufs[w] = b;
            }
            r?;
        }
        let result = bufs.pop().ok_or("no result buffer")?;
        Ok(Gpu::wrap_results(&results, vec![result]))
    })())
}
