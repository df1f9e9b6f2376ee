/*
 * misbehaving.c — a test plugin that breaks the rules on purpose, to check that the host
 * refuses, drops and logs instead of crashing (Tests/EmendProvidersTests/PluginProviderTests).
 *
 * The request's prompt names the scenario:
 *   "invalid-utf8"   emits "good ", two invalid pieces, then "after"; finishes OK
 *   "edits:LIST"     emits edits "S-E=R" separated by '|'; R "<bad>" is invalid UTF-8 and
 *                    R "<small>" sends struct_size 8, R "<partial>" a struct_size ending
 *                    inside `explanation` (replacement "x"); finishes OK
 *   "after-finish"   emits "done", finishes, then emits text, an edit and finishes again
 *   "fail"           finishes with EMEND_E_PROVIDER "model not found"
 *   "fail-silent"    finishes with EMEND_E_TIMEOUT and no message
 *   "run-error"      returns EMEND_E_UNSUPPORTED from run (no finish)
 *   "never-finish"   returns from run and never finishes
 *   "hang"           stays inside run until misbehaving_release(), then finishes CANCELLED
 *   "slow"           sleeps 100 ms inside run, counting runs in flight, then finishes
 *   "log"            logs with the run and without, emits "logged", finishes
 *   "null-run"       calls every host function with a NULL run; finishes OK
 * Every status the host returns is recorded for the test (misbehaving_status*), and
 * misbehaving_done() turns 1 when a scenario made its last host call.
 * -DCONCURRENT sets EMEND_PROVIDER_CONCURRENT.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emend_provider.h"

#ifndef CONCURRENT
#define CONCURRENT 0
#else
#undef CONCURRENT
#define CONCURRENT EMEND_PROVIDER_CONCURRENT
#endif

static const emend_host *host;
static atomic_int statuses[64];
static atomic_int status_count;
static atomic_int done;
static atomic_int cancel_calls;
static atomic_int released;
static atomic_int in_flight;
static atomic_int most_in_flight;

static void record(emend_status status) {
    int index = atomic_fetch_add(&status_count, 1);
    if (index < 64) atomic_store(&statuses[index], (int)status);
}

static void pause_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static emend_status emit(emend_run *run, const char *text) {
    emend_status status = host->emit_text(run, text, strlen(text));
    record(status);
    return status;
}

static void send_edits(emend_run *run, const char *list) {
    const char *p = list;
    while (*p) {
        char *end;
        size_t start = strtoul(p, &end, 10);
        size_t stop = strtoul(end + 1, &end, 10);
        const char *replacement = end + 1;
        const char *bar = strchr(replacement, '|');
        size_t length = bar ? (size_t)(bar - replacement) : strlen(replacement);
        emend_provider_edit edit = {sizeof edit, {start, stop}, replacement, length, "why", "spelling", "RULE"};
        if (length == 5 && memcmp(replacement, "<bad>", 5) == 0) {
            edit.replacement = "\xff\xfe";
            edit.replacement_length = 2;
        } else if (length == 9 && memcmp(replacement, "<partial>", 9) == 0) {
            /* struct_size ends half way into `explanation`: the host must leave it out */
            edit.struct_size = offsetof(emend_provider_edit, explanation) + 4;
            edit.replacement = "x";
            edit.replacement_length = 1;
        } else if (length == 7 && memcmp(replacement, "<small>", 7) == 0) {
            edit.struct_size = 8;
            edit.replacement = "x";
            edit.replacement_length = 1;
        }
        record(host->emit_edit(run, &edit));
        p = bar ? bar + 1 : replacement + length;
    }
}

static emend_status bad_create(const emend_host *h, const emend_provider_setting *settings, size_t count,
                               void **out) {
    (void)settings;
    (void)count;
    host = h;
    *out = NULL;
    return EMEND_OK;
}

static emend_status bad_run(void *self, const emend_provider_request *request, emend_run *run) {
    (void)self;
    const char *scenario = request->prompt ? request->prompt : "";
    atomic_store(&status_count, 0);
    atomic_store(&done, 0);
    if (strcmp(scenario, "invalid-utf8") == 0) {
        emit(run, "good ");
        emit(run, "\xff\xfe");
        emit(run, "\xe2\x82"); /* a character cut short */
        emit(run, "after");
        record(host->finish(run, EMEND_OK, NULL));
    } else if (strncmp(scenario, "edits:", 6) == 0) {
        send_edits(run, scenario + 6);
        record(host->finish(run, EMEND_OK, NULL));
    } else if (strcmp(scenario, "after-finish") == 0) {
        emit(run, "done");
        record(host->finish(run, EMEND_OK, NULL));
        emit(run, "late");
        emend_provider_edit edit = {sizeof edit, {0, 1}, "x", 1, NULL, NULL, NULL};
        record(host->emit_edit(run, &edit));
        record(host->finish(run, EMEND_E_PROVIDER, "again"));
        record((emend_status)host->is_cancelled(run));
    } else if (strcmp(scenario, "fail") == 0) {
        record(host->finish(run, EMEND_E_PROVIDER, "model not found"));
    } else if (strcmp(scenario, "fail-silent") == 0) {
        record(host->finish(run, EMEND_E_TIMEOUT, NULL));
    } else if (strcmp(scenario, "run-error") == 0) {
        atomic_store(&done, 1);
        return EMEND_E_UNSUPPORTED;
    } else if (strcmp(scenario, "never-finish") == 0) {
        /* nothing */
    } else if (strcmp(scenario, "hang") == 0) {
        while (!atomic_load(&released)) pause_ms(5);
        record((emend_status)host->is_cancelled(run));
        emit(run, "too late");
        record(host->finish(run, EMEND_E_CANCELLED, NULL));
    } else if (strcmp(scenario, "slow") == 0) {
        int now = atomic_fetch_add(&in_flight, 1) + 1;
        int most = atomic_load(&most_in_flight);
        while (now > most && !atomic_compare_exchange_weak(&most_in_flight, &most, now)) {
        }
        pause_ms(100);
        atomic_fetch_sub(&in_flight, 1);
        emit(run, "slow");
        record(host->finish(run, EMEND_OK, NULL));
    } else if (strcmp(scenario, "log") == 0) {
        host->log(run, EMEND_LOG_WARNING, "with the run");
        host->log(NULL, EMEND_LOG_INFO, "without a run");
        emit(run, "logged");
        record(host->finish(run, EMEND_OK, NULL));
    } else if (strcmp(scenario, "null-run") == 0) {
        record((emend_status)host->is_cancelled(NULL));
        record(host->emit_text(NULL, "x", 1));
        emend_provider_edit edit = {sizeof edit, {0, 1}, "x", 1, NULL, NULL, NULL};
        record(host->emit_edit(NULL, &edit));
        record(host->finish(NULL, EMEND_OK, NULL));
        record(host->emit_edit(run, NULL));
        record(host->emit_text(run, NULL, 3));
        record(host->finish(run, EMEND_OK, NULL));
    } else {
        record(host->finish(run, EMEND_E_INVALID_ARGUMENT, "unknown scenario"));
    }
    atomic_store(&done, 1);
    return EMEND_OK;
}

static void bad_cancel(void *self, emend_run *run) {
    (void)self;
    (void)run;
    atomic_fetch_add(&cancel_calls, 1);
}

static void bad_destroy(void *self) { (void)self; }

static const emend_provider_descriptor descriptor = {
    .struct_size = sizeof(emend_provider_descriptor),
    .abi_version = EMEND_PROVIDER_ABI_VERSION,
    .id = "org.emend.test.misbehaving",
    .name = "Misbehaving test plugin",
    .version = "0.0.1",
    .tools = EMEND_PROVIDES(EMEND_TOOL_PROOFREAD) | EMEND_PROVIDES_REWRITES,
    .languages = "*",
    .outputs = EMEND_OUTPUT_PLAIN | EMEND_OUTPUT_EDITS,
    .flags = CONCURRENT,
    .priority = 0,
    .create = bad_create,
    .run = bad_run,
    .cancel = bad_cancel,
    .destroy = bad_destroy,
};

const emend_provider_descriptor *emend_provider_entry(void) { return &descriptor; }

/* For the tests, through dlsym. */
int misbehaving_status_count(void) { return atomic_load(&status_count); }
int misbehaving_status(int index) { return atomic_load(&statuses[index]); }
int misbehaving_done(void) { return atomic_load(&done); }
int misbehaving_cancel_calls(void) { return atomic_load(&cancel_calls); }
int misbehaving_most_in_flight(void) { return atomic_load(&most_in_flight); }
void misbehaving_release(void) { atomic_store(&released, 1); }
