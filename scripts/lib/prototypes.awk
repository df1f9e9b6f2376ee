# prototypes.awk — turn C declarations into one record per emend_* function.
#
# Used by scripts/lib/prototypes.sh (see there); not meant to be run by hand.
# Input: C text (comments and preprocessor lines already gone), any line layout.
# Output, one line per function, tab separated:
#   name <TAB> declaration as written (whitespace collapsed) <TAB> return type <TAB> param...
# Types are canonical: names dropped, nullability and restrict dropped, qualifiers moved to a
# fixed place ("char const * _Nullable x" and "const char *x" both give "const char *"),
# top-level qualifiers dropped, "(void)" gives no params. Works with mawk and gawk.
#
# Variables: mode = "c" (a C header: every top-level emend_* function declaration) or
# "swift" (a Swift-generated header: only lines starting with SWIFT_EXTERN).

function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }

function is_keyword(t) {
    return t ~ /^(void|char|short|int|long|float|double|signed|unsigned|_Bool|bool|struct|enum|union|const|volatile)$/
}

function canon(t, isparam,    n, tok, i, last, hastype, out, level, base, bconst, pconst, k) {
    gsub(/\*/, " * ", t)
    gsub(/[ \t]+/, " ", t)
    t = trim(t)
    n = split(t, tok, " ")
    # drop nullability / restrict / attribute-ish words
    k = 0
    for (i = 1; i <= n; i++) {
        if (tok[i] ~ /^(_Nullable|_Nonnull|_Null_unspecified|_Nullable_result|restrict|__restrict|__restrict__|__unsafe_unretained|__strong)$/) continue
        tok[++k] = tok[i]
    }
    n = k
    # drop the parameter name
    if (isparam && n >= 2 && tok[n] ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && !is_keyword(tok[n])) {
        hastype = 0
        for (i = 1; i < n; i++) if (tok[i] !~ /^(const|volatile|struct|enum|union)$/) hastype = 1
        if (hastype) n--
    }
    level = 0; base = ""; bconst = 0
    for (i = 1; i <= n; i++) {
        if (tok[i] == "*") { level++; pconst[level] = 0; continue }
        if (tok[i] == "const") { if (level == 0) bconst = 1; else pconst[level] = 1; continue }
        base = base (base == "" ? "" : " ") tok[i]
    }
    out = base
    if (level > 0 && bconst) out = "const " out
    for (i = 1; i <= level; i++) {
        out = out " *"
        if (i < level && pconst[i]) out = out " const"
    }
    return out
}

function emit(s,    m, pre, name, rest, depth, i, c, args, tail, nargs, arg, rec) {
    gsub(/[ \t\r\n]+/, " ", s)
    s = trim(s)
    if (s == "" || s ~ /[{}]/ || s ~ /^typedef /) return
    if (!match(s, /(^|[^A-Za-z0-9_])emend_[A-Za-z0-9_]*[ ]*\(/)) return
    pre = substr(s, 1, RSTART - 1)
    name = substr(s, RSTART, RLENGTH)
    rest = substr(s, RSTART + RLENGTH)        # after the "("
    if (name ~ /^[^e]/) { pre = pre substr(name, 1, 1); name = substr(name, 2) }
    sub(/[ ]*\($/, "", name)
    # the return type must not itself contain a parenthesis (function pointer typedefs etc.)
    if (pre ~ /[()]/ || trim(pre) == "") return
    pre = trim(pre)
    sub(/^extern /, "", pre)
    sub(/^SWIFT_EXTERN /, "", pre)
    depth = 1; args = ""; nargs = 0; arg = ""
    for (i = 1; i <= length(rest); i++) {
        c = substr(rest, i, 1)
        if (c == "(") depth++
        else if (c == ")") { depth--; if (depth == 0) break }
        if (c == "," && depth == 1) { argv_[++nargs] = arg; arg = ""; continue }
        arg = arg c
    }
    if (depth != 0) return
    tail = trim(substr(rest, i + 1))
    # anything after ")" must be attribute macros only (SWIFT_NOEXCEPT, __attribute__((...)))
    gsub(/__attribute__ ?\(\(.*\)\)/, "", tail)
    gsub(/SWIFT_[A-Z_]+(\([^)]*\))?/, "", tail)
    if (trim(tail) != "") return
    argv_[++nargs] = arg
    rec = name "\t" s "\t" canon(pre, 0)
    if (!(nargs == 1 && trim(argv_[1]) ~ /^(void)?$/))
        for (i = 1; i <= nargs; i++) rec = rec "\t" canon(argv_[i], 1)
    print rec
}

mode == "swift" {
    if ($0 ~ /^SWIFT_EXTERN / && $0 ~ /emend_/) { pending = $0 } else if (pending != "") { pending = pending " " $0 } else next
    if (pending ~ /;/) { sub(/;.*/, "", pending); emit(pending); pending = "" }
    next
}

mode == "c" && list != "opaque" {
    if ($0 ~ /^[ \t]*#/) next
    buf = buf " " $0
    # split at ; { } — only a chunk ended by ";" can be a declaration (a chunk ended by "{"
    # is a definition or a struct/enum head)
    while (match(buf, /[;{}]/)) {
        at = RSTART
        if (substr(buf, at, 1) == ";") emit(substr(buf, 1, at - 1))
        buf = substr(buf, at + 1)
    }
}

# list == "opaque": print the typedef names of handle types that the header declares but
# never defines (`typedef struct emend_coordinator emend_coordinator;`), one per line.
list == "opaque" && mode == "c" {
    obuf = obuf " " $0
    while (match(obuf, /[;{}]/)) {
        chunk = trim(substr(obuf, 1, RSTART - 1)); sep = substr(obuf, RSTART, 1)
        obuf = substr(obuf, RSTART + 1)
        gsub(/[ \t]+/, " ", chunk)
        if (sep == "{" && chunk ~ /^(typedef )?(struct|union) [A-Za-z_][A-Za-z0-9_]*$/) {
            nw = split(chunk, w, " "); defined[w[nw]] = 1
        } else if (sep == ";" && chunk ~ /^typedef (struct|union) [A-Za-z_][A-Za-z0-9_]* [A-Za-z_][A-Za-z0-9_]*$/) {
            split(chunk, w, " "); otag[w[4]] = w[3]
        }
    }
}
END { if (list == "opaque") for (t in otag) if (!(otag[t] in defined)) print t }
