#!/usr/bin/env bash
# build-sanitized.sh — build libemend.so with AddressSanitizer (and UndefinedBehaviorSanitizer
# for its C code) and print the directory that holds it.
#
#   lib_dir="$(bash scripts/build-sanitized.sh)"
#
# A debug build (`swift build -c debug --product emend --sanitize address -Xcc
# -fsanitize=undefined`, plus coverage flags below) in .build-asan/ (gitignored). Swift 6.3 on Linux has no
# -sanitize=undefined for Swift code (swiftc: "unsupported option '-sanitize=undefined' for
# target 'x86_64-unknown-linux-gnu'"), so UBSan covers the C targets (CEmend, CEmendSystem)
# and the C programs linked against the library; the Swift code keeps its own debug-build
# checks (overflow, bounds, force unwraps trap). The library is not linked against the
# sanitizer runtimes: the executable that loads it (clang -fsanitize=...) provides them.
# Build output goes to stderr. Quick when already built.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="$root/.build-asan"
# SanitizerCoverage too, so that libFuzzer sees which paths of the library an input reached
# (without it only the harness is instrumented and the fuzzer runs blind).
args=(--package-path "$root" --scratch-path "$scratch" -c debug --sanitize address -Xcc -fsanitize=undefined
      -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp
      -Xcc -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp)
if ! swift build "${args[@]}" --product emend >&2; then
    echo "build-sanitized: swift build failed" >&2
    exit 1
fi
bin="$(swift build "${args[@]}" --show-bin-path)"
if [ ! -f "$bin/libemend.so" ]; then
    echo "build-sanitized: expected $bin/libemend.so after the build" >&2
    exit 1
fi
symbols="$(nm -D "$bin/libemend.so")"
grep -q ' U __asan_' <<<"$symbols" || { echo "build-sanitized: $bin/libemend.so is not instrumented" >&2; exit 1; }
ln -sf libemend.so "$bin/libemend.so.0"
echo "$bin"
