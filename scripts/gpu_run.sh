#!/usr/bin/env bash
# The one script run on the GPU machine (see crates/oxhlo-cuda): runs the CUDA backend's test binaries and
# timings carried in gpu-carry/ (built on the CPU machine: there is no Rust toolchain there), then, if
# time permits, the JAX anchor benchmarks on XLA:CUDA and on oxhlo through the plugin. Logs go to $OUT.
#
#   gpu-carry/conformance_gpu   cargo test -p oxhlo-cuda --release --test conformance_gpu (binary)
#   gpu-carry/bench_gpu         ... --test bench_gpu
#   gpu-carry/render            ... --test render
#   gpu-carry/device_values     ... --test device_values (run_device: values kept on the device across runs)
#   gpu-carry/liboxhlo_pjrt.so  cargo build --release -p oxhlo-pjrt --lib
#   gpu-carry/anchor_bench.py   a copy of ../shared/bench/anchor_bench.py
# and crates/oxhlo-cuda/tests/jax_resident.py (tracked): JAX loops on device-resident arrays through the
# plugin, checked against JAX on the CPU.
set -u
OUT=${OUT:-/tmp/oxhlo-gpu-out}
mkdir -p "$OUT"
ROOT=$(pwd)
C="$ROOT/gpu-carry"
export OXHLO_CUDA_CACHE="$OUT/kernel-cache"
export CONFORMANCE_DIR="$ROOT/crates/oxhlo-interp/tests/conformance"
nvidia-smi --query-gpu=name,memory.used,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/nvidia-smi.txt" 2>&1
cat "$OUT/nvidia-smi.txt"
summary=()
if [ -x "$C/render" ]; then
  "$C/render" --nocapture > "$OUT/render.log" 2>&1; summary+=("render tests rc=$?: $(grep -E 'test result|CUDA device' "$OUT/render.log" | tr '\n' ' ')")
fi
if [ -x "$C/device_values" ]; then
  timeout 60 "$C/device_values" --nocapture > "$OUT/device_values.log" 2>&1; summary+=("device_values rc=$?: $(grep -E 'test result' "$OUT/device_values.log" | tr '\n' ' ')")
fi
if [ -x "$C/bench_gpu" ]; then
  timeout 120 "$C/bench_gpu" --nocapture > "$OUT/bench_gpu.log" 2>&1; rc=$?
  summary+=("bench_gpu rc=$rc"); sed -n '/== oxhlo-cuda timings ==/,$p' "$OUT/bench_gpu.log" | head -12
  [ $rc -ne 0 ] && tail -30 "$OUT/bench_gpu.log"
fi
if [ -x "$C/conformance_gpu" ]; then
  timeout "${CONF_TIMEOUT:-240}" "$C/conformance_gpu" --nocapture > "$OUT/conformance_gpu.log" 2>&1; rc=$?
  summary+=("conformance rc=$rc: $(grep -E 'CUDA backend conformance' "$OUT/conformance_gpu.log")")
  grep -E '^[a-z0-9_]+\.mlir: [0-9]+ passed' "$OUT/conformance_gpu.log" | head -40
fi
PY=/opt/torch/.venv/bin/python3
if [ "${SKIP_JAX:-0}" != 1 ] && [ -f "$C/liboxhlo_pjrt.so" ] && [ -x "$PY" ]; then
  PJRT_NAMES_AND_LIBRARY_PATHS="oxhlo:$C/liboxhlo_pjrt.so" JAX_PLATFORMS=oxhlo,cpu OXHLO_BACKEND=cuda PYTHONUNBUFFERED=1 \
    timeout 120 "$PY" "$ROOT/crates/oxhlo-cuda/tests/jax_resident.py" > "$OUT/jax_resident.log" 2>&1; rc=$?
  summary+=("jax_resident rc=$rc: $(grep -E 'ALL PASSED|FAILED|SKIP' "$OUT/jax_resident.log" | tail -1)")
  echo "== jax_resident =="; grep -E '^(PASS|FAIL|TIME|SKIP)' "$OUT/jax_resident.log" | tail -24
  [ $rc -ne 0 ] && grep -v '^WARNING' "$OUT/jax_resident.log" | tail -15
fi
if [ "${SKIP_JAX:-0}" != 1 ] && [ -f "$C/anchor_bench.py" ] && [ -x "$PY" ]; then
  ONLY=${ONLY:-gemm_f32_4096,eltwise_chain_16M,softmax_4096x4096}
  JAX_PLATFORMS=cuda timeout 150 "$PY" "$C/anchor_bench.py" --only "$ONLY" --reps 5 --json "$OUT/xla.json" > "$OUT/anchor_xla.log" 2>&1
  summary+=("xla anchor rc=$?")
  PJRT_NAMES_AND_LIBRARY_PATHS="oxhlo:$C/liboxhlo_pjrt.so" JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda \
    timeout 200 "$PY" "$C/anchor_bench.py" --only "$ONLY" --reps 5 --json "$OUT/oxhlo.json" > "$OUT/anchor_oxhlo.log" 2>&1
  summary+=("oxhlo anchor rc=$?")
  echo "== XLA:CUDA =="; grep -v '^WARNING' "$OUT/anchor_xla.log" | tail -6
  echo "== oxhlo (OXHLO_BACKEND=cuda) =="; grep -v '^WARNING' "$OUT/anchor_oxhlo.log" | tail -8
fi
echo "== summary =="
printf '%s\n' "${summary[@]}"
