"""Times single JAX ops outside the anchor suite on whichever backend JAX_PLATFORMS selects (`cpu` for
XLA:CPU, `oxhlo` with OXHLO_PLUGIN_PATH for the plugin): `jax.random.normal` of [4096, 4096] f32, and
fft, rfft and fft2 of [512, 4096] (complex64 / float32) and fft of [512, 1000] (a length that is not a
power of two). Each: the first call, then the median and minimum of 7 calls, with the sum of |y| as a
checksum. Usage: python3 scripts/jax_ops_bench.py [random|fft]"""
import sys
import time

import jax
import jax.numpy as jnp


def timed(name, f, a):
    t = time.perf_counter()
    f(a).block_until_ready()
    first = time.perf_counter() - t
    times = []
    for _ in range(7):
        t = time.perf_counter()
        y = f(a)
        y.block_until_ready()
        times.append(time.perf_counter() - t)
    times.sort()
    print(f"{jax.devices()[0].platform} {name}: median {1e3 * times[3]:.2f} ms  min {1e3 * times[0]:.2f}  "
          f"first {first:.2f}s  sum|y| {float(jnp.sum(jnp.abs(y))):.6g}")


def main():
    which = sys.argv[1:] or ["random", "fft"]
    if "random" in which:
        timed("jax.random.normal 4096x4096", jax.jit(lambda k: jax.random.normal(k, (4096, 4096), jnp.float32)), jax.random.PRNGKey(0))
    if "fft" in which:
        x = jax.random.normal(jax.random.PRNGKey(0), (512, 4096), jnp.float32)
        xc = (x + 1j * x[::-1]).astype(jnp.complex64)
        timed("fft c64 512x4096", jax.jit(jnp.fft.fft), xc)
        timed("rfft f32 512x4096", jax.jit(jnp.fft.rfft), x)
        timed("fft2 c64 512x4096", jax.jit(jnp.fft.fft2), xc)
        timed("fft c64 512x1000", jax.jit(lambda v: jnp.fft.fft(v[:, :1000])), xc)


if __name__ == "__main__":
    main()
