#!/usr/bin/env bash
# Runs every oxhlo test on a fresh machine: installs what the tests need (Python packages), then the Rust
# suite (unit, corpus, conformance, differential vs JAX, C API) and the JAX plugin's pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install -q --disable-pip-version-check -r scripts/requirements-test.txt
# valgrind runs the C API leak check (1000 compile/execute/destroy cycles); it skips, saying so, without it.
if ! command -v valgrind >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  (apt-get update -qq && apt-get install -y -qq valgrind) || echo "note: could not install valgrind"
fi
# A C++ compiler runs the CUDA backend's sort kernels on the host (crates/oxhlo-cuda/tests/host_emulation.rs;
# it skips, saying so, without one).
if ! command -v c++ >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  (apt-get update -qq && apt-get install -y -qq g++) || echo "note: could not install g++"
fi

# Two cores: keep builds and test threads bounded so the whole run fits CI's budget.
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-2}"
export RUST_TEST_THREADS="${RUST_TEST_THREADS:-2}"
export CARGO_TERM_COLOR=never
# A clean clone builds once: incremental caches would only take disk (CI machines may have little free).
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

# NVRTC from its wheel (no GPU needed): the CUDA backend's rendered kernels are compiled in the tests.
NVRTC_LIB=$(python3 -c 'import nvidia, os; d = os.path.join(list(nvidia.__path__)[0], "cu13", "lib"); print(d if os.path.isdir(d) else "")' 2>/dev/null || true)
if [ -n "$NVRTC_LIB" ]; then export LD_LIBRARY_PATH="$NVRTC_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; fi

cargo build --release -p oxhlo-cli
cargo test --workspace

if [ -d python/tests ]; then
  python3 -m pip install -q --disable-pip-version-check ./python
  JAX_PLATFORMS=oxhlo python3 -m pytest -q python/tests
fi
echo "all tests passed"
