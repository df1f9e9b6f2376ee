#!/bin/sh
# Builds the process provider: providers/process/build.sh OUT_DIR -> OUT_DIR/process.so
# (id org.emend.process; the checker's command comes from config.toml, see process.c).
set -eu
. "$(dirname "$0")/../sdk/plugin-flags.sh"
plugin_begin "$@"
plugin_shared process.so "$here/process.c" "$here/json.c"
