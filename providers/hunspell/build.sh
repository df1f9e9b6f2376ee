#!/bin/sh
# Builds the Hunspell provider plugin: providers/hunspell/build.sh OUT_DIR -> OUT_DIR/hunspell.so
# Needs libhunspell-dev (pkg-config hunspell); a dictionary such as hunspell-en-us at run time.
set -eu
if [ $# -ne 1 ]; then
    echo "usage: $0 OUT_DIR" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if ! hunspell_flags=$(pkg-config --cflags --libs hunspell 2>/dev/null); then
    echo "error: pkg-config cannot find hunspell (on Debian: apt-get install libhunspell-dev)" >&2
    exit 2
fi
mkdir -p "$1"
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -pthread -fvisibility=hidden -I"$repo/include" \
    -o "$1/hunspell.so" "$here/hunspell.c" $hunspell_flags
