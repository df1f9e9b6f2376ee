/* plugin_instance.c — what every instance shares: create's opening, cancel, destroy's end and
 * a run served inside descriptor.run (see emend_plugin.h). */
#include "emend_plugin.h"

#include <stdlib.h>

void *emend_plugin_instance_new(const emend_host *host, void **instance, size_t size, emend_status *status) {
    *status = emend_plugin_check_host(host, instance);
    if (*status != EMEND_OK) return NULL;
    *status = EMEND_E_INTERNAL;
    if (size < sizeof(emend_plugin_instance)) return NULL;
    emend_plugin_instance *base = calloc(1, size);
    if (base == NULL) return NULL;
    if (emend_plugin_runs_init(&base->runs) != 0) {
        free(base);
        return NULL;
    }
    base->host = host;
    *status = EMEND_OK;
    return base;
}

void emend_plugin_instance_free(void *instance) {
    emend_plugin_instance *base = instance;
    if (base == NULL) return;
    emend_plugin_runs_destroy(&base->runs);
    free(base);
}

/* From any thread, maybe as the run is finishing: only the flag (and wake-up) of its slot. */
void emend_plugin_cancel(void *instance, emend_run *run) {
    emend_plugin_instance *base = instance;
    if (base == NULL) return;
    emend_plugin_runs_cancel(&base->runs, run);
}

emend_status emend_plugin_run_inside(void *instance, const emend_provider_request *request, emend_run *run,
                                     uint32_t tools, emend_plugin_serve_fn serve) {
    emend_status checked = emend_plugin_check_run(instance, request, run, tools);
    if (checked != EMEND_OK) return checked;
    emend_plugin_instance *base = instance;
    emend_plugin_slot slot = {0};
    emend_plugin_runs_enter(&base->runs, &slot, run);
    char message[EMEND_PLUGIN_MESSAGE_SIZE] = "";
    emend_status status = serve(instance, request, run, &slot, message, sizeof message);
    /* Left before finish: after it the host may hand the same run pointer to a later run. */
    emend_plugin_runs_leave(&base->runs, &slot);
    base->host->finish(run, status, status == EMEND_OK || message[0] == '\0' ? NULL : message);
    return EMEND_OK;
}
