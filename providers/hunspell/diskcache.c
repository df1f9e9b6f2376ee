/* diskcache.c — the Hunspell provider's suggestions kept on disk (see diskcache.h). */
#define _POSIX_C_SOURCE 200809L
#include "diskcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bump when the order or choice of suggestions changes (dictionary_suggest): old files go unused. */
#define DISK_CACHE_FORMAT 2

static int make_directories(char *path) {
    for (char *slash = strchr(path + 1, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        int failed = mkdir(path, 0700) != 0 && errno != EEXIST;
        *slash = '/';
        if (failed) return -1;
    }
    return mkdir(path, 0700) != 0 && errno != EEXIST ? -1 : 0;
}

char *disk_cache_path(const char *name, const char *aff, const char *dic) {
    struct stat a, d;
    if (stat(aff, &a) != 0 || stat(dic, &d) != 0) return NULL;
    /* Emend names this provider's private cache directory (the one its sandbox lets it
     * write); run outside Emend (its own tests), the user's cache as before. */
    const char *own = getenv("EMEND_PROVIDER_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char directory[4096];
    if (own != NULL && own[0] == '/') snprintf(directory, sizeof directory, "%s", own);
    else if (xdg != NULL && xdg[0] == '/') snprintf(directory, sizeof directory, "%s/emend/hunspell", xdg);
    else if (home != NULL && home[0] == '/') snprintf(directory, sizeof directory, "%s/.cache/emend/hunspell", home);
    else return NULL;
    if (make_directories(directory) != 0) return NULL;
    uint64_t h = 1469598103934665603ull;
    const uint64_t parts[] = {(uint64_t)a.st_dev, (uint64_t)a.st_ino, (uint64_t)a.st_size, (uint64_t)a.st_mtime,
                              (uint64_t)d.st_dev, (uint64_t)d.st_ino, (uint64_t)d.st_size, (uint64_t)d.st_mtime};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) h = (h ^ parts[i]) * 1099511628211ull;
    size_t size = strlen(directory) + strlen(name) + 48;
    char *path = malloc(size);
    if (path != NULL) snprintf(path, size, "%s/%s-%016llx.v%d", directory, name, (unsigned long long)h, DISK_CACHE_FORMAT);
    return path;
}

size_t disk_cache_load(const char *path, suggestion_cache *cache, const void *dictionary) {
    FILE *file = fopen(path, "r");
    if (file == NULL) return 0;
    size_t loaded = 0;
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, file)) > 0) {
        if (line[length - 1] != '\n') break;   /* a torn last line */
        line[--length] = '\0';
        char *tab = strchr(line, '\t');
        size_t word_length = tab ? (size_t)(tab - line) : (size_t)length;
        if (word_length == 0 || cache_find(cache, dictionary, line, word_length) != NULL) continue;
        size_t count = 0;
        for (char *c = tab; c != NULL; c = strchr(c + 1, '\t')) count++;
        char **list = count ? calloc(count, sizeof *list) : NULL;
        if (count && list == NULL) break;
        size_t i = 0;
        for (char *c = tab; c != NULL && i < count;) {
            char *next = strchr(c + 1, '\t');
            size_t n = next ? (size_t)(next - c - 1) : strlen(c + 1);
            if (n > 0 && (list[i] = strndup(c + 1, n)) != NULL) i++;
            c = next;
        }
        if (cache_store(cache, dictionary, line, word_length, list, i) == NULL) {
            free_suggestions(list, i);
            break;   /* capacity 0 or no memory */
        }
        loaded++;
    }
    free(line);
    fclose(file);
    return loaded;
}

void disk_cache_append(const char *path, const char *word, char *const *suggestions, size_t count) {
    size_t size = strlen(word) + 2;
    for (size_t i = 0; i < count; i++) {
        if (strchr(suggestions[i], '\t') || strchr(suggestions[i], '\n')) return;
        size += strlen(suggestions[i]) + 1;
    }
    if (strchr(word, '\t') || strchr(word, '\n')) return;
    char *line = malloc(size);
    if (line == NULL) return;
    size_t used = (size_t)snprintf(line, size, "%s", word);
    for (size_t i = 0; i < count; i++) used += (size_t)snprintf(line + used, size - used, "\t%s", suggestions[i]);
    line[used++] = '\n';
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size < DISK_CACHE_MAX_BYTES) {
        ssize_t written = write(fd, line, used);
        (void)written;   /* a short write leaves a torn line, skipped when read */
    }
    if (fd >= 0) close(fd);
    free(line);
}
