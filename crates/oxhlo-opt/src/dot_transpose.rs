//! Transposes around `dot_general`, folded into its dimension numbers:
//! - O3 ([`DotTransposeFold`]; at O2 only where the operand is then read in place as a GEMM operand):
//!   a `transpose` feeding an operand. Batch and contracting dimensions are
//!   renamed through the permutation; this is done only when the operand's free dimensions keep their
//!   relative order, so the result's dimension order (batch, lhs free, rhs free, each in ascending
//!   operand order) — and thus its type — is unchanged. The transpose is left for DCE.
//! - O2 ([`DotResultTransposeFold`], exact): a `transpose` of a dot's only use that swaps the lhs-free
//!   and rhs-free groups of its result (batch dims staying in front) is the dot with its operands
//!   swapped, `(A B)^T = B^T A^T`: the same products and sums, written in the transposed order. JAX
//!   writes every weight gradient this way (`dot_general(dy, x)` over the batch, then a transpose to
//!   the weight's layout): on the GPU each was a transpose pass over the gradient. A transpose that
//!   moves the innermost dim and would keep it after such a swap (attention's key gradient, `[b, h, d,
//!   s]` to `[b, s, h, d]`) becomes the swapped dot and a transpose of whole rows.

use crate::util::{for_each_func, visit_ops_mut};
use crate::Pass;
use oxhlo_ir::attr::DotDims;
use oxhlo_ir::{Attr, Func, Module, OpKind, Value};
use std::collections::HashMap;

/// `gemm_layouts_only` (O2): only where the operand then reads as a GEMM operand in place, batch dims
/// leading and one contracting and at most one free dim after them, in either order (attention's
/// `q . transpose(k)`); O3 folds every order-keeping transpose.
pub struct DotTransposeFold {
    pub gemm_layouts_only: bool,
}

impl Pass for DotTransposeFold {
    fn name(&self) -> &'static str {
        if self.gemm_layouts_only {
            "dot-transpose-fold-gemm"
        } else {
            "dot-transpose-fold"
        }
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| {
            let folded = fold_func(f, self.gemm_layouts_only);
            Ok(if self.gemm_layouts_only { split_into_gemm_layouts(f) | folded } else { folded })
        })
    }
}

/// At O2, a `transpose(x)` that moves `x`'s innermost dim (strided accesses), is read only by dots, and
/// cannot fold into them as a GEMM layout: it becomes a transpose of `x` to a GEMM layout of its first
/// dot that keeps the innermost dim (whole rows), and every dot reading it takes the rest of the
/// permutation in its dimension numbers (each must then read it as a GEMM operand too, or nothing
/// changes). Attention's `transpose(k)` of `k` as `[b, s, h, d]` to `[b, h, d, s]`, read by `q . k^T`
/// and by the query gradient: `[b, h, s, d]`, contracted over `d` and over `s` respectively.
fn split_into_gemm_layouts(f: &mut Func) -> bool {
    let uses = crate::util::use_counts(f);
    crate::util::rewrite_blocks(f, |f, block| {
        // Dot operands of this block by value: (op index, side).
        let mut dot_uses: HashMap<Value, Vec<(usize, usize)>> = HashMap::new();
        for (i, op) in block.ops.iter().enumerate() {
            if op.kind == OpKind::DotGeneral && op.operands.len() == 2 {
                for side in 0..2 {
                    dot_uses.entry(op.operands[side]).or_default().push((i, side));
                }
            }
        }
        let mut changed = false;
        for t in 0..block.ops.len() {
            let op = &block.ops[t];
            if op.kind != OpKind::Transpose || op.operands.len() != 1 || op.results.len() != 1 {
                continue;
            }
            let (v, x) = (op.results[0], op.operands[0]);
            let Some(perm) = op.i64s("permutation") else { continue };
            let rank = perm.len();
            let Some(users) = dot_uses.get(&v) else { continue };
            if rank < 2 || perm[rank - 1] == rank as i64 - 1 || uses.get(v.0 as usize).copied() != Some(users.len() as u32) {
                continue;
            }
            // The layout: the first dot's batch dims, then free and contracting dims, the innermost last.
            let Some(first) = dot_dims(&block.ops[users[0].0]) else { continue };
            let (b0, c0) = side_dims(&first, users[0].1);
            let Some((nb, nc)) = remap(&perm, b0, c0) else { continue };
            if nc.len() != 1 || rank > nb.len() + 2 {
                continue;
            }
            let free: Vec<i64> = (0..rank as i64).filter(|d| !nb.contains(d) && !nc.contains(d)).collect();
            let inner = rank as i64 - 1;
            let layout: Vec<i64> = if nc[0] == inner {
                nb.iter().chain(&free).chain(&nc).copied().collect()
            } else if free.last() == Some(&inner) {
                nb.iter().chain(&nc).chain(&free).copied().collect()
            } else {
                continue;
            };
            // What each reader takes instead: the rest of the permutation after the new layout. A dot
            // reading the value twice gets both sides' edits on one copy of its dims.
            let Some(rest) = after(&layout, &perm) else { continue };
            let mut edited: HashMap<usize, DotDims> = HashMap::new();
            let all = users.iter().all(|&(i, side)| {
                let Some(d) = edited.get(&i).cloned().or_else(|| dot_dims(&block.ops[i])) else { return false };
                let (b, c) = side_dims(&d, side);
                let Some((nb2, nc2)) = remap(&rest, b, c).filter(|(nb2, nc2)| gemm_layout(rank, nb2, nc2)) else { return false };
                let mut d = d;
                set_side_dims(&mut d, side, nb2, nc2);
                edited.insert(i, d);
                true
            });
            if !all {
                continue;
            }
            let Some(xt) = f.try_ty(x).and_then(|t| t.as_tensor()).cloned() else { continue };
            let shape = layout.iter().map(|&d| xt.shape[d as usize]).collect();
            let Some(slot) = f.values.get_mut(v.0 as usize) else { continue };
            *slot = oxhlo_ir::Type::Tensor(oxhlo_ir::TensorType::new(shape, xt.elem.clone()));
            crate::util::set_i64s(&mut block.ops[t], "permutation", layout);
            for (i, d) in edited {
                block.ops[i].set_attr("dot_dimension_numbers", Attr::DotDims(d));
            }
            changed = true;
        }
        changed
    })
}

/// The batch and contracting dims of one side (0: lhs, 1: rhs) of a dot.
fn side_dims(d: &DotDims, side: usize) -> (&[i64], &[i64]) {
    if side == 0 {
        (&d.lhs_batching_dimensions, &d.lhs_contracting_dimensions)
    } else {
        (&d.rhs_batching_dimensions, &d.rhs_contracting_dimensions)
    }
}

/// Sets the batch and contracting dims of one side (0: lhs, 1: rhs) of a dot.
fn set_side_dims(d: &mut DotDims, side: usize, batch: Vec<i64>, contract: Vec<i64>) {
    if side == 0 {
        (d.lhs_batching_dimensions, d.lhs_contracting_dimensions) = (batch, contract);
    } else {
        (d.rhs_batching_dimensions, d.rhs_contracting_dimensions) = (batch, contract);
    }
}

/// The permutation that takes a tensor already permuted by `first` to one permuted by `whole`
/// (`whole[i] = first[result[i]]`); None when they are not permutations of one rank.
fn after(first: &[i64], whole: &[i64]) -> Option<Vec<i64>> {
    let mut at = vec![-1i64; first.len()];
    for (j, &d) in first.iter().enumerate() {
        *at.get_mut(usize::try_from(d).ok()?)? = j as i64;
    }
    whole.iter().map(|&d| usize::try_from(d).ok().and_then(|d| at.get(d).copied()).filter(|&j| j >= 0)).collect()
}

/// A dot's dimension numbers.
fn dot_dims(op: &oxhlo_ir::Op) -> Option<DotDims> {
    match op.attr("dot_dimension_numbers") {
        Some(Attr::DotDims(d)) => Some(d.clone()),
        _ => None,
    }
}

/// Whether batch dims `nb` and contracting dims `nc` of an operand of rank `rank` make it a GEMM operand
/// read in place: batch dims `0..B` in order, then one contracting dim and at most one free dim.
fn gemm_layout(rank: usize, nb: &[i64], nc: &[i64]) -> bool {
    nb.iter().enumerate().all(|(i, &d)| d == i as i64) && nc.len() == 1 && rank <= nb.len() + 2
}

/// Folds the transposes into the dot_generals of one function.
pub fn fold_func(f: &mut Func, gemm_layouts_only: bool) -> bool {
    let mut transposes: HashMap<Value, (Value, Vec<i64>)> = HashMap::new();
    visit_ops_mut(&mut f.body, &mut |op| match op.kind {
        OpKind::Transpose if op.operands.len() == 1 && op.results.len() == 1 => {
            if let Some(p) = op.i64s("permutation") {
                transposes.insert(op.results[0], (op.operands[0], p));
            }
            false
        }
        OpKind::DotGeneral if op.operands.len() == 2 => {
            let Some(Attr::DotDims(dims)) = op.attr("dot_dimension_numbers").cloned() else { return false };
            let mut dims = dims;
            let mut any = false;
            for side in 0..2 {
                let Some((src, perm)) = transposes.get(&op.operands[side]) else { continue };
                let (batch, contract) = side_dims(&dims, side);
                if let Some((nb, nc)) = remap(perm, batch, contract).filter(|(nb, nc)| !gemm_layouts_only || gemm_layout(perm.len(), nb, nc)) {
                    op.operands[side] = *src;
                    set_side_dims(&mut dims, side, nb, nc);
                    any = true;
                }
            }
            if any {
                op.set_attr("dot_dimension_numbers", Attr::DotDims(dims as DotDims));
            }
            any
        }
        _ => false,
    })
}

/// Batch and contracting dims of the transpose's input, if its free dims stay in ascending order.
fn remap(perm: &[i64], batch: &[i64], contract: &[i64]) -> Option<(Vec<i64>, Vec<i64>)> {
    let at = |d: i64| usize::try_from(d).ok().and_then(|d| perm.get(d).copied());
    let nb = batch.iter().map(|&d| at(d)).collect::<Option<Vec<_>>>()?;
    let nc = contract.iter().map(|&d| at(d)).collect::<Option<Vec<_>>>()?;
    let free: Vec<i64> =
        (0..perm.len() as i64).filter(|d| !batch.contains(d) && !contract.contains(d)).map(|d| perm[d as usize]).collect();
    free.windows(2).all(|w| w[0] < w[1]).then_some((nb, nc))
}

pub struct DotResultTransposeFold;

impl Pass for DotResultTransposeFold {
    fn name(&self) -> &'static str {
        "dot-result-transpose-fold"
    }
    fn run(&self, m: &mut Module) -> Result<bool, String> {
        for_each_func(m, |f| Ok(fold_results(f)))
    }
}

/// The permutation that swaps the lhs-free and rhs-free groups of a dot result with `nb` batch dims,
/// `nl` lhs-free and `nr` rhs-free dims.
fn swap_groups(nb: usize, nl: usize, nr: usize) -> Vec<i64> {
    (0..nb).chain(nb + nl..nb + nl + nr).chain(nb..nb + nl).map(|d| d as i64).collect()
}

/// Folds the transposes of dot results into the dots of one function: the dot takes the transpose's
/// result (swapped operands and dimension numbers); the transpose, now reading that result and writing
/// the dot's old (unused) one, is left for DCE.
pub fn fold_results(f: &mut Func) -> bool {
    let uses = crate::util::use_counts(f);
    crate::util::rewrite_blocks(f, |f, block| {
        let mut changed = false;
        // Dots of this block whose result has one use: result -> op index.
        let mut dots: HashMap<Value, usize> = HashMap::new();
        for i in 0..block.ops.len() {
            let op = &block.ops[i];
            match op.kind {
                OpKind::DotGeneral
                    if op.operands.len() == 2
                        && op.results.len() == 1
                        && op.attr("algorithm").is_none()
                        && uses.get(op.results[0].0 as usize) == Some(&1) =>
                {
                    dots.insert(op.results[0], i);
                }
                OpKind::Transpose if op.operands.len() == 1 && op.results.len() == 1 => {
                    let Some(&d) = dots.get(&op.operands[0]) else { continue };
                    let Some(perm) = op.i64s("permutation") else { continue };
                    let Some(Attr::DotDims(dims)) = block.ops[d].attr("dot_dimension_numbers").cloned() else { continue };
                    let rank = |v: Value| f.try_ty(v).and_then(|t| t.as_tensor()).map(|t| t.shape.len());
                    let (Some(lr), Some(rr)) = (rank(block.ops[d].operands[0]), rank(block.ops[d].operands[1])) else { continue };
                    let nb = dims.lhs_batching_dimensions.len();
                    let nl = lr.saturating_sub(nb + dims.lhs_contracting_dimensions.len());
                    let nr = rr.saturating_sub(nb + dims.rhs_contracting_dimensions.len());
                    if nl == 0 || nr == 0 || perm.len() != nb + nl + nr {
                        continue;
                    }
                    // The swapped dot writes the result in `swap` order; what the transpose still has to
                    // do from there is `rest` (output dim i = swapped dim rest[i]).
                    let swap = swap_groups(nb, nl, nr);
                    let Some(rest) = after(&swap, &perm) else { continue };
                    let last = perm.len() as i64 - 1;
                    let whole = rest.iter().enumerate().all(|(i, &r)| r == i as i64);
                    // Short of the whole transpose, only when the swap turns one that moves the innermost
                    // dim (strided reads or writes) into one that keeps it (contiguous rows).
                    let rows_kept = perm[last as usize] != last && rest[last as usize] == last;
                    if !(whole || rows_kept) {
                        continue;
                    }
                    let old = block.ops[d].results[0];
                    let new = if whole {
                        op.results[0]
                    } else {
                        let Some(t) = f.try_ty(old).and_then(|t| t.as_tensor()).cloned() else { continue };
                        let shape = swap.iter().map(|&j| t.shape[j as usize]).collect();
                        f.new_value(oxhlo_ir::Type::Tensor(oxhlo_ir::TensorType::new(shape, t.elem.clone())))
                    };
                    let dot = &mut block.ops[d];
                    dot.operands.swap(0, 1);
                    let swapped = DotDims {
                        lhs_batching_dimensions: dims.rhs_batching_dimensions,
                        rhs_batching_dimensions: dims.lhs_batching_dimensions,
                        lhs_contracting_dimensions: dims.rhs_contracting_dimensions,
                        rhs_contracting_dimensions: dims.lhs_contracting_dimensions,
                    };
                    dot.set_attr("dot_dimension_numbers", Attr::DotDims(swapped));
                    if let Some(Attr::Array(mut p)) = dot.attr("precision_config").cloned() {
                        if p.len() == 2 {
                            p.swap(0, 1);
                            dot.set_attr("precision_config", Attr::Array(p));
                        }
                    }
                    dot.results[0] = new;
                    let t = &mut block.ops[i];
                    t.operands[0] = new;
                    if whole {
                        // The transpose now maps the new result back to the old one, which nothing reads.
                        t.results[0] = old;
                        crate::util::set_i64s(t, "permutation", swap_groups(nb, nr, nl));
                    } else {
                        crate::util::set_i64s(t, "permutation", rest);
                    }
                    dots.remove(&old);
                    changed = true;
                }
                _ => {}
            }
        }
        changed
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{check_pass, print};

    #[test]
    fn absorbs_transposes_that_keep_the_output_order() {
        let src = r#"
func.func @main(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>, %c: tensor<2x3x4xf32>, %d: tensor<2x4x5xf32>) -> (tensor<3x5xf32>, tensor<2x3x5xf32>, tensor<5x3xf32>) {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %1 = stablehlo.dot_general %0, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %2 = stablehlo.transpose %c, dims = [0, 2, 1] : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %3 = stablehlo.transpose %d, dims = [0, 2, 1] : (tensor<2x4x5xf32>) -> tensor<2x5x4xf32>
  %4 = stablehlo.dot_general %2, %3, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<2x4x3xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  %5 = stablehlo.transpose %b, dims = [1, 0] : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %6 = stablehlo.dot_general %5, %a, contracting_dims = [1] x [0] : (tensor<5x4xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
  return %1, %4, %6 : tensor<3x5xf32>, tensor<2x3x5xf32>, tensor<5x3xf32>
}"#;
        let (m, changed) = check_pass(&DotTransposeFold { gemm_layouts_only: false }, src);
        assert!(changed);
        let text = print(&m);
        assert!(text.contains("stablehlo.dot_general %arg0, %arg1, contracting_dims = [0] x [0]"), "{text}");
        assert!(text.contains("stablehlo.dot_general %arg2, %arg3, batching_dims = [0] x [0], contracting_dims = [2] x [1]"), "{text}");
        assert!(text.contains("stablehlo.dot_general %arg1, %arg0, contracting_dims = [0] x [0]"), "{text}");
    }

    #[test]
    fn transposed_dot_results_become_swapped_dots() {
        // A weight gradient as JAX writes it, a batched form, and two left alone: a transpose that does
        // not swap the groups, and a dot read twice.
        let src = r#"
func.func @main(%dy: tensor<16x8x6xf32>, %x: tensor<16x8x5xf32>, %a: tensor<2x3x4xf32>, %b: tensor<2x4x7xf32>, %c: tensor<3x4xf32>, %d: tensor<4x5x2xf32>, %e: tensor<4x5xf32>) -> (tensor<5x6xf32>, tensor<2x7x3xf32>, tensor<2x5x3xf32>, tensor<5x3xf32>, tensor<3x5xf32>) {
  %0 = stablehlo.dot_general %dy, %x, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, HIGHEST] : (tensor<16x8x6xf32>, tensor<16x8x5xf32>) -> tensor<6x5xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<6x5xf32>) -> tensor<5x6xf32>
  %2 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x7xf32>) -> tensor<2x3x7xf32>
  %3 = stablehlo.transpose %2, dims = [0, 2, 1] : (tensor<2x3x7xf32>) -> tensor<2x7x3xf32>
  %4 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5x2xf32>) -> tensor<3x5x2xf32>
  %5 = stablehlo.transpose %4, dims = [2, 1, 0] : (tensor<3x5x2xf32>) -> tensor<2x5x3xf32>
  %6 = stablehlo.dot_general %c, %e, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %7 = stablehlo.transpose %6, dims = [1, 0] : (tensor<3x5xf32>) -> tensor<5x3xf32>
  return %1, %3, %5, %7, %6 : tensor<5x6xf32>, tensor<2x7x3xf32>, tensor<2x5x3xf32>, tensor<5x3xf32>, tensor<3x5xf32>
}"#;
        let (mut m, changed) = check_pass(&DotResultTransposeFold, src);
        assert!(changed);
        crate::dce::Dce.run(&mut m).unwrap();
        let text = print(&m);
        assert!(text.contains("stablehlo.dot_general %arg1, %arg0, contracting_dims = [0, 1] x [0, 1], precision = [HIGHEST, DEFAULT]"), "{text}");
        assert!(text.contains("stablehlo.dot_general %arg3, %arg2, batching_dims = [0] x [0], contracting_dims = [1] x [2]"), "{text}");
        assert_eq!(crate::testkit::count(&m, OpKind::Transpose), 2, "{text}");
    }

    #[test]
    fn at_o2_folds_only_into_gemm_layouts() {
        // Attention's scores: q . transpose(k) folds (k read as [B, N, K]); a transpose that would leave a
        // batch dim behind the others does not.
        let src = r#"
func.func @main(%q: tensor<2x3x8x4xf32>, %k: tensor<2x3x8x4xf32>, %a: tensor<4x2x5xf32>, %b: tensor<2x5x6xf32>) -> (tensor<2x3x8x8xf32>, tensor<2x4x6xf32>) {
  %kt = stablehlo.transpose %k, dims = [0, 1, 3, 2] : (tensor<2x3x8x4xf32>) -> tensor<2x3x4x8xf32>
  %0 = stablehlo.dot_general %q, %kt, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x3x8x4xf32>, tensor<2x3x4x8xf32>) -> tensor<2x3x8x8xf32>
  %at = stablehlo.transpose %a, dims = [1, 0, 2] : (tensor<4x2x5xf32>) -> tensor<2x4x5xf32>
  %1 = stablehlo.dot_general %at, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x5xf32>, tensor<2x5x6xf32>) -> tensor<2x4x6xf32>
  return %0, %1 : tensor<2x3x8x8xf32>, tensor<2x4x6xf32>
}"#;
        let (m, changed) = check_pass(&DotTransposeFold { gemm_layouts_only: true }, src);
        assert!(changed);
        let text = print(&m);
        assert!(text.contains("stablehlo.dot_general %arg0, %arg1, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3]"), "{text}");
        assert!(text.contains("stablehlo.dot_general %2, %arg3"), "the batch dim would not lead: {text}");
    }

    #[test]
    fn at_o2_a_strided_operand_transpose_becomes_one_of_whole_rows() {
        // k as JAX leaves it after the QKV split, [b, s, h, d], transposed to [b, h, d, s] for q . k^T
        // and read again by the query gradient (ds . k).
        let src = r#"
func.func @main(%q: tensor<2x3x8x4xf32>, %k: tensor<2x8x3x4xf32>) -> (tensor<2x3x8x8xf32>, tensor<2x3x8x4xf32>) {
  %kt = stablehlo.transpose %k, dims = [0, 2, 3, 1] : (tensor<2x8x3x4xf32>) -> tensor<2x3x4x8xf32>
  %0 = stablehlo.dot_general %q, %kt, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x3x8x4xf32>, tensor<2x3x4x8xf32>) -> tensor<2x3x8x8xf32>
  %1 = stablehlo.dot_general %0, %kt, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] : (tensor<2x3x8x8xf32>, tensor<2x3x4x8xf32>) -> tensor<2x3x8x4xf32>
  return %0, %1 : tensor<2x3x8x8xf32>, tensor<2x3x8x4xf32>
}"#;
        let (m, changed) = check_pass(&DotTransposeFold { gemm_layouts_only: true }, src);
        assert!(changed);
        let text = print(&m);
        assert!(text.contains("stablehlo.transpose %arg1, dims = [0, 2, 1, 3] : (tensor<2x8x3x4xf32>) -> tensor<2x3x8x4xf32>"), "{text}");
        assert!(text.contains("batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3]"), "the scores: {text}");
        assert!(text.contains("batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2]"), "the query gradient: {text}");
        assert_eq!(crate::testkit::count(&m, OpKind::Transpose), 1, "{text}");
    }

    #[test]
    fn a_swap_short_of_the_whole_transpose_keeps_rows_whole() {
        // The key gradient's [b, h, d, s] -> [b, s, h, d]: the swapped dot writes [b, h, s, d], and a
        // transpose that keeps d innermost is left.
        let src = r#"
func.func @main(%x: tensor<2x3x8x4xf32>, %g: tensor<2x3x8x5xf32>) -> tensor<2x5x3x4xf32> {
  %0 = stablehlo.dot_general %x, %g, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2] : (tensor<2x3x8x4xf32>, tensor<2x3x8x5xf32>) -> tensor<2x3x4x5xf32>
  %1 = stablehlo.transpose %0, dims = [0, 3, 1, 2] : (tensor<2x3x4x5xf32>) -> tensor<2x5x3x4xf32>
  return %1 : tensor<2x5x3x4xf32>
}"#;
        let (m, changed) = check_pass(&DotResultTransposeFold, src);
        assert!(changed);
        let text = print(&m);
        assert!(text.contains("stablehlo.dot_general %arg1, %arg0, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2]"), "{text}");
        assert!(text.contains("dims = [0, 2, 1, 3] : (tensor<2x3x5x4xf32>) -> tensor<2x5x3x4xf32>"), "{text}");
    }

    #[test]
    fn keeps_transposes_that_would_reorder_the_output() {
        let src = r#"
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x2x5xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = stablehlo.dot_general %0, %b, contracting_dims = [2] x [0] : (tensor<3x2x4xf32>, tensor<4x5xf32>) -> tensor<3x2x5xf32>
  return %1 : tensor<3x2x5xf32>
}"#;
        let (_, changed) = check_pass(&DotTransposeFold { gemm_layouts_only: false }, src);
        assert!(!changed);
    }
}
