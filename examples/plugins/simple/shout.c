/*
 * shout.c — a plain C library that Emend binds through the simple form (see README.md).
 * Nothing here knows Emend: the manifests shout.toml and shout-stream.toml describe these
 * functions, and Emend calls them through libffi.
 *
 *   char *shout(const char *text, long level, const char *suffix);
 *   void  shout_free(char *result);
 *   void  shout_stream(const char *text, void (*emit)(const char *chunk));
 */
#include <stdlib.h>
#include <string.h>

/* ASCII letters only: bytes of multi-byte UTF-8 characters (all >= 0x80) pass unchanged,
 * so the output is UTF-8 whenever the input is. */
static char upper(char c) { return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c; }

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* `text` in capitals followed by `suffix` `level` times (level is clamped to 0...10).
 * The result is malloc'd and belongs to the caller, who frees it with shout_free; NULL when
 * memory runs out. */
char *shout(const char *text, long level, const char *suffix) {
    if (level < 0) level = 0;
    if (level > 10) level = 10;
    size_t text_length = strlen(text);
    size_t suffix_length = strlen(suffix);
    char *out = malloc(text_length + (size_t)level * suffix_length + 1);
    if (out == NULL) return NULL;
    for (size_t i = 0; i < text_length; i++) out[i] = upper(text[i]);
    char *end = out + text_length;
    for (long i = 0; i < level; i++) {
        memcpy(end, suffix, suffix_length);
        end += suffix_length;
    }
    *end = '\0';
    return out;
}

/* Frees a result of shout. */
void shout_free(char *result) { free(result); }

/* `text` in capitals, handed to `emit` word by word (each word with the spaces after it).
 * `emit` is valid only until this function returns. */
void shout_stream(const char *text, void (*emit)(const char *chunk)) {
    size_t length = strlen(text);
    char *chunk = malloc(length + 1);
    if (chunk == NULL) return;
    size_t start = 0;
    while (start < length) {
        size_t end = start;
        while (end < length && !is_space(text[end])) end++;
        while (end < length && is_space(text[end])) end++;
        for (size_t i = start; i < end; i++) chunk[i - start] = upper(text[i]);
        chunk[end - start] = '\0';
        emit(chunk);
        start = end;
    }
    free(chunk);
}
