"""Shared by the probes (window_probe.py, update_probe.py): times each jitted function on the current
JAX platform (first call, then the mean of 10 calls after 3 warm-ups) and checks its result against the
same function on JAX's CPU backend."""
import time
import numpy as np
import jax


def run_cases(cases, rtol, atol):
    """Prints a line per (name, function, input) case."""
    cpu = jax.devices("cpu")[0]
    for name, fn, x in cases:
        f = jax.jit(fn)
        t0 = time.perf_counter(); r = f(x).block_until_ready(); t1 = time.perf_counter()
        for _ in range(3): f(x).block_until_ready()
        t2 = time.perf_counter()
        for _ in range(10): r = f(x)
        r.block_until_ready(); t3 = time.perf_counter()
        ref = jax.jit(fn)(jax.device_put(x, cpu))
        ok = bool(np.allclose(np.asarray(r), np.asarray(ref), rtol=rtol, atol=atol))
        print(f"{jax.devices()[0].platform} {name} {tuple(x.shape)}: first {1e3 * (t1 - t0):.0f} ms, "
              f"{1e3 * (t3 - t2) / 10:.3f} ms a call, close to JAX on the CPU: {ok}", flush=True)
