//! Shared helpers of the passes: which ops have effects (and so are never removed, moved, merged or
//! folded), which are pure, value substitution across a function's nested regions, use counts, splat
//! constants and constant-op construction.

use oxhlo_ir::{Attr, DenseElements, ElementType, Func, Op, OpKind, Region, TensorType, Type, Value};
use std::collections::HashMap;

/// Ops with side effects, nondeterminism, synchronization, control flow or calls: passes never remove,
/// merge, hoist or fold them.
pub fn has_effects(kind: OpKind) -> bool {
    use OpKind::*;
    matches!(
        kind,
        Rng | RngBitGenerator
            | CustomCall
            | Infeed
            | Outfeed
            | Send
            | Recv
            | CheckExpectEq
            | CheckExpectEqConst
            | CheckExpectAlmostEq
            | CheckExpectAlmostEqConst
            | CheckExpectClose
            | CheckExpectSerializedEq
            | InterpreterRunParallel
            | InterpreterProbe
            | AllGather
            | AllReduce
            | AllToAll
            | CollectiveBroadcast
            | CollectivePermute
            | CollectiveReduce
            | ReduceScatter
            | CrossReplicaSum
            | ReplicaId
            | PartitionId
            | AfterAll
            | CreateToken
            | OptimizationBarrier
            | While
            | If
            | Case
            | Call
            | Composite
            | Unregistered
            | AsyncStart
            | AsyncDone
            | Return
            | FuncReturn
    )
}

/// Whether an op may be removed when unused: no effects itself, and every op in its regions is pure
/// (`if`/`case` with pure branches count as pure; `while` never does, it might not terminate).
pub fn is_removable(op: &Op) -> bool {
    if matches!(op.kind, OpKind::If | OpKind::Case) {
        return op.regions.iter().all(region_is_pure);
    }
    !has_effects(op.kind) && op.regions.iter().all(region_is_pure)
}

fn region_is_pure(r: &Region) -> bool {
    r.blocks.iter().all(|b| {
        b.ops.iter().all(|op| matches!(op.kind, OpKind::Return | OpKind::FuncReturn) || is_removable(op))
    })
}

/// Whether an op is a pure op without regions (CSE and LICM candidates).
pub fn is_simple_pure(op: &Op) -> bool {
    op.regions.is_empty() && !has_effects(op.kind) && !op.results.is_empty()
}

/// Follows a substitution chain to its end.
pub fn resolve(map: &HashMap<Value, Value>, mut v: Value) -> Value {
    let mut steps = 0;
    while let Some(&n) = map.get(&v) {
        if n == v || steps > 1_000_000 {
            break;
        }
        v = n;
        steps += 1;
    }
    v
}

/// Rewrites every operand in a region (nested regions included) through `map`.
pub fn substitute_region(r: &mut Region, map: &HashMap<Value, Value>) {
    if map.is_empty() {
        return;
    }
    for b in &mut r.blocks {
        for op in &mut b.ops {
            for v in &mut op.operands {
                *v = resolve(map, *v);
            }
            for nested in &mut op.regions {
                substitute_region(nested, map);
            }
        }
    }
}

/// Calls `visit` on every op of `r` in program order, an op's nested regions before the op itself;
/// returns whether any call returned true (changed something).
pub fn visit_ops_mut(r: &mut Region, visit: &mut impl FnMut(&mut Op) -> bool) -> bool {
    let mut changed = false;
    for b in &mut r.blocks {
        for op in &mut b.ops {
            for nested in &mut op.regions {
                changed |= visit_ops_mut(nested, visit);
            }
            changed |= visit(op);
        }
    }
    changed
}

/// Number of uses of every value of a function (operands anywhere in the body), indexed by value id.
pub fn use_counts(f: &Func) -> Vec<u32> {
    let mut counts = vec![0u32; f.values.len()];
    f.walk(&mut |op| {
        for v in &op.operands {
            if let Some(c) = counts.get_mut(v.0 as usize) {
                *c += 1;
            }
        }
    });
    counts
}

/// Every value an op reads: its operands and the operands of the ops in its regions.
pub fn all_uses(op: &Op, out: &mut Vec<Value>) {
    out.extend_from_slice(&op.operands);
    for r in &op.regions {
        for b in &r.blocks {
            for o in &b.ops {
                all_uses(o, out);
            }
        }
    }
}

/// Every value defined inside an op's regions (block arguments and results).
pub fn defined_inside(op: &Op, out: &mut std::collections::HashSet<Value>) {
    for r in &op.regions {
        for b in &r.blocks {
            out.extend(b.args.iter().copied());
            for o in &b.ops {
                out.extend(o.results.iter().copied());
                defined_inside(o, out);
            }
        }
    }
}

/// The static, encoding-free, non-quantized tensor type of a value.
pub fn plain_tensor(f: &Func, v: Value) -> Option<&TensorType> {
    match f.try_ty(v)? {
        Type::Tensor(t) if t.is_static() && t.encoding.is_none() && !t.elem.is_quantized() => Some(t),
        _ => None,
    }
}

/// The dense value of a constant op.
pub fn const_value(op: &Op) -> Option<&DenseElements> {
    if op.kind != OpKind::Constant {
        return None;
    }
    op.attr("value").and_then(Attr::as_dense)
}

/// The raw bits of the one element all elements of a dense literal equal, if they are all equal.
pub fn splat_bits(d: &DenseElements) -> Option<u64> {
    if d.ty.elem.is_complex() || d.ty.elem.is_quantized() {
        return None;
    }
    if d.splat {
        return Some(d.bits(0));
    }
    let n = d.len();
    if n == 0 {
        return None;
    }
    let first = d.bits(0);
    (1..n).all(|i| d.bits(i) == first).then_some(first)
}

/// The splat bits (masked to the element width) of `op`'s result when it is a splat constant, or a
/// `broadcast_in_dim` of a value `known` holds as a splat, of the same element type.
pub fn splat_of(f: &Func, op: &Op, known: &HashMap<Value, u64>) -> Option<u64> {
    let &res = op.results.first()?;
    if let Some(d) = const_value(op) {
        return splat_bits(d).map(|b| mask_bits(&d.ty.elem, b));
    }
    if op.kind != OpKind::BroadcastInDim || op.operands.len() != 1 {
        return None;
    }
    let elem = |v| plain_tensor(f, v).map(|t| &t.elem);
    let same = elem(op.operands[0]).is_some() && elem(op.operands[0]) == elem(res);
    known.get(&op.operands[0]).copied().filter(|_| same)
}

/// A constant op defining `result` with `value`.
pub fn const_op(result: Value, value: DenseElements, loc: oxhlo_ir::Location) -> Op {
    let mut op = Op::new(OpKind::Constant, Vec::new(), vec![result]);
    op.attrs.push(("value".to_string(), Attr::Dense(value)));
    op.loc = loc;
    op
}

/// A splat dense literal of type `ty` whose one slot holds `bits`.
pub fn splat_dense(ty: &TensorType, bits: u64) -> Option<DenseElements> {
    let slot = ty.elem.storage_bytes();
    let data: Vec<u8> = (0..slot).map(|k| if k < 8 { (bits >> (8 * k)) as u8 } else { 0 }).collect();
    let mut ty = ty.clone();
    ty.encoding = None;
    if ty.num_elements()? == 1 {
        return DenseElements::from_raw(ty, data).ok();
    }
    Some(DenseElements { ty, data, splat: true })
}

/// Compresses a dense literal whose elements are all equal into a splat.
pub fn compress(d: DenseElements) -> DenseElements {
    if d.splat || d.len() <= 1 {
        return d;
    }
    match splat_bits(&d) {
        Some(b) => splat_dense(&d.ty, b).unwrap_or(d),
        None => d,
    }
}

/// Bits of the scalar `1` of an element type (None for types without one).
pub fn one_bits(e: &ElementType) -> Option<u64> {
    match e {
        ElementType::Bool | ElementType::Int { .. } => Some(1),
        ElementType::Float(f) => Some(oxhlo_dtype::encode(f.format(), 1.0)),
        _ => None,
    }
}

/// Bits of `-0.0` of a float type.
pub fn neg_zero_bits(e: &ElementType) -> Option<u64> {
    match e {
        ElementType::Float(f) => Some(oxhlo_dtype::encode(f.format(), -0.0)),
        _ => None,
    }
}

/// Bits of the lowest value of a float or integer type (`-inf`; the signed or unsigned minimum), or with
/// `highest` its highest (`+inf`; the maximum), masked to the element width: the identities of `maximum`
/// and `minimum`. None for bools and for floats without infinities.
pub fn extreme_bits(e: &ElementType, highest: bool) -> Option<u64> {
    match e {
        ElementType::Float(f) => {
            let b = oxhlo_dtype::encode(f.format(), if highest { f64::INFINITY } else { f64::NEG_INFINITY });
            (oxhlo_dtype::decode(f.format(), b) == if highest { f64::INFINITY } else { f64::NEG_INFINITY }).then_some(b)
        }
        ElementType::Int { bits, .. } if *bits <= 64 => Some(mask_bits(e, match (e.is_signed_integer(), highest) {
            (true, false) => oxhlo_dtype::int::signed_min(*bits) as u64,
            (true, true) => oxhlo_dtype::int::signed_max(*bits) as u64,
            (false, false) => 0,
            (false, true) => oxhlo_dtype::int::unsigned_max(*bits),
        })),
        _ => None,
    }
}

/// Bits of an integer with every bit set (`-1`, all-ones, `true`) in storage width.
pub fn all_ones_bits(e: &ElementType) -> Option<u64> {
    match e {
        ElementType::Bool => Some(1),
        ElementType::Int { bits, .. } => Some(if *bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 }),
        _ => None,
    }
}

/// Masks raw bits to the element's width (dense slots of narrow ints may carry sign-extension bytes).
pub fn mask_bits(e: &ElementType, b: u64) -> u64 {
    let w = e.bits();
    if w >= 64 {
        b
    } else {
        b & ((1u64 << w) - 1)
    }
}

/// Replaces an `array<i64>`-style attribute, keeping the parser's representation.
pub fn set_i64s(op: &mut Op, name: &str, vals: Vec<i64>) {
    op.set_attr(name, Attr::DenseArray(oxhlo_ir::attr::DenseArray::I64(vals)));
}

/// Runs `f` on every function of a module, ORing the "changed" flags.
pub fn for_each_func(
    m: &mut oxhlo_ir::Module,
    mut f: impl FnMut(&mut Func) -> Result<bool, String>,
) -> Result<bool, String> {
    let mut changed = false;
    for func in &mut m.funcs {
        changed |= f(func)?;
    }
    Ok(changed)
}

/// Runs `rewrite` on every block of `f` (nested blocks before the block holding them), with the
/// function's value table at hand for new values (the body is taken out meanwhile); true when a call
/// changed something.
pub fn rewrite_blocks(f: &mut Func, mut rewrite: impl FnMut(&mut Func, &mut oxhlo_ir::Block) -> bool) -> bool {
    fn region(f: &mut Func, r: &mut Region, rewrite: &mut dyn FnMut(&mut Func, &mut oxhlo_ir::Block) -> bool) -> bool {
        let mut changed = false;
        for b in &mut r.blocks {
            for op in &mut b.ops {
                for nested in &mut op.regions {
                    changed |= region(f, nested, rewrite);
                }
            }
            changed |= rewrite(f, b);
        }
        changed
    }
    let mut body = std::mem::take(&mut f.body);
    let changed = region(f, &mut body, &mut rewrite);
    f.body = body;
    changed
}

/// Replaces ops of every block of `f` by what `rewrite` returns for them (None keeps the op); true
/// when something was replaced.
pub fn replace_ops(f: &mut Func, mut rewrite: impl FnMut(&mut Func, &Op) -> Option<Vec<Op>>) -> bool {
    rewrite_blocks(f, |f, b| {
        let mut changed = false;
        let mut out = Vec::with_capacity(b.ops.len());
        for op in std::mem::take(&mut b.ops) {
            match rewrite(f, &op) {
                Some(ops) => {
                    out.extend(ops);
                    changed = true;
                }
                None => out.push(op),
            }
        }
        b.ops = out;
        changed
    })
}
