# compare-prototypes.awk — pair the emend_* prototypes of the C header with those Swift
# generated for the @_cdecl exports, and spell each Swift prototype with the header's types.
#
# Used by scripts/check-header.sh; not meant to be run by hand. Three inputs, in order:
#   1. opaque handle typedef names of the header (proto_opaque_types), one per line
#   2. the header's records   (proto_c_header)
#   3. the Swift records      (proto_swift_header)
# Output lines:
#   ONLY_HEADER <TAB> name <TAB> header declaration
#   ONLY_SWIFT  <TAB> name <TAB> swift declaration
#   DECL <TAB> name <TAB> swift prototype in header spelling <TAB> header decl <TAB> swift decl
#
# Swift's generated header cannot say everything the C header says, so a few spellings are
# mapped back (and only where the header's parameter at the same position agrees):
#   void * (OpaquePointer)  -> pointer to an opaque handle type of the header, with its const
#                              (emend_coordinator *, const emend_coordinator *, ...)
#   NSInteger / NSUInteger  -> size_t, ssize_t, ptrdiff_t, intptr_t or uintptr_t (Swift
#                              imports size_t as Int, so Int is the right Swift spelling)
# Everything else is kept as Swift wrote it, and the C compiler judges the redeclaration.

BEGIN { FS = "\t"; file = 0 }
FNR == 1 { file++ }

function suffix(t,    p) { p = index(t, " *"); return p ? substr(t, p) : "" }
function basetype(t,    p) { p = index(t, " *"); return p ? substr(t, 1, p - 1) : t }
function bare(b) { sub(/^const /, "", b); return b }
function depth(t,    n, tmp) { tmp = t; n = gsub(/\*/, "*", tmp); return n }
function isconst(b) { return b ~ /^const / }

function map(g, h,    gb, hb, gd, hd) {
    gb = basetype(g); hb = basetype(h); gd = depth(g); hd = depth(h)
    if (bare(gb) == "void" && gd >= 1 && gd == hd && (bare(hb) in opaque)) return h
    if (bare(gb) ~ /^NSU?Integer$/ && gd == hd && bare(hb) ~ /^(size_t|ssize_t|ptrdiff_t|intptr_t|uintptr_t)$/)
        return (isconst(gb) ? "const " : "") bare(hb) suffix(g)
    return g
}

file == 1 { if ($1 != "") opaque[$1] = 1; next }
file == 2 { hn[$1] = NF; hdecl[$1] = $2; for (i = 3; i <= NF; i++) ht[$1, i] = $i; horder[++nh] = $1; next }
file == 3 { gn[$1] = NF; gdecl[$1] = $2; for (i = 3; i <= NF; i++) gt[$1, i] = $i; gorder[++ng] = $1; next }

END {
    for (k = 1; k <= nh; k++) { n = horder[k]; if (!(n in gn)) print "ONLY_HEADER\t" n "\t" hdecl[n] }
    for (k = 1; k <= ng; k++) { n = gorder[k]; if (!(n in hn)) print "ONLY_SWIFT\t" n "\t" gdecl[n] }
    for (k = 1; k <= nh; k++) {
        n = horder[k]
        if (!(n in gn)) continue
        ret = (gn[n] >= 3) ? map(gt[n, 3], ht[n, 3]) : "int"
        params = ""
        for (i = 4; i <= gn[n]; i++) {
            p = (i <= hn[n]) ? map(gt[n, i], ht[n, i]) : gt[n, i]
            params = params (params == "" ? "" : ", ") p
        }
        if (params == "") params = "void"
        print "DECL\t" n "\t" ret " " n "(" params ")\t" hdecl[n] "\t" gdecl[n]
    }
}
