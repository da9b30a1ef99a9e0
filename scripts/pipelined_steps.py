"""Training loops as a user writes them: each step's new parameters and optimizer state feed the next step,
and the host does not wait between steps (JAX dispatches step n+1 while the device computes step n).

Usage: python3 scripts/pipelined_steps.py [--steps N] NAME [NAME ...] (anchor_bench.py's training rows, or
any row: those are called N times on the same arguments). Prints, per benchmark, the median time of a step
waited for on its own (as anchor_bench.py times it) and the time per step of N steps waited for once at
the end, best of three such loops; for training rows also with the batch handed over from host memory
afresh each step (`jax.device_put` of a NumPy array, as a data loader does).
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
    # Host copies of the data arguments (a training row's batch), handed over afresh each step in the
    # loops with fresh batches, as a data loader does.
    host = [[np.array(x) for x in args[2:]] for _ in range(4)] if training else None
    def loop(fresh):
        cur = args
        jax.block_until_ready(cur)
        t = time.perf_counter()
        outs = []
        for i in range(a.steps):
            if fresh:
                cur = tuple(cur[:2]) + tuple(jax.device_put(x) for x in host[i % 4])
            out = fn(*cur); outs.append(out); cur = nxt(out, cur)
        jax.block_until_ready(outs)
        return (time.perf_counter() - t) / a.steps, outs
    loops = [loop(False) for _ in range(3)]
    cs = ab.checksum(loops[-1][1][-1])
    line = (f"{name:34s} waited each {np.median(blocked) * 1e3:8.3f} ms  pipelined {min(l[0] for l in loops) * 1e3:8.3f} ms/step")
    if training:
        line += f"  fresh batches {min(loop(True)[0] for _ in range(3)) * 1e3:8.3f} ms/step"
    print(f"{line}  ({a.steps} steps)  sum|last|={cs:.6g}", flush=True)
