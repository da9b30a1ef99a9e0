"""Lowering rules JAX lacks for a plugin platform, registered for "oxhlo".

JAX lowers some primitives only for cpu/cuda/rocm/tpu. For oxhlo they lower to the `custom_call`
targets XLA expands on TPU, which oxhlo implements natively:
  eigh -> custom_call @Eigh (Jacobi; "lower,sort,max_sweeps,tol"); svd then works through JAX's
          generic (QDWH) rule, which calls eigh.
"""

import logging

logger = logging.getLogger(__name__)


def _eigh_lowering(ctx, operand, *, lower, sort_eigenvalues, subset_by_index, algorithm):
    from jax._src.interpreters import mlir

    operand_aval, = ctx.avals_in
    n = operand_aval.shape[-1]
    if subset_by_index is not None and tuple(subset_by_index) != (0, n):
        # A subset of eigenpairs: JAX's QDWH rule (whose small blocks use @Eigh as well).
        from jax._src.tpu.linalg import eigh as tpu_eigh

        return tpu_eigh._eigh_tpu_lowering(ctx, operand, lower=lower, sort_eigenvalues=sort_eigenvalues,
                                           subset_by_index=subset_by_index, algorithm=None)
    v_aval, w_aval = ctx.avals_out
    result_types = [mlir.aval_to_ir_type(ctx.module_context, v_aval),
                    mlir.aval_to_ir_type(ctx.module_context, w_aval)]
    op = mlir.custom_call(
        "Eigh",
        result_types=result_types,
        operands=[operand],
        backend_config=f"{int(lower)},{int(sort_eigenvalues)},100,1e-6",
        api_version=1,
    )
    return op.results


def register(platform: str) -> None:
    """Registers the rules above for `platform` (which must already be a registered JAX platform)."""
    from jax._src.interpreters import mlir
    from jax._src.lax import linalg as lax_linalg

    try:
        mlir.register_lowering(lax_linalg.eigh_p, _eigh_lowering, platform=platform)
    except Exception:  # noqa: BLE001 - an older/newer JAX without this primitive keeps its own rules
        logger.warning("oxhlo: could not register the eigh lowering", exc_info=True)
