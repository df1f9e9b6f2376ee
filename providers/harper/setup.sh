#!/bin/sh
# Installs Harper's Python bindings (PyPI harper-py 0.2.0, Apache-2.0) into <repo>/.deps/python
# (or HARPER_DEPS, e.g. an installed prefix's lib/emend/python) with pip --target: nothing goes
# anywhere else. Does nothing when that version is already importable from there. PYTHON
# names the interpreter (default python3, 3.10 or newer); use the same one for build.sh.
# Usage: [HARPER_DEPS=DIR] providers/harper/setup.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
python=${PYTHON:-python3}
target="${HARPER_DEPS:-$repo/.deps/python}"
version=0.2.0

installed() {
    "$python" -I -c '
import sys
sys.path.insert(0, sys.argv[1])
import importlib.metadata, harper
assert harper.__file__.startswith(sys.argv[1]), harper.__file__
assert importlib.metadata.version("harper-py") == sys.argv[2]
' "$target" "$version" 2>/dev/null
}

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
    echo "harper setup: $python is missing or older than Python 3.10 (set PYTHON)" >&2
    exit 1
fi
if installed; then
    echo "harper-py $version is installed in $target"
    exit 0
fi
mkdir -p "$target"
PIP_ROOT_USER_ACTION=ignore "$python" -m pip install --disable-pip-version-check --no-input --quiet \
    --upgrade --target "$target" "harper-py==$version"
if ! installed; then
    echo "harper setup: harper-py $version was installed into $target but cannot be imported from there" >&2
    exit 1
fi
echo "harper-py $version installed in $target"
