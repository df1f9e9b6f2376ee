/*
 * words.h — word splitting for the Hunspell provider (part of hunspell.c's translation unit).
 *
 * UTF-8 decoding, the class of each character (letter, digit, combining mark, apostrophe,
 * underscore, separator), and the spans of text that are never spell-checked: Markdown code
 * spans and fences, URLs, e-mail addresses and @handles, file paths and bare domain names.
 * Everything here works on UTF-8 byte offsets into the request's text.
 */
#ifndef EMEND_HUNSPELL_WORDS_H
#define EMEND_HUNSPELL_WORDS_H

#include <locale.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "emend_plugin.h"

/* ---- UTF-8 ------------------------------------------------------------------------------ */

/* The character at s[i] (i < n) into *cp, its length returned; U+FFFD and 1 for a byte that
 * does not start a well-formed character (the SDK's decoder, on bytes). */
static size_t utf8_decode(const unsigned char *s, size_t n, size_t i, uint32_t *cp) {
    return emend_utf8_decode((const char *)s, n, i, cp);
}

/* ---- character classes ------------------------------------------------------------------ */

typedef enum char_class {
    CLASS_SEPARATOR = 0,
    CLASS_LETTER,
    CLASS_DIGIT,
    CLASS_MARK,       /* a combining mark: part of the word it follows */
    CLASS_APOSTROPHE, /* ' and ’: part of a word between two letters */
    CLASS_JOINER      /* _: part of a token between two letters or digits (an identifier) */
} char_class;

typedef struct cp_range {
    uint32_t first, last;
} cp_range;

static int in_ranges(uint32_t cp, const cp_range *ranges, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (cp >= ranges[i].first && cp <= ranges[i].last) return 1;
    return 0;
}

/* Combining marks (iswalpha says no to them, but "é" may be written e + U+0301). */
static const cp_range combining_marks[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF}, {0x05C1, 0x05C2},
    {0x05C4, 0x05C5}, {0x05C7, 0x05C7}, {0x0610, 0x061A}, {0x064B, 0x065F}, {0x0670, 0x0670},
    {0x06D6, 0x06DC}, {0x06DF, 0x06E4}, {0x06E7, 0x06E8}, {0x06EA, 0x06ED}, {0x1AB0, 0x1AFF},
    {0x1DC0, 0x1DFF}, {0x20D0, 0x20FF}, {0xFE20, 0xFE2F},
};

/* Scripts written without spaces between words (CJK, kana, Hangul, Thai, Lao, Khmer,
 * Myanmar): Hunspell cannot check them word by word, so they separate words here. */
static const cp_range unspaced_scripts[] = {
    {0x0E00, 0x0EFF}, {0x1000, 0x109F}, {0x1780, 0x17FF}, {0x2E80, 0x2FDF}, {0x3040, 0x31FF},
    {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA960, 0xA97F}, {0xAC00, 0xD7FF}, {0xF900, 0xFAFF},
    {0x20000, 0x3FFFF},
};

/* Decimal digits of other scripts (glibc classes them as letters). */
static const cp_range other_digits[] = {
    {0x0660, 0x0669}, {0x06F0, 0x06F9}, {0x07C0, 0x07C9}, {0x0966, 0x096F}, {0x09E6, 0x09EF},
    {0x0A66, 0x0A6F}, {0x0AE6, 0x0AEF}, {0x0B66, 0x0B6F}, {0x0BE6, 0x0BEF}, {0x0C66, 0x0C6F},
    {0x0CE6, 0x0CEF}, {0x0D66, 0x0D6F}, {0x0DE6, 0x0DEF}, {0x0F20, 0x0F29}, {0x1040, 0x1049},
    {0xFF10, 0xFF19}, {0x1D7CE, 0x1D7FF},
};

/* Without a C.UTF-8 locale: punctuation and symbols outside ASCII (every other character
 * above U+00BF counts as a letter). */
static const cp_range symbol_blocks[] = {
    {0x0080, 0x00A9}, {0x00AB, 0x00B4}, {0x00B6, 0x00B9}, {0x00BB, 0x00BF}, {0x00D7, 0x00D7},
    {0x00F7, 0x00F7}, {0x2000, 0x2BFF}, {0x3000, 0x303F}, {0xD800, 0xF8FF}, {0xFE00, 0xFE0F},
    {0xFE30, 0xFE6F}, {0xFEFF, 0xFEFF}, {0xFF00, 0xFF0F}, {0xFF1A, 0xFF20}, {0xFFF0, 0xFFFF},
    {0x1F000, 0x1FAFF}, {0xE0000, 0xE007F},
};

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* The class of one character; `ctype` is a C.UTF-8 locale or (locale_t)0. */
static char_class classify(uint32_t cp, locale_t ctype) {
    if (cp < 0x80) {
        if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z')) return CLASS_LETTER;
        if (cp >= '0' && cp <= '9') return CLASS_DIGIT;
        if (cp == '\'') return CLASS_APOSTROPHE;
        if (cp == '_') return CLASS_JOINER;
        return CLASS_SEPARATOR;
    }
    if (cp == 0x2019) return CLASS_APOSTROPHE;
    if (cp == 0xFFFD) return CLASS_SEPARATOR;
    if (cp >= 0x0300 && in_ranges(cp, combining_marks, COUNT_OF(combining_marks))) return CLASS_MARK;
    if (cp >= 0x0E00 && in_ranges(cp, unspaced_scripts, COUNT_OF(unspaced_scripts))) return CLASS_SEPARATOR;
    if (cp >= 0x0660 && in_ranges(cp, other_digits, COUNT_OF(other_digits))) return CLASS_DIGIT;
    if (ctype != (locale_t)0) return iswalpha_l((wint_t)cp, ctype) ? CLASS_LETTER : CLASS_SEPARATOR;
    return in_ranges(cp, symbol_blocks, COUNT_OF(symbol_blocks)) ? CLASS_SEPARATOR : CLASS_LETTER;
}

/* A coarse script of a letter: Latin, Greek and Cyrillic by their blocks, anything else by
 * its 128-character block (Hebrew, Arabic, each Indic script, fullwidth forms, ligatures...).
 * Words with letters of a script the dictionary does not use are not checked (an English
 * dictionary cannot judge a Russian word, and asking it for suggestions only costs time). */
enum { SCRIPT_LATIN = 1, SCRIPT_GREEK = 2, SCRIPT_CYRILLIC = 3 };

static const cp_range latin_letters[] = {
    {0x0041, 0x005A}, {0x0061, 0x007A}, {0x00AA, 0x00AA}, {0x00BA, 0x00BA}, {0x00C0, 0x02AF},
    {0x1D00, 0x1DBF}, {0x1E00, 0x1EFF}, {0x2C60, 0x2C7F}, {0xA720, 0xA7FF}, {0xAB30, 0xAB6F},
};
static const cp_range greek_letters[] = {{0x0370, 0x03FF}, {0x1F00, 0x1FFF}};
static const cp_range cyrillic_letters[] = {{0x0400, 0x052F}, {0x1C80, 0x1C8F}, {0x2DE0, 0x2DFF}, {0xA640, 0xA69F}};

static uint32_t script_of(uint32_t cp) {
    if (in_ranges(cp, latin_letters, COUNT_OF(latin_letters))) return SCRIPT_LATIN;
    if (in_ranges(cp, greek_letters, COUNT_OF(greek_letters))) return SCRIPT_GREEK;
    if (in_ranges(cp, cyrillic_letters, COUNT_OF(cyrillic_letters))) return SCRIPT_CYRILLIC;
    return 0x100 + (cp >> 7);
}

static int is_upper_cp(uint32_t cp, locale_t ctype) {
    if (cp < 0x80) return cp >= 'A' && cp <= 'Z';
    return ctype != (locale_t)0 && iswupper_l((wint_t)cp, ctype);
}

static int is_lower_cp(uint32_t cp, locale_t ctype) {
    if (cp < 0x80) return cp >= 'a' && cp <= 'z';
    return ctype != (locale_t)0 && iswlower_l((wint_t)cp, ctype);
}

static int is_ascii_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
static int is_ascii_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_ascii_alnum(unsigned char c) { return is_ascii_alpha(c) || (c >= '0' && c <= '9'); }
static unsigned char ascii_lower(unsigned char c) { return (c >= 'A' && c <= 'Z') ? (unsigned char)(c - 'A' + 'a') : c; }

/* ---- ranges to skip --------------------------------------------------------------------- */

typedef struct range_list {
    size_t *starts_ends; /* pairs: start, end */
    size_t count;
    size_t capacity;
    int failed;          /* out of memory */
} range_list;

static void ranges_add(range_list *list, size_t start, size_t end) {
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
static void ranges_normalize(range_list *list) {
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
static int ranges_overlap(const range_list *list, size_t *cursor, size_t start, size_t end) {
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
static void find_code(const char *text, size_t n, range_list *out) {
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
static void find_unwords(const char *text, size_t s, size_t e, range_list *out) {
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

#endif /* EMEND_HUNSPELL_WORDS_H */
