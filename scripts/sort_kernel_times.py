"""Device time of each kernel launch of one jnp.sort / jnp.argsort call, in launch order, on whichever JAX
backend JAX_PLATFORMS selects (XLA:CUDA or oxhlo's plugin), under PyTorch's profiler (CUPTI sees every
kernel of the process): where a long-row sort's time goes (the chunk sort, each merge pass or network
stage, the gather).

Usage (on the GPU machine): python3 sort_kernel_times.py [ROWSxCOLS ...] (default 16x65536)
"""
import os, sys
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
# Programmatic dependent launches would put the wait for the kernel before into a kernel's device time.
os.environ.setdefault("OXHLO_CUDA_PDL", "0")
import jax, jax.numpy as jnp
import torch
from torch.profiler import profile, ProfilerActivity


def main():
    torch.zeros(1, device="cuda")  # CUDA and CUPTI up before tracing starts
    for arg in sys.argv[1:] or ["16x65536"]:
        shape = tuple(int(s) for s in arg.split("x"))
        x = jax.random.normal(jax.random.PRNGKey(0), shape)
        cases = [("sort", jax.jit(lambda x: jnp.sort(x, axis=-1))), ("argsort", jax.jit(lambda x: jnp.argsort(x, axis=-1))),
                 ("sort_axis0", jax.jit(lambda x: jnp.sort(x[:, :64], axis=0)))]
        for name, f in cases:
            for _ in range(3):
                jax.block_until_ready(f(x))
            steps = 5
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                for _ in range(steps):
                    jax.block_until_ready(f(x))
            kernels = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA and e.device_time_total > 0]
            per_call = len(kernels) // steps
            total = sum(e.device_time_total for e in kernels) / steps
            print(f"# {name} {arg} on {jax.devices()[0].platform}: {total:.1f} us of kernels a call, {per_call} launches", flush=True)
            # The last call's launches in order.
            for e in kernels[-per_call:]:
                print(f"  {e.device_time_total:8.1f} us  {e.name[:90]}", flush=True)


if __name__ == "__main__":
    main()
