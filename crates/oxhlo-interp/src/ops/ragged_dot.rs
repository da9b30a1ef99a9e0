//! `chlo.ragged_dot(lhs, rhs, group_sizes)`: a dot_general whose lhs has one ragged dimension split into
//! consecutive groups of `group_sizes[..., g]` elements. The mode follows from where the ragged dimension
//! sits in lhs (as JAX's `ragged_dot_general` defines it, `jax/_src/lax/lax.py`):
//!
//! 1. non-contracting: `[b,m,k] x [g,b,k,n] -> [b,m,n]`; row `m` of group `g` is multiplied with `rhs[g]`
//!    (rows past the last group give zeros);
//! 2. contracting: `[b,m,k] x [b,k,n] -> [g,b,m,n]`; result `g` contracts only the `k` of group `g`;
//! 3. batch: `[b,m,k] x [b,k,n] -> [b,m,n]`, a plain dot_general.
//!
//! `group_sizes` has shape `[G]`, or `[prefix..., G]` where the prefix is the lhs batch dimensions followed
//! by the lhs non-contracting (mode 1) or contracting (mode 2) dimensions before the ragged one. The
//! evaluation is JAX's reference decomposition: the ragged operand(s) are expanded to `[G, ...]` with the
//! elements outside each group zeroed, then one dot_general contracts (mode 1) or batches (mode 2) over
//! the group dimension. Numerics are dot_general's (see `dot.rs`).

use crate::ops::dot::dot_general_impl;
use crate::ops::support::{dequantized, index_values, next_index, take_or_fill, tensor_arg, FILL};
use crate::ops::OpCtx;
use crate::tensor::{Data, RtValue, Tensor};
use oxhlo_ir::attr::DotDims;
use oxhlo_ir::Attr;

/// The fields of `#chlo.ragged_dot<...>`.
#[derive(Debug, Default, PartialEq)]
struct RaggedDims {
    dot: DotDims,
    lhs_ragged: Vec<i64>,
    rhs_group: Vec<i64>,
}

/// The integer list after `name =` in the attribute text (absent: empty).
fn field(text: &str, name: &str) -> Result<Vec<i64>, String> {
    let mut from = 0;
    while let Some(p) = text[from..].find(name) {
        let at = from + p;
        from = at + name.len();
        let before_ok = text[..at].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let rest = text[from..].trim_start();
        if !before_ok || !rest.starts_with('=') {
            continue;
        }
        let rest = rest[1..].trim_start();
        let body = rest.strip_prefix('[').and_then(|r| r.find(']').map(|e| &r[..e]));
        let body = body.ok_or_else(|| format!("`{name}` must be a list `[...]`"))?;
        return body
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.parse::<i64>().map_err(|_| format!("`{name}`: `{s}` is not an integer")))
            .collect();
    }
    Ok(Vec::new())
}

fn parse_dims(a: Option<&Attr>) -> Result<RaggedDims, String> {
    let list = |a: Option<&Attr>, name: &str| -> Result<Vec<i64>, String> {
        match a {
            None => Ok(Vec::new()),
            Some(a) => a.as_i64_list().ok_or_else(|| format!("`{name}` must be a list of integers")),
        }
    };
    let get = |name: &str| -> Result<Vec<i64>, String> {
        match a {
            Some(Attr::Opaque(text)) => field(text, name),
            Some(Attr::Dict(items)) => list(items.iter().find(|n| n.0 == name).map(|n| &n.1), name),
            Some(_) => Err("`ragged_dot_dimension_numbers` must be #chlo.ragged_dot<...>".into()),
            None => Err("missing attribute `ragged_dot_dimension_numbers`".into()),
        }
    };
    Ok(RaggedDims {
        dot: DotDims {
            lhs_batching_dimensions: get("lhs_batching_dimensions")?,
            rhs_batching_dimensions: get("rhs_batching_dimensions")?,
            lhs_contracting_dimensions: get("lhs_contracting_dimensions")?,
            rhs_contracting_dimensions: get("rhs_contracting_dimensions")?,
        },
        lhs_ragged: get("lhs_ragged_dimensions")?,
        rhs_group: get("rhs_group_dimensions")?,
    })
}

/// Checked conversion of dimension numbers of an operand of rank `rank`.
fn dims(v: &[i64], rank: usize, what: &str) -> Result<Vec<usize>, String> {
    v.iter()
        .map(|&d| usize::try_from(d).ok().filter(|&d| d < rank).ok_or_else(|| format!("{what} dimension {d} out of range for rank {rank}")))
        .collect()
}

/// Dimensions of a rank-`rank` operand that are neither batch nor contracting, in order.
fn free(rank: usize, batch: &[usize], contract: &[usize]) -> Vec<usize> {
    (0..rank).filter(|d| !batch.contains(d) && !contract.contains(d)).collect()
}

fn zero_of(d: &Data) -> Data {
    match d {
        Data::Bool(_) => Data::Bool(vec![false]),
        Data::Int(_) => Data::Int(vec![0]),
        Data::UInt(_) => Data::UInt(vec![0]),
        Data::Float(_) => Data::Float(vec![0.0]),
        Data::Complex(_) => Data::Complex(vec![(0.0, 0.0)]),
    }
}

fn incr(v: &[usize]) -> Vec<i64> {
    v.iter().map(|&d| d as i64 + 1).collect()
}

/// The group sizes as rows of `g` values, one row per prefix position (one row for a `[G]` operand).
struct Groups {
    sizes: Vec<i64>,
    /// The shape of the prefix (empty when the sizes are shared by every prefix position).
    prefix_shape: Vec<i64>,
    g: usize,
}

/// `x` expanded to `[G] + x.shape`: copy `g` keeps the elements whose coordinate along `dim` lies in
/// group `g` of the sizes row picked by the coordinates at `prefix` (zeros elsewhere).
fn expand(x: &Tensor, dim: usize, groups: &Groups, prefix: &[usize]) -> Result<Tensor, String> {
    let shape: Vec<usize> = x.shape().iter().map(|&d| d.max(0) as usize).collect();
    if !groups.prefix_shape.is_empty() {
        let want: Vec<i64> = prefix.iter().map(|&a| x.shape()[a]).collect();
        if want != groups.prefix_shape {
            return Err(format!("group_sizes has prefix shape {:?}, expected {want:?}", groups.prefix_shape));
        }
    }
    let g = groups.g;
    // Group boundaries per sizes row: bounds[row * (g + 1) + i] = sum of the first i sizes.
    let mut bounds = Vec::with_capacity(groups.sizes.len() + groups.sizes.len() / g.max(1) + 1);
    for row in groups.sizes.chunks(g.max(1)) {
        bounds.push(0i64);
        let mut acc = 0i64;
        for &s in row {
            acc = acc.saturating_add(s);
            bounds.push(acc);
        }
    }
    let n = x.len();
    let mut idx = Vec::with_capacity(n.saturating_mul(g));
    for gi in 0..g {
        let mut at = vec![0usize; shape.len()];
        for flat in 0..n {
            let row = prefix.iter().zip(&groups.prefix_shape).fold(0usize, |acc, (&a, &s)| acc * s as usize + at[a]);
            let (start, end) = (bounds[row * (g + 1) + gi], bounds[row * (g + 1) + gi + 1]);
            let c = at[dim] as i64;
            idx.push(if start <= c && c < end { flat } else { FILL });
            next_index(&mut at, &shape);
        }
    }
    let data = take_or_fill(&x.data, &idx, &zero_of(&x.data))?;
    let mut ty = x.ty.clone();
    ty.shape.insert(0, g as i64);
    ty.encoding = None;
    Ok(Tensor { ty, data })
}

/// The prefix dimensions of JAX's `_ragged_dot_prefix_dims`: batch dims, then the dims of `group` before
/// `ragged`.
fn prefix_dims(batch: &[usize], group: &[usize], ragged: usize) -> Vec<usize> {
    let mut p = batch.to_vec();
    p.extend(group.iter().take_while(|&&d| d != ragged));
    p
}

/// `chlo.ragged_dot` (see the module docs).
pub fn eval_ragged_dot(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let lhs = dequantized(tensor_arg(args, 0)?)?;
    let rhs = dequantized(tensor_arg(args, 1)?)?;
    let gs = tensor_arg(args, 2)?;
    let rd = parse_dims(ctx.op.attr("ragged_dot_dimension_numbers"))?;
    let (lr, rr) = (lhs.shape().len(), rhs.shape().len());
    let lb = dims(&rd.dot.lhs_batching_dimensions, lr, "lhs batching")?;
    let rb = dims(&rd.dot.rhs_batching_dimensions, rr, "rhs batching")?;
    let lc = dims(&rd.dot.lhs_contracting_dimensions, lr, "lhs contracting")?;
    let rc = dims(&rd.dot.rhs_contracting_dimensions, rr, "rhs contracting")?;
    let ragged = match dims(&rd.lhs_ragged, lr, "lhs ragged")?.as_slice() {
        [d] => *d,
        other => return Err(format!("expected exactly one lhs ragged dimension, got {}", other.len())),
    };
    let rg = dims(&rd.rhs_group, rr, "rhs group")?;
    if gs.shape().is_empty() {
        return Err("group_sizes must have rank >= 1".into());
    }
    let g_len = *gs.shape().last().unwrap_or(&0);
    let groups = Groups {
        sizes: index_values(gs)?,
        prefix_shape: gs.shape()[..gs.shape().len() - 1].to_vec(),
        g: usize::try_from(g_len).map_err(|_| "group_sizes has a dynamic group count")?,
    };
    let lf = free(lr, &lb, &lc);
    if lf.contains(&ragged) {
        // Mode 1: ragged non-contracting dimension; one rhs group dimension.
        let [rgd] = rg.as_slice() else {
            return Err("a ragged non-contracting dimension needs exactly one rhs group dimension".into());
        };
        if rb.contains(rgd) || rc.contains(rgd) {
            return Err("the rhs group dimension must not be a batching or contracting dimension".into());
        }
        if rhs.shape()[*rgd] != g_len {
            return Err(format!("rhs group dimension has size {}, group_sizes has {g_len} groups", rhs.shape()[*rgd]));
        }
        let prefix = prefix_dims(&lb, &lf, ragged);
        let x = expand(&lhs, ragged, &groups, &prefix)?;
        let mut lcon = incr(&lc);
        lcon.push(0);
        let mut rcon = rd.dot.rhs_contracting_dimensions.clone();
        rcon.push(*rgd as i64);
        let dd = DotDims {
            lhs_batching_dimensions: incr(&lb),
            rhs_batching_dimensions: rd.dot.rhs_batching_dimensions.clone(),
            lhs_contracting_dimensions: lcon,
            rhs_contracting_dimensions: rcon,
        };
        return dot_general_impl(ctx, &x, &rhs, &dd);
    }
    if !rg.is_empty() {
        return Err("a ragged contracting or batch dimension takes no rhs group dimension".into());
    }
    if let Some(pos) = lc.iter().position(|&d| d == ragged) {
        // Mode 2: ragged contracting dimension; both operands are expanded with the same groups.
        let r_ragged = *rc.get(pos).ok_or("lhs and rhs contracting dimension lists differ in length")?;
        let x = expand(&lhs, ragged, &groups, &prefix_dims(&lb, &lc, ragged))?;
        let y = expand(&rhs, r_ragged, &groups, &prefix_dims(&rb, &rc, r_ragged))?;
        let with_group = |v: &[usize]| std::iter::once(0).chain(incr(v)).collect::<Vec<i64>>();
        let dd = DotDims {
            lhs_batching_dimensions: with_group(&lb),
            rhs_batching_dimensions: with_group(&rb),
            lhs_contracting_dimensions: incr(&lc),
            rhs_contracting_dimensions: incr(&rc),
        };
        return dot_general_impl(ctx, &x, &y, &dd);
    }
    // Mode 3: ragged batch dimension, a plain dot_general.
    dot_general_impl(ctx, &lhs, &rhs, &rd.dot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_attribute_text() {
        let t = "#chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], \
                 lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2], \
                 lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>";
        let d = parse_dims(Some(&Attr::Opaque(t.into()))).unwrap();
        assert_eq!(d.dot.lhs_batching_dimensions, vec![0]);
        assert_eq!(d.dot.rhs_batching_dimensions, vec![1]);
        assert_eq!(d.dot.rhs_contracting_dimensions, vec![2]);
        assert_eq!(d.lhs_ragged, vec![1]);
        assert_eq!(d.rhs_group, vec![0]);
        let e = parse_dims(Some(&Attr::Opaque("#chlo.ragged_dot<lhs_ragged_dimensions = [0]>".into()))).unwrap();
        assert!(e.dot.lhs_batching_dimensions.is_empty() && e.rhs_group.is_empty());
        assert!(parse_dims(Some(&Attr::Opaque("#chlo.ragged_dot<lhs_ragged_dimensions = [x]>".into()))).is_err());
        assert!(parse_dims(None).is_err());
    }
}
