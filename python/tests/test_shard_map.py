"""shard_map on several oxhlo devices: collectives (psum, pmean, all_gather, psum_scatter, ppermute,
all_to_all), axis_index, 1-D and 2-D meshes, compared with the same program on CPU devices."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import Mesh, PartitionSpec as P

pytestmark = pytest.mark.usefixtures("compiles")


def need(n):
    if len(jax.devices("oxhlo")) < n or len(jax.devices("cpu")) < n:
        pytest.skip(f"needs {n} oxhlo and CPU devices (OXHLO_NUM_DEVICES, JAX_NUM_CPU_DEVICES)")


def run(platform, shape, axes, f, in_specs, out_specs, *args):
    devs = np.array(jax.devices(platform)[: int(np.prod(shape))]).reshape(shape)
    mesh = Mesh(devs, axes)
    g = jax.jit(jax.shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=False))
    return jax.tree.map(np.asarray, g(*args))


def same(shape, axes, f, in_specs, out_specs, *args, **tol):
    need(int(np.prod(shape)))
    ref = run("cpu", shape, axes, f, in_specs, out_specs, *args)
    got = run("oxhlo", shape, axes, f, in_specs, out_specs, *args)
    for r, g in zip(jax.tree.leaves(ref), jax.tree.leaves(got)):
        assert r.shape == g.shape and r.dtype == g.dtype
        np.testing.assert_allclose(g, r, **(tol or dict(rtol=1e-6, atol=1e-6)))


x8 = np.arange(8, dtype=np.float32) + 1
x44 = np.arange(16, dtype=np.float32).reshape(4, 4)


def test_psum_pmean():
    same((4,), ("x",), lambda a: (jax.lax.psum(a, "x"), jax.lax.pmean(a * 2, "x")), P("x"), (P(), P()), x8)


def test_all_gather_and_psum_scatter():
    same((4,), ("x",), lambda a: jax.lax.all_gather(a, "x", tiled=True), P("x"), P(), x8)
    same((4,), ("x",), lambda a: jax.lax.psum_scatter(a, "x", tiled=True), P(), P("x"), x8)


def test_ppermute_and_axis_index():
    def f(a):
        shifted = jax.lax.ppermute(a, "x", perm=[(i, (i + 1) % 4) for i in range(4)])
        return shifted + jax.lax.axis_index("x").astype(a.dtype)

    same((4,), ("x",), f, P("x"), P("x"), x8)


def test_all_to_all():
    same((4,), ("x",), lambda a: jax.lax.all_to_all(a, "x", 1, 0, tiled=True), P("x", None), P(None, "x"), x44)


def test_two_dim_mesh():
    def f(a):
        return jax.lax.psum(a, "x") * 10 + jax.lax.psum(a, "y")

    same((2, 2), ("x", "y"), f, P("x", "y"), P("x", "y"), x44)
    same((2, 2), ("x", "y"), lambda a: jax.lax.psum(a, "x"), P("x", "y"), P(None, "y"), x44)


def test_sharded_outputs_and_grad():
    def loss(w, a):
        return jax.lax.psum(jnp.sum(jnp.tanh(a * w)), "x")

    def f(w, a):
        return jax.grad(loss)(w, a)

    same((4,), ("x",), f, (P(), P("x")), P(), np.float32(0.5), x8, rtol=1e-5, atol=1e-5)


def test_data_parallel_training_step():
    w = np.linspace(-1, 1, 4).astype(np.float32)
    xs = np.random.default_rng(5).standard_normal((8, 4)).astype(np.float32)
    ys = xs @ np.arange(4, dtype=np.float32)

    def step(w, x, y):
        g = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
        return w - 0.1 * jax.lax.pmean(g, "x")

    same((4,), ("x",), step, (P(), P("x"), P("x")), P(), w, xs, ys, rtol=1e-5, atol=1e-5)


def test_errors_for_automatic_partitioning():
    need(2)
    devs = np.array(jax.devices("oxhlo")[:2])
    mesh = Mesh(devs, ("x",))
    sharding = jax.sharding.NamedSharding(mesh, P("x"))
    x = jax.device_put(x8, sharding)
    with pytest.raises(Exception, match="shard_map"):
        jax.jit(lambda a: jnp.sin(a) * 2)(x).block_until_ready()


def test_pmap():
    need(4)
    f = lambda a: jax.lax.psum(a, "i") + a
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    ref = np.asarray(jax.pmap(f, axis_name="i", devices=jax.devices("cpu")[:4])(x))
    got = np.asarray(jax.pmap(f, axis_name="i", devices=jax.devices("oxhlo")[:4])(x))
    np.testing.assert_allclose(got, ref)
