"""Training loops as a user writes them: each step's new parameters and optimizer state feed the next step,
and the host does not wait between steps (JAX dispatches step n+1 while the device computes step n).

Usage: python3 scripts/pipelined_steps.py [--steps N] NAME [NAME ...] (anchor_bench.py's training rows, or
any row: those are called N times on the same arguments). Prints, per benchmark, the median time of a step
waited for on its own (as anchor_bench.py times it) and the time per step of N steps waited for once at
the end, best of three such loops.
"""
import argparse, os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, '..', '..', 'shared', 'bench')]
import numpy as np
import jax
import anchor_bench as ab

ap = argparse.ArgumentParser(); ap.add_argument('--steps', type=int, default=30); ap.add_argument('names', nargs='+')
a = ap.parse_args()
for name in a.names:
    fn, args, _ = ab.SUITE[name][0]()
    training = name.endswith('_train')
    nxt = (lambda out, args: tuple(out[:2]) + tuple(args[2:])) if training else (lambda out, args: args)
    jax.block_until_ready(fn(*args))
    blocked = []
    for _ in range(10):
        t = time.perf_counter(); jax.block_until_ready(fn(*args)); blocked.append(time.perf_counter() - t)
    loops = []
    for _ in range(3):
        cur = args
        jax.block_until_ready(cur)
        t = time.perf_counter()
        outs = []
        for _ in range(a.steps):
            out = fn(*cur); outs.append(out); cur = nxt(out, cur)
        jax.block_until_ready(outs)
        loops.append((time.perf_counter() - t) / a.steps)
    cs = ab.checksum(outs[-1])
    print(f"{name:34s} waited each {np.median(blocked) * 1e3:8.3f} ms  pipelined {min(loops) * 1e3:8.3f} ms/step "
          f"({a.steps} steps)  sum|last|={cs:.6g}", flush=True)
