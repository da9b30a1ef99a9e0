"""Per-call cost of a jitted call on the selected JAX backend, beside the device work: times tiny programs
(one add on 4 floats, three chained ops) and a 64 MB row sum, each the median of many calls with
`block_until_ready`, plus the same calls without waiting (enqueue cost). Used on the GPU machine to see how
much of a small benchmark's time is fixed per-call cost (`scripts/gpu_run.sh probe`)."""
import sys, time
import numpy as np
import jax, jax.numpy as jnp


def med(fn, args, reps=300, wait=True):
    for _ in range(20):
        jax.block_until_ready(fn(*args))
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        out = fn(*args)
        if wait:
            jax.block_until_ready(out)
        ts.append(time.perf_counter() - t)
        if not wait:
            jax.block_until_ready(out)
    return float(np.median(ts)) * 1e6


small = jnp.ones((4,), jnp.float32)
big = jnp.ones((4096, 4096), jnp.float32)
cases = [
    ("add1 f32[4]", jax.jit(lambda x: x + 1), (small,)),
    ("3 ops f32[4]", jax.jit(lambda x: jnp.exp(x) * 2 + x), (small,)),
    ("2 outputs f32[4]", jax.jit(lambda x: (x + 1, x * 2)), (small,)),
    ("sum rows f32[4096,4096]", jax.jit(lambda x: x.sum(-1)), (big,)),
    ("add1 f32[4096,4096]", jax.jit(lambda x: x + 1), (big,)),
]
print(f"# {jax.devices()[0].platform} {jax.__version__}")
for name, fn, args in cases:
    print(f"{name:28s} wait {med(fn, args):8.1f} us   enqueue {med(fn, args, wait=False):8.1f} us", flush=True)
