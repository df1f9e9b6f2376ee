#!/usr/bin/env bash
# build-release.sh — build the release libemend.so and print its path.
#
#   bash scripts/build-release.sh [SCRATCH]
#
# Runs `swift build -c release --product emend` for the package this script lives in, adds
# the soname link libemend.so.0, builds the provider scanner (emend-scan) and the provider
# host (emend-provider-host, `--product emend-provider-host`, the Swift runtime inside) next to it
# (optionally with `--scratch-path SCRATCH`; a relative SCRATCH is taken from the current
# directory), then prints the absolute path of libemend.so on stdout. Build output goes to
# stderr, so `lib=$(bash scripts/build-release.sh)` works. Quick when already built.
# Works from any directory.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [ "$#" -gt 1 ]; then
    echo "usage: $0 [SCRATCH]" >&2
    exit 2
fi

args=(--package-path "$root" -c release)
if [ "$#" -eq 1 ] && [ -n "$1" ]; then
    mkdir -p "$1"
    args+=(--scratch-path "$(cd "$1" && pwd)")
fi

if ! swift build "${args[@]}" --product emend >&2; then
    echo "build-release: swift build failed" >&2
    exit 1
fi

if ! swift build "${args[@]}" --product emend-provider-host >&2; then
    echo "build-release: swift build of emend-provider-host failed" >&2
    exit 1
fi

bin="$(swift build "${args[@]}" --show-bin-path)"
lib="$bin/libemend.so"
if [ ! -f "$lib" ]; then
    echo "build-release: expected $lib after the build, but it is not there" >&2
    exit 1
fi
# The soname link, and the provider scanner next to the library (where libemend looks for it,
# as it does for emend-provider-host, which swift build put there).
ln -sf libemend.so "$bin/libemend.so.0"
bash "$root/scripts/build-scanner.sh" "$bin" >/dev/null
echo "$lib"
