/* emend_edits.c — see emend_edits.h. */
#include "emend_edits.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The code point at s[i]; U+FFFD for a malformed sequence. */
static uint32_t code_point_at(const unsigned char *s, size_t length, size_t i) {
    uint32_t cp;
    emend_utf8_decode((const char *)s, length, i, &cp);
    return cp;
}

/* The code point that ends right before s[i]. */
static uint32_t code_point_before(const unsigned char *s, size_t length, size_t i) {
    size_t start = i - 1;
    while (start > 0 && i - start < 4 && (s[start] & 0xC0) == 0x80) start--;
    return code_point_at(s, length, start);
}

/* Letters, digits and '_', and any character outside ASCII but for the spaces, punctuation
 * and symbols that commonly sit next to words (no-break space, « », curly quotes, dashes,
 * arrows, CJK punctuation, U+FFFC). */
static int is_word_char(uint32_t c) {
    if (c < 0x80) return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    if (c <= 0xBF || c == 0xD7 || c == 0xF7) return 0;
    if (c >= 0x2000 && c <= 0x2BFF) return 0;  /* general punctuation .. misc symbols and arrows */
    if (c >= 0x3000 && c <= 0x303F) return 0;  /* CJK symbols and punctuation */
    if (c >= 0xFE30 && c <= 0xFE4F) return 0;  /* CJK compatibility forms */
    if (c >= 0xFF00 && c <= 0xFF0F) return 0;  /* fullwidth punctuation */
    return c != 0xFFFC && c != 0xFFFD;
}

/* Whether text[start, end) is on word boundaries: a word character at either edge of the
 * match is not continued by one outside it. */
static int on_word_boundary(const char *text, size_t text_length, size_t start, size_t end) {
    const unsigned char *s = (const unsigned char *)text;
    /* Never inside a multi-byte character. */
    if (start < text_length && (s[start] & 0xC0) == 0x80) return 0;
    if (end < text_length && (s[end] & 0xC0) == 0x80) return 0;
    if (start > 0 && start < end && is_word_char(code_point_at(s, text_length, start)) &&
        is_word_char(code_point_before(s, text_length, start)))
        return 0;
    if (end < text_length && end > start && is_word_char(code_point_before(s, text_length, end)) &&
        is_word_char(code_point_at(s, text_length, end)))
        return 0;
    return 1;
}

/* The first occurrence of needle in text[from, to) on word boundaries, or (size_t)-1. */
static size_t find(const char *text, size_t text_length, size_t from, size_t to, const char *needle, size_t n) {
    if (n == 0 || to < from || to - from < n) return (size_t)-1;
    for (size_t i = from; i + n <= to; i++) {
        if (text[i] == needle[0] && memcmp(text + i, needle, n) == 0 &&
            on_word_boundary(text, text_length, i, i + n))
            return i;
    }
    return (size_t)-1;
}

static int touches_protected(const emend_provider_request *request, size_t start, size_t end) {
    for (size_t i = 0; i < request->protected_range_count; i++) {
        emend_byte_range p = request->protected_ranges[i];
        if (start < p.end && p.start < end) return 1;
    }
    /* An attachment character (U+FFFC, EF BF BC) is protected too. */
    for (size_t i = start; i + 3 <= end; i++)
        if (memcmp(request->text + i, "\xEF\xBF\xBC", 3) == 0) return 1;
    return 0;
}

static void say(emend_edits_log_fn log, void *context, const char *format, const char *original,
                const char *replacement, const char *why) {
    if (log == NULL) return;
    char line[512];
    snprintf(line, sizeof line, format, original, replacement, why);
    log(context, line);
}

static char *copy(const char *s) {
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c != NULL) memcpy(c, s, n);
    return c;
}

void emend_edits_free(emend_edit_set *set) {
    if (set == NULL) return;
    for (size_t i = 0; i < set->count; i++) {
        free((char *)set->items[i].replacement);
        free((char *)set->items[i].explanation);
        free((char *)set->items[i].category);
        free((char *)set->items[i].rule_id);
    }
    free(set->items);
    memset(set, 0, sizeof *set);
}

static const char *string_item(const cJSON *object, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

int emend_edits_parse(const emend_provider_request *request, emend_byte_range within, const char *json,
                      size_t length, const char *rule_id, emend_edit_set *out, emend_edits_log_fn log,
                      void *log_context) {
    memset(out, 0, sizeof *out);
    /* Only the selection, and only what exists of the text. */
    size_t lo = within.start > request->selection.start ? within.start : request->selection.start;
    size_t hi = within.end < request->selection.end ? within.end : request->selection.end;
    if (hi > request->text_length) hi = request->text_length;
    if (lo > hi) lo = hi;

    /* Skip anything before the object (a model may say "Here it is:"). */
    size_t skip = 0;
    while (skip < length && json[skip] != '{') skip++;
    cJSON *root = skip < length ? cJSON_ParseWithLengthOpts(json + skip, length - skip, NULL, 0) : NULL;
    const cJSON *edits = root != NULL ? cJSON_GetObjectItemCaseSensitive(root, "edits") : NULL;
    if (!cJSON_IsArray(edits)) {
        if (log != NULL) {
            char line[300];
            snprintf(line, sizeof line, "the proofreading answer is not {\"edits\":[...]}: %.*s%s",
                     (int)(length > 200 ? 200 : length), json, length > 200 ? "..." : "");
            log(log_context, line);
        }
        cJSON_Delete(root);
        return -1;
    }

    size_t capacity = (size_t)cJSON_GetArraySize(edits);
    out->items = capacity ? calloc(capacity, sizeof *out->items) : NULL;
    size_t cursor = lo;
    const char *drop = "dropped the edit \"%s\" -> \"%s\": %s";
    const cJSON *edit;
    cJSON_ArrayForEach(edit, edits) {
        out->proposed++;
        const char *original = cJSON_IsObject(edit) ? string_item(edit, "original") : NULL;
        const char *replacement = cJSON_IsObject(edit) ? string_item(edit, "replacement") : NULL;
        const char *explanation = cJSON_IsObject(edit) ? string_item(edit, "explanation") : NULL;
        const char *category = cJSON_IsObject(edit) ? string_item(edit, "category") : NULL;
        const char *why = NULL;
        size_t start = 0, n = original ? strlen(original) : 0;
        if (original == NULL || replacement == NULL) why = "it lacks an original or a replacement";
        else if (n == 0) why = "its original is empty";
        else if (strcmp(original, replacement) == 0) why = "it changes nothing";
        else if (!emend_utf8_valid(original, n) || !emend_utf8_valid(replacement, strlen(replacement)) ||
                 (explanation && !emend_utf8_valid(explanation, strlen(explanation))) ||
                 (category && !emend_utf8_valid(category, strlen(category))))
            why = "its text is not valid UTF-8";
        else if ((start = find(request->text, request->text_length, cursor, hi, original, n)) == (size_t)-1) {
            if (find(request->text, request->text_length, lo, cursor, original, n) != (size_t)-1)
                why = "it overlaps or comes before an earlier edit";
            else if (find(request->text, request->text_length, 0, request->text_length, original, n) != (size_t)-1)
                why = "its original text is outside the selection";
            else
                why = "its original text does not match the text";
        } else if (touches_protected(request, start, start + n))
            why = "it touches protected text";
        else if (out->items == NULL)
            why = "out of memory";
        if (why != NULL) {
            out->dropped++;
            say(log, log_context, drop, original ? original : "", replacement ? replacement : "", why);
            continue;
        }
        emend_provider_edit *e = &out->items[out->count];
        e->struct_size = sizeof *e;
        e->range.start = start;
        e->range.end = start + n;
        e->replacement = copy(replacement);
        e->replacement_length = strlen(replacement);
        e->explanation = explanation && *explanation ? copy(explanation) : NULL;
        e->category = copy(category && *category ? category : "grammar");
        e->rule_id = rule_id ? copy(rule_id) : NULL;
        if (e->replacement == NULL || e->category == NULL) {
            free((char *)e->replacement);
            free((char *)e->explanation);
            free((char *)e->category);
            free((char *)e->rule_id);
            memset(e, 0, sizeof *e);
            out->dropped++;
            continue;
        }
        out->count++;
        cursor = start + n;
    }
    cJSON_Delete(root);
    return 0;
}

size_t emend_edits_emit(const emend_host *host, emend_run *run, const emend_edit_set *set) {
    size_t accepted = 0;
    for (size_t i = 0; i < set->count; i++)
        if (host->emit_edit(run, &set->items[i]) == EMEND_OK) accepted++;
    return accepted;
}

typedef struct host_log {
    const emend_host *host;
    emend_run *run;
} host_log;

static void log_to_host(void *context, const char *message) {
    host_log *h = context;
    h->host->log(h->run, EMEND_LOG_INFO, message);
}

long emend_edits_apply(const emend_host *host, emend_run *run, const emend_provider_request *request,
                       emend_byte_range within, const char *json, size_t length, const char *rule_id) {
    host_log context = {host, run};
    emend_edit_set set;
    if (emend_edits_parse(request, within, json, length, rule_id, &set, log_to_host, &context) != 0) return -1;
    size_t emitted = emend_edits_emit(host, run, &set);
    emend_edits_free(&set);
    return (long)emitted;
}
