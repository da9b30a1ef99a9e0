#!/usr/bin/env python3
"""Generates the interpreter's conformance suite, tests/conformance/<op>.mlir: every elementwise op on every
element type it accepts, with edge cases (NaN, +-Inf, -0, subnormals, overflow, empty tensors, rank 0 and
rank 6), in the check-dialect convention (cases split by `// -----`, each a `@main` with `check.*` ops).

Expected values come from refs.py / common.py (Python integers, float64 NumPy, mpmath), never from the
interpreter. Exact ops are checked with `check.expect_eq_const`; transcendental ones with
`check.expect_close` and a small ULP bound.

Usage: python3 tests/gen/gen_conformance.py   (from crates/oxhlo-interp; rewrites the generated files)
"""

import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen_conversions  # noqa: E402
from common import (COMPLEX, F8_FLOATS, INTS, MAIN_FLOATS, SUB8_FLOATS, Case, as_f64, float_edges,  # noqa: E402
                    float_samples, has_inf, has_nan, int_edges, rnd, ttype, write_file)
import refs  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "conformance")
ALL_FLOATS = MAIN_FLOATS + F8_FLOATS + SUB8_FLOATS + ["f8E8M0FNU"]

# ULP bounds for approximate ops: (f64, f32/f16/bf16/f8).
APPROX_ULPS = {
    "chlo.erf": (16, 1), "chlo.erfc": (32, 1), "chlo.lgamma": (64, 2),
    "chlo.digamma": (64, 2), "chlo.bessel_i1e": (8, 1), "chlo.polygamma": (64, 2), "chlo.zeta": (16, 1),
    "chlo.atanh": (4, 1), "chlo.asinh": (4, 1), "chlo.acosh": (4, 1), "chlo.erf_inv": (16, 1),
}
EXACT_UNARY = ["abs", "negate", "sign", "sqrt", "floor", "ceil", "round_nearest_afz", "round_nearest_even",
               "chlo.square"]
APPROX_UNARY = ["rsqrt", "cbrt", "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic",
                "sine", "cosine", "tan", "tanh", "chlo.acos", "chlo.acosh", "chlo.asin", "chlo.asinh",
                "chlo.atan", "chlo.atanh", "chlo.cosh", "chlo.sinh", "chlo.tan", "chlo.erf", "chlo.erfc",
                "chlo.erf_inv", "chlo.lgamma", "chlo.digamma", "chlo.bessel_i1e"]
EXACT_BINARY = ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum"]
APPROX_BINARY = ["power", "atan2"]
INT_BINARY = ["add", "subtract", "multiply", "divide", "remainder", "power", "maximum", "minimum", "and", "or",
              "xor", "shift_left", "shift_right_logical", "shift_right_arithmetic"]
INT_UNARY = ["abs", "negate", "sign", "not", "popcnt", "count_leading_zeros"]
SIGNED_ONLY = {"abs", "sign"}

# Domains of the approximate ops (sample ranges), beyond the edge values every op also gets.
DOMAIN = {
    "log": (0.01, 50), "log_plus_one": (-0.9, 50), "rsqrt": (0.01, 50), "chlo.acos": (-1, 1),
    "chlo.asin": (-1, 1), "chlo.atanh": (-0.99, 0.99), "chlo.acosh": (1, 50), "chlo.erf_inv": (-0.999, 0.999),
    "chlo.lgamma": (0.1, 30), "chlo.digamma": (0.1, 30), "chlo.erfc": (-3, 9), "chlo.bessel_i1e": (-40, 40),
    "exponential": (-20, 20), "exponential_minus_one": (-5, 5), "chlo.cosh": (-10, 10), "chlo.sinh": (-10, 10),
    "tan": (-1.5, 1.5), "chlo.tan": (-1.5, 1.5),
}


# f32 ops that fast backends compute with single-precision math libraries (CUDA's expf, tanhf, ...: within
# 2 ulp of the exact result; the spec leaves the accuracy of these functions to the implementation).
F32_LIBM_ULPS = {op: 2 for op in ("exponential", "exponential_minus_one", "log", "log_plus_one", "logistic",
                                  "tanh", "sine", "cosine", "rsqrt")}


def ulps_for(op, t):
    f64, narrow = APPROX_ULPS.get(op, (2, 1))
    if t == "f32" and op in F32_LIBM_ULPS:
        return max(narrow, F32_LIBM_ULPS[op])
    return f64 if t == "f64" else narrow


def op_name(op):
    return op if op.startswith("chlo.") else "stablehlo." + op


def file_of(op):
    return op.replace(".", "_") if op.startswith("chlo.") else op


def unary_case(op, t, xs, shape, expected, ulps, title):
    c = Case(title)
    x = c.const(xs, shape, t)
    r = c.op(op_name(op), [x], [ttype(shape, t)], ttype(shape, t))
    if ulps == 0:
        c.expect_eq(r, expected, shape, t)
    else:
        c.expect_close(r, expected, shape, t, ulps)
    return c


def float_unary_cases(op, exact):
    f = refs.FLOAT_UNARY[op]
    cases = []
    types = ALL_FLOATS if exact else MAIN_FLOATS + ["f8E4M3FN", "f8E5M2"]
    if op in ("sign", "abs", "negate") or op.startswith("chlo.") and op not in ("chlo.square",):
        types = [t for t in types if t != "f8E8M0FNU"]
    for t in types:
        xs = list(float_edges(t))
        lo, hi = DOMAIN.get(op, (-4, 4))
        xs += list(float_samples(t, 24, lo, hi))
        if op == "chlo.lgamma":
            xs += list(rnd(np.array([-0.5, -2.5, -3.7, 1.0, 2.0, -1.0, 0.0]), t))
        if op == "chlo.digamma":
            xs += list(rnd(np.array([-0.5, -2.5, -3.7, 1.0, 2.0, -1.0]), t))
        xs = as_f64(rnd(np.array(xs), t))
        exp = rnd(np.array([f(float(x)) for x in xs]), t)
        cases.append(unary_case(op, t, xs, [len(xs)], exp, 0 if exact else ulps_for(op, t), f"{op} {t}"))
    # rank 0, rank 6, empty
    for shape in ([], [1, 2, 1, 2, 1, 2], [0], [2, 0, 3]):
        n = int(np.prod(shape)) if shape else 1
        xs = float_samples("f32", n, 0.1, 3.0)
        exp = rnd(np.array([f(float(x)) for x in xs]), "f32")
        cases.append(unary_case(op, "f32", xs, shape, exp, 0 if exact else ulps_for(op, "f32"),
                                f"{op} f32 shape {shape}"))
    return cases


def binary_case(op, t, a, b, shape, expected, ulps, title, out_t=None):
    c = Case(title)
    x = c.const(a, shape, t)
    y = c.const(b, shape, t)
    ot = out_t or t
    r = c.op(op_name(op), [x, y], [ttype(shape, t)] * 2, ttype(shape, ot))
    if ulps == 0:
        c.expect_eq(r, expected, shape, ot)
    else:
        c.expect_close(r, expected, shape, ot, ulps)
    return c


def float_binary_cases(op, exact):
    f = refs.FLOAT_BINARY[op]
    cases = []
    types = ALL_FLOATS if exact else MAIN_FLOATS + ["f8E4M3FN"]
    for t in types:
        e = list(float_edges(t))
        a = [x for x in e for _ in e]
        b = [y for _ in e for y in e]
        sa, sb = float_samples(t, 16, -8, 8, 1), float_samples(t, 16, -8, 8, 2)
        a += list(sa)
        b += list(sb)
        a, b = as_f64(a), as_f64(b)
        exp = rnd(np.array([f(float(x), float(y)) for x, y in zip(a, b)]), t)
        cases.append(binary_case(op, t, a, b, [len(a)], exp, 0 if exact else ulps_for(op, t), f"{op} {t}"))
    for shape in ([], [1, 2, 1, 2, 1, 2], [0]):
        n = int(np.prod(shape)) if shape else 1
        a, b = float_samples("f32", n, 0.5, 3, 3), float_samples("f32", n, 0.5, 3, 4)
        exp = rnd(np.array([f(float(x), float(y)) for x, y in zip(a, b)]), "f32")
        cases.append(binary_case(op, "f32", a, b, shape, exp, 0 if exact else ulps_for(op, "f32"),
                                 f"{op} f32 shape {shape}"))
    return cases


def int_binary_cases(op):
    cases = []
    for t in INTS:
        bits, signed = INTS[t]
        e = int_edges(t)
        if op.startswith("shift"):
            amounts = sorted({s for s in [0, 1, bits - 1, bits, bits + 1, 2, -1 if signed else (1 << bits) - 1]
                              if refs.wrap(s, t) == s})
            a = [x for x in e for _ in amounts]
            b = [s for _ in e for s in amounts]
        elif op == "power":
            exps = [s for s in [0, 1, 2, 3, 7, -1, -2, 63] if refs.wrap(s, t) == s and (signed or s >= 0)]
            a = [x for x in e for _ in exps]
            b = [s for _ in e for s in exps]
        else:
            a = [x for x in e for _ in e]
            b = [y for _ in e for y in e]
        exp = [refs.int_binary(op, x, y, t) for x, y in zip(a, b)]
        cases.append(binary_case(op, t, a, b, [len(a)], exp, 0, f"{op} {t}"))
    for shape in ([], [2, 1, 2, 1, 1, 2], [0]):
        n = int(np.prod(shape)) if shape else 1
        a = [(7 * i + 3) % 50 - 20 for i in range(n)]
        b = [(5 * i + 1) % 9 + 1 for i in range(n)]
        exp = [refs.int_binary(op, x, y, "i32") for x, y in zip(a, b)]
        cases.append(binary_case(op, "i32", a, b, shape, exp, 0, f"{op} i32 shape {shape}"))
    return cases


def bool_binary_cases(op):
    a = [False, False, True, True]
    b = [False, True, False, True]
    table = {"and": lambda x, y: x and y, "or": lambda x, y: x or y, "xor": lambda x, y: x != y,
             "add": lambda x, y: x or y, "multiply": lambda x, y: x and y,
             "maximum": lambda x, y: x or y, "minimum": lambda x, y: x and y}
    if op not in table:
        return []
    exp = [table[op](x, y) for x, y in zip(a, b)]
    return [binary_case(op, "i1", a, b, [4], exp, 0, f"{op} i1")]


def int_unary_cases(op):
    cases = []
    for t in INTS:
        if op in SIGNED_ONLY and not INTS[t][1]:
            continue
        xs = int_edges(t)
        exp = [refs.int_unary(op, x, t) for x in xs]
        cases.append(unary_case(op, t, xs, [len(xs)], exp, 0, f"{op} {t}"))
    if op == "not":
        c = Case("not i1")
        x = c.const([True, False], [2], "i1")
        r = c.op("stablehlo.not", [x], ["tensor<2xi1>"], "tensor<2xi1>")
        c.expect_eq(r, [False, True], [2], "i1")
        cases.append(c)
    for shape in ([], [1, 1, 2, 1, 2, 1], [0]):
        n = int(np.prod(shape)) if shape else 1
        xs = [(13 * i) % 40 - 17 for i in range(n)]
        exp = [refs.int_unary(op, x, "i32") for x in xs]
        cases.append(unary_case(op, "i32", xs, shape, exp, 0, f"{op} i32 shape {shape}"))
    return cases


def complex_case(op, t, inputs, expected, exact):
    """Complex results are compared exactly, or within a relative tolerance (parts of complex functions can
    cancel, so a ULP bound on each part would be meaningless)."""
    c = Case(f"{op} {t}")
    n = len(inputs[0])
    xs = [c.const(z, [n], t) for z in inputs]
    r = c.op(op_name(op), xs, [ttype([n], t)] * len(xs), ttype([n], t))
    if exact:
        c.expect_eq(r, expected, [n], t)
    else:
        c.expect_almost(r, expected, [n], t, 1e-5 if t == "complex<f32>" else 1e-12)
    return c


def complex_cases(op):
    """Complex arithmetic and functions (parts rounded to the part type)."""
    rng = np.random.default_rng(7)
    cases = []
    unary_np = {"negate": np.negative, "sqrt": np.sqrt, "exponential": np.exp, "log": np.log,
                "sine": np.sin, "cosine": np.cos, "tanh": np.tanh, "tan": np.tan, "rsqrt": lambda z: 1 / np.sqrt(z),
                "exponential_minus_one": np.expm1, "log_plus_one": np.log1p, "chlo.conj": np.conj,
                "chlo.square": lambda z: z * z, "chlo.sinh": np.sinh, "chlo.cosh": np.cosh,
                "chlo.asin": np.arcsin, "chlo.acos": np.arccos, "chlo.atan": np.arctan,
                "chlo.asinh": np.arcsinh, "chlo.acosh": np.arccosh, "chlo.atanh": np.arctanh,
                "logistic": lambda z: 1 / (1 + np.exp(-z)), "sign": lambda z: z / np.abs(z)}
    binary_np = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
                 "power": np.power}
    exact = {"negate", "chlo.conj", "add", "subtract", "multiply"}
    for t, part in COMPLEX.items():
        dt = np.complex64 if part == "f32" else np.complex128
        z = (rng.uniform(-2, 2, 12) + 1j * rng.uniform(-2, 2, 12)).astype(dt).astype(np.complex128)
        w = (rng.uniform(0.5, 2, 12) + 1j * rng.uniform(-2, 2, 12)).astype(dt).astype(np.complex128)
        if op in unary_np:
            with np.errstate(all="ignore"):
                r = unary_np[op](z)
            exp = rnd(r.real, part) + 1j * rnd(r.imag, part).astype(np.float64)
            cases.append(complex_case(op, t, [z], exp, op in exact))
        elif op in binary_np:
            with np.errstate(all="ignore"):
                r = binary_np[op](z, w)
            exp = rnd(r.real, part) + 1j * rnd(r.imag, part).astype(np.float64)
            cases.append(complex_case(op, t, [z, w], exp, op in exact and part == "f32"))
    return cases


def main():
    os.makedirs(OUT, exist_ok=True)
    total = 0
    files = {}

    def add(op, cases):
        files.setdefault(file_of(op), []).extend(cases)

    for op in EXACT_UNARY:
        add(op, float_unary_cases(op, True))
    for op in APPROX_UNARY:
        add(op, float_unary_cases(op, False))
    for op in EXACT_BINARY:
        add(op, float_binary_cases(op, True))
    for op in APPROX_BINARY:
        add(op, float_binary_cases(op, False))
    for op in INT_BINARY:
        add(op, int_binary_cases(op))
        add(op, bool_binary_cases(op))
    for op in INT_UNARY:
        add(op, int_unary_cases(op))
    for op in ["negate", "sqrt", "exponential", "log", "sine", "cosine", "tanh", "tan", "rsqrt",
               "exponential_minus_one", "log_plus_one", "chlo.conj", "chlo.square", "chlo.sinh", "chlo.cosh",
               "chlo.asin", "chlo.acos", "chlo.atan", "chlo.asinh", "chlo.acosh", "chlo.atanh", "logistic",
               "sign", "add", "subtract", "multiply", "divide", "power"]:
        add(op, complex_cases(op))
    for name, cases in gen_conversions.all_cases().items():
        files.setdefault(name, []).extend(cases)
    for name, cases in sorted(files.items()):
        n = write_file(os.path.join(OUT, name + ".mlir"), f"Conformance tests for {name}.", cases)
        total += n
    print(f"wrote {len(files)} files, {total} cases to {OUT}")


if __name__ == "__main__":
    main()
