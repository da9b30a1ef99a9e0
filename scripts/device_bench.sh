#!/usr/bin/env bash
# One device visit (see /work/.library/device and crates/oxhlo-cuda/NOTES.md): the anchor suite on the host CPU,
# XLA:CPU on cores 0-1 and oxhlo's CPU backend on cores 2-3 at the same time, then on the GPU (XLA:CUDA vs oxhlo
# with OXHLO_BACKEND=cuda). Expects gpu-carry/ with liboxhlo_pjrt.so, anchor_bench.py, anchor_cpu.py and
# bench_table.py (copied from scripts/); logs, JSON and the two Markdown tables go to $OUT.
set -u
C=$(pwd)/gpu-carry
PY=/opt/torch/.venv/bin/python3
export ANCHOR_BENCH=$C/anchor_bench.py
export PJRT_NAMES_AND_LIBRARY_PATHS="oxhlo:$C/liboxhlo_pjrt.so"
lscpu | grep -E "Model name|^CPU\(s\)|Flags" | cut -c1-200 > $OUT/cpu.txt
REPS=${REPS:-3}
( /usr/bin/time -f "%M" -o $OUT/xla_cpu.rss env JAX_PLATFORMS=cpu taskset -c 0,1 timeout 330 $PY $C/anchor_cpu.py --reps $REPS --json $OUT/xla_cpu.json > $OUT/xla_cpu.log 2>&1 ) &
( /usr/bin/time -f "%M" -o $OUT/oxhlo_cpu.rss env JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cpu taskset -c 2,3 timeout 330 $PY $C/anchor_cpu.py --reps $REPS --json $OUT/oxhlo_cpu.json > $OUT/oxhlo_cpu.log 2>&1 ) &
wait
$PY $C/bench_table.py $OUT/xla_cpu.json $OUT/oxhlo_cpu.json $OUT/xla_cpu.rss $OUT/oxhlo_cpu.rss > $OUT/table_cpu.md 2>&1
cat $OUT/table_cpu.md
ONLY=gemm_f32_4096,gemm_bf16_8192,mlp_b4096_d1024_h4096_x3,attn_b4_h8_s1024_d64_causal,layernorm_4096x4096,softmax_4096x4096,reduce_rows_4096x4096,reduce_cols_4096x4096,reduce_all_4096x4096,eltwise_chain_16M
JAX_PLATFORMS=cuda timeout 100 $PY $ANCHOR_BENCH --only $ONLY --reps 10 --json $OUT/xla_gpu.json > $OUT/xla_gpu.log 2>&1
JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda timeout 150 $PY $ANCHOR_BENCH --only $ONLY --reps 10 --json $OUT/oxhlo_gpu.json > $OUT/oxhlo_gpu.log 2>&1
$PY $C/bench_table.py $OUT/xla_gpu.json $OUT/oxhlo_gpu.json > $OUT/table_gpu.md 2>&1
cat $OUT/table_gpu.md; tail -3 $OUT/*_gpu.log
