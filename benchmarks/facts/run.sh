#!/usr/bin/env bash
# The fact guard and the prompt styles over 50 notes the project wrote (meetings, prices,
# dates, refusals), with the llama provider and the default small model: how many results
# were applied, how many the guard caught and why, and how many applied results still
# changed a fact by the human-written list in notes.jsonl (see check.py).
# Usage: bash benchmarks/facts/run.sh [STYLES]   STYLES: comma separated, default
#   plain,keep-facts,example (the llama provider's prompt_style setting).
#   EMEND_FACTS_NOTES=N runs the first N notes; EMEND_FACTS_TOOLS=friendly,concise,key-points
#   (also: summary); EMEND_BENCH_THREADS (default 2); EMEND=path uses that emend instead of a
#   release build; EMEND_FACTS_TIMEOUT seconds per result (default 300); results per run in
#   <scratch>/facts.jsonl.
# Needs scripts/setup-llama.sh to have run (.deps/llama.env).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCRATCH=${EMEND_BENCH_SCRATCH:-$ROOT/.build-bench}
STYLES=${1:-plain,keep-facts,example}
THREADS=${EMEND_BENCH_THREADS:-2}
ENV_FILE="$ROOT/.deps/llama.env"
[[ -f $ENV_FILE ]] || { echo "benchmarks/facts: run bash scripts/setup-llama.sh first" >&2; exit 1; }
# shellcheck disable=SC1090
. "$ENV_FILE"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if [[ -z ${EMEND:-} ]]; then
    echo "== building emend (swift build -c release --product emend-cli --scratch-path ${SCRATCH#"$ROOT"/})"
    (cd "$ROOT" && swift build -c release --product emend-cli --scratch-path "$SCRATCH" >"$WORK/build.log" 2>&1) ||
        { cat "$WORK/build.log" >&2; exit 1; }
    EMEND="$SCRATCH/release/emend-cli"
fi
SCANNER=$(bash "$ROOT/scripts/build-scanner.sh" "$SCRATCH/bench-facts")
mkdir -m 0700 "$WORK/providers"
sh "$ROOT/providers/llama/build.sh" "$WORK/providers" >/dev/null
chmod 0755 "$WORK/providers/llama.so"

configs=()
IFS=, read -ra styles <<<"$STYLES"
for style in "${styles[@]}"; do
    mkdir -p "$WORK/$style/emend"
    printf '[providers."org.emend.llama"]\nmodel = "%s"\nthreads = %s\nprompt_style = "%s"\n' \
        "$EMEND_LLAMA_MODEL" "$THREADS" "$style" >"$WORK/$style/emend/config.toml"
    configs+=("$WORK/$style")
done
joined=$(IFS=,; echo "${configs[*]}")
echo "== $(basename "$EMEND_LLAMA_MODEL"), $THREADS threads; one line per result on stderr"
EMEND_SCANNER="$SCANNER" EMEND_PROVIDER_PATH="$WORK/providers" XDG_CACHE_HOME="$WORK/cache" XDG_DATA_HOME="$WORK/data" \
    python3 "$ROOT/benchmarks/facts/check.py" "$EMEND" "$joined" \
    --tools "${EMEND_FACTS_TOOLS:-friendly,concise,key-points}" --notes "${EMEND_FACTS_NOTES:-50}" \
    --out "$SCRATCH/facts.jsonl"
