/*
 * hunspell.c — an Emend provider plugin that finds misspelled words with Hunspell.
 *
 *   id     org.emend.hunspell
 *   tools  proofread   one edit per misspelled word: the best suggestion as the replacement,
 *                      the others in the explanation; category "spelling", rule "HUNSPELL"
 *
 * The dictionary follows the request's language (en-US → en_US.aff/.dic, de-DE → de_DE, ...)
 * and is looked for in the setting dictionary_dir, then /usr/share/hunspell and
 * /usr/share/myspell/dicts. Checking a word is fast (millions a second); asking Hunspell for
 * suggestions is slow (tens of ms a word), so suggestions are cached per instance (bounded,
 * least recently used out, kept across requests), each misspelled word is asked about once,
 * and the time for new suggestions is budgeted per word: a request whose lookups so far took
 * more than suggest_budget_ms for each word looked up (this one included) reports further
 * misspellings only when their suggestions are already cached, and logs how many it left
 * out. Why per word and not per request: a document with a hundred misspellings then keeps
 * every suggestion, while one pathological word cannot stall a request for long. See README.md.
 *
 * The work happens inside run (the host calls it on a thread of its own); cancel sets a flag
 * that the run checks before every suggestion and every few hundred words.
 *
 * Build: providers/hunspell/build.sh OUT_DIR  →  OUT_DIR/hunspell.so
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <iconv.h>
#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hunspell.h>

#include "emend_plugin.h"
#include "emend_provider.h"

#include "cache.h"
#include "personal.h"
#include "words.h"

#define PLUGIN_ID "org.emend.hunspell"
#define TOOLS EMEND_PROVIDES(EMEND_TOOL_PROOFREAD)

/* Defaults and limits of the settings. */
#define DEFAULT_BUDGET_MS 250L /* per word looked up */
#define MAX_BUDGET_MS 600000L
#define DEFAULT_MAX_SUGGESTIONS 5L
#define MAX_MAX_SUGGESTIONS 20L
#define DEFAULT_CACHE_SIZE 10000L
#define MAX_CACHE_SIZE 1000000L

/* At most this many dictionaries stay loaded per instance (least recently used out). */
#define MAX_LOADED_DICTIONARIES 4
/* Hunspell's own limit (MAXWORDLEN): longer tokens are not words. */
#define MAX_WORD_CHARACTERS 100
#define MAX_WORD_BYTES (MAX_WORD_CHARACTERS * 4)
/* How often (in words) a run looks for cancellation between suggestions. */
#define CANCEL_CHECK_WORDS 512

static const char *const default_directories[] = {"/usr/share/hunspell", "/usr/share/myspell/dicts"};

/* ---- instance ----------------------------------------------------------------------------- */

typedef struct dictionary {
    struct dictionary *next;
    char *name;          /* the file name without .dic, e.g. "en_US" */
    char *directory;
    Hunhandle *handle;
    int utf8;            /* the dictionary's encoding is UTF-8: no conversion */
    iconv_t to_dictionary, from_dictionary;
    uint64_t last_used;
    /* The scripts of the letters of its words (script_of), read from the .dic file; with
     * script_count 0 (the file could not be read) every word is checked. */
    uint32_t scripts[16];
    size_t script_count;
    unsigned personal_generation; /* the user's words added to it (personal_words.generation) */
} dictionary;

typedef struct provider {
    emend_plugin_instance base; /* the host, the run in progress (for cancel) */
    char **directories;  /* dictionary_dir entries, then the defaults */
    size_t directory_count;
    int check_all_caps;
    int region_fallback;
    long budget_ms;
    size_t max_suggestions;
    locale_t ctype;      /* C.UTF-8 for letter classes, or (locale_t)0 */
    dictionary *dictionaries;
    size_t dictionary_count;
    uint64_t use_clock;
    suggestion_cache cache;
    personal_words personal;  /* the user's dictionary.txt */
} provider;

/* ---- text conversion ---------------------------------------------------------------------- */

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
static int spell(dictionary *d, const char *word, size_t length) {
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
static emend_status suggest(dictionary *d, const char *word, size_t length, char ***out, size_t *count) {
    *out = NULL;
    *count = 0;
    char *converted = d->utf8 ? NULL : convert(d->to_dictionary, word, length);
    if (!d->utf8 && converted == NULL) return EMEND_OK;
    char **list = NULL;
    int n = Hunspell_suggest(d->handle, &list, d->utf8 ? word : converted);
    free(converted);
    if (n <= 0) {
        if (list != NULL) Hunspell_free_list(d->handle, &list, n < 0 ? 0 : n);
        return EMEND_OK;
    }
    char **result = calloc((size_t)n, sizeof *result);
    if (result == NULL) {
        Hunspell_free_list(d->handle, &list, n);
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
    Hunspell_free_list(d->handle, &list, n);
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
    *out = result;
    *count = m;
    return EMEND_OK;
}

/* ---- dictionaries --------------------------------------------------------------------------- */

static int dictionary_files_exist(const char *directory, const char *name) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s.dic", directory, name) >= (int)sizeof path) return 0;
    if (access(path, R_OK) != 0) return 0;
    snprintf(path, sizeof path, "%s/%s.aff", directory, name);
    return access(path, R_OK) == 0;
}

/* The first directory with `name`.aff and `name`.dic. */
static const char *find_exact(const provider *p, const char *name) {
    for (size_t i = 0; i < p->directory_count; i++)
        if (dictionary_files_exist(p->directories[i], name)) return p->directories[i];
    return NULL;
}

/* The first directory with a dictionary whose name starts with `prefix`; *name receives the
 * alphabetically first such name there. */
static const char *find_prefixed(const provider *p, const char *prefix, char *name, size_t name_size) {
    size_t prefix_length = strlen(prefix);
    for (size_t i = 0; i < p->directory_count; i++) {
        DIR *dir = opendir(p->directories[i]);
        if (dir == NULL) continue;
        int found = 0;
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            size_t length = strlen(entry->d_name);
            if (length <= prefix_length + 4 || strncmp(entry->d_name, prefix, prefix_length) != 0 ||
                strcmp(entry->d_name + length - 4, ".dic") != 0 || length - 4 >= name_size)
                continue;
            char stem[256];
            if (length - 4 >= sizeof stem) continue;
            memcpy(stem, entry->d_name, length - 4);
            stem[length - 4] = '\0';
            if (!dictionary_files_exist(p->directories[i], stem)) continue;
            if (!found || strcmp(stem, name) < 0) memcpy(name, stem, length - 3); /* with the NUL */
            found = 1;
        }
        closedir(dir);
        if (found) return p->directories[i];
    }
    return NULL;
}

/* A BCP 47 tag's language (lower case) and region (upper case, may be empty). */
static int parse_language(const char *tag, char language[9], char region[4]) {
    language[0] = region[0] = '\0';
    size_t i = 0, n = 0;
    while (is_ascii_alpha((unsigned char)tag[i]) && n < 8) language[n++] = (char)ascii_lower((unsigned char)tag[i++]);
    language[n] = '\0';
    if (n < 2 || (tag[i] != '\0' && tag[i] != '-' && tag[i] != '_')) return -1;
    while (tag[i] == '-' || tag[i] == '_') {
        i++;
        size_t start = i;
        while (is_ascii_alnum((unsigned char)tag[i])) i++;
        size_t length = i - start;
        if (length == 4 && is_ascii_alpha((unsigned char)tag[start])) continue; /* a script */
        if ((length == 2 && is_ascii_alpha((unsigned char)tag[start]) && is_ascii_alpha((unsigned char)tag[start + 1])) ||
            (length == 3 && tag[start] >= '0' && tag[start] <= '9')) {
            for (size_t k = 0; k < length; k++) {
                char c = tag[start + k];
                region[k] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
            }
            region[length] = '\0';
        }
        break;
    }
    return 0;
}

/* Finds the dictionary files for `tag`: *directory and name; or fills `message` and returns -1.
 * Order: language_REGION, language_REGION_*, language; then, without a region or with
 * region_fallback, en_US for "en", language_LANGUAGE (de_DE, fr_FR), any language_*. */
static int find_dictionary(const provider *p, const char *tag, const char **directory, char *name, size_t name_size,
                           char *message, size_t message_size) {
    char language[9], region[4];
    char tried[256] = "";
    if (parse_language(tag, language, region) == 0) {
        char candidate[64];
        if (region[0] != '\0') {
            snprintf(candidate, sizeof candidate, "%s_%s", language, region);
            snprintf(tried, sizeof tried, "%s, ", candidate);
            if ((*directory = find_exact(p, candidate)) != NULL) return snprintf(name, name_size, "%s", candidate), 0;
            snprintf(candidate, sizeof candidate, "%s_%s_", language, region);
            if ((*directory = find_prefixed(p, candidate, name, name_size)) != NULL) return 0;
        }
        size_t used = strlen(tried);
        snprintf(tried + used, sizeof tried - used, "%s", language);
        if ((*directory = find_exact(p, language)) != NULL) return snprintf(name, name_size, "%s", language), 0;
        if (region[0] == '\0' || p->region_fallback) {
            if (strcmp(language, "en") == 0 && (*directory = find_exact(p, "en_US")) != NULL)
                return snprintf(name, name_size, "en_US"), 0;
            snprintf(candidate, sizeof candidate, "%s_", language);
            size_t length = strlen(candidate);
            for (size_t k = 0; language[k] != '\0'; k++)
                candidate[length++] = (char)(language[k] - 'a' + 'A');
            candidate[length] = '\0';
            if ((*directory = find_exact(p, candidate)) != NULL) return snprintf(name, name_size, "%s", candidate), 0;
            snprintf(candidate, sizeof candidate, "%s_", language);
            used = strlen(tried);
            snprintf(tried + used, sizeof tried - used, ", %s_*", language);
            if ((*directory = find_prefixed(p, candidate, name, name_size)) != NULL) return 0;
        }
    }
    char directories[1024] = "";
    for (size_t i = 0; i < p->directory_count; i++) {
        size_t used = strlen(directories);
        snprintf(directories + used, sizeof directories - used, "%s%s", i ? ", " : "", p->directories[i]);
    }
    if (tried[0] != '\0')
        snprintf(message, message_size,
                 "no Hunspell dictionary for the language %s: looked for %s in %s (.aff and .dic files); install "
                 "one (on Debian, a hunspell-%s package) or set dictionary_dir",
                 tag, tried, directories, language);
    else
        snprintf(message, message_size, "no Hunspell dictionary for the language \"%s\" (not a language tag); searched %s",
                 tag, directories);
    return -1;
}

static void add_script(dictionary *d, uint32_t script) {
    for (size_t i = 0; i < d->script_count; i++)
        if (d->scripts[i] == script) return;
    if (d->script_count < COUNT_OF(d->scripts)) d->scripts[d->script_count++] = script;
}

/* Whether the dictionary's words use letters of `cp`'s script. */
static int uses_script(const dictionary *d, uint32_t cp) {
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

static void unload(provider *p, dictionary *d) {
    cache_purge(&p->cache, d);
    Hunspell_destroy(d->handle);
    if (!d->utf8) {
        iconv_close(d->to_dictionary);
        iconv_close(d->from_dictionary);
    }
    free(d->name);
    free(d->directory);
    free(d);
}

/* iconv's name for a Hunspell encoding name (SET in the .aff file). */
static const char *iconv_name(const char *encoding) {
    if (strncmp(encoding, "microsoft-cp", 12) == 0) return encoding + 10; /* "cp1251" */
    return encoding;
}

/* The loaded dictionary for `tag`, loading it when needed; NULL with `message` and *status
 * (EMEND_E_UNSUPPORTED when none is installed, EMEND_E_PROVIDER when it cannot be loaded). */
static dictionary *dictionary_for(provider *p, emend_run *run, const char *tag, emend_status *status, char *message,
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
    d->handle = Hunspell_create(aff, dic);
    d->name = strdup(name);
    d->directory = strdup(directory);
    if (d->handle == NULL || d->name == NULL || d->directory == NULL) {
        snprintf(message, message_size, "could not load the Hunspell dictionary %.600s", dic);
        if (d->handle) Hunspell_destroy(d->handle);
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
            Hunspell_destroy(d->handle);
            free(d->name);
            free(d->directory);
            free(d);
            return NULL;
        }
    }
    read_scripts(d, dic, p->ctype);
    /* Room for it: the least recently used one goes. */
    while (p->dictionary_count >= MAX_LOADED_DICTIONARIES) {
        dictionary **oldest = &p->dictionaries;
        for (dictionary **link = &p->dictionaries; *link != NULL; link = &(*link)->next)
            if ((*link)->last_used < (*oldest)->last_used) oldest = link;
        dictionary *gone = *oldest;
        *oldest = gone->next;
        p->dictionary_count--;
        emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "unloaded the dictionary %s", gone->name);
        unload(p, gone);
    }
    d->last_used = ++p->use_clock;
    d->next = p->dictionaries;
    p->dictionaries = d;
    p->dictionary_count++;
    emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "loaded the dictionary %s (%s) for %s", dic, encoding, tag);
    return d;
}

/* ---- one request ---------------------------------------------------------------------------- */

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
    int budget_spent;
    double lookup_ms;         /* time spent in Hunspell_suggest by this request */
    /* counts for the log */
    size_t words, misspelled, reported, budget_skipped, without_suggestion, suggest_calls, other_script;
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
    int ok = spell(j->d, word, length);
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
        ok = spell(j->d, word, length);
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
        /* Once over budget, stay over: later words would otherwise get the time one slow word
         * left unused, and the log's count would not say what was left out. */
        if (!j->budget_spent && j->lookup_ms >= (double)p->budget_ms * (double)(j->suggest_calls + 1)) j->budget_spent = 1;
        if (j->budget_spent) {
            j->budget_skipped++;
            return EMEND_OK;
        }
        if (stopping(j)) return EMEND_E_CANCELLED;
        struct timespec before;
        clock_gettime(CLOCK_MONOTONIC, &before);
        emend_status status = suggest(j->d, word, length, &suggestions, &count);
        j->lookup_ms += elapsed_ms(&before);
        if (status != EMEND_OK) return status;
        j->suggest_calls++;
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
    const int latin = uses_script(d, 'a');
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
                if (cp >= 0x80 ? !uses_script(d, cp) : !latin) t.other_script = 1;
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

/* Adds the user's words to `d` when they changed since it last got them; its cached
 * suggestions go, as they were made without those words. */
static void add_personal_words(provider *p, emend_run *run, dictionary *d) {
    personal_refresh(&p->personal);
    if (d->personal_generation == p->personal.generation) return;
    d->personal_generation = p->personal.generation;
    size_t added = 0;
    for (size_t i = 0; i < p->personal.count; i++) {
        const char *word = p->personal.words[i];
        char *converted = d->utf8 ? NULL : convert(d->to_dictionary, word, strlen(word));
        if (!d->utf8 && converted == NULL) continue; /* not expressible in its encoding */
        if (Hunspell_add(d->handle, d->utf8 ? word : converted) == 0) added++;
        free(converted);
    }
    cache_purge(&p->cache, d);
    emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "%s: %zu word%s of %s added", d->name, added, added == 1 ? "" : "s",
                     p->personal.path);
}

static emend_status proofread(void *instance, const emend_provider_request *request, emend_run *run,
                              emend_plugin_slot *slot, char *message, size_t message_size) {
    provider *p = instance;
    emend_status status;
    dictionary *d = dictionary_for(p, run, request->language, &status, message, message_size);
    if (d == NULL) return status;
    add_personal_words(p, run, d);

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
    if (j.budget_skipped > 0)
        emend_plugin_log(p->base.host, run, EMEND_LOG_INFO,
              "the suggestion time budget (suggest_budget_ms = %ld) was used up: %zu misspelled word%s without a cached "
              "suggestion not reported",
              p->budget_ms, j.budget_skipped, j.budget_skipped == 1 ? "" : "s");
    if (j.other_script > 0)
        emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "%zu word%s in a script the %s dictionary does not use not checked", j.other_script,
              j.other_script == 1 ? "" : "s", d->name);
    if (j.without_suggestion > 0)
        emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "%zu misspelled word%s without any suggestion not reported", j.without_suggestion,
              j.without_suggestion == 1 ? "" : "s");
    emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG,
          "%s: %zu words checked, %zu misspelled, %zu reported, Hunspell asked for suggestions %zu time%s, %.1f ms",
          d->name, j.words, j.misspelled, j.reported, j.suggest_calls, j.suggest_calls == 1 ? "" : "s",
          elapsed_ms(&j.started));
    return EMEND_OK;
}

/* ---- settings ------------------------------------------------------------------------------- */

static int add_directory(provider *p, const char *directory, size_t length) {
    char *entry = strndup(directory, length);
    char *copy = entry ? emend_plugin_expand_home(entry) : NULL;
    free(entry);
    if (copy == NULL) return -1;
    while (strlen(copy) > 1 && copy[strlen(copy) - 1] == '/') copy[strlen(copy) - 1] = '\0';
    char **grown = realloc(p->directories, (p->directory_count + 1) * sizeof *grown);
    if (grown == NULL) {
        free(copy);
        return -1;
    }
    p->directories = grown;
    p->directories[p->directory_count++] = copy;
    return 0;
}

/* ---- the descriptor's functions ------------------------------------------------------------- */

static void hunspell_destroy(void *instance);

static emend_status hunspell_create(const emend_host *host, const emend_provider_setting *settings, size_t setting_count,
                                    void **instance) {
    emend_status status;
    provider *p = emend_plugin_instance_new(host, instance, sizeof *p, &status);
    if (p == NULL) return status;
    p->budget_ms = DEFAULT_BUDGET_MS;
    p->max_suggestions = DEFAULT_MAX_SUGGESTIONS;
    p->region_fallback = 1;
    long cache_size = DEFAULT_CACHE_SIZE;

    const char *dictionary_dir = NULL, *personal = NULL;
    for (size_t i = 0; i < setting_count && status == EMEND_OK; i++) {
        const emend_provider_setting *setting = &settings[i];
        const char *key = setting->key, *value = setting->value;
        if (key == NULL || value == NULL) continue;
        long number = 0;
        if (strcmp(key, "dictionary_dir") == 0) {
            dictionary_dir = value;
        } else if (strcmp(key, "personal_dictionary") == 0) {
            personal = value;
        } else if (strcmp(key, "check_all_caps") == 0) {
            status = emend_plugin_setting_bool(host, setting, &p->check_all_caps);
        } else if (strcmp(key, "region_fallback") == 0) {
            status = emend_plugin_setting_bool(host, setting, &p->region_fallback);
        } else if (strcmp(key, "suggest_budget_ms") == 0) {
            if ((status = emend_plugin_setting_number(host, setting, 0, MAX_BUDGET_MS, &number)) == EMEND_OK)
                p->budget_ms = number;
        } else if (strcmp(key, "max_suggestions") == 0) {
            if ((status = emend_plugin_setting_number(host, setting, 1, MAX_MAX_SUGGESTIONS, &number)) == EMEND_OK)
                p->max_suggestions = (size_t)number;
        } else if (strcmp(key, "suggestion_cache_size") == 0) {
            status = emend_plugin_setting_number(host, setting, 0, MAX_CACHE_SIZE, &cache_size);
        } else {
            emend_plugin_setting_unknown(host, setting);
        }
    }
    /* dictionary_dir: directories separated by ':', searched before the defaults. */
    for (const char *dirs = dictionary_dir; status == EMEND_OK && dirs != NULL && *dirs != '\0';) {
        const char *colon = strchr(dirs, ':');
        size_t length = colon ? (size_t)(colon - dirs) : strlen(dirs);
        if (length > 0 && add_directory(p, dirs, length) != 0) status = EMEND_E_INTERNAL;
        dirs = colon ? colon + 1 : dirs + length;
    }
    for (size_t i = 0; status == EMEND_OK && i < COUNT_OF(default_directories); i++)
        if (add_directory(p, default_directories[i], strlen(default_directories[i])) != 0) status = EMEND_E_INTERNAL;
    if (status == EMEND_OK && cache_init(&p->cache, (size_t)cache_size) != 0) status = EMEND_E_INTERNAL;
    if (status == EMEND_OK && personal_init(&p->personal, personal) != 0) status = EMEND_E_INTERNAL;
    if (status != EMEND_OK) {
        hunspell_destroy(p);
        return status;
    }
    /* Letter classes of every script; without C.UTF-8 a coarser rule (see words.h). */
    p->ctype = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    *instance = p;
    return EMEND_OK;
}

static emend_status hunspell_run(void *instance, const emend_provider_request *request, emend_run *run) {
    return emend_plugin_run_inside(instance, request, run, TOOLS, proofread);
}

static void hunspell_destroy(void *instance) {
    provider *p = instance;
    if (p == NULL) return;
    while (p->dictionaries != NULL) {
        dictionary *d = p->dictionaries;
        p->dictionaries = d->next;
        unload(p, d);
    }
    cache_free(&p->cache);
    personal_free(&p->personal);
    for (size_t i = 0; i < p->directory_count; i++) free(p->directories[i]);
    free(p->directories);
    if (p->ctype != (locale_t)0) freelocale(p->ctype);
    emend_plugin_instance_free(p);
}

EMEND_PLUGIN_DESCRIPTOR(.id = PLUGIN_ID, .name = "Hunspell spelling", .version = "1.0.0", .tools = TOOLS,
                        .languages = "*", .outputs = EMEND_OUTPUT_EDITS, .flags = 0, .priority = 5,
                        .create = hunspell_create, .run = hunspell_run, .cancel = emend_plugin_cancel,
                        .destroy = hunspell_destroy)
