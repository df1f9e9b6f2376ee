#!/usr/bin/env bash
# Same result on a busy machine: runs `emend proofread --json FILE` with the shipped checkers
# on a quiet machine and again beside two CPU hogs (`sh -c 'while :; do :; done'`, killed at
# the end), and diffs the two outputs. The diff must be empty: no checker may let a time
# budget decide what it reports (issue 24: the same 100 KB file gave 53 suggestions quiet and
# 41 under load; Hunspell alone 0, 12 or 18).
#
# Usage: bash benchmarks/quality/load.sh [FILE]     (default benchmarks/quality/technical.txt;
#        EMEND_QUALITY_CHECKERS="hunspell harper lingotweaker" to choose the checkers, default
#        hunspell; EMEND_CLI=path/to/emend-cli to use one already built, else .build/debug)
# Exit status 0 when the outputs are identical, 1 when they differ (the diff is printed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
file="${1:-$root/benchmarks/quality/technical.txt}"
work="$(mktemp -d)"
hogs=()
cleanup() {
    for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -m 0700 "$work/providers" "$work/home"
for checker in ${EMEND_QUALITY_CHECKERS:-hunspell}; do
    if [ -f "$root/providers/$checker/setup.sh" ] && ! bash "$root/providers/$checker/setup.sh" >/dev/null; then
        echo "load: $checker left out (providers/$checker/setup.sh failed)" >&2
        continue
    fi
    bash "$root/providers/$checker/build.sh" "$work/providers" >/dev/null
done
chmod 0755 "$work/providers" "$work/providers"/*.so
scanner="$(bash "$root/scripts/build-scanner.sh" "$work")"
cli="${EMEND_CLI:-}"
if [ -z "$cli" ]; then
    (cd "$root" && swift build --product emend-cli >&2 && swift build --product emend-provider-host >&2)
    cli="$root/.build/debug/emend-cli"
fi

run() {
    # A private HOME and XDG directories: the user's providers, dictionary and caches play no part.
    env -i PATH="$PATH" LANG=C.UTF-8 HOME="$work/home" XDG_CONFIG_HOME="$work/home/config" \
        XDG_DATA_HOME="$work/home/data" XDG_CACHE_HOME="$work/home/cache-$1" XDG_STATE_HOME="$work/home/state" \
        EMEND_PROVIDER_PATH="$work/providers" EMEND_SCANNER="$scanner" \
        "$cli" proofread --json "$file" >"$work/$1.json" 2>"$work/$1.err" || true
}

run quiet
for _ in 1 2; do
    sh -c 'while :; do :; done' &
    hogs+=("$!")
done
run loaded
for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
hogs=()

quiet=$(grep -c '"replacements"' "$work/quiet.json" || true)
loaded=$(grep -c '"replacements"' "$work/loaded.json" || true)
echo "load: $file: $quiet suggestions quiet, $loaded beside two CPU hogs"
if diff -u "$work/quiet.json" "$work/loaded.json"; then
    echo "load: identical"
else
    echo "load: the outputs differ" >&2
    exit 1
fi
