#!/usr/bin/env bash
# Builds what scripts/gpu_run.sh needs on the GPU machine (x86-64 binaries; no Rust toolchain there) and
# copies it into gpu-carry/ (ignored through .git/info/exclude; name it in the device tool's `carry`), the
# binaries packed into gpu-carry/bins.tar.xz.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p gpu-carry
cargo build --release -p oxhlo-pjrt
cargo build --release -p oxhlo-cuda --bin oxhlo-nvrtc
# The NVRTC worker sits beside the plugin, where the plugin looks for it (as in the Python wheel).
cp target/release/liboxhlo_pjrt.so target/release/oxhlo-nvrtc gpu-carry/
cargo test --release -p oxhlo-cuda --no-run --message-format=json 2>/dev/null | python3 -c '
import json, shutil, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"]:
        name = m["target"]["name"]
        if name in ("conformance_gpu", "bench_gpu", "render", "device_values", "tiers", "gemm_epilogue"):
            shutil.copy(m["executable"], "gpu-carry/" + name)
'
cargo build --release -p oxhlo-cuda --example nvrtc_time --example sum_lab --example linalg_lab
cp target/release/examples/nvrtc_time target/release/examples/sum_lab target/release/examples/linalg_lab gpu-carry/
cp ../shared/bench/anchor_bench.py scripts/bench_table.py scripts/kernel_times.py scripts/profile_pick.py scripts/first_call_parts.py scripts/pipelined_steps.py scripts/step_series.py scripts/sort_probe.py scripts/window_probe.py scripts/update_probe.py scripts/probe_timing.py scripts/sort_kernel_times.py scripts/call_times.py scripts/ncu_probe.py gpu-carry/
# The device tool carries at most 64 MiB with the working tree: the binaries (~55 MB) travel as one xz
# archive (~12 MB) that scripts/gpu_run.sh unpacks.
( cd gpu-carry && rm -f bins.tar.xz && tar cJf bins.tar.xz conformance_gpu bench_gpu render device_values tiers gemm_epilogue nvrtc_time sum_lab linalg_lab liboxhlo_pjrt.so oxhlo-nvrtc \
    && rm -f conformance_gpu bench_gpu render device_values tiers gemm_epilogue nvrtc_time sum_lab linalg_lab liboxhlo_pjrt.so oxhlo-nvrtc )
ls -la gpu-carry
