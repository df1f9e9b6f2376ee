#!/bin/sh
# Builds the LingoTweaker provider: providers/lingotweaker/build.sh OUT_DIR -> OUT_DIR/lingotweaker.so
#
# The process provider (providers/process/process.c) compiled with id org.emend.lingotweaker and
# a built-in command that runs lingotweaker_server.py with this machine's Python and the
# project-local lingotweaker (<repo>/.deps/lingotweaker, or LINGOTWEAKER_DEPS, installed by
# setup.sh). Absolute paths are baked in: run build.sh again after moving them. Its default time
# limit is 120 s, since building a language's engine on first use takes seconds (German the
# longest). A `command` or `timeout_ms` setting in config.toml overrides them:
#
#     [providers."org.emend.lingotweaker"]
#     timeout_ms = 120000
set -eu
. "$(dirname "$0")/../sdk/plugin-flags.sh"
plugin_begin "$@"
python=$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')

quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
server="${LINGOTWEAKER_SERVER:-$here/lingotweaker_server.py}"
command="$(quote "$python") -u -I -B $(quote "$server") --deps $(quote "${LINGOTWEAKER_DEPS:-$repo/.deps/lingotweaker}")"
c_string=$(printf '%s' "$command" | sed 's/\\/\\\\/g; s/"/\\"/g')
# What the command reads, declared for the plugin sandbox: the server, its packages, Python.
read_paths=$(printf '%s\\n%s\\n%s\\n%s' "$server" "${LINGOTWEAKER_DEPS:-$repo/.deps/lingotweaker}" \
    "$("$python" -c 'import sys; print(sys.prefix)')" "$("$python" -c 'import sys; print(sys.base_prefix)')" \
    | sed 's/"/\\"/g')

plugin_shared lingotweaker.so \
    -DPROVIDER_ID='"org.emend.lingotweaker"' \
    -DPROVIDER_NAME='"LanguageTool rules (LingoTweaker 0.2.8)"' \
    -DPROVIDER_VERSION='"1.0.0"' \
    -DPROVIDER_TOOLS='EMEND_PROVIDES(EMEND_TOOL_PROOFREAD)' \
    -DPROVIDER_LANGUAGES='"*"' \
    -DPROVIDER_OUTPUTS=EMEND_OUTPUT_EDITS \
    -DPROVIDER_FLAGS=0 \
    -DPROVIDER_PRIORITY=30 \
    -DDEFAULT_TIMEOUT_MS=120000 \
    -DDEFAULT_COMMAND="\"$c_string\"" \
    -DPROVIDER_READ_PATHS="\"$read_paths\"" \
    "$repo/providers/process/process.c" "$repo/providers/process/json.c"
