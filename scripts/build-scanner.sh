#!/usr/bin/env bash
# build-scanner.sh — compile the provider scanner (scanner/emend-scan.c) and print its path.
#
#   bash scripts/build-scanner.sh OUT_DIR
#
# Builds OUT_DIR/emend-scan with the system C compiler (${CC:-cc}); it needs only libc,
# libdl and libseccomp (the plugin sandbox, Sources/CEmendSandbox/sandbox.c), no Swift runtime. Discovery runs it in a child process to probe new or changed
# provider files. Quick when already up to date. Works from any directory.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [ "$#" -ne 1 ] || [ -z "$1" ]; then
    echo "usage: $0 OUT_DIR" >&2
    exit 2
fi

mkdir -p "$1"
out="$(cd "$1" && pwd)/emend-scan"
src="$root/scanner/emend-scan.c"
sandbox="$root/Sources/CEmendSandbox"

if [ ! -x "$out" ] || [ "$src" -nt "$out" ] || [ "$root/scanner/descriptor_verdict.h" -nt "$out" ] \
    || [ "$root/include/emend_provider.h" -nt "$out" ] || [ "$root/include/emend.h" -nt "$out" ] \
    || [ "$sandbox/sandbox.c" -nt "$out" ] || [ "$sandbox/include/emend_sandbox.h" -nt "$out" ]; then
    "${CC:-cc}" -std=c11 -O2 -Wall -Wextra -Werror -I "$root/include" -I "$sandbox/include" "$src" "$sandbox/sandbox.c" \
        -ldl -lseccomp -o "$out.tmp.$$"
    mv -f "$out.tmp.$$" "$out"
fi
echo "$out"
