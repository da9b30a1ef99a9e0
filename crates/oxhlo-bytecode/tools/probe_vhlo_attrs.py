#!/usr/bin/env python3
"""Prints each VHLO op of shared/notes/vhlo_ops.txt with its required attribute names,
by asking jaxlib's VHLO verifier (used to write src/vhlo_table.rs)."""
import re, sys
from jax._src.interpreters import mlir
from jaxlib.mlir import ir
ctx = mlir.make_ir_context()
ctx.allow_unregistered_dialects = True
W = {"one": 1, "two": 2, "three": 3}
def num(s): return W.get(s) or int(s)
def probe(op):
    names = []; nres = 0; nreg = 0; nopd = 0
    for _ in range(80):
        props = ", ".join(f"{n} = #vhlo.bool_v1<true>" for n in names)
        pr = f"<{{{props}}}>" if names else ""
        srcs = "".join(f'%s{i} = "x.src"() : () -> !vhlo.none_v1\n' for i in range(nopd))
        ops = ", ".join(f"%s{i}" for i in range(nopd))
        regs = "(" + ", ".join("{\n}" for _ in range(nreg)) + ")" if nreg else ""
        ty = "(" + ", ".join(["!vhlo.none_v1"] * nopd) + ") -> (" + ", ".join(["!vhlo.none_v1"] * nres) + ")"
        txt = f'{srcs}"vhlo.{op}"({ops}) {pr} {regs} : {ty}'
        try:
            with ctx, ir.Location.unknown():
                m = ir.Module.parse(f'module {{ {txt} }}')
                m.operation.verify()
            return names
        except Exception as e:
            s = str(e)
            mm = re.search(r"requires attribute '([^']+)'", s)
            if mm: names.append(mm.group(1)); continue
            if "requires a single operand" in s: nopd = 1; continue
            mm = re.search(r"expected (\d+) or more operands", s)
            if mm: nopd = int(mm.group(1)); continue
            mm = re.search(r"expected (\d+) results", s)
            if mm: nres = int(mm.group(1)); continue
            mm = re.search(r"expected (\d+) regions", s)
            if mm: nreg = int(mm.group(1)); continue
            mm = re.search(r"requires (?:at least )?(\w+) results?", s)
            if mm: nres = num(mm.group(1)); continue
            mm = re.search(r"requires (?:at least )?(\w+) regions?", s)
            if mm: nreg = num(mm.group(1)); continue
            mm = re.search(r"(?:requires|expected) (?:at least )?(\w+) operands?", s)
            if mm: nopd = num(mm.group(1)); continue
            if "empty properties" in s: return []
            if "unregistered operation" in s: return "UNREGISTERED"
            return ("ERR", names, s[:400])
    return ("LOOP", names)
ops = [l.split()[0] for l in open("/work/shared/notes/vhlo_ops.txt") if l.strip()]
for op in ops:
    print(op, probe(op))
