#!/usr/bin/env bash
# helptags.sh DOC_DIR — writes DOC_DIR/tags for the help files DOC_DIR/*.txt, as Vim's and
# Neovim's `:helptags DOC_DIR` would (same tag rule, same escaping, same byte order), so that
# an install needs no editor to make `:help emend` work. scripts/test-nvim.sh compares the
# result with Neovim's own `:helptags`.
set -euo pipefail
dir="${1:?usage: $0 DOC_DIR}"
shopt -s nullglob
files=("$dir"/*.txt)
[ "${#files[@]}" -gt 0 ] || { echo "helptags: no *.txt in $dir" >&2; exit 1; }
# A *tag* is text without spaces, tabs or bars between two stars, with white space (or the
# line's start) before it and white space (or the line's end) after it (Vim's helptags_one).
LC_ALL=C awk '
    function fname(path) { sub(/.*\//, "", path); return path }
    {
        line = $0
        sub(/\r$/, "", line)
        p1 = index(line, "*")
        while (p1 > 0) {
            q = index(substr(line, p1 + 1), "*")
            if (q == 0) break
            p2 = p1 + q
            if (p2 > p1 + 1) {
                tag = substr(line, p1 + 1, p2 - p1 - 1)
                before = p1 == 1 ? " " : substr(line, p1 - 1, 1)
                after = p2 == length(line) ? " " : substr(line, p2 + 1, 1)
                if (tag !~ /[ \t|]/ && before ~ /[ \t]/ && after ~ /[ \t]/) {
                    escaped = tag
                    gsub(/\\/, "\\\\", escaped)
                    gsub(/\//, "\\/", escaped)
                    print tag "\t" fname(FILENAME) "\t/*" escaped "*"
                }
            }
            p1 = p2
        }
    }' "${files[@]}" | LC_ALL=C sort > "$dir/tags.tmp"
dupes="$(cut -f1 "$dir/tags.tmp" | uniq -d)"
if [ -n "$dupes" ]; then
    rm -f "$dir/tags.tmp"
    echo "helptags: duplicate tags in $dir: $dupes" >&2
    exit 1
fi
mv -f "$dir/tags.tmp" "$dir/tags"
