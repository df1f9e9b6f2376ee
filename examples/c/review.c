/*
 * Reviewing a rewrite change by change, like track changes (emend_session_review_changes):
 * a friendly rewrite rests in the engine's text, is split into its changes, and each one is
 * kept or dropped. Dropping a change puts back only its original; undo brings it back; Done
 * keeps every change not dropped; revert gives the original byte for byte.
 *
 * Build: cc -std=c11 -Wall -Wextra -Werror -I include examples/c/review.c \
 *           -L LIBDIR -lemend -Wl,-rpath,LIBDIR -o review
 * Run:   ./review   (the built-in fixture provider: no plugins needed)
 */
#include <emend.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct document {
    char text[512];
    int rejects;             /* replaces of kind SUGGESTION_REJECT */
} document;

static int failures = 0;

#define CHECK(cond, ...)                                         \
    do {                                                         \
        if (!(cond)) {                                           \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                        \
            fprintf(stderr, "\n");                               \
            failures++;                                          \
        }                                                        \
    } while (0)

#define CALL(expr)                                                                              \
    do {                                                                                        \
        emend_status status_ = (expr);                                                          \
        if (status_ != EMEND_OK) {                                                              \
            fprintf(stderr, "%s: %s: %s\n", #expr, emend_status_name(status_), emend_last_error_message()); \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

static void requests_contexts(void *user_data, emend_coordinator *coordinator, emend_context_scope scope,
                              emend_request_id request) {
    document *doc = user_data;
    (void)scope;
    emend_context_desc context = {0};
    context.struct_size = sizeof context;
    context.text = doc->text;
    context.text_length = strlen(doc->text);
    emend_answer_contexts(coordinator, request, &context, 1);
}

/* Positions are UTF-8 bytes (the default encoding). */
static void replace(void *user_data, emend_coordinator *coordinator, const emend_replace_request *r,
                    emend_request_id request) {
    document *doc = user_data;
    size_t length = strlen(doc->text);
    size_t end = (size_t)(r->range.location + r->range.length);
    if (length - r->range.length + r->text_length >= sizeof doc->text) {
        emend_answer_replace(coordinator, request, EMEND_REPLACE_REFUSED, NULL, 0);
        return;
    }
    if (r->kind == EMEND_CHANGE_SUGGESTION_REJECT) doc->rejects++;
    memmove(doc->text + r->range.location + r->text_length, doc->text + end, length - end + 1);
    memcpy(doc->text + r->range.location, r->text, r->text_length);
    emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, NULL, 0);
}

static const char ORIGINAL[] = "I do not think it is ready. We are waiting for the tests.";

/* Rewrites ORIGINAL in a friendly tone and splits the result into its changes. */
static size_t rewrite_and_review(emend_coordinator *coordinator, document *doc) {
    snprintf(doc->text, sizeof doc->text, "%s", ORIGINAL);
    emend_tool_request rewrite = {sizeof rewrite, EMEND_TOOL_REWRITE_FRIENDLY, EMEND_SCOPE_FULL_DOCUMENT, NULL,
                                  "org.emend.fixture"};
    CALL(emend_coordinator_start(coordinator, &rewrite));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    size_t count = 0;
    CALL(emend_session_review_changes(coordinator, &count));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    return count;
}

static emend_suggestion change(emend_coordinator *coordinator, size_t index) {
    emend_suggestion s = {0};
    s.struct_size = sizeof s;
    CALL(emend_session_get_suggestion(coordinator, index, &s));
    return s;
}

int main(void) {
    document doc = {{0}, 0};
    emend_delegate delegate = {0};
    delegate.struct_size = sizeof delegate;
    delegate.user_data = &doc;
    delegate.requests_contexts = requests_contexts;
    delegate.replace = replace;
    emend_coordinator *coordinator = NULL;
    CALL(emend_coordinator_create(&delegate, NULL, &coordinator));

    /* No rewrite rests in the text yet: nothing to review. */
    size_t count = 0;
    CHECK(emend_session_review_changes(coordinator, &count) == EMEND_E_STATE, "review without a session");

    count = rewrite_and_review(coordinator, &doc);
    printf("rewritten: %s\n", doc.text);
    CHECK(count == 4, "4 changes, got %zu", count);
    for (size_t i = 0; i < count; i++) {
        emend_suggestion s = change(coordinator, i);
        printf("  change %zu: \"%s\" -> \"%s\" [%s]\n", i, s.original, s.replacement, s.category);
        CHECK(strcmp(s.category, "rewrite") == 0, "category \"%s\"", s.category);
        CHECK(s.state == EMEND_SUGGESTION_PENDING, "change %zu pending", i);
        CHECK(s.range.length == strlen(s.replacement) && memcmp(doc.text + s.range.location, s.replacement, s.range.length) == 0,
              "change %zu's range is where its text is", i);
    }

    /* Keep the first change, drop the second and the last: only their originals come back. */
    CALL(emend_session_accept_suggestion(coordinator, 0));
    CALL(emend_session_reject_suggestion(coordinator, 1));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    CALL(emend_session_reject_suggestion(coordinator, 3));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    printf("two dropped: %s\n", doc.text);
    CHECK(strcmp(doc.text, "I don't think it is ready. We're waiting for the tests.") == 0, "after two rejects: %s", doc.text);
    CHECK(doc.rejects == 2, "one SUGGESTION_REJECT replace per dropped change, got %d", doc.rejects);

    /* Undo the last decision: that change's rewrite comes back. */
    CALL(emend_session_undo(coordinator));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    CHECK(strcmp(doc.text, "I don't think it is ready. We're waiting for the tests!") == 0, "after undo: %s", doc.text);
    CHECK(change(coordinator, 3).state == EMEND_SUGGESTION_PENDING, "the undone change is pending again");

    /* Done keeps every change not dropped. */
    CALL(emend_session_accept(coordinator));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    printf("done: %s\n", doc.text);
    CHECK(strcmp(doc.text, "I don't think it is ready. We're waiting for the tests!") == 0, "after Done: %s", doc.text);

    /* Again, and revert after a partial review: the original byte for byte. */
    count = rewrite_and_review(coordinator, &doc);
    CHECK(count == 4, "4 changes again, got %zu", count);
    CALL(emend_session_reject_suggestion(coordinator, 2));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    CALL(emend_session_revert(coordinator));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    CHECK(strcmp(doc.text, ORIGINAL) == 0, "revert gives the original: %s", doc.text);

    emend_coordinator_destroy(coordinator);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("c review: all checks passed\n");
    return 0;
}
