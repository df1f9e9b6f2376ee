/*
 * Real proofreading from a C engine: the Hunspell spelling plugin and the Harper grammar
 * plugin (a warm checker process), found through discovery and combined by the runtime.
 * Proofreads six sentences with known errors and their corrected forms, prints every
 * suggestion with its explanation, and checks what must be caught and that the corrected
 * forms get no suggestion at all.
 *
 * Build: cc -std=c11 -Wall -Wextra -Werror -I include examples/c/proofread.c \
 *           -L LIBDIR -lemend -Wl,-rpath,LIBDIR -o proofread
 * Run:   EMEND_PROVIDER_PATH=DIR_WITH_hunspell.so_AND_harper.so ./proofread
 */
#include <emend.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h" /* CHECK, and the toy engine: its text and its two callbacks */

/* The six sentences, what must be caught in each (original text of a suggestion), and their
 * corrected forms. */
static const struct {
    const char *text;
    const char *must_catch[5];
    const char *corrected;
} CASES[] = {
    {"Their going too the party tomorow, and they has brought there own snacks.",
     {"too", "tomorow", "there", NULL},
     "They're going to the party tomorrow, and they have brought their own snacks."},
    {"I could of done it better.", {"could of", NULL}, "I could have done it better."},
    {"This is a example of an error.", {"a", NULL}, "This is an example of an error."},
    {"She dont like it.", {"dont", NULL}, "She doesn't like it."},
    {"The the cat sat.", {"The the", NULL}, "The cat sat."},
    {"Its a nice day, isnt it?", {"Its", "isnt", NULL}, "It's a nice day, isn't it?"},
};

/* Whether a suggestion's original covers `word`: the word itself, or a phrase holding it as a
 * whole word (a grammar checker flags "too the" for "too"). */
static int covers(const char *original, const char *word) {
    size_t n = strlen(word);
    for (const char *at = strstr(original, word); at != NULL; at = strstr(at + 1, word)) {
        int starts = at == original || at[-1] == ' ';
        int ends = at[n] == '\0' || at[n] == ' ';
        if (starts && ends) return 1;
    }
    return 0;
}

/* Proofreads `text`; returns the number of suggestions and prints them. */
static size_t proofread(emend_coordinator *coordinator, toy_document *doc, const char *text, int quiet, int *found,
                        const char *const *wanted) {
    snprintf(doc->text, sizeof doc->text, "%s", text);
    emend_tool_request request = {sizeof request, EMEND_TOOL_PROOFREAD, EMEND_SCOPE_FULL_DOCUMENT, NULL, NULL};
    emend_status status = emend_coordinator_start(coordinator, &request);
    if (status == EMEND_OK) status = emend_coordinator_run_until_idle(coordinator, 60000);
    if (status != EMEND_OK) {
        fprintf(stderr, "FAIL proofread \"%s\": %s: %s\n", text, emend_status_name(status), emend_last_error_message());
        failures++;
        return 0;
    }
    size_t count = 0;
    emend_session_suggestion_count(coordinator, &count);
    for (size_t i = 0; i < count; i++) {
        emend_suggestion s = {0};
        s.struct_size = sizeof s;
        emend_session_get_suggestion(coordinator, i, &s);
        if (s.state == EMEND_SUGGESTION_INVALID) continue;
        if (!quiet)
            printf("  %-9s \"%s\" -> \"%s\"  [%s] %s\n", s.category, s.original, s.replacement, s.rule_id, s.explanation);
        if (s.explanation[0] == '\0') {
            fprintf(stderr, "FAIL: the suggestion \"%s\" has no explanation\n", s.original);
            failures++;
        }
        for (size_t w = 0; wanted && wanted[w]; w++)
            if (covers(s.original, wanted[w])) found[w] = 1;
    }
    /* Revert: the document must come back byte for byte. */
    emend_session_revert(coordinator);
    emend_coordinator_run_until_idle(coordinator, 10000);
    if (strcmp(doc->text, text) != 0) {
        fprintf(stderr, "FAIL: revert gave \"%s\"\n", doc->text);
        failures++;
    }
    return count;
}

int main(void) {
    toy_document doc = {0};
    emend_delegate delegate = toy_delegate(&doc);

    emend_coordinator *coordinator = NULL;
    if (emend_coordinator_create(&delegate, NULL, &coordinator) != EMEND_OK) {
        fprintf(stderr, "create: %s\n", emend_last_error_message());
        return 1;
    }
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        int found[5] = {0};
        printf("%s\n", CASES[i].text);
        proofread(coordinator, &doc, CASES[i].text, 0, found, CASES[i].must_catch);
        for (size_t w = 0; CASES[i].must_catch[w]; w++)
            if (!found[w]) {
                fprintf(stderr, "FAIL: \"%s\" was not caught in \"%s\"\n", CASES[i].must_catch[w], CASES[i].text);
                failures++;
            }
        size_t clean = proofread(coordinator, &doc, CASES[i].corrected, 1, NULL, NULL);
        if (clean != 0) {
            fprintf(stderr, "FAIL: %zu suggestion(s) on the corrected form \"%s\"\n", clean, CASES[i].corrected);
            failures++;
        }
    }
    emend_coordinator_destroy(coordinator);
    return checks_result("c proofread (hunspell + harper)");
}
