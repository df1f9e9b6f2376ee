# sanitizer-env.sh — sourced by fuzz.sh and sanitize-examples.sh: the compiler, flags and
# environment for C programs run against the sanitized libemend.so.
# shellcheck shell=bash
swift_bin="$(dirname "$(readlink -f "$(command -v swift)")")"
# The toolchain's clang: its compiler-rt has the fuzzer, ASan and UBSan runtimes.
SAN_CC="$swift_bin/clang"
# lld: gold warns about every ASan symbol it cannot export.
SAN_CFLAGS=(-std=c11 -Wall -Wextra -Werror -g -O1 -fno-omit-frame-pointer -fuse-ld=lld)
export ASAN_SYMBOLIZER_PATH="$swift_bin/llvm-symbolizer"
# The Swift runtime's own crash backtracer reads other threads' memory and trips ASan;
# ASan/libFuzzer print the stack of a trap (SIGILL) themselves.
export SWIFT_BACKTRACE=enable=no
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
unset EMEND_LOG
