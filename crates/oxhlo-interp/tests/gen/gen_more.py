"""More conformance cases: real/imag/complex, is_finite and chlo.is_inf/is_neg_inf/is_pos_inf, next_after,
polygamma and zeta, uniform_quantize/uniform_dequantize and quantized elementwise ops, the chlo.broadcast_*
ops and chlo.constant_like.
"""

import math

import numpy as np

from common import (COMPLEX, F8_FLOATS, MAIN_FLOATS, SUB8_FLOATS, Case, as_f64, float_bits,
                    float_edges, float_samples, rnd, ttype)
import refs

ALL_FLOATS = MAIN_FLOATS + F8_FLOATS + SUB8_FLOATS + ["f8E8M0FNU"]


def complex_part_cases():
    cases = []
    for t, part in COMPLEX.items():
        re = list(as_f64(float_edges(part)))
        im = list(reversed(re))
        z = [complex(a, b) for a, b in zip(re, im)]
        n = len(z)
        for op, f in (("stablehlo.real", lambda w: w.real), ("stablehlo.imag", lambda w: w.imag)):
            c = Case(f"{op} {t}")
            x = c.const(z, [n], t)
            r = c.op(op, [x], [ttype([n], t)], ttype([n], part))
            c.expect_eq(r, [f(w) for w in z], [n], part)
            cases.append(c)
        c = Case(f"stablehlo.complex {part}")
        a, b = c.const(re, [n], part), c.const(im, [n], part)
        r = c.op("stablehlo.complex", [a, b], [ttype([n], part)] * 2, ttype([n], t))
        c.expect_eq(r, z, [n], t)
        cases.append(c)
        c = Case(f"abs {t}")
        zs = [complex(3, 4), complex(-5, 12), complex(0, -2), complex(1e-3, 0)]
        x = c.const(zs, [4], t)
        r = c.op("stablehlo.abs", [x], [ttype([4], t)], ttype([4], part))
        c.expect_close(r, rnd(np.array([abs(w) for w in zs]), part), [4], part, 1)
        cases.append(c)
    for t in MAIN_FLOATS:
        vals = list(as_f64(float_edges(t)))
        n = len(vals)
        for op, f in (("stablehlo.real", lambda v: v), ("stablehlo.imag", lambda v: 0.0)):
            c = Case(f"{op} {t}")
            x = c.const(vals, [n], t)
            r = c.op(op, [x], [ttype([n], t)], ttype([n], t))
            c.expect_eq(r, [f(v) for v in vals], [n], t)
            cases.append(c)
    return {"real": [c for c in cases if "real" in c.title], "imag": [c for c in cases if "imag" in c.title],
            "complex": [c for c in cases if "complex " in c.title and "abs" not in c.title],
            "abs": [c for c in cases if c.title.startswith("abs")]}


def predicate_cases():
    out = {}
    preds = {"stablehlo.is_finite": math.isfinite, "chlo.is_inf": math.isinf,
             "chlo.is_neg_inf": lambda v: v == -math.inf, "chlo.is_pos_inf": lambda v: v == math.inf}
    for op, f in preds.items():
        cases = []
        for t in ALL_FLOATS:
            vals = list(as_f64(float_edges(t)))
            n = len(vals)
            c = Case(f"{op} {t}")
            x = c.const(vals, [n], t)
            r = c.op(op, [x], [ttype([n], t)], ttype([n], "i1"))
            c.expect_eq(r, [f(v) for v in vals], [n], "i1")
            cases.append(c)
        out[op.split(".")[1] if op.startswith("stablehlo") else op.replace(".", "_")] = cases
    return out


def next_after_ref(x, y, t):
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y:
        return y
    dt_bits = {"f64": 64, "f32": 32, "f16": 16, "bf16": 16}[t]
    if x == 0:
        b = 1 | ((1 << (dt_bits - 1)) if y < x else 0)
    else:
        b = float_bits(x, t)
        mag = b & ((1 << (dt_bits - 1)) - 1)
        sign = b & (1 << (dt_bits - 1))
        mag = mag + 1 if (y > x) == (x > 0) else mag - 1
        b = sign | mag
    from gen_conversions import from_bits
    return from_bits(b, t)


def next_after_cases():
    cases = []
    for t in MAIN_FLOATS:
        e = list(as_f64(float_edges(t)))
        a = [x for x in e for _ in e]
        b = [y for _ in e for y in e]
        c = Case(f"chlo.next_after {t}")
        x, y = c.const(a, [len(a)], t), c.const(b, [len(b)], t)
        r = c.op("chlo.next_after", [x, y], [ttype([len(a)], t)] * 2, ttype([len(a)], t))
        c.expect_eq(r, [next_after_ref(p, q, t) for p, q in zip(a, b)], [len(a)], t)
        cases.append(c)
    return cases


def zeta_polygamma_cases():
    out = {"chlo_zeta": [], "chlo_polygamma": []}
    for t in ["f64", "f32"]:
        xs = [2.0, 3.0, 4.5, 2.0, 7.0, 1.0, 0.5, 2.0, 3.0, 2.0]
        qs = [1.0, 0.5, 2.25, -1.5, 10.0, 2.0, 2.0, 0.0, -2.0, 100.0]
        xs, qs = as_f64(rnd(np.array(xs), t)), as_f64(rnd(np.array(qs), t))
        c = Case(f"chlo.zeta {t}")
        a, b = c.const(xs, [len(xs)], t), c.const(qs, [len(qs)], t)
        r = c.op("chlo.zeta", [a, b], [ttype([len(xs)], t)] * 2, ttype([len(xs)], t))
        exp = rnd(np.array([refs.FLOAT_BINARY["chlo.zeta"](float(p), float(q)) for p, q in zip(xs, qs)]), t)
        c.expect_close(r, exp, [len(xs)], t, 16 if t == "f64" else 2)
        out["chlo_zeta"].append(c)
        ns = [0.0, 1.0, 2.0, 3.0, 1.0, 2.0, 0.5, -1.0, 1.0]
        ps = [0.5, 1.0, 2.5, 7.25, 0.1, 30.0, 1.0, 1.0, -1.0]
        ns, ps = as_f64(rnd(np.array(ns), t)), as_f64(rnd(np.array(ps), t))
        c = Case(f"chlo.polygamma {t}")
        a, b = c.const(ns, [len(ns)], t), c.const(ps, [len(ps)], t)
        r = c.op("chlo.polygamma", [a, b], [ttype([len(ns)], t)] * 2, ttype([len(ns)], t))
        exp = rnd(np.array([refs.FLOAT_BINARY["chlo.polygamma"](float(p), float(q)) for p, q in zip(ns, ps)]), t)
        c.expect_close(r, exp, [len(ns)], t, 64 if t == "f64" else 2)
        out["chlo_polygamma"].append(c)
    return out


# ---- quantization -----------------------------------------------------------------------------------------

def qtype(storage, expressed, params, axis=None):
    ax = f":{axis}" if axis is not None else ""
    if len(params) == 1:
        p = "%r:%d" % params[0]
    else:
        p = "{" + ",".join("%r:%d" % sp for sp in params) + "}"
    return f"!quant.uniform<{storage}:{expressed}{ax}, {p}>"


def quantize_ref(x, scale, zp, lo, hi, t):
    """The spec's quantize, each step rounded to the expressed type t."""
    s = float(rnd(np.array([scale]), t)[0])
    v = float(rnd(np.array([x / s]), t)[0])
    v = float(rnd(np.array([v + zp]), t)[0])
    if math.isnan(v):
        return 0
    v = min(max(v, lo), hi)
    return int(np.rint(v))


def dequantize_ref(q, scale, zp, t):
    s = float(rnd(np.array([scale]), t)[0])
    d = float(rnd(np.array([float(q - zp)]), t)[0])
    return float(rnd(np.array([d * s]), t)[0])


def quant_cases():
    out = {"uniform_quantize": [], "uniform_dequantize": [], "quantized_ops": []}
    configs = [("i8", -128, 127, "f32", [(0.5, -1)]), ("ui8", 0, 255, "f32", [(0.1, 128)]),
               ("i4", -8, 7, "f32", [(0.25, 0)]), ("i8", -128, 127, "bf16", [(2.0, 3)]),
               ("i16", -32768, 32767, "f64", [(1e-3, 10)])]
    xs = [0.0, 1.0, -1.0, 0.26, -0.74, 3.7, 100.0, -100.0, 1e9, -1e9, 0.125, 12.5]
    for storage, lo, hi, et, params in configs:
        scale, zp = params[0]
        qt = qtype(storage, et, params)
        vals = list(as_f64(rnd(np.array(xs), et)))
        n = len(vals)
        qs = [quantize_ref(v, scale, zp, lo, hi, et) for v in vals]
        c = Case(f"uniform_quantize {storage}:{et}")
        x = c.const(vals, [n], et)
        r = c.op("stablehlo.uniform_quantize", [x], [ttype([n], et)], ttype([n], qt))
        c.expect_eq(r, qs, [n], qt)
        out["uniform_quantize"].append(c)
        c = Case(f"uniform_dequantize {storage}:{et}")
        q = c.const(qs, [n], qt)
        r = c.op("stablehlo.uniform_dequantize", [q], [ttype([n], qt)], ttype([n], et))
        c.expect_eq(r, [dequantize_ref(v, scale, zp, et) for v in qs], [n], et)
        out["uniform_dequantize"].append(c)
    # Per-axis: dimension 1 of a 2x3 tensor.
    params = [(0.5, 0), (0.25, -2), (1.0, 5)]
    qt = qtype("i8", "f32", params, axis=1)
    vals = [1.0, 2.0, 3.0, -1.0, -2.5, 100.0]
    qs = [quantize_ref(v, *params[i % 3], -128, 127, "f32") for i, v in enumerate(vals)]
    c = Case("uniform_quantize per-axis")
    x = c.const(vals, [2, 3], "f32")
    r = c.op("stablehlo.uniform_quantize", [x], [ttype([2, 3], "f32")], ttype([2, 3], qt))
    c.expect_eq(r, qs, [2, 3], qt)
    out["uniform_quantize"].append(c)
    c = Case("uniform_dequantize per-axis")
    q = c.const(qs, [2, 3], qt)
    r = c.op("stablehlo.uniform_dequantize", [q], [ttype([2, 3], qt)], ttype([2, 3], "f32"))
    c.expect_eq(r, [dequantize_ref(v, *params[i % 3], "f32") for i, v in enumerate(qs)], [2, 3], "f32")
    out["uniform_dequantize"].append(c)
    # Requantize (quantized -> quantized), the spec's example.
    q1 = qtype("i8", "f32", [(0.1, -30), (0.5, -20)], axis=0)
    q2 = qtype("i8", "f32", [(0.1, -20), (0.2, -30)], axis=0)
    c = Case("uniform_quantize requantize (spec example)")
    q = c.const([10, 10], [2], q1)
    r = c.op("stablehlo.uniform_quantize", [q], [ttype([2], q1)], ttype([2], q2))
    c.expect_eq(r, [20, 45], [2], q2)
    out["uniform_quantize"].append(c)
    c = Case("uniform_dequantize (spec example)")
    q = c.const([10, 10], [2], q1)
    r = c.op("stablehlo.uniform_dequantize", [q], [ttype([2], q1)], ttype([2], "f32"))
    c.expect_eq(r, [4.0, 15.0], [2], "f32")
    out["uniform_dequantize"].append(c)
    # Elementwise ops on per-tensor quantized tensors: dequantize, op, quantize.
    qa = qtype("i8", "f32", [(0.5, -1)])
    qr = qtype("i8", "f32", [(0.25, 2)])
    a = [0, 5, -20, 100, 127]
    b = [1, -7, 30, 100, -128]
    fa = [dequantize_ref(v, 0.5, -1, "f32") for v in a]
    fb = [dequantize_ref(v, 0.5, -1, "f32") for v in b]
    for op, f in (("stablehlo.add", lambda x, y: x + y), ("stablehlo.multiply", lambda x, y: x * y),
                  ("stablehlo.maximum", refs.fmax)):
        c = Case(f"{op} on quantized tensors")
        x, y = c.const(a, [5], qa), c.const(b, [5], qa)
        r = c.op(op, [x, y], [ttype([5], qa)] * 2, ttype([5], qr))
        exp = [quantize_ref(float(rnd(np.array([f(p, q)]), "f32")[0]), 0.25, 2, -128, 127, "f32")
               for p, q in zip(fa, fb)]
        c.expect_eq(r, exp, [5], qr)
        out["quantized_ops"].append(c)
    c = Case("stablehlo.compare on quantized tensors")
    x, y = c.const(a, [5], qa), c.const(b, [5], qa)
    r = c.op("stablehlo.compare", [x, y], [ttype([5], qa)] * 2, ttype([5], "i1"),
             "comparison_direction = #stablehlo<comparison_direction LT>")
    c.expect_eq(r, [p < q for p, q in zip(fa, fb)], [5], "i1")
    out["quantized_ops"].append(c)
    c = Case("stablehlo.abs on a quantized tensor")
    x = c.const(a, [5], qa)
    r = c.op("stablehlo.abs", [x], [ttype([5], qa)], ttype([5], qa))
    c.expect_eq(r, [quantize_ref(abs(p), 0.5, -1, -128, 127, "f32") for p in fa], [5], qa)
    out["quantized_ops"].append(c)
    return out


# ---- chlo broadcasting ops --------------------------------------------------------------------------------

def broadcast_cases():
    out = {}
    shapes = [([2, 3], [3]), ([2, 1], [1, 3]), ([], [2, 2]), ([4, 1, 2], [3, 1]), ([2, 3], [2, 3])]
    ops = {"chlo.broadcast_add": ("f32", lambda x, y: x + y), "chlo.broadcast_subtract": ("i32", lambda x, y: x - y),
           "chlo.broadcast_multiply": ("f64", lambda x, y: x * y),
           "chlo.broadcast_divide": ("i32", lambda x, y: refs.int_binary("divide", x, y, "i32")),
           "chlo.broadcast_maximum": ("f32", refs.fmax), "chlo.broadcast_minimum": ("f32", refs.fmin),
           "chlo.broadcast_and": ("i8", lambda x, y: x & y), "chlo.broadcast_or": ("i8", lambda x, y: x | y),
           "chlo.broadcast_xor": ("i8", lambda x, y: x ^ y),
           "chlo.broadcast_remainder": ("i32", lambda x, y: refs.int_binary("remainder", x, y, "i32")),
           "chlo.broadcast_shift_left": ("i32", lambda x, y: refs.int_binary("shift_left", x, y, "i32")),
           "chlo.broadcast_shift_right_arithmetic":
               ("i32", lambda x, y: refs.int_binary("shift_right_arithmetic", x, y, "i32")),
           "chlo.broadcast_shift_right_logical":
               ("i32", lambda x, y: refs.int_binary("shift_right_logical", x, y, "i32")),
           "chlo.broadcast_power": ("f64", lambda x, y: refs.FLOAT_BINARY["power"](x, y)),
           "chlo.broadcast_atan2": ("f64", math.atan2),
           "chlo.broadcast_next_after": ("f32", lambda x, y: next_after_ref(x, y, "f32"))}
    for op, (t, f) in ops.items():
        cases = []
        for sa, sb in shapes:
            na, nb = int(np.prod(sa)) if sa else 1, int(np.prod(sb)) if sb else 1
            if t.startswith("f"):
                a = list(as_f64(float_samples(t, na, 0.5, 4, 11)))
                b = list(as_f64(float_samples(t, nb, 0.5, 4, 12)))
            else:
                a = [(5 * i + 3) % 11 - 4 for i in range(na)]
                b = [(3 * i + 1) % 5 + 1 for i in range(nb)]
            A = np.array(a, dtype=object).reshape(sa) if sa else np.array(a[0], dtype=object)
            B = np.array(b, dtype=object).reshape(sb) if sb else np.array(b[0], dtype=object)
            Ab, Bb = np.broadcast_arrays(A, B)
            shape = list(Ab.shape)
            exp = [f(x, y) for x, y in zip(Ab.reshape(-1), Bb.reshape(-1))]
            if t.startswith("f"):
                exp = list(rnd(np.array(exp, dtype=np.float64), t))
            c = Case(f"{op} {t} {sa} x {sb}")
            x, y = c.const(a, sa, t), c.const(b, sb, t)
            r = c.op(op, [x, y], [ttype(sa, t), ttype(sb, t)], ttype(shape, t))
            if op in ("chlo.broadcast_power", "chlo.broadcast_atan2"):
                c.expect_close(r, exp, shape, t, 2)
            else:
                c.expect_eq(r, exp, shape, t)
            cases.append(c)
        out[op.replace(".", "_")] = cases
    # Explicit broadcast_dimensions: a [3] operand against [3, 2] along dimension 0.
    c = Case("chlo.broadcast_add with broadcast_dimensions")
    x = c.const([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [3, 2], "f32")
    y = c.const([10.0, 20.0, 30.0], [3], "f32")
    r = c.op("chlo.broadcast_add", [x, y], [ttype([3, 2], "f32"), ttype([3], "f32")], ttype([3, 2], "f32"),
             "broadcast_dimensions = array<i64: 0>")
    c.expect_eq(r, [11.0, 12.0, 23.0, 24.0, 35.0, 36.0], [3, 2], "f32")
    out["chlo_broadcast_add"].append(c)
    cases = []
    for d in ["EQ", "LT", "GE"]:
        c = Case(f"chlo.broadcast_compare {d}")
        x = c.const([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3], "f32")
        y = c.const([2.0, 2.0, 7.0], [3], "f32")
        r = c.op("chlo.broadcast_compare", [x, y], [ttype([2, 3], "f32"), ttype([3], "f32")], ttype([2, 3], "i1"),
                 f"comparison_direction = #chlo<comparison_direction {d}>")
        bb = [2.0, 2.0, 7.0] * 2
        c.expect_eq(r, [refs.compare(d, p, q, "FLOAT") for p, q in zip([1.0, 2, 3, 4, 5, 6], bb)], [2, 3], "i1")
        cases.append(c)
    out["chlo_broadcast_compare"] = cases
    cases = []
    for t, v, attr in [("f32", 1.5, "1.5 : f32"), ("i32", -3, "-3 : i32"), ("f64", 0.25, "2.5e-01 : f64")]:
        c = Case(f"chlo.constant_like {t}")
        x = c.const([0] * 6 if t == "i32" else [0.0] * 6, [2, 3], t)
        r = c.op("chlo.constant_like", [x], [ttype([2, 3], t)], ttype([2, 3], t), f"value = {attr}")
        c.expect_eq(r, [v] * 6, [2, 3], t)
        cases.append(c)
    out["chlo_constant_like"] = cases
    return out


def more_cases():
    out = {}
    for part in (complex_part_cases(), predicate_cases(), zeta_polygamma_cases(), quant_cases(), broadcast_cases()):
        for k, v in part.items():
            out.setdefault(k, []).extend(v)
    out.setdefault("chlo_next_after", []).extend(next_after_cases())
    return out
