/*
 * pieces.h — a long input cut into pieces that each fit a token budget: whole paragraphs
 * (blank-line separated) packed together where they fit; a paragraph too long on its own is
 * cut at line ends, then sentence ends, then spaces, and as a last resort inside a word (on
 * a character boundary). Whitespace around a piece is left out of it.
 */
#ifndef EMEND_LLAMA_PIECES_H
#define EMEND_LLAMA_PIECES_H

#include <stddef.h>

typedef struct piece {
    size_t start, end; /* bytes of the input */
} piece;

/* Token count of text[0, length). */
typedef int (*piece_count_fn)(void *context, const char *text, size_t length);

/* Cuts input[0, length) into pieces of at most `max_tokens` tokens (and at least one piece
 * when the input has any non-blank text). Returns the number of pieces; *out is malloc'd
 * (NULL when there are none). (size_t)-1 when out of memory. */
size_t pieces_split(const char *input, size_t length, int max_tokens, piece_count_fn count, void *context,
                    piece **out);

#endif /* EMEND_LLAMA_PIECES_H */
