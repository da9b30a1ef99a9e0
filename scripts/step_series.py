"""The time of each call of a benchmark from its first on (anchor_bench.py's programs), to see how a
process's step time settles: the first call, then calls 2..N each waited for.

Usage: python3 scripts/step_series.py [N] NAME [NAME ...] (anchor_bench.py is looked for beside this
script, then in ../shared/bench). Prints per benchmark the first call (s) and the N later calls (ms).
"""
import os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, '..', '..', 'shared', 'bench')]
import jax
import anchor_bench as ab

n = int(sys.argv[1]) if sys.argv[1].isdigit() else 40
for name in [a for a in sys.argv[1:] if not a.isdigit()]:
    fn, args, _ = ab.SUITE[name][0]()
    jax.block_until_ready(args)
    t0 = time.perf_counter(); jax.block_until_ready(fn(*args)); first = time.perf_counter() - t0
    ts = []
    for _ in range(n):
        t = time.perf_counter(); jax.block_until_ready(fn(*args)); ts.append((time.perf_counter() - t) * 1e3)
    print(f"{name} first {first:.2f} s; calls (ms): " + " ".join(f"{x:.1f}" for x in ts), flush=True)
