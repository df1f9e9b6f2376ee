#!/usr/bin/env bash
# uninstall.sh — remove exactly what scripts/install.sh installed into a prefix.
#
#   bash scripts/uninstall.sh [PREFIX]      # default ~/.local; DESTDIR honoured
#
# Reads PREFIX/share/emend/install-manifest, removes each file and link it lists, then the
# directories the install created, when they are empty. Files the user added (a plugin of
# their own in lib/emend/providers, say) stay, and so do their directories. Without a
# manifest it removes nothing and says so.
set -euo pipefail

if [ "$#" -gt 1 ]; then
    echo "usage: $0 [PREFIX]" >&2
    exit 2
fi
prefix="${1:-${PREFIX:-$HOME/.local}}"
prefix="${prefix%/}"
destdir="${DESTDIR:-}"
destdir="${destdir%/}"
top="$destdir$prefix"
manifest="$top/share/emend/install-manifest"
if [ ! -f "$manifest" ]; then
    echo "uninstall: no $manifest: nothing was installed there by scripts/install.sh" >&2
    exit 1
fi

removed=0
dirs=()
while IFS= read -r entry; do
    case "$entry" in
        ""|/*|*..*) echo "uninstall: skipping a strange manifest line: $entry" >&2; continue ;;
        */) dirs+=("${entry%/}"); continue ;;   # a directory the install created
    esac
    path="$top/$entry"
    if [ -e "$path" ] || [ -L "$path" ]; then
        rm -f "$path"
        removed=$((removed + 1))
    fi
done < "$manifest"

# Directories the install created, deepest first, when nothing else lives in them now.
# Python may have left byte-code caches beside files it imported: those go too.
kept=()
if [ "${#dirs[@]}" -gt 0 ]; then
    while IFS= read -r dir; do
        [ -d "$top/$dir/__pycache__" ] && [ "$(basename "$dir")" != "__pycache__" ] && rm -rf "${top:?}/$dir/__pycache__"
        rmdir "$top/$dir" 2>/dev/null || { [ -d "$top/$dir" ] && kept+=("$dir"); }
    done < <(printf '%s\n' "${dirs[@]}" | awk '{ print length($0) " " $0 }' | sort -rn | cut -d' ' -f2-)
fi
echo "uninstalled emend from $top: $removed files and links removed"
for dir in "${kept[@]}"; do echo "  kept $top/$dir: it holds files the install did not put there"; done
