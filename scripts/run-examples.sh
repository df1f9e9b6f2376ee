#!/usr/bin/env bash
# Builds and runs the example engines against a built libemend.so.
# Usage: bash scripts/run-examples.sh [c|rust|plugins|isolation|proofread|models|all] LIB_DIR
#   LIB_DIR holds libemend.so, its soname link libemend.so.0, emend-scan and
#   emend-provider-host (scripts/build-release.sh puts them there).
#   isolation: examples/c/isolation.c proofreads through a plugin that crashes (SIGSEGV) on
#   its first run and succeeds on the second: the engine survives, the document is untouched.
#   plugins: builds examples/plugins (C, Rust, simple form) into a providers directory and
#   runs examples/c/providers.c against them through discovery (EMEND_PROVIDER_PATH).
#   proofread: builds the Hunspell and Harper providers (providers/) and runs
#   examples/c/proofread.c: six sentences with known errors and their corrected forms.
#   models: builds the llama and openai provider plugins, starts llama-server on 127.0.0.1
#   with the same model, and runs examples/c/models.c through each plugin (needs
#   scripts/setup-llama.sh, which runs first when .deps/llama.env is missing).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
which="${1:-all}"
lib_dir="$(cd "${2:?LIB_DIR missing}" && pwd)"
out="$root/.build-examples"
mkdir -p "$out"

if [ "$which" = c ] || [ "$which" = all ]; then
  echo "== C example engine (cc -std=c11 -Wall -Wextra -Werror)"
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/engine.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/engine"
  "$out/engine"
  echo "== C example: a table arriving as rows and cells (rich results)"
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/tables.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/tables"
  "$out/tables"
  echo "== C example: Markdown protection (emend_markdown_protected_ranges)"
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/markdown.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/markdown"
  "$out/markdown"
  echo "== C example: reviewing a rewrite change by change (emend_session_review_changes)"
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/review.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/review"
  "$out/review"
fi

if [ "$which" = plugins ] || [ "$which" = all ]; then
  echo "== provider plugins through discovery (C, Rust, simple form via libffi)"
  providers="$out/providers"
  rm -rf "$providers" "$out/xdg"
  mkdir -p "$providers" "$out/xdg"
  chmod 0755 "$providers"
  bash "$root/examples/plugins/c/build.sh" "$providers"
  bash "$root/examples/plugins/rust/build.sh" "$providers" >/dev/null
  bash "$root/examples/plugins/simple/build.sh" "$providers"
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/providers.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/providers-engine"
  # A private cache, config and data directory: the user's own plugins play no part.
  EMEND_PROVIDER_PATH="$providers" XDG_CACHE_HOME="$out/xdg/cache" XDG_CONFIG_HOME="$out/xdg/config" \
    XDG_DATA_HOME="$out/xdg/data" "$out/providers-engine"
fi

if [ "$which" = isolation ] || [ "$which" = all ]; then
  echo "== a plugin that crashes on its first run, in its provider host"
  crashing="$out/crashing"
  rm -rf "$crashing" "$out/xdg-isolation"
  mkdir -p "$crashing" "$out/xdg-isolation/config/emend"
  chmod 0755 "$crashing"
  cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -I "$root/include" "$root/Tests/Fixtures/plugins/hostile.c" \
     -o "$crashing/hostile.so"
  cat >"$out/xdg-isolation/config/emend/config.toml" <<TOML
[providers."org.emend.test.hostile"]
scenario = "crash-once"
marker = "$out/xdg-isolation/crashed-once"
sandbox_write_paths = ["$out/xdg-isolation"]
TOML
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/isolation.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/isolation-engine"
  EMEND_PROVIDER_PATH="$crashing" XDG_CACHE_HOME="$out/xdg-isolation/cache" \
    XDG_CONFIG_HOME="$out/xdg-isolation/config" XDG_DATA_HOME="$out/xdg-isolation/data" "$out/isolation-engine"
fi

if [ "$which" = proofread ] || [ "$which" = all ]; then
  echo "== real proofreading: Hunspell + Harper through discovery"
  proofreaders="$out/proofreaders"
  rm -rf "$proofreaders" "$out/xdg-proofread"
  mkdir -p "$proofreaders"
  chmod 0755 "$proofreaders"
  bash "$root/providers/harper/setup.sh" >/dev/null
  bash "$root/providers/hunspell/build.sh" "$proofreaders" >/dev/null
  bash "$root/providers/harper/build.sh" "$proofreaders" >/dev/null
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/proofread.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/proofread-engine"
  EMEND_PROVIDER_PATH="$proofreaders" XDG_CACHE_HOME="$out/xdg-proofread/cache" \
    XDG_CONFIG_HOME="$out/xdg-proofread/config" XDG_DATA_HOME="$out/xdg-proofread/data" "$out/proofread-engine"
fi

if [ "$which" = models ] || [ "$which" = all ]; then
  echo "== writing tools through the model providers: llama (the model in its provider host), openai against llama-server"
  [ -f "$root/.deps/llama.env" ] || bash "$root/scripts/setup-llama.sh"
  # shellcheck disable=SC1091
  . "$root/.deps/llama.env"
  models="$out/models"
  rm -rf "$models" "$out/xdg-models"
  mkdir -p "$models" "$out/xdg-models/config/emend"
  chmod 0755 "$models"
  bash "$root/providers/llama/build.sh" "$models" >/dev/null
  sh "$root/providers/openai/build.sh" "$models" >/dev/null
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/models.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/models-engine"
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  "$EMEND_LLAMA_SERVER" -m "$EMEND_LLAMA_MODEL" --host 127.0.0.1 --port "$port" -t 2 -c 2048 -np 1 \
    >"$out/llama-server.log" 2>&1 &
  server=$!
  trap 'kill "$server" 2>/dev/null || true' EXIT
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || { cat "$out/llama-server.log" >&2; echo "llama-server did not start" >&2; exit 1; }
    sleep 0.5
  done
  cat >"$out/xdg-models/config/emend/config.toml" <<TOML
network = true

[providers."org.emend.llama"]
model = "$EMEND_LLAMA_MODEL"
threads = 2
max_tokens = 256

[providers."org.emend.openai"]
base_url = "http://127.0.0.1:$port/v1"
max_tokens = 256
TOML
  for provider in org.emend.llama org.emend.openai; do
    echo "-- $provider"
    EMEND_PROVIDER_PATH="$models" XDG_CACHE_HOME="$out/xdg-models/cache" XDG_CONFIG_HOME="$out/xdg-models/config" \
      XDG_DATA_HOME="$out/xdg-models/data" "$out/models-engine" "$provider"
  done
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  trap - EXIT
fi

if [ "$which" = rust ] || [ "$which" = all ]; then
  echo "== Rust example engine (cargo, std only)"
  command -v cargo >/dev/null || { echo "error: cargo is not installed" >&2; exit 2; }
  (cd "$root/examples/rust" && EMEND_LIB_DIR="$lib_dir" CARGO_TARGET_DIR="$out/rust" cargo run --offline --quiet)
fi
