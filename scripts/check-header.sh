#!/usr/bin/env bash
# check-header.sh — check include/emend.h: it compiles on its own, and its prototypes agree
# with the functions the Swift target EmendCABI exports with @_cdecl.
#
#   bash scripts/check-header.sh [--header FILE] [--scratch DIR] [--swift-header FILE]
#
#   --header FILE        check FILE instead of include/emend.h (e.g. a modified copy)
#   --scratch DIR        SwiftPM scratch dir for the debug build (default: .build-header in
#                        the repository; EMEND_HEADER_SCRATCH also sets it)
#   --swift-header FILE  use an already generated Swift header instead of building
#
# Checks, each printed as "ok" or "FAIL":
#   1. the header compiles alone (included twice) as C11 with cc and as C++11 with c++, and
#      with clang / clang++ when they are on PATH:
#      -Wall -Wextra -Werror -pedantic -fsyntax-only (C also -Wstrict-prototypes);
#   2. builds the EmendCABI target (debug) with -emit-clang-header-path to get the C prototypes
#      Swift generates for its @_cdecl functions;
#   3. the emend_* function names of the header and of the Swift exports are the same set;
#   4. every Swift prototype, spelled with the header's types (see
#      scripts/lib/compare-prototypes.awk for the few spellings that are mapped), is compiled
#      as a redeclaration after #include "emend.h" with cc -std=c11 -Werror: a conflicting
#      type, parameter count or return type is a compile error, reported per function.
# Exits 1 if anything fails. Works from any directory; needs no network.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$root/scripts/lib/prototypes.sh"

header="$root/include/emend.h"
scratch="${EMEND_HEADER_SCRATCH:-$root/.build-header}"
swift_header=""
while [ "$#" -gt 0 ]; do
    case "$1" in
        --header) header="$2"; shift 2 ;;
        --scratch) scratch="$2"; shift 2 ;;
        --swift-header) swift_header="$2"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "usage: $0 [--header FILE] [--scratch DIR] [--swift-header FILE]" >&2; exit 2 ;;
    esac
done
[ -f "$header" ] || { echo "check-header: no such header: $header" >&2; exit 2; }
header="$(cd "$(dirname "$header")" && pwd)/$(basename "$header")"

failures=0
ok()   { printf 'ok    %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; failures=$((failures + 1)); }
indent() { sed 's/^/      /'; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "== check-header: $header"

# --- 1. the header on its own ------------------------------------------------------------
printf '#include "%s"\n#include "%s"\n' "$header" "$header" > "$tmp/alone.c"
cp "$tmp/alone.c" "$tmp/alone.cpp"

compile_alone() { # compiler std lang file extra...
    local cc="$1" std="$2" lang="$3" file="$4"
    shift 4
    if ! command -v "$cc" >/dev/null 2>&1; then
        return 0
    fi
    if "$cc" "-std=$std" -Wall -Wextra -Werror -pedantic "$@" -fsyntax-only "$file" > "$tmp/out" 2>&1; then
        ok "header compiles alone as $lang with $cc -std=$std ($("$cc" --version | head -n1))"
    else
        fail "header does not compile alone as $lang with $cc -std=$std:"
        head -n 25 "$tmp/out" | indent
        [ "$cc" != cc ] || c_alone_failed=1
    fi
}
command -v cc >/dev/null || { echo "check-header: cc is required" >&2; exit 2; }
command -v c++ >/dev/null || { echo "check-header: c++ is required" >&2; exit 2; }
compile_alone cc c11 C "$tmp/alone.c" -Wstrict-prototypes
compile_alone c++ c++11 C++ "$tmp/alone.cpp"
# The plugin header (emend_provider.h, which includes emend.h) must compile alone too.
provider_header="$(dirname "$header")/emend_provider.h"
if [ -f "$provider_header" ]; then
    printf '#include "%s"\n#include "%s"\n' "$provider_header" "$provider_header" > "$tmp/provider.c"
    cp "$tmp/provider.c" "$tmp/provider.cpp"
    compile_alone cc c11 "C (emend_provider.h)" "$tmp/provider.c" -Wstrict-prototypes
    compile_alone c++ c++11 "C++ (emend_provider.h)" "$tmp/provider.cpp"
fi
if command -v clang >/dev/null 2>&1; then
    compile_alone clang c11 C "$tmp/alone.c" -Wstrict-prototypes
else
    echo "skip  clang not on PATH"
fi
if command -v clang++ >/dev/null 2>&1; then
    compile_alone clang++ c++11 C++ "$tmp/alone.cpp"
else
    echo "skip  clang++ not on PATH"
fi

# --- 2. the prototypes Swift generates for the @_cdecl exports ----------------------------
if [ -z "$swift_header" ]; then
    mkdir -p "$scratch"
    scratch="$(cd "$scratch" && pwd)"
    swift_header="$scratch/emend-swift-header/emend-swift.h"
    mkdir -p "$(dirname "$swift_header")"
    args=(--package-path "$root" --scratch-path "$scratch")
    # -Xswiftc goes to every Swift module, so each one writes this path in turn; EmendCABI is
    # compiled last (it depends on the others). Remove EmendCABI's build products so that it is
    # really compiled again and the file is EmendCABI's, not a stale one or a dependency's.
    bin="$(swift build "${args[@]}" --show-bin-path)"
    rm -rf "$bin/EmendCABI.build" "$bin/Modules/EmendCABI.swiftmodule" "$bin/Modules/EmendCABI.swiftdoc" \
           "$bin/Modules/EmendCABI.abi.json" "$bin/Modules/EmendCABI.swiftsourceinfo" "$swift_header"
    echo "..    building target EmendCABI (debug, $scratch) to generate its C header"
    attempt=1
    while :; do
        if swift build "${args[@]}" --target EmendCABI \
            -Xswiftc -emit-clang-header-path -Xswiftc "$swift_header" > "$tmp/build.log" 2>&1; then
            break
        fi
        if [ "$attempt" -lt 3 ] && grep -q 'modified during the build' "$tmp/build.log"; then
            attempt=$((attempt + 1))
            echo "..    sources changed during the build; retrying ($attempt/3)"
            continue
        fi
        # A scratch dir from an earlier run whose build database still counts EmendCABI's
        # output file map (removed above) as made: start that scratch dir afresh, once.
        if [ "$attempt" -lt 3 ] && grep -q 'unable to load output file map' "$tmp/build.log"; then
            attempt=3
            echo "..    the scratch dir's build database is stale; building in a fresh one"
            rm -rf "$scratch"
            mkdir -p "$(dirname "$swift_header")"
            continue
        fi
        fail "swift build --target EmendCABI failed:"
        tail -n 40 "$tmp/build.log" | indent
        echo "== check-header: $failures failure(s)"
        exit 1
    done
    if [ ! -s "$swift_header" ] || ! grep -q 'defined_in="EmendCABI"' "$swift_header"; then
        fail "the build did not produce EmendCABI's generated header at $swift_header"
        echo "== check-header: $failures failure(s)"
        exit 1
    fi
    ok "generated Swift header: $swift_header"
else
    [ -f "$swift_header" ] || { echo "check-header: no such file: $swift_header" >&2; exit 2; }
    ok "using Swift header $swift_header"
fi

# --- 3. names -------------------------------------------------------------------------------
proto_opaque_types "$header" > "$tmp/opaque"
proto_c_header "$header" > "$tmp/h.tsv"
proto_swift_header "$swift_header" > "$tmp/g.tsv"
nh="$(wc -l < "$tmp/h.tsv" | tr -d ' ')"
ng="$(wc -l < "$tmp/g.tsv" | tr -d ' ')"
if [ "$nh" -eq 0 ]; then fail "found no emend_* function declarations in $header"; fi
if [ "$ng" -eq 0 ]; then fail "found no emend_* @_cdecl functions in $swift_header"; fi
for f in h g; do
    dups="$(cut -f1 "$tmp/$f.tsv" | sort | uniq -d)"
    if [ -n "$dups" ]; then
        fail "declared more than once in the $([ $f = h ] && echo header || echo Swift header): $(echo $dups)"
    fi
done

awk -f "$root/scripts/lib/compare-prototypes.awk" "$tmp/opaque" "$tmp/h.tsv" "$tmp/g.tsv" > "$tmp/cmp.tsv"
only_h="$(awk -F'\t' '$1 == "ONLY_HEADER"' "$tmp/cmp.tsv")"
only_g="$(awk -F'\t' '$1 == "ONLY_SWIFT"' "$tmp/cmp.tsv")"
if [ -z "$only_h" ] && [ -z "$only_g" ]; then
    ok "same $nh function names in the header and in the Swift exports"
else
    if [ -n "$only_h" ]; then
        fail "declared in the header but not exported by Swift (no @_cdecl):"
        printf '%s\n' "$only_h" | cut -f3 | sed 's/$/;/' | indent
    fi
    if [ -n "$only_g" ]; then
        fail "exported by Swift (@_cdecl) but not declared in the header:"
        printf '%s\n' "$only_g" | cut -f3 | sed 's/^SWIFT_EXTERN //; s/$/;/' | indent
    fi
fi

# --- 4. prototypes: redeclare each Swift prototype after the header -------------------------
preamble() {
    printf '#include "%s"\n#include <stdbool.h>\n#include <stddef.h>\n' "$header"
    printf 'typedef ptrdiff_t NSInteger;\ntypedef size_t NSUInteger;\n'
}
redeclare() { # fields of a DECL line -> C text
    awk -F'\t' '$1 == "DECL" { print "/* Swift: " $5 " */"; print $3 ";" }'
}
cflags=(-std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only)
if [ -n "${c_alone_failed:-}" ]; then
    fail "prototypes not compared: the header itself does not compile with cc (see above)"
    echo "== check-header: $failures failure(s)"
    exit 1
fi
ndecl="$(awk -F'\t' '$1 == "DECL"' "$tmp/cmp.tsv" | wc -l | tr -d ' ')"
{ preamble; redeclare < "$tmp/cmp.tsv"; } > "$tmp/redeclare.c"
if cc "${cflags[@]}" "$tmp/redeclare.c" > "$tmp/out" 2>&1; then
    ok "all $ndecl Swift prototypes agree with the header (redeclarations compile with cc -std=c11 -Werror)"
else
    # find out which ones: compile each redeclaration on its own
    bad=0
    while IFS= read -r line; do
        name="$(printf '%s\n' "$line" | cut -f2)"
        { preamble; printf '%s\n' "$line" | redeclare; } > "$tmp/one.c"
        if ! cc "${cflags[@]}" "$tmp/one.c" > "$tmp/one.out" 2>&1; then
            bad=$((bad + 1))
            fail "prototype mismatch: $name"
            {
                echo "header: $(printf '%s\n' "$line" | cut -f4);"
                echo "swift:  $(printf '%s\n' "$line" | cut -f5 | sed 's/^SWIFT_EXTERN //');"
                echo "swift in header spelling: $(printf '%s\n' "$line" | cut -f3);"
                grep -E 'error' "$tmp/one.out" | sed "s|$tmp/one.c|redeclare.c|" | head -n 3
            } | indent
        fi
    done < <(awk -F'\t' '$1 == "DECL"' "$tmp/cmp.tsv")
    if [ "$bad" -eq 0 ]; then
        fail "the redeclarations do not compile together, though each does alone:"
        sed "s|$tmp/redeclare.c|redeclare.c|" "$tmp/out" | head -n 20 | indent
    fi
fi

if [ "$failures" -eq 0 ]; then
    echo "== check-header: all checks passed"
else
    echo "== check-header: $failures failure(s)"
    exit 1
fi
