/*
 * personal.h — the user's own words for the Hunspell provider:
 * $XDG_CONFIG_HOME/emend/dictionary.txt (or ~/.config/emend/, or the
 * setting personal_dictionary), one word a line, `#` comment lines, as every part of Emend
 * reads it (Sources/EmendProofreading/Quality/PersonalDictionary.swift). Emend's host already
 * drops suggestions on these words; the plugin adds them to Hunspell as well so that they
 * become suggestions: "libjpg" → "libjpeg" once libjpeg is the user's word. The file is read
 * again when its modification time or size changes; words taken out of it stay known to the
 * loaded dictionaries until the plugin is made again.
 */
#ifndef EMEND_HUNSPELL_PERSONAL_H
#define EMEND_HUNSPELL_PERSONAL_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

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
int personal_init(personal_words *pw, const char *setting);

/* Reads the file again when it changed; the generation grows when the words did. */
void personal_refresh(personal_words *pw);

void personal_free(personal_words *pw);

#endif /* EMEND_HUNSPELL_PERSONAL_H */
