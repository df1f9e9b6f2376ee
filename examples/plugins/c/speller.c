/*
 * speller.c — an Emend provider plugin in C, using the whole descriptor.
 *
 *   id     org.emend.example.c
 *   tools  proofread         edits for a small built-in table of misspellings
 *          rewrite-concise   the selection without "very", "really" and "just", streamed
 *                            word by word with a short pause (setting word_delay_ms)
 *
 * Every run works on a thread the plugin starts in run(): run() returns at once and the
 * thread calls host->finish later. cancel() sets a flag the thread checks between words
 * (it also asks host->is_cancelled). The plugin links nothing of the host: it needs only
 * emend_provider.h (and emend.h), e.g.
 *
 *     cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -pthread -I include \
 *        -o example-c.so examples/plugins/c/speller.c
 *
 * Configuration (config.toml):
 *
 *     [providers."org.emend.example.c"]
 *     word_delay_ms = 10     # pause between streamed words, 0 to 10000
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emend_provider.h"

/* ---- the misspelling table -------------------------------------------------------------- */

static const struct {
    const char *wrong;
    const char *right;
} misspellings[] = {
    {"recieve", "receive"},   {"teh", "the"},           {"wierd", "weird"},
    {"seperate", "separate"}, {"definately", "definitely"}, {"occured", "occurred"},
    {"untill", "until"},      {"acheive", "achieve"},   {"beleive", "believe"},
    {"tomorow", "tomorrow"},
};

/* Words rewrite-concise leaves out. */
static const char *const filler_words[] = {"very", "really", "just"};

/* ---- instance and runs ------------------------------------------------------------------ */

typedef struct job job;

typedef struct speller {
    const emend_host *host;     /* valid as long as the instance */
    unsigned word_delay_ms;
    pthread_mutex_t lock;
    pthread_cond_t idle;        /* signalled when a job ends */
    job *jobs;                  /* runs whose thread has not ended yet */
} speller;

/* One run: a copy of what the thread needs from the request. */
struct job {
    speller *owner;
    emend_run *run;
    emend_tool tool;
    char *text;                 /* the whole request text, NUL-terminated copy */
    size_t text_length;
    size_t start, end;          /* the selection */
    emend_byte_range *protected_ranges;
    size_t protected_count;
    atomic_int cancelled;       /* set by cancel() */
    job *next;
};

static void free_job(job *j) {
    free(j->text);
    free(j->protected_ranges);
    free(j);
}

static int stopping(job *j) {
    return atomic_load(&j->cancelled) || j->owner->host->is_cancelled(j->run);
}

static void pause_ms(unsigned ms) {
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {
    }
}

/* ---- text helpers (ASCII letters only; other bytes never match the tables) ---------------- */

static int is_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80; }
static int is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }
static char upper(char c) { return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c; }

/* Whether text[0..length) equals `word` ignoring the case of ASCII letters. */
static int same_word(const char *text, size_t length, const char *word) {
    if (strlen(word) != length) return 0;
    for (size_t i = 0; i < length; i++)
        if (lower(text[i]) != word[i]) return 0;
    return 1;
}

static int touches_protected(const job *j, size_t start, size_t end) {
    for (size_t i = 0; i < j->protected_count; i++)
        if (start < j->protected_ranges[i].end && j->protected_ranges[i].start < end) return 1;
    return 0;
}

/* ---- the tools -------------------------------------------------------------------------- */

static emend_status proofread(job *j) {
    const emend_host *host = j->owner->host;
    size_t i = j->start;
    while (i < j->end) {
        if (stopping(j)) return EMEND_E_CANCELLED;
        if (!is_letter((unsigned char)j->text[i])) {
            i++;
            continue;
        }
        size_t word = i;
        while (i < j->end && is_letter((unsigned char)j->text[i])) i++;
        if (touches_protected(j, word, i)) continue;
        for (size_t k = 0; k < sizeof misspellings / sizeof misspellings[0]; k++) {
            if (!same_word(j->text + word, i - word, misspellings[k].wrong)) continue;
            char replacement[32];
            snprintf(replacement, sizeof replacement, "%s", misspellings[k].right);
            if (j->text[word] >= 'A' && j->text[word] <= 'Z') replacement[0] = upper(replacement[0]);
            char explanation[96];
            snprintf(explanation, sizeof explanation, "\"%.*s\" is misspelled; did you mean \"%s\"?",
                     (int)(i - word), j->text + word, replacement);
            emend_provider_edit edit = {
                .struct_size = sizeof edit,
                .range = {word, i},
                .replacement = replacement,
                .replacement_length = strlen(replacement),
                .explanation = explanation,
                .category = "spelling",
                .rule_id = "EXAMPLE_C_SPELLING",
            };
            emend_status status = host->emit_edit(j->run, &edit);
            if (status == EMEND_E_CANCELLED) return status;
            if (status != EMEND_OK) host->log(j->run, EMEND_LOG_WARNING, "the host refused an edit");
            break;
        }
    }
    return EMEND_OK;
}

static emend_status rewrite_concise(job *j) {
    const emend_host *host = j->owner->host;
    size_t i = j->start;
    /* Leading space stays as it is. */
    while (i < j->end && is_space((unsigned char)j->text[i])) i++;
    if (i > j->start) {
        emend_status status = host->emit_text(j->run, j->text + j->start, i - j->start);
        if (status != EMEND_OK) return status == EMEND_E_CANCELLED ? status : EMEND_E_INTERNAL;
    }
    int capitalize_next = 0;
    int first = 1;
    while (i < j->end) {
        size_t word = i;
        while (i < j->end && !is_space((unsigned char)j->text[i])) i++;
        size_t word_end = i;
        while (i < j->end && is_space((unsigned char)j->text[i])) i++;

        int filler = 0;
        for (size_t k = 0; k < sizeof filler_words / sizeof filler_words[0]; k++)
            if (same_word(j->text + word, word_end - word, filler_words[k])) filler = 1;
        if (filler) {
            /* "Really good." becomes "Good." */
            if (j->text[word] >= 'A' && j->text[word] <= 'Z') capitalize_next = 1;
            continue;
        }
        if (!first && j->owner->word_delay_ms > 0) pause_ms(j->owner->word_delay_ms);
        if (stopping(j)) return EMEND_E_CANCELLED;
        first = 0;

        size_t length = i - word;
        char *piece = malloc(length);
        if (piece == NULL) return EMEND_E_INTERNAL;
        memcpy(piece, j->text + word, length);
        if (capitalize_next) piece[0] = upper(piece[0]);
        capitalize_next = 0;
        emend_status status = host->emit_text(j->run, piece, length);
        free(piece);
        if (status == EMEND_E_CANCELLED) return status;
        if (status != EMEND_OK) return EMEND_E_INTERNAL;
    }
    return EMEND_OK;
}

/* The thread of one run: work, then finish exactly once. */
static void *work(void *argument) {
    job *j = argument;
    speller *s = j->owner;
    emend_status status = j->tool == EMEND_TOOL_PROOFREAD ? proofread(j) : rewrite_concise(j);
    if (status == EMEND_OK && atomic_load(&j->cancelled)) status = EMEND_E_CANCELLED;

    /* Leave the list first: from here on cancel() no longer sees this run. finish is called
     * under the lock so that destroy(), which waits for the list to empty, cannot free the
     * instance (and with it the run handles) before finish returned. */
    pthread_mutex_lock(&s->lock);
    for (job **link = &s->jobs; *link != NULL; link = &(*link)->next) {
        if (*link == j) {
            *link = j->next;
            break;
        }
    }
    s->host->finish(j->run, status, status == EMEND_OK ? NULL
                                    : status == EMEND_E_CANCELLED ? "cancelled"
                                                                   : "the speller failed");
    pthread_cond_broadcast(&s->idle);
    pthread_mutex_unlock(&s->lock);
    free_job(j);
    return NULL;
}

/* ---- the descriptor's functions ----------------------------------------------------------- */

static emend_status speller_create(const emend_host *host, const emend_provider_setting *settings,
                                   size_t setting_count, void **instance) {
    speller *s = calloc(1, sizeof *s);
    if (s == NULL) return EMEND_E_INTERNAL;
    s->host = host;
    s->word_delay_ms = 10;
    for (size_t i = 0; i < setting_count; i++) {
        if (strcmp(settings[i].key, "word_delay_ms") == 0) {
            char *end = NULL;
            errno = 0;
            unsigned long value = strtoul(settings[i].value, &end, 10);
            if (errno != 0 || end == settings[i].value || *end != '\0' || value > 10000) {
                char message[160];
                snprintf(message, sizeof message, "word_delay_ms must be a number from 0 to 10000, not \"%.80s\"",
                         settings[i].value);
                host->log(NULL, EMEND_LOG_ERROR, message);
                free(s);
                return EMEND_E_INVALID_ARGUMENT;
            }
            s->word_delay_ms = (unsigned)value;
        } else {
            char message[160];
            snprintf(message, sizeof message, "unknown setting \"%.80s\" ignored", settings[i].key);
            host->log(NULL, EMEND_LOG_WARNING, message);
        }
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->idle, NULL);
    *instance = s;
    return EMEND_OK;
}

static emend_status speller_run(void *instance, const emend_provider_request *request, emend_run *run) {
    speller *s = instance;
    if (request->tool != EMEND_TOOL_PROOFREAD && request->tool != EMEND_TOOL_REWRITE_CONCISE)
        return EMEND_E_UNSUPPORTED;
    if (request->selection.start > request->selection.end || request->selection.end > request->text_length)
        return EMEND_E_RANGE;

    /* Copy what the thread reads: the request is the host's. */
    job *j = calloc(1, sizeof *j);
    if (j == NULL) return EMEND_E_INTERNAL;
    j->owner = s;
    j->run = run;
    j->tool = request->tool;
    j->text_length = request->text_length;
    j->start = request->selection.start;
    j->end = request->selection.end;
    j->text = malloc(request->text_length + 1);
    j->protected_count = request->protected_range_count;
    j->protected_ranges = calloc(j->protected_count + 1, sizeof *j->protected_ranges);
    if (j->text == NULL || j->protected_ranges == NULL) {
        free_job(j);
        return EMEND_E_INTERNAL;
    }
    memcpy(j->text, request->text, request->text_length);
    j->text[request->text_length] = '\0';
    if (j->protected_count > 0)
        memcpy(j->protected_ranges, request->protected_ranges, j->protected_count * sizeof *j->protected_ranges);
    atomic_init(&j->cancelled, 0);

    pthread_mutex_lock(&s->lock);
    j->next = s->jobs;
    s->jobs = j;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_t thread;
    int started = pthread_create(&thread, &attributes, work, j);
    pthread_attr_destroy(&attributes);
    if (started != 0) s->jobs = j->next;
    pthread_mutex_unlock(&s->lock);
    if (started != 0) {
        free_job(j);
        return EMEND_E_INTERNAL; /* failed at once: no finish */
    }
    return EMEND_OK;
}

/* May come from any thread, even as the run is finishing: look the run up, never trust it. */
static void speller_cancel(void *instance, emend_run *run) {
    speller *s = instance;
    pthread_mutex_lock(&s->lock);
    for (job *j = s->jobs; j != NULL; j = j->next)
        if (j->run == run) atomic_store(&j->cancelled, 1);
    pthread_mutex_unlock(&s->lock);
}

/* Stops the threads still going (an abandoned run) and waits for them, then frees. */
static void speller_destroy(void *instance) {
    speller *s = instance;
    if (s == NULL) return;
    pthread_mutex_lock(&s->lock);
    for (job *j = s->jobs; j != NULL; j = j->next) atomic_store(&j->cancelled, 1);
    while (s->jobs != NULL) pthread_cond_wait(&s->idle, &s->lock);
    pthread_mutex_unlock(&s->lock);
    pthread_cond_destroy(&s->idle);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static const emend_provider_descriptor descriptor = {
    .struct_size = sizeof(emend_provider_descriptor),
    .abi_version = EMEND_PROVIDER_ABI_VERSION,
    .id = "org.emend.example.c",
    .name = "Example speller (C)",
    .version = "1.0.0",
    .tools = EMEND_PROVIDES(EMEND_TOOL_PROOFREAD) | EMEND_PROVIDES(EMEND_TOOL_REWRITE_CONCISE),
    .languages = "en",
    .outputs = EMEND_OUTPUT_PLAIN | EMEND_OUTPUT_EDITS,
    .flags = EMEND_PROVIDER_STREAMS,
    .priority = 10,
    .create = speller_create,
    .run = speller_run,
    .cancel = speller_cancel,
    .destroy = speller_destroy,
};

const emend_provider_descriptor *emend_provider_entry(void) { return &descriptor; }
