#!/bin/sh
# Builds the process provider: providers/process/build.sh OUT_DIR -> OUT_DIR/process.so
# (id org.emend.process; the checker's command comes from config.toml, see process.c).
# Needs cJSON (on Debian: apt-get install libcjson-dev).
set -eu
. "$(dirname "$0")/../sdk/plugin-flags.sh"
plugin_begin "$@"
plugin_need_cjson
# shellcheck disable=SC2086
plugin_shared process.so "$here/process.c" $cjson_flags
