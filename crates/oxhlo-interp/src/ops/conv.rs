//! convolution and dynamic_conv.
use crate::ops::OpCtx;
use crate::tensor::RtValue;
pub fn eval_dynamic_conv(_ctx: &mut OpCtx, _args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    Err("todo".into())
}
