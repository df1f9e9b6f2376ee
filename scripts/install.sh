#!/usr/bin/env bash
# install.sh — install Emend into a prefix, the way a package would.
#
#   bash scripts/install.sh [PREFIX]                # default ~/.local; /usr/local with sudo
#   DESTDIR=/tmp/stage bash scripts/install.sh /usr # staged install (packaging)
#   EMEND_SCRATCH=.build-x bash scripts/install.sh PREFIX   # build in another scratch dir
#   EMEND_INSTALL_PROVIDERS=0 bash scripts/install.sh PREFIX # library, command and docs only
#
# Installs (under $DESTDIR$PREFIX):
#   bin/emend                     the emend command
#   lib/libemend.so.<VERSION>     stripped; lib/libemend.so.<MAJOR> (soname) and lib/libemend.so links
#   include/emend*.h              the C ABI and the provider ABI
#   lib/pkgconfig/emend.pc        from scripts/emend.pc.in, with prefix = PREFIX
#   lib/libemend-gtk4.so.<VERSION>, include/emend-gtk.h, lib/pkgconfig/emend-gtk4.pc,
#   share/man/man3/emend-gtk.3    Writing Tools for GTK 4 text views (gtk/), when GTK 4's
#                                 development files are installed (EMEND_INSTALL_GTK=0: left out)
#   lib/emend/emend-scan          the provider scanner
#   lib/emend/emend-provider-host the process each provider plugin runs in (and, with --service,
#                                 the per-user checker service)
#   lib/systemd/user/emend.socket, emend.service   optional systemd --user units of the service
#   lib/emend/providers/          hunspell, harper, llama (when scripts/setup-llama.sh ran) and
#                                 openai (listed, but off until config.toml says network = true)
#   lib/emend/python/, lib/emend/harper_server.py   Harper's checker (PyPI harper-py)
#   lib/emend/lingotweaker/, lib/emend/lingotweaker_server.py   LanguageTool's rules (PyPI lingotweaker)
#   lib/emend/checker_loop.py     the JSON-lines loop both checkers import (found beside them)
#   share/man/man1/emend*.1       one page per subcommand, generated from the argument parser
#   share/man/man3/emend.3        the C ABI
#   share/bash-completion/completions/emend, share/zsh/site-functions/_emend,
#   share/fish/vendor_completions.d/emend.fish
#   share/nvim/site/pack/emend/start/emend   the Neovim plugin (when editors/nvim exists), with
#                                 its help tags (scripts/lib/helptags.sh: `:help emend` works)
#   share/emend/install-manifest  every file and link above, for scripts/uninstall.sh
# Running it again replaces the same files (quick once built). Needs no network unless
# Harper's wheel is not installed yet. The version comes from the VERSION file.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [ "$#" -gt 1 ]; then
    echo "usage: $0 [PREFIX]   (default ~/.local; DESTDIR, EMEND_SCRATCH and EMEND_INSTALL_PROVIDERS are honoured)" >&2
    exit 2
fi
prefix="${1:-${PREFIX:-$HOME/.local}}"
case "$prefix" in
    /*) ;;
    *) mkdir -p "$prefix"; prefix="$(cd "$prefix" && pwd)" ;;   # relative: from the cwd
esac
prefix="${prefix%/}"
[ -n "$prefix" ] || prefix="/"
case "$prefix" in
    *[[:space:]]*) echo "install: PREFIX must not contain spaces (pkg-config cannot express them): $prefix" >&2; exit 2 ;;
esac
destdir="${DESTDIR:-}"
destdir="${destdir%/}"
root_of() { if [ "$prefix" = "/" ]; then printf '%s' "$destdir"; else printf '%s' "$destdir$prefix"; fi; }
top="$(root_of)"

version="$(tr -d '[:space:]' < "$root/VERSION")"
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    echo "install: VERSION must read MAJOR.MINOR.PATCH, found '$version'" >&2
    exit 1
fi
major="${version%%.*}"

# ---- build -------------------------------------------------------------------------------
lib="$(bash "$root/scripts/build-release.sh" ${EMEND_SCRATCH:+"$EMEND_SCRATCH"})"
bin_dir="$(dirname "$lib")"
scratch_args=(--package-path "$root" -c release)
[ -n "${EMEND_SCRATCH:-}" ] && scratch_args+=(--scratch-path "$(cd "$EMEND_SCRATCH" && pwd)")
swift build "${scratch_args[@]}" --product emend-cli >&2
cli="$bin_dir/emend-cli"

soname="$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')"
if [ "$soname" != "libemend.so.$major" ]; then
    echo "install: $lib has SONAME '${soname:-<none>}', expected libemend.so.$major (VERSION $version)" >&2
    exit 1
fi

# ---- installing, with a manifest -----------------------------------------------------------
manifest_dir="$top/share/emend"
manifest="$manifest_dir/install-manifest"
entries=()
# mkdirs REL: make a directory (and its parents), recording those this install created
# (as "dir/" lines of the manifest, so that uninstall removes them again when empty).
mkdirs() {
    local rel="$1" missing=()
    while [ -n "$rel" ] && [ "$rel" != "." ] && [ ! -d "$top/$rel" ]; do
        missing+=("$rel/")
        rel="$(dirname "$rel")"
    done
    if [ "${#missing[@]}" -gt 0 ]; then entries+=("${missing[@]}"); fi
    install -d "$top/$1"
}
# put SRC DEST MODE: install a file atomically (a temporary name, then rename).
put() {
    local src="$1" dest="$top/$2" mode="$3"
    mkdirs "$(dirname "$2")"
    install -m "$mode" "$src" "$(dirname "$dest")/.$(basename "$dest").tmp"
    mv -f "$(dirname "$dest")/.$(basename "$dest").tmp" "$dest"
    entries+=("$2")
}
# link TARGET NAME: a symbolic link NAME -> TARGET.
link() {
    mkdirs "$(dirname "$2")"
    ln -sfn "$1" "$top/$2"
    entries+=("$2")
}
# tree SRC DEST: a directory copied whole (replacing what was there).
tree() {
    local src="$1" dest="$2"
    rm -rf "${top:?}/$dest"
    mkdirs "$dest"
    cp -a "$src/." "$top/$dest/"
    record_tree "$dest"
}
# record_tree REL: every file, link and directory under REL goes into the manifest.
record_tree() {
    local rel="$1" item
    while IFS= read -r item; do entries+=("$rel/${item#./}"); done < <(cd "$top/$rel" && find . \( -type f -o -type l \) | sort)
    while IFS= read -r item; do entries+=("$rel/${item#./}/"); done < <(cd "$top/$rel" && find . -mindepth 1 -type d | sort)
}

# The library: stripped, then its soname and development links.
real="libemend.so.$version"
stripped="$(mktemp)"
trap 'rm -f "$stripped"' EXIT
cp "$lib" "$stripped"
strip --strip-unneeded "$stripped"
put "$stripped" "lib/$real" 0755
link "$real" "lib/$soname"
link "$soname" "lib/libemend.so"

for header in "$root"/include/*.h; do put "$header" "include/$(basename "$header")" 0644; done

# pkg-config: libdir/includedir relative to ${prefix}, so `pkg-config --define-prefix` works.
sed_escape() { printf '%s' "$1" | sed -e 's/[\\|&]/\\&/g'; }
pc="$(mktemp)"
sed -e "s|@prefix@|$(sed_escape "$prefix")|g" -e "s|@libdir@|\${prefix}/lib|g" \
    -e "s|@includedir@|\${prefix}/include|g" -e "s|@version@|$(sed_escape "$version")|g" \
    "$root/scripts/emend.pc.in" > "$pc"
if grep -q '@[a-z_]*@' "$pc"; then
    echo "install: unsubstituted placeholder left in emend.pc" >&2
    exit 1
fi
put "$pc" "lib/pkgconfig/emend.pc" 0644
rm -f "$pc"

# libemend-gtk4: built against the library above, found beside it at run time ($ORIGIN).
if [ "${EMEND_INSTALL_GTK:-1}" != 0 ] && pkg-config --exists gtk4; then
    gtk_stage="$(mktemp -d)"
    gtk_lib="$(EMEND_GTK_INSTALLED=1 bash "$root/gtk/build.sh" "$gtk_stage" "$bin_dir")"
    strip --strip-unneeded "$gtk_lib"
    put "$gtk_lib" "lib/libemend-gtk4.so.$version" 0755
    link "libemend-gtk4.so.$version" "lib/libemend-gtk4.so.$major"
    link "libemend-gtk4.so.$major" "lib/libemend-gtk4.so"
    put "$root/gtk/include/emend-gtk.h" "include/emend-gtk.h" 0644
    sed -e "s|@prefix@|$(sed_escape "$prefix")|g" -e "s|@libdir@|\${prefix}/lib|g" \
        -e "s|@includedir@|\${prefix}/include|g" -e "s|@version@|$(sed_escape "$version")|g" \
        "$root/gtk/emend-gtk4.pc.in" > "$gtk_stage/emend-gtk4.pc"
    if grep -q '@[a-z_]*@' "$gtk_stage/emend-gtk4.pc"; then
        echo "install: unsubstituted placeholder left in emend-gtk4.pc" >&2
        exit 1
    fi
    put "$gtk_stage/emend-gtk4.pc" "lib/pkgconfig/emend-gtk4.pc" 0644
    put "$root/docs/man/emend-gtk.3" "share/man/man3/emend-gtk.3" 0644
    rm -rf "$gtk_stage"
elif [ "${EMEND_INSTALL_GTK:-1}" != 0 ]; then
    echo "install: libemend-gtk4 is left out: GTK 4's development files are missing (bash scripts/install-deps.sh)" >&2
fi

put "$cli" "bin/emend" 0755
put "$bin_dir/emend-scan" "lib/emend/emend-scan" 0755
host="$(mktemp)"
cp "$bin_dir/emend-provider-host" "$host"
strip --strip-unneeded "$host"
put "$host" "lib/emend/emend-provider-host" 0755
rm -f "$host"
for unit in emend.socket emend.service; do
    unit_file="$(mktemp)"
    sed -e "s|@LIBEXECDIR@|$(sed_escape "$prefix/lib/emend")|g" "$root/scripts/systemd/$unit" > "$unit_file"
    put "$unit_file" "lib/systemd/user/$unit" 0644
    rm -f "$unit_file"
done
mkdirs "lib/emend/providers"
chmod 0755 "$top/lib/emend" "$top/lib/emend/providers"

# ---- providers ---------------------------------------------------------------------------
if [ "${EMEND_INSTALL_PROVIDERS:-1}" != 0 ]; then
    staging="$(mktemp -d)"
    bash "$root/providers/hunspell/build.sh" "$staging" >/dev/null
    bash "$root/providers/openai/build.sh" "$staging" >/dev/null
    # Harper: its checker and harper-py live in the prefix, so the install works without the clone.
    python_dir="$prefix/lib/emend/python"
    mkdirs "lib/emend/python"
    # The JSON-lines loop of the Python checkers: each imports it from its own directory.
    put "$root/providers/process/checker_loop.py" "lib/emend/checker_loop.py" 0644
    HARPER_DEPS="$top/lib/emend/python" bash "$root/providers/harper/setup.sh" >&2
    put "$root/providers/harper/harper_server.py" "lib/emend/harper_server.py" 0644
    HARPER_DEPS="$python_dir" HARPER_SERVER="$prefix/lib/emend/harper_server.py" \
        bash "$root/providers/harper/build.sh" "$staging" >/dev/null
    # LingoTweaker (LanguageTool's rules): the same way, with its language data (en de fr, or
    # LINGOTWEAKER_LANGUAGES); EMEND_INSTALL_LINGOTWEAKER=0 leaves it out (it takes ~100 MB here
    # and ~400 MiB of memory per language in use).
    if [ "${EMEND_INSTALL_LINGOTWEAKER:-1}" != 0 ]; then
        mkdirs "lib/emend/lingotweaker"
        LINGOTWEAKER_DEPS="$top/lib/emend/lingotweaker" bash "$root/providers/lingotweaker/setup.sh" >&2
        put "$root/providers/lingotweaker/lingotweaker_server.py" "lib/emend/lingotweaker_server.py" 0644
        LINGOTWEAKER_DEPS="$prefix/lib/emend/lingotweaker" LINGOTWEAKER_SERVER="$prefix/lib/emend/lingotweaker_server.py" \
            bash "$root/providers/lingotweaker/build.sh" "$staging" >/dev/null
    fi
    if [ -f "$root/.deps/llama.env" ] || [ -n "${EMEND_LLAMA_PREFIX:-}" ]; then
        bash "$root/providers/llama/build.sh" "$staging" >/dev/null
    else
        echo "install: the llama provider is left out (run scripts/setup-llama.sh first to include it)" >&2
    fi
    for plugin in "$staging"/*.so; do put "$plugin" "lib/emend/providers/$(basename "$plugin")" 0755; done
    rm -rf "$staging"
    record_tree "lib/emend/python"
    if [ "${EMEND_INSTALL_LINGOTWEAKER:-1}" != 0 ]; then record_tree "lib/emend/lingotweaker"; fi
fi

# ---- manual pages and completions --------------------------------------------------------
cache="${XDG_CACHE_HOME:-$HOME/.cache}/emend/man-$(sha256sum "$cli" | cut -c1-16)"
if [ ! -f "$cache/emend.1" ]; then
    # Generated from the argument parser (swift-argument-parser's generate-manual plugin),
    # cached per build of the command.
    mkdir -p "$cache"
    swift package --package-path "$root" --allow-writing-to-directory "$cache" \
        generate-manual --multi-page --output-directory "$cache" >&2
fi
for page in "$cache"/emend*.1; do
    name="$(basename "$page" .1)"
    [ "$name" = "emend.help" ] && continue
    # emend.proofread -> emend-proofread, as man pages of subcommands are named (git-log).
    dashed="${name//./-}"
    upper="$(printf '%s' "$dashed" | tr '[:lower:]' '[:upper:]')"
    fixed="$(mktemp)"
    sed -e "s/^\.Dt [^ ]* 1$/.Dt $upper 1/" "$page" > "$fixed"
    put "$fixed" "share/man/man1/$dashed.1" 0644
    rm -f "$fixed"
done
put "$root/docs/man/emend.3" "share/man/man3/emend.3" 0644

completions="$(mktemp -d)"
"$cli" --generate-completion-script bash > "$completions/emend.bash"
"$cli" --generate-completion-script zsh > "$completions/_emend"
"$cli" --generate-completion-script fish > "$completions/emend.fish"
put "$completions/emend.bash" "share/bash-completion/completions/emend" 0644
put "$completions/_emend" "share/zsh/site-functions/_emend" 0644
put "$completions/emend.fish" "share/fish/vendor_completions.d/emend.fish" 0644
rm -rf "$completions"

if [ -d "$root/editors/nvim" ]; then
    tree "$root/editors/nvim" "share/nvim/site/pack/emend/start/emend"
    # The help tags, as :helptags writes them: `:help emend` works at once (no editor needed here).
    rm -f "$top/share/nvim/site/pack/emend/start/emend/doc/tags"
    bash "$root/scripts/lib/helptags.sh" "$top/share/nvim/site/pack/emend/start/emend/doc"
    entries+=("share/nvim/site/pack/emend/start/emend/doc/tags")
fi

# ---- the manifest ------------------------------------------------------------------------
mkdirs "share/emend"
printf '%s\n' "${entries[@]}" "share/emend/install-manifest" | sort -u > "$manifest.tmp"
mv -f "$manifest.tmp" "$manifest"

# The summary: a path and what it is, the second column lined up whatever the names' lengths.
summary=("bin/emend" "the command (emend --help, man emend)"
         "lib/$real" "the library ($(du -h "$top/lib/$real" | cut -f1), SONAME $soname), include/, lib/pkgconfig/emend.pc")
[ -f "$top/lib/libemend-gtk4.so.$version" ] &&
    summary+=("lib/libemend-gtk4.so.$version" "Writing Tools for GTK 4 text views (pkg-config emend-gtk4, man emend-gtk)")
[ -d "$top/lib/emend/providers" ] &&
    summary+=("lib/emend/providers/" "$(cd "$top/lib/emend/providers" && ls | tr '\n' ' ' | sed 's/ $//')")
summary+=("share/man/" "manual pages (man emend, man 3 emend)"
          "share/*/completions" "for bash, zsh and fish")
[ -d "$top/share/nvim/site/pack/emend/start/emend" ] &&
    summary+=("share/nvim/site/pack/emend/" "the Neovim plugin (:help emend)")
width=0
for ((i = 0; i < ${#summary[@]}; i += 2)); do
    [ "${#summary[i]}" -gt "$width" ] && width=${#summary[i]}
done
echo "installed emend $version into $destdir$prefix ($(grep -vc '/$' "$manifest") files; list: $manifest):"
for ((i = 0; i < ${#summary[@]}; i += 2)); do
    printf '  %-*s  %s\n' "$width" "${summary[i]}" "${summary[i + 1]}"
done
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on PATH; add this line to your shell's profile:"
       echo "  export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
