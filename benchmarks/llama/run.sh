#!/usr/bin/env bash
# The llama provider plugin through Emend beside llama-server's own streaming API, on the same
# model, prompt and token limit (see "llama" in benchmarks/README.md):
#   (a) engine.c, an engine on libemend: a friendly rewrite of paragraph.txt by the llama plugin
#       (found by discovery through EMEND_PROVIDER_PATH), through the pass-through timing.c, in its
#       sandboxed provider host (the default), in a host with sandbox = "off", and in process
#       (isolation = "none"); the sandbox level this machine gives (emend doctor) is printed, and
#       the threads the plugin chose at each run (its debug log);
#   (b) server.c, a libcurl client of llama-server's /v1/chat/completions (stream, greedy), with
#       -t <cores> and, on a machine of more than one core, -t 1;
#   (c) from (a): the time from the plugin's first token to the engine's first replace callback;
#   (a) and (b) again beside one CPU hog (a shell busy loop that keeps one core busy): a model
#       whose threads spin at a barrier for a thread that cannot run slows down many times.
# Every row runs in each of several rounds, interleaved (the order turns each round), and the
# table gives the median of the rounds and each row's rate over llama-server's in the same
# round: on a machine that others load too, those ratios hold where absolute rates do not.
# Needs scripts/setup-llama.sh to have run (.deps/llama.env: llama.cpp, llama-server, the model)
# and libcurl/cJSON (libcurl4-openssl-dev, libcjson-dev).
# Usage: bash benchmarks/llama/run.sh [runs per round, default 3]
#   EMEND_BENCH_ROUNDS (default 3), EMEND_BENCH_THREADS (default auto: the plugin takes the free
#   cores at each run, llama-server gets -t <cores> (and -t 1); or a number for both),
#   EMEND_BENCH_SERVER_THREADS (llama-server's -t instead; 1: no second llama-server row; on
#   a machine so loaded that -t <cores> takes minutes a token), EMEND_BENCH_LATENCY=0 (no (c)),
#   EMEND_BENCH_KINDS (the rows, of "sandboxed unsandboxed inproc server server1"),
#   EMEND_BENCH_HOG=0 (no run beside the hog), EMEND_BENCH_MAX_TOKENS (default 128),
#   EMEND_BENCH_VERBOSE=1 (every run's figures on stderr); scratch path .build-bench
#   (EMEND_BENCH_SCRATCH; libemend is built there in release mode unless benchmarks/run.sh
#   already did), programs in <scratch>/bench-llama.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCRATCH=${EMEND_BENCH_SCRATCH:-$ROOT/.build-bench}
RUNS=${1:-3}
THREADS=${EMEND_BENCH_THREADS:-auto}
if [[ $THREADS == auto ]]; then
    THREADS_TOML='"auto"'
    SERVER_THREADS=${EMEND_BENCH_SERVER_THREADS:-$(nproc)}
else
    THREADS_TOML=$THREADS
    SERVER_THREADS=${EMEND_BENCH_SERVER_THREADS:-$THREADS}
fi
MAX_TOKENS=${EMEND_BENCH_MAX_TOKENS:-128}
TEXT="$ROOT/benchmarks/llama/paragraph.txt"
BIN="$SCRATCH/bench-llama"
LIB="$SCRATCH/release"
ENV_FILE="$ROOT/.deps/llama.env"

fail() {
    echo "benchmarks/llama: $*" >&2
    exit 1
}
[[ -f $ENV_FILE ]] || fail "$ENV_FILE is missing: run bash scripts/setup-llama.sh first"
# shellcheck disable=SC1090
. "$ENV_FILE"
[[ -x ${EMEND_LLAMA_SERVER:-} ]] || fail "llama-server not found (EMEND_LLAMA_SERVER in $ENV_FILE)"
[[ -f ${EMEND_LLAMA_MODEL:-} ]] || fail "the model is missing (EMEND_LLAMA_MODEL in $ENV_FILE)"
pkg-config --exists libcurl libcjson || fail "libcurl4-openssl-dev and libcjson-dev are needed"

WORK=$(mktemp -d)
SERVER_PIDS=
HOG_PID=
cleanup() {
    local pid
    for pid in $HOG_PID $SERVER_PIDS; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

# libemend in release mode (benchmarks/run.sh has built it when it calls this script).
if [[ -z ${EMEND_BENCH_SCRATCH:-} || ! -f $LIB/libemend.so ]]; then
    echo "== building libemend (swift build -c release --scratch-path ${SCRATCH#"$ROOT"/})"
    (cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" >"$WORK/build.log" 2>&1) ||
        { cat "$WORK/build.log" >&2; fail "the release build failed"; }
fi
[[ -f $LIB/libemend.so ]] || fail "$LIB/libemend.so not found"
ln -sf libemend.so "$LIB/libemend.so.0"

# The programs, and a providers directory of its own (0700; plugins 0755: discovery refuses
# anything other users could write) with the llama plugin and the timing wrapper around it.
mkdir -p "$BIN"
CURL_CJSON=$(pkg-config --cflags --libs libcurl libcjson)
cc -std=c11 -O2 -Wall -Wextra -Werror -I "$ROOT/include" "$ROOT/benchmarks/llama/engine.c" \
    -L "$LIB" -lemend -Wl,-rpath,"$LIB" -ldl -o "$BIN/engine"
# shellcheck disable=SC2086
cc -std=c11 -O2 -Wall -Wextra -Werror -I "$ROOT/include" -I "$ROOT/providers/common" -I "$ROOT/providers/sdk" \
    "$ROOT/benchmarks/llama/server.c" "$ROOT/providers/common/emend_prompts.c" "$ROOT/providers/sdk/plugin_message.c" \
    $CURL_CJSON -o "$BIN/server"
sh "$ROOT/providers/llama/build.sh" "$BIN" >/dev/null
PROVIDERS="$WORK/providers"
mkdir -m 0700 "$PROVIDERS"
cp "$BIN/llama.so" "$PROVIDERS/llama.so"
cc -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -I "$ROOT/include" "$ROOT/benchmarks/llama/timing.c" -ldl \
    -o "$PROVIDERS/timed-llama.so"
chmod 0755 "$PROVIDERS"/*.so
SCANNER=$(bash "$ROOT/scripts/build-scanner.sh" "$SCRATCH/bench-discovery")

mkdir -p "$WORK/config/emend"
for id in org.emend.llama org.emend.bench.timed-llama; do
    printf '[providers."%s"]\nmodel = "%s"\nthreads = %s\ncontext = 2048\nmax_tokens = %s\n\n' \
        "$id" "$EMEND_LLAMA_MODEL" "$THREADS_TOML" "$MAX_TOKENS"
done >"$WORK/config/emend/config.toml"
mkdir -p "$WORK/config-unsandboxed/emend"
sed 's/^\[providers\."org.emend.bench.timed-llama"\]$/&\nsandbox = "off"/' "$WORK/config/emend/config.toml" \
    >"$WORK/config-unsandboxed/emend/config.toml"
mkdir -p "$WORK/config-in-process/emend"
sed 's/^\[providers\."org.emend.bench.timed-llama"\]$/&\nisolation = "none"/' "$WORK/config/emend/config.toml" \
    >"$WORK/config-in-process/emend/config.toml"

# (a) and (c): the engine, with the timing wrapper (default streaming, then every sentence).
run_engine() {
    env EMEND_PROVIDER_PATH="$PROVIDERS" EMEND_SCANNER="$SCANNER" EMEND_BENCH_WRAP="$PROVIDERS/llama.so" \
        XDG_CONFIG_HOME="${CONFIG:-$WORK/config}" XDG_CACHE_HOME="$WORK/cache" XDG_DATA_HOME="$WORK/data" \
        "$BIN/engine" "$@" >"$WORK/engine.out" || { cat "$WORK/engine.out" >&2; fail "the engine failed"; }
    if [[ -n ${EMEND_BENCH_VERBOSE:-} ]]; then { echo "engine $*"; grep -v '^RESULT' "$WORK/engine.out"; } >&2; fi
    grep '^RESULT' "$WORK/engine.out"
}
value() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"; }

# (b): llama-server with the same model, one slot, on a free port, once it has loaded the model:
# one with -t <the plugin's thread limit> and, when that is more than one, one with -t 1 (the
# threads the plugin takes on a busy machine). Both start before the measurements and stay; an
# idle llama-server sleeps.
start_server() { # THREADS -> PORT, SERVER_PID (appended to SERVER_PIDS)
    PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$EMEND_LLAMA_SERVER" -m "$EMEND_LLAMA_MODEL" --host 127.0.0.1 --port "$PORT" -t "$1" -tb "$1" \
        -c 2048 -np 1 >"$WORK/server-$1.log" 2>&1 &
    SERVER_PID=$!
    SERVER_PIDS="$SERVER_PIDS $SERVER_PID"
    for _ in $(seq 1 600); do
        if python3 -c "import sys, urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/health', timeout=2)" \
            2>/dev/null; then
            return
        fi
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server-$1.log" >&2; fail "llama-server exited"; }
        sleep 0.1
    done
    fail "llama-server -t $1 did not become healthy in a minute"
}
run_server() { # PORT
    "$BIN/server" "$1" "$RUNS" "$MAX_TOKENS" "$TEXT" >"$WORK/server.out" || { cat "$WORK/server.out" >&2; fail "the client failed"; }
    if [[ -n ${EMEND_BENCH_VERBOSE:-} ]]; then { echo "server :$1"; grep -v '^RESULT' "$WORK/server.out"; } >&2; fi
    grep '^RESULT' "$WORK/server.out"
}

# The rows of a table: the kind of run, and how it is made.
KINDS="sandboxed unsandboxed inproc server"
SERVER_THREADS_1=
if [[ $SERVER_THREADS != 1 ]]; then
    KINDS="$KINDS server1"
    SERVER_THREADS_1=1
fi
KINDS=${EMEND_BENCH_KINDS:-$KINDS}
[[ " $KINDS " == *" sandboxed "* && " $KINDS " == *" server "* ]] || fail "EMEND_BENCH_KINDS needs sandboxed and server"
[[ " $KINDS " == *" server1 "* ]] || SERVER_THREADS_1=
measure_one() { # KIND -> its RESULT line
    case $1 in
    sandboxed) run_engine org.emend.bench.timed-llama "$RUNS" 0 "$TEXT" "$PROVIDERS/timed-llama.so" ;;
    unsandboxed) CONFIG="$WORK/config-unsandboxed" run_engine org.emend.bench.timed-llama "$RUNS" 0 "$TEXT" "$PROVIDERS/timed-llama.so" ;;
    inproc) CONFIG="$WORK/config-in-process" run_engine org.emend.bench.timed-llama "$RUNS" 0 "$TEXT" "$PROVIDERS/timed-llama.so" ;;
    server) run_server "$PORT_N" ;;
    server1) run_server "$PORT_1" ;;
    esac
}
# ROUNDS rounds of every kind (each RUNS runs after a warm-up), the order turned by one kind
# each round so that no kind always runs first or after the same one: a machine whose load
# changes from minute to minute changes every row alike. CONDITION names the files
# $WORK/CONDITION.KIND, one RESULT line per round; the plugin's thread lines go to
# $WORK/CONDITION.threads; the load averages before and after to $WORK/CONDITION.load.
measure() { # CONDITION
    local kinds round i kind n
    read -ra kinds <<<"$KINDS"
    n=${#kinds[@]}
    cut -d' ' -f1-3 /proc/loadavg >"$WORK/$1.load"
    for ((round = 0; round < ROUNDS; round++)); do
        for ((i = 0; i < n; i++)); do
            kind=${kinds[(i + round) % n]}
            measure_one "$kind" >>"$WORK/$1.$kind"
            if [[ $kind != server* ]]; then grep '^THREADS' "$WORK/engine.out" >>"$WORK/$1.threads" || true; fi
        done
    done
    cut -d' ' -f1-3 /proc/loadavg >>"$WORK/$1.load"
}
# The median over the rounds of KEY in CONDITION.KIND (each round's value is its runs' median).
med() { # CONDITION KIND KEY
    [[ -f $WORK/$1.$2 ]] || { echo "-"; return; }
    sed -n "s/.* $3=\([^ ]*\).*/\1/p" "$WORK/$1.$2" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# The lowest and highest of the rounds' rates, "low-high".
spread() { # CONDITION KIND
    sed -n "s/.* rate=\([^ ]*\).*/\1/p" "$WORK/$1.$2" | sort -g | awk 'NR == 1 { l = $1 } { h = $1 } END { if (NR) printf "%s-%s", l, h }'
}
# The median over the rounds of KIND's rate / OTHER's rate in the same round.
ratio() { # CONDITION KIND OTHER
    [[ -f $WORK/$1.$2 && -f $WORK/$1.$3 ]] || { echo "-"; return; }
    paste -d' ' <(sed -n 's/.* rate=\([^ ]*\).*/\1/p' "$WORK/$1.$2") <(sed -n 's/.* rate=\([^ ]*\).*/\1/p' "$WORK/$1.$3") |
        awk '$1 > 0 && $2 > 0 { print $1 / $2 }' | sort -g |
        awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) printf "%.2f\n", v[(NR + 1) / 2];
              else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
label() {
    case $1 in
    sandboxed) echo "(a) llama plugin, sandboxed host (default)" ;;
    unsandboxed) echo "    the same, host with sandbox = \"off\"" ;;
    inproc) echo "    the same in process (isolation = \"none\")" ;;
    server) echo "(b) llama-server -t $SERVER_THREADS" ;;
    server1) echo "    llama-server -t 1" ;;
    esac
}
table() { # CONDITION TITLE
    local load
    load=$(tr '\n' ' ' <"$WORK/$1.load" | awk '{ printf "load average %s (1, 5, 15 min) before, %s after", $1 " " $2 " " $3, $4 " " $5 " " $6 }')
    echo "   $2: $load"
    printf '   %-44s %11s %9s %13s %11s %6s %11s\n' "" "first token" "tokens/s" "rounds" "own figure" "tokens" "/ server"
    for kind in $KINDS; do
        local own
        own=$(med "$1" "$kind" plugin_rate)
        [[ $kind == server* ]] && own=$(med "$1" "$kind" server_rate)
        printf '   %-44s %8s ms %9s %13s %11s %6s %11s\n' "$(label "$kind")" "$(med "$1" "$kind" ttft_ms)" \
            "$(med "$1" "$kind" rate)" "$(spread "$1" "$kind")" "$own" "$(med "$1" "$kind" tokens)" "$(ratio "$1" "$kind" server)"
    done
    echo "   the plugin's threads: $(sed 's/^THREADS //; s/ (.*//' "$WORK/$1.threads" | sort | uniq -c | awk '{ printf "%s%s runs %s of %s", (NR > 1 ? ", " : ""), $1, $2, $4 }')"
    echo "   sandboxed / llama-server -t $SERVER_THREADS: $(ratio "$1" sandboxed server) (target: at least 0.95);" \
        "sandboxed / unsandboxed: $(ratio "$1" sandboxed unsandboxed); sandboxed / in process: $(ratio "$1" sandboxed inproc)"
    [[ -z $SERVER_THREADS_1 ]] || echo "   sandboxed / llama-server -t 1: $(ratio "$1" sandboxed server1)"
}

ROUNDS=${EMEND_BENCH_ROUNDS:-3}
start_server "$SERVER_THREADS"
PORT_N=$PORT
if [[ -n $SERVER_THREADS_1 ]]; then
    start_server 1
    PORT_1=$PORT
fi

measure quiet
if [[ ${EMEND_BENCH_LATENCY:-1} != 0 ]]; then
    EVERY=$(run_engine org.emend.bench.timed-llama "$RUNS" 1 "$TEXT" "$PROVIDERS/timed-llama.so")
    PLAIN=$(run_engine org.emend.llama "$RUNS" 0 "$TEXT")
fi
Q_EMEND=$(tail -n1 "$WORK/quiet.sandboxed")

echo "== llama: $(basename "$EMEND_LLAMA_MODEL"), threads $THREADS (llama-server -t $SERVER_THREADS${SERVER_THREADS_1:+ and -t 1}), context 2048,"
echo "   greedy, at most $MAX_TOKENS tokens; a friendly rewrite of benchmarks/llama/paragraph.txt; $(nproc) cores;"
echo "   $ROUNDS rounds of every row, interleaved (each round's figure: the median of $RUNS runs after a warm-up);"
echo "   tokens/s and first token: the median of the rounds; rounds: their lowest-highest tokens/s;"
echo "   / server: the median of the rounds' rate / llama-server -t $SERVER_THREADS's rate in the same round"
table quiet "no other load of ours"
# The sandbox the sandboxed host got on this machine (full, or partial naming the refused layers).
SANDBOX=$(XDG_CONFIG_HOME="$WORK/config" XDG_CACHE_HOME="$WORK/cache" XDG_DATA_HOME="$WORK/data" \
    EMEND_PROVIDER_PATH="$PROVIDERS" EMEND_SCANNER="$SCANNER" "$LIB/emend-cli" doctor 2>&1 | grep -m1 -i 'sandbox' || true)
echo "   sandbox on this machine: ${SANDBOX:-unknown (emend doctor printed no sandbox line)}"
[[ ${EMEND_BENCH_LATENCY:-1} == 0 ]] || echo "   (c) first token -> the engine's first replace callback: $(value "$Q_EMEND" token_to_replace_ms) ms" \
    "(stream_chunk_bytes 0: the default, every sentence once the next begins), $(value "$EVERY" token_to_replace_ms) ms (stream_chunk_bytes 1: the same rule)"
[[ ${EMEND_BENCH_LATENCY:-1} == 0 ]] || echo "       last token -> last replace: $(value "$Q_EMEND" last_token_to_replace_ms) ms;" \
    "start -> first replace: $(value "$Q_EMEND" start_to_replace_ms) ms, without the timing wrapper" \
    "$(value "$PLAIN" start_to_replace_ms) ms"

if [[ ${EMEND_BENCH_HOG:-1} != 0 ]]; then
    # In a session of its own, as another program would be: with the kernel's autogroup
    # scheduling (a CPU share per session) a hog in this script's session would take half of
    # the share of llama-server and of the in-process engine, not of the sandboxed host (whose
    # host calls setsid), and the rows would not be compared alike.
    setsid sh -c 'while :; do :; done' &
    HOG_PID=$!
    sleep 1
    measure hog
    kill "$HOG_PID" 2>/dev/null || true
    wait "$HOG_PID" 2>/dev/null || true
    HOG_PID=
    table hog "beside one CPU hog (setsid sh -c 'while :; do :; done')"
    slow() { awk -v q="$(med quiet "$1" rate)" -v h="$(med hog "$1" rate)" 'BEGIN { if (q > 0 && h > 0) printf "%.2fx", q / h; else printf "-" }'; }
    echo "   slowdown beside the hog (quiet / hog, medians): sandboxed $(slow sandboxed), unsandboxed $(slow unsandboxed)," \
        "in process $(slow inproc), llama-server -t $SERVER_THREADS $(slow server)${SERVER_THREADS_1:+, llama-server -t 1 $(slow server1)} (target: at most 2x)"
fi
