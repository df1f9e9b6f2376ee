#!/bin/sh
# Builds the Rust example plugin: examples/plugins/rust/build.sh OUT_DIR -> OUT_DIR/example-rust.so
# Cargo's target directory is OUT_DIR/rust-target, so nothing is written into the source tree
# (except Cargo.lock, which cargo keeps next to Cargo.toml).
set -eu
if [ $# -ne 1 ]; then
    echo "usage: $0 OUT_DIR" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
cargo build --offline --release --quiet --manifest-path "$here/Cargo.toml" --target-dir "$out/rust-target"
cp "$out/rust-target/release/libemend_example_rust.so" "$out/example-rust.so"
