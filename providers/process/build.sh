#!/bin/sh
# Builds the process provider: providers/process/build.sh OUT_DIR -> OUT_DIR/process.so
# (id org.emend.process; the checker's command comes from config.toml, see process.c).
set -eu
if [ $# -ne 1 ]; then
    echo "usage: $0 OUT_DIR" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
mkdir -p "$1"
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -pthread -I"$repo/include" \
    -o "$1/process.so" "$here/process.c" "$here/json.c"
