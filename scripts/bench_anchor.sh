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
/usr/bin/time -f "%M" -o "$out/xla.rss" env JAX_PLATFORMS="$xla" python3 "$bench" --json "$out/xla.json" "$@" | tee "$out/xla.log"
/usr/bin/time -f "%M" -o "$out/oxhlo.rss" env JAX_PLATFORMS=oxhlo python3 "$bench" --json "$out/oxhlo.json" "$@" | tee "$out/oxhlo.log"
python3 "$here/bench_table.py" "$out/xla.json" "$out/oxhlo.json" "$out/xla.rss" "$out/oxhlo.rss" | tee "$out/table.md"
