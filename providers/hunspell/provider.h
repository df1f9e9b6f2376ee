/*
 * provider.h — the Hunspell provider's instance, shared by its files: the settings, the
 * loaded dictionaries, the suggestion cache and the user's words. One run at a time works on
 * it (the descriptor is not CONCURRENT); cancel touches only the SDK part (base).
 */
#ifndef EMEND_HUNSPELL_PROVIDER_H
#define EMEND_HUNSPELL_PROVIDER_H

#include <locale.h>
#include <stddef.h>
#include <stdint.h>

#include "cache.h"
#include "dictionary.h"
#include "emend_plugin.h"
#include "personal.h"

typedef struct provider {
    emend_plugin_instance base; /* the host, the run in progress (for cancel) */
    char **directories;  /* dictionary_dir entries, then the defaults */
    size_t directory_count;
    int check_all_caps;
    int region_fallback;
    int disk_cache;      /* keep suggestions on disk for other processes (diskcache.h) */
    size_t max_suggestions;
    locale_t ctype;      /* C.UTF-8 for letter classes, or (locale_t)0 */
    dictionary *dictionaries;
    size_t dictionary_count;
    uint64_t use_clock;
    suggestion_cache cache;
    personal_words personal;  /* the user's dictionary.txt */
} provider;

#endif /* EMEND_HUNSPELL_PROVIDER_H */
