//! The one match from [`OpKind`] to the op family that evaluates it. Control flow and host I/O are handled
//! by the evaluator before this point (see `eval.rs`); everything else lands here.

use crate::ops::chlo;
use crate::ops::compare;
use crate::ops::convert;
use crate::ops::elementwise::{eval_binary as bin, eval_unary as un, Bin, Un};
use crate::ops::quant;
use crate::ops::{collective_ops as coll, conv, dot, fft, gather_scatter as gs, linalg, reduce, rng, shape, sort, tuple, OpCtx};
use crate::tensor::{Data, RtValue, Tensor};
use oxhlo_ir::{ElementType, OpKind, TensorType};

/// Evaluates one op (other than control flow) on its operands.
pub fn dispatch(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    use OpKind as K;
    match ctx.op.kind {
        // ---- unary elementwise ----
        K::Abs => un(ctx, args, Un::Abs),
        K::Negate => un(ctx, args, Un::Neg),
        K::Sign => un(ctx, args, Un::Sign),
        K::Not => un(ctx, args, Un::Not),
        K::Popcnt => un(ctx, args, Un::Popcnt),
        K::CountLeadingZeros => un(ctx, args, Un::Clz),
        K::Sqrt => un(ctx, args, Un::Sqrt),
        K::Rsqrt => un(ctx, args, Un::Rsqrt),
        K::Cbrt => un(ctx, args, Un::Cbrt),
        K::Exponential => un(ctx, args, Un::Exp),
        K::ExponentialMinusOne => un(ctx, args, Un::Expm1),
        K::Log => un(ctx, args, Un::Log),
        K::LogPlusOne => un(ctx, args, Un::Log1p),
        K::Logistic => un(ctx, args, Un::Logistic),
        K::Sine => un(ctx, args, Un::Sin),
        K::Cosine => un(ctx, args, Un::Cos),
        K::Tan | K::ChloTan => un(ctx, args, Un::Tan),
        K::Tanh => un(ctx, args, Un::Tanh),
        K::Floor => un(ctx, args, Un::Floor),
        K::Ceil => un(ctx, args, Un::Ceil),
        K::RoundNearestAfz => un(ctx, args, Un::RoundAfz),
        K::RoundNearestEven => un(ctx, args, Un::RoundEven),
        K::IsFinite => un(ctx, args, Un::IsFinite),
        K::Real => un(ctx, args, Un::Real),
        K::Imag => un(ctx, args, Un::Imag),
        K::ChloAcos => un(ctx, args, Un::Acos),
        K::ChloAcosh => un(ctx, args, Un::Acosh),
        K::ChloAsin => un(ctx, args, Un::Asin),
        K::ChloAsinh => un(ctx, args, Un::Asinh),
        K::ChloAtan => un(ctx, args, Un::Atan),
        K::ChloAtanh => un(ctx, args, Un::Atanh),
        K::ChloCosh => un(ctx, args, Un::Cosh),
        K::ChloSinh => un(ctx, args, Un::Sinh),
        K::ChloConj => un(ctx, args, Un::Conj),
        K::ChloSquare | K::Square => un(ctx, args, Un::Square),
        K::ChloErf => un(ctx, args, Un::Erf),
        K::ChloErfc => un(ctx, args, Un::Erfc),
        K::ChloErfInv => un(ctx, args, Un::ErfInv),
        K::ChloLgamma => un(ctx, args, Un::Lgamma),
        K::ChloDigamma => un(ctx, args, Un::Digamma),
        K::ChloBesselI1e => un(ctx, args, Un::BesselI1e),
        K::ChloIsInf => un(ctx, args, Un::IsInf),
        K::ChloIsNegInf => un(ctx, args, Un::IsNegInf),
        K::ChloIsPosInf => un(ctx, args, Un::IsPosInf),
        // ---- binary elementwise ----
        K::Add => bin(ctx, args, Bin::Add),
        K::Subtract => bin(ctx, args, Bin::Sub),
        K::Multiply => bin(ctx, args, Bin::Mul),
        K::Divide => bin(ctx, args, Bin::Div),
        K::Remainder => bin(ctx, args, Bin::Rem),
        K::Power => bin(ctx, args, Bin::Pow),
        K::Maximum => bin(ctx, args, Bin::Max),
        K::Minimum => bin(ctx, args, Bin::Min),
        K::And => bin(ctx, args, Bin::And),
        K::Or => bin(ctx, args, Bin::Or),
        K::Xor => bin(ctx, args, Bin::Xor),
        K::ShiftLeft => bin(ctx, args, Bin::Shl),
        K::ShiftRightArithmetic => bin(ctx, args, Bin::ShrA),
        K::ShiftRightLogical => bin(ctx, args, Bin::ShrL),
        K::Atan2 => bin(ctx, args, Bin::Atan2),
        K::Complex => bin(ctx, args, Bin::Complex),
        K::ChloNextAfter => bin(ctx, args, Bin::NextAfter),
        K::ChloPolygamma => bin(ctx, args, Bin::Polygamma),
        K::ChloZeta => bin(ctx, args, Bin::Zeta),
        // ---- chlo broadcasting binary ops ----
        K::ChloBroadcastAdd => chlo::eval_broadcast_binary(ctx, args, Bin::Add),
        K::ChloBroadcastAnd => chlo::eval_broadcast_binary(ctx, args, Bin::And),
        K::ChloBroadcastAtan2 => chlo::eval_broadcast_binary(ctx, args, Bin::Atan2),
        K::ChloBroadcastComplex => chlo::eval_broadcast_binary(ctx, args, Bin::Complex),
        K::ChloBroadcastDivide => chlo::eval_broadcast_binary(ctx, args, Bin::Div),
        K::ChloBroadcastMaximum => chlo::eval_broadcast_binary(ctx, args, Bin::Max),
        K::ChloBroadcastMinimum => chlo::eval_broadcast_binary(ctx, args, Bin::Min),
        K::ChloBroadcastMultiply => chlo::eval_broadcast_binary(ctx, args, Bin::Mul),
        K::ChloBroadcastNextAfter => chlo::eval_broadcast_binary(ctx, args, Bin::NextAfter),
        K::ChloBroadcastOr => chlo::eval_broadcast_binary(ctx, args, Bin::Or),
        K::ChloBroadcastPolygamma => chlo::eval_broadcast_binary(ctx, args, Bin::Polygamma),
        K::ChloBroadcastPower => chlo::eval_broadcast_binary(ctx, args, Bin::Pow),
        K::ChloBroadcastRemainder => chlo::eval_broadcast_binary(ctx, args, Bin::Rem),
        K::ChloBroadcastShiftLeft => chlo::eval_broadcast_binary(ctx, args, Bin::Shl),
        K::ChloBroadcastShiftRightArithmetic => chlo::eval_broadcast_binary(ctx, args, Bin::ShrA),
        K::ChloBroadcastShiftRightLogical => chlo::eval_broadcast_binary(ctx, args, Bin::ShrL),
        K::ChloBroadcastSubtract => chlo::eval_broadcast_binary(ctx, args, Bin::Sub),
        K::ChloBroadcastXor => chlo::eval_broadcast_binary(ctx, args, Bin::Xor),
        K::ChloBroadcastZeta => chlo::eval_broadcast_binary(ctx, args, Bin::Zeta),
        K::ChloBroadcastCompare => chlo::eval_broadcast_compare(ctx, args),
        K::ChloConstantLike => chlo::eval_constant_like(ctx, args),
        // ---- other elementwise ----
        K::Compare => compare::eval_compare(ctx, args),
        K::Select => compare::eval_select(ctx, args),
        K::Clamp => compare::eval_clamp(ctx, args),
        K::Convert => convert::eval_convert(ctx, args),
        K::BitcastConvert => convert::eval_bitcast_convert(ctx, args),
        K::ReducePrecision => convert::eval_reduce_precision(ctx, args),
        K::UniformQuantize => quant::eval_uniform_quantize(ctx, args),
        K::UniformDequantize => quant::eval_uniform_dequantize(ctx, args),
        K::Map => chlo::eval_map(ctx, args),
        // ---- process grid ----
        K::ReplicaId => process_id(ctx, true),
        K::PartitionId => process_id(ctx, false),
        // ---- data movement ----
        K::BroadcastInDim => shape::eval_broadcast_in_dim(ctx, args),
        K::Broadcast => shape::eval_broadcast(ctx, args),
        K::DynamicBroadcastInDim => shape::eval_dynamic_broadcast_in_dim(ctx, args),
        K::Reshape => shape::eval_reshape(ctx, args),
        K::DynamicReshape => shape::eval_dynamic_reshape(ctx, args),
        K::Transpose => shape::eval_transpose(ctx, args),
        K::Slice => shape::eval_slice(ctx, args),
        K::RealDynamicSlice => shape::eval_real_dynamic_slice(ctx, args),
        K::DynamicSlice => shape::eval_dynamic_slice(ctx, args),
        K::DynamicUpdateSlice => shape::eval_dynamic_update_slice(ctx, args),
        K::Concatenate => shape::eval_concatenate(ctx, args),
        K::Pad => shape::eval_pad(ctx, args),
        K::DynamicPad => shape::eval_dynamic_pad(ctx, args),
        K::Reverse => shape::eval_reverse(ctx, args),
        K::Iota => shape::eval_iota(ctx, args),
        K::DynamicIota => shape::eval_dynamic_iota(ctx, args),
        K::GetDimensionSize => shape::eval_get_dimension_size(ctx, args),
        K::SetDimensionSize => shape::eval_set_dimension_size(ctx, args),
        K::Gather => gs::eval_gather(ctx, args),
        K::DynamicGather => gs::eval_dynamic_gather(ctx, args),
        K::Scatter => gs::eval_scatter(ctx, args),
        K::TorchIndexSelect => gs::eval_torch_index_select(ctx, args),
        // ---- heavy ops ----
        K::DotGeneral => dot::eval_dot_general(ctx, args),
        K::Dot => dot::eval_dot(ctx, args),
        K::Einsum => dot::eval_einsum(ctx, args),
        K::UnaryEinsum => dot::eval_unary_einsum(ctx, args),
        K::Convolution => conv::eval_convolution(ctx, args),
        K::DynamicConv => conv::eval_dynamic_conv(ctx, args),
        K::Reduce => reduce::eval_reduce(ctx, args),
        K::ReduceWindow => reduce::eval_reduce_window(ctx, args),
        K::SelectAndScatter => reduce::eval_select_and_scatter(ctx, args),
        K::BatchNormTraining => reduce::eval_batch_norm_training(ctx, args),
        K::BatchNormInference => reduce::eval_batch_norm_inference(ctx, args),
        K::BatchNormGrad => reduce::eval_batch_norm_grad(ctx, args),
        K::Sort => sort::eval_sort(ctx, args),
        K::ChloTopK => sort::eval_top_k(ctx, args),
        K::ChloMulhi => chlo::eval_mulhi(ctx, args),
        K::Fft => fft::eval_fft(ctx, args),
        K::Cholesky => linalg::eval_cholesky(ctx, args),
        K::TriangularSolve => linalg::eval_triangular_solve(ctx, args),
        K::RngBitGenerator => rng::eval_rng_bit_generator(ctx, args),
        K::Rng => rng::eval_rng(ctx, args),
        K::Tuple => tuple::eval_tuple(ctx, args),
        K::GetTupleElement => tuple::eval_get_tuple_element(ctx, args),
        // ---- collectives ----
        K::AllReduce => coll::eval_all_reduce(ctx, args),
        K::CrossReplicaSum => coll::eval_cross_replica_sum(ctx, args),
        K::ReduceScatter => coll::eval_reduce_scatter(ctx, args),
        K::AllGather => coll::eval_all_gather(ctx, args),
        K::AllToAll => coll::eval_all_to_all(ctx, args),
        K::CollectivePermute => coll::eval_collective_permute(ctx, args),
        K::CollectiveBroadcast => coll::eval_collective_broadcast(ctx, args),
        K::CollectiveReduce => coll::eval_collective_reduce(ctx, args),
        K::AsyncStart | K::AsyncDone | K::ChloRaggedDot => {
            Err(format!("{} is not implemented yet", ctx.op.name()))
        }
        K::Unregistered => Err(format!("op {} of an unknown dialect cannot be evaluated", ctx.op.name())),
        other => Err(format!("{} is not evaluated by the op dispatcher", other.name())),
    }
}

/// `replica_id` / `partition_id`: this process's position, as a `tensor<ui32>`.
fn process_id(ctx: &mut OpCtx, replica: bool) -> Result<Vec<RtValue>, String> {
    let p = ctx.regions.process();
    let v = if replica { p.replica_id } else { p.partition_id };
    let elem = match ctx.result_types.first() {
        Some(oxhlo_ir::Type::Tensor(t)) => t.elem.clone(),
        _ => ElementType::uint(32),
    };
    let data = if elem.is_unsigned_integer() { Data::UInt(vec![v as u64]) } else { Data::Int(vec![v as i64]) };
    Ok(vec![RtValue::Tensor(Tensor { ty: TensorType::new(Vec::new(), elem), data })])
}
