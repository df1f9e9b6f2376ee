/* plugin_runs.c — the runs in progress of an instance, for cancel (see emend_plugin.h). */
#include "emend_plugin.h"

int emend_plugin_runs_init(emend_plugin_runs *runs) {
    runs->slots = NULL;
    return pthread_mutex_init(&runs->lock, NULL) == 0 ? 0 : -1;
}

void emend_plugin_runs_destroy(emend_plugin_runs *runs) { pthread_mutex_destroy(&runs->lock); }

void emend_plugin_runs_enter(emend_plugin_runs *runs, emend_plugin_slot *slot, emend_run *run) {
    slot->run = run;
    atomic_init(&slot->cancelled, 0);
    pthread_mutex_lock(&runs->lock);
    slot->next = runs->slots;
    runs->slots = slot;
    pthread_mutex_unlock(&runs->lock);
}

void emend_plugin_runs_leave(emend_plugin_runs *runs, emend_plugin_slot *slot) {
    pthread_mutex_lock(&runs->lock);
    for (emend_plugin_slot **link = &runs->slots; *link != NULL; link = &(*link)->next)
        if (*link == slot) {
            *link = slot->next;
            break;
        }
    pthread_mutex_unlock(&runs->lock);
}

void emend_plugin_runs_cancel(emend_plugin_runs *runs, emend_run *run) {
    pthread_mutex_lock(&runs->lock);
    for (emend_plugin_slot *slot = runs->slots; slot != NULL; slot = slot->next)
        if (slot->run == run) {
            atomic_store(&slot->cancelled, 1);
            if (slot->wake != NULL) slot->wake(slot->wake_context);
        }
    pthread_mutex_unlock(&runs->lock);
}

int emend_plugin_slot_cancelled(emend_plugin_slot *slot, const emend_host *host) {
    return atomic_load(&slot->cancelled) || host->is_cancelled(slot->run);
}

void emend_plugin_runs_set_wake(emend_plugin_runs *runs, emend_plugin_slot *slot, void (*wake)(void *context),
                                void *context) {
    pthread_mutex_lock(&runs->lock);
    slot->wake = wake;
    slot->wake_context = context;
    pthread_mutex_unlock(&runs->lock);
}
