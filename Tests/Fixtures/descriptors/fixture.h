/*
 * fixture.h — the body of every descriptor fixture: a plugin whose descriptor takes each
 * field from a FX_ macro the fixture may set before including this (the defaults make a
 * good descriptor). The fixture's first line says the verdict both the scanner and the
 * Swift host must give: `verdict: ok` or `verdict: broken: REASON`, where {MIN} stands for
 * sizeof(emend_provider_descriptor) (Tests/EmendProvidersTests/DescriptorVerdictTests.swift;
 * the rules are explained in scanner/descriptor_verdict.h).
 */
#include "emend_provider.h"

#ifndef FX_STRUCT_SIZE
#define FX_STRUCT_SIZE sizeof(emend_provider_descriptor)
#endif
#ifndef FX_ABI
#define FX_ABI EMEND_PROVIDER_ABI_VERSION
#endif
#ifndef FX_ID
#define FX_ID "org.emend.test.verdict"
#endif
#ifndef FX_NAME
#define FX_NAME "Verdict fixture"
#endif
#ifndef FX_VERSION
#define FX_VERSION "1.0.0"
#endif
#ifndef FX_LANGUAGES
#define FX_LANGUAGES "*"
#endif
#ifndef FX_TOOLS
#define FX_TOOLS EMEND_PROVIDES(EMEND_TOOL_PROOFREAD)
#endif
#ifndef FX_CREATE
#define FX_CREATE fx_create
#endif
#ifndef FX_RUN
#define FX_RUN fx_run
#endif
#ifndef FX_DESTROY
#define FX_DESTROY fx_destroy
#endif

/* Never called: only the descriptor is judged. */
__attribute__((unused)) static emend_status fx_create(const emend_host *host, const emend_provider_setting *settings,
                                                      size_t count, void **instance) {
    (void)host, (void)settings, (void)count;
    *instance = 0;
    return EMEND_OK;
}
__attribute__((unused)) static emend_status fx_run(void *instance, const emend_provider_request *request, emend_run *run) {
    (void)instance, (void)request, (void)run;
    return EMEND_E_UNSUPPORTED;
}
__attribute__((unused)) static void fx_destroy(void *instance) { (void)instance; }

static const emend_provider_descriptor descriptor = {
    .struct_size = FX_STRUCT_SIZE,
    .abi_version = FX_ABI,
    .id = FX_ID,
    .name = FX_NAME,
    .version = FX_VERSION,
    .tools = FX_TOOLS,
    .languages = FX_LANGUAGES,
    .outputs = EMEND_OUTPUT_EDITS,
    .create = FX_CREATE,
    .run = FX_RUN,
    .destroy = FX_DESTROY,
};

const emend_provider_descriptor *emend_provider_entry(void) { return &descriptor; }
