#!/usr/bin/env bash
# test-gtk.sh — libemend-gtk4 (gtk/). First its engine glue alone, with GLib only, over a
# plain string (gtk/tests/glue.c). Then the library in the example GtkSourceView editor
# (examples/gtk/) under Xvfb: the unmodified editor runs with the driver (gtk/tests/drive.c)
# preloaded (LD_PRELOAD), which works it through its actions, menus, popovers and panel with
# the deterministic fixture provider: proofread (tags per suggestion and category, a hit
# test; a real click on a mark opens its popover, F8 / Shift+F8 move between suggestions, Return
# accepts and Alt+R rejects — X events made with XTEST, through GDK and GTK's event path),
# add to dictionary, accept, reject, the session's undo, Done and the buffer's undo,
# a rewrite (styling not smeared, animation tags, the selection taken at activation), show
# original, typing and a picture during a session, revert byte for byte, a rewrite reviewed
# change by change (emend.review-changes: marks, previous / next, Keep, Undo This Change, the
# session's undo and redo, Done; and revert after a partial review), summary in the
# panel (Copy, Replace), compose, a described change and its follow-up, a result streamed
# word by word by a real plugin (the C example) while the user types, a running tool
# stopped, a failure, a poor result, a deletion (its mark on the neighbouring character, a
# click on it, Reject by key, revert: no empty step left in the buffer's undo history), a
# read-only view, detach. Then all of it again with the
# library, editor and driver built with ASan and UBSan. Screenshots (window + open popovers)
# go to build/artifacts/gtk/.
# Usage: bash scripts/test-gtk.sh [LIB]     (LIB: libemend.so; default: scripts/build-release.sh)
set -euo pipefail
# The glue asks for the checker service: here the example plugin's host runs as the editor's
# child, as before, and no service is left running (EMEND_SERVICE=on tries the service).
export EMEND_SERVICE="${EMEND_SERVICE:-off}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lib="${1:-$(bash "$root/scripts/build-release.sh")}"
lib_dir="$(cd "$(dirname "$lib")" && pwd)"
out="$root/.build-examples/gtk"
artifacts="$root/build/artifacts/gtk"
rm -rf "$artifacts"
mkdir -p "$out" "$artifacts"
for tool in xvfb-run pkg-config; do
    command -v "$tool" >/dev/null || { echo "test-gtk: $tool is missing (bash scripts/install-deps.sh)" >&2; exit 2; }
done
# The driver's clicks and keys are real X events (XTEST): libxtst-dev.
pkg-config --exists xtst || { echo "test-gtk: libXtst is missing (bash scripts/install-deps.sh)" >&2; exit 2; }

echo "== the engine glue alone (gtk/src/emend-glue.c with glib-2.0 only, as a Qt library would use it)"
glue_home="$(mktemp -d)"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -I "$root/include" -I "$root/gtk/src" "$root/gtk/tests/glue.c" "$root/gtk/src/emend-glue.c" \
   $(pkg-config --cflags --libs glib-2.0) -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -o "$out/glue"
if ldd "$out/glue" | grep -q 'libgtk'; then echo "test-gtk: the glue links GTK" >&2; exit 1; fi
XDG_CONFIG_HOME="$glue_home/config" XDG_CACHE_HOME="$glue_home/cache" EMEND_PROVIDER_PATH="" "$out/glue"
rm -rf "$glue_home"

echo "== libemend-gtk4 (cc -std=c11 -Wall -Wextra -Werror)"
gtk_lib="$(bash "$root/gtk/build.sh" "$out" "$lib_dir")"
echo "   $gtk_lib: exports $(nm -D --defined-only "$gtk_lib" | awk '$2 == "T" {print $3}' | sort | tr '\n' ' ')"
unexpected="$(nm -D --defined-only "$gtk_lib" | awk '$2 == "T" {print $3}' | grep -v '^emend_gtk_' || true)"
[ -z "$unexpected" ] || { echo "test-gtk: exports beyond emend_gtk_*: $unexpected" >&2; exit 1; }
flags=(-std=c11 -Wall -Wextra -Werror -I "$root/include" -I "$root/gtk/include")
links=(-L "$out" -lemend-gtk4 -L "$lib_dir" -lemend -Wl,-rpath,"$out" -Wl,-rpath,"$lib_dir")
# shellcheck disable=SC2046
cc "${flags[@]}" "$root/examples/gtk/editor.c" $(pkg-config --cflags --libs gtk4 gtksourceview-5) "${links[@]}" -o "$out/editor"
lines="$(awk '/---- Writing Tools ----/ {on = 1} on' "$root/examples/gtk/editor.c" | grep -c '[^[:space:]]')"
echo "   examples/gtk/editor.c: $(wc -l < "$root/examples/gtk/editor.c") lines; Writing Tools part: $lines lines"
# shellcheck disable=SC2046
cc "${flags[@]}" -shared -fPIC "$root/gtk/tests/drive.c" $(pkg-config --cflags --libs gtk4 gtk4-x11 xtst) "${links[@]}" -o "$out/drive.so"

echo "== the editor under Xvfb, driven (fixture provider)"
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
mkdir -p "$home/config/emend" "$home/cache" "$home/data" "$home/runtime" "$home/providers"
chmod 0700 "$home/runtime"
chmod 0755 "$home/providers"
# One real plugin through discovery, for a result streamed word by word: the C example
# plugin's rewrite-concise, slowed down (the fixture serves every other tool).
bash "$root/examples/plugins/c/build.sh" "$home/providers" >/dev/null
cat > "$home/config/emend/config.toml" <<'TOML'
[providers."org.emend.example.c"]
word_delay_ms = 100
TOML
# A private home: the built-in fixture is every tool's provider (the driver chooses it), the
# same on every machine; the example plugin streams one rewrite.
# The cairo renderer and no accessibility bus: the same pixels with or without a GPU or a session.
status=0
env -u DBUS_SESSION_BUS_ADDRESS XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" XDG_DATA_HOME="$home/data" \
    XDG_RUNTIME_DIR="$home/runtime" EMEND_PROVIDER_PATH="$home/providers" EMEND_GTK_ARTIFACTS="$artifacts" \
    EMEND_GTK_STREAMING_PROVIDER=org.emend.example.c \
    GSK_RENDERER=cairo GDK_BACKEND=x11 NO_AT_BRIDGE=1 GTK_A11Y=none \
    timeout 180 xvfb-run -a -s "-screen 0 1280x1024x24" env LD_PRELOAD="$out/drive.so" "$out/editor" \
    > "$out/drive.log" 2>&1 || status=$?
grep -v -e 'Unable to acquire session bus' -e 'already has Writing Tools' -e '^$' "$out/drive.log" || true
if [ "$status" -ne 0 ]; then
    echo "test-gtk: the driven editor failed (exit $status); screenshots in $artifacts" >&2
    exit 1
fi
grep -q '^drive: all checks passed' "$out/drive.log" || { echo "test-gtk: the driver did not finish" >&2; exit 1; }
echo "== the same under AddressSanitizer and UndefinedBehaviorSanitizer (library, editor, driver)"
asan="$out/asan"
mkdir -p "$asan"
san=(-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
# shellcheck disable=SC2046
cc "${flags[@]}" "${san[@]}" -fPIC -shared -I "$root/gtk/src" "$root"/gtk/src/*.c $(pkg-config --cflags --libs gtk4) -lm \
   -L "$lib_dir" -lemend -Wl,-rpath,"$lib_dir" -Wl,-soname,libemend-gtk4.so.0 -o "$asan/libemend-gtk4.so.0"
ln -sf libemend-gtk4.so.0 "$asan/libemend-gtk4.so"
san_links=(-L "$asan" -lemend-gtk4 -L "$lib_dir" -lemend -Wl,-rpath,"$asan" -Wl,-rpath,"$lib_dir")
# shellcheck disable=SC2046
cc "${flags[@]}" "${san[@]}" "$root/examples/gtk/editor.c" $(pkg-config --cflags --libs gtk4 gtksourceview-5) "${san_links[@]}" -o "$asan/editor"
# shellcheck disable=SC2046
cc "${flags[@]}" "${san[@]}" -shared -fPIC "$root/gtk/tests/drive.c" $(pkg-config --cflags --libs gtk4 gtk4-x11 xtst) "${san_links[@]}" -o "$asan/drive.so"
rm -f "$home/config/emend/dictionary.txt"
# Leaks are not checked: GTK keeps caches for the life of the process.
status=0
env -u DBUS_SESSION_BUS_ADDRESS XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" XDG_DATA_HOME="$home/data" \
    XDG_RUNTIME_DIR="$home/runtime" EMEND_PROVIDER_PATH="$home/providers" EMEND_GTK_STREAMING_PROVIDER=org.emend.example.c \
    GSK_RENDERER=cairo GDK_BACKEND=x11 NO_AT_BRIDGE=1 GTK_A11Y=none \
    timeout 300 xvfb-run -a -s "-screen 0 1280x1024x24" env ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
    LD_PRELOAD="$(cc -print-file-name=libasan.so):$(cc -print-file-name=libubsan.so):$asan/drive.so" "$asan/editor" \
    > "$out/drive-asan.log" 2>&1 || status=$?
if [ "$status" -ne 0 ] || ! grep -q '^drive: all checks passed' "$out/drive-asan.log"; then
    grep -v -e 'Unable to acquire session bus' -e '^$' "$out/drive-asan.log" >&2 || true
    echo "test-gtk: the editor under ASan/UBSan failed (exit $status)" >&2
    exit 1
fi
echo "   $(grep -c '^   ' "$out/drive-asan.log") steps, no sanitizer report"

for shot in menu proofread rewrite review streaming summary working failure poor deletion; do
    [ -s "$artifacts/$shot.png" ] || { echo "test-gtk: no screenshot $shot.png" >&2; exit 1; }
done
echo "test-gtk: all checks passed (screenshots: $artifacts)"
