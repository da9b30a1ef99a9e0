//! Splitting a loop-fusion group that would make a kernel of too many parameters
//! ([`crate::fusion::FusionOptions::max_params`]). Grouping joins an op to the group of any operand of its
//! shape, so chains that share nothing but a broadcast of a small value (an optimizer's learning rate
//! and moment factors after CSE) end up in one group: Adam's update of every same-shaped parameter of a
//! GPT made one kernel of 112 inputs and 78 outputs, whose NVRTC compilation alone took 2-3 s and whose
//! 4-wide loads need far more registers than a thread has. Here the group's ops are split into the parts
//! that are connected through values other than broadcasts; a broadcast read by several parts is left
//! out of them (a step of its own, which `recompute` folds back into each reader), one read by a single
//! part stays in it. Parts are then packed, in program order, into kernels of at most `max_params`
//! inputs + outputs (a part larger than that alone stays whole).

use crate::fusion::{build_kernel_in, Users};
use oxhlo_ir::{Block, Func, OpKind, Value};
use std::collections::HashMap;

/// The op groups `ops` (ascending) is split into, and the broadcasts left out of every group.
pub(crate) fn split_group(func: &Func, block: &Block, ops: &[usize], max_params: usize, users: &Users) -> (Vec<Vec<usize>>, Vec<usize>) {
    let params = |ops: &[usize]| {
        let k = build_kernel_in(func, block, ops, users);
        k.inputs.len() + k.outputs.len()
    };
    if max_params == 0 || ops.len() < 2 || params(ops) <= max_params {
        return (vec![ops.to_vec()], Vec::new());
    }
    // Union-find over the group's ops, joined through non-broadcast producers.
    let pos: HashMap<usize, usize> = ops.iter().enumerate().map(|(p, &i)| (i, p)).collect();
    let producer: HashMap<Value, usize> = ops.iter().flat_map(|&i| block.ops[i].results.iter().map(move |&r| (r, i))).collect();
    let mut parent: Vec<usize> = (0..ops.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let is_bcast = |i: usize| block.ops[i].kind == OpKind::BroadcastInDim;
    for &i in ops {
        for a in &block.ops[i].operands {
            if let Some(&p) = producer.get(a) {
                if !is_bcast(p) {
                    let (x, y) = (root(&mut parent, pos[&i]), root(&mut parent, pos[&p]));
                    parent[x] = y;
                }
            }
        }
    }
    // A broadcast joins the part of its readers when there is one, else is left out.
    let mut left_out = Vec::new();
    for &b in ops.iter().filter(|&&i| is_bcast(i)) {
        let r = block.ops[b].results[0];
        let readers: Vec<usize> = ops.iter().copied().filter(|&i| block.ops[i].operands.contains(&r)).collect();
        let mut roots: Vec<usize> = readers.iter().map(|&i| root(&mut parent, pos[&i])).collect();
        roots.sort_unstable();
        roots.dedup();
        let used_outside = block.ops.iter().enumerate().any(|(i, op)| !pos.contains_key(&i) && op.operands.contains(&r));
        match roots.as_slice() {
            [only] if !used_outside => {
                let x = root(&mut parent, pos[&b]);
                parent[x] = *only;
            }
            [] => {}
            _ => left_out.push(b),
        }
    }
    let mut parts: Vec<Vec<usize>> = Vec::new();
    let mut part_of_root: HashMap<usize, usize> = HashMap::new();
    for &i in ops {
        if left_out.contains(&i) {
            continue;
        }
        let r = root(&mut parent, pos[&i]);
        let p = *part_of_root.entry(r).or_insert_with(|| {
            parts.push(Vec::new());
            parts.len() - 1
        });
        parts[p].push(i);
    }
    // Pack parts in program order while the kernel stays within the limit.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for part in parts {
        if let Some(last) = groups.last_mut() {
            let mut merged: Vec<usize> = last.iter().chain(&part).copied().collect();
            merged.sort_unstable();
            if params(&merged) <= max_params {
                *last = merged;
                continue;
            }
        }
        groups.push(part);
    }
    (groups, left_out)
}
