//! tuple and get_tuple_element.

use crate::ops::support::{opt_int, value_kind};
use crate::ops::OpCtx;
use crate::tensor::RtValue;

pub fn eval_tuple(_ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    Ok(vec![RtValue::Tuple(args.to_vec())])
}

pub fn eval_get_tuple_element(ctx: &mut OpCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let index = opt_int(ctx, "index")?.ok_or("missing attribute `index`")?;
    match args.first() {
        Some(RtValue::Tuple(items)) => usize::try_from(index)
            .ok()
            .and_then(|i| items.get(i))
            .map(|v| vec![v.clone()])
            .ok_or_else(|| format!("tuple index {index} out of range for a tuple of {} elements", items.len())),
        Some(other) => Err(format!("get_tuple_element needs a tuple, got {}", value_kind(other))),
        None => Err("get_tuple_element needs an operand".into()),
    }
}
