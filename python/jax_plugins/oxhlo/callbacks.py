"""Python callbacks (jax.debug.print / debug.callback, pure_callback, io_callback) on oxhlo.

JAX emits callbacks only for cpu/cuda/rocm/tpu. oxhlo takes TPU's route: the program sends the
callback's operands to the host and receives its results (`stablehlo.send` / `recv` with
`is_host_transfer`), and the framework passes the Python function to oxhlo's executions as PJRT
send/recv callbacks. This module routes "oxhlo" to that emitter and registers the debug lowerings.
"""

import logging

import numpy as np

logger = logging.getLogger(__name__)

_PLATFORM = "oxhlo"
_original_emit = None


def _checked(callback, result_avals):
    """Wraps `callback` to check its outputs and drop empty ones (which are not transferred)."""
    from jax._src import dtypes

    def wrapped(*args):
        outs = callback(*args)
        if len(outs) != len(result_avals):
            raise RuntimeError(f"Mismatched number of outputs from callback. Expected: {len(result_avals)}, "
                               f"Actual: {len(outs)}")
        outs = tuple(dtypes.canonicalize_value(np.asarray(o)) for o in outs)
        for i, (o, aval) in enumerate(zip(outs, result_avals)):
            if o.shape != aval.shape:
                raise RuntimeError(f"Incorrect output shape for return value #{i}: Expected: {aval.shape}, "
                                   f"Actual: {o.shape}")
            if o.dtype != aval.dtype:
                raise RuntimeError(f"Incorrect output dtype for return value #{i}: Expected: {aval.dtype}, "
                                   f"Actual: {o.dtype}")
        return tuple(o for o, aval in zip(outs, result_avals) if not _is_empty(aval.shape))

    return wrapped


def _is_empty(shape):
    return any(d == 0 for d in shape)


def _emit(ctx, callback, token, operands, operand_avals, result_avals, *, has_side_effect,
          returns_token=True, partitioned=False, sharding=None):
    platforms = tuple(ctx.module_context.platforms)
    if platforms != (_PLATFORM,):
        return _original_emit(ctx, callback, token, operands, operand_avals, result_avals,
                              has_side_effect=has_side_effect, returns_token=returns_token,
                              partitioned=partitioned, sharding=sharding)
    from jax._src import callback as cb
    from jax._src.interpreters import mlir

    if partitioned:
        raise NotImplementedError("partitioned callbacks are not implemented on oxhlo")
    backend = ctx.module_context.get_backend()
    kept = [a for a in result_avals if not _is_empty(a.shape)]
    operand_shapes = [cb._aval_to_xla_shape(a) for a in operand_avals]
    result_shapes = [cb._aval_to_xla_shape(a) for a in kept]
    outs, token = cb._emit_tpu_python_callback(
        backend, ctx, _checked(callback, result_avals), token, operands, operand_avals, operand_shapes,
        kept, result_shapes, returns_token=returns_token, sharding=sharding)
    it = iter(outs)
    results = [mlir.ir_constant(np.zeros(a.shape, a.dtype)) if _is_empty(a.shape) else next(it)
               for a in result_avals]
    return results, token, None


def register() -> None:
    """Routes oxhlo's callbacks through host send/recv and registers the debug lowerings."""
    global _original_emit
    from jax._src import callback as cb
    from jax._src import debugging
    from jax._src.interpreters import mlir

    if _original_emit is None:
        _original_emit = cb.emit_python_callback
        cb.emit_python_callback = _emit
    for prim, rule in [(debugging.debug_callback_p, debugging.debug_callback_lowering),
                       (debugging.debug_print_p, debugging.debug_print_lowering_rule)]:
        mlir.register_lowering(prim, rule, platform=_PLATFORM, cacheable=False)
