"""Device time of every kernel one anchor benchmark launches per call, on whichever JAX backend
JAX_PLATFORMS selects (XLA:CUDA or oxhlo's plugin): the suite's function is warmed up, then STEPS calls
run under PyTorch's profiler, whose CUPTI activity tracing sees every kernel of the process (JAX's and
oxhlo's included). Prints the kernels by total time per call and a split into convolution / GEMM /
other, so that XLA's and oxhlo's device time can be compared part by part.

Usage (on the GPU machine): python3 kernel_times.py BENCH [STEPS] [TOP]
"""
import os, sys, collections
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
# oxhlo's programmatic dependent launches start a kernel while the one before it runs (it waits inside):
# its device time would include that wait. Plain launches, unless the caller says otherwise.
os.environ.setdefault("OXHLO_CUDA_PDL", "0")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jax
import torch
from torch.profiler import profile, ProfilerActivity
import anchor_bench


def kind(name):
    n = name.lower()
    if any(s in n for s in ("conv", "dgrad", "wgrad", "fprop", "implicit", "xmma", "winograd", "cudnn", "fft")):
        return "convolution"
    if any(s in n for s in ("gemm", "cublas", "sm90_", "cutlass", "nvjet", "matmul")):
        return "gemm"
    return "other"


def main():
    bench = sys.argv[1]
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    torch.zeros(1, device="cuda")  # CUDA and CUPTI up before tracing starts
    fn, args, _ = anchor_bench.SUITE[bench][0]()
    for _ in range(3):
        jax.block_until_ready(fn(*args))
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(steps):
            jax.block_until_ready(fn(*args))
    per = collections.defaultdict(lambda: [0.0, 0])
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA and e.device_time_total > 0:
            name = e.name
            if name.startswith("Memcpy") or name.startswith("Memset"):
                name = name.split(" ")[0] + " " + (name.split(" ")[1] if " " in name else "")
            per[name][0] += e.device_time_total
            per[name][1] += 1
    total = sum(v[0] for v in per.values()) / steps
    by_kind = collections.defaultdict(float)
    for n, (t, _) in per.items():
        by_kind[kind(n)] += t / steps
    print(f"# {bench} on {jax.devices()[0].platform}: {total / 1e3:.3f} ms of kernels per call, "
          f"{sum(v[1] for v in per.values()) / steps:.0f} launches per call")
    for k in ("convolution", "gemm", "other"):
        print(f"#   {k:12s} {by_kind[k] / 1e3:8.3f} ms")
    for n, (t, c) in sorted(per.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"{t / steps:10.1f} us {c / steps:6.1f}x  {kind(n)[:4]}  {n[:150]}")


if __name__ == "__main__":
    main()
