/* dictionary.c — the loaded Hunspell dictionaries of an instance (see dictionary.h). */
#define _POSIX_C_SOURCE 200809L
#include "dictionary.h"

#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chars.h"
#include "locate.h"
#include "diskcache.h"
#include "provider.h"
#include "quick.h"

/* At most this many dictionaries stay loaded per instance (least recently used out). */
#define MAX_LOADED_DICTIONARIES 4

/* `in` converted with `cd` into a new NUL-terminated string, or NULL when a character has no
 * counterpart (or memory ran out). */
static char *convert(iconv_t cd, const char *in, size_t length) {
    size_t capacity = length * 4 + 8;
    char *out = malloc(capacity);
    if (out == NULL) return NULL;
    iconv(cd, NULL, NULL, NULL, NULL);
    char *source = (char *)in;
    size_t source_left = length;
    char *target = out;
    size_t target_left = capacity - 1;
    if (iconv(cd, &source, &source_left, &target, &target_left) == (size_t)-1 ||
        iconv(cd, NULL, NULL, &target, &target_left) == (size_t)-1) {
        free(out);
        return NULL;
    }
    *target = '\0';
    return out;
}

/* 1 when `word` (UTF-8, NUL-terminated) is spelled right, 0 when not, -1 when the dictionary's
 * encoding cannot hold it (then it cannot be in the dictionary either: not checked). */
int dictionary_spell(dictionary *d, const char *word, size_t length) {
    if (d->utf8) return Hunspell_spell(d->handle, word) != 0;
    char *converted = convert(d->to_dictionary, word, length);
    if (converted == NULL) return -1;
    int ok = Hunspell_spell(d->handle, converted) != 0;
    free(converted);
    return ok;
}

/* The ASCII letter under each precomposed letter U+00C0..U+017F ('.' for none). */
static const char latin_bases[] =
    "AAAAAA.CEEEEIIII.NOOOOO.OUUUUY..aaaaaa.ceeeeiiii.nooooo.ouuuuy.y"
    "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIi..JjKk.LlLlLl."
    ".LlNnNnNn...OoOoOo..RrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZz.";

/* The character compared: ASCII letters without case; with `fold`, accented Latin letters as
 * their base letter. */
static uint32_t comparable(uint32_t cp, int fold) {
    if (fold && cp >= 0xC0 && cp < 0x180 && latin_bases[cp - 0xC0] != '.') cp = (unsigned char)latin_bases[cp - 0xC0];
    return cp < 0x80 ? ascii_lower((unsigned char)cp) : cp;
}

/* The next character of s[*i..n) that counts for same_letters, or 0 at the end. */
static uint32_t next_letter(const char *s, size_t n, size_t *i, int fold) {
    while (*i < n) {
        uint32_t cp;
        *i += utf8_decode((const unsigned char *)s, n, *i, &cp);
        if (cp == '\'' || cp == 0x2019) continue;
        if (fold && cp >= 0x0300 && cp <= 0x036F) continue;
        return comparable(cp, fold);
    }
    return 0;
}

/* Whether a and b are equal once apostrophes (' and ’) are left out and ASCII letters are
 * compared without case ("dont" and "don't"); with `fold`, also accents ("naïve", "naive").
 * Not spaces or hyphens: Hunspell's "until l" for "untill" must not win. */
static int same_letters(const char *a, const char *b, int fold) {
    size_t i = 0, j = 0, n = strlen(a), m = strlen(b);
    for (;;) {
        uint32_t x = next_letter(a, n, &i, fold), y = next_letter(b, m, &j, fold);
        if (x != y) return 0;
        if (x == 0) return 1;
    }
}

/* Asks Hunspell for suggestions for `word` (UTF-8, apostrophes straight). The result is UTF-8,
 * without duplicates or the word itself; suggestions that only add or move apostrophes
 * ("dont" → "don't", where Hunspell's first is "font") come first, then those that only differ
 * in accents ("naïve" → "naive", where Hunspell's first is "nave"), the rest in Hunspell's order. */
/* Whether `s` cuts the word in two: a space or a hyphen that `word` does not have. */
static int splits_word(const char *s, const char *word) {
    return (strchr(s, ' ') != NULL && strchr(word, ' ') == NULL) || (strchr(s, '-') != NULL && strchr(word, '-') == NULL);
}

/* Whether `a` and `b` (bytes) are one edit apart: a byte added, dropped or changed, or two
 * neighbours swapped. */
static int one_edit_apart(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la < lb) {
        const char *t = a; a = b; b = t;
        size_t tl = la; la = lb; lb = tl;
    }
    if (la - lb > 1) return 0;
    size_t i = 0;
    while (i < lb && a[i] == b[i]) i++;
    if (i == lb) return la != lb;
    if (la > lb) return strcmp(a + i + 1, b + i) == 0;                   /* one added */
    if (strcmp(a + i + 1, b + i + 1) == 0) return 1;                      /* one changed */
    return i + 1 < la && a[i] == b[i + 1] && a[i + 1] == b[i] && strcmp(a + i + 2, b + i + 2) == 0; /* swapped */
}

/* Adds the user's words to `handle` of `d`; how many Hunspell took. */
static size_t add_words(dictionary *d, Hunhandle *handle, const personal_words *personal) {
    size_t added = 0;
    for (size_t i = 0; i < personal->count; i++) {
        const char *word = personal->words[i];
        char *converted = d->utf8 ? NULL : convert(d->to_dictionary, word, strlen(word));
        if (!d->utf8 && converted == NULL) continue; /* not expressible in its encoding */
        if (Hunspell_add(handle, d->utf8 ? word : converted) == 0) added++;
        free(converted);
    }
    return added;
}

/* The dictionary as it is (with the n-gram scan) with the user's words, once its load on the
 * thread has finished (fullload.h); NULL when it cannot be loaded (the quick view's suggestions
 * stand alone then). */
static Hunhandle *full_dictionary_for_scan(dictionary *d, const personal_words *personal) {
    if (d->full.state == FULL_IS_HANDLE) return d->handle;
    Hunhandle *full = full_load_take(&d->full);
    if (full == NULL) return NULL;
    if (d->full_personal_generation != personal->generation) {
        add_words(d, full, personal);
        d->full_personal_generation = personal->generation;
    }
    return full;
}

emend_status dictionary_suggest(dictionary *d, const personal_words *personal, const char *word, size_t length, char ***out,
                                size_t *count) {
    *out = NULL;
    *count = 0;
    char *converted = d->utf8 ? NULL : convert(d->to_dictionary, word, length);
    if (!d->utf8 && converted == NULL) return EMEND_OK;
    char **list = NULL;
    Hunhandle *asked = d->handle;
    int n = Hunspell_suggest(asked, &list, d->utf8 ? word : converted);
    if (n <= 0 && d->full.state != FULL_IS_HANDLE) {
        /* The edits found nothing: Hunspell's n-gram scan, as newer Hunspell does then. */
        if (list != NULL) Hunspell_free_list(asked, &list, n < 0 ? 0 : n);
        list = NULL;
        asked = full_dictionary_for_scan(d, personal);
        n = asked == NULL ? 0 : Hunspell_suggest(asked, &list, d->utf8 ? word : converted);
    }
    free(converted);
    if (n <= 0) {
        if (list != NULL) Hunspell_free_list(asked, &list, n < 0 ? 0 : n);
        return EMEND_OK;
    }
    char **result = calloc((size_t)n, sizeof *result);
    if (result == NULL) {
        Hunspell_free_list(asked, &list, n);
        return EMEND_E_INTERNAL;
    }
    size_t m = 0;
    for (int k = 0; k < n; k++) {
        char *s = d->utf8 ? strdup(list[k]) : convert(d->from_dictionary, list[k], strlen(list[k]));
        if (s == NULL) continue;
        int keep = s[0] != '\0' && strcmp(s, word) != 0;
        for (size_t i = 0; keep && i < m; i++)
            if (strcmp(result[i], s) == 0) keep = 0;
        if (keep) result[m++] = s;
        else free(s);
    }
    Hunspell_free_list(asked, &list, n);
    /* Stable partitions: the same letters first, then the same letters but for accents. */
    size_t front = 0;
    for (int fold = 0; fold <= 1; fold++) {
        for (size_t i = front; i < m; i++) {
            if (!same_letters(result[i], word, fold)) continue;
            char *s = result[i];
            memmove(result + front + 1, result + front, (i - front) * sizeof *result);
            result[front++] = s;
        }
    }
    /* A word cut in two first ("Relase" → "Re lase") while one word is a keystroke away
     * ("Release"): the slip's fix goes first. Why: a missed or swapped letter is the common
     * slip, and a cut replacement reads as a joined name to Emend's filters, which then
     * dropped the flag altogether. */
    if (front == 0 && m > 1 && splits_word(result[0], word)) {
        for (size_t i = 1; i < m; i++) {
            if (splits_word(result[i], word) || !one_edit_apart(result[i], word)) continue;
            char *s = result[i];
            memmove(result + 1, result, i * sizeof *result);
            result[0] = s;
            break;
        }
    }
    *out = result;
    *count = m;
    return EMEND_OK;
}

static void add_script(dictionary *d, uint32_t script) {
    for (size_t i = 0; i < d->script_count; i++)
        if (d->scripts[i] == script) return;
    if (d->script_count < COUNT_OF(d->scripts)) d->scripts[d->script_count++] = script;
}

/* Whether the dictionary's words use letters of `cp`'s script. */
int dictionary_uses_script(const dictionary *d, uint32_t cp) {
    if (d->script_count == 0) return 1;
    uint32_t script = script_of(cp);
    for (size_t i = 0; i < d->script_count; i++)
        if (d->scripts[i] == script) return 1;
    return 0;
}

/* Reads the scripts of the letters of the dictionary's words (each line up to '/' or a tab:
 * the flags and morphology after it are not letters). A few ms for a large dictionary. */
static void read_scripts(dictionary *d, const char *dic, locale_t ctype) {
    FILE *file = fopen(dic, "rb");
    if (file == NULL) return;
    int high_bytes[128] = {0}; /* an 8-bit encoding: which bytes above 0x7F occur */
    int latin = 0;             /* an ASCII letter occurs */
    char line[4096];
    int first = 1;
    while (fgets(line, sizeof line, file) != NULL) {
        if (first) { /* the word count */
            first = 0;
            continue;
        }
        size_t n = strcspn(line, "/\t\r\n");
        for (size_t i = 0; i < n;) {
            uint32_t cp;
            if ((unsigned char)line[i] < 0x80) {
                latin |= is_ascii_alpha((unsigned char)line[i]);
                i++;
            } else if (d->utf8) {
                i += utf8_decode((const unsigned char *)line, n, i, &cp);
                if (classify(cp, ctype) == CLASS_LETTER) add_script(d, script_of(cp));
            } else {
                high_bytes[(unsigned char)line[i] - 0x80] = 1;
                i++;
            }
        }
    }
    fclose(file);
    if (latin) add_script(d, SCRIPT_LATIN);
    for (int b = 0; b < 128 && !d->utf8; b++) {
        if (!high_bytes[b]) continue;
        char byte = (char)(0x80 + b);
        char *utf8 = convert(d->from_dictionary, &byte, 1);
        if (utf8 == NULL) continue;
        uint32_t cp;
        utf8_decode((const unsigned char *)utf8, strlen(utf8), 0, &cp);
        if (classify(cp, ctype) == CLASS_LETTER) add_script(d, script_of(cp));
        free(utf8);
    }
}

void dictionary_unload(provider *p, dictionary *d) {
    cache_purge(&p->cache, d);
    if (d->full.state != FULL_IS_HANDLE) full_load_free(&d->full);
    handles_destroy(d->handle);
    if (!d->utf8) {
        iconv_close(d->to_dictionary);
        iconv_close(d->from_dictionary);
    }
    free(d->name);
    free(d->directory);
    free(d->disk_path);
    free(d);
}

/* iconv's name for a Hunspell encoding name (SET in the .aff file). */
static const char *iconv_name(const char *encoding) {
    if (strncmp(encoding, "microsoft-cp", 12) == 0) return encoding + 10; /* "cp1251" */
    return encoding;
}

/* The loaded dictionary for `tag`, loading it when needed; NULL with `message` and *status
 * (EMEND_E_UNSUPPORTED when none is installed, EMEND_E_PROVIDER when it cannot be loaded). */
dictionary *dictionary_for(provider *p, emend_run *run, const char *tag, emend_status *status, char *message,
                                  size_t message_size) {
    const char *directory = NULL;
    char name[128];
    if (find_dictionary(p, tag, &directory, name, sizeof name, message, message_size) != 0) {
        *status = EMEND_E_UNSUPPORTED;
        return NULL;
    }
    for (dictionary *d = p->dictionaries; d != NULL; d = d->next) {
        if (strcmp(d->name, name) == 0 && strcmp(d->directory, directory) == 0) {
            d->last_used = ++p->use_clock;
            return d;
        }
    }
    char aff[PATH_MAX], dic[PATH_MAX];
    snprintf(aff, sizeof aff, "%s/%s.aff", directory, name);
    snprintf(dic, sizeof dic, "%s/%s.dic", directory, name);
    *status = EMEND_E_PROVIDER;
    dictionary *d = calloc(1, sizeof *d);
    if (d == NULL) return snprintf(message, message_size, "out of memory"), NULL;
    /* The quick view first (quick.h), when Hunspell really reads it as one (quick_view_fault);
     * else the dictionary as it is, alone. */
    char quick[64];
    const char *no_quick = "its .aff file could not be copied";
    int quick_fd = quick_affix_file(aff, quick, sizeof quick);
    if (quick_fd >= 0) {
        Hunhandle *handle = handles_create(quick, dic);
        close(quick_fd);
        no_quick = quick_view_fault(handle, dic);
        if (no_quick == NULL) d->handle = handle;
        else handles_destroy(handle);
    }
    int has_quick = d->handle != NULL;
    if (!has_quick) d->handle = handles_create(aff, dic);
    d->full.state = FULL_IS_HANDLE;
    d->name = strdup(name);
    d->directory = strdup(directory);
    if (d->handle == NULL || d->name == NULL || d->directory == NULL) {
        snprintf(message, message_size, "could not load the Hunspell dictionary %.600s", dic);
        handles_destroy(d->handle);
        free(d->name);
        free(d->directory);
        free(d);
        return NULL;
    }
    const char *encoding = Hunspell_get_dic_encoding(d->handle);
    if (encoding == NULL) encoding = "ISO8859-1"; /* Hunspell's default without SET */
    d->utf8 = strcmp(encoding, "UTF-8") == 0 || strcmp(encoding, "utf-8") == 0 || strcmp(encoding, "UTF8") == 0;
    if (!d->utf8) {
        d->to_dictionary = iconv_open(iconv_name(encoding), "UTF-8");
        d->from_dictionary = iconv_open("UTF-8", iconv_name(encoding));
        if (d->to_dictionary == (iconv_t)-1 || d->from_dictionary == (iconv_t)-1) {
            snprintf(message, message_size, "the Hunspell dictionary %.600s uses the encoding %.40s, which iconv cannot convert", dic,
                     encoding);
            if (d->to_dictionary != (iconv_t)-1) iconv_close(d->to_dictionary);
            if (d->from_dictionary != (iconv_t)-1) iconv_close(d->from_dictionary);
            handles_destroy(d->handle);
            free(d->name);
            free(d->directory);
            free(d);
            return NULL;
        }
    }
    /* The dictionary as it is loads beside the rest (the scripts below, the run's words), so
     * that no later word waits for it (fullload.h). Out of memory: no scan, the edits alone. */
    if (has_quick) full_load_start(&d->full, aff, dic);
    read_scripts(d, dic, p->ctype);
    if (p->disk_cache) d->disk_path = disk_cache_path(name, aff, dic);
    /* Room for it: the least recently used one goes. */
    while (p->dictionary_count >= MAX_LOADED_DICTIONARIES) {
        dictionary **oldest = &p->dictionaries;
        for (dictionary **link = &p->dictionaries; *link != NULL; link = &(*link)->next)
            if ((*link)->last_used < (*oldest)->last_used) oldest = link;
        dictionary *gone = *oldest;
        *oldest = gone->next;
        p->dictionary_count--;
        emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "unloaded the dictionary %s", gone->name);
        dictionary_unload(p, gone);
    }
    d->last_used = ++p->use_clock;
    d->next = p->dictionaries;
    p->dictionaries = d;
    p->dictionary_count++;
    if (has_quick)
        emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "loaded the dictionary %s (%s) for %s, the quick view first", dic,
                         encoding, tag);
    else
        emend_plugin_log(p->base.host, run, EMEND_LOG_INFO,
                         "loaded the dictionary %s (%s) for %s without the quick view (%s): every suggestion scans the dictionary",
                         dic, encoding, tag, no_quick);
    return d;
}

/* Adds the user's words to `d` when they changed since it last got them; its cached
 * suggestions go, as they were made without those words. */
void dictionary_add_personal_words(provider *p, emend_run *run, dictionary *d) {
    personal_refresh(&p->personal);
    if (d->personal_generation == p->personal.generation) return;
    d->personal_generation = p->personal.generation;
    size_t added = add_words(d, d->handle, &p->personal);
    /* The dictionary as it is gets them once its load has finished (full_dictionary_for_scan). */
    cache_purge(&p->cache, d);
    emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "%s: %zu word%s of %s added", d->name, added, added == 1 ? "" : "s",
                     p->personal.path);
}
