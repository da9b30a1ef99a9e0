//! View copies on the CPU ([`oxhlo_plan::view_copy`]): a chain of slice / reshape / transpose ops is
//! one [`strided_copy`] of its first operand through the composed view (one pass over memory instead
//! of one per op). Concatenations of chains are not planned here (`plan(.., concats: false)`): the
//! result would be filled before its pieces are written, which costs more than the concatenation's own
//! row copies save.

use super::elems::{elems, strided_copy, tensor_of, with_kind};
use crate::tensor::NTensor;
use oxhlo_ir::TensorType;
use oxhlo_plan::view_copy::{View, ViewCopy};

/// Runs the chain `copy` on its source `src` into a tensor of type `rty`.
pub fn run(copy: &ViewCopy, src: &NTensor, rty: &TensorType) -> Result<NTensor, String> {
    let [p] = copy.pieces.as_slice() else { return Err("view copy: the CPU runs chains (one piece) only".into()) };
    if p.to != View::contiguous(&rty.shape) || p.from.shape != rty.shape {
        return Err("view copy: a chain writes its whole result in order".into());
    }
    let shape: Vec<usize> = p.from.shape.iter().map(|&d| usize::try_from(d).map_err(|_| "view copy: negative extent")).collect::<Result<_, _>>()?;
    let strides: Vec<isize> = p.from.strides.iter().map(|&s| s as isize).collect();
    with_kind!(src.kind(), T => {
        let x = elems::<T>(src).ok_or("view copy: source of another element type")?;
        strided_copy(x, &shape, &strides, p.from.base as isize).map(|v| tensor_of(rty.clone(), v))
    })
}
