//! Counted loops: a `stablehlo.while` whose trip count follows from its program alone, as every
//! `lax.scan` and `fori_loop` with static bounds lowers: a scalar integer counter that starts at a
//! constant, steps by a constant each iteration (`add` / `subtract` of a constant in the body), and a
//! condition that is nothing but one `compare` of the counter with a constant (or with a value the loop
//! carries unchanged from a constant). A backend that knows the count runs the body that many times
//! without evaluating the condition: on a GPU, no read of the predicate back to the host each iteration,
//! and the loop can be captured in a graph.
//!
//! Integer adds wrap (the spec's two's complement); a count is given only when the counter reaches the
//! exit without wrapping, so skipping the condition changes nothing.

use oxhlo_ir::attr::{ComparisonDirection as Dir, ComparisonType as CmpTy};
use oxhlo_ir::{Attr, Block, ElementType, Func, Op, OpKind, Type, Value};
use std::collections::HashMap;

/// The scalar integer constants of `func` (values are numbered per function, so nested blocks' too).
pub fn int_constants(func: &Func) -> HashMap<Value, i128> {
    let mut out = HashMap::new();
    for block in &func.body.blocks {
        collect_constants(func, block, &mut out);
    }
    out
}

fn collect_constants(func: &Func, block: &Block, out: &mut HashMap<Value, i128>) {
    for op in &block.ops {
        if op.kind == OpKind::Constant && op.results.len() == 1 {
            if let (Some(Attr::Dense(d)), Some((bits, signed))) = (op.attr("value"), counter_type(func, op.results[0])) {
                if d.len() == 1 {
                    out.insert(op.results[0], as_int(d.bits(0), bits, signed));
                }
            }
        }
        for r in &op.regions {
            for b in &r.blocks {
                collect_constants(func, b, out);
            }
        }
    }
}

/// The width and signedness of a scalar integer value (bool excluded).
fn counter_type(func: &Func, v: Value) -> Option<(u32, bool)> {
    match func.try_ty(v)? {
        Type::Tensor(t) if t.shape.is_empty() => match t.elem {
            ElementType::Int { bits, .. } if (2..=64).contains(&bits) => Some((bits, t.elem.is_signed_integer())),
            _ => None,
        },
        _ => None,
    }
}

/// The low `bits` of `raw` as a signed or unsigned integer.
fn as_int(raw: u64, bits: u32, signed: bool) -> i128 {
    let masked = if bits >= 64 { raw } else { raw & ((1u64 << bits) - 1) };
    if signed && (masked >> (bits - 1)) & 1 == 1 {
        masked as i128 - (1i128 << bits)
    } else {
        masked as i128
    }
}

/// The representable range of a `bits`-wide integer.
fn range(bits: u32, signed: bool) -> (i128, i128) {
    if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// How many times the while `op` of `func` runs its body, when that follows from the program (see the
/// module's doc); `consts` from [`int_constants`]. None for any other loop.
pub fn trip_count(func: &Func, consts: &HashMap<Value, i128>, op: &Op) -> Option<u64> {
    if op.kind != OpKind::While {
        return None;
    }
    let [cond, body] = op.regions.as_slice() else { return None };
    let (cond, body) = (single_block(cond)?, single_block(body)?);
    if cond.args.len() != op.operands.len() || body.args.len() != op.operands.len() {
        return None;
    }
    // The condition: constants, one compare, the return of its result; nothing else is skipped.
    let [rest @ .., cmp, ret] = cond.ops.as_slice() else { return None };
    if ret.kind != OpKind::Return || ret.operands.as_slice() != [cmp.results[0]] || cmp.kind != OpKind::Compare {
        return None;
    }
    if rest.iter().any(|o| o.kind != OpKind::Constant) || cmp.operands.len() != 2 || cmp.results.len() != 1 {
        return None;
    }
    let (dir, compare_type) = cmp.comparison().ok()?;
    let body_ret = body.ops.last().filter(|o| o.kind == OpKind::Return && o.operands.len() == body.args.len())?;
    // The value the loop compares with: a constant, or a carried value the body returns unchanged.
    let bound = |v: Value| -> Option<i128> {
        if let Some(&c) = consts.get(&v) {
            return Some(c);
        }
        let j = cond.args.iter().position(|&a| a == v)?;
        (body_ret.operands[j] == body.args[j]).then(|| consts.get(&op.operands[j]).copied())?
    };
    let position = |v: Value| cond.args.iter().position(|&a| a == v);
    let (i, limit, dir) = match (position(cmp.operands[0]), position(cmp.operands[1])) {
        (Some(i), _) if bound(cmp.operands[1]).is_some() => (i, bound(cmp.operands[1])?, dir),
        (_, Some(i)) if bound(cmp.operands[0]).is_some() => (i, bound(cmp.operands[0])?, flipped(dir)),
        _ => return None,
    };
    let (bits, signed) = counter_type(func, cond.args[i])?;
    if counter_type(func, cmp.operands[0]) != Some((bits, signed)) {
        return None;
    }
    // The compare's own type, when it names one, must read the counter as its element type does.
    match compare_type {
        None | Some(CmpTy::NotType) => {}
        Some(CmpTy::Signed) if signed => {}
        Some(CmpTy::Unsigned) if !signed => {}
        Some(_) => return None,
    }
    let start = *consts.get(&op.operands[i])?;
    let step = body_step(body, consts, i, body_ret.operands[i])?;
    count(start, step, limit, dir, range(bits, signed))
}

fn single_block(r: &oxhlo_ir::Region) -> Option<&Block> {
    match r.blocks.as_slice() {
        [b] => Some(b),
        _ => None,
    }
}

/// The direction of the same compare with its operands swapped.
fn flipped(d: Dir) -> Dir {
    match d {
        Dir::Lt => Dir::Gt,
        Dir::Le => Dir::Ge,
        Dir::Gt => Dir::Lt,
        Dir::Ge => Dir::Le,
        other => other,
    }
}

/// The constant the body adds to counter `i` (argument `body.args[i]`, returned as `next`).
fn body_step(body: &Block, consts: &HashMap<Value, i128>, i: usize, next: Value) -> Option<i128> {
    let arg = body.args[i];
    let def = body.ops.iter().find(|o| o.results.contains(&next))?;
    match (def.kind, def.operands.as_slice()) {
        (OpKind::Add, &[a, b]) if a == arg => consts.get(&b).copied(),
        (OpKind::Add, &[a, b]) if b == arg => consts.get(&a).copied(),
        (OpKind::Subtract, &[a, b]) if a == arg => consts.get(&b).map(|s| -s),
        _ => None,
    }
}

/// Whether `x dir limit` holds (the loop's condition on counter value `x`).
fn holds(x: i128, dir: Dir, limit: i128) -> bool {
    match dir {
        Dir::Lt => x < limit,
        Dir::Le => x <= limit,
        Dir::Gt => x > limit,
        Dir::Ge => x >= limit,
        Dir::Eq => x == limit,
        Dir::Ne => x != limit,
    }
}

/// The first k >= 0 at which `start + k * step` fails `dir limit`, when every counter value up to that
/// one lies in `(lo, hi)` (no wrap-around on the way); None otherwise.
fn count(start: i128, step: i128, limit: i128, dir: Dir, (lo, hi): (i128, i128)) -> Option<u64> {
    let holds = |x: i128| holds(x, dir, limit);
    if !holds(start) {
        return Some(0);
    }
    // The distance the counter must move, in steps.
    let k = match dir {
        Dir::Lt if step > 0 => (limit - start + step - 1) / step,
        Dir::Le if step > 0 => (limit - start) / step + 1,
        Dir::Gt if step < 0 => (start - limit + (-step) - 1) / -step,
        Dir::Ge if step < 0 => (start - limit) / -step + 1,
        Dir::Eq if step != 0 => 1,
        Dir::Ne if step != 0 && (limit - start) % step == 0 && (limit - start) / step > 0 => (limit - start) / step,
        _ => return None,
    };
    let last = start + k * step;
    // Every value the counter takes (start..=last, monotonic) must be representable, and the exit real.
    if last < lo || last > hi || holds(last) {
        return None;
    }
    u64::try_from(k).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const I32: (i128, i128) = (-(1 << 31), (1 << 31) - 1);

    /// The trip count by stepping, as the loop runs (the independent reference for `count`'s arithmetic).
    fn stepped(start: i128, step: i128, limit: i128, dir: Dir, (lo, hi): (i128, i128)) -> Option<u64> {
        let mut x = start;
        for k in 0..10_000u64 {
            if !holds(x, dir, limit) {
                return Some(k);
            }
            x += step;
            if x < lo || x > hi {
                return None;
            }
        }
        None
    }

    #[test]
    fn counts_agree_with_stepping_the_loop() {
        let dirs = [Dir::Lt, Dir::Le, Dir::Gt, Dir::Ge, Dir::Eq, Dir::Ne];
        let small = (-20i128, 20i128);
        for dir in dirs {
            for start in -20..=20 {
                for limit in -20..=20 {
                    for step in -5..=5 {
                        let want = stepped(start, step, limit, dir, small);
                        assert_eq!(count(start, step, limit, dir, small), want, "{dir:?} start {start} step {step} limit {limit}");
                    }
                }
            }
        }
        // Near the top of i32: the exit value is the largest i32, or would be past it (wrapped).
        assert_eq!(count(I32.1 - 4, 2, I32.1 - 1, Dir::Lt, I32), Some(2));
        assert_eq!(count(I32.1 - 3, 2, I32.1, Dir::Lt, I32), None);
        assert_eq!(count(I32.1 - 3, 1, I32.1, Dir::Le, I32), None);
        assert_eq!(count(0, 1, 256, Dir::Lt, I32), Some(256));
    }
}
