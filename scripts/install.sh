#!/usr/bin/env bash
# install.sh — build the release libemend.so and install library, headers and emend.pc.
#
#   bash scripts/install.sh PREFIX                 # e.g. /usr/local, or ./prefix to try it out
#   DESTDIR=/tmp/stage bash scripts/install.sh /usr # staged install (packaging)
#   EMEND_SCRATCH=.build-x bash scripts/install.sh PREFIX   # build in another scratch dir
#
# Installs (under $DESTDIR$PREFIX):
#   lib/libemend.so.<VERSION>   stripped with `strip --strip-unneeded`
#   lib/libemend.so.<MAJOR>     -> libemend.so.<VERSION>   (the soname)
#   lib/libemend.so             -> libemend.so.<MAJOR>     (for -lemend)
#   include/*.h                 the C ABI (include/emend.h)
#   lib/pkgconfig/emend.pc      from scripts/emend.pc.in, with prefix = PREFIX
# The version comes from the VERSION file at the repository root; its major number must
# match the library's SONAME. Works from any directory; needs no network.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [ "$#" -ne 1 ] || [ -z "$1" ]; then
    echo "usage: $0 PREFIX   (DESTDIR and EMEND_SCRATCH are honoured)" >&2
    exit 2
fi

prefix="$1"
case "$prefix" in
    /*) ;;
    *) mkdir -p "$prefix"; prefix="$(cd "$prefix" && pwd)" ;;   # relative: from the cwd
esac
prefix="${prefix%/}"
[ -n "$prefix" ] || prefix="/"   # PREFIX=/ (unusual, but keep it valid)
case "$prefix" in
    *[[:space:]]*) echo "install: PREFIX must not contain spaces (pkg-config cannot express them): $prefix" >&2; exit 2 ;;
esac
destdir="${DESTDIR:-}"
destdir="${destdir%/}"

version="$(tr -d '[:space:]' < "$root/VERSION")"
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    echo "install: VERSION must read MAJOR.MINOR.PATCH, found '$version'" >&2
    exit 1
fi
major="${version%%.*}"

lib="$(bash "$root/scripts/build-release.sh" ${EMEND_SCRATCH:+"$EMEND_SCRATCH"})"

soname="$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')"
if [ "$soname" != "libemend.so.$major" ]; then
    echo "install: $lib has SONAME '${soname:-<none>}', expected libemend.so.$major (VERSION $version)" >&2
    exit 1
fi

libdir_rel="lib"
includedir_rel="include"
libdir="$destdir$prefix/$libdir_rel"
includedir="$destdir$prefix/$includedir_rel"
pcdir="$libdir/pkgconfig"
[ "$prefix" = "/" ] && { libdir="$destdir/$libdir_rel"; includedir="$destdir/$includedir_rel"; pcdir="$libdir/pkgconfig"; }

install -d "$libdir" "$includedir" "$pcdir"

# The library: install to a temporary name, strip, then move into place so that a
# half-written file never sits under the real name.
real="libemend.so.$version"
install -m 0644 "$lib" "$libdir/.$real.tmp"
strip --strip-unneeded "$libdir/.$real.tmp"
chmod 0755 "$libdir/.$real.tmp"
mv -f "$libdir/.$real.tmp" "$libdir/$real"
ln -sfn "$real" "$libdir/$soname"
ln -sfn "$soname" "$libdir/libemend.so"

# The provider scanner and the system-wide providers directory: <libdir>/emend/.
install -d "$libdir/emend/providers"
install -m 0755 "$(dirname "$lib")/emend-scan" "$libdir/emend/.emend-scan.tmp"
mv -f "$libdir/emend/.emend-scan.tmp" "$libdir/emend/emend-scan"

# Headers: every public header in include/.
shopt -s nullglob
headers=("$root"/include/*.h)
shopt -u nullglob
if [ "${#headers[@]}" -eq 0 ]; then
    echo "install: no headers found in $root/include" >&2
    exit 1
fi
install -m 0644 "${headers[@]}" "$includedir/"

# pkg-config file. libdir/includedir are written relative to ${prefix} so that
# `pkg-config --define-prefix` relocation keeps working.
sed_escape() { printf '%s' "$1" | sed -e 's/[\\|&]/\\&/g'; }
sed -e "s|@prefix@|$(sed_escape "$prefix")|g" \
    -e "s|@libdir@|\${prefix}/$libdir_rel|g" \
    -e "s|@includedir@|\${prefix}/$includedir_rel|g" \
    -e "s|@version@|$(sed_escape "$version")|g" \
    "$root/scripts/emend.pc.in" > "$pcdir/emend.pc.tmp"
if grep -q '@[a-z_]*@' "$pcdir/emend.pc.tmp"; then
    echo "install: unsubstituted placeholder left in emend.pc:" >&2
    grep '@[a-z_]*@' "$pcdir/emend.pc.tmp" >&2
    rm -f "$pcdir/emend.pc.tmp"
    exit 1
fi
chmod 0644 "$pcdir/emend.pc.tmp"
mv -f "$pcdir/emend.pc.tmp" "$pcdir/emend.pc"

echo "installed emend $version into $destdir$prefix:"
echo "  $libdir/$real ($(du -h "$libdir/$real" | cut -f1), stripped; SONAME $soname)"
echo "  $libdir/$soname -> $real"
echo "  $libdir/libemend.so -> $soname"
for h in "${headers[@]}"; do echo "  $includedir/$(basename "$h")"; done
echo "  $pcdir/emend.pc"
echo "  $libdir/emend/emend-scan (provider scanner); plugins go in $libdir/emend/providers"
