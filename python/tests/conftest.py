"""Shared setup of the oxhlo JAX plugin tests: oxhlo results are compared with JAX on CPU.

Run with `JAX_PLATFORMS=oxhlo python3 -m pytest -q python/tests`. The CPU backend is added to
JAX_PLATFORMS here (before JAX is imported) so that it is available as the reference. With
OXHLO_PLUGIN_PATH set, the plugin module is taken from this source tree, so a development build of
liboxhlo_pjrt.so can be tested without installing the package.
"""

import os
import sys
from pathlib import Path

_platforms = [p for p in os.environ.get("JAX_PLATFORMS", "oxhlo").split(",") if p]
if "oxhlo" not in _platforms:
    _platforms.insert(0, "oxhlo")
if "cpu" not in _platforms:
    _platforms.append("cpu")
os.environ["JAX_PLATFORMS"] = ",".join(_platforms)
# Several devices on both sides, for the shard_map tests.
os.environ.setdefault("OXHLO_NUM_DEVICES", "4")
os.environ.setdefault("JAX_NUM_CPU_DEVICES", os.environ["OXHLO_NUM_DEVICES"])
if os.environ.get("OXHLO_PLUGIN_PATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import jax  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(scope="session")
def oxhlo():
    """The first oxhlo device."""
    return jax.devices("oxhlo")[0]


@pytest.fixture(scope="session")
def cpu():
    """The first CPU device (the reference)."""
    return jax.devices("cpu")[0]


def _can_compile() -> str | None:
    """None when oxhlo compiles and runs programs end to end, else why not."""
    dev = jax.devices("oxhlo")[0]
    try:
        x = jax.device_put(np.float32(1.0), dev)
        out = jax.jit(lambda a: a + a)(x)
        np.asarray(out)
        return None
    except Exception as e:  # noqa: BLE001
        return str(e).splitlines()[0][:300]


_COMPILE_STATUS: list = []


def compile_status() -> str | None:
    if not _COMPILE_STATUS:
        _COMPILE_STATUS.append(_can_compile())
    return _COMPILE_STATUS[0]


@pytest.fixture
def compiles():
    """Fails the test at once, with the reason, when oxhlo cannot compile and run even `a + a`."""
    why = compile_status()
    if why is not None:
        pytest.fail(f"oxhlo cannot compile and run a trivial program: {why}")


def tolerance(dtype) -> dict:
    dt = np.dtype(dtype)
    if dt.kind in "biu":
        return dict(rtol=0, atol=0)
    if dt.itemsize <= 2 or dt.name == "bfloat16":
        return dict(rtol=2e-2, atol=2e-2)
    if dt in (np.float64, np.complex128):
        return dict(rtol=1e-12, atol=1e-12)
    return dict(rtol=1e-5, atol=1e-6)


def to_numpy(x):
    """A JAX array as numpy (typed PRNG keys as their key data)."""
    if hasattr(x, "dtype") and jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key):
        x = jax.random.key_data(x)
    return np.asarray(x)


def run_on(device, f, *args, jit=True):
    """Runs f on `device` (its arguments placed there) and returns the outputs as numpy values."""
    placed = jax.device_put(args, device)
    with jax.default_device(device):
        out = (jax.jit(f) if jit else f)(*placed)
    return jax.tree.map(to_numpy, out)


def assert_same(f, *args, jit=True, **tol):
    """Asserts that f gives the same results on oxhlo as on CPU (within a dtype-based tolerance)."""
    ref = run_on(jax.devices("cpu")[0], f, *args, jit=jit)
    got = run_on(jax.devices("oxhlo")[0], f, *args, jit=jit)
    ref_leaves, ref_tree = jax.tree.flatten(ref)
    got_leaves, got_tree = jax.tree.flatten(got)
    assert ref_tree == got_tree
    for r, g in zip(ref_leaves, got_leaves):
        assert r.dtype == g.dtype, (r.dtype, g.dtype)
        assert r.shape == g.shape, (r.shape, g.shape)
        np.testing.assert_allclose(g, r, **(tol or tolerance(r.dtype)))
    return got
