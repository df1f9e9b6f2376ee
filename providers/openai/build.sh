#!/bin/sh
# Builds the OpenAI-compatible provider plugin: providers/openai/build.sh OUT_DIR -> OUT_DIR/openai.so
# Needs libcurl and cJSON (on Debian: apt-get install libcurl4-openssl-dev libcjson-dev).
set -eu
. "$(dirname "$0")/../sdk/plugin-flags.sh"
plugin_begin "$@"
if ! flags=$(pkg-config --cflags --libs libcurl libcjson 2>/dev/null); then
    echo "error: pkg-config cannot find libcurl and libcjson (on Debian: apt-get install libcurl4-openssl-dev libcjson-dev)" >&2
    exit 2
fi
common="$repo/providers/common"
# shellcheck disable=SC2086
plugin_shared openai.so \
    "$here/openai.c" "$here/settings.c" "$here/request.c" "$here/stream.c" "$here/output.c" \
    "$common/emend_prompts.c" "$common/emend_edits.c" "$common/emend_grammars.c" \
    $flags
