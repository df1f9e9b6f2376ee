/*
 * output.h — from the server's pieces of content to what the host is given.
 *
 * Every piece first goes through a UTF-8 check that holds back a character split between
 * pieces (and turns bytes that can never be UTF-8 into U+FFFD), then through the tool's shape:
 *
 *   TEXT     streamed as it comes, without leading whitespace and without trailing whitespace
 *            (held back until more text follows).
 *   BULLETS  one line at a time: every line a "- " item (other markers "* ", "+ ", "• ", "1. ",
 *            "1) " become "- "); blank lines, code fences, headings and an introduction ending in
 *            ':' before the first item are dropped.
 *   TABLE    one line at a time: the first line with a '|' is the header, a separator follows it
 *            (the model's, with its alignment, or "---"), every row gets the header's number of
 *            cells (missing ones empty, extra ones joined into the last); text before the table
 *            is dropped, and so is everything after it.
 *   COLLECT  nothing is emitted; the whole answer is kept (proofreading JSON).
 */
#ifndef EMEND_OPENAI_OUTPUT_H
#define EMEND_OPENAI_OUTPUT_H

#include <stddef.h>

#include "emend_provider.h"

enum { OPENAI_SHAPE_TEXT, OPENAI_SHAPE_BULLETS, OPENAI_SHAPE_TABLE, OPENAI_SHAPE_COLLECT };

typedef struct openai_text {
    char *bytes;
    size_t length, capacity;
} openai_text;

typedef struct openai_output {
    int shape;
    emend_status (*emit)(void *context, const char *text, size_t length);
    void *context;
    unsigned char partial[4];  /* the start of a character split between pieces */
    size_t partial_length;
    openai_text line;          /* BULLETS, TABLE: the line being read */
    openai_text held;          /* TEXT: trailing whitespace not yet emitted */
    openai_text collected;     /* COLLECT: the whole answer */
    int columns;               /* TABLE: the header's cells */
    int table_state;           /* TABLE: 0 before, 1 after the header, 2 rows, 3 after the table */
    size_t pieces;             /* emits the host accepted */
    size_t lines;              /* BULLETS, TABLE: lines emitted */
} openai_output;

void openai_output_init(openai_output *output, int shape, emend_status (*emit)(void *, const char *, size_t),
                        void *context);

/* A piece of the answer as the server sent it. EMEND_OK, or the emit's refusal (e.g.
 * EMEND_E_CANCELLED), or EMEND_E_INTERNAL when out of memory. */
emend_status openai_output_add(openai_output *output, const char *bytes, size_t length);

/* The answer is complete: flushes what was held. `cut_off`: the answer stopped at max_tokens,
 * so an unfinished last line of BULLETS or TABLE is dropped rather than shown half. A failure
 * (e.g. no table in a TABLE answer) with its message in `err`. */
emend_status openai_output_finish(openai_output *output, int cut_off, char *err, size_t errlen);

/* Forgets everything (an attempt is retried from the start). */
void openai_output_reset(openai_output *output);

void openai_output_free(openai_output *output);

#endif
