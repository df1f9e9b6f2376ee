/*
 * host.c — a minimal Emend host for one provider plugin, for benchmarks/harper/run.sh.
 *
 *     host PLUGIN.so TEXT_FILE RUNS [key=value ...]
 *
 * Loads the plugin with dlopen, creates an instance with the settings given, then proofreads
 * the whole text of TEXT_FILE RUNS times, one run after the other, waiting for each finish.
 * Prints the first run (it starts the checker) and the warm runs after it: median, min, max,
 * and the edits of the last run. Log lines go to stderr when EMEND_BENCH_VERBOSE=1.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emend_provider.h"

struct emend_run {
    pthread_mutex_t lock;
    pthread_cond_t done;
    int finished;
    emend_status status;
    char message[512];
    size_t edits, texts;
};

static int verbose;

static void host_log(emend_run *run, emend_log_level level, const char *message) {
    (void)run;
    if (verbose) fprintf(stderr, "log %d: %s\n", (int)level, message);
}

static int host_is_cancelled(emend_run *run) {
    (void)run;
    return 0;
}

static emend_status host_emit_text(emend_run *run, const char *text, size_t length) {
    (void)text, (void)length;
    pthread_mutex_lock(&run->lock);
    run->texts++;
    pthread_mutex_unlock(&run->lock);
    return EMEND_OK;
}

static emend_status host_emit_edit(emend_run *run, const emend_provider_edit *edit) {
    (void)edit;
    pthread_mutex_lock(&run->lock);
    run->edits++;
    pthread_mutex_unlock(&run->lock);
    return EMEND_OK;
}

static emend_status host_finish(emend_run *run, emend_status status, const char *message) {
    pthread_mutex_lock(&run->lock);
    run->finished = 1;
    run->status = status;
    snprintf(run->message, sizeof run->message, "%s", message ? message : "");
    pthread_cond_signal(&run->done);
    pthread_mutex_unlock(&run->lock);
    return EMEND_OK;
}

static const emend_host host = {
    .struct_size = sizeof(emend_host),
    .abi_version = EMEND_PROVIDER_ABI_VERSION,
    .log = host_log,
    .is_cancelled = host_is_cancelled,
    .emit_text = host_emit_text,
    .emit_edit = host_emit_edit,
    .finish = host_finish,
};

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s PLUGIN.so TEXT_FILE RUNS [key=value ...]\n", argv[0]);
        return 2;
    }
    verbose = getenv("EMEND_BENCH_VERBOSE") != NULL && strcmp(getenv("EMEND_BENCH_VERBOSE"), "1") == 0;
    int runs = atoi(argv[3]);
    if (runs < 2) runs = 2;

    FILE *file = fopen(argv[2], "rb");
    if (file == NULL) { perror(argv[2]); return 1; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (text == NULL || fread(text, 1, (size_t)size, file) != (size_t)size) { fprintf(stderr, "cannot read %s\n", argv[2]); return 1; }
    fclose(file);
    text[size] = '\0';

    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    emend_provider_entry_fn entry = (emend_provider_entry_fn)dlsym(library, EMEND_PROVIDER_ENTRY_SYMBOL);
    if (entry == NULL) { fprintf(stderr, "no %s in %s\n", EMEND_PROVIDER_ENTRY_SYMBOL, argv[1]); return 1; }
    const emend_provider_descriptor *descriptor = entry();

    size_t setting_count = (size_t)(argc - 4);
    emend_provider_setting *settings = calloc(setting_count + 1, sizeof *settings);
    for (size_t i = 0; i < setting_count; i++) {
        char *pair = argv[4 + i], *equals = strchr(pair, '=');
        if (equals == NULL) { fprintf(stderr, "a setting is key=value, not %s\n", pair); return 2; }
        *equals = '\0';
        settings[i].key = pair;
        settings[i].value = equals + 1;
    }
    void *instance = NULL;
    emend_status status = descriptor->create(&host, settings, setting_count, &instance);
    if (status != EMEND_OK) { fprintf(stderr, "create failed with status %d\n", (int)status); return 1; }

    emend_provider_request request = {
        .struct_size = sizeof request,
        .tool = EMEND_TOOL_PROOFREAD,
        .text = text,
        .text_length = (size_t)size,
        .selection = {0, (size_t)size},
        .language = "en-US",
    };
    double *times = calloc((size_t)runs, sizeof *times);
    emend_run *handles = calloc((size_t)runs, sizeof *handles); /* valid until destroy */
    for (int i = 0; i < runs; i++) {
        emend_run *run = &handles[i];
        pthread_mutex_init(&run->lock, NULL);
        pthread_cond_init(&run->done, NULL);
        double start = now_ms();
        status = descriptor->run(instance, &request, run);
        if (status != EMEND_OK) { fprintf(stderr, "run failed at once with status %d\n", (int)status); return 1; }
        pthread_mutex_lock(&run->lock);
        while (!run->finished) pthread_cond_wait(&run->done, &run->lock);
        pthread_mutex_unlock(&run->lock);
        times[i] = now_ms() - start;
        if (run->status != EMEND_OK) { fprintf(stderr, "run %d failed: %s\n", i, run->message); return 1; }
    }
    size_t edits = handles[runs - 1].edits;
    double first = times[0];
    qsort(times + 1, (size_t)(runs - 1), sizeof *times, compare);
    printf("%s: %ld bytes, first run %.1f ms (starts the checker), warm runs (%d): median %.2f ms, min %.2f, max %.2f; %zu edits\n",
           descriptor->id, size, first, runs - 1, times[1 + (runs - 1) / 2], times[1], times[runs - 1], edits);
    descriptor->destroy(instance);
    free(times);
    free(handles);
    free(settings);
    free(text);
    return 0;
}
