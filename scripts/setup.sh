#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine with the Swift toolchain for Emend and runs it on its
# defaults: installs the Debian packages, builds libemend.so (release: soname, static Swift
# stdlib) and the emend command, builds the providers (Hunspell; Harper in a project-local
# Python directory; the llama.cpp model provider with llama.cpp and its small model from
# scripts/setup-llama.sh, cached outside the clone) into <build>/emend/providers where both
# find them, runs the C example engines, and proofreads examples/text/notes.md with
# `emend proofread`.
# Usage: bash scripts/setup.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash scripts/install-deps.sh
lib_dir="$(dirname "$(bash scripts/build-release.sh)")"
swift build -c release --product emend-cli >&2

echo "== providers into $lib_dir/emend/providers"
providers="$lib_dir/emend/providers"
mkdir -p "$providers"
chmod 0755 "$lib_dir/emend" "$providers"
bash providers/harper/setup.sh
bash scripts/setup-llama.sh
bash providers/hunspell/build.sh "$providers" >/dev/null
bash providers/llama/build.sh "$providers" >/dev/null
bash providers/harper/build.sh "$providers" >/dev/null

bash scripts/run-examples.sh c "$lib_dir"
bash scripts/run-examples.sh plugins "$lib_dir"

echo "== emend proofread examples/text/notes.md"
status=0
"$lib_dir/emend-cli" proofread examples/text/notes.md || status=$?
# 1 means "suggestions found", like a linter: that is the expected outcome here.
[ "$status" -le 1 ] || exit "$status"
echo "setup done: $lib_dir/emend-cli is the emend command (try --help)"
