#!/bin/sh
# Builds the Harper provider: providers/harper/build.sh OUT_DIR -> OUT_DIR/harper.so
#
# It is the process provider (providers/process/process.c) compiled with id org.emend.harper
# and a built-in command that runs harper_server.py with this machine's Python and the
# project-local harper-py (<repo>/.deps/python, or HARPER_DEPS, installed by setup.sh). The
# absolute paths are baked in now: run build.sh again after moving them or changing PYTHON. A
# `command` setting in config.toml still overrides the built-in one:
#
#     [providers."org.emend.harper"]
#     timeout_ms = 10000
#     # command = "/usr/bin/python3 -u -I /path/to/harper_server.py --deps /path/to/.deps/python"
set -eu
. "$(dirname "$0")/../sdk/plugin-flags.sh"
plugin_begin "$@"
python=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')

# A word of the command, in single quotes (process.c splits the command like sh would).
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
server="${HARPER_SERVER:-$here/harper_server.py}"
command="$(quote "$python") -u -I -B $(quote "$server") --deps $(quote "${HARPER_DEPS:-$repo/.deps/python}")"
# The command as a C string literal.
c_string=$(printf '%s' "$command" | sed 's/\\/\\\\/g; s/"/\\"/g')
# What the command reads, declared for the plugin sandbox: the server, its packages, Python.
read_paths=$(printf '%s\\n%s\\n%s\\n%s' "$server" "${HARPER_DEPS:-$repo/.deps/python}" \
    "$("$python" -c 'import sys; print(sys.prefix)')" "$("$python" -c 'import sys; print(sys.base_prefix)')" \
    | sed 's/"/\\"/g')

plugin_shared harper.so \
    -DPROVIDER_ID='"org.emend.harper"' \
    -DPROVIDER_NAME='"Harper grammar checker (harper-py 0.2.0)"' \
    -DPROVIDER_VERSION='"1.0.0"' \
    -DPROVIDER_TOOLS='EMEND_PROVIDES(EMEND_TOOL_PROOFREAD)' \
    -DPROVIDER_LANGUAGES='"en"' \
    -DPROVIDER_OUTPUTS=EMEND_OUTPUT_EDITS \
    -DPROVIDER_FLAGS=0 \
    -DPROVIDER_PRIORITY=20 \
    -DDEFAULT_COMMAND="\"$c_string\"" \
    -DPROVIDER_READ_PATHS="\"$read_paths\"" \
    "$repo/providers/process/process.c" "$repo/providers/process/json.c"
