"""jit of simple functions on oxhlo, compared with JAX on CPU."""

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from conftest import assert_same, run_on

pytestmark = pytest.mark.usefixtures("compiles")

rng = np.random.default_rng(0)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def test_add():
    assert_same(lambda x, y: x + y, f32(3, 4), f32(3, 4))


def test_scalar_and_broadcast():
    assert_same(lambda x, s: x * s + 1.0, f32(2, 3), np.float32(2.5))


def test_mlp():
    def mlp(params, x):
        (w1, b1), (w2, b2) = params
        h = jax.nn.relu(x @ w1 + b1)
        return h @ w2 + b2

    params = ((f32(16, 32), f32(32)), (f32(32, 4), f32(4)))
    assert_same(mlp, params, f32(8, 16))


def test_multiple_outputs_and_pytrees():
    def f(d):
        return {"sum": d["a"] + d["b"], "prod": d["a"] * d["b"], "neg": -d["a"]}

    assert_same(f, {"a": f32(5), "b": f32(5)})


def test_no_inputs_and_constants():
    assert_same(lambda: jnp.arange(10, dtype=jnp.float32) * 2)


def test_zero_size():
    assert_same(lambda x: x * 2, np.zeros((3, 0), np.float32))


@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.int32, np.int8, np.uint8,
                                   np.bool_], ids=lambda d: np.dtype(d).name)
def test_dtypes(dtype):
    x = (rng.standard_normal((4, 5)) * 10).astype(dtype)
    y = (rng.standard_normal((4, 5)) * 10).astype(dtype)
    if np.dtype(dtype) == np.bool_:
        assert_same(lambda a, b: (a & b) | ~a, x, y)
    else:
        assert_same(lambda a, b: a * b + a - b, x, y)


def test_x64():
    with jax.enable_x64(True):
        x = rng.standard_normal((3, 3))
        assert_same(lambda a: jnp.sin(a) @ a + 1, x)
        assert_same(lambda a: a * 3 - 2**40, np.arange(6, dtype=np.int64))


def test_complex():
    x = (f32(4) + 1j * f32(4)).astype(np.complex64)
    assert_same(lambda a: a * jnp.conj(a) + jnp.exp(a), x)


def test_reductions_and_transcendentals():
    x = f32(6, 7)
    assert_same(lambda a: (jnp.sum(a, axis=0), jnp.max(a, axis=1), jnp.mean(a), jnp.tanh(a), jnp.log1p(jnp.abs(a))), x)


def test_indexing_and_reshape():
    x = f32(4, 6)
    assert_same(lambda a: (a[1:3, ::2], a.T.reshape(3, 8), a[jnp.array([0, 2])], jnp.concatenate([a, a], 0)), x)


def test_repeated_calls_use_the_cache(oxhlo):
    f = jax.jit(lambda a: a * 2)
    x = jax.device_put(np.ones(3, np.float32), oxhlo)
    for _ in range(3):
        np.testing.assert_array_equal(np.asarray(f(x)), np.full(3, 2, np.float32))


def test_compiled_introspection(oxhlo):
    x = jax.device_put(np.ones(3, np.float32), oxhlo)
    compiled = jax.jit(lambda a: a + 1).lower(x).compile()
    out = compiled(x)
    np.testing.assert_array_equal(np.asarray(out), np.full(3, 2, np.float32))
    assert compiled.as_text()  # the optimized program


def test_runtime_error_message(oxhlo):
    # A program oxhlo rejects at run time must raise, with the reason, not crash.
    x = jax.device_put(np.ones(3, np.float32), oxhlo)
    y = jax.device_put(np.ones(4, np.float32), oxhlo)
    with pytest.raises(Exception):
        jax.jit(lambda a, b: a + b)(x, y)


def test_donation_deletes_the_input(oxhlo):
    x = jax.device_put(np.ones(4, np.float32), oxhlo)
    y = jax.jit(lambda a: a * 2, donate_argnums=0)(x)
    np.testing.assert_array_equal(np.asarray(y), np.full(4, 2, np.float32))
    assert x.is_deleted()


def test_serialize_and_deserialize(oxhlo):
    from jax.experimental.serialize_executable import deserialize_and_load, serialize

    x = jax.device_put(np.arange(3, dtype=np.float32), oxhlo)
    compiled = jax.jit(lambda a: a + 1).lower(x).compile()
    payload, in_tree, out_tree = serialize(compiled)
    loaded = deserialize_and_load(payload, in_tree, out_tree, backend="oxhlo", execution_devices=[oxhlo])
    np.testing.assert_array_equal(np.asarray(loaded(x)), [1, 2, 3])


def test_memory_analysis(oxhlo):
    x = jax.device_put(np.ones((4, 4), np.float32), oxhlo)
    m = jax.jit(lambda a: a @ a).lower(x).compile().memory_analysis()
    assert m.argument_size_in_bytes == 64 and m.output_size_in_bytes == 64


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=["f16", "bf16"])
def test_low_precision_grad(dtype):
    x = (rng.standard_normal((4, 3))).astype(dtype)
    w = (rng.standard_normal((3,))).astype(dtype)
    assert_same(jax.value_and_grad(lambda w, x: jnp.sum(jnp.tanh(x @ w) ** 2)), w, x, rtol=5e-2, atol=5e-2)


def test_f64_grad():
    with jax.enable_x64(True):
        x = rng.standard_normal((5, 3))
        assert_same(jax.grad(lambda w: jnp.sum(jnp.sin(x @ w) ** 2)), rng.standard_normal(3))
