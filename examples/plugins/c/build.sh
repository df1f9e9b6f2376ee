#!/bin/sh
# Builds the C example plugin: examples/plugins/c/build.sh OUT_DIR -> OUT_DIR/example-c.so
set -eu
if [ $# -ne 1 ]; then
    echo "usage: $0 OUT_DIR" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
mkdir -p "$1"
${CC:-cc} -std=c11 -Wall -Wextra -Werror -shared -fPIC -pthread -I"$repo/include" \
    -o "$1/example-c.so" "$here/speller.c"
