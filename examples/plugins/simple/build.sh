#!/bin/sh
# Builds the simple-form example into OUT_DIR, ready for EMEND_PROVIDER_PATH=OUT_DIR:
#   OUT_DIR/simple-shout/libshout.so   the plain C library
#   OUT_DIR/shout.toml                 the plain form (returns a string)
#   OUT_DIR/shout-stream.toml          the streaming form (emits chunks)
# The library sits in a subdirectory because discovery treats every *.so directly in a
# provider directory as a full plugin (one exporting emend_provider_entry).
# Usage: sh examples/plugins/simple/build.sh OUT_DIR      (CC overrides the compiler)
set -eu
OUT=${1:?usage: build.sh OUT_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/simple-shout"
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC "$HERE/shout.c" -o "$OUT/simple-shout/libshout.so"
cp "$HERE/shout.toml" "$HERE/shout-stream.toml" "$OUT/"
echo "built $OUT/simple-shout/libshout.so, $OUT/shout.toml, $OUT/shout-stream.toml"
