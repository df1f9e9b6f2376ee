#!/usr/bin/env bash
# The cost of the simple form's libffi calls (see README.md in this directory).
# Builds benchmarks/ffi/ffi_call.c with cc -O2 against libffi and prints its figures; with
# --swift, also the per-run cost of SimpleFormProvider.run, measured by
# Tests/EmendProvidersTests/SimpleFormOverheadTests.swift in an optimized (-O) test build.
# Usage: bash benchmarks/ffi/run.sh [--swift] [runs]
#   scratch path: .build-bench (override with EMEND_BENCH_SCRATCH); the --swift build uses
#   <scratch>-ffi-swift, since a release test build cannot link (-static-stdlib of libemend).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCRATCH=${EMEND_BENCH_SCRATCH:-$ROOT/.build-bench}
SWIFT=0
if [[ ${1:-} == --swift ]]; then
    SWIFT=1
    shift
fi

BIN="$SCRATCH/bench-ffi"
mkdir -p "$BIN"
FFI_CFLAGS=$(pkg-config --cflags libffi 2>/dev/null || true)
FFI_LIBS=$(pkg-config --libs libffi 2>/dev/null || echo -lffi)
# shellcheck disable=SC2086
cc -std=c11 -O2 -Wall -Wextra -Werror $FFI_CFLAGS "$ROOT/benchmarks/ffi/ffi_call.c" $FFI_LIBS -o "$BIN/ffi_call"

echo "== libffi for the simple form: direct C call vs ffi_call and a closure (C, -O2)"
"$BIN/ffi_call" "$@"

if [[ $SWIFT == 1 ]]; then
    echo "== SimpleFormProvider.run per call (Swift -O; fixture functions that copy 17 bytes)"
    LOG=$(mktemp)
    trap 'rm -f "$LOG"' EXIT
    if ! (cd "$ROOT" && EMEND_SIMPLE_BENCH_CALLS=${EMEND_SIMPLE_BENCH_CALLS:-200000} swift test \
            --scratch-path "$SCRATCH-ffi-swift" -Xswiftc -O -Xcc -O2 --disable-swift-testing \
            --filter SimpleFormOverheadTests) >"$LOG" 2>&1; then
        cat "$LOG" >&2
        echo "benchmarks/ffi: the Swift measurement failed" >&2
        exit 1
    fi
    grep '^simple form' "$LOG"
fi
