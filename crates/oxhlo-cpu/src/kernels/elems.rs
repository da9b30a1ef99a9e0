//! Shared helpers of the data-movement families (movement, gather/scatter, window, sort): the
//! [`NElem`] trait that gives generic code typed access to every [`Buf`] variant, the [`with_kind!`]
//! macro that instantiates generic code once per native kind, attribute and index readers, and the
//! strided-copy engine (`strided_copy`) that transpose, slice, broadcast, reverse and dynamic_slice share.
//! Every helper checks bounds up front and reports problems as `None`/`Err`, never by panicking.

use crate::tensor::{Buf, Kind, NTensor};
use half::{bf16, f16};
use oxhlo_ir::{Op, TensorType};

/// A native element type: typed views of a [`Buf`] and the few conversions the movement kernels need.
pub trait NElem: Copy + PartialEq + Send + Sync + 'static {
    fn of(b: &Buf) -> Option<&[Self]>;
    fn wrap(v: Vec<Self>) -> Buf;
    fn of_vec(b: &mut Buf) -> Option<&mut Vec<Self>>;
    /// `v` converted as the interpreter's iota / get_dimension_size do (integers wrap, floats round).
    fn from_i64(v: i64) -> Self;
}

macro_rules! impl_nelem {
    ($t:ty, $var:ident, |$v:ident| $conv:expr) => {
        impl NElem for $t {
            #[inline]
            fn of(b: &Buf) -> Option<&[Self]> {
                match b {
                    Buf::$var(x) => Some(x),
                    _ => None,
                }
            }
            #[inline]
            fn wrap(v: Vec<Self>) -> Buf {
                Buf::$var(v)
            }
            #[inline]
            fn of_vec(b: &mut Buf) -> Option<&mut Vec<Self>> {
                match b {
                    Buf::$var(x) => Some(x),
                    _ => None,
                }
            }
            #[inline]
            fn from_i64($v: i64) -> Self {
                $conv
            }
        }
    };
}

impl_nelem!(bool, Bool, |v| v & 1 == 1);
impl_nelem!(i8, I8, |v| v as i8);
impl_nelem!(i16, I16, |v| v as i16);
impl_nelem!(i32, I32, |v| v as i32);
impl_nelem!(i64, I64, |v| v);
impl_nelem!(u8, U8, |v| v as u8);
impl_nelem!(u16, U16, |v| v as u16);
impl_nelem!(u32, U32, |v| v as u32);
impl_nelem!(u64, U64, |v| v as u64);
impl_nelem!(f16, F16, |v| f16::from_f64(v as f64));
impl_nelem!(bf16, BF16, |v| bf16::from_f64(v as f64));
impl_nelem!(f32, F32, |v| v as f32);
impl_nelem!(f64, F64, |v| v as f64);
impl_nelem!([f32; 2], C64, |v| [v as f32, 0.0]);
impl_nelem!([f64; 2], C128, |v| [v as f64, 0.0]);

/// Runs `$body` with `$T` bound to the Rust type of the native kind `$kind`.
macro_rules! with_kind {
    ($kind:expr, $T:ident => $body:expr) => {{
        use $crate::tensor::Kind as K_;
        match $kind {
            K_::Bool => {
                type $T = bool;
                $body
            }
            K_::I8 => {
                type $T = i8;
                $body
            }
            K_::I16 => {
                type $T = i16;
                $body
            }
            K_::I32 => {
                type $T = i32;
                $body
            }
            K_::I64 => {
                type $T = i64;
                $body
            }
            K_::U8 => {
                type $T = u8;
                $body
            }
            K_::U16 => {
                type $T = u16;
                $body
            }
            K_::U32 => {
                type $T = u32;
                $body
            }
            K_::U64 => {
                type $T = u64;
                $body
            }
            K_::F16 => {
                type $T = half::f16;
                $body
            }
            K_::BF16 => {
                type $T = half::bf16;
                $body
            }
            K_::F32 => {
                type $T = f32;
                $body
            }
            K_::F64 => {
                type $T = f64;
                $body
            }
            K_::C64 => {
                type $T = [f32; 2];
                $body
            }
            K_::C128 => {
                type $T = [f64; 2];
                $body
            }
        }
    }};
}
pub(crate) use with_kind;

/// An integer-list attribute.
pub fn attr_i64s(op: &Op, name: &str) -> Option<Vec<i64>> {
    op.attr(name)?.as_i64_list()
}

/// An integer attribute.
pub fn attr_int(op: &Op, name: &str) -> Option<i64> {
    op.attr(name)?.as_int()
}

/// The result type `i` without its encoding (as the interpreter refines it).
pub fn result_type(ctx: &super::KernelCtx, i: usize) -> Option<TensorType> {
    let mut t = (*ctx.result_types.get(i)?).clone();
    t.encoding = None;
    Some(t)
}

/// Dimensions of a shape as usize (None for a negative or dynamic size).
pub fn ushape(shape: &[i64]) -> Option<Vec<usize>> {
    shape.iter().map(|&d| usize::try_from(d).ok()).collect()
}

/// Row-major strides.
pub fn strides(shape: &[usize]) -> Vec<usize> {
    let mut st = vec![1usize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        st[d] = st[d + 1].saturating_mul(shape[d + 1]);
    }
    st
}

/// Element count with an overflow check.
pub fn count(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))
}

/// Integer values of an index tensor, as the interpreter reads them (unsigned values above i64::MAX
/// saturate; bool counts as 0/1). None for a non-integer tensor.
pub fn index_values(t: &NTensor) -> Option<Vec<i64>> {
    Some(match &*t.buf {
        Buf::I8(v) => v.iter().map(|&x| x as i64).collect(),
        Buf::I16(v) => v.iter().map(|&x| x as i64).collect(),
        Buf::I32(v) => v.iter().map(|&x| x as i64).collect(),
        Buf::I64(v) => v.clone(),
        Buf::U8(v) => v.iter().map(|&x| x as i64).collect(),
        Buf::U16(v) => v.iter().map(|&x| x as i64).collect(),
        Buf::U32(v) => v.iter().map(|&x| x as i64).collect(),
        Buf::U64(v) => v.iter().map(|&x| x.min(i64::MAX as u64) as i64).collect(),
        Buf::Bool(v) => v.iter().map(|&x| x as i64).collect(),
        _ => return None,
    })
}

/// Advances a row-major multi-index; false after the last one.
#[inline]
pub fn next_index(idx: &mut [usize], shape: &[usize]) -> bool {
    for d in (0..idx.len()).rev() {
        idx[d] += 1;
        if idx[d] < shape[d] {
            return true;
        }
        idx[d] = 0;
    }
    false
}

/// Drops size-1 dimensions and merges dimensions that are contiguous in both the output (row-major)
/// and the source (`src[d] == src[d+1] * shape[d+1]`).
fn simplify(shape: &[usize], src: &[isize]) -> (Vec<usize>, Vec<isize>) {
    let mut sh: Vec<usize> = Vec::with_capacity(shape.len());
    let mut st: Vec<isize> = Vec::with_capacity(shape.len());
    for (&n, &s) in shape.iter().zip(src) {
        if n == 1 {
            continue;
        }
        if let (Some(&pn), Some(&ps)) = (sh.last(), st.last()) {
            if ps == s * n as isize {
                let k = sh.len() - 1;
                sh[k] = pn * n;
                st[k] = s;
                continue;
            }
        }
        sh.push(n);
        st.push(s);
    }
    (sh, st)
}

/// Tile edge of the blocked transpose.
const TILE: usize = 32;

/// `out[i] = src[base + sum(i[d] * strides[d])]` over the row-major `shape`: the engine of transpose,
/// slice, broadcast, reverse and dynamic_slice. Contiguous inner runs are copied as slices, broadcast
/// runs filled, and a transposition of two dimensions is copied in cache-sized tiles. Err when some
/// source offset would fall outside `src`.
pub fn strided_copy<T: NElem>(src: &[T], shape: &[usize], strides: &[isize], base: isize) -> Result<Vec<T>, String> {
    let n = count(shape).ok_or("element count overflows")?;
    if n == 0 {
        return Ok(Vec::new());
    }
    let (sh, st) = simplify(shape, strides);
    // Bounds: the lowest and highest offsets reached.
    let (mut lo, mut hi) = (base, base);
    for (&d, &s) in sh.iter().zip(&st) {
        let span = s.checked_mul(d as isize - 1).ok_or("offset overflow")?;
        if span < 0 {
            lo += span;
        } else {
            hi += span;
        }
    }
    if lo < 0 || hi >= src.len() as isize {
        return Err(format!("strided view [{lo}, {hi}] outside a buffer of {} elements", src.len()));
    }
    if sh.is_empty() {
        return Ok(vec![src[base as usize]; n]);
    }
    let rank = sh.len();
    let (inner, is) = (sh[rank - 1], st[rank - 1]);
    // A transposition: some outer dimension is the source's contiguous one.
    if is != 1 && is != 0 && rank >= 2 && inner >= 4 {
        if let Some(k) = (0..rank - 1).find(|&d| st[d] == 1 && sh[d] >= 4) {
            return Ok(tiled(src, &sh, &st, base, k, n));
        }
    }
    let mut out = Vec::with_capacity(n);
    let outer = &sh[..rank - 1];
    let mut idx = vec![0usize; outer.len()];
    let mut off = base;
    loop {
        let o = off as usize;
        match is {
            1 => out.extend_from_slice(&src[o..o + inner]),
            0 => out.extend(std::iter::repeat_n(src[o], inner)),
            _ => {
                let mut p = off;
                for _ in 0..inner {
                    out.push(src[p as usize]);
                    p += is;
                }
            }
        }
        // Odometer over the outer dimensions, keeping `off` in step.
        let mut d = outer.len();
        loop {
            if d == 0 {
                return Ok(out);
            }
            d -= 1;
            idx[d] += 1;
            off += st[d];
            if idx[d] < outer[d] {
                break;
            }
            off -= st[d] * outer[d] as isize;
            idx[d] = 0;
        }
    }
}

/// The blocked path of [`strided_copy`]: dimension `k` is contiguous in the source, the last one is
/// contiguous in the output; both are walked in TILE x TILE blocks for every position of the others.
fn tiled<T: NElem>(src: &[T], sh: &[usize], st: &[isize], base: isize, k: usize, n: usize) -> Vec<T> {
    let rank = sh.len();
    let ost = strides(sh);
    let mut out = vec![src[base as usize]; n];
    let others: Vec<usize> = (0..rank).filter(|&d| d != k && d != rank - 1).collect();
    let oshape: Vec<usize> = others.iter().map(|&d| sh[d]).collect();
    let mut idx = vec![0usize; others.len()];
    let (nk, nl) = (sh[k], sh[rank - 1]);
    let (ok, sl) = (ost[k], st[rank - 1]);
    loop {
        let mut sb = base;
        let mut ob = 0usize;
        for (j, &d) in others.iter().enumerate() {
            sb += idx[j] as isize * st[d];
            ob += idx[j] * ost[d];
        }
        for i0 in (0..nk).step_by(TILE) {
            let i1 = (i0 + TILE).min(nk);
            for j0 in (0..nl).step_by(TILE) {
                let j1 = (j0 + TILE).min(nl);
                for i in i0..i1 {
                    let srow = sb + i as isize;
                    let orow = ob + i * ok;
                    let dst = &mut out[orow + j0..orow + j1];
                    if sl > 0 {
                        let s0 = (srow + j0 as isize * sl) as usize;
                        dst.iter_mut().zip(src[s0..].iter().step_by(sl as usize)).for_each(|(d, &x)| *d = x);
                    } else {
                        for (j, d) in (j0..j1).zip(dst.iter_mut()) {
                            *d = src[(srow + j as isize * sl) as usize];
                        }
                    }
                }
            }
        }
        if !next_index(&mut idx, &oshape) {
            return out;
        }
    }
}

/// A new native tensor of `ty` from a typed vector.
pub fn tensor_of<T: NElem>(ty: TensorType, v: Vec<T>) -> NTensor {
    NTensor::new(ty, T::wrap(v))
}

/// The typed elements of `t` (None if `t` is not of kind `T`).
pub fn elems<T: NElem>(t: &NTensor) -> Option<&[T]> {
    T::of(&t.buf)
}

/// The native kind of a result type, when it matches `kind`.
pub fn same_kind(ty: &TensorType, kind: Kind) -> bool {
    Kind::of(&ty.elem) == Some(kind)
}
