//! The collectives: all_reduce, all_gather, reduce_scatter, all_to_all, collective_permute,
//! collective_broadcast, collective_reduce and the old cross-replica-sum, with the spec's process-group rules:
//! - all_reduce / all_gather / reduce_scatter: no channel (handle <= 0) -> cross_replica(replica_groups);
//!   a channel without use_global_device_ids -> cross_replica_and_partition; with it -> flattened_ids.
//! - all_to_all / collective_permute / collective_broadcast: no channel -> cross_replica, a channel ->
//!   cross_partition.
//!
//! Empty replica_groups mean one group of every replica (partition, process); `-1` entries pad groups.
//! Reductions fold the group's contributions in group order starting from the first (every member
//! computes the same fold, so all members agree bit for bit). Outside a parallel run (no rendezvous) a
//! collective whose group is just this process returns its own contribution.

use crate::ops::support::*;
use crate::ops::OpCtx;
use crate::collectives::ProcessId;
use crate::tensor::{Data, RtValue, Tensor};
use oxhlo_ir::{Attr, ElementType, Region, TensorType};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    CrossReplica,
    CrossPartition,
    CrossReplicaAndPartition,
    FlattenedIds,
}

fn me(ctx: &OpCtx) -> ProcessId {
    let p = ctx.regions.process();
    (p.replica_id, p.partition_id)
}

fn channel_id(ctx: &OpCtx) -> i64 {
    match ctx.op.attr("channel_handle") {
        Some(Attr::ChannelHandle { handle, .. }) => *handle,
        Some(a) => a.as_int().unwrap_or(0),
        None => 0,
    }
}

/// A 2-D integer attribute as rows (`-1` padding dropped).
fn groups_attr(ctx: &OpCtx, name: &str) -> Result<Vec<Vec<i64>>, String> {
    let Some(a) = ctx.op.attr(name) else { return Ok(Vec::new()) };
    if let Attr::Opaque(text) = a {
        if text.starts_with("#stablehlo.replica_group_mesh_axes") {
            return mesh_axes_groups(text);
        }
    }
    let flat = a.as_i64_list().ok_or_else(|| format!("`{name}` must be a 2-D integer tensor"))?;
    let cols = match a {
        Attr::Dense(d) if d.ty.shape.len() == 2 => d.ty.shape[1].max(0) as usize,
        Attr::Dense(d) if d.ty.shape.len() == 1 => d.ty.shape[0].max(0) as usize,
        _ => flat.len(),
    };
    if cols == 0 {
        return Ok(Vec::new());
    }
    Ok(flat.chunks(cols).map(|r| r.iter().copied().filter(|&x| x >= 0).collect()).collect())
}

/// One `#stablehlo.mesh_axis<name = "x", size = 2>` or `#stablehlo.axis_ref<name = "y"[, sub_axis_info = (p)s]>`.
fn mesh_items<'t>(text: &'t str, tag: &str) -> Vec<&'t str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(tag) {
        let body = &rest[i + tag.len()..];
        let end = body.find('>').unwrap_or(body.len());
        out.push(&body[..end]);
        rest = &body[end..];
    }
    out
}

fn quoted_name(item: &str) -> Option<&str> {
    let i = item.find("name = \"")? + "name = \"".len();
    let j = item[i..].find('"')?;
    Some(&item[i..i + j])
}

fn number_after<'t>(item: &'t str, key: &str) -> Option<&'t str> {
    let i = item.find(key)? + key.len();
    let tail = item[i..].trim_start();
    let end = tail.find(|c: char| !c.is_ascii_digit()).unwrap_or(tail.len());
    Some(&tail[..end])
}

/// One axis (or sub-axis) of a mesh that a replica-group selection names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshAxisRef {
    pub name: String,
    /// A sub-axis in Shardy's `(pre_size)size` notation: `pre_size` is the product of the sub-axes more
    /// major than it within the axis, `size` its own size. `None` selects the whole axis.
    pub sub_axis: Option<(i64, i64)>,
}

/// The explicit replica groups of a mesh-axes selection: the devices of the mesh `axes` (name, size;
/// first axis most major), at row-major position `d` with id `device_ids[d]` (or `d` when `device_ids`
/// is empty), fall into groups that differ only along the `selected` (sub-)axes. Groups come in the order
/// of their first device; a group lists its members in row-major order of the selected axes.
pub fn mesh_axis_groups(axes: &[(String, i64)], device_ids: &[i64], selected: &[MeshAxisRef]) -> Result<Vec<Vec<i64>>, String> {
    if axes.iter().any(|(_, n)| *n <= 0) {
        return Err("the mesh axes must have positive sizes".into());
    }
    // Each selected (sub-)axis as (mesh axis index, minor stride within the axis coordinate, size).
    let mut sel = Vec::with_capacity(selected.len());
    for a in selected {
        let name = &a.name;
        let k = axes
            .iter()
            .position(|(n, _)| n == name)
            .ok_or_else(|| format!("replica groups name axis \"{name}\", which the mesh does not have"))?;
        let axis = axes[k].1;
        sel.push(match a.sub_axis {
            None => (k, 1, axis),
            Some((pre, size)) => {
                if pre <= 0 || size <= 0 || axis % (pre * size) != 0 {
                    return Err(format!("sub-axis ({pre}){size} does not divide axis {name} of size {axis}"));
                }
                (k, axis / (pre * size), size)
            }
        });
    }
    let total = axes.iter().try_fold(1i64, |acc, (_, n)| acc.checked_mul(*n)).filter(|&t| t <= 1 << 20);
    let total = total.ok_or("the mesh has too many devices")?;
    if !device_ids.is_empty() && device_ids.len() as i64 != total {
        return Err(format!("the mesh has {total} devices but {} device ids", device_ids.len()));
    }
    // (coordinates with the selected axes zeroed, members as (position along the selected axes, device))
    type Group = (Vec<i64>, Vec<(i64, i64)>);
    let mut groups: Vec<Group> = Vec::new();
    for d in 0..total {
        let mut coords = vec![0i64; axes.len()];
        let mut r = d;
        for (k, (_, n)) in axes.iter().enumerate().rev() {
            coords[k] = r % n;
            r /= n;
        }
        let mut key = coords.clone();
        let mut pos = 0i64;
        for &(k, minor, size) in &sel {
            let v = (coords[k] / minor) % size;
            key[k] -= v * minor;
            pos = pos * size + v;
        }
        let dev = if device_ids.is_empty() { d } else { device_ids[d as usize] };
        match groups.iter_mut().find(|(kk, _)| *kk == key) {
            Some((_, members)) => members.push((pos, dev)),
            None => groups.push((key, vec![(pos, dev)])),
        }
    }
    Ok(groups
        .into_iter()
        .map(|(_, mut m)| {
            m.sort();
            m.into_iter().map(|(_, d)| d).collect()
        })
        .collect())
}

/// `replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [...]>, axes = [...]>`
/// with the mesh given inline: [`mesh_axis_groups`] over the row-major device numbering.
fn mesh_axes_groups(text: &str) -> Result<Vec<Vec<i64>>, String> {
    let bad = || format!("cannot read replica_groups {text}");
    let mesh: Vec<(String, i64)> = mesh_items(text, "mesh_axis<")
        .into_iter()
        .map(|it| Some((quoted_name(it)?.to_string(), number_after(it, "size =")?.parse::<i64>().ok()?)))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    if mesh.is_empty() || mesh.iter().any(|(_, n)| *n <= 0) {
        return Err(format!("replica_groups {text}: the mesh must be given inline with positive axis sizes"));
    }
    let mut selected = Vec::new();
    for it in mesh_items(text, "axis_ref<") {
        let name = quoted_name(it).ok_or_else(bad)?.to_string();
        let sub_axis = match it.find("sub_axis_info") {
            None => None,
            Some(i) => {
                let info = &it[i..];
                let pre: i64 = number_after(info, "(").and_then(|v| v.parse().ok()).ok_or_else(bad)?;
                let size: i64 = number_after(info, ")").and_then(|v| v.parse().ok()).ok_or_else(bad)?;
                Some((pre, size))
            }
        };
        selected.push(MeshAxisRef { name, sub_axis });
    }
    mesh_axis_groups(&mesh, &[], &selected).map_err(|e| format!("replica_groups: {e}"))
}

/// The process group of this process under `mode`.
fn my_group(ctx: &OpCtx, mode: Mode, groups: &[Vec<i64>]) -> Result<Vec<ProcessId>, String> {
    let p = ctx.regions.process();
    let (nr, np) = (p.num_replicas as i64, p.num_partitions as i64);
    let (r, q) = (p.replica_id as i64, p.partition_id as i64);
    let all = |n: i64| vec![(0..n).collect::<Vec<i64>>()];
    let default = match mode {
        Mode::CrossReplica | Mode::CrossReplicaAndPartition => all(nr),
        Mode::CrossPartition => all(np),
        Mode::FlattenedIds => all(nr * np),
    };
    let groups = if groups.is_empty() { default.as_slice() } else { groups };
    let mine = match mode {
        Mode::CrossReplica | Mode::CrossReplicaAndPartition => r,
        Mode::CrossPartition => q,
        Mode::FlattenedIds => r * np + q,
    };
    let g = groups
        .iter()
        .find(|g| g.contains(&mine))
        .ok_or_else(|| format!("process (replica {r}, partition {q}) is in no process group of {groups:?}"))?;
    let limit = match mode {
        Mode::CrossReplica | Mode::CrossReplicaAndPartition => nr,
        Mode::CrossPartition => np,
        Mode::FlattenedIds => nr * np,
    };
    if let Some(bad) = g.iter().find(|&&x| x >= limit) {
        return Err(format!("process group id {bad} is out of range (limit {limit})"));
    }
    let id = |x: i64| x as u32;
    Ok(match mode {
        Mode::CrossReplica => g.iter().map(|&x| (id(x), id(q))).collect(),
        Mode::CrossPartition => g.iter().map(|&x| (id(r), id(x))).collect(),
        Mode::CrossReplicaAndPartition => (0..np).flat_map(|pp| g.iter().map(move |&x| (id(x), id(pp)))).collect(),
        Mode::FlattenedIds => g.iter().map(|&x| (id(x / np.max(1)), id(x % np.max(1)))).collect(),
    })
}

fn reduce_mode(ctx: &OpCtx) -> Mode {
    match (channel_id(ctx) > 0, flag(ctx, "use_global_device_ids")) {
        (false, _) => Mode::CrossReplica,
        (true, false) => Mode::CrossReplicaAndPartition,
        (true, true) => Mode::FlattenedIds,
    }
}

fn move_mode(ctx: &OpCtx) -> Mode {
    if channel_id(ctx) > 0 {
        Mode::CrossPartition
    } else {
        Mode::CrossReplica
    }
}

/// Exchanges `value` within `group`; every member's contribution in group order.
fn exchange(ctx: &OpCtx, tag: &str, group: &[ProcessId], value: Vec<RtValue>) -> Result<Vec<Vec<RtValue>>, String> {
    let me = me(ctx);
    if group == [me] {
        return Ok(vec![value]);
    }
    match ctx.regions.collectives() {
        Some(r) => r.exchange(me, tag, group, value),
        None => Err(format!("{tag} across {} processes needs a parallel run (interpreter.run_parallel or num_replicas/num_partitions)", group.len())),
    }
}

fn tensors(args: &[RtValue]) -> Result<Vec<&Tensor>, String> {
    (0..args.len()).map(|i| tensor_arg(args, i)).collect()
}

fn as_tensor(v: &RtValue) -> Result<&Tensor, String> {
    match v {
        RtValue::Tensor(t) => Ok(t),
        other => Err(format!("collectives exchange tensors, got {}", value_kind(other))),
    }
}

/// Elementwise fold of `parts` (same shape) with the computation region.
fn fold(ctx: &mut OpCtx, region: &Region, parts: &[&Tensor]) -> Result<Tensor, String> {
    let first = parts.first().ok_or("nothing to reduce")?;
    let mut acc = (*first).clone();
    let elem = acc.ty.elem.clone();
    let fast = fast_binary_region(ctx.func, region, &elem);
    for p in &parts[1..] {
        if p.shape() != acc.shape() || p.elem() != &elem {
            return Err(format!("contributions differ in type: {:?} vs {:?}", p.ty, acc.ty));
        }
        for i in 0..acc.len() {
            match fast {
                Some(k) => fast_combine(k, &elem, &mut acc.data, i, &p.data, i)?,
                None => {
                    let out = ctx.regions.call_region(region, &[scalar_value(&acc, i), scalar_value(p, i)])?;
                    let d = region_scalar(out.first().ok_or("computation returned nothing")?, "computation")?;
                    set_from(&mut acc.data, i, &d)?;
                }
            }
        }
    }
    Ok(acc)
}

/// Concatenates tensors along `dim`.
fn concat_along(parts: &[&Tensor], dim: usize) -> Result<(Vec<i64>, Data), String> {
    let first = parts.first().ok_or("nothing to concatenate")?;
    let rank = first.shape().len();
    if dim >= rank {
        return Err(format!("dimension {dim} out of range for rank {rank}"));
    }
    let mut shape = first.shape().to_vec();
    shape[dim] = parts.iter().map(|t| t.shape()[dim]).sum();
    let outer: usize = ushape(&shape[..dim]).iter().product();
    let inner: usize = ushape(&shape[dim + 1..]).iter().product();
    let mut offs = Vec::new();
    let mut acc = 0;
    for t in parts {
        if t.shape().len() != rank || t.elem() != first.elem() {
            return Err("contributions differ in rank or element type".into());
        }
        offs.push(acc);
        acc += t.len();
    }
    let mut idx = Vec::with_capacity(elem_count(&shape)?);
    for o in 0..outer {
        for (t, &off) in parts.iter().zip(&offs) {
            let chunk = t.shape()[dim] as usize * inner;
            idx.extend(off + o * chunk..off + (o + 1) * chunk);
        }
    }
    let all = concat_data(&parts.iter().map(|t| &t.data).collect::<Vec<_>>())?;
    Ok((shape, take(&all, &idx)))
}

/// Part `k` of `n` equal parts of `t` along `dim`.
fn split_part(t: &Tensor, dim: usize, n: usize, k: usize) -> Result<Tensor, String> {
    let size = *t.shape().get(dim).ok_or("split dimension out of range")? as usize;
    if n == 0 || !size.is_multiple_of(n) {
        return Err(format!("dimension {dim} of size {size} does not split into {n} parts"));
    }
    let part = size / n;
    let mut shape = t.shape().to_vec();
    shape[dim] = part as i64;
    let st = istrides(t.shape());
    let idx = strided_indices(&ushape(&shape), &st, (k * part) as isize * st[dim]);
    Ok(Tensor { ty: TensorType::new(shape, t.elem().clone()), data: take(&t.data, &idx) })
}

fn finish(ctx: &OpCtx, outs: Vec<Tensor>) -> Result<Vec<RtValue>, String> {
    outs.into_iter()
        .enumerate()
        .map(|(i, t)| {
            let ty = refine_result_type(ctx, i, t.shape())?;
            Ok(tv(ty, t.data))
        })
        .collect()
}

fn all_reduce_impl(ctx: &mut OpCtx, args: &[RtValue], tag: &str) -> Result<Vec<Tensor>, String> {
    let groups = groups_attr(ctx, "replica_groups")?;
    let group = my_group(ctx, reduce_mode(ctx), &groups)?;
    let got = exchange(ctx, tag, &group, args.to_vec())?;
    let region = ctx.op.regions.first().ok_or("missing computation region")?;
    let mut outs = Vec::with_capacity(args.len());
    for i in 0..args.len() {
        let parts: Vec<&Tensor> = got.iter().map(|c| c.get(i).ok_or("contribution count differs".to_string()).and_then(as_tensor)).collect::<Result<_, _>>()?;
        outs.push(fold(ctx, region, &parts)?);
    }
    Ok(outs)
}

pub fn eval_all_reduce(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    tensors(args)?;
    let outs = all_reduce_impl(ctx, args, "all_reduce")?;
    finish(ctx, outs)
}

/// The old `cross-replica-sum`: an all_reduce with addition.
pub fn eval_cross_replica_sum(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let ts = tensors(args)?;
    let groups = groups_attr(ctx, "replica_groups")?;
    let group = my_group(ctx, Mode::CrossReplica, &groups)?;
    let got = exchange(ctx, "cross-replica-sum", &group, args.to_vec())?;
    let elem: ElementType = ts.first().ok_or("missing operand")?.elem().clone();
    let mut acc = as_tensor(&got[0][0])?.clone();
    for c in &got[1..] {
        let p = as_tensor(&c[0])?;
        for i in 0..acc.len() {
            fast_combine(FastBin::Add, &elem, &mut acc.data, i, &p.data, i)?;
        }
    }
    finish(ctx, vec![acc])
}

pub fn eval_reduce_scatter(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    tensors(args)?;
    let dim = req_int(ctx, "scatter_dimension")?;
    let groups = groups_attr(ctx, "replica_groups")?;
    let group = my_group(ctx, reduce_mode(ctx), &groups)?;
    let k = group.iter().position(|&p| p == me(ctx)).ok_or("process not in its group")?;
    let reduced = all_reduce_impl(ctx, args, "reduce_scatter")?;
    let mut outs = Vec::with_capacity(reduced.len());
    for t in &reduced {
        let d = dims_in(&[dim], t.shape().len(), "scatter_dimension")?[0];
        outs.push(split_part(t, d, group.len(), k)?);
    }
    finish(ctx, outs)
}

pub fn eval_all_gather(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    tensors(args)?;
    let dim = req_int(ctx, "all_gather_dim")?;
    let groups = groups_attr(ctx, "replica_groups")?;
    let group = my_group(ctx, reduce_mode(ctx), &groups)?;
    let got = exchange(ctx, "all_gather", &group, args.to_vec())?;
    let mut outs = Vec::with_capacity(args.len());
    for i in 0..args.len() {
        let parts: Vec<&Tensor> = got.iter().map(|c| c.get(i).ok_or("contribution count differs".to_string()).and_then(as_tensor)).collect::<Result<_, _>>()?;
        let d = dims_in(&[dim], parts[0].shape().len(), "all_gather_dim")?[0];
        let (shape, data) = concat_along(&parts, d)?;
        outs.push(Tensor { ty: TensorType::new(shape, parts[0].elem().clone()), data });
    }
    finish(ctx, outs)
}

pub fn eval_all_to_all(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    tensors(args)?;
    let split_dim = req_int(ctx, "split_dimension")?;
    let concat_dim = req_int(ctx, "concat_dimension")?;
    let split_count = req_int(ctx, "split_count")?;
    let groups = groups_attr(ctx, "replica_groups")?;
    let group = my_group(ctx, move_mode(ctx), &groups)?;
    if split_count as usize != group.len() {
        return Err(format!("split_count {split_count} differs from the process group size {}", group.len()));
    }
    let k = group.iter().position(|&p| p == me(ctx)).ok_or("process not in its group")?;
    let got = exchange(ctx, "all_to_all", &group, args.to_vec())?;
    let mut outs = Vec::with_capacity(args.len());
    for i in 0..args.len() {
        let mut parts = Vec::with_capacity(group.len());
        for c in &got {
            let t = as_tensor(c.get(i).ok_or("contribution count differs")?)?;
            let sd = dims_in(&[split_dim], t.shape().len(), "split_dimension")?[0];
            parts.push(split_part(t, sd, group.len(), k)?);
        }
        let refs: Vec<&Tensor> = parts.iter().collect();
        let cd = dims_in(&[concat_dim], refs[0].shape().len(), "concat_dimension")?[0];
        let (shape, data) = concat_along(&refs, cd)?;
        outs.push(Tensor { ty: TensorType::new(shape, refs[0].elem().clone()), data });
    }
    finish(ctx, outs)
}

/// Every process of this process's domain (all replicas of its partition, or all partitions of its replica).
fn domain_group(ctx: &OpCtx, mode: Mode) -> Vec<ProcessId> {
    let p = ctx.regions.process();
    match mode {
        Mode::CrossPartition => (0..p.num_partitions).map(|q| (p.replica_id, q)).collect(),
        _ => (0..p.num_replicas).map(|r| (r, p.partition_id)).collect(),
    }
}

fn zeros_like(t: &Tensor) -> Result<Tensor, String> {
    Tensor::zeros(t.ty.clone())
}

pub fn eval_collective_permute(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let x = tensor_arg(args, 0)?;
    let mode = move_mode(ctx);
    let pairs = groups_attr(ctx, "source_target_pairs")?;
    let group = domain_group(ctx, mode);
    let mine = if mode == Mode::CrossPartition { me(ctx).1 } else { me(ctx).0 } as i64;
    for p in &pairs {
        if p.len() != 2 || p.iter().any(|&v| v as usize >= group.len()) {
            return Err(format!("invalid source_target_pair {p:?} for {} processes", group.len()));
        }
    }
    let got = exchange(ctx, "collective_permute", &group, vec![args[0].clone()])?;
    let out = match pairs.iter().find(|p| p[1] == mine) {
        Some(p) => as_tensor(&got[p[0] as usize][0])?.clone(),
        None => zeros_like(x)?,
    };
    finish(ctx, vec![out])
}

pub fn eval_collective_broadcast(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    // With `has_dynamic_root` the last operand holds, per data operand, the index within the process
    // group of the process whose value is broadcast; otherwise the source is the group's first process.
    let dynamic_root = flag(ctx, "has_dynamic_root");
    let n = if dynamic_root { args.len().checked_sub(1).filter(|&n| n > 0).ok_or("has_dynamic_root needs data operands and a root operand")? } else { args.len() };
    let data = &args[..n];
    let roots: Vec<usize> = if dynamic_root {
        let r = tensor_arg(args, n)?;
        let idx: Vec<i64> = match &r.data {
            Data::Int(v) => v.clone(),
            Data::UInt(v) => v.iter().map(|&x| x as i64).collect(),
            _ => return Err("the root operand must be an integer tensor".into()),
        };
        (0..n)
            .map(|i| idx.get(i).or(idx.first()).copied().ok_or_else(|| "empty root operand".to_string()))
            .map(|v| v.and_then(|v| usize::try_from(v).map_err(|_| format!("negative root index {v}"))))
            .collect::<Result<_, _>>()?
    } else {
        vec![0; n]
    };
    let xs = tensors(data)?;
    let mode = move_mode(ctx);
    let groups = groups_attr(ctx, "replica_groups")?;
    let group = match my_group(ctx, mode, &groups) {
        Ok(g) => g,
        Err(_) if !groups.is_empty() => return finish(ctx, xs.into_iter().map(zeros_like).collect::<Result<_, _>>()?),
        Err(e) => return Err(e),
    };
    let got = exchange(ctx, "collective_broadcast", &group, data.to_vec())?;
    let mut outs = Vec::with_capacity(n);
    for (i, &root) in roots.iter().enumerate() {
        let from = got.get(root).ok_or_else(|| format!("root index {root} is outside the process group of {}", group.len()))?;
        outs.push(as_tensor(from.get(i).ok_or("contribution count differs")?)?.clone());
    }
    finish(ctx, outs)
}

/// `stablehlo.collective_reduce` (newer upstream op, stablehlo/tests/interpret/collective_reduce.mlir):
/// reduces like all_reduce within each process group (same group rules), but only the group's root,
/// its first process, receives the reduction; every other member gets zeros.
pub fn eval_collective_reduce(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    tensors(args)?;
    let groups = groups_attr(ctx, "replica_groups")?;
    let group = my_group(ctx, reduce_mode(ctx), &groups)?;
    let outs = all_reduce_impl(ctx, args, "collective_reduce")?;
    let outs = if group.first() == Some(&me(ctx)) { outs } else { outs.iter().map(zeros_like).collect::<Result<_, _>>()? };
    finish(ctx, outs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(name: &str, sub_axis: Option<(i64, i64)>) -> MeshAxisRef {
        MeshAxisRef { name: name.into(), sub_axis }
    }

    #[test]
    fn mesh_axis_groups_by_axis_sub_axis_and_device_ids() {
        let mesh = vec![("x".to_string(), 2), ("y".to_string(), 4)];
        // Devices differing only along y: the rows of the 2 x 4 grid.
        assert_eq!(mesh_axis_groups(&mesh, &[], &[axis("y", None)]).unwrap(), vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
        assert_eq!(mesh_axis_groups(&mesh, &[], &[axis("x", None)]).unwrap(), vec![vec![0, 4], vec![1, 5], vec![2, 6], vec![3, 7]]);
        // Members in row-major order of the selected axes: (y, x) lists y-major.
        assert_eq!(mesh_axis_groups(&mesh, &[], &[axis("y", None), axis("x", None)]).unwrap(), vec![vec![0, 4, 1, 5, 2, 6, 3, 7]]);
        // y = (1)2 is y's major half: devices whose y differs by 2.
        assert_eq!(
            mesh_axis_groups(&mesh, &[], &[axis("y", Some((1, 2)))]).unwrap(),
            vec![vec![0, 2], vec![1, 3], vec![4, 6], vec![5, 7]]
        );
        // Device ids map row-major positions to ids.
        let ids = [7, 6, 5, 4, 3, 2, 1, 0];
        assert_eq!(mesh_axis_groups(&mesh, &ids, &[axis("x", None)]).unwrap(), vec![vec![7, 3], vec![6, 2], vec![5, 1], vec![4, 0]]);
        assert_eq!(mesh_axis_groups(&[], &[0], &[]).unwrap(), vec![vec![0]]);
        assert!(mesh_axis_groups(&mesh, &[], &[axis("z", None)]).is_err());
        assert!(mesh_axis_groups(&mesh, &[], &[axis("y", Some((3, 2)))]).is_err());
        assert!(mesh_axis_groups(&mesh, &[1, 2], &[]).is_err());
    }
}
