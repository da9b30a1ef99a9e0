"""Conformance cases for the non-arithmetic elementwise ops: convert (all type pairs), bitcast_convert (same
and different widths), reduce_precision, compare (all directions, FLOAT and TOTALORDER), select, clamp,
real/imag/complex, is_finite and the chlo predicates, next_after, polygamma/zeta, uniform_quantize /
uniform_dequantize and ops on quantized tensors, the chlo.broadcast_* ops and chlo.constant_like.
"""

import math

import numpy as np

from common import (COMPLEX, F8_FLOATS, FLOATS, INTS, MAIN_FLOATS, SUB8_FLOATS, Case, as_f64, float_bits,
                    float_edges, float_samples, int_edges, int_range, int_to_float, is_complex, is_float,
                    is_int, literal, rnd, storage_bits, ttype, wrap)
import refs

ALL_FLOATS = MAIN_FLOATS + F8_FLOATS + SUB8_FLOATS + ["f8E8M0FNU"]


# ---- convert ------------------------------------------------------------------------------------------

def source_values(t):
    if t == "i1":
        return [True, False]
    if is_int(t):
        return int_edges(t)
    if is_float(t):
        return list(float_edges(t)) + [2.5, -3.5, 100.7, -1e10, 1e10, 65504.0, 1e-3]
    part = COMPLEX[t]
    vals = [complex(a, b) for a, b in [(1.5, -2.0), (0.0, 0.0), (0.0, 1.0), (-3.25, 0.5), (1e10, 0.0)]]
    return [complex(float(rnd(np.array([z.real]), part)[0]), float(rnd(np.array([z.imag]), part)[0])) for z in vals]


def convert_value(v, src, dst):
    """One element converted from src to dst (spec rules, XLA where the spec says TBD)."""
    if dst == "i1":
        if is_complex(src):
            # complex -> non-complex drops the imaginary part first (the spec's rule for complex ->
            # int/float, and the reference interpreter's), so (0, 1) is false.
            return v.real != 0
        return v != 0 if not (isinstance(v, float) and math.isnan(v)) else True
    if src == "i1":
        v = int(v)
        src = "i8"
    if is_complex(src) and not is_complex(dst):
        v = v.real
        src = COMPLEX[src]
    if is_int(dst):
        if is_int(src):
            return wrap(v, dst)
        return refs.float_to_int(float(v), dst)
    if is_float(dst):
        if is_int(src):
            return float(int_to_float(v, dst))
        return float(rnd(np.array([float(v)]), dst)[0])
    part = COMPLEX[dst]
    if is_complex(src):
        return complex(float(rnd(np.array([v.real]), part)[0]), float(rnd(np.array([v.imag]), part)[0]))
    re = float(int_to_float(v, part)) if is_int(src) else float(rnd(np.array([float(v)]), part)[0])
    return complex(re, 0.0)


def convert_cases():
    types = ["i1"] + list(INTS) + ALL_FLOATS + list(COMPLEX)
    cases = []
    for src in types:
        vals = source_values(src)
        if is_float(src):
            vals = list(as_f64(rnd(np.array(vals), src)))
        for dst in types:
            c = Case(f"convert {src} -> {dst}")
            x = c.const(vals, [len(vals)], src)
            r = c.op("stablehlo.convert", [x], [ttype([len(vals)], src)], ttype([len(vals)], dst))
            c.expect_eq(r, [convert_value(v, src, dst) for v in vals], [len(vals)], dst)
            cases.append(c)
    return cases


# ---- bitcast_convert ------------------------------------------------------------------------------------

def to_bits(v, t):
    if t == "i1":
        return int(bool(v))
    if is_int(t):
        return v & ((1 << INTS[t][0]) - 1)
    if is_float(t):
        return float_bits(v, t)
    part = COMPLEX[t]
    return float_bits(v.real, part) | (float_bits(v.imag, part) << storage_bits(part))


def from_bits(b, t):
    if is_int(t):
        return wrap(b, t)
    if is_float(t):
        n = storage_bits(t)
        dt = FLOATS[t]
        raw = np.array([b], dtype=np.uint64).astype({8: np.uint8, 16: np.uint16, 32: np.uint32,
                                                     64: np.uint64}.get(n, np.uint8))
        return float(raw.view(dt)[0]) if n in (8, 16, 32, 64) else float(np.array([b], np.uint8).view(dt)[0])
    part = COMPLEX[t]
    h = storage_bits(part)
    return complex(from_bits(b & ((1 << h) - 1), part), from_bits(b >> h, part))


def bitcast_cases():
    pairs = [("f32", "i32"), ("f32", "ui32"), ("i32", "f32"), ("f16", "bf16"), ("bf16", "i16"), ("f16", "ui16"),
             ("f64", "i64"), ("ui64", "f64"), ("complex<f32>", "complex<f32>"),
             ("f8E4M3FN", "i8"), ("f8E5M2", "ui8"), ("i8", "f8E4M3FNUZ"), ("f8E8M0FNU", "ui8"),
             ("f4E2M1FN", "ui4"), ("i4", "f4E2M1FN"),
             ("f32", "f16"), ("f64", "f32"), ("f64", "i16"), ("f64", "ui8"), ("i32", "i8"), ("complex<f64>", "complex<f32>"),
             ("i8", "i4"), ("ui8", "i2"), ("i16", "f8E4M3FN"),
             ("f16", "f32"), ("f32", "f64"), ("i8", "i32"), ("ui8", "f64"), ("complex<f32>", "complex<f64>"),
             ("i4", "i8"), ("i2", "ui8"), ("bf16", "i32")]
    cases = []
    for src, dst in pairs:
        ws, wd = storage_bits(src), storage_bits(dst)
        vals = source_values(src)
        if is_float(src):
            vals = [v for v in as_f64(rnd(np.array(vals), src)) if not math.isnan(v)] + [math.nan]
            vals = [v for v in vals if not (math.isnan(v) and src in ("f4E2M1FN",))]
        if ws >= wd:
            k = ws // wd
            shape_in = [len(vals)]
            shape_out = [len(vals)] + ([k] if k > 1 else [])
            out = []
            for v in vals:
                b = to_bits(v, src)
                out += [from_bits((b >> (j * wd)) & ((1 << wd) - 1), dst) for j in range(k)]
        else:
            k = wd // ws
            n = (len(vals) // k) or 1
            vals = (vals * k)[: n * k]
            shape_in = [n, k]
            shape_out = [n]
            out = []
            for i in range(n):
                b = 0
                for j in range(k):
                    b |= to_bits(vals[i * k + j], src) << (j * ws)
                out.append(from_bits(b, dst))
        c = Case(f"bitcast_convert {src} -> {dst}")
        x = c.const(vals, shape_in, src)
        r = c.op("stablehlo.bitcast_convert", [x], [ttype(shape_in, src)], ttype(shape_out, dst))
        c.expect_eq(r, out, shape_out, dst)
        cases.append(c)
    return cases


# ---- reduce_precision -------------------------------------------------------------------------------------

IEEE = {"f64": (11, 52), "f32": (8, 23), "f16": (5, 10), "bf16": (8, 7)}


def reduce_precision_ref(v, t, eb, mb):
    """XLA's reduce_precision on the bit pattern of type t."""
    se, sm = IEEE[t]
    width = 1 + se + sm
    if math.isnan(v):
        # With no mantissa bit left a NaN becomes the infinity of its sign (the StableHLO reference
        # interpreter's rule; XLA on CPU keeps the NaN).
        return math.copysign(math.inf, v) if mb == 0 else v
    b = float_bits(v, t)
    if mb < sm:
        shift = sm - mb
        last = 1 << shift
        bias = (last >> 1) - 1 + ((b & last) >> shift)
        b = (b + bias) & ~(last - 1) & ((1 << width) - 1)
    if eb < se:
        exp_mask = ((1 << se) - 1) << sm
        src_bias = (1 << (se - 1)) - 1
        red_bias = (1 << (eb - 1)) - 1
        xe = b & exp_mask
        sign = b & (1 << (width - 1))
        if xe > ((src_bias + red_bias) << sm):
            b = sign | exp_mask
        elif xe <= ((src_bias - red_bias) << sm):
            b = sign
    return from_bits(b, t)


def reduce_precision_cases():
    cases = []
    for t, (se, sm) in IEEE.items():
        vals = list(float_edges(t)) + list(float_samples(t, 20, -300, 300)) + [1.0001, 65519.0, 65520.0, 1e-5]
        vals = list(as_f64(rnd(np.array(vals), t)))
        for eb, mb in [(5, 10), (8, 7), (4, 3), (5, 2), (2, 1), (8, 0), (11, 52), (8, 23), (3, 5)]:
            if eb > se and mb > sm:
                continue
            c = Case(f"reduce_precision {t} e{eb}m{mb}")
            x = c.const(vals, [len(vals)], t)
            r = c.op("stablehlo.reduce_precision", [x], [ttype([len(vals)], t)], ttype([len(vals)], t),
                     f"exponent_bits = {eb} : i32, mantissa_bits = {mb} : i32")
            c.expect_eq(r, [reduce_precision_ref(v, t, eb, mb) for v in vals], [len(vals)], t)
            cases.append(c)
    return cases


# ---- compare / select / clamp ----------------------------------------------------------------------------

DIRS = ["EQ", "NE", "LT", "LE", "GT", "GE"]


def compare_cases():
    cases = []
    for t in ["i1"] + list(INTS) + ALL_FLOATS + list(COMPLEX):
        if t == "i1":
            e = [False, True]
            ctypes = ["UNSIGNED"]
        elif is_int(t):
            e = int_edges(t)[:8]
            ctypes = ["SIGNED" if INTS[t][1] else "UNSIGNED"]
        elif is_float(t):
            full = list(as_f64(float_edges(t)))
            e = [v for v in full if v not in (0.5, 1.5, -0.75, 3.0) and not (v < 0 and abs(v) < 1e-300)]
            e = (e[:9] + [v for v in e[9:] if not math.isfinite(v) or v == 0])[:13]
            ctypes = ["FLOAT", "TOTALORDER"]
        else:
            e = source_values(t)[:4]
            ctypes = ["FLOAT"]
        a = [x for x in e for _ in e]
        b = [y for _ in e for y in e]
        dirs = DIRS if not is_complex(t) else ["EQ", "NE"]
        for ct in ctypes:
            for d in dirs:
                c = Case(f"compare {d} {ct} {t}")
                x, y = c.const(a, [len(a)], t), c.const(b, [len(b)], t)
                attrs = f"comparison_direction = #stablehlo<comparison_direction {d}>, " \
                        f"compare_type = #stablehlo<comparison_type {ct}>"
                r = c.op("stablehlo.compare", [x, y], [ttype([len(a)], t)] * 2, ttype([len(a)], "i1"), attrs)
                if is_complex(t):
                    exp = [(p == q) == (d == "EQ") for p, q in zip(a, b)]
                else:
                    exp = [refs.compare(d, p, q, ct) for p, q in zip(a, b)]
                c.expect_eq(r, exp, [len(a)], "i1")
                cases.append(c)
    return cases


def select_cases():
    cases = []
    for t in ["i1", "i8", "ui32", "i64", "f32", "bf16", "f8E4M3FN", "complex<f64>", "i4"]:
        vals = source_values(t)[:6]
        if is_float(t):
            vals = list(as_f64(rnd(np.array(vals), t)))
        other = list(reversed(vals))
        pred = [i % 2 == 0 for i in range(len(vals))]
        c = Case(f"select {t}")
        p = c.const(pred, [len(vals)], "i1")
        x, y = c.const(vals, [len(vals)], t), c.const(other, [len(vals)], t)
        r = c.op("stablehlo.select", [p, x, y], [ttype([len(vals)], "i1"), ttype([len(vals)], t),
                                                 ttype([len(vals)], t)], ttype([len(vals)], t))
        c.expect_eq(r, [u if q else w for q, u, w in zip(pred, vals, other)], [len(vals)], t)
        cases.append(c)
        c = Case(f"select scalar predicate {t}")
        p = c.const([False], [], "i1")
        x, y = c.const(vals, [len(vals)], t), c.const(other, [len(vals)], t)
        r = c.op("stablehlo.select", [p, x, y], [ttype([], "i1"), ttype([len(vals)], t), ttype([len(vals)], t)],
                 ttype([len(vals)], t))
        c.expect_eq(r, other, [len(vals)], t)
        cases.append(c)
    return cases


def clamp_cases():
    cases = []
    for t in ["i8", "ui16", "i32", "i64", "f32", "f64", "bf16", "f16", "f8E5M2"]:
        if is_int(t):
            vals = int_edges(t)
            lo, hi = int_range(t)
            mn, mx = max(lo, -5), min(hi, 100)
            clamp = lambda v: min(max(v, mn), mx)  # noqa: E731
        else:
            vals = list(as_f64(float_edges(t)))
            mn, mx = -1.5, 2.0
            clamp = lambda v: refs.fmin(refs.fmax(v, mn), mx)  # noqa: E731
        for scalar in (True, False):
            c = Case(f"clamp {t} {'scalar' if scalar else 'tensor'} bounds")
            n = len(vals)
            bshape = [] if scalar else [n]
            lo_c = c.const([mn] * (1 if scalar else n), bshape, t)
            x = c.const(vals, [n], t)
            hi_c = c.const([mx] * (1 if scalar else n), bshape, t)
            r = c.op("stablehlo.clamp", [lo_c, x, hi_c], [ttype(bshape, t), ttype([n], t), ttype(bshape, t)],
                     ttype([n], t))
            c.expect_eq(r, [clamp(v) for v in vals], [n], t)
            cases.append(c)
    return cases


def all_cases():
    from gen_more import more_cases
    out = {
        "convert": convert_cases(),
        "bitcast_convert": bitcast_cases(),
        "reduce_precision": reduce_precision_cases(),
        "compare": compare_cases(),
        "select": select_cases(),
        "clamp": clamp_cases(),
    }
    for k, v in more_cases().items():
        out.setdefault(k, []).extend(v)
    return out


__all__ = ["all_cases", "literal"]
