"""Prints the last `oxhlo-cuda profile` report of the program with the most steps in a log (the benchmark's
own program, not the small setup programs around it); used by scripts/gpu_run.sh profile."""
import re, sys

reports, cur = [], None
for line in open(sys.argv[1], errors="replace"):
    if line.startswith("oxhlo-cuda profile"):
        m = re.search(r"(\d+) steps", line)
        cur = [int(m.group(1)) if m else 0, [line]]
        reports.append(cur)
    elif cur is not None and line.startswith("  "):
        cur[1].append(line)
    else:
        cur = None
if reports:
    most = max(r[0] for r in reports)
    sys.stdout.write("".join([r for r in reports if r[0] == most][-1][1]))
