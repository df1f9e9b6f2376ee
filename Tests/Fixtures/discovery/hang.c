/* A plugin that hangs while loading: its constructor sleeps forever. */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "emend_provider.h"

__attribute__((constructor)) static void hang(void) {
    for (;;) pause();
}

const emend_provider_descriptor *emend_provider_entry(void) { return NULL; }
