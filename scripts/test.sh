#!/usr/bin/env bash
# Runs every check of Emend: the release library's packaging (soname, exports, ldd), the
# header against the Swift exports, the C examples under ASan/UBSan and a short fuzz run of
# the C ABI, the C and Rust example engines (also through the model providers), an
# installation into a temporary prefix checked from the outside, the Neovim plugin in a
# headless Neovim, `emend lsp` under Emacs + eglot in batch mode, libemend-gtk4 in a GTK editor
# under Xvfb, and `swift test`.
# Usage: bash scripts/test.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# Each process starts its own provider hosts here, as before the checker service: the tests
# leave no service running (the service has tests of its own, in private runtime directories).
export EMEND_SERVICE="${EMEND_SERVICE:-off}"

bash scripts/install-deps.sh
# llama.cpp, llama-server and the model: the model providers' examples and tests need them.
bash scripts/setup-llama.sh
lib="$(bash scripts/build-release.sh)"
lib_dir="$(dirname "$lib")"

echo "== library packaging"
bash scripts/check-library.sh "$lib"
echo "== header"
bash scripts/check-header.sh
echo "== sanitizers: C examples under ASan/UBSan/LSan, then a short deterministic fuzz run (fuzz/README.md)"
bash scripts/sanitize-examples.sh
EMEND_FUZZ_SEED=1 EMEND_FUZZ_FRESH=1 bash scripts/fuzz.sh 60
bash scripts/run-examples.sh all "$lib_dir"
echo "== installation (temporary prefix: pkg-config, man pages, completions, doctor, uninstall)"
bash scripts/check-install.sh
echo "== the Neovim plugin in a real Neovim (headless)"
bash scripts/test-nvim.sh "$lib"
echo "== emend lsp under Emacs + eglot (batch)"
bash scripts/test-emacs.sh
echo "== libemend-gtk4 in the example GtkSourceView editor, under Xvfb"
bash scripts/test-gtk.sh "$lib"
echo "== swift test"
swift test --disable-swift-testing
