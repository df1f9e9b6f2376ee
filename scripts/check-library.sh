#!/usr/bin/env bash
# check-library.sh — check that a built libemend.so is fit to ship.
#
#   bash scripts/check-library.sh [LIB]
#
# LIB defaults to the release build (built first through scripts/build-release.sh, which is
# quick when up to date; EMEND_SCRATCH picks its scratch dir). Works on an installed copy too,
# e.g. bash scripts/check-library.sh /usr/local/lib/libemend.so.0
#
# Checks, each printed as "ok" or "FAIL" (plus "info" lines), exit 1 if any fails:
#   - SONAME is libemend.so.0 (readelf -d);
#   - the only GLOBAL/WEAK/UNIQUE *defined* dynamic symbols are emend_* (readelf --dyn-syms;
#     Swift symbols that the version script turned LOCAL are fine), and they are exactly
#     the functions include/emend.h declares;
#   - NEEDED libraries are all in {libc.so.6, libm.so.6, libstdc++.so.6, libgcc_s.so.1, libffi.so.8,
#     libcmark-gfm(-extensions).so.0.29.0.gfm.6,
#     ld-linux-x86-64.so.2}: no libswiftCore, libFoundation, libdispatch...;
#   - `env -i PATH=/usr/bin:/bin ldd LIB` resolves everything, outside any Swift toolchain;
#   - no executable stack and no text relocations (either makes dlopen fail on hardened or
#     recent glibc systems);
#   - it loads: a small C program built with plain cc dlopen()s LIB by path with RTLD_NOW and
#     calls emend_abi_version() (must equal EMEND_ABI_VERSION of include/emend.h) and
#     emend_status_name() through dlsym, run under `env -i`.
# Works from any directory; needs no network.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/lib/prototypes.sh"

if [ "$#" -gt 1 ]; then
    echo "usage: $0 [LIB]" >&2
    exit 2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

if [ "$#" -eq 1 ]; then
    lib="$1"
else
    echo "..    building release libemend.so (scripts/build-release.sh)"
    if ! lib="$(bash "$root/scripts/build-release.sh" ${EMEND_SCRATCH:+"$EMEND_SCRATCH"} 2> "$tmp/build.log")"; then
        tail -n 40 "$tmp/build.log" >&2
        echo "check-library: the release build failed" >&2
        exit 1
    fi
fi
[ -f "$lib" ] || { echo "check-library: no such file: $lib" >&2; exit 2; }
lib="$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")"
for tool in readelf ldd cc; do
    command -v "$tool" >/dev/null || { echo "check-library: $tool is required" >&2; exit 2; }
done

failures=0
ok()   { printf 'ok    %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; failures=$((failures + 1)); }
info() { printf 'info  %s\n' "$*"; }
indent() { sed 's/^/      /'; }

echo "== check-library: $lib"
readelf -d "$lib" > "$tmp/dynamic"
readelf --dyn-syms -W "$lib" > "$tmp/dynsyms"
readelf -lW "$lib" > "$tmp/segments"

# --- SONAME -------------------------------------------------------------------------------
soname="$(sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p' "$tmp/dynamic")"
if [ "$soname" = "libemend.so.0" ]; then
    ok "SONAME is libemend.so.0"
else
    fail "SONAME is '${soname:-<none>}', expected libemend.so.0"
fi

# --- exported symbols -----------------------------------------------------------------------
# readelf --dyn-syms -W columns: Num: Value Size Type Bind Vis Ndx Name
awk '$1 ~ /^[0-9]+:$/ && ($5 == "GLOBAL" || $5 == "WEAK" || $5 == "UNIQUE") && $7 != "UND" {
        name = $8; sub(/@.*/, "", name); print name "\t" $4 "\t" $5
     }' "$tmp/dynsyms" | sort > "$tmp/exported"
awk '$1 ~ /^[0-9]+:$/ && $5 == "LOCAL" && $7 != "UND"' "$tmp/dynsyms" | wc -l | tr -d ' ' > "$tmp/nlocal"
cut -f1 "$tmp/exported" | grep -E '^emend_' > "$tmp/emend" || true
awk -F'\t' '$1 !~ /^emend_/' "$tmp/exported" > "$tmp/foreign"
nemend="$(wc -l < "$tmp/emend" | tr -d ' ')"
if [ ! -s "$tmp/foreign" ] && [ "$nemend" -gt 0 ]; then
    ok "defined GLOBAL/WEAK dynamic symbols: $nemend, all emend_* ($(cat "$tmp/nlocal") LOCAL ones ignored)"
elif [ "$nemend" -eq 0 ]; then
    fail "no emend_* symbol is exported"
fi
if [ -s "$tmp/foreign" ]; then
    fail "$(wc -l < "$tmp/foreign" | tr -d ' ') defined GLOBAL/WEAK dynamic symbols are not emend_* (name, type, binding):"
    head -n 40 "$tmp/foreign" | indent
    [ "$(wc -l < "$tmp/foreign")" -le 40 ] || echo "      ..."
fi
nonfunc="$(awk -F'\t' '$1 ~ /^emend_/ && $2 != "FUNC" { print $1 " (" $2 ")" }' "$tmp/exported")"
[ -z "$nonfunc" ] || info "emend_* symbols that are not functions: $(echo $nonfunc)"

# exported emend_* functions vs the header's declarations
if proto_c_header "$root/include/emend.h" > "$tmp/h.tsv" 2> "$tmp/h.err"; then
    cut -f1 "$tmp/h.tsv" | sort -u > "$tmp/declared"
    missing="$(comm -23 "$tmp/declared" "$tmp/emend")"
    extra="$(comm -13 "$tmp/declared" "$tmp/emend")"
    if [ -z "$missing" ] && [ -z "$extra" ]; then
        ok "exported emend_* symbols are exactly the $(wc -l < "$tmp/declared" | tr -d ' ') functions of include/emend.h"
    else
        [ -z "$missing" ] || { fail "declared in include/emend.h but not exported:"; printf '%s\n' "$missing" | indent; }
        [ -z "$extra" ] || { fail "exported but not declared in include/emend.h:"; printf '%s\n' "$extra" | indent; }
    fi
else
    fail "could not read the function declarations of include/emend.h:"
    indent < "$tmp/h.err"
fi

# --- dependencies ---------------------------------------------------------------------------
# libffi.so.8 (Debian libffi8) binds the simple form of providers; it is part of the design.
# libcmark-gfm (Debian libcmark-gfm0, libcmark-gfm-extensions0) parses Markdown results.
allowed=" libc.so.6 libm.so.6 libstdc++.so.6 libgcc_s.so.1 ld-linux-x86-64.so.2 libffi.so.8 libcmark-gfm.so.0.29.0.gfm.6 libcmark-gfm-extensions.so.0.29.0.gfm.6 "
sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p' "$tmp/dynamic" > "$tmp/needed"
bad_needed=""
while IFS= read -r n; do
    case "$allowed" in *" $n "*) ;; *) bad_needed="$bad_needed $n" ;; esac
done < "$tmp/needed"
if [ -z "$bad_needed" ]; then
    ok "NEEDED: $(tr '\n' ' ' < "$tmp/needed")(all in the allowed set)"
else
    allowed_list="${allowed# }"; fail "NEEDED libraries outside {${allowed_list% }}:$bad_needed"
fi
if env -i PATH=/usr/bin:/bin ldd "$lib" > "$tmp/ldd" 2>&1; then
    notfound="$(grep -E 'not found' "$tmp/ldd" || true)"
    toolchain="$(grep -iE '=> .*(swift|/opt/|\.build)' "$tmp/ldd" || true)"
    if [ -n "$notfound" ]; then
        fail "ldd (env -i) cannot resolve:"
        printf '%s\n' "$notfound" | indent
    elif [ -n "$toolchain" ]; then
        fail "ldd (env -i) resolves libraries from a toolchain or build dir:"
        printf '%s\n' "$toolchain" | indent
    else
        ok "ldd (env -i PATH=/usr/bin:/bin) resolves everything:"
        grep -v 'linux-vdso' "$tmp/ldd" | sed 's/ (0x[0-9a-f]*)//; s/^[[:space:]]*//' | indent
    fi
else
    fail "ldd (env -i) failed:"
    indent < "$tmp/ldd"
fi

rpath="$(sed -n 's/.*(\(RPATH\|RUNPATH\)).*\[\(.*\)\].*/\1 \2/p' "$tmp/dynamic")"
[ -z "$rpath" ] || info "$rpath (set by SwiftPM; the loader searches it first for NEEDED libraries)"

# --- loadability hazards --------------------------------------------------------------------
stack="$(awk '$1 == "GNU_STACK" { print $(NF-1) }' "$tmp/segments")"
case "$stack" in
    RW) ok "stack is not executable (GNU_STACK RW)" ;;
    "") fail "no GNU_STACK segment: the loader assumes an executable stack" ;;
    *) fail "GNU_STACK flags are '$stack': the library asks for an executable stack" ;;
esac
if grep -qE '\(TEXTREL\)|TEXTREL' "$tmp/dynamic"; then
    fail "the library has text relocations (TEXTREL)"
else
    ok "no text relocations"
fi

# --- it loads -------------------------------------------------------------------------------
cat > "$tmp/load.c" <<'CEOF'
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "emend.h"

int main(int argc, char **argv) {
    uint32_t (*abi_version)(void);
    const char *(*status_name)(emend_status);
    void *handle;
    uint32_t version;
    const char *name;
    if (argc != 2) return 2;
    handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) { printf("dlopen failed: %s\n", dlerror()); return 1; }
    *(void **)&abi_version = dlsym(handle, "emend_abi_version");
    *(void **)&status_name = dlsym(handle, "emend_status_name");
    if (abi_version == NULL || status_name == NULL) { printf("dlsym failed: %s\n", dlerror()); return 1; }
    version = abi_version();
    name = status_name(EMEND_E_RANGE);
    printf("emend_abi_version() = %u (EMEND_ABI_VERSION in emend.h: %d); emend_status_name(EMEND_E_RANGE) = \"%s\"\n",
           (unsigned)version, EMEND_ABI_VERSION, name ? name : "(null)");
    if (version != EMEND_ABI_VERSION) return 3;
    if (name == NULL || strcmp(name, "EMEND_E_RANGE") != 0) return 4;
    return 0;
}
CEOF
if ! cc -std=c11 -Wall -Wextra -I"$root/include" -o "$tmp/load" "$tmp/load.c" -ldl > "$tmp/cc.out" 2>&1; then
    fail "could not compile the load test with cc:"
    indent < "$tmp/cc.out"
else
    set +e
    (cd "$tmp" && env -i ./load "$lib") > "$tmp/load.out" 2>&1
    rc=$?
    set -e
    case "$rc" in
        0) ok "loads under env -i: dlopen(RTLD_NOW) + dlsym: $(cat "$tmp/load.out")" ;;
        3) fail "loads, but the ABI version differs from the header: $(cat "$tmp/load.out")" ;;
        4) fail "loads, but emend_status_name is wrong: $(cat "$tmp/load.out")" ;;
        *) fail "does not load under env -i (exit $rc):"; indent < "$tmp/load.out" ;;
    esac
fi

if [ "$failures" -eq 0 ]; then
    echo "== check-library: all checks passed"
else
    echo "== check-library: $failures failure(s)"
    exit 1
fi
