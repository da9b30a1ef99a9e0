"""Loops, in-place updates, scatters and linear algebra through the current JAX platform: first call,
time a call, and agreement with the same function on JAX's CPU backend.

Usage: python3 scripts/update_probe.py. Run with JAX_PLATFORMS=cuda,cpu for XLA, JAX_PLATFORMS=oxhlo,cpu
OXHLO_BACKEND=cuda for oxhlo's device kernels (scripts/gpu_run.sh updates runs both, then oxhlo with
counted loops, linear algebra and in-place updates switched off).
"""
import os
import jax, jax.numpy as jnp
from probe_timing import run_cases
from jax import lax
import jax.scipy.linalg as jsl

def scan_stack(xs):
    # A scan writing a [256, 256] row a step into its stacked output (in place on oxhlo after step 1).
    return lax.scan(lambda c, x: (c * 0.5 + x, c), jnp.zeros(xs.shape[1:], xs.dtype), xs)[1]

def fori_set(x):
    # x.at[i].set inside a fori_loop: a dynamic_update_slice of the carried array each step.
    return lax.fori_loop(0, x.shape[0], lambda i, a: a.at[i].set(a[i] * 2.0 + a[(i + 1) % a.shape[0]]), x)

def scatter_max(x):
    idx = (jnp.arange(x.shape[0] * 4) * 7919) % x.shape[0]
    return x.at[idx].max(jnp.tile(x, (4, 1)) + 1.0)

def scatter_set(x):
    idx = (jnp.arange(x.shape[0]) * 7919) % x.shape[0]
    return jnp.zeros_like(x).at[idx].set(x)

def spd(a):
    n = a.shape[-1]
    return a @ jnp.swapaxes(a, -1, -2) / n + jnp.eye(n, dtype=a.dtype)

def cholesky(a):
    return jnp.linalg.cholesky(spd(a))

def cho_solve(a):
    c = jsl.cho_factor(spd(a), lower=True)
    return jsl.cho_solve(c, a[..., :8])

def solve_triangular(a):
    t = jnp.tril(a) + a.shape[-1] * jnp.eye(a.shape[-1], dtype=a.dtype)
    return jsl.solve_triangular(t, a, lower=True)

key = jax.random.PRNGKey(0)
seq = jax.random.normal(key, (256, 256, 256))
rows = jax.random.normal(key, (4096, 128))
mats = jax.random.normal(key, (64, 128, 128))
big = jax.random.normal(key, (1024, 1024))
cases = [("scan_stack", scan_stack, seq), ("fori_set", fori_set, rows[:512]), ("scatter_max", scatter_max, rows),
         ("scatter_set", scatter_set, rows), ("cholesky", cholesky, mats), ("cho_solve", cho_solve, mats),
         ("solve_triangular", solve_triangular, mats), ("cholesky_1024", cholesky, big),
         ("cho_solve_1024", cho_solve, big), ("solve_triangular_1024", solve_triangular, big)]
# PROBE_SKIP=text leaves out the cases whose name holds it (the host pass skips the large solves);
# PROBE_ONLY=text keeps only those.
skip, only = os.environ.get("PROBE_SKIP"), os.environ.get("PROBE_ONLY")
run_cases([c for c in cases if not (skip and skip in c[0]) and (not only or only in c[0])], rtol=1e-3, atol=1e-3)
