#!/bin/sh
# Installs LingoTweaker (PyPI lingotweaker 0.2.8, LGPL-2.1-or-later: LanguageTool's rules in
# Rust) and its language data (lingotweaker-data-<lang> 0.1.6 for each of LINGOTWEAKER_LANGUAGES,
# default "en de fr") into <repo>/.deps/lingotweaker (or LINGOTWEAKER_DEPS, e.g. an installed
# prefix's lib/emend/lingotweaker) with pip --target: nothing goes anywhere else. Does nothing
# when those versions are importable from there already. The wheels are kept in
# $XDG_CACHE_HOME/emend/wheels, so installing again (another prefix, a clean .deps) needs no
# network. PYTHON names the interpreter (default python3, 3.9 or newer).
# Usage: [LINGOTWEAKER_DEPS=DIR] [LINGOTWEAKER_LANGUAGES="en de"] providers/lingotweaker/setup.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
python=${PYTHON:-python3}
target="${LINGOTWEAKER_DEPS:-$repo/.deps/lingotweaker}"
languages="${LINGOTWEAKER_LANGUAGES:-en de fr}"
version=0.2.8
data_version=0.1.6
wheels="${XDG_CACHE_HOME:-$HOME/.cache}/emend/wheels"

requirements="lingotweaker==$version"
for language in $languages; do requirements="$requirements lingotweaker-data-$language==$data_version"; done

installed() {
    "$python" -I -c '
import sys, importlib, importlib.metadata
target, version, data_version = sys.argv[1:4]
sys.path.insert(0, target)
import lt_py
assert lt_py.__file__.startswith(target), lt_py.__file__
assert importlib.metadata.version("lingotweaker") == version
for language in sys.argv[4:]:
    module = importlib.import_module("lingotweaker_data_" + language)
    assert module.__file__.startswith(target), module.__file__
    assert importlib.metadata.version("lingotweaker-data-" + language) == data_version
' "$target" "$version" "$data_version" $languages 2>/dev/null
}

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
    echo "lingotweaker setup: $python is missing or older than Python 3.9 (set PYTHON)" >&2
    exit 1
fi
if installed; then
    echo "lingotweaker $version ($languages) is installed in $target"
    exit 0
fi
mkdir -p "$target" "$wheels"
pip() { PIP_ROOT_USER_ACTION=ignore "$python" -m pip --disable-pip-version-check --no-input --quiet "$@"; }
# From the wheel cache when it has them all, else fetched into it first.
# shellcheck disable=SC2086
if ! pip install --no-index --find-links "$wheels" --upgrade --target "$target" $requirements 2>/dev/null; then
    pip download --only-binary=:all: --dest "$wheels" $requirements
    pip install --no-index --find-links "$wheels" --upgrade --target "$target" $requirements
fi
if ! installed; then
    echo "lingotweaker setup: lingotweaker $version ($languages) was installed into $target but cannot be imported from there" >&2
    exit 1
fi
echo "lingotweaker $version ($languages) installed in $target"
