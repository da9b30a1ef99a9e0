# Writes JAX's lowerings of complex arithmetic for the CUDA backend's complex tests: `python3
# generate.py` in this directory (complex64 from f32 arguments; complex128 with x64 on).
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'scripts'))
from jax_lowering import write_lowerings
import jax
jax.config.update('jax_enable_x64', True)
import jax.numpy as jnp
from jax import lax

out = os.path.dirname(os.path.abspath(__file__))

def arithmetic(x, y, u, v):
    z, w = lax.complex(x, y), lax.complex(u, v)
    return z + w, z - w, z * w, z / w, -z, jnp.conj(z), jnp.abs(z), jnp.real(z * w), jnp.imag(z / w)

def compare_and_convert(x, y, u):
    z = lax.complex(x, y)
    return z == z * 1.0, z != x.astype(jnp.complex64), u.astype(jnp.complex64), jnp.where(x > 0, z, z * z)

def arithmetic_c128(x, y, u, v):
    z, w = lax.complex(x, y), lax.complex(u, v)
    return z * w + z, z / w, jnp.abs(z - w), z.astype(jnp.complex64).astype(jnp.complex128) == z

def functions(x, y):
    # Parts spread over [-3, 3] and some large real parts (tanh's far branch), zeros kept.
    z = lax.complex(x * 3.0, y * 3.0)
    w = lax.complex(x * 40.0, y)
    return jnp.exp(z), jnp.log(z), jnp.sqrt(z), jnp.sin(z), jnp.cos(z), jnp.tanh(z), jnp.tanh(w), jnp.sqrt(-z)

def reductions(x, y):
    z = lax.complex(x, y)
    return jnp.sum(z, axis=1), jnp.sum(z), jnp.prod(z[:, :5], axis=1), jnp.mean(z, axis=0)

cases = [
    ('reductions_c64', reductions, [((6, 40), jnp.float32)] * 2),
    ('reductions_c128', reductions, [((3, 70), jnp.float64)] * 2),
    ('functions_c64', functions, [((48,), jnp.float32)] * 2),
    ('functions_c128', functions, [((40,), jnp.float64)] * 2),
    ('arithmetic_c64', arithmetic, [((64,), jnp.float32)] * 4),
    ('compare_convert_c64', compare_and_convert, [((5, 7), jnp.float32), ((5, 7), jnp.float32), ((5, 7), jnp.int32)]),
    ('arithmetic_c128', arithmetic_c128, [((3, 9), jnp.float64)] * 4),
]
write_lowerings(out, [(name, f, [jax.ShapeDtypeStruct(s, dt) for s, dt in shapes], name) for name, f, shapes in cases])
