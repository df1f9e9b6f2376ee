/*
 * hostile.c — a test plugin that does what no plugin should, to check that a provider host
 * contains it (Tests/EmendProvidersTests/IsolationTests, Tests/EmendABITests/ABIIsolationTests).
 * The request's prompt names the scenario (a proofread, which has no prompt, uses the
 * `scenario` setting; its default is "ok"):
 *   "ok"            emits "fine" (or, for a proofread, an edit of the first word), finishes
 *   "segv"          dereferences NULL inside run
 *   "abort"         calls abort() inside run
 *   "exit"          emits "partial" then _exit(3)s in the middle of the stream
 *   "spin"          emits "spinning", then spins in run, never looking at is_cancelled
 *   "cancel-segv"   emits "waiting", then waits in run; its cancel function dereferences NULL
 *                   (set the `scenario` setting to "cancel-segv" too: cancel may come before
 *                   run has begun)
 *   "alloc:N"       allocates N MiB and touches every page; finishes "out of memory" when
 *                   malloc says no
 *   "big:N"         emits N bytes of text in 64 KiB pieces
 *   "bigedit:N"     emits one edit whose replacement is N bytes
 *   "edits:N"       emits N one-byte edits (a proofread of N suggestions; the text must be
 *                   at least 2N bytes)
 *   "garbage"       writes garbage on descriptor 3 (the provider host's channel)
 *   "crash-once"    crashes unless the file named by the `marker` setting exists; creates it
 * -DCREATE_CRASH=1 dereferences NULL in create, -DCREATE_CRASH=2 calls abort() there.
 */
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emend_provider.h"

#ifndef CREATE_CRASH
#define CREATE_CRASH 0
#endif

static const emend_host *host;
static char scenario_setting[256] = "ok";
static char marker[1024];
static volatile int crash_on_cancel;

/* A NULL the compiler cannot see through. */
static volatile int *volatile nowhere;

static void copy_setting(char *into, size_t size, const char *value) {
    snprintf(into, size, "%s", value);
}

static emend_status hostile_create(const emend_host *h, const emend_provider_setting *settings, size_t count, void **out) {
    host = h;
    for (size_t i = 0; i < count; i++) {
        if (strcmp(settings[i].key, "scenario") == 0) copy_setting(scenario_setting, sizeof scenario_setting, settings[i].value);
        if (strcmp(settings[i].key, "marker") == 0) copy_setting(marker, sizeof marker, settings[i].value);
    }
    if (CREATE_CRASH == 1) *nowhere = 1;
    if (CREATE_CRASH == 2) abort();
    *out = NULL;
    return EMEND_OK;
}

static void ok(emend_run *run, const emend_provider_request *request) {
    if (request->tool == EMEND_TOOL_PROOFREAD) {
        size_t end = request->selection.start;
        while (end < request->selection.end && request->text[end] != ' ') end++;
        emend_provider_edit edit = {sizeof edit, {request->selection.start, end}, "Fine", 4, "a test edit", "spelling", "hostile"};
        host->emit_edit(run, &edit);
    } else {
        host->emit_text(run, "fine", 4);
    }
    host->finish(run, EMEND_OK, NULL);
}

static emend_status hostile_run(void *self, const emend_provider_request *request, emend_run *run) {
    (void)self;
    const char *scenario = request->prompt ? request->prompt : scenario_setting;
    if (strcmp(scenario, "ok") == 0) {
        ok(run, request);
    } else if (strcmp(scenario, "segv") == 0) {
        *nowhere = 1;
    } else if (strcmp(scenario, "abort") == 0) {
        abort();
    } else if (strcmp(scenario, "exit") == 0) {
        host->emit_text(run, "partial", 7);
        usleep(20000);
        _exit(3);
    } else if (strcmp(scenario, "spin") == 0) {
        host->emit_text(run, "spinning", 8);
        for (volatile unsigned long i = 0;; i++) {
        }
    } else if (strcmp(scenario, "cancel-segv") == 0) {
        crash_on_cancel = 1;
        host->emit_text(run, "waiting", 7);
        for (;;) usleep(1000); /* until cancel crashes the host */
    } else if (strncmp(scenario, "alloc:", 6) == 0) {
        size_t bytes = (size_t)strtoul(scenario + 6, NULL, 10) << 20;
        char *memory = malloc(bytes);
        if (!memory) {
            host->finish(run, EMEND_E_PROVIDER, "out of memory");
            return EMEND_OK;
        }
        for (size_t i = 0; i < bytes; i += 4096) memory[i] = 1;
        free(memory);
        host->emit_text(run, "allocated", 9);
        host->finish(run, EMEND_OK, NULL);
    } else if (strncmp(scenario, "big:", 4) == 0) {
        size_t bytes = (size_t)strtoul(scenario + 4, NULL, 10);
        static char piece[65536];
        memset(piece, 'a', sizeof piece);
        for (size_t sent = 0; sent < bytes && !host->is_cancelled(run); sent += sizeof piece) {
            size_t n = bytes - sent < sizeof piece ? bytes - sent : sizeof piece;
            if (host->emit_text(run, piece, n) != EMEND_OK) break;
        }
        host->finish(run, EMEND_OK, NULL);
    } else if (strncmp(scenario, "bigedit:", 8) == 0) {
        size_t bytes = (size_t)strtoul(scenario + 8, NULL, 10);
        char *text = malloc(bytes + 1);
        memset(text, 'b', bytes);
        text[bytes] = 0;
        emend_provider_edit edit = {sizeof edit, {request->selection.start, request->selection.start}, text, bytes, NULL, NULL, NULL};
        host->emit_edit(run, &edit);
        free(text);
        host->finish(run, EMEND_OK, NULL);
    } else if (strncmp(scenario, "edits:", 6) == 0) {
        size_t count = (size_t)strtoul(scenario + 6, NULL, 10);
        for (size_t i = 0; i < count; i++) {
            size_t at = request->selection.start + 2 * i;
            emend_provider_edit edit = {sizeof edit, {at, at + 1}, "x", 1, "one of many", "spelling", "hostile"};
            host->emit_edit(run, &edit);
        }
        host->finish(run, EMEND_OK, NULL);
    } else if (strcmp(scenario, "garbage") == 0) {
        static const char junk[] = "\x07\x00\x00\x00\xeegarbage on the channel";
        if (write(3, junk, sizeof junk - 1) < 0) abort();
        usleep(200000);
        host->finish(run, EMEND_OK, NULL);
    } else if (strcmp(scenario, "crash-once") == 0) {
        if (access(marker, F_OK) != 0) {
            FILE *file = fopen(marker, "w");
            if (file) fclose(file);
            *nowhere = 1;
        }
        ok(run, request);
    } else {
        host->finish(run, EMEND_E_INVALID_ARGUMENT, "unknown scenario");
    }
    return EMEND_OK;
}

static void hostile_cancel(void *self, emend_run *run) {
    (void)self;
    (void)run;
    if (crash_on_cancel || strcmp(scenario_setting, "cancel-segv") == 0) *nowhere = 1;
}

static void hostile_destroy(void *self) { (void)self; }

static const emend_provider_descriptor descriptor = {
    .struct_size = sizeof(emend_provider_descriptor),
    .abi_version = EMEND_PROVIDER_ABI_VERSION,
    .id = "org.emend.test.hostile",
    .name = "Hostile test plugin",
    .version = "0.0.1",
    .tools = EMEND_PROVIDES(EMEND_TOOL_PROOFREAD) | EMEND_PROVIDES_REWRITES,
    .languages = "*",
    .outputs = EMEND_OUTPUT_PLAIN | EMEND_OUTPUT_EDITS,
    .flags = 0,
    .priority = 0,
    .create = hostile_create,
    .run = hostile_run,
    .cancel = hostile_cancel,
    .destroy = hostile_destroy,
};

const emend_provider_descriptor *emend_provider_entry(void) { return &descriptor; }
