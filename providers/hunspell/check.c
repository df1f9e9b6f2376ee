/* check.c — one proofreading request of the Hunspell provider (see check.h). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache.h"
#include "chars.h"
#include "dictionary.h"
#include "diskcache.h"
#include "provider.h"
#include "skips.h"

/* Hunspell's own limit (MAXWORDLEN): longer tokens are not words. */
#define MAX_WORD_CHARACTERS 100
#define MAX_WORD_BYTES (MAX_WORD_CHARACTERS * 4)
/* How often (in words) a run looks for cancellation between suggestions. */
#define CANCEL_CHECK_WORDS 512

typedef struct job {
    provider *p;
    emend_run *run;
    emend_plugin_slot *slot;
    dictionary *d;
    const char *text;
    size_t length;
    size_t selection_start, selection_end;
    range_list skip;          /* code, protected text, URLs, e-mail addresses, paths */
    size_t skip_cursor;
    int prefer_curly;         /* the selection writes ’ more often than ' */
    struct timespec started;
    double lookup_ms;         /* time spent in Hunspell_suggest by this request (for the log only) */
    /* counts for the log */
    size_t words, misspelled, reported, without_suggestion, suggest_calls, other_script;
} job;

static double elapsed_ms(const struct timespec *since) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - since->tv_sec) * 1e3 + (double)(now.tv_nsec - since->tv_nsec) / 1e6;
}

static int stopping(job *j) {
    return emend_plugin_slot_cancelled(j->slot, j->p->base.host);
}

/* `s` with every ' turned into ’ (a new string), or a copy. */
static char *with_apostrophes(const char *s, int curly) {
    size_t extra = 0;
    if (curly)
        for (const char *c = s; *c; c++) extra += *c == '\'' ? 2 : 0;
    char *out = malloc(strlen(s) + extra + 1);
    if (out == NULL) return NULL;
    char *o = out;
    for (const char *c = s; *c; c++) {
        if (curly && *c == '\'') {
            memcpy(o, "\xE2\x80\x99", 3);
            o += 3;
        } else {
            *o++ = *c;
        }
    }
    *o = '\0';
    return out;
}

/* Emits the edit for the misspelled word [start, end) with `suggestions` (count > 0). */
static emend_status emit(job *j, size_t start, size_t end, char **suggestions, size_t count, int curly) {
    provider *p = j->p;
    size_t shown = count < p->max_suggestions ? count : p->max_suggestions;
    char *replacement = with_apostrophes(suggestions[0], curly);
    if (replacement == NULL) return EMEND_E_INTERNAL;
    if (strlen(replacement) == end - start && memcmp(replacement, j->text + start, end - start) == 0) {
        free(replacement);
        return EMEND_OK;
    }
    /* “word” is not in the en_US dictionary. Other suggestions: “a”, “b”. */
    size_t size = (end - start) + strlen(j->d->name) + 80;
    char **others = calloc(shown, sizeof *others);
    if (others == NULL) {
        free(replacement);
        return EMEND_E_INTERNAL;
    }
    for (size_t i = 1; i < shown; i++) {
        others[i] = with_apostrophes(suggestions[i], curly);
        if (others[i] == NULL) shown = i;
        else size += strlen(others[i]) + 10;
    }
    char *explanation = malloc(size);
    emend_status status = EMEND_E_INTERNAL;
    if (explanation != NULL) {
        int used = snprintf(explanation, size, "\xE2\x80\x9C%.*s\xE2\x80\x9D is not in the %s dictionary.", (int)(end - start),
                            j->text + start, j->d->name);
        for (size_t i = 1; i < shown; i++)
            used += snprintf(explanation + used, size - (size_t)used, "%s\xE2\x80\x9C%s\xE2\x80\x9D",
                             i == 1 ? " Other suggestions: " : ", ", others[i]);
        if (shown > 1) snprintf(explanation + used, size - (size_t)used, ".");
        emend_provider_edit edit = {
            .struct_size = sizeof edit,
            .range = {start, end},
            .replacement = replacement,
            .replacement_length = strlen(replacement),
            .explanation = explanation,
            .category = "spelling",
            .rule_id = "HUNSPELL",
        };
        status = p->base.host->emit_edit(j->run, &edit);
        if (status == EMEND_OK) {
            j->reported++;
        } else if (status != EMEND_E_CANCELLED) {
            emend_plugin_log(p->base.host, j->run, EMEND_LOG_WARNING, "the host refused the edit at %zu..<%zu (status %d)", start, end, (int)status);
            status = EMEND_OK;
        }
    }
    for (size_t i = 1; i < shown; i++) free(others[i]);
    free(others);
    free(explanation);
    free(replacement);
    return status;
}

/* A token the scanner found: [start, end) and what it holds. */
typedef struct token {
    size_t start, end;
    size_t characters, upper, lower;
    int digit, joiner, straight, curly;
    int other_script;     /* a letter of a script the dictionary does not use */
} token;

/* Checks one token and reports it when misspelled. */
static emend_status check(job *j, const token *t) {
    provider *p = j->p;
    if (t->start < j->selection_start || t->end > j->selection_end) return EMEND_OK;
    if (t->digit || t->joiner || t->characters > MAX_WORD_CHARACTERS) return EMEND_OK;
    if (!p->check_all_caps && t->upper >= 2 && t->lower == 0) return EMEND_OK;
    if (ranges_overlap(&j->skip, &j->skip_cursor, t->start, t->end)) return EMEND_OK;
    if (t->other_script) {
        j->other_script++;
        return EMEND_OK;
    }
    j->words++;

    size_t length = t->end - t->start;
    char word[MAX_WORD_BYTES + 1];
    memcpy(word, j->text + t->start, length);
    word[length] = '\0';
    int ok = dictionary_spell(j->d, word, length);
    if (ok == 1) return EMEND_OK;
    /* The straight-apostrophe form: the key of the cache and what suggestions are asked for. */
    if (t->curly) {
        size_t o = 0;
        for (size_t i = 0; i < length; i++) {
            if ((unsigned char)word[i] == 0xE2 && i + 2 < length && (unsigned char)word[i + 1] == 0x80 &&
                (unsigned char)word[i + 2] == 0x99) {
                word[o++] = '\'';
                i += 2;
            } else {
                word[o++] = word[i];
            }
        }
        word[o] = '\0';
        length = o;
        ok = dictionary_spell(j->d, word, length);
    }
    if (ok != 0) return EMEND_OK; /* right, or not expressible in the dictionary's encoding */
    j->misspelled++;

    char **suggestions;
    size_t count;
    char **owned = NULL; /* suggestions the cache did not take (capacity 0) */
    cache_entry *entry = cache_find(&p->cache, j->d, word, length);
    if (entry != NULL) {
        suggestions = entry->suggestions;
        count = entry->count;
    } else {
        /* Every misspelled word gets its suggestions, however long they take: a time budget
         * made the result depend on the machine's load (0, 12 or 18 suggestions for the same
         * file). A request that takes too long is the host's to stop (cancel, checked here),
         * and then it is reported as partial, never silently cut. */
        if (stopping(j)) return EMEND_E_CANCELLED;
        struct timespec before;
        clock_gettime(CLOCK_MONOTONIC, &before);
        emend_status status = dictionary_suggest(j->d, &p->personal, word, length, &suggestions, &count);
        j->lookup_ms += elapsed_ms(&before);
        if (status != EMEND_OK) return status;
        j->suggest_calls++;
        if (j->d->disk_path != NULL && p->personal.count == 0) disk_cache_append(j->d->disk_path, word, suggestions, count);
        entry = cache_store(&p->cache, j->d, word, length, suggestions, count);
        if (entry == NULL) owned = suggestions;
    }
    emend_status status = EMEND_OK;
    if (count == 0) j->without_suggestion++;
    else status = emit(j, t->start, t->end, suggestions, count, t->curly ? 1 : t->straight ? 0 : j->prefer_curly);
    if (owned != NULL) free_suggestions(owned, count);
    return status;
}

/* Walks the tokens of [from, to): runs of letters, digits and combining marks, with ' or ’
 * between two letters and _ between two letters or digits. */
static emend_status scan(job *j, size_t from, size_t to) {
    const unsigned char *s = (const unsigned char *)j->text;
    locale_t ctype = j->p->ctype;
    const dictionary *d = j->d;
    const int latin = dictionary_uses_script(d, 'a');
    size_t i = from;
    size_t since_check = 0;
    while (i < to) {
        uint32_t cp;
        size_t step = s[i] < 0x80 ? (cp = s[i], 1) : utf8_decode(s, to, i, &cp);
        char_class c = classify(cp, ctype);
        if (c != CLASS_LETTER && c != CLASS_DIGIT) {
            i += step;
            continue;
        }
        token t = {.start = i};
        char_class previous = CLASS_SEPARATOR;
        while (i < to) {
            step = s[i] < 0x80 ? (cp = s[i], 1) : utf8_decode(s, to, i, &cp);
            c = classify(cp, ctype);
            if (c == CLASS_APOSTROPHE || c == CLASS_JOINER) {
                /* Inside only: a letter (or, for _, a digit) must follow. */
                if (i + step >= to) break;
                uint32_t next;
                size_t next_step = s[i + step] < 0x80 ? (next = s[i + step], 1) : utf8_decode(s, to, i + step, &next);
                (void)next_step;
                char_class after = classify(next, ctype);
                if (c == CLASS_APOSTROPHE) {
                    if ((previous != CLASS_LETTER && previous != CLASS_MARK) || after != CLASS_LETTER) break;
                    if (cp == '\'') t.straight = 1;
                    else t.curly = 1;
                } else {
                    if (previous == CLASS_APOSTROPHE || previous == CLASS_JOINER ||
                        (after != CLASS_LETTER && after != CLASS_DIGIT))
                        break;
                    t.joiner = 1;
                }
            } else if (c == CLASS_LETTER) {
                if (is_upper_cp(cp, ctype)) t.upper++;
                else if (is_lower_cp(cp, ctype)) t.lower++;
                if (cp >= 0x80 ? !dictionary_uses_script(d, cp) : !latin) t.other_script = 1;
            } else if (c == CLASS_DIGIT) {
                t.digit = 1;
            } else if (c != CLASS_MARK) {
                break;
            }
            previous = c;
            t.characters++;
            i += step;
        }
        t.end = i;
        if (t.end - t.start > MAX_WORD_BYTES) t.characters = MAX_WORD_CHARACTERS + 1;
        emend_status status = check(j, &t);
        if (status != EMEND_OK) return status;
        if (++since_check >= CANCEL_CHECK_WORDS) {
            since_check = 0;
            if (stopping(j)) return EMEND_E_CANCELLED;
        }
    }
    return EMEND_OK;
}

emend_status hunspell_proofread(void *instance, const emend_provider_request *request, emend_run *run,
                              emend_plugin_slot *slot, char *message, size_t message_size) {
    provider *p = instance;
    emend_status status;
    dictionary *d = dictionary_for(p, run, request->language, &status, message, message_size);
    if (d == NULL) return status;
    dictionary_add_personal_words(p, run, d);
    /* Suggestions another process already asked for (only without the user's words, which
     * change them). */
    if (d->disk_path != NULL && !d->disk_loaded && p->personal.count == 0) {
        d->disk_loaded = 1;
        size_t loaded = disk_cache_load(d->disk_path, &p->cache, d);
        emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "%s: %zu word%s of suggestions read from %s", d->name, loaded,
                         loaded == 1 ? "" : "s", d->disk_path);
    }

    job j = {
        .p = p,
        .run = run,
        .slot = slot,
        .d = d,
        .text = request->text,
        .length = request->text_length,
        .selection_start = request->selection.start,
        .selection_end = request->selection.end,
    };
    clock_gettime(CLOCK_MONOTONIC, &j.started);
    if (j.selection_start == j.selection_end) return EMEND_OK;

    /* The region to scan: the selection widened to whole space-separated chunks, so that a
     * URL or word the selection cuts is seen whole (and then left alone). */
    size_t from = j.selection_start, to = j.selection_end;
    while (from > 0 && !is_ascii_space((unsigned char)j.text[from - 1])) from--;
    while (to < j.length && !is_ascii_space((unsigned char)j.text[to])) to++;

    /* What is never checked. */
    find_code(j.text, j.length, &j.skip);
    for (size_t i = 0; i < request->protected_range_count; i++)
        ranges_add(&j.skip, request->protected_ranges[i].start, request->protected_ranges[i].end);
    size_t straight = 0, curly = 0;
    for (size_t i = from; i < to;) {
        while (i < to && is_ascii_space((unsigned char)j.text[i])) i++;
        size_t chunk = i;
        while (i < to && !is_ascii_space((unsigned char)j.text[i])) {
            unsigned char c = (unsigned char)j.text[i];
            if (c == '\'') straight++;
            else if (c == 0xE2 && i + 2 < to && (unsigned char)j.text[i + 1] == 0x80 && (unsigned char)j.text[i + 2] == 0x99)
                curly++;
            i++;
        }
        if (i > chunk) find_unwords(j.text, chunk, i, &j.skip);
    }
    j.prefer_curly = curly > straight;
    if (j.skip.failed) {
        free(j.skip.starts_ends);
        snprintf(message, message_size, "out of memory");
        return EMEND_E_INTERNAL;
    }
    ranges_normalize(&j.skip);

    status = scan(&j, from, to);
    free(j.skip.starts_ends);
    if (status == EMEND_E_CANCELLED) {
        snprintf(message, message_size, "cancelled");
        return status;
    }
    if (status != EMEND_OK) {
        snprintf(message, message_size, "the Hunspell provider failed (out of memory)");
        return status;
    }
    if (j.other_script > 0)
        emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "%zu word%s in a script the %s dictionary does not use not checked", j.other_script,
              j.other_script == 1 ? "" : "s", d->name);
    if (j.without_suggestion > 0)
        emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "%zu misspelled word%s without any suggestion not reported", j.without_suggestion,
              j.without_suggestion == 1 ? "" : "s");
    emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG,
          "%s: %zu words checked, %zu misspelled, %zu reported, Hunspell asked for suggestions %zu time%s, %.1f ms (%.1f ms of it suggesting)",
          d->name, j.words, j.misspelled, j.reported, j.suggest_calls, j.suggest_calls == 1 ? "" : "s",
          elapsed_ms(&j.started), j.lookup_ms);
    return EMEND_OK;
}
