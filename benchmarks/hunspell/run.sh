#!/usr/bin/env bash
# Words per second of the Hunspell provider plugin, cold and warm (see README.md here).
# Builds providers/hunspell (build.sh) and benchmarks/hunspell/bench.c with cc -O2, then runs
#   bench PLUGIN [cold-runs] [warm-runs]
# Needs libhunspell-dev and hunspell-en-us (scripts/install-deps.sh installs them).
# Usage: bash benchmarks/hunspell/run.sh [cold-runs] [warm-runs]
#   scratch path: .build-bench (override with EMEND_BENCH_SCRATCH); the programs go to
#   <scratch>/bench-hunspell.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCRATCH=${EMEND_BENCH_SCRATCH:-$ROOT/.build-bench}
BIN="$SCRATCH/bench-hunspell"

if ! pkg-config --exists hunspell; then
    echo "benchmarks/hunspell: libhunspell-dev is not installed (bash scripts/install-deps.sh)" >&2
    exit 1
fi
if [[ ! -r /usr/share/hunspell/en_US.dic ]]; then
    echo "benchmarks/hunspell: the en_US dictionary is not installed (apt-get install hunspell-en-us)" >&2
    exit 1
fi

mkdir -p "$BIN"
sh "$ROOT/providers/hunspell/build.sh" "$BIN"
cc -std=c11 -O2 -Wall -Wextra -Werror -I "$ROOT/include" "$ROOT/benchmarks/hunspell/bench.c" -ldl -o "$BIN/bench"

echo "== Hunspell provider plugin: proofread of ~100 KB of English (C, descriptor driven directly)"
"$BIN/bench" "$BIN/hunspell.so" "$@"
