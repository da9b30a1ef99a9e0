//! Op implementations, one module per op family. Each family function takes an [`OpCtx`] (the op, its
//! function, result types, and a way to run regions and reach the other processes) plus its evaluated
//! operands, and returns the results, or an error message (the evaluator adds op name and location).
//!
//! Contract: `fn eval(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String>` per op or family.

use crate::tensor::RtValue;
use oxhlo_ir::{Func, Op, Region, Type};

/// Runs regions (reduction bodies, comparators, loop bodies) and gives access to the process grid.
pub trait RegionEval {
    /// Runs a single-block region with the given block arguments and returns what its terminator returns.
    fn call_region(&mut self, region: &Region, args: &[RtValue]) -> Result<Vec<RtValue>, String>;
    /// Calls a function of the module by name.
    fn call_func(&mut self, name: &str, args: &[RtValue]) -> Result<Vec<RtValue>, String>;
    /// This process's (replica_id, partition_id) and the grid's (num_replicas, num_partitions).
    fn process(&self) -> ProcessInfo;
    /// The cross-process exchange for collectives (None when running a single process).
    fn collectives(&self) -> Option<&crate::collectives::Rendezvous>;
}

/// Where this process sits in the replicas x partitions grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProcessInfo {
    pub replica_id: u32,
    pub partition_id: u32,
    pub num_replicas: u32,
    pub num_partitions: u32,
}

impl Default for ProcessInfo {
    fn default() -> Self {
        ProcessInfo { replica_id: 0, partition_id: 0, num_replicas: 1, num_partitions: 1 }
    }
}

/// Everything an op implementation may look at.
pub struct OpCtx<'a> {
    pub op: &'a Op,
    pub func: &'a Func,
    /// Types of the op's results (resolved from the function's value arena).
    pub result_types: Vec<&'a Type>,
    pub regions: &'a mut dyn RegionEval,
}

pub mod control;
pub mod conv;
pub mod ragged_dot;
pub mod gather_scatter;
pub mod shape;
pub mod support;
pub mod dot;
pub mod reduce;
pub mod sort;
pub mod fft;
pub mod linalg;
pub mod rng;
pub mod tuple;
pub mod chlo;
pub mod compare;
pub mod complex;
pub mod convert;
pub mod elementwise;
pub mod elementwise_float;
pub mod elementwise_int;
pub mod math_special;
pub mod quant;
pub mod collective_ops;
