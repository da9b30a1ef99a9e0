"""Pooling, the max-pool gradient, jnp.cumsum and a lax.scan through the current JAX platform: first
call, time a call, and agreement with the same function on JAX's CPU backend.

Usage: python3 scripts/window_probe.py. Run with JAX_PLATFORMS=cuda,cpu for XLA, JAX_PLATFORMS=oxhlo,cpu
OXHLO_BACKEND=cuda for oxhlo's device kernels (scripts/gpu_run.sh windows runs both).
"""
import jax, jax.numpy as jnp
from probe_timing import run_cases
from jax import lax

def maxpool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

def avgpool(x):
    return lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME") / 9.0

def maxpool_grad(x):
    return jax.grad(lambda x: maxpool(x).sum())(x)

def scan_rows(xs):
    return lax.scan(lambda c, x: (c + x, c + x), jnp.zeros(xs.shape[1:], xs.dtype), xs)[1]

key = jax.random.PRNGKey(0)
img = jax.random.normal(key, (32, 56, 56, 64))
rows = jax.random.normal(key, (1024, 1024))
seq = jax.random.normal(key, (256, 64, 64))
cases = [("maxpool", maxpool, img), ("avgpool", avgpool, img), ("maxpool_grad", maxpool_grad, img),
         ("cumsum", lambda x: jnp.cumsum(x, axis=-1), rows), ("scan256", scan_rows, seq)]
run_cases(cases, rtol=1e-4, atol=1e-3)
