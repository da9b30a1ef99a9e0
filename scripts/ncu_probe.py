"""Calls one anchor benchmark a few times and nothing else on the device, so that Nsight Compute's launch
counts pick the same kernels each run: the suite's arguments are drawn on the CPU and copied over (no
random-number kernels before the benchmark's own). `JAX_PLATFORMS=oxhlo,cpu ncu ... python3
ncu_probe.py BENCH [CALLS]` on the GPU machine (the suite's anchor_bench.py beside it; the first platform
listed runs the benchmark)."""
import os, sys
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jax
import anchor_bench

device = jax.devices(os.environ.get("JAX_PLATFORMS", "cpu").split(",")[0])[0]
with jax.default_device(jax.devices("cpu")[0]):
    fn, args, _ = anchor_bench.SUITE[sys.argv[1]][0]()
args = jax.device_put(args, device)
for _ in range(int(sys.argv[2]) if len(sys.argv) > 2 else 3):
    jax.block_until_ready(fn(*args))
