/*
 * descriptor.c — a test plugin whose descriptor is shaped by -D options, to check how the
 * host loads and refuses descriptors (Tests/EmendProvidersTests/PluginLibraryTests.swift).
 *
 *   -DABI=n            abi_version (default EMEND_PROVIDER_ABI_VERSION)
 *   -DSTRUCT_SIZE=n    struct_size (default sizeof)
 *   -DID=... -DNAME=... -DVERSION_TEXT=... -DLANGUAGES=... -DTOOLS=... -DFLAGS=...
 *   -DNO_CREATE -DNO_RUN -DNO_DESTROY    leave that function NULL
 *   -DNO_ENTRY         export no emend_provider_entry
 *   -DNULL_DESCRIPTOR  emend_provider_entry returns NULL
 *   -DCREATE_FAILS     create logs an error and fails with EMEND_E_PROVIDER
 * A run emits "ok " plus the instance's number of runs and finishes inside run.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emend_provider.h"

#ifndef ABI
#define ABI EMEND_PROVIDER_ABI_VERSION
#endif
#ifndef STRUCT_SIZE
#define STRUCT_SIZE sizeof(emend_provider_descriptor)
#endif
#ifndef ID
#define ID "org.emend.test.descriptor"
#endif
#ifndef NAME
#define NAME "Descriptor test plugin"
#endif
#ifndef VERSION_TEXT
#define VERSION_TEXT "0.1.0"
#endif
#ifndef LANGUAGES
#define LANGUAGES "*"
#endif
#ifndef TOOLS
#define TOOLS (EMEND_PROVIDES(EMEND_TOOL_PROOFREAD) | EMEND_PROVIDES_REWRITES)
#endif
#ifndef FLAGS
#define FLAGS 0
#endif

typedef struct instance {
    const emend_host *host;
    int runs;
} instance;

static atomic_int entry_calls;
static atomic_int destroy_calls;

/* Some -D options leave a function or the descriptor unused. */
#define MAYBE_UNUSED __attribute__((unused))

MAYBE_UNUSED static emend_status test_create(const emend_host *host, const emend_provider_setting *settings, size_t count,
                                void **out) {
#ifdef CREATE_FAILS
    (void)settings;
    (void)count;
    (void)out;
    host->log(NULL, EMEND_LOG_ERROR, "the model file is missing");
    return EMEND_E_PROVIDER;
#else
    instance *self = calloc(1, sizeof *self);
    self->host = host;
    for (size_t i = 0; i < count; i++) {
        char line[200];
        snprintf(line, sizeof line, "setting %s=%s", settings[i].key, settings[i].value);
        host->log(NULL, EMEND_LOG_INFO, line);
    }
    *out = self;
    return EMEND_OK;
#endif
}

MAYBE_UNUSED static emend_status test_run(void *raw, const emend_provider_request *request, emend_run *run) {
    (void)request;
    instance *self = raw;
    char text[32];
    snprintf(text, sizeof text, "ok %d", ++self->runs);
    self->host->emit_text(run, text, strlen(text));
    self->host->finish(run, EMEND_OK, NULL);
    return EMEND_OK;
}

MAYBE_UNUSED static void test_destroy(void *raw) {
    atomic_fetch_add(&destroy_calls, 1);
    free(raw);
}

MAYBE_UNUSED static const emend_provider_descriptor descriptor = {
    .struct_size = STRUCT_SIZE,
    .abi_version = ABI,
    .id = ID,
    .name = NAME,
    .version = VERSION_TEXT,
    .tools = TOOLS,
    .languages = LANGUAGES,
    .outputs = EMEND_OUTPUT_PLAIN,
    .flags = FLAGS,
    .priority = 3,
#ifndef NO_CREATE
    .create = test_create,
#endif
#ifndef NO_RUN
    .run = test_run,
#endif
#ifndef NO_DESTROY
    .destroy = test_destroy,
#endif
};

#ifndef NO_ENTRY
const emend_provider_descriptor *emend_provider_entry(void) {
    atomic_fetch_add(&entry_calls, 1);
#ifdef NULL_DESCRIPTOR
    return NULL;
#else
    return &descriptor;
#endif
}
#else
const emend_provider_descriptor *emend_provider_entry_misspelled(void) { return &descriptor; }
#endif

/* For the tests, through dlsym. */
int descriptor_entry_calls(void) { return atomic_load(&entry_calls); }
int descriptor_destroy_calls(void) { return atomic_load(&destroy_calls); }
