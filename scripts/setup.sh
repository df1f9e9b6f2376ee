#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine with the Swift toolchain for Emend, builds libemend.so
# (release: soname, static Swift stdlib) and runs the C example engines against it: the
# built-in fixture provider, then the example plugins (C, Rust, simple form) found through
# discovery.
# Usage: bash scripts/setup.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash scripts/install-deps.sh
lib_dir="$(dirname "$(bash scripts/build-release.sh)")"
bash scripts/run-examples.sh c "$lib_dir"
bash scripts/run-examples.sh plugins "$lib_dir"
