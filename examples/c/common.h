/*
 * The plumbing the C examples share, so that each example shows its Writing Tools calls and
 * little else: counting failed checks, the toy engine of the small examples (a text in a
 * fixed buffer and its two callbacks) and the byte work on a text on the heap for the larger
 * ones. engine.c shows a whole delegate of its own.
 *
 * Header only (static inline), C11: an example still builds with one `cc example.c`, the
 * compiler finding this file next to it.
 */
#ifndef EMEND_EXAMPLES_COMMON_H
#define EMEND_EXAMPLES_COMMON_H

#include <emend.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- checks ---- */

static int failures = 0;

/* A check that does not hold is printed with its place and counted; the example goes on. */
#define CHECK(cond, ...)                                         \
    do {                                                         \
        if (!(cond)) {                                           \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                        \
            fprintf(stderr, "\n");                               \
            failures++;                                          \
        }                                                        \
    } while (0)

/* A call that must return EMEND_OK: otherwise a failed check naming the call, its status and
 * the thread's last error message. */
#define CALL(expr)                                                                    \
    do {                                                                              \
        emend_status status_ = (expr);                                                \
        if (status_ != EMEND_OK) {                                                    \
            fprintf(stderr, "FAIL %s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #expr, \
                    emend_status_name(status_), emend_last_error_message());         \
            failures++;                                                               \
        }                                                                             \
    } while (0)

/* A call the rest of the example builds on: when it does not return EMEND_OK the example
 * stops at once, naming the call, its status and the thread's last error message. */
#define MUST(expr)                                                                              \
    do {                                                                                        \
        emend_status status_ = (expr);                                                          \
        if (status_ != EMEND_OK) {                                                              \
            fprintf(stderr, "%s: %s: %s\n", #expr, emend_status_name(status_), emend_last_error_message()); \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

/* The exit status of an example: 0 with "`name`: all checks passed", or 1 with the count of
 * failed checks. */
static inline int checks_result(const char *name) {
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

/* ---- the toy engine's text ---- */

/* One context holding all of `text` (`length` bytes): fill in what else the engine has (its
 * selection, engine_context) and answer requests_contexts with it. */
static inline emend_context_desc text_context(const char *text, size_t length) {
    emend_context_desc context = {0};
    context.struct_size = sizeof context;
    context.text = text;
    context.text_length = length;
    return context;
}

/* The toy engine of the small examples: its text in a fixed buffer (NUL-terminated) and its
 * selection. An example that keeps more puts this first in its own document and passes that
 * as the delegate's user_data. */
typedef struct toy_document {
    char text[1024];
    emend_range selection;
    int rejects; /* replaces of kind EMEND_CHANGE_SUGGESTION_REJECT applied */
} toy_document;

/* requests_contexts: one context, the whole text and the selection. */
static inline void toy_requests_contexts(void *user_data, emend_coordinator *coordinator, emend_context_scope scope,
                                         emend_request_id request) {
    toy_document *doc = user_data;
    (void)scope;
    emend_context_desc context = text_context(doc->text, strlen(doc->text));
    context.selection = doc->selection;
    emend_answer_contexts(coordinator, request, &context, 1);
}

/* replace: applied to the text (positions are UTF-8 bytes, the default encoding), or refused
 * when the result would not fit the buffer (the runtime then changes nothing). */
static inline void toy_replace(void *user_data, emend_coordinator *coordinator, const emend_replace_request *r,
                               emend_request_id request) {
    toy_document *doc = user_data;
    size_t length = strlen(doc->text);
    size_t end = (size_t)(r->range.location + r->range.length);
    if (length - r->range.length + r->text_length >= sizeof doc->text) {
        emend_answer_replace(coordinator, request, EMEND_REPLACE_REFUSED, NULL, 0);
        return;
    }
    memmove(doc->text + r->range.location + r->text_length, doc->text + end, length - end + 1);
    memcpy(doc->text + r->range.location, r->text, r->text_length);
    if (r->kind == EMEND_CHANGE_SUGGESTION_REJECT) doc->rejects++;
    emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, NULL, 0);
}

/* A delegate with the toy engine's two callbacks, for `doc` (or the document it begins). */
static inline emend_delegate toy_delegate(void *doc) {
    emend_delegate delegate = {0};
    delegate.struct_size = sizeof delegate;
    delegate.user_data = doc;
    delegate.requests_contexts = toy_requests_contexts;
    delegate.replace = toy_replace;
    return delegate;
}

/* A text on the heap: `*text` (NUL-terminated) and its `*length` in bytes. */

/* Sets the text to a copy of `value`. */
static inline void heap_text_set(char **text, size_t *length, const char *value) {
    free(*text);
    *length = strlen(value);
    *text = malloc(*length + 1);
    memcpy(*text, value, *length + 1);
}

/* Replaces `range` (UTF-8 bytes) of the text with the `with_length` bytes of `with`. */
static inline void heap_text_replace(char **text, size_t *length, emend_range range, const char *with,
                                     size_t with_length) {
    size_t start = (size_t)range.location, removed = (size_t)range.length;
    char *next = malloc(*length - removed + with_length + 1);
    memcpy(next, *text, start);
    memcpy(next + start, with, with_length);
    memcpy(next + start + with_length, *text + start + removed, *length - start - removed + 1);
    free(*text);
    *text = next;
    *length = *length - removed + with_length;
}

/* Applies `replace` to a text on the heap. A styled replace (EMEND_REPLACE_STYLED) brings the
 * block intents of its new text, relative to it: they replace intents[0..*count) (at most
 * `capacity`), moved to positions in the whole text. Returns 1 for a styled replace. */
static inline int heap_text_apply(char **text, size_t *length, emend_block_intent *intents, size_t capacity,
                                  size_t *count, const emend_replace_request *replace) {
    size_t start = (size_t)replace->range.location;
    heap_text_replace(text, length, replace->range, replace->text, replace->text_length);
    if (replace->struct_size < offsetof(emend_replace_request, block_intent_count) + sizeof(size_t) ||
        !(replace->flags & EMEND_REPLACE_STYLED))
        return 0;
    *count = 0;
    for (size_t i = 0; i < replace->block_intent_count && i < capacity; i++) {
        intents[*count] = replace->block_intents[i];
        intents[*count].range.location += start;
        (*count)++;
    }
    return 1;
}

#endif
