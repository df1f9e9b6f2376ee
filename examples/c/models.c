/*
 * Writing Tools with a language model, from C: every tool through a discovered model
 * provider (the in-process llama.cpp plugin, or the OpenAI-compatible client talking to a
 * model server), checked for the shape of its result — a rewrite streamed into the text, a
 * summary and key points presented (key points as list items), a table as table-cell
 * intents for an engine with tables and as tab-separated lines for a plain-text one — and a
 * rewrite stopped mid-stream putting the original back byte for byte.
 *
 * A small model writes weak text, and greedy output differs between machines: the checks
 * are about shapes, never about words. A result the runtime finds poor (a rewrite identical
 * to the text, a list repeating itself) is presented with its explanation instead of being
 * applied; that is a correct outcome here too, and it is printed.
 *
 * Usage: models PROVIDER_ID     e.g. models org.emend.llama
 * Build: cc -std=c11 -Wall -Wextra -Werror -I include examples/c/models.c \
 *           -L .build/release -lemend -Wl,-rpath,$PWD/.build/release -o models
 */
#define _POSIX_C_SOURCE 200809L
#include <emend.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h" /* CHECK, and the byte work on the document's text */

#define MAX_INTENTS 128

typedef struct document {
    char *text;
    size_t length;
    emend_block_intent intents[MAX_INTENTS];
    size_t intent_count;
    int result_replaces;       /* replaces of kind RESULT in this session */
    int styled_replaces;
    int presented;
    int stop_on_replace;       /* note the first result replace in `stopped` (stop_mid_stream) */
    int stopped;
    char explanation[512];     /* of the last presented result, "" when good */
    char presented_text[4096];
    emend_block_kind presented_kinds[MAX_INTENTS];
    size_t presented_intent_count;
    emend_state last_state;
} document;

static void document_set(document *doc, const char *text) {
    heap_text_set(&doc->text, &doc->length, text);
    doc->intent_count = 0;
    doc->result_replaces = doc->styled_replaces = doc->presented = doc->stopped = 0;
    doc->explanation[0] = doc->presented_text[0] = '\0';
    doc->presented_intent_count = 0;
}

static void apply_replace(document *doc, const emend_replace_request *replace) {
    if (heap_text_apply(&doc->text, &doc->length, doc->intents, MAX_INTENTS, &doc->intent_count, replace))
        doc->styled_replaces++;
}

static void requests_contexts(void *user_data, emend_coordinator *coordinator, emend_context_scope scope,
                              emend_request_id request) {
    document *doc = user_data;
    (void)scope;
    emend_context_desc context = text_context(doc->text, doc->length);
    context.engine_context = doc;
    emend_answer_contexts(coordinator, request, &context, 1);
}

static void replace(void *user_data, emend_coordinator *coordinator, const emend_replace_request *replace,
                    emend_request_id request) {
    document *doc = user_data;
    apply_replace(doc, replace);
    if (replace->kind == EMEND_CHANGE_RESULT) doc->result_replaces++;
    emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, NULL, 0);
    if (doc->stop_on_replace && replace->kind == EMEND_CHANGE_RESULT && !doc->stopped) {
        doc->stopped = 1; /* stopping is not allowed inside a callback: stop_mid_stream does it */
    }
}

static void will_change_to_state(void *user_data, emend_coordinator *coordinator, emend_state state,
                                 emend_request_id request) {
    ((document *)user_data)->last_state = state;
    emend_answer_done(coordinator, request);
}

static void present_result(void *user_data, emend_coordinator *coordinator, const emend_presented_result *result,
                           emend_request_id request) {
    document *doc = user_data;
    doc->presented++;
    snprintf(doc->presented_text, sizeof doc->presented_text, "%.*s", (int)result->text_length, result->text);
    snprintf(doc->explanation, sizeof doc->explanation, "%s", result->explanation ? result->explanation : "");
    doc->presented_intent_count = 0;
    for (size_t i = 0; i < result->block_intent_count && i < MAX_INTENTS; i++) {
        doc->presented_kinds[doc->presented_intent_count++] = result->block_intents[i].kind;
    }
    emend_answer_presented(coordinator, request, EMEND_PRESENTED_DISMISS);
}

static emend_coordinator *make(document *doc, emend_result_options result_options) {
    emend_delegate delegate = {0};
    delegate.struct_size = sizeof delegate;
    delegate.user_data = doc;
    delegate.requests_contexts = requests_contexts;
    delegate.replace = replace;
    delegate.will_change_to_state = will_change_to_state;
    delegate.present_result = present_result;
    emend_coordinator_options options = {0};
    options.struct_size = sizeof options;
    options.preferred_result_options = result_options;
    options.provider_timeout_ms = 300000; /* a slow machine, a long table */
    options.stream_chunk_bytes = 16;      /* stream every finished sentence */
    emend_coordinator *coordinator = NULL;
    if (emend_coordinator_create(&delegate, &options, &coordinator) != EMEND_OK) {
        fprintf(stderr, "FAIL: create: %s\n", emend_last_error_message());
        return NULL;
    }
    return coordinator;
}

static const char *TEXT =
    "Our team moved the weekly meeting to Thursday because many people were travelling on "
    "Monday. The new room is on the third floor and has a large screen. Please bring your "
    "laptop and the notes from last week. We will review the budget and plan the next release.";

/* Runs one tool; returns the session's status. */
static emend_status run_tool(emend_coordinator *coordinator, emend_tool tool, const char *prompt, const char *provider) {
    emend_tool_request request = {sizeof request, tool, EMEND_SCOPE_FULL_DOCUMENT, prompt, provider};
    emend_status status = emend_coordinator_start(coordinator, &request);
    if (status != EMEND_OK) return status;
    return emend_coordinator_run_until_idle(coordinator, 600000);
}

/* Starts a rewrite, dispatches (from the engine's own poll loop) until the first piece of it
 * was streamed into the text, and stops the session there, after the callback returned. */
static emend_status stop_mid_stream(emend_coordinator *coordinator, document *doc, const char *provider) {
    emend_tool_request request = {sizeof request, EMEND_TOOL_REWRITE_FRIENDLY, EMEND_SCOPE_FULL_DOCUMENT, NULL, provider};
    emend_status status = emend_coordinator_start(coordinator, &request);
    struct pollfd ready = {emend_coordinator_fd(coordinator), POLLIN, 0};
    for (int waited = 0; status == EMEND_OK && !doc->stopped && waited < 600000; waited += 100) {
        if (poll(&ready, 1, 100) > 0) status = emend_coordinator_dispatch(coordinator, NULL);
    }
    if (status != EMEND_OK) return status;
    if ((status = emend_coordinator_stop(coordinator)) != EMEND_OK) return status;
    return emend_coordinator_run_until_idle(coordinator, 60000);
}

static void finish_session(emend_coordinator *coordinator, document *doc) {
    if (doc->last_state != EMEND_STATE_INACTIVE) {
        emend_session_revert(coordinator);
        emend_coordinator_run_until_idle(coordinator, 60000);
    }
}

/* A presented poor result is a correct outcome: the text must be untouched. */
static int report_poor(document *doc, const char *tool) {
    if (!doc->presented || !doc->explanation[0]) return 0;
    printf("%s: presented as poor: %s\n", tool, doc->explanation);
    CHECK(strcmp(doc->text, TEXT) == 0, "%s: a poor result leaves the text alone", tool);
    return 1;
}

/* A model server is free to answer without the shape a tool needs (key points with no list
 * item, a table with no table: a small model at a non-zero temperature sometimes writes only
 * an introduction); the provider then fails the session with EMEND_E_PROVIDER and says why.
 * That is a correct outcome too, if nothing was presented and the text is the original, or
 * the original plus what was delivered before the failure and revert gives the original
 * back. Any other failure is not. */
static int report_refused(emend_coordinator *coordinator, document *doc, emend_status status, const char *tool) {
    if (status != EMEND_E_PROVIDER) return 0;
    const char *message = emend_last_error_message();
    printf("%s: refused by the provider: %s\n", tool, message);
    CHECK(message[0] != '\0', "%s: a refusal says why", tool);
    CHECK(doc->presented == 0, "%s: a refused result is not presented", tool);
    if (doc->last_state != EMEND_STATE_INACTIVE) {
        emend_session_revert(coordinator);
        emend_coordinator_run_until_idle(coordinator, 60000);
        finish_session(coordinator, doc);
    }
    CHECK(doc->last_state == EMEND_STATE_INACTIVE, "%s: inactive after the refusal", tool);
    CHECK(strcmp(doc->text, TEXT) == 0, "%s: after a refusal the original is back", tool);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PROVIDER_ID\n", argv[0]);
        return 2;
    }
    const char *provider = argv[1];
    document doc = {0};
    document_set(&doc, TEXT);
    emend_coordinator *coordinator = make(&doc, EMEND_RESULT_RICH_TEXT | EMEND_RESULT_LIST | EMEND_RESULT_TABLE);
    if (!coordinator) return 1;
    emend_status status;

    /* A rewrite streams into the text and can be reverted byte for byte. */
    status = run_tool(coordinator, EMEND_TOOL_REWRITE_PROFESSIONAL, NULL, provider);
    CHECK(status == EMEND_OK, "rewrite: %s: %s", emend_status_name(status), emend_last_error_message());
    if (!report_poor(&doc, "rewrite")) {
        printf("rewrite (%d replaces):\n%s\n", doc.result_replaces, doc.text);
        CHECK(doc.result_replaces >= 1 && strcmp(doc.text, TEXT) != 0, "rewrite: the result arrived in the text");
        CHECK(doc.last_state == EMEND_STATE_INTERACTIVE_RESTING, "rewrite: resting after it");
        emend_session_revert(coordinator);
        emend_coordinator_run_until_idle(coordinator, 60000);
        CHECK(strcmp(doc.text, TEXT) == 0, "rewrite: revert restores the original byte for byte");
    }
    finish_session(coordinator, &doc);

    /* Summary and key points are presented; key points as list items. */
    document_set(&doc, TEXT);
    status = run_tool(coordinator, EMEND_TOOL_SUMMARY, NULL, provider);
    CHECK(status == EMEND_OK && doc.presented == 1, "summary: presented (%s: %s)", emend_status_name(status), emend_last_error_message());
    printf("summary%s%s:\n%s\n", doc.explanation[0] ? ", poor: " : "", doc.explanation, doc.presented_text);

    document_set(&doc, TEXT);
    status = run_tool(coordinator, EMEND_TOOL_KEY_POINTS, NULL, provider);
    if (!report_refused(coordinator, &doc, status, "key points")) {
        CHECK(status == EMEND_OK && doc.presented == 1, "key points: presented (%s: %s)", emend_status_name(status),
              emend_last_error_message());
        printf("key points%s%s (%zu list items):\n%s\n", doc.explanation[0] ? ", poor: " : "", doc.explanation,
               doc.presented_intent_count, doc.presented_text);
        CHECK(doc.presented_intent_count >= 1, "key points: at least one list item");
        for (size_t i = 0; i < doc.presented_intent_count; i++) {
            CHECK(doc.presented_kinds[i] == EMEND_BLOCK_LIST_ITEM, "key points: every intent is a list item");
        }
    }
    CHECK(strcmp(doc.text, TEXT) == 0, "key points: the text is unchanged");

    /* A table for an engine with tables: table-cell intents. */
    document_set(&doc, TEXT);
    status = run_tool(coordinator, EMEND_TOOL_TABLE, NULL, provider);
    int table_refused = report_refused(coordinator, &doc, status, "table");
    CHECK(table_refused || status == EMEND_OK, "table: %s: %s", emend_status_name(status), emend_last_error_message());
    if (!table_refused && !report_poor(&doc, "table")) {
        size_t cells = 0;
        for (size_t i = 0; i < doc.intent_count; i++) cells += doc.intents[i].kind == EMEND_BLOCK_TABLE_CELL;
        printf("table (%zu cells):\n%s\n", cells, doc.text);
        CHECK(cells >= 2, "table: cells arrive as intents");
        CHECK(strchr(doc.text, '|') == NULL, "table: no Markdown pipes left in the text");
    }
    finish_session(coordinator, &doc);

    /* Stopped mid-stream: the original comes back byte for byte. */
    document_set(&doc, TEXT);
    doc.stop_on_replace = 1;
    status = stop_mid_stream(coordinator, &doc, provider);
    CHECK(status == EMEND_OK, "stop: %s: %s", emend_status_name(status), emend_last_error_message());
    printf("stopped after %d streamed replace(s)\n", doc.result_replaces);
    CHECK(strcmp(doc.text, TEXT) == 0, "stop: the original is back");
    CHECK(doc.last_state == EMEND_STATE_INACTIVE, "stop: inactive");
    doc.stop_on_replace = 0;
    emend_coordinator_destroy(coordinator);

    /* A plain-text engine: the same table as tab-separated lines, no intents. */
    document_set(&doc, TEXT);
    coordinator = make(&doc, EMEND_RESULT_PLAIN_TEXT);
    if (!coordinator) return 1;
    status = run_tool(coordinator, EMEND_TOOL_TABLE, NULL, provider);
    table_refused = report_refused(coordinator, &doc, status, "plain table");
    CHECK(table_refused || status == EMEND_OK, "plain table: %s: %s", emend_status_name(status), emend_last_error_message());
    if (!table_refused && !report_poor(&doc, "plain table")) {
        printf("table for a plain-text engine:\n%s\n", doc.text);
        CHECK(strchr(doc.text, '\t') != NULL && strchr(doc.text, '|') == NULL, "plain table: tab-separated lines");
        CHECK(doc.styled_replaces == 0 && doc.intent_count == 0, "plain table: no styling");
    }
    finish_session(coordinator, &doc);
    emend_coordinator_destroy(coordinator);
    free(doc.text);

    if (failures) {
        fprintf(stderr, "%d check(s) failed with %s\n", failures, provider);
        return 1;
    }
    printf("models example with %s: all checks passed\n", provider);
    return 0;
}
