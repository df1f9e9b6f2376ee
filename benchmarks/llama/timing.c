/*
 * timing.c — a pass-through provider plugin for the llama benchmark (benchmarks/llama/run.sh).
 *
 * Discovery finds it like any plugin (id org.emend.bench.timed-llama). It loads the plugin named
 * by $EMEND_BENCH_WRAP (providers/llama's llama.so), hands every call on to it unchanged, and
 * gives it a copy of the host table whose emit_text first records the time (CLOCK_MONOTONIC)
 * and then calls the host's own. At finish it logs the times (a debug line
 * "emend-bench-timing first_emit_ns=... last_emit_ns=... emits=... bytes=...") for the engine
 * (engine.c), which reads libemend's log: when the model's first and last pieces of text left
 * the plugin, which the engine's own callbacks cannot see. A log line, because the plugin runs
 * in a provider host, a process of its own (or in the engine's, with isolation = "none").
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emend_provider.h"

/* What the engine reads (after the run is over) and resets (before it starts). */
typedef struct emend_bench_timing {
    _Atomic long long first_emit_ns; /* 0: nothing emitted yet */
    _Atomic long long last_emit_ns;
    _Atomic long emits;
    _Atomic long bytes;
} emend_bench_timing;

__attribute__((visibility("default"))) emend_bench_timing emend_bench_timing_data;

static const emend_provider_descriptor *target;
static emend_provider_descriptor descriptor;
static const emend_host *real_host;
static emend_host timed_host;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static emend_status timed_emit_text(emend_run *run, const char *text, size_t length) {
    long long now = now_ns();
    emend_status status = real_host->emit_text(run, text, length);
    if (status == EMEND_OK) {
        long long none = 0;
        atomic_compare_exchange_strong(&emend_bench_timing_data.first_emit_ns, &none, now);
        atomic_store(&emend_bench_timing_data.last_emit_ns, now);
        atomic_fetch_add(&emend_bench_timing_data.emits, 1);
        atomic_fetch_add(&emend_bench_timing_data.bytes, (long)length);
    }
    return status;
}

static emend_status timed_finish(emend_run *run, emend_status status, const char *message) {
    char line[256];
    snprintf(line, sizeof line, "emend-bench-timing first_emit_ns=%lld last_emit_ns=%lld emits=%ld bytes=%ld",
             atomic_load(&emend_bench_timing_data.first_emit_ns), atomic_load(&emend_bench_timing_data.last_emit_ns),
             atomic_load(&emend_bench_timing_data.emits), atomic_load(&emend_bench_timing_data.bytes));
    real_host->log(run, EMEND_LOG_DEBUG, line);
    return real_host->finish(run, status, message);
}

static emend_status timed_create(const emend_host *host, const emend_provider_setting *settings, size_t count,
                                 void **instance) {
    if (host == NULL || host->struct_size > sizeof timed_host) return EMEND_E_STRUCT_SIZE;
    real_host = host; /* the host's table is the same for every instance */
    memset(&timed_host, 0, sizeof timed_host);
    memcpy(&timed_host, host, host->struct_size);
    timed_host.emit_text = timed_emit_text;
    timed_host.finish = timed_finish;
    return target->create(&timed_host, settings, count, instance);
}

static emend_status timed_run(void *instance, const emend_provider_request *request, emend_run *run) {
    atomic_store(&emend_bench_timing_data.first_emit_ns, 0);
    atomic_store(&emend_bench_timing_data.last_emit_ns, 0);
    atomic_store(&emend_bench_timing_data.emits, 0);
    atomic_store(&emend_bench_timing_data.bytes, 0);
    return target->run(instance, request, run);
}

static void timed_cancel(void *instance, emend_run *run) {
    if (target->cancel != NULL) target->cancel(instance, run);
}

static void timed_destroy(void *instance) { target->destroy(instance); }

__attribute__((visibility("default"))) const emend_provider_descriptor *emend_provider_entry(void) {
    if (target != NULL) return &descriptor;
    const char *path = getenv("EMEND_BENCH_WRAP");
    void *library = path != NULL ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    emend_provider_entry_fn entry = library != NULL ? (emend_provider_entry_fn)dlsym(library, EMEND_PROVIDER_ENTRY_SYMBOL) : NULL;
    const emend_provider_descriptor *wrapped = entry != NULL ? entry() : NULL;
    if (wrapped == NULL || wrapped->struct_size < sizeof descriptor) return NULL;
    descriptor = *wrapped;
    descriptor.id = "org.emend.bench.timed-llama";
    descriptor.name = "llama (timed for the benchmark)";
    descriptor.priority = wrapped->priority - 1;
    descriptor.create = timed_create;
    descriptor.run = timed_run;
    descriptor.cancel = timed_cancel;
    descriptor.destroy = timed_destroy;
    target = wrapped;
    return &descriptor;
}
