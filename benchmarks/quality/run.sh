#!/usr/bin/env bash
# Proofreading quality on the project's own development set (this directory): errors caught,
# false alarms, first suggestion right, technical sentences flagged, for each checker alone
# (as it answers, and through Emend's filter) and for Emend's combination; then per checker and
# rule, where its flags land. Builds Hunspell, Harper and LingoTweaker (setup.sh for the Python
# ones, into .deps/ as usual) into a providers directory of its own, so the user's installed
# providers and dictionary play no part. Checkers that cannot be set up here are left out
# (with a line saying why).
#
# Usage: bash benchmarks/quality/run.sh     (scratch path: .build, or EMEND_QUALITY_SCRATCH;
#        EMEND_QUALITY_BENCHMARKS=path/to/EmendBenchmarks to use one already built;
#        EMEND_QUALITY_CHECKERS="hunspell harper" for a subset, e.g. an install without LingoTweaker;
#        EMEND_QUALITY_SET=DIR for another labelled set of the same three files (and precision.tsv);
#        EMEND_QUALITY_LOAD=0 to skip the second run beside two CPU hogs and its diff;
#        EMEND_QUALITY_PRECISION_OUT=FILE to write the per-rule counts as RulePrecisionEstimates.swift)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
scratch="${EMEND_QUALITY_SCRATCH:-$root/.build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
providers="$work/providers"
mkdir -m 0700 "$providers"

checkers="${EMEND_QUALITY_CHECKERS:-hunspell harper lingotweaker}"
for checker in $checkers; do
    if [ -f "providers/$checker/setup.sh" ] && ! bash "providers/$checker/setup.sh" >/dev/null; then
        echo "quality: $checker left out (providers/$checker/setup.sh failed)" >&2
        continue
    fi
    bash "providers/$checker/build.sh" "$providers" >/dev/null
done
chmod 0755 "$providers"/*.so
scanner="$(bash scripts/build-scanner.sh "$work/scanner")"

bench="${EMEND_QUALITY_BENCHMARKS:-}"
if [ -z "$bench" ]; then
    swift build --product EmendBenchmarks --scratch-path "$scratch" >&2
    # The plugins run in emend-provider-host, found next to the benchmark: without it every
    # checker fails and every figure reads 0%.
    swift build --product emend-provider-host --scratch-path "$scratch" >&2
    bench="$scratch/debug/EmendBenchmarks"
fi
# No user configuration or dictionary: the figures are the defaults'. Each run has its own
# cache directory, so the second does not read the suggestions the first kept on disk.
quality() {
    XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache-$1" \
        "$bench" --quality "${EMEND_QUALITY_SET:-$root/benchmarks/quality}" --providers "$providers" --scanner "$scanner"
}
if [ "${EMEND_QUALITY_LOAD:-1}" = 0 ]; then
    quality quiet
    exit 0
fi
# The same command beside two CPU hogs, and the diff of the two outputs: it must be empty
# (no checker, filter or combination may let the machine's speed decide what is reported).
quality quiet | tee "$work/quiet.txt"
hogs=()
trap 'for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"' EXIT
for _ in 1 2; do
    sh -c 'while :; do :; done' &
    hogs+=("$!")
done
EMEND_QUALITY_PRECISION_OUT= quality loaded >"$work/loaded.txt"
for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
hogs=()
echo ""
echo "the same command beside two CPU hogs, diff -u quiet loaded (must be empty):"
if diff -u "$work/quiet.txt" "$work/loaded.txt"; then
    echo "(empty: identical)"
else
    echo "quality: the outputs differ under load" >&2
    exit 1
fi
