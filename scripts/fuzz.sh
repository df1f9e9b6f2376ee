#!/usr/bin/env bash
# fuzz.sh — fuzz the C ABI (include/emend.h) with libFuzzer, ASan and UBSan.
#
#   bash scripts/fuzz.sh [SECONDS]     run fuzz/abi_fuzzer.c for SECONDS (default 60)
#   bash scripts/fuzz.sh --replay      run every input in fuzz/crashes-found/open/ once and
#                                      say which still crash (exit 1 if any does)
#
# Builds libemend.so with ASan (scripts/build-sanitized.sh, in .build-asan/) and the harness
# with `clang -fsanitize=fuzzer,address,undefined`, then fuzzes with the committed seeds
# (fuzz/corpus/ and the fixed crashes in fuzz/crashes-found/fixed/) plus a working corpus
# that grows from run to run (.build-fuzz/corpus/, gitignored). A crash or an oracle
# violation (the harness abort()s) stops the run with its input saved as
# .build-fuzz/artifacts/crash-*; the script then exits nonzero.
#
# Environment:
#   EMEND_FUZZ_SEED=N      libFuzzer's -seed (default: random). With EMEND_FUZZ_FRESH=1 the
#   EMEND_FUZZ_FRESH=1     run starts from the committed seeds only (a temporary corpus), so
#                          a fixed seed gives the same inputs every time (CI does this).
#   EMEND_FUZZ_WORK=DIR    where the corpus and artifacts go (default .build-fuzz/)
#   EMEND_FUZZ_ARGS="..."  more libFuzzer flags
#   EMEND_FUZZ_ALLOW_OPEN  tags of known open oracle violations the harness does not abort on
#                          (default: fuzz/open-tags; set it empty to abort on every one). Replay
#                          never allows them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/sanitizer-env.sh
. "$root/scripts/sanitizer-env.sh"

mode=run
seconds=60
case "${1:-}" in
    --replay) mode=replay ;;
    "") ;;
    *[!0-9]*) echo "usage: $0 [SECONDS] | --replay" >&2; exit 2 ;;
    *) seconds="$1" ;;
esac

work="${EMEND_FUZZ_WORK:-$root/.build-fuzz}"
mkdir -p "$work/artifacts" "$work/corpus"

start=$(date +%s)
lib_dir="$(bash "$root/scripts/build-sanitized.sh")"
fuzzer="$work/abi_fuzzer"
"$SAN_CC" "${SAN_CFLAGS[@]}" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I "$root/include" "$root/fuzz/abi_fuzzer.c" -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -pthread -lm \
    -o "$fuzzer"
echo "fuzz: library and harness built in $(( $(date +%s) - start )) s" >&2

# LeakSanitizer runs after each input; fuzz/lsan.supp lists leaks that are not Emend's.
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$root/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

if [ "$mode" = replay ]; then
    export EMEND_FUZZ_ALLOW_OPEN=""
    status=0
    shopt -s nullglob
    for input in "$root"/fuzz/crashes-found/open/*; do
        case "$input" in *.md|*.txt) continue ;; esac
        if "$fuzzer" -runs=1 "$input" >"$work/replay.log" 2>&1; then
            echo "passes:  ${input#"$root"/} (no failure this run; timing-dependent ones fail only some runs)"
        else
            echo "crashes: ${input#"$root"/}"
            grep -m3 -E "ERROR|VIOLATION|Fatal error|deadly signal" "$work/replay.log" | sed 's/^/         /' || true
            status=1
        fi
    done
    exit $status
fi

export EMEND_FUZZ_ALLOW_OPEN="${EMEND_FUZZ_ALLOW_OPEN-$(tr -d ' \n' <"$root/fuzz/open-tags")}"
[ -n "$EMEND_FUZZ_ALLOW_OPEN" ] && echo "fuzz: known open violations not aborted on: $EMEND_FUZZ_ALLOW_OPEN" >&2
corpus="$work/corpus"
if [ "${EMEND_FUZZ_FRESH:-0}" = 1 ]; then
    corpus="$(mktemp -d "$work/fresh.XXXXXX")"
    trap 'rm -rf "$corpus"' EXIT
fi
seed_args=()
[ -n "${EMEND_FUZZ_SEED:-}" ] && seed_args=(-seed="$EMEND_FUZZ_SEED")
seeds=("$root/fuzz/corpus")
[ -d "$root/fuzz/crashes-found/fixed" ] && seeds+=("$root/fuzz/crashes-found/fixed")

echo "fuzz: running $fuzzer for $seconds s (corpus $corpus, artifacts $work/artifacts/)" >&2
# -timeout: one input may take at most 30 s (the harness waits up to 3 s for a stop);
# -max_len: an input is a program of at most ~160 calls.
set +e
# shellcheck disable=SC2086
"$fuzzer" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "${seed_args[@]}" ${EMEND_FUZZ_ARGS:-} "$corpus" "${seeds[@]}" \
    2>&1 | tee "$work/last-run.log" | grep -v -E '^#[0-9]+.*(NEW|REDUCE|pulse)' >&2
status=${PIPESTATUS[0]}
set -e
echo "fuzz: finished in $(( $(date +%s) - start )) s with status $status" >&2
if [ "$status" -ne 0 ]; then
    echo "fuzz: crash or oracle violation; the input is in $work/artifacts/ (log: $work/last-run.log)" >&2
fi
exit "$status"
