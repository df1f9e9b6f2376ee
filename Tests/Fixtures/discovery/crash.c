/* A plugin that crashes while loading: its constructor raises SIGSEGV. */
#include <signal.h>

#include "emend_provider.h"

__attribute__((constructor)) static void crash(void) { raise(SIGSEGV); }

const emend_provider_descriptor *emend_provider_entry(void) { return NULL; }
