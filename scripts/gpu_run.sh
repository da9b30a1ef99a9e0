#!/usr/bin/env bash
# The one script run on the GPU machine (see crates/oxhlo-cuda/NOTES.md): `gpu_run.sh tests` runs the CUDA
# backend's test binaries, the JAX plugin suite on the GPU and JAX loops on resident arrays; `gpu_run.sh bench`
# runs the JAX anchor suite on XLA:CUDA and on oxhlo (OXHLO_BACKEND=cuda) in one job and writes the table
# (PROFILE=name,name adds an OXHLO_PROFILE=1 pass over those); `gpu_run.sh profile` (PROFILE=name,name)
# prints the device time of each step of those benchmarks (OXHLO_PROFILE=gpu); `gpu_run.sh ab` compares two
# builds, `gpu_run.sh envab` one build under two settings (ENV_A, ENV_B); `gpu_run.sh cold` the first-call
# (compile) time with an empty kernel cache and a filled one; `gpu_run.sh firstcall` splits first calls
# into JAX's lowering, the compile and the first run (XLA, then oxhlo cold and warm); `gpu_run.sh probe` the fixed cost
# of a call beside its device work; `gpu_run.sh pipelined` training loops that do not wait between steps;
# `gpu_run.sh series` the time of every call of a training step from the first on, cold and warm;
# `gpu_run.sh sorts` jnp.sort / argsort / top_k / argmax on XLA and on oxhlo's device kernels;
# `gpu_run.sh calls` each call's host time in loops that do not wait (scripts/call_times.py; CALLS_AB
# the benchmarks), on XLA and on oxhlo;
# `gpu_run.sh kernels` the device time of softmax, layer norm, attention and nanoGPT's kernels on XLA and
# on oxhlo in one job (scripts/kernel_times.py; KERNEL_ENV=NAME=value times oxhlo under it too); `REQUIRE=H200` (any mode) exits at once on another card;
# `gpu_run.sh windows` pooling, its gradient, cumsum and a scan the same way; `gpu_run.sh updates` scans
# and fori_loops updating their carried arrays, scatters, cholesky and triangular solves.
# The plugin suite runs with OXHLO_CUDA_TF32=0:
# its references are exact f32 results of JAX on the CPU.
# Everything is built on the CPU machine (there is no Rust toolchain there) by scripts/gpu_carry.sh into
# gpu-carry/ (listed in .git/info/exclude):
#
#   gpu-carry/{conformance_gpu,bench_gpu,render,device_values}   cargo test -p oxhlo-cuda --release binaries
#     (these and the plugin travel packed as gpu-carry/bins.tar.xz, unpacked below)
#   gpu-carry/liboxhlo_pjrt.so                                     cargo build --release -p oxhlo-pjrt
#   gpu-carry/old_pjrt.so (`gpu_run.sh ab` only)                   an earlier build of it, to compare with
#   gpu-carry/{anchor_bench.py,bench_table.py}                     the suite and the table maker
# Logs go to $OUT.
set -u
MODE=${1:-tests}
OUT=${OUT:-/tmp/oxhlo-gpu-out}
mkdir -p "$OUT"
ROOT=$(pwd)
C="${CARRY:-$ROOT/gpu-carry}"
# scripts/gpu_carry.sh packs the binaries into one archive (the carry limit): unpacked once here.
if [ -f "$C/bins.tar.xz" ] && [ ! -e "$C/liboxhlo_pjrt.so" ]; then tar xJf "$C/bins.tar.xz" -C "$C"; fi
PY=/opt/torch/.venv/bin/python3
export OXHLO_CUDA_CACHE=/tmp/oxhlo-kernel-cache
export CONFORMANCE_DIR="$ROOT/crates/oxhlo-interp/tests/conformance"
export PJRT_NAMES_AND_LIBRARY_PATHS="oxhlo:$C/liboxhlo_pjrt.so"
# cuDNN lives in the Python environment's nvidia wheels: the plugin finds it there by itself (beside the
# site-packages its process loaded libraries from); the Rust test binaries are told.
CUDNN_DIR=$(ls -d /opt/torch/.venv/lib/python3*/site-packages/nvidia/cudnn/lib 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,memory.used,memory.total,clocks.sm,clocks.mem --format=csv,noheader 2>&1 | head -2
# The issue's suites and tables are for an H200: REQUIRE=H200 spends no device time on another card.
if [ -n "${REQUIRE:-}" ] && ! nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | grep -q "$REQUIRE"; then
  echo "not a $REQUIRE: nothing run"; exit 0
fi
summary=()

if [ "$MODE" = tests ] || [ "$MODE" = pytest ]; then
  # The plugin suite on the GPU runs beside the Rust binaries (correctness only, no timings).
  ( cd "$ROOT" && env -u PJRT_NAMES_AND_LIBRARY_PATHS OXHLO_PLUGIN_PATH="$C/liboxhlo_pjrt.so" OXHLO_BACKEND=cuda OXHLO_CUDA_TF32=0 JAX_PLATFORMS=oxhlo PYTHONUNBUFFERED=1 \
      timeout "${PYTEST_TIMEOUT:-400}" "$PY" -m pytest -q -p no:cacheprovider python/tests > "$OUT/pytest_cuda.log" 2>&1; echo "rc=$?" >> "$OUT/pytest_cuda.log" ) &
  PYT=$!
  [ "$MODE" = pytest ] && { wait $PYT; summary+=("pytest (OXHLO_BACKEND=cuda): $(tail -2 "$OUT/pytest_cuda.log" | tr '\n' ' ')"); grep -E '^(FAILED|ERROR)' "$OUT/pytest_cuda.log" | head -40; printf '%s\n' "${summary[@]}"; exit 0; }
  for t in render device_values tiers gemm_epilogue bench_gpu; do
    [ -x "$C/$t" ] || continue
    # The graph log says why a run was not captured (device_values' graph test, session 31).
    OXHLO_CUDA_GRAPH_LOG=1 OXHLO_CUDNN_DIR="$CUDNN_DIR" timeout 120 "$C/$t" --nocapture > "$OUT/$t.log" 2>&1; rc=$?
    summary+=("$t rc=$rc: $(grep -E 'test result' "$OUT/$t.log" | tr '\n' ' ')")
    [ $rc -ne 0 ] && tail -25 "$OUT/$t.log"
  done
  sed -n '/== oxhlo-cuda timings ==/,$p' "$OUT/bench_gpu.log" 2>/dev/null | head -14
  if [ -x "$C/conformance_gpu" ]; then
    OXHLO_CUDNN_DIR="$CUDNN_DIR" timeout "${CONF_TIMEOUT:-240}" "$C/conformance_gpu" --nocapture > "$OUT/conformance_gpu.log" 2>&1; rc=$?
    summary+=("conformance rc=$rc: $(grep -E 'CUDA backend conformance|on cuDNN' "$OUT/conformance_gpu.log" | tr '\n' ' ')")
    grep -E '^[a-z0-9_]+\.mlir: [0-9]+ passed' "$OUT/conformance_gpu.log" | head -30
    grep -E 'FAIL|error' "$OUT/conformance_gpu.log" | head -30
  fi
  OXHLO_BACKEND=cuda JAX_PLATFORMS=oxhlo,cpu PYTHONUNBUFFERED=1 \
    timeout 120 "$PY" "$ROOT/crates/oxhlo-cuda/tests/jax_resident.py" > "$OUT/jax_resident.log" 2>&1; rc=$?
  summary+=("jax_resident rc=$rc: $(grep -E 'ALL PASSED|FAILED|SKIP' "$OUT/jax_resident.log" | tail -1)")
  [ $rc -ne 0 ] && grep -v '^WARNING' "$OUT/jax_resident.log" | tail -15
  wait $PYT
  summary+=("pytest (OXHLO_BACKEND=cuda): $(tail -2 "$OUT/pytest_cuda.log" | tr '\n' ' ')")
  grep -E '^(FAILED|ERROR)' "$OUT/pytest_cuda.log" | head -30
fi

if [ "$MODE" = bench ]; then
  ONLY=${ONLY:-gemm_f32_4096,gemm_bf16_8192,mlp_b4096_d1024_h4096_x3,attn_b4_h8_s1024_d64_causal,layernorm_4096x4096,softmax_4096x4096,reduce_rows_4096x4096,reduce_cols_4096x4096,reduce_all_4096x4096,eltwise_chain_16M,conv3x3_b32_c64_56,resnet18_cifar_b256_train,nanogpt_6l384d_b16_s256_train}
  REPS=${REPS:-10}
  JAX_PLATFORMS=cuda PYTHONUNBUFFERED=1 timeout "${XLA_TIMEOUT:-200}" "$PY" "$C/anchor_bench.py" --only "$ONLY" --reps "$REPS" --json "$OUT/xla_gpu.json" > "$OUT/xla_gpu.log" 2>&1
  summary+=("xla anchor rc=$?")
  OXHLO_CUDA_GRAPH_LOG=1 JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda PYTHONUNBUFFERED=1 timeout "${OXHLO_TIMEOUT:-330}" "$PY" "$C/anchor_bench.py" --only "$ONLY" --reps "$REPS" --json "$OUT/oxhlo_gpu.json" > "$OUT/oxhlo_gpu.log" 2>&1
  summary+=("oxhlo anchor rc=$?")
  "$PY" "$C/bench_table.py" "$OUT/xla_gpu.json" "$OUT/oxhlo_gpu.json" > "$OUT/table_gpu.md" 2>&1
  grep -v '^WARNING' "$OUT/xla_gpu.log" | tail -14
  grep -v "^WARNING" "$OUT/oxhlo_gpu.log" | grep -v "oxhlo-cuda graph" | tail -16; grep "oxhlo-cuda graph" "$OUT/oxhlo_gpu.log" | sort | uniq -c
  cat "$OUT/table_gpu.md"
  if [ -n "${PROFILE:-}" ]; then
    # Where the time goes (every step synchronized, so slower than the timed runs above).
    JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda OXHLO_PROFILE=1 PYTHONUNBUFFERED=1 timeout 150 "$PY" "$C/anchor_bench.py" --only "$PROFILE" --reps 1 > "$OUT/profile.log" 2>&1
    JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda OXHLO_PROFILE=launch PYTHONUNBUFFERED=1 timeout 150 "$PY" "$C/anchor_bench.py" --only "$PROFILE" --reps 1 > "$OUT/profile_launch.log" 2>&1
    grep -A27 "oxhlo-cuda profile" "$OUT/profile.log" | tail -60
    grep -A12 "oxhlo-cuda profile" "$OUT/profile_launch.log" | tail -26
  fi
fi
if [ "$MODE" = ab ]; then
  # The same benchmarks (AB, default the two training steps) on two plugin builds, alternating (ROUNDS
  # times): gpu-carry/old_pjrt.so (an earlier build) and gpu-carry/liboxhlo_pjrt.so.
  AB=${AB:-resnet18_cifar_b256_train,nanogpt_6l384d_b16_s256_train}
  for r in $(seq 1 "${ROUNDS:-2}"); do
    for so in old_pjrt.so liboxhlo_pjrt.so; do
      PJRT_NAMES_AND_LIBRARY_PATHS="oxhlo:$C/$so" JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda PYTHONUNBUFFERED=1 timeout 200 "$PY" "$C/anchor_bench.py" --only "$AB" --reps "${REPS:-10}" > "/tmp/ab_$so.log" 2>&1
      grep -E ' ms ' "/tmp/ab_$so.log" | grep -v WARNING | sed "s/^/round $r $so: /" | tee -a "$OUT/ab.txt"
      # With OXHLO_CUDA_GRAPH_LOG=1: what became of each program's graph.
      grep 'oxhlo-cuda graph' "/tmp/ab_$so.log" | sort | uniq -c | sed "s/^/round $r $so: /" | tee -a "$OUT/ab.txt"
    done
  done
fi

if [ "$MODE" = envab ]; then
  # The same benchmarks (AB) on one build under two environment settings, alternating (ROUNDS times):
  # ENV_A and ENV_B, each `NAME=value` (e.g. OXHLO_CUDA_COL_UNROLL=4 and =8).
  AB=${AB:-resnet18_cifar_b256_train,nanogpt_6l384d_b16_s256_train}
  for r in $(seq 1 "${ROUNDS:-1}"); do
    for e in "$ENV_A" "$ENV_B"; do
      env "$e" JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda PYTHONUNBUFFERED=1 timeout 200 "$PY" "$C/anchor_bench.py" --only "$AB" --reps "${REPS:-10}" > /tmp/envab.log 2>&1
      grep -E ' ms ' /tmp/envab.log | grep -v WARNING | sed "s/^/round $r $e: /" | tee -a "$OUT/envab.txt"
    done
  done
fi
if [ "$MODE" = cold ]; then
  # First-call (compile) time of the benchmarks in AB (default the two training steps) with an empty kernel
  # cache, then with the cache it filled; OXHLO_CUDA_COMPILE_LOG=1 says where the time went.
  AB=${AB:-resnet18_cifar_b256_train,nanogpt_6l384d_b16_s256_train}
  for c in cold warm; do
    [ "$c" = cold ] && rm -rf "$OXHLO_CUDA_CACHE"
    OXHLO_CUDA_COMPILE_LOG=1 JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda PYTHONUNBUFFERED=1 timeout 200 "$PY" "$C/anchor_bench.py" --only "$AB" --reps "${REPS:-3}" > "/tmp/cold_$c.log" 2>&1
    grep -E ' ms |oxhlo-cuda compile' "/tmp/cold_$c.log" | grep -v WARNING | grep -vE 'compile: (first run [0-9] ms|planned and listed [0-9]+ kernels in [0-9] ms|[0-9] kernels listed)' | sed "s/^/$c: /" | tee -a "$OUT/cold.txt"
  done
  # Where the first run of each (many-step) program goes: its per-step profile (each step synchronized;
  # NOPROFILE=1 skips it).
  [ -z "${NOPROFILE:-}" ] && OXHLO_PROFILE=1 OXHLO_PROFILE_TOP=14 JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda PYTHONUNBUFFERED=1 timeout 200 "$PY" "$C/anchor_bench.py" --only "$AB" --reps 1 > /tmp/cold_profile.log 2>&1
  [ -z "${NOPROFILE:-}" ] && awk '/oxhlo-cuda profile/ { split($0, a, ": "); n = a[2] + 0; show = (n >= 300 && !(n in seen)); if (show) seen[n] = 1 } show' /tmp/cold_profile.log | tee -a "$OUT/cold.txt"
fi
if [ "$MODE" = probe ]; then
  # Fixed per-call cost beside the device work (scripts/overhead_probe.py) on XLA:CUDA and on oxhlo.
  JAX_PLATFORMS=cuda timeout 120 "$PY" "$ROOT/scripts/overhead_probe.py" 2>&1 | grep -v WARNING | tee "$OUT/probe.txt"
  JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda timeout 120 "$PY" "$ROOT/scripts/overhead_probe.py" 2>&1 | grep -v WARNING | tee -a "$OUT/probe.txt"
fi
if [ "$MODE" = pipelined ]; then
  # Steps dispatched back to back, each feeding the next, waited for once (scripts/pipelined_steps.py;
  # AB, default the two training steps), on XLA:CUDA and on oxhlo, then on oxhlo with OXHLO_CUDA_ASYNC=0.
  AB=${AB:-resnet18_cifar_b256_train nanogpt_6l384d_b16_s256_train}
  AB=${AB//,/ }
  # PIPE_ENVS: more oxhlo settings to compare (space-separated NAME=value, each its own pass).
  for b in cuda oxhlo oxhlo-sync ${PIPE_ENVS:-}; do
    case $b in cuda) e="JAX_PLATFORMS=cuda";; oxhlo) e="JAX_PLATFORMS=oxhlo";; oxhlo-sync) e="OXHLO_CUDA_ASYNC=0";; *) e="$b";; esac
    [[ $b == *=* ]] && b="oxhlo $b"
    p=cuda; [ "$b" = cuda ] || p=oxhlo
    env OXHLO_CUDA_GRAPH_LOG=1 "$e" JAX_PLATFORMS=$p OXHLO_BACKEND=cuda PYTHONUNBUFFERED=1 timeout 200 "$PY" "$C/pipelined_steps.py" --steps "${STEPS:-30}" $AB > /tmp/pipe.log 2>&1; grep -E 'pipelined|Error' /tmp/pipe.log | sed "s/^/$b: /" | tee -a "$OUT/pipelined.txt"
    grep 'oxhlo-cuda graph' /tmp/pipe.log | sort | uniq -c | sed "s/^/$b: /" >> "$OUT/pipelined.txt"
  done
fi
if [ "$MODE" = profile ]; then
  # Device time of every step (CUDA events around each, OXHLO_PROFILE=gpu) of the benchmarks in PROFILE;
  # the last report of each is its last timed run. GRAPHCHECK=1 first times nanogpt with graphs off and on.
  if [ -n "${GRAPHCHECK:-}" ]; then
    for g in 0 1; do
      JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda OXHLO_CUDA_GRAPHS=$g OXHLO_CUDA_GRAPH_LOG=1 PYTHONUNBUFFERED=1 timeout 120 "$PY" "$C/anchor_bench.py" --only nanogpt_6l384d_b16_s256_train --reps 5 > "$OUT/graphs_$g.log" 2>&1
      summary+=("graphs=$g: $(grep -E 'nanogpt' "$OUT/graphs_$g.log" | tail -1) captures: $(grep -c 'captured a run' "$OUT/graphs_$g.log") differ: $(grep -c 'inputs differ' "$OUT/graphs_$g.log")")
    done
  fi
  for b in ${PROFILE//,/ }; do
    JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda OXHLO_PROFILE=gpu OXHLO_PROFILE_TOP=${TOP:-30} PYTHONUNBUFFERED=1 timeout 150 "$PY" "$C/anchor_bench.py" --only "$b" --reps 1 > "/tmp/prof_$b.log" 2>&1
    { echo "== $b"; "$PY" "$ROOT/scripts/profile_pick.py" "/tmp/prof_$b.log"; } > "/tmp/last_$b.txt"
    cat "/tmp/last_$b.txt" >> "$OUT/profiles.txt"; head -${SHOW:-12} "/tmp/last_$b.txt"
  done
fi
if [ "$MODE" = series ]; then
  # The time of every call from the first on (scripts/step_series.py; AB, default the two training
  # steps, N calls, default 40): with no kernel cache of ours nor the driver's, with the cache it filled,
  # and cold with the optimization tiers off; then XLA. Shows how long a cold process runs on the quick
  # tier's kernels.
  AB=${AB:-resnet18_cifar_b256_train nanogpt_6l384d_b16_s256_train}
  AB=${AB//,/ }
  for c in cold warm cold_tiers_off; do
    case $c in cold*) rm -rf "$OXHLO_CUDA_CACHE" "$HOME/.nv/ComputeCache" ;; esac
    TIERS=$([ "$c" = cold_tiers_off ] && echo 0 || echo "${OXHLO_NVRTC_TIERS:-8}")
    OXHLO_NVRTC_TIERS=$TIERS OXHLO_CUDA_GRAPH_LOG=1 JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda timeout 200 "$PY" "$C/step_series.py" "${N:-40}" $AB > "$OUT/series_$c.log" 2>&1
    grep -E 'first|graph: (captured|kernels upgraded)' "$OUT/series_$c.log" | sed "s/^/$c: /" | tee -a "$OUT/series.txt"
  done
  JAX_PLATFORMS=cuda timeout 200 "$PY" "$C/step_series.py" "${N:-40}" $AB 2>&1 | grep first | sed 's/^/xla: /' | tee -a "$OUT/series.txt"
fi
if [ "$MODE" = firstcall ]; then
  # Where the first calls of the benchmarks in AB (default the two training steps) go: JAX's tracing and
  # lowering, the compile, the first run (scripts/first_call_parts.py), for XLA (NO_XLA=1 skips it) and for
  # oxhlo with an empty kernel cache then twice with the cache it filled; the compile log of each oxhlo
  # pass in $OUT.
  AB=${AB:-resnet18_cifar_b256_train nanogpt_6l384d_b16_s256_train}
  AB=${AB//,/ }
  [ -z "${NO_XLA:-}" ] && JAX_PLATFORMS=cuda "$PY" "$C/first_call_parts.py" $AB 2>&1 | grep 'first call' | sed 's/^/xla: /' | tee -a "$OUT/firstcall.txt"
  # Cold means no kernel cache of ours and none of the driver's: CUDA 13's NVRTC keeps the machine code
  # it compiles in the driver's ComputeCache (~/.nv) too, so a second "cold" run would find it there.
  rm -rf "$OXHLO_CUDA_CACHE" "$HOME/.nv/ComputeCache"
  # Then cold again with the optimization tiers off (everything compiled fully at once) and on.
  for c in cold warm1 warm2 cold_tiers_off cold_again; do
    case $c in cold_*) rm -rf "$OXHLO_CUDA_CACHE" "$HOME/.nv/ComputeCache" ;; esac
    TIERS=$([ "$c" = cold_tiers_off ] && echo 0 || echo "${OXHLO_NVRTC_TIERS:-8}")
    OXHLO_NVRTC_TIERS=$TIERS OXHLO_CUDA_COMPILE_LOG=1 OXHLO_LOG=info JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda "$PY" "$C/first_call_parts.py" $AB > "$OUT/firstcall_$c.log" 2>&1
    grep 'first call' "$OUT/firstcall_$c.log" | sed "s/^/$c: /" | tee -a "$OUT/firstcall.txt"
  done
fi
if [ "$MODE" = calls ]; then
  # Loops of calls that do not wait, their outputs kept or dropped, then waited each (call_times.py).
  CALLS_AB=${CALLS_AB:-layernorm_4096x4096 softmax_4096x4096 eltwise_chain_16M}
  for p in cuda oxhlo; do
    JAX_PLATFORMS=$p OXHLO_BACKEND=cuda timeout 150 "$PY" "$C/call_times.py" ${CALLS_AB//,/ } 2>&1 | grep -E 'a call|waited|Error' | tee -a "$OUT/calls.txt"
  done
fi
if [ "$MODE" = sorts ]; then
  # jnp.sort / argsort on XLA:CUDA and on oxhlo's device sort (scripts/sort_probe.py; SHAPES, default
  # 64x100 and 4096x1024), with its shared-memory networks (OXHLO_CUDA_SORT_REGISTERS=0), then oxhlo
  # with the sorts on the host for the small shape (OXHLO_CUDA_SORT=0).
  SHAPES=${SHAPES:-64x100 4096x1024}
  JAX_PLATFORMS=cuda timeout 120 "$PY" "$C/sort_probe.py" $SHAPES 2>&1 | grep -E ' ms a call|Error' | tee -a "$OUT/sorts.txt"
  OXHLO_CUDA_GRAPH_LOG=1 JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda timeout 120 "$PY" "$C/sort_probe.py" $SHAPES 2>&1 | grep -E ' ms a call|Error|host' | tee -a "$OUT/sorts.txt"
  # The shared-memory networks (a __syncthreads a step) beside the register ones, same shapes.
  OXHLO_CUDA_SORT_REGISTERS=0 JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda timeout 120 "$PY" "$C/sort_probe.py" $SHAPES 2>&1 | grep -E ' ms a call|Error' | sed 's/^/shared-memory networks: /' | tee -a "$OUT/sorts.txt"
  OXHLO_CUDA_SORT=0 JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda timeout 60 "$PY" "$C/sort_probe.py" 64x100 2>&1 | grep -E ' ms a call|Error' | sed 's/^/host sorts: /' | tee -a "$OUT/sorts.txt"
fi
if [ "$MODE" = windows ]; then
  # Pooling, the max-pool gradient, cumsum and a scan on XLA:CUDA and on oxhlo's device kernels
  # (scripts/window_probe.py; each checked against JAX on the CPU), then oxhlo with them on the host.
  JAX_PLATFORMS=cuda,cpu timeout 150 "$PY" "$C/window_probe.py" 2>&1 | grep -E ' ms a call|Error' | tee -a "$OUT/windows.txt"
  OXHLO_CUDA_GRAPH_LOG=1 JAX_PLATFORMS=oxhlo,cpu OXHLO_BACKEND=cuda timeout 150 "$PY" "$C/window_probe.py" 2>&1 | grep -E ' ms a call|Error|host' | tee -a "$OUT/windows.txt"
  OXHLO_CUDA_WINDOWS=0 OXHLO_CUDA_DYNAMIC_SLICES=0 JAX_PLATFORMS=oxhlo,cpu OXHLO_BACKEND=cuda timeout 150 "$PY" "$C/window_probe.py" 2>&1 | grep -E ' ms a call|Error' | sed 's/^/on the host: /' | tee -a "$OUT/windows.txt"
fi
if [ "$MODE" = updates ]; then
  # Loops updating carried arrays, scatters and linear algebra on XLA:CUDA and on oxhlo
  # (scripts/update_probe.py; each checked against JAX on the CPU), then oxhlo with counted loops off
  # (each step's predicate read back) and linear algebra on the host.
  JAX_PLATFORMS=cuda,cpu timeout 200 "$PY" "$C/update_probe.py" 2>&1 | grep -E ' ms a call|Error' | tee -a "$OUT/updates.txt"
  OXHLO_CUDA_GRAPH_LOG=1 JAX_PLATFORMS=oxhlo,cpu OXHLO_BACKEND=cuda timeout 200 "$PY" "$C/update_probe.py" 2>&1 | grep -E ' ms a call|Error|host|captured' | tee -a "$OUT/updates.txt"
  PROBE_SKIP=_1024 OXHLO_CUDA_COUNTED_LOOPS=0 OXHLO_CUDA_LINALG=0 JAX_PLATFORMS=oxhlo,cpu OXHLO_BACKEND=cuda timeout 200 "$PY" "$C/update_probe.py" 2>&1 | grep -E ' ms a call|Error' | sed 's/^/uncounted, linalg on the host: /' | tee -a "$OUT/updates.txt"
fi
if [ "$MODE" = kernels ]; then
  # Device time a call by kernel (20 calls after 3 warm-ups), XLA then oxhlo, the first lines of each.
  for b in ${KERNELS:-softmax_4096x4096 layernorm_4096x4096 attn_b4_h8_s1024_d64_causal nanogpt_6l384d_b16_s256_train}; do
    for p in cuda oxhlo; do
      JAX_PLATFORMS=$p OXHLO_BACKEND=cuda timeout 100 "$PY" "$C/kernel_times.py" "$b" 20 3 2>&1 | grep -E "^# .* ms of kernels|us " | head -3 | sed "s/^/$p: /"
    done
    # KERNEL_ENV (`NAME=value`): oxhlo again under that setting, in the same job.
    if [ -n "${KERNEL_ENV:-}" ]; then
      env "$KERNEL_ENV" OXHLO_CUDA_CACHE=/tmp/oxhlo-kernel-cache-env JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda timeout 100 "$PY" "$C/kernel_times.py" "$b" 20 3 2>&1 | grep -E "^# .* ms of kernels|us " | head -3 | sed "s/^/oxhlo $KERNEL_ENV: /"
    fi
  done 2>&1 | tee "$OUT/kernel_times.txt"
fi
echo "== summary =="
printf '%s\n' "${summary[@]}"
