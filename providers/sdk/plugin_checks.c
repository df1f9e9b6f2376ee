/* plugin_checks.c — the host table at create and the request at run (see emend_plugin.h). */
#include "emend_plugin.h"

emend_status emend_plugin_check_host(const emend_host *host, void **instance) {
    if (host == NULL || instance == NULL) return EMEND_E_INVALID_ARGUMENT;
    if (host->struct_size < offsetof(emend_host, finish) + sizeof host->finish) return EMEND_E_STRUCT_SIZE;
    return EMEND_OK;
}

/* [start, end) inside text[0, length), forwards, on character boundaries (with no text,
 * only [0, 0) is: the boundary test reads no byte at the end). */
static int range_ok(const emend_provider_request *request, emend_byte_range range) {
    return range.start <= range.end && range.end <= request->text_length &&
           emend_utf8_is_boundary(request->text, request->text_length, range.start) &&
           emend_utf8_is_boundary(request->text, request->text_length, range.end);
}

emend_status emend_plugin_check_run(const void *instance, const emend_provider_request *request, const emend_run *run,
                                    uint32_t tools) {
    if (instance == NULL || request == NULL || run == NULL) return EMEND_E_INVALID_ARGUMENT;
    if (request->struct_size < EMEND_PLUGIN_REQUEST_MIN_SIZE) return EMEND_E_STRUCT_SIZE;
    if ((unsigned)request->tool >= 32 || (tools & EMEND_PROVIDES(request->tool)) == 0) return EMEND_E_UNSUPPORTED;
    if (request->text == NULL && request->text_length > 0) return EMEND_E_RANGE;
    if (!range_ok(request, request->selection)) return EMEND_E_RANGE;
    if (request->protected_range_count > 0 && request->protected_ranges == NULL) return EMEND_E_RANGE;
    for (size_t i = 0; i < request->protected_range_count; i++)
        if (!range_ok(request, request->protected_ranges[i])) return EMEND_E_RANGE;
    return EMEND_OK;
}
