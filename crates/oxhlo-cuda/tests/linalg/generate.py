# Writes JAX's lowerings of cholesky and triangular solves (f32, and f64 with x64 on) for the CUDA
# backend's linalg tests: `python3 generate.py` in this directory. Matrices are made well conditioned
# inside each program (x x^T + n I, triangles with n added to the diagonal) from random arguments.
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'scripts'))
from jax_lowering import write_lowerings
import jax
jax.config.update('jax_enable_x64', True)
import jax.numpy as jnp
from jax import lax
import jax.scipy.linalg as jsl

out = os.path.dirname(os.path.abspath(__file__))

def spd(x):
    n = x.shape[-1]
    return x @ jnp.swapaxes(x, -1, -2) + n * jnp.eye(n, dtype=x.dtype)

def tri_lower(a):
    n = a.shape[-1]
    return jnp.tril(a) + n * jnp.eye(n, dtype=a.dtype)

def cholesky_lower(x):
    return jnp.linalg.cholesky(spd(x))

def cholesky_upper_batched(x):
    return lax.linalg.cholesky(spd(x), symmetrize_input=False) , jsl.cholesky(spd(x), lower=False)

def cho_solve(x, b):
    c = jsl.cho_factor(spd(x), lower=True)
    return jsl.cho_solve(c, b)

def solve_triangular_all(a, b):
    t = tri_lower(a)
    u = jnp.swapaxes(t, -1, -2)
    outs = []
    for trans in (0, 1, 2):
        outs.append(jsl.solve_triangular(t, b, lower=True, trans=trans))
        outs.append(jsl.solve_triangular(u, b, lower=False, trans=trans, unit_diagonal=True))
    return tuple(outs)

def right_side(a, b):
    t = tri_lower(a)
    return (lax.linalg.triangular_solve(t, b, left_side=False, lower=True),
            lax.linalg.triangular_solve(t, b, left_side=False, lower=False, transpose_a=True),
            lax.linalg.triangular_solve(t, b, left_side=False, lower=True, conjugate_a=True, transpose_a=True, unit_diagonal=True))

cases = [
    ('cholesky_lower_f32', cholesky_lower, [(16, 16)], jnp.float32),
    ('cholesky_upper_batched_f32', cholesky_upper_batched, [(3, 9, 9)], jnp.float32),
    ('cholesky_f64', cholesky_lower, [(2, 33, 33)], jnp.float64),
    ('cho_solve_f32', cho_solve, [(12, 12), (12, 5)], jnp.float32),
    ('solve_triangular_f32', solve_triangular_all, [(2, 7, 7), (2, 7, 3)], jnp.float32),
    ('solve_triangular_f64', solve_triangular_all, [(5, 5), (5, 2)], jnp.float64),
    ('right_side_f32', right_side, [(6, 6), (4, 6)], jnp.float32),
    # Several panels / row blocks of 32 (the last one partial) and line groups of 8 (the last partial).
    ('cholesky_panels_f32', cholesky_upper_batched, [(2, 100, 100)], jnp.float32),
    ('solve_blocks_f64', solve_triangular_all, [(70, 70), (70, 13)], jnp.float64),
    ('right_side_blocks_f32', right_side, [(2, 67, 67), (2, 9, 67)], jnp.float32),
]
write_lowerings(out, [(name, f, [jax.ShapeDtypeStruct(s, dt) for s in shapes], name) for name, f, shapes, dt in cases])
