#!/usr/bin/env bash
# Regenerates include/oxhlo.h from the Rust sources with cbindgen (Debian's `apt-get install cbindgen`, or
# `cargo install cbindgen`). The header is checked in; tests/header.rs checks it is current.
set -euo pipefail
cd "$(dirname "$0")"
cbindgen --config cbindgen.toml --crate oxhlo-capi --output include/oxhlo.h
