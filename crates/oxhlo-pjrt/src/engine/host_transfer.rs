//! Host transfers for the interpreter backend: `stablehlo.send` / `stablehlo.recv` ops with
//! `is_host_transfer = true` (how JAX lowers Python callbacks for a plugin platform) are rewritten
//! into custom calls `oxhlo.host_send` / `oxhlo.host_recv`, whose handlers hand the data to the
//! execution's [`HostChannels`] (the framework's send/recv callbacks).

use super::interp::{from_tensor, spec_of, to_tensor};
use super::HostChannels;
use oxhlo_interp::custom_call::{CustomCallCtx, CustomCallRegistry};
use oxhlo_interp::RtValue;
use oxhlo_ir::{Attr, Module, OpKind, Region, Type};
use std::sync::Arc;

/// The custom-call target host sends become.
pub const SEND_TARGET: &str = "oxhlo.host_send";
/// The custom-call target host receives become.
pub const RECV_TARGET: &str = "oxhlo.host_recv";

fn rewrite_region(r: &mut Region) -> usize {
    let mut n = 0;
    for b in &mut r.blocks {
        for op in &mut b.ops {
            for inner in &mut op.regions {
                n += rewrite_region(inner);
            }
            let host = matches!(op.attr("is_host_transfer"), Some(Attr::Bool(true)));
            let target = match op.kind {
                OpKind::Send if host => SEND_TARGET,
                OpKind::Recv if host => RECV_TARGET,
                _ => continue,
            };
            op.kind = OpKind::CustomCall;
            op.unregistered_name = None;
            op.set_attr("call_target_name", Attr::Str(target.into()));
            n += 1;
        }
    }
    n
}

/// Rewrites every host-transfer send/recv of the module; returns how many there were.
pub fn rewrite(m: &mut Module) -> usize {
    m.funcs.iter_mut().map(|f| rewrite_region(&mut f.body)).sum()
}

fn channel(ctx: &CustomCallCtx) -> i64 {
    match ctx.op.attr("channel_handle") {
        Some(Attr::ChannelHandle { handle, .. }) => *handle,
        _ => ctx.op.attr("channel_id").and_then(Attr::as_int).unwrap_or(0),
    }
}

fn send(host: Option<&dyn HostChannels>, ctx: &mut CustomCallCtx, args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let ch = channel(ctx);
    let host = host.ok_or_else(|| format!("no host callback is attached to channel {ch} for this execution"))?;
    for v in args {
        if let RtValue::Tensor(t) = v {
            let a = from_tensor(t).map_err(|e| e.message)?;
            host.send(ch, &a).map_err(|e| format!("host callback on channel {ch} failed: {}", e.message))?;
        }
    }
    Ok(ctx.result_types.iter().map(|_| RtValue::Token).collect())
}

fn recv(host: Option<&dyn HostChannels>, ctx: &mut CustomCallCtx, _args: &[RtValue]) -> Result<Vec<RtValue>, String> {
    let ch = channel(ctx);
    let host = host.ok_or_else(|| format!("no host callback is attached to channel {ch} for this execution"))?;
    let mut out = Vec::with_capacity(ctx.result_types.len());
    for (i, ty) in ctx.result_types.iter().enumerate() {
        if matches!(ty, Type::Token) {
            out.push(RtValue::Token);
            continue;
        }
        let spec = spec_of(ty, &format!("result {i} of the host receive")).map_err(|e| e.message)?;
        let a = host.recv(ch, &spec).map_err(|e| format!("host callback on channel {ch} failed: {}", e.message))?;
        if a.spec != spec || a.bytes.len() != spec.byte_size() {
            return Err(format!("the host sent {} on channel {ch}, the program expects {spec}", a.spec));
        }
        out.push(RtValue::Tensor(to_tensor(&a).map_err(|e| e.message)?));
    }
    Ok(out)
}

/// Registers the host-transfer targets, bound to `host` (None: they fail, naming the channel).
pub fn register(r: &mut CustomCallRegistry, host: Option<Arc<dyn HostChannels>>) {
    let h = host.clone();
    r.register(SEND_TARGET, Box::new(move |ctx: &mut CustomCallCtx, args: &[RtValue]| send(h.as_deref(), ctx, args)));
    r.register(RECV_TARGET, Box::new(move |ctx: &mut CustomCallCtx, args: &[RtValue]| recv(host.as_deref(), ctx, args)));
}
