#!/usr/bin/env bash
# Isolation's cost: a 1,000-suggestion proofread through a plugin (plugin.c, engine.c), with the
# plugin in process (isolation = "none") and in its provider host (the default), side by side.
# Usage: bash benchmarks/isolation/run.sh [runs per round, default 20]   (EMEND_BENCH_ROUNDS, default 5)
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
# Rounds that alternate between the two, so that both see the same load on a shared machine;
# each round's median, then the median of those (and the best run of all).
ROUNDS=${EMEND_BENCH_ROUNDS:-5}
IN_MEDIANS=() OUT_MEDIANS=() IN_BEST=() OUT_BEST=()
for _ in $(seq 1 "$ROUNDS"); do
    IN=$(run none)
    OUT=$(run process)
    IN_MEDIANS+=("$(value "$IN" median_ms)") IN_BEST+=("$(value "$IN" best_ms)")
    OUT_MEDIANS+=("$(value "$OUT" median_ms)") OUT_BEST+=("$(value "$OUT" best_ms)")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
least() { printf '%s\n' "$@" | sort -g | head -1; }
IN_MEDIAN=$(median "${IN_MEDIANS[@]}") OUT_MEDIAN=$(median "${OUT_MEDIANS[@]}")
echo "== isolation: a 1,000-suggestion proofread through a plugin, start to idle, every suggestion"
echo "   applied by the delegate; median of $ROUNDS alternating rounds of $RUNS runs (best run)"
printf '   %-40s %9s ms (%s ms)\n' "in process (isolation = \"none\")" "$IN_MEDIAN" "$(least "${IN_BEST[@]}")"
printf '   %-40s %9s ms (%s ms)\n' "in emend-provider-host (the default)" "$OUT_MEDIAN" "$(least "${OUT_BEST[@]}")"
awk -v a="$IN_MEDIAN" -v b="$OUT_MEDIAN" -v c="$(least "${IN_BEST[@]}")" -v d="$(least "${OUT_BEST[@]}")" \
    'BEGIN { printf "   isolation costs %+.2f ms per proofread (best runs: %+.2f ms; target: at most 2 ms)\n", b - a, d - c }'
