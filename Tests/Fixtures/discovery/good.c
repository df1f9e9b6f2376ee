/* A valid provider plugin whose identity comes from -D flags; see README.md. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <unistd.h>

#include "emend_provider.h"

#ifndef PLUGIN_ID
#define PLUGIN_ID "org.test.good"
#endif
#ifndef PLUGIN_PRIORITY
#define PLUGIN_PRIORITY 0
#endif
#ifndef PLUGIN_TOOLS
#define PLUGIN_TOOLS (EMEND_PROVIDES(EMEND_TOOL_PROOFREAD) | EMEND_PROVIDES(EMEND_TOOL_REWRITE_FRIENDLY))
#endif
#ifndef PLUGIN_FLAGS
#define PLUGIN_FLAGS 0
#endif

#ifdef MARKER_PATH
/* Counts loads: one line per process that loaded this file. */
__attribute__((constructor)) static void mark_load(void) {
    int fd = open(MARKER_PATH, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
        (void)!write(fd, "loaded\n", 7);
        close(fd);
    }
}
#endif

static emend_status create(const emend_host *host, const emend_provider_setting *settings, size_t count,
                           void **instance) {
    (void)host; (void)settings; (void)count;
    *instance = NULL;
    return EMEND_OK;
}

static emend_status run(void *instance, const emend_provider_request *request, emend_run *r) {
    (void)instance; (void)request; (void)r;
    return EMEND_E_UNSUPPORTED;
}

static void destroy(void *instance) { (void)instance; }

static const emend_provider_descriptor descriptor = {
    .struct_size = sizeof(emend_provider_descriptor),
    .abi_version = EMEND_PROVIDER_ABI_VERSION,
    .id = PLUGIN_ID,
    .name = "Test plugin\nwith a line break",
    .version = "1.0",
    .tools = PLUGIN_TOOLS,
    .languages = "en, de",
    .outputs = EMEND_OUTPUT_EDITS,
    .flags = PLUGIN_FLAGS,
    .priority = PLUGIN_PRIORITY,
    .create = create,
    .run = run,
    .cancel = NULL,
    .destroy = destroy,
};

const emend_provider_descriptor *emend_provider_entry(void) { return &descriptor; }
