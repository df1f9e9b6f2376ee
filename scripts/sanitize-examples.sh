#!/usr/bin/env bash
# sanitize-examples.sh — run the C example engines against libemend.so built with ASan/UBSan.
#
#   bash scripts/sanitize-examples.sh
#
# Builds the library with scripts/build-sanitized.sh (.build-asan/), compiles
# examples/c/engine.c, examples/c/tables.c, examples/c/markdown.c and examples/c/review.c with `clang -fsanitize=address,undefined` and
# runs them with LeakSanitizer on (ASAN_OPTIONS=detect_leaks=1; fuzz/lsan.supp holds the
# suppressions, each with its reason). The examples use only the built-in fixture provider;
# discovery is pointed at an empty directory with private XDG directories. Exits nonzero on
# a sanitizer report or a failed check.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/sanitizer-env.sh
. "$root/scripts/sanitizer-env.sh"

lib_dir="$(bash "$root/scripts/build-sanitized.sh")"
out="$root/.build-asan/examples"
rm -rf "$out/xdg"
mkdir -p "$out/xdg/providers" "$out/xdg/cache" "$out/xdg/config" "$out/xdg/data"
export EMEND_PROVIDER_PATH="$out/xdg/providers" XDG_CACHE_HOME="$out/xdg/cache" \
       XDG_CONFIG_HOME="$out/xdg/config" XDG_DATA_HOME="$out/xdg/data"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$root/fuzz/lsan.supp:print_suppressions=1${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

for example in engine tables markdown review; do
    echo "== $example.c under ASan/UBSan/LSan"
    "$SAN_CC" "${SAN_CFLAGS[@]}" -fsanitize=address,undefined -fno-sanitize-recover=undefined -I "$root/include" \
        "$root/examples/c/$example.c" -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/$example"
    "$out/$example"
done
echo "sanitize-examples: engine, tables, markdown and review ran clean under ASan, UBSan and LeakSanitizer"
