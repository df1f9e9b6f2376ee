/*
 * Rich results in C: an engine that can show tables and lists asks for a table and receives
 * it through the ABI as rows and cells (EMEND_BLOCK_TABLE_CELL intents on the replace), and
 * prints them; an engine that shows plain text only receives the same table as
 * tab-separated lines; key points arrive as a presented result with list-item intents.
 * Uses the built-in fixture provider, so the output is the same on every machine.
 *
 * Build: cc -std=c11 -Wall -Wextra -Werror -I include examples/c/tables.c \
 *           -L .build/release -lemend -Wl,-rpath,$PWD/.build/release -o tables
 */
#include <emend.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h" /* CHECK and CALL, and the byte work on the document's text */

#define MAX_INTENTS 64

/* The engine's document: text plus the block intents it draws (a table view, a list). */
typedef struct document {
    char *text;
    size_t length;
    emend_block_intent intents[MAX_INTENTS];
    size_t intent_count;
    int styled_replaces;
    int presented;
    emend_state last_state;
} document;

static void document_set(document *doc, const char *text) {
    heap_text_set(&doc->text, &doc->length, text);
    doc->intent_count = 0;
}

/* Replaces `range` (UTF-8 bytes, the default encoding) with `text`. Styled replaces bring the
 * intents of the new text (relative to it); this small engine keeps only those. */
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
    apply_replace(user_data, replace);
    emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, NULL, 0);
}

static void will_change_to_state(void *user_data, emend_coordinator *coordinator, emend_state state,
                                 emend_request_id request) {
    ((document *)user_data)->last_state = state;
    emend_answer_done(coordinator, request);
}

/* Key points: print the items of the presented list, then dismiss (the text stays). */
static void present_result(void *user_data, emend_coordinator *coordinator, const emend_presented_result *result,
                           emend_request_id request) {
    document *doc = user_data;
    doc->presented++;
    printf("key points, presented as %zu list items:\n", result->block_intent_count);
    for (size_t i = 0; i < result->block_intent_count; i++) {
        const emend_block_intent *item = &result->block_intents[i];
        CHECK(item->kind == EMEND_BLOCK_LIST_ITEM, "a key point is a list item");
        printf("  * %.*s\n", (int)item->range.length, result->text + item->range.location);
    }
    CHECK(result->explanation == NULL, "the fixture's key points are not poor");
    emend_answer_presented(coordinator, request, EMEND_PRESENTED_DISMISS);
}

/* Prints the table cells of the document as rows, "| a | b |". Returns the number of cells. */
static size_t print_table(const document *doc) {
    int row = -1;
    size_t cells = 0;
    for (size_t i = 0; i < doc->intent_count; i++) {
        const emend_block_intent *cell = &doc->intents[i];
        if (cell->kind != EMEND_BLOCK_TABLE_CELL) continue;
        if (cell->row != row) {
            if (row >= 0) printf(" |\n");
            row = cell->row;
            printf("  row %d%s:", row, row == 0 ? " (header)" : "");
        }
        printf(" | %.*s", (int)cell->range.length, doc->text + cell->range.location);
        cells++;
    }
    if (row >= 0) printf(" |\n");
    return cells;
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
    emend_coordinator *coordinator = NULL;
    CALL(emend_coordinator_create(&delegate, &options, &coordinator));
    return coordinator;
}

static const char *TEXT = "Apples are red. Pears are green. Plums are purple.";

int main(void) {
    const char *fixture = "org.emend.fixture";
    emend_tool_request table = {sizeof table, EMEND_TOOL_TABLE, EMEND_SCOPE_FULL_DOCUMENT, NULL, fixture};

    /* 1. An engine with tables: the table arrives as cells. */
    document rich = {0};
    document_set(&rich, TEXT);
    emend_coordinator *coordinator = make(&rich, EMEND_RESULT_RICH_TEXT | EMEND_RESULT_LIST | EMEND_RESULT_TABLE);
    if (!coordinator) return 1;
    CALL(emend_coordinator_start(coordinator, &table));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    printf("table for an engine with tables, %zu intents:\n", rich.intent_count);
    size_t cells = print_table(&rich);
    CHECK(cells == 8, "4 rows of 2 cells (header + 3 sentences), got %zu", cells);
    CHECK(rich.styled_replaces >= 1, "the table came in a styled replace");
    CHECK(strchr(rich.text, '|') == NULL, "no Markdown pipes in the text: %s", rich.text);
    CALL(emend_session_accept(coordinator));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));

    /* 2. Key points on the same engine: presented as a list. */
    document_set(&rich, TEXT);
    emend_tool_request points = {sizeof points, EMEND_TOOL_KEY_POINTS, EMEND_SCOPE_FULL_DOCUMENT, NULL, fixture};
    CALL(emend_coordinator_start(coordinator, &points));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    CHECK(rich.presented == 1, "key points were presented");
    CHECK(strcmp(rich.text, TEXT) == 0, "a dismissed result leaves the text alone");
    emend_coordinator_destroy(coordinator);

    /* 3. A plain-text engine: the same table as tab-separated lines, no intents. */
    document plain = {0};
    document_set(&plain, TEXT);
    coordinator = make(&plain, EMEND_RESULT_PLAIN_TEXT);
    if (!coordinator) return 1;
    CALL(emend_coordinator_start(coordinator, &table));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    printf("table for a plain-text engine:\n%s\n", plain.text);
    CHECK(strcmp(plain.text, "#\tSentence\n1\tApples are red.\n2\tPears are green.\n3\tPlums are purple.") == 0,
          "tab-separated lines, got: %s", plain.text);
    CHECK(plain.styled_replaces == 0 && plain.intent_count == 0, "plain engines get plain text");
    CALL(emend_session_accept(coordinator));
    CALL(emend_coordinator_run_until_idle(coordinator, 10000));
    emend_coordinator_destroy(coordinator);

    free(rich.text);
    free(plain.text);
    return checks_result("tables example");
}
