"""Turns two anchor_bench.py --json results (XLA, oxhlo) into the Markdown table BENCHMARKS.md holds.

Usage: python3 bench_table.py xla.json oxhlo.json [xla.rss oxhlo.rss]   (rss files: peak KiB of each run)
"""
import json
import math
import sys


def main():
    xla, ox = (json.load(open(p)) for p in sys.argv[1:3])
    print("| benchmark | XLA ms | oxhlo ms | ratio (XLA/oxhlo) | first call XLA s | first call oxhlo s | checksum XLA | checksum oxhlo | agree |")
    print("|---|---|---|---|---|---|---|---|---|")
    ratios = []
    for name, x in xla.items():
        o = ox.get(name)
        if o is None:
            print(f"| {name} | {x['ms']:.3f} | failed | - | {x['first_call_s']:.2f} | - | {x['checksum']:.6g} | - | - |")
            continue
        r = x["ms"] / o["ms"]
        ratios.append(r)
        cx, co = x["checksum"], o["checksum"]
        agree = abs(cx - co) <= 1e-3 * max(abs(cx), abs(co), 1e-30)
        print(f"| {name} | {x['ms']:.3f} | {o['ms']:.3f} | {r:.2f} | {x['first_call_s']:.2f} | {o['first_call_s']:.2f} "
              f"| {cx:.6g} | {co:.6g} | {'yes' if agree else 'NO'} |")
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"\ngeomean ratio over {len(ratios)} benchmarks: {geo:.3f}")
    if len(sys.argv) >= 5:
        rx, ro = (int(open(p).read().split()[-1]) for p in sys.argv[3:5])
        print(f"peak RSS of the whole run: XLA {rx / 1024:.0f} MiB, oxhlo {ro / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
