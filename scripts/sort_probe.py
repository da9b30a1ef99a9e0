"""jnp.sort / jnp.argsort / lax.top_k / jnp.argmax through the current JAX platform: first call, time a call, and equality with NumPy.

Usage: python3 scripts/sort_probe.py [ROWSxCOLS ...] (default 4096x1024). Run with JAX_PLATFORMS=cuda for
XLA, JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda for oxhlo's device sort (scripts/gpu_run.sh sorts runs both);
CASES=sort,argsort runs only those; CALLS=n times n pipelined calls (one wait) and n waited each.
"""
import os, sys, time
import numpy as np
import jax, jax.numpy as jnp

for arg in sys.argv[1:] or ["4096x1024"]:
    shape = tuple(int(s) for s in arg.split("x"))
    x = jax.random.normal(jax.random.PRNGKey(0), shape)
    xn = np.asarray(x)
    cases = [("sort", jax.jit(lambda x: jnp.sort(x, axis=-1)), np.sort(xn, axis=-1)),
             ("argsort", jax.jit(lambda x: jnp.argsort(x, axis=-1)), np.argsort(xn, axis=-1, kind="stable")),
             ("sort_axis0", jax.jit(lambda x: jnp.sort(x[:, :64], axis=0)), np.sort(xn[:, :64], axis=0)),
             ("top_k8", jax.jit(lambda x: jax.lax.top_k(x, 8)[0]), -np.sort(-xn, axis=-1)[..., :8]),
             ("top_k32", jax.jit(lambda x: jax.lax.top_k(x, 32)[0]), -np.sort(-xn, axis=-1)[..., :32]),
             ("argmax", jax.jit(lambda x: jnp.argmax(x, axis=-1)), np.argmax(xn, axis=-1))]
    only = os.environ.get("CASES")
    for name, f, ref in cases:
        if only and name not in only.split(","):
            continue
        t0 = time.perf_counter(); r = f(x).block_until_ready(); t1 = time.perf_counter()
        for _ in range(3): f(x).block_until_ready()
        t2 = time.perf_counter()
        for _ in range(10): r = f(x)
        r.block_until_ready(); t3 = time.perf_counter()
        n = int(os.environ.get("CALLS", "10"))
        t4 = time.perf_counter()
        for _ in range(n): r = f(x)
        r.block_until_ready(); t5 = time.perf_counter()
        for _ in range(n): f(x).block_until_ready()
        t6 = time.perf_counter()
        ok = bool(np.array_equal(np.asarray(r), ref))
        print(f"{jax.devices()[0].platform} {name} {arg}: first {1e3 * (t1 - t0):.0f} ms, "
              f"{1e3 * (t3 - t2) / 10:.3f} ms a call, {1e3 * (t5 - t4) / n:.3f} over {n} pipelined, "
              f"{1e3 * (t6 - t5) / n:.3f} waited each, equal to numpy: {ok}", flush=True)
