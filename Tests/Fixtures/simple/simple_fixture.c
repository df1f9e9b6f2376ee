/*
 * simple_fixture.c — C functions for the simple-form tests (SimpleFormTests.swift), built
 * with cc at test time. Each one shows one behaviour of the binding.
 */
#define _DEFAULT_SOURCE /* usleep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int frees = 0;

static char *copy(const char *text) {
    size_t length = strlen(text);
    char *out = malloc(length + 1);
    if (out != NULL) memcpy(out, text, length + 1);
    return out;
}

/* How many results fx_free has freed. */
int fx_free_count(void) { return frees; }

void fx_free(char *result) {
    frees++;
    free(result);
}

/* Every setting type in one string: "text|string|int|double|bool". */
char *fx_types(const char *text, const char *s, long i, double d, int b) {
    char buffer[512];
    snprintf(buffer, sizeof buffer, "%s|%s|%ld|%.3f|%d", text, s, i, d, b);
    return copy(buffer);
}

/* The request's strings: "text|prompt|language|previous". */
char *fx_request(const char *text, const char *prompt, const char *language, const char *previous) {
    char buffer[512];
    snprintf(buffer, sizeof buffer, "%s|%s|%s|%s", text, prompt, language, previous);
    return copy(buffer);
}

char *fx_null(const char *text) {
    (void)text;
    return NULL;
}

/* "ok" then a byte that cannot start UTF-8: invalid at byte 2. */
char *fx_invalid(const char *text) {
    (void)text;
    return copy("ok\xff!");
}

/* The empty string. */
char *fx_empty(const char *text) {
    (void)text;
    return copy("");
}

/* Emits "one ", "two ", "three" after the text's first word, with NULL and "" in between
 * (both ignored). */
void fx_stream(const char *text, void (*emit)(const char *chunk)) {
    char buffer[64];
    snprintf(buffer, sizeof buffer, "%s:", text);
    emit(buffer);
    buffer[0] = 'X'; /* the host copied the chunk before emit returned */
    emit(NULL);
    emit("one ");
    emit("");
    emit("two ");
    emit("three");
}

/* A good chunk, then a chunk invalid at its byte 1, then one that must be dropped. */
void fx_stream_invalid(const char *text, void (*emit)(const char *chunk)) {
    (void)text;
    emit("good ");
    emit("a\xc3(");
    emit("dropped");
}

/* Not thread-safe on purpose: returns "overlap" if another call is inside at the same time. */
static int inside = 0;
char *fx_slow(const char *text) {
    int overlapped = inside != 0;
    inside++;
    usleep(2000);
    overlapped = overlapped || inside != 1;
    inside--;
    return copy(overlapped ? "overlap" : text);
}

/* Shares fx_slow's state: a second manifest over the same library. */
char *fx_slow_too(const char *text) { return fx_slow(text); }

/* A copy of the text: the smallest real `string` function (SimpleFormOverheadTests). */
char *fx_copy(const char *text) { return copy(text); }

/* The text as one chunk: the smallest real streaming function (SimpleFormOverheadTests). */
void fx_echo(const char *text, void (*emit)(const char *chunk)) { emit(text); }
