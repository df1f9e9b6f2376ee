/*
 * engine.c — the llama plugin through libemend, driven the way a text engine drives it
 * (benchmarks/llama/run.sh; see benchmarks/README.md, "llama").
 *
 *   engine PROVIDER_ID RUNS STREAM_CHUNK_BYTES TEXT_FILE [TIMING_PLUGIN]
 *
 * A document in memory holds TEXT_FILE; each run selects all of it, starts
 * EMEND_TOOL_REWRITE_FRIENDLY with PROVIDER_ID (found by discovery through EMEND_PROVIDER_PATH),
 * dispatches until idle, applying every replace, then reverts. One warm-up run first (it loads
 * the plugin and the model). With TIMING_PLUGIN (benchmarks/llama/timing.c, loaded by libemend
 * as the provider) the times at which the llama plugin emitted its first and last text are read
 * from it; without it only the engine's own times are known.
 *
 * The plugin's own count of generated tokens and its decode time come from its debug log line
 * ("N prompt tokens in X s, M tokens in Y s"), which libemend writes to stderr with EMEND_LOG set:
 * stderr goes to a temporary file that is read after each run.
 *
 * Prints per-run lines and one "RESULT key=value ..." line of medians for run.sh.
 */
#define _GNU_SOURCE
#include <emend.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct emend_bench_timing {
    long long first_emit_ns, last_emit_ns;
    long emits, bytes;
} emend_bench_timing;

typedef struct document {
    char *text;
    size_t length;
    long long first_replace_ns, last_replace_ns;
    int replaces, presented;
} document;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void set_text(document *doc, const char *text, size_t length) {
    free(doc->text);
    doc->text = malloc(length + 1);
    memcpy(doc->text, text, length);
    doc->text[length] = '\0';
    doc->length = length;
}

static void requests_contexts(void *user_data, emend_coordinator *coordinator, emend_context_scope scope,
                              emend_request_id request) {
    document *doc = user_data;
    (void)scope;
    emend_context_desc context = {0};
    context.struct_size = sizeof context;
    context.text = doc->text;
    context.text_length = doc->length;
    context.selection = (emend_range){0, doc->length};
    emend_answer_contexts(coordinator, request, &context, 1);
}

static void replace(void *user_data, emend_coordinator *coordinator, const emend_replace_request *r,
                    emend_request_id request) {
    document *doc = user_data;
    long long now = now_ns();
    if (r->kind == EMEND_CHANGE_RESULT) {
        if (doc->first_replace_ns == 0) doc->first_replace_ns = now;
        doc->last_replace_ns = now;
        doc->replaces++;
    }
    size_t start = (size_t)r->range.location, end = start + (size_t)r->range.length;
    char *next = malloc(doc->length - (end - start) + r->text_length + 1);
    memcpy(next, doc->text, start);
    memcpy(next + start, r->text, r->text_length);
    memcpy(next + start + r->text_length, doc->text + end, doc->length - end + 1);
    free(doc->text);
    doc->text = next;
    doc->length = doc->length - (end - start) + r->text_length;
    emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, NULL, 0);
}

static void done_select(void *user_data, emend_coordinator *coordinator, uint64_t context_id, void *engine_context,
                        const emend_range *ranges, size_t count, emend_request_id request) {
    (void)user_data, (void)context_id, (void)engine_context, (void)ranges, (void)count;
    emend_answer_done(coordinator, request);
}

static void done_state(void *user_data, emend_coordinator *coordinator, emend_state state, emend_request_id request) {
    (void)user_data, (void)state;
    emend_answer_done(coordinator, request);
}

/* A result the runtime judged poor (e.g. the text unchanged) is presented, not replaced. */
static void present_result(void *user_data, emend_coordinator *coordinator, const emend_presented_result *result,
                           emend_request_id request) {
    document *doc = user_data;
    (void)result;
    doc->presented++;
    emend_answer_presented(coordinator, request, EMEND_PRESENTED_DISMISS);
}

static void fail(const char *what, emend_status status) {
    fprintf(stdout, "engine: FAIL: %s -> %s: %s\n", what, emend_status_name(status), emend_last_error_message());
    exit(1);
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of the known values (-1 is "not known"); -1 when none is. */
static double median(double *values, int n) {
    int known = 0;
    for (int i = 0; i < n; i++)
        if (values[i] >= 0) values[known++] = values[i];
    n = known;
    if (n == 0) return -1;
    qsort(values, (size_t)n, sizeof *values, compare);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* The plugin's first "..., M tokens in Y s" line in log[from..]; 0 if none. The first, because
 * when the fact guard finds a changed fact it asks the provider once more (with guidance), and
 * the figures compared with llama-server are those of the first answer, streamed as it comes. */
static int plugin_stats(const char *log, int *prompt_tokens, double *prompt_s, int *tokens, double *seconds) {
    const char *found = strstr(log, " prompt tokens in ");
    if (found == NULL) return 0;
    const char *start = found;
    while (start > log && start[-1] != ' ') start--;
    return sscanf(start, "%d prompt tokens in %lf s, %d tokens in %lf s", prompt_tokens, prompt_s, tokens, seconds) == 4;
}

/* The plugin's "N of M threads (...)" line in log (the threads it chose for the run), copied
 * into line[size]; "" if none. */
static void plugin_threads(const char *log, char *line, size_t size) {
    line[0] = '\0';
    const char *found = strstr(log, " threads (");
    if (found == NULL) return;
    const char *start = found;
    while (start > log && start[-1] != ':' && start[-1] != '\n') start--;
    while (*start == ' ') start++;
    const char *end = strchr(found, '\n');
    size_t n = end ? (size_t)(end - start) : strlen(start);
    if (n >= size) n = size - 1;
    memcpy(line, start, n);
    line[n] = '\0';
}

static char *read_from(int fd, off_t from) {
    off_t end = lseek(fd, 0, SEEK_END);
    size_t n = end > from ? (size_t)(end - from) : 0;
    char *text = calloc(1, n + 1);
    if (n > 0 && pread(fd, text, n, from) < 0) text[0] = '\0';
    return text;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: engine PROVIDER_ID RUNS STREAM_CHUNK_BYTES TEXT_FILE [TIMING_PLUGIN]\n");
        return 2;
    }
    const char *provider = argv[1];
    int runs = atoi(argv[2]);
    unsigned chunk = (unsigned)strtoul(argv[3], NULL, 10);
    const char *timing_path = argc > 5 ? argv[5] : NULL;
    if (runs < 1) runs = 1;

    FILE *f = fopen(argv[4], "rb");
    if (f == NULL) return perror(argv[4]), 1;
    char original[65536];
    size_t original_length = fread(original, 1, sizeof original - 1, f);
    fclose(f);
    while (original_length > 0 && (original[original_length - 1] == '\n' || original[original_length - 1] == ' '))
        original_length--;
    original[original_length] = '\0';

    /* libemend's log (the plugin's lines among it) goes to a file this program reads. */
    char log_path[] = "/tmp/emend-bench-llama-XXXXXX";
    int log_fd = mkstemp(log_path);
    if (log_fd < 0) return perror("mkstemp"), 1;
    unlink(log_path);
    fflush(stderr);
    dup2(log_fd, 2);
    setenv("EMEND_LOG", "1", 1);

    document doc = {0};
    set_text(&doc, original, original_length);
    emend_delegate delegate = {0};
    delegate.struct_size = sizeof delegate;
    delegate.user_data = &doc;
    delegate.requests_contexts = requests_contexts;
    delegate.replace = replace;
    delegate.select_ranges = done_select;
    delegate.will_change_to_state = done_state;
    delegate.present_result = present_result;
    emend_coordinator_options options = {0};
    options.struct_size = sizeof options;
    options.provider_timeout_ms = 600000;
    options.stream_chunk_bytes = chunk;
    emend_coordinator *coordinator = NULL;
    emend_status status = emend_coordinator_create(&delegate, &options, &coordinator);
    if (status != EMEND_OK) fail("emend_coordinator_create", status);

    emend_tool_request rewrite = {sizeof rewrite, EMEND_TOOL_REWRITE_FRIENDLY, EMEND_SCOPE_USER_SELECTION, NULL, provider};
    emend_bench_timing *timing = NULL, logged = {0};
    int attempts = 1;
    /* Per measured run, in ms (or tokens/s); -1 when not known. */
    double ttft[64], rate[64], plugin_rate[64], tokens[64], start_to_replace[64], token_to_replace[64],
        last_token_to_replace[64], total[64];
    int count = 0;
    if (runs > 64) runs = 64;

    for (int run = -1; run < runs; run++) {
        doc.first_replace_ns = doc.last_replace_ns = 0;
        doc.replaces = doc.presented = 0;
        off_t log_start = lseek(log_fd, 0, SEEK_END);
        long long start = now_ns();
        status = emend_coordinator_start(coordinator, &rewrite);
        if (status != EMEND_OK) fail("emend_coordinator_start", status);
        status = emend_coordinator_run_until_idle(coordinator, 600000);
        long long idle = now_ns();
        char *log = read_from(log_fd, log_start);
        if (status != EMEND_OK) {
            printf("%s", log);
            fail("the rewrite", status);
        }
        int prompt_tokens = 0, generated = 0;
        double prompt_s = 0, generate_s = 0;
        int have_stats = plugin_stats(log, &prompt_tokens, &prompt_s, &generated, &generate_s);
        char threads_line[160];
        plugin_threads(log, threads_line, sizeof threads_line);
        /* The timing plugin logs its times at finish: it runs in a provider host (a process of
         * its own) unless config.toml says isolation = "none", so they come through the log;
         * CLOCK_MONOTONIC is the same clock in both processes. */
        timing = NULL;
        if (timing_path != NULL) {
            /* The first attempt's line (see plugin_stats); a retry logs a second one. */
            const char *line = strstr(log, "emend-bench-timing ");
            attempts = 0;
            for (const char *p = log; (p = strstr(p, "emend-bench-timing ")) != NULL; p++) attempts++;
            if (line == NULL || sscanf(line, "emend-bench-timing first_emit_ns=%lld last_emit_ns=%lld emits=%ld bytes=%ld",
                                       &logged.first_emit_ns, &logged.last_emit_ns, &logged.emits, &logged.bytes) != 4) {
                printf("engine: FAIL: no timing line from %s (is %s its provider?)\n", timing_path, provider);
                return 1;
            }
            timing = &logged;
        }
        free(log);
        if (run >= 0) {
            const double ms = 1e-6;
            int i = count++;
            total[i] = (double)(idle - start) * ms;
            start_to_replace[i] = doc.first_replace_ns ? (double)(doc.first_replace_ns - start) * ms : -1;
            ttft[i] = rate[i] = token_to_replace[i] = last_token_to_replace[i] = -1;
            if (timing != NULL && timing->first_emit_ns != 0) {
                ttft[i] = (double)(timing->first_emit_ns - start) * ms;
                if (doc.first_replace_ns) token_to_replace[i] = (double)(doc.first_replace_ns - timing->first_emit_ns) * ms;
                /* After a retry the last replace is the second answer's: not this one's. */
                if (doc.last_replace_ns && attempts == 1) last_token_to_replace[i] = (double)(doc.last_replace_ns - timing->last_emit_ns) * ms;
                if (have_stats && generated > 1 && timing->last_emit_ns > timing->first_emit_ns)
                    rate[i] = (generated - 1) / ((double)(timing->last_emit_ns - timing->first_emit_ns) * 1e-9);
            }
            plugin_rate[i] = have_stats && generate_s > 0 ? generated / generate_s : -1;
            tokens[i] = have_stats ? generated : -1;
            printf("  run %d: %d prompt tokens, %d tokens; first token %.1f ms; %.1f tokens/s (plugin's own: %.1f); "
                   "first token -> first replace %.1f ms, last token -> last replace %.1f ms; start -> first replace "
                   "%.1f ms; %d replaces%s; %d answer%s; idle after %.1f ms\n",
                   run + 1, prompt_tokens, generated, ttft[i], rate[i], plugin_rate[i], token_to_replace[i],
                   last_token_to_replace[i], start_to_replace[i], doc.replaces,
                   doc.presented ? " (a poor result: presented, not replaced)" : "", attempts,
                   attempts == 1 ? "" : "s (the fact guard asked again)", total[i]);
            if (threads_line[0]) printf("THREADS %s\n", threads_line);
        }
        status = emend_session_revert(coordinator);
        if (status == EMEND_OK) status = emend_coordinator_run_until_idle(coordinator, 60000);
        if (status != EMEND_OK && status != EMEND_E_STATE) fail("emend_session_revert", status);
        if (doc.length != original_length || memcmp(doc.text, original, original_length) != 0) {
            printf("engine: FAIL: the revert did not restore the document\n");
            return 1;
        }
    }
    printf("RESULT ttft_ms=%.1f rate=%.1f plugin_rate=%.1f tokens=%.0f token_to_replace_ms=%.1f "
           "last_token_to_replace_ms=%.1f start_to_replace_ms=%.1f total_ms=%.1f\n",
           median(ttft, count), median(rate, count), median(plugin_rate, count), median(tokens, count),
           median(token_to_replace, count), median(last_token_to_replace, count), median(start_to_replace, count),
           median(total, count));
    emend_coordinator_destroy(coordinator);
    free(doc.text);
    return 0;
}
