#!/bin/sh
# Builds the llama provider plugin: providers/llama/build.sh OUT_DIR -> OUT_DIR/llama.so
# Links llama.cpp statically from the prefix scripts/setup-llama.sh makes (read from
# <repo>/.deps/llama.env; the script runs first when that file is missing), with its symbols
# hidden: the plugin exports only emend_provider_entry and needs only libc, libm, libstdc++,
# libgcc_s and libcjson (Debian libcjson-dev).
set -eu
. "$(dirname "$0")/../sdk/plugin-flags.sh"
plugin_begin "$@"
env_file="$repo/.deps/llama.env"
if [ -z "${EMEND_LLAMA_PREFIX:-}" ]; then
    if [ ! -f "$env_file" ]; then
        echo "llama build: $env_file is missing; running scripts/setup-llama.sh" >&2
        bash "$repo/scripts/setup-llama.sh" >&2
    fi
    # shellcheck disable=SC1090
    . "$env_file"
fi
prefix=$EMEND_LLAMA_PREFIX
for lib in libllama.a libggml.a libggml-cpu.a libggml-base.a; do
    if [ ! -f "$prefix/lib/$lib" ]; then
        echo "error: $prefix/lib/$lib is missing (run bash scripts/setup-llama.sh)" >&2
        exit 2
    fi
done
if [ ! -f /usr/include/cjson/cJSON.h ] && ! pkg-config --exists libcjson 2>/dev/null; then
    echo "error: cJSON is missing (on Debian: apt-get install libcjson-dev)" >&2
    exit 2
fi
common="$repo/providers/common"
# The objects are C; llama.cpp's static libraries are C++, so the C++ driver links.
objects=$(mktemp -d)
trap 'rm -rf "$objects"' EXIT
for source in "$here/llama.c" "$here/model.c" "$here/output.c" "$here/pieces.c" "$here/threads.c" \
              "$common/emend_prompts.c" "$common/emend_edits.c" "$common/emend_grammars.c" "$sdk"/*.c; do
    plugin_cc -I"$prefix/include" -c "$source" -o "$objects/$(basename "$source" .c).o"
done
${CXX:-c++} -shared -fPIC -pthread -o "$out/llama.so.tmp" "$objects"/*.o \
    -Wl,--exclude-libs,ALL -Wl,--as-needed -Wl,-z,defs \
    "$prefix/lib/libllama.a" "$prefix/lib/libggml.a" "$prefix/lib/libggml-cpu.a" "$prefix/lib/libggml-base.a" \
    -lcjson -lm
mv "$out/llama.so.tmp" "$out/llama.so"
