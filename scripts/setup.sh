#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine with the Swift toolchain for Emend, builds libemend.so
# (release: soname, static Swift stdlib) and runs the C example engine against it.
# Usage: bash scripts/setup.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash scripts/install-deps.sh
lib_dir="$(dirname "$(bash scripts/build-release.sh)")"
ln -sf libemend.so "$lib_dir/libemend.so.0"
bash scripts/run-examples.sh c "$lib_dir"
