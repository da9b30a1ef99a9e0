"""Generates the conformance files of the data-movement and heavy ops (tests/conformance/<op>.mlir).

Each case is a JAX function lowered to StableHLO (jax.jit(...).lower(...).as_text()) and wrapped in a
test @main that calls it on constants and checks the results JAX computed on CPU (the independent
oracle); ops JAX cannot emit directly are written by hand with values from NumPy.

Run: python3 crates/oxhlo-interp/tests/gen/gen_heavy.py   (jax 0.10 with x64 enabled)
"""

import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

sys.path.insert(0, os.path.dirname(__file__))
from mlir_lit import BF16, wrap_lowered, write_cases  # noqa: E402
import gen_heavy_cases as hc  # noqa: E402

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

OUT = os.path.join(os.path.dirname(__file__), "..", "conformance")
RNG = np.random.default_rng(1234)

FLOAT_TOL = {np.dtype(np.float16): 2e-3, np.dtype(np.float32): 2e-5, np.dtype(np.float64): 1e-12}
if BF16 is not None:
    FLOAT_TOL[BF16] = 2e-2


def tol_for(a, tol):
    a = np.asarray(a)
    if a.dtype.kind in "biu":
        return 0
    if tol is not None:
        return tol
    base = a.dtype if a.dtype.kind == "f" else np.dtype(np.float32 if a.dtype == np.complex64 else np.float64)
    return FLOAT_TOL.get(np.dtype(base), 1e-5)


def case(f, *inputs, tol=None, platform=None):
    """One test case: `f` lowered (for `platform`'s lowering rules when given, e.g. "tpu" for the generic
    cholesky/triangular_solve ops instead of LAPACK calls), run by JAX on CPU, checked with `tol`."""
    inputs = [np.asarray(a) for a in inputs]
    if platform:
        text = jax.jit(f).trace(*inputs).lower(lowering_platforms=(platform,)).as_text(debug_info=False)
    else:
        text = jax.jit(f).lower(*inputs).as_text(debug_info=False)
    out = jax.jit(f)(*inputs)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    outs = [np.asarray(o) for o in outs]
    return wrap_lowered(text, inputs, outs, [tol_for(o, tol) for o in outs])


def rand(shape, dtype, lo=-5, hi=5):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        lo = max(lo, 0) if dtype.kind == "u" else lo
        return RNG.integers(lo, hi, shape).astype(dtype)
    if dtype.kind == "c":
        return (RNG.uniform(lo, hi, shape) + 1j * RNG.uniform(lo, hi, shape)).astype(dtype)
    return RNG.uniform(lo, hi, shape).astype(dtype)


def main():
    os.makedirs(OUT, exist_ok=True)
    ctx = hc.Ctx(case=case, rand=rand, lax=lax, jnp=jnp, np=np, bf16=BF16)
    for name, header, build in hc.FILES:
        cases = build(ctx)
        write_cases(os.path.join(OUT, f"{name}.mlir"), header, cases)
        print(f"{name}.mlir: {len(cases)} cases")


if __name__ == "__main__":
    main()
