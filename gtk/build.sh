#!/usr/bin/env bash
# build.sh — builds libemend-gtk4 (Writing Tools for GtkTextView) into OUT_DIR:
#   OUT_DIR/libemend-gtk4.so.MAJOR (SONAME libemend-gtk4.so.MAJOR) and the link libemend-gtk4.so.
#
#   bash gtk/build.sh OUT_DIR LIB_DIR
#
# LIB_DIR holds the libemend.so it links against (scripts/build-release.sh's directory, or
# PREFIX/lib of an install); the library finds it at run time next to itself ($ORIGIN) or
# in LIB_DIR. Needs GTK 4 (Debian libgtk-4-dev; scripts/install-deps.sh). C11 with
# -Wall -Wextra -Werror; only the emend_gtk_* functions are exported. EMEND_GTK_INSTALLED=1
# leaves LIB_DIR out of the run path (an installed copy finds libemend beside itself).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="${1:?usage: $0 OUT_DIR LIB_DIR}"
lib_dir="$(cd "${2:?usage: $0 OUT_DIR LIB_DIR}" && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
major="$(tr -d '[:space:]' < "$root/VERSION")"
major="${major%%.*}"
pkg-config --exists gtk4 || { echo "gtk/build.sh: GTK 4 is missing (apt-get install libgtk-4-dev)" >&2; exit 2; }
rpath=(-Wl,-rpath,"\$ORIGIN")
[ "${EMEND_GTK_INSTALLED:-0}" = 1 ] || rpath+=(-Wl,-rpath,"$lib_dir")
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -O2 -g -fPIC -fvisibility=hidden -shared \
   -I "$root/include" -I "$here/include" -I "$here/src" \
   "$here"/src/*.c $(pkg-config --cflags --libs gtk4) -lm \
   -L "$lib_dir" -lemend "${rpath[@]}" \
   -Wl,-soname,"libemend-gtk4.so.$major" -Wl,--no-undefined \
   -o "$out/libemend-gtk4.so.$major"
ln -sf "libemend-gtk4.so.$major" "$out/libemend-gtk4.so"
echo "$out/libemend-gtk4.so.$major"
