/*
 * emend_grammars.h — GBNF grammars (llama.cpp's grammar format) for the tools whose output
 * has a required shape: the proofreading JSON, "- item" lists with a bounded count, and a
 * Markdown table whose rows all have the header's number of cells (2 to 6 columns).
 */
#ifndef EMEND_GRAMMARS_H
#define EMEND_GRAMMARS_H

#include "emend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* {"edits":[{"original":"..","replacement":"..","explanation":".."}, ...]}, at most 12 edits. */
extern const char emend_grammar_edits[];
/* 1 to 5 lines "- point\n". */
extern const char emend_grammar_key_points[];
/* 1 to 30 lines "- item\n". */
extern const char emend_grammar_list[];
/* A header row, a separator row, 1 to 20 rows; every row with the same 2 to 6 cells (see also
 * emend_grammar_table_rows). */
extern const char emend_grammar_table[];

/* The grammar for a tool (root rule "root"), or NULL for free text. */
const char *emend_grammar_for(emend_tool tool);

/* How many table rows the text input[0, length) can fill: one per sentence or unpunctuated
 * line, from 2 to 20. A small model given room for 20 rows fills it by repeating itself. */
int emend_table_row_limit(const char *input, size_t length);

/* emend_grammar_table with at most `rows` rows after the header (1 to 20), written to
 * out[0, size) (NUL-terminated; 2048 bytes suffice). Returns out, or NULL when it does not fit. */
char *emend_grammar_table_rows(int rows, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* EMEND_GRAMMARS_H */
