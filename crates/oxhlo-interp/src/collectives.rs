//! Cross-process exchange for collective ops (all_reduce, all_gather, ...): processes of the replicas x
//! partitions grid run on threads and meet here.

/// The meeting point shared by all processes of one parallel run.
#[derive(Debug, Default)]
pub struct Rendezvous {}
