"""Checks oxhlo's printed text against MLIR itself (jaxlib's bundled MLIR with the StableHLO dialects).

For every NAME.mlir in the directory argv[1] that has NAME.pretty.mlir / NAME.generic.mlir beside it (written
by oxhlo's printer), MLIR parses and verifies both and prints them in its own canonical form; the prints
must be identical (up to `func.func public`, which oxhlo does not distinguish from the default). Exit
status 1 and a diff on mismatch.
"""

import difflib
import os
import sys

from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir


def canonical(ctx, path):
    with open(path) as f:
        text = f.read()
    with ctx, ir.Location.unknown():
        m = ir.Module.parse(text)
        out = m.operation.get_asm(print_generic_op_form=False)
    return out.replace("func.func public @", "func.func @")


def main():
    d = sys.argv[1]
    ctx = mlir.make_ir_context()
    bad = 0
    checked = 0
    for name in sorted(os.listdir(d)):
        if not name.endswith(".mlir") or name.count(".") != 1:
            continue
        base = name[:-5]
        ref = canonical(ctx, os.path.join(d, name))
        for kind in ("pretty", "generic"):
            p = os.path.join(d, f"{base}.{kind}.mlir")
            if not os.path.exists(p):
                continue
            checked += 1
            try:
                got = canonical(ctx, p)
            except Exception as e:  # MLIR rejected oxhlo's output
                print(f"{p}: MLIR rejects it: {str(e)[:2000]}")
                bad += 1
                continue
            if got != ref:
                bad += 1
                print(f"{p}: differs from {name} as MLIR reads them")
                sys.stdout.writelines(list(difflib.unified_diff(ref.splitlines(True), got.splitlines(True)))[:40])
    print(f"checked {checked} files, {bad} mismatches")
    sys.exit(1 if bad or not checked else 0)


if __name__ == "__main__":
    main()
