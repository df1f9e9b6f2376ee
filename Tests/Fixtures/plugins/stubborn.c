/*
 * stubborn.c — a test plugin that ignores cancellation for a while (ABIProviderShutdownTests).
 *
 * run() creates "$EMEND_TEST_MARKER.entered", then emits a word every 20 ms for
 * STUBBORN_MS milliseconds (1500 unless -DSTUBBORN_MS=...) whatever is_cancelled says,
 * creates "$EMEND_TEST_MARKER.left" as its last act, finishes and returns. A host that
 * returned from emend_coordinator_destroy (or reported idle) while the plugin was inside
 * run finds no ".left" file at that moment.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emend_provider.h"

#ifndef STUBBORN_MS
#define STUBBORN_MS 1500
#endif

static const emend_host *host;

static void touch(const char *suffix) {
    const char *marker = getenv("EMEND_TEST_MARKER");
    if (!marker) return;
    char path[4096];
    snprintf(path, sizeof path, "%s.%s", marker, suffix);
    FILE *file = fopen(path, "w");
    if (file) fclose(file);
}

static long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static emend_status stubborn_create(const emend_host *h, const emend_provider_setting *settings, size_t count,
                                    void **out) {
    (void)settings;
    (void)count;
    host = h;
    *out = NULL;
    return EMEND_OK;
}

static emend_status stubborn_run(void *self, const emend_provider_request *request, emend_run *run) {
    (void)self;
    (void)request;
    touch("entered");
    long end = now_ms() + STUBBORN_MS;
    while (now_ms() < end) {
        host->emit_text(run, "word ", 5); /* refused once cancelled: ignored on purpose */
        struct timespec pause = {0, 20 * 1000000L};
        nanosleep(&pause, NULL);
    }
    touch("left");
    host->finish(run, EMEND_OK, NULL);
    return EMEND_OK;
}

static void stubborn_cancel(void *self, emend_run *run) {
    (void)self;
    (void)run; /* ignored on purpose */
}

static void stubborn_destroy(void *self) { (void)self; }

static const emend_provider_descriptor descriptor = {
    .struct_size = sizeof(emend_provider_descriptor),
    .abi_version = EMEND_PROVIDER_ABI_VERSION,
    .id = "org.emend.test.stubborn",
    .name = "Stubborn test plugin",
    .version = "0.0.1",
    .tools = EMEND_PROVIDES_REWRITES,
    .languages = "*",
    .outputs = EMEND_OUTPUT_PLAIN,
    .flags = 0,
    .priority = 0,
    .create = stubborn_create,
    .run = stubborn_run,
    .cancel = stubborn_cancel,
    .destroy = stubborn_destroy,
};

const emend_provider_descriptor *emend_provider_entry(void) { return &descriptor; }
