/*
 * output.h — the text of a run on its way to the host: whole UTF-8 characters only (bytes
 * of a character split across tokens are held back), no whitespace at the start or end of
 * a piece's output, a separator between the outputs of pieces, optionally only whole lines
 * (so a list or table cut off at the token limit stays well formed), and a copy of what was
 * written for the plugin's own use (proofreading JSON, intermediate summaries).
 */
#ifndef EMEND_LLAMA_OUTPUT_H
#define EMEND_LLAMA_OUTPUT_H

#include <stddef.h>

#include "emend_provider.h"

typedef struct output {
    const emend_host *host;  /* NULL: collect only */
    emend_run *run;
    char *text;              /* what was written (trimmed, with separators); NUL-terminated */
    size_t length, capacity;
    char *pending;           /* held back: trailing whitespace and an unfinished character */
    size_t pending_length, pending_capacity;
    const char *separator;   /* written before the next non-blank output, if any came before */
    int piece_started;       /* non-blank output seen in this piece */
    int whole_lines;         /* send only complete lines (lists, tables): a cut-off line is dropped */
    int skip_intro;          /* drop a first line ending in ':' ("- Key points:"): with whole_lines */
    size_t chunks;           /* emit_text calls the host accepted */
    emend_status refused;    /* the first status other than EMEND_OK from emit_text */
    int failed;              /* out of memory */
} output;

void output_init(output *o, const emend_host *host, emend_run *run);
void output_free(output *o);
/* Starts the output of a piece: `separator` goes before it unless nothing was written yet. */
void output_begin_piece(output *o, const char *separator);
/* Raw bytes from the model. Returns nonzero when the host refused (cancelled, finished). */
int output_write(output *o, const char *bytes, size_t length);
/* Ends the piece: drops trailing whitespace and an unfinished character. */
void output_end_piece(output *o);
/* Forgets the collected copy (not what the host has). */
void output_clear_text(output *o);

#endif /* EMEND_LLAMA_OUTPUT_H */
