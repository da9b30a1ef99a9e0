#!/usr/bin/env python3
"""Generates the test vectors in tests/vectors/ from independent implementations.

Sources (none of them is oxhlo):
  * ml_dtypes (numpy casts): exhaustive decoding of every <=8-bit format, and
    encoding of f32 inputs (ml_dtypes rounds f32 -> narrow format once).
    ml_dtypes casts f64 through f32 (double rounding), so it is not used for
    f64 inputs.
  * numpy: f64 -> f16 and f64 -> f32 (both round once), f16 decoding.
  * XLA on CPU (through jax): f64 -> f8/f4 converts (checked below to round
    directly from f64), reduce_precision, float -> int, int -> float.

Run:  pip install ml_dtypes numpy jax  &&  python3 tests/gen_vectors.py
Line formats are described in tests/vectors/README.md.
"""
import os
import random

import ml_dtypes as md
import numpy as np

import jax
from jax import lax

jax.config.update("jax_enable_x64", True)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors")
rng = random.Random(20240611)

# (oxhlo/MLIR name, numpy dtype, XLA supports it)
NARROW = [
    ("f4E2M1FN", md.float4_e2m1fn, True),
    ("f6E2M3FN", md.float6_e2m3fn, False),
    ("f6E3M2FN", md.float6_e3m2fn, False),
    ("f8E3M4", md.float8_e3m4, True),
    ("f8E4M3", md.float8_e4m3, True),
    ("f8E4M3FN", md.float8_e4m3fn, True),
    ("f8E4M3FNUZ", md.float8_e4m3fnuz, True),
    ("f8E4M3B11FNUZ", md.float8_e4m3b11fnuz, True),
    ("f8E5M2", md.float8_e5m2, True),
    ("f8E5M2FNUZ", md.float8_e5m2fnuz, True),
    ("f8E8M0FNU", md.float8_e8m0fnu, True),
]
WIDTH = {"f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6}

# E8M0_NOTE: below 2^-126 ml_dtypes and XLA disagree with nearest rounding
# (and XLA's f64 path makes every positive value below 2^-127 NaN): both
# round [2^-127, 1.5*2^-127) up to 2^-126. oxhlo rounds to nearest there and
# gives 2^-127 (0x00) below it, as LLVM does; unit tests cover that range.


def f64_hex(x):
    return "%016x" % np.array([x], dtype=np.float64).view(np.uint64)[0]


def f32_hex(x):
    return "%08x" % np.array([x], dtype=np.float32).view(np.uint32)[0]


def write(name, header, lines):
    with open(os.path.join(OUT, name), "w") as f:
        f.write("# " + header + "\n")
        for line in lines:
            f.write(line + "\n")


def pattern_bits(arr):
    return arr.view(np.uint8 if arr.dtype.itemsize == 1 else np.uint16).astype(np.uint64)


def finite_values(dtype, width):
    """Sorted distinct positive finite values of a narrow format."""
    pats = np.arange(1 << width, dtype=np.uint8).view(dtype).astype(np.float64)
    vals = sorted({float(v) for v in pats if np.isfinite(v) and v > 0})
    return vals


def candidates(vals, in_f32, count=1500):
    """Inputs around every representable value: the values, midpoints (ties),
    midpoints nudged by one ulp of the input type, quarter points, overflow
    and underflow boundaries, and random values across the range."""
    ftype = np.float32 if in_f32 else np.float64
    up = lambda x: float(np.nextafter(ftype(x), ftype(np.inf)))
    down = lambda x: float(np.nextafter(ftype(x), ftype(-np.inf)))
    out = []
    pairs = list(zip(vals, vals[1:]))
    if len(pairs) > 300:
        pairs = rng.sample(pairs, 300)
    for a, b in pairs:
        mid = (a + b) / 2
        out += [a, mid, up(mid), down(mid), a + (b - a) / 4, a + 3 * (b - a) / 4]
        if not in_f32:
            out += [mid * (1 + 2.0 ** -40), mid * (1 - 2.0 ** -40)]
    lo, hi = vals[0], vals[-1]
    ulp_hi = hi - vals[-2]
    over = hi + ulp_hi / 2
    out += [hi, over, up(over), down(over), hi * 1.01, hi * 2, hi * 1000, 1e30]
    out += [lo / 2, up(lo / 2), down(lo / 2), lo / 4, lo * 0.75, lo * 1.5, 1e-30, 1e-38]
    if not in_f32:
        out += [1e300, 1e-300, 5e-324, 2.0 ** -1022]
    while len(out) < count - 40:
        e = rng.uniform(np.log2(lo) - 3, np.log2(hi) + 2)
        out.append(2.0 ** e)
    out = [ftype(x) for x in out]
    out = out + [-x for x in out]
    out += [ftype(0.0), ftype(-0.0), ftype(np.inf), ftype(-np.inf), ftype(np.nan), -ftype(np.nan)]
    return out


def xla_convert(x, dtype):
    return np.asarray(jax.jit(lambda v: lax.convert_element_type(v, dtype))(x))


def xla_rounds_directly(dtype, vals):
    """True if XLA's f64 -> dtype convert rounds once: inputs just above a tie
    (by far less than an f32 ulp) must round up in magnitude."""
    traps = []
    for a, b in zip(vals[len(vals) // 2:], vals[len(vals) // 2 + 1:]):
        traps.append(((a + b) / 2) * (1 + 2.0 ** -45))
    got = xla_convert(np.array(traps, dtype=np.float64), dtype).astype(np.float64)
    want = [b for a, b in zip(vals[len(vals) // 2:], vals[len(vals) // 2 + 1:])]
    return all(g == w for g, w in zip(got, want))


def gen_decode():
    for name, dt, _ in NARROW:
        width = WIDTH.get(name, 8)
        pats = np.arange(1 << width, dtype=np.uint8)
        vals = pats.view(dt).astype(np.float64)
        write("decode_%s.txt" % name, "pattern f64-bits (ml_dtypes cast to float64)",
              ["%02x %s" % (p, f64_hex(v)) for p, v in zip(pats, vals)])
    pats = np.arange(0, 1 << 16, 13, dtype=np.uint16)
    vals = pats.view(np.float16).astype(np.float64)
    write("decode_f16.txt", "pattern f64-bits (numpy float16 -> float64), every 13th pattern",
          ["%04x %s" % (p, f64_hex(v)) for p, v in zip(pats, vals)])


def gen_encode():
    for name, dt, xla_ok in NARROW:
        width = WIDTH.get(name, 8)
        vals = finite_values(dt, width)
        # f32 inputs, ml_dtypes.
        xs = np.array(candidates(vals, True), dtype=np.float32)
        if width < 8:
            # ml_dtypes maps -NaN to +0 for F4/F6; oxhlo (like XLA) gives the -0
            # pattern for NaN of either sign. Compared on +NaN only.
            xs = xs[~(np.isnan(xs) & np.signbit(xs))]
        if name == "f8E8M0FNU":
            xs = xs[~((xs > 0) & (xs < 2.0 ** -126))]  # see E8M0_NOTE
        got = pattern_bits(xs.astype(dt))
        write("encode_f32_%s.txt" % name, "f32-bits expected-pattern (ml_dtypes)",
              ["%s %02x" % (f32_hex(x), g) for x, g in zip(xs, got)])
        # f64 inputs, XLA (only where it rounds directly from f64).
        if not xla_ok:
            continue
        if not xla_rounds_directly(dt, vals):
            print("XLA double-rounds f64 ->", name, "- no f64 vectors")
            continue
        xs = np.array(candidates(vals, False), dtype=np.float64)
        if name == "f8E8M0FNU":
            xs = xs[~((xs > 0) & (xs < 2.0 ** -126))]  # see E8M0_NOTE
        got = pattern_bits(xla_convert(xs, dt))
        write("encode_f64_%s.txt" % name, "f64-bits expected-pattern (XLA CPU convert)",
              ["%s %02x" % (f64_hex(x), g) for x, g in zip(xs, got)])
    # bf16 from f32 (ml_dtypes), f16 and f32 from f64 (numpy).
    bf_vals = sorted({float(v) for v in np.arange(1 << 15, dtype=np.uint16).view(md.bfloat16).astype(np.float64)
                      if np.isfinite(v) and v > 0})
    xs = np.array(candidates(bf_vals, True, 2500), dtype=np.float32)
    got = xs.astype(md.bfloat16).view(np.uint16)
    write("encode_f32_bf16.txt", "f32-bits expected-pattern (ml_dtypes)",
          ["%s %04x" % (f32_hex(x), g) for x, g in zip(xs, got)])
    h_vals = sorted({float(v) for v in np.arange(1 << 15, dtype=np.uint16).view(np.float16).astype(np.float64)
                     if np.isfinite(v) and v > 0})
    xs = np.array(candidates(h_vals, False, 2500), dtype=np.float64)
    got = xs.astype(np.float16).view(np.uint16)
    write("encode_f64_f16.txt", "f64-bits expected-pattern (numpy)",
          ["%s %04x" % (f64_hex(x), g) for x, g in zip(xs, got)])
    xs = [rng.uniform(-1, 1) * 2.0 ** rng.randint(-160, 140) for _ in range(3000)]
    xs += [float(np.float32(v)) * (1 + k * 2.0 ** -25) for v in xs[:300] for k in (1, -1)]
    xs += [0.0, -0.0, np.inf, -np.inf, np.nan, 1e300, 2.0 ** -150, 2.0 ** -149 * 1.5, 3.4028235677973366e38]
    xs = np.array(xs, dtype=np.float64)
    got = xs.astype(np.float32).view(np.uint32)
    write("encode_f64_f32.txt", "f64-bits expected-pattern (numpy)",
          ["%s %08x" % (f64_hex(x), g) for x, g in zip(xs, got)])


def rp_inputs(nbits, count):
    """Special values, random patterns (NaN payloads and subnormals
    included) and values near rounding boundaries, as unsigned patterns."""
    out = [rng.getrandbits(nbits) for _ in range(count)]
    sign = 1 << (nbits - 1)
    for p in list(out[: count // 3]):
        out.append(p & ~((1 << (nbits // 3)) - 1) | (1 << (nbits // 3 - 1)))  # a tie somewhere
        out.append((p >> 8) & ((1 << (nbits - 8)) - 1))  # subnormal-ish / small
    out += [0, sign, sign - 1, (sign - 1) ^ 1, 1, sign | 1]
    return out


def gen_reduce_precision():
    cases = [
        ("f32", np.float32, np.uint32, 32, [(1, 0), (2, 1), (3, 4), (4, 3), (5, 2), (5, 10), (8, 0), (8, 7),
                                            (8, 10), (8, 23), (10, 30), (6, 20)]),
        ("f64", np.float64, np.uint64, 64, [(1, 0), (4, 3), (5, 10), (8, 7), (8, 23), (11, 20), (11, 52),
                                            (2, 60), (10, 40)]),
        ("f16", np.float16, np.uint16, 16, [(5, 10), (5, 2), (4, 3), (3, 1), (8, 7), (2, 0)]),
        ("bf16", md.bfloat16, np.uint16, 16, [(8, 7), (5, 10), (5, 2), (4, 3), (8, 3), (7, 0)]),
    ]
    for name, dt, ut, nbits, combos in cases:
        lines = []
        for e, m in combos:
            ins = np.array(rp_inputs(nbits, 150), dtype=ut)
            if name == "bf16":
                # XLA computes bf16 in f32 and canonicalizes NaN on the way
                # back; the spec (and XLA for f16/f32/f64) keeps NaN as is.
                ins = ins[~np.isnan(ins.view(dt).astype(np.float32))]
            x = ins.view(dt)
            y = np.asarray(jax.jit(lambda v: lax.reduce_precision(v, e, m))(x)).view(ut)
            w = nbits // 4
            lines += ["%d %d %0*x %0*x" % (e, m, w, int(a), w, int(b)) for a, b in zip(ins, y)]
        write("reduce_precision_%s.txt" % name,
              "exponent_bits mantissa_bits input-bits output-bits (XLA CPU reduce_precision)", lines)


INT_TYPES = [("s8", np.int8), ("u8", np.uint8), ("s16", np.int16), ("u16", np.uint16), ("s32", np.int32),
             ("u32", np.uint32), ("s64", np.int64), ("u64", np.uint64), ("s4", md.int4), ("u4", md.uint4),
             ("s2", md.int2), ("u2", md.uint2)]


def gen_float_to_int():
    xs = [0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 0.5, -0.5, 0.99, -0.99, 1.0, -1.0]
    # Around every bound of the widths tested (2^(n-1) and 2^n) and beyond.
    for k in (0, 1, 2, 3, 4, 7, 8, 15, 16, 23, 24, 31, 32, 52, 53, 62, 63, 64, 65):
        for d in (-1.0, -0.5, 0.0, 0.5, 1.0):
            xs += [2.0 ** k + d, -(2.0 ** k) + d]
    xs += [2.0 ** 63 - 1024, 2.0 ** 64 - 2048, -(2.0 ** 63) - 2048, 1e30, -1e30]
    xs += [rng.uniform(-1, 1) * 2.0 ** rng.randint(0, 70) for _ in range(120)]
    lines = []
    for src, fdt in (("f32", np.float32), ("f64", np.float64)):
        x = np.array(xs, dtype=fdt)
        for tname, idt in INT_TYPES:
            try:
                y = xla_convert(x, idt)
            except Exception as err:  # an XLA build without the type
                print("skip", tname, err)
                continue
            lines += ["%s %s %s %d" % (src, tname, f64_hex(float(a)), int(b)) for a, b in zip(x, y)]
    write("float_to_int.txt", "src-type dst-type input-as-f64-bits result (XLA CPU convert)", lines)


def gen_int_to_float():
    big = [2 ** k + d for k in range(0, 64) for d in (-1, 0, 1)] + [rng.getrandbits(63) for _ in range(300)]
    big += [(1 << 62) + (1 << 38) + 1, (1 << 24) + 1, (1 << 54) + (1 << 30) + 1, 2 ** 63 - 1]
    ints = sorted(set(big + [-v for v in big if v <= 2 ** 63]))
    ints = [v for v in ints if -(2 ** 63) <= v < 2 ** 63]
    small = [v for v in ints if abs(v) <= 2 ** 24] + [rng.randint(-(2 ** 24), 2 ** 24) for _ in range(300)]
    lines = []
    # XLA rounds i64 -> f64/f32/f16 once; for bf16 and the narrow formats it
    # goes through f32, which is exact (so single rounding) for |v| <= 2^24.
    targets = [("f64", np.float64, ints), ("f32", np.float32, ints), ("f16", np.float16, ints),
               ("bf16", md.bfloat16, small)] + [(n, dt, small) for n, dt, ok in NARROW if ok]
    for tname, dt, vs in targets:
        y = xla_convert(np.array(vs, dtype=np.int64), dt)
        w = y.dtype.itemsize * 2
        bits = y.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[y.dtype.itemsize])
        lines += ["s64 %s %d %0*x" % (tname, v, w, int(b)) for v, b in zip(vs, bits)]
    us = [v for v in big if 0 <= v] + [2 ** 64 - 1, 2 ** 64 - 2 ** 40, (1 << 63) + (1 << 39) + 1]
    us = [v for v in us if v < 2 ** 64]
    for tname, dt in (("f64", np.float64), ("f32", np.float32)):
        y = xla_convert(np.array(us, dtype=np.uint64), dt)
        w = y.dtype.itemsize * 2
        bits = y.view({4: np.uint32, 8: np.uint64}[y.dtype.itemsize])
        lines += ["u64 %s %d %0*x" % (tname, v, w, int(b)) for v, b in zip(us, bits)]
    write("int_to_float.txt", "src-type dst-type integer expected-bits (XLA CPU convert)", lines)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    gen_decode()
    gen_encode()
    gen_reduce_precision()
    gen_float_to_int()
    gen_int_to_float()
