#!/usr/bin/env bash
# check-install.sh — installs Emend into a temporary prefix as a user would and checks the
# installation from the outside: the C example engines built with `pkg-config --cflags
# --libs emend` only, the GTK example editor with `pkg-config --cflags --libs emend-gtk4`
# (driven under Xvfb), `emend --version` and `emend doctor`, every man page through `man -l`,
# the completions through `bash -n`, `zsh -n` and `fish --no-execute`, then uninstall.sh
# leaving nothing behind.
# Usage: bash scripts/check-install.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

echo "== install into $prefix"
bash "$root/scripts/install.sh" "$prefix" | tee "$work/install.out" | sed 's/^/   /'
# Its summary (a path, then what it is) lines up its second column, whatever the paths' lengths.
if ! awk '/^installed emend /{on = 1; next} /^note:/{on = 0} on && /^  [^ ]/ { match($0, /^  [^ ]+ +/); at[RLENGTH]++; rows++ }
          END { n = 0; for (k in at) n++; exit (rows >= 4 && n == 1) ? 0 : 1 }' "$work/install.out"; then
    echo "check-install: install.sh's summary does not line up its columns:" >&2
    cat "$work/install.out" >&2
    exit 1
fi
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# A private home: the user's own configuration and plugins play no part.
# (XDG_DATA_HOME stays: the default model lives there, put by scripts/setup-llama.sh.)
export XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" EMEND_PROVIDER_PATH=""

echo "== C engines against the installed copy (pkg-config only)"
for example in engine tables proofread; do
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror "$root/examples/c/$example.c" $(pkg-config --cflags --libs emend) \
       -Wl,-rpath,"$(pkg-config --variable=libdir emend)" -o "$work/$example"
    "$work/$example" > "$work/$example.out" || { cat "$work/$example.out"; echo "check-install: $example failed" >&2; exit 1; }
    echo "   $example: ok ($(wc -l < "$work/$example.out") lines)"
done

echo "== libemend-gtk4 against the installed copy (pkg-config emend-gtk4 only), driven under Xvfb"
if pkg-config --exists emend-gtk4; then
    gtk_flags="$(pkg-config --cflags --libs emend-gtk4)"
    # shellcheck disable=SC2086
    cc -std=c11 -Wall -Wextra -Werror "$root/examples/gtk/editor.c" $gtk_flags $(pkg-config --cflags --libs gtksourceview-5) \
       -Wl,-rpath,"$(pkg-config --variable=libdir emend-gtk4)" -o "$work/gtk-editor"
    # shellcheck disable=SC2086
    # (The driver's clicks and keys are real X events: XTEST.)
    cc -std=c11 -Wall -Wextra -Werror -shared -fPIC "$root/gtk/tests/drive.c" $gtk_flags $(pkg-config --cflags --libs gtk4-x11 xtst) \
       -Wl,-rpath,"$(pkg-config --variable=libdir emend-gtk4)" -o "$work/gtk-drive.so"
    resolved="$(ldd "$work/gtk-editor" | awk '/libemend/ {print $1 " -> " $3}' | tr '\n' ' ')"
    case "$resolved" in
        *"libemend-gtk4.so.0 -> $prefix/lib/"*"libemend.so.0 -> $prefix/lib/"*|*"libemend.so.0 -> $prefix/lib/"*"libemend-gtk4.so.0 -> $prefix/lib/"*) ;;
        *) echo "check-install: the editor does not load the installed libraries: $resolved" >&2; exit 1 ;;
    esac
    mkdir -p "$work/gtk-runtime" && chmod 0700 "$work/gtk-runtime"
    env -u DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR="$work/gtk-runtime" GSK_RENDERER=cairo GDK_BACKEND=x11 NO_AT_BRIDGE=1 \
        GTK_A11Y=none timeout 180 xvfb-run -a -s "-screen 0 1280x1024x24" env LD_PRELOAD="$work/gtk-drive.so" \
        "$work/gtk-editor" > "$work/gtk.out" 2>&1 || { cat "$work/gtk.out"; echo "check-install: the GTK editor failed" >&2; exit 1; }
    grep -q '^drive: all checks passed' "$work/gtk.out" || { cat "$work/gtk.out"; echo "check-install: the GTK driver did not finish" >&2; exit 1; }
    echo "   examples/gtk/editor.c: $(grep -c '^   ' "$work/gtk.out") steps passed ($resolved)"
else
    echo "check-install: emend-gtk4.pc is not installed (GTK 4 missing?)" >&2
    exit 1
fi

echo "== the command"
"$prefix/bin/emend" --version
"$prefix/bin/emend" doctor | sed 's/^/   /'

echo "== the language server (emend lsp: initialize, shutdown, exit over a pipe)"
frame() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1"; }
lsp_out="$( { frame '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
             frame '{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
             frame '{"jsonrpc":"2.0","method":"exit"}'; } | timeout 60 "$prefix/bin/emend" lsp)" \
    || { echo "check-install: emend lsp did not exit with 0 after shutdown and exit" >&2; exit 1; }
grep -q '"positionEncoding":"utf-16"' <<<"$lsp_out" || { echo "check-install: emend lsp: no initialize result: $lsp_out" >&2; exit 1; }
echo "   initialize, shutdown, exit: ok"

echo "== the Neovim plugin's help tags"
tags="$prefix/share/nvim/site/pack/emend/start/emend/doc/tags"
grep -q "^emend	emend.txt	" "$tags" || { echo "check-install: $tags has no tag emend (:help emend would fail)" >&2; exit 1; }
if command -v vim >/dev/null; then
    # Vim's own :helptags on a copy writes the same file.
    mkdir -p "$work/doc" && cp "$(dirname "$tags")"/*.txt "$work/doc/"
    vim -u NONE -i NONE -es -c "helptags $work/doc" -c q
    cmp -s "$work/doc/tags" "$tags" || { echo "check-install: installed tags differ from :helptags" >&2; diff "$work/doc/tags" "$tags" >&2; exit 1; }
fi
echo "   $(wc -l < "$tags") tags: ok"

echo "== man pages"
for page in "$prefix"/share/man/man1/*.1 "$prefix"/share/man/man3/*.3; do
    out="$(MANWIDTH=80 man -l "$page" 2>&1 >/dev/null)" || { echo "check-install: man -l $page failed: $out" >&2; exit 1; }
    MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q "NAME" || { echo "check-install: $page has no NAME section" >&2; exit 1; }
    echo "   $(basename "$page"): ok"
done

echo "== completions"
bash -n "$prefix/share/bash-completion/completions/emend" && echo "   bash: ok"
zsh -n "$prefix/share/zsh/site-functions/_emend" && echo "   zsh: ok"
fish --no-execute "$prefix/share/fish/vendor_completions.d/emend.fish" && echo "   fish: ok"

echo "== uninstall"
bash "$root/scripts/uninstall.sh" "$prefix" | sed 's/^/   /'
left="$(find "$prefix" -mindepth 1 | head -5)"
if [ -n "$left" ]; then
    echo "check-install: uninstall left files behind:" >&2
    echo "$left" >&2
    exit 1
fi
echo "check-install: all checks passed"
