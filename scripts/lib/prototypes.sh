# prototypes.sh — shell helpers to list the emend_* function prototypes of a C header or of a
# Swift-generated (-emit-clang-header-path) header. Source it from a script in scripts/:
#
#   . "$root/scripts/lib/prototypes.sh"
#   proto_c_header include/emend.h        # name<TAB>decl<TAB>ret<TAB>param... per function
#   proto_swift_header emend-swift.h      # the same for SWIFT_EXTERN emend_* declarations
#   proto_opaque_types include/emend.h    # handle typedefs declared but never defined
#
# The C header is run through the preprocessor (cc -E) with its <system> includes replaced
# by empty files, so macros and comments are gone but nothing from libc is listed.
# The record format is documented in prototypes.awk next to this file.

_proto_awk="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/prototypes.awk"

# _proto_preprocess HEADER: the header's own text, preprocessed as C.
_proto_preprocess() {
    local header="$1" fake inc
    fake="$(mktemp -d)"
    # an empty stand-in for every <...> include, so only the header itself is expanded
    grep -oE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<[^>]+>' "$header" \
        | sed -E 's/.*<([^>]+)>.*/\1/' | while read -r inc; do
            mkdir -p "$fake/$(dirname "$inc")"
            : > "$fake/$inc"
        done
    if ! cc -E -P -std=c11 -nostdinc -I"$fake" -I"$(dirname "$header")" "$header"; then
        rm -rf "$fake"
        echo "prototypes: cannot preprocess $header" >&2
        return 1
    fi
    rm -rf "$fake"
}

proto_c_header() {
    local text
    text="$(_proto_preprocess "$1")" || return 1
    printf '%s\n' "$text" | awk -v mode=c -f "$_proto_awk"
}

proto_swift_header() {
    awk -v mode=swift -f "$_proto_awk" "$1"
}

proto_opaque_types() {
    local text
    text="$(_proto_preprocess "$1")" || return 1
    printf '%s\n' "$text" | awk -v mode=c -v list=opaque -f "$_proto_awk" | sort
}
