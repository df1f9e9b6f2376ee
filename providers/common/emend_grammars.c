/* emend_grammars.c — see emend_grammars.h. */
#include "emend_grammars.h"

#include <stddef.h>

/* Strings are at most 80 (original) or 160 bytes so a looping model cannot run away. */
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
