/*
 * cache.h — the suggestion cache of the Hunspell provider: misspelled word → the suggestions Hunspell gave for it, per dictionary, least
 * recently used first out once `capacity` words are kept. An empty list is kept too, so a
 * word without suggestions is not asked about again.
 */
#ifndef EMEND_HUNSPELL_CACHE_H
#define EMEND_HUNSPELL_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct cache_entry {
    struct cache_entry *chain;          /* the next entry of the same bucket */
    struct cache_entry *newer, *older;  /* use order */
    const void *dictionary;
    uint32_t hash;
    size_t word_length;
    char **suggestions;                 /* UTF-8, NUL-terminated */
    size_t count;
    char word[];                        /* word_length bytes and a NUL */
} cache_entry;

typedef struct suggestion_cache {
    cache_entry **buckets;
    size_t bucket_count;                /* a power of two */
    size_t count;
    size_t capacity;                    /* 0: nothing is kept */
    cache_entry *newest, *oldest;
    uint64_t hits, misses;
} suggestion_cache;
/* Frees a list of `count` suggestions and the list. */
void free_suggestions(char **list, size_t count);

/* An empty cache that keeps up to `capacity` words (0: none). 0, or -1 out of memory. */
int cache_init(suggestion_cache *cache, size_t capacity);

/* The entry for `word` of `dictionary` (now the most recently used), or NULL. */
cache_entry *cache_find(suggestion_cache *cache, const void *dictionary, const char *word, size_t length);

/* Keeps `suggestions` for `word` and returns the entry (the cache owns them from then on), or
 * NULL when nothing is kept (capacity 0 or no memory): then they are still the caller's. */
cache_entry *cache_store(suggestion_cache *cache, const void *dictionary, const char *word, size_t length,
                         char **suggestions, size_t count);

/* Forgets every word of `dictionary` (it is being unloaded, or its words changed). */
void cache_purge(suggestion_cache *cache, const void *dictionary);

/* Forgets everything and frees the table. */
void cache_free(suggestion_cache *cache);

#endif /* EMEND_HUNSPELL_CACHE_H */
