/*
 * skips.h — the spans of a request's text the Hunspell provider never spell-checks: Markdown
 * code spans and fences, URLs, e-mail addresses and @handles, file paths and bare domain
 * names, and the request's protected ranges, gathered in a range_list. UTF-8 byte offsets.
 */
#ifndef EMEND_HUNSPELL_SKIPS_H
#define EMEND_HUNSPELL_SKIPS_H

#include <stddef.h>

typedef struct range_list {
    size_t *starts_ends; /* pairs: start, end */
    size_t count;
    size_t capacity;
    int failed;          /* out of memory */
} range_list;

/* Adds [start, end) (nothing once failed, or for end < start). */
void ranges_add(range_list *list, size_t start, size_t end);

/* Sorts the ranges and merges the ones that overlap or touch: afterwards they are disjoint
 * and ascending, so a scan in text order can walk them with one index. */
void ranges_normalize(range_list *list);

/* Whether [start, end) overlaps a range of the normalized list; *cursor only moves forward,
 * so calls must come with ascending `start`. An empty range p..p counts when start < p < end. */
int ranges_overlap(const range_list *list, size_t *cursor, size_t start, size_t end);

/* Adds the code spans (`code`, ``co`de``) and fenced code blocks (``` or ~~~ at the start of
 * a line, up to the closing fence or the end of the text) of the whole text. An inline span
 * does not cross a blank line; a backtick run without its closing run is plain text. */
void find_code(const char *text, size_t n, range_list *out);

/* Adds what must not be checked in the chunk [s, e) (a run of text without ASCII spaces):
 * URLs (scheme://..., www....), e-mail addresses and @handles, file paths (/..., ~/...,
 * ./..., ../..., anything with a backslash) and domain names with a common TLD. */
void find_unwords(const char *text, size_t s, size_t e, range_list *out);

#endif /* EMEND_HUNSPELL_SKIPS_H */
