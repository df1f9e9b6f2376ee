/* emend_grammars.c — see emend_grammars.h. */
#include "emend_grammars.h"

#include <stddef.h>
#include <stdio.h>

/* Strings are at most 80 (original) or 160 characters so a looping model cannot run away. */
const char emend_grammar_edits[] =
    "root ::= \"{\\\"edits\\\":[\" ( edit ( \",\" edit ){0,11} )? \"]}\"\n"
    "edit ::= \"{\\\"original\\\":\\\"\" chars1 \"\\\",\\\"replacement\\\":\\\"\" chars0 "
    "\"\\\",\\\"explanation\\\":\\\"\" chars0 \"\\\"}\"\n"
    "chars1 ::= char{1,80}\n"
    "chars0 ::= char{0,160}\n"
    "char ::= [^\"\\\\\\x00-\\x1f] | \"\\\\\" [\"\\\\/nt]\n";

const char emend_grammar_key_points[] =
    "root ::= item{1,5}\n"
    "item ::= \"- \" [^\\n\\r\\t ] [^\\n\\r]{0,200} \"\\n\"\n";

const char emend_grammar_list[] =
    "root ::= item{1,30}\n"
    "item ::= \"- \" [^\\n\\r\\t ] [^\\n\\r]{0,200} \"\\n\"\n";

const char emend_grammar_table[] =
    "root ::= t2 | t3 | t4 | t5 | t6\n"
    "t2 ::= r2 \"|---|---|\\n\" r2{1,20}\n"
    "r2 ::= \"|\" c \"|\" c \"|\\n\"\n"
    "t3 ::= r3 \"|---|---|---|\\n\" r3{1,20}\n"
    "r3 ::= \"|\" c \"|\" c \"|\" c \"|\\n\"\n"
    "t4 ::= r4 \"|---|---|---|---|\\n\" r4{1,20}\n"
    "r4 ::= \"|\" c \"|\" c \"|\" c \"|\" c \"|\\n\"\n"
    "t5 ::= r5 \"|---|---|---|---|---|\\n\" r5{1,20}\n"
    "r5 ::= \"|\" c \"|\" c \"|\" c \"|\" c \"|\" c \"|\\n\"\n"
    "t6 ::= r6 \"|---|---|---|---|---|---|\\n\" r6{1,20}\n"
    "r6 ::= \"|\" c \"|\" c \"|\" c \"|\" c \"|\" c \"|\" c \"|\\n\"\n"
    "c ::= \" \" [^|\\n ] [^|\\n]{0,60}\n";

const char *emend_grammar_for(emend_tool tool) {
    switch (tool) {
    case EMEND_TOOL_PROOFREAD: return emend_grammar_edits;
    case EMEND_TOOL_KEY_POINTS: return emend_grammar_key_points;
    case EMEND_TOOL_LIST: return emend_grammar_list;
    case EMEND_TOOL_TABLE: return emend_grammar_table;
    default: return NULL;
    }
}

int emend_table_row_limit(const char *input, size_t length) {
    int units = 0, line_has_text = 0, line_ended = 0;
    for (size_t i = 0; i <= length; i++) {
        char c = i < length ? input[i] : '\n';
        if (c == '\n') {
            if (line_has_text && !line_ended) units++;
            line_has_text = line_ended = 0;
        } else if ((c == '.' || c == '!' || c == '?') && (i + 1 >= length || input[i + 1] == ' ' || input[i + 1] == '\n')) {
            units++;
            line_ended = 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            line_has_text = 1;
            line_ended = 0;
        }
    }
    return units < 2 ? 2 : units > 20 ? 20 : units;
}

char *emend_grammar_table_rows(int rows, char *out, size_t size) {
    if (rows < 1) rows = 1;
    if (rows > 20) rows = 20;
    size_t used = 0;
    int n = snprintf(out, size, "root ::= t2 | t3 | t4 | t5 | t6\n");
    for (int columns = 2; n >= 0 && (size_t)n < size - used && columns <= 6; columns++) {
        used += (size_t)n;
        n = snprintf(out + used, size - used, "t%d ::= r%d \"|", columns, columns);
        for (int c = 0; c < columns && n >= 0 && (size_t)n < size - used; c++) {
            used += (size_t)n;
            n = snprintf(out + used, size - used, "---|");
        }
        if (n < 0 || (size_t)n >= size - used) break;
        used += (size_t)n;
        n = snprintf(out + used, size - used, "\\n\" r%d{1,%d}\nr%d ::= \"|\"", columns, rows, columns);
        for (int c = 0; c < columns && n >= 0 && (size_t)n < size - used; c++) {
            used += (size_t)n;
            n = snprintf(out + used, size - used, " c \"|\"");
        }
        if (n < 0 || (size_t)n >= size - used) break;
        used += (size_t)n;
        n = snprintf(out + used, size - used, " \"\\n\"\n");
    }
    if (n < 0 || (size_t)n >= size - used) return NULL;
    used += (size_t)n;
    n = snprintf(out + used, size - used, "c ::= \" \" [^|\\n ] [^|\\n]{0,60}\n");
    return n < 0 || (size_t)n >= size - used ? NULL : out;
}
