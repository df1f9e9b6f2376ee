#!/usr/bin/env bash
# Builds and runs the example engines against a built libemend.so.
# Usage: bash scripts/run-examples.sh [c|rust|plugins|proofread|all] LIB_DIR
#   LIB_DIR holds libemend.so, its soname link libemend.so.0 and emend-scan
#   (scripts/build-release.sh puts them there).
#   plugins: builds examples/plugins (C, Rust, simple form) into a providers directory and
#   runs examples/c/providers.c against them through discovery (EMEND_PROVIDER_PATH).
#   proofread: builds the Hunspell and Harper providers (providers/) and runs
#   examples/c/proofread.c: six sentences with known errors and their corrected forms.
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
  echo "== C example: a table arriving as rows and cells (rich results)"
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/tables.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/tables"
  "$out/tables"
fi

if [ "$which" = plugins ] || [ "$which" = all ]; then
  echo "== provider plugins through discovery (C, Rust, simple form via libffi)"
  providers="$out/providers"
  rm -rf "$providers" "$out/xdg"
  mkdir -p "$providers" "$out/xdg"
  chmod 0755 "$providers"
  bash "$root/examples/plugins/c/build.sh" "$providers"
  bash "$root/examples/plugins/rust/build.sh" "$providers" >/dev/null
  bash "$root/examples/plugins/simple/build.sh" "$providers"
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/providers.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/providers-engine"
  # A private cache, config and data directory: the user's own plugins play no part.
  EMEND_PROVIDER_PATH="$providers" XDG_CACHE_HOME="$out/xdg/cache" XDG_CONFIG_HOME="$out/xdg/config" \
    XDG_DATA_HOME="$out/xdg/data" "$out/providers-engine"
fi

if [ "$which" = proofread ] || [ "$which" = all ]; then
  echo "== real proofreading: Hunspell + Harper through discovery"
  proofreaders="$out/proofreaders"
  rm -rf "$proofreaders" "$out/xdg-proofread"
  mkdir -p "$proofreaders"
  chmod 0755 "$proofreaders"
  bash "$root/providers/harper/setup.sh" >/dev/null
  bash "$root/providers/hunspell/build.sh" "$proofreaders" >/dev/null
  bash "$root/providers/harper/build.sh" "$proofreaders" >/dev/null
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/proofread.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/proofread-engine"
  EMEND_PROVIDER_PATH="$proofreaders" XDG_CACHE_HOME="$out/xdg-proofread/cache" \
    XDG_CONFIG_HOME="$out/xdg-proofread/config" XDG_DATA_HOME="$out/xdg-proofread/data" "$out/proofread-engine"
fi

if [ "$which" = rust ] || [ "$which" = all ]; then
  echo "== Rust example engine (cargo, std only)"
  command -v cargo >/dev/null || { echo "error: cargo is not installed" >&2; exit 2; }
  (cd "$root/examples/rust" && EMEND_LIB_DIR="$lib_dir" CARGO_TARGET_DIR="$out/rust" cargo run --offline --quiet)
fi
