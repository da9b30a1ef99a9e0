"""Writes the StableHLO (MLIR text) of each CPU benchmark of shared/bench/anchor_bench.py, so one program can
be timed and profiled without Python: `oxhlo bench DIR/softmax_4096x4096.mlir` (OXHLO_PROFILE=1 for per-step
times). Usage: JAX_PLATFORMS=cpu python3 dump_anchor.py OUT_DIR [name,name...]   (ANCHOR_BENCH=path overrides
the suite's path)
"""
import importlib.util
import os
import sys

import jax

here = os.path.dirname(os.path.abspath(__file__))
path = os.environ.get("ANCHOR_BENCH") or os.path.join(here, "..", "..", "shared", "bench", "anchor_bench.py")
spec = importlib.util.spec_from_file_location("anchor_bench", path)
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

out = sys.argv[1]
only = sys.argv[2].split(",") if len(sys.argv) > 2 else None
os.makedirs(out, exist_ok=True)
for name, (make, where) in bench.SUITE.items():
    if where == "gpu" or (only and name not in only):
        continue
    fn, args, _ = make()
    text = fn.lower(*args).as_text()
    with open(os.path.join(out, name + ".mlir"), "w") as f:
        f.write(text)
    print(f"{name}: {len(text)} bytes")
