# Writes JAX's lowerings of FFTs for the CUDA backend's fft tests: `python3 generate.py` in this
# directory. Lengths cover the interpreter's three transforms: powers of two (radix-2), other lengths up
# to 64 (direct DFT) and longer ones (Bluestein); complex64 from f32 arguments, complex128 with x64 on.
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'scripts'))
from jax_lowering import write_lowerings
import jax
jax.config.update('jax_enable_x64', True)
import jax.numpy as jnp
from jax import lax

out = os.path.dirname(os.path.abspath(__file__))

def fft_1d(x, y):
    z = lax.complex(x, y)
    return jnp.fft.fft(z), jnp.fft.ifft(z)

def rfft_irfft(x):
    r = jnp.fft.rfft(x)
    return r, jnp.fft.irfft(r, n=x.shape[-1])

def fft_2d(x, y):
    z = lax.complex(x, y)
    return jnp.fft.fft2(z), jnp.fft.ifft2(z), jnp.fft.rfft2(x), jnp.fft.irfft2(jnp.fft.rfft2(x), s=x.shape[-2:])

def fft_3d(x, y):
    return jnp.fft.fftn(lax.complex(x, y), axes=(-3, -2, -1))

cases = [
    ('fft_pow2_c64', fft_1d, [((3, 16), jnp.float32)] * 2),
    ('fft_direct_c64', fft_1d, [((2, 12), jnp.float32)] * 2),
    ('fft_bluestein_c64', fft_1d, [((2, 100), jnp.float32)] * 2),
    ('rfft_even_odd_f32', rfft_irfft, [((4, 20), jnp.float32)]),
    ('rfft_odd_f32', rfft_irfft, [((3, 9), jnp.float32)]),
    ('rfft_long_f64', rfft_irfft, [((2, 130), jnp.float64)]),
    ('fft_2d_c64', fft_2d, [((2, 8, 6), jnp.float32)] * 2),
    ('fft_3d_c128', fft_3d, [((4, 3, 5), jnp.float64)] * 2),
]
write_lowerings(out, [(name, f, [jax.ShapeDtypeStruct(s, dt) for s, dt in shapes], name) for name, f, shapes in cases])
