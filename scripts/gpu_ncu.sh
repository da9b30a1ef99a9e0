#!/usr/bin/env bash
# Hardware counters of a window of oxhlo's own kernels (entry `oxk`) in one benchmark, through Nsight
# Compute on the GPU machine: `NCU_BENCH=name NCU_SKIP=n NCU_COUNT=m scripts/gpu_ncu.sh` (CARRY=dir with
# liboxhlo_pjrt.so and anchor_bench.py). One row per kernel: time, DRAM bytes and share of peak,
# registers, occupancy, grid. CUDA graphs are off so that every launch is a plain one.
set -u
OUT=${OUT:-/tmp/oxhlo-gpu-out}
C=${CARRY:-$(pwd)/gpu-carry}
PY=/opt/torch/.venv/bin/python3
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size
PJRT_NAMES_AND_LIBRARY_PATHS="oxhlo:$C/liboxhlo_pjrt.so" JAX_PLATFORMS=oxhlo OXHLO_BACKEND=cuda OXHLO_CUDA_GRAPHS=0 PYTHONUNBUFFERED=1 \
  timeout "${NCU_TIMEOUT:-240}" "$NCU" --clock-control none --kernel-name oxk --launch-skip "${NCU_SKIP:-2500}" --launch-count "${NCU_COUNT:-60}" \
  --metrics "$M" --csv --page raw "$PY" "$C/anchor_bench.py" --only "$NCU_BENCH" --reps 1 > "$OUT/ncu_$NCU_BENCH.csv" 2> "$OUT/ncu_$NCU_BENCH.err"
echo "ncu rc=$? ($NCU)"
"$PY" - "$OUT/ncu_$NCU_BENCH.csv" <<'PYEOF'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1], errors="replace")) if r]
hdr = None
for i, r in enumerate(rows):
    if "gpu__time_duration.sum" in r:
        hdr = i
        break
if hdr is None:
    print("no ncu rows"); print("\n".join(",".join(r) for r in rows[-5:])); sys.exit()
h = rows[hdr]
col = lambda name: h.index(name)
units = rows[hdr + 1]
print("units:", [units[col(n)] for n in ("gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum")])
print("   us     MB_rd   MB_wr  dram%  regs  occ%   grid  block")
for r in rows[hdr + 2:]:
    try:
        t = float(r[col("gpu__time_duration.sum")].replace(",", "")) / 1e3
        rd = float(r[col("dram__bytes_read.sum")].replace(",", "")) / 1e6
        wr = float(r[col("dram__bytes_write.sum")].replace(",", "")) / 1e6
        print(f"{t:7.1f} {rd:8.1f} {wr:7.1f} {r[col('dram__throughput.avg.pct_of_peak_sustained_elapsed')]:>6} {r[col('launch__registers_per_thread')]:>5} {r[col('sm__warps_active.avg.pct_of_peak_sustained_active')]:>5} {r[col('launch__grid_size')]:>6} {r[col('launch__block_size')]:>6}")
    except (ValueError, IndexError):
        pass
PYEOF
