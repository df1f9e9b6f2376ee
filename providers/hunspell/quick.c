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
