/*
 * plugin.c — a proofreading plugin for the isolation benchmark (benchmarks/isolation/run.sh):
 * one edit for every "helo" in the selection ("hello", with an explanation, category and rule
 * id like a real checker's), then finish. Nothing else, so the figures are Emend's own cost of
 * carrying 1,000 suggestions from a plugin to the engine, in process or through a provider host.
 */
#include <string.h>

#include "emend_provider.h"

static const emend_host *host;

static emend_status bench_create(const emend_host *h, const emend_provider_setting *settings, size_t count, void **out) {
    (void)settings;
    (void)count;
    host = h;
    *out = NULL;
    return EMEND_OK;
}

static emend_status bench_run(void *self, const emend_provider_request *request, emend_run *run) {
    (void)self;
    const char *text = request->text;
    for (size_t at = request->selection.start; at + 4 <= request->selection.end; at++) {
        if (memcmp(text + at, "helo", 4) != 0 || (at > 0 && text[at - 1] != ' ')) continue;
        emend_provider_edit edit = {sizeof edit, {at, at + 4}, "hello", 5, "\"helo\" is misspelled", "spelling", "BENCH_SPELLING"};
        host->emit_edit(run, &edit);
    }
    return host->finish(run, EMEND_OK, NULL);
}

static void bench_cancel(void *self, emend_run *run) {
    (void)self;
    (void)run;
}

static void bench_destroy(void *self) { (void)self; }

static const emend_provider_descriptor descriptor = {
    .struct_size = sizeof(emend_provider_descriptor),
    .abi_version = EMEND_PROVIDER_ABI_VERSION,
    .id = "org.emend.bench.speller",
    .name = "Benchmark speller",
    .version = "1.0.0",
    .tools = EMEND_PROVIDES(EMEND_TOOL_PROOFREAD),
    .languages = "*",
    .outputs = EMEND_OUTPUT_EDITS,
    .flags = 0,
    .priority = 0,
    .create = bench_create,
    .run = bench_run,
    .cancel = bench_cancel,
    .destroy = bench_destroy,
};

const emend_provider_descriptor *emend_provider_entry(void) { return &descriptor; }
