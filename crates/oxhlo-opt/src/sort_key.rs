//! Analysis (not a pass): sort comparators that order by one key per element. Every comparator JAX
//! emits for `jnp.sort`, `jnp.argsort` and one-key `lax.sort` is `compare LT (g(lhs), g(rhs))` with the
//! same canonicalizing expression `g` on both sides (zeros to +0.0, NaNs to one NaN, then TOTALORDER).
//! Such a sort is a sort by `g(x)` alone, which a backend can compute once per element instead of twice
//! per comparison.

use oxhlo_ir::attr::{ComparisonDirection, ComparisonType};
use oxhlo_ir::{Block, Op, OpKind, Value};
use std::collections::HashMap;

/// A comparator that orders by one operand's key.
#[derive(Clone, Copy, Debug)]
pub struct KeyOrder<'b> {
    /// The sort operand whose elements give the key (block arguments `2 operand` and `2 operand + 1`).
    pub operand: usize,
    /// The key of the comparator's lhs element: a block argument or a value its ops compute from it.
    pub key: Value,
    /// Whether larger keys come first (`GT`; `LT` orders smaller keys first).
    pub descending: bool,
    /// The comparison's type attribute (`TOTALORDER`, `SIGNED`, ...), None where it has none.
    pub compare_type: Option<ComparisonType>,
    /// The compare op (for its operands' types).
    pub compare: &'b Op,
}

/// The key order of comparator block `block`, or None when it is not one strict `compare` (LT or GT) of
/// the same expression of one operand's lhs and rhs elements.
pub fn key_order(block: &Block) -> Option<KeyOrder<'_>> {
    let last = block.ops.last()?;
    if last.kind != OpKind::Return || last.operands.len() != 1 || !block.args.len().is_multiple_of(2) {
        return None;
    }
    let defs: HashMap<Value, &Op> = block.ops.iter().flat_map(|o| o.results.iter().map(move |&r| (r, o))).collect();
    let compare = *defs.get(&last.operands[0])?;
    if compare.kind != OpKind::Compare || compare.operands.len() != 2 {
        return None;
    }
    let (direction, compare_type) = compare.comparison().ok()?;
    let descending = match direction {
        ComparisonDirection::Lt => false,
        ComparisonDirection::Gt => true,
        _ => return None,
    };
    let (x, y) = (compare.operands[0], compare.operands[1]);
    let arg = |v: Value| block.args.iter().position(|&a| a == v);
    // The one block argument each side reads: lhs 2i, rhs 2i + 1.
    let lhs = single_arg(x, &defs, &arg)?;
    let rhs = single_arg(y, &defs, &arg)?;
    if !lhs.is_multiple_of(2) || rhs != lhs + 1 {
        return None;
    }
    let (a, b) = (block.args[lhs], block.args[rhs]);
    same_expression(x, y, a, b, &defs).then_some(KeyOrder { operand: lhs / 2, key: x, descending, compare_type, compare })
}

/// The index of the one block argument value `v` depends on (None for none or several, or for ops with
/// regions on the way).
fn single_arg(v: Value, defs: &HashMap<Value, &Op>, arg: &dyn Fn(Value) -> Option<usize>) -> Option<usize> {
    let mut found = None;
    let mut stack = vec![v];
    let mut seen = std::collections::HashSet::new();
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        if let Some(i) = arg(v) {
            if found.is_some_and(|f| f != i) {
                return None;
            }
            found = Some(i);
        } else if let Some(op) = defs.get(&v) {
            if !op.regions.is_empty() {
                return None;
            }
            stack.extend(op.operands.iter().copied());
        }
        // Values from outside the block (hoisted constants) depend on no argument.
    }
    found
}

/// Whether `x` (over argument `a`) and `y` (over argument `b`) are the same expression: the same ops
/// with the same attributes, reading the same outside values, `a` where the other reads `b`.
fn same_expression(x: Value, y: Value, a: Value, b: Value, defs: &HashMap<Value, &Op>) -> bool {
    if x == a || y == b {
        return x == a && y == b;
    }
    match (defs.get(&x), defs.get(&y)) {
        (Some(p), Some(q)) => {
            let pos_x = p.results.iter().position(|&r| r == x);
            let pos_y = q.results.iter().position(|&r| r == y);
            if p.kind != q.kind || p.unregistered_name != q.unregistered_name || p.attrs != q.attrs || pos_x != pos_y || p.operands.len() != q.operands.len() || !p.regions.is_empty() || !q.regions.is_empty() {
                return false;
            }
            // An op that reads no argument (a constant in the block) is shared by value.
            if std::ptr::eq(*p, *q) {
                return true;
            }
            p.operands.iter().zip(&q.operands).all(|(&u, &w)| u == w && u != a && w != b || same_expression(u, w, a, b, defs))
        }
        // Outside values (and the other arguments) are the same only as the same value.
        (None, None) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comparator(text: &str) -> oxhlo_ir::Module {
        oxhlo_text::parse_module(text, "comparator.mlir").expect("parses")
    }

    fn sort_block(m: &oxhlo_ir::Module) -> &Block {
        let f = m.entry().unwrap();
        let op = f.body.blocks[0].ops.iter().find(|o| o.kind == OpKind::Sort).unwrap();
        &op.regions[0].blocks[0]
    }

    const JAX_SORT: &str = r#"
func.func @main(%x: tensor<8xf32>, %i: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %r:2 = "stablehlo.sort"(%x, %i) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %0 = stablehlo.compare EQ, %a, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %1 = stablehlo.select %0, %zero, %a : tensor<i1>, tensor<f32>
    %2 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.select %2, %nan, %1 : tensor<i1>, tensor<f32>
    %4 = stablehlo.compare EQ, %b, %zero, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %5 = stablehlo.select %4, %zero, %b : tensor<i1>, tensor<f32>
    %6 = stablehlo.compare NE, %b, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %7 = stablehlo.select %6, %nan, %5 : tensor<i1>, tensor<f32>
    %8 = stablehlo.compare LT, %3, %7, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %8 : tensor<i1>
  }) : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xi32>
}
"#;

    #[test]
    fn jax_canonicalizing_comparator_orders_by_its_first_operand() {
        let m = comparator(JAX_SORT);
        let k = key_order(sort_block(&m)).expect("a key order");
        assert_eq!(k.operand, 0);
        assert!(!k.descending);
        assert_eq!(k.compare_type, Some(ComparisonType::TotalOrder));
        assert_ne!(k.key, sort_block(&m).args[0], "the key is the canonicalized element");
    }

    #[test]
    fn plain_compare_of_the_second_operand_descending() {
        let text = JAX_SORT.replace("%8 = stablehlo.compare LT, %3, %7, TOTALORDER : (tensor<f32>, tensor<f32>)", "%8 = stablehlo.compare GT, %c, %d, SIGNED : (tensor<i32>, tensor<i32>)");
        let m = comparator(&text);
        let k = key_order(sort_block(&m)).expect("a key order");
        assert_eq!((k.operand, k.descending, k.key), (1, true, sort_block(&m).args[2]));
    }

    #[test]
    fn comparators_that_are_not_one_key_are_refused() {
        // Sides of different expressions (one canonicalizes NaNs, the other does not).
        let lopsided = JAX_SORT.replace("%8 = stablehlo.compare LT, %3, %7", "%8 = stablehlo.compare LT, %3, %5");
        assert!(key_order(sort_block(&comparator(&lopsided))).is_none());
        // Not strict (LE).
        let le = JAX_SORT.replace("compare LT, %3, %7", "compare LE, %3, %7");
        assert!(key_order(sort_block(&comparator(&le))).is_none());
        // Swapped sides: lhs reads the rhs element (a descending sort written backwards is still two
        // arguments in the wrong slots).
        let swapped = JAX_SORT.replace("compare LT, %3, %7", "compare LT, %7, %3");
        assert!(key_order(sort_block(&comparator(&swapped))).is_none());
        // A side that reads both elements (the rhs's NaN test reads the lhs).
        let mixed = JAX_SORT.replace("%6 = stablehlo.compare NE, %b, %b", "%6 = stablehlo.compare NE, %a, %b");
        assert!(key_order(sort_block(&comparator(&mixed))).is_none());
    }
}
