#!/usr/bin/env bash
# The llama provider plugin through Emend beside llama-server's own streaming API, on the same
# model, prompt, thread count and token limit (see "llama" in benchmarks/README.md):
#   (a) engine.c, an engine on libemend: a friendly rewrite of paragraph.txt by the llama plugin
#       (found by discovery through EMEND_PROVIDER_PATH), through the pass-through timing.c, in its
#       sandboxed provider host (the default), in a host with sandbox = "off", and in process
#       (isolation = "none"); the sandbox level this machine gives (emend doctor) is printed;
#   (b) server.c, a libcurl client of llama-server's /v1/chat/completions (stream, greedy);
#   (c) from (a): the time from the plugin's first token to the engine's first replace callback;
#   (a) and (b) again beside one CPU hog (a shell busy loop that keeps one core busy): a model
#       whose threads spin at a barrier for a thread that cannot run slows down many times.
# Needs scripts/setup-llama.sh to have run (.deps/llama.env: llama.cpp, llama-server, the model)
# and libcurl/cJSON (libcurl4-openssl-dev, libcjson-dev).
# Usage: bash benchmarks/llama/run.sh [runs, default 5]
#   EMEND_BENCH_THREADS (default auto: the plugin takes the free cores at each run, llama-server
#   gets -t <cores>; or a number for both), EMEND_BENCH_HOG=0 (no run beside the hog), EMEND_BENCH_MAX_TOKENS (default 128), EMEND_BENCH_VERBOSE=1
#   (every run's figures on stderr); scratch path
#   .build-bench (EMEND_BENCH_SCRATCH; libemend is built there in release mode unless
#   benchmarks/run.sh already did), programs in <scratch>/bench-llama.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCRATCH=${EMEND_BENCH_SCRATCH:-$ROOT/.build-bench}
RUNS=${1:-5}
THREADS=${EMEND_BENCH_THREADS:-auto}
if [[ $THREADS == auto ]]; then
    THREADS_TOML='"auto"'
    SERVER_THREADS=$(nproc)
else
    THREADS_TOML=$THREADS
    SERVER_THREADS=$THREADS
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
SERVER_PID=
HOG_PID=
cleanup() {
    if [[ -n $HOG_PID ]]; then
        kill "$HOG_PID" 2>/dev/null || true
        wait "$HOG_PID" 2>/dev/null || true
    fi
    if [[ -n $SERVER_PID ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
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

# (b): llama-server with the same model and threads, one slot, on a free port (started after the
# engine's runs, so that nothing else runs meanwhile), once it has loaded the model.
start_server() {
    PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$EMEND_LLAMA_SERVER" -m "$EMEND_LLAMA_MODEL" --host 127.0.0.1 --port "$PORT" -t "$SERVER_THREADS" -tb "$SERVER_THREADS" \
        -c 2048 -np 1 >"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 600); do
        if python3 -c "import sys, urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/health', timeout=2)" \
            2>/dev/null; then
            break
        fi
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; fail "llama-server exited"; }
        sleep 0.1
    done
}
stop_server() {
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
}
run_server() {
    "$BIN/server" "$PORT" "$RUNS" "$MAX_TOKENS" "$TEXT" >"$WORK/server.out" || { cat "$WORK/server.out" >&2; fail "the client failed"; }
    if [[ -n ${EMEND_BENCH_VERBOSE:-} ]]; then { echo "server"; grep -v '^RESULT' "$WORK/server.out"; } >&2; fi
    grep '^RESULT' "$WORK/server.out"
}

# One round: (a) in a sandboxed host, an unsandboxed host and in process, (b) llama-server;
# the rates in EMEND, UNSANDBOXED, INPROC, SERVER.
round() {
    EMEND=$(run_engine org.emend.bench.timed-llama "$RUNS" 0 "$TEXT" "$PROVIDERS/timed-llama.so")
    UNSANDBOXED=$(CONFIG="$WORK/config-unsandboxed" run_engine org.emend.bench.timed-llama "$RUNS" 0 "$TEXT" "$PROVIDERS/timed-llama.so")
    INPROC=$(CONFIG="$WORK/config-in-process" run_engine org.emend.bench.timed-llama "$RUNS" 0 "$TEXT" "$PROVIDERS/timed-llama.so")
    start_server
    SERVER=$(run_server)
    stop_server
}
table() {
    printf '   %-44s %12s %10s %14s %7s\n' "$1" "first token" "tokens/s" "(own figure)" "tokens"
    printf '   %-44s %9s ms %10s %14s %7s\n' "(a) llama plugin through Emend, sandboxed host" "$(value "$EMEND" ttft_ms)" \
        "$(value "$EMEND" rate)" "$(value "$EMEND" plugin_rate)" "$(value "$EMEND" tokens)"
    printf '   %-44s %9s ms %10s %14s %7s\n' "    the same, host with sandbox = \"off\"" "$(value "$UNSANDBOXED" ttft_ms)" \
        "$(value "$UNSANDBOXED" rate)" "$(value "$UNSANDBOXED" plugin_rate)" "$(value "$UNSANDBOXED" tokens)"
    printf '   %-44s %9s ms %10s %14s %7s\n' "    the same in process (isolation = \"none\")" "$(value "$INPROC" ttft_ms)" \
        "$(value "$INPROC" rate)" "$(value "$INPROC" plugin_rate)" "$(value "$INPROC" tokens)"
    printf '   %-44s %9s ms %10s %14s %7s\n' "(b) llama-server /v1/chat/completions" "$(value "$SERVER" ttft_ms)" \
        "$(value "$SERVER" rate)" "$(value "$SERVER" server_rate)" "$(value "$SERVER" tokens)"
    awk -v a="$(value "$EMEND" rate)" -v b="$(value "$SERVER" rate)" -v c="$(value "$INPROC" rate)" \
        -v u="$(value "$UNSANDBOXED" rate)" \
        'BEGIN { if (b > 0 && c > 0 && u > 0) printf "   sandboxed / llama-server: %.3f (target: at least 0.95); sandboxed / unsandboxed host: %.3f; sandboxed / in process: %.3f\n", a / b, a / u, a / c }'
}

LOAD_QUIET=$(cut -d' ' -f1 /proc/loadavg)
round
Q_EMEND=$EMEND Q_INPROC=$INPROC Q_SERVER=$SERVER
EVERY=$(run_engine org.emend.bench.timed-llama "$RUNS" 1 "$TEXT" "$PROVIDERS/timed-llama.so")
PLAIN=$(run_engine org.emend.llama "$RUNS" 0 "$TEXT")

echo "== llama: $(basename "$EMEND_LLAMA_MODEL"), threads $THREADS (llama-server -t $SERVER_THREADS), context 2048, greedy,"
echo "   at most $MAX_TOKENS tokens; a friendly rewrite of benchmarks/llama/paragraph.txt; medians of $RUNS runs after a warm-up;"
echo "   $(nproc) cores"
table "no other load of ours (load average $LOAD_QUIET)"
# The sandbox the sandboxed host got on this machine (full, or partial naming the refused layers).
SANDBOX=$(XDG_CONFIG_HOME="$WORK/config" XDG_CACHE_HOME="$WORK/cache" XDG_DATA_HOME="$WORK/data" \
    EMEND_PROVIDER_PATH="$PROVIDERS" EMEND_SCANNER="$SCANNER" "$LIB/emend-cli" doctor 2>&1 | grep -m1 -i 'sandbox' || true)
echo "   sandbox on this machine: ${SANDBOX:-unknown (emend doctor printed no sandbox line)}"
echo "   (c) first token -> the engine's first replace callback: $(value "$EMEND" token_to_replace_ms) ms" \
    "(stream_chunk_bytes 0: the default, every sentence once the next begins), $(value "$EVERY" token_to_replace_ms) ms (stream_chunk_bytes 1: the same rule)"
echo "       last token -> last replace: $(value "$EMEND" last_token_to_replace_ms) ms;" \
    "start -> first replace: $(value "$EMEND" start_to_replace_ms) ms, without the timing wrapper" \
    "$(value "$PLAIN" start_to_replace_ms) ms"

if [[ ${EMEND_BENCH_HOG:-1} != 0 ]]; then
    sh -c 'while :; do :; done' &
    HOG_PID=$!
    sleep 1
    round
    kill "$HOG_PID" 2>/dev/null || true
    wait "$HOG_PID" 2>/dev/null || true
    HOG_PID=
    table "beside one CPU hog (sh -c 'while :; do :; done')"
    awk -v q="$(value "$Q_EMEND" rate)" -v h="$(value "$EMEND" rate)" -v qi="$(value "$Q_INPROC" rate)" \
        -v hi="$(value "$INPROC" rate)" -v qs="$(value "$Q_SERVER" rate)" -v hs="$(value "$SERVER" rate)" \
        'BEGIN { if (h > 0 && hi > 0 && hs > 0) printf "   slowdown beside the hog (quiet / hog): isolated %.2fx, in process %.2fx, llama-server %.2fx (target: at most 2x)\n", q / h, qi / hi, qs / hs }'
fi
