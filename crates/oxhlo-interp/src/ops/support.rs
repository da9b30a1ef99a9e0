//! Shared helpers of the data-movement and heavy op families: operand and attribute access with errors
//! instead of panics, index arithmetic (strides, multi-index iteration), moving elements by index lists,
//! scalar extraction, and typed numeric "rings" (wrapping integers, f64-accumulated floats, complex) for
//! dot/conv-style kernels that compute in one domain and round once into the result type.

use crate::ops::OpCtx;
use crate::tensor::{round_to, strides, wrap_int, Data, RtValue, Tensor};
use oxhlo_ir::{Attr, ElementType, TensorType, Type};

/// The `i`-th operand as a tensor.
pub fn tensor_arg(args: &[RtValue], i: usize) -> Result<&Tensor, String> {
    match args.get(i) {
        Some(RtValue::Tensor(t)) => Ok(t),
        Some(other) => Err(format!("operand #{i} must be a tensor, got {}", value_kind(other))),
        None => Err(format!("missing operand #{i} (got {} operands)", args.len())),
    }
}

/// A short name of a runtime value's kind, for messages.
pub fn value_kind(v: &RtValue) -> &'static str {
    match v {
        RtValue::Tensor(_) => "a tensor",
        RtValue::Token => "a token",
        RtValue::Tuple(_) => "a tuple",
    }
}

/// The declared type of result `i` as a tensor type (its shape may be dynamic).
pub fn result_tensor_type(ctx: &OpCtx, i: usize) -> Result<TensorType, String> {
    match ctx.result_types.get(i) {
        Some(Type::Tensor(t)) => Ok(t.clone()),
        Some(other) => Err(format!("result #{i} must be a ranked tensor, declared {other:?}")),
        None => Err(format!("missing result type #{i}")),
    }
}

/// The declared static type of result `i`.
pub fn static_result_type(ctx: &OpCtx, i: usize) -> Result<TensorType, String> {
    let t = result_tensor_type(ctx, i)?;
    if !t.is_static() {
        return Err(format!("result #{i} has a dynamic shape the op cannot infer"));
    }
    Ok(t)
}

/// The declared type of result `i`, with dynamic dimensions replaced by `shape` (which must agree on static ones).
pub fn refine_result_type(ctx: &OpCtx, i: usize, shape: &[i64]) -> Result<TensorType, String> {
    let mut t = result_tensor_type(ctx, i)?;
    if t.shape.len() != shape.len() {
        return Err(format!("result #{i} has rank {}, the op computes rank {}", t.shape.len(), shape.len()));
    }
    for (d, (&decl, &got)) in t.shape.iter().zip(shape).enumerate() {
        if decl >= 0 && decl != got {
            return Err(format!("result #{i} dimension {d} is declared {decl}, the op computes {got}"));
        }
    }
    t.shape = shape.to_vec();
    t.encoding = None;
    Ok(t)
}

/// An optional integer-list attribute.
pub fn opt_i64s(ctx: &OpCtx, name: &str) -> Result<Option<Vec<i64>>, String> {
    match ctx.op.attr(name) {
        None => Ok(None),
        Some(a) => a.as_i64_list().map(Some).ok_or_else(|| format!("attribute `{name}` must be a list of integers")),
    }
}

/// A required integer-list attribute.
pub fn req_i64s(ctx: &OpCtx, name: &str) -> Result<Vec<i64>, String> {
    opt_i64s(ctx, name)?.ok_or_else(|| format!("missing attribute `{name}`"))
}

/// An optional integer attribute.
pub fn opt_int(ctx: &OpCtx, name: &str) -> Result<Option<i64>, String> {
    match ctx.op.attr(name) {
        None => Ok(None),
        Some(a) => a.as_int().map(Some).ok_or_else(|| format!("attribute `{name}` must be an integer")),
    }
}

/// A required integer attribute.
pub fn req_int(ctx: &OpCtx, name: &str) -> Result<i64, String> {
    opt_int(ctx, name)?.ok_or_else(|| format!("missing attribute `{name}`"))
}

/// A boolean attribute (absent, or `unit`, means its presence).
pub fn flag(ctx: &OpCtx, name: &str) -> bool {
    match ctx.op.attr(name) {
        None => false,
        Some(Attr::Unit) => true,
        Some(a) => a.as_int().map(|v| v != 0).unwrap_or(false),
    }
}

/// A boolean-list attribute (`array<i1: ...>`).
pub fn opt_bools(ctx: &OpCtx, name: &str) -> Result<Option<Vec<bool>>, String> {
    match ctx.op.attr(name) {
        None => Ok(None),
        Some(a) => a.as_bool_list().map(Some).ok_or_else(|| format!("attribute `{name}` must be a list of booleans")),
    }
}

/// A float attribute.
pub fn opt_float(ctx: &OpCtx, name: &str) -> Result<Option<f64>, String> {
    match ctx.op.attr(name) {
        None => Ok(None),
        Some(Attr::Float(v, _)) => Ok(Some(*v)),
        Some(Attr::Int(v, _)) => Ok(Some(*v as f64)),
        Some(_) => Err(format!("attribute `{name}` must be a float")),
    }
}

/// Converts a list of dimension numbers to indices below `rank`.
pub fn dims_in(dims: &[i64], rank: usize, what: &str) -> Result<Vec<usize>, String> {
    dims.iter()
        .map(|&d| {
            if d >= 0 && (d as usize) < rank {
                Ok(d as usize)
            } else {
                Err(format!("{what} dimension {d} out of range for rank {rank}"))
            }
        })
        .collect()
}

/// The shape as usizes (tensor shapes are static at run time).
pub fn ushape(shape: &[i64]) -> Vec<usize> {
    shape.iter().map(|&d| d.max(0) as usize).collect()
}

/// Element count of a static shape, with an overflow check.
pub fn elem_count(shape: &[i64]) -> Result<usize, String> {
    let mut n: usize = 1;
    for &d in shape {
        if d < 0 {
            return Err(format!("negative or dynamic dimension size {d} at run time"));
        }
        n = n.checked_mul(d as usize).ok_or("tensor too large")?;
    }
    if n > (1usize << 30) {
        return Err(format!("tensor of {n} elements is too large for the interpreter"));
    }
    Ok(n)
}

/// Advances a row-major multi-index; returns false after the last one.
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

/// Integer values of an index tensor (signed or unsigned; unsigned values above i64::MAX saturate).
pub fn index_values(t: &Tensor) -> Result<Vec<i64>, String> {
    match &t.data {
        Data::Int(v) => Ok(v.clone()),
        Data::UInt(v) => Ok(v.iter().map(|&x| x.min(i64::MAX as u64) as i64).collect()),
        Data::Bool(v) => Ok(v.iter().map(|&b| b as i64).collect()),
        _ => Err("index operand must have an integer element type".into()),
    }
}

/// A scalar index operand.
pub fn scalar_index(t: &Tensor) -> Result<i64, String> {
    let v = index_values(t)?;
    if v.len() != 1 || !t.shape().is_empty() {
        return Err(format!("expected a 0-dimensional index tensor, got shape {:?}", t.shape()));
    }
    Ok(v[0])
}

/// Picks elements by source index: out[i] = data[idx[i]].
pub fn take(data: &Data, idx: &[usize]) -> Data {
    fn pick<T: Copy>(v: &[T], idx: &[usize]) -> Vec<T> {
        idx.iter().map(|&i| v[i]).collect()
    }
    match data {
        Data::Bool(v) => Data::Bool(pick(v, idx)),
        Data::Int(v) => Data::Int(pick(v, idx)),
        Data::UInt(v) => Data::UInt(pick(v, idx)),
        Data::Float(v) => Data::Float(pick(v, idx)),
        Data::Complex(v) => Data::Complex(pick(v, idx)),
    }
}

/// Sentinel for "no source element" in [`take_or_fill`].
pub const FILL: usize = usize::MAX;

/// Picks elements by source index, using element 0 of `fill` where the index is [`FILL`].
pub fn take_or_fill(data: &Data, idx: &[usize], fill: &Data) -> Result<Data, String> {
    fn pick<T: Copy>(v: &[T], idx: &[usize], f: &[T]) -> Result<Vec<T>, String> {
        let fv = *f.first().ok_or("fill value tensor is empty")?;
        Ok(idx.iter().map(|&i| if i == FILL { fv } else { v[i] }).collect())
    }
    Ok(match (data, fill) {
        (Data::Bool(v), Data::Bool(f)) => Data::Bool(pick(v, idx, f)?),
        (Data::Int(v), Data::Int(f)) => Data::Int(pick(v, idx, f)?),
        (Data::UInt(v), Data::UInt(f)) => Data::UInt(pick(v, idx, f)?),
        (Data::Float(v), Data::Float(f)) => Data::Float(pick(v, idx, f)?),
        (Data::Complex(v), Data::Complex(f)) => Data::Complex(pick(v, idx, f)?),
        _ => return Err("operand and padding value have different element types".into()),
    })
}

/// Writes `src[i]` into `dst[idx[i]]` for every i.
pub fn put(dst: &mut Data, idx: &[usize], src: &Data) -> Result<(), String> {
    fn go<T: Copy>(d: &mut [T], idx: &[usize], s: &[T]) {
        for (&i, &v) in idx.iter().zip(s) {
            d[i] = v;
        }
    }
    match (dst, src) {
        (Data::Bool(d), Data::Bool(s)) => go(d, idx, s),
        (Data::Int(d), Data::Int(s)) => go(d, idx, s),
        (Data::UInt(d), Data::UInt(s)) => go(d, idx, s),
        (Data::Float(d), Data::Float(s)) => go(d, idx, s),
        (Data::Complex(d), Data::Complex(s)) => go(d, idx, s),
        _ => return Err("element types differ".into()),
    }
    Ok(())
}

/// Concatenates storages of the same kind.
pub fn concat_data(parts: &[&Data]) -> Result<Data, String> {
    let first = parts.first().ok_or("nothing to concatenate")?;
    let mut out = match first {
        Data::Bool(_) => Data::Bool(Vec::new()),
        Data::Int(_) => Data::Int(Vec::new()),
        Data::UInt(_) => Data::UInt(Vec::new()),
        Data::Float(_) => Data::Float(Vec::new()),
        Data::Complex(_) => Data::Complex(Vec::new()),
    };
    for p in parts {
        match (&mut out, p) {
            (Data::Bool(o), Data::Bool(s)) => o.extend_from_slice(s),
            (Data::Int(o), Data::Int(s)) => o.extend_from_slice(s),
            (Data::UInt(o), Data::UInt(s)) => o.extend_from_slice(s),
            (Data::Float(o), Data::Float(s)) => o.extend_from_slice(s),
            (Data::Complex(o), Data::Complex(s)) => o.extend_from_slice(s),
            _ => return Err("element types differ".into()),
        }
    }
    Ok(out)
}

/// The rank-0 tensor holding element `i` of `t`.
pub fn scalar_of(t: &Tensor, i: usize) -> Tensor {
    Tensor { ty: TensorType::new(Vec::new(), t.ty.elem.clone()), data: take(&t.data, &[i]) }
}

/// Element `i` of a tensor as a rank-0 runtime value.
pub fn scalar_value(t: &Tensor, i: usize) -> RtValue {
    RtValue::Tensor(scalar_of(t, i))
}

/// The single element of a rank-0 region result, checked.
pub fn region_scalar(v: &RtValue, what: &str) -> Result<Data, String> {
    match v {
        RtValue::Tensor(t) if t.len() == 1 => Ok(t.data.clone()),
        RtValue::Tensor(t) => Err(format!("{what} must return 0-dimensional tensors, got shape {:?}", t.shape())),
        other => Err(format!("{what} must return tensors, got {}", value_kind(other))),
    }
}

/// Copies element 0 of `src` into `dst[i]`.
pub fn set_from(dst: &mut Data, i: usize, src: &Data) -> Result<(), String> {
    put(dst, &[i], src)
}

/// A tensor value.
pub fn tv(ty: TensorType, data: Data) -> RtValue {
    RtValue::Tensor(Tensor { ty, data })
}

/// The row-major linear offsets for a shape's strides.
pub fn strides_u(shape: &[usize]) -> Vec<usize> {
    let s: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    strides(&s)
}

/// Numeric domain a result is computed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    Bool,
    Int,
    UInt,
    Float,
    Complex,
}

/// The computation domain of an element type.
pub fn domain(elem: &ElementType) -> Result<Domain, String> {
    Ok(match elem {
        ElementType::Bool => Domain::Bool,
        ElementType::Float(_) => Domain::Float,
        ElementType::Complex(_) => Domain::Complex,
        ElementType::Int { .. } | ElementType::Index => {
            if elem.is_unsigned_integer() {
                Domain::UInt
            } else {
                Domain::Int
            }
        }
        ElementType::Quant(_) => return Err("quantized element types are not supported by this op".into()),
    })
}

/// A commutative ring-like element type kernels compute in.
pub trait Ring: Copy + Send + Sync + 'static {
    const ZERO: Self;
    fn add(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
}

impl Ring for bool {
    const ZERO: bool = false;
    #[inline]
    fn add(self, o: bool) -> bool {
        self | o
    }
    #[inline]
    fn mul(self, o: bool) -> bool {
        self & o
    }
}
impl Ring for i64 {
    const ZERO: i64 = 0;
    #[inline]
    fn add(self, o: i64) -> i64 {
        self.wrapping_add(o)
    }
    #[inline]
    fn mul(self, o: i64) -> i64 {
        self.wrapping_mul(o)
    }
}
impl Ring for u64 {
    const ZERO: u64 = 0;
    #[inline]
    fn add(self, o: u64) -> u64 {
        self.wrapping_add(o)
    }
    #[inline]
    fn mul(self, o: u64) -> u64 {
        self.wrapping_mul(o)
    }
}
impl Ring for f64 {
    const ZERO: f64 = 0.0;
    #[inline]
    fn add(self, o: f64) -> f64 {
        self + o
    }
    #[inline]
    fn mul(self, o: f64) -> f64 {
        self * o
    }
}

/// A complex number for kernels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct C64(pub f64, pub f64);

impl Ring for C64 {
    const ZERO: C64 = C64(0.0, 0.0);
    #[inline]
    fn add(self, o: C64) -> C64 {
        C64(self.0 + o.0, self.1 + o.1)
    }
    #[inline]
    fn mul(self, o: C64) -> C64 {
        C64(self.0 * o.0 - self.1 * o.1, self.0 * o.1 + self.1 * o.0)
    }
}

/// Conversion of any storage into a kernel domain (the operand is first converted to the result's domain).
pub trait FromData: Ring {
    fn from_data(d: &Data) -> Vec<Self>;
    fn into_data(v: Vec<Self>, elem: &ElementType) -> Data;
}

impl FromData for bool {
    fn from_data(d: &Data) -> Vec<bool> {
        match d {
            Data::Bool(v) => v.clone(),
            Data::Int(v) => v.iter().map(|&x| x != 0).collect(),
            Data::UInt(v) => v.iter().map(|&x| x != 0).collect(),
            Data::Float(v) => v.iter().map(|&x| x != 0.0).collect(),
            Data::Complex(v) => v.iter().map(|&(a, b)| a != 0.0 || b != 0.0).collect(),
        }
    }
    fn into_data(v: Vec<bool>, _: &ElementType) -> Data {
        Data::Bool(v)
    }
}
impl FromData for i64 {
    fn from_data(d: &Data) -> Vec<i64> {
        match d {
            Data::Bool(v) => v.iter().map(|&x| x as i64).collect(),
            Data::Int(v) => v.clone(),
            Data::UInt(v) => v.iter().map(|&x| x as i64).collect(),
            Data::Float(v) => v.iter().map(|&x| x as i64).collect(),
            Data::Complex(v) => v.iter().map(|&(a, _)| a as i64).collect(),
        }
    }
    fn into_data(v: Vec<i64>, elem: &ElementType) -> Data {
        Data::Int(v.into_iter().map(|x| wrap_int(elem, x as i128)).collect())
    }
}
impl FromData for u64 {
    fn from_data(d: &Data) -> Vec<u64> {
        match d {
            Data::Bool(v) => v.iter().map(|&x| x as u64).collect(),
            Data::Int(v) => v.iter().map(|&x| x as u64).collect(),
            Data::UInt(v) => v.clone(),
            Data::Float(v) => v.iter().map(|&x| x as u64).collect(),
            Data::Complex(v) => v.iter().map(|&(a, _)| a as u64).collect(),
        }
    }
    fn into_data(v: Vec<u64>, elem: &ElementType) -> Data {
        let bits = elem.bits();
        let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
        Data::UInt(v.into_iter().map(|x| x & mask).collect())
    }
}
impl FromData for f64 {
    fn from_data(d: &Data) -> Vec<f64> {
        match d {
            Data::Bool(v) => v.iter().map(|&x| x as u8 as f64).collect(),
            Data::Int(v) => v.iter().map(|&x| x as f64).collect(),
            Data::UInt(v) => v.iter().map(|&x| x as f64).collect(),
            Data::Float(v) => v.clone(),
            Data::Complex(v) => v.iter().map(|&(a, _)| a).collect(),
        }
    }
    fn into_data(v: Vec<f64>, elem: &ElementType) -> Data {
        match elem.float_type() {
            Some(ft) => Data::Float(v.into_iter().map(|x| round_to(ft, x)).collect()),
            None => Data::Float(v),
        }
    }
}
impl FromData for C64 {
    fn from_data(d: &Data) -> Vec<C64> {
        match d {
            Data::Complex(v) => v.iter().map(|&(a, b)| C64(a, b)).collect(),
            other => f64::from_data(other).into_iter().map(|x| C64(x, 0.0)).collect(),
        }
    }
    fn into_data(v: Vec<C64>, elem: &ElementType) -> Data {
        match elem.float_type() {
            Some(ft) => Data::Complex(v.into_iter().map(|c| (round_to(ft, c.0), round_to(ft, c.1))).collect()),
            None => Data::Complex(v.into_iter().map(|c| (c.0, c.1)).collect()),
        }
    }
}

/// A kernel over two operands converted into one ring, run by [`run_ring2`].
pub trait Kernel2 {
    fn run<T: FromData>(&self, a: &[T], b: &[T]) -> Result<Vec<T>, String>;
}

/// Converts both operands to the result element type's domain, runs the kernel and rounds/wraps the result.
pub fn run_ring2<K: Kernel2>(k: &K, a: &Data, b: &Data, out: &ElementType) -> Result<Data, String> {
    fn go<T: FromData, K: Kernel2>(k: &K, a: &Data, b: &Data, out: &ElementType) -> Result<Data, String> {
        let av = T::from_data(a);
        let bv = T::from_data(b);
        Ok(T::into_data(k.run(&av, &bv)?, out))
    }
    match domain(out)? {
        Domain::Bool => go::<bool, K>(k, a, b, out),
        Domain::Int => go::<i64, K>(k, a, b, out),
        Domain::UInt => go::<u64, K>(k, a, b, out),
        Domain::Float => go::<f64, K>(k, a, b, out),
        Domain::Complex => go::<C64, K>(k, a, b, out),
    }
}

/// Checks that a tensor's element type matches the expected one (quantized types compare whole).
pub fn same_elem(a: &ElementType, b: &ElementType, what: &str) -> Result<(), String> {
    if a != b {
        return Err(format!("{what}: element types differ ({a:?} vs {b:?})"));
    }
    Ok(())
}

/// Source linear indices of a strided view: out index `i` reads `base + sum(i[d] * src_strides[d])`.
pub fn strided_indices(out: &[usize], src_strides: &[isize], base: isize) -> Vec<usize> {
    let n: usize = out.iter().product();
    let mut res = Vec::with_capacity(n);
    if n == 0 {
        return res;
    }
    let rank = out.len();
    if rank == 0 {
        res.push(base as usize);
        return res;
    }
    let mut idx = vec![0usize; rank];
    let mut off = base;
    let last = rank - 1;
    loop {
        let s = src_strides[last];
        let mut o = off;
        for _ in 0..out[last] {
            res.push(o as usize);
            o += s;
        }
        let mut d = last;
        loop {
            if d == 0 {
                return res;
            }
            d -= 1;
            idx[d] += 1;
            off += src_strides[d];
            if idx[d] < out[d] {
                break;
            }
            off -= src_strides[d] * out[d] as isize;
            idx[d] = 0;
        }
    }
}

/// The operand strides as isize.
pub fn istrides(shape: &[i64]) -> Vec<isize> {
    strides(shape).into_iter().map(|s| s as isize).collect()
}

/// A region body recognised as one binary op on its two block arguments, evaluated without the evaluator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastBin {
    /// `return %lhs` (keep the accumulator).
    Lhs,
    /// `return %rhs` (replace; the usual scatter body).
    Rhs,
    Add,
    Mul,
    And,
    Or,
    Max,
    Min,
}

/// Recognises `^bb(%a, %b): %r = op %a, %b; return %r` (or `return %a` / `return %b`) over scalars of
/// `elem`. Float max/min are left to the evaluator (their NaN and signed-zero rules live there).
pub fn fast_binary_region(func: &oxhlo_ir::Func, region: &oxhlo_ir::Region, elem: &ElementType) -> Option<FastBin> {
    use oxhlo_ir::OpKind;
    let block = region.entry()?;
    if block.args.len() != 2 || region.blocks.len() != 1 {
        return None;
    }
    let (a, b) = (block.args[0], block.args[1]);
    let scalar = |v: oxhlo_ir::Value| matches!(func.try_ty(v), Some(Type::Tensor(t)) if t.shape.is_empty() && &t.elem == elem);
    if !scalar(a) || !scalar(b) {
        return None;
    }
    let ret = block.ops.last()?;
    if !matches!(ret.kind, OpKind::Return | OpKind::FuncReturn) || ret.operands.len() != 1 {
        return None;
    }
    let r = ret.operands[0];
    match block.ops.len() {
        1 if r == a => Some(FastBin::Lhs),
        1 if r == b => Some(FastBin::Rhs),
        2 => {
            let op = &block.ops[0];
            if op.results.len() != 1 || op.results[0] != r || op.operands.len() != 2 || !op.regions.is_empty() {
                return None;
            }
            let args_ok = (op.operands[0] == a && op.operands[1] == b) || (op.operands[0] == b && op.operands[1] == a);
            if !args_ok {
                return None;
            }
            let int_like = elem.is_integer() || elem.is_bool();
            match op.kind {
                OpKind::Add if !elem.is_quantized() => Some(FastBin::Add),
                OpKind::Multiply if !elem.is_quantized() => Some(FastBin::Mul),
                OpKind::And if int_like => Some(FastBin::And),
                OpKind::Or if int_like => Some(FastBin::Or),
                OpKind::Maximum if int_like => Some(FastBin::Max),
                OpKind::Minimum if int_like => Some(FastBin::Min),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `dst[di] = kind(dst[di], src[si])` with the element type's rounding / wrapping.
#[inline]
pub fn fast_combine(kind: FastBin, elem: &ElementType, dst: &mut Data, di: usize, src: &Data, si: usize) -> Result<(), String> {
    match (dst, src) {
        (Data::Bool(d), Data::Bool(s)) => {
            let (x, y) = (d[di], s[si]);
            d[di] = match kind {
                FastBin::Lhs => x,
                FastBin::Rhs => y,
                FastBin::Add | FastBin::Or | FastBin::Max => x | y,
                FastBin::Mul | FastBin::And | FastBin::Min => x & y,
            };
        }
        (Data::Int(d), Data::Int(s)) => {
            let (x, y) = (d[di], s[si]);
            d[di] = match kind {
                FastBin::Lhs => x,
                FastBin::Rhs => y,
                FastBin::Add => wrap_int(elem, x as i128 + y as i128),
                FastBin::Mul => wrap_int(elem, x as i128 * y as i128),
                FastBin::And => x & y,
                FastBin::Or => x | y,
                FastBin::Max => x.max(y),
                FastBin::Min => x.min(y),
            };
        }
        (Data::UInt(d), Data::UInt(s)) => {
            let (x, y) = (d[di], s[si]);
            let bits = elem.bits();
            let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
            d[di] = match kind {
                FastBin::Lhs => x,
                FastBin::Rhs => y,
                FastBin::Add => x.wrapping_add(y) & mask,
                FastBin::Mul => x.wrapping_mul(y) & mask,
                FastBin::And => x & y,
                FastBin::Or => x | y,
                FastBin::Max => x.max(y),
                FastBin::Min => x.min(y),
            };
        }
        (Data::Float(d), Data::Float(s)) => {
            let (x, y) = (d[di], s[si]);
            let ft = elem.float_type().ok_or("float element type expected")?;
            d[di] = match kind {
                FastBin::Lhs => x,
                FastBin::Rhs => y,
                FastBin::Add => round_to(ft, x + y),
                FastBin::Mul => round_to(ft, x * y),
                _ => return Err("unsupported fast float combiner".into()),
            };
        }
        (Data::Complex(d), Data::Complex(s)) => {
            let (x, y) = (d[di], s[si]);
            let ft = elem.float_type().ok_or("complex element type expected")?;
            d[di] = match kind {
                FastBin::Lhs => x,
                FastBin::Rhs => y,
                FastBin::Add => (round_to(ft, x.0 + y.0), round_to(ft, x.1 + y.1)),
                FastBin::Mul => {
                    let c = C64(x.0, x.1).mul(C64(y.0, y.1));
                    (round_to(ft, c.0), round_to(ft, c.1))
                }
                _ => return Err("unsupported fast complex combiner".into()),
            };
        }
        _ => return Err("element types of the combined values differ".into()),
    }
    Ok(())
}

/// For ops that compute quantized results as "dequantize, op, quantize" (the spec's
/// dequantize_op_quantize): the type to compute in (the expressed float type when `ty` is quantized)
/// and the quantized type to convert back to.
pub fn split_quant(ty: TensorType) -> (TensorType, Option<TensorType>) {
    match &ty.elem {
        ElementType::Quant(q) => {
            let expressed = TensorType::new(ty.shape.clone(), q.expressed.clone());
            (expressed, Some(ty))
        }
        _ => (ty, None),
    }
}

/// Quantizes a computed result back when [`split_quant`] said so.
pub fn finish_quant(t: Tensor, q: Option<TensorType>) -> Result<Tensor, String> {
    match q {
        Some(qty) => crate::ops::quant::quantize(&t, &qty),
        None => Ok(t),
    }
}

/// The operand as a plain tensor: quantized operands are dequantized to their expressed type.
pub fn dequantized(t: &Tensor) -> Result<std::borrow::Cow<'_, Tensor>, String> {
    if t.elem().is_quantized() {
        Ok(std::borrow::Cow::Owned(crate::ops::quant::dequantize(t)?))
    } else {
        Ok(std::borrow::Cow::Borrowed(t))
    }
}
