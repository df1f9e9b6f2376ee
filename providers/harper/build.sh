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
#     timeout_ms = 60000   # the default here: the first English request builds Harper's linter
#     # command = "/usr/bin/python3 -u -I /path/to/harper_server.py --deps /path/to/.deps/python"
#     # arguments = "--rules-off SpellCheck"   # options added after the command's (README: rules)
set -eu
. "$(dirname "$0")/../sdk/plugin-flags.sh"
plugin_begin "$@"
plugin_python_checker harper.so "${HARPER_SERVER:-$here/harper_server.py}" "${HARPER_DEPS:-$repo/.deps/python}" \
    -DPROVIDER_ID='"org.emend.harper"' \
    -DPROVIDER_NAME='"Harper grammar checker (harper-py 0.2.0)"' \
    -DPROVIDER_VERSION='"1.0.0"' \
    -DPROVIDER_TOOLS='EMEND_PROVIDES(EMEND_TOOL_PROOFREAD)' \
    -DPROVIDER_LANGUAGES='"en"' \
    -DPROVIDER_OUTPUTS=EMEND_OUTPUT_EDITS \
    -DPROVIDER_FLAGS=0 \
    -DPROVIDER_PRIORITY=20 \
    -DDEFAULT_TIMEOUT_MS=60000
