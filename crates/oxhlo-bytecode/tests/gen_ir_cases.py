#!/usr/bin/env python3
"""Writes bytecode/text pairs for the IR-equivalence tests with jaxlib (jax 0.10.2).

usage: gen_ir_cases.py OUTDIR TEXTFILE_OR_DIR...

For every program (each `// -----` chunk of every .mlir file given, plus the JAX
programs below) named NAME it writes:
  NAME.src.mlir              the program's text (for JAX programs: as_text(debug_info))
  NAME.plain.mlirbc          plain bytecode (write_bytecode) of jaxlib's parse of it
  NAME.plain.generic.mlir    jaxlib's generic print of that parse
  NAME.vhlo_T.mlirbc         portable artifacts for targets T (0.9.0 ... current)
  NAME.vhlo_T.generic.mlir   jaxlib's generic print of the artifact read back with
                             deserialize_portable_artifact (the program the artifact holds)
Programs jaxlib cannot parse (test dialects, deliberate errors) are listed in
skipped.txt; targets an op does not exist in are skipped silently.
"""
import io
import os
import sys

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from jax._src.interpreters import mlir as jmlir
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

TARGETS = ["0.9.0", "1.0.0", "1.5.0", "1.13.7", "current"]


def jax_programs():
    f32 = np.float32

    def mlp(w1, b1, w2, b2, x):
        h = jax.nn.relu(x @ w1 + b1)
        return jnp.tanh(h @ w2 + b2)

    def control(x, n):
        def body(c):
            i, v = c
            return i + 1, jnp.where(v > 0, v * 0.5, v + 1.0)
        _, v = lax.while_loop(lambda c: c[0] < n, body, (0, x))
        v = lax.cond(v.sum() > 0, lambda t: t * 2, lambda t: -t, v)
        return lax.scan(lambda c, t: (c + t, c * t), jnp.zeros_like(v[0]), v)

    def reductions(x, idx):
        return (jnp.sum(x, axis=0), jnp.argmax(x, axis=1), jnp.sort(x, axis=1), x[idx],
                x.at[idx].add(1.0), jnp.cumsum(x, axis=1), jnp.max(x), jnp.prod(x, axis=1),
                lax.top_k(x, 2)[0])

    def dtypes(x):
        c = lax.complex(x, x)
        return (x.astype(jnp.bfloat16) * 2, x.astype(jnp.float16) + 1, x.astype(jnp.int8),
                x.astype(jnp.uint32), x > 0.5, jnp.abs(c), jnp.exp(x), jnp.fft.fft(c),
                x.astype(jnp.float8_e4m3fn), x.astype(jnp.int4), jnp.arange(6, dtype=jnp.int32))

    def conv(img, ker):
        y = lax.conv_general_dilated(img, ker, (2, 1), "SAME", rhs_dilation=(1, 2),
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 1, 1, 1), "VALID")

    def consts(x):
        return (x + jnp.array([1.5, -2.25, 3.0, 0.0], f32), x * np.float32(np.inf),
                jnp.array([True, False, True, True]) & (x > 0),
                jnp.full((3, 2), 7, jnp.int32), jnp.array(np.nan, f32),
                jnp.array([[1, 2], [3, 4]], jnp.int8), jnp.array([1e-3, 2.0], jnp.bfloat16))

    def rng(key):
        return jax.random.normal(key, (3,)), jax.random.bits(key, (2,))

    def linalg(a):
        s = a @ a.T + 3 * jnp.eye(3, dtype=a.dtype)
        return jnp.linalg.cholesky(s), lax.linalg.triangular_solve(s, a, left_side=True, lower=True)

    def grad_mlp(w, x):
        return jax.grad(lambda w: jnp.sum(jax.nn.gelu(x @ w) ** 2))(w)

    return {
        "jax_mlp": (mlp, (np.ones((16, 32), f32), np.ones(32, f32), np.ones((32, 4), f32),
                          np.ones(4, f32), np.ones((8, 16), f32))),
        "jax_control": (control, (np.ones((5, 3), f32), 4)),
        "jax_reductions": (reductions, (np.ones((4, 6), f32), np.array([0, 2], np.int32))),
        "jax_dtypes": (dtypes, (np.ones((2, 3), f32),)),
        "jax_conv": (conv, (np.ones((1, 8, 8, 3), f32), np.ones((3, 3, 3, 4), f32))),
        "jax_consts": (consts, (np.ones(4, f32),)),
        "jax_rng": (rng, (jax.random.key_data(jax.random.key(0)),)),
        "jax_linalg": (linalg, (np.ones((3, 3), f32),)),
        "jax_grad": (grad_mlp, (np.ones((4, 4), f32), np.ones((2, 4), f32))),
    }


def new_context():
    """A fresh context per program (resource names are uniqued per context)."""
    ctx = jmlir.make_ir_context()
    with ctx, ir.Location.unknown():
        # Deserializing once loads the quant dialect, which plain parsing needs for
        # `!quant.uniform` types that appear before any stablehlo op.
        warm = ir.Module.parse("func.func @f(%x: tensor<f32>) -> tensor<f32> { return %x : tensor<f32> }")
        stablehlo.deserialize_portable_artifact(ctx, stablehlo.serialize_portable_artifact(warm, "1.0.0"))
    return ctx


def generic(m):
    return m.operation.get_asm(print_generic_op_form=True, enable_debug_info=True)


def write_case(outdir, ctx, name, text, skipped):
    with ctx, ir.Location.unknown():
        try:
            m = ir.Module.parse(text)
        except Exception as e:  # noqa: BLE001 - any parse failure means "not a jaxlib program"
            skipped.append(f"{name}: " + " | ".join(str(e).splitlines()[:3]))
            return
        with open(os.path.join(outdir, name + ".src.mlir"), "w") as f:
            f.write(text)
        buf = io.BytesIO()
        m.operation.write_bytecode(buf)
        with open(os.path.join(outdir, name + ".plain.mlirbc"), "wb") as f:
            f.write(buf.getvalue())
        with open(os.path.join(outdir, name + ".plain.generic.mlir"), "w") as f:
            f.write(generic(m))
    for t in TARGETS:
        # Resource names are uniqued per context: programs with resources get fresh ones
        # for writing and for reading back each artifact, so that the names stay as written.
        tctx = new_context() if "dense_resource" in text else ctx
        with tctx, ir.Location.unknown():
            tv = stablehlo.get_current_version() if t == "current" else t
            try:
                art = stablehlo.serialize_portable_artifact(ir.Module.parse(text), tv, True)
                back_ctx = new_context() if tctx is not ctx else ctx
                back = stablehlo.deserialize_portable_artifact(back_ctx, art)
            except Exception:  # noqa: BLE001 - ops newer than the target, chlo ops, ...
                continue
            with open(os.path.join(outdir, f"{name}.vhlo_{t}.mlirbc"), "wb") as f:
                f.write(art)
            with open(os.path.join(outdir, f"{name}.vhlo_{t}.generic.mlir"), "w") as f:
                f.write(generic(back))


def chunks(path):
    text = open(path, encoding="utf-8").read()
    out, cur = [], []
    for line in text.splitlines(keepends=True):
        if line.strip() == "// -----":
            out.append("".join(cur))
            cur = []
        else:
            cur.append(line)
    out.append("".join(cur))
    return [c for c in out if c.strip()]


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    skipped = []
    files = []
    for arg in sys.argv[2:]:
        if os.path.isdir(arg):
            files += sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith(".mlir"))
        elif os.path.exists(arg):
            files.append(arg)
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        prefix = os.path.basename(os.path.dirname(path))
        for i, text in enumerate(chunks(path)):
            write_case(outdir, new_context(), f"{prefix}__{stem}__{i}", text, skipped)
    for name, (fn, args) in jax_programs().items():
        text = jax.jit(fn).lower(*args).as_text(debug_info=True)
        write_case(outdir, new_context(), name, text, skipped)
    with open(os.path.join(outdir, "skipped.txt"), "w") as f:
        f.write("\n".join(skipped))


if __name__ == "__main__":
    main()
