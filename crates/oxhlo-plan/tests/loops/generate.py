# Writes JAX's lowerings of scans and loops for oxhlo-plan's counted-loop tests.
import jax, jax.numpy as jnp
from jax import lax
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'scripts'))
from jax_lowering import write_lowerings
out = os.path.dirname(os.path.abspath(__file__))
def scan8(x):
    return lax.scan(lambda c, xi: (c * 0.5 + xi, c * 2), x[0], x)
def fori10(x):
    return lax.fori_loop(0, 10, lambda i, c: c + i, x)
def fori_traced_bound(x, n):
    return lax.fori_loop(0, n, lambda i, c: c + i, x)
def while_data(x):
    return lax.while_loop(lambda c: c.sum() < 100., lambda c: c * 2, x)
def scan8_reverse(x):
    return lax.scan(lambda c, xi: (c + xi, c), x[0], x, reverse=True)
def fori_3_to_40_by_scan(x):
    return lax.fori_loop(3, 40, lambda i, c: c * 1.01 + i, x)
def nested_scans(x):
    def outer(c, xi):
        inner = lax.scan(lambda d, y: (d + y, d), c, jnp.stack([xi] * 5))
        return inner[0], inner[1].sum()
    return lax.scan(outer, x[0], x)
x = jnp.ones((8, 4))
cases = [(scan8, (x,), 'lax.scan over the 8 rows of x: 8'),
         (fori10, (x,), 'lax.fori_loop(0, 10, ...): 10'),
         (fori_traced_bound, (x, 5), 'lax.fori_loop(0, n, ...) with n an argument: not known'),
         (while_data, (x,), 'lax.while_loop until the sum reaches 100: not known'),
         (scan8_reverse, (x,), 'lax.scan(reverse=True) over 8 rows: 8'),
         (fori_3_to_40_by_scan, (x,), 'lax.fori_loop(3, 40, ...): 37'),
         (nested_scans, (x,), 'outer lax.scan over 8 rows: 8; inner lax.scan over 5: 5')]
write_lowerings(out, [(f.__name__, f, args, what) for f, args, what in cases])
