#!/usr/bin/env bash
# Builds libemend and the benchmarks in release mode, then prints the figures (see README.md).
# Usage: bash benchmarks/run.sh            (scratch path: .build-bench, override with EMEND_BENCH_SCRATCH)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
SCRATCH=${EMEND_BENCH_SCRATCH:-$ROOT/.build-bench}
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

echo "== building (swift build -c release --scratch-path ${SCRATCH#"$ROOT"/})"
for attempt in 1 2 3; do
    if swift build -c release --scratch-path "$SCRATCH" >"$LOG" 2>&1; then
        break
    fi
    # Sources edited while building: try again. Any other failure is reported at once.
    if [[ $attempt -lt 3 ]] && grep -q "was modified during the build" "$LOG"; then
        echo "   (sources changed during the build; retrying)"
        continue
    fi
    cat "$LOG" >&2
    echo "benchmarks: the release build failed" >&2
    exit 1
done

LIB="$SCRATCH/release"
[[ -f "$LIB/libemend.so" ]] || { echo "benchmarks: $LIB/libemend.so not found" >&2; exit 1; }
ln -sf libemend.so "$LIB/libemend.so.0"
BIN="$SCRATCH/bench-c"
mkdir -p "$BIN"
for program in roundtrip proofread; do
    cc -std=c11 -O2 -Wall -Wextra -Werror -I "$ROOT/include" "$ROOT/benchmarks/$program.c" \
        -L "$LIB" -lemend -Wl,-rpath,"$LIB" -o "$BIN/$program"
done

echo "== $(uname -srm), $(nproc) cores, $(swift --version 2>/dev/null | head -1)"
echo "== call overhead"
"$BIN/roundtrip"
echo "== proofread through the C ABI (fixture provider, delegate answers inside each callback)"
"$BIN/proofread"
echo "== alignment (TextAlignment.edits, Swift)"
"$LIB/EmendBenchmarks"
