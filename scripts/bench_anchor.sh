#!/usr/bin/env bash
# Runs shared/bench/anchor_bench.py on XLA (JAX_PLATFORMS=$XLA_PLATFORM, default cpu) and on oxhlo in one job
# and prints a Markdown table of times, ratios (XLA / oxhlo), first-call times and checksums.
# Usage: scripts/bench_anchor.sh [--only a,b] [--reps N]   (env: OXHLO_PLUGIN_PATH, XLA_PLATFORM, OUT)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="${ANCHOR_BENCH:-$here/../../shared/bench/anchor_bench.py}"
[ -f "$bench" ] || bench="$here/../shared/bench/anchor_bench.py"
out="${OUT:-/tmp/oxhlo-anchor}"
mkdir -p "$out"
xla="${XLA_PLATFORM:-cpu}"
# On CPU both runs use the CPU selection of the suite (anchor_cpu.py); on a GPU the suite as it is.
runner="$here/anchor_cpu.py"
[ "$xla" = cpu ] || runner="$bench"
/usr/bin/time -f "%M" -o "$out/xla.rss" env JAX_PLATFORMS="$xla" ANCHOR_BENCH="$bench" python3 "$runner" --json "$out/xla.json" "$@" | tee "$out/xla.log"
/usr/bin/time -f "%M" -o "$out/oxhlo.rss" env JAX_PLATFORMS=oxhlo ANCHOR_BENCH="$bench" python3 "$runner" --json "$out/oxhlo.json" "$@" | tee "$out/oxhlo.log"
python3 "$here/bench_table.py" "$out/xla.json" "$out/oxhlo.json" "$out/xla.rss" "$out/oxhlo.rss" | tee "$out/table.md"
