/*
 * check.h — one proofreading request of the Hunspell provider: the selection (widened to whole
 * space-separated chunks) split into words, code, URLs, paths and protected text left alone,
 * each word checked, and one edit per misspelled word emitted, with suggestions from the
 * cache or from Hunspell (always: no time budget, so the result does not depend on load).
 */
#ifndef EMEND_HUNSPELL_CHECK_H
#define EMEND_HUNSPELL_CHECK_H

#include <stddef.h>

#include "emend_plugin.h"

/* The provider's emend_plugin_serve_fn: proofreads `request` for the instance (a provider). */
emend_status hunspell_proofread(void *instance, const emend_provider_request *request, emend_run *run,
                                emend_plugin_slot *slot, char *message, size_t message_size);

#endif /* EMEND_HUNSPELL_CHECK_H */
