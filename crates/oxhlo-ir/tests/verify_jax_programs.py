"""Lowers JAX programs that exercise most StableHLO ops to MLIR text, for the verifier's no-false-positive test.

Usage: python3 verify_jax_programs.py OUT_DIR   (writes OUT_DIR/NAME.mlir; exits 3 when jax is missing)

Each program is written with `jax.jit(f).lower(*args).as_text()` (collectives through shard_map on 8
host CPU devices; dynamic shapes through jax.export with symbolic dimensions). The verifier must accept
every one of them: they are valid StableHLO by construction.
"""

import os
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

try:
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax
except ImportError:
    sys.exit(3)

jax.config.update("jax_enable_x64", True)


def s(shape, dtype=jnp.float32):
    return jax.ShapeDtypeStruct(shape, dtype)


def elementwise(x, y, i, u):
    a = jnp.exp(x) + jnp.log1p(jnp.abs(y)) - jnp.expm1(x) * jnp.tanh(y)
    b = jnp.sin(x) / (jnp.cos(y) + 2.0) + jnp.tan(x) + jnp.arctan2(x, y) + jnp.cbrt(x)
    c = jnp.power(jnp.abs(x), y) + jnp.remainder(x, 3.0) + jnp.sign(y) + jnp.round(x) + jnp.floor(y) + jnp.ceil(x)
    d = jax.nn.sigmoid(x) + lax.rsqrt(jnp.abs(y) + 1.0) + jnp.sqrt(jnp.abs(x)) + jnp.clip(x, -1.0, 1.0)
    e = jnp.where(x > y, x, y) + jnp.maximum(x, y) * jnp.minimum(x, y) + lax.reduce_precision(x, 5, 10)
    k = (i << 2) ^ (i >> 1) | (i & 7) + lax.shift_right_logical(i, jnp.full_like(i, 3)) + lax.population_count(i) + lax.clz(i)
    m = jnp.isfinite(x) & ~jnp.isnan(y)
    z = lax.complex(x, y)
    f = jnp.real(z * jnp.conj(z)) + jnp.imag(jnp.exp(z)) + jnp.abs(z)
    g = jnp.sum(lax.bitcast_convert_type(x, jnp.uint8), axis=-1).astype(i.dtype) + (u // 3).astype(i.dtype) + i % 5
    h = jax.scipy.special.erf(x) + jax.scipy.special.erfinv(jnp.clip(y, -0.5, 0.5)) + lax.lgamma(jnp.abs(x) + 1)
    h = h + lax.digamma(jnp.abs(x) + 1) + jnp.nextafter(x, y) + jnp.sinh(x) + jnp.arccosh(jnp.abs(x) + 1)
    return a + b + c + d + e + f + h, k + g, m, x.astype(jnp.bfloat16), i.astype(jnp.float16), x.astype(jnp.complex64)


def reductions(x, i):
    return (
        jnp.sum(x, axis=0),
        jnp.argmax(x, axis=1),
        jnp.argmin(i, axis=0),
        jnp.cumsum(x, axis=1),
        jnp.cumprod(x, axis=0),
        lax.cummax(x, axis=1),
        jnp.max(i),
        jnp.any(x > 0, axis=1),
        jax.nn.logsumexp(x, axis=1),
        lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 1), ((1, 1), (0, 1)), base_dilation=(2, 1), window_dilation=(1, 2)),
    )


def pooling_grad(x):
    def pool(y):
        return jnp.sum(lax.reduce_window(y, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME") ** 2)

    return jax.grad(pool)(x)


def convs(x, k, dk, tk):
    dn = ("NHWC", "HWIO", "NHWC")
    y = lax.conv_general_dilated(x, k, (2, 1), ((1, 2), (0, 1)), lhs_dilation=(1, 2), rhs_dilation=(2, 1), dimension_numbers=dn)
    z = lax.conv_general_dilated(x, dk, (1, 1), "SAME", dimension_numbers=dn, feature_group_count=4)
    t = lax.conv_transpose(x, tk, (2, 2), "SAME", dimension_numbers=dn)
    w = lax.conv_general_dilated(x[..., :1].reshape(2, 9, 9, 1), k[:, :, :1, :], (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NWHC"))
    return y, z, t, w


def conv_grads(x, dk):
    def f(x, dk):
        return jnp.sum(lax.conv_general_dilated(x, dk, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=4) ** 2)

    return jax.grad(f, argnums=(0, 1))(x, dk)


def contractions(a, b, c, h):
    return (
        jnp.einsum("bij,bjk->bik", a, b),
        jnp.einsum("ij,kj->ik", a[0], c),
        lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))), preferred_element_type=jnp.float32),
        jnp.dot(h, h.T, preferred_element_type=jnp.float32),
        jnp.outer(a[0, 0], c[0]),
        jnp.tensordot(a, b, axes=([0, 2], [0, 1])),
    )


def indexing(x, idx, upd, b_idx):
    g1 = x[idx]
    g2 = jnp.take_along_axis(x, jnp.abs(b_idx) % 3, axis=1)
    s1 = x.at[idx].add(upd)
    s2 = x.at[idx, 1].set(upd[:, 0])
    s3 = jax.vmap(lambda r, j: r.at[j].mul(2.0))(x[:5], jnp.abs(idx) % 3)
    d1 = lax.dynamic_slice(x, (idx[0], jnp.int32(1)), (2, 2))
    d2 = lax.dynamic_update_slice(x, upd[:2, :2], (idx[1], jnp.int32(0)))
    g3 = jax.vmap(lambda r, j: r[j])(x[:5], jnp.abs(idx) % 3)
    return g1, g2, s1, s2, s3, d1, d2, g3, jnp.take(x, idx, axis=0, mode="clip")


def shapes(x, y):
    a = jnp.concatenate([x, y, x], axis=0)
    b = jnp.transpose(a.reshape(3, 2, 5), (2, 0, 1))
    c = lax.pad(x, jnp.zeros((), x.dtype), ((1, 2, 1), (-1, 0, 0)))
    d = jnp.flip(x, axis=(0, 1))[::2, 1::3]
    e = jnp.broadcast_to(x[:, None, :], (2, 3, 5)) + jnp.arange(5.0)
    f = lax.rev(lax.iota(jnp.int32, 6).reshape(2, 3), (1,))
    g = jnp.tile(x, (2, 1)) + jnp.repeat(x, 2, axis=0)
    return a, b, c, d, e, f, g, jnp.tril(jnp.ones((4, 4)))


def control(n, x, k):
    def body(i, v):
        return lax.cond(i % 2 == 0, lambda v: v * 2.0, lambda v: v - 1.0, v)

    y = lax.fori_loop(0, n, body, x)
    z = lax.switch(k, [lambda v: v + 1.0, lambda v: v * v, lambda v: jnp.sin(v)], y)

    def scan_step(c, t):
        c = c * 0.5 + t
        return c, (c, jnp.sum(c))

    c, ys = lax.scan(scan_step, x, jnp.stack([x, y, z]))
    w = lax.while_loop(lambda s: s[0] < 10, lambda s: (s[0] + 1, s[1] * 1.1, s[2]), (0, x, k))
    return c, ys, w, lax.optimization_barrier((y, z))


def sorting(x, y, i):
    return (
        jnp.sort(x, axis=0),
        lax.sort((x, y, i), dimension=1, num_keys=2, is_stable=True),
        lax.top_k(x, 3),
        jnp.argsort(y, axis=-1, stable=True),
    )


def randomness(key_data, x):
    key = jax.random.wrap_key_data(key_data)
    k1, k2 = jax.random.split(key)
    a = jax.random.normal(k1, (4, 3)) + jax.random.uniform(k2, (4, 3))
    b = jax.random.randint(k1, (5,), 0, 10)
    bits, state = lax.rng_bit_generator(jnp.array([1, 2], jnp.uint64), (2, 3), dtype=jnp.uint32)
    return a * x, b, bits, state, jax.random.permutation(k2, 8)


def linalg(a, b):
    spd = a @ a.T + 4.0 * jnp.eye(4)
    l = jnp.linalg.cholesky(spd)
    t = jax.scipy.linalg.solve_triangular(l, b, lower=True)
    q, r = jnp.linalg.qr(a)
    w, v = jnp.linalg.eigh(spd)
    u, sv, vt = jnp.linalg.svd(a)
    return l, t, q, r, w, v, u, sv, vt, jnp.linalg.inv(spd), jnp.linalg.det(spd), jnp.linalg.solve(spd, b)


def ffts(x, z):
    return jnp.fft.fft(z), jnp.fft.ifft2(z), jnp.fft.rfft(x), jnp.fft.irfft(jnp.fft.rfft(x), n=8), jnp.fft.rfftn(x.reshape(2, 4))


def collectives(x):
    from jax.sharding import Mesh, PartitionSpec as P

    try:
        from jax import shard_map
    except ImportError:
        from jax.experimental.shard_map import shard_map
    mesh = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("a", "b"))

    def f(v):
        s1 = lax.psum(v, "b")
        s2 = lax.all_gather(v, "b", axis=0, tiled=True)
        s3 = lax.ppermute(v, "b", [(i, (i + 1) % 4) for i in range(4)])
        s4 = lax.all_to_all(v, "b", 0, 0, tiled=True)
        s5 = lax.psum_scatter(v, "b", scatter_dimension=0, tiled=True)
        s6 = lax.pmax(v, ("a", "b"))
        return s1, s2, s3, s4, s5, s6 + lax.axis_index("b").astype(v.dtype)

    specs = dict(mesh=mesh, in_specs=P("a", "b"), out_specs=(P("a", "b"), P("a", None), P("a", "b"), P("a", "b"), P("a", "b"), P("a", "b")))
    try:
        g = shard_map(f, check_vma=False, **specs)
    except TypeError:
        g = shard_map(f, check_rep=False, **specs)
    return g(x)


def dynamic_shapes_export(out):
    from jax import export

    def f(x, y):
        z = jnp.concatenate([x, x], axis=0) @ y
        return jnp.sum(z * jnp.arange(z.shape[1]), axis=1), jnp.broadcast_to(x[:, :1], x.shape), x.reshape(-1)

    b = export.symbolic_shape("b")[0]
    exp = export.export(jax.jit(f))(s((b, 4)), s((4, 6)))
    with open(os.path.join(out, "dynamic_shapes.mlir"), "w") as fh:
        fh.write(exp.mlir_module())


PROGRAMS = {
    "elementwise": (elementwise, (s((4, 5)), s((4, 5)), s((4, 5), jnp.int32), s((4, 5), jnp.uint32))),
    "elementwise_f64": (elementwise, (s((3,), jnp.float64), s((3,), jnp.float64), s((3,), jnp.int64), s((3,), jnp.uint8))),
    "reductions": (reductions, (s((6, 8)), s((6, 8), jnp.int32))),
    "pooling_grad": (pooling_grad, (s((2, 9, 9, 4)),)),
    "convs": (convs, (s((2, 9, 9, 4)), s((3, 3, 4, 8)), s((3, 3, 1, 8)), s((3, 3, 4, 6)))),
    "conv_grads": (conv_grads, (s((2, 9, 9, 4)), s((3, 3, 1, 8)))),
    "contractions": (contractions, (s((2, 3, 4)), s((2, 4, 5)), s((6, 4)), s((3, 4), jnp.bfloat16))),
    "indexing": (indexing, (s((7, 3)), s((5,), jnp.int32), s((5, 3)), s((7, 3), jnp.int32))),
    "shapes": (shapes, (s((2, 5)), s((2, 5)))),
    "control": (control, (s((), jnp.int32), s((4,)), s((), jnp.int32))),
    "sorting": (sorting, (s((5, 6)), s((5, 6)), s((5, 6), jnp.int32))),
    "randomness": (randomness, (s((2,), jnp.uint32), s((4, 3)))),
    "linalg": (linalg, (s((4, 4)), s((4, 2)))),
    "ffts": (ffts, (s((8,)), s((4, 4), jnp.complex64))),
    "collectives": (collectives, (s((8, 8)),)),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    failed = []
    for name, (fn, args) in PROGRAMS.items():
        try:
            text = jax.jit(fn).lower(*args).as_text()
        except Exception as e:  # a JAX API this version lacks: skip that program, report it
            failed.append(f"{name}: {type(e).__name__}: {e}")
            continue
        with open(os.path.join(out, name + ".mlir"), "w") as f:
            f.write(text)
    try:  # the same collectives through GSPMD (mhlo.sharding and custom calls instead of the sdy dialect)
        jax.config.update("jax_use_shardy_partitioner", False)
        text = jax.jit(collectives).lower(*PROGRAMS["collectives"][1]).as_text()
        with open(os.path.join(out, "collectives_gspmd.mlir"), "w") as f:
            f.write(text)
    except Exception as e:
        failed.append(f"collectives_gspmd: {type(e).__name__}: {e}")
    finally:
        jax.config.update("jax_use_shardy_partitioner", True)
    try:
        dynamic_shapes_export(out)
    except Exception as e:
        failed.append(f"dynamic_shapes: {type(e).__name__}: {e}")
    for f in failed:
        print("skipped", f, file=sys.stderr)
    print(len(os.listdir(out)))


if __name__ == "__main__":
    main()
