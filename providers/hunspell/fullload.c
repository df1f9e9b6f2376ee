/* fullload.c — the dictionary as it is, loaded beside the quick view (see fullload.h). */
#define _POSIX_C_SOURCE 200809L
#include "fullload.h"

#include <stdlib.h>
#include <string.h>

static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;

Hunhandle *handles_create(const char *aff, const char *dic) {
    pthread_mutex_lock(&handles_lock);
    Hunhandle *handle = Hunspell_create(aff, dic);
    pthread_mutex_unlock(&handles_lock);
    return handle;
}

void handles_destroy(Hunhandle *handle) {
    if (handle == NULL) return;
    pthread_mutex_lock(&handles_lock);
    Hunspell_destroy(handle);
    pthread_mutex_unlock(&handles_lock);
}

static void *load(void *argument) {
    full_dictionary *full = argument;
    full->handle = handles_create(full->aff_path, full->dic_path);
    return NULL;
}

int full_load_start(full_dictionary *full, const char *aff, const char *dic) {
    full->state = FULL_NOT_LOADED;
    full->handle = NULL;
    full->aff_path = strdup(aff);
    full->dic_path = strdup(dic);
    if (full->aff_path == NULL || full->dic_path == NULL) {
        free(full->aff_path);
        free(full->dic_path);
        full->aff_path = full->dic_path = NULL;
        return -1;
    }
    /* `full` stays where it is (inside its dictionary) until full_load_free joins the thread. */
    if (pthread_create(&full->thread, NULL, load, full) == 0) full->state = FULL_LOADING;
    return 0;
}

Hunhandle *full_load_take(full_dictionary *full) {
    switch (full->state) {
    case FULL_LOADING:
        pthread_join(full->thread, NULL);
        full->state = FULL_LOADED;
        break;
    case FULL_NOT_LOADED:
        full->handle = full->aff_path == NULL ? NULL : handles_create(full->aff_path, full->dic_path);
        full->state = FULL_LOADED;
        break;
    case FULL_IS_HANDLE:
    case FULL_LOADED:
        break;
    }
    return full->handle;
}

void full_load_free(full_dictionary *full) {
    if (full->state == FULL_LOADING) pthread_join(full->thread, NULL);
    handles_destroy(full->handle);
    free(full->aff_path);
    free(full->dic_path);
    full->handle = NULL;
    full->aff_path = full->dic_path = NULL;
    full->state = FULL_LOADED;
}
