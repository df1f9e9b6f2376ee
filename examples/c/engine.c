/*
 * A small text engine in C on top of libemend: a document in memory and a delegate that
 * really applies replace and select to it. It proofreads, finds a suggestion by a point in
 * its own coordinates, accepts one suggestion and rejects another, rewrites and reverts,
 * and checks the document byte for byte.
 *
 * Build: cc -std=c11 -Wall -Wextra -Werror -I include examples/c/engine.c \
 *           -L .build/release -lemend -Wl,-rpath,$PWD/.build/release -o engine
 */
#include <emend.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h" /* CHECK and CALL, and the byte work on the document's text */

/* The engine's document: UTF-8 bytes and a selection. */
typedef struct document {
    char *text;
    size_t length;
    emend_range selection;
    int replaces;
    int selects;
    emend_state last_state;
    int sessions_ended;          /* session_ended calls so far */
    emend_status ended_status;   /* the last one's status and message (copied: the runtime's
                                    string is valid only during the call) */
    char ended_message[256];
    int rect_batches;            /* requests_rects calls, and the ranges they named */
    size_t rect_batch_ranges;
    int changed_notifications;   /* suggestions_changed calls */
    size_t changed_seen;         /* the highest first + count they named */
} document;

/* ---- the delegate ---- */

static void requests_contexts(void *user_data, emend_coordinator *coordinator, emend_context_scope scope,
                              emend_request_id request) {
    document *doc = user_data;
    emend_context_desc context = text_context(doc->text, doc->length);
    context.selection = scope == EMEND_SCOPE_USER_SELECTION ? doc->selection : (emend_range){0, 0};
    context.engine_context = doc;
    emend_answer_contexts(coordinator, request, &context, 1);
}

static void replace(void *user_data, emend_coordinator *coordinator, const emend_replace_request *replace,
                    emend_request_id request) {
    document *doc = user_data;
    /* Positions are UTF-8 bytes: this engine keeps the default encoding. */
    heap_text_replace(&doc->text, &doc->length, replace->range, replace->text, replace->text_length);
    doc->replaces++;
    emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, NULL, 0);
}

static void select_ranges(void *user_data, emend_coordinator *coordinator, uint64_t context_id, void *engine_context,
                          const emend_range *ranges, size_t count, emend_request_id request) {
    document *doc = user_data;
    (void)context_id;
    (void)engine_context;
    if (count > 0) doc->selection = ranges[0];
    doc->selects++;
    emend_answer_done(coordinator, request);
}

static void will_change_to_state(void *user_data, emend_coordinator *coordinator, emend_state state,
                                 emend_request_id request) {
    document *doc = user_data;
    doc->last_state = state;
    emend_answer_done(coordinator, request);
}

/* Rectangles of a range, for underlines and hit tests (requests_bounding_rects and
 * requests_underline_rects: the range arrives through a pointer valid during the call). They
 * are in the engine's own coordinate space, here terminal cells of a one-line document:
 * x = column (one per byte), y = line. The runtime keeps them as given and tests the points
 * this engine passes to emend_session_suggestion_at_point against them, so those points are
 * cells too. A GUI answers in its view's coordinates instead and passes clicks in the same. */
static void range_rects(void *user_data, emend_coordinator *coordinator, uint64_t context_id, void *engine_context,
                        const emend_range *range, emend_request_id request) {
    (void)user_data;
    (void)context_id;
    (void)engine_context;
    emend_rect rect = {(double)range->location, 0.0, (double)range->length, 1.0};
    emend_answer_rects(coordinator, request, &rect, 1);
}

/* Rectangles of MANY ranges in one request (requests_rects): with it the runtime asks for
 * the underlines of every suggestion at once, and their bounds at the first click, instead
 * of one requests_*_rects per suggestion (one event-loop round trip each). One answer:
 * rect_counts[i] rectangles for ranges[i], all of them one after another in `rects`. */
static void ranges_rects(void *user_data, emend_coordinator *coordinator, emend_rect_purpose purpose,
                         uint64_t context_id, void *engine_context, const emend_range *ranges, size_t range_count,
                         emend_request_id request) {
    document *doc = user_data;
    (void)purpose; /* this engine's underlines and bounds are the same cells */
    (void)context_id;
    (void)engine_context;
    doc->rect_batches++;
    doc->rect_batch_ranges += range_count;
    emend_rect *rects = malloc(range_count * sizeof *rects);
    size_t *counts = malloc(range_count * sizeof *counts);
    if (!rects || !counts) {
        free(rects);
        free(counts);
        emend_answer_failed(coordinator, request, EMEND_E_INTERNAL, "out of memory");
        return;
    }
    for (size_t i = 0; i < range_count; i++) {
        rects[i] = (emend_rect){(double)ranges[i].location, 0.0, (double)ranges[i].length, 1.0};
        counts[i] = 1;
    }
    emend_answer_rects_batch(coordinator, request, counts, range_count, rects, range_count);
    free(rects);
    free(counts);
}

/* Which suggestions changed in the last dispatch: a GUI re-reads (and redraws) only those,
 * emend_session_get_suggestion being constant time each. */
static void suggestions_changed(void *user_data, emend_coordinator *coordinator, const emend_suggestion_span *changed) {
    document *doc = user_data;
    doc->changed_notifications++;
    for (size_t i = changed->first; i < changed->first + changed->count && i < changed->total; i++) {
        emend_suggestion s = {0};
        s.struct_size = sizeof s;
        if (emend_session_get_suggestion(coordinator, i, &s) != EMEND_OK) continue;
        /* here a GUI would move or clear the mark of suggestion i (s.range, s.state) */
    }
    if (changed->first + changed->count > doc->changed_seen) doc->changed_seen = changed->first + changed->count;
}

/* The session ended: how an event-loop engine learns that a session failed (dispatch itself
 * returns EMEND_OK). A notification: nothing to answer. */
static void session_ended(void *user_data, emend_coordinator *coordinator, emend_status status, const char *message) {
    document *doc = user_data;
    (void)coordinator;
    doc->sessions_ended++;
    doc->ended_status = status;
    snprintf(doc->ended_message, sizeof doc->ended_message, "%s", message);
    if (status != EMEND_OK) fprintf(stderr, "session failed: %s: %s\n", emend_status_name(status), message);
}

/* An event loop as a GUI toolkit would run it: wait until the coordinator's descriptor is
 * readable, dispatch, repeat until the engine has seen `state`, or a session ended with a
 * failure (session_ended told us). */
static int run_event_loop_until(emend_coordinator *coordinator, document *doc, emend_state state) {
    struct pollfd pfd = {emend_coordinator_fd(coordinator), POLLIN, 0};
    int ended = doc->sessions_ended;
    for (int rounds = 0; rounds < 10000; rounds++) {
        if (doc->last_state == state) return 1;
        if (doc->sessions_ended != ended && doc->ended_status != EMEND_OK) return 0;
        if (poll(&pfd, 1, 10000) <= 0) return 0;
        if (emend_coordinator_dispatch(coordinator, NULL) != EMEND_OK) return 0;
    }
    return 0;
}

static const char *ORIGINAL =
    "Their going to the party tomorow, and they has brought snacks. "
    "I could of done it better. This is a example.";

int main(void) {
    document doc = {0};
    heap_text_set(&doc.text, &doc.length, ORIGINAL);

    emend_delegate delegate = {0};
    delegate.struct_size = sizeof delegate;
    delegate.user_data = &doc;
    delegate.requests_contexts = requests_contexts;
    delegate.replace = replace;
    delegate.select_ranges = select_ranges;
    delegate.will_change_to_state = will_change_to_state;
    delegate.session_ended = session_ended;
    /* An engine built before requests_rects gives these two only, and is asked one range at
     * a time; with requests_rects as well the runtime uses that one. */
    delegate.requests_bounding_rects = range_rects;
    delegate.requests_underline_rects = range_rects;
    delegate.requests_rects = ranges_rects;
    delegate.suggestions_changed = suggestions_changed;

    emend_coordinator *coordinator = NULL;
    CALL(emend_coordinator_create(&delegate, NULL, &coordinator));
    if (!coordinator) return 1;

    /* Proofread the whole document (a caret selects everything). */
    /* The built-in fixture provider: deterministic, whatever plugins are installed. */
    const char *fixture = "org.emend.fixture";
    emend_tool_request proofread = {sizeof proofread, EMEND_TOOL_PROOFREAD, EMEND_SCOPE_FULL_DOCUMENT, NULL, fixture};
    CALL(emend_coordinator_start(coordinator, &proofread));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));

    size_t count = 0;
    CALL(emend_session_suggestion_count(coordinator, &count));
    printf("%s: %zu suggestions\n", emend_tool_label(EMEND_TOOL_PROOFREAD), count);
    CHECK(count == 4, "expected 4 suggestions, got %zu", count);
    for (size_t i = 0; i < count; i++) {
        emend_suggestion s = {0};
        s.struct_size = sizeof s;
        CALL(emend_session_get_suggestion(coordinator, i, &s));
        printf("  [%zu] %s -> %s (%s: %s)\n", i, s.original, s.replacement, s.category, s.explanation);
    }
    printf("  inline: %s\n", doc.text);
    CHECK(strstr(doc.text, "tomorrow") != NULL, "suggestions are applied inline");
    printf("  underlines: %d request(s) for %zu ranges; %d suggestions_changed call(s) up to index %zu\n",
           doc.rect_batches, doc.rect_batch_ranges, doc.changed_notifications, doc.changed_seen);
    CHECK(doc.rect_batches == 1 && doc.rect_batch_ranges == count, "all underlines in one request");
    CHECK(doc.changed_notifications >= 1 && doc.changed_seen == count, "every suggestion reported as changed");

    /* A click in the middle of "tomorrow", in the cells range_rects answers in. The first
     * ask makes the runtime request the rectangles: EMEND_E_AGAIN until they are answered,
     * so keep the click, dispatch, and ask again. */
    const char *word = strstr(doc.text, "tomorrow");
    size_t hit = SIZE_MAX;
    emend_status status = EMEND_E_AGAIN;
    for (int tries = 0; tries < 10 && status == EMEND_E_AGAIN; tries++) {
        status = emend_session_suggestion_at_point(coordinator, (double)(word - doc.text) + 3.5, 0.5, &hit);
        if (status == EMEND_E_AGAIN) CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    }
    CHECK(status == EMEND_OK, "the click finds a suggestion: %s", emend_status_name(status));
    if (status == EMEND_OK) {
        emend_suggestion s = {0};
        s.struct_size = sizeof s;
        CALL(emend_session_get_suggestion(coordinator, hit, &s));
        printf("  click on column %d: [%zu] %s -> %s\n", (int)(word - doc.text) + 3, hit, s.original, s.replacement);
        CHECK(strcmp(s.replacement, "tomorrow") == 0, "the suggestion under the click is tomorrow, not %s", s.replacement);
    }

    /* Accept the first suggestion, reject the second, then Done. */
    CALL(emend_session_accept_suggestion(coordinator, 0));
    CALL(emend_session_reject_suggestion(coordinator, 1));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    CALL(emend_session_accept(coordinator));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    const char *expected =
        "Their going to the party tomorrow, and they has brought snacks. "
        "I could have done it better. This is an example.";
    printf("after review: %s\n", doc.text);
    CHECK(strcmp(doc.text, expected) == 0, "document after review is\n  %s\nexpected\n  %s", doc.text, expected);

    emend_state state;
    CALL(emend_coordinator_get_state(coordinator, &state));
    CHECK(state == EMEND_STATE_INACTIVE, "inactive after Done");
    CHECK(doc.sessions_ended == 1 && doc.ended_status == EMEND_OK && doc.ended_message[0] == '\0',
          "session_ended told once, OK, after Done (%d, %s)", doc.sessions_ended, emend_status_name(doc.ended_status));

    /* Rewrite professionally, then revert: the document must come back byte for byte. */
    heap_text_set(&doc.text, &doc.length, "I can't come today, it's raining. We're gonna stay home.");
    char *before = malloc(doc.length + 1);
    memcpy(before, doc.text, doc.length + 1);
    doc.selection = (emend_range){0, 0};
    emend_tool_request rewrite = {sizeof rewrite, EMEND_TOOL_REWRITE_PROFESSIONAL, EMEND_SCOPE_USER_SELECTION, NULL, fixture};
    doc.replaces = 0;
    CALL(emend_coordinator_start(coordinator, &rewrite));
    CHECK(run_event_loop_until(coordinator, &doc, EMEND_STATE_INTERACTIVE_RESTING), "the rewrite arrives through poll + dispatch");
    printf("rewritten: %s (%d replaces)\n", doc.text, doc.replaces);
    CHECK(strcmp(doc.text, before) != 0, "the rewrite changed the text");
    CHECK(doc.last_state == EMEND_STATE_INTERACTIVE_RESTING, "resting after the rewrite");
    CALL(emend_session_revert(coordinator));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    printf("reverted: %s\n", doc.text);
    CHECK(strcmp(doc.text, before) == 0, "revert restores the original byte for byte");
    CALL(emend_coordinator_get_state(coordinator, &state));
    CHECK(state == EMEND_STATE_INACTIVE, "inactive after revert");
    CHECK(doc.sessions_ended == 2 && doc.ended_status == EMEND_OK, "session_ended told OK after revert");
    /* Engines that prefer asking: the same status on request. */
    emend_status last = EMEND_E_INTERNAL;
    CALL(emend_coordinator_last_session_status(coordinator, &last));
    CHECK(last == EMEND_OK, "the last session ended OK (%s)", emend_status_name(last));

    /* Bad input is an error, never a crash. */
    CHECK(emend_coordinator_start(NULL, &rewrite) == EMEND_E_INVALID_ARGUMENT, "NULL coordinator");
    emend_tool_request old = rewrite;
    old.struct_size = 4;
    CHECK(emend_coordinator_start(coordinator, &old) == EMEND_E_STRUCT_SIZE, "struct too small");
    CHECK(emend_session_accept(coordinator) == EMEND_E_STATE, "accept without a session");

    emend_coordinator_destroy(coordinator);
    free(before);
    free(doc.text);
    return checks_result("c engine");
}
