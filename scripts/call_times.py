"""Where a pipelined loop's time goes: each call's host time (the dispatch returning) and the final wait,
for anchor benchmarks called N times on the same arguments without waiting, their outputs kept (as
scripts/pipelined_steps.py keeps them: fresh device memory every call) or dropped (each output freed
before the next call's is allocated), beside the same calls waited for each.

Usage (on the GPU machine): python3 call_times.py [--calls N] NAME [NAME ...]
"""
import argparse, os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, '..', '..', 'shared', 'bench')]
import numpy as np
import jax
import anchor_bench as ab

ap = argparse.ArgumentParser(); ap.add_argument('--calls', type=int, default=30); ap.add_argument('names', nargs='+')
a = ap.parse_args()
for name in a.names:
    fn, args, _ = ab.SUITE[name][0]()
    for _ in range(5):
        jax.block_until_ready(fn(*args))

    def loop(keep):
        outs, host = [], []
        t0 = time.perf_counter()
        for _ in range(a.calls):
            t = time.perf_counter(); out = fn(*args); host.append(time.perf_counter() - t)
            if keep:
                outs.append(out)
        t = time.perf_counter(); jax.block_until_ready(out); last = time.perf_counter() - t
        return (time.perf_counter() - t0) / a.calls, np.median(host), max(host), last

    for mode in ("kept", "dropped", "kept", "dropped"):
        per, med, mx, last = loop(mode == "kept")
        print(f"{jax.devices()[0].platform} {name:30s} outputs {mode:8s} {per * 1e3:7.3f} ms a call; a call's host time median "
              f"{med * 1e3:6.3f} max {mx * 1e3:6.3f} ms; the final wait {last * 1e3:6.3f} ms", flush=True)
    waited = []
    for _ in range(a.calls):
        t = time.perf_counter(); jax.block_until_ready(fn(*args)); waited.append(time.perf_counter() - t)
    print(f"{jax.devices()[0].platform} {name:30s} waited each {np.median(waited) * 1e3:7.3f} ms", flush=True)
