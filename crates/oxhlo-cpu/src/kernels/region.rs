//! Region bodies the data-movement families recognize, and their exact per-kind arithmetic: binary
//! combiners (`return %a` / `return %b` / add / multiply / maximum / minimum of the two block arguments,
//! for scatter, reduce_window and select_and_scatter) and comparators (one `compare` of the first
//! operand's two block arguments, for sort and select_and_scatter). The arithmetic matches the
//! interpreter's bit for bit: floats rounded to their type after each op (half types computed in f32,
//! which rounds the same way), integers wrapping, float max/min with NaN propagation and -0 < +0.

use super::elems::NElem;
use half::{bf16, f16};
use oxhlo_ir::attr::{ComparisonDirection as Dir, ComparisonType as CmpTy};
use oxhlo_ir::{Attr, ElementType, Func, OpKind, Region, Type, Value};
use std::cmp::Ordering;

/// A recognized binary body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `return %lhs`: keep the accumulator / current value.
    Lhs,
    /// `return %rhs`: replace.
    Rhs,
    Add,
    Mul,
    Max,
    Min,
}

/// A combiner: `op(acc, x)`, or `op(x, acc)` when the body names its arguments the other way round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comb {
    pub op: BinOp,
    pub swapped: bool,
}

fn is_scalar_of(func: &Func, v: Value, elem: &ElementType) -> bool {
    matches!(func.try_ty(v), Some(Type::Tensor(t)) if t.shape.is_empty() && &t.elem == elem)
}

/// Recognizes `^bb(%a, %b): [%r = op %a, %b;] return %r|%a|%b` over scalars of `elem`.
pub fn binary_body(func: &Func, region: &Region, elem: &ElementType) -> Option<Comb> {
    let block = region.entry()?;
    if region.blocks.len() != 1 || block.args.len() != 2 {
        return None;
    }
    let (a, b) = (block.args[0], block.args[1]);
    if !is_scalar_of(func, a, elem) || !is_scalar_of(func, b, elem) {
        return None;
    }
    let ret = block.ops.last()?;
    if !matches!(ret.kind, OpKind::Return | OpKind::FuncReturn) || ret.operands.len() != 1 {
        return None;
    }
    let r = ret.operands[0];
    match block.ops.len() {
        1 if r == a => Some(Comb { op: BinOp::Lhs, swapped: false }),
        1 if r == b => Some(Comb { op: BinOp::Rhs, swapped: false }),
        2 => {
            let op = &block.ops[0];
            if op.results.as_slice() != [r] || op.operands.len() != 2 || !op.regions.is_empty() || !is_scalar_of(func, r, elem) {
                return None;
            }
            let swapped = if op.operands[..] == [a, b] {
                false
            } else if op.operands[..] == [b, a] {
                true
            } else {
                return None;
            };
            let bop = match op.kind {
                OpKind::Add => BinOp::Add,
                OpKind::Multiply => BinOp::Mul,
                OpKind::Maximum => BinOp::Max,
                OpKind::Minimum => BinOp::Min,
                _ => return None,
            };
            // The interpreter folds add/multiply bodies as `acc op x` whatever the argument order
            // (only NaN payloads could tell); maximum/minimum bodies run in the order written.
            let swapped = swapped && matches!(bop, BinOp::Max | BinOp::Min);
            Some(Comb { op: bop, swapped })
        }
        _ => None,
    }
}

/// The interpreter's float maximum: NaN propagates (the first NaN wins), +0 beats -0.
#[inline]
pub fn fmax<T: Copy>(x: T, y: T, v: impl Fn(T) -> f64) -> T {
    let (a, b) = (v(x), v(y));
    if a > b {
        x
    } else if b > a {
        y
    } else if a.is_nan() {
        x
    } else if b.is_nan() || a.is_sign_negative() {
        y
    } else {
        x
    }
}

/// The interpreter's float minimum: NaN propagates (the first NaN wins), -0 beats +0.
#[inline]
pub fn fmin<T: Copy>(x: T, y: T, v: impl Fn(T) -> f64) -> T {
    let (a, b) = (v(x), v(y));
    if a < b {
        x
    } else if b < a {
        y
    } else if a.is_nan() {
        x
    } else if b.is_nan() || !a.is_sign_negative() {
        y
    } else {
        x
    }
}

/// Exact element arithmetic for the recognized combiners. `max`/`min` are None for complex kinds
/// (left to the interpreter).
pub trait Arith: NElem {
    fn add(a: Self, b: Self) -> Self;
    fn mul(a: Self, b: Self) -> Self;
    fn max(a: Self, b: Self) -> Option<Self>;
    fn min(a: Self, b: Self) -> Option<Self>;
}

macro_rules! arith_int {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline]
            fn add(a: $t, b: $t) -> $t { a.wrapping_add(b) }
            #[inline]
            fn mul(a: $t, b: $t) -> $t { a.wrapping_mul(b) }
            #[inline]
            fn max(a: $t, b: $t) -> Option<$t> { Some(Ord::max(a, b)) }
            #[inline]
            fn min(a: $t, b: $t) -> Option<$t> { Some(Ord::min(a, b)) }
        }
    )*};
}
arith_int!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Arith for bool {
    fn add(a: bool, b: bool) -> bool {
        a | b
    }
    fn mul(a: bool, b: bool) -> bool {
        a & b
    }
    fn max(a: bool, b: bool) -> Option<bool> {
        Some(a | b)
    }
    fn min(a: bool, b: bool) -> Option<bool> {
        Some(a & b)
    }
}

macro_rules! arith_float {
    ($t:ty, $to:expr, $from:expr) => {
        impl Arith for $t {
            #[inline]
            fn add(a: $t, b: $t) -> $t {
                $from($to(a) + $to(b))
            }
            #[inline]
            fn mul(a: $t, b: $t) -> $t {
                $from($to(a) * $to(b))
            }
            #[inline]
            fn max(a: $t, b: $t) -> Option<$t> {
                Some(fmax(a, b, |x: $t| $to(x) as f64))
            }
            #[inline]
            fn min(a: $t, b: $t) -> Option<$t> {
                Some(fmin(a, b, |x: $t| $to(x) as f64))
            }
        }
    };
}
arith_float!(f32, |x: f32| x, |x: f32| x);
arith_float!(f64, |x: f64| x, |x: f64| x);
arith_float!(f16, |x: f16| x.to_f32(), f16::from_f32);
arith_float!(bf16, |x: bf16| x.to_f32(), bf16::from_f32);

impl Arith for [f32; 2] {
    fn add(a: [f32; 2], b: [f32; 2]) -> [f32; 2] {
        [a[0] + b[0], a[1] + b[1]]
    }
    fn mul(a: [f32; 2], b: [f32; 2]) -> [f32; 2] {
        // In f64 and rounded once per component, as the interpreter does.
        let (ar, ai, br, bi) = (a[0] as f64, a[1] as f64, b[0] as f64, b[1] as f64);
        [(ar * br - ai * bi) as f32, (ar * bi + ai * br) as f32]
    }
    fn max(_: [f32; 2], _: [f32; 2]) -> Option<[f32; 2]> {
        None
    }
    fn min(_: [f32; 2], _: [f32; 2]) -> Option<[f32; 2]> {
        None
    }
}

impl Arith for [f64; 2] {
    fn add(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
        [a[0] + b[0], a[1] + b[1]]
    }
    fn mul(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
        [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]]
    }
    fn max(_: [f64; 2], _: [f64; 2]) -> Option<[f64; 2]> {
        None
    }
    fn min(_: [f64; 2], _: [f64; 2]) -> Option<[f64; 2]> {
        None
    }
}

impl Comb {
    /// Whether the combiner runs natively for kind `T` (complex max/min do not).
    pub fn supported<T: Arith>(self) -> bool {
        let probe = T::from_i64(0);
        !matches!(self.op, BinOp::Max | BinOp::Min) || T::max(probe, probe).is_some()
    }

    /// `body(acc, x)`. Callers check [`Comb::supported`] first; an unsupported op keeps `acc`.
    #[inline]
    pub fn apply<T: Arith>(self, acc: T, x: T) -> T {
        let (l, r) = if self.swapped { (x, acc) } else { (acc, x) };
        match self.op {
            BinOp::Lhs => acc,
            BinOp::Rhs => x,
            BinOp::Add => T::add(l, r),
            BinOp::Mul => T::mul(l, r),
            BinOp::Max => T::max(l, r).unwrap_or(acc),
            BinOp::Min => T::min(l, r).unwrap_or(acc),
        }
    }

    /// `dst[i] = body(dst[i], src[i])` over two slices (up to the shorter length), one loop per op.
    pub fn apply_slice<T: Arith>(self, dst: &mut [T], src: &[T]) {
        let n = dst.len().min(src.len());
        let (dst, src) = (&mut dst[..n], &src[..n]);
        let z = dst.iter_mut().zip(src);
        match (self.op, self.swapped) {
            (BinOp::Lhs, _) => {}
            (BinOp::Rhs, _) => dst.copy_from_slice(src),
            (BinOp::Add, false) => z.for_each(|(d, &s)| *d = T::add(*d, s)),
            (BinOp::Add, true) => z.for_each(|(d, &s)| *d = T::add(s, *d)),
            (BinOp::Mul, false) => z.for_each(|(d, &s)| *d = T::mul(*d, s)),
            (BinOp::Mul, true) => z.for_each(|(d, &s)| *d = T::mul(s, *d)),
            (BinOp::Max, false) => z.for_each(|(d, &s)| *d = T::max(*d, s).unwrap_or(*d)),
            (BinOp::Max, true) => z.for_each(|(d, &s)| *d = T::max(s, *d).unwrap_or(*d)),
            (BinOp::Min, false) => z.for_each(|(d, &s)| *d = T::min(*d, s).unwrap_or(*d)),
            (BinOp::Min, true) => z.for_each(|(d, &s)| *d = T::min(s, *d).unwrap_or(*d)),
        }
    }
}

/// Exact comparisons as the interpreter's `compare` does them.
pub trait Compare: NElem {
    /// The ordering of `a` and `b` under comparison type `ty` (None: unordered); Err for a kind the
    /// native path does not compare (complex).
    fn order(a: Self, b: Self, ty: Option<CmpTy>) -> Option<Ordering>;
    /// The value widened to f64 (floats; 0 for other kinds, which never use it).
    fn as_f64(self) -> f64 {
        0.0
    }
    /// Whether the kind is compared natively.
    const NATIVE: bool = true;
    /// Whether the kind is a float (only TOTALORDER / WEAKORDER order all its values).
    const FLOAT: bool = false;
}

macro_rules! cmp_signed {
    ($($t:ty => $u:ty),*) => {$(
        impl Compare for $t {
            #[inline]
            fn order(a: $t, b: $t, ty: Option<CmpTy>) -> Option<Ordering> {
                if ty == Some(CmpTy::Unsigned) { Some((a as $u).cmp(&(b as $u))) } else { Some(a.cmp(&b)) }
            }
        }
    )*};
}
cmp_signed!(i8 => u8, i16 => u16, i32 => u32, i64 => u64);

macro_rules! cmp_unsigned {
    ($($t:ty => $s:ty),*) => {$(
        impl Compare for $t {
            #[inline]
            fn order(a: $t, b: $t, ty: Option<CmpTy>) -> Option<Ordering> {
                if ty == Some(CmpTy::Signed) { Some((a as $s).cmp(&(b as $s))) } else { Some(a.cmp(&b)) }
            }
        }
    )*};
}
cmp_unsigned!(u8 => i8, u16 => i16, u32 => i32, u64 => i64);

impl Compare for bool {
    fn order(a: bool, b: bool, _: Option<CmpTy>) -> Option<Ordering> {
        Some(a.cmp(&b))
    }
}

/// Float ordering on the values widened to f64 (as the interpreter holds them).
#[inline]
fn float_order(p: f64, q: f64, ty: Option<CmpTy>) -> Option<Ordering> {
    match ty {
        Some(CmpTy::TotalOrder) => Some(p.total_cmp(&q)),
        Some(CmpTy::WeakOrder) => Some(match (p.is_nan(), q.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            (false, false) => p.partial_cmp(&q).unwrap_or(Ordering::Equal),
        }),
        _ => p.partial_cmp(&q),
    }
}

macro_rules! cmp_float {
    ($t:ty, $to:expr) => {
        impl Compare for $t {
            #[inline]
            fn order(a: $t, b: $t, ty: Option<CmpTy>) -> Option<Ordering> {
                float_order($to(a), $to(b), ty)
            }
            #[inline]
            fn as_f64(self) -> f64 {
                $to(self)
            }
            const FLOAT: bool = true;
        }
    };
}
cmp_float!(f32, |x: f32| x as f64);
cmp_float!(f64, |x: f64| x);
cmp_float!(f16, |x: f16| x.to_f64());
cmp_float!(bf16, |x: bf16| x.to_f64());

impl Compare for [f32; 2] {
    fn order(_: [f32; 2], _: [f32; 2], _: Option<CmpTy>) -> Option<Ordering> {
        None
    }
    const NATIVE: bool = false;
}

impl Compare for [f64; 2] {
    fn order(_: [f64; 2], _: [f64; 2], _: Option<CmpTy>) -> Option<Ordering> {
        None
    }
    const NATIVE: bool = false;
}

/// Whether an ordering satisfies a comparison direction (unordered satisfies only NE).
#[inline]
pub fn holds(dir: Dir, o: Option<Ordering>) -> bool {
    match o {
        None => dir == Dir::Ne,
        Some(o) => match dir {
            Dir::Eq => o == Ordering::Equal,
            Dir::Ne => o != Ordering::Equal,
            Dir::Lt => o == Ordering::Less,
            Dir::Le => o != Ordering::Greater,
            Dir::Gt => o == Ordering::Greater,
            Dir::Ge => o != Ordering::Less,
        },
    }
}

/// JAX's float sort canonicalization of a comparator operand: `x == 0 -> zero`, `x != x -> nan`.
#[derive(Clone, Copy, Debug)]
pub struct Canon {
    pub zero: f64,
    pub nan: f64,
}

/// A recognized comparator: `compare dir, %x, %y` where (x, y) are block arguments 0 and 1 (or 1 and 0
/// when `swapped`), each possibly canonicalized as JAX's float sorts do ([`Canon`]).
#[derive(Clone, Copy, Debug)]
pub struct Comparator {
    pub dir: Dir,
    pub ty: Option<CmpTy>,
    pub swapped: bool,
    pub canon: Option<Canon>,
}

impl Comparator {
    /// The comparator's result for elements (a, b) (block arguments 0 and 1).
    #[inline]
    pub fn less<T: Compare>(self, a: T, b: T) -> bool {
        let (x, y) = if self.swapped { (b, a) } else { (a, b) };
        match self.canon {
            None => holds(self.dir, T::order(x, y, self.ty)),
            Some(c) => {
                let f = |v: T| {
                    let v = v.as_f64();
                    if v == 0.0 {
                        c.zero
                    } else if v.is_nan() {
                        c.nan
                    } else {
                        v
                    }
                };
                holds(self.dir, float_order(f(x), f(y), self.ty))
            }
        }
    }
}

impl Comparator {
    /// Whether `less` is a strict weak order on kind `T` (LT/GT over a total preorder), so that any
    /// stable sort gives the merge sort's result.
    pub fn strict_weak<T: Compare>(self) -> bool {
        matches!(self.dir, Dir::Lt | Dir::Gt)
            && T::NATIVE
            && (!T::FLOAT || matches!(self.ty, Some(CmpTy::TotalOrder | CmpTy::WeakOrder)))
    }

    /// The sort order `less` induces (for strict weak orders).
    #[inline]
    pub fn ordering<T: Compare>(self, a: T, b: T) -> Ordering {
        if self.less(a, b) {
            Ordering::Less
        } else if self.less(b, a) {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    }
}

/// The defining op of `v` among `ops`.
fn def(ops: &[oxhlo_ir::Op], v: Value) -> Option<&oxhlo_ir::Op> {
    ops.iter().find(|o| o.results.contains(&v))
}

/// The scalar value of a float constant.
fn const_f64(ops: &[oxhlo_ir::Op], v: Value) -> Option<f64> {
    let op = def(ops, v)?;
    if op.kind != OpKind::Constant {
        return None;
    }
    match op.attr("value")? {
        Attr::Dense(d) if d.len() == 1 => d.to_f64_vec()?.first().copied(),
        _ => None,
    }
}

/// `v` as (block argument, canonicalization): the argument itself, or
/// `select(x != x, nan, select(x == 0, zero, x))` over a float argument `x`.
fn canon_arg(ops: &[oxhlo_ir::Op], v: Value, args: &[Value]) -> Option<(Value, Option<Canon>)> {
    if args.contains(&v) {
        return Some((v, None));
    }
    let is_cmp = |p: Value, dir: Dir| -> Option<(Value, Value)> {
        let c = def(ops, p)?;
        let (d, ty) = c.comparison().ok()?;
        (c.kind == OpKind::Compare && c.operands.len() == 2 && d == dir && matches!(ty, None | Some(CmpTy::Float))).then(|| (c.operands[0], c.operands[1]))
    };
    let outer = def(ops, v)?;
    if outer.kind != OpKind::Select || outer.operands.len() != 3 {
        return None;
    }
    let (x, x2) = is_cmp(outer.operands[0], Dir::Ne)?;
    let nan = const_f64(ops, outer.operands[1])?;
    let inner = def(ops, outer.operands[2])?;
    if x != x2 || !args.contains(&x) || inner.kind != OpKind::Select || inner.operands.len() != 3 || inner.operands[2] != x {
        return None;
    }
    let (x3, z) = is_cmp(inner.operands[0], Dir::Eq)?;
    if x3 != x || const_f64(ops, z)? != 0.0 || !nan.is_nan() {
        return None;
    }
    let zero = const_f64(ops, inner.operands[1])?;
    (zero == 0.0).then_some((x, Some(Canon { zero, nan })))
}

/// The ops of region block `block` (`body`, its terminator aside) and the constants of `func` they read
/// from outside the region (JAX's exported comparators define their 0.0 and NaN in the enclosing
/// function), so that a comparator reads the same wherever its constants are defined.
fn with_outer_constants(func: &Func, block: &oxhlo_ir::Block, body: &[oxhlo_ir::Op]) -> Vec<oxhlo_ir::Op> {
    let inner: std::collections::HashSet<Value> = body.iter().flat_map(|o| o.results.iter().copied()).chain(block.args.iter().copied()).collect();
    let outer: Vec<Value> = body.iter().flat_map(|o| o.operands.iter().copied()).filter(|v| !inner.contains(v)).collect();
    let mut ops = body.to_vec();
    if !outer.is_empty() {
        oxhlo_ir::body::walk_ops(&func.body, &mut |o| {
            if o.kind == OpKind::Constant && o.results.first().is_some_and(|r| outer.contains(r)) {
                ops.push(o.clone());
            }
        });
    }
    ops
}

/// Recognizes `^bb(%a, %b, ...): %r = compare dir, %a, %b [, type]; return %r` with `nargs` scalar
/// arguments, the first two of element type `elem` (with float operands optionally canonicalized).
pub fn comparator_body(func: &Func, region: &Region, nargs: usize, elem: &ElementType) -> Option<Comparator> {
    let block = region.entry()?;
    if region.blocks.len() != 1 || block.args.len() != nargs || nargs < 2 {
        return None;
    }
    let (a, b) = (block.args[0], block.args[1]);
    if !is_scalar_of(func, a, elem) || !is_scalar_of(func, b, elem) {
        return None;
    }
    let (ret, body) = block.ops.split_last()?;
    if !matches!(ret.kind, OpKind::Return | OpKind::FuncReturn) || ret.operands.len() != 1 {
        return None;
    }
    if body.iter().any(|o| !o.regions.is_empty() || o.results.len() != 1) {
        return None;
    }
    let ops = with_outer_constants(func, block, body);
    let cmp = def(&ops, ret.operands[0])?;
    if cmp.kind != OpKind::Compare || cmp.operands.len() != 2 {
        return None;
    }
    let (x, cx) = canon_arg(&ops, cmp.operands[0], &[a, b])?;
    let (y, cy) = canon_arg(&ops, cmp.operands[1], &[a, b])?;
    let swapped = match (x == a, y == b, x == b, y == a) {
        (true, true, _, _) => false,
        (_, _, true, true) => true,
        _ => return None,
    };
    let bits = |c: Option<Canon>| c.map(|c| (c.zero.to_bits(), c.nan.to_bits()));
    if bits(cx) != bits(cy) || (cx.is_some() && !elem.is_float()) {
        return None;
    }
    // The other ops must only be the canonicalization's (plain comparators have none).
    if cx.is_none() && body.len() != 1 {
        return None;
    }
    let (dir, ty) = cmp.comparison().ok()?;
    Some(Comparator { dir, ty, swapped, canon: cx })
}
