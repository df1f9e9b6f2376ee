/*
 * Provider plugins from a C engine: list what discovery found in EMEND_PROVIDER_PATH, then
 * run a request through each example plugin — the C plugin (full descriptor, streaming),
 * the Rust plugin, and the simple form (a plain C function bound through libffi, in its
 * string and streaming variants) — and check the document.
 *
 * Build: cc -std=c11 -Wall -Wextra -Werror -I include examples/c/providers.c \
 *           -L LIBDIR -lemend -Wl,-rpath,LIBDIR -o providers
 * Run:   EMEND_PROVIDER_PATH=DIR_WITH_BUILT_PLUGINS ./providers
 */
#include <emend.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h" /* CHECK, and the toy engine: its text and its two callbacks */

typedef struct document {
    toy_document toy; /* first: the toy callbacks get the document as user_data */
    char presented[1024];
} document;

/* Summaries and key points are presented: this engine keeps a copy and applies nothing. */
static void present_result(void *user_data, emend_coordinator *coordinator, const emend_presented_result *result,
                           emend_request_id request) {
    document *doc = user_data;
    size_t n = result->text_length < sizeof doc->presented - 1 ? result->text_length : sizeof doc->presented - 1;
    memcpy(doc->presented, result->text, n);
    doc->presented[n] = '\0';
    emend_answer_presented(coordinator, request, EMEND_PRESENTED_COPY);
}

static emend_status run(emend_coordinator *coordinator, document *doc, const char *text, emend_tool tool,
                        const char *prompt, const char *provider) {
    snprintf(doc->toy.text, sizeof doc->toy.text, "%s", text);
    doc->toy.selection = (emend_range){0, 0};
    doc->presented[0] = '\0';
    emend_tool_request request = {sizeof request, tool, EMEND_SCOPE_FULL_DOCUMENT, prompt, provider};
    emend_status status = emend_coordinator_start(coordinator, &request);
    if (status == EMEND_OK) status = emend_coordinator_run_until_idle(coordinator, 20000);
    if (status != EMEND_OK)
        fprintf(stderr, "  %s: %s\n", emend_status_name(status), emend_last_error_message());
    return status;
}

static int has_provider(emend_coordinator *coordinator, const char *id) {
    size_t count = 0;
    emend_coordinator_provider_count(coordinator, &count);
    for (size_t i = 0; i < count; i++) {
        emend_provider_info info = {0};
        info.struct_size = sizeof info;
        if (emend_coordinator_get_provider(coordinator, i, &info) == EMEND_OK && strcmp(info.id, id) == 0)
            return info.enabled;
    }
    return 0;
}

int main(void) {
    document doc = {0};
    emend_delegate delegate = toy_delegate(&doc);
    delegate.present_result = present_result;

    emend_coordinator *coordinator = NULL;
    if (emend_coordinator_create(&delegate, NULL, &coordinator) != EMEND_OK) {
        fprintf(stderr, "create: %s\n", emend_last_error_message());
        return 1;
    }

    size_t count = 0;
    emend_coordinator_provider_count(coordinator, &count);
    printf("providers (%zu):\n", count);
    for (size_t i = 0; i < count; i++) {
        emend_provider_info info = {0};
        info.struct_size = sizeof info;
        emend_coordinator_get_provider(coordinator, i, &info);
        printf("  %-34s %-9s tools 0x%03x %s%s%s\n", info.id[0] ? info.id : info.path,
               info.flags & EMEND_PROVIDER_INFO_BUILT_IN ? "built-in" :
               info.flags & EMEND_PROVIDER_INFO_SIMPLE_FORM ? "simple" : "plugin",
               info.tools, info.enabled ? "" : "(not usable: ", info.reason, info.enabled ? "" : ")");
    }
    const char *expected[] = {"org.emend.example.c", "org.emend.example.rust", "org.emend.example.shout",
                              "org.emend.example.shout-stream", "org.emend.fixture"};
    for (size_t i = 0; i < sizeof expected / sizeof *expected; i++)
        CHECK(has_provider(coordinator, expected[i]), "%s is discovered and usable", expected[i]);

    /* The C plugin proofreads; choose it for proofread on this coordinator. */
    CHECK(emend_coordinator_choose_provider(coordinator, EMEND_TOOL_PROOFREAD, "org.emend.example.c") == EMEND_OK,
          "choose the C plugin for proofread");
    if (run(coordinator, &doc, "I recieve teh wierd letter.", EMEND_TOOL_PROOFREAD, NULL, NULL) == EMEND_OK) {
        size_t n = 0;
        emend_session_suggestion_count(coordinator, &n);
        printf("C plugin, proofread: %zu suggestions -> %s\n", n, doc.toy.text);
        CHECK(n == 3, "3 suggestions from the C plugin, got %zu", n);
        emend_session_accept(coordinator);
        emend_coordinator_run_until_idle(coordinator, 5000);
        CHECK(strcmp(doc.toy.text, "I receive the weird letter.") == 0, "proofread result: %s", doc.toy.text);
    } else failures++;

    /* The C plugin streams a concise rewrite from its own thread. */
    if (run(coordinator, &doc, "This is very good and really just fine.", EMEND_TOOL_REWRITE_CONCISE, NULL,
            "org.emend.example.c") == EMEND_OK) {
        printf("C plugin, concise: %s\n", doc.toy.text);
        CHECK(strstr(doc.toy.text, "very") == NULL && strstr(doc.toy.text, "really") == NULL, "fillers removed: %s", doc.toy.text);
        emend_session_revert(coordinator);
        emend_coordinator_run_until_idle(coordinator, 5000);
        CHECK(strcmp(doc.toy.text, "This is very good and really just fine.") == 0, "revert: %s", doc.toy.text);
    } else failures++;

    /* The Rust plugin: key points are presented, not replaced. */
    if (run(coordinator, &doc, "Rust is fast. It is safe. It has no garbage collector.", EMEND_TOOL_KEY_POINTS, NULL,
            "org.emend.example.rust") == EMEND_OK) {
        printf("Rust plugin, key points:\n%s\n", doc.presented);
        CHECK(strncmp(doc.presented, "- ", 2) == 0 && strstr(doc.presented, "\n- It is safe") != NULL,
              "key points as a list: %s", doc.presented);
        CHECK(strcmp(doc.toy.text, "Rust is fast. It is safe. It has no garbage collector.") == 0, "text unchanged");
    } else failures++;

    /* The simple form: char *shout(const char *text, long level, const char *suffix) via libffi. */
    if (run(coordinator, &doc, "please be quiet.", EMEND_TOOL_REWRITE_DESCRIBED, "louder",
            "org.emend.example.shout") == EMEND_OK) {
        printf("simple form, described change: %s\n", doc.toy.text);
        CHECK(strncmp(doc.toy.text, "PLEASE BE QUIET.", 16) == 0, "shouted: %s", doc.toy.text);
        emend_session_accept(coordinator);
        emend_coordinator_run_until_idle(coordinator, 5000);
    } else failures++;

    /* The streaming simple form: void shout_stream(const char *prompt, void (*emit)(const char *)). */
    if (run(coordinator, &doc, "", EMEND_TOOL_COMPOSE, "write a loud greeting", "org.emend.example.shout-stream") ==
        EMEND_OK) {
        printf("simple form (streaming), compose: %s\n", doc.toy.text);
        CHECK(strcmp(doc.toy.text, "WRITE A LOUD GREETING") == 0, "composed: %s", doc.toy.text);
        emend_session_accept(coordinator);
        emend_coordinator_run_until_idle(coordinator, 5000);
    } else failures++;

    emend_coordinator_destroy(coordinator);
    return checks_result("c providers");
}
