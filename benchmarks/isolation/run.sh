#!/usr/bin/env bash
# Isolation's cost: a 1,000-suggestion proofread through a plugin (plugin.c, engine.c), with the
# plugin in process (isolation = "none") and in its provider host (the default), side by side.
# Usage: bash benchmarks/isolation/run.sh [runs, default 20]
#   scratch path .build-bench (EMEND_BENCH_SCRATCH; libemend and emend-provider-host are built
#   there in release mode unless benchmarks/run.sh already did), programs in <scratch>/bench-isolation.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCRATCH=${EMEND_BENCH_SCRATCH:-$ROOT/.build-bench}
RUNS=${1:-20}
BIN="$SCRATCH/bench-isolation"
LIB="$SCRATCH/release"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if [[ -z ${EMEND_BENCH_SCRATCH:-} || ! -f $LIB/libemend.so || ! -x $LIB/emend-provider-host ]]; then
    echo "== building libemend and emend-provider-host (swift build -c release --scratch-path ${SCRATCH#"$ROOT"/})"
    (cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" >"$WORK/build.log" 2>&1) ||
        { cat "$WORK/build.log" >&2; echo "benchmarks/isolation: the release build failed" >&2; exit 1; }
fi
ln -sf libemend.so "$LIB/libemend.so.0"
mkdir -p "$BIN"
cc -std=c11 -O2 -Wall -Wextra -Werror -I "$ROOT/include" "$ROOT/benchmarks/isolation/engine.c" \
    -L "$LIB" -lemend -Wl,-rpath,"$LIB" -o "$BIN/engine"
PROVIDERS="$WORK/providers"
mkdir -m 0700 "$PROVIDERS"
cc -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -I "$ROOT/include" "$ROOT/benchmarks/isolation/plugin.c" \
    -o "$PROVIDERS/speller.so"
chmod 0755 "$PROVIDERS/speller.so"
SCANNER=$(bash "$ROOT/scripts/build-scanner.sh" "$SCRATCH/bench-discovery")

run() {
    mkdir -p "$WORK/$1/emend"
    printf '[providers."org.emend.bench.speller"]\nisolation = "%s"\n' "$1" >"$WORK/$1/emend/config.toml"
    env EMEND_PROVIDER_PATH="$PROVIDERS" EMEND_SCANNER="$SCANNER" EMEND_PROVIDER_HOST="$LIB/emend-provider-host" \
        XDG_CONFIG_HOME="$WORK/$1" XDG_CACHE_HOME="$WORK/cache-$1" XDG_DATA_HOME="$WORK/data" \
        "$BIN/engine" "$RUNS" | grep '^RESULT'
}
value() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"; }
IN=$(run none)
OUT=$(run process)
echo "== isolation: a 1,000-suggestion proofread through a plugin, start to idle, every suggestion"
echo "   applied by the delegate; median (best) of $RUNS runs after a warm-up"
printf '   %-40s %9s ms (%s ms)\n' "in process (isolation = \"none\")" "$(value "$IN" median_ms)" "$(value "$IN" best_ms)"
printf '   %-40s %9s ms (%s ms)\n' "in emend-provider-host (the default)" "$(value "$OUT" median_ms)" "$(value "$OUT" best_ms)"
awk -v a="$(value "$IN" median_ms)" -v b="$(value "$OUT" median_ms)" \
    'BEGIN { printf "   isolation costs %+.2f ms per proofread (target: at most 2 ms)\n", b - a }'
