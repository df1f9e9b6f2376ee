/* skips.c — what the Hunspell provider never checks (see skips.h). */
#define _POSIX_C_SOURCE 200809L
#include "skips.h"

#include <stdlib.h>
#include <string.h>

#include "chars.h"

void ranges_add(range_list *list, size_t start, size_t end) {
    if (list->failed || end < start) return;
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 16;
        size_t *grown = realloc(list->starts_ends, capacity * 2 * sizeof *grown);
        if (grown == NULL) {
            list->failed = 1;
            return;
        }
        list->starts_ends = grown;
        list->capacity = capacity;
    }
    list->starts_ends[2 * list->count] = start;
    list->starts_ends[2 * list->count + 1] = end;
    list->count++;
}

static int compare_pairs(const void *a, const void *b) {
    const size_t *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Sorts the ranges and merges the ones that overlap or touch: afterwards they are disjoint
 * and ascending, so a scan in text order can walk them with one index. */
void ranges_normalize(range_list *list) {
    if (list->count < 2) return;
    qsort(list->starts_ends, list->count, 2 * sizeof(size_t), compare_pairs);
    size_t out = 0;
    for (size_t i = 1; i < list->count; i++) {
        size_t *last = &list->starts_ends[2 * out];
        size_t *next = &list->starts_ends[2 * i];
        if (next[0] <= last[1]) {
            if (next[1] > last[1]) last[1] = next[1];
        } else {
            out++;
            list->starts_ends[2 * out] = next[0];
            list->starts_ends[2 * out + 1] = next[1];
        }
    }
    list->count = out + 1;
}

/* Whether [start, end) overlaps a range of the normalized list; *cursor only moves forward,
 * so calls must come with ascending `start`. An empty range p..p counts when start < p < end. */
int ranges_overlap(const range_list *list, size_t *cursor, size_t start, size_t end) {
    /* A range ending at or before `start` can overlap neither this token nor a later one. */
    while (*cursor < list->count && list->starts_ends[2 * *cursor + 1] <= start) (*cursor)++;
    for (size_t i = *cursor; i < list->count; i++) {
        size_t s = list->starts_ends[2 * i], e = list->starts_ends[2 * i + 1];
        if (s >= end) break;
        if (s == e ? (start < s && s < end) : (start < e && s < end)) return 1;
    }
    return 0;
}

/* ---- Markdown code ---------------------------------------------------------------------- */

/* Whether only spaces (at most three) stand between the start of the line and text[i]. */
static int at_line_start(const char *text, size_t i) {
    size_t spaces = 0;
    while (i > 0 && text[i - 1] == ' ') {
        i--;
        if (++spaces > 3) return 0;
    }
    return i == 0 || text[i - 1] == '\n';
}

static size_t run_length(const char *text, size_t n, size_t i, char c) {
    size_t j = i;
    while (j < n && text[j] == c) j++;
    return j - i;
}

/* The end of the line holding text[i] (after its newline), or n. */
static size_t line_end(const char *text, size_t n, size_t i) {
    const char *newline = memchr(text + i, '\n', n - i);
    return newline ? (size_t)(newline - text) + 1 : n;
}

/* Adds the code spans (`code`, ``co`de``) and fenced code blocks (``` or ~~~ at the start of
 * a line, up to the closing fence or the end of the text) of the whole text. An inline span
 * does not cross a blank line; a backtick run without its closing run is plain text. */
void find_code(const char *text, size_t n, range_list *out) {
    size_t i = 0;
    while (i < n) {
        const char *next = text + i;
        size_t left = n - i;
        const char *tick = memchr(next, '`', left);
        const char *tilde = memchr(next, '~', left);
        const char *hit = tick && (!tilde || tick < tilde) ? tick : tilde;
        if (hit == NULL) return;
        i = (size_t)(hit - text);
        char c = *hit;
        size_t k = run_length(text, n, i, c);
        if (i > 0 && text[i - 1] == '\\') { /* an escaped backtick */
            i += 1;
            continue;
        }
        if (k >= 3 && at_line_start(text, i)) {
            /* A fence: the block ends after a line that starts with at least k of c. */
            size_t line = line_end(text, n, i);
            size_t end = n;
            while (line < n) {
                size_t p = line;
                size_t spaces = 0;
                while (p < n && text[p] == ' ' && spaces < 3) p++, spaces++;
                if (run_length(text, n, p, c) >= k) {
                    end = line_end(text, n, p);
                    break;
                }
                line = line_end(text, n, line);
            }
            ranges_add(out, i, end);
            i = end;
            continue;
        }
        if (c == '~') {
            i += k;
            continue;
        }
        /* Inline: the next run of exactly k backticks closes it. */
        size_t j = i + k;
        size_t close = 0;
        int found = 0;
        while (j < n) {
            if (text[j] == '`') {
                size_t m = run_length(text, n, j, '`');
                if (m == k) {
                    close = j;
                    found = 1;
                    break;
                }
                j += m;
                continue;
            }
            if (text[j] == '\n') {
                size_t p = j + 1;
                while (p < n && (text[p] == ' ' || text[p] == '\t' || text[p] == '\r')) p++;
                if (p >= n || text[p] == '\n') break; /* a blank line ends the paragraph */
            }
            j++;
        }
        if (found) {
            ranges_add(out, i, close + k);
            i = close + k;
        } else {
            i += k;
        }
    }
}

/* ---- URLs, e-mail addresses, paths ------------------------------------------------------ */

static const char *const common_tlds[] = {
    "com", "org", "net", "edu", "gov", "mil", "int", "io", "dev", "app", "ai", "co", "info", "biz",
    "me", "tv", "uk", "us", "ca", "au", "de", "fr", "eu", "nl", "ch", "at", "be", "se", "no", "dk",
    "fi", "es", "it", "pt", "pl", "cz", "ru", "jp", "cn", "kr", "in", "br", "mx", "nz", "ie", "ly",
    "gg", "sh", "xyz", "online", "site", "tech", "cloud",
};

static int is_url_char(unsigned char c) { return !is_ascii_space(c) && c != '<' && c != '>' && c != '"'; }
static int is_email_local_char(unsigned char c) {
    return is_ascii_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-' || c >= 0x80;
}
static int is_host_char(unsigned char c) { return is_ascii_alnum(c) || c == '.' || c == '-' || c == '_' || c >= 0x80; }

/* The closer of an opening bracket or quote just before a URL, or 0. */
static char closer_of(char c) {
    switch (c) {
    case '(': return ')';
    case '[': return ']';
    case '<': return '>';
    case '{': return '}';
    case '"': return '"';
    case '\'': return '\'';
    default: return 0;
    }
}

/* The end of a URL that starts at `start` in the chunk [chunk_start, chunk_end): the chunk's
 * end, or the closing bracket that matches one just before the URL ("(https://x.y)"). */
static size_t url_end(const char *text, size_t chunk_start, size_t chunk_end, size_t start) {
    char closer = start > chunk_start ? closer_of(text[start - 1]) : 0;
    size_t end = start;
    while (end < chunk_end && is_url_char((unsigned char)text[end]) && !(closer && text[end] == closer)) end++;
    return end;
}

/* Adds what must not be checked in the chunk [s, e) (a run of text without ASCII spaces):
 * URLs (scheme://..., www....), e-mail addresses and @handles, file paths (/..., ~/...,
 * ./..., ../..., anything with a backslash) and domain names with a common TLD. */
void find_unwords(const char *text, size_t s, size_t e, range_list *out) {
    /* Leading brackets and quotes do not belong to what follows. */
    size_t lead = s;
    while (lead < e && strchr("([{<\"'*_", text[lead]) != NULL) lead++;
    size_t length = e - lead;
    const char *p = text + lead;
    if ((length > 1 && p[0] == '/' && p[1] != '/' && !is_ascii_space((unsigned char)p[1])) ||
        (length > 2 && p[0] == '~' && p[1] == '/') || (length > 2 && p[0] == '.' && p[1] == '/') ||
        (length > 3 && p[0] == '.' && p[1] == '.' && p[2] == '/') || memchr(text + s, '\\', e - s) != NULL) {
        ranges_add(out, s, e);
        return;
    }
    for (size_t i = s; i < e; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == ':' && i + 2 < e && text[i + 1] == '/' && text[i + 2] == '/') {
            size_t start = i;
            while (start > s && (is_ascii_alnum((unsigned char)text[start - 1]) || text[start - 1] == '+' ||
                                 text[start - 1] == '-' || text[start - 1] == '.'))
                start--;
            size_t end = url_end(text, s, e, start);
            ranges_add(out, start, end);
            i = end;
        } else if ((c == 'w' || c == 'W') && i + 4 <= e && (i == s || !is_host_char((unsigned char)text[i - 1])) &&
                   ascii_lower((unsigned char)text[i + 1]) == 'w' && ascii_lower((unsigned char)text[i + 2]) == 'w' &&
                   text[i + 3] == '.') {
            size_t end = url_end(text, s, e, i);
            ranges_add(out, i, end);
            i = end;
        } else if (c == '@' && e - s > 1) {
            size_t start = i;
            while (start > s && is_email_local_char((unsigned char)text[start - 1])) start--;
            size_t end = i + 1;
            while (end < e && (is_host_char((unsigned char)text[end]))) end++;
            ranges_add(out, start, end);
            i = end;
        }
    }
    /* A bare domain, "example.com" or "docs.example.org/path": the host part ends in a common
     * TLD (after trailing punctuation). */
    size_t host_end = lead;
    while (host_end < e && text[host_end] != '/') host_end++;
    size_t trimmed = host_end;
    while (trimmed > lead && strchr(".,;:!?)]}>\"'*", text[trimmed - 1]) != NULL) trimmed--;
    size_t dot = trimmed;
    while (dot > lead && text[dot - 1] != '.') dot--;
    if (dot > lead + 1 && dot < trimmed && is_ascii_alnum((unsigned char)text[dot - 2])) {
        size_t label = trimmed - dot;
        for (size_t k = 0; k < COUNT_OF(common_tlds); k++) {
            if (strlen(common_tlds[k]) == label && memcmp(common_tlds[k], text + dot, label) == 0) {
                for (size_t h = lead; h < dot; h++)
                    if (!is_host_char((unsigned char)text[h])) return;
                ranges_add(out, lead, host_end < e ? url_end(text, s, e, lead) : trimmed);
                return;
            }
        }
    }
}
