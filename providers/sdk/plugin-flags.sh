# plugin-flags.sh — sourced by every providers/*/build.sh, so that all plugins are built the
# same way: C11, warnings as errors, position independent, pthreads, symbols hidden (the
# plugin exports only emend_provider_entry; see EMEND_PLUGIN_ENTRY) and the SDK compiled in.
#
#     . "$(dirname "$0")/../sdk/plugin-flags.sh"
#     plugin_begin "$@"                  # checks `build.sh OUT_DIR`; sets here, repo, sdk, out
#     plugin_shared x.so "$here/x.c" -lfoo    # -> $out/x.so, with the SDK's sources
#
# plugin_cc is ${CC:-cc} with the flags and -I for include/, providers/sdk and
# providers/common, for a plugin that compiles objects itself (the llama plugin links with
# the C++ driver: it compiles "$sdk"/*.c with -c like its own files). The script that
# sources this runs under `set -eu`.

plugin_begin() {
    if [ $# -ne 1 ]; then
        echo "usage: $0 OUT_DIR" >&2
        exit 2
    fi
    out=$1
    here=$(cd "$(dirname "$0")" && pwd)
    repo=$(cd "$here/../.." && pwd)
    sdk="$repo/providers/sdk"
    mkdir -p "$out"
}

plugin_cc() {
    ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -fPIC -pthread -fvisibility=hidden \
        -I"$repo/include" -I"$sdk" -I"$repo/providers/common" "$@"
}

# The compile and link flags of cJSON (Debian libcjson-dev) into $cjson_flags, or exit 2 with
# how to get it.
plugin_need_cjson() {
    if ! cjson_flags=$(pkg-config --cflags --libs libcjson 2>/dev/null); then
        echo "error: pkg-config cannot find libcjson (on Debian: apt-get install libcjson-dev)" >&2
        exit 2
    fi
}

# One shared object $out/NAME from the arguments (sources, -D options, libraries) and the SDK.
plugin_shared() {
    name=$1
    shift
    plugin_cc -shared -o "$out/$name" "$sdk"/*.c "$@"
}

# $out/NAME: the process provider (providers/process/process.c) with a built-in command that
# runs the Python checker SERVER with this machine's Python ($PYTHON, default python3) and its
# packages in DEPS; the other arguments are the descriptor's -D options (PROVIDER_ID, ...).
# The absolute paths are baked in: build again after moving them.
plugin_python_checker() {
    name=$1 server=$2 deps=$3
    shift 3
    python=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')
    # A word of the command, in single quotes (process.c splits the command like sh would).
    quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
    command="$(quote "$python") -u -I -B $(quote "$server") --deps $(quote "$deps")"
    # The command as a C string literal.
    c_string=$(printf '%s' "$command" | sed 's/\\/\\\\/g; s/"/\\"/g')
    # What the command reads, declared for the plugin sandbox: the server's directory (it
    # imports checker_loop.py from beside it, or from providers/process in a clone), its
    # packages, and Python itself.
    server_dir=$(cd "$(dirname "$server")" && pwd)
    loop_dir="$server_dir"
    [ -f "$server_dir/checker_loop.py" ] || loop_dir=$(cd "$server_dir/../process" 2>/dev/null && pwd || echo "$server_dir")
    read_paths=$(printf '%s\\n%s\\n%s\\n%s\\n%s' "$server_dir" "$loop_dir" "$deps" \
        "$("$python" -c 'import sys; print(sys.prefix)')" "$("$python" -c 'import sys; print(sys.base_prefix)')" \
        | sed 's/"/\\"/g')
    plugin_need_cjson
    # shellcheck disable=SC2086
    plugin_shared "$name" "$@" -DDEFAULT_COMMAND="\"$c_string\"" -DPROVIDER_READ_PATHS="\"$read_paths\"" \
        "$repo/providers/process/process.c" $cjson_flags
}
