"""Reference semantics for the conformance generator, written from the StableHLO spec (and XLA where the
spec says implementation-defined), independently of the Rust interpreter.

Integer ops use Python integers; float ops float64 NumPy or mpmath, rounded by the caller.
"""

import math

import mpmath
import numpy as np

from common import INTS, int_range, wrap

mpmath.mp.dps = 40

# ---- integers -------------------------------------------------------------------------------------------


def tdiv(a, b):
    """Division truncating toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def int_binary(op, a, b, t):
    bits, signed = INTS[t]
    lo, hi = int_range(t)
    if op == "add":
        return wrap(a + b, t)
    if op == "subtract":
        return wrap(a - b, t)
    if op == "multiply":
        return wrap(a * b, t)
    if op == "divide":
        # XLA: x / 0 = -1 (all ones), min / -1 = min.
        if b == 0:
            return wrap(-1, t)
        if signed and a == lo and b == -1:
            return lo
        return wrap(tdiv(a, b), t)
    if op == "remainder":
        # XLA: x % 0 = x, min % -1 = 0; the sign follows the dividend.
        if b == 0:
            return a
        if signed and b == -1:
            return 0
        return wrap(a - tdiv(a, b) * b, t)
    if op == "power":
        if b < 0:
            return 1 if a == 1 else ((-1 if b % 2 else 1) if a == -1 else 0)
        return wrap(pow(a, b, 1 << bits), t)
    if op == "maximum":
        return max(a, b)
    if op == "minimum":
        return min(a, b)
    if op == "and":
        return wrap(a & b, t)
    if op == "or":
        return wrap(a | b, t)
    if op == "xor":
        return wrap(a ^ b, t)
    s = b & ((1 << bits) - 1)  # shift amounts are read as unsigned
    ua = a & ((1 << bits) - 1)
    if op == "shift_left":
        return 0 if s >= bits else wrap(ua << s, t)
    if op == "shift_right_logical":
        return 0 if s >= bits else wrap(ua >> s, t)
    if op == "shift_right_arithmetic":
        sa = ua - (1 << bits) if ua >> (bits - 1) else ua
        return wrap(-1 if sa < 0 else 0, t) if s >= bits else wrap(sa >> s, t)
    raise ValueError(op)


def int_unary(op, a, t):
    bits, signed = INTS[t]
    ua = a & ((1 << bits) - 1)
    if op == "abs":
        return wrap(abs(a), t)
    if op == "negate":
        return wrap(-a, t)
    if op == "sign":
        return (a > 0) - (a < 0)
    if op == "not":
        return wrap(~a, t)
    if op == "popcnt":
        return bin(ua).count("1")
    if op == "count_leading_zeros":
        return bits - ua.bit_length()
    raise ValueError(op)


# ---- floats ---------------------------------------------------------------------------------------------


def fmax(x, y):
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y:
        return y if math.copysign(1, x) < 0 else x
    return max(x, y)


def fmin(x, y):
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y:
        return x if math.copysign(1, x) < 0 else y
    return min(x, y)


def fsign(x):
    if math.isnan(x) or x == 0:
        return x
    return math.copysign(1.0, x)


def round_afz(x):
    if not math.isfinite(x):
        return x
    t = math.trunc(x)
    r = float(t) if abs(x - t) < 0.5 else float(t + (1 if x > 0 else -1))
    return math.copysign(r, x) if r == 0 else r


def logistic(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _mp(f):
    """An mpmath function evaluated at 40 digits and returned as the nearest float64."""
    def g(x):
        if math.isnan(x):
            return math.nan
        try:
            return float(f(mpmath.mpf(x)))
        except (ValueError, ZeroDivisionError, OverflowError):
            return math.nan
    return g


def _lgamma(x):
    if math.isinf(x):
        return math.inf
    if x <= 0 and x == math.floor(x):
        return math.inf
    return float(mpmath.re(mpmath.loggamma(mpmath.mpf(x))))


def _digamma(x):
    if math.isnan(x) or x == -math.inf or (x <= 0 and x == math.floor(x)):
        return math.nan
    if x == math.inf:
        return math.inf
    return float(mpmath.digamma(mpmath.mpf(x)))


def _erfinv(x):
    if math.isnan(x) or abs(x) > 1:
        return math.nan
    if abs(x) == 1:
        return math.copysign(math.inf, x)
    return float(mpmath.erfinv(mpmath.mpf(x)))


def _i1e(x):
    if math.isnan(x):
        return x
    if math.isinf(x):
        return math.copysign(0.0, x)
    v = mpmath.besseli(1, mpmath.mpf(x)) * mpmath.exp(-abs(mpmath.mpf(x)))
    return float(v)


def _np(f):
    def g(x):
        with np.errstate(all="ignore"):
            return float(f(np.float64(x)))
    return g


FLOAT_UNARY = {
    "abs": abs,
    "negate": lambda x: -x,
    "sign": fsign,
    "sqrt": _np(np.sqrt),
    "rsqrt": _np(lambda x: 1.0 / np.sqrt(x)),
    "cbrt": _np(np.cbrt),
    "exponential": _np(np.exp),
    "exponential_minus_one": _np(np.expm1),
    "log": _np(np.log),
    "log_plus_one": _np(np.log1p),
    "logistic": lambda x: math.nan if math.isnan(x) else logistic(x),
    "sine": _np(np.sin),
    "cosine": _np(np.cos),
    "tan": _np(np.tan),
    "tanh": _np(np.tanh),
    "floor": _np(np.floor),
    "ceil": _np(np.ceil),
    "round_nearest_afz": round_afz,
    "round_nearest_even": _np(np.rint),
    "chlo.acos": _np(np.arccos),
    "chlo.acosh": _np(np.arccosh),
    "chlo.asin": _np(np.arcsin),
    "chlo.asinh": _np(np.arcsinh),
    "chlo.atan": _np(np.arctan),
    "chlo.atanh": _np(np.arctanh),
    "chlo.cosh": _np(np.cosh),
    "chlo.sinh": _np(np.sinh),
    "chlo.tan": _np(np.tan),
    "chlo.square": lambda x: x * x,
    "chlo.erf": _mp(mpmath.erf),
    "chlo.erfc": lambda x: 0.0 if x > 40 else (2.0 if x < -10 else _mp(mpmath.erfc)(x)),
    "chlo.erf_inv": _erfinv,
    "chlo.lgamma": _lgamma,
    "chlo.digamma": _digamma,
    "chlo.bessel_i1e": _i1e,
}


def _pow(x, y):
    """IEEE-754 / C99 pow (NumPy's power differs at -inf ** non-integer)."""
    if x == 0 and y < 0:
        odd = float(y).is_integer() and int(y) % 2 == 1
        return math.copysign(math.inf, x) if odd else math.inf
    try:
        return math.pow(x, y)
    except ValueError:
        return math.nan
    except OverflowError:
        odd = float(y).is_integer() and int(y) % 2 == 1
        return -math.inf if (x < 0 and odd) else math.inf


def _div(x, y):
    with np.errstate(all="ignore"):
        return float(np.divide(np.float64(x), np.float64(y)))


def _fmod(x, y):
    with np.errstate(all="ignore"):
        return float(np.fmod(np.float64(x), np.float64(y)))


def _zeta(x, q):
    if math.isnan(x) or math.isnan(q):
        return math.nan
    if x == 1:
        return math.inf
    if x < 1:
        return math.nan
    if q <= 0 and q == math.floor(q):
        return math.inf
    if q <= 0 and x != math.floor(x):
        return math.nan
    return float(mpmath.zeta(mpmath.mpf(x), mpmath.mpf(q)))


def _polygamma(n, x):
    if math.isnan(n) or math.isnan(x) or n < 0 or n != math.floor(n):
        return math.nan
    if n == 0:
        return _digamma(x)
    if x <= 0 and x == math.floor(x):
        return math.inf if int(n) % 2 == 1 else -math.inf
    return float(mpmath.polygamma(int(n), mpmath.mpf(x)))


FLOAT_BINARY = {
    "add": lambda x, y: x + y,
    "subtract": lambda x, y: x - y,
    "multiply": lambda x, y: x * y,
    "divide": lambda x, y: _div(x, y),
    "remainder": _fmod,
    "power": _pow,
    "maximum": fmax,
    "minimum": fmin,
    "atan2": lambda y, x: math.atan2(y, x) if not (math.isnan(x) or math.isnan(y)) else math.nan,
    "chlo.zeta": _zeta,
    "chlo.polygamma": _polygamma,
}


def total_order_key(x):
    """IEEE totalOrder on float64 values (NaN payloads as carried in float64)."""
    b = int(np.array([x], dtype=np.float64).view(np.int64)[0])
    return b if b >= 0 else -(b & 0x7FFFFFFFFFFFFFFF) - 1


def compare(direction, x, y, ctype):
    if ctype == "TOTALORDER":
        kx, ky = total_order_key(x), total_order_key(y)
        o = int(kx > ky) - int(kx < ky)
    else:
        if isinstance(x, float) and (math.isnan(x) or math.isnan(y)):
            return direction == "NE"
        o = int(x > y) - int(x < y)
    return {"EQ": o == 0, "NE": o != 0, "LT": o < 0, "LE": o <= 0, "GT": o > 0, "GE": o >= 0}[direction]


def float_to_int(x, t):
    """float -> integer: truncation, saturation, NaN -> 0 (XLA)."""
    if math.isnan(x):
        return 0
    lo, hi = int_range(t)
    if x <= lo:
        return lo
    if x >= hi:
        return hi
    return int(math.trunc(x))
