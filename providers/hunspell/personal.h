/*
 * personal.h — the user's own words for the Hunspell provider (part of hunspell.c's
 * translation unit): $XDG_CONFIG_HOME/emend/dictionary.txt (or ~/.config/emend/, or the
 * setting personal_dictionary), one word a line, `#` comment lines, as every part of Emend
 * reads it (Sources/EmendProofreading/Quality/PersonalDictionary.swift). Emend's host already
 * drops suggestions on these words; the plugin adds them to Hunspell as well so that they
 * become suggestions: "libjpg" → "libjpeg" once libjpeg is the user's word. The file is read
 * again when its modification time or size changes; words taken out of it stay known to the
 * loaded dictionaries until the plugin is made again.
 */
#ifndef EMEND_HUNSPELL_PERSONAL_H
#define EMEND_HUNSPELL_PERSONAL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct personal_words {
    char *path;             /* NULL: none */
    struct timespec mtime;
    off_t size;
    int seen;               /* the file was there at the last look */
    unsigned generation;    /* grows with every change of the words; 0: never any */
    char *data;             /* the file's text; words point into it */
    char **words;
    size_t count;
} personal_words;

/* The file: `setting` when given ("" for none), else the XDG place. 0, or -1 out of memory. */
static int personal_init(personal_words *pw, const char *setting) {
    memset(pw, 0, sizeof *pw);
    if (setting != NULL) {
        if (*setting == '\0') return 0;
        pw->path = strdup(setting);
        return pw->path == NULL ? -1 : 0;
    }
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    const char *base = xdg != NULL && xdg[0] == '/' ? xdg : NULL;
    const char *tail = base != NULL ? "/emend/dictionary.txt" : "/.config/emend/dictionary.txt";
    if (base == NULL) base = home != NULL && home[0] != '\0' ? home : NULL;
    if (base == NULL) return 0;
    size_t length = strlen(base) + strlen(tail) + 1;
    pw->path = malloc(length);
    if (pw->path == NULL) return -1;
    snprintf(pw->path, length, "%s%s", base, tail);
    return 0;
}

static void personal_clear(personal_words *pw) {
    free(pw->words);
    free(pw->data);
    pw->words = NULL;
    pw->data = NULL;
    pw->count = 0;
}

static void personal_free(personal_words *pw) {
    personal_clear(pw);
    free(pw->path);
    pw->path = NULL;
}

static int personal_is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Reads the file again when it changed; the generation grows when the words did. */
static void personal_refresh(personal_words *pw) {
    if (pw->path == NULL) return;
    struct stat st;
    if (stat(pw->path, &st) != 0) {
        if (pw->seen) {
            pw->seen = 0;
            personal_clear(pw);
        }
        return;
    }
    if (pw->seen && st.st_mtim.tv_sec == pw->mtime.tv_sec && st.st_mtim.tv_nsec == pw->mtime.tv_nsec && st.st_size == pw->size)
        return;
    pw->seen = 1;
    pw->mtime = st.st_mtim;
    pw->size = st.st_size;
    personal_clear(pw);
    FILE *f = fopen(pw->path, "rb");
    if (f == NULL) return;
    size_t capacity = (size_t)st.st_size + 1, length = 0;
    pw->data = malloc(capacity);
    if (pw->data != NULL) length = fread(pw->data, 1, capacity - 1, f);
    fclose(f);
    if (pw->data == NULL) return;
    pw->data[length] = '\0';
    size_t lines = 1;
    for (size_t i = 0; i < length; i++) lines += pw->data[i] == '\n';
    pw->words = calloc(lines, sizeof *pw->words);
    if (pw->words == NULL) return personal_clear(pw);
    for (char *line = pw->data; line != NULL && *line != '\0';) {
        char *end = strchr(line, '\n');
        char *next = end != NULL ? end + 1 : NULL;
        if (end == NULL) end = line + strlen(line);
        while (line < end && personal_is_space(*line)) line++;
        while (end > line && personal_is_space(end[-1])) end--;
        if (end > line && *line != '#') {
            *end = '\0';
            pw->words[pw->count++] = line;
        }
        line = next;
    }
    pw->generation++;
}

#endif
