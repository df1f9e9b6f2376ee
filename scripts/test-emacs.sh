#!/usr/bin/env bash
# test-emacs.sh — `emend lsp` under Emacs's LSP clients in batch mode (Debian's emacs-nox,
# elpa-eglot and elpa-lsp-mode, from scripts/install-deps.sh): eglot (editors/emacs/tests/
# test-eglot.el: diagnostics, a quick fix, a Python file in the same server, a rewrite that
# returns control at once and lands later, one whose model never finishes, shutdown + exit
# with status 0) and lsp-mode (test-lsp-mode.el: the same without the Python file). The
# fixture provider only, pausing 300 ms between the words it writes (a rewrite lands about a
# second after its command returned), private XDG directories.
# Usage: bash scripts/test-emacs.sh [EMEND_CLI]   (default: the release emend-cli, built here)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Each `emend lsp` starts its own provider hosts: the tests leave no checker service running.
export EMEND_SERVICE="${EMEND_SERVICE:-off}"
# `emend lsp` answers with the built-in fixture (tests only).
export EMEND_TEST_FIXTURE=1
if [ "$#" -gt 0 ]; then
    cli="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"   # the clients start it from the project
else
    swift build --package-path "$root" -c release --product emend-cli >&2
    cli="$(swift build --package-path "$root" -c release --show-bin-path)/emend-cli"
fi
command -v emacs >/dev/null || { echo "test-emacs: no emacs (bash scripts/install-deps.sh installs emacs-nox and elpa-eglot)" >&2; exit 2; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home" "$scratch/config" "$scratch/cache" "$scratch/data" "$scratch/state"
echo "emacs: $(emacs --version | head -1); $(ls -d /usr/share/emacs/site-lisp/elpa/eglot-* /usr/share/emacs/site-lisp/elpa/lsp-mode-* 2>/dev/null | xargs -n1 basename | tr '\n' ' ')"
for test in test-eglot test-lsp-mode; do
    echo "== $test"
    rm -rf "${scratch:?}"/*/
    mkdir -p "$scratch/home" "$scratch/config" "$scratch/cache" "$scratch/data" "$scratch/state"
    env HOME="$scratch/home" XDG_CONFIG_HOME="$scratch/config" XDG_CACHE_HOME="$scratch/cache" \
        XDG_DATA_HOME="$scratch/data" XDG_STATE_HOME="$scratch/state" EMEND_PROVIDER_PATH="" EMEND_CLI="$cli" EMEND_FIXTURE_CHUNK_DELAY_MS=300 \
        timeout 300 emacs --batch -Q -l "$root/editors/emacs/tests/$test.el"
done
