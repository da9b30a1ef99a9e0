#!/usr/bin/env python3
"""Writes MLIR bytecode test artifacts with jaxlib (jax 0.10.2) into OUTDIR.

usage: gen_artifacts.py OUTDIR

For every artifact NAME it writes NAME.mlirbc (the bytecode) and NAME.generic.mlir
(jaxlib's own generic-form print of the same bytecode, with debug locations), which the
Rust tests use as the independent oracle.  Artifacts:
  * JAX programs lowered with jax.jit(...).lower(...): plain stablehlo bytecode
    (write_bytecode) and portable VHLO artifacts for several target versions;
  * a builtin-dialect "zoo" of attributes, types and locations on unregistered ops,
    written at every bytecode version 0..6.
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
        return h @ w2 + b2

    def control(x, n):
        def body(c):
            i, v = c
            return i + 1, jnp.where(v > 0, v * 0.5, v + 1.0)
        _, v = lax.while_loop(lambda c: c[0] < n, body, (0, x))
        v = lax.cond(v.sum() > 0, lambda t: t * 2, lambda t: -t, v)
        s = lax.scan(lambda c, t: (c + t, c * t), jnp.zeros_like(v[0]), v)
        return s

    def reductions(x, idx):
        a = jnp.sum(x, axis=0)
        b = jnp.argmax(x, axis=1)
        c = jnp.sort(x, axis=1)
        d = x[idx]
        e = x.at[idx].add(1.0)
        f = jnp.cumsum(x, axis=1)
        return a, b, c, d, e, f, jnp.max(x), jnp.prod(x, axis=1)

    def dtypes(x):
        y = x.astype(jnp.bfloat16) * 2
        z = x.astype(jnp.float16) + 1
        i = x.astype(jnp.int8)
        u = x.astype(jnp.uint32)
        bl = x > 0.5
        c = lax.complex(x, x)
        return (y, z, i, u, bl, jnp.abs(c), jnp.exp(x), jnp.tanh(x),
                jnp.arange(6, dtype=jnp.int64 if jax.config.jax_enable_x64 else jnp.int32),
                jnp.fft.fft(c))

    def conv(img, ker):
        return lax.conv_general_dilated(img, ker, (1, 1), "SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def consts(x):
        return (x + jnp.array([1.5, -2.25, 3.0, 0.0], f32), x * np.float32(np.inf),
                jnp.array([True, False, True, True]) & (x > 0),
                jnp.full((3, 2), 7, jnp.int32), jnp.array(np.nan, f32))

    def chlo(x):
        return lax.erf(x), lax.lgamma(x)

    return {
        "chlo": (chlo, (np.ones(3, f32),)),
        "mlp": (mlp, (np.ones((16, 32), f32), np.ones(32, f32), np.ones((32, 4), f32),
                      np.ones(4, f32), np.ones((8, 16), f32))),
        "control": (control, (np.ones((5, 3), f32), 4)),
        "reductions": (reductions, (np.ones((4, 6), f32), np.array([0, 2], np.int32))),
        "dtypes": (dtypes, (np.ones((2, 3), f32),)),
        "conv": (conv, (np.ones((1, 8, 8, 3), f32), np.ones((3, 3, 3, 4), f32))),
        "consts": (consts, (np.ones(4, f32),)),
    }


def generic(ctx, data):
    with ctx, ir.Location.unknown():
        m = ir.Module.parse(data)
        return m.operation.get_asm(print_generic_op_form=True, enable_debug_info=True)


def write(outdir, name, data, ctx):
    with open(os.path.join(outdir, name + ".mlirbc"), "wb") as f:
        f.write(data)
    with open(os.path.join(outdir, name + ".generic.mlir"), "w") as f:
        f.write(generic(ctx, data))


ZOO = r'''
#loc_file = loc("zoo.py":3:7)
module attributes {test.unit, test.str = "hello", test.typed_str = "abc" : i32,
   test.i1 = true, test.i8 = -3 : i8, test.ui16 = 65535 : ui16, test.si32 = -7 : si32,
   test.i64 = 1234567890123 : i64, test.i128 = 170141183460469231731687303715884105727 : i128,
   test.idx = 42 : index, test.f16 = 1.5 : f16, test.bf16 = -2.0 : bf16, test.f32 = 0.1 : f32,
   test.f64 = 3.0e300 : f64, test.f80 = 1.0 : f80, test.f128 = 2.0 : f128,
   test.arr = [1, "two", [3.0 : f32]], test.dict = {a = 1 : i32, b = unit},
   test.sym = @foo, test.nested = @foo::@bar::@baz, test.ty = tensor<?x3xf32>,
   test.darr_i64 = array<i64: 1, -2, 3>, test.darr_f32 = array<f32: 1.0, 2.5>,
   test.darr_i1 = array<i1: true, false, true>, test.darr_empty = array<i32>,
   test.dense_f32 = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>,
   test.dense_splat = dense<7> : tensor<4x4xi32>, test.dense_i1 = dense<[true, false, true]> : tensor<3xi1>,
   test.dense_c = dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>,
   test.dense_str = dense<["a", "bc", ""]> : tensor<3x!test.s>,
   test.dense_str_splat = dense<"zz"> : tensor<2x2x!test.s>,
   test.sparse = sparse<[[0, 0], [1, 2]], [1.0, 5.0]> : tensor<3x4xf32>,
   test.vec = dense<1.0> : vector<4xf32>,
   test.res = dense_resource<blob1> : tensor<3xi32>}
{
  "test.types"() : () -> (i1, i2, si4, ui64, i1024, index, bf16, f16, f32, f64, f80, f128, tf32,
      f8E5M2, f8E4M3FN, f8E5M2FNUZ, f8E4M3FNUZ, f8E4M3B11FNUZ, f8E4M3, f8E3M4,
      f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E8M0FNU, complex<f64>, none, tuple<i32, f32>, tuple<>,
      tensor<*xf32>, tensor<2x?x3xi8>, tensor<f32>, tensor<4xf32, "enc">,
      vector<4x8xf32>, vector<[4]x2xf32>, memref<4xf32>, memref<?x4xi32, 1>, memref<*xf32>,
      memref<*xf32, 2>, (i32, f32) -> (), () -> (i1, i1)) loc(#loc_file)
  "test.locs"() ({
  ^bb0(%a: i32 loc("arg.py":1:2), %b: f32 loc(unknown)):
    "test.use"(%a, %b) : (i32, f32) -> () loc("named"("x.py":4:5))
    "test.cs"() : () -> () loc(callsite("callee.py":1:1 at "caller.py":2:2))
    "test.fused"() : () -> () loc(fused["a.py":1:1, "b.py":2:2])
    "test.fusedmd"() : () -> () loc(fused<"meta">["a.py":1:1, unknown])
    "test.range"() : () -> () loc("r.py":3:4 to :9)
    "test.range2"() : () -> () loc("r.py":3:4 to 5:6)
    "test.name_only"() : () -> () loc("justname")
    "test.br"()[^bb1] : () -> ()
  ^bb1:
    %c:2 = "test.two"() : () -> (i32, i64)
    "test.iso"() ({
      %z = "test.inner"(%c#1) : (i64) -> i64
      "test.term"(%z) : (i64) -> ()
    }, {
    }) {test.isolated} : () -> ()
    "test.ret"(%c#0) : (i32) -> ()
  }) : () -> ()
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x04000000010000000200000003000000"
    }
  }
#-}
'''


def zoo(outdir, ctx):
    with ctx, ir.Location.unknown():
        ctx.allow_unregistered_dialects = True
        m = ir.Module.parse(ZOO)
        for v in range(0, 7):
            buf = io.BytesIO()
            try:
                m.operation.write_bytecode(buf, desired_version=v)
            except Exception as e:  # noqa: BLE001 - older versions may reject features
                print(f"zoo v{v}: {e}", file=sys.stderr)
                continue
            write(outdir, f"zoo_v{v}", buf.getvalue(), ctx)


def nested(outdir, ctx):
    """Deeply nested regions and attributes: within and beyond the reader's limits."""
    with ctx, ir.Location.unknown():
        ctx.allow_unregistered_dialects = True
        for depth in (90, 140):
            text = '"t.n"() ({' * depth + '"t.leaf"() : () -> ()' + '}) : () -> ()' * depth
            m = ir.Module.parse(text)
            buf = io.BytesIO()
            m.operation.write_bytecode(buf)
            write(outdir, f"nest_regions_{depth}", buf.getvalue(), ctx)
        for depth in (100, 200):
            attr = "[" * depth + "1" + "]" * depth
            m = ir.Module.parse(f'"t.a"() {{a = {attr}}} : () -> ()')
            buf = io.BytesIO()
            m.operation.write_bytecode(buf)
            write(outdir, f"nest_attrs_{depth}", buf.getvalue(), ctx)


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    ctx = jmlir.make_ir_context()
    current = stablehlo.get_current_version()
    for name, (fn, args) in jax_programs().items():
        lowered = jax.jit(fn).lower(*args)
        text = lowered.as_text(debug_info=True)
        with ctx, ir.Location.unknown():
            m = ir.Module.parse(text)
            buf = io.BytesIO()
            m.operation.write_bytecode(buf)
            write(outdir, f"{name}.plain", buf.getvalue(), ctx)
            for t in TARGETS:
                tv = current if t == "current" else t
                try:
                    art = stablehlo.serialize_portable_artifact(m, tv)
                except ValueError:  # e.g. chlo ops, which only XLA legalizes first
                    print(f"{name}: no portable artifact for {t}", file=sys.stderr)
                    continue
                write(outdir, f"{name}.vhlo_{t}", art, ctx)
    zoo(outdir, ctx)
    nested(outdir, ctx)


if __name__ == "__main__":
    main()
