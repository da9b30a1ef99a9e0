# Writes JAX's lowerings of scatters (`.at[...]` updates) for the CUDA backend's scatter tests:
# `python3 generate.py` in this directory. Float values are made small integers inside each program
# (clip(round(4 x))) so that sums and products of colliding updates are exact in any order; `set`
# scatters use distinct indices (the spec leaves the order of colliding updates to the implementation).
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'scripts'))
from jax_lowering import write_lowerings
import jax
import jax.numpy as jnp

out = os.path.dirname(os.path.abspath(__file__))

def small(x):
    return jnp.clip(jnp.round(x * 4), -8, 8)

def set_rows(x, v):
    idx = jnp.array([5, 0, 3])
    return x.at[idx].set(v), x.at[2, 1:4].set(v[0, :3]), x.at[-1].set(7.0)

def max_min_dup(x, v):
    # No zeros (whose signs max and min would pick by order) and no NaNs among colliding updates.
    idx = jnp.array([1, 4, 1, 1, 6, 4])
    xs, vs = small(x) + 0.25, small(v) + 0.25
    return xs.at[idx].max(vs), xs.at[idx].min(vs)

def int_ops_dup(a, b):
    idx = jnp.array([[0, 1], [2, 3], [0, 1], [4, 0]])
    return a.at[idx[:, 0], idx[:, 1]].mul(b), a.at[idx[:, 0], idx[:, 1]].add(b), a.at[idx[:, 0], idx[:, 1]].max(b), a.at[idx[:, 0]].set(jnp.zeros_like(a[0]))

def float_add_mul(x, v):
    idx = jnp.array([2, 2, 0, 7, 2])
    xs, vs = small(x), small(v)
    return xs.at[idx].add(vs), xs.at[jnp.array([1, 3, 5, 0, 2])].mul(vs), xs.astype(jnp.bfloat16).at[idx].add(vs.astype(jnp.bfloat16))

def out_of_bounds(x, v):
    idx = jnp.array([9, -20, 3, 100])
    return x.at[idx].set(v, mode='drop'), x.at[idx].max(v, mode='drop')

cases = [
    ('set_rows', set_rows, [((8, 5), jnp.float32), ((3, 5), jnp.float32)]),
    ('max_min_dup_no_nans', max_min_dup, [((8, 3), jnp.float32), ((6, 3), jnp.float32)]),
    ('int_ops_dup', int_ops_dup, [((5, 4), jnp.int32), ((4,), jnp.int32)]),
    ('float_add_mul_no_nans', float_add_mul, [((8, 4), jnp.float32), ((5, 4), jnp.float32)]),
    ('out_of_bounds', out_of_bounds, [((10, 2), jnp.float32), ((4, 2), jnp.float32)]),
]
write_lowerings(out, [(name, f, [jax.ShapeDtypeStruct(s, dt) for s, dt in shapes], name) for name, f, shapes in cases])
