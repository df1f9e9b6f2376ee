/* cache.c — the suggestion cache of the Hunspell provider (see cache.h). */
#include "cache.h"

#include <stdlib.h>
#include <string.h>

void free_suggestions(char **list, size_t count) {
    for (size_t i = 0; i < count; i++) free(list[i]);
    free(list);
}

static uint32_t cache_hash(const void *dictionary, const char *word, size_t length) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < length; i++) h = (h ^ (unsigned char)word[i]) * 16777619u;
    uintptr_t d = (uintptr_t)dictionary;
    h ^= (uint32_t)(d >> 4) * 2654435761u;
    return h;
}

int cache_init(suggestion_cache *cache, size_t capacity) {
    memset(cache, 0, sizeof *cache);
    cache->capacity = capacity;
    if (capacity == 0) return 0;
    size_t buckets = 16;
    while (buckets < capacity && buckets < ((size_t)1 << 30)) buckets <<= 1;
    cache->buckets = calloc(buckets, sizeof *cache->buckets);
    if (cache->buckets == NULL) return -1;
    cache->bucket_count = buckets;
    return 0;
}

static void cache_unlink(suggestion_cache *cache, cache_entry *entry) {
    if (entry->newer) entry->newer->older = entry->older;
    else cache->newest = entry->older;
    if (entry->older) entry->older->newer = entry->newer;
    else cache->oldest = entry->newer;
    entry->newer = entry->older = NULL;
}

static void cache_push_newest(suggestion_cache *cache, cache_entry *entry) {
    entry->older = cache->newest;
    entry->newer = NULL;
    if (cache->newest) cache->newest->newer = entry;
    cache->newest = entry;
    if (cache->oldest == NULL) cache->oldest = entry;
}

static void cache_remove(suggestion_cache *cache, cache_entry *entry) {
    cache_entry **link = &cache->buckets[entry->hash & (cache->bucket_count - 1)];
    while (*link != entry) link = &(*link)->chain;
    *link = entry->chain;
    cache_unlink(cache, entry);
    free_suggestions(entry->suggestions, entry->count);
    free(entry);
    cache->count--;
}

/* The entry for `word` of `dictionary` (now the most recently used), or NULL. */
cache_entry *cache_find(suggestion_cache *cache, const void *dictionary, const char *word, size_t length) {
    if (cache->capacity == 0) return NULL;
    uint32_t hash = cache_hash(dictionary, word, length);
    for (cache_entry *e = cache->buckets[hash & (cache->bucket_count - 1)]; e != NULL; e = e->chain) {
        if (e->hash == hash && e->dictionary == dictionary && e->word_length == length &&
            memcmp(e->word, word, length) == 0) {
            cache_unlink(cache, e);
            cache_push_newest(cache, e);
            cache->hits++;
            return e;
        }
    }
    cache->misses++;
    return NULL;
}

/* Keeps `suggestions` for `word` and returns the entry (the cache owns them from then on), or
 * NULL when nothing is kept (capacity 0 or no memory): then they are still the caller's. */
cache_entry *cache_store(suggestion_cache *cache, const void *dictionary, const char *word, size_t length,
                                char **suggestions, size_t count) {
    if (cache->capacity == 0) return NULL;
    cache_entry *entry = malloc(sizeof *entry + length + 1);
    if (entry == NULL) return NULL;
    while (cache->count >= cache->capacity && cache->oldest != NULL) cache_remove(cache, cache->oldest);
    entry->dictionary = dictionary;
    entry->hash = cache_hash(dictionary, word, length);
    entry->word_length = length;
    memcpy(entry->word, word, length);
    entry->word[length] = '\0';
    entry->suggestions = suggestions;
    entry->count = count;
    cache_entry **bucket = &cache->buckets[entry->hash & (cache->bucket_count - 1)];
    entry->chain = *bucket;
    *bucket = entry;
    cache_push_newest(cache, entry);
    cache->count++;
    return entry;
}

/* Forgets every word of `dictionary` (it is being unloaded). */
void cache_purge(suggestion_cache *cache, const void *dictionary) {
    cache_entry *e = cache->oldest;
    while (e != NULL) {
        cache_entry *newer = e->newer;
        if (e->dictionary == dictionary) cache_remove(cache, e);
        e = newer;
    }
}

void cache_free(suggestion_cache *cache) {
    while (cache->oldest != NULL) cache_remove(cache, cache->oldest);
    free(cache->buckets);
    memset(cache, 0, sizeof *cache);
}
