/*
 * A minimal valid provider plugin for the discovery benchmark (see benchmarks/README.md).
 * benchmarks/run.sh compiles it 50 times with a different -DPLUGIN_ID="\"...\"" each time,
 * so that every copy declares its own id:
 *
 *     cc -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC -I include \
 *        -DPLUGIN_ID='"org.emend.bench.plugin01"' benchmarks/discovery/plugin.c -o plugin01.so
 *
 * The descriptor is complete (every field of version 1); run answers at once with
 * EMEND_E_UNSUPPORTED, since discovery only reads the descriptor and never runs a request.
 */
#include <stddef.h>

#include "emend_provider.h"

#ifndef PLUGIN_ID
#define PLUGIN_ID "org.emend.bench.plugin"
#endif

static emend_status create(const emend_host *host, const emend_provider_setting *settings, size_t setting_count,
                           void **instance) {
    (void)host;
    (void)settings;
    (void)setting_count;
    *instance = NULL;
    return EMEND_OK;
}

static emend_status run(void *instance, const emend_provider_request *request, emend_run *r) {
    (void)instance;
    (void)request;
    (void)r;
    return EMEND_E_UNSUPPORTED;
}

static void cancel(void *instance, emend_run *r) {
    (void)instance;
    (void)r;
}

static void destroy(void *instance) { (void)instance; }

static const emend_provider_descriptor descriptor = {
    .struct_size = sizeof(emend_provider_descriptor),
    .abi_version = EMEND_PROVIDER_ABI_VERSION,
    .id = PLUGIN_ID,
    .name = "Discovery benchmark plugin",
    .version = "1.0",
    .tools = EMEND_PROVIDES(EMEND_TOOL_PROOFREAD),
    .languages = "en",
    .outputs = EMEND_OUTPUT_EDITS,
    .flags = 0,
    .priority = 0,
    .create = create,
    .run = run,
    .cancel = cancel,
    .destroy = destroy,
};

const emend_provider_descriptor *emend_provider_entry(void) { return &descriptor; }
