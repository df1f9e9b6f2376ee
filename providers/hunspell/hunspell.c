/*
 * hunspell.c — an Emend provider plugin that finds misspelled words with Hunspell.
 *
 *   id     org.emend.hunspell
 *   tools  proofread   one edit per misspelled word: the best suggestion as the replacement,
 *                      the others in the explanation; category "spelling", rule "HUNSPELL"
 *
 * The dictionary follows the request's language (en-US → en_US.aff/.dic, de-DE → de_DE, ...)
 * and is looked for in the setting dictionary_dir, then /usr/share/hunspell and
 * /usr/share/myspell/dicts. Checking a word is fast (millions a second); asking Hunspell for
 * suggestions is slow (tens of ms a word), so suggestions are cached per instance (bounded,
 * least recently used out, kept across requests), each misspelled word is asked about once,
 * and kept on disk for other processes (diskcache.h; suggestion_disk_cache = false turns that
 * off), and every misspelled word gets its suggestions. There is no time budget: one made the result
 * depend on the machine's load (the same file gave 0, 12 or 18 suggestions), and a budget once
 * spent stayed spent for the rest of the run. A request that takes too long is stopped by the
 * host's time limit (cancel), which reports the result as partial. See README.md.
 *
 * The work happens inside run (the host calls it on a thread of its own); cancel sets a flag
 * that the run checks before every suggestion and every few hundred words.
 *
 *   hunspell.c    the descriptor, the settings, create and destroy
 *   provider.h    the instance the files share
 *   check.c       one request: words, what is skipped, the suggestions, the edits
 *   dictionary.c  the loaded dictionaries: loading, encodings, scripts, spell and suggest
 *   locate.c      which .aff/.dic files serve a language
 *   cache.c       the suggestion cache (bounded, least recently used out)
 *   diskcache.c   the suggestions on disk, shared by processes
 *   personal.c    the user's dictionary.txt
 *   chars.c       character classes, scripts and case
 *   skips.c       code, URLs, e-mail addresses and paths: never checked
 *   quick.c       the quick view of a dictionary: suggestions without the n-gram scan
 *   ../sdk        settings, logging, request checks, the run in progress, UTF-8
 *
 * Build: providers/hunspell/build.sh OUT_DIR  →  OUT_DIR/hunspell.so
 */
#define _POSIX_C_SOURCE 200809L

#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "chars.h"
#include "emend_plugin.h"
#include "emend_provider.h"
#include "provider.h"

#define PLUGIN_ID "org.emend.hunspell"
#define TOOLS EMEND_PROVIDES(EMEND_TOOL_PROOFREAD)

/* Defaults and limits of the settings. */
#define DEFAULT_MAX_SUGGESTIONS 5L
#define MAX_MAX_SUGGESTIONS 20L
#define DEFAULT_CACHE_SIZE 10000L
#define MAX_CACHE_SIZE 1000000L

static const char *const default_directories[] = {"/usr/share/hunspell", "/usr/share/myspell/dicts"};

/* ---- settings ------------------------------------------------------------------------------- */

static int add_directory(provider *p, const char *directory, size_t length) {
    char *entry = strndup(directory, length);
    char *copy = entry ? emend_plugin_expand_home(entry) : NULL;
    free(entry);
    if (copy == NULL) return -1;
    while (strlen(copy) > 1 && copy[strlen(copy) - 1] == '/') copy[strlen(copy) - 1] = '\0';
    char **grown = realloc(p->directories, (p->directory_count + 1) * sizeof *grown);
    if (grown == NULL) {
        free(copy);
        return -1;
    }
    p->directories = grown;
    p->directories[p->directory_count++] = copy;
    return 0;
}

/* ---- the descriptor's functions ------------------------------------------------------------- */

static void hunspell_destroy(void *instance);

static emend_status hunspell_create(const emend_host *host, const emend_provider_setting *settings, size_t setting_count,
                                    void **instance) {
    emend_status status;
    provider *p = emend_plugin_instance_new(host, instance, sizeof *p, &status);
    if (p == NULL) return status;
    p->max_suggestions = DEFAULT_MAX_SUGGESTIONS;
    p->region_fallback = 1;
    p->disk_cache = 1;
    long cache_size = DEFAULT_CACHE_SIZE;

    const char *dictionary_dir = NULL, *personal = NULL;
    for (size_t i = 0; i < setting_count && status == EMEND_OK; i++) {
        const emend_provider_setting *setting = &settings[i];
        const char *key = setting->key, *value = setting->value;
        if (key == NULL || value == NULL) continue;
        long number = 0;
        if (strcmp(key, "dictionary_dir") == 0) {
            dictionary_dir = value;
        } else if (strcmp(key, "personal_dictionary") == 0) {
            personal = value;
        } else if (strcmp(key, "check_all_caps") == 0) {
            status = emend_plugin_setting_bool(host, setting, &p->check_all_caps);
        } else if (strcmp(key, "suggestion_disk_cache") == 0) {
            status = emend_plugin_setting_bool(host, setting, &p->disk_cache);
        } else if (strcmp(key, "region_fallback") == 0) {
            status = emend_plugin_setting_bool(host, setting, &p->region_fallback);
        } else if (strcmp(key, "suggest_budget_ms") == 0) {
            /* Once a time budget for suggestions; gone, as it made results depend on load. */
            emend_plugin_log(host, NULL, EMEND_LOG_WARNING,
                             "setting \"suggest_budget_ms\" ignored: every misspelled word gets its suggestions, so "
                             "that the result does not depend on the machine's load");
        } else if (strcmp(key, "max_suggestions") == 0) {
            if ((status = emend_plugin_setting_number(host, setting, 1, MAX_MAX_SUGGESTIONS, &number)) == EMEND_OK)
                p->max_suggestions = (size_t)number;
        } else if (strcmp(key, "suggestion_cache_size") == 0) {
            status = emend_plugin_setting_number(host, setting, 0, MAX_CACHE_SIZE, &cache_size);
        } else {
            emend_plugin_setting_unknown(host, setting);
        }
    }
    /* dictionary_dir: directories separated by ':', searched before the defaults. */
    for (const char *dirs = dictionary_dir; status == EMEND_OK && dirs != NULL && *dirs != '\0';) {
        const char *colon = strchr(dirs, ':');
        size_t length = colon ? (size_t)(colon - dirs) : strlen(dirs);
        if (length > 0 && add_directory(p, dirs, length) != 0) status = EMEND_E_INTERNAL;
        dirs = colon ? colon + 1 : dirs + length;
    }
    for (size_t i = 0; status == EMEND_OK && i < COUNT_OF(default_directories); i++)
        if (add_directory(p, default_directories[i], strlen(default_directories[i])) != 0) status = EMEND_E_INTERNAL;
    if (status == EMEND_OK && cache_init(&p->cache, (size_t)cache_size) != 0) status = EMEND_E_INTERNAL;
    if (status == EMEND_OK && personal_init(&p->personal, personal) != 0) status = EMEND_E_INTERNAL;
    if (status != EMEND_OK) {
        hunspell_destroy(p);
        return status;
    }
    /* Letter classes of every script; without C.UTF-8 a coarser rule (see chars.h). */
    p->ctype = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    *instance = p;
    return EMEND_OK;
}

static emend_status hunspell_run(void *instance, const emend_provider_request *request, emend_run *run) {
    return emend_plugin_run_inside(instance, request, run, TOOLS, hunspell_proofread);
}

static void hunspell_destroy(void *instance) {
    provider *p = instance;
    if (p == NULL) return;
    while (p->dictionaries != NULL) {
        dictionary *d = p->dictionaries;
        p->dictionaries = d->next;
        dictionary_unload(p, d);
    }
    cache_free(&p->cache);
    personal_free(&p->personal);
    for (size_t i = 0; i < p->directory_count; i++) free(p->directories[i]);
    free(p->directories);
    if (p->ctype != (locale_t)0) freelocale(p->ctype);
    emend_plugin_instance_free(p);
}

EMEND_PLUGIN_DESCRIPTOR(.id = PLUGIN_ID, .name = "Hunspell spelling", .version = "1.0.0", .tools = TOOLS,
                        .languages = "*", .outputs = EMEND_OUTPUT_EDITS, .flags = 0, .priority = 5,
                        .create = hunspell_create, .run = hunspell_run, .cancel = emend_plugin_cancel,
                        .destroy = hunspell_destroy)
