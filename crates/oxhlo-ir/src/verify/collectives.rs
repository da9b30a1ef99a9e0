//! Distribution and side effects: all_gather, all_reduce (and collective_reduce), all_to_all,
//! reduce_scatter, collective_permute, collective_broadcast, cross-replica-sum with their replica groups
//! and channels; send, recv, infeed, outfeed, after_all, create_token with their tokens; replica_id and
//! partition_id. Group sizes are checked against `mhlo.num_replicas` / `mhlo.num_partitions` only when
//! the module declares them.

use crate::attr::Attr;
use crate::body::Op;
use crate::ops::OpKind;
use crate::types::{ElementType, TensorType, Type, DYN};
use crate::verify::cx::{elem_compatible, Cx, Matrix};
use crate::verify::fmt;
use crate::verify::regions::check_body;
use crate::verify::shape::shapes_compatible;

rules! {
    GROUPS_UNIQUE = "collective.replica_groups_unique": "all values in replica_groups are unique";
    GROUPS_RANGE = "collective.replica_groups_range": "0 <= replica_groups[i] < size(replica_groups) (-1 only pads)";
    GROUPS_SIZE = "collective.replica_groups_size": "size(replica_groups) is the number of replicas / processes the module declares";
    GLOBAL_IDS = "collective.use_global_device_ids": "use_global_device_ids = true requires channel_id > 0";
    SAME_TYPE = "collective.same_type": "the result has the operand's type (all_reduce C6, collective_permute C5, ...)";
    COMPUTATION = "collective.computation": "computation has type (tensor<E>, tensor<E>) -> tensor<E> for the operand element type E";
    ALL_GATHER_DIM = "all_gather.dim": "0 <= all_gather_dim < rank(operand) (C1)";
    ALL_GATHER_RESULT = "all_gather.result": "the result is the operand with all_gather_dim scaled by the group size (C6)";
    A2A_DIMS = "all_to_all.dims": "split_dimension and concat_dimension are in [0, rank(operand)) (C1, C3)";
    A2A_SPLIT_COUNT = "all_to_all.split_count": "split_count > 0 (C4)";
    A2A_DIVIDES = "all_to_all.split_divides": "dim(operand, split_dimension) % split_count = 0 (C2)";
    A2A_GROUP_SIZE = "all_to_all.group_size": "every replica group has split_count members";
    A2A_RESULT = "all_to_all.result": "the result splits split_dimension and concatenates concat_dimension by split_count (C8)";
    RS_DIM = "reduce_scatter.dim": "0 <= scatter_dimension < rank(operand) (C2)";
    RS_DIVIDES = "reduce_scatter.divides": "dim(operand, scatter_dimension) % group size = 0 (C1)";
    RS_RESULT = "reduce_scatter.result": "the result is the operand with scatter_dimension divided by the group size (C8)";
    PERMUTE_PAIRS = "collective_permute.pairs": "source_target_pairs has shape [N, 2] (C1)";
    PERMUTE_UNIQUE = "collective_permute.unique": "sources are unique and targets are unique (C2, C3)";
    PERMUTE_RANGE = "collective_permute.range": "0 <= sources, targets < the number of replicas / partitions (C4)";
    IO_TOKEN = "io.token": "the token comes last: infeed/recv end their results with a token, send/outfeed their operands";
    CHANNEL_TYPE = "send_recv.channel_type": "channel type is DEVICE_TO_HOST (send) / HOST_TO_DEVICE (recv) iff is_host_transfer (C1)";
    PROCESS_ID = "process_id.result": "replica_id and partition_id return tensor<ui32>";
}

/// The channel id (`channel_handle` or `channel_id`; 0 when absent).
fn channel_id(op: &Op) -> i64 {
    match op.attr("channel_handle").or_else(|| op.attr("channel_id")) {
        Some(Attr::ChannelHandle { handle, .. }) => *handle,
        Some(a) => a.as_int().unwrap_or(0),
        None => 0,
    }
}

fn module_count(cx: &Cx, name: &str) -> Option<i64> {
    cx.m.attr(name).and_then(Attr::as_int)
}

/// Checks a replica-group matrix: unique ids covering `[0, n)` (-1 pads), `n` equal to `expected` when known.
fn check_groups(cx: &mut Cx, op: &Op, name: &str, m: &Matrix, expected: Option<i64>) {
    let ids: Vec<i64> = m.data.iter().copied().filter(|&v| v != -1).collect();
    let n = ids.len() as i64;
    if let Some(&bad) = ids.iter().find(|&&v| v < 0 || v >= n) {
        cx.fail(op, GROUPS_RANGE, format!("{name} value {bad} is out of range [0, {n})"));
        return;
    }
    if !crate::verify::shape::is_unique(&ids) {
        cx.fail(op, GROUPS_UNIQUE, format!("{name} values {} are not unique", fmt::list(&ids)));
        return;
    }
    if let Some(e) = expected {
        if n != 0 && n != e {
            cx.fail(op, GROUPS_SIZE, format!("{name} has {n} ids but the module has {e} processes in this grouping"));
        }
    }
}

/// How the process grid splits, from `channel_id` and `use_global_device_ids`.
#[derive(Clone, Copy, PartialEq)]
enum Strategy {
    CrossReplica,
    CrossReplicaAndPartition,
    FlattenedIds,
}

/// Reads and checks the replica groups of all_gather / all_reduce / reduce_scatter; returns the size of one
/// process group when known.
fn grouped<'a>(cx: &mut Cx<'a>, op: &'a Op, required: bool) -> Option<i64> {
    let groups = replica_groups(cx, op, required);
    let global = cx.attr_bool(op, "use_global_device_ids", false).unwrap_or(false);
    let ch = channel_id(op);
    if global && ch <= 0 {
        cx.fail(op, GLOBAL_IDS, format!("use_global_device_ids requires a positive channel_id, got {ch}"));
    }
    let strategy = match (ch > 0, global) {
        (false, _) => Strategy::CrossReplica,
        (true, false) => Strategy::CrossReplicaAndPartition,
        (true, true) => Strategy::FlattenedIds,
    };
    let replicas = module_count(cx, "mhlo.num_replicas");
    let partitions = module_count(cx, "mhlo.num_partitions");
    let expected = match strategy {
        Strategy::FlattenedIds => replicas.zip(partitions).map(|(r, p)| r.saturating_mul(p)).or(if partitions.is_none() { replicas } else { None }),
        _ => replicas,
    };
    let m = groups?;
    check_groups(cx, op, "replica_groups", &m, expected);
    let cols = if m.rows.saturating_mul(m.cols) == 0 { expected? } else { m.cols as i64 };
    // cross_replica_and_partition groups hold every partition of the listed replicas: their size is only
    // known when the module declares its partition count (a run_parallel grid may have several).
    if strategy == Strategy::CrossReplicaAndPartition {
        return partitions.map(|p| cols.saturating_mul(p));
    }
    Some(cols)
}

fn same_types(cx: &mut Cx, op: &Op, ins: &[&TensorType], outs: &[&TensorType]) {
    if ins.len() != outs.len()
        || ins.iter().zip(outs).any(|(a, b)| !elem_compatible(&a.elem, &b.elem) || !shapes_compatible(&a.shape, &b.shape))
    {
        cx.fail(op, SAME_TYPE, format!("results ({}) must have the operand types ({})", fmt::tensors(outs), fmt::tensors(ins)));
    }
}

/// Checks `(tensor<E>, tensor<E>) -> tensor<E>` for every operand's element type `E` (a variadic
/// collective applies its one computation to each operand).
fn computation<'a>(cx: &mut Cx<'a>, op: &'a Op, ins: &[&TensorType]) {
    let mut seen: Vec<&ElementType> = Vec::new();
    for t in ins {
        if seen.contains(&&t.elem) {
            continue;
        }
        seen.push(&t.elem);
        let e = Type::tensor(&[], t.elem.clone());
        let before = cx.out.len();
        check_body(cx, op, 0, COMPUTATION, "computation", &[e.clone(), e.clone()], &[e]);
        if cx.out.len() != before {
            return;
        }
    }
}

/// `replica_groups` as a matrix; None without a report for the mesh-axes form
/// (`#stablehlo.replica_group_mesh_axes<...>`, kept opaque: its groups are worked out by the interpreter).
fn replica_groups<'a>(cx: &mut Cx<'a>, op: &'a Op, required: bool) -> Option<crate::verify::cx::Matrix> {
    if let Some(crate::attr::Attr::Opaque(t)) = op.attr("replica_groups") {
        if t.starts_with("#stablehlo.replica_group_mesh_axes") {
            return None;
        }
    }
    cx.attr_matrix(op, "replica_groups", required)
}

fn operands_results<'a>(cx: &mut Cx<'a>, op: &'a Op) -> Option<(Vec<&'a TensorType>, Vec<&'a TensorType>)> {
    let n = op.operands.len();
    let (Some(ins), Some(outs)) = (cx.tensor_opds(op, 0..n), cx.tensor_results(op)) else { return None };
    if ins.len() != outs.len() {
        cx.fail(op, SAME_TYPE, format!("{} operands but {} results", ins.len(), outs.len()));
        return None;
    }
    Some((ins, outs))
}

fn in_rank(cx: &mut Cx, op: &Op, rule: crate::verify::Rule, name: &str, d: i64, t: &TensorType) -> bool {
    if d < 0 || d as u64 >= t.rank() as u64 {
        cx.fail(op, rule, format!("{name} {d} is out of range [0, {})", t.rank()));
        return false;
    }
    true
}

/// `want` with dimension `d` replaced by `size`.
fn with_dim(shape: &[i64], d: usize, size: i64) -> Vec<i64> {
    let mut s = shape.to_vec();
    if let Some(x) = s.get_mut(d) {
        *x = size;
    }
    s
}

fn expect_shape(cx: &mut Cx, op: &Op, rule: crate::verify::Rule, k: usize, r: &TensorType, x: &TensorType, want: &[i64]) {
    if !elem_compatible(&r.elem, &x.elem) || !shapes_compatible(&r.shape, want) {
        cx.fail(op, rule, format!("result #{k} type {} must be tensor<{}x{}>", fmt::tensor(r), fmt::shape(want), fmt::elem(&x.elem)));
    }
}

pub(crate) fn all_gather<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dim = cx.attr_int(op, "all_gather_dim", true);
    let group = grouped(cx, op, true);
    let Some((ins, outs)) = operands_results(cx, op) else { return };
    let Some(dim) = dim else { return };
    for (k, (x, r)) in ins.iter().zip(&outs).enumerate() {
        if !in_rank(cx, op, ALL_GATHER_DIM, "all_gather_dim", dim, x) {
            return;
        }
        let d = dim as usize;
        let size = match (x.shape[d], group) {
            (DYN, _) | (_, None) => DYN,
            (s, Some(g)) => s.saturating_mul(g),
        };
        expect_shape(cx, op, ALL_GATHER_RESULT, k, r, x, &with_dim(&x.shape, d, size));
    }
}

pub(crate) fn all_reduce<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    grouped(cx, op, op.kind == OpKind::AllReduce);
    let Some((ins, outs)) = operands_results(cx, op) else { return };
    same_types(cx, op, &ins, &outs);
    computation(cx, op, &ins);
}

pub(crate) fn reduce_scatter<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let dim = cx.attr_int(op, "scatter_dimension", true);
    let group = grouped(cx, op, true);
    let Some((ins, outs)) = operands_results(cx, op) else { return };
    computation(cx, op, &ins);
    let Some(dim) = dim else { return };
    for (k, (x, r)) in ins.iter().zip(&outs).enumerate() {
        if !in_rank(cx, op, RS_DIM, "scatter_dimension", dim, x) {
            return;
        }
        let d = dim as usize;
        let size = match (x.shape[d], group) {
            (DYN, _) | (_, None) | (_, Some(0)) => DYN,
            (s, Some(g)) => {
                if s % g != 0 {
                    cx.fail(op, RS_DIVIDES, format!("scatter dimension size {s} is not divisible by the group size {g}"));
                    return;
                }
                s / g
            }
        };
        expect_shape(cx, op, RS_RESULT, k, r, x, &with_dim(&x.shape, d, size));
    }
}

pub(crate) fn all_to_all<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let split = cx.attr_int(op, "split_dimension", true);
    let concat = cx.attr_int(op, "concat_dimension", true);
    let count = cx.attr_int(op, "split_count", true);
    let groups = replica_groups(cx, op, true);
    let expected = if channel_id(op) > 0 { module_count(cx, "mhlo.num_partitions") } else { module_count(cx, "mhlo.num_replicas") };
    if let Some(m) = &groups {
        check_groups(cx, op, "replica_groups", m, expected);
    }
    let Some(count) = count else { return };
    if count <= 0 {
        cx.fail(op, A2A_SPLIT_COUNT, format!("split_count {count} must be positive"));
        return;
    }
    if let Some(m) = &groups {
        if m.cols != 0 && m.cols as i64 != count {
            cx.fail(op, A2A_GROUP_SIZE, format!("replica groups have {} members but split_count is {count}", m.cols));
        }
    }
    let Some((ins, outs)) = operands_results(cx, op) else { return };
    let (Some(split), Some(concat)) = (split, concat) else { return };
    for (k, (x, r)) in ins.iter().zip(&outs).enumerate() {
        if !in_rank(cx, op, A2A_DIMS, "split_dimension", split, x) || !in_rank(cx, op, A2A_DIMS, "concat_dimension", concat, x) {
            return;
        }
        let (s, c) = (split as usize, concat as usize);
        let mut want = x.shape.clone();
        if want[s] != DYN {
            if want[s] % count != 0 {
                cx.fail(op, A2A_DIVIDES, format!("split dimension size {} is not divisible by split_count {count}", want[s]));
                return;
            }
            want[s] /= count;
        }
        if want[c] != DYN {
            want[c] = want[c].saturating_mul(count);
        }
        expect_shape(cx, op, A2A_RESULT, k, r, x, &want);
    }
}

pub(crate) fn collective_permute<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let pairs = cx.attr_matrix(op, "source_target_pairs", true);
    if let Some(m) = pairs {
        if m.rows.saturating_mul(m.cols) != 0 && m.cols != 2 {
            cx.fail(op, PERMUTE_PAIRS, format!("source_target_pairs must have shape [N, 2], got [{}, {}]", m.rows, m.cols));
        } else {
            let sources: Vec<i64> = (0..m.rows).filter_map(|r| m.row(r).first().copied()).collect();
            let targets: Vec<i64> = (0..m.rows).filter_map(|r| m.row(r).get(1).copied()).collect();
            let n = if channel_id(op) > 0 { module_count(cx, "mhlo.num_partitions") } else { module_count(cx, "mhlo.num_replicas") };
            if !crate::verify::shape::is_unique(&sources) || !crate::verify::shape::is_unique(&targets) {
                cx.fail(op, PERMUTE_UNIQUE, format!("sources {} and targets {} must each be unique", fmt::list(&sources), fmt::list(&targets)));
            } else if let Some(&bad) = m.data.iter().find(|&&v| v < 0 || n.is_some_and(|n| v >= n)) {
                cx.fail(op, PERMUTE_RANGE, format!("process id {bad} in source_target_pairs is out of range [0, {})", n.map(|n| n.to_string()).unwrap_or_else(|| "N".into())));
            }
        }
    }
    let Some((ins, outs)) = operands_results(cx, op) else { return };
    same_types(cx, op, &ins, &outs);
}

pub(crate) fn collective_broadcast<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let groups = replica_groups(cx, op, true);
    if let Some(m) = groups {
        let ids: Vec<i64> = m.data.iter().copied().filter(|&v| v != -1).collect();
        let n = if channel_id(op) > 0 { module_count(cx, "mhlo.num_partitions") } else { module_count(cx, "mhlo.num_replicas") };
        if !crate::verify::shape::is_unique(&ids) {
            cx.fail(op, GROUPS_UNIQUE, format!("replica_groups values {} are not unique", fmt::list(&ids)));
        } else if let Some(&bad) = ids.iter().find(|&&v| v < 0 || n.is_some_and(|n| v >= n)) {
            cx.fail(op, GROUPS_RANGE, format!("replica_groups value {bad} is out of range"));
        }
    }
    // `has_dynamic_root` (newer upstream form): the last operand is the root index tensor, one index per
    // data operand; the data operands and the results pair up as usual.
    let dynamic_root = op.attr("has_dynamic_root").is_some_and(|a| !matches!(a, crate::attr::Attr::Bool(false)));
    let n = op.operands.len().saturating_sub(usize::from(dynamic_root));
    let (Some(ins), Some(outs)) = (cx.tensor_opds(op, 0..n), cx.tensor_results(op)) else { return };
    same_types(cx, op, &ins, &outs);
}

pub(crate) fn cross_replica_sum<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    if let Some(m) = cx.attr_matrix(op, "replica_groups", false) {
        let expected = module_count(cx, "mhlo.num_replicas");
        check_groups(cx, op, "replica_groups", &m, expected);
    }
    let Some((ins, outs)) = operands_results(cx, op) else { return };
    same_types(cx, op, &ins, &outs);
}

/// Tokens of send, recv, infeed, outfeed, after_all and create_token; send/recv channel types.
pub(crate) fn io<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let last_is_token = |t: Option<&Type>| matches!(t, Some(Type::Token | Type::Opaque(_)));
    match op.kind {
        OpKind::Infeed | OpKind::Recv => {
            let n = op.results.len();
            if !last_is_token(n.checked_sub(1).and_then(|i| cx.res(op, i))) {
                cx.fail(op, IO_TOKEN, format!("the last result must be a !stablehlo.token, got ({})", fmt::opt_tys(cx.res_tys(op).into_iter())));
            }
            cx.token_opd(op, 0);
        }
        OpKind::Send | OpKind::Outfeed => {
            let n = op.operands.len();
            if !last_is_token(n.checked_sub(1).and_then(|i| cx.opd(op, i))) {
                cx.fail(op, IO_TOKEN, format!("the last operand must be a !stablehlo.token, got ({})", fmt::opt_tys(cx.opd_tys(op).into_iter())));
            }
            cx.token_res(op, 0);
        }
        OpKind::AfterAll => {
            for i in 0..op.operands.len() {
                cx.token_opd(op, i);
            }
            cx.token_res(op, 0);
        }
        _ => cx.token_res(op, 0),
    }
    if matches!(op.kind, OpKind::Send | OpKind::Recv) {
        let host = cx.attr_bool(op, "is_host_transfer", false).unwrap_or(false);
        if let Some(Attr::ChannelHandle { kind, .. }) = op.attr("channel_handle") {
            let want = match (op.kind, host) {
                (OpKind::Send, true) => 2,
                (OpKind::Recv, true) => 3,
                _ => 1,
            };
            let names = ["CHANNEL_TYPE_INVALID", "DEVICE_TO_DEVICE", "DEVICE_TO_HOST", "HOST_TO_DEVICE"];
            if *kind != 0 && *kind != want {
                let got = usize::try_from(*kind).ok().and_then(|k| names.get(k)).copied().unwrap_or("unknown");
                cx.fail(op, CHANNEL_TYPE, format!("channel type {got} ({kind}) must be {} when is_host_transfer = {host}", names[want as usize]));
            }
        }
    }
}

pub(crate) fn process_id<'a>(cx: &mut Cx<'a>, op: &'a Op) {
    let Some(r) = cx.tensor_res(op, 0) else { return };
    if r.rank() != 0 || r.elem != ElementType::uint(32) {
        cx.fail(op, PROCESS_ID, format!("result must be tensor<ui32>, got {}", fmt::tensor(r)));
    }
}
