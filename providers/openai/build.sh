#!/bin/sh
# Builds the OpenAI-compatible provider plugin: providers/openai/build.sh OUT_DIR -> OUT_DIR/openai.so
# Needs libcurl and cJSON (on Debian: apt-get install libcurl4-openssl-dev libcjson-dev).
set -eu
if [ $# -ne 1 ]; then
    echo "usage: $0 OUT_DIR" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
if ! flags=$(pkg-config --cflags --libs libcurl libcjson 2>/dev/null); then
    echo "error: pkg-config cannot find libcurl and libcjson (on Debian: apt-get install libcurl4-openssl-dev libcjson-dev)" >&2
    exit 2
fi
mkdir -p "$1"
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -pthread -fvisibility=hidden -I"$repo/include" \
    -o "$1/openai.so" \
    "$here/openai.c" "$here/settings.c" "$here/request.c" "$here/stream.c" "$here/output.c" \
    "$repo/providers/common/emend_prompts.c" "$repo/providers/common/emend_edits.c" \
    "$repo/providers/common/emend_grammars.c" \
    $flags
