# Writes JAX's lowerings of dots of complex numbers for the CUDA backend's complex GEMM test (cuBLAS's
# complex GEMMs): `python3 generate.py` in this directory (complex64 from f32 arguments; complex128
# with x64 on).
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'scripts'))
from jax_lowering import write_lowerings
import jax
jax.config.update('jax_enable_x64', True)
import jax.numpy as jnp
from jax import lax

out = os.path.dirname(os.path.abspath(__file__))

def dots(a, b, c, d):
    x, y = lax.complex(a, b), lax.complex(c, d)
    # A matrix product, one with the rhs transposed, a batched one, and a matrix-vector product.
    xb = x.reshape(4, 6, 6)
    return x @ y, x @ y.T, jnp.einsum('bij,bjk->bik', xb, xb), x @ y[:, 0]

cases = [
    ('dots_c64', dots, [((12, 12), jnp.float32)] * 4),
    ('dots_c128', dots, [((12, 12), jnp.float64)] * 4),
]
write_lowerings(out, [(name, f, [jax.ShapeDtypeStruct(s, dt) for s, dt in shapes], name) for name, f, shapes in cases])
