"""Host <-> device transfers on oxhlo: every dtype JAX uses, scalars, empty arrays, strided views."""

import jax
import ml_dtypes
import numpy as np
import pytest

DTYPES_32 = [np.bool_, np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32, np.float16,
             ml_dtypes.bfloat16, np.float32, np.complex64]
DTYPES_64 = [np.int64, np.uint64, np.float64, np.complex128]


def sample(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def roundtrip(x, device):
    y = jax.device_put(x, device)
    assert y.devices() == {device}
    back = np.asarray(y)
    assert back.dtype == x.dtype and back.shape == x.shape
    np.testing.assert_array_equal(back, x)
    return y


@pytest.mark.parametrize("dtype", DTYPES_32, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3), (2, 0, 3), (2, 3, 4, 5)], ids=str)
def test_roundtrip(oxhlo, dtype, shape):
    roundtrip(sample(dtype, shape), oxhlo)


@pytest.mark.parametrize("dtype", DTYPES_64, ids=lambda d: np.dtype(d).name)
def test_roundtrip_x64(oxhlo, dtype):
    with jax.enable_x64(True):
        for shape in [(), (7,), (3, 4)]:
            roundtrip(sample(dtype, shape), oxhlo)


def test_special_float_values(oxhlo):
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, 3.4e38], np.float32)
    back = np.asarray(jax.device_put(x, oxhlo))
    np.testing.assert_array_equal(back.view(np.uint32), x.view(np.uint32))


@pytest.mark.parametrize("view", ["transpose", "reverse", "step", "column", "broadcast"])
def test_strided_views(oxhlo, view):
    base = np.arange(4 * 6, dtype=np.float32).reshape(4, 6)
    x = {
        "transpose": base.T,
        "reverse": base[::-1, ::-2],
        "step": base[1::2, ::3],
        "column": base[:, 2],
        "broadcast": np.broadcast_to(np.arange(3, dtype=np.float32), (4, 3)),
    }[view]
    assert not x.flags["C_CONTIGUOUS"] or view == "column"
    roundtrip(x, oxhlo)


def test_sub_byte_and_fp8_types(oxhlo):
    for dt in [ml_dtypes.int4, ml_dtypes.uint4, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2]:
        x = np.arange(-3, 5).astype(dt) if np.dtype(dt).kind != "u" else np.arange(8).astype(dt)
        back = np.asarray(jax.device_put(x, oxhlo))
        np.testing.assert_array_equal(back.astype(np.float32), x.astype(np.float32))


def test_copy_between_devices(oxhlo):
    devs = jax.devices("oxhlo")
    if len(devs) < 2:
        pytest.skip("needs OXHLO_NUM_DEVICES >= 2")
    x = jax.device_put(np.arange(6, dtype=np.int32), devs[0])
    y = jax.device_put(x, devs[1])
    assert y.devices() == {devs[1]}
    np.testing.assert_array_equal(np.asarray(y), np.arange(6))


def test_copy_to_and_from_cpu(oxhlo, cpu):
    x = jax.device_put(np.arange(6, dtype=np.float32), cpu)
    y = jax.device_put(x, oxhlo)
    z = jax.device_put(y, cpu)
    np.testing.assert_array_equal(np.asarray(z), np.arange(6, dtype=np.float32))


def test_block_until_ready(oxhlo):
    x = jax.device_put(np.ones(4, np.float32), oxhlo)
    assert x.block_until_ready() is x


def test_deleted_buffer_errors(oxhlo):
    x = jax.device_put(np.ones(4, np.float32), oxhlo)
    x.delete()
    with pytest.raises(RuntimeError, match="deleted"):
        np.asarray(x)
