#!/usr/bin/env python3
"""Differential test data: lowers a few hundred jax.lax elementwise functions (across dtypes and shapes) to
StableHLO text with `jax.jit(f).lower(*args).as_text()`, runs them with JAX on CPU, and writes one
directory per case: program.mlir, in<i>.npy, out<i>.npy and meta.txt (`compare = exact | ulps:N | rel:T`).
tests/jax_diff.rs runs each program on the interpreter and compares.

Inputs avoid subnormal numbers: XLA on CPU flushes them to zero, which the spec does not do.

Usage: python3 tests/jax_diff.py OUT_DIR
"""

import os
import sys
import zlib

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")
# The reference must be XLA on CPU (never a plugin such as oxhlo's own).
assert jax.default_backend() == "cpu", jax.default_backend()

FLOATS = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": ml_dtypes.bfloat16}
INTS = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u16": np.uint16,
        "u32": np.uint32, "u64": np.uint64}
COMPLEX = {"c64": np.complex64, "c128": np.complex128}
SHAPES = [(), (7,), (3, 4), (2, 1, 3)]


def rng_for(*key):
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def float_input(dt, shape, key, lo=-4.0, hi=4.0, specials=True):
    rng = rng_for(*key)
    x = rng.uniform(lo, hi, shape).astype(np.float64)
    flat = x.reshape(-1)
    if specials and flat.size >= 7:
        sp = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0]
        flat[: len(sp)] = sp
    return flat.reshape(shape).astype(dt)


def int_input(dt, shape, key):
    rng = rng_for(*key)
    info = np.iinfo(dt)
    x = rng.integers(info.min, info.max, size=shape, dtype=np.int64 if info.min < 0 else np.uint64, endpoint=True)
    flat = x.reshape(-1)
    sp = [0, 1, info.max, info.min, 2]
    if flat.size >= len(sp):
        flat[: len(sp)] = sp
    return flat.reshape(shape).astype(dt)


def small_int_input(dt, shape, key, lo, hi):
    rng = rng_for(*key)
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(dt)


def complex_input(dt, shape, key):
    rng = rng_for(*key)
    return (rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)).astype(dt)


class Writer:
    def __init__(self, out):
        self.out = out
        self.n = 0
        self.skipped = []

    def case(self, name, f, args, compare):
        try:
            lowered = jax.jit(f).lower(*args)
            text = lowered.as_text()
            res = jax.jit(f)(*args)
        except Exception as e:  # an op/dtype pair JAX does not support
            self.skipped.append(f"{name}: {type(e).__name__}")
            return
        res = res if isinstance(res, (tuple, list)) else [res]
        d = os.path.join(self.out, "%04d_%s" % (self.n, name))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "program.mlir"), "w") as fh:
            fh.write(text)
        for i, a in enumerate(args):
            np.save(os.path.join(d, f"in{i}.npy"), np.asarray(a))
        for i, r in enumerate(res):
            np.save(os.path.join(d, f"out{i}.npy"), np.asarray(r))
        with open(os.path.join(d, "meta.txt"), "w") as fh:
            fh.write(f"name = {name}\ncompare = {compare}\n")
        self.n += 1


# ulp bounds for f32/f64 (XLA's CPU approximations of transcendental functions are not correctly rounded)
UNARY_FLOAT = {
    "abs": (lax.abs, "exact"), "neg": (lax.neg, "exact"), "sign": (lax.sign, "exact"),
    "floor": (lax.floor, "exact"), "ceil": (lax.ceil, "exact"), "round_afz": (lax.round, "exact"),
    "round_even": (lambda x: lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN), "exact"),
    "sqrt": (lax.sqrt, "exact"), "square": (lax.square, "exact"),
    "rsqrt": (lax.rsqrt, "ulps:2"), "cbrt": (lax.cbrt, "ulps:4"), "exp": (lax.exp, "ulps:4"),
    "expm1": (lax.expm1, "ulps:4"), "log": (lax.log, "ulps:4"), "log1p": (lax.log1p, "ulps:4"),
    "logistic": (lax.logistic, "ulps:8"), "sin": (lax.sin, "ulps:4"), "cos": (lax.cos, "ulps:4"),
    "tan": (lax.tan, "ulps:8"), "tanh": (lax.tanh, "ulps:8"), "asin": (lax.asin, "ulps:8"),
    "acos": (lax.acos, "ulps:8"), "atan": (lax.atan, "ulps:8"), "asinh": (lax.asinh, "ulps:8"),
    "acosh": (lax.acosh, "ulps:8"), "atanh": (lax.atanh, "ulps:8"), "sinh": (lax.sinh, "ulps:8"),
    "cosh": (lax.cosh, "ulps:8"), "erf": (lax.erf, "ulps:8"), "erfc": (lax.erfc, "ulps:64"),
    "erf_inv": (lax.erf_inv, "ulps:64"), "lgamma": (lax.lgamma, "rel:1e-5"),
    "digamma": (lax.digamma, "rel:1e-5"), "bessel_i1e": (lax.bessel_i1e, "rel:1e-5"),
    "is_finite": (lax.is_finite, "exact"), "integer_pow3": (lambda x: lax.integer_pow(x, 3), "ulps:2"),
    "reduce_precision_e5m2": (lambda x: lax.reduce_precision(x, 5, 2), "exact"),
    "reduce_precision_e8m7": (lambda x: lax.reduce_precision(x, 8, 7), "exact"),
}
DOMAINS = {"log": (0.01, 30), "log1p": (-0.9, 30), "rsqrt": (0.01, 30), "asin": (-1, 1), "acos": (-1, 1),
           "atanh": (-0.99, 0.99), "acosh": (1, 30), "erf_inv": (-0.99, 0.99), "lgamma": (0.2, 20),
           "digamma": (0.2, 20), "exp": (-20, 20), "sinh": (-10, 10), "cosh": (-10, 10), "tan": (-1.4, 1.4),
           "erfc": (-3, 8)}
BINARY_FLOAT = {
    "add": (lax.add, "exact"), "sub": (lax.sub, "exact"), "mul": (lax.mul, "exact"), "div": (lax.div, "exact"),
    "rem": (lax.rem, "exact"), "max": (lax.max, "exact"), "min": (lax.min, "exact"),
    "pow": (lax.pow, "ulps:8"), "atan2": (lax.atan2, "ulps:8"), "nextafter": (lax.nextafter, "exact"),
}
COMPARES = ["eq", "ne", "lt", "le", "gt", "ge"]
BINARY_INT = {
    "add": lax.add, "sub": lax.sub, "mul": lax.mul, "div": lax.div, "rem": lax.rem, "max": lax.max,
    "min": lax.min, "and": lax.bitwise_and, "or": lax.bitwise_or, "xor": lax.bitwise_xor,
    "shl": lax.shift_left, "shra": lax.shift_right_arithmetic, "shrl": lax.shift_right_logical,
}
UNARY_INT = {"neg": lax.neg, "abs": lax.abs, "sign": lax.sign, "not": lax.bitwise_not, "popcnt": lax.population_count,
             "clz": lax.clz, "square": lax.square, "integer_pow5": lambda x: lax.integer_pow(x, 5)}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    w = Writer(out)
    for tn, dt in FLOATS.items():
        for op, (f, cmp) in UNARY_FLOAT.items():
            if op.startswith("reduce_precision") and tn in ("f16",) and op.endswith("e8m7"):
                continue
            lo, hi = DOMAINS.get(op, (-4, 4))
            for shape in SHAPES[1:3]:
                x = float_input(dt, shape, (op, tn, shape), lo, hi)
                w.case(f"{op}_{tn}_{'x'.join(map(str, shape))}", f, [x], cmp)
        for op, (f, cmp) in BINARY_FLOAT.items():
            for shape in SHAPES:
                a = float_input(dt, shape, (op, tn, shape, 0), specials=shape != ())
                b = float_input(dt, shape, (op, tn, shape, 1), specials=False)
                w.case(f"{op}_{tn}_{'x'.join(map(str, shape)) or 'scalar'}", f, [a, b], cmp)
        for c in COMPARES:
            a = float_input(dt, (12,), (c, tn, 0))
            b = np.concatenate([a[:6], float_input(dt, (6,), (c, tn, 1))])
            w.case(f"cmp_{c}_{tn}", getattr(lax, c), [a, b], "exact")
        x = float_input(dt, (9,), ("clamp", tn))
        w.case(f"clamp_{tn}", lambda v: lax.clamp(dt(-1.5), v, dt(2.0)), [x], "exact")
        p = np.arange(9) % 2 == 0
        w.case(f"select_{tn}", lambda q, u, v: lax.select(q, u, v), [p, x, x[::-1].copy()], "exact")
    for tn, dt in INTS.items():
        for op, f in BINARY_INT.items():
            a = int_input(dt, (3, 5), (op, tn, 0))
            if op.startswith("sh"):
                bits = np.iinfo(dt).bits
                b = small_int_input(dt, (3, 5), (op, tn, 1), 0, bits + 2)
            else:
                b = int_input(dt, (3, 5), (op, tn, 1))
                b.reshape(-1)[5] = 0
            w.case(f"{op}_{tn}", f, [a, b], "exact")
        for op, f in UNARY_INT.items():
            if op in ("abs", "sign") and tn.startswith("u"):
                continue
            w.case(f"{op}_{tn}", f, [int_input(dt, (11,), (op, tn))], "exact")
        for c in COMPARES:
            a = int_input(dt, (10,), (c, tn, 0))
            b = np.concatenate([a[:4], int_input(dt, (6,), (c, tn, 1))])
            w.case(f"cmp_{c}_{tn}", getattr(lax, c), [a, b], "exact")
    for tn, dt in COMPLEX.items():
        a, b = complex_input(dt, (6,), ("c", tn, 0)), complex_input(dt, (6,), ("c", tn, 1))
        for op, f in {"add": lax.add, "sub": lax.sub, "mul": lax.mul}.items():
            w.case(f"{op}_{tn}", f, [a, b], "rel:1e-6" if tn == "c64" else "rel:1e-14")
        w.case(f"div_{tn}", lax.div, [a, b], "rel:1e-6" if tn == "c64" else "rel:1e-14")
        for op, f in {"exp": lax.exp, "log": lax.log, "sqrt": lax.sqrt, "sin": lax.sin, "cos": lax.cos,
                      "tanh": lax.tanh, "abs": lax.abs, "neg": lax.neg, "real": lax.real, "imag": lax.imag,
                      "conj": lax.conj, "expm1": lax.expm1, "log1p": lax.log1p, "rsqrt": lax.rsqrt}.items():
            w.case(f"{op}_{tn}", f, [a], "rel:1e-5" if tn == "c64" else "rel:1e-12")
        w.case(f"complex_{tn}", lax.complex, [a.real.copy(), a.imag.copy()], "exact")
        w.case(f"cmp_eq_{tn}", lax.eq, [a, np.concatenate([a[:3], b[3:]])], "exact")
    # Conversions between every pair of a representative set of types.
    conv_types = {**FLOATS, "i8": np.int8, "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u32": np.uint32,
                  "bool": np.bool_, "c64": np.complex64, "f8e4m3fn": ml_dtypes.float8_e4m3fn,
                  "f8e5m2": ml_dtypes.float8_e5m2}
    for sn, sdt in conv_types.items():
        if sn == "bool":
            x = np.array([True, False, True, True, False])
        elif sn.startswith("c"):
            x = complex_input(sdt, (5,), ("conv", sn))
        elif np.issubdtype(sdt, np.integer):
            x = int_input(sdt, (9,), ("conv", sn))
        else:
            x = np.array([0.0, -0.0, 1.5, -2.5, 300.7, -1e4, np.nan, np.inf, 65504.0], np.float64).astype(sdt)
        for dn, ddt in conv_types.items():
            if sn.startswith("c") and not dn.startswith("c"):
                continue  # JAX discards the imaginary part with a warning; covered by the conformance suite
            w.case(f"convert_{sn}_to_{dn}", lambda v, d=ddt: lax.convert_element_type(v, d), [x], "exact")
    for sn, dn in [(np.float32, np.int32), (np.float32, np.uint16), (np.float64, np.float32), (np.int64, np.float64),
                   (np.float16, np.int8), (ml_dtypes.bfloat16, np.int16), (np.uint8, np.int8), (np.float64, np.uint8)]:
        x = float_input(sn, (4,), ("bc", str(sn))) if np.issubdtype(sn, np.floating) or sn == ml_dtypes.bfloat16 \
            else int_input(sn, (4,), ("bc", str(sn)))
        if np.dtype(dn).itemsize > np.dtype(sn).itemsize:
            x = np.stack([x] * (np.dtype(dn).itemsize // np.dtype(sn).itemsize), axis=-1)
        w.case(f"bitcast_{np.dtype(sn).name}_to_{np.dtype(dn).name}", lambda v, d=dn: lax.bitcast_convert_type(v, d),
               [x], "exact")
    # Narrow floats (XLA computes them in f32 and rounds once) and 4-bit integers.
    narrow = {"f8e4m3fn": ml_dtypes.float8_e4m3fn, "f8e5m2": ml_dtypes.float8_e5m2,
              "f8e4m3fnuz": ml_dtypes.float8_e4m3fnuz, "f8e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz,
              "f8e5m2fnuz": ml_dtypes.float8_e5m2fnuz, "f4e2m1fn": ml_dtypes.float4_e2m1fn}
    for tn, dt in narrow.items():
        a = float_input(dt, (12,), ("narrow", tn, 0), -6, 6, specials=False)
        b = float_input(dt, (12,), ("narrow", tn, 1), 0.5, 6, specials=False)
        for op, f in {"add": lax.add, "sub": lax.sub, "mul": lax.mul, "div": lax.div, "max": lax.max,
                      "min": lax.min}.items():
            w.case(f"{op}_{tn}", f, [a, b], "exact")
        for op, f in {"abs": lax.abs, "neg": lax.neg, "sqrt": lambda v: lax.sqrt(lax.abs(v)),
                      "exp": lambda v: lax.exp(v * 0.25), "tanh": lax.tanh}.items():
            w.case(f"{op}_{tn}", f, [a], "exact" if op in ("abs", "neg", "sqrt") else "ulps:1")
    for tn, dt in {"i4": ml_dtypes.int4, "u4": ml_dtypes.uint4}.items():
        lo, hi = (-8, 7) if tn == "i4" else (0, 15)
        vals = np.arange(lo, hi + 1)
        a = np.repeat(vals, len(vals)).astype(dt)
        b = np.tile(vals, len(vals)).astype(dt)
        for op, f in {"add": lax.add, "sub": lax.sub, "mul": lax.mul, "max": lax.max, "and": lax.bitwise_and,
                      "xor": lax.bitwise_xor, "shl": lax.shift_left, "shrl": lax.shift_right_logical,
                      "shra": lax.shift_right_arithmetic, "div": lax.div, "rem": lax.rem}.items():
            w.case(f"{op}_{tn}", f, [a, b], "exact")
        w.case(f"not_{tn}", lax.bitwise_not, [a], "exact")
        w.case(f"clz_{tn}", lax.clz, [a], "exact")
        if tn == "u4":
            # XLA on CPU counts the bits of a negative int4 in its sign-extended 8-bit container (popcnt(-8)
            # = 5); the spec counts the 4 bits (1). The conformance suite covers int4 popcnt.
            w.case(f"popcnt_{tn}", lax.population_count, [a], "exact")
    p, q = np.array([True, True, False, False]), np.array([True, False, True, False])
    for op, f in {"and": lax.bitwise_and, "or": lax.bitwise_or, "xor": lax.bitwise_xor}.items():
        w.case(f"{op}_bool", f, [p, q], "exact")
    w.case("not_bool", lax.bitwise_not, [p], "exact")
    # A few fused chains.
    x = float_input(np.float32, (4, 4), ("chain",), 0.1, 3, specials=False)
    w.case("chain_f32", lambda v: lax.tanh(v * 2.0 + 1.0) - lax.exp(-v) / (v + 1.0), [x], "ulps:16")
    w.case("where_f32", lambda v: jnp.where(v > 1.0, jnp.sqrt(v), v * v), [x], "exact")
    print(f"wrote {w.n} cases to {out}; skipped {len(w.skipped)}")
    for s in w.skipped[:20]:
        print("  skipped", s)


if __name__ == "__main__":
    main()
