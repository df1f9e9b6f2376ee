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

#include "common.h" /* CHECK and MUST, and the toy engine: its text and its two callbacks */

static const char ORIGINAL[] = "I do not think it is ready. We are waiting for the tests.";

/* Rewrites ORIGINAL in a friendly tone and splits the result into its changes. */
static size_t rewrite_and_review(emend_coordinator *coordinator, toy_document *doc) {
    snprintf(doc->text, sizeof doc->text, "%s", ORIGINAL);
    emend_tool_request rewrite = {sizeof rewrite, EMEND_TOOL_REWRITE_FRIENDLY, EMEND_SCOPE_FULL_DOCUMENT, NULL,
                                  "org.emend.fixture"};
    MUST(emend_coordinator_start(coordinator, &rewrite));
    MUST(emend_coordinator_run_until_idle(coordinator, 10000));
    size_t count = 0;
    MUST(emend_session_review_changes(coordinator, &count));
    MUST(emend_coordinator_run_until_idle(coordinator, 10000));
    return count;
}

static emend_suggestion change(emend_coordinator *coordinator, size_t index) {
    emend_suggestion s = {0};
    s.struct_size = sizeof s;
    MUST(emend_session_get_suggestion(coordinator, index, &s));
    return s;
}

int main(void) {
    toy_document doc = {0};
    emend_delegate delegate = toy_delegate(&doc);
    emend_coordinator *coordinator = NULL;
    MUST(emend_coordinator_create(&delegate, NULL, &coordinator));

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
    MUST(emend_session_accept_suggestion(coordinator, 0));
    MUST(emend_session_reject_suggestion(coordinator, 1));
    MUST(emend_coordinator_run_until_idle(coordinator, 10000));
    MUST(emend_session_reject_suggestion(coordinator, 3));
    MUST(emend_coordinator_run_until_idle(coordinator, 10000));
    printf("two dropped: %s\n", doc.text);
    CHECK(strcmp(doc.text, "I don't think it is ready. We're waiting for the tests.") == 0, "after two rejects: %s", doc.text);
    CHECK(doc.rejects == 2, "one SUGGESTION_REJECT replace per dropped change, got %d", doc.rejects);

    /* Undo the last decision: that change's rewrite comes back. */
    MUST(emend_session_undo(coordinator));
    MUST(emend_coordinator_run_until_idle(coordinator, 10000));
    CHECK(strcmp(doc.text, "I don't think it is ready. We're waiting for the tests!") == 0, "after undo: %s", doc.text);
    CHECK(change(coordinator, 3).state == EMEND_SUGGESTION_PENDING, "the undone change is pending again");

    /* Done keeps every change not dropped. */
    MUST(emend_session_accept(coordinator));
    MUST(emend_coordinator_run_until_idle(coordinator, 10000));
    printf("done: %s\n", doc.text);
    CHECK(strcmp(doc.text, "I don't think it is ready. We're waiting for the tests!") == 0, "after Done: %s", doc.text);

    /* Again, and revert after a partial review: the original byte for byte. */
    count = rewrite_and_review(coordinator, &doc);
    CHECK(count == 4, "4 changes again, got %zu", count);
    MUST(emend_session_reject_suggestion(coordinator, 2));
    MUST(emend_coordinator_run_until_idle(coordinator, 10000));
    MUST(emend_session_revert(coordinator));
    MUST(emend_coordinator_run_until_idle(coordinator, 10000));
    CHECK(strcmp(doc.text, ORIGINAL) == 0, "revert gives the original: %s", doc.text);

    emend_coordinator_destroy(coordinator);
    return checks_result("c review");
}
