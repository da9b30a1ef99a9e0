"""Python callbacks on oxhlo: jax.debug.print / debug.callback, pure_callback, io_callback."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from conftest import assert_same

pytestmark = pytest.mark.usefixtures("compiles")


def test_debug_print(oxhlo, capfd):
    def f(x):
        jax.debug.print("x = {x}, sum = {s}", x=x, s=x.sum())
        return x * 2

    x = jax.device_put(np.arange(3, dtype=np.float32), oxhlo)
    out = jax.jit(f)(x)
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [0, 2, 4])
    assert "x = [0. 1. 2.], sum = 3.0" in capfd.readouterr().out


def test_debug_callback_in_a_loop(oxhlo):
    seen = []

    def f(x):
        def body(i, c):
            jax.debug.callback(lambda v: seen.append(int(v)), i)
            return c + i
        return jax.lax.fori_loop(0, 4, body, x)

    out = jax.jit(f)(jax.device_put(np.int32(0), oxhlo))
    jax.effects_barrier()
    assert int(out) == 6
    assert sorted(seen) == [0, 1, 2, 3]


def test_pure_callback():
    def f(x):
        y = jax.pure_callback(lambda a: np.sin(a).astype(a.dtype), jax.ShapeDtypeStruct(x.shape, x.dtype), x)
        return y * 2 + x

    assert_same(f, np.linspace(0, 1, 5, dtype=np.float32))


def test_pure_callback_several_results_and_empty():
    def f(x):
        spec = (jax.ShapeDtypeStruct((2,), jnp.int32), jax.ShapeDtypeStruct((0,), jnp.float32))
        a, b = jax.pure_callback(lambda v: (np.array([v.size, 7], np.int32), np.zeros(0, np.float32)), spec, x)
        return a, b, x + 1

    assert_same(f, np.ones((3,), np.float32))


def test_io_callback(oxhlo):
    from jax.experimental import io_callback

    log = []

    def f(x):
        return io_callback(lambda v: (log.append(float(v.sum())), v * 3)[1], jax.ShapeDtypeStruct((2,), jnp.float32), x)

    out = jax.jit(f)(jax.device_put(np.ones(2, np.float32), oxhlo))
    np.testing.assert_array_equal(np.asarray(out), [3, 3])
    assert log == [2.0]


def test_callback_exception_is_reported(oxhlo):
    def bad(v):
        raise ValueError("boom from the callback")

    def f(x):
        return jax.pure_callback(bad, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    with pytest.raises(Exception, match="boom"):
        np.asarray(jax.jit(f)(jax.device_put(np.ones(2, np.float32), oxhlo)))
