/* output.c — UTF-8 hold-back (with the SDK's emend_utf8_char) and the shapes of the answer (see output.h). */
#include "output.h"

#include "emend_plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int text_add(openai_text *t, const char *bytes, size_t length) {
    if (t->length + length + 1 > t->capacity) {
        size_t capacity = t->capacity ? t->capacity : 128;
        while (capacity < t->length + length + 1) capacity *= 2;
        char *grown = realloc(t->bytes, capacity);
        if (grown == NULL) return -1;
        t->bytes = grown;
        t->capacity = capacity;
    }
    if (length > 0) memcpy(t->bytes + t->length, bytes, length);
    t->length += length;
    t->bytes[t->length] = '\0';
    return 0;
}

static void text_free(openai_text *t) {
    free(t->bytes);
    memset(t, 0, sizeof *t);
}

void openai_output_init(openai_output *o, int shape, emend_status (*emit)(void *, const char *, size_t), void *context) {
    memset(o, 0, sizeof *o);
    o->shape = shape;
    o->emit = emit;
    o->context = context;
}

void openai_output_free(openai_output *o) {
    text_free(&o->line);
    text_free(&o->held);
    text_free(&o->collected);
}

void openai_output_reset(openai_output *o) {
    int shape = o->shape;
    emend_status (*emit)(void *, const char *, size_t) = o->emit;
    void *context = o->context;
    openai_output_free(o);
    openai_output_init(o, shape, emit, context);
}

static emend_status emit(openai_output *o, const char *bytes, size_t length) {
    if (length == 0) return EMEND_OK;
    emend_status status = o->emit(o->context, bytes, length);
    if (status == EMEND_OK) o->pieces++;
    return status;
}

/* `bytes` after any held partial character, as whole characters in `out`; a partial character at
 * the end is held for the next piece. */
static int whole_characters(openai_output *o, const char *bytes, size_t length, openai_text *out) {
    static const char replacement[] = "\xEF\xBF\xBD";
    unsigned char joined[8];
    size_t i = 0;
    /* First finish the held character with the new bytes. */
    while (o->partial_length > 0) {
        size_t take = length - i < 4 - o->partial_length ? length - i : 4 - o->partial_length;
        memcpy(joined, o->partial, o->partial_length);
        memcpy(joined + o->partial_length, bytes + i, take);
        int n = emend_utf8_char((const char *)joined, o->partial_length + take);
        if (n == 0) { /* still cut off: hold more */
            memcpy(o->partial + o->partial_length, bytes + i, take);
            o->partial_length += take;
            return 0;
        }
        if (n < 0) {
            if (text_add(out, replacement, 3) != 0) return -1;
            memmove(o->partial, o->partial + 1, --o->partial_length); /* re-read the rest */
            continue;
        }
        if (text_add(out, (const char *)joined, (size_t)n) != 0) return -1;
        i += (size_t)n - o->partial_length;
        o->partial_length = 0;
    }
    while (i < length) {
        size_t start = i;
        int n = 0;
        while (i < length && (n = emend_utf8_char(bytes + i, length - i)) > 0) i += (size_t)n;
        if (text_add(out, bytes + start, i - start) != 0) return -1;
        if (i >= length) break;
        if (n == 0) {
            o->partial_length = length - i;
            memcpy(o->partial, bytes + i, o->partial_length);
            break;
        }
        if (text_add(out, replacement, 3) != 0) return -1;
        i++;
    }
    return 0;
}

/* ---- TEXT -------------------------------------------------------------------------------- */

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static emend_status text_add_piece(openai_output *o, const char *s, size_t n) {
    size_t last = n;
    while (last > 0 && is_space(s[last - 1])) last--;
    if (last == 0) { /* only whitespace: held (dropped before the first text) */
        if (o->pieces > 0 && text_add(&o->held, s, n) != 0) return EMEND_E_INTERNAL;
        return EMEND_OK;
    }
    size_t first = 0;
    if (o->pieces == 0)
        while (first < last && is_space(s[first])) first++;
    if (text_add(&o->held, s + first, last - first) != 0) return EMEND_E_INTERNAL;
    emend_status status = emit(o, o->held.bytes, o->held.length);
    o->held.length = 0;
    if (status == EMEND_OK && text_add(&o->held, s + last, n - last) != 0) return EMEND_E_INTERNAL;
    return status;
}

/* ---- lines ------------------------------------------------------------------------------- */

/* Trims ASCII whitespace around s[0..*n); returns the new start. */
static const char *trim(const char *s, size_t *n) {
    while (*n > 0 && is_space(*s)) s++, (*n)--;
    while (*n > 0 && is_space(s[*n - 1])) (*n)--;
    return s;
}

/* `line` (which starts with a '\n') as one piece; the first line without its '\n'. */
static emend_status emit_line(openai_output *o, const openai_text *line) {
    size_t skip = o->lines == 0 ? 1 : 0;
    emend_status status = emit(o, line->bytes + skip, line->length - skip);
    if (status == EMEND_OK) o->lines++;
    return status;
}

static emend_status bullet_line(openai_output *o, const char *s, size_t n) {
    s = trim(s, &n);
    if (n == 0 || (n >= 3 && memcmp(s, "```", 3) == 0) || s[0] == '#') return EMEND_OK;
    size_t marker = 0;
    if (n >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && is_space(s[1])) {
        marker = 2;
    } else if (n >= 4 && memcmp(s, "\xE2\x80\xA2", 3) == 0 && is_space(s[3])) {
        marker = 4;
    } else {
        size_t digits = 0;
        while (digits < n && digits < 3 && s[digits] >= '0' && s[digits] <= '9') digits++;
        if (digits > 0 && digits + 1 < n && (s[digits] == '.' || s[digits] == ')') && is_space(s[digits + 1]))
            marker = digits + 2;
    }
    /* An introduction, as a line ("Here are the key points:") or as the first item ("- Key points:"). */
    if (o->lines == 0 && s[n - 1] == ':') return EMEND_OK;
    s += marker;
    n -= marker;
    s = trim(s, &n);
    if (n == 0) return EMEND_OK;
    openai_text line = {0};
    emend_status status = text_add(&line, "\n- ", 3) == 0 && text_add(&line, s, n) == 0 ? emit_line(o, &line) : EMEND_E_INTERNAL;
    text_free(&line);
    return status;
}

/* The cells of a table line: between unescaped '|', outer pipes dropped, each trimmed. */
typedef struct cells {
    const char *start[64];
    size_t length[64];
    int count;
    int overflow;  /* more than 64: the rest is in the last */
} cells;

static void split_cells(const char *s, size_t n, cells *c) {
    s = trim(s, &n);
    c->count = 0;
    c->overflow = 0;
    if (n > 0 && s[0] == '|') s++, n--;
    if (n > 0 && s[n - 1] == '|' && !(n > 1 && s[n - 2] == '\\')) n--;
    size_t begin = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && (s[i] != '|' || (i > 0 && s[i - 1] == '\\'))) continue;
        if (c->count == 64) {
            c->overflow = 1;
            c->length[63] = (size_t)(s + n - c->start[63]);
            break;
        }
        size_t length = i - begin;
        c->start[c->count] = trim(s + begin, &length);
        c->length[c->count++] = length;
        begin = i + 1;
    }
}

static int is_separator(const cells *c) {
    if (c->count == 0) return 0;
    for (int i = 0; i < c->count; i++) {
        const char *s = c->start[i];
        size_t n = c->length[i], k = 0;
        if (k < n && s[k] == ':') k++;
        size_t dashes = 0;
        while (k < n && s[k] == '-') k++, dashes++;
        if (k < n && s[k] == ':') k++;
        if (dashes == 0 || k != n) return 0;
    }
    return 1;
}

static emend_status table_row(openai_output *o, const cells *c, int separator) {
    openai_text line = {0};
    int ok = text_add(&line, "\n", 1) == 0;
    for (int i = 0; ok && i < o->columns; i++) {
        ok = text_add(&line, i == 0 ? "| " : " | ", i == 0 ? 2 : 3) == 0;
        if (!ok) break;
        if (separator) {
            const char *s = i < c->count ? c->start[i] : "";
            size_t n = i < c->count ? c->length[i] : 0;
            int left = n > 0 && s[0] == ':', right = n > 1 && s[n - 1] == ':';
            ok = text_add(&line, left ? ":" : "", left) == 0 && text_add(&line, "---", 3) == 0 &&
                 text_add(&line, right ? ":" : "", right) == 0;
        } else if (i < c->count) {
            ok = text_add(&line, c->start[i], c->length[i]) == 0;
            /* Cells beyond the header's go into the last one. */
            for (int extra = o->columns; ok && i == o->columns - 1 && extra < c->count; extra++)
                ok = (c->length[extra] == 0 || (text_add(&line, ", ", 2) == 0 &&
                                                text_add(&line, c->start[extra], c->length[extra]) == 0));
        }
    }
    ok = ok && text_add(&line, " |", 2) == 0;
    emend_status status = ok ? emit_line(o, &line) : EMEND_E_INTERNAL;
    text_free(&line);
    return status;
}

static emend_status table_line(openai_output *o, const char *s, size_t n) {
    if (o->table_state == 3) return EMEND_OK;
    size_t trimmed = n;
    const char *t = trim(s, &trimmed);
    int has_pipe = memchr(t, '|', trimmed) != NULL;
    if (!has_pipe) {
        if (o->table_state >= 1) {
            /* The table is over. */
            if (o->table_state == 1) {
                cells none = {0};
                emend_status status = table_row(o, &none, 1);
                if (status != EMEND_OK) return status;
            }
            o->table_state = 3;
        }
        return EMEND_OK;
    }
    cells c;
    split_cells(t, trimmed, &c);
    if (o->table_state == 0) {
        if (c.count == 0 || is_separator(&c)) return EMEND_OK;
        o->columns = c.count;
        o->table_state = 1;
        return table_row(o, &c, 0);
    }
    if (o->table_state == 1) {
        o->table_state = 2;
        if (is_separator(&c)) return table_row(o, &c, 1);
        cells none = {0};
        emend_status status = table_row(o, &none, 1);
        if (status != EMEND_OK) return status;
    } else if (is_separator(&c)) {
        return EMEND_OK; /* a second separator among the rows */
    }
    return table_row(o, &c, 0);
}

/* Splits whole characters into lines for BULLETS and TABLE. */
static emend_status lines_add(openai_output *o, const char *s, size_t n) {
    while (n > 0) {
        const char *newline = memchr(s, '\n', n);
        size_t k = newline ? (size_t)(newline - s) : n;
        if (text_add(&o->line, s, k) != 0) return EMEND_E_INTERNAL;
        if (newline == NULL) break;
        emend_status status = o->shape == OPENAI_SHAPE_BULLETS ? bullet_line(o, o->line.bytes, o->line.length)
                                                               : table_line(o, o->line.bytes, o->line.length);
        o->line.length = 0;
        if (status != EMEND_OK) return status;
        s += k + 1;
        n -= k + 1;
    }
    return EMEND_OK;
}

static emend_status shape_add(openai_output *o, const char *s, size_t n) {
    if (n == 0) return EMEND_OK;
    switch (o->shape) {
    case OPENAI_SHAPE_TEXT: return text_add_piece(o, s, n);
    case OPENAI_SHAPE_COLLECT: return text_add(&o->collected, s, n) == 0 ? EMEND_OK : EMEND_E_INTERNAL;
    default: return lines_add(o, s, n);
    }
}

emend_status openai_output_add(openai_output *o, const char *bytes, size_t length) {
    openai_text whole = {0};
    emend_status status = whole_characters(o, bytes, length, &whole) == 0 ? shape_add(o, whole.bytes, whole.length)
                                                                           : EMEND_E_INTERNAL;
    text_free(&whole);
    return status;
}

emend_status openai_output_finish(openai_output *o, int cut_off, char *err, size_t errlen) {
    emend_status status = EMEND_OK;
    if (o->partial_length > 0) {
        /* A character the answer never finished. */
        o->partial_length = 0;
        status = shape_add(o, "\xEF\xBF\xBD", 3);
    }
    if (status == EMEND_OK && (o->shape == OPENAI_SHAPE_BULLETS || o->shape == OPENAI_SHAPE_TABLE) && o->line.length > 0) {
        if (cut_off)
            o->line.length = 0; /* half a row or item */
        else
            status = lines_add(o, "\n", 1);
    }
    if (status == EMEND_OK && o->shape == OPENAI_SHAPE_TABLE) {
        if (o->table_state == 1) {
            cells none = {0};
            status = table_row(o, &none, 1);
        } else if (o->table_state == 0) {
            snprintf(err, errlen, "the model's answer holds no Markdown table");
            return EMEND_E_PROVIDER;
        }
    }
    if (status == EMEND_OK && o->shape == OPENAI_SHAPE_BULLETS && o->lines == 0) {
        snprintf(err, errlen, "the model's answer holds no list items");
        return EMEND_E_PROVIDER;
    }
    if (status == EMEND_OK && o->shape == OPENAI_SHAPE_TEXT && o->pieces == 0) {
        snprintf(err, errlen, "the model's answer is empty");
        return EMEND_E_PROVIDER;
    }
    if (status != EMEND_OK) snprintf(err, errlen, "%s", status == EMEND_E_CANCELLED ? "cancelled" : "the answer was refused");
    return status;
}
