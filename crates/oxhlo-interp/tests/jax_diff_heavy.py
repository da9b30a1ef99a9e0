"""Differential tests of the heavy ops against JAX on CPU.

Lowers a few hundred JAX functions (lax.dot_general / conv / reduce / reduce_window / gather / scatter /
sort / fft / cholesky / triangular_solve / cumsum / rng_bit_generator across dtypes, shapes and dimension
numbers, random inputs) to StableHLO text and stores, per case, under tests/jax_diff/heavy/<case>/:
  module.mlir   the lowered module (public @main)
  in<i>.npy     the inputs
  out<i>.npy    JAX's outputs on CPU
  meta.json     {"rtol": r, "atol": a} for float outputs (integers and bools compare exactly)
tests/jax_diff_heavy.rs runs every case on the interpreter and compares.

Run: python3 crates/oxhlo-interp/tests/jax_diff_heavy.py
"""

import itertools
import json
import os
import shutil

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")

OUT = os.path.join(os.path.dirname(__file__), "jax_diff", "heavy")
RNG = np.random.default_rng(20261129)
TOL = {np.float32: (2e-5, 1e-5), np.float64: (1e-12, 1e-12), np.complex64: (2e-5, 1e-5), np.complex128: (1e-12, 1e-12)}


def rand(shape, dt, lo=-3, hi=3):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    if dt.kind in "iu":
        return RNG.integers(0 if dt.kind == "u" else lo, hi, shape).astype(dt)
    if dt.kind == "c":
        return (RNG.uniform(lo, hi, shape) + 1j * RNG.uniform(lo, hi, shape)).astype(dt)
    return RNG.uniform(lo, hi, shape).astype(dt)


CASES = []


def add(name, f, *inputs, tol=None, platform=None):
    CASES.append((name, f, [np.asarray(a) for a in inputs], tol, platform))


def dot_cases():
    dg = lax.dot_general
    for dt in (np.float32, np.float64, np.int32, np.int64, np.complex64, np.complex128, np.uint32):
        for (m, k, n) in ((1, 1, 1), (3, 5, 2), (8, 16, 4), (2, 0, 3)):
            add(f"dot_{np.dtype(dt).name}_{m}x{k}x{n}", lambda a, b: dg(a, b, (((1,), (0,)), ((), ()))), rand((m, k), dt), rand((k, n), dt))
    dims = [
        ((2, 3, 4), (2, 4, 5), (((2,), (1,)), ((0,), (0,)))),
        ((3, 2, 4), (4, 3, 2), (((2, 1), (0, 2)), ((), ()))),
        ((2, 3, 4, 5), (5, 2, 4, 6), (((3,), (0,)), ((0, 2), (1, 2)))),
        ((4,), (4,), (((0,), (0,)), ((), ()))),
        ((2, 3), (4,), (((), ()), ((), ()))),
    ]
    for i, (sa, sb, dn) in enumerate(dims):
        for dt in (np.float32, np.int32):
            add(f"dot_general_{i}_{np.dtype(dt).name}", lambda a, b, dn=dn: dg(a, b, dn), rand(sa, dt), rand(sb, dt))
    add("dot_i8_to_i32", lambda a, b: dg(a, b, (((1,), (0,)), ((), ())), preferred_element_type=np.int32), rand((4, 6), np.int8, -128, 127), rand((6, 3), np.int8, -128, 127))
    add("einsum_3", lambda a, b, c: jnp.einsum("ij,jk,kl->il", a, b, c), rand((2, 3), np.float32), rand((3, 4), np.float32), rand((4, 2), np.float32))


def conv_cases():
    cg = lax.conv_general_dilated
    configs = []
    for stride, pad, ld, rd in itertools.product([(1, 1), (2, 1)], ["VALID", "SAME", ((1, 0), (2, -1))], [(1, 1), (2, 1)], [(1, 1), (1, 2)]):
        if isinstance(pad, str) and ld != (1, 1):
            pad = ((0, 1), (1, 1))
        configs.append(dict(window_strides=stride, padding=pad, lhs_dilation=ld, rhs_dilation=rd))
    for i, kw in enumerate(configs):
        add(f"conv2d_{i}", lambda a, b, kw=kw: cg(a, b, **kw), rand((2, 3, 6, 5), np.float32), rand((4, 3, 3, 2), np.float32))
    for dn in [("NHWC", "HWIO", "NHWC"), ("NCHW", "OIHW", "NHWC"), ("CHWN", "IOHW", "CNHW"), ("HWCN", "WHIO", "NWHC")]:
        lhs_shape = {"N": 2, "C": 4, "H": 5, "W": 6}
        rhs_shape = {"O": 3, "I": 4, "H": 2, "W": 3}
        a = rand(tuple(lhs_shape[ch] for ch in dn[0]), np.float64)
        b = rand(tuple(rhs_shape[ch] for ch in dn[1]), np.float64)
        add(f"conv_dn_{'_'.join(dn)}", lambda a, b, dn=dn: cg(a, b, (1, 2), "SAME", dimension_numbers=dn), a, b)
    for g in (2, 4):
        add(f"conv_fgc{g}", lambda a, b, g=g: cg(a, b, (1,), "VALID", feature_group_count=g), rand((2, 8, 7), np.float32), rand((8, 8 // g, 3), np.float32))
        add(f"conv_bgc{g}", lambda a, b, g=g: cg(a, b, (1,), "VALID", batch_group_count=g), rand((2 * g, 3, 7), np.float32), rand((2 * g, 3, 3), np.float32))
    add("conv3d", lambda a, b: cg(a, b, (1, 1, 2), "SAME"), rand((1, 2, 4, 4, 5), np.float32), rand((3, 2, 2, 3, 2), np.float32))
    add("conv_int", lambda a, b: cg(a, b, (1,), "VALID"), rand((1, 2, 6), np.int32), rand((2, 2, 3), np.int32))
    add("conv_complex", lambda a, b: cg(a, b, (1,), "SAME"), rand((1, 2, 5), np.complex64), rand((2, 2, 3), np.complex64))


def reduce_cases():
    for dt in (np.float32, np.float64, np.int32, np.int64, np.uint8):
        for axes in ((0,), (1,), (0, 2), (0, 1, 2)):
            x = rand((3, 4, 5), dt)
            add(f"sum_{np.dtype(dt).name}_{'_'.join(map(str, axes))}", lambda x, axes=axes: jnp.sum(x, axis=axes, dtype=x.dtype), x)
            add(f"max_{np.dtype(dt).name}_{'_'.join(map(str, axes))}", lambda x, axes=axes: jnp.max(x, axis=axes), x)
    add("argmax_f32", lambda x: jnp.argmax(x, axis=1), rand((5, 7), np.float32))
    add("logsumexp", lambda x: jax.nn.logsumexp(x, axis=-1), rand((4, 6), np.float32))
    add("cumsum_f64", lambda x: jnp.cumsum(x, axis=1), rand((3, 9), np.float64))
    add("cumprod_i32", lambda x: jnp.cumprod(x, axis=0), rand((5, 3), np.int32, -2, 3))
    add("cummax_f32", lambda x: lax.cummax(x, axis=0), rand((6, 2), np.float32))
    rw = lax.reduce_window
    for i, (win, st, pad) in enumerate([((2, 2), (1, 1), "VALID"), ((3, 3), (2, 2), "SAME"), ((2, 3), (1, 2), ((1, 0), (2, 1)))]):
        add(f"avgpool_{i}", lambda x, win=win, st=st, pad=pad: rw(x, 0.0, lax.add, win, st, pad), rand((6, 7), np.float32))
        add(f"maxpool_{i}", lambda x, win=win, st=st, pad=pad: rw(x, -np.inf, lax.max, win, st, pad), rand((6, 7), np.float64))

        def grad(x, g, win=win, st=st, pad=pad):
            _, vjp = jax.vjp(lambda y: rw(y, -np.inf, lax.max, win, st, pad), x)
            return vjp(g)[0]

        x = rand((6, 7), np.float32)
        gshape = jax.eval_shape(lambda y: rw(y, -np.inf, lax.max, win, st, pad), x).shape
        add(f"maxpool_grad_{i}", grad, x, rand(gshape, np.float32))


def gather_scatter_cases():
    for dt in (np.float32, np.int32, np.complex64):
        x = rand((5, 4, 3), dt)
        add(f"take_{np.dtype(dt).name}", lambda x, i: x[i], x, RNG.integers(0, 5, (2, 3)).astype(np.int32))
        add(f"take_axis1_{np.dtype(dt).name}", lambda x, i: jnp.take(x, i, axis=1, mode="clip"), x, RNG.integers(-2, 6, (4,)).astype(np.int32))
        add(f"take_along_{np.dtype(dt).name}", lambda x, i: jnp.take_along_axis(x, i, axis=2), x, RNG.integers(0, 3, (5, 4, 2)).astype(np.int32))
        add(f"scatter_add_{np.dtype(dt).name}", lambda x, i, u: x.at[i].add(u), x, RNG.integers(0, 5, (4,)).astype(np.int32), rand((4, 4, 3), dt))
        add(f"scatter_set2d_{np.dtype(dt).name}", lambda x, i, j, u: x.at[i, j].set(u, unique_indices=True), x, np.array([0, 2, 4], np.int32), np.array([3, 1, 0], np.int32), rand((3, 3), dt))
        add(f"dyn_slice_{np.dtype(dt).name}", lambda x, i: lax.dynamic_slice(x, (i, i, np.int64(0)), (2, 3, 3)), x, np.int64(RNG.integers(-3, 6)))
    add("scatter_mul_f64", lambda x, i, u: x.at[i].multiply(u), rand((6,), np.float64), RNG.integers(0, 6, (8,)).astype(np.int32), rand((8,), np.float64))
    add("scatter_max_i64", lambda x, i, u: x.at[i].max(u), rand((6,), np.int64), RNG.integers(0, 6, (8,)).astype(np.int32), rand((8,), np.int64))
    add("segment_sum", lambda x, s: jax.ops.segment_sum(x, s, num_segments=4), rand((10, 2), np.float32), RNG.integers(0, 4, (10,)).astype(np.int32))


def misc_cases():
    for dt in (np.float32, np.int32, np.float64):
        add(f"sort_{np.dtype(dt).name}", lambda x: jnp.sort(x, axis=-1), rand((3, 17), dt))
        add(f"argsort_{np.dtype(dt).name}", lambda x: jnp.argsort(x, axis=0, stable=True), rand((9, 2), dt, -2, 2))
        add(f"topk_{np.dtype(dt).name}", lambda x: lax.top_k(x, 4), rand((2, 11), dt))
    for n in (2, 3, 7, 16, 31, 64, 90, 128):
        add(f"fft_c64_{n}", lambda x: jnp.fft.fft(x), rand((2, n), np.complex64), tol=(1e-4, 1e-4))
        add(f"rfft_f64_{n}", lambda x: jnp.fft.rfft(x), rand((n,), np.float64))
        add(f"irfft_c128_{n}", lambda x, n=n: jnp.fft.irfft(x, n=n), rand((n // 2 + 1,), np.complex128))
    add("fft2_c128", lambda x: jnp.fft.fft2(x), rand((6, 10), np.complex128))
    add("ifftn_c64", lambda x: jnp.fft.ifftn(x), rand((3, 4, 5), np.complex64), tol=(1e-4, 1e-5))
    for n, dt in itertools.product((1, 3, 8), (np.float32, np.float64, np.complex64, np.complex128)):
        a = rand((2, n, n), dt, -1, 1)
        a = (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dt)
        tol = (1e-4, 1e-5) if dt in (np.float32, np.complex64) else (1e-10, 1e-11)
        add(f"cholesky_{np.dtype(dt).name}_{n}", lambda a: lax.linalg.cholesky(a, symmetrize_input=False), a, tol=tol, platform="tpu")
    for left, lower, (tr, cj), unit, dt in itertools.product((True, False), (True, False), ((False, False), (True, False), (True, True)), (False, True), (np.float64, np.complex128)):
        a = rand((2, 4, 4), dt, -1, 1) + 4 * np.eye(4)
        b = rand((2, 4, 3) if left else (2, 3, 4), dt)
        f = lambda a, b, left=left, lower=lower, tr=tr, cj=cj, unit=unit: lax.linalg.triangular_solve(a, b, left_side=left, lower=lower, transpose_a=tr, conjugate_a=cj, unit_diagonal=unit)  # noqa: E731
        add(f"trsm_{int(left)}{int(lower)}{int(tr)}{int(cj)}{int(unit)}_{np.dtype(dt).name}", f, a, b, tol=(1e-10, 1e-11), platform="tpu")
    key = np.array([RNG.integers(0, 2**63), RNG.integers(0, 2**63)], np.uint64)
    for algo, shape, dt in itertools.product((lax.RandomAlgorithm.RNG_THREE_FRY, lax.RandomAlgorithm.RNG_PHILOX), ((7,), (4, 5), (3, 1, 2)), (np.uint32, np.uint64)):
        add(f"rbg_{algo.name}_{'x'.join(map(str, shape))}_{np.dtype(dt).name}", lambda k, algo=algo, shape=shape, dt=dt: lax.rng_bit_generator(k, shape, dtype=dt, algorithm=algo), key)
    add("threefry_random_bits", lambda k: jax.random.bits(jax.random.wrap_key_data(k, impl="threefry2x32"), (3, 5)), np.array([1, 2], np.uint32))
    add("threefry_uniform", lambda k: jax.random.uniform(jax.random.wrap_key_data(k, impl="threefry2x32"), (6,)), np.array([3, 4], np.uint32))


def main():
    dot_cases()
    conv_cases()
    reduce_cases()
    gather_scatter_cases()
    misc_cases()
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    for name, f, inputs, tol, platform in CASES:
        d = os.path.join(OUT, name)
        os.makedirs(d)
        if platform:
            text = jax.jit(f).trace(*inputs).lower(lowering_platforms=(platform,)).as_text(debug_info=False)
        else:
            text = jax.jit(f).lower(*inputs).as_text(debug_info=False)
        out = jax.jit(f)(*inputs)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        with open(os.path.join(d, "module.mlir"), "w") as fh:
            fh.write(text)
        for i, a in enumerate(inputs):
            np.save(os.path.join(d, f"in{i}.npy"), a)
        rtol, atol = 0.0, 0.0
        for i, o in enumerate(outs):
            o = np.asarray(o)
            np.save(os.path.join(d, f"out{i}.npy"), o)
            if o.dtype.kind in "fc":
                r, a = tol or TOL.get(o.dtype.type, (1e-5, 1e-6))
                rtol, atol = max(rtol, r), max(atol, a)
        with open(os.path.join(d, "meta.json"), "w") as fh:
            json.dump({"rtol": rtol, "atol": atol}, fh)
    print(f"{len(CASES)} cases written to {OUT}")


if __name__ == "__main__":
    main()
