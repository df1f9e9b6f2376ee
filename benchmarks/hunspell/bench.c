/*
 * bench.c — words per second of the Hunspell provider plugin (providers/hunspell), driven
 * directly through its descriptor with a tiny host table (no libemend): dlopen, create, run.
 *
 *   bench PLUGIN [cold-runs] [warm-runs]
 *       A deterministic ~100 KB English text (SplitMix64, a fixed vocabulary, 3 misspellings
 *       per 1,000 words from a table of 40 common ones) is proofread as one request:
 *       cold  a new instance (empty suggestion cache; the dictionary is loaded by a small
 *             request first, not timed), best of `cold-runs` (default 3) instances;
 *       warm  the same request again on that instance, suggestions cached, best of
 *             `warm-runs` (default 5).
 *       every misspelling is reported (the plugin has no time budget); the run
 *       prints FAIL and exits 1 unless every inserted misspelling (and nothing else) comes back
 *       as an edit at the right place.
 *
 *   bench PLUGIN --first-scan [rounds]
 *       What an editor's keystroke waits for when it makes the first word that Hunspell's edits
 *       cannot mend (the n-gram scan needs the dictionary as it is, quick.h): per round a new
 *       instance proofreads "It is here." (the dictionary loads), pauses 1 s as a typist
 *       does, then "We xbeleive it." (the scan), then "We xgovernment it." (edits only), each
 *       timed on the wall clock and on the CPU clock of the calling thread; medians and maxima
 *       over the rounds (default 7).
 *
 *   bench PLUGIN --text TEXT [--language TAG] [--set KEY=VALUE]...
 *       Proofreads TEXT and prints the edits and the plugin's log (for trying things out).
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emend_provider.h"

/* ---- the host table ----------------------------------------------------------------------- */

typedef struct recorded_edit {
    size_t start, end;
    char *replacement;
} recorded_edit;

typedef struct bench_run {
    const char *text;
    size_t selection_end;
    int print;             /* print edits and log lines as they come */
    recorded_edit *edits;
    size_t edit_count, edit_capacity;
    int finished;
    emend_status status;
    char message[1024];
} bench_run;

static const char *const level_names[] = {"debug", "info", "warning", "error"};

static void host_log(emend_run *run, emend_log_level level, const char *message) {
    bench_run *r = (bench_run *)run;
    if ((r != NULL && r->print) || level >= EMEND_LOG_WARNING)
        fprintf(stderr, "  log %s: %s\n", level_names[level <= EMEND_LOG_ERROR ? level : EMEND_LOG_ERROR], message);
}

static int host_is_cancelled(emend_run *run) {
    (void)run;
    return 0;
}

static emend_status host_emit_text(emend_run *run, const char *text, size_t length) {
    (void)run, (void)text, (void)length;
    return EMEND_E_STATE; /* a proofreader emits edits only */
}

static emend_status host_emit_edit(emend_run *run, const emend_provider_edit *edit) {
    bench_run *r = (bench_run *)run;
    if (r->finished) return EMEND_E_STATE;
    if (edit->struct_size < EMEND_PROVIDER_EDIT_MIN_SIZE) return EMEND_E_STRUCT_SIZE;
    if (edit->range.start > edit->range.end || edit->range.end > r->selection_end) return EMEND_E_RANGE;
    if (r->edit_count > 0 && edit->range.start < r->edits[r->edit_count - 1].end) return EMEND_E_RANGE;
    if (r->edit_count == r->edit_capacity) {
        r->edit_capacity = r->edit_capacity ? r->edit_capacity * 2 : 64;
        r->edits = realloc(r->edits, r->edit_capacity * sizeof *r->edits);
        if (r->edits == NULL) abort();
    }
    recorded_edit *e = &r->edits[r->edit_count++];
    e->start = edit->range.start;
    e->end = edit->range.end;
    e->replacement = strndup(edit->replacement, edit->replacement_length);
    if (r->print)
        printf("%zu..<%zu \"%.*s\" -> \"%s\"  [%s, %s] %s\n", e->start, e->end, (int)(e->end - e->start), r->text + e->start,
               e->replacement, edit->category ? edit->category : "-", edit->rule_id ? edit->rule_id : "-",
               edit->explanation ? edit->explanation : "");
    return EMEND_OK;
}

static emend_status host_finish(emend_run *run, emend_status status, const char *message) {
    bench_run *r = (bench_run *)run;
    if (r->finished) return EMEND_E_STATE;
    r->finished = 1;
    r->status = status;
    snprintf(r->message, sizeof r->message, "%s", message ? message : "");
    return EMEND_OK;
}

static const emend_host host = {
    .struct_size = sizeof(emend_host),
    .abi_version = EMEND_PROVIDER_ABI_VERSION,
    .log = host_log,
    .is_cancelled = host_is_cancelled,
    .emit_text = host_emit_text,
    .emit_edit = host_emit_edit,
    .finish = host_finish,
};

static void reset(bench_run *r) {
    for (size_t i = 0; i < r->edit_count; i++) free(r->edits[i].replacement);
    free(r->edits);
    int print = r->print;
    memset(r, 0, sizeof *r);
    r->print = print;
}

/* One proofread request of the whole text; returns the finish status. */
static emend_status proofread(const emend_provider_descriptor *d, void *instance, const char *text, const char *language,
                              bench_run *r) {
    reset(r);
    r->text = text;
    r->selection_end = strlen(text);
    emend_provider_request request = {
        .struct_size = sizeof request,
        .tool = EMEND_TOOL_PROOFREAD,
        .text = text,
        .text_length = strlen(text),
        .selection = {0, strlen(text)},
        .language = language,
    };
    emend_status status = d->run(instance, &request, (emend_run *)r);
    if (status != EMEND_OK) return status;
    if (!r->finished) {
        fprintf(stderr, "FAIL the plugin returned from run without finishing\n");
        exit(1);
    }
    return r->status;
}

/* ---- the text ----------------------------------------------------------------------------- */

static uint64_t state = 0x9E3779B97F4A7C15u;
static uint64_t next_random(void) {
    uint64_t z = (state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static const char *const vocabulary[] = {
    "the", "of", "and", "to", "in", "is", "it", "that", "was", "for", "on", "are", "with", "as", "his", "they",
    "be", "at", "one", "have", "this", "from", "by", "hot", "word", "but", "what", "some", "we", "can", "out",
    "other", "were", "all", "there", "when", "up", "use", "your", "how", "said", "an", "each", "she", "which",
    "do", "their", "time", "if", "will", "way", "about", "many", "then", "them", "write", "would", "like", "so",
    "these", "her", "long", "make", "thing", "see", "him", "two", "has", "look", "more", "day", "could", "go",
    "come", "did", "number", "sound", "no", "most", "people", "my", "over", "know", "water", "than", "call",
    "first", "who", "may", "down", "side", "been", "now", "find", "any", "new", "work", "part", "take", "get",
    "place", "made", "live", "where", "after", "back", "little", "only", "round", "man", "year", "came", "show",
    "every", "good", "me", "give", "our", "under", "name", "very", "through", "just", "form", "sentence",
    "great", "think", "say", "help", "low", "line", "differ", "turn", "cause", "much", "mean", "before", "move",
    "right", "boy", "old", "too", "same", "tell", "does", "set", "three", "want", "air", "well", "also", "play",
    "small", "end", "put", "home", "read", "hand", "port", "large", "spell", "add", "even", "land", "here",
    "must", "big", "high", "such", "follow", "act", "why", "ask", "men", "change", "went", "light", "kind",
    "off", "need", "house", "picture", "try", "us", "again", "animal", "point", "mother", "world", "near",
    "build", "self", "earth", "father", "head", "stand", "own", "page", "should", "country", "found", "answer",
    "school", "grow", "study", "still", "learn", "plant", "cover", "food", "sun", "four", "between", "state",
    "keep", "eye", "never", "last", "let", "thought", "city", "tree", "cross", "farm", "hard", "start", "might",
    "story", "saw", "far", "sea", "draw", "left", "late", "run", "don't", "while", "press", "close", "night",
    "real", "life", "few", "north", "open", "seem", "together", "next", "white", "children", "begin", "got",
    "walk", "example", "ease", "paper", "group", "always", "music", "those", "both", "mark", "often", "letter",
    "until", "mile", "river", "car", "feet", "care", "second", "book", "carry", "took", "science", "eat", "room",
    "friend", "began", "idea", "fish", "mountain", "stop", "once", "base", "hear", "horse", "cut", "sure",
    "watch", "color", "face", "wood", "main", "enough", "plain", "girl", "usual", "young", "ready", "above",
    "ever", "red", "list", "though", "feel", "talk", "bird", "soon", "body", "dog", "family", "direct", "pose",
    "leave", "song", "measure", "door", "product", "black", "short", "numeral", "class", "wind", "question",
    "happen", "complete", "ship", "area", "half", "rock", "order", "fire", "south", "problem", "piece", "told",
    "knew", "pass", "since", "top", "whole", "king", "space", "heard", "best", "hour", "better", "true", "during",
    "hundred", "five", "remember", "step", "early", "hold", "west", "ground", "interest", "reach", "fast", "it's",
};

static const struct {
    const char *wrong, *right;
} misspellings[] = {
    {"recieve", "receive"},        {"wierd", "weird"},           {"seperate", "separate"},
    {"untill", "until"},           {"acheive", "achieve"},       {"beleive", "believe"},
    {"definately", "definitely"},  {"occured", "occurred"},      {"tomorow", "tomorrow"},
    {"accomodate", "accommodate"}, {"adress", "address"},        {"begining", "beginning"},
    {"embarass", "embarrass"},     {"comittee", "committee"},    {"concious", "conscious"},
    {"enviroment", "environment"}, {"existance", "existence"},   {"goverment", "government"},
    {"independant", "independent"}, {"knowlege", "knowledge"},   {"neccessary", "necessary"},
    {"occassion", "occasion"},     {"persistant", "persistent"}, {"posession", "possession"},
    {"recomend", "recommend"},     {"refered", "referred"},      {"relevent", "relevant"},
    {"succesful", "successful"},   {"tommorow", "tomorrow"},     {"truely", "truly"},
    {"wich", "which"},             {"writting", "writing"},      {"arguement", "argument"},
    {"basicly", "basically"},      {"buisness", "business"},     {"finaly", "finally"},
    {"foriegn", "foreign"},        {"grammer", "grammar"},       {"harrass", "harass"},
    {"hieght", "height"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

typedef struct planted {
    size_t start, end;
    const char *right;
    size_t index; /* in misspellings */
} planted;

typedef struct document {
    char *text;
    size_t length, capacity;
    size_t words;
    planted *planted;
    size_t planted_count;
} document;

static void append(document *doc, const char *s, size_t n) {
    if (doc->length + n + 1 > doc->capacity) {
        doc->capacity = (doc->length + n + 1) * 2;
        doc->text = realloc(doc->text, doc->capacity);
        if (doc->text == NULL) abort();
    }
    memcpy(doc->text + doc->length, s, n);
    doc->length += n;
    doc->text[doc->length] = '\0';
}

/* ~`bytes` of sentences; 3 of every 1,000 words (on average) are misspellings. */
static document generate(size_t bytes) {
    document doc = {0};
    doc.planted = malloc(sizeof(planted) * (bytes / 100 + 16));
    size_t sentence = 0;
    while (doc.length < bytes) {
        size_t words = 6 + next_random() % 13;
        for (size_t w = 0; w < words; w++) {
            char piece[64];
            int misspelled = next_random() % 1000 < 3;
            size_t index = misspelled ? next_random() % COUNT(misspellings) : next_random() % COUNT(vocabulary);
            snprintf(piece, sizeof piece, "%s", misspelled ? misspellings[index].wrong : vocabulary[index]);
            if (w == 0 && piece[0] >= 'a' && piece[0] <= 'z') piece[0] = (char)(piece[0] - 'a' + 'A');
            if (w > 0) append(&doc, " ", 1);
            if (misspelled) {
                planted *p = &doc.planted[doc.planted_count++];
                p->start = doc.length;
                p->end = doc.length + strlen(piece);
                p->right = misspellings[index].right;
                p->index = index;
            }
            append(&doc, piece, strlen(piece));
            if (w + 1 < words && next_random() % 10 == 0) append(&doc, ",", 1);
            doc.words++;
        }
        append(&doc, ".", 1);
        sentence++;
        append(&doc, sentence % 6 == 0 ? "\n\n" : " ", sentence % 6 == 0 ? 2 : 1);
    }
    return doc;
}

/* ---- measuring ---------------------------------------------------------------------------- */

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *create(const emend_provider_descriptor *d, const emend_provider_setting *settings, size_t count) {
    void *instance = NULL;
    emend_status status = d->create(&host, settings, count, &instance);
    if (status != EMEND_OK) {
        fprintf(stderr, "FAIL create returned %d\n", (int)status);
        exit(1);
    }
    return instance;
}

/* Every planted misspelling, and nothing else, came back; returns how many replacements are
 * the intended word. */
static size_t verify(const document *doc, const bench_run *r, const char *label) {
    if (r->edit_count != doc->planted_count) {
        fprintf(stderr, "FAIL %s: %zu edits for %zu planted misspellings\n", label, r->edit_count, doc->planted_count);
        for (size_t i = 0, k = 0; i < r->edit_count; i++) {
            while (k < doc->planted_count && doc->planted[k].start < r->edits[i].start) k++;
            if (k >= doc->planted_count || doc->planted[k].start != r->edits[i].start)
                fprintf(stderr, "  unexpected: \"%.*s\"\n", (int)(r->edits[i].end - r->edits[i].start), doc->text + r->edits[i].start);
        }
        exit(1);
    }
    size_t intended = 0;
    for (size_t i = 0; i < r->edit_count; i++) {
        if (r->edits[i].start != doc->planted[i].start || r->edits[i].end != doc->planted[i].end) {
            fprintf(stderr, "FAIL %s: edit %zu at %zu..<%zu, planted at %zu..<%zu\n", label, i, r->edits[i].start, r->edits[i].end,
                    doc->planted[i].start, doc->planted[i].end);
            exit(1);
        }
        const char *right = doc->planted[i].right;
        const char *got = r->edits[i].replacement;
        /* The planted word may be capitalized (first of a sentence). */
        if (strlen(got) == strlen(right) && (got[0] == right[0] || got[0] == right[0] - 'a' + 'A') && strcmp(got + 1, right + 1) == 0)
            intended++;
    }
    return intended;
}

static int benchmark(const emend_provider_descriptor *d, int cold_runs, int warm_runs) {
    document doc = generate(100000);
    size_t distinct = 0;
    int used[COUNT(misspellings)] = {0};
    for (size_t i = 0; i < doc.planted_count; i++) {
        if (!used[doc.planted[i].index]) distinct++;
        used[doc.planted[i].index] = 1;
    }
    printf("text: %zu bytes, %zu words, %zu misspellings (%zu distinct)\n", doc.length, doc.words, doc.planted_count, distinct);

    const emend_provider_setting settings[] = {{"suggestion_disk_cache", "false"}}; /* cold means cold */
    bench_run r = {0};
    double best_load = 1e30, best_cold = 1e30, best_warm = 1e30;
    size_t intended = 0;
    void *keep = NULL;
    for (int c = 0; c < cold_runs; c++) {
        void *instance = create(d, settings, COUNT(settings));
        double t0 = now_ms();
        if (proofread(d, instance, "Hello.", "en-US", &r) != EMEND_OK) {
            fprintf(stderr, "FAIL loading the dictionary: %s\n", r.message);
            return 1;
        }
        double load = now_ms() - t0;
        if (load < best_load) best_load = load;
        t0 = now_ms();
        emend_status status = proofread(d, instance, doc.text, "en-US", &r);
        double cold = now_ms() - t0;
        if (status != EMEND_OK) {
            fprintf(stderr, "FAIL cold run: status %d %s\n", (int)status, r.message);
            return 1;
        }
        intended = verify(&doc, &r, "cold");
        if (cold < best_cold) best_cold = cold;
        if (keep != NULL) d->destroy(keep);
        keep = instance;
    }
    for (int w = 0; w < warm_runs; w++) {
        double t0 = now_ms();
        emend_status status = proofread(d, keep, doc.text, "en-US", &r);
        double warm = now_ms() - t0;
        if (status != EMEND_OK) {
            fprintf(stderr, "FAIL warm run: status %d %s\n", (int)status, r.message);
            return 1;
        }
        verify(&doc, &r, "warm");
        if (warm < best_warm) best_warm = warm;
    }
    d->destroy(keep);
    reset(&r);

    printf("dictionary load (en_US, first request): %.1f ms (best of %d)\n", best_load, cold_runs);
    printf("cold (empty suggestion cache): %10.0f words/s  %8.1f ms  %.1f ms per distinct misspelling (best of %d)\n",
           (double)doc.words / (best_cold / 1e3), best_cold, distinct ? best_cold / (double)distinct : 0.0, cold_runs);
    printf("warm (suggestions cached):     %10.0f words/s  %8.1f ms  (best of %d)\n", (double)doc.words / (best_warm / 1e3),
           best_warm, warm_runs);
    printf("edits: %zu, every planted misspelling found at its place; first suggestion is the intended word for %zu\n",
           doc.planted_count, intended);
    free(doc.text);
    free(doc.planted);
    return 0;
}

static int try_text(const emend_provider_descriptor *d, const char *text, const char *language,
                    const emend_provider_setting *settings, size_t count) {
    void *instance = create(d, settings, count);
    bench_run r = {.print = 1};
    emend_status status = proofread(d, instance, text, language, &r);
    printf("status %d%s%s\n", (int)status, r.message[0] ? ": " : "", r.message);
    reset(&r);
    d->destroy(instance);
    return status == EMEND_OK ? 0 : 1;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double thread_cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int first_scan(const emend_provider_descriptor *d, int rounds) {
    static const char *const texts[] = {"It is here.", "We xbeleive it.", "We xgovernment it."};
    static const char *const labels[] = {"first request (dictionary load)", "first word no edit mends (scan)",
                                         "a word the edits mend"};
    double wall[3][64], cpu[3][64];
    if (rounds > 64) rounds = 64;
    emend_provider_setting settings[] = {{"suggestion_disk_cache", "false"}};
    bench_run r = {0};
    for (int k = 0; k < rounds; k++) {
        void *instance = create(d, settings, COUNT(settings));
        for (int t = 0; t < 3; t++) {
            if (t == 1) nanosleep(&(struct timespec){1, 0}, NULL);
            double w = now_ms(), c = thread_cpu_ms();
            if (proofread(d, instance, texts[t], "en-US", &r) != EMEND_OK || (t > 0 && r.edit_count != 1)) {
                fprintf(stderr, "FAIL %s: status %d, %zu edits\n", texts[t], (int)r.status, r.edit_count);
                return 1;
            }
            wall[t][k] = now_ms() - w;
            cpu[t][k] = thread_cpu_ms() - c;
        }
        d->destroy(instance);
    }
    reset(&r);
    for (int t = 0; t < 3; t++) {
        qsort(wall[t], (size_t)rounds, sizeof(double), compare_doubles);
        qsort(cpu[t], (size_t)rounds, sizeof(double), compare_doubles);
        printf("%-34s wall median %6.1f ms, max %6.1f ms; CPU of the request's thread median %6.1f ms, max %6.1f ms (%d rounds)\n",
               labels[t], wall[t][rounds / 2], wall[t][rounds - 1], cpu[t][rounds / 2], cpu[t][rounds - 1], rounds);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s PLUGIN [cold-runs] [warm-runs]\n       %s PLUGIN --text TEXT [--language TAG] [--set KEY=VALUE]...\n",
                argv[0], argv[0]);
        return 2;
    }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "FAIL %s\n", dlerror());
        return 1;
    }
    emend_provider_entry_fn entry;
    *(void **)&entry = dlsym(library, EMEND_PROVIDER_ENTRY_SYMBOL);
    const emend_provider_descriptor *d = entry ? entry() : NULL;
    if (d == NULL || d->abi_version != EMEND_PROVIDER_ABI_VERSION) {
        fprintf(stderr, "FAIL %s is not an Emend provider plugin of ABI %d\n", argv[1], EMEND_PROVIDER_ABI_VERSION);
        return 1;
    }
    if (argc >= 3 && strcmp(argv[2], "--first-scan") == 0) return first_scan(d, argc > 3 ? atoi(argv[3]) : 7);
    if (argc >= 4 && strcmp(argv[2], "--text") == 0) {
        const char *language = "en-US";
        emend_provider_setting settings[16];
        size_t count = 0;
        for (int i = 4; i + 1 < argc; i += 2) {
            if (strcmp(argv[i], "--language") == 0) {
                language = argv[i + 1];
            } else if (strcmp(argv[i], "--set") == 0 && count < COUNT(settings)) {
                char *eq = strchr(argv[i + 1], '=');
                if (eq == NULL) return 2;
                *eq = '\0';
                settings[count++] = (emend_provider_setting){argv[i + 1], eq + 1};
            } else {
                return 2;
            }
        }
        return try_text(d, argv[3], language, settings, count);
    }
    int cold_runs = argc > 2 ? atoi(argv[2]) : 3;
    int warm_runs = argc > 3 ? atoi(argv[3]) : 5;
    if (cold_runs < 1) cold_runs = 1;
    if (warm_runs < 1) warm_runs = 1;
    return benchmark(d, cold_runs, warm_runs);
}
