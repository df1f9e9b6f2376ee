/*
 * llama.c — the llama provider plugin: writing tools on a local GGUF model through
 * llama.cpp (linked statically; see build.sh and README.md).
 *
 * One model and one llama.cpp context per instance, shared by its runs (one at a time). A
 * run works inside `run`: it builds the tool's chat messages (providers/common), applies the
 * model's chat template, generates greedily and streams whole UTF-8 characters to the host.
 * Tools with a required shape generate under a GBNF grammar; proofreading's JSON goes through
 * emend_edits, so only validated edits reach the host. Inputs longer than the context are cut
 * into paragraph pieces (see serve_text and serve_reduce for how their outputs are joined).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emend_edits.h"
#include "emend_grammars.h"
#include "emend_plugin.h"
#include "emend_prompts.h"
#include "emend_provider.h"
#include "model.h"
#include "output.h"
#include "pieces.h"
#include "threads.h"

#define PLUGIN_ID "org.emend.llama"
#define MODEL_FILE "SmolLM2-135M-Instruct.Q4_1.gguf"
#define RULE_ID "LLAMA"

#define DEFAULT_IDLE_UNLOAD_SECONDS 300
#define DEFAULT_CONTEXT 2048
#define DEFAULT_MAX_TOKENS 1024

#define TOOLS                                                                                             \
    (EMEND_PROVIDES_REWRITES | EMEND_PROVIDES(EMEND_TOOL_SUMMARY) | EMEND_PROVIDES(EMEND_TOOL_KEY_POINTS) | \
     EMEND_PROVIDES(EMEND_TOOL_LIST) | EMEND_PROVIDES(EMEND_TOOL_TABLE) | EMEND_PROVIDES(EMEND_TOOL_COMPOSE) |  \
     EMEND_PROVIDES(EMEND_TOOL_PROOFREAD))

typedef struct provider {
    emend_plugin_instance base; /* the host, the run in progress (for cancel) */
    llm *model; /* NULL while unloaded (idle); `lock` guards it, `busy` and `last_used` */
    char *model_path;
    int threads;  /* the setting; 0: from the free cores, run by run */
    int max_threads; /* the most a run uses: `threads`, or the usable cores up to THREADS_AUTO_MAX */
    int poll;     /* ggml's polling between graphs, 0 to 100 (0: sleep, never spin) */
    int context, max_tokens;
    /* Unloading an idle model: after idle_unload seconds without a run (0: never) a thread of
     * the instance frees it; the next run loads it again. */
    int idle_unload;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t reaper;
    int synced, reaper_started, stopping, busy; /* synced: lock and wake made */
    struct timespec last_used;
    int proofread; /* proofreading on (off by default: see README.md) */
    emend_prompt_style prompt_style; /* how much help the prompt gives the model */
} provider;

static void log_llama(void *context, const char *line) {
    const provider *p = context;
    p->base.host->log(NULL, EMEND_LOG_ERROR, line);
}

/* ---- one generation ------------------------------------------------------------------------- */

typedef struct job {
    provider *p;
    emend_run *run;
    emend_plugin_slot *slot;
    const emend_provider_request *request;
    output *out;
    int piece_index, piece_count;
} job;

static int job_cancelled(void *context) {
    job *j = context;
    return emend_plugin_slot_cancelled(j->slot, j->p->base.host);
}

static int job_emit(void *context, const char *bytes, size_t length) {
    job *j = context;
    return output_write(j->out, bytes, length);
}

static int count_tokens(void *context, const char *text, size_t length) {
    return llm_count_tokens(context, text, length);
}

static emend_status fail(char *message, size_t size, emend_status status, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static emend_status fail(char *message, size_t size, emend_status status, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(message, size, format, args);
    va_end(args);
    return status;
}

/* The request with another tool, copied no further than the host's struct reaches (the
 * fields it lacks stay zero). */
static emend_provider_request request_for_tool(const emend_provider_request *request, emend_tool tool) {
    emend_provider_request shaped;
    memset(&shaped, 0, sizeof shaped);
    size_t size = request->struct_size < sizeof shaped ? request->struct_size : sizeof shaped;
    memcpy(&shaped, request, size);
    shaped.tool = tool;
    return shaped;
}

/* Generates for `input` (a piece) with `tool`'s prompt into j->out. */
static emend_status generate(job *j, emend_tool tool, const char *input, size_t length, const char *grammar,
                             int max_tokens, const char *what, char *message, size_t size) {
    emend_provider_request shaped = request_for_tool(j->request, tool);
    emend_prompt prompt;
    char err[256] = "";
    if (emend_prompt_build_styled(&shaped, input, length, j->p->prompt_style, &prompt, err, sizeof err) != 0)
        return fail(message, size, EMEND_E_INVALID_ARGUMENT, "%s", err);
    llm_request r = {prompt.system, prompt.user, prompt.example_user, prompt.example_answer,
                     grammar, max_tokens, job_emit, job_cancelled, j};
    llm_stats stats;
    llm_result result = llm_generate(j->p->model, &r, &stats, err, sizeof err);
    emend_prompt_free(&prompt);
    double rate = stats.generate_seconds > 0 ? stats.generated_tokens / stats.generate_seconds : 0;
    emend_plugin_log(j->p->base.host, j->run, EMEND_LOG_DEBUG,
          "%s, piece %d of %d: %d prompt tokens in %.2f s, %d tokens in %.2f s (%.0f tokens/s), "
          "%d grammar resamples%s",
          what, j->piece_index + 1, j->piece_count, stats.prompt_tokens, stats.prompt_seconds,
          stats.generated_tokens, stats.generate_seconds, rate, stats.grammar_resamples,
          stats.hit_limit ? ", stopped at the token limit" : "");
    if (stats.hit_limit)
        emend_plugin_log(j->p->base.host, j->run, EMEND_LOG_INFO, "%s: the output stopped at the token limit (%d tokens)", what,
              stats.generated_tokens);
    switch (result) {
    case LLM_DONE: return EMEND_OK;
    case LLM_CANCELLED: return fail(message, size, EMEND_E_CANCELLED, "cancelled");
    case LLM_STOPPED:
        if (j->out->failed) return fail(message, size, EMEND_E_INTERNAL, "out of memory");
        if (j->out->refused == EMEND_E_CANCELLED) return fail(message, size, EMEND_E_CANCELLED, "cancelled");
        return fail(message, size, j->out->refused, "the host refused the output");
    case LLM_FAILED: break;
    }
    return fail(message, size, EMEND_E_PROVIDER, "%s", err);
}

/* ---- budgets ---------------------------------------------------------------------------------- */

/* The most a tool may write for an input of n tokens: per_input * n + fixed, at most
 * max_tokens (a rewrite rarely needs twice its input; a longer one is a model looping). */
static void expected_output(const provider *p, emend_tool tool, double *per_input, int *fixed) {
    switch (tool) {
    case EMEND_TOOL_PROOFREAD: *per_input = 1.0, *fixed = 256; break;
    case EMEND_TOOL_SUMMARY: *per_input = 0, *fixed = 160; break;
    case EMEND_TOOL_KEY_POINTS: *per_input = 0, *fixed = 200; break;
    case EMEND_TOOL_COMPOSE: *per_input = 0, *fixed = p->context / 2; break;
    case EMEND_TOOL_LIST:
    case EMEND_TOOL_TABLE: *per_input = 2.0, *fixed = 128; break;
    default: *per_input = 2.0, *fixed = 64; break; /* rewrites */
    }
    if (*fixed > p->max_tokens) *fixed = p->max_tokens;
}

/* The largest input (tokens) of a piece such that prompt + input + expected output fit the
 * context; -1 when the tool's prompt cannot be built (message set). */
static int max_input_tokens(job *j, emend_tool tool, emend_status *status, char *message, size_t size) {
    provider *p = j->p;
    emend_provider_request shaped = request_for_tool(j->request, tool);
    emend_prompt prompt;
    char err[256] = "";
    if (emend_prompt_build_styled(&shaped, "", 0, p->prompt_style, &prompt, err, sizeof err) != 0) {
        *status = fail(message, size, EMEND_E_INVALID_ARGUMENT, "%s", err);
        return -1;
    }
    llm_request messages = {prompt.system, prompt.user, prompt.example_user, prompt.example_answer, NULL, 0, NULL, NULL, NULL};
    int overhead = llm_prompt_tokens(p->model, &messages);
    emend_prompt_free(&prompt);
    if (overhead < 0) {
        *status = fail(message, size, EMEND_E_PROVIDER, "cannot apply the model's chat template");
        return -1;
    }
    double per_input;
    int fixed;
    expected_output(p, tool, &per_input, &fixed);
    int room = llm_context_size(p->model) * 95 / 100 - overhead - 16; /* a margin for the joins */
    int by_estimate = (int)((room - fixed) / (1.0 + per_input));
    int by_limit = room - p->max_tokens;
    return by_estimate > by_limit ? by_estimate : by_limit;
}

static int output_limit(const provider *p, emend_tool tool, int input_tokens) {
    double per_input;
    int fixed;
    expected_output(p, tool, &per_input, &fixed);
    double limit = per_input * input_tokens + fixed;
    return limit < p->max_tokens ? (int)limit : p->max_tokens;
}

/* ---- the tools -------------------------------------------------------------------------------- */

/* The rows-only grammar for a table's later pieces, with the first piece's column count. */
static char *table_rows_grammar(int columns) {
    size_t size = 256 + (size_t)columns * 16;
    char *g = malloc(size);
    if (g == NULL) return NULL;
    int n = snprintf(g, size, "root ::= row{1,20}\nrow ::= \"|\"");
    for (int c = 0; c < columns; c++) n += snprintf(g + n, size - (size_t)n, " c \"|\"");
    snprintf(g + n, size - (size_t)n, " \"\\n\"\nc ::= \" \" [^|\\n ] [^|\\n]{0,60}\n");
    return g;
}

static int table_columns(const char *text) {
    int bars = 0;
    for (const char *c = text; *c && *c != '\n'; c++)
        if (*c == '|') bars++;
    return bars - 1;
}

/* Rewrites, follow-up, compose, list, table, and summary or key points of one piece: each
 * piece streamed in turn, joined by a blank line (text), a line break (list) or as more rows
 * of the first piece's table (later pieces generate rows only, with its column count). */
static emend_status serve_text(job *j, const char *input, const piece *pieces, size_t count, char *message,
                               size_t size) {
    emend_tool tool = j->request->tool;
    int shape = emend_prompt_shape(tool);
    const char *separator = shape == EMEND_SHAPE_TEXT ? "\n\n" : "\n";
    output out;
    output_init(&out, j->p->base.host, j->run);
    out.whole_lines = shape != EMEND_SHAPE_TEXT;
    out.skip_intro = shape == EMEND_SHAPE_BULLETS;
    j->out = &out;
    j->piece_count = (int)count;
    emend_status status = EMEND_OK;
    char *rows = NULL;
    char first_table[2048];
    for (size_t i = 0; i < count && status == EMEND_OK; i++) {
        j->piece_index = (int)i;
        const char *grammar = emend_grammar_for(tool);
        if (tool == EMEND_TOOL_TABLE && i == 0) {
            int limit = emend_table_row_limit(input + pieces[i].start, pieces[i].end - pieces[i].start);
            const char *limited = emend_grammar_table_rows(limit, first_table, sizeof first_table);
            if (limited != NULL) grammar = limited;
        } else if (tool == EMEND_TOOL_TABLE) {
            if (rows == NULL && out.length > 0) {
                rows = table_rows_grammar(table_columns(out.text));
                if (rows == NULL) status = fail(message, size, EMEND_E_INTERNAL, "out of memory");
            }
            if (rows != NULL) grammar = rows; /* else the first piece wrote nothing: a whole table */
            if (status != EMEND_OK) break;
        }
        size_t length = pieces[i].end - pieces[i].start;
        output_begin_piece(&out, separator);
        status = generate(j, tool, input + pieces[i].start, length, grammar,
                          output_limit(j->p, tool, llm_count_tokens(j->p->model, input + pieces[i].start, length)),
                          emend_tool_label(tool), message, size);
        output_end_piece(&out);
    }
    if (status == EMEND_OK && out.length == 0)
        status = fail(message, size, EMEND_E_PROVIDER, "the model wrote nothing");
    free(rows);
    output_free(&out);
    return status;
}

/* Summary and key points of an input longer than one piece: each piece is summarised (not
 * shown), the summaries joined (and summarised again while they are still too long), then the
 * tool runs on them and streams. */
static emend_status serve_reduce(job *j, const char *input, size_t length, int max_input, char *message,
                                 size_t size) {
    emend_status status = EMEND_OK;
    char *text = NULL; /* the current (joined) text once a round ran */
    const char *current = input;
    size_t current_length = length;
    for (int round = 0; round < 4; round++) {
        piece *pieces = NULL;
        size_t count = pieces_split(current, current_length, max_input, count_tokens, j->p->model, &pieces);
        if (count == (size_t)-1) {
            status = fail(message, size, EMEND_E_INTERNAL, "out of memory");
            break;
        }
        if (count <= 1 || round == 3) {
            if (count > 1) emend_plugin_log(j->p->base.host, j->run, EMEND_LOG_INFO, "the summaries are still too long: using their start");
            status = serve_text(j, current, pieces, count > 0 ? 1 : 0, message, size);
            free(pieces);
            free(text);
            return status;
        }
        output notes;
        output_init(&notes, NULL, j->run);
        j->out = &notes;
        j->piece_count = (int)count;
        for (size_t i = 0; i < count && status == EMEND_OK; i++) {
            j->piece_index = (int)i;
            output_begin_piece(&notes, "\n\n");
            status = generate(j, EMEND_TOOL_SUMMARY, current + pieces[i].start, pieces[i].end - pieces[i].start,
                              NULL, output_limit(j->p, EMEND_TOOL_SUMMARY, 0), "summary of a piece", message, size);
            output_end_piece(&notes);
        }
        free(pieces);
        free(text);
        text = notes.text; /* keep the collected text */
        notes.text = NULL;
        current = text ? text : "";
        current_length = text ? notes.length : 0;
        output_free(&notes);
        if (status != EMEND_OK) break;
        emend_plugin_log(j->p->base.host, j->run, EMEND_LOG_DEBUG, "round %d: %zu pieces summarised into %zu bytes", round + 1, count,
              current_length);
    }
    free(text);
    return status;
}

/* Proofreading: each piece's JSON validated against the request and emitted as edits. */
static emend_status serve_proofread(job *j, const char *input, const piece *pieces, size_t count, char *message,
                                    size_t size) {
    emend_status status = EMEND_OK;
    size_t base = (size_t)(input - j->request->text);
    j->piece_count = (int)count;
    for (size_t i = 0; i < count && status == EMEND_OK; i++) {
        j->piece_index = (int)i;
        output answer;
        output_init(&answer, NULL, j->run);
        j->out = &answer;
        output_begin_piece(&answer, NULL);
        size_t length = pieces[i].end - pieces[i].start;
        status = generate(j, EMEND_TOOL_PROOFREAD, input + pieces[i].start, length, emend_grammar_edits,
                          output_limit(j->p, EMEND_TOOL_PROOFREAD,
                                       llm_count_tokens(j->p->model, input + pieces[i].start, length)),
                          "proofread", message, size);
        output_end_piece(&answer);
        if (status == EMEND_OK) {
            emend_byte_range within = {base + pieces[i].start, base + pieces[i].end};
            long emitted = emend_edits_apply(j->p->base.host, j->run, j->request, within, answer.text ? answer.text : "",
                                             answer.length, RULE_ID);
            emend_plugin_log(j->p->base.host, j->run, EMEND_LOG_DEBUG, "proofread, piece %zu of %zu: %ld edits emitted", i + 1, count,
                  emitted);
        }
        output_free(&answer);
    }
    return status;
}

static int blank(const char *text, size_t length) {
    for (size_t i = 0; i < length; i++)
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r') return 0;
    return 1;
}

static emend_status serve(void *instance, const emend_provider_request *request, emend_run *run,
                          emend_plugin_slot *slot, char *message, size_t size) {
    provider *p = instance;
    job j = {p, run, slot, request, NULL, 0, 1};
    emend_tool tool = request->tool;
    if (tool == EMEND_TOOL_PROOFREAD && !p->proofread) {
        emend_plugin_log(p->base.host, run, EMEND_LOG_INFO, "proofreading with the model is off (set proofread = true to turn it on)");
        return EMEND_OK;
    }
    size_t length = 0;
    const char *input = emend_prompt_input(request, &length);
    if (blank(input, length) && tool != EMEND_TOOL_COMPOSE) {
        if (tool == EMEND_TOOL_PROOFREAD) return EMEND_OK;
        return fail(message, size, EMEND_E_INVALID_ARGUMENT, "nothing to work on: the %s is empty",
                    tool == EMEND_TOOL_FOLLOW_UP && request->previous_result ? "previous result" : "selection");
    }
    emend_status status = EMEND_OK;
    int max_input = max_input_tokens(&j, tool, &status, message, size);
    if (status != EMEND_OK) return status;
    if (max_input < 16)
        return fail(message, size, EMEND_E_INVALID_ARGUMENT,
                    "the context of %d tokens is too small for %s with max_tokens = %d: raise context",
                    llm_context_size(p->model), emend_tool_label(tool), p->max_tokens);

    piece *pieces = NULL;
    size_t count = pieces_split(input, length, max_input, count_tokens, p->model, &pieces);
    if (count == (size_t)-1) return fail(message, size, EMEND_E_INTERNAL, "out of memory");
    if (count > 1)
        emend_plugin_log(p->base.host, run, EMEND_LOG_INFO, "%s: the input is longer than the context allows: %zu pieces of at most %d tokens",
              emend_tool_label(tool), count, max_input);
    piece whole = {0, 0};
    switch (tool) {
    case EMEND_TOOL_PROOFREAD:
        status = serve_proofread(&j, input, pieces, count, message, size);
        break;
    case EMEND_TOOL_SUMMARY:
    case EMEND_TOOL_KEY_POINTS:
        status = count > 1 ? serve_reduce(&j, input, length, max_input, message, size)
                           : serve_text(&j, input, pieces, count, message, size);
        break;
    case EMEND_TOOL_COMPOSE:
        /* The selection is context for what to write: its start when it is too long. */
        if (count > 1) emend_plugin_log(p->base.host, run, EMEND_LOG_INFO, "compose: only the start of the selection is used as context");
        status = serve_text(&j, input, count > 0 ? pieces : &whole, 1, message, size);
        break;
    default:
        status = serve_text(&j, input, pieces, count, message, size);
        break;
    }
    free(pieces);
    return status;
}

/* ---- settings --------------------------------------------------------------------------------- */

/* The sandbox lets the plugin read the model EMEND_LLAMA_MODEL names, wherever it is (a
 * `model` setting's path is allowed as every setting's is; include/emend_provider.h). */
__attribute__((visibility("default"))) const char emend_provider_read_paths[] = "$EMEND_LLAMA_MODEL";

/* $EMEND_LLAMA_MODEL, else the data directory's SmolLM2; malloc'd. */
static char *default_model(void) {
    const char *env = getenv("EMEND_LLAMA_MODEL");
    if (env != NULL && *env) return emend_plugin_expand_home(env);
    const char *data = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    char path[4096];
    if (data != NULL && data[0] == '/') snprintf(path, sizeof path, "%s/emend/models/" MODEL_FILE, data);
    else snprintf(path, sizeof path, "%s/.local/share/emend/models/" MODEL_FILE, home ? home : "");
    return strdup(path);
}

/* ---- the descriptor's functions --------------------------------------------------------------- */

static void llama_destroy(void *instance);
static int open_model(provider *p, char *err, size_t size);
static void *reap_idle_model(void *instance);

/* 0 when the model file can be read, else an errno. */
static int access_model(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return errno ? errno : ENOENT;
    fclose(f);
    return 0;
}

static emend_status llama_create(const emend_host *host, const emend_provider_setting *settings, size_t setting_count,
                                 void **instance) {
    emend_status status;
    provider *p = emend_plugin_instance_new(host, instance, sizeof *p, &status);
    if (p == NULL) return status;
    p->threads = 0;
    p->poll = 0;
    p->idle_unload = DEFAULT_IDLE_UNLOAD_SECONDS;
    p->context = DEFAULT_CONTEXT;
    p->max_tokens = DEFAULT_MAX_TOKENS;
    p->prompt_style = EMEND_PROMPT_DEFAULT_STYLE;

    const char *model = NULL;
    for (size_t i = 0; i < setting_count && status == EMEND_OK; i++) {
        const emend_provider_setting *setting = &settings[i];
        const char *key = setting->key, *value = setting->value;
        if (key == NULL || value == NULL) continue;
        long number = 0;
        if (strcmp(key, "model") == 0) {
            if (*value == '\0') {
                emend_plugin_log(host, NULL, EMEND_LOG_ERROR, "model must name a GGUF file, not \"\"");
                status = EMEND_E_INVALID_ARGUMENT;
            }
            model = value;
        } else if (strcmp(key, "threads") == 0) { /* "auto" or 0: from the free cores */
            if (strcmp(value, "auto") == 0) p->threads = 0;
            else if ((status = emend_plugin_setting_number(host, setting, 0, 256, &number)) == EMEND_OK) p->threads = (int)number;
        } else if (strcmp(key, "poll") == 0) {
            if ((status = emend_plugin_setting_number(host, setting, 0, 100, &number)) == EMEND_OK) p->poll = (int)number;
        } else if (strcmp(key, "idle_unload") == 0) { /* seconds; 0: keep the model loaded */
            if ((status = emend_plugin_setting_number(host, setting, 0, 31536000, &number)) == EMEND_OK)
                p->idle_unload = (int)number;
        } else if (strcmp(key, "context") == 0) { /* tokens */
            if ((status = emend_plugin_setting_number(host, setting, 128, 1048576, &number)) == EMEND_OK)
                p->context = (int)number;
        } else if (strcmp(key, "max_tokens") == 0) {
            if ((status = emend_plugin_setting_number(host, setting, 1, 1048576, &number)) == EMEND_OK)
                p->max_tokens = (int)number;
        } else if (strcmp(key, "proofread") == 0) {
            status = emend_plugin_setting_bool(host, setting, &p->proofread);
        } else if (strcmp(key, "prompt_style") == 0) {
            if (emend_prompt_style_parse(value, &p->prompt_style) != 0) {
                emend_plugin_log(host, NULL, EMEND_LOG_ERROR,
                                 "prompt_style must be \"plain\", \"keep-facts\", \"example\" or \"default\", not \"%s\"", value);
                status = EMEND_E_INVALID_ARGUMENT;
            }
        } else {
            emend_plugin_setting_unknown(host, setting);
        }
    }
    if (status == EMEND_OK) {
        p->model_path = model ? emend_plugin_expand_home(model) : default_model();
        if (p->model_path == NULL) status = EMEND_E_INTERNAL;
    }
    if (status == EMEND_OK) {
        llm_set_log(log_llama, p);
        char err[1024] = "";
        int usable = 1;
        (void)threads_sample(&usable, NULL);
        p->max_threads = p->threads > 0 ? p->threads : usable < THREADS_AUTO_MAX ? usable : THREADS_AUTO_MAX;
        int missing = access_model(p->model_path);
        if (missing != 0) {
            emend_plugin_log(p->base.host, NULL, EMEND_LOG_ERROR, "no model at %s: %s (set model = \"/path/to/model.gguf\", or run "
                  "scripts/setup-llama.sh for the default one)", p->model_path, strerror(missing));
            status = EMEND_E_NOT_FOUND;
        } else if (open_model(p, err, sizeof err) != 0) {
            emend_plugin_log(p->base.host, NULL, EMEND_LOG_ERROR, "%s", err);
            status = EMEND_E_PROVIDER;
        } else {
            emend_plugin_log(p->base.host, NULL, EMEND_LOG_DEBUG, "loaded %s", llm_description(p->model));
        }
    }
    if (status == EMEND_OK) {
        clock_gettime(CLOCK_MONOTONIC, &p->last_used);
        /* The reaper's deadlines are on the monotonic clock: a change of the wall clock moves none. */
        pthread_condattr_t attributes;
        if (pthread_condattr_init(&attributes) != 0) {
            status = EMEND_E_INTERNAL;
        } else {
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
            if (pthread_mutex_init(&p->lock, NULL) != 0) {
                status = EMEND_E_INTERNAL;
            } else if (pthread_cond_init(&p->wake, &attributes) != 0) {
                pthread_mutex_destroy(&p->lock);
                status = EMEND_E_INTERNAL;
            } else {
                p->synced = 1;
                if (p->idle_unload > 0 && pthread_create(&p->reaper, NULL, reap_idle_model, p) == 0) p->reaper_started = 1;
            }
            pthread_condattr_destroy(&attributes);
        }
    }
    if (status != EMEND_OK) {
        llama_destroy(p);
        return status;
    }
    *instance = p;
    return EMEND_OK;
}

/* ---- threads and the model's life ------------------------------------------------------------ */

static double seconds_since(const struct timespec *then) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - then->tv_sec) + (double)(now.tv_nsec - then->tv_nsec) / 1e9;
}

static int open_model(provider *p, char *err, size_t size) {
    llm_options options = {p->model_path, p->max_threads, p->poll, p->context};
    return llm_open(&options, &p->model, err, size);
}

/* The reaper: frees the model once no run used it for idle_unload seconds. */
static void *reap_idle_model(void *instance) {
    provider *p = instance;
    pthread_mutex_lock(&p->lock);
    while (!p->stopping) {
        double idle = seconds_since(&p->last_used);
        if (p->model != NULL && p->busy == 0 && idle >= p->idle_unload) {
            llm_close(p->model);
            p->model = NULL;
            emend_plugin_log(p->base.host, NULL, EMEND_LOG_DEBUG, "model unloaded after %d s without a run (idle_unload)",
                             p->idle_unload);
        }
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        double wait = p->model != NULL && p->busy == 0 ? p->idle_unload - idle : p->idle_unload;
        if (wait < 0.01) wait = 0.01;
        until.tv_sec += (time_t)wait;
        until.tv_nsec += (long)((wait - (double)(time_t)wait) * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&p->wake, &p->lock, &until);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* The threads of this run: `threads` when set, else the cores free now (see threads.h: more
 * threads than free cores spin at ggml's barrier). The sampling thread is the one runnable
 * thread of ours at this point (the pool's threads sleep between graphs with poll = 0). */
static void choose_threads(provider *p, emend_run *run) {
    if (p->threads > 0) {
        llm_set_threads(p->model, p->threads);
        emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "%d of %d threads (threads in the settings)", p->threads,
                         p->max_threads);
        return;
    }
    int usable = 1, running[THREADS_LOOKS];
    int looks = threads_sample(&usable, running);
    int threads = threads_choose(0, p->max_threads, usable, running, looks, 1);
    llm_set_threads(p->model, threads);
    double sum = 0;
    for (int i = 0; i < looks; i++) sum += running[i];
    if (looks > 0)
        emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG,
                         "%d of %d threads (the free cores: %d usable, %.1f runnable threads on the machine)", threads,
                         p->max_threads, usable, sum / looks);
    else
        emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG,
                         "%d of %d threads (the free cores: %d usable, /proc/stat unreadable: taken as free)", threads,
                         p->max_threads, usable);
}

/* One run: the model loaded again if it was unloaded, the threads chosen, then `serve`. */
static emend_status serve_with_model(void *instance, const emend_provider_request *request, emend_run *run,
                                     emend_plugin_slot *slot, char *message, size_t size) {
    provider *p = instance;
    if (request->tool == EMEND_TOOL_PROOFREAD && !p->proofread) return serve(instance, request, run, slot, message, size);
    pthread_mutex_lock(&p->lock);
    p->busy++;
    emend_status status = EMEND_OK;
    if (p->model == NULL) {
        char err[1024] = "";
        if (open_model(p, err, sizeof err) != 0) status = fail(message, size, EMEND_E_PROVIDER, "%s", err);
        else emend_plugin_log(p->base.host, run, EMEND_LOG_DEBUG, "loaded %s again", llm_description(p->model));
    }
    pthread_mutex_unlock(&p->lock);
    if (status == EMEND_OK) {
        choose_threads(p, run);
        status = serve(instance, request, run, slot, message, size);
    }
    pthread_mutex_lock(&p->lock);
    p->busy--;
    clock_gettime(CLOCK_MONOTONIC, &p->last_used);
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    return status;
}

static emend_status llama_run(void *instance, const emend_provider_request *request, emend_run *run) {
    return emend_plugin_run_inside(instance, request, run, TOOLS, serve_with_model);
}

static void llama_destroy(void *instance) {
    provider *p = instance;
    if (p == NULL) return;
    if (p->synced) {
        pthread_mutex_lock(&p->lock);
        p->stopping = 1;
        pthread_cond_signal(&p->wake);
        pthread_mutex_unlock(&p->lock);
        if (p->reaper_started) pthread_join(p->reaper, NULL);
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
    }
    llm_clear_log(p);
    llm_close(p->model);
    free(p->model_path);
    emend_plugin_instance_free(p);
}

/* Priority 1: above the built-in fixture (and 0-priority plugins) for the model tools, below
 * the spelling and grammar checkers (Hunspell 5, Harper 20) when proofreading is combined. */
EMEND_PLUGIN_DESCRIPTOR(.id = PLUGIN_ID, .name = "Local model (llama.cpp)", .version = "1.0.0", .tools = TOOLS,
                        .languages = "*", .outputs = EMEND_OUTPUT_MARKDOWN | EMEND_OUTPUT_EDITS,
                        .flags = EMEND_PROVIDER_STREAMS, .priority = 1, .create = llama_create, .run = llama_run,
                        .cancel = emend_plugin_cancel, .destroy = llama_destroy)
