//! Collectives on threads meeting at one Rendezvous: the spec's examples, and failure modes that must
//! error instead of hanging.

use crate::harness::*;
use oxhlo_interp::collectives::Rendezvous;
use oxhlo_interp::ops::collective_ops as co;
use oxhlo_interp::ops::ProcessInfo;
use oxhlo_interp::RtValue;
use oxhlo_ir::{Attr, DenseElements, ElementType, OpKind, TensorType};

fn groups(rows: &[&[i64]]) -> Attr {
    let cols = rows.first().map(|r| r.len()).unwrap_or(0);
    let flat: Vec<i64> = rows.iter().flat_map(|r| r.iter().copied()).collect();
    Attr::Dense(DenseElements::from_i64s(TensorType::new(vec![rows.len() as i64, cols as i64], ElementType::I64), &flat).unwrap())
}

fn proc(r: u32, nr: u32) -> ProcessInfo {
    ProcessInfo { replica_id: r, partition_id: 0, num_replicas: nr, num_partitions: 1 }
}

type Job = Box<dyn FnOnce(ProcessInfo, &Rendezvous) -> Result<Vec<RtValue>, String> + Send>;

/// Runs one job per replica on its own thread; a failing job poisons the rendezvous, a finishing one
/// marks itself finished (as the parallel runner does).
fn grid(jobs: Vec<Job>) -> Vec<Result<Vec<RtValue>, String>> {
    let n = jobs.len() as u32;
    let rv = Rendezvous::new(n, 1);
    std::thread::scope(|s| {
        let hs: Vec<_> = jobs
            .into_iter()
            .enumerate()
            .map(|(i, j)| {
                let rv = &rv;
                s.spawn(move || {
                    let r = j(proc(i as u32, n), rv);
                    match &r {
                        Ok(_) => rv.finish((i as u32, 0)),
                        Err(e) => rv.poison((i as u32, 0), e),
                    }
                    r
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

fn all_reduce_job(x: RtValue) -> Job {
    Box::new(move |p, rv| {
        run_op_in(
            p,
            Some(rv),
            co::eval_all_reduce,
            OpKind::AllReduce,
            vec![("replica_groups", groups(&[&[0, 1]]))],
            vec![x],
            vec![tt(&[4], ElementType::I64)],
            vec![add_body()],
        )
    })
}

#[test]
fn all_reduce_spec_example() {
    let out = grid(vec![all_reduce_job(i64s(&[4], &[1, 2, 3, 4])), all_reduce_job(i64s(&[4], &[5, 6, 7, 8]))]);
    for o in out {
        assert_eq!(ints(&o.unwrap()[0]), vec![6, 8, 10, 12]);
    }
}

#[test]
fn all_gather_and_all_to_all_and_reduce_scatter() {
    let gather = |x: RtValue| -> Job {
        Box::new(move |p, rv| {
            run_op_in(
                p,
                Some(rv),
                co::eval_all_gather,
                OpKind::AllGather,
                vec![("all_gather_dim", int(1)), ("replica_groups", groups(&[&[0, 1]]))],
                vec![x],
                vec![tt(&[2, 4], ElementType::I64)],
                vec![],
            )
        })
    };
    let out = grid(vec![gather(i64s(&[2, 2], &[1, 2, 3, 4])), gather(i64s(&[2, 2], &[5, 6, 7, 8]))]);
    for o in out {
        assert_eq!(ints(&o.unwrap()[0]), vec![1, 2, 5, 6, 3, 4, 7, 8]);
    }
    let a2a = |x: RtValue| -> Job {
        Box::new(move |p, rv| {
            run_op_in(
                p,
                Some(rv),
                co::eval_all_to_all,
                OpKind::AllToAll,
                vec![
                    ("split_dimension", int(1)),
                    ("concat_dimension", int(0)),
                    ("split_count", int(2)),
                    ("replica_groups", groups(&[&[0, 1]])),
                ],
                vec![x],
                vec![tt(&[4, 2], ElementType::I64)],
                vec![],
            )
        })
    };
    let out = grid(vec![a2a(i64s(&[2, 4], &[1, 2, 3, 4, 5, 6, 7, 8])), a2a(i64s(&[2, 4], &[9, 10, 11, 12, 13, 14, 15, 16]))]);
    assert_eq!(ints(&out[0].as_ref().unwrap()[0]), vec![1, 2, 5, 6, 9, 10, 13, 14]);
    assert_eq!(ints(&out[1].as_ref().unwrap()[0]), vec![3, 4, 7, 8, 11, 12, 15, 16]);
    let rs = || -> Job {
        Box::new(move |p, rv| {
            run_op_in(
                p,
                Some(rv),
                co::eval_reduce_scatter,
                OpKind::ReduceScatter,
                vec![("scatter_dimension", int(1)), ("replica_groups", groups(&[&[0, 1]]))],
                vec![i64s(&[2, 4], &[1, 2, 3, 4, 5, 6, 7, 8])],
                vec![tt(&[2, 2], ElementType::I64)],
                vec![add_body()],
            )
        })
    };
    let out = grid(vec![rs(), rs()]);
    assert_eq!(ints(&out[0].as_ref().unwrap()[0]), vec![2, 4, 10, 12]);
    assert_eq!(ints(&out[1].as_ref().unwrap()[0]), vec![6, 8, 14, 16]);
}

#[test]
fn collective_permute_and_broadcast() {
    let perm = |x: RtValue| -> Job {
        Box::new(move |p, rv| {
            run_op_in(
                p,
                Some(rv),
                co::eval_collective_permute,
                OpKind::CollectivePermute,
                vec![("source_target_pairs", groups(&[&[0, 1], &[1, 2]]))],
                vec![x],
                vec![tt(&[2], ElementType::I64)],
                vec![],
            )
        })
    };
    let out = grid(vec![perm(i64s(&[2], &[1, 2])), perm(i64s(&[2], &[3, 4])), perm(i64s(&[2], &[5, 6]))]);
    assert_eq!(ints(&out[0].as_ref().unwrap()[0]), vec![0, 0]);
    assert_eq!(ints(&out[1].as_ref().unwrap()[0]), vec![1, 2]);
    assert_eq!(ints(&out[2].as_ref().unwrap()[0]), vec![3, 4]);
    let bc = |x: RtValue| -> Job {
        Box::new(move |p, rv| {
            run_op_in(
                p,
                Some(rv),
                co::eval_collective_broadcast,
                OpKind::CollectiveBroadcast,
                vec![("replica_groups", groups(&[&[2, 1]]))],
                vec![x],
                vec![tt(&[2], ElementType::I64)],
                vec![],
            )
        })
    };
    let out = grid(vec![bc(i64s(&[2], &[1, 2])), bc(i64s(&[2], &[3, 4])), bc(i64s(&[2], &[5, 6]))]);
    assert_eq!(ints(&out[0].as_ref().unwrap()[0]), vec![0, 0]);
    assert_eq!(ints(&out[1].as_ref().unwrap()[0]), vec![5, 6]);
    assert_eq!(ints(&out[2].as_ref().unwrap()[0]), vec![5, 6]);
}

#[test]
fn failed_or_missing_process_errors_instead_of_hanging() {
    // Replica 1 fails before joining.
    let fail: Job = Box::new(|_, _| Err("boom".into()));
    let out = grid(vec![all_reduce_job(i64s(&[4], &[1, 2, 3, 4])), fail]);
    assert!(out[0].as_ref().unwrap_err().contains("boom"), "{:?}", out[0]);
    // Replica 1 returns without joining.
    let skip: Job = Box::new(|_, _| Ok(vec![]));
    let out = grid(vec![all_reduce_job(i64s(&[4], &[1, 2, 3, 4])), skip]);
    assert!(out[0].as_ref().unwrap_err().contains("without joining"), "{:?}", out[0]);
    // Replicas run different collectives: a deadlock, reported to both.
    let gather: Job = Box::new(|p, rv| {
        run_op_in(
            p,
            Some(rv),
            co::eval_all_gather,
            OpKind::AllGather,
            vec![("all_gather_dim", int(0)), ("replica_groups", groups(&[&[0, 1]]))],
            vec![i64s(&[4], &[1, 2, 3, 4])],
            vec![tt(&[8], ElementType::I64)],
            vec![],
        )
    });
    let out = grid(vec![all_reduce_job(i64s(&[4], &[1, 2, 3, 4])), gather]);
    assert!(out.iter().all(|o| o.is_err()), "{out:?}");
}

#[test]
fn single_process_collective_is_identity() {
    let r = run_op(
        co::eval_all_reduce,
        OpKind::AllReduce,
        vec![("replica_groups", groups(&[&[0]]))],
        vec![i64s(&[2], &[3, 4])],
        vec![tt(&[2], ElementType::I64)],
        vec![add_body()],
    )
    .unwrap();
    assert_eq!(ints(&r[0]), vec![3, 4]);
}
