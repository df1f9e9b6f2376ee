#!/usr/bin/env bash
# Builds and runs the example engines against a built libemend.so.
# Usage: bash scripts/run-examples.sh [c|rust|all] LIB_DIR
#   LIB_DIR holds libemend.so and its soname link libemend.so.0.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
which="${1:-all}"
lib_dir="$(cd "${2:?LIB_DIR missing}" && pwd)"
out="$root/.build-examples"
mkdir -p "$out"

if [ "$which" = c ] || [ "$which" = all ]; then
  echo "== C example engine (cc -std=c11 -Wall -Wextra -Werror)"
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/engine.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/engine"
  "$out/engine"
fi

if [ "$which" = rust ] || [ "$which" = all ]; then
  echo "== Rust example engine (cargo, std only)"
  command -v cargo >/dev/null || { echo "error: cargo is not installed" >&2; exit 2; }
  (cd "$root/examples/rust" && EMEND_LIB_DIR="$lib_dir" CARGO_TARGET_DIR="$out/rust" cargo run --offline --quiet)
fi
