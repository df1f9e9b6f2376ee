#!/usr/bin/env bash
# benchmarks/gtk/run.sh — libemend-gtk4 in the example editor under Xvfb: a proofread of
# 400 and 1,600 fixture misspellings (one sentence a line) through emend.proofread, timed to
# the marks, with the longest main-loop stall meanwhile (stall.c). Figures, not a test.
# Usage: bash benchmarks/gtk/run.sh [LIB]   (LIB: libemend.so; default: scripts/build-release.sh)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
lib="${1:-$(bash "$root/scripts/build-release.sh")}"
lib_dir="$(cd "$(dirname "$lib")" && pwd)"
out="$root/.build-bench/gtk"
mkdir -p "$out"
bash "$root/gtk/build.sh" "$out" "$lib_dir" >/dev/null
links=(-L "$out" -lemend-gtk4 -L "$lib_dir" -lemend -Wl,-rpath,"$out" -Wl,-rpath,"$lib_dir")
flags=(-std=c11 -Wall -Wextra -Werror -O2 -I "$root/include" -I "$root/gtk/include")
# shellcheck disable=SC2046
cc "${flags[@]}" "$root/examples/gtk/editor.c" $(pkg-config --cflags --libs gtk4 gtksourceview-5) "${links[@]}" -o "$out/editor"
# shellcheck disable=SC2046
cc "${flags[@]}" -shared -fPIC "$here/stall.c" $(pkg-config --cflags --libs gtk4) "${links[@]}" -o "$out/stall.so"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for n in 400 1600; do
    python3 -c "import sys; print('\n'.join(['We meet tomorow.'] * int(sys.argv[1])))" "$n" > "$work/text.txt"
    rm -rf "$work/xdg" && mkdir -p "$work/xdg/config" "$work/xdg/cache" "$work/xdg/data"
    env -u DBUS_SESSION_BUS_ADDRESS XDG_CONFIG_HOME="$work/xdg/config" XDG_CACHE_HOME="$work/xdg/cache" \
        XDG_DATA_HOME="$work/xdg/data" EMEND_PROVIDER_PATH="" GSK_RENDERER=cairo GDK_BACKEND=x11 NO_AT_BRIDGE=1 \
        timeout 400 xvfb-run -a -s "-screen 0 1024x768x24" env LD_PRELOAD="$out/stall.so" "$out/editor" "$work/text.txt" \
        2>/dev/null | grep -E 'suggestions:|FAIL'
done
