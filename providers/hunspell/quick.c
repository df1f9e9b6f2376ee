/* quick.c — the .aff copy without Hunspell's n-gram suggestion scan (see quick.h). */
#define _GNU_SOURCE
#include "quick.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Whether `line` is a MAXNGRAMSUGS directive (after leading blanks, as Hunspell reads it). */
static int is_ngram_directive(const char *line) {
    while (*line == ' ' || *line == '\t') line++;
    return strncmp(line, "MAXNGRAMSUGS", 12) == 0 && (line[12] == '\0' || isspace((unsigned char)line[12]));
}

int quick_affix_file(const char *aff, char *path, size_t size) {
    FILE *in = fopen(aff, "r");
    if (in == NULL) return -1;
    int fd = memfd_create("emend-hunspell-quick.aff", MFD_CLOEXEC);
    /* A second descriptor for the stream (closed with it), close-on-exec as the first. */
    int writer = fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, 0);
    FILE *out = writer < 0 ? NULL : fdopen(writer, "w");
    if (out == NULL) {
        if (writer >= 0) close(writer);
        if (fd >= 0) close(fd);
        fclose(in);
        return -1;
    }
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    int ends_with_newline = 1;
    while ((length = getline(&line, &capacity, in)) > 0) {
        ends_with_newline = line[length - 1] == '\n';
        if (is_ngram_directive(line)) continue;
        fwrite(line, 1, (size_t)length, out);
    }
    int failed = ferror(in);
    free(line);
    fclose(in);
    if (!ends_with_newline) fputc('\n', out);
    fputs("MAXNGRAMSUGS 0\n", out);
    /* A write that failed (the memfd under a memory limit) would leave a cut .aff: affixes
     * lost, words reported misspelled. fclose does not report an earlier failed write. */
    failed |= ferror(out) != 0 || fflush(out) != 0;
    failed |= fclose(out) != 0;
    if (failed || snprintf(path, size, "/proc/self/fd/%d", fd) >= (int)size) {
        close(fd);
        return -1;
    }
    return fd;
}

/* The probe word of the .dic file at `dic` into `word` (its own encoding, as Hunspell takes it):
 * the first entry of 6 to 8 bytes not capitalized without flags, else the first one with flags
 * (its stem);
 * 0, or -1 when there is none (or the file cannot be read). */
static int probe_word(const char *dic, char *word, size_t size) {
    FILE *file = fopen(dic, "rb");
    if (file == NULL) return -1;
    char line[512];
    int found = -1, first = 1;
    for (int lines = 0; lines < 20000 && fgets(line, sizeof line, file) != NULL; lines++) {
        if (first) { /* the word count */
            first = 0;
            continue;
        }
        size_t n = strcspn(line, "/\t\r\n \\");
        /* Short and not capitalized: Hunspell's edits cost more for a longer word and try
         * more forms of a capitalized one. */
        if (n < 6 || n > 8 || n + 1 > size || (line[0] >= 'A' && line[0] <= 'Z')) continue;
        int flagless = line[n] != '/';
        if (found == 0 && !flagless) continue;
        memcpy(word, line, n);
        word[n] = '\0';
        found = 0;
        if (flagless) break;
    }
    fclose(file);
    return found;
}

const char *quick_view_fault(Hunhandle *handle, const char *dic) {
    if (handle == NULL) return "Hunspell could not load it";
    char word[256];
    if (probe_word(dic, word, sizeof word - 4) != 0) return NULL; /* nothing to probe with */
    if (Hunspell_spell(handle, word) == 0) return "Hunspell knows none of its words (the probe word)";
    strcat(word, "zqj");
    char **list = NULL;
    int n = Hunspell_suggest(handle, &list, word);
    if (list != NULL) Hunspell_free_list(handle, &list, n < 0 ? 0 : n);
    return n > 0 ? "Hunspell did not take its MAXNGRAMSUGS 0 (the probe word)" : NULL;
}
