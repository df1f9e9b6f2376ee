/*
 * markdown.c — ms for emend_markdown_protected_ranges (the one Markdown protection, from
 * cmark-gfm's parse) on deterministic Markdown of 100 KB, 1 MB and 10 MB: paragraphs with a
 * code span and a link each, a fenced code block every 25 paragraphs. Best of `runs` (default
 * 3) per size, in UTF-8 and UTF-16 units. Checks the number of ranges (one code span and one
 * destination per paragraph, one range per code block), so a rule that stops protecting
 * fails the run.
 *
 * Usage: markdown [runs]
 */
#define _POSIX_C_SOURCE 200809L
#include <emend.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Appends Markdown to `text` until it holds `size` bytes; returns the expected range count. */
static size_t generate(char *text, size_t size, size_t *length) {
    static const char *paragraph =
        "This paragraph is written in plain words, with `some --code` and [a link](https://example.com/page) "
        "in it, so the parser has a little of everything to do. Café, naïve and 😀 keep it UTF-8.\n\n";
    static const char *block = "```sh\necho \"a code block\"\n```\n\n";
    size_t used = 0, expected = 0, n = 0;
    for (;;) {
        const char *piece = n % 25 == 24 ? block : paragraph;
        size_t piece_length = strlen(piece);
        if (used + piece_length > size) break;
        memcpy(text + used, piece, piece_length);
        used += piece_length;
        expected += n % 25 == 24 ? 1 : 2;
        n++;
    }
    *length = used;
    return expected;
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 3;
    if (runs < 1) runs = 1;
    static const size_t sizes[] = {100 * 1024, 1024 * 1024, 10 * 1024 * 1024};
    char *text = malloc(sizes[2]);
    if (!text) return 1;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t length = 0;
        size_t expected = generate(text, sizes[s], &length);
        double best[2] = {1e30, 1e30};
        for (int encoding = 0; encoding < 2; encoding++) {
            for (int run = 0; run < runs; run++) {
                emend_range *ranges = NULL;
                size_t count = 0;
                double start = now_ms();
                emend_status status = emend_markdown_protected_ranges(text, length, (emend_position_encoding)encoding, &ranges, &count);
                double took = now_ms() - start;
                emend_markdown_protected_ranges_free(ranges);
                if (status != EMEND_OK || count != expected) {
                    printf("FAIL markdown: %s, %zu ranges, expected %zu: %s\n", emend_status_name(status), count, expected,
                           emend_last_error_message());
                    return 1;
                }
                if (took < best[encoding]) best[encoding] = took;
            }
        }
        printf("Markdown protected ranges, %6zu KB (%zu ranges): %8.1f ms UTF-8, %8.1f ms UTF-16 (%.0f ms per MB)\n",
               length / 1024, expected, best[0], best[1], best[0] * 1024 * 1024 / (double)length);
    }
    free(text);
    return 0;
}
