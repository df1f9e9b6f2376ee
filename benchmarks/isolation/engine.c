/*
 * engine.c — a 1,000-suggestion proofread through a plugin (benchmarks/isolation/run.sh): a
 * document of 1,000 "helo world." sentences, proofread by org.emend.bench.speller (found by
 * discovery), every suggestion applied by the delegate, then reverted. Prints the median and
 * the best time from emend_coordinator_start to idle over RUNS runs, after one warm-up run
 * (which starts the plugin: loads it in process, or starts its provider host).
 *
 *   engine RUNS
 */
#define _POSIX_C_SOURCE 200809L
#include <emend.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SENTENCES 1000

typedef struct document {
    char *text;
    size_t length, capacity;
} document;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void requests_contexts(void *user_data, emend_coordinator *coordinator, emend_context_scope scope,
                              emend_request_id request) {
    document *doc = user_data;
    (void)scope;
    emend_context_desc context = {0};
    context.struct_size = sizeof context;
    context.text = doc->text;
    context.text_length = doc->length;
    emend_answer_contexts(coordinator, request, &context, 1);
}

static void replace(void *user_data, emend_coordinator *coordinator, const emend_replace_request *r,
                    emend_request_id request) {
    document *doc = user_data;
    size_t start = (size_t)r->range.location, end = start + (size_t)r->range.length;
    size_t length = doc->length - (end - start) + r->text_length;
    if (length + 1 > doc->capacity) {
        emend_answer_replace(coordinator, request, EMEND_REPLACE_REFUSED, NULL, 0);
        return;
    }
    memmove(doc->text + start + r->text_length, doc->text + end, doc->length - end + 1);
    memcpy(doc->text + start, r->text, r->text_length);
    doc->length = length;
    emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, NULL, 0);
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 20;
    if (runs < 1 || runs > 1000) runs = 20;
    static const char sentence[] = "helo world. ";
    size_t original_length = SENTENCES * (sizeof sentence - 1);
    char *original = malloc(original_length + 1);
    for (size_t i = 0; i < SENTENCES; i++) memcpy(original + i * (sizeof sentence - 1), sentence, sizeof sentence - 1);
    original[original_length] = '\0';
    document doc = {malloc(original_length * 2), original_length, original_length * 2};
    memcpy(doc.text, original, original_length + 1);

    emend_delegate delegate = {0};
    delegate.struct_size = sizeof delegate;
    delegate.user_data = &doc;
    delegate.requests_contexts = requests_contexts;
    delegate.replace = replace;
    emend_coordinator *coordinator = NULL;
    if (emend_coordinator_create(&delegate, NULL, &coordinator) != EMEND_OK) {
        fprintf(stderr, "engine: create: %s\n", emend_last_error_message());
        return 1;
    }
    double *times = calloc((size_t)runs, sizeof *times);
    for (int run = -1; run < runs; run++) {
        emend_tool_request request = {sizeof request, EMEND_TOOL_PROOFREAD, EMEND_SCOPE_FULL_DOCUMENT, NULL,
                                      "org.emend.bench.speller"};
        double start = now_ms();
        emend_status status = emend_coordinator_start(coordinator, &request);
        if (status == EMEND_OK) status = emend_coordinator_run_until_idle(coordinator, 60000);
        double took = now_ms() - start;
        size_t count = 0;
        emend_session_suggestion_count(coordinator, &count);
        if (status != EMEND_OK || count != SENTENCES) {
            fprintf(stderr, "engine: FAIL: %s (%s), %zu suggestions\n", emend_status_name(status), emend_last_error_message(), count);
            return 1;
        }
        if (run >= 0) times[run] = took;
        emend_session_revert(coordinator);
        emend_coordinator_run_until_idle(coordinator, 10000);
        if (doc.length != original_length || memcmp(doc.text, original, original_length) != 0) {
            fprintf(stderr, "engine: FAIL: revert did not give the original back\n");
            return 1;
        }
    }
    qsort(times, (size_t)runs, sizeof *times, compare);
    printf("RESULT median_ms=%.2f best_ms=%.2f runs=%d\n", times[runs / 2], times[0], runs);
    emend_coordinator_destroy(coordinator);
    return 0;
}
