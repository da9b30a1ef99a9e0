"""How JAX finds the plugin: the default backend without JAX_PLATFORMS, OXHLO_PLUGIN_PATH, the
num_devices client option (each in a fresh Python process)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parent.parent)


def run(code, **env):
    e = {k: v for k, v in os.environ.items() if k not in ("JAX_PLATFORMS", "OXHLO_NUM_DEVICES")}
    if os.environ.get("OXHLO_PLUGIN_PATH"):
        e["PYTHONPATH"] = SRC + os.pathsep + e.get("PYTHONPATH", "")
    e.update(env)
    p = subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout.strip(), p.stderr


PLATFORMS = "import jax; print(jax.default_backend(), sorted({d.platform for d in jax.devices()} | " \
            "{p for p in ('oxhlo', 'cpu', 'gpu', 'cuda', 'tpu') if p in jax._src.xla_bridge.backends()}))"


def test_oxhlo_is_the_default_backend_by_priority():
    rc, out, err = run(PLATFORMS)
    assert rc == 0, err
    default, platforms = out.splitlines()[-1].split(" ", 1)
    if any(p in platforms for p in ("gpu", "cuda", "tpu")):
        pytest.skip(f"an accelerator backend is installed too: {platforms}")
    assert default == "oxhlo", out


def test_num_devices_option_and_environment():
    code = "import jax; print(len(jax.devices('oxhlo')))"
    rc, out, err = run(code, OXHLO_NUM_DEVICES="3", JAX_PLATFORMS="oxhlo")
    assert rc == 0 and out.splitlines()[-1] == "3", err
    code = "import jax; jax.config.update('jax_pjrt_client_create_options', 'num_devices:2'); print(len(jax.devices()))"
    rc, out, err = run(code, JAX_PLATFORMS="oxhlo")
    assert rc == 0 and out.splitlines()[-1] == "2", err


def test_missing_plugin_library_is_a_warning_not_a_crash():
    rc, out, err = run(PLATFORMS, OXHLO_PLUGIN_PATH="/nonexistent/liboxhlo_pjrt.so")
    assert rc == 0, err
    assert "oxhlo" not in out.splitlines()[-1]
    assert "OXHLO_PLUGIN_PATH" in err


def test_bad_device_count_is_reported():
    rc, out, err = run("import jax; jax.devices()", OXHLO_NUM_DEVICES="zero", JAX_PLATFORMS="oxhlo")
    assert rc != 0
    assert "OXHLO_NUM_DEVICES" in err
