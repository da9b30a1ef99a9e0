"""Where a benchmark's first call goes: JAX's tracing and lowering, the backend's compile, the first run.

Usage: python3 scripts/first_call_parts.py NAME [NAME ...] (anchor_bench.py's names; it is looked for beside
this script, then in ../shared/bench). Prints one line per benchmark: lower (trace + lower to StableHLO),
compile (jax's `Lowered.compile`: serialization plus the backend's compile), first run (the compiled
function's first execution, waited for), second run, and their sum.
"""
import os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, '..', '..', 'shared', 'bench')]
import jax
import anchor_bench as ab

for name in sys.argv[1:]:
    fn, args, _ = ab.SUITE[name][0]()
    jax.block_until_ready(args)
    t0 = time.perf_counter(); lowered = fn.lower(*args)
    t1 = time.perf_counter(); compiled = lowered.compile()
    t2 = time.perf_counter(); jax.block_until_ready(compiled(*args))
    t3 = time.perf_counter(); jax.block_until_ready(compiled(*args))
    t4 = time.perf_counter()
    ms = lambda a, b: f"{(b - a) * 1e3:7.0f}"
    print(f"{name:34s} lower {ms(t0, t1)} ms  compile {ms(t1, t2)} ms  first run {ms(t2, t3)} ms  "
          f"second {ms(t3, t4)} ms  first call {ms(t0, t3)} ms", flush=True)
