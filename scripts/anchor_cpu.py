"""Runs shared/bench/anchor_bench.py with its CPU selection on any platform.

anchor_bench.py picks benchmarks by platform name: 'cpu' gets the CPU set, any other name (oxhlo's plugin
included) the GPU set. To compare oxhlo's CPU backend with XLA:CPU on the same programs, this wrapper marks
the CPU set as runnable everywhere and the GPU-only ones as skipped, then runs the suite's main().
Usage: python3 anchor_cpu.py [anchor_bench.py arguments]   (ANCHOR_BENCH=path overrides the suite's path)
"""
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
path = os.environ.get("ANCHOR_BENCH") or os.path.join(here, "..", "..", "shared", "bench", "anchor_bench.py")
spec = importlib.util.spec_from_file_location("anchor_bench", path)
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
for name, (make, where) in list(bench.SUITE.items()):
    if where == "gpu":
        del bench.SUITE[name]
    else:
        bench.SUITE[name] = (make, "all")
sys.argv[0] = path
bench.main()
