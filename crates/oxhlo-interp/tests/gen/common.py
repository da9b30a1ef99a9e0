"""Shared machinery of the conformance generator: element types, exact rounding into every float format,
edge values, MLIR literal printing and the text of one test case.

Expected values are computed independently of the interpreter: integer ops with Python integers, float ops
in float64 (NumPy) or with mpmath, then rounded once (ties to even) into the element type with ml_dtypes,
going through float32 with round-to-odd so that no double rounding can creep in.
"""

import math
import struct
import zlib

import ml_dtypes
import numpy as np

# ---- element types -------------------------------------------------------------------------------

FLOATS = {
    "f64": np.float64,
    "f32": np.float32,
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "f8E4M3FN": ml_dtypes.float8_e4m3fn,
    "f8E5M2": ml_dtypes.float8_e5m2,
    "f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz,
    "f8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
    "f8E4M3B11FNUZ": ml_dtypes.float8_e4m3b11fnuz,
    "f8E3M4": ml_dtypes.float8_e3m4,
    "f8E4M3": ml_dtypes.float8_e4m3,
    "f4E2M1FN": ml_dtypes.float4_e2m1fn,
    "f6E2M3FN": ml_dtypes.float6_e2m3fn,
    "f6E3M2FN": ml_dtypes.float6_e3m2fn,
    "f8E8M0FNU": ml_dtypes.float8_e8m0fnu,
}
# The formats most ops are tested on; the exotic ones get the exact ops.
MAIN_FLOATS = ["f64", "f32", "f16", "bf16"]
F8_FLOATS = ["f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3B11FNUZ", "f8E3M4", "f8E4M3"]
SUB8_FLOATS = ["f4E2M1FN", "f6E2M3FN", "f6E3M2FN"]

# name -> (bits, signed)
INTS = {
    "i2": (2, True), "i4": (4, True), "i8": (8, True), "i16": (16, True), "i32": (32, True), "i64": (64, True),
    "ui2": (2, False), "ui4": (4, False), "ui8": (8, False), "ui16": (16, False), "ui32": (32, False),
    "ui64": (64, False), "si4": (4, True), "si64": (64, True),
}
COMPLEX = {"complex<f32>": "f32", "complex<f64>": "f64"}


def is_float(t):
    return t in FLOATS


def is_int(t):
    return t in INTS


def is_complex(t):
    return t in COMPLEX


def storage_bits(t):
    if t == "i1":
        return 1
    if is_int(t):
        return INTS[t][0]
    if is_complex(t):
        return 2 * storage_bits(COMPLEX[t])
    return {"f64": 64, "f32": 32, "f16": 16, "bf16": 16, "f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6}.get(t, 8)


# ---- exact rounding ---------------------------------------------------------------------------------

def _f32_round_to_odd(x):
    """float64 -> float32 rounding to odd (exact as an intermediate for any narrower format)."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        f = x.astype(np.float32)
    out = f.copy()
    inexact = np.isfinite(x) & (f.astype(np.float64) != x)
    bits = f.view(np.uint32)
    even = (bits & 1) == 0
    fix = inexact & even
    if np.any(fix):
        toward = np.where(x > f.astype(np.float64), np.float32(np.inf), np.float32(-np.inf))
        out[fix] = np.nextafter(f[fix], toward[fix])
    return out


def rnd(x, t):
    """Rounds float64 values (array) once to element type `t`, as the spec requires."""
    x = np.asarray(x, dtype=np.float64)
    if t == "f64":
        return x.copy()
    if t == "f32":
        with np.errstate(over="ignore"):
            return x.astype(np.float32)
    dt = FLOATS[t]
    if t in SUB8_FLOATS:
        # No NaN in these formats: NaN of either sign becomes the -0 pattern (XLA, oxhlo-dtype).
        x = np.where(np.isnan(x), -0.0, x)
    big = np.abs(x) > 3.0e38
    y = _f32_round_to_odd(np.where(big, np.sign(x) * np.inf, x))
    with np.errstate(over="ignore", invalid="ignore"):
        return y.astype(dt)


def as_f64(a):
    return np.asarray(a).astype(np.float64)


def int_to_f64_odd(v):
    """An integer rounded to float64 with round-to-odd."""
    if abs(v) <= 1 << 53:
        return float(v)
    m = abs(v)
    shift = m.bit_length() - 53
    hi = m >> shift
    if m & ((1 << shift) - 1):
        hi |= 1
    r = float(hi << shift)
    return -r if v < 0 else r


def int_to_float(v, t):
    if t == "f64":
        return np.float64(float(v))
    return rnd(np.array([int_to_f64_odd(v)]), t)[0]


def wrap(v, t):
    bits, signed = INTS[t]
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def int_range(t):
    bits, signed = INTS[t]
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)


# ---- edge values ------------------------------------------------------------------------------------

def float_info(t):
    dt = FLOATS[t]
    fi = ml_dtypes.finfo(dt) if t not in ("f64", "f32", "f16") else np.finfo(dt)
    return fi


def has_nan(t):
    return t not in SUB8_FLOATS


def has_inf(t):
    return t in ("f64", "f32", "f16", "bf16", "f8E5M2", "f8E3M4", "f8E4M3")


def has_neg_zero(t):
    return "FNUZ" not in t and t != "f8E8M0FNU"


def float_edges(t):
    """Interesting exact values of type t, as float64 (NaN and infinities included where they exist)."""
    fi = float_info(t)
    mx = float(fi.max)
    tiny = float(fi.smallest_normal)
    sub = float(fi.smallest_subnormal)
    if t == "f8E8M0FNU":
        vals = [1.0, 2.0, 0.5, 4.0, 0.25, mx, tiny, 1024.0]
    else:
        vals = [0.0, 1.0, -1.0, 0.5, -2.5, 3.0, mx, -mx, tiny, -tiny, 1.5, -0.75]
        if sub < tiny:
            vals += [sub, -sub]
        if has_neg_zero(t):
            vals.append(-0.0)
    if has_inf(t):
        vals += [math.inf, -math.inf]
    if has_nan(t):
        vals.append(math.nan)
    return as_f64(rnd(np.array(vals), t))


def float_samples(t, n, lo=-4.0, hi=4.0, seed=0):
    """n pseudo-random exact values of type t in [lo, hi]."""
    rng = np.random.default_rng(zlib.crc32(repr((t, n, lo, hi, seed)).encode()))
    return as_f64(rnd(rng.uniform(lo, hi, n), t))


def int_edges(t):
    lo, hi = int_range(t)
    vals = {0, 1, lo, hi, lo + 1, hi - 1, hi // 2, 2, 3}
    if lo < 0:
        vals |= {-1, -2, lo // 2}
    return sorted(v for v in vals if lo <= v <= hi)


# ---- literals -----------------------------------------------------------------------------------------

def float_bits(v, t):
    arr = np.array([v], dtype=FLOATS[t])
    nbytes = arr.dtype.itemsize
    return int.from_bytes(arr.tobytes(), "little") & ((1 << storage_bits(t)) - 1) if nbytes else 0


def fmt_float(v, t):
    v = float(v)
    if math.isfinite(v) and t != "f8E8M0FNU":
        r = repr(v)
        if "e" in r and "." not in r:
            r = r.replace("e", ".0e")  # MLIR float literals need a '.'
        return r
    digits = max(2, (storage_bits(t) + 3) // 4)
    return "0x%0*X" % (digits, float_bits(v, t))


def fmt_scalar(v, t):
    if t == "i1":
        return "true" if v else "false"
    if is_int(t) or t.startswith("!quant"):
        return str(int(v))
    if is_float(t):
        return fmt_float(v, t)
    part = COMPLEX[t]
    c = complex(v)
    return "(%s, %s)" % (fmt_float(c.real, part), fmt_float(c.imag, part))


def raw_hex(values, t):
    """`dense<"0x...">` raw little-endian bytes (used for complex tensors holding NaN/inf)."""
    part = COMPLEX[t]
    nb = storage_bits(part) // 8
    out = bytearray()
    for c in values:
        c = complex(c)
        for p in (c.real, c.imag):
            out += float_bits(p, part).to_bytes(nb, "little")
    return '"0x%s"' % out.hex().upper()


def nested(vals, shape, t):
    if len(shape) == 0:
        return fmt_scalar(vals[0], t)
    if shape[0] == 0:
        return "[]"
    step = int(np.prod(shape[1:])) if len(shape) > 1 else 1
    parts = [nested(vals[i * step:(i + 1) * step], shape[1:], t) for i in range(shape[0])]
    return "[" + ", ".join(parts) + "]"


def literal(values, shape, t):
    if 0 in list(shape):
        return "dense<>"
    vals = list(np.asarray(values, dtype=object).reshape(-1)) if len(values) else []
    if is_complex(t) and any(not (math.isfinite(complex(c).real) and math.isfinite(complex(c).imag)) for c in vals):
        return "dense<%s>" % raw_hex(vals, t)
    return "dense<%s>" % nested(vals, list(shape), t)


def ttype(shape, t):
    dims = "".join("%dx" % d for d in shape)
    return "tensor<%s%s>" % (dims, t)


# ---- one test case --------------------------------------------------------------------------------------

class Case:
    """A `func.func @main()` that builds constants, applies one op and checks the result."""

    def __init__(self, title):
        self.title = title
        self.lines = []
        self.n = 0

    def const(self, values, shape, t):
        name = "%%c%d" % self.n
        self.n += 1
        self.lines.append("  %s = stablehlo.constant %s : %s" % (name, literal(values, shape, t), ttype(shape, t)))
        return name

    def op(self, opname, operands, in_types, out_type, attrs=""):
        name = "%%r%d" % self.n
        self.n += 1
        attr = (" {%s}" % attrs) if attrs else ""
        self.lines.append('  %s = "%s"(%s)%s : (%s) -> %s' % (name, opname, ", ".join(operands), attr,
                                                           ", ".join(in_types), out_type))
        return name

    def expect_eq(self, value, expected, shape, t):
        self.lines.append("  check.expect_eq_const %s, %s : %s" % (value, literal(expected, shape, t), ttype(shape, t)))

    def expect_close(self, value, expected, shape, t, ulps):
        e = self.const(expected, shape, t)
        ty = ttype(shape, t)
        self.lines.append("  check.expect_close %s, %s, max_ulp_difference = %d : %s, %s" % (value, e, ulps, ty, ty))

    def expect_almost(self, value, expected, shape, t, tol):
        self.lines.append("  check.expect_almost_eq_const %s, %s : %s, tolerance = %.1e"
                          % (value, literal(expected, shape, t), ttype(shape, t), tol))

    def text(self):
        body = "\n".join(self.lines)
        return "// %s\nfunc.func @main() {\n%s\n  func.return\n}\n" % (self.title, body)


def write_file(path, header, cases):
    with open(path, "w") as f:
        f.write("// %s\n// Generated by tests/gen/gen_conformance.py; do not edit.\n\n" % header)
        f.write("\n// -----\n\n".join(c.text() for c in cases))
    return len(cases)


def pack_f64(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]
