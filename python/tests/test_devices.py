"""The oxhlo platform as JAX sees it: devices, memories, plugin attributes."""

import os

import jax
import numpy as np


def test_platform_is_listed(oxhlo):
    devs = jax.devices("oxhlo")
    assert len(devs) == int(os.environ.get("OXHLO_NUM_DEVICES", "1"))
    assert oxhlo.platform == "oxhlo"
    assert oxhlo.device_kind == "oxhlo"
    assert oxhlo.id == 0
    assert "Oxhlo" in repr(oxhlo)


def test_default_backend_is_oxhlo():
    # JAX_PLATFORMS lists oxhlo first, so it is the default backend.
    assert jax.default_backend() == "oxhlo"
    assert jax.devices()[0].platform == "oxhlo"


def test_memories(oxhlo):
    assert oxhlo.default_memory().kind == "device"
    assert [m.kind for m in oxhlo.addressable_memories()] == ["device"]


def test_backend_attributes():
    import jax.extend

    backend = jax.extend.backend.get_backend("oxhlo")
    assert backend.platform == "oxhlo"
    assert "oxhlo" in backend.platform_version
    # It says which backend runs programs (as OXHLO_BACKEND asks), not always the interpreter.
    import os

    asked = os.environ.get("OXHLO_BACKEND", "").strip().lower()
    want = {"": "the CUDA backend where a GPU is usable, else the CPU backend", "cuda": "the CUDA backend", "cpu": "the CPU backend", "interpreter": "the reference interpreter"}
    if asked in want:
        assert backend.platform_version.endswith(f"(programs run on {want[asked]})"), backend.platform_version
    assert backend.device_count() == len(jax.devices("oxhlo"))


def test_array_lives_on_oxhlo(oxhlo):
    x = jax.device_put(np.ones((2, 3), np.float32), oxhlo)
    assert x.devices() == {oxhlo}
    assert x.sharding.memory_kind == "device"
    assert not x.is_deleted()
    x.delete()
    assert x.is_deleted()


def test_memory_stats(oxhlo):
    before = oxhlo.memory_stats()["bytes_in_use"]
    x = jax.device_put(np.ones((256,), np.float32), oxhlo)
    assert oxhlo.memory_stats()["bytes_in_use"] == before + 1024
    x.delete()
    assert oxhlo.memory_stats()["bytes_in_use"] == before
