#!/usr/bin/env bash
# build-release.sh — build the release libemend.so and print its path.
#
#   bash scripts/build-release.sh [SCRATCH]
#
# Runs `swift build -c release --product emend` for the package this script lives in
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

# Other people may be editing Sources/ while this runs; SwiftPM then stops with "was
# modified during the build". Try again a couple of times before giving up.
attempt=1
while :; do
    log="$(mktemp)"
    if swift build "${args[@]}" --product emend 2>&1 | tee "$log" >&2; then
        rm -f "$log"
        break
    fi
    if [ "$attempt" -lt 3 ] && grep -q 'modified during the build' "$log"; then
        rm -f "$log"
        attempt=$((attempt + 1))
        echo "build-release: sources changed during the build; retrying ($attempt/3)" >&2
        continue
    fi
    rm -f "$log"
    echo "build-release: swift build failed" >&2
    exit 1
done

bin="$(swift build "${args[@]}" --show-bin-path)"
lib="$bin/libemend.so"
if [ ! -f "$lib" ]; then
    echo "build-release: expected $lib after the build, but it is not there" >&2
    exit 1
fi
echo "$lib"
