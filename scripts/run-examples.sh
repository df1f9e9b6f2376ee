#!/usr/bin/env bash
# Builds and runs the example engines against a built libemend.so.
# Usage: bash scripts/run-examples.sh [c|rust|plugins|isolation|proofread|models|service|all] LIB_DIR
#   LIB_DIR holds libemend.so, its soname link libemend.so.0, emend-scan and
#   emend-provider-host (scripts/build-release.sh puts them there).
#   isolation: examples/c/isolation.c proofreads through a plugin that crashes (SIGSEGV) on
#   its first run and succeeds on the second: the engine survives, the document is untouched.
#   plugins: builds examples/plugins (C, Rust, simple form) into a providers directory and
#   runs examples/c/providers.c against them through discovery (EMEND_PROVIDER_PATH).
#   proofread: builds the Hunspell and Harper providers (providers/) and runs
#   examples/c/proofread.c: six sentences with known errors and their corrected forms.
#   service: examples/c/service.c, two coordinators proofreading through the C example plugin:
#   with EMEND_PROVIDER_HOSTS_SERVICE one host in one checker service (the same service for a
#   second engine process), with DEFAULT / OWN / an older struct_size a host per coordinator;
#   config.toml's [service] hosts and EMEND_SERVICE decide over the engine's preference. Each
#   case has its own XDG_RUNTIME_DIR; the services started are stopped at the end.
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

if [ "$which" = service ] || [ "$which" = all ]; then
  echo "== provider hosts: the checker service or own processes (emend_coordinator_options.provider_hosts)"
  svc="$out/service"
  rm -rf "$svc"
  mkdir -p "$svc/providers" "$svc/process/emend" "$svc/service/emend"
  chmod 0755 "$svc/providers"
  bash "$root/examples/plugins/c/build.sh" "$svc/providers" >/dev/null
  printf '[service]\nhosts = "process"\n' > "$svc/process/emend/config.toml"
  printf '[service]\nhosts = "service"\n' > "$svc/service/emend/config.toml"
  cc -std=c11 -Wall -Wextra -Werror -I "$root/include" "$root/examples/c/service.c" \
     -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/service-engine"
  # Each case its own XDG_RUNTIME_DIR (0700): never the user's service; every service a case
  # started is stopped (by its pid) when the script ends.
  started=()
  stop_services() { for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done; }
  trap stop_services EXIT
  # run NAME ASKED WHERE [CONFIG_DIR]: one engine run; prints its lines, keeps the service pid.
  run_case() {
    local runtime="$svc/runtime-$1" config="${4:-$svc/none}" log
    mkdir -p "$runtime" "$config"
    chmod 0700 "$runtime"
    log="$(env -u EMEND_SERVICE EMEND_PROVIDER_PATH="$svc/providers" XDG_RUNTIME_DIR="$runtime" \
      XDG_CONFIG_HOME="$config" XDG_CACHE_HOME="$svc/cache" XDG_DATA_HOME="$svc/data" \
      "$out/service-engine" "$2" "$3")" || { echo "$log"; echo "service example failed: $1" >&2; exit 1; }
    echo "$log" | sed 's/^/   /'
    case_pid="$(echo "$log" | sed -n 's/^service pid //p')"
    if [ -n "$case_pid" ]; then started+=("$case_pid"); fi
  }
  run_case default default own
  run_case short short own
  run_case own own own
  run_case service service service
  first="$case_pid"
  # A second engine process with the same runtime directory: the same service, still warm.
  run_case service service service
  [ "$case_pid" = "$first" ] || { echo "service example: a second engine got service $case_pid, not $first" >&2; exit 1; }
  echo "   two engine processes, four coordinators: one service (pid $first)"
  # The user's config.toml wins over the engine's preference, except OWN; EMEND_SERVICE over both.
  run_case config-process service own "$svc/process"
  run_case config-service default service "$svc/service"
  run_case own-despite-config own own "$svc/service"
  mkdir -p "$svc/runtime-forced" && chmod 0700 "$svc/runtime-forced"
  EMEND_SERVICE=off EMEND_PROVIDER_PATH="$svc/providers" XDG_RUNTIME_DIR="$svc/runtime-forced" \
    XDG_CONFIG_HOME="$svc/service" XDG_CACHE_HOME="$svc/cache" XDG_DATA_HOME="$svc/data" \
    "$out/service-engine" service own | sed 's/^/   EMEND_SERVICE=off: /'
  stop_services
  for pid in "${started[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then echo "service example: service $pid did not stop" >&2; exit 1; fi
  done
  trap - EXIT
fi

if [ "$which" = rust ] || [ "$which" = all ]; then
  echo "== Rust example engine (cargo, std only)"
  command -v cargo >/dev/null || { echo "error: cargo is not installed" >&2; exit 2; }
  (cd "$root/examples/rust" && EMEND_LIB_DIR="$lib_dir" CARGO_TARGET_DIR="$out/rust" cargo run --offline --quiet)
fi
