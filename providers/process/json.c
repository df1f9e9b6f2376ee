/* json.c — see json.h. */
#include "json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading ------------------------------------------------------------------------------ */

typedef struct reader {
    const char *begin, *p, *end;
    char *error;
    size_t error_size;
    int failed;
} reader;

static int fail(reader *r, const char *what) {
    if (!r->failed && r->error != NULL && r->error_size > 0)
        snprintf(r->error, r->error_size, "%s at byte %zu", what, (size_t)(r->p - r->begin));
    r->failed = 1;
    return 0;
}

static void skip_space(reader *r) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

static int literal(reader *r, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0) return fail(r, "unexpected character");
    r->p += n;
    return 1;
}

static int hex4(reader *r, unsigned *out) {
    if (r->end - r->p < 4) return fail(r, "short \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *r->p++;
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return fail(r, "bad \\u escape");
    }
    *out = v;
    return 1;
}

static size_t put_utf8(char *out, unsigned c) {
    if (c < 0x80) { out[0] = (char)c; return 1; }
    if (c < 0x800) { out[0] = (char)(0xC0 | (c >> 6)); out[1] = (char)(0x80 | (c & 0x3F)); return 2; }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12)); out[1] = (char)(0x80 | ((c >> 6) & 0x3F)); out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18)); out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F)); out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* Reads a string after its opening quote; the decoded text is never longer than the source. */
static int read_string(reader *r, char **out, size_t *out_length) {
    const char *start = r->p;
    while (r->p < r->end && *r->p != '"') r->p += (*r->p == '\\' && r->p + 1 < r->end) ? 2 : 1;
    if (r->p >= r->end) return fail(r, "unterminated string");
    size_t span = (size_t)(r->p - start);
    char *s = malloc(span + 1);
    if (s == NULL) return fail(r, "out of memory");
    size_t n = 0;
    r->p = start;
    while (*r->p != '"') {
        unsigned char c = (unsigned char)*r->p++;
        if (c < 0x20) { free(s); return fail(r, "control character in string"); }
        if (c != '\\') { s[n++] = (char)c; continue; }
        char e = *r->p++;
        switch (e) {
        case '"': s[n++] = '"'; break;
        case '\\': s[n++] = '\\'; break;
        case '/': s[n++] = '/'; break;
        case 'b': s[n++] = '\b'; break;
        case 'f': s[n++] = '\f'; break;
        case 'n': s[n++] = '\n'; break;
        case 'r': s[n++] = '\r'; break;
        case 't': s[n++] = '\t'; break;
        case 'u': {
            unsigned code;
            if (!hex4(r, &code)) { free(s); return 0; }
            if (code >= 0xD800 && code < 0xDC00 && r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u') {
                const char *save = r->p;
                unsigned low;
                r->p += 2;
                if (!hex4(r, &low)) { free(s); return 0; }
                if (low >= 0xDC00 && low < 0xE000) code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                else r->p = save; /* a lone high surrogate; the next escape is read on its own */
            }
            n += put_utf8(s + n, code); /* \uXXXX is 6 source bytes for at most 3, a pair 12 for 4 */
            break;
        }
        default: free(s); return fail(r, "bad escape");
        }
    }
    r->p++; /* the closing quote */
    s[n] = '\0';
    *out = s;
    *out_length = n;
    return 1;
}

static int read_number(reader *r, json_value *v) {
    const char *start = r->p;
    int integral = 1;
    if (r->p < r->end && *r->p == '-') r->p++;
    if (r->p >= r->end || *r->p < '0' || *r->p > '9') return fail(r, "bad number");
    while (r->p < r->end && ((*r->p >= '0' && *r->p <= '9') || *r->p == '.' || *r->p == 'e' || *r->p == 'E' ||
                             *r->p == '+' || *r->p == '-')) {
        if (*r->p == '.' || *r->p == 'e' || *r->p == 'E') integral = 0;
        r->p++;
    }
    char buffer[64];
    size_t n = (size_t)(r->p - start);
    if (n >= sizeof buffer) return fail(r, "number too long");
    memcpy(buffer, start, n);
    buffer[n] = '\0';
    char *end = NULL;
    v->type = JSON_NUMBER;
    v->number = strtod(buffer, &end);
    if (end != buffer + n) return fail(r, "bad number");
    if (integral) {
        errno = 0;
        v->integer = strtoll(buffer, &end, 10);
        v->is_integer = errno == 0 && end == buffer + n;
    }
    return 1;
}

static int read_value(reader *r, json_value *v, int depth);

/* Appends an element (and for objects its key) to a growing array or object. */
static int grow(reader *r, json_value *v, size_t *capacity) {
    if (v->count < *capacity) return 1;
    size_t more = *capacity ? *capacity * 2 : 4;
    json_value *items = realloc(v->items, more * sizeof *items);
    if (items == NULL) return fail(r, "out of memory");
    v->items = items;
    if (v->type == JSON_OBJECT) {
        char **keys = realloc(v->keys, more * sizeof *keys);
        if (keys == NULL) return fail(r, "out of memory");
        v->keys = keys;
    }
    *capacity = more;
    return 1;
}

static int read_container(reader *r, json_value *v, int depth) {
    char close = v->type == JSON_ARRAY ? ']' : '}';
    size_t capacity = 0;
    if (depth > JSON_MAX_DEPTH) return fail(r, "nested too deeply");
    skip_space(r);
    if (r->p < r->end && *r->p == close) { r->p++; return 1; }
    for (;;) {
        if (!grow(r, v, &capacity)) return 0;
        json_value *item = &v->items[v->count];
        memset(item, 0, sizeof *item);
        if (v->type == JSON_OBJECT) {
            size_t key_length;
            skip_space(r);
            if (r->p >= r->end || *r->p != '"') return fail(r, "expected a member name");
            r->p++;
            if (!read_string(r, &v->keys[v->count], &key_length)) return 0;
            v->count++; /* counted now so that json_free frees the key */
            skip_space(r);
            if (r->p >= r->end || *r->p != ':') return fail(r, "expected ':'");
            r->p++;
        } else {
            v->count++;
        }
        if (!read_value(r, item, depth + 1)) return 0;
        skip_space(r);
        if (r->p < r->end && *r->p == ',') { r->p++; continue; }
        if (r->p < r->end && *r->p == close) { r->p++; return 1; }
        return fail(r, "expected ',' or a closing bracket");
    }
}

static int read_value(reader *r, json_value *v, int depth) {
    skip_space(r);
    if (r->p >= r->end) return fail(r, "unexpected end");
    switch (*r->p) {
    case 'n': v->type = JSON_NULL; return literal(r, "null");
    case 't': v->type = JSON_TRUE; return literal(r, "true");
    case 'f': v->type = JSON_FALSE; return literal(r, "false");
    case '"': r->p++; v->type = JSON_STRING; return read_string(r, &v->string, &v->length);
    case '[': r->p++; v->type = JSON_ARRAY; return read_container(r, v, depth);
    case '{': r->p++; v->type = JSON_OBJECT; return read_container(r, v, depth);
    default: return read_number(r, v);
    }
}

static void free_members(json_value *v) {
    free(v->string);
    for (size_t i = 0; i < v->count; i++) {
        free_members(&v->items[i]);
        if (v->keys != NULL) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
}

void json_free(json_value *value) {
    if (value == NULL) return;
    free_members(value);
    free(value);
}

json_value *json_parse(const char *text, size_t length, char *error, size_t error_size) {
    reader r = {text, text, text + length, error, error_size, 0};
    json_value *v = calloc(1, sizeof *v);
    if (v == NULL) return NULL;
    if (read_value(&r, v, 0)) {
        skip_space(&r);
        if (r.p == r.end) return v;
        fail(&r, "text after the value");
    }
    json_free(v);
    return NULL;
}

const json_value *json_get(const json_value *object, const char *key) {
    if (object == NULL || object->type != JSON_OBJECT) return NULL;
    for (size_t i = 0; i < object->count; i++)
        if (strcmp(object->keys[i], key) == 0) return &object->items[i];
    return NULL;
}

const json_value *json_get_string(const json_value *object, const char *key) {
    const json_value *v = json_get(object, key);
    return v != NULL && v->type == JSON_STRING ? v : NULL;
}

int json_get_integer(const json_value *object, const char *key, long long *out) {
    const json_value *v = json_get(object, key);
    if (v == NULL || v->type != JSON_NUMBER || !v->is_integer) return 0;
    *out = v->integer;
    return 1;
}

/* ---- writing ------------------------------------------------------------------------------ */

void json_write_raw(json_buffer *b, const char *text, size_t length) {
    if (b->failed) return;
    if (b->length + length + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 256;
        while (b->length + length + 1 > capacity) capacity *= 2;
        char *data = realloc(b->data, capacity);
        if (data == NULL) { b->failed = 1; return; }
        b->data = data;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, text, length);
    b->length += length;
    b->data[b->length] = '\0';
}

void json_write_text(json_buffer *b, const char *text) { json_write_raw(b, text, strlen(text)); }

void json_write_string(json_buffer *b, const char *text, size_t length) {
    json_write_raw(b, "\"", 1);
    size_t run = 0; /* bytes copied as they are, written in one go */
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        json_write_raw(b, text + run, i - run);
        run = i + 1;
        char escape[8];
        switch (c) {
        case '"': json_write_raw(b, "\\\"", 2); break;
        case '\\': json_write_raw(b, "\\\\", 2); break;
        case '\n': json_write_raw(b, "\\n", 2); break;
        case '\r': json_write_raw(b, "\\r", 2); break;
        case '\t': json_write_raw(b, "\\t", 2); break;
        default: snprintf(escape, sizeof escape, "\\u%04x", c); json_write_raw(b, escape, 6); break;
        }
    }
    json_write_raw(b, text + run, length - run);
    json_write_raw(b, "\"", 1);
}

void json_write_unsigned(json_buffer *b, unsigned long long value) {
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", value);
    json_write_raw(b, digits, (size_t)n);
}

void json_buffer_free(json_buffer *b) {
    free(b->data);
    b->data = NULL;
    b->length = b->capacity = 0;
    b->failed = 0;
}
