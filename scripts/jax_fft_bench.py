"""Times JAX's FFTs on whichever backend JAX_PLATFORMS selects (`cpu` for XLA:CPU, `oxhlo` with
OXHLO_PLUGIN_PATH for the plugin): fft, rfft and fft2 of [512, 4096] (complex64 / float32) and fft of
[512, 1000] (a length that is not a power of two); median of 5 calls after a warm-up, with the sum of
|y| as a checksum. Usage: python3 scripts/jax_fft_bench.py"""
import time

import jax
import jax.numpy as jnp


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (512, 4096), jnp.float32)
    xc = (x + 1j * x[::-1]).astype(jnp.complex64)
    cases = [
        ("fft c64 512x4096", jax.jit(jnp.fft.fft), xc),
        ("rfft f32 512x4096", jax.jit(jnp.fft.rfft), x),
        ("fft2 c64 512x4096", jax.jit(jnp.fft.fft2), xc),
        ("fft c64 512x1000", jax.jit(lambda v: jnp.fft.fft(v[:, :1000])), xc),
    ]
    for name, f, a in cases:
        f(a).block_until_ready()
        times = []
        for _ in range(5):
            t = time.perf_counter()
            y = f(a)
            y.block_until_ready()
            times.append(time.perf_counter() - t)
        times.sort()
        print(f"{jax.devices()[0].platform} {name}: median {1e3 * times[2]:.2f} ms  sum|y| {float(jnp.sum(jnp.abs(y))):.6g}")


if __name__ == "__main__":
    main()
