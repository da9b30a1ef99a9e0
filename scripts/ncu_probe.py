"""Calls one anchor benchmark a few times and nothing else, so that Nsight Compute's launch counts pick
the same kernels each run: `ncu ... python3 ncu_probe.py BENCH [CALLS]` on the GPU machine (the suite's
anchor_bench.py beside it)."""
import os, sys
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jax
import anchor_bench

fn, args, _ = anchor_bench.SUITE[sys.argv[1]][0]()
for _ in range(int(sys.argv[2]) if len(sys.argv) > 2 else 3):
    jax.block_until_ready(fn(*args))
