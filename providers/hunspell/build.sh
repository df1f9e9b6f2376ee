#!/bin/sh
# Builds the Hunspell provider plugin: providers/hunspell/build.sh OUT_DIR -> OUT_DIR/hunspell.so
# Needs libhunspell-dev (pkg-config hunspell); a dictionary such as hunspell-en-us at run time.
set -eu
. "$(dirname "$0")/../sdk/plugin-flags.sh"
plugin_begin "$@"
if ! hunspell_flags=$(pkg-config --cflags --libs hunspell 2>/dev/null); then
    echo "error: pkg-config cannot find hunspell (on Debian: apt-get install libhunspell-dev)" >&2
    exit 2
fi
# shellcheck disable=SC2086
plugin_shared hunspell.so \
    "$here/hunspell.c" "$here/check.c" "$here/dictionary.c" "$here/locate.c" "$here/cache.c" "$here/diskcache.c" "$here/personal.c" \
    "$here/chars.c" "$here/skips.c" "$here/quick.c" "$here/fullload.c" $hunspell_flags
