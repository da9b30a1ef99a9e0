"""Build step of the oxhlo JAX plugin: compiles the PJRT plugin with cargo and puts
liboxhlo_pjrt.so inside the `jax_plugins.oxhlo` package. The metadata lives in pyproject.toml.

Environment:
  CARGO                 the cargo executable (default: `cargo` on PATH)
  CARGO_TARGET_DIR      honoured as cargo honours it
  OXHLO_CARGO_PROFILE   cargo profile to build (default: release)
  OXHLO_PREBUILT_PLUGIN path of an already built liboxhlo_pjrt.so to package instead of building
                        (an oxhlo-nvrtc beside it is packaged too)

Beside the library the package holds oxhlo-nvrtc, the CUDA backend's NVRTC worker (its kernels compile
in several processes at once; without it they compile on threads of the JAX process).
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = Path(__file__).resolve().parent
LIB = "liboxhlo_pjrt.so"
WORKER = "oxhlo-nvrtc"


def workspace_root() -> Path:
    for d in (HERE.parent, HERE):
        if (d / "Cargo.toml").is_file() and (d / "crates" / "oxhlo-pjrt").is_dir():
            return d
    raise RuntimeError(
        "oxhlo-jax: cannot find the oxhlo Cargo workspace next to the python/ directory; "
        "build from a clone of the repository (pip install ./python)"
    )


def cargo_artifact(cmd, root, target, pick):
    """Runs a cargo build and returns the file of `target` that `pick` selects from its artifact message."""
    print("oxhlo-jax: running", " ".join(cmd), file=sys.stderr)
    proc = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"oxhlo-jax: cargo build failed (exit code {proc.returncode})")
    found = None
    for line in proc.stdout.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") == "compiler-artifact" and msg.get("target", {}).get("name") == target:
            found = pick(msg) or found
    return found


def cargo_build_worker():
    """The NVRTC worker executable, or None (the plugin then compiles kernels on threads)."""
    prebuilt = os.environ.get("OXHLO_PREBUILT_PLUGIN")
    if prebuilt:
        beside = Path(prebuilt).resolve().parent / WORKER
        return beside if beside.is_file() else None
    root = workspace_root()
    cargo = os.environ.get("CARGO") or shutil.which("cargo")
    profile = os.environ.get("OXHLO_CARGO_PROFILE", "release")
    cmd = [cargo, "build", "-p", "oxhlo-cuda", "--bin", WORKER, "--profile", profile,
           "--message-format=json-render-diagnostics"]
    try:
        exe = cargo_artifact(cmd, root, WORKER, lambda m: m.get("executable"))
    except RuntimeError as e:
        print(f"oxhlo-jax: {e}; packaging without the NVRTC worker", file=sys.stderr)
        return None
    return Path(exe) if exe and Path(exe).is_file() else None


def cargo_build() -> Path:
    prebuilt = os.environ.get("OXHLO_PREBUILT_PLUGIN")
    if prebuilt:
        return Path(prebuilt).resolve()
    root = workspace_root()
    cargo = os.environ.get("CARGO") or shutil.which("cargo")
    if not cargo:
        raise RuntimeError("oxhlo-jax: `cargo` was not found; install Rust (https://rustup.rs) and retry")
    profile = os.environ.get("OXHLO_CARGO_PROFILE", "release")
    cmd = [cargo, "build", "-p", "oxhlo-pjrt", "--lib", "--profile", profile,
           "--message-format=json-render-diagnostics"]
    so = lambda m: next((Path(f) for f in m.get("filenames", []) if f.endswith(".so")), None)
    found = cargo_artifact(cmd, root, "oxhlo_pjrt", so)
    if found is None or not found.is_file():
        raise RuntimeError("oxhlo-jax: cargo did not report building liboxhlo_pjrt.so")
    return found


class BuildWithCargo(build_py):
    """build_py that first builds the plugin library and copies it into the package."""

    def run(self):
        lib = cargo_build()
        super().run()
        dest = Path(self.build_lib) / "jax_plugins" / "oxhlo"
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(lib, dest / LIB)
        print(f"oxhlo-jax: packaged {lib} as {dest / LIB}", file=sys.stderr)
        worker = cargo_build_worker()
        if worker is not None:
            shutil.copy2(worker, dest / WORKER)
            print(f"oxhlo-jax: packaged {worker} as {dest / WORKER}", file=sys.stderr)


class BinaryDistribution(Distribution):
    """The wheel holds a native library, so it is platform specific."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithCargo}, distclass=BinaryDistribution)
