"""JAX transformations on oxhlo (grad, vmap, control flow, random, sorting), compared with CPU."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from conftest import assert_same

pytestmark = pytest.mark.usefixtures("compiles")

rng = np.random.default_rng(1)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def loss(params, x, y):
    w, b = params
    pred = jnp.tanh(x @ w + b)
    return jnp.mean((pred - y) ** 2)


def test_value_and_grad():
    params = (f32(5, 3), f32(3))
    assert_same(jax.value_and_grad(loss), params, f32(7, 5), f32(7, 3))


def test_optax_steps():
    optax = pytest.importorskip("optax")
    for opt in [optax.sgd(0.1), optax.adam(1e-2)]:
        def step(params, state, x, y):
            l, g = jax.value_and_grad(loss)(params, x, y)
            updates, state = opt.update(g, state, params)
            return optax.apply_updates(params, updates), state, l

        params = (f32(5, 3), f32(3))
        state = opt.init(params)
        assert_same(step, params, state, f32(7, 5), f32(7, 3))


def test_vmap_nested_and_axes():
    x = f32(3, 4, 5)
    assert_same(jax.vmap(jax.vmap(lambda v: v @ v)), x)
    assert_same(jax.vmap(lambda a, b: a * b, in_axes=(1, None), out_axes=1), x, f32(3, 5))


def test_vmap_of_grad():
    xs = f32(6, 5)
    w = f32(5)
    assert_same(jax.vmap(jax.grad(lambda w, x: jnp.sin(x @ w)), in_axes=(None, 0)), w, xs)


def test_scan():
    def cumulative(c, x):
        c = c * 0.9 + x
        return c, c * 2

    assert_same(lambda xs: jax.lax.scan(cumulative, jnp.zeros(3), xs), f32(10, 3))


def test_cond_and_switch():
    f = lambda p, x: jax.lax.cond(p, jnp.sin, jnp.cos, x)
    assert_same(f, np.bool_(True), f32(4))
    assert_same(f, np.bool_(False), f32(4))
    g = lambda i, x: jax.lax.switch(i, [jnp.sin, jnp.cos, jnp.tanh], x)
    for i in range(3):
        assert_same(g, np.int32(i), f32(4))


def test_while_loop_data_dependent():
    def collatz_steps(n):
        def body(s):
            n, k = s
            return jnp.where(n % 2 == 0, n // 2, 3 * n + 1), k + 1

        return jax.lax.while_loop(lambda s: s[0] != 1, body, (n, 0))[1]

    assert_same(collatz_steps, np.int32(27))
    assert_same(lambda n: jax.lax.while_loop(lambda i: i < n, lambda i: i + 1, 0), np.int32(1500))


def test_sort_argsort_topk():
    x = f32(4, 9)
    assert_same(lambda a: (jnp.sort(a, axis=1), jnp.argsort(a, axis=0), jax.lax.top_k(a, 3)), x)
    assert_same(lambda a: (jnp.argmax(a, axis=1), jnp.argmin(a, axis=0)), x)
    keys = (np.array([3, 1, 3, 2, 1], np.int32), np.array([0.5, 2.0, -1.0, 0.0, 1.0], np.float32))
    assert_same(lambda a, b: jnp.lexsort((a, b)), *keys)


def test_cumulative():
    x = f32(5, 6)
    assert_same(lambda a: (jnp.cumsum(a, 1), jnp.cumprod(a, 0), jax.lax.cummax(a, 1),
                           jax.lax.cumlogsumexp(a, 0)), x)


def test_random_bits_exact():
    key = jax.random.key_data(jax.random.PRNGKey(42))
    f = lambda k: (jax.random.bits(jax.random.wrap_key_data(k), (8,)),
                   jax.random.uniform(jax.random.wrap_key_data(k), (5,)),
                   jax.random.normal(jax.random.wrap_key_data(k), (5,)),
                   jax.random.permutation(jax.random.wrap_key_data(k), 10))
    assert_same(f, np.asarray(key))


def test_checkpoint_and_barrier():
    f = jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)))
    assert_same(jax.grad(lambda x: f(x).sum()), f32(6))
    assert_same(lambda x: jax.lax.optimization_barrier((x, x * 2)), f32(3))


def test_special_functions():
    x = np.abs(f32(8)) + 0.1
    assert_same(lambda a: (jax.lax.lgamma(a), jax.lax.digamma(a), jax.lax.erf(a - 0.5),
                           jax.lax.erf_inv(jnp.tanh(a) * 0.9), jnp.arctan2(a, a - 1)), x, rtol=1e-5, atol=1e-5)


def test_searchsorted_unique_reduce_precision():
    a = np.sort(f32(10))
    assert_same(lambda s, v: jnp.searchsorted(s, v), a, f32(4))
    assert_same(lambda v: jnp.unique(v, size=4, fill_value=0), np.array([3, 1, 3, 2, 1], np.int32))
    assert_same(lambda v: jax.lax.reduce_precision(v, exponent_bits=5, mantissa_bits=10), f32(6))
