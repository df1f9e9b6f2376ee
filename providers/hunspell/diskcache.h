/*
 * diskcache.h — the Hunspell provider's suggestions kept on disk, so that another process (the
 * next `emend proofread`, another editor) does not ask Hunspell again: one file per dictionary
 * in $EMEND_PROVIDER_CACHE_DIR (the private cache directory Emend gives this provider, the
 * one its sandbox lets it write; emend_provider.h), or outside Emend under
 * $XDG_CACHE_HOME/emend/hunspell (or ~/.cache/emend/hunspell), named by the dictionary's
 * name and the identity of its .aff and .dic files (device, inode, size, modification time),
 * so an updated dictionary starts a new file. A line per word: the word, then its suggestions,
 * tab-separated (UTF-8). Lines are appended with one write each (O_APPEND), so processes that
 * share a file do not tear each other's lines; a torn or odd line is skipped when read. Only
 * used while the user has no words of their own (their words change the suggestions). The
 * file stops growing at DISK_CACHE_MAX_BYTES. Any failure leaves the cache off: suggestions
 * are then computed as before.
 */
#ifndef EMEND_HUNSPELL_DISKCACHE_H
#define EMEND_HUNSPELL_DISKCACHE_H

#include <stddef.h>

#include "cache.h"

#define DISK_CACHE_MAX_BYTES (8L * 1024 * 1024)

/* The file for the dictionary aff/dic named `name` (malloc'd), or NULL (no cache directory,
 * a file that cannot be read). */
char *disk_cache_path(const char *name, const char *aff, const char *dic);

/* Puts the file's words into `cache` for `dictionary`; the number read. */
size_t disk_cache_load(const char *path, suggestion_cache *cache, const void *dictionary);

/* Appends `word` and its suggestions to the file (nothing when it is full or cannot be written). */
void disk_cache_append(const char *path, const char *word, char *const *suggestions, size_t count);

#endif /* EMEND_HUNSPELL_DISKCACHE_H */
