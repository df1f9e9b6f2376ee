/* pieces.c — see pieces.h. */
#include "pieces.h"

#include <stdlib.h>
#include <string.h>

typedef struct unit {
    size_t start, end;
    int tokens;
} unit;

typedef struct splitter {
    const char *text;
    int max_tokens;
    piece_count_fn count;
    void *context;
    unit *units;
    size_t n, capacity;
    int failed;
} splitter;

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static void add_unit(splitter *s, size_t start, size_t end, int tokens) {
    if (s->n == s->capacity) {
        size_t c = s->capacity ? s->capacity * 2 : 16;
        unit *u = realloc(s->units, c * sizeof *u);
        if (u == NULL) {
            s->failed = 1;
            return;
        }
        s->units = u;
        s->capacity = c;
    }
    s->units[s->n++] = (unit){start, end, tokens};
}

enum { PARAGRAPHS, LINES, SENTENCES, WORDS, CHARACTERS };

/* Whether a segment of `level` ends at i (the boundary is text[i..]) and where the next one
 * starts (*next). */
static int boundary(const splitter *s, size_t i, size_t end, int level, size_t *next) {
    const char *t = s->text;
    switch (level) {
    case PARAGRAPHS:
        if (t[i] != '\n') return 0;
        {
            size_t j = i + 1;
            while (j < end && (t[j] == ' ' || t[j] == '\t' || t[j] == '\r')) j++;
            if (j >= end || t[j] != '\n') return 0;
            *next = j + 1;
            return 1;
        }
    case LINES:
        if (t[i] != '\n') return 0;
        *next = i + 1;
        return 1;
    case SENTENCES:
        if (i == 0 || !(t[i - 1] == '.' || t[i - 1] == '!' || t[i - 1] == '?') || t[i] != ' ') return 0;
        *next = i + 1;
        return 1;
    case WORDS:
        if (t[i] != ' ' && t[i] != '\t') return 0;
        *next = i + 1;
        return 1;
    default:
        return 0;
    }
}

static void trim(const char *t, size_t *start, size_t *end) {
    while (*start < *end && is_space(t[*start])) (*start)++;
    while (*end > *start && is_space(t[*end - 1])) (*end)--;
}

/* The longest prefix of text[start, end) on a character boundary within the budget (at
 * least one character). */
static size_t fitting_prefix(const splitter *s, size_t start, size_t end) {
    size_t low = start + 1, high = end; /* answer in [low, high] */
    while (low < end && ((unsigned char)s->text[low] & 0xC0) == 0x80) low++;
    while (low < high) {
        size_t mid = low + (high - low + 1) / 2;
        while (mid < high && ((unsigned char)s->text[mid] & 0xC0) == 0x80) mid++;
        if (s->count(s->context, s->text + start, mid - start) <= s->max_tokens) low = mid;
        else {
            size_t m = mid - 1;
            while (m > low && ((unsigned char)s->text[m] & 0xC0) == 0x80) m--;
            high = m;
        }
    }
    return low;
}

static void split(splitter *s, size_t start, size_t end, int level) {
    trim(s->text, &start, &end);
    if (start >= end || s->failed) return;
    int tokens = s->count(s->context, s->text + start, end - start);
    if (tokens <= s->max_tokens) {
        add_unit(s, start, end, tokens);
        return;
    }
    if (level == CHARACTERS) {
        while (start < end && !s->failed) {
            size_t cut = fitting_prefix(s, start, end);
            add_unit(s, start, cut, s->count(s->context, s->text + start, cut - start));
            start = cut;
            trim(s->text, &start, &end);
        }
        return;
    }
    size_t segment = start, next = 0;
    int cut = 0;
    for (size_t i = start; i < end; i++) {
        if (boundary(s, i, end, level, &next)) {
            split(s, segment, i, level + 1);
            segment = next;
            i = next - 1;
            cut = 1;
        }
    }
    if (!cut) {
        split(s, start, end, level + 1);
        return;
    }
    split(s, segment, end, level + 1);
}

size_t pieces_split(const char *input, size_t length, int max_tokens, piece_count_fn count, void *context,
                    piece **out) {
    *out = NULL;
    if (max_tokens < 1) max_tokens = 1;
    splitter s = {input, max_tokens, count, context, NULL, 0, 0, 0};
    split(&s, 0, length, PARAGRAPHS);
    if (s.failed) {
        free(s.units);
        return (size_t)-1;
    }
    if (s.n == 0) return 0;
    piece *pieces = malloc(s.n * sizeof *pieces);
    if (pieces == NULL) {
        free(s.units);
        return (size_t)-1;
    }
    /* Pack neighbouring units while they fit (one token for each separator between them). */
    size_t n = 0;
    int total = 0;
    for (size_t i = 0; i < s.n; i++) {
        if (n > 0 && total + 1 + s.units[i].tokens <= max_tokens) {
            pieces[n - 1].end = s.units[i].end;
            total += 1 + s.units[i].tokens;
        } else {
            pieces[n++] = (piece){s.units[i].start, s.units[i].end};
            total = s.units[i].tokens;
        }
    }
    free(s.units);
    *out = pieces;
    return n;
}
