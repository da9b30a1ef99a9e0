//! View copies: a chain of slice, reshape and transpose ops whose values are each read only by the next
//! op of the chain is one strided read of the chain's first operand (the ops' composed [`View`]): one
//! copy instead of a kernel per op (attention's `transpose(reshape(slice(qkv)))`). A concatenation whose
//! operands come out of reshapes and transposes writes each operand's source straight into its place in
//! the result (those ops are views of the destination): `concat(reshape(transpose(dq)), ...)` is one copy
//! of several pieces instead of a transpose per operand and the concatenation.
//!
//! [`plan`] finds them among a block's steps: each [`ViewCopy`] runs at its head op's step; the steps of
//! the ops it absorbed are removed (their values never exist). Only copies that read and write whole
//! contiguous innermost runs are formed (a transpose that moves the innermost dim keeps its own tiled
//! kernel), and only where they save a kernel.

use crate::fusion::{native_real_elem, Step, Users};
use oxhlo_ir::{Block, Func, OpKind, Type, Value};
use std::collections::{HashMap, HashSet};

/// A strided view of a row-major buffer: the element at row-major coordinates `c` of `shape` is at
/// `base + sum_d c[d] * strides[d]` (in elements).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub shape: Vec<i64>,
    pub strides: Vec<i64>,
    pub base: i64,
}

impl View {
    /// A whole row-major buffer of `shape`.
    pub fn contiguous(shape: &[i64]) -> View {
        let mut strides = vec![1i64; shape.len()];
        for d in (0..shape.len().saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * shape[d + 1];
        }
        View { shape: shape.to_vec(), strides, base: 0 }
    }

    /// `stablehlo.slice` of this view (positive steps, bounds within the shape).
    pub fn slice(&self, start: &[i64], limit: &[i64], step: &[i64]) -> Option<View> {
        let r = self.shape.len();
        if start.len() != r || limit.len() != r || step.len() != r {
            return None;
        }
        let mut v = self.clone();
        for d in 0..r {
            let (a, b, s) = (start[d], limit[d], step[d]);
            if s <= 0 || a < 0 || a > b || b > self.shape[d] {
                return None;
            }
            v.shape[d] = (b - a + s - 1) / s;
            v.base += a * self.strides[d];
            v.strides[d] = self.strides[d] * s;
        }
        Some(v)
    }

    /// `stablehlo.transpose` of this view: dim `a` of the result is dim `perm[a]` of this one.
    pub fn transpose(&self, perm: &[usize]) -> Option<View> {
        if !is_permutation(perm, self.shape.len()) {
            return None;
        }
        Some(View { shape: perm.iter().map(|&p| self.shape[p]).collect(), strides: perm.iter().map(|&p| self.strides[p]).collect(), base: self.base })
    }

    /// The view `w` whose `transpose(w, perm)` is this view (a destination walked back through a
    /// transpose).
    pub fn untranspose(&self, perm: &[usize]) -> Option<View> {
        if !is_permutation(perm, self.shape.len()) {
            return None;
        }
        let (mut shape, mut strides) = (vec![0; perm.len()], vec![0; perm.len()]);
        for (a, &p) in perm.iter().enumerate() {
            shape[p] = self.shape[a];
            strides[p] = self.strides[a];
        }
        Some(View { shape, strides, base: self.base })
    }

    /// The same elements, in row-major order, viewed as `shape` when strides can express it (dims
    /// merged only where they are contiguous with each other; splits always work).
    pub fn reshape(&self, shape: &[i64]) -> Option<View> {
        let numel = |s: &[i64]| s.iter().try_fold(1i64, |a, &d| if d < 0 { None } else { a.checked_mul(d) });
        let n = numel(&self.shape)?;
        if n == 0 || numel(shape)? != n {
            return None;
        }
        let old: Vec<(i64, i64)> = self.shape.iter().zip(&self.strides).filter(|(&e, _)| e != 1).map(|(&e, &s)| (e, s)).collect();
        let mut strides = vec![0i64; shape.len()];
        let (mut i, mut j) = (0usize, 0usize);
        while j < shape.len() {
            if shape[j] == 1 {
                j += 1;
                continue;
            }
            let (gi, gj) = (i, j);
            let mut po = old.get(i)?.0;
            let mut pn = shape[j];
            i += 1;
            j += 1;
            while po != pn {
                if po < pn {
                    po *= old.get(i)?.0;
                    i += 1;
                } else {
                    pn *= *shape.get(j)?;
                    j += 1;
                }
            }
            if (gi..i - 1).any(|k| old[k].1 != old[k + 1].1 * old[k + 1].0) {
                return None;
            }
            let mut s = old[i - 1].1;
            for k in (gj..j).rev() {
                strides[k] = s;
                s *= shape[k];
            }
        }
        (i == old.len()).then(|| View { shape: shape.to_vec(), strides, base: self.base })
    }

    /// Whether the innermost dim is contiguous (stride 1, or a single element): reads and writes
    /// through the view move whole runs.
    pub fn innermost_contiguous(&self) -> bool {
        match (self.shape.last(), self.strides.last()) {
            (Some(&e), Some(&s)) => s == 1 || e == 1,
            _ => true,
        }
    }
}

fn is_permutation(perm: &[usize], rank: usize) -> bool {
    let mut seen = vec![false; rank];
    perm.len() == rank && perm.iter().all(|&p| p < rank && !std::mem::replace(&mut seen[p], true))
}

/// One part of a [`ViewCopy`]: every element of `from`'s shape read from `src` through `from` and
/// written to the copy's result through `to` (the same shape).
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub src: Value,
    pub from: View,
    pub to: View,
}

/// A chain of view ops, or a concatenation of such chains, run as one copy at op `head`.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewCopy {
    /// The op whose step runs the copy: the chain's last op, or the concatenation.
    pub head: usize,
    /// The ops whose steps are removed (their values are never computed), ascending.
    pub absorbed: Vec<usize>,
    /// The head's result, written whole by the pieces.
    pub result: Value,
    /// Bytes per element (every piece has the result's element type).
    pub elem_bytes: usize,
    pub pieces: Vec<Piece>,
}

/// The shape and element bytes of a static tensor of a native real element type.
fn static_tensor(func: &Func, v: Value) -> Option<(&[i64], usize)> {
    match func.try_ty(v)? {
        Type::Tensor(t) if t.is_static() && t.encoding.is_none() && native_real_elem(&t.elem) => Some((&t.shape, t.elem.storage_bytes())),
        _ => None,
    }
}

/// A chain of view ops ending at one op: the composed view of `root`, the chain's ops (ascending)
/// and how many of them launch a kernel when run alone (every one but reshapes).
#[derive(Clone)]
struct Chain {
    root: Value,
    view: View,
    ops: Vec<usize>,
    launches: usize,
}

fn i64s(op: &oxhlo_ir::Op, name: &str) -> Option<Vec<i64>> {
    op.attr(name)?.as_i64_list()
}

fn perm_of(op: &oxhlo_ir::Op) -> Option<Vec<usize>> {
    i64s(op, "permutation")?.into_iter().map(|p| usize::try_from(p).ok()).collect()
}

/// `view` with `op` (a slice, reshape or transpose) applied.
fn apply(func: &Func, op: &oxhlo_ir::Op, view: &View) -> Option<View> {
    match op.kind {
        OpKind::Slice => {
            let start = i64s(op, "start_indices")?;
            let limit = i64s(op, "limit_indices")?;
            let step = i64s(op, "strides").unwrap_or_else(|| vec![1; start.len()]);
            view.slice(&start, &limit, &step)
        }
        OpKind::Transpose => view.transpose(&perm_of(op)?),
        OpKind::Reshape => view.reshape(static_tensor(func, *op.results.first()?)?.0),
        _ => None,
    }
}

/// The view copies among `steps` (the plan of `block`) and the steps without the ops they absorbed;
/// `concats`: concatenations of chains too (the GPU writes their pieces in one launch; the CPU, which
/// would first fill the result, copies faster with the concatenation's own contiguous rows).
pub fn plan(func: &Func, block: &Block, steps: Vec<Step>, concats: bool) -> (Vec<Step>, Vec<ViewCopy>) {
    let alone: HashSet<usize> = steps.iter().filter_map(|s| if let Step::Op(i) = s { Some(*i) } else { None }).collect();
    let users = Users::of(block);
    let mut def: HashMap<Value, usize> = HashMap::new();
    for (i, op) in block.ops.iter().enumerate() {
        for &r in &op.results {
            def.insert(r, i);
        }
    }
    // `v` is read once, by op `reader` (and nowhere else: not by a region, not returned).
    let only_reader = |v: Value, reader: usize| users.readers(v) == [reader] && block.ops[reader].operands.iter().filter(|&&x| x == v).count() == 1;
    let is_view_op = |i: usize| {
        let op = &block.ops[i];
        alone.contains(&i)
            && matches!(op.kind, OpKind::Slice | OpKind::Reshape | OpKind::Transpose)
            && op.operands.len() == 1
            && op.results.len() == 1
            && op.regions.is_empty()
            && static_tensor(func, op.operands[0]).is_some()
            && static_tensor(func, op.results[0]).is_some()
    };

    // Every view op's longest chain (ascending: an op's operand chain is known before it).
    let mut chains: HashMap<usize, Chain> = HashMap::new();
    for i in 0..block.ops.len() {
        if !is_view_op(i) {
            continue;
        }
        let op = &block.ops[i];
        let w = op.operands[0];
        let Some((wshape, _)) = static_tensor(func, w) else { continue };
        let launch = usize::from(op.kind != OpKind::Reshape);
        let extended = def.get(&w).filter(|_| only_reader(w, i)).and_then(|u| chains.get(u)).and_then(|c| {
            apply(func, op, &c.view).map(|view| Chain { root: c.root, view, ops: c.ops.iter().copied().chain([i]).collect(), launches: c.launches + launch })
        });
        let chain = extended.or_else(|| apply(func, op, &View::contiguous(wshape)).map(|view| Chain { root: w, view, ops: vec![i], launches: launch }));
        if let Some(c) = chain {
            chains.insert(i, c);
        }
    }

    let mut taken: HashSet<usize> = HashSet::new();
    let mut copies = Vec::new();
    // Concatenations: each operand walked back through reshapes and transposes (views of its place in
    // the result), then read through the view chain that computed it.
    for c in (0..block.ops.len()).rev() {
        let op = &block.ops[c];
        if !concats || op.kind != OpKind::Concatenate || !alone.contains(&c) || op.results.len() != 1 || op.operands.is_empty() {
            continue;
        }
        let Some((out_shape, bytes)) = static_tensor(func, op.results[0]) else { continue };
        let Some(dim) = op.attr("dimension").and_then(|a| a.as_int()).and_then(|d| usize::try_from(d).ok()).filter(|&d| d < out_shape.len()) else { continue };
        let whole = View::contiguous(out_shape);
        let (mut pieces, mut absorbed, mut saved) = (Vec::new(), Vec::new(), 0usize);
        let mut offset = 0i64;
        let mut ok = true;
        for &p in &op.operands {
            let Some((pshape, pbytes)) = static_tensor(func, p) else {
                ok = false;
                break;
            };
            if pbytes != bytes || pshape.len() != out_shape.len() {
                ok = false;
                break;
            }
            let mut to = View { shape: pshape.to_vec(), strides: whole.strides.clone(), base: offset * whole.strides[dim] };
            offset += pshape[dim];
            let (mut cur, mut reader) = (p, c);
            while let Some(&u) = def.get(&cur) {
                if !is_view_op(u) || taken.contains(&u) || !only_reader(cur, reader) {
                    break;
                }
                let uop = &block.ops[u];
                let back = match uop.kind {
                    OpKind::Reshape => static_tensor(func, uop.operands[0]).and_then(|(s, _)| to.reshape(s)),
                    OpKind::Transpose => perm_of(uop).and_then(|perm| to.untranspose(&perm)),
                    _ => None,
                };
                match back {
                    Some(t) if t.innermost_contiguous() => {
                        to = t;
                        absorbed.push(u);
                        saved += usize::from(uop.kind != OpKind::Reshape);
                        cur = uop.operands[0];
                        reader = u;
                    }
                    _ => break,
                }
            }
            let chain = def.get(&cur).filter(|&&u| only_reader(cur, reader) && !taken.contains(&u)).and_then(|u| chains.get(u)).filter(|ch| ch.view.innermost_contiguous() && ch.view.shape == to.shape);
            let (src, from) = match chain {
                Some(ch) => {
                    absorbed.extend(ch.ops.iter().copied());
                    saved += ch.launches;
                    (ch.root, ch.view.clone())
                }
                None => match static_tensor(func, cur) {
                    Some((s, _)) => (cur, View::contiguous(s)),
                    None => {
                        ok = false;
                        break;
                    }
                },
            };
            pieces.push(Piece { src, from, to });
        }
        if ok && saved > 0 {
            absorbed.sort_unstable();
            taken.extend(absorbed.iter().copied());
            taken.insert(c);
            copies.push(ViewCopy { head: c, absorbed, result: op.results[0], elem_bytes: bytes, pieces });
        }
    }
    // Chains of two or more kernels, longest first (a chain's head is its last op).
    let mut heads: Vec<usize> = chains.keys().copied().collect();
    heads.sort_unstable_by(|a, b| b.cmp(a));
    for h in heads {
        let ch = &chains[&h];
        if taken.contains(&h) || ch.launches < 2 || !ch.view.innermost_contiguous() || ch.ops.iter().any(|o| taken.contains(o)) {
            continue;
        }
        let result = block.ops[h].results[0];
        // A rank-0 result is a single element: nothing a copy kernel would save.
        let Some((shape, bytes)) = static_tensor(func, result).filter(|(s, _)| !s.is_empty()) else { continue };
        taken.extend(ch.ops.iter().copied());
        let absorbed: Vec<usize> = ch.ops.iter().copied().filter(|&o| o != h).collect();
        copies.push(ViewCopy { head: h, absorbed, result, elem_bytes: bytes, pieces: vec![Piece { src: ch.root, from: ch.view.clone(), to: View::contiguous(shape) }] });
    }
    let gone: HashSet<usize> = copies.iter().flat_map(|c| c.absorbed.iter().copied()).collect();
    let steps = steps.into_iter().filter(|s| !matches!(s, Step::Op(i) if gone.contains(i))).collect();
    copies.sort_by_key(|c| c.head);
    (steps, copies)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The elements of a row-major buffer holding 0, 1, 2, ... read through `v`, in row-major order.
    fn read(v: &View) -> Vec<i64> {
        let n: i64 = v.shape.iter().product();
        (0..n)
            .map(|mut i| {
                let mut at = v.base;
                for d in (0..v.shape.len()).rev() {
                    at += (i % v.shape[d]) * v.strides[d];
                    i /= v.shape[d];
                }
                at
            })
            .collect()
    }

    /// A dense array (shape, row-major values) and the plain definitions of the ops, written out
    /// independently of the view arithmetic.
    struct Dense(Vec<i64>, Vec<i64>);

    impl Dense {
        fn iota(shape: &[i64]) -> Dense {
            Dense(shape.to_vec(), (0..shape.iter().product()).collect())
        }
        fn at(&self, c: &[i64]) -> i64 {
            let mut i = 0;
            for (d, &x) in c.iter().enumerate() {
                i = i * self.0[d] + x;
            }
            self.1[i as usize]
        }
        fn coords(shape: &[i64]) -> Vec<Vec<i64>> {
            let mut out = vec![vec![]];
            for &e in shape {
                out = out.into_iter().flat_map(|c| (0..e).map(move |x| c.iter().copied().chain([x]).collect())).collect();
            }
            out
        }
        fn transpose(&self, perm: &[usize]) -> Dense {
            let shape: Vec<i64> = perm.iter().map(|&p| self.0[p]).collect();
            let vals = Dense::coords(&shape)
                .iter()
                .map(|c| {
                    let mut src = vec![0; c.len()];
                    for (a, &p) in perm.iter().enumerate() {
                        src[p] = c[a];
                    }
                    self.at(&src)
                })
                .collect();
            Dense(shape, vals)
        }
        fn slice(&self, start: &[i64], limit: &[i64], step: &[i64]) -> Dense {
            let shape: Vec<i64> = (0..start.len()).map(|d| (limit[d] - start[d] + step[d] - 1) / step[d]).collect();
            let vals = Dense::coords(&shape).iter().map(|c| self.at(&c.iter().enumerate().map(|(d, &x)| start[d] + x * step[d]).collect::<Vec<_>>())).collect();
            Dense(shape, vals)
        }
        fn reshape(&self, shape: &[i64]) -> Dense {
            Dense(shape.to_vec(), self.1.clone())
        }
    }

    #[test]
    fn attention_heads_out_of_a_fused_projection() {
        // q = transpose(reshape(slice(qkv)), [0, 2, 1, 3]) for the key third of a [2, 5, 3 * 4 * 3] projection.
        let qkv = Dense::iota(&[2, 5, 36]);
        let want = qkv.slice(&[0, 0, 12], &[2, 5, 24], &[1, 1, 1]).reshape(&[2, 5, 4, 3]).transpose(&[0, 2, 1, 3]);
        let v = View::contiguous(&[2, 5, 36]).slice(&[0, 0, 12], &[2, 5, 24], &[1, 1, 1]).unwrap().reshape(&[2, 5, 4, 3]).unwrap().transpose(&[0, 2, 1, 3]).unwrap();
        assert_eq!(v.shape, want.0);
        assert_eq!(read(&v), want.1);
        assert!(v.innermost_contiguous());
    }

    #[test]
    fn reshapes_split_merge_and_refuse_what_strides_cannot_say() {
        let x = Dense::iota(&[4, 6, 10]);
        // Merging the two outer dims of a transposed view that keeps them adjacent and contiguous.
        let t = View::contiguous(&[4, 6, 10]).transpose(&[2, 0, 1]).unwrap();
        let merged = t.reshape(&[10, 24]).unwrap();
        assert_eq!(read(&merged), x.transpose(&[2, 0, 1]).reshape(&[10, 24]).1);
        // Splits and unit dims anywhere.
        let split = t.reshape(&[2, 5, 1, 4, 3, 2, 1]).unwrap();
        assert_eq!(read(&split), x.transpose(&[2, 0, 1]).reshape(&[2, 5, 1, 4, 3, 2, 1]).1);
        // A strided slice then a split of its strided dim.
        let s = View::contiguous(&[4, 6, 10]).slice(&[1, 0, 0], &[4, 6, 10], &[1, 2, 1]).unwrap();
        let want = x.slice(&[1, 0, 0], &[4, 6, 10], &[1, 2, 1]);
        assert_eq!(read(&s.reshape(&[3, 3, 2, 5]).unwrap()), want.reshape(&[3, 3, 2, 5]).1);
        // Merging dims that are not contiguous with each other has no view.
        assert_eq!(View::contiguous(&[4, 6, 10]).transpose(&[0, 2, 1]).unwrap().reshape(&[4, 60]), None);
        assert_eq!(s.reshape(&[3, 30]), None);
    }

    #[test]
    fn a_destination_walked_back_through_a_transpose_and_a_reshape() {
        // out = concat([a', b'], dim 2) with a' = reshape(transpose(a, [0, 2, 1, 3]), [2, 5, 12]);
        // a has shape [2, 4, 5, 3]: where does a[c] land in out ([2, 5, 24])?
        let out_view = View { shape: vec![2, 5, 12], strides: View::contiguous(&[2, 5, 24]).strides, base: 12 };
        let to = out_view.reshape(&[2, 5, 4, 3]).unwrap().untranspose(&[0, 2, 1, 3]).unwrap();
        assert_eq!(to.shape, vec![2, 4, 5, 3]);
        // The reference: out's positions 0..240 as a dense array, the second half of the last dim
        // reshaped and transposed back.
        let positions = Dense::iota(&[2, 5, 24]).slice(&[0, 0, 12], &[2, 5, 24], &[1, 1, 1]).reshape(&[2, 5, 4, 3]).transpose(&[0, 2, 1, 3]);
        assert_eq!(read(&to), positions.1);
        assert!(to.innermost_contiguous());
    }
}
