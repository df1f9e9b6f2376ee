/*
 * dictionary.h — the Hunspell dictionaries an instance has loaded: loading one for a language
 * (at most MAX_LOADED_DICTIONARIES at a time, least recently used out), its encoding and the
 * scripts its words use, the user's words added to it, and what is asked of it: whether a word
 * is spelled right, and suggestions for one that is not (UTF-8 in and out, whatever the
 * dictionary's own encoding).
 */
#ifndef EMEND_HUNSPELL_DICTIONARY_H
#define EMEND_HUNSPELL_DICTIONARY_H

#include <iconv.h>
#include <stddef.h>
#include <stdint.h>

#include <hunspell.h>

#include "emend_plugin.h"
#include "fullload.h"
#include "personal.h"

struct provider;

typedef struct dictionary {
    struct dictionary *next;
    char *name;          /* the file name without .dic, e.g. "en_US" */
    char *directory;
    /* Spelling, and the suggestions of Hunspell's edits: the quick view of the dictionary
     * (quick.h) when it could be made, else the dictionary as it is. */
    Hunhandle *handle;
    /* The dictionary as it is, for the n-gram scan when the edits suggest nothing: loaded on a
     * thread of its own right after `handle` (fullload.h), or FULL_IS_HANDLE when `handle` is
     * it already (no quick view). */
    full_dictionary full;
    unsigned full_personal_generation; /* the user's words added to full.handle */
    int utf8;            /* the dictionary's encoding is UTF-8: no conversion */
    iconv_t to_dictionary, from_dictionary;
    uint64_t last_used;
    /* The scripts of the letters of its words (script_of), read from the .dic file; with
     * script_count 0 (the file could not be read) every word is checked. */
    uint32_t scripts[16];
    size_t script_count;
    unsigned personal_generation; /* the user's words added to it (personal_words.generation) */
    char *disk_path;     /* its suggestions on disk (diskcache.h), or NULL */
    int disk_loaded;     /* the file's words are in the suggestion cache */
} dictionary;

/* The loaded dictionary for `tag`, loading it when needed; NULL with `message` and *status
 * (EMEND_E_UNSUPPORTED when none is installed, EMEND_E_PROVIDER when it cannot be loaded). */
dictionary *dictionary_for(struct provider *p, emend_run *run, const char *tag, emend_status *status, char *message,
                           size_t message_size);

/* Adds the user's words to `d` when they changed since it last got them; its cached
 * suggestions go, as they were made without those words. */
void dictionary_add_personal_words(struct provider *p, emend_run *run, dictionary *d);

/* Frees `d` (taken out of the provider's list by the caller) and its cached suggestions. */
void dictionary_unload(struct provider *p, dictionary *d);

/* 1 when `word` (UTF-8, NUL-terminated) is spelled right, 0 when not, -1 when the dictionary's
 * encoding cannot hold it (then it cannot be in the dictionary either: not checked). */
int dictionary_spell(dictionary *d, const char *word, size_t length);

/* Hunspell's suggestions for `word` (UTF-8, apostrophes straight) into *out (malloc'd, UTF-8,
 * free with free_suggestions) and *count: those of Hunspell's edits of the word, and only when
 * they find nothing those of its n-gram scan of the dictionary (quick.h; `personal`: the
 * user's words, added to the full dictionary when it is loaded for the scan); without
 * duplicates or the word itself; those that
 * only add or move apostrophes first, then those that only differ in accents; otherwise a
 * word one keystroke away before a first suggestion that cuts the word in two ("Relase":
 * "Release", not "Re lase"). EMEND_OK, or EMEND_E_INTERNAL out of memory. */
emend_status dictionary_suggest(dictionary *d, const personal_words *personal, const char *word, size_t length, char ***out,
                                size_t *count);

/* Whether the dictionary's words use letters of `cp`'s script (script_of). */
int dictionary_uses_script(const dictionary *d, uint32_t cp);

#endif /* EMEND_HUNSPELL_DICTIONARY_H */
