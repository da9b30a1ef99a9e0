"""Times `jax.random.normal(key, (4096, 4096), float32)` on whichever backend JAX_PLATFORMS selects
(`cpu` for XLA:CPU, `oxhlo` with OXHLO_PLUGIN_PATH for the plugin): the first call, then the median and
minimum of 7 calls, and the sum of |values| as a checksum. Usage: python3 scripts/jax_random_bench.py"""
import time

import jax
import jax.numpy as jnp


def main():
    f = jax.jit(lambda k: jax.random.normal(k, (4096, 4096), jnp.float32))
    key = jax.random.PRNGKey(0)
    t = time.perf_counter()
    f(key).block_until_ready()
    first = time.perf_counter() - t
    times = []
    for _ in range(7):
        t = time.perf_counter()
        y = f(key)
        y.block_until_ready()
        times.append(time.perf_counter() - t)
    times.sort()
    print(f"{jax.devices()[0].platform}: jax.random.normal 4096x4096 median {1e3 * times[3]:.1f} ms "
          f"min {1e3 * times[0]:.1f} first {first:.2f}s sum|x| {float(jnp.sum(jnp.abs(y))):.6g}")


if __name__ == "__main__":
    main()
