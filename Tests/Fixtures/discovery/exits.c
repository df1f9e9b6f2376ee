/* A plugin that ends the process that loads it: its constructor calls _exit(3). */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "emend_provider.h"

__attribute__((constructor)) static void leave(void) { _exit(3); }

const emend_provider_descriptor *emend_provider_entry(void) { return NULL; }
