/*
 * Proofread benchmarks for libemend (figures 3 and 4 of benchmarks/run.sh), through the C ABI
 * with a complete engine delegate that answers every callback at once, inside the callback.
 *
 *   3. delegate round trip: a dense document in which every word is a misspelling the fixture
 *      provider corrects; time from emend_coordinator_start to idle divided by the number of
 *      delegate callbacks (all of them: contexts, state changes, replaces, underline rects...).
 *   4. a ~100 KB English document with exactly 1,000 misspellings: time from start to idle,
 *      and per suggestion. The delegate applies every replace to an in-memory (gap) buffer; the
 *      run fails unless 1,000 suggestions arrive and the buffer ends up fully corrected.
 *
 * Each figure is the best of several runs (a fresh document each time, same coordinator).
 *
 * Usage: proofread [runs] [words [misspellings]]
 *   with `words`, only figure 3 on a dense document of that many words, e.g. for a profiler:
 *   perf record -g proofread 200 100; with `misspellings` too, that many spread over the words
 *   (figure 3b's sparse 10 MB row is `proofread 1 1700000 10000`).
 *   EMEND_BENCH_STYLED=N gives the context a "bold" run over the first half of every N bytes
 *   (figure 3b's styled 10 MB row is `EMEND_BENCH_STYLED=100 proofread 1 1700000 10000`).
 */
#define _POSIX_C_SOURCE 200809L
#include <emend.h>

#include <poll.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#define DIE(...)                                          \
    do {                                                  \
        fprintf(stderr, "proofread: FAIL: " __VA_ARGS__); \
        fprintf(stderr, "\n");                            \
        exit(1);                                          \
    } while (0)

#define CALL(expr)                                                                                         \
    do {                                                                                                   \
        emend_status status_ = (expr);                                                                     \
        if (status_ != EMEND_OK)                                                                           \
            DIE("%s -> %s: %s", #expr, emend_status_name(status_), emend_last_error_message());            \
    } while (0)

/* ---- a growable text buffer (for building documents) ---- */

typedef struct strbuf {
    char *data;
    size_t length, capacity;
} strbuf;

static void sb_add(strbuf *sb, const char *text, size_t length) {
    if (sb->length + length + 1 > sb->capacity) {
        sb->capacity = (sb->length + length + 1) * 2;
        sb->data = realloc(sb->data, sb->capacity);
        if (!sb->data) DIE("out of memory");
    }
    memcpy(sb->data + sb->length, text, length);
    sb->length += length;
    sb->data[sb->length] = 0;
}
static void sb_puts(strbuf *sb, const char *text) { sb_add(sb, text, strlen(text)); }

/* ---- the engine's document: a gap buffer, so replaces cost the engine almost nothing ---- */

typedef struct document {
    char *buf;
    size_t capacity, gap_start, gap_end; /* text = buf[0, gap_start) + buf[gap_end, capacity) */
} document;

static size_t doc_length(const document *d) { return d->capacity - (d->gap_end - d->gap_start); }

static void doc_set(document *d, const char *text, size_t length) {
    free(d->buf);
    d->capacity = length + 4096;
    d->buf = malloc(d->capacity);
    if (!d->buf) DIE("out of memory");
    memcpy(d->buf, text, length);
    d->gap_start = length;
    d->gap_end = d->capacity;
}

static void doc_move_gap(document *d, size_t at) {
    if (at < d->gap_start) {
        size_t n = d->gap_start - at;
        memmove(d->buf + d->gap_end - n, d->buf + at, n);
        d->gap_start -= n;
        d->gap_end -= n;
    } else if (at > d->gap_start) {
        size_t n = at - d->gap_start;
        memmove(d->buf + d->gap_start, d->buf + d->gap_end, n);
        d->gap_start += n;
        d->gap_end += n;
    }
}

static int doc_replace(document *d, emend_range range, const char *text, size_t length) {
    if (range.location > doc_length(d) || range.length > doc_length(d) - range.location) return 0;
    doc_move_gap(d, (size_t)range.location);
    d->gap_end += (size_t)range.length;
    if (d->gap_end - d->gap_start < length) {
        size_t tail = d->capacity - d->gap_end;
        size_t capacity = d->capacity * 2 + length;
        char *next = malloc(capacity);
        if (!next) DIE("out of memory");
        memcpy(next, d->buf, d->gap_start);
        memcpy(next + capacity - tail, d->buf + d->gap_end, tail);
        free(d->buf);
        d->buf = next;
        d->gap_end = capacity - tail;
        d->capacity = capacity;
    }
    memcpy(d->buf + d->gap_start, text, length);
    d->gap_start += length;
    return 1;
}

/* The text, contiguous (the gap moved to the end). */
static const char *doc_text(document *d) {
    doc_move_gap(d, doc_length(d));
    return d->buf;
}

/* ---- the delegate: answers everything at once and counts every callback ---- */

enum { CB_CONTEXTS, CB_REPLACE, CB_SELECT, CB_BOUNDING, CB_UNDERLINE, CB_PREPARE, CB_PREVIEW, CB_FINISH, CB_STATE,
       CB_PRESENT, CB_KINDS };
static const char *CB_NAMES[CB_KINDS] = {"contexts", "replace", "select", "bounding_rects", "underline_rects",
                                         "prepare", "preview", "finish", "state", "present"};

typedef struct engine {
    document doc;
    long callbacks[CB_KINDS];
    long result_replaces;
    int bad_replace;
    size_t run_every; /* > 0: the context carries a "bold" run over the first half of every run_every bytes */
} engine;

static long total_callbacks(const engine *e) {
    long total = 0;
    for (int i = 0; i < CB_KINDS; i++) total += e->callbacks[i];
    return total;
}

static void requests_contexts(void *user_data, emend_coordinator *coordinator, emend_context_scope scope,
                              emend_request_id request) {
    engine *e = user_data;
    (void)scope;
    e->callbacks[CB_CONTEXTS]++;
    emend_context_desc context = {0};
    context.struct_size = sizeof context;
    context.text = doc_text(&e->doc);
    context.text_length = doc_length(&e->doc);
    context.engine_context = e;
    emend_attribute_run *runs = NULL;
    if (e->run_every > 1) {
        size_t count = context.text_length / e->run_every;
        runs = calloc(count ? count : 1, sizeof *runs);
        if (!runs) DIE("out of memory");
        for (size_t i = 0; i < count; i++) {
            runs[i].range.location = (uint64_t)(i * e->run_every);
            runs[i].range.length = (uint64_t)(e->run_every / 2);
            runs[i].key = "bold";
            runs[i].value = "1";
        }
        context.attribute_runs = runs;
        context.attribute_run_count = count;
    }
    emend_answer_contexts(coordinator, request, &context, 1);
    free(runs);
}

static void replace(void *user_data, emend_coordinator *coordinator, const emend_replace_request *r,
                    emend_request_id request) {
    engine *e = user_data;
    e->callbacks[CB_REPLACE]++;
    if (r->kind == EMEND_CHANGE_RESULT) e->result_replaces++;
    if (!doc_replace(&e->doc, r->range, r->text, r->text_length)) {
        e->bad_replace = 1;
        emend_answer_replace(coordinator, request, EMEND_REPLACE_REFUSED, NULL, 0);
        return;
    }
    emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, NULL, 0);
}

static void select_ranges(void *user_data, emend_coordinator *coordinator, uint64_t context_id, void *engine_context,
                          const emend_range *ranges, size_t count, emend_request_id request) {
    engine *e = user_data;
    (void)context_id, (void)engine_context, (void)ranges, (void)count;
    e->callbacks[CB_SELECT]++;
    emend_answer_done(coordinator, request);
}

static void answer_rect(emend_coordinator *coordinator, emend_range range, emend_request_id request) {
    emend_rect rect = {(double)(range.location % 80) * 8.0, (double)(range.location / 80) * 16.0,
                       (double)range.length * 8.0, 16.0};
    emend_answer_rects(coordinator, request, &rect, 1);
}

static void bounding_rects(void *user_data, emend_coordinator *coordinator, uint64_t context_id, void *engine_context,
                           const emend_range *range, emend_request_id request) {
    engine *e = user_data;
    (void)context_id, (void)engine_context;
    e->callbacks[CB_BOUNDING]++;
    answer_rect(coordinator, *range, request);
}

static void underline_rects(void *user_data, emend_coordinator *coordinator, uint64_t context_id, void *engine_context,
                            const emend_range *range, emend_request_id request) {
    engine *e = user_data;
    (void)context_id, (void)engine_context;
    e->callbacks[CB_UNDERLINE]++;
    answer_rect(coordinator, *range, request);
}

static void prepare(void *user_data, emend_coordinator *coordinator, emend_text_animation animation,
                    uint64_t context_id, void *engine_context, const emend_range *range, emend_request_id request) {
    engine *e = user_data;
    (void)animation, (void)context_id, (void)engine_context, (void)range;
    e->callbacks[CB_PREPARE]++;
    emend_answer_done(coordinator, request);
}

static void preview(void *user_data, emend_coordinator *coordinator, emend_text_animation animation,
                    uint64_t context_id, void *engine_context, const emend_range *range, emend_request_id request) {
    engine *e = user_data;
    (void)animation, (void)context_id, (void)engine_context, (void)range;
    e->callbacks[CB_PREVIEW]++;
    emend_answer_preview(coordinator, request, NULL);
}

static void finish(void *user_data, emend_coordinator *coordinator, emend_text_animation animation,
                   uint64_t context_id, void *engine_context, const emend_range *range, void *preview_handle,
                   emend_request_id request) {
    engine *e = user_data;
    (void)animation, (void)context_id, (void)engine_context, (void)range, (void)preview_handle;
    e->callbacks[CB_FINISH]++;
    emend_answer_done(coordinator, request);
}

static void will_change_to_state(void *user_data, emend_coordinator *coordinator, emend_state state,
                                 emend_request_id request) {
    engine *e = user_data;
    (void)state;
    e->callbacks[CB_STATE]++;
    emend_answer_done(coordinator, request);
}

static void present_result(void *user_data, emend_coordinator *coordinator, const emend_presented_result *result,
                           emend_request_id request) {
    engine *e = user_data;
    (void)result;
    e->callbacks[CB_PRESENT]++;
    emend_answer_presented(coordinator, request, EMEND_PRESENTED_DISMISS);
}

/* ---- deterministic documents ---- */

static uint64_t rng_state;
static uint64_t rng_next(void) { /* SplitMix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static size_t rng_below(size_t n) { return (size_t)(rng_next() % n); }

/* The fixture provider's spelling table (Sources/EmendCore/Provider/FixtureCorrections.swift). */
static const char *MISSPELLED[][2] = {
    {"tomorow", "tomorrow"}, {"teh", "the"},           {"recieve", "receive"},       {"dont", "don't"},
    {"isnt", "isn't"},       {"doesnt", "doesn't"},    {"alot", "a lot"},            {"definately", "definitely"},
    {"seperate", "separate"}, {"occured", "occurred"}, {"wich", "which"},            {"untill", "until"},
    {"adress", "address"},   {"beleive", "believe"},   {"wierd", "weird"},           {"thier", "their"},
};
#define MISSPELLED_COUNT (sizeof MISSPELLED / sizeof MISSPELLED[0])

/* Correct words that trigger none of the fixture's rules: no "could"/"should" (+ "of"), no
 * "example"/"error" (after "a"), no "they"/"has", no "she" (+ "dont"); repeats are avoided. */
static const char *VOCABULARY[] = {
    "the", "of", "and", "to", "in", "is", "was", "that", "for", "it", "with", "as", "his", "on", "be", "at", "by",
    "had", "are", "but", "from", "or", "have", "an", "which", "one", "you", "were", "her", "all", "there", "been",
    "when", "who", "will", "more", "no", "if", "out", "so", "said", "what", "up", "its", "about", "into", "than",
    "them", "can", "only", "other", "new", "some", "time", "these", "two", "may", "then", "do", "first", "any",
    "my", "now", "such", "like", "our", "over", "man", "me", "even", "most", "made", "after", "also", "did",
    "many", "before", "must", "through", "back", "years", "where", "much", "your", "way", "well", "down",
    "because", "each", "just", "those", "people", "how", "too", "little", "state", "good", "very", "make",
    "world", "still", "own", "see", "men", "work", "long", "get", "here", "between", "both", "life", "being",
    "under", "never", "day", "same", "another", "know", "while", "last", "might", "us", "great", "old", "year",
    "off", "come", "since", "against", "go", "came", "right", "used", "take", "three", "house", "use", "during",
    "without", "again", "place", "around", "however", "home", "small", "found", "thought", "went", "say", "part",
    "once", "general", "high", "upon", "school", "every", "number", "often", "word", "write", "river", "garden",
    "window", "letter", "morning", "evening", "summer", "winter", "quiet", "bright", "simple", "careful",
    "gentle", "distant", "ancient", "modern", "ordinary", "curious", "silver", "golden", "wooden", "paper",
    "table", "chair", "bridge", "mountain", "valley", "forest", "harbor", "market", "station", "village",
    "library", "kitchen", "question", "answer", "reason", "moment", "minute", "history", "science", "music",
    "picture", "journey", "promise", "message", "problem", "method",
};
#define VOCABULARY_COUNT (sizeof VOCABULARY / sizeof VOCABULARY[0])

typedef struct texts {
    strbuf original, corrected;
    long misspellings;
} texts;

static void add_word(texts *t, const char *original, const char *corrected, int capitalize) {
    char first[2] = {original[0], 0};
    char first_fixed[2] = {corrected[0], 0};
    if (capitalize) {
        first[0] = (char)(first[0] - 'a' + 'A');
        first_fixed[0] = (char)(first_fixed[0] - 'a' + 'A');
    }
    sb_puts(&t->original, first);
    sb_puts(&t->original, original + 1);
    sb_puts(&t->corrected, first_fixed);
    sb_puts(&t->corrected, corrected + 1);
}

static void add_both(texts *t, const char *text) {
    sb_puts(&t->original, text);
    sb_puts(&t->corrected, text);
}

/* A document of `words` words in sentences (6-20 words) and paragraphs (3-7 sentences), with up to
 * `misspellings` misspelled words spread evenly (never the first word of a sentence). */
static texts make_document(size_t words, size_t misspellings, uint64_t seed) {
    texts t = {0};
    rng_state = seed;
    const char *previous = "";
    size_t w = 0;
    while (w < words) {
        size_t sentences = 3 + rng_below(5);
        for (size_t s = 0; s < sentences && w < words; s++) {
            size_t length = 6 + rng_below(15);
            for (size_t i = 0; i < length && w < words; i++, w++) {
                const char *word, *fixed;
                size_t due = (size_t)t.misspellings * words / (misspellings ? misspellings : 1) + 1;
                if (i > 0 && (size_t)t.misspellings < misspellings && w >= due) {
                    size_t k;
                    do k = rng_below(MISSPELLED_COUNT);
                    while (strcmp(MISSPELLED[k][0], previous) == 0);
                    word = MISSPELLED[k][0];
                    fixed = MISSPELLED[k][1];
                    t.misspellings++;
                } else {
                    do word = VOCABULARY[rng_below(VOCABULARY_COUNT)];
                    while (strcmp(word, previous) == 0);
                    fixed = word;
                }
                add_word(&t, word, fixed, i == 0);
                previous = word;
                if (i + 1 == length || w + 1 == words) {
                    add_both(&t, rng_below(8) == 0 ? "?" : ".");
                    add_both(&t, s + 1 == sentences ? "\n\n" : " ");
                } else {
                    if (rng_below(12) == 0) add_both(&t, ",");
                    add_both(&t, " ");
                }
            }
        }
    }
    return t;
}

/* ---- one timed proofread ---- */

typedef struct run_result {
    double ns;
    double longest_dispatch_ns; /* the longest single emend_coordinator_dispatch() */
    long callbacks[CB_KINDS];
    long total_callbacks;
    size_t suggestions;
} run_result;

static run_result proofread_once(emend_coordinator *coordinator, engine *e, const texts *t) {
    doc_set(&e->doc, t->original.data, t->original.length);
    memset(e->callbacks, 0, sizeof e->callbacks);
    e->result_replaces = 0;
    e->bad_replace = 0;

    emend_tool_request request = {0};
    request.struct_size = sizeof request;
    request.tool = EMEND_TOOL_PROOFREAD;
    request.scope = EMEND_SCOPE_FULL_DOCUMENT;
    double t0 = now_ns();
    CALL(emend_coordinator_start(coordinator, &request));
    /* As an event loop would: wait for the descriptor, dispatch, and time each dispatch, until
     * the suggestions rest in the text; then whatever is left until idle. */
    double longest = 0;
    struct pollfd pfd = {emend_coordinator_fd(coordinator), POLLIN, 0};
    for (;;) {
        emend_state state = EMEND_STATE_INACTIVE;
        CALL(emend_coordinator_get_state(coordinator, &state));
        if (state == EMEND_STATE_INTERACTIVE_RESTING) break;
        if (now_ns() - t0 > 600e9) DIE("the proofread did not rest within 600 s");
        poll(&pfd, 1, 100);
        double d0 = now_ns();
        CALL(emend_coordinator_dispatch(coordinator, NULL));
        double d1 = now_ns();
        if (d1 - d0 > longest) longest = d1 - d0;
    }
    CALL(emend_coordinator_run_until_idle(coordinator, 600000));
    double t1 = now_ns();

    run_result r = {0};
    r.ns = t1 - t0;
    r.longest_dispatch_ns = longest;
    memcpy(r.callbacks, e->callbacks, sizeof r.callbacks);
    r.total_callbacks = total_callbacks(e);
    CALL(emend_session_suggestion_count(coordinator, &r.suggestions));

    /* Verify: every suggestion delivered as a replace, and the document fully corrected. */
    if (e->bad_replace) DIE("a replace had a range outside the document");
    if ((long)r.suggestions != t->misspellings || e->result_replaces != t->misspellings)
        DIE("expected %ld suggestions delivered, got %zu suggestions and %ld result replaces", t->misspellings,
            r.suggestions, e->result_replaces);
    const char *text = doc_text(&e->doc);
    if (doc_length(&e->doc) != t->corrected.length || memcmp(text, t->corrected.data, t->corrected.length) != 0)
        DIE("the document after the proofread is not the corrected text (%zu bytes, expected %zu)",
            doc_length(&e->doc), t->corrected.length);

    /* End the session (untimed) so the next run starts from INACTIVE. */
    CALL(emend_session_accept(coordinator));
    CALL(emend_coordinator_run_until_idle(coordinator, 60000));
    return r;
}

static run_result best_of(emend_coordinator *coordinator, engine *e, const texts *t, int runs) {
    run_result best = {0};
    best.ns = 1e300;
    for (int i = 0; i < runs; i++) {
        run_result r = proofread_once(coordinator, e, t);
        if (r.ns < best.ns) best = r;
    }
    return best;
}

static void print_breakdown(const run_result *r) {
    printf("   callbacks:");
    for (int i = 0; i < CB_KINDS; i++)
        if (r->callbacks[i]) printf(" %s %ld", CB_NAMES[i], r->callbacks[i]);
    printf(" (total %ld)\n", r->total_callbacks);
}

int main(int argc, char **argv) {
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    if (runs < 1) runs = 1;
    size_t only_words = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 0;
    size_t only_misspellings = argc > 3 ? (size_t)strtoul(argv[3], NULL, 10) : 0;

    engine e = {0};
    const char *styled = getenv("EMEND_BENCH_STYLED");
    e.run_every = styled ? (size_t)strtoul(styled, NULL, 10) : 0;
    emend_delegate delegate = {0};
    delegate.struct_size = sizeof delegate;
    delegate.user_data = &e;
    delegate.requests_contexts = requests_contexts;
    delegate.replace = replace;
    delegate.select_ranges = select_ranges;
    delegate.requests_bounding_rects = bounding_rects;
    delegate.requests_underline_rects = underline_rects;
    delegate.prepare_for_text_animation = prepare;
    delegate.requests_preview = preview;
    delegate.finish_text_animation = finish;
    delegate.will_change_to_state = will_change_to_state;
    delegate.present_result = present_result;
    emend_coordinator *coordinator = NULL;
    CALL(emend_coordinator_create(&delegate, NULL, &coordinator));

    /* 3. Dense documents: every word misspelled but the first of each sentence, so the run is
     * mostly delegate round trips. Several sizes: the smallest is closest to the pure round-trip
     * cost; the larger ones show how the cost per callback grows with the document. */
    {
        const size_t sizes[] = {100, 400, 2000};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            size_t words = only_words ? only_words : sizes[i];
            texts t = make_document(words, only_misspellings ? only_misspellings : words, 3);
            int n = words <= 400 && !only_words ? runs * 4 : runs;
            run_result r = best_of(coordinator, &e, &t, n);
            printf("3. delegate round trip through dispatch: %6.0f ns/callback (%.0f us start->idle / %ld callbacks; "
                   "%ld suggestions in %zu bytes; best of %d; longest dispatch %.1f ms)\n",
                   r.ns / (double)r.total_callbacks, r.ns / 1e3, r.total_callbacks, t.misspellings,
                   t.original.length, n, r.longest_dispatch_ns / 1e6);
            if (i + 1 == sizeof sizes / sizeof sizes[0]) print_breakdown(&r);
            free(t.original.data), free(t.corrected.data);
            if (only_words) break;
        }
    }
    if (only_words) {
        emend_coordinator_destroy(coordinator);
        free(e.doc.buf);
        return 0;
    }

    /* 3b. The cost per callback by document size, the whole document one context: dense (every
     * word but a sentence's first misspelled) and sparse (one misspelling per 1,000 bytes: 10,000
     * on 10 MB). Flat means the runtime's per-suggestion cost does not grow with the document. A
     * size whose run takes over 30 s stops the larger ones of its row (they would take minutes). */
    {
        const double kilobytes[] = {14, 140, 1400, 10000};
        const size_t count = sizeof kilobytes / sizeof kilobytes[0];
        printf("3b. per callback by document size (one context of the whole document; best of %d up to 140 KB, one run above)\n",
               runs);
        /* Rows: dense, sparse, and sparse with a styled context (a "bold" run over the first
         * half of every 100 bytes: 97k runs on 10 MB, as a rich-text engine may give). */
        size_t run_every = e.run_every;
        for (int row = 0; row < 3; row++) {
            int dense = row == 0;
            e.run_every = row == 2 ? 100 : run_every;
            printf("   %-6s", row == 0 ? "dense" : row == 1 ? "sparse" : "styled");
            texts probe = make_document(20000, dense ? 20000 : 0, 4);
            double bytes_per_word = (double)probe.original.length / 20000.0;
            free(probe.original.data), free(probe.corrected.data);
            double previous_ns = 0;
            for (size_t i = 0; i < count; i++) {
                if (dense && kilobytes[i] > 1400) continue; /* 1.3 M suggestions on 10 MB: minutes of callbacks */
                if (previous_ns > 30e9) {
                    printf(" | %.0f KB: skipped", kilobytes[i]);
                    continue;
                }
                size_t words = (size_t)(kilobytes[i] * 1000.0 / bytes_per_word);
                size_t misspellings = dense ? words : (size_t)(kilobytes[i]);
                texts t = make_document(words, misspellings, 5);
                int n = kilobytes[i] <= 140 ? runs : 1;
                run_result r = best_of(coordinator, &e, &t, n);
                printf(" | %.0f KB: %.2f us/callback (%zu suggestions, %.0f ms, longest dispatch %.1f ms)",
                       (double)t.original.length / 1000.0, r.ns / 1e3 / (double)r.total_callbacks, r.suggestions, r.ns / 1e6,
                       r.longest_dispatch_ns / 1e6);
                fflush(stdout);
                previous_ns = r.ns;
                free(t.original.data), free(t.corrected.data);
            }
            printf("\n");
        }
        e.run_every = run_every;
    }

    /* 4. ~100 KB with exactly 1,000 misspellings spread evenly. */
    {
        const size_t target_bytes = 100000;
        const long target_misspellings = 1000;
        /* Size the document from the generator's bytes per word (measured on a probe). */
        texts probe = make_document(20000, 0, 4);
        double bytes_per_word = (double)probe.original.length / 20000.0;
        free(probe.original.data), free(probe.corrected.data);
        size_t words = (size_t)((double)target_bytes / bytes_per_word);
        texts t = make_document(words, (size_t)target_misspellings, 4);
        if (t.misspellings != target_misspellings)
            DIE("the document has %ld misspellings, not %ld", t.misspellings, target_misspellings);
        run_result r = best_of(coordinator, &e, &t, runs);
        printf("4. proofread, %zu suggestions on %.1f KB: %.0f us start->idle, %.2f us/suggestion (best of %d)\n",
               r.suggestions, (double)t.original.length / 1000.0, r.ns / 1e3, r.ns / 1e3 / (double)r.suggestions,
               runs);
        print_breakdown(&r);
        free(t.original.data), free(t.corrected.data);
    }

    emend_coordinator_destroy(coordinator);
    free(e.doc.buf);
    return 0;
}
