/* model.c — see model.h. */
#define _POSIX_C_SOURCE 200809L
#include "model.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emend_plugin.h"
#include "ggml-cpu.h"
#include "llama.h"

#define PENALTY_WINDOW 64
#define PENALTY 1.1f

struct llm {
    struct llama_model *model;
    struct llama_context *context;
    const struct llama_vocab *vocab;
    const char *template_text;   /* the model's chat template, or NULL: ChatML */
    int n_ctx;
    int n_batch;
    int n_vocab;
    llama_token_data *candidates; /* n_vocab entries, reused for every token */
    /* The model's own threads, kept for its life (without one, ggml made and ended a pool of
     * threads for every token) and asleep between graphs (poll 0), never spinning for work. */
    struct ggml_threadpool *pool;
    int max_threads;
    char description[256];
    /* The generation in progress, for the abort callback. */
    llm_cancelled_fn cancelled;
    void *cancelled_context;
};

/* ---- logging -------------------------------------------------------------------------------- */

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static void (*log_sink)(void *, const char *);
static void *log_sink_context;

static void llama_log(enum ggml_log_level level, const char *text, void *user_data) {
    (void)user_data;
    if (level != GGML_LOG_LEVEL_ERROR || text == NULL) return;
    char line[512];
    snprintf(line, sizeof line, "llama.cpp: %s", text);
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' ')) line[--n] = '\0';
    pthread_mutex_lock(&log_lock);
    if (log_sink != NULL && n > 11) log_sink(log_sink_context, line);
    pthread_mutex_unlock(&log_lock);
}

void llm_set_log(void (*log)(void *context, const char *line), void *context) {
    pthread_mutex_lock(&log_lock);
    log_sink = log;
    log_sink_context = context;
    pthread_mutex_unlock(&log_lock);
}

void llm_clear_log(void *context) {
    pthread_mutex_lock(&log_lock);
    if (log_sink_context == context) {
        log_sink = NULL;
        log_sink_context = NULL;
    }
    pthread_mutex_unlock(&log_lock);
}

static pthread_once_t backend_once = PTHREAD_ONCE_INIT;
static void backend_init(void) {
    llama_log_set(llama_log, NULL);
    llama_backend_init();
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- opening ---------------------------------------------------------------------------------- */

static bool abort_callback(void *data) {
    llm *m = data;
    return m->cancelled != NULL && m->cancelled(m->cancelled_context);
}

int llm_open(const llm_options *options, llm **out, char *err, size_t errlen) {
    *out = NULL;
    pthread_once(&backend_once, backend_init);
    FILE *probe = fopen(options->path, "rb");
    if (probe == NULL) return emend_plugin_fail(err, errlen, "cannot open the model %s: %s", options->path, strerror(errno));
    fclose(probe);

    llm *m = calloc(1, sizeof *m);
    if (m == NULL) return emend_plugin_fail(err, errlen, "out of memory");
    struct llama_model_params model_params = llama_model_default_params();
    model_params.n_gpu_layers = 0;
    m->model = llama_model_load_from_file(options->path, model_params);
    if (m->model == NULL) {
        free(m);
        return emend_plugin_fail(err, errlen, "llama.cpp cannot load %s as a GGUF model", options->path);
    }
    m->vocab = llama_model_get_vocab(m->model);
    m->n_vocab = llama_vocab_n_tokens(m->vocab);
    m->template_text = llama_model_chat_template(m->model, NULL);

    struct llama_context_params context_params = llama_context_default_params();
    context_params.n_ctx = (uint32_t)options->context;
    context_params.n_batch = (uint32_t)options->context;
    context_params.n_threads = options->threads;
    context_params.n_threads_batch = options->threads;
    context_params.no_perf = true;
    context_params.abort_callback = abort_callback;
    context_params.abort_callback_data = m;
    m->context = llama_init_from_model(m->model, context_params);
    m->max_threads = options->threads;
    if (m->context != NULL) {
        struct ggml_threadpool_params pool_params = ggml_threadpool_params_default(options->threads);
        pool_params.poll = (uint32_t)(options->poll < 0 ? 0 : options->poll > 100 ? 100 : options->poll);
        m->pool = ggml_threadpool_new(&pool_params);
        /* Without it llama.cpp still works, with a pool per graph. */
        if (m->pool != NULL) llama_attach_threadpool(m->context, m->pool, m->pool);
    }
    m->candidates = m->n_vocab > 0 ? malloc((size_t)m->n_vocab * sizeof *m->candidates) : NULL;
    if (m->context == NULL || m->candidates == NULL) {
        llm_close(m);
        return emend_plugin_fail(err, errlen, "llama.cpp cannot make a context of %d tokens for %s", options->context, options->path);
    }
    m->n_ctx = (int)llama_n_ctx(m->context);
    m->n_batch = (int)llama_n_batch(m->context);
    if (m->n_batch <= 0) m->n_batch = 512;

    char desc[128] = "";
    llama_model_desc(m->model, desc, sizeof desc);
    const char *name = strrchr(options->path, '/');
    snprintf(m->description, sizeof m->description, "%s (%s, context %d tokens, %d threads%s)",
             name ? name + 1 : options->path, desc, m->n_ctx, options->threads,
             m->template_text ? "" : ", no chat template: ChatML");
    *out = m;
    return 0;
}

void llm_close(llm *m) {
    if (m == NULL) return;
    if (m->context != NULL) llama_free(m->context);
    if (m->pool != NULL) ggml_threadpool_free(m->pool);
    if (m->model != NULL) llama_model_free(m->model);
    free(m->candidates);
    free(m);
}

void llm_set_threads(llm *m, int threads) {
    if (threads < 1) threads = 1;
    if (threads > m->max_threads) threads = m->max_threads;
    llama_set_n_threads(m->context, threads, threads);
}

int llm_context_size(const llm *m) { return m->n_ctx; }
const char *llm_description(const llm *m) { return m->description; }

/* ---- prompts ---------------------------------------------------------------------------------- */

/* The messages of a prompt: the system message, a worked example's two turns, the user's. */
typedef struct chat {
    const char *system, *example_user, *example_answer, *user;
} chat;

/* The prompt text for the messages with the model's template (ChatML when it has none or
 * llama.cpp does not know it); malloc'd. */
static char *format_chat(llm *m, const chat *c, const char *user) {
    struct llama_chat_message messages[4];
    size_t n = 0, size = 512;
    if (c->system != NULL && *c->system) messages[n++] = (struct llama_chat_message){"system", c->system};
    if (c->example_user != NULL && c->example_answer != NULL) {
        messages[n++] = (struct llama_chat_message){"user", c->example_user};
        messages[n++] = (struct llama_chat_message){"assistant", c->example_answer};
    }
    messages[n++] = (struct llama_chat_message){"user", user};
    for (size_t i = 0; i < n; i++) size += 2 * strlen(messages[i].content);
    for (int attempt = 0; attempt < 2; attempt++) {
        char *buffer = malloc(size);
        if (buffer == NULL) return NULL;
        int32_t length = llama_chat_apply_template(m->template_text, messages, n, true, buffer, (int32_t)size);
        if (length < 0 && m->template_text != NULL) /* a template llama.cpp does not know */
            length = llama_chat_apply_template("chatml", messages, n, true, buffer, (int32_t)size);
        if (length < 0) {
            free(buffer);
            return NULL;
        }
        if ((size_t)length < size) {
            buffer[length] = '\0';
            return buffer;
        }
        free(buffer);
        size = (size_t)length + 1;
    }
    return NULL;
}

/* Tokens of text appended to *tokens (*count of them, *capacity allocated; realloc'd).
 * `first` adds the model's start token; `special` reads control-token text such as
 * "<|im_end|>" as the control token. 0 on success, -1 on failure. */
static int tokenize_into(llm *m, const char *text, size_t length, bool first, bool special, llama_token **tokens,
                         int *count, int *capacity) {
    if (length > (size_t)INT32_MAX / 2 || *count > INT32_MAX / 2 - (int)length - 8) return -1;
    int needed = *count + (int)length + 8;
    if (needed > *capacity) {
        llama_token *grown = realloc(*tokens, (size_t)needed * sizeof **tokens);
        if (grown == NULL) return -1;
        *tokens = grown;
        *capacity = needed;
    }
    int32_t room = *capacity - *count;
    int32_t n = llama_tokenize(m->vocab, text, (int32_t)length, *tokens + *count, room, first, special);
    if (n < 0 && n != INT32_MIN) { /* more tokens than bytes + 8: grow to what it asks */
        if (-n > INT32_MAX - *count) return -1;
        llama_token *grown = realloc(*tokens, (size_t)(*count - n) * sizeof **tokens);
        if (grown == NULL) return -1;
        *tokens = grown;
        *capacity = *count - n;
        n = llama_tokenize(m->vocab, text, (int32_t)length, *tokens + *count, -n, first, special);
    }
    if (n < 0) return -1;
    *count += n;
    return 0;
}

/* Stands for the user's message while the template is applied: letters and digits only, so
 * that no template changes it. */
#define USER_MARK "EmendUserMessage0x5eed"

/* The tokens of the chat prompt (malloc'd, *count of them; NULL on failure). The template's
 * own text is read with its control tokens; the user's message never is: a selection
 * containing "<|im_end|>" stays text the model reads, not the end of the message. Should a
 * template change the message so that it cannot be found, the whole prompt is read with
 * control tokens (as llama.cpp's own tools do). */
static llama_token *tokenize_chat(llm *m, const chat *c, int *count) {
    const char *user = c->user;
    llama_token *tokens = NULL;
    int capacity = 0;
    *count = 0;
    char *frame = format_chat(m, c, USER_MARK);
    if (frame == NULL) return NULL;
    const char *mark = strstr(frame, USER_MARK);
    int ok;
    if (mark != NULL && strstr(mark + 1, USER_MARK) == NULL) {
        const char *after = mark + strlen(USER_MARK);
        ok = tokenize_into(m, frame, (size_t)(mark - frame), true, true, &tokens, count, &capacity) == 0 &&
             tokenize_into(m, user, strlen(user), false, false, &tokens, count, &capacity) == 0 &&
             tokenize_into(m, after, strlen(after), false, true, &tokens, count, &capacity) == 0;
    } else {
        char *prompt = format_chat(m, c, user);
        ok = prompt != NULL && tokenize_into(m, prompt, strlen(prompt), true, true, &tokens, count, &capacity) == 0;
        free(prompt);
    }
    free(frame);
    if (!ok) {
        free(tokens);
        return NULL;
    }
    return tokens;
}

int llm_count_tokens(llm *m, const char *text, size_t length) {
    llama_token *tokens = NULL;
    int n = 0, capacity = 0;
    int rc = tokenize_into(m, text, length, false, false, &tokens, &n, &capacity);
    free(tokens);
    if (rc != 0) return length >= INT_MAX ? INT_MAX : (int)length + 1; /* at most a token per byte */
    return n;
}

int llm_prompt_tokens(llm *m, const llm_request *r) {
    int n = 0;
    chat c = {r->system, r->example_user, r->example_answer, r->user};
    llama_token *tokens = tokenize_chat(m, &c, &n);
    if (tokens == NULL) return -1;
    free(tokens);
    return n;
}

/* ---- generation ------------------------------------------------------------------------------- */

static llama_token argmax(const llama_token_data_array *a) {
    size_t best = 0;
    for (size_t i = 1; i < a->size; i++)
        if (a->data[i].logit > a->data[best].logit) best = i;
    return a->size > 0 && a->data[best].logit != -INFINITY ? a->data[best].id : LLAMA_TOKEN_NULL;
}

llm_result llm_generate(llm *m, const llm_request *r, llm_stats *stats, char *err, size_t errlen) {
    llm_stats local;
    if (stats == NULL) stats = &local;
    memset(stats, 0, sizeof *stats);
    llm_result result = LLM_DONE;
    struct llama_sampler *grammar = NULL;
    llama_token recent[PENALTY_WINDOW];
    int n_recent = 0;
    llama_token *tokens = NULL;
    int n_prompt = 0;
    chat c = {r->system, r->example_user, r->example_answer, r->user};
    tokens = tokenize_chat(m, &c, &n_prompt);
    if (tokens == NULL || n_prompt == 0) {
        free(tokens);
        emend_plugin_fail(err, errlen, "cannot tokenize the prompt");
        return LLM_FAILED;
    }
    stats->prompt_tokens = n_prompt;
    if (n_prompt >= m->n_ctx) {
        free(tokens);
        emend_plugin_fail(err, errlen, "the prompt has %d tokens, the context only %d", n_prompt, m->n_ctx);
        return LLM_FAILED;
    }
    if (r->grammar != NULL) {
        grammar = llama_sampler_init_grammar(m->vocab, r->grammar, "root");
        if (grammar == NULL) {
            free(tokens);
            emend_plugin_fail(err, errlen, "llama.cpp rejected the output grammar");
            return LLM_FAILED;
        }
    }

    m->cancelled = r->cancelled;
    m->cancelled_context = r->context;
    llama_memory_clear(llama_get_memory(m->context), true);

    double started = now();
    for (int i = 0; i < n_prompt; i += m->n_batch) {
        int n = n_prompt - i < m->n_batch ? n_prompt - i : m->n_batch;
        int32_t rc = llama_decode(m->context, llama_batch_get_one(tokens + i, n));
        if (rc != 0 || (r->cancelled && r->cancelled(r->context))) {
            if (r->cancelled && r->cancelled(r->context)) result = LLM_CANCELLED;
            else result = LLM_FAILED, emend_plugin_fail(err, errlen, "llama_decode failed (%d) on the prompt", (int)rc);
            goto done;
        }
    }
    double generating = now();
    stats->prompt_seconds = generating - started;

    int position = n_prompt;
    char piece[256];
    for (int produced = 0;; produced++) {
        if (produced >= r->max_tokens || position >= m->n_ctx) {
            stats->hit_limit = 1;
            break;
        }
        float *logits = llama_get_logits_ith(m->context, -1);
        if (logits == NULL) {
            result = LLM_FAILED;
            emend_plugin_fail(err, errlen, "llama.cpp gave no logits");
            break;
        }
        for (int t = 0; t < m->n_vocab; t++) m->candidates[t] = (llama_token_data){t, logits[t], 0.0f};
        llama_token_data_array all = {m->candidates, (size_t)m->n_vocab, -1, false};
        /* A light penalty on recently generated tokens (each once): small models loop
         * otherwise. The candidates are in token order here. */
        for (int k = 0; k < n_recent; k++) {
            llama_token t = recent[k];
            int seen = 0;
            for (int q = 0; q < k && !seen; q++) seen = recent[q] == t;
            if (seen || t < 0 || t >= m->n_vocab) continue;
            float *logit = &m->candidates[t].logit;
            *logit = *logit > 0 ? *logit / PENALTY : *logit * PENALTY;
        }
        llama_token token = argmax(&all);
        if (grammar != NULL && token != LLAMA_TOKEN_NULL) {
            /* The fast path: ask the grammar about the chosen token alone; only when it
             * refuses, constrain the whole candidate set and choose again. */
            llama_token_data one = {token, 1.0f, 0.0f};
            llama_token_data_array single = {&one, 1, -1, false};
            llama_sampler_apply(grammar, &single);
            if (one.logit == -INFINITY) {
                stats->grammar_resamples++;
                llama_sampler_apply(grammar, &all);
                token = argmax(&all);
            }
        }
        if (token == LLAMA_TOKEN_NULL) {
            result = LLM_FAILED;
            emend_plugin_fail(err, errlen, "no token is allowed by the output grammar");
            break;
        }
        if (n_recent < PENALTY_WINDOW) recent[n_recent++] = token;
        else {
            memmove(recent, recent + 1, (PENALTY_WINDOW - 1) * sizeof *recent);
            recent[PENALTY_WINDOW - 1] = token;
        }
        if (grammar != NULL) llama_sampler_accept(grammar, token);
        if (llama_vocab_is_eog(m->vocab, token)) break;
        stats->generated_tokens++;

        int32_t n = llama_token_to_piece(m->vocab, token, piece, (int32_t)sizeof piece, 0, false);
        int stop = 0;
        if (n > 0) {
            stop = r->emit(r->context, piece, (size_t)n);
        } else if (n < 0) { /* a piece longer than the buffer */
            char *large = malloc((size_t)-n);
            int32_t got = large ? llama_token_to_piece(m->vocab, token, large, -n, 0, false) : 0;
            if (got > 0) stop = r->emit(r->context, large, (size_t)got);
            free(large);
        }
        if (stop) {
            result = LLM_STOPPED;
            break;
        }
        if (r->cancelled && r->cancelled(r->context)) {
            result = LLM_CANCELLED;
            break;
        }
        int32_t rc = llama_decode(m->context, llama_batch_get_one(&token, 1));
        position++;
        if (rc != 0) {
            if (r->cancelled && r->cancelled(r->context)) result = LLM_CANCELLED;
            else result = LLM_FAILED, emend_plugin_fail(err, errlen, "llama_decode failed (%d)", (int)rc);
            break;
        }
    }
    stats->generate_seconds = now() - generating;

done:
    m->cancelled = NULL;
    m->cancelled_context = NULL;
    if (grammar != NULL) llama_sampler_free(grammar);
    free(tokens);
    return result;
}
